"""The house drawn from its imports, for the guards of tests/test_structure.py: every
module of game/ and engine/ by the name it is installed under (read from pyproject.toml
as setuptools reads it), what each imports, its room (the package it stands in), and
the cycles and the arrows between rooms. A function of a tree's root, so that a test
can plant a fault in a copy of the tree and see the guard fail.

An import of `a.b.c` runs `a`, then `a.b`, then `a.b.c`: a module that imports `a.b.c`
depends on all three, wherever the import stands (at the top or inside a function: a
lazy import only moves the circle to the moment it runs)."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = "equilibria"

# The rooms, from the bottom up: each may import only rooms before it in this list
# (README.md "Layout" and docs/engine.md draw the same). A new folder of modules takes
# its place here, or the guard fails.
ROOMS = (
    "equilibria.engine.compiled",  # numba's options and cache, slots
    "equilibria.engine.elements",  # one module per element kind, their compiled home
    "equilibria.engine",  # the model, the integrators, the static answer, results
    "equilibria.words",  # translation, texts, figures in words
    "equilibria.words.locale",  # the catalogs (data)
    "equilibria.files",  # reading and writing files; where the shipped things are
    "equilibria.format",  # the level and solution formats
    "equilibria.rules",  # the judge, each level kind, the per-student numbers
    "equilibria.course",  # a level read and built, the course, the teacher's levels, progress
    "equilibria.tutor",  # the textbook method worked on a structure, step by step
    "equilibria.work",  # the player's work on a level: attempt, workbench
    "equilibria.classroom",  # grading a class, handing work in
    "equilibria.app.session",  # the play session without pygame
    "equilibria.app.draw",  # drawing on a surface
    "equilibria.app.window",  # the frame loop, sections, layout
    "equilibria.app.widgets",  # the play screen's parts
    "equilibria.app.scenes",  # the scenes
    "equilibria.app",  # starting the game
    "equilibria.cli",  # the command line
    "equilibria",  # `python -m equilibria`
)
MAX_MODULES = 20  # in one room, besides its __init__


def packages(root: Path = ROOT) -> dict[str, Path]:
    """Each installed package of the game and the engine, with its folder: pyproject.toml's
    `packages`, placed by `package-dir` (the longest name that maps)."""
    setup = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    where = setup["package-dir"]
    found = {}
    for package in setup["packages"]:
        base = max((name for name in where if package == name or package.startswith(name + ".")), key=len)
        folder = root / where[base] / Path(*package[len(base) :].split(".")[1:])
        if folder.parts[len(root.parts)] in ("game", "engine"):
            found[package] = folder
    return found


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module by its installed name (a package by its __init__.py)."""
    found = {}
    for package, folder in packages(root).items():
        for path in sorted(folder.glob("*.py")):
            found[package if path.stem == "__init__" else f"{package}.{path.stem}"] = path
    return found


def _ancestry(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: k + 1]) for k in range(len(parts))]


def imports(name: str, path: Path, known: Iterable[str], *, explicit: bool = False) -> set[str]:
    """The project modules that importing module `name` (at `path`) runs, anywhere in it.
    explicit=True: only the modules its imports name, not the packages that run first."""
    known = set(known)
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    named = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            named.update(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names)
        elif isinstance(node, ast.Import):
            named.update(a.name for a in node.names)
    named = {n for n in named if n.split(".")[0] == TOP}
    run = named if explicit else {m for n in named for m in _ancestry(n)}
    return {m for m in run if m in known} - {name}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    known = modules(root)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted: every
    import circle is inside one."""
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def room_of(name: str, rooms: dict[str, Path]) -> str:
    """The package a module stands in (a package's own __init__: that package)."""
    return name if name in rooms else name.rpartition(".")[0]


def arrows_back(root: Path = ROOT) -> list[str]:
    """Every import that points from a room to one not below it in ROOMS (or to a room
    ROOMS does not place), as 'module → module'."""
    rooms = packages(root)
    known = modules(root)
    rank = {room: k for k, room in enumerate(ROOMS)}
    wrong = []
    for name, path in known.items():
        mine = room_of(name, rooms)
        for target in sorted(imports(name, path, known, explicit=True)):
            theirs = room_of(target, rooms)
            if theirs != mine and (mine not in rank or theirs not in rank or rank[theirs] >= rank[mine]):
                wrong.append(f"{name} → {target}")
    return wrong


def _imports_module(text: str, names: str) -> bool:
    return any(
        (isinstance(n, ast.Import) and any(a.name.split(".")[0] in names.split("|") for a in n.names))
        or (isinstance(n, ast.ImportFrom) and n.level == 0 and (n.module or "").split(".")[0] in names.split("|"))
        for n in ast.walk(ast.parse(text))
    )


def layer_faults(root: Path = ROOT) -> list[str]:
    """The layers named by folder: only game/app/ imports pygame, and not its session/
    room (the play session runs without a display); the engine imports neither pygame nor
    pymunk nor anything of the game; the rooms below the app import no app/ and no cli/."""
    known = modules(root)
    below_app = tuple(f"equilibria.{room}" for room in ("words", "files", "format", "rules", "course", "work", "classroom"))
    faults = []
    for name, path in known.items():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(root).as_posix()
        if (not name.startswith("equilibria.app.") or name.startswith("equilibria.app.session")) and _imports_module(text, "pygame"):
            faults.append(f"{where} imports pygame")
        if name.startswith("equilibria.engine"):
            if _imports_module(text, "pygame|pymunk"):
                faults.append(f"{where} imports pygame or pymunk")
            outside = sorted(m for m in imports(name, path, known, explicit=True) if not m.startswith("equilibria.engine"))
            faults += [f"{where} imports {m}" for m in outside]
        if name == "equilibria" or name.startswith(below_app):
            up = sorted(m for m in imports(name, path, known, explicit=True) if m.startswith(("equilibria.app", "equilibria.cli")))
            faults += [f"{where} imports {m}" for m in up if name.startswith(below_app)]
    return faults
