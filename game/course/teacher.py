"""The teacher's levels: level files a teacher copies into the `levels/` folder of the
user's data folder (`<data>/levels/`, see game/course/progress.py; EQUILIBRIA_HOME moves it),
which the level select lists under a heading of their own after the course, `equilibria
levels` lists after the course, and `play`, `check` and `sandbox` open by id. No pygame.

The folder is read as it is, each time it is listed: every `*.json` file in it (`.JSON`
too, as some computers save it; not in folders below it, so a `solutions/` folder beside
the levels is left alone). Each file is read and checked against the level format when it is listed; the checks that need the
engine (unknown nodes in a moving load, mechanisms) run when the level is opened, as
for every level, so listing never waits for a compiler. A file that fails gets
`problem`: the one line every command prints, `FILE: FIELD: what is wrong`.

The game keeps a student's progress by level id. A teacher's level that took the id of
a course level would win, lose or overwrite the course level's progress, so it is
refused instead, in one line naming its file and its id; it is listed by its file name
and never opened. Two of the teacher's files with one id: the first by file name is the
level, the others are refused the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from equilibria.course.level import schema_errors
from equilibria.course.progress import data_folder
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import BadInput, read_json
from equilibria.format.schema import LEVEL_ID, raw_text
from equilibria.words.i18n import N_, _
from equilibria.words.text import named

FOLDER = "levels"  # in the data folder
HEADING = N_("Your teacher's levels")  # shown as _(HEADING)


@dataclass(frozen=True)
class TeacherLevel:
    """A file in the teacher's folder. `id` is the level's id as the file gives it (its
    file name when the file cannot say); `problem` is "" or why it cannot be played."""

    path: Path
    id: str
    title: str
    kind: str | None
    problem: str = ""


def teacher_folder() -> Path:
    """Where a teacher's levels go: `levels/` in the user's data folder."""
    return data_folder() / FOLDER


def teacher_levels(folder: Path | None = None) -> list[TeacherLevel]:
    """The level files in `folder` (default: teacher_folder()) by file name, each read
    and checked. An absent or unreadable folder has none."""
    folder = teacher_folder() if folder is None else folder
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix.casefold() == ".json" and p.is_file() and not p.name.startswith("."))  # ARCH.JSON too
    except OSError:
        return []
    found: list[TeacherLevel] = []
    taken: dict[str, Path] = {}
    for path in files:
        level = _read(path)
        if not level.problem:
            clash = _clash(level, taken)
            if clash:
                level = TeacherLevel(path, level.id, level.title, None, clash)
            else:
                taken[level.id] = path
        found.append(level)
    return found


def find_teacher_level(level_id: str, folder: Path | None = None) -> Path | None:
    """The file of the teacher's level with this id, or None when there is none;
    BadInput (its one line) when the file with that id cannot be played."""
    for level in teacher_levels(folder):
        if level.id == level_id:
            if level.problem:
                raise BadInput(level.problem)
            return level.path
    return None


def _read(path: Path) -> TeacherLevel:
    try:
        data = read_json(path)
    except BadInput as exc:
        return TeacherLevel(path, path.stem, "", None, str(exc))
    problems = schema_errors(data)
    fields = data if isinstance(data, dict) else {}
    level_id = fields.get("id") if isinstance(fields.get("id"), str) and LEVEL_ID.fullmatch(fields["id"]) else path.stem
    title = raw_text(fields.get("title"))  # drawn and printed: no control characters; in the language of the moment
    if problems:
        return TeacherLevel(path, level_id, title, None, f"{path}: {problems[0]}")
    return TeacherLevel(path, level_id, title, fields["kind"])


def _clash(level: TeacherLevel, taken: dict[str, Path]) -> str:
    """Why `level`'s id cannot be its own ("" when it can)."""
    if (LEVELS_DIR / f"{level.id}.json").is_file():
        return _("{file}: id: {id} is the id of a level of the course; give the teacher's level an id of its own").format(file=level.path, id=named(level.id))
    if level.id in taken:
        said = _("{file}: id: {id} is already the id of {other}; give each level an id of its own")
        return said.format(file=level.path, id=named(level.id), other=taken[level.id].name)
    return ""
