"""The code's shape: rooms with walls (each room imports only the
rooms below it), no import cycle counted as Python runs imports, the layers named by
folder, no class over ~400 lines, no function over ~150, the play scene under ~300, the
play session free of pygame. Each guard is shown to fail on a fault planted in a copy
of the tree (tests/structure.py draws the house from its imports)."""

from __future__ import annotations

import ast
import json
import re
import shutil
from pathlib import Path

import pytest
from structure import MAX_MODULES, ROOMS, arrows_back, cycles, graph, imports, layer_faults, modules, packages

ROOT = Path(__file__).resolve().parents[1]


def test_every_folder_of_modules_is_an_installed_package():
    """A folder of modules that pyproject.toml does not list is left out of the wheel."""
    listed = set(packages().values())
    folders = {p.parent for top in ("game", "engine") for p in (ROOT / top).rglob("*.py")}
    assert sorted(str(f.relative_to(ROOT)) for f in folders - listed) == []


def test_no_import_cycle_counting_the_packages_an_import_runs_first():
    found = cycles(graph())
    assert found == [], f"import cycles among: {found}"


def test_a_package_module_imports_nothing_of_the_project():
    """Importing any module of a package runs its __init__ first: one that imported its
    own modules would sit in a circle with each that imports a sibling."""
    known = modules()
    inits = {name: path for name, path in known.items() if path.name == "__init__.py"}
    assert {name: sorted(imports(name, path, known)) for name, path in inits.items() if imports(name, path, known)} == {}


def test_each_room_imports_only_rooms_below_it():
    assert arrows_back() == []


def test_every_room_is_placed_and_none_is_crowded():
    rooms = packages()
    assert sorted(set(rooms) - set(ROOMS)) == [] and sorted(set(ROOMS) - set(rooms)) == []
    crowded = {room: n for room, folder in rooms.items() if (n := len([p for p in folder.glob("*.py") if p.stem != "__init__"])) > MAX_MODULES}
    assert crowded == {}


def test_the_readme_and_the_engine_doc_draw_the_rooms():
    layout = (ROOT / "README.md").read_text(encoding="utf-8").split("## Layout", 1)[1].split("\n## ", 1)[0]
    engine = (ROOT / "docs/engine.md").read_text(encoding="utf-8")
    for folder in packages().values():
        where = folder.relative_to(ROOT).as_posix() + "/"
        assert where.split("/", 1)[1] in layout or where in layout, f"README's Layout does not show {where}"
        if where.startswith("engine/"):
            assert where in engine, f"docs/engine.md does not show {where}"


def test_the_layers_named_by_folder_hold():
    """Only game/app/ imports pygame (not its session/); the engine imports nothing outside
    it, nor pygame or pymunk; words/, files/, format/, rules/, course/, work/, classroom/
    import no app/ and no cli/."""
    assert layer_faults() == []


# ------------------------------------------------ each guard fails on a planted fault


@pytest.fixture
def tree(tmp_path) -> Path:
    """A copy of the tree the guards read (the sources and pyproject.toml)."""
    for top in ("game", "engine"):
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("__pycache__", "locale"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def plant(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n\n" + line + "\n", encoding="utf-8")


def test_the_cycle_guard_sees_a_lazy_circle(tree):
    assert cycles(graph(tree)) == []
    plant(tree / "engine" / "words.py", "def f():\n    from equilibria.engine.simulation import Simulation")
    assert any("equilibria.engine.words" in group for group in cycles(graph(tree)))


def test_the_cycle_guard_sees_a_circle_through_a_package_module(tree):
    """The rules ↔ variants circle of old: a package's __init__ that imports a module
    which imports another module of that package (and so runs the __init__ first)."""
    plant(tree / "game" / "rules" / "__init__.py", "from equilibria.rules.variants import version")
    found = cycles(graph(tree))
    assert any({"equilibria.rules", "equilibria.rules.variants"} <= set(group) for group in found), found


def test_the_room_guard_sees_an_arrow_back_up(tree):
    assert arrows_back(tree) == []
    plant(tree / "game" / "format" / "schema.py", "def f():\n    from equilibria.course.level import load_level")
    assert arrows_back(tree) == ["equilibria.format.schema → equilibria.course.level"]


def test_the_room_guard_sees_a_room_it_does_not_place(tree):
    (tree / "game" / "extra").mkdir()
    (tree / "game" / "extra" / "__init__.py").write_text("")
    (tree / "game" / "extra" / "thing.py").write_text("from equilibria.words.i18n import _\n")
    text = (tree / "pyproject.toml").read_text(encoding="utf-8")
    (tree / "pyproject.toml").write_text(text.replace('"equilibria.work",', '"equilibria.work", "equilibria.extra",'), encoding="utf-8")
    assert "equilibria.extra.thing → equilibria.words.i18n" in arrows_back(tree)


def test_the_layer_guard_sees_pygame_below_the_app_and_the_game_in_the_engine(tree):
    assert layer_faults(tree) == []
    plant(tree / "game" / "app" / "session" / "pacing.py", "import pygame")
    plant(tree / "game" / "rules" / "hints.py", "def f():\n    from equilibria.app.draw import palette")
    plant(tree / "engine" / "records.py", "def f():\n    from equilibria.words.i18n import _")
    assert sorted(layer_faults(tree)) == [
        "engine/records.py imports equilibria.words.i18n",
        "game/app/session/pacing.py imports pygame",
        "game/rules/hints.py imports equilibria.app.draw.palette",
    ]


def sizes(kind, package: str = "game"):
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, kind):
                yield f"{path.relative_to(ROOT)}:{node.name}", node.end_lineno - node.lineno + 1


@pytest.mark.parametrize("package", ["game", "engine"])
def test_no_class_over_400_lines_and_no_function_over_150(package):
    assert [(n, k) for n, k in sizes(ast.ClassDef, package) if k > 400] == []
    assert [(n, k) for n, k in sizes((ast.FunctionDef, ast.AsyncFunctionDef), package) if k > 150] == []


def reached(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for m in edges.get(todo.pop(), ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def test_the_scenes_stay_small_and_the_play_session_needs_no_pygame():
    """The scenes' classes stay small (their screens' parts are sections of their own:
    game/app/scenes/parts.py, boxes.py, menuparts.py); nothing the session room imports,
    however far, is a module that imports pygame (the session runs under `check` and the
    tests' judge)."""
    classes = dict(sizes(ast.ClassDef))
    assert classes["game/app/scenes/play.py:PlayScene"] <= 300
    assert classes["game/app/scenes/menu.py:MenuScene"] <= 200  # 398 lines while it drew and handled everything itself
    known, edges = modules(), graph()
    drawing = {name for name, path in known.items() if re.search(r"^\s*(import|from)\s+pygame\b", path.read_text(encoding="utf-8"), re.M)}
    assert "equilibria.app.draw.primitives" in drawing  # the test can see a module that draws
    session = [name for name in known if name.startswith("equilibria.app.session.")]
    assert len(session) >= 10
    for name in session:
        assert reached(name, edges) & drawing == set(), name


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
