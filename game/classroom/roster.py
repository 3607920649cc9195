"""A class's roster for `equilibria grade --roster FILE`: who the students are, by the id
their folders and hand-ins are named after, and, for a CSV roster, the row of each as
the learning platform exported it (the wide grade book gives those columns back:
game/classroom/gradebook.py). No pygame.

A roster is a text file with one student a line (blank lines and lines starting with #
passed over), or a `.csv` file (as Excel or a platform saves it: UTF-8 with or without a
byte-order mark, UTF-16, Windows-1252; its cells apart by commas, semicolons or tabs) whose
students are one column: `--roster-column NAME`, else the first of ID_HEADINGS found in
its header (any case). An id column comes before a name column: a platform's export
("Student ID,Name", Canvas's "Student,ID,SIS User ID,…", Moodle's "First name,…,ID
number,…,Email address") has both, and the students name their folders (and give the
game) their id. Canvas's own `ID` (its internal number, which no student knows) comes
after `SIS User ID`. A CSV with none of those headings has no header: its first column
is the students, every row.
"""

from __future__ import annotations

import codecs
import csv
import io
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from equilibria.files.store import MAX_FILE_BYTES, BadInput
from equilibria.words.i18n import _, decimal
from equilibria.words.text import named

ID_HEADINGS = (
    "student id",
    "sis user id",
    "id number",
    "idnumber",
    "student number",
    "matriculation number",
    "matriculation",
    "matriculation no",
    "username",
    "user name",
    "login",
    "sis login id",
    "login id",
    "id",
    "email",
    "email address",
    "e-mail",
    "student",
    "name",
)  # a CSV roster's student column: the first of these its header has, ids before names


@dataclass(frozen=True)
class Roster:
    """The students in the roster's order, each once; for a CSV roster with a header,
    the header and each student's row as given (the first row of a student named twice),
    `column` the index of the students' column."""

    students: list[str]
    header: list[str] = field(default_factory=list)
    rows: dict[str, list[str]] = field(default_factory=dict)
    column: int = 0


def read_roster(path: str | Path, column: str | None = None) -> Roster:
    """The roster in `path` (see the module's docstring). BadInput naming the file when it
    cannot be read, has no column `column`, or names no one."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_FILE_BYTES:
            raise BadInput(_("{file}: --roster: over {most} MB; a roster is a list of names").format(file=path, most=f"{MAX_FILE_BYTES / 1e6:.0f}"))
        data = p.read_bytes()
    except OSError as exc:
        raise BadInput(_("{file}: --roster: cannot read the file ({why})").format(file=path, why=exc.strerror or exc)) from None
    try:
        text = roster_text(data)
    except UnicodeDecodeError as exc:
        raise BadInput(_("{file}: --roster: cannot read the file as UTF-8 text ({why})").format(file=path, why=exc)) from None
    if p.suffix.casefold() == ".csv":
        try:
            table = list(csv.reader(io.StringIO(text), delimiter=delimiter_of(text)))
        except csv.Error:  # the one csv raises here: a cell past its field size limit
            said = _("{file}: --roster: a cell longer than {most} characters; a roster is a list of names")
            raise BadInput(said.format(file=path, most=decimal(csv.field_size_limit(), 0))) from None
        roster = _csv_roster(path, table, column)
    elif column:
        raise BadInput(_("{file}: --roster-column: only a .csv roster has columns").format(file=path))
    else:
        names = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        roster = Roster(list(dict.fromkeys(names)))
    if not roster.students:
        raise BadInput(_("{file}: --roster: no student named in it").format(file=path))
    return roster


def roster_text(data: bytes) -> str:
    """The text of a roster file as the programs that write them encode it: UTF-16 with its
    byte-order mark (Excel's "Unicode text", a learning platform's export opened and saved
    on Windows), UTF-8 with or without one (a BOM is not a name), else Windows-1252 (Excel's
    plain "CSV" in Western Europe: "Müller" as one byte for ü); UnicodeDecodeError when it
    is none of these."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def delimiter_of(text: str) -> str:
    """The cells' separator of a CSV roster: the one of comma, semicolon (Excel where the
    decimal mark is a comma: German, French, Spanish) and tab ("Unicode text") its first
    line holds most of; a comma when it holds none."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return max(",;\t", key=first.count) if any(c in first for c in ",;\t") else ","


def _csv_roster(path: str | Path, table: list[list[str]], column: str | None) -> Roster:
    """The students in a CSV roster: the column headed `column`, else the first of
    ID_HEADINGS, below the header; with no such heading, the first column of every row,
    the first included (a list without a header loses no one)."""
    if not table:
        return Roster([])
    header = [h.strip().casefold() for h in table[0]]
    wanted = [column.strip().casefold()] if column else list(ID_HEADINGS)
    k = next((header.index(w) for w in wanted if w in header), None)
    if k is None and column:
        said = _("{file}: --roster-column: no column headed {column} (the columns: {columns})")
        raise BadInput(said.format(file=path, column=named(column), columns=", ".join(named(h.strip()) for h in table[0])))
    if k is None:
        return Roster(list(dict.fromkeys(row[0].strip() for row in table if row and row[0].strip())))
    rows: dict[str, list[str]] = {}
    for row in table[1:]:
        if len(row) > k and row[k].strip():
            rows.setdefault(row[k].strip(), row)
    return Roster(list(rows), [h.strip() for h in table[0]], rows, k)


def on_roster(found: dict[str, list], roster: list[str]) -> tuple[dict[str, list], list[str]]:
    """The students by roster name (a folder or file whose name differs only in case,
    or in how its accents are encoded, is theirs), everyone on the roster included; and
    the names found that are on no roster (kept, and graded, under their own names)."""
    by_case: dict[str, list[str]] = {}
    for name in roster:
        by_case.setdefault(_loose(name), []).append(name)
    students: dict[str, list] = {name: [] for name in roster}
    strangers: list[str] = []
    for name, entries in found.items():
        same = by_case.get(_loose(name), [])
        whose = name if name in students else (same[0] if len(same) == 1 else None)
        if whose is None:
            strangers.append(name)
            whose = name
        students.setdefault(whose, []).extend(entries)
    return students, sorted(strangers)


def _loose(name: str) -> str:
    """A name as compared with the roster: any case, and é one character or two (macOS
    writes file names decomposed, a class list has them composed)."""
    return unicodedata.normalize("NFC", name).casefold()
