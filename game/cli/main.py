"""The `equilibria` command (also `python -m equilibria`): every command, as docs/cli.md gives them.

    equilibria simulate MODEL.json [--seconds T | --until-rest] [--integrator ...]
                        [--dt DT] [--record SPEC ...] [--every DT] [--max-seconds S]
                        [--load-factors F,F,...] --json

    equilibria validate PATH...
    equilibria show LEVEL [--student ID] [--course FILE] [--answers --key KEY] [--json]
                                                                   one student's version of a level (its answer: the key)
                                                                   (check and levels take --student ID too)
    equilibria course new NAME --levels ID,ID,... [-o DIR] [--force]   a course file for the students, a key for the teacher
    equilibria course open FILE                                    open a teacher's course file: its levels, its numbers
    equilibria check LEVEL [--solution SOLUTION.json] [--attempt N] --json
    equilibria levels [--json]                                     the course and the teacher's levels
    equilibria grade LEVEL... SOLUTIONS_DIR --csv|--wide|--json OUT [--roster FILE]  a class's solutions judged and marked
    equilibria grade --course FILE SOLUTIONS_DIR --csv|--wide|--json OUT ...  the course's levels, its numbers
    equilibria export LEVEL [-o FILE]                              your saved work as a solution file
    equilibria docs [PAGE]                                         the manual, installed with the program
    equilibria clean [--data]                                      remove the compiled engine (and the player's things)
    equilibria --version

    equilibria [--frames N] [--screenshot OUT.png]                 the menu
    equilibria play LEVEL [--solution S.json] [--check] [--frames N] [--screenshot OUT.png]
    equilibria sandbox [LEVEL | DESIGN] [--frames N] [--screenshot OUT.png]

LEVEL (and MODEL, and validate's PATH) is a level file or the id of a level (`tutorial-01`).

Exit codes: 0 done (check: passed), 1 unstable, not passed or no window, 2 bad input
(one line on stderr naming the file and the field), 3 an unexpected error (one line on
stderr naming a log file that holds the details), 130 interrupted (Ctrl+C), 141 the
reader of the output went away (`validate | head -1`). Never a traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import re
import sys
import time
import traceback

from equilibria.cli.argtexts import argparse_in_language  # the standard library only too
from equilibria.files.store import BadInput, format_problem, read_json  # the standard library only: see main()
from equilibria.words.i18n import (
    LANGUAGES,
    SOURCE,
    _,
    decimal,
    decimal_mark,
    ngettext,
    set_language,
    system_language,
)  # the standard library only until a language is used
from equilibria.words.text import named, plain_text  # the standard library only too


def _positive(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a number, got {text}").format(text=named(text))) from None
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(_("must be a positive number, got {text}").format(text=named(text)))
    return x


class _Parser(argparse.ArgumentParser):
    command: str | None = None  # the command typed, once known: a mistyped option is one of its own

    def parse_args(self, args=None, namespace=None):
        """argparse's, but what is left over is refused knowing the command it was typed for."""
        out, extras = self.parse_known_args(args, namespace)
        if extras:
            self.command = getattr(out, "command", None)
            self.error(argparse._("unrecognized arguments: %s") % " ".join(extras))
        return out

    def error(self, message: str):  # one line and exit 2, as for any bad input
        from equilibria.words.suggest import for_argparse

        self.exit(2, f"{self.prog}: {for_argparse(message, _option_names(self, self.command))}\n")


def _option_names(parser: argparse.ArgumentParser, command: str | None = None) -> set[str]:
    """Every --option of `parser` and of its commands, or of `command` alone when it is
    one of them (what a mistyped option may have meant: `check --studnt` is `--student`,
    never simulate's `--dt`)."""
    names = {name for name in parser._option_string_actions if name.startswith("--")}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if command is None or name == command:
                    names |= _option_names(sub)
    return names


def build_parser() -> argparse.ArgumentParser:
    from equilibria.words.project import DOCUMENTATION, HOME, ISSUES

    epilog = _("The manual: `equilibria docs` (installed with the program), or {documentation}\nReport a bug: {issues}\nHome: {home}").format(
        documentation=DOCUMENTATION, issues=ISSUES, home=HOME
    )
    about = _("Equilibria: a 2D structural-statics sandbox game.")
    parser = _Parser(prog="equilibria", description=about, epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"equilibria {version()}", help=_("show program's version number and exit"))
    sub = parser.add_subparsers(dest="command")
    sim = sub.add_parser("simulate", help=_("run a model headless and print the results"))
    sim.add_argument("model", help=_("model JSON (the level format without goal and player), or a level file or id"))
    span = sim.add_mutually_exclusive_group()
    span.add_argument("--seconds", type=_positive, help=_("simulated time to run [s]"))
    span.add_argument("--until-rest", action="store_true", help=_("run until at rest or --max-seconds (the default)"))
    sim.add_argument("--max-seconds", type=_positive, default=60.0, help=_("limit for --until-rest [s] (default 60)"))
    sim.add_argument(
        "--integrator", choices=("rk4", "symplectic", "newmark", "relax", "linear"), default="rk4", help=_("how the motion is computed in time (default rk4)")
    )
    sim.add_argument("--hht-alpha", type=float, default=0.0, help=_("newmark: HHT-α in [-1/3, 0], damping the highest modes (default 0)"))
    sim.add_argument("--dt", type=_positive, help=_("time step [s] (default: a stable step estimated from the model; 1/120 s for newmark)"))
    sim.add_argument("--record", action="append", default=[], metavar="SPEC", help=_("quantity to record, e.g. node.B.y, member.AB.axial"))
    sim.add_argument(
        "--every", type=_positive, help=_("recording interval [s] (default 0.01 s); values between steps from the state interpolated to that time")
    )
    sim.add_argument("--load-factors", type=_load_factors, metavar="F,F,...", help=_("relax/linear: one static answer per factor on the loads (0.25,0.5,1)"))
    sim.add_argument("--json", action="store_true", help=_("print one JSON object"))
    val = sub.add_parser("validate", help=_("schema and sense checks of level files"))
    val.add_argument("paths", nargs="*", metavar="PATH", help=_("level files, or folders of them (default: the shipped course)"))
    val.add_argument("--json", action="store_true", help=_("print one JSON object: each file checked, and one entry for each problem"))
    chk = sub.add_parser("check", help=_("the verdict on a level and a solution"))
    chk.add_argument("level", help=_("a level file, or the id of a shipped level"))
    chk.add_argument("--solution", help=_("the player's solution JSON (default: no moves)"))
    chk.add_argument("--student", help=_("judge with this student's numbers (a level that varies; the solution's own student id comes first)"))
    chk.add_argument("--json", action="store_true", help=_("print one JSON object"))
    chk.add_argument("--attempt", type=_count, metavar="N", help=_("the hint after the N-th failed check (default: the first, and all the level's hints)"))
    shw = sub.add_parser("show", help=_("print a level as one student gets it: their numbers, brief and hints (the answer only with the teacher's key)"))
    shw.add_argument("level", help=_("a level file, or the id of a shipped level"))
    shw.add_argument("--student", action="append", help=_("the student id (default: the level's own numbers); again for more students"))
    shw.add_argument("--course", metavar="FILE", help=_("the numbers of this course file (default: the course opened, if any)"))
    shw.add_argument("--answers", action="store_true", help=_("also the answer and the explanation (needs the course's key, --key)"))
    shw.add_argument("--key", metavar="KEY_FILE", help=_("the teacher's key of the course (written by `equilibria course new`)"))
    shw.add_argument("--json", action="store_true", help=_("print one JSON object (with --answers, the answer as a solution file)"))
    how = sub.add_parser("method", help=_("the textbook method worked on a level or a model file, step by step (graded: after a pass or a shown answer)"))
    how.add_argument("level", help=_("a level file, the id of a level, or a model file"))
    how.add_argument("--student", help=_("the student id whose numbers to work with (default: yours, from the progress)"))
    how.add_argument("--svg", metavar="OUT.svg", help=_("also write the worked method as a page to print or hand in, with the structure and a beam's diagrams"))
    grd = sub.add_parser("grade", help=_("judge a class's solution files: the marks by the game's rule, as CSV rows and a grade book to import"))
    grd.add_argument("levels", nargs="*", metavar="LEVEL", help=_("the levels to grade: level ids (truss-01 truss-02), level files, or folders of them"))
    grd.add_argument("--course", metavar="FILE", help=_("grade the levels of this course file, with its numbers (instead of LEVEL...)"))
    grd.add_argument("solutions", metavar="SOLUTIONS_DIR", help=_("the class's solutions: STUDENT.json files, or a folder per student"))
    grd.add_argument("--csv", metavar="OUT.csv", help=_("a row per student and level (- for standard output); never over an input"))
    grd.add_argument("--wide", metavar="OUT.csv", help=_("a row per student, a column of marks per level and the total, for Moodle's or Canvas's grade import"))
    grd.add_argument("--json", metavar="OUT.json", help=_("every row with the verdict's figures, as JSON (- for standard output)"))
    grd.add_argument("--roster", metavar="FILE", help=_("the class: one student a line, or a .csv a learning platform exports; each gets every level"))
    grd.add_argument("--roster-column", metavar="NAME", help=_("the .csv roster's column of students (default: an id column: Student ID, Username, Email…)"))
    grd.add_argument(
        "--no-bom", dest="bom", action="store_false", help=_("no byte-order mark at the start of the CSV (by default one, for Excel to read UTF-8)")
    )
    grd.add_argument("--workers", type=_count, metavar="N", help=_("processes judging at once (default: one per core)"))
    exp = sub.add_parser("export", help=_("write your saved work on a level as a solution file, to hand in"))
    exp.add_argument("level", help=_("a level file, or the id of a level (equilibria levels lists them)"))
    exp.add_argument("-o", "--output", metavar="FILE", help=_("where to write it (default: LEVEL.json in the current folder)"))
    _more_commands(sub)
    lvl = sub.add_parser("levels", help=_("list the course: id, kind, won or not, title"))
    lvl.add_argument("--json", action="store_true", help=_("print one JSON list (with each level's file)"))
    lvl.add_argument("--student", help=_("also each level's numbers for this student (levels that vary them)"))
    ply = sub.add_parser("play", help=_("play a level"))
    ply.add_argument("level", help=_("a level file, or the id of a shipped level (equilibria levels lists them)"))
    ply.add_argument("--solution", help=_("start from this solution's moves (a teacher showing an answer)"))
    ply.add_argument("--check", action="store_true", help=_("check the level at once (with --solution: judge that answer)"))
    sbx = sub.add_parser("sandbox", help=_("an empty world with ground, or a design to watch"))
    sbx.add_argument("design", nargs="?", help=_("a design file, or a level (file or id) to play with freely (default: an empty sandbox)"))
    for p in (ply, sbx):
        p.add_argument("--dt", type=_positive, help=_("time step [s] (default: a stable step); too large a one shows how a run blows up"))
        _window_options(p, "frames", "screenshot", size_default=argparse.SUPPRESS)  # given before the command, a size holds
    _window_options(parser, "menu_frames", "menu_screenshot")  # the menu: `equilibria` alone
    for command in sub.choices.values():  # every command's --help ends with where to read more and report a bug
        command.epilog, command.formatter_class = epilog, argparse.RawDescriptionHelpFormatter
    for p in (parser, *sub.choices.values()):  # before or after the command: `equilibria --lang de check …`, `equilibria check … --lang de`
        p.add_argument("--lang", choices=sorted(LANGUAGES), default=argparse.SUPPRESS, help=lang_help())
    return parser


def lang_help() -> str:
    """--lang's help: the languages, each by its own name."""
    names = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    return _("the language of every text: {languages} (default: the system's)").format(languages=names)


def _language_asked(argv: list[str]) -> str | None:
    """The language `--lang` asks for anywhere in `argv` (read before the parser is built,
    whose help it translates); None where it is not given."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def _more_commands(sub) -> None:
    """`docs` and `clean`: the manual and the folders, as an installed program has them."""
    docs = sub.add_parser("docs", help=_("the manual, installed with the program: its folder and pages, or one page"))
    docs.add_argument("page", nargs="?", metavar="PAGE", help=_("the page to print (cli, level-format, model, solutions)"))
    clean = sub.add_parser("clean", help=_("remove the compiled engine from the cache (and with --data the player's things)"))
    clean.add_argument("--data", action="store_true", help=_("also remove the progress, designs, screenshots, hand-ins and logs"))
    clean.add_argument("--levels", action="store_true", help=_("with --data, also remove a teacher's own levels (kept otherwise)"))
    course = sub.add_parser("course", help=_("a teacher's course: a course file for the students and a key for the teacher"))
    what = course.add_subparsers(dest="course_command", required=True, metavar="{new,open}")
    new = what.add_parser("new", help=_("write NAME.course.json (for the students) and NAME.key.json (for you alone)"))
    new.add_argument("name", metavar="NAME", help=_("the course's name, also its files' names"))
    new.add_argument("--levels", required=True, metavar="ID,ID,...", help=_("the homework's level ids, in order, separated by commas"))
    new.add_argument("-o", "--output", metavar="DIR", default=".", help=_("the folder to write the two files in (default: the current one)"))
    new.add_argument("--force", action="store_true", help=_("write over files of that name (the old key then prints no answers)"))
    opened = what.add_parser("open", help=_("open a course file your teacher gave you: the game shows its levels and draws your numbers in it"))
    opened.add_argument("file", metavar="FILE", help=_("the course file (NAME.course.json)"))
    for p in (new, opened):
        p.add_argument("--lang", choices=sorted(LANGUAGES), default=argparse.SUPPRESS, help=lang_help())


def _window_options(parser: argparse.ArgumentParser, frames: str, screenshot: str, *, size_default=None) -> None:
    """--frames, --screenshot and --size. A command's --size leaves the one given before
    the command alone when it is not given itself (`equilibria --size 800x600 play …`):
    argparse would otherwise set the command's default over it."""
    parser.add_argument("--frames", dest=frames, type=_count, metavar="N", help=_("run N frames of 1/60 s, headless-friendly, then exit"))
    parser.add_argument(
        "--screenshot", dest=screenshot, metavar="OUT.png", help=_("save the last frame as an image: .png, .jpg or .bmp (checked before the run)")
    )
    parser.add_argument("--size", type=_size, metavar="WxH", default=size_default, help=_("the window's size in pixels (default 1280x800, at least 800x600)"))


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a size like 1280x800, got {text}").format(text=named(text))) from None
    if w < 1 or h < 1:
        raise argparse.ArgumentTypeError(_("a size is at least 1x1, got {text}").format(text=named(text)))
    return w, h


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a whole number, got {text}").format(text=named(text))) from None
    if n < 1:
        raise argparse.ArgumentTypeError(_("must be at least 1, got {text}").format(text=named(text)))
    return n


def version() -> str:
    """The installed version (pyproject.toml's), or "unknown" in a copy never installed."""
    from importlib import metadata  # here, not above: it loads zipfile, email and more

    try:
        return metadata.version("equilibria")
    except metadata.PackageNotFoundError:
        return "unknown"


INTERRUPTED = 130  # the shell's code for a command ended by Ctrl+C (128 + SIGINT)
BROKEN_PIPE = 141  # the shell's code for a command whose reader went away (128 + SIGPIPE)
CRASHED = 3


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code. Nothing escapes as a traceback: bad input is one
    line (2), Ctrl+C ends quietly (130), anything unexpected is one line naming a log
    file that holds the traceback (3).

    This module imports only the standard library (and equilibria.files.store, which does too): the
    engine (numba, scipy) and the game are imported by each command, inside the `try`
    below, so that Ctrl+C while they load ends quietly too, and `--version` and `--help`
    answer at once and touch no folder. SIGTERM and SIGHUP end a command as Ctrl+C does
    (an interrupt, exit 130), so that the game keeps the player's work on the way out."""
    from equilibria.cli.console import tolerant_output

    tolerant_output()  # a cp1252 console prints Σ as ?, never stops the command
    set_language(_language_asked(sys.argv[1:] if argv is None else argv) or system_language())
    argparse_in_language()  # "usage:", "positional arguments", "invalid choice" in the language too
    try:
        args = build_parser().parse_args(glued(sys.argv[1:] if argv is None else argv))
        if getattr(args, "json", False):  # a machine reads it: keys, values and sentences in English, whatever the language
            set_language(SOURCE)
        commands = {"simulate": simulate, "check": check, "validate": validate, "levels": levels, "grade": grade, "export": export}
        commands |= {"docs": docs, "clean": clean, "show": show, "course": course, "method": method}
        commands |= {"play": play, "sandbox": sandbox}
        command = commands.get(args.command, menu)
        return command(args)
    except BadInput as exc:
        print(plain_text(str(exc)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)  # end the line the terminal's ^C is on
        return INTERRUPTED
    except BrokenPipeError:  # the reader went away (`equilibria validate | head -1`): nothing is wrong, stop quietly
        _stdout_to_nowhere()
        return BROKEN_PIPE
    except Exception as exc:  # the last line of defence: one line and a log, never a traceback
        from equilibria.words.project import ISSUES

        said = _("equilibria: an unexpected error ({error}); {log}; please report it at {issues}")
        print(said.format(error=f"{type(exc).__name__}: {exc}", log=_crash_log(exc), issues=ISSUES), file=sys.stderr)
        return CRASHED


def _stdout_to_nowhere() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of
    what is left for a reader that went away raises nothing more."""
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError):  # no file descriptor behind it (a test's captured output)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _crash_log(exc: BaseException) -> str:
    """Write the traceback to a new file in the data folder's logs/; what to tell the user."""
    return _crash_log_text("".join(traceback.format_exception(exc)))


def _crash_log_text(details: str) -> str:
    """Write `details` (a traceback) to a new file in the data folder's logs/; what to
    tell the user."""
    from equilibria.course.progress import data_folder

    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        folder = data_folder() / "logs"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"crash-{stamp}-{time.time_ns() % 1_000_000:06d}.log"
        text = f"equilibria {version()}, {' '.join(sys.argv)}\n" + details
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        return _("the details could not be written to a log ({why})").format(why=err.strerror or err)
    return _("the details are in {path}").format(path=path)


def play(args: argparse.Namespace) -> int:
    from equilibria.app import launch
    from equilibria.cli.preparing import prepare_engine
    from equilibria.course.syllabus import level_path

    path = level_path(args.level)
    prepare_engine(compile_now=args.frames is not None)  # said on the terminal; a window's loading bar shows the compile
    return launch.play(
        str(path), args.frames, args.screenshot, solution=args.solution, check=args.check, dt=args.dt, size=args.size, lang=getattr(args, "lang", None)
    )


def sandbox(args: argparse.Namespace) -> int:
    """The sandbox, empty or made of a design or a level (not of a level whose forces are
    its answer, before a pass: game/course/withheld.py)."""
    from equilibria.app import launch
    from equilibria.cli.preparing import prepare_engine
    from equilibria.course.progress import Progress
    from equilibria.course.syllabus import level_path
    from equilibria.course.withheld import withheld_file

    path = level_path(args.design) if args.design else None
    hidden = withheld_file(read_json(path), Progress.load(), path.stem) if path else None
    if hidden:
        said = _(
            '{level}: its forces are what the level asks for, so a sandbox made of it opens after a pass, or after "show the answer" '
            "(Ctrl+A in the game), which gives its marks up; play it with `equilibria play {level}`"
        )
        raise BadInput(said.format(level=hidden))
    prepare_engine(compile_now=args.frames is not None)
    return launch.sandbox(str(path) if path else None, args.frames, args.screenshot, dt=args.dt, size=args.size, lang=getattr(args, "lang", None))


def levels(args: argparse.Namespace) -> int:
    """The course in order, then the teacher's levels: id, kind, won or not, title (with
    --json, also each level's file, source and problem; never an answer). A teacher's
    level that cannot be played is listed, and its one line printed on stderr."""
    from equilibria.cli.preparing import prepare_engine
    from equilibria.course.level import load_level
    from equilibria.course.progress import Progress
    from equilibria.course.syllabus import load_course, shipped_level
    from equilibria.course.teacher import teacher_folder, teacher_levels

    prepare_engine()  # reading a level builds its model: the engine compiles on a first start
    progress = Progress.load()

    def row(level_id: str, title: str, kind: str, path, source: str, problem: str = "") -> dict:  # no answer: the student's copy holds none
        won, marks = progress.won(level_id), progress.marks(level_id)
        where = {"path": str(path) if path else None, "source": source, "problem": problem or None}
        return {"id": level_id, "title": title, "kind": kind, "won": won, "marks": marks, **where}

    rows = []
    for level_id in load_course().level_ids():
        path = shipped_level(level_id)
        level, problem = None, _("{level}: the course names it, but there is no such level file").format(level=level_id)
        try:
            level, problem = (load_level(read_json(path)), "") if path else (None, problem)
        except BadInput as exc:
            problem = str(exc)
        except ValueError as exc:
            problem = f"{path}: {str(exc).splitlines()[0]}"
        title, kind = (level.title, level.kind) if level else (_("(cannot be read)"), "?")
        rows.append(row(level_id, title, kind, path, "course", problem))
        if args.student and level is not None:
            rows[-1]["numbers"] = _numbers_for(level, args.student, progress.course_code)
    for t in teacher_levels():
        title, kind = (_("(cannot be opened)"), "?") if t.problem else (t.title, t.kind)
        rows.append(row(t.id if not t.problem else t.path.name, title, kind, t.path, "teacher", t.problem))
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    _print_levels(rows, teacher_folder())
    for r in rows:
        if r["source"] == "teacher" and r["problem"]:
            print(plain_text(r["problem"]), file=sys.stderr)
    if progress.problem:
        print(progress.problem, file=sys.stderr)
    return 0


def _print_levels(rows: list[dict], teacher_folder) -> None:
    width = max(len(r["id"]) for r in rows)
    kinds = max(len(r["kind"]) for r in rows)
    # TRANSLATORS: the headings of `equilibria levels`' columns: the level's id, its kind (truss, beam…), whether it is won, its title
    heads = (_("level"), _("kind"), _("won"), _("title"))
    width, kinds = max(width, len(heads[0])), max(kinds, len(heads[1]))
    won_width = max(6, len(heads[2]))
    print(f"{heads[0]:<{width}}  {heads[1]:<{kinds}}  {heads[2]:<{won_width}}  {heads[3]}")
    for k, r in enumerate(rows):
        if r["source"] == "teacher" and rows[k - 1]["source"] != "teacher":
            print(_("Your teacher's levels, in {folder}:").format(folder=teacher_folder))
        # TRANSLATORS: a won level's mark in `equilibria levels` where it has no marks
        won = f"{r['marks']}/100" if r["won"] and r["marks"] is not None else (_("won") if r["won"] else "")
        line = f"{r['id']:<{width}}  {r['kind']:<{kinds}}  {won:<{won_width}}  {r['title']}" + (f"  [{r['numbers']}]" if r.get("numbers") else "")
        print(plain_text(line))
    extra = sum(r["source"] == "teacher" for r in rows)
    if extra:
        said = _("{n} levels ({extra} of them your teacher’s); `equilibria play ID` opens one.")
    else:
        said = _("{n} levels; `equilibria play ID` opens one. Your teacher's levels: none yet; level files put in {folder} are listed here.")
    print(said.format(n=len(rows), extra=extra, folder=teacher_folder))


def docs(args: argparse.Namespace) -> int:
    """The manual's folder and pages, or one page (game/files/manual.py)."""
    from equilibria.files import manual

    print(manual.page_text(args.page) if args.page else manual.listing())
    return 0


def clean(args: argparse.Namespace) -> int:
    """Remove the compiled engine and, with --data, the player's things (game/course/cleanup.py)."""
    from equilibria.course.cleanup import clean as remove

    if args.levels and not args.data:
        raise BadInput(_("clean: --levels: a teacher's levels are removed only with --data (`equilibria clean --data --levels`)"))
    print("\n".join(remove(args.data, args.levels)))
    return 0


def _for_student(solution, args: argparse.Namespace):
    """check --student: an unstamped solution judged with that student's numbers, in the
    course opened (as `show` and `levels` draw them; the numbers without a course when none
    is open); a stamped one keeps its own stamp (a note on stderr when that is another
    student)."""
    if args.student and solution.student is None:
        from equilibria.course.progress import Progress

        return solution.model_copy(update={"student": args.student, "course": solution.course or Progress.load().course_code})
    if args.student and args.student.strip().casefold() != solution.student.strip().casefold():
        said = _("{file}: stamped for student {stamped}: judged with that student's numbers, not {asked}'s")
        print(said.format(file=args.solution, stamped=solution.student, asked=args.student), file=sys.stderr)
    return solution


def _numbers_for(level, student: str, course: str | None = None) -> str:
    """A level's numbers for `student` in `course` ("" when it does not vary them); BadInput for a bad id."""
    from equilibria.rules.variants import numbers_line, version

    try:
        return numbers_line(version(level, student, course))
    except ValueError as exc:
        raise BadInput(f"--student: {str(exc).splitlines()[0]}") from None


def show(args: argparse.Namespace) -> int:
    """One student's version of a level (game/rules/variants.py): numbers, brief, hints, in
    the course given or opened; its answer and explanation only with --answers and the
    course's key (game/course/homework.py)."""
    from equilibria.course.level import load_level
    from equilibria.course.syllabus import level_path
    from equilibria.rules.variants import answer_solution, show_text, version

    level_file = str(level_path(args.level))
    try:
        level = load_level(read_json(level_file))
    except ValueError as exc:
        raise BadInput(f"{level_file}: {str(exc).splitlines()[0]}") from None
    name, code = _course_and_key(args)
    try:
        versions = [version(level, student, code) for student in args.student or [None]]
    except ValueError as exc:
        raise BadInput(f"--student: {str(exc).splitlines()[0]}") from None
    if name and not args.json:
        print(_("Course {name} (code {code})").format(name=name, code=code))
    for k, drawn in enumerate(versions):
        if args.json:  # one object a line, one line a student
            out = {"level": drawn.id, "student": drawn.student, "course": code, "numbers": drawn.numbers}
            out |= {"title": drawn.title, "brief": drawn.brief, "hints": drawn.hints}
            if args.answers:  # the explanation uses the answer: the teacher's key only
                out |= {"explanation": drawn.explanation, "answer": answer_solution(drawn)}
            print(json.dumps(out, ensure_ascii=False))
        else:
            sys.stdout.write(("\n" if k or name else "") + show_text(drawn, answers=args.answers))
    return 0


def method(args: argparse.Namespace) -> int:
    """The method worked on a level (graded: only after a pass or a shown answer, which cost
    the marks) or a model file, as text (game/tutor/worked.py)."""
    from pathlib import Path

    from equilibria.course.level import load_level
    from equilibria.course.progress import Progress
    from equilibria.course.syllabus import level_path
    from equilibria.course.withheld import answer_open
    from equilibria.rules.kinds import KINDS
    from equilibria.rules.variants import version
    from equilibria.tutor.worked import as_text, work_level, work_model

    path = str(level_path(args.level))
    data = read_json(path)
    level_keys = {"kind", "goal", "title", "brief", "player", "cut", "hints", "explanation", "vary"}
    if isinstance(data, dict) and not level_keys & set(data):  # a model file (simulate's): no level, nothing graded
        worked = work_model(data)
        sys.stdout.write(as_text(worked))
        _method_page(args, Path(path).stem, worked)
        return 0
    try:
        level = load_level(data)
    except ValueError as exc:
        raise BadInput(f"{path}: {str(exc).splitlines()[0]}") from None
    progress = Progress.load()
    if KINDS[level.kind].judged and not answer_open(level.id, progress):
        said = _('{level}: its method shows after a pass, or after "show the answer" (Ctrl+A in the game), which gives its marks up')
        raise BadInput(said.format(level=level.id))
    try:
        drawn = version(level, args.student or progress.student, progress.course_code)
    except ValueError as exc:
        raise BadInput(f"--student: {str(exc).splitlines()[0]}") from None
    worked = work_level(drawn, _saved_work(drawn, progress))
    sys.stdout.write(f"{drawn.title}\n\n" + as_text(worked))
    _method_page(args, drawn.title, worked)
    return 0


def _saved_work(level, progress) -> dict | None:
    """The student's saved work on `level` as the engine's model (what they built), or None."""
    from equilibria.format.solution import load_solution
    from equilibria.work.workbench import LevelBench

    saved = progress.work(level.id)
    if not saved or level.cut:
        return None
    bench = LevelBench(level)
    try:
        bench.restore(list(load_solution(saved).moves))
    except ValueError:
        return None
    return bench.running()


def _method_page(args: argparse.Namespace, title: str, worked) -> None:
    """method --svg: the page, written atomically; where, on stderr."""
    if not args.svg:
        return
    from equilibria.files.store import write_bytes_atomic
    from equilibria.tutor.page import svg_page

    write_bytes_atomic(args.svg, svg_page(title, worked).encode("utf-8"))
    print(_("The worked method is in {path}").format(path=args.svg), file=sys.stderr)


def _course_and_key(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """show's course (its name and code): --course FILE, else the one opened (the
    progress), else with --key the key's own; (None, None) for none. BadInput when
    --answers comes without the key of that course."""
    from equilibria.course import homework
    from equilibria.course.progress import Progress
    from equilibria.course.syllabus import known_level_ids

    course = homework.read_course(args.course, known_level_ids()) if args.course else Progress.load().course
    key = homework.read_key(args.key) if args.key else None
    if args.answers and key is None:
        raise BadInput(_("--answers: the answers are printed only with the teacher's key (--key KEY_FILE, written by `equilibria course new`)"))
    if key is not None and course is not None and not homework.key_opens(key, course):
        said = _("{file}: not the key of the course {name} (code {code}); the answers of a course are printed with its own key only")
        raise BadInput(said.format(file=args.key, name=course.course, code=course.code))
    if course is not None:
        return course.course, course.code
    return (key.course, key.code) if key is not None else (None, None)


def course(args: argparse.Namespace) -> int:
    """`course new` (a teacher's two files) and `course open` (a student opens the course
    file: the progress keeps it); game/course/homework.py."""
    from pathlib import Path

    from equilibria.course import homework
    from equilibria.course.progress import Progress
    from equilibria.course.syllabus import known_level_ids

    if args.course_command == "new":
        levels = args.levels.split(",")
        course_path, key_path, made = homework.make_course(args.name, levels, Path(args.output), known_level_ids(), force=args.force)
        said = ngettext("Course {name} (code {code}): {n} level.", "Course {name} (code {code}): {n} levels.", len(made.levels))
        print(said.format(name=made.course, code=made.code, n=len(made.levels)))
        print("  " + _("For the students (they open it once): {file}").format(file=course_path))
        print("  " + _("For you alone (it prints the answers; a lost key cannot be made again): {file}").format(file=key_path))
        return 0
    opened = homework.read_course(args.file, known_level_ids())
    progress = Progress.load()
    if progress.path is None:
        raise BadInput(progress.problem)
    progress.set_course(opened)
    progress.save()
    said = ngettext(
        "Course {name} opened (code {code}): the game shows its level first, and your numbers are drawn in this course: {levels}",
        "Course {name} opened (code {code}): the game shows its {n} levels first, and your numbers are drawn in this course: {levels}",
        len(opened.levels),
    )
    print(said.format(name=opened.course, code=opened.code, n=len(opened.levels), levels=", ".join(opened.levels)))
    if progress.student is None:
        print(_("Give your student id on the menu (I), as your teacher asks: your numbers are drawn from it."))
    return 0


def menu(args: argparse.Namespace) -> int:
    from equilibria.app import launch

    return launch.menu(args.menu_frames, args.menu_screenshot, size=args.size, lang=getattr(args, "lang", None))


def validate(args: argparse.Namespace) -> int:
    """Every problem of every file in one run, one line each, `file: field: what is wrong`,
    on stderr (--json: one object on stdout, an entry per problem); exit 2 if any."""
    from equilibria.cli.preparing import prepare_engine
    from equilibria.course.level import every_version_errors, languages_note, level_problems
    from equilibria.course.syllabus import LEVELS_DIR, level_files, level_path
    from equilibria.rules.variants import versions_said, versions_warning

    prepare_engine()
    found, checked, named_paths = [], [], []  # found: (file, "field: problem", severity)

    def say(file: str, line: str, severity: str = "error", *, whole: bool = False) -> None:
        """`line` about `file` (`whole`: a line that names the file itself)."""
        found.append((file, line, severity))
        if not args.json:  # a problem on stderr, a note on stdout with the ok lines
            print(plain_text(line if whole or not file else f"{file}: {line}"), file=sys.stderr if severity == "error" else sys.stdout)

    for ref in args.paths:
        try:
            named_paths.append(level_path(ref))  # a level id too
        except BadInput as exc:
            say("", str(exc))
    for path in level_files(named_paths if args.paths else [LEVELS_DIR]):
        try:
            problems, level = level_problems(read_json(path))
        except BadInput as exc:  # a file that does not read: its line names it
            say(str(path), str(exc), whole=True)
            checked.append({"file": str(path), "ok": False})
            continue
        if level is not None:
            problems, tried = every_version_errors(level)  # a level that varies: valid for every student, or refused
        for line in problems:
            say(str(path), line)
        sizes = {"kind": level.kind, "nodes": len(level.nodes), "members": len(level.members)} if level else {}
        checked.append({"file": str(path), "ok": not problems} | sizes)
        if problems:
            continue
        nodes = ngettext("{n} node", "{n} nodes", len(level.nodes)).format(n=len(level.nodes))
        members = ngettext("{n} member", "{n} members", len(level.members)).format(n=len(level.members))
        if not args.json:
            said = _("{path}: ok ({kind}, {nodes}, {members}{versions})")
            print(plain_text(said.format(path=path, kind=level.kind, nodes=nodes, members=members, versions=versions_said(level) + tried)))
        # notes, not problems: the level plays (in English where a language is missing), but a class may share its answers
        for line in (languages_note(level), versions_warning(level)):
            if line:
                say(str(path), line, "warning")
    if args.json:
        print(json.dumps({"files": checked, "problems": [_problem_entry(*f) for f in found]}, ensure_ascii=False))
    return 2 if any(severity == "error" for _f, _l, severity in found) else 0


FIELD_FIRST = re.compile(r"([A-Za-z_$][\w$-]*(?:\[\d+\]|\.[\w$-]+)*): (.*)", re.DOTALL)  # "nodes[3].x: …", "title.de: …"


def _problem_entry(file: str, line: str, severity: str) -> dict:
    """One problem of `validate --json`: its file, the field it names ("" for the whole
    file) and what is wrong, in the reader's language."""
    match = FIELD_FIRST.fullmatch(line) if severity == "error" else None  # a note is about the whole file
    field, problem = match.groups() if match else ("", line)
    return {"file": file, "field": field, "problem": problem, "severity": severity}


def check(args: argparse.Namespace) -> int:
    """Exit 0 when the solution passes, 1 when it does not, 2 on bad input."""
    from equilibria.cli.preparing import prepare_engine
    from equilibria.course.level import load_level
    from equilibria.course.syllabus import level_path
    from equilibria.format.solution import Solution, read_solution
    from equilibria.rules.common import Verdict
    from equilibria.rules.judge import check as judge
    from equilibria.rules.kinds import KINDS
    from equilibria.rules.variants import version_for

    def first_line(path: str, exc: ValueError) -> BadInput:
        return BadInput(f"{path}: {str(exc).splitlines()[0]}")

    level_file = str(level_path(args.level))
    prepare_engine()
    try:
        level = load_level(read_json(level_file))
    except ValueError as exc:
        raise first_line(level_file, exc) from None
    # within the judge's budget, or one line and exit 2
    solution = read_solution(args.solution) if args.solution else Solution(format=1, level=level.id)
    if not KINDS[level.kind].judged:
        verdict = Verdict(True, _("A {kind} level has no goal: watch it, poke at it.").format(kind=level.kind))
    else:
        judged = _for_student(solution, args)
        try:
            verdict = judge(level, judged, args.attempt)
            drawn = version_for(level, judged)  # the hints as the student reads them: their numbers in them
        except ValueError as exc:
            raise first_line(args.solution or level_file, exc) from None
        shown = KINDS[level.kind].student_figures(verdict.figures, verdict.passed)  # what the verdict says, no residual (Kind)
        verdict = dataclasses.replace(verdict, figures=shown)
        if not verdict.passed and args.attempt is None:
            verdict.figures["hints"] = list(drawn.hints or [])  # all of the level's own, in order (docs/cli.md)
    if args.json:
        print(json.dumps(verdict.as_dict(), allow_nan=False))
    else:
        said = _("PASSED: {reason}") if verdict.passed else _("NOT PASSED: {reason}")
        print(plain_text(said.format(reason=verdict.reason)))
        if verdict.figures.get("hint"):
            print(plain_text(_("Hint: {hint}").format(hint=verdict.figures["hint"])))
    return 0 if verdict.passed else 1


def grade(args: argparse.Namespace) -> int:
    """Judge a class's solutions (game/classroom/grade.py) and write the outputs asked for
    (game/classroom/gradebook.py); 0 when written, 2 on bad input, 3 when some solution
    could not be judged (its row says so; a log holds the details). Where each output
    goes is checked before anything is graded."""
    from pathlib import Path

    from equilibria.classroom import grade as grading
    from equilibria.classroom import gradebook
    from equilibria.classroom.roster import read_roster

    outputs = {option: getattr(args, option.strip("-")) for option in ("--csv", "--wide", "--json")}
    outputs = {option: value for option, value in outputs.items() if value is not None}
    if not outputs:
        raise BadInput(_("grade: say what to write: --csv OUT.csv (a row per student and level), --wide OUT.csv (a grade book to import) or --json OUT.json"))
    if list(outputs.values()).count("-") > 1:
        raise BadInput(_("grade: only one of --csv, --wide and --json can be - (standard output)"))
    folder = Path(args.solutions)
    inputs = [Path(p) for p in (args.roster, args.course, *args.levels) if p and Path(p).is_file()]
    files = {option: Path(value) for option, value in outputs.items() if value != "-"}
    for option, out in files.items():  # at once, before anything is read (a folder of levels: again once they are known)
        gradebook.check_output(out, inputs, folder, option)
    if len({out.resolve() for out in files.values()}) < len(files):
        raise BadInput(_("grade: --csv, --wide and --json each need a file of their own"))
    course_file = _graded_course(args)
    roster = read_roster(args.roster, args.roster_column) if args.roster else None
    asked = list(args.levels) if course_file is None else list(course_file.levels)  # the course's levels in its order, by id
    levels = grading.gradable_levels(asked)
    for option, out in files.items():
        gradebook.check_output(out, [*levels.values(), *inputs], folder, option)
    plan = grading.plan(levels, folder, roster.students if roster else None, grading.known_levels(asked))
    if course_file is not None:  # every solution judged with the course's numbers
        plan.jobs[:] = [dataclasses.replace(job, course=course_file.code) for job in plan.jobs]
    workers = min(args.workers or grading.default_workers(), len(plan.jobs))
    grading.warm_engine(lambda line: print(line, file=sys.stderr), load=workers > 1)
    rows = [*plan.rows, *grading.run(plan.jobs, workers, grading.ProgressBar())]
    written = {
        "--csv": lambda bom: gradebook.encoded(gradebook.csv_text(rows), bom=bom),
        "--wide": lambda bom: gradebook.encoded(gradebook.wide_text(rows, list(levels), plan.students, roster), bom=bom),
        "--json": lambda bom: gradebook.json_text(rows, list(levels)).encode("utf-8"),
    }
    for option, value in outputs.items():
        _write_output(value, written[option](args.bom and value != "-"))
    _grade_summary(plan, rows, [v for v in outputs.values() if v != "-"], to_stdout="-" not in outputs.values())
    return CRASHED if any(r.crash for r in rows) else 0


def _write_output(value: str, data: bytes) -> None:
    """An output of `grade`: to standard output for -, else atomically to the file."""
    from pathlib import Path

    from equilibria.files.store import write_bytes_atomic

    if value == "-":
        _write_out(data)
    else:
        write_bytes_atomic(Path(value), data)


def _grade_summary(plan, rows: list, written: list[str], *, to_stdout: bool) -> None:
    """What could not be judged (a log each), what answered no level, and the summary
    line: on standard output, or standard error when an output went there."""
    from equilibria.classroom import grade as grading

    for r in rows:
        if r.crash:
            said = _("equilibria: {file} could not be judged (an unexpected error); {log}")
            print(said.format(file=grading.printable(r.file), log=_crash_log_text(r.crash)), file=sys.stderr)
    _print_notes(plan.notes)
    passed = sum(r.passed for r in rows)
    n_students, n_levels = len(plan.students), len(plan.levels)
    students = ngettext("{n} student", "{n} students", n_students).format(n=n_students)
    levels_graded = ngettext("{n} level", "{n} levels", n_levels).format(n=n_levels)
    summary = ngettext("{rows} row ({students} × {levels}): {passed} passed", "{rows} rows ({students} × {levels}): {passed} passed", len(rows))
    summary = summary.format(rows=len(rows), students=students, levels=levels_graded, passed=passed)
    flagged = sum(bool(r.marked.flags) for r in rows)
    if flagged:
        summary = f"{summary}; " + ngettext("{n} row flagged", "{n} rows flagged", flagged).format(n=flagged)
    if plan.other_levels:
        others = ngettext("{n} solution file for other levels left out", "{n} solution files for other levels left out", plan.other_levels)
        summary = f"{summary}; {others.format(n=plan.other_levels)}"
    if written:
        summary = _("{summary}; written to {file}").format(summary=summary, file=", ".join(written))
    print(summary, file=sys.stdout if to_stdout else sys.stderr)


def _graded_course(args: argparse.Namespace):
    """grade --course FILE: the course file (None without it); BadInput when both the
    levels and --course are given (neither: grade says there is no level to grade)."""
    from equilibria.course import homework
    from equilibria.course.syllabus import known_level_ids

    if args.course and args.levels:
        raise BadInput(_("--course: the course file names the levels graded; leave the levels out"))
    return homework.read_course(args.course, known_level_ids()) if args.course else None


def _write_out(data: bytes) -> None:
    """Bytes to standard output as they are (a text stream on Windows would turn the
    CSV's CR LF into CR CR LF)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(data.decode("utf-8"))
    else:
        buffer.write(data)
        buffer.flush()


NOTES_SHOWN = 40  # lines about files that answer no level, before "and N more"


def _print_notes(notes: list[str]) -> None:
    """What answered no level graded, one line each (the first NOTES_SHOWN), on stderr."""
    for line in notes[:NOTES_SHOWN]:
        print(line, file=sys.stderr)
    if len(notes) > NOTES_SHOWN:
        more = len(notes) - NOTES_SHOWN
        print(ngettext("… and {n} more such line", "… and {n} more such lines", more).format(n=more), file=sys.stderr)


def export(args: argparse.Namespace) -> int:
    """Write the saved work on a level and its attempt record as a solution file
    (game/classroom/handin.py; a level given up: its record alone); 0 when written, 1
    when there is no work on it (or it was done with other numbers), 2 on bad input."""
    from pathlib import Path

    from equilibria.classroom import handin
    from equilibria.course.progress import Progress
    from equilibria.course.syllabus import level_path

    level = handin.level_of(level_path(args.level))
    progress = Progress.load()
    if progress.problem:
        print(progress.problem, file=sys.stderr)
    work = progress.work(level.id)
    if work is None and handin.given_up(progress, level.id):
        work = {"format": 1, "level": level.id, "moves": []}  # given up: the record alone goes (handin.hand_in)
    if work is None:
        said = _("{level}: no saved work on this level in {where}; play it first (`equilibria play {level}`)")
        print(said.format(level=level.id, where=progress.path or _("the progress")), file=sys.stderr)
        return 1
    other = handin.other_numbers(level, work, handin.student_of(progress))
    if other and not handin.given_up(progress, level.id):
        print(other, file=sys.stderr)
        return 1
    target = Path(args.output) if args.output else Path(f"{level.id}.json")
    print(handin.hand_in(work, handin.student_of(progress), target, handin.record_of(progress, level.id)))
    return 0


def simulate(args: argparse.Namespace) -> int:
    from equilibria.cli import runlimits
    from equilibria.engine.simulation import Simulation, Unstable

    model = _read_model(args)
    if not -1.0 / 3.0 <= args.hht_alpha <= 0.0:
        raise BadInput(_("--hht-alpha must be in [-1/3, 0], got {value}").format(value=args.hht_alpha))
    if args.hht_alpha and args.integrator != "newmark":  # said, not silently dropped
        print(
            _("{model}: --hht-alpha damps Newmark's steps only; under {integrator} it is left out").format(model=args.model, integrator=args.integrator),
            file=sys.stderr,
        )
    if args.load_factors is not None:
        return _simulate_load_factors(args, model)
    sim = Simulation(model, args.integrator, dt=args.dt, hht_alpha=args.hht_alpha)
    said = runlimits.before_run(args, sim)  # within the budgets, or one line and exit 2
    probes = _probes(args, sim)
    records: dict[str, list[list[float]]] = {spec: [] for spec in args.record}

    def sample(t: float, values: list[float]) -> None:
        for spec, value in zip(probes, values, strict=True):
            records[spec].append([t, value])

    steps, at_rest, unstable = 0, False, None
    try:
        if args.integrator in ("linear", "relax"):
            outcome = sim.solve_linear() if args.integrator == "linear" else sim.relax()
            steps, at_rest = outcome.steps, outcome.at_rest
            sample(sim.time, _read_probes(probes))
        else:
            steps, at_rest = _run_in_time(sim, args, probes, sample)
    except Unstable as exc:
        unstable = str(exc)
    out = {"time": sim.time, "steps": steps, "at_rest": at_rest, "integrator": args.integrator, "dt": sim.dt}
    out.update(sim.results())
    out["records"] = records
    out["warnings"] = list(model.warnings) + said
    if unstable:
        out["unstable"] = unstable
    failure = _failure(out)
    if failure and "no_equilibrium" in out:
        failure = runlimits.no_equilibrium(args, failure, model)
    return _report(args, out, failure or runlimits.after_run(args, out, model))


def _read_model(args: argparse.Namespace):
    """The model file as a Model; BadInput (one line, exit 2) naming the file and field."""
    from pathlib import Path

    from equilibria.course.progress import Progress
    from equilibria.course.syllabus import level_path
    from equilibria.course.withheld import withheld_file
    from equilibria.engine.model import ModelError, build_model

    args.model = str(level_path(args.model))  # a level's id names its file
    data = read_json(args.model)
    hidden = withheld_file(data, Progress.load(), Path(args.model).stem)
    if hidden:
        said = _(
            '{level}: its forces are what the level asks for, so simulate runs it after a pass, or after "show the answer" (Ctrl+A in the game), '
            "which gives its marks up; play it with `equilibria play {level}`"
        )
        raise BadInput(said.format(level=hidden))
    problem = format_problem(data, required=False) if isinstance(data, dict) else None
    if problem:
        raise BadInput(f"{args.model}: format: {problem}")  # the problem in the language: equilibria.files.store
    if isinstance(data, dict):
        from equilibria.cli.runlimits import model_bounds

        model_bounds(args.model, data)
    try:
        model = build_model(data, statics_only=args.integrator in ("linear", "relax"))
    except ModelError as exc:
        raise BadInput(f"{args.model}: {exc}") from None
    if args.integrator == "linear" and model.contacts:
        where = model.node_ids[model.contacts[0][0]]
        said = _("{file}: supports: node {node} rests on a contact, which the linear solve does not model: use rk4, symplectic or newmark")
        raise BadInput(said.format(file=args.model, node=where))
    return model


def _probes(args: argparse.Namespace, sim) -> dict:
    from equilibria.engine.simulation import make_probe

    try:
        return {spec: make_probe(sim, spec) for spec in args.record}
    except ValueError as exc:
        raise BadInput(f"{args.model}: --record: {exc}") from None


def _read_probes(probes: dict) -> list[float]:
    return [probe() for probe in probes.values()]


def _failure(out: dict) -> str | None:
    """Why a run ends in exit 1 (it became unstable, the linear solve found a mechanism,
    or a static solve found no equilibrium), or None."""
    if "unstable" in out:
        return out["unstable"]  # "unstable near t = …", "relaxation diverged …": it says what happened
    if "no_equilibrium" in out:
        return out["no_equilibrium"]
    if "mechanism" in out:
        return out["mechanism"]["message"]
    return None


def _report(args: argparse.Namespace, out: dict, failure: str | None) -> int:
    """Print the results (one JSON object with --json, else a summary); a failure is
    also said in one line on standard error, and the exit code is 1."""
    if args.json:
        print(json.dumps(out))
    elif "runs" in out:
        for run in out["runs"]:
            print(_("load factor {factor}:").format(factor=_g(run["load_factor"])))
            _print_summary({**run, "integrator": out["integrator"], "dt": out["dt"], "warnings": []})
        for w in out["warnings"]:
            print("  " + _("warning: {warning}").format(warning=w))
    else:
        _print_summary(out)
    if failure:
        print(f"{args.model}: {failure}", file=sys.stderr)
    return 1 if failure else 0


NUMBER_LISTS = ("--load-factors",)  # options whose value may start with a minus (-1,1): argparse would take it for an option


def glued(argv: list[str]) -> list[str]:
    """`--load-factors -1,1` as `--load-factors=-1,1`: argparse reads a value that starts
    with a minus and holds a comma as an option of its own ("expected one argument")."""
    out: list[str] = []
    for word in argv:
        if out and out[-1] in NUMBER_LISTS and word.startswith("-") and "," in word:
            out[-1] = f"{out[-1]}={word}"
        else:
            out.append(word)
    return out


def _load_factors(text: str) -> list[float]:
    """--load-factors: finite numbers, comma-separated (0.25,0.5,1)."""
    factors = []
    for part in text.split(","):
        try:
            x = float(part)
        except ValueError:
            raise argparse.ArgumentTypeError(_("expected numbers separated by commas, got {text}").format(text=named(part.strip()))) from None
        if not math.isfinite(x):
            raise argparse.ArgumentTypeError(_("a load factor must be a finite number, got {text}").format(text=named(part.strip())))
        factors.append(x)
    return factors


def _simulate_load_factors(args: argparse.Namespace, model) -> int:
    """One static answer per load factor (the loads of `loads[]` and `member_loads[]` scaled; gravity and
    support motions as they are): `linear` solves each on its own; `relax` starts each
    from the equilibrium of the factor before, following the load path. The records
    become load–deflection curves, [[factor, value], ...]."""
    from equilibria.cli import runlimits
    from equilibria.engine.simulation import Simulation, Unstable

    if args.integrator not in ("linear", "relax"):
        raise BadInput(
            _("--load-factors: needs --integrator linear or relax (a static answer per factor), not {integrator}").format(integrator=args.integrator)
        )
    runlimits.check_factors(args)
    runs: list[dict] = []
    records: dict[str, list[list[float]]] = {spec: [] for spec in args.record}
    out: dict = {"integrator": args.integrator, "load_factors": args.load_factors, "runs": runs, "records": records, "warnings": list(model.warnings)}
    previous, dt, failure = None, args.dt, None
    for factor in args.load_factors:
        scaled = model.with_arrays(load_f=model.arrays.load_f * factor)
        sim = Simulation(scaled, args.integrator, dt=dt)
        dt = sim.dt  # estimated once (the loads do not change it)
        probes = _probes(args, sim)
        if previous is not None and args.integrator == "relax":
            sim.state.restore(previous.state)
        run: dict = {"load_factor": factor}
        try:
            outcome = sim.solve_linear() if args.integrator == "linear" else sim.relax()
            run.update(steps=outcome.steps, at_rest=outcome.at_rest)
        except Unstable as exc:
            run.update(steps=0, at_rest=False, unstable=str(exc))
        run.update(sim.results())
        runs.append(run)
        for spec, value in zip(probes, _read_probes(probes), strict=True):
            records[spec].append([factor, value])
        failure = _failure(run)
        if failure:
            failure = _("load factor {factor}: {failure}").format(factor=_g(factor), failure=failure)
            break
        previous = sim
    out["dt"] = dt
    return _report(args, out, failure or runlimits.after_run(args, out, model))


def _run_in_time(sim, args: argparse.Namespace, probes: dict, sample) -> tuple[int, bool]:
    """rk4 / symplectic / newmark, sampling the records at t = 0, --every, 2 --every, ...
    exactly, each from the state rebuilt between the two steps around its time
    (engine/records.py)."""
    from equilibria.engine.records import record_run

    until_rest = args.seconds is None
    span = args.max_seconds if until_rest else args.seconds
    return record_run(sim, list(probes.values()), args.every or 0.01, span, until_rest, sample)


def _print_summary(out: dict) -> None:
    steps = ngettext(
        "t = {time} s after {steps} step ({integrator}, dt = {dt} s); {at_rest}",
        "t = {time} s after {steps} steps ({integrator}, dt = {dt} s); {at_rest}",
        out["steps"],
    )
    at_rest = _("at rest") if out["at_rest"] else _("not at rest")
    print(steps.format(time=_g(out["time"], 4), steps=out["steps"], integrator=out["integrator"], dt=_g(out["dt"], 3), at_rest=at_rest))
    for mid, f in out["members"].items():
        said = _("member {member}: N = {force} kN (broken)") if f["broken"] else _("member {member}: N = {force} kN")
        print("  " + said.format(member=mid, force=decimal(f["axial"] / 1e3, 3, grouping=False, plus=True)))
    for nid, r in out["reactions"].items():
        fx, fy, m = (decimal(r[key] / 1e3, 3, grouping=False, plus=True) for key in ("fx", "fy", "m"))
        print("  " + _("reaction {node}: fx = {fx} kN, fy = {fy} kN, m = {m} kN m").format(node=nid, fx=fx, fy=fy, m=m))
    for key in ("mechanism", "unstable"):
        if key in out:
            print(f"  {out[key]['message'] if key == 'mechanism' else out[key]}")
    for w in out["warnings"]:
        print("  " + _("warning: {warning}").format(warning=w))


def _g(x: float, digits: int = 6) -> str:
    """`x` in `digits` significant figures (:g) with the language's decimal mark."""
    return f"{x:.{digits}g}".replace(".", decimal_mark())
