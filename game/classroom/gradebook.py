"""What `equilibria grade` writes (game/classroom/grade.py makes the rows): the long CSV
(`--csv`: a row per student and level), the wide CSV a learning platform imports
(`--wide`: a row per student, a column per level holding its marks, and the total), and
the JSON (`--json`: every row with the verdict's figures). No pygame.

The wide CSV is made for the grade imports of Moodle (Grades → Import → CSV file: a
column that identifies the user is mapped to its ID number, username or email, each
other column to a grade item or a new one) and Canvas (Grades → Import: the columns
Student, ID, SIS User ID, SIS Login ID and Section identify the student, each other
column is an assignment, created when new). With a CSV roster (game/classroom/roster.py)
its first columns are the roster's own, as the platform exported them, so each student's
row comes back with the columns that platform matches students by; without one, one
column, `student`, the name of the student's file or folder, to map by hand.

Both CSVs are made to be opened in a spreadsheet: every cell a spreadsheet would take for
a formula (one that starts with `=`, `+`, `-`, `@`, a tab, a carriage return or a line
feed, and is not a plain number) is prefixed with `'` as OWASP advises against CSV
injection; names with commas, quotes or line breaks are quoted (the csv module), so each
row stays one row (rows end in CR LF, so a lone CR is quoted too); bytes that are not
UTF-8 in a file name become U+FFFD. Each is written as UTF-8 with a byte-order mark, for
Excel; never over an input (check_output, before anything is graded).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from equilibria.classroom.grade import Row, _is_json, printable, valid_text
from equilibria.classroom.roster import Roster
from equilibria.files.store import BadInput, read_json
from equilibria.words.i18n import _

COLUMNS = (
    "student",
    "level",
    "passed",
    "marks",
    "tries",
    "hints",
    "answer shown",
    "flags",
    "reason",
    "file",
    "student id",
    "numbers",
    "first check",
    "last check",
)
TOTAL = "total"  # the wide CSV's last column: the sum of the student's marks
GRADE_BOOK = "equilibria grade book"  # the JSON's `format`: an earlier one may be written over
FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n")  # what a spreadsheet may start a formula with (OWASP, and a line feed)
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def cells(r: Row) -> list[str]:
    """A row of the long CSV (COLUMNS): a count the record does not give is empty."""
    m = r.marked
    count = "" if m.tries is None else str(m.tries)
    hints = "" if m.hints is None else str(m.hints)
    shown = "" if m.shown is None else ("yes" if m.shown else "no")
    # The reason and the flags echo what a file held (a tag, a name): a control character in
    # them is shown as its escape, never sent to the terminal or the spreadsheet as itself.
    said = [r.student, r.level, "true" if r.passed else "false", str(m.marks), count, hints, shown, printable("; ".join(m.flags)), printable(r.reason), r.file]
    return [*said, r.student_id, r.numbers, m.first_check, m.last_check]


def csv_text(rows: Iterable[Row]) -> str:
    """The long CSV: a header, then the rows sorted by student, level and file, every
    cell safe_cell. Rows end in CR LF (RFC 4180, as Excel writes), so that a cell holding
    a lone carriage return is quoted too (the csv module quotes what its line ending
    holds) and a name with one stays in its row."""
    return _table([list(COLUMNS), *(cells(r) for r in sorted(rows, key=Row.key))])


def wide_text(rows: Iterable[Row], levels: list[str], students: list[str], roster: Roster | None = None) -> str:
    """The wide CSV: a row per student (in the roster's order, then the rest by name), the
    roster's columns first (or `student`), a column per level (in `levels`' order) with
    the marks, and TOTAL."""
    marks: dict[tuple[str, str], int] = {}
    for r in rows:
        marks[(r.student, r.level)] = max(marks.get((r.student, r.level), 0), r.marked.marks)
    header = roster.header if roster is not None and roster.header else ["student"]
    first = roster.students if roster is not None else []
    order = [*(s for s in first if s in students), *sorted(s for s in students if s not in first)]
    table = [[*header, *levels, TOTAL]]
    for student in order:
        own = [marks.get((student, level), 0) for level in levels]
        table.append([*_who(student, header, roster), *map(str, own), str(sum(own))])
    return _table(table)


def _who(student: str, header: list[str], roster: Roster | None) -> list[str]:
    """A student's identifying cells: the roster's row as given (a student not on it: the
    name in the roster's student column, the rest empty)."""
    if roster is None or not roster.header:
        return [student]
    row = roster.rows.get(student)
    if row is None:
        row = [""] * len(header)
        row[roster.column] = student
    return [*row, *[""] * (len(header) - len(row))][: len(header)]


def json_text(rows: Iterable[Row], levels: list[str]) -> str:
    """The JSON: `format`, the levels in order, and every row (sorted as the long CSV)
    with its marks, record, flags and the verdict's `figures` (what `check --json` prints
    without `passed` and `reason`; {} when not judged)."""
    out = []
    for r in sorted(rows, key=Row.key):
        m = r.marked
        said = {"student": r.student, "level": r.level, "passed": r.passed, "marks": m.marks, "tries": m.tries, "hints": m.hints}
        said |= {"answer_shown": m.shown, "flags": list(m.flags), "reason": r.reason, "file": valid_text(r.file)}
        said |= {"student_id": r.student_id, "numbers": r.numbers, "first_check": m.first_check or None, "last_check": m.last_check or None}
        out.append({**said, "figures": json.loads(r.figures)})
    text = json.dumps({"format": GRADE_BOOK, "levels": levels, "rows": out}, ensure_ascii=False, indent=1, allow_nan=False)
    return valid_text(text) + "\n"


def _table(table: list[list[str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([safe_cell(c) for c in row] for row in table)
    return out.getvalue()


def encoded(text: str, *, bom: bool = True) -> bytes:
    """A CSV as UTF-8, with a byte-order mark by default: without one, Excel reads the
    file in the computer's old code page and shows Σ or é as mojibake."""
    return text.encode("utf-8-sig" if bom else "utf-8")


def csv_bytes(rows: Iterable[Row], *, bom: bool = True) -> bytes:
    """The long CSV as bytes (encoded)."""
    return encoded(csv_text(rows), bom=bom)


def safe_cell(text: str) -> str:
    """A cell a spreadsheet shows as the text it is: one that starts as a formula may
    (FORMULA) gets a leading `'` (OWASP's advice against CSV injection), unless it is a
    plain number, which stays a number; bytes of a file name that are not UTF-8 become
    U+FFFD."""
    text = valid_text(text)
    if text.startswith(FORMULA) and not NUMBER.fullmatch(text):
        return "'" + text
    return text


def check_output(out: Path, inputs: Iterable[Path], folder: Path, option: str = "--csv") -> None:
    """Refuse, before any grading, an output (`option`: --csv, --wide or --json) that
    could not be written or would overwrite an input: a folder, a missing folder, one of
    `inputs` (the levels, the roster); a CSV named `.json` (a level or a solution) in the
    class folder, even a new one, which the next grading would read as a solution, or
    over one; the JSON in the class folder, or over a JSON file that is not an earlier
    grade book."""
    if out.is_dir():
        raise BadInput(_("{file}: {option}: is a folder; give the name of the file to write").format(file=out, option=option))
    if not out.parent.is_dir():
        raise BadInput(_("{file}: {option}: no folder {folder} to write it in").format(file=out, option=option, folder=out.parent))
    if not os.access(out.parent, os.W_OK):
        raise BadInput(_("{file}: {option}: the folder {folder} cannot be written in").format(file=out, option=option, folder=out.parent))
    target = out.resolve()
    for given in inputs:
        same = target == given.resolve()
        with contextlib.suppress(OSError):
            same = same or (out.exists() and out.samefile(given))
        if same:
            said = _("{file}: {option}: is {input}, an input of this grading; write it elsewhere")
            raise BadInput(said.format(file=out, option=option, input=given))
    inside = target.is_relative_to(folder.resolve())
    if option == "--json" and (inside or (out.exists() and not _earlier_grade_book(out))):
        said = _("{file}: --json: is in the class folder or is a level or a solution; write the grade book's JSON elsewhere")
        raise BadInput(said.format(file=out))
    if option != "--json" and _is_json(out.name) and (out.exists() or inside):
        said = _("{file}: {option}: a .json file is a level or a solution; write the CSV to a .csv file")
        raise BadInput(said.format(file=out, option=option))


def _earlier_grade_book(path: Path) -> bool:
    try:
        data = read_json(path)
    except BadInput:
        return False
    return isinstance(data, dict) and data.get("format") == GRADE_BOOK
