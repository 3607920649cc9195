"""Grading a class: `equilibria grade LEVELS SOLUTIONS_DIR --csv OUT.csv`. No pygame.

LEVELS is one level (a file, or an id as `check` takes it) or a folder of level files;
levels without a goal (demo, sandbox) are left out of a folder. SOLUTIONS_DIR holds the
class's solution files (docs/solutions.md), in one of two layouts, which may be mixed:

    SOLUTIONS_DIR/alice.json            one file per student: the student is its name
    SOLUTIONS_DIR/bob/bridge-01.json    one folder per student: the student is the
    SOLUTIONS_DIR/bob/bridge-02.json    folder's name (files in folders below it count)

Each solution names its level; solutions for levels not graded are left out (and
counted). The result is one row per student and level graded: `passed`, the `reason`
the student would read, and the figures behind it as JSON, judged by `game.rules.check`,
the same judge as `equilibria check`. A student who handed nothing in for a level gets
a row that says so; one who handed in two files for one level gets a row asking for one.
A broken solution file is a row that did not pass, whose reason is the one line `check`
prints (`FILE: FIELD: what is wrong`, FILE relative to SOLUTIONS_DIR). A file too broken
to say its level answers the level it is named after (`bridge-01.json`), or, when one
level is graded and it is the student's only file, that level; else its row's level is
empty.

The solutions are judged in parallel, one worker process per core (ProcessPoolExecutor).
The engine's compiled kernels are loaded first (compiled into the disk cache if it is
cold), so that no worker compiles: on Linux the workers are forked with the kernels in
memory; elsewhere each loads them from the cache. Workers are given file paths only and read the files themselves
with the same JSON readers as every command. The rows are sorted (student, level, file)
and each verdict depends only on its two files, so the CSV is the same, byte for byte,
whatever the number of workers and the order they finish in.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from game.course import level_files, level_path
from game.files import BadInput, read_json
from game.level import Level, load_level
from game.rules import KINDS
from game.variants import numbers_line, version

# On a level that varies its numbers (game/variants.py) each solution is judged with its
# student's own: the solution's `student` stamp, else the student's file or folder name;
# `student id` and `numbers` say whose and which.
COLUMNS = ("student", "level", "passed", "reason", "file", "figures", "student id", "numbers")
NOT_HANDED_IN = "no solution for this level was handed in"


@dataclass(frozen=True)
class Row:
    """One student's result on one level. `file` is relative to SOLUTIONS_DIR ("" when
    nothing was handed in); `figures` the verdict's figures as compact JSON."""

    student: str
    level: str
    passed: bool
    reason: str
    file: str = ""
    figures: str = "{}"
    crash: str = ""  # the traceback of an unexpected error while judging (never in the CSV)
    student_id: str = ""  # whose numbers the solution was judged with: its stamp, else `student` (game/variants.py)
    numbers: str = ""  # those numbers, on a level that varies them

    def key(self) -> tuple[str, str, str]:
        return (self.student, self.level, self.file)

    def cells(self) -> list[str]:
        return [self.student, self.level, "true" if self.passed else "false", self.reason, self.file, self.figures, self.student_id, self.numbers]


@dataclass(frozen=True)
class Job:
    """A solution to judge: whose, which level, and the two files."""

    student: str
    level: str
    level_file: str
    solution_file: str
    shown: str  # the solution's file as the CSV names it


@dataclass
class Plan:
    """What grading will do: the levels graded (id → file), the rows already known (bad
    files, nothing handed in, two files for one level), the jobs for the workers, and how
    many solutions were for other levels."""

    levels: dict[str, Path]
    students: list[str]
    rows: list[Row]
    jobs: list[Job]
    other_levels: int = 0


# ---------------------------------------------------------------------------- planning
def gradable_levels(ref: str) -> dict[str, Path]:
    """The levels LEVELS names, by id. BadInput (one line per bad level file) when a
    file is bad, two files give one id, or there is no level with a goal."""
    given = Path(ref)
    files = level_files([given]) if given.is_dir() else [level_path(ref)]
    found: dict[str, Path] = {}
    problems: list[str] = []
    for path in files:
        try:
            level = load_level(read_json(path))
        except BadInput as exc:
            problems.append(str(exc))
            continue
        except ValueError as exc:
            problems.append(f"{path}: {str(exc).splitlines()[0]}")
            continue
        if level.id in found:
            problems.append(f"{path}: id: {level.id!r} is already the id of {found[level.id]}")
        elif KINDS[level.kind].judged:
            found[level.id] = path
        elif not given.is_dir():
            problems.append(f"{path}: kind: a {level.kind} level has no goal, so there is nothing to grade")
    if problems:
        raise BadInput("\n".join(problems))
    if not found:
        raise BadInput(f"{ref}: no level with a goal to grade in this folder")
    return dict(sorted(found.items()))


def handed_in(folder: Path) -> dict[str, list[Path]]:
    """Each student's solution files: the JSON files directly in `folder` (the student
    is the file's name) and those in each folder in it (the student is the folder's
    name). Hidden files and folders are passed over. BadInput when `folder` is not a
    folder or holds no solution."""
    if not folder.is_dir():
        why = "no such folder" if not folder.exists() else "not a folder"
        raise BadInput(f"{folder}: {why} (SOLUTIONS_DIR is a folder of the class's solution files)")
    students: dict[str, list[Path]] = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            files = sorted(p for p in entry.rglob("*.json") if p.is_file() and not any(part.startswith(".") for part in p.relative_to(entry).parts))
            if files:
                students.setdefault(entry.name, []).extend(files)
        elif entry.suffix == ".json" and entry.is_file():
            students.setdefault(entry.stem, []).append(entry)
    if not students:
        raise BadInput(f"{folder}: no solution files (*.json) in it, nor in folders in it")
    return students


def plan(levels: dict[str, Path], folder: Path) -> Plan:
    """Which files answer which level, for every student: a job for each solution to
    judge, a row for everything already known."""
    students = handed_in(folder)
    out = Plan(levels, sorted(students), [], [])
    for student, files in sorted(students.items()):
        answers: dict[str, list[tuple[str, Row | None]]] = {}  # level → (file as shown, row when broken)
        unsaid: list[tuple[str, str]] = []  # broken files that cannot say their level: (file as shown, line)
        for path in files:
            shown = path.relative_to(folder).as_posix()
            level, problem = _level_named(path, shown, levels)
            if level is None:
                out.other_levels += 1
            elif level == "" and path.stem in levels:
                answers.setdefault(path.stem, []).append((shown, Row(student, path.stem, False, problem, shown)))
            elif level == "":
                unsaid.append((shown, problem))
            else:
                answers.setdefault(level, []).append((shown, Row(student, level, False, problem, shown) if problem else None))
        if len(levels) == 1 and len(unsaid) == 1 and not answers:  # one level, one file: its answer, however broken
            (only,), (shown, problem) = levels, unsaid.pop()
            answers[only] = [(shown, Row(student, only, False, problem, shown))]
        out.rows += [Row(student, "", False, problem, shown) for shown, problem in unsaid]
        for level in sorted(set(levels) | set(answers)):
            given = answers.get(level, [])
            if not given:
                out.rows.append(Row(student, level, False, NOT_HANDED_IN))
            elif len(given) > 1:
                names = ", ".join(shown for shown, _ in given)
                out.rows.append(Row(student, level, False, f"{len(given)} solution files for this level ({names}): hand in one", names))
            elif given[0][1] is not None:
                out.rows.append(given[0][1])
            else:
                shown = given[0][0]
                out.jobs.append(Job(student, level, str(levels[level]), str(folder / shown), shown))
    return out


def _level_named(path: Path, shown: str, levels: dict[str, Path]) -> tuple[str | None, str]:
    """The level a solution file answers (None: a level not graded; "": the file cannot
    say) and, for a file that cannot be judged, its one line."""
    from game.solution import load_solution

    try:
        data = read_json(path)
    except BadInput as exc:
        return "", str(exc).replace(str(path), shown, 1)
    named = data.get("level") if isinstance(data, dict) else None
    if isinstance(named, str) and named not in levels:
        return None, ""
    try:
        load_solution(data)
    except ValueError as exc:
        return (named if isinstance(named, str) else ""), f"{shown}: {str(exc).splitlines()[0]}"
    return named, ""


# ---------------------------------------------------------------------------- judging
def judge(job: Job) -> Row:
    """One verdict, as a row: what a worker runs. Bad input is the row's reason; an
    unexpected error is kept in `crash` (the caller logs it), never raised."""
    from game.rules import check
    from game.solution import load_solution

    def refused(line: str) -> Row:
        return Row(job.student, job.level, False, line, job.shown)

    try:
        level: Level = load_level(read_json(job.level_file))
        solution = load_solution(read_json(job.solution_file))
        if solution.student is None:  # unstamped: the student the grade book names
            solution = solution.model_copy(update={"student": job.student})
        level = version(level, solution.student)  # drawn once: the judge finds it drawn for this student
        verdict = check(level, solution)
    except BadInput as exc:
        return refused(str(exc).replace(job.solution_file, job.shown, 1))
    except ValueError as exc:
        return refused(f"{job.shown}: {str(exc).splitlines()[0]}")
    except Exception as exc:  # one solution must not end the class's grading
        return Row(job.student, job.level, False, f"could not be judged: an unexpected error ({type(exc).__name__})", job.shown, crash=traceback.format_exc())
    figures = verdict.as_dict()
    del figures["passed"], figures["reason"]
    figures = json.dumps(figures, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return Row(job.student, job.level, verdict.passed, verdict.reason, job.shown, figures, student_id=solution.student, numbers=numbers_line(level))


def _quiet_worker() -> None:
    """A worker leaves Ctrl+C to the command, which stops them all quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    pool = ProcessPoolExecutor(max_workers=min(workers, total), mp_context=get_context(_start_method()), initializer=_quiet_worker)
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
    from engine import warm

    if warm.steps_done() < len(warm.STEPS):
        say("compiling the engine once for this version (about 8 s)…")
        with contextlib.redirect_stdout(io.StringIO()):  # its `N LABEL` lines are for the game's loading screen
            if warm.main() != 0:
                raise KeyboardInterrupt
    elif load:
        for _, step in warm.STEPS:
            step()


# ---------------------------------------------------------------------------- output
def csv_text(rows: Iterable[Row]) -> str:
    """The CSV: a header, then the rows sorted by student, level and file."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(r.cells() for r in sorted(rows, key=Row.key))
    return out.getvalue()


class ProgressBar:
    """`graded 37/120` on stderr: rewritten in place on a terminal, else a line at each
    tenth of the way (a log stays short)."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = -1

    def __call__(self, n: int, total: int) -> None:
        if self.live:
            self.stream.write(f"\rgraded {n}/{total}" + ("\n" if n == total else ""))
        elif n * 10 // total != self.shown:
            self.shown = n * 10 // total
            self.stream.write(f"graded {n}/{total}\n")
        self.stream.flush()


def default_workers() -> int:
    """The cores this process may run on."""
    with contextlib.suppress(AttributeError):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1
