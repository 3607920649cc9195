"""The student's progress: which levels are won, the best marks, the tries, the work in
hand on each level and the level opened last. No pygame here.

It lives in `progress.json` in the user's data folder (platformdirs: on Linux
~/.local/share/equilibria, on macOS ~/Library/Application Support/equilibria, on
Windows %LOCALAPPDATA%\\equilibria), or in the folder EQUILIBRIA_HOME names (tests and
CI set it, so they never write into a real home). The file is written atomically
(`files.write_json_atomic`):

    {"format": 1, "student": "s1234", "last_level": "balance-02", "levels": {
        "balance-01": {"won": true, "marks": 80, "tries": 2, "work": SOLUTION},
        "balance-02": {"won": false, "tries": 1, "hints": 1, "work": SOLUTION, "checked": KEY,
                       "first_check": "2026-03-02T14:05:09Z", "last_check": "2026-03-02T14:05:09Z"}}}

where SOLUTION is the player's work as `game/format/solution.py` defines it, so nothing the
player made is lost when they leave a level. KEY is the fingerprint of the answer last
checked when that check failed (game/work/attempt.py `answer_key`): that answer checked again
unchanged, after a restart too, costs no try; any change to it is a new key. `hints`, `passed_at`
(the check that first passed) and the times of the first and last check (UTC) are the rest of the
attempt record a hand-in carries (game/classroom/handin.py `record_of`). `student` is the id the player gave once:
a level that varies its numbers draws the student's own from it (game/rules/variants.py).

Two copies of the game may share one data folder: each save first takes in what the
file holds (another copy's wins, marks and work), so neither undoes the other; the
taking in and the writing happen under a lock (`progress.json.lock` beside the file,
filelock), so that no copy writes between another's reading and writing. A lock held
longer than LOCK_SECONDS is a save that fails with one line, never a wait without end.

Nothing about the file is fatal to the game. A file that is not JSON or not progress
is moved aside (renamed `progress.broken-STAMP.json`, never deleted) and a fresh
progress starts. A file that cannot be read at all is left alone and nothing is saved
this session. A file of a newer format, written by a newer Equilibria, is never
overwritten (the student would lose what they did there, and may go back to it): this
version keeps its own progress beside it in `progress-format1.json`. Each of these
sets `problem`, one line naming the file, for the game to show.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from filelock import FileLock, Timeout
from pydantic import Field, ValidationError, model_validator

from equilibria.course.homework import CourseFile
from equilibria.files.store import MAX_FILE_BYTES, BadInput, SaveError, parse_json, write_json_atomic
from equilibria.format.schema import Id, LevelId, _Strict, field_path
from equilibria.format.solution import STAMP, Solution, load_solution
from equilibria.rules.variants import student_error
from equilibria.words.i18n import _
from equilibria.words.text import cut, named

FORMAT = 1
FILE_NAME = "progress.json"
HOME_VARIABLE = "EQUILIBRIA_HOME"  # a folder to keep the progress in instead of the user's data folder
LOCK_SECONDS = 10.0  # [s] the longest a save waits for another copy's save (each takes milliseconds)


def data_folder() -> Path:
    """Where the progress is kept: $EQUILIBRIA_HOME if set, else the user's data folder."""
    home = os.environ.get(HOME_VARIABLE)
    if home:
        return Path(home).expanduser()
    return Path(platformdirs.user_data_dir("equilibria", appauthor=False))


def lock_path(path: Path) -> Path:
    """The lock file of the progress file `path`, beside it."""
    return path.with_name(path.name + ".lock")


class LevelRecord(_Strict):
    won: bool = False
    marks: int | None = Field(None, ge=0, le=100, description="the best marks of a won level")
    tries: int = Field(0, ge=0, description="checks made in the attempt under way (so leaving and coming back keeps the marks honest)")
    work: Solution | None = Field(None, description="the player's moves on the level, as they left them")
    shown: bool = Field(False, description="the answer was shown: the level is given up, marks 0, not won")
    checked: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None = Field(
        None,
        description="the fingerprint (game/work/attempt.py answer_key) of the answer last checked, when that check failed: "
        "checked again unchanged, it costs no try",
    )
    hints: int = Field(0, ge=0, description="hints shown after failed checks in the attempt under way")
    passed_at: int | None = Field(None, ge=1, description="the check of the attempt under way that first passed")
    first_check: Annotated[str, Field(pattern=STAMP)] | None = Field(None, description="when the attempt's first check was made, UTC")
    last_check: Annotated[str, Field(pattern=STAMP)] | None = Field(None, description="when its last check was made, UTC")


class ProgressFile(_Strict):
    format: Literal[1]
    student: Annotated[str, Field(min_length=1, max_length=64)] | None = Field(None, description="the student id the player gave")
    last_level: LevelId | None = None
    language: Annotated[str, Field(min_length=2, max_length=16)] | None = Field(None, description="the language the player chose in the game")
    scale: int | None = Field(None, ge=50, le=400, description="the size of text and lines the player chose [%] (Ctrl+=, Ctrl+−)")
    course: CourseFile | None = Field(None, description="the teacher's course file the student opened (game/course/homework.py)")
    levels: dict[Id, LevelRecord] = Field(default_factory=dict, max_length=100_000)

    @model_validator(mode="after")
    def _work_is_for_its_level(self) -> ProgressFile:
        for level_id, record in self.levels.items():
            if record.work is not None and record.work.level != level_id:
                raise ValueError(_("levels.{level}.work is for level {other}").format(level=level_id, other=named(record.work.level)))
        return self


class Progress:
    """The progress in memory; `save()` writes it. `path` is the file save() writes (None:
    nowhere, see `problem`); `problem` is "" or one line saying what was wrong with the
    file found."""

    def __init__(self, path: Path | None = None, data: ProgressFile | None = None, problem: str = ""):
        self.path = path
        self.problem = problem
        self._data = data or ProgressFile(format=FORMAT)
        self._touched: set[str] = set()  # levels this session changed: on those, its word holds
        self._opened = False  # whether this session opened a level (last_level is then its own)
        self._opened_unsaved = False  # a level opened since the last save: last_level not yet in the file
        self._student_set = False  # the student id given this session: its word holds
        self._language_set = False  # the language chosen this session: its word holds
        self._scale_set = False  # the scale chosen this session: its word holds
        self._course_set = False  # a course opened this session: its word holds
        self._work_seen = self._works()  # each level's work as this copy last read or wrote the file
        self.overwritten: set[str] = set()  # levels whose work another copy saved meanwhile: this copy's is not written over it

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, folder: str | Path | None = None) -> Progress:
        """The progress kept in `folder` (default: `data_folder()`). Never raises: what
        was wrong with the file is in `problem`."""
        folder = Path(folder) if folder is not None else data_folder()
        main = folder / FILE_NAME
        found = _read(main)
        if found.newer is None:
            return found.progress
        side = folder / f"progress-format{FORMAT}.json"
        progress = _read(side).progress
        why = _("{file}: written by a newer Equilibria (format {format}); this version leaves it as it is and keeps its progress in {other}")
        why = why.format(file=main, format=cut(str(found.newer)), other=side.name)
        progress.problem = f"{why}; {progress.problem}" if progress.problem else why
        return progress

    # ------------------------------------------------------------------ reading
    @property
    def last_level(self) -> str | None:
        return self._data.last_level

    @property
    def last_level_unsaved(self) -> bool:
        """Whether a level was opened since the last save (a level left unchanged writes
        nothing, and the next start would not find it chosen)."""
        return self._opened_unsaved

    @property
    def student(self) -> str | None:
        """The student id the player gave (None: not yet)."""
        return self._data.student

    def set_student(self, student: str) -> None:
        """Keep the player's student id (spaces at the ends dropped); ValueError (one
        line) for one that cannot be an id (game/rules/variants.py `student_error`)."""
        why = student_error(student) if isinstance(student, str) else _("a student id is text")
        if why:
            raise ValueError(why)
        self._data.student = student.strip()
        self._student_set = True

    @property
    def course(self) -> CourseFile | None:
        """The teacher's course the student opened (None: none): its levels come first,
        and the numbers are drawn with its code."""
        return self._data.course

    @property
    def course_code(self) -> str | None:
        """The open course's code (None: no course open)."""
        return self._data.course.code if self._data.course else None

    def set_course(self, course: CourseFile) -> None:
        """Open a teacher's course (game/course/homework.py read_course checked it)."""
        self._data.course = course.model_copy(deep=True)
        self._course_set = True

    @property
    def language(self) -> str | None:
        """The language the player chose in the game (None: never chosen)."""
        return self._data.language

    def set_language(self, code: str) -> None:
        """Keep the language the player chose (a code of i18n.LANGUAGES)."""
        self._data.language = code
        self._language_set = True

    @property
    def scale(self) -> int | None:
        """The size of text and lines the player chose [%] (None: never chosen)."""
        return self._data.scale

    def set_scale(self, percent: int) -> None:
        """Keep the size of text and lines the player chose [%] (a step of
        game/app/window/scale.py STEPS)."""
        self._data.scale = percent
        self._scale_set = True

    def won(self, level_id: str) -> bool:
        record = self._data.levels.get(level_id)
        return record is not None and record.won

    def marks(self, level_id: str) -> int | None:
        """The best marks on the level; None until it is won."""
        record = self._data.levels.get(level_id)
        return record.marks if record else None

    def shown(self, level_id: str) -> bool:
        """Whether the answer was shown (the level given up: marks 0, never won after)."""
        record = self._data.levels.get(level_id)
        return record is not None and record.shown

    def tries(self, level_id: str) -> int:
        """Checks made in the attempt under way (0: none, or never played)."""
        record = self._data.levels.get(level_id)
        return record.tries if record else 0

    def checked(self, level_id: str) -> str | None:
        """The fingerprint of the answer last checked on the level, when that check failed
        (None: none, or the last check passed)."""
        record = self._data.levels.get(level_id)
        return record.checked if record else None

    def hints(self, level_id: str) -> int:
        """Hints shown after failed checks in the attempt under way."""
        record = self._data.levels.get(level_id)
        return record.hints if record else 0

    def passed_at(self, level_id: str) -> int | None:
        """The check of the attempt under way that first passed (None: none)."""
        record = self._data.levels.get(level_id)
        return record.passed_at if record else None

    def attempt_record(self, level_id: str) -> dict:
        """What a hand-in carries of the level (game/format/solution.py AttemptRecord): the
        tries, hints, answer shown, the check that passed, the marks and the check times."""
        record = self._data.levels.get(level_id) or LevelRecord()
        said = {"tries": record.tries, "hints": record.hints, "shown": record.shown, "passed_at": record.passed_at, "marks": record.marks}
        said |= {"first_check": record.first_check, "last_check": record.last_check}
        return {k: v for k, v in said.items() if v is not None}

    def work(self, level_id: str) -> dict | None:
        """The player's work on the level as a solution dict (a copy), or None."""
        record = self._data.levels.get(level_id)
        return record.work.model_dump(mode="json", exclude_none=True) if record and record.work else None

    def to_json(self) -> dict:
        """The progress as it is saved."""
        return self._data.model_dump(mode="json", exclude_none=True)

    # ------------------------------------------------------------------ changing
    def opened(self, level_id: str) -> None:
        """Remember the level as the one opened last."""
        self._data.last_level = _level_id(level_id)
        self._opened = True
        self._opened_unsaved = True

    def record_check(
        self,
        level_id: str,
        passed: bool,
        marks: int | None,
        tries: int,
        *,
        shown: bool = False,
        checked: str | None = None,
        hints: int = 0,
        passed_at: int | None = None,
        when: str | None = None,
    ) -> None:
        """After a check: `passed` its verdict, `marks` the attempt's marks (None until
        it passed), `tries` the checks made in the attempt so far; `shown`: the answer
        was shown (the level given up: recorded, never won after); `checked`: the
        fingerprint of the answer checked, when the check failed (None after a pass);
        `hints` the hints shown so far, `passed_at` the check that first passed, `when`
        the check's time (UTC, STAMP; None: now). A level once won stays won and keeps
        its best marks."""
        if not isinstance(passed, bool):
            raise ValueError(f"passed must be True or False, not {passed!r}")
        if marks is not None and not (isinstance(marks, int) and not isinstance(marks, bool) and 0 <= marks <= 100):
            raise ValueError(f"marks must be a whole number from 0 to 100, or None, not {marks!r}")
        if not (isinstance(tries, int) and not isinstance(tries, bool) and tries >= 0):
            raise ValueError(f"tries must be a whole number ≥ 0, not {tries!r}")
        if checked is not None and not re.fullmatch(r"[0-9a-f]{64}", str(checked)):
            raise ValueError(f"checked must be an answer's fingerprint (64 hex digits) or None, not {checked!r}")
        if not (isinstance(hints, int) and hints >= 0) or not (passed_at is None or (isinstance(passed_at, int) and passed_at >= 1)):
            raise ValueError(f"hints must be a whole number ≥ 0 and passed_at one ≥ 1 or None, not {hints!r}, {passed_at!r}")
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()) if when is None else when
        if not re.fullmatch(STAMP, str(when)):
            raise ValueError(f"when must be a time as 2026-03-02T14:05:09Z, not {when!r}")
        record = self._record(level_id)
        record.hints = hints
        record.passed_at = record.passed_at if record.passed_at is not None else passed_at  # the first pass stays the one
        record.first_check = record.first_check if record.first_check and record.tries else when
        record.last_check = when
        record.checked = checked
        record.shown = record.shown or shown
        record.won = record.won or ((passed or marks is not None) and not shown)
        if marks is not None:
            record.marks = max(marks, record.marks or 0)
        record.tries = tries

    def save_work(self, level_id: str, solution: Solution | Mapping[str, Any]) -> None:
        """Keep the player's work on the level. ValueError for a solution that is not
        one (one 'field: problem' line each) or is for another level."""
        if not isinstance(solution, Solution):
            solution = load_solution(solution)
        if solution.level != level_id:
            raise ValueError(f"level: the work is for level {solution.level!r}, not {level_id!r}")
        self._record(level_id).work = solution.model_copy(deep=True)

    def save(self) -> None:
        """Write the progress atomically; SaveError (one line naming the file) when that
        fails, the file as it was. Does nothing when there is nowhere to save (`path`
        None: the file found could not be read, and `problem` says so)."""
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SaveError(_("{file}: cannot make its folder ({why})").format(file=self.path, why=exc.strerror or exc)) from None
        lock = FileLock(lock_path(self.path), timeout=LOCK_SECONDS)
        try:
            lock.acquire()
        except Timeout:
            said = _(
                "{file}: another copy of Equilibria has held the progress for over {seconds} s ({lock});"
                " not saved this time: close the other copy, or delete that file if no other copy runs"
            )
            raise SaveError(said.format(file=self.path, seconds=f"{LOCK_SECONDS:g}", lock=lock.lock_file)) from None
        except OSError as exc:
            said = _("{file}: cannot lock the progress ({why}); not saved this time")
            raise SaveError(said.format(file=self.path, why=exc.strerror or exc)) from None
        try:
            self._take_in_the_file()
            write_json_atomic(self.path, self.to_json())
        finally:
            lock.release()
        self._opened_unsaved = False
        self._work_seen = self._works()

    def _works(self) -> dict[str, dict | None]:
        return {level_id: (r.work.model_dump(mode="json", exclude_none=True) if r.work else None) for level_id, r in self._data.levels.items()}

    def saw_work(self, level_id: str) -> None:
        """The work on the level as the file has it is this copy's again (a session opened
        the level and restored it): it may be saved over once more."""
        self.overwritten.discard(level_id)

    def _take_in_the_file(self) -> None:
        """Keep what another copy of the game saved since this one read the file: the
        levels this session did not touch as the file has them; on those it touched, a
        win and the best marks from either. A file that cannot be read is passed over
        (the save then writes this session's progress)."""
        try:
            if self.path is None or self.path.stat().st_size > MAX_FILE_BYTES:
                return
            theirs = ProgressFile.model_validate(parse_json(self.path.read_bytes().decode("utf-8"), self.path))
        except (OSError, ValueError, BadInput):  # ValueError: bad UTF-8, not progress; BadInput: not JSON
            return
        for level_id, record in theirs.levels.items():
            ours = self._data.levels.get(level_id)
            if ours is None or level_id not in self._touched:
                self._data.levels[level_id] = record
                continue
            seen = self._work_seen.get(level_id)
            theirs_work = record.work.model_dump(mode="json", exclude_none=True) if record.work else None
            if theirs_work != seen:  # another copy saved work on this level since this one read it
                mine = ours.work.model_dump(mode="json", exclude_none=True) if ours.work else None
                if mine not in (seen, theirs_work):  # and so did this one: theirs stays, this copy is told (never "saved")
                    self.overwritten.add(level_id)
                ours.work = record.work
            ours.won = ours.won or record.won
            if record.marks is not None:
                ours.marks = max(ours.marks or 0, record.marks)
        if not self._opened:
            self._data.last_level = theirs.last_level
        if not self._student_set and theirs.student is not None:
            self._data.student = theirs.student
        if not self._language_set and theirs.language is not None:
            self._data.language = theirs.language
        if not self._scale_set and theirs.scale is not None:
            self._data.scale = theirs.scale
        if not self._course_set and theirs.course is not None:
            self._data.course = theirs.course

    def _record(self, level_id: str) -> LevelRecord:
        self._touched.add(_level_id(level_id))
        return self._data.levels.setdefault(_level_id(level_id), LevelRecord())


def _level_id(level_id: str) -> str:
    if not (isinstance(level_id, str) and 1 <= len(level_id) <= 64):
        raise ValueError(f"a level id is a string of 1 to 64 characters, not {level_id!r}")
    return level_id


class _Found:
    """What _read found: the progress, or the format number of a newer file."""

    def __init__(self, progress: Progress, newer: int | None = None):
        self.progress = progress
        self.newer = newer


def _read(path: Path) -> _Found:
    """The progress in `path`: fresh when there is no file; a broken file moved aside."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return _Found(Progress(path))
    except OSError as exc:
        return _Found(_unreadable(path, exc))
    if size > MAX_FILE_BYTES:
        return _Found(_move_aside(path, _("{size} MB, more than a progress file can be").format(size=f"{size / 1e6:.0f}")))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return _Found(_unreadable(path, exc))
    try:
        data = parse_json(raw.decode("utf-8"), path)
    except UnicodeDecodeError:
        return _Found(_move_aside(path, _("not UTF-8 text")))
    except BadInput as exc:  # not JSON, empty, nested too deeply, a number too long, half a character
        return _Found(_move_aside(path, str(exc).removeprefix(f"{path}: ")))
    if not isinstance(data, dict):
        return _Found(_move_aside(path, _("not a progress file (not a JSON object)")))
    number = data.get("format")
    if isinstance(number, int) and not isinstance(number, bool) and number > FORMAT:
        return _Found(Progress(None), newer=number)
    try:
        return _Found(Progress(path, ProgressFile.model_validate(data)))
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = field_path(first["loc"])
        said = _("not a progress file of format {format} ({field}: {problem})")
        return _Found(_move_aside(path, said.format(format=FORMAT, field=where, problem=first["msg"].removeprefix("Value error, "))))


def _unreadable(path: Path, exc: OSError) -> Progress:
    """A file that is there but cannot be read is left alone, and so is not overwritten."""
    return Progress(None, problem=_("{file}: cannot read the progress ({why}); progress is not saved this time").format(file=path, why=exc.strerror or exc))


def _move_aside(path: Path, why: str) -> Progress:
    """Rename a broken progress file out of the way (never delete it) and start afresh."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.stem}.broken-{stamp}{path.suffix}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.stem}.broken-{stamp}-{n}{path.suffix}")
    try:
        os.rename(path, aside)
    except OSError as exc:
        said = _("{file}: {problem}; it could not be moved aside ({why}), so progress is not saved this time")
        return Progress(None, problem=said.format(file=path, problem=why, why=exc.strerror or exc))
    return Progress(path, problem=_("{file}: {problem}; kept as {other}, and a fresh progress starts").format(file=path, problem=why, other=aside.name))
