"""Handing work in: a level's work as the solution file that `equilibria grade` and
`check` take (docs/solutions.md), stamped with the level's id (`level`) and the
student's id (`student`) when the progress holds one. No pygame.

Two ways out: `equilibria export LEVEL [-o FILE]` writes the work saved in the progress
(default: LEVEL.json in the current folder), and Ctrl+E in the game writes the work in
hand to `hand-in/LEVEL.json` in the data folder. Both write atomically
(game/files/store.py), and never over a file that is not an earlier hand-in of the same level
(a level file above all), nor anywhere in the course's levels or the teacher's: the
line they return says where the file went.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from equilibria.course.level import Level, load_level
from equilibria.course.progress import data_folder
from equilibria.course.teacher import teacher_folder
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import BadInput, SaveError, read_json, write_json_atomic
from equilibria.format.solution import Solution, load_solution
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import version_for
from equilibria.words.i18n import _, ngettext

FOLDER = "hand-in"  # in the data folder: where the game's key writes


def level_of(path: Path) -> Level:
    """The level in `path`, when it is one with work to hand in; BadInput (one line)
    when it cannot be read or has no goal."""
    try:
        level = load_level(read_json(path))
    except ValueError as exc:
        raise BadInput(f"{path}: {str(exc).splitlines()[0]}") from None
    if not KINDS[level.kind].judged:
        raise BadInput(_("{file}: kind: a {kind} level has no goal, so there is no work to hand in").format(file=path, kind=level.kind))
    return level


def student_of(progress: Any) -> str | None:
    """The student's id kept in the progress (None: none given yet)."""
    value = progress.to_json().get("student") if progress is not None else None
    return str(value) if value not in (None, "") else None


def given_up(progress: Any, level_id: str) -> str:
    """The line that refuses a hand-in of a level whose answer was shown (Ctrl+A twice:
    the work in hand is then the answer, not the student's), or "" when it may go."""
    if progress is None or not progress.shown(level_id):
        return ""
    return _("Nothing is handed in: you gave {level} up with show-the-answer (marks 0), so the work on it is the answer, not yours.").format(level=level_id)


def other_numbers(level: Level, work: dict, student: str | None) -> str:
    """The line that refuses to stamp `student` on work done with other numbers (the
    student id changed after the work was saved: `grade` would judge it against numbers
    it never answered), or "" when the work's numbers are the student's."""
    try:
        version_for(level, load_solution({**work, "student": student} if student else work))
    except ValueError as exc:
        why = str(exc).removeprefix("numbers: ").removeprefix("this work ")
        # TRANSLATORS: {why} is the judge's own words for how the work's numbers differ ("was done with the numbers of student ann")
        said = _("Nothing is handed in: your saved work on {level} {why}; play it again (`equilibria play {level}`) and export that.")
        return said.format(level=level.id, why=why)
    return ""


def hand_in(work: dict | Solution, student: str | None, target: Path) -> str:
    """Write `work` (a solution) to `target`, stamped with `student`; the line that says
    where it went. BadInput when `target` is a file that is not an earlier hand-in of
    the same level, SaveError when it cannot be written."""
    data = work.model_dump(mode="json", exclude_none=True) if isinstance(work, Solution) else dict(work)
    data.pop("student", None)
    if student:
        data["student"] = student
    level = data["level"]
    _may_write(target, level)
    write_json_atomic(target, data)
    moves = len(data.get("moves", []))
    if student:
        said = ngettext(
            "Your work on {level} ({n} move) is in {file}; stamped with the student id {student}.",
            "Your work on {level} ({n} moves) is in {file}; stamped with the student id {student}.",
            moves,
        )
    else:
        said = ngettext(
            "Your work on {level} ({n} move) is in {file}; no student id stamped: the progress holds none yet.",
            "Your work on {level} ({n} moves) is in {file}; no student id stamped: the progress holds none yet.",
            moves,
        )
    return said.format(level=level, n=moves, file=target.resolve(), student=student)


def hand_in_from_game(work: Solution | None, progress: Any) -> str:
    """Ctrl+E in the game: the work in hand, written to hand-in/LEVEL.json in the data
    folder; the line the game shows."""
    if work is None:
        return _("Ctrl+E hands in your work on a level with a goal; a sandbox design is saved with Ctrl+S.")
    if progress is None:
        return _("Nothing is handed in here: this is a demonstration (a solution shown with --solution), not your work.")
    if given_up(progress, work.level):
        return given_up(progress, work.level)
    try:
        return hand_in(work, student_of(progress), data_folder() / FOLDER / f"{work.level}.json")
    except BadInput as exc:  # SaveError too
        return _("Your work is not handed in: {why}").format(why=exc)


def _may_write(target: Path, level: str) -> None:
    """BadInput unless `target` is new or an earlier hand-in of `level`."""
    if target.is_dir():
        raise BadInput(_("{file}: is a folder; give the name of the file to write (-o FILE)").format(file=target))
    course = _(
        "{file}: is in the folder of the course's levels ({folder}), where a solution is read as a level or replaces a shipped one;"
        " choose another place (-o FILE)"
    )
    teacher = _(
        "{file}: is in the folder of your teacher's levels ({folder}), where a solution is read as a level or replaces a shipped one;"
        " choose another place (-o FILE)"
    )
    for folder, said in ((LEVELS_DIR, course), (teacher_folder(), teacher)):
        if target.resolve().is_relative_to(folder.resolve()):
            raise BadInput(said.format(file=target, folder=folder))
    if not target.parent.exists():
        try:
            target.parent.mkdir(parents=True)
        except OSError as exc:
            raise SaveError(_("{file}: cannot make its folder ({why})").format(file=target, why=exc.strerror or exc)) from None
    if not target.exists() and not target.is_symlink():
        return
    try:
        old = read_json(target)
    except BadInput:
        old = None
    ours = isinstance(old, dict) and old.get("level") == level and "moves" in old and "nodes" not in old
    if not ours:
        said = _(
            "{file}: already exists and is not a solution for {level} (a level, or another file), so it is not written over: choose another name (-o FILE)"
        )
        raise BadInput(said.format(file=target, level=level))
