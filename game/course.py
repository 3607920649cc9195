"""The course: the shipped levels in the order a student meets them, by topic.

`levels/course.json` lists topics and, in each, level ids; every shipped level appears
exactly once. The level select (issue 4) reads it; a test keeps it whole.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field

from game.files import read_json
from game.level import LevelId, _Strict

LEVELS_DIR = Path(__file__).resolve().parents[1] / "levels"
COURSE_PATH = LEVELS_DIR / "course.json"


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


def load_course(path: Path = COURSE_PATH) -> Course:
    return Course.model_validate(read_json(path))
