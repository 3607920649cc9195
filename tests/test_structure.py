"""The code's shape, as STYLE.md asks: no import cycles, no class over ~400 lines, no
function over ~150, the play scene under ~300, the play session free of pygame."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("game", "engine")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `path` imports, at the top or inside a function."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PACKAGES:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in known)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] in PACKAGES)
    return {m for m in out if m in known}


@pytest.mark.parametrize("package", ["game", "engine"])
def test_no_module_imports_itself_through_others(package):
    """A package's own __init__ (which only gathers names) is no edge."""
    known = modules()
    graph = {name: imports(path, known) - {name, *PACKAGES} for name, path in known.items() if name.split(".")[0] == package}
    graph = {name: deps & set(graph) for name, deps in graph.items()}
    cycles = []

    def visit(name: str, path: list[str], done: set[str]) -> None:
        for dep in sorted(graph[name]):
            if dep in path:
                cycles.append(" → ".join([*path[path.index(dep) :], dep]))
            elif dep not in done:
                done.add(dep)
                visit(dep, [*path, dep], done)

    for name in sorted(graph):
        visit(name, [name], {name})
    assert not cycles, f"import cycles: {sorted(set(cycles))[:5]}"


def sizes(kind, package: str = "game"):
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, kind):
                yield f"{path.relative_to(ROOT)}:{node.name}", node.end_lineno - node.lineno + 1


@pytest.mark.parametrize("package", ["game", "engine"])
def test_no_class_over_400_lines_and_no_function_over_150(package):
    assert [(n, k) for n, k in sizes(ast.ClassDef, package) if k > 400] == []
    assert [(n, k) for n, k in sizes((ast.FunctionDef, ast.AsyncFunctionDef), package) if k > 150] == []


def test_the_play_scene_stays_small_and_the_play_session_needs_no_pygame():
    scene = dict(sizes(ast.ClassDef))["game/app/scenes/play.py:PlayScene"]
    assert scene <= 300
    for module in ("game/app/session.py", "game/app/statics.py", "game/app/stage.py", "game/app/pacing.py"):
        assert imports(ROOT / module, modules()).isdisjoint({"equilibria.app.app", "equilibria.app.draw", "equilibria.app.overlay"})
        assert "pygame" not in (ROOT / module).read_text(encoding="utf-8").replace("No pygame", "")


def test_no_internal_names_in_what_a_student_reads():
    """Level texts cite no paper by its internal name, name no field path, and write no
    number with an exponent."""
    for path in sorted((ROOT / "levels").glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if "brief" not in doc:
            continue
        texts = [doc.get("title", ""), doc["brief"], doc.get("explanation", ""), *doc.get("hints", [])]
        for text in (t for x in texts for t in (x.values() if isinstance(x, dict) else [x])):  # every language's
            assert "seed" not in text.lower() and "nodes[" not in text, (path.name, text)
            assert not re.search(r"\de[+-]\d", text), (path.name, text)
