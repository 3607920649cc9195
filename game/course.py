"""The course: the shipped levels in the order a student meets them, by topic, and
where they are.

`levels/course.json` lists topics and, in each, level ids; every shipped level appears
exactly once. The level select reads it; a test keeps it whole.

The shipped levels are found through `importlib.resources`, never relative to the
current folder: the checkout's `levels/` folder is installed as the package
`game.levels` (pyproject.toml maps it), so the same lookup finds it in a source
checkout (an editable install) and in an installed wheel.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from game.files import BadInput, read_json
from game.level import LEVEL_ID, LevelId, _Strict

NOT_LEVELS = ("level.schema.json", "course.json")  # JSON files in levels/ that are no levels
SOLUTIONS = "solutions"  # the folder of reference solutions in levels/


def _on_disk(root: Traversable) -> Path:
    """`root` as a folder on disk: itself when it is one (a checkout, an unpacked wheel),
    else a copy made once per run (a zipped install), removed when the program ends."""
    if isinstance(root, Path):
        return root
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
        return _on_disk(resources.files("game.levels"))
    except ModuleNotFoundError:  # a source tree run without installing it: its own levels/
        return Path(__file__).resolve().parents[1] / "levels"


LEVELS_DIR = _shipped()
COURSE_PATH = LEVELS_DIR / "course.json"
SCHEMA_PATH = LEVELS_DIR / "level.schema.json"  # generated: python -m game.level --write-schema


def in_checkout() -> bool:
    """Whether the levels are a source checkout's `levels/` folder (beside pyproject.toml
    and game/), not an installed copy: only there is the schema written."""
    top = LEVELS_DIR.parent
    return (top / "pyproject.toml").is_file() and (top / "game" / "level.py").is_file()


class Topic(_Strict):
    title: Annotated[str, Field(min_length=1, max_length=80)]
    levels: list[LevelId] = Field(min_length=1)


class Course(_Strict):
    format: Literal[1]
    topics: list[Topic] = Field(min_length=1)

    def level_ids(self) -> list[str]:
        return [lid for topic in self.topics for lid in topic.levels]

    def path(self, level_id: str) -> Path:
        return LEVELS_DIR / f"{level_id}.json"

    def next_after(self, level_id: str) -> str | None:
        """The level that comes after `level_id` in the course (None: the last, or not
        in the course)."""
        ids = self.level_ids()
        k = ids.index(level_id) if level_id in ids else len(ids)
        return ids[k + 1] if k + 1 < len(ids) else None


def load_course(path: Path = COURSE_PATH) -> Course:
    return Course.model_validate(read_json(path))


def shipped_level(level_id: str) -> Path | None:
    """The file of the shipped level with this id, or None when there is none."""
    if not LEVEL_ID.fullmatch(level_id):
        return None
    path = LEVELS_DIR / f"{level_id}.json"
    return path if path.is_file() else None


def reference_solution(level_id: str) -> Path | None:
    """The shipped reference solution of a level, or None when it has none."""
    path = LEVELS_DIR / SOLUTIONS / f"{level_id}.json"
    return path if LEVEL_ID.fullmatch(level_id) and path.is_file() else None


def level_path(ref: str) -> Path:
    """What `play`, `check` and `sandbox` were given: a level file, or the id of a
    shipped level (`tutorial-01`). A file of that name wins over a level id; BadInput
    when it is neither."""
    path = Path(ref)
    if path.exists() or path.suffix == ".json" or len(path.parts) > 1:
        return path  # a path: read_json says what is wrong with it, if anything
    found = shipped_level(ref)
    if found is None:
        raise BadInput(f"{ref}: no such file, and no level of the course has that id (`equilibria levels` lists them)")
    return found


def level_files(paths: list[str | Path]) -> list[Path]:
    """The files named, and the level files in the folders named (the schema, the
    course index and the solutions folder left out)."""
    found: list[Path] = []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            found += sorted(f for f in p.rglob("*.json") if f.name not in NOT_LEVELS and SOLUTIONS not in f.relative_to(p).parts)
        else:
            found.append(p)
    return found
