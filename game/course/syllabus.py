"""The course: the shipped levels in the order a student meets them, by topic, and
where they are.

`levels/course.json` lists topics and, in each, level ids; every shipped level appears
exactly once. The level select reads it; a test keeps it whole.

Where the shipped levels are is game/files/shipped.py's business (importlib.resources).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from equilibria.course.teacher import find_teacher_level, teacher_levels
from equilibria.files.shipped import COURSE_PATH, LEVELS_DIR, SCHEMA_PATH, in_checkout
from equilibria.files.store import BadInput, read_json
from equilibria.format.schema import LEVEL_ID, LevelId, _Strict, localized_text
from equilibria.words.i18n import _, localized
from equilibria.words.suggest import did_you_mean

__all__ = ["COURSE_PATH", "LEVELS_DIR", "SCHEMA_PATH", "in_checkout"]  # where the shipped levels are: game/files/shipped.py

NOT_LEVELS = ("level.schema.json", "course.json")  # JSON files in levels/ that are no levels
SOLUTIONS = "solutions"  # the folder of reference solutions in levels/


class Topic(_Strict):
    title_: localized_text(80, min_length=1) = Field(alias="title", description='a text, or one per language: {"en": "…", "de": "…"}')
    levels: list[LevelId] = Field(min_length=1)

    @property
    def title(self) -> str:
        """The topic's name in the current language."""
        return localized(self.title_)


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
    """What `play`, `check` and `sandbox` were given: a level file, the id of a shipped
    level (`tutorial-01`) or the id of one of the teacher's levels (game/course/teacher.py). A
    file of that name wins over a level id, and the course over the teacher's levels;
    BadInput when it is none of them, or names a teacher's level that cannot be played."""
    path = Path(ref)
    if path.exists() or path.suffix == ".json" or len(path.parts) > 1:
        return path  # a path: read_json says what is wrong with it, if anything
    found = shipped_level(ref) or (find_teacher_level(ref) if LEVEL_ID.fullmatch(ref) else None)
    if found is None:
        hint = did_you_mean(ref, known_level_ids())
        if hint:
            said = _("{ref}: no such file, and no level of the course has that id; {hint} (`equilibria levels` lists them)")
        else:
            said = _("{ref}: no such file, and no level of the course has that id (`equilibria levels` lists them)")
        raise BadInput(said.format(ref=ref, hint=hint))
    return found


def known_level_ids() -> list[str]:
    """The ids a level can be opened by: the shipped levels' and the teacher's."""
    shipped = [p.stem for p in LEVELS_DIR.glob("*.json") if p.name not in NOT_LEVELS]
    return shipped + [t.id for t in teacher_levels() if not t.problem]


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
