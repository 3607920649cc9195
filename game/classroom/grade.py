"""Grading a class: `equilibria grade LEVEL... SOLUTIONS_DIR --csv OUT.csv`: the rows. No pygame.

The levels are a plain list (`gradable_levels`): each a level id as `check` takes it, a
level file, or a folder of level files; levels without a goal (demo, sandbox) are left
out of a folder. The numbers of a level that varies them are drawn from the student id
and, given one, the course code (`plan(..., course=)`). SOLUTIONS_DIR holds the
class's solution files (docs/solutions.md), in one of two layouts, which may be mixed:

    SOLUTIONS_DIR/alice.json            one file per student: the student is its name
    SOLUTIONS_DIR/bob/bridge-01.json    one folder per student: the student is the
    SOLUTIONS_DIR/bob/bridge-02.json    folder's name (files in folders below it count)

The students are every folder and `*.json` file found (any case of the extension; an
empty folder is a student who handed nothing in), and, with a roster, everyone on it.
Every student gets exactly one row for every level graded: `passed`, the `reason` the
student would read, and the figures behind it as JSON, judged by `equilibria.rules.judge.check`, the
same judge as `equilibria check`, and the marks by the game's rule with what the hand-in's
attempt record says and where it contradicts itself (game/classroom/marks.py). What is not
judged says why in its row:

- nothing handed in for the level: NOT_HANDED_IN, followed by the student's files that
  answer no level graded (a level id that is no level, a file too broken to say its
  level), each with its one line, so that nothing handed in goes unseen;
- two files for one level: a row asking for one;
- a broken file (`FILE: FIELD: what is wrong`, FILE relative to SOLUTIONS_DIR) answers
  the level it names; one too broken to name its level answers the level it is named
  after (`bridge-01.json`), or, when one level is graded and it is the student's only
  file, that level; one named after a level not graded answers nothing (and is counted
  with the solutions for other levels);
- a solution over the judge's budget (game/format/solution.py: BUDGET): its one line, unsolved;
- a folder or file that cannot be read, a link (links are followed only to a file inside
  the student's own folder, never out of the class folder, to another student's file
  nor to a folder), a special file, a file saved as
  `bridge-01.json.txt`: its one line, as for a broken file (the last only where no
  other file answers its level).

The solutions are judged in parallel, one worker process per core (ProcessPoolExecutor).
The engine's compiled kernels are loaded first (compiled into the disk cache if it is
cold), so that no worker compiles: on Linux the workers are forked with the kernels in
memory; elsewhere each loads them from the cache. Workers are given file paths only and read the files themselves
with the same JSON readers as every command. The rows are sorted (student, level, file)
and each verdict depends only on its two files, so the outputs are the same, byte for
byte, whatever the number of workers and the order they finish in. The roster is
game/classroom/roster.py; what is written from the rows (the long and the wide CSV, the
JSON), game/classroom/gradebook.py.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

from equilibria.classroom.marks import Marked, mark
from equilibria.classroom.roster import on_roster
from equilibria.course.level import Level, LevelVersionError, drawn_version, load_level
from equilibria.course.syllabus import level_files, level_path
from equilibria.files.store import BadInput, read_json
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import numbers_line, student_error, student_key
from equilibria.words.i18n import N_, _, decimal, language
from equilibria.words.text import named

NOT_HANDED_IN = N_("no solution for this level was handed in")  # the reason cell: _(NOT_HANDED_IN), in the teacher's language
MAX_ENTRIES = 10_000  # files and folders looked at in one student's folder
PASSED_OVER = ("__MACOSX",)  # folders a zip tool adds, besides hidden ones (.name)


@dataclass(frozen=True)
class Row:
    """One student's result on one level. `file` is relative to SOLUTIONS_DIR ("" when
    nothing was handed in); `figures` the verdict's figures as compact JSON; `marked`
    the marks by the game's rule and what the hand-in's attempt record said
    (game/classroom/marks.py; marks 0 and no record when nothing was judged). On a level
    that varies its numbers (game/rules/variants.py) each solution is judged with its
    student's own: `student_id` and `numbers` say whose and which."""

    student: str
    level: str
    passed: bool
    reason: str
    file: str = ""
    figures: str = "{}"
    crash: str = ""  # the traceback of an unexpected error while judging (never in the CSV)
    student_id: str = ""  # whose numbers the solution was judged with: its stamp, else `student` (game/rules/variants.py)
    numbers: str = ""  # those numbers, on a level that varies them
    marked: Marked = field(default_factory=lambda: Marked(0))

    def key(self) -> tuple[str, str, str]:
        return (self.student, self.level, self.file)


@dataclass(frozen=True)
class Job:
    """A solution to judge: whose, which level, and the two files."""

    student: str
    level: str
    level_file: str
    solution_file: str
    shown: str  # the solution's file as the CSV names it
    full_figures: bool = False  # every figure of the verdict (the teacher's key was given), not only a student's view
    course: str | None = None  # the code of the course graded (`grade --course`): the numbers are drawn with it (None: no course, today's numbers)


@dataclass(frozen=True)
class Entry:
    """Something found in a student's place: a file to read (`path`), or a place that
    was refused or could not be read (`path` None, `problem` its one line). `shown` is
    relative to SOLUTIONS_DIR; `stem` the name without `.json`, the level it may be
    named for."""

    shown: str
    stem: str
    path: Path | None
    problem: str = ""
    misnamed: bool = False  # `bridge-01.json.txt`: said only where no file answers its level


@dataclass(frozen=True)
class Answer:
    """An entry read: the level it names (None: it cannot say) and, when it cannot be
    judged, its one line."""

    entry: Entry
    level: str | None
    problem: str = ""


@dataclass
class Plan:
    """What grading will do: the levels graded (id → file), the rows already known (bad
    files, nothing handed in, two files for one level), the jobs for the workers, how
    many solutions were for other levels, and `notes`: lines for the teacher about what
    answered no level (unknown level ids, files no row could hold, names not on the
    roster)."""

    levels: dict[str, Path]
    students: list[str]
    rows: list[Row]
    jobs: list[Job]
    other_levels: int = 0
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------- levels
def gradable_levels(refs: Sequence[str]) -> dict[str, Path]:
    """The levels LEVELS name, by id, in the order given (a folder's by id): each ref a
    level file, a level id, or a folder of level files (its demos and sandboxes left out).
    BadInput (one line per bad level file) when a file is bad, two files give one id, or
    there is no level with a goal."""
    found: dict[str, Path] = {}
    problems: list[str] = []
    for ref in refs:
        given = Path(ref)
        files = sorted(level_files([given])) if given.is_dir() else [level_path(ref)]
        mine: dict[str, Path] = {}
        for path in files:
            try:
                level = load_level(read_json(path))
            except BadInput as exc:
                problems.append(str(exc))
                continue
            except ValueError as exc:
                problems.append(f"{path}: {str(exc).splitlines()[0]}")
                continue
            other = found.get(level.id) or mine.get(level.id)
            if other is not None and other.resolve() != path.resolve():
                problems.append(_("{file}: id: {id} is already the id of {other}").format(file=path, id=named(level.id), other=other))
            elif KINDS[level.kind].judged:
                mine[level.id] = path
            elif not given.is_dir():
                problems.append(_("{file}: kind: a {kind} level has no goal, so there is nothing to grade").format(file=path, kind=level.kind))
        if given.is_dir() and not mine and not problems:
            problems.append(_("{folder}: no level with a goal to grade in this folder").format(folder=ref))
        for level_id in sorted(mine):
            found.setdefault(level_id, mine[level_id])
    if problems:
        raise BadInput("\n".join(problems))
    if not found:
        raise BadInput(_("grade: no level to grade: give level ids, level files or folders of them before SOLUTIONS_DIR"))
    return found


def known_levels(refs: Sequence[str]) -> set[str]:
    """Every level id a solution may rightly name: the course's, the teacher's, and
    those of the level files LEVELS name (demos included). A solution naming another
    id is for no level: its id is named to the teacher, not just counted."""
    from equilibria.course.syllabus import load_course
    from equilibria.course.teacher import teacher_levels

    known = set(load_course().level_ids()) | {t.id for t in teacher_levels()}
    for ref in refs:
        given = Path(ref)
        for path in level_files([given]) if given.is_dir() else []:
            with contextlib.suppress(BadInput):
                data = read_json(path)
                if isinstance(data, dict) and isinstance(data.get("id"), str):
                    known.add(data["id"])
    return known


# ---------------------------------------------------------------------------- the class folder
def handed_in(folder: Path) -> dict[str, list[Entry]]:
    """Each student's entries: the `*.json` files directly in `folder` (the student is
    the file's name) and everything in each folder in it (the student is the folder's
    name; an empty folder is a student with nothing). Hidden files and folders are
    passed over; links are refused unless they lead to a file in the student's own
    folder (_look). BadInput
    when `folder` is not a folder or cannot be read."""
    if not folder.is_dir():
        if not folder.exists():
            raise BadInput(_("{folder}: no such folder (SOLUTIONS_DIR is a folder of the class's solution files)").format(folder=folder))
        raise BadInput(_("{folder}: not a folder (SOLUTIONS_DIR is a folder of the class's solution files)").format(folder=folder))
    root = folder.resolve()
    try:
        top = _scan(folder)
    except OSError as exc:
        raise BadInput(_("{folder}: cannot read the folder ({why})").format(folder=folder, why=exc.strerror or exc)) from None
    students: dict[str, list[Entry]] = {}
    for entry in top:
        if _passed_over(entry.name):
            continue
        kind, why = _look(entry, root)
        name = _stem(entry.name) if _is_json(entry.name) else entry.name
        if kind == "folder":
            students.setdefault(name, []).extend(_walk(Path(entry.path), entry.name, root))
        elif kind == "file" and _is_json(entry.name):
            students.setdefault(name, []).append(Entry(entry.name, name, Path(entry.path)))
        elif kind == "refused folder" or (kind == "refused" and _is_json(entry.name)):
            students.setdefault(name, []).append(Entry(entry.name, name, None, f"{entry.name}: {why}"))
        elif kind == "file" and _misnamed(entry.name):
            stem = _misnamed(entry.name)
            students.setdefault(stem, []).append(Entry(entry.name, stem, None, f"{entry.name}: {_(_MISNAMED)}", True))
    return students


def one_students_folder(folder: Path, found: dict[str, list[Entry]], known: set[str]) -> str:
    """A line saying how to grade `folder` when it looks like one student's hand-in and
    not a class folder: every "student" in it is a `.json` file directly in it named
    after a level id (`bridge-01.json`, `balance-01.json`) and there are no folders;
    else ""."""
    ids = {k.casefold() for k in known}
    files = [e for entries in found.values() for e in entries]
    if not files or any(len(entries) != 1 for entries in found.values()):
        return ""  # an empty folder (a student with nothing) or one with files in it
    if any("/" in e.shown or not _is_json(e.shown) or e.stem.casefold() not in ids for e in files):
        return ""
    names = ", ".join(sorted(e.shown for e in files)[:2]) + (", …" if len(files) > 2 else "")
    said = _(
        "{folder}: every file in it is named after a level ({files}), so this looks like one student's hand-in folder, not a class folder;"
        " to grade it, put it in a folder of its own (named after the student) inside the class folder"
    )
    return said.format(folder=printable(str(folder)), files=printable(names))


def _walk(folder: Path, shown: str, root: Path) -> list[Entry]:
    """The entries in a student's folder and the folders below it, at most MAX_ENTRIES
    looked at (a folder that holds more is a line of its own)."""
    own = folder.resolve()
    found: list[Entry] = []
    stack, seen = [(folder, shown)], 0
    while stack:
        here, where = stack.pop()
        try:
            entries = _scan(here)
        except OSError as exc:
            found.append(Entry(where, Path(where).name, None, _("{folder}: cannot read the folder ({why})").format(folder=where, why=exc.strerror or exc)))
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                said = _("{folder}: more than {most} files and folders in it; the rest were not looked at").format(folder=shown, most=decimal(MAX_ENTRIES, 0))
                found.append(Entry(shown, shown, None, said))
                return _once(found)
            if _passed_over(entry.name):
                continue
            kind, why = _look(entry, root, own)
            inner = f"{where}/{entry.name}"
            if kind == "folder":
                stack.append((Path(entry.path), inner))
            elif kind == "file" and _is_json(entry.name):
                found.append(Entry(inner, _stem(entry.name), Path(entry.path)))
            elif kind == "refused folder" or (kind == "refused" and _is_json(entry.name)):
                found.append(Entry(inner, _stem(entry.name), None, f"{inner}: {why}"))
            elif kind == "file" and _misnamed(entry.name):
                found.append(Entry(inner, _misnamed(entry.name), None, f"{inner}: {_(_MISNAMED)}", True))
    return _once(found)


def _once(found: list[Entry]) -> list[Entry]:
    """The entries by name, a file reached by a link and by its own name read once (as
    the file itself, not the link)."""
    kept: dict[str, Entry] = {}
    for e in sorted(found, key=lambda e: (e.path is not None and e.path.is_symlink(), e.shown)):
        key = os.path.realpath(e.path) if e.path is not None else f"\0{e.shown}"
        kept.setdefault(key, e)
    return sorted(kept.values(), key=lambda e: e.shown)


def _scan(folder: Path) -> list[os.DirEntry]:
    """The entries of a folder, by name; OSError when it cannot be read."""
    with os.scandir(folder) as entries:
        return sorted(entries, key=lambda e: e.name)


def _look(entry: os.DirEntry, root: Path, own: Path | None = None) -> tuple[str, str]:
    """What an entry is: "folder" or "file" (to read), or "refused folder" / "refused"
    with why. A link is followed only to a file inside `own`, the student's own folder
    (None: a file directly in the class folder `root`, whose links are all refused), so
    that no link reads a file out of the class folder nor another student's."""
    try:
        if entry.is_symlink():
            target = Path(os.path.realpath(entry.path))
            if target.is_dir():
                return "refused folder", _("a link to a folder: not followed")
            if not target.exists():
                return "refused", _("a link to nothing: not followed")
            if not target.is_relative_to(root):
                return "refused", _("a link to a file outside the class folder: not followed")
            if own is None or not target.is_relative_to(own):
                return "refused", _("a link to a file in another place of the class folder (another student's?): not followed")
            return ("file", "") if target.is_file() else ("refused", _("a link to something that is not a file: not followed"))
        if entry.is_dir(follow_symlinks=False):
            return "folder", ""
        if entry.is_file(follow_symlinks=False):
            return "file", ""
    except OSError as exc:
        return "refused", _("cannot be looked at ({why})").format(why=exc.strerror or exc)
    return "refused", _("not a file (a device, a pipe or a socket): not read")


def _is_json(name: str) -> bool:
    return name.casefold().endswith(".json") and len(name) > 5


def _stem(name: str) -> str:
    return name[:-5] if _is_json(name) else name


_MISNAMED = N_("not read: a solution file's name ends in .json (a computer that hides extensions may have added one)")


def _misnamed(name: str) -> str:
    """For a file named as a solution with more after it (`bridge-01.json.txt`, as a
    computer that hides extensions makes), the name before `.json`; else ""."""
    at = name.casefold().rfind(".json.")
    return name[:at] if at > 0 else ""


def _passed_over(name: str) -> bool:
    return name.startswith(".") or name in PASSED_OVER


# ---------------------------------------------------------------------------- planning
def plan(levels: dict[str, Path], folder: Path, roster: list[str] | None = None, known: set[str] | None = None, course: str | None = None) -> Plan:
    """Which files answer which level, for every student: a job for each solution to
    judge, a row for everything already known, one row per student and level. `course`:
    the course code the numbers are drawn with (None: none)."""
    if known is None:
        from equilibria.course.syllabus import load_course

        known = set(load_course().level_ids())
    known = known | set(levels)
    found = handed_in(folder)
    hand_in = one_students_folder(folder, found, known)
    strangers: list[str] = []
    if roster is not None:
        found, strangers = on_roster(found, roster)
    elif not found:
        raise BadInput(_("{folder}: no solution files (*.json) in it, nor in folders in it").format(folder=folder))
    out = Plan(levels, sorted(found), [], [])
    out.notes += [hand_in] if hand_in else []
    out.notes += [_("{student}: not on the roster; graded all the same").format(student=printable(name)) for name in strangers]
    for student in out.students:
        given, strays, others = sort_answers([read_answer(e, levels) for e in found[student]], levels, known)
        out.other_levels += others
        out.notes += [printable(a.problem) for a in strays if a.level is not None]  # every unknown level id, named
        for level in levels:
            made = row_or_job(student, level, given.get(level, []), strays, levels)
            made = dataclasses.replace(made, course=course) if isinstance(made, Job) else made
            (out.jobs if isinstance(made, Job) else out.rows).append(made)
        if given.keys() >= levels.keys():  # no row says "nothing handed in": the strays go in the notes
            out.notes += [printable(a.problem) for a in strays if a.level is None]
    return out


def read_answer(entry: Entry, levels: dict[str, Path]) -> Answer:
    """What an entry answers, read as the judge will read it (within its budget)."""
    from equilibria.format.solution import load_solution, over_budget

    if entry.path is None:
        return Answer(entry, None, entry.problem)
    try:
        data = read_json(entry.path)
    except BadInput as exc:
        return Answer(entry, None, str(exc).replace(str(entry.path), entry.shown))  # the OS's words may name it again
    named = data.get("level") if isinstance(data, dict) else None
    try:
        solution = load_solution(data)
    except ValueError as exc:
        return Answer(entry, named if isinstance(named, str) else None, f"{entry.shown}: {str(exc).splitlines()[0]}")
    if named not in levels:
        return Answer(entry, named)
    try:
        size = entry.path.stat().st_size
    except OSError:
        size = 0
    problem = over_budget(solution, size)
    return Answer(entry, named, f"{entry.shown}: {problem}" if problem else "")


def sort_answers(answers: list[Answer], levels: dict[str, Path], known: set[str]) -> tuple[dict[str, list[Answer]], list[Answer], int]:
    """One student's answers by level graded; the strays, which answer no level graded
    and are named in the rows that say nothing was handed in (a level id that is no
    level, a file that cannot say its level and is not named for one); and how many
    answer a level not graded."""
    given: dict[str, list[Answer]] = {}
    strays: list[Answer] = []
    others = 0
    for a in answers:
        if a.entry.misnamed:
            continue
        if a.level in levels:
            given.setdefault(a.level, []).append(a)
        elif a.level is not None and a.level in known:
            others += 1
        elif a.level is not None:
            said = _("{file}: level: {level} is no level of the course nor of the levels graded").format(file=a.entry.shown, level=named(a.level))
            strays.append(Answer(a.entry, a.level, said))
        elif a.entry.stem in levels:  # too broken to say its level: the one it is named after
            given.setdefault(a.entry.stem, []).append(a)
        elif a.entry.stem in known:  # named after a level not graded: never another level's answer
            others += 1
        else:
            strays.append(a)
    for a in answers:  # a misnamed file: the answer only where no file is (a backup beside one is not a second)
        if a.entry.misnamed and a.entry.stem in levels and a.entry.stem not in given:
            given[a.entry.stem] = [a]
        elif a.entry.misnamed and a.entry.stem not in levels and a.entry.stem not in known:
            strays.append(a)
    if len(levels) == 1 and not given and len(strays) == 1 and strays[0].level is None:
        given[next(iter(levels))] = strays  # one level, one file that cannot say: its answer, however broken
        strays = []
    return given, strays, others


def row_or_job(student: str, level: str, given: list[Answer], strays: list[Answer], levels: dict[str, Path]) -> Row | Job:
    """A student's row on a level when it is known without judging, else the job that
    judges their one solution for it."""
    if not given:
        return Row(student, level, False, "; ".join([_(NOT_HANDED_IN), *(a.problem for a in strays)]))
    if len(given) > 1:
        names = ", ".join(a.entry.shown for a in given)
        return Row(student, level, False, _("{n} solution files for this level ({files}): hand in one").format(n=len(given), files=names), names)
    (a,) = given
    if a.problem or a.entry.path is None:
        return Row(student, level, False, a.problem, a.entry.shown)
    return Job(student, level, str(levels[level]), str(a.entry.path), a.entry.shown)


# ---------------------------------------------------------------------------- judging
def judge(job: Job) -> Row:
    """One verdict, as a row: what a worker runs, with the marks by the game's rule
    (game/classroom/marks.py). Bad input is the row's reason; an unexpected error is kept
    in `crash` (the caller logs it), never raised."""
    from equilibria.format.solution import read_solution
    from equilibria.rules.judge import check

    solution = None

    def refused(line: str, flag: str = "") -> Row:
        marked = mark(False, solution.record, has_moves=bool(solution.moves)) if solution is not None else Marked(0)
        marked = dataclasses.replace(marked, flags=(flag, *marked.flags)) if flag else marked
        return Row(job.student, job.level, False, line, job.shown, marked=marked)

    try:
        level: Level = load_level(read_json(job.level_file))
        solution = read_solution(job.solution_file)  # within the budget, whatever the file became since it was planned
        if level.vary is not None and (why := student_error(job.student)):
            # The numbers are drawn from the student's id, which the folder (or file) names:
            # a name no id can be (a control character in it) has no numbers, never the level's fault.
            said = _(
                "{file}: {student} is no student id ({why}), so there are no numbers of theirs to judge this work with: "
                "name the folder (or the file) by the student's id"
            )
            return refused(said.format(file=job.shown, student=named(job.student), why=why), _("no student id"))
        if level.vary is not None and solution.student is not None and student_key(solution.student) != student_key(job.student):
            # The numbers are the owner's (the folder or file it was handed in as): work
            # stamped for a classmate answers the classmate's numbers, so it fails, named.
            said = _("{file}: this work is stamped for student {stamped}, not {student}: it answers their numbers, not this student's")
            flag = _("stamped for another student ({stamped})").format(stamped=named(solution.student))
            return refused(said.format(file=job.shown, stamped=named(solution.student), student=named(job.student)), flag)
        if job.course is not None and solution.course not in (None, job.course):
            said = _("{file}: this work was done in another course (code {stamped}), not the one graded ({course}): it answers that course's numbers")
            flag = _("done in another course ({stamped})").format(stamped=solution.course)
            return refused(said.format(file=job.shown, stamped=solution.course, course=job.course), flag)
        solution = solution.model_copy(update={"student": job.student, "course": job.course or solution.course})
        level = drawn_version(level, solution.student, solution.course, job.level_file)  # drawn once: the judge finds it drawn for this student
        verdict = check(level, solution)
    except LevelVersionError as exc:  # the level's ranges give this student a level that cannot be built: never the student's fault
        return refused(str(exc), _("the level cannot be built with this student's numbers"))
    except BadInput as exc:
        return refused(str(exc).replace(job.solution_file, job.shown))
    except ValueError as exc:
        line = str(exc).splitlines()[0]
        flag = _("the numbers in the file are not this student's") if line.startswith("numbers:") else ""
        return refused(f"{job.shown}: {line}", flag)
    except Exception as exc:  # one solution must not end the class's grading
        said = _("could not be judged: an unexpected error ({error})").format(error=type(exc).__name__)
        return Row(job.student, job.level, False, said, job.shown, crash=traceback.format_exc())
    if not job.full_figures:  # a student can run `grade` too: without the teacher's key, what `check --json` prints (Kind.figures_before_pass)
        verdict = dataclasses.replace(verdict, figures=KINDS[level.kind].student_figures(verdict.figures, verdict.passed))
    figures = verdict.as_dict()
    del figures["passed"], figures["reason"]
    figures = json.dumps(figures, sort_keys=True, separators=(",", ":"), allow_nan=False)
    marked = mark(verdict.passed, solution.record, has_moves=bool(solution.moves))
    numbers = numbers_line(level)
    return Row(job.student, job.level, verdict.passed, verdict.reason, job.shown, figures, student_id=solution.student, numbers=numbers, marked=marked)


def _quiet_worker(language: str = "en") -> None:
    """A worker leaves Ctrl+C to the command, which stops them all quietly, and writes
    the rows' reasons in the command's language (a fresh Python has not been told it)."""
    from equilibria.words.i18n import set_language

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_language(language)


def run(jobs: list[Job], workers: int, done: Callable[[int, int], None]) -> list[Row]:
    """Judge every job, on `workers` processes (1: in this one); `done(n, total)` after
    each. The rows come back in the jobs' order, whichever worker finished first."""
    total = len(jobs)
    rows: list[Row | None] = [None] * total
    if workers <= 1 or total <= 1:
        for k, job in enumerate(jobs):
            rows[k] = judge(job)
            done(k + 1, total)
        return [r for r in rows if r is not None]
    pool = ProcessPoolExecutor(max_workers=min(workers, total), mp_context=get_context(_start_method()), initializer=_quiet_worker, initargs=(language(),))
    try:
        futures = {pool.submit(judge, job): k for k, job in enumerate(jobs)}
        for n, future in enumerate(as_completed(futures), 1):
            rows[futures[future]] = future.result()
            done(n, total)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return [r for r in rows if r is not None]


def _start_method() -> str:
    """How workers start: on Linux forked from this process, which has the engine's
    kernels loaded already (a worker starts in milliseconds, not the second or two a
    fresh Python takes to import numba and load them); elsewhere, where forking a
    process is unsafe (macOS) or impossible (Windows), as fresh Pythons."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


def warm_engine(say: Callable[[str], None], *, load: bool) -> None:
    """Compile the engine's kernels into the disk cache if it is cold, so that workers
    never compile them each (seconds each, once per user); with `load`, load them into
    this process too, for forked workers to have (_start_method)."""
    from equilibria.engine import warm

    if warm.steps_done() < len(warm.STEPS):
        say(_("compiling the engine once for this version (about half a minute)…"))
        with contextlib.redirect_stdout(io.StringIO()):  # its `N LABEL` lines are for the game's loading screen
            if warm.main() != 0:
                raise KeyboardInterrupt
    elif load:
        for _label, step in warm.STEPS:
            step()


def valid_text(text: str) -> str:
    """`text` with the undecodable bytes of a file name (surrogate escapes) as U+FFFD."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def printable(text: str) -> str:
    """`text` for a terminal: control characters (a carriage return, an escape sequence)
    shown as escapes, never acted on."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in valid_text(text))


class ProgressBar:
    """`graded 37/120` on stderr: rewritten in place on a terminal, else a line at each
    tenth of the way (a log stays short)."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = -1

    def __call__(self, n: int, total: int) -> None:
        if self.live:
            self.stream.write("\r" + _("graded {n}/{total}").format(n=n, total=total) + ("\n" if n == total else ""))
        elif n * 10 // total != self.shown:
            self.shown = n * 10 // total
            self.stream.write(_("graded {n}/{total}").format(n=n, total=total) + "\n")
        self.stream.flush()


def default_workers() -> int:
    """The cores this process may run on."""
    with contextlib.suppress(AttributeError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
