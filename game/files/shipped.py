"""Where the shipped levels are, found through `importlib.resources`, never relative to
the current folder: the checkout's `levels/` folder is installed as the package
`equilibria.levels` (pyproject.toml maps it), so the same lookup finds it in a source checkout
(an editable install) and in an installed wheel. Imports nothing of the game's, so that
the level format (game/course/level.py) and the course (game/course/syllabus.py) can both ask it.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path


def real_folder(root: Path) -> Path:
    """`root` itself, or, in a checkout installed as a link tree (the README's editable
    install: a folder of links to the checkout's files), the checkout's own folder that
    its files link to, so that a file added there since the install is found too."""
    for child in sorted(root.iterdir()):
        if child.is_symlink() and child.is_file():
            return child.resolve().parent
    return root


def _on_disk(root: Traversable) -> Path:
    """`root` as a folder on disk: itself when it is one (a checkout, an unpacked wheel),
    else a copy made once per run (a zipped install), removed when the program ends."""
    if isinstance(root, Path):
        return real_folder(root)
    copy = Path(tempfile.mkdtemp(prefix="equilibria-levels-"))
    atexit.register(shutil.rmtree, copy, ignore_errors=True)

    def put(node: Traversable, into: Path) -> None:
        for child in node.iterdir():
            if child.is_dir():
                (into / child.name).mkdir()
                put(child, into / child.name)
            elif child.name.endswith(".json"):
                (into / child.name).write_bytes(child.read_bytes())

    put(root, copy)
    return copy


def _shipped() -> Path:
    try:
        return _on_disk(resources.files("equilibria.levels"))
    except ModuleNotFoundError:  # a source tree run without installing it: its own levels/
        return Path(__file__).resolve().parents[2] / "levels"


LEVELS_DIR = _shipped()
COURSE_PATH = LEVELS_DIR / "course.json"
SCHEMA_PATH = LEVELS_DIR / "level.schema.json"  # generated: python -m equilibria.course.level --write-schema


def in_checkout() -> bool:
    """Whether the levels are a source checkout's `levels/` folder (beside pyproject.toml
    and game/), not an installed copy: only there is the schema written."""
    top = LEVELS_DIR.parent
    return (top / "pyproject.toml").is_file() and (top / "game" / "course" / "level.py").is_file()
