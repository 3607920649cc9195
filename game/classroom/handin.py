"""Handing work in: a level's work as the solution file that `equilibria grade` and
`check` take (docs/solutions.md), stamped with the level's id (`level`) and the
student's id (`student`) when the progress holds one, and carrying the attempt's
record (`record`: tries, hints seen, answer shown, the check that passed, the marks, the
first and last check's times; game/course/progress.py `attempt_record`), which `grade`
cross-checks (game/classroom/marks.py). A level given up with "show the answer" is
handed in as its record alone, with no moves: the work in hand is then the answer, and
the grade book learns that it was shown, never the answer itself. No pygame.

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


def given_up(progress: Any, level_id: str) -> bool:
    """Whether the level was given up (Ctrl+A twice): its work in hand is then the
    answer, not the student's, and only the record is handed in (hand_in)."""
    return progress is not None and progress.shown(level_id)


def record_of(progress: Any, level_id: str) -> dict:
    """The attempt record a hand-in of the level carries, from the progress."""
    return progress.attempt_record(level_id) if progress is not None else {}


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


def hand_in(work: dict | Solution, student: str | None, target: Path, record: dict | None = None) -> str:
    """Write `work` (a solution) to `target`, stamped with `student` and carrying the
    attempt `record` (record_of; with `shown`, the record alone: no moves); the line
    that says where it went. BadInput when `target` is a file that is not an earlier
    hand-in of the same level, SaveError when it cannot be written."""
    data = work.model_dump(mode="json", exclude_none=True) if isinstance(work, Solution) else dict(work)
    data.pop("student", None)
    data.pop("record", None)
    if student:
        data["student"] = student
    if record:
        data["record"] = dict(record)
    if record and record.get("shown"):
        data["moves"] = []  # the work in hand is the answer shown: never handed in
    level = data["level"]
    _may_write(target, level)
    write_json_atomic(target, data)
    moves = len(data.get("moves", []))
    if record and record.get("shown"):
        said = _(
            "Your record on {level} is in {file}, without your work: you gave it up with show-the-answer (marks 0), so the work on it is the answer, not yours."
        )
        return said.format(level=level, file=target.resolve())
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
    try:
        return hand_in(work, student_of(progress), data_folder() / FOLDER / f"{work.level}.json", record_of(progress, work.level))
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
