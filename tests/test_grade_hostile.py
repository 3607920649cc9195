"""The hostile class folder kept as tests (issue 26, points 1 and 7; issue 22, point 7):
formula names, line breaks and commas in names, an unreadable folder, links to / and to
a file outside, *.JSON, an empty folder, a huge solution, a broken file named for
another level, a wrong level id, a solution for a level not graded. Each gets a sensible
row and exit 0, never a traceback, a hang or a lost file; `--csv` never overwrites an
input; a roster gives its students rows."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from hostile import EXPECTED, FORMULA, GRADED, HUGE_NODES, LEVELS, ONLY_NO_ANSWER, REFERENCE, build, snapshot, write

from equilibria.classroom import grade as grading
from equilibria.classroom import gradebook
from equilibria.classroom.roster import read_roster
from equilibria.cli.main import main
from equilibria.format.solution import BUDGET


@pytest.fixture
def hostile(tmp_path, monkeypatch) -> tuple[Path, Path, Path]:
    """The hostile class, its `locked` folder unreadable. The tests run as root here,
    which reads any folder, so the refusal is what the system would say, made by a
    stand-in for the folder listing (test_an_unreadable_folder_for_real does it with
    permissions, where the tests do not run as root)."""
    levels, cls, secret = build(tmp_path)
    real = grading._scan

    def scan(folder: Path):
        if Path(folder).name == "locked":
            raise PermissionError(13, "Permission denied")
        return real(folder)

    monkeypatch.setattr(grading, "_scan", scan)
    return levels, cls, secret


def read_back(path: Path) -> list[list[str]]:
    """The CSV as a spreadsheet would read it: with csv.reader, the BOM taken off."""
    with open(path, encoding="utf-8-sig", newline="") as file:  # newline="": as the csv module asks
        return list(csv.reader(file))


def test_every_hostile_student_gets_one_sensible_row_per_level(hostile, tmp_path, capsys):
    levels, cls, _ = hostile
    before = snapshot(cls)
    out = tmp_path / "grades.csv"
    assert main(["grade", str(levels), str(cls), "--csv", str(out), "--workers", "1"]) == 0
    stdout, stderr = capsys.readouterr()
    assert "Traceback" not in stderr + stdout
    table = read_back(out)
    assert table[0] == list(gradebook.COLUMNS)
    assert len(table) == 1 + len(EXPECTED) * len(GRADED)  # one row per student and level: no split row, no row without a level
    rows = {(r[0], r[1]): dict(zip(gradebook.COLUMNS, r, strict=True)) for r in table[1:]}
    for student, want in EXPECTED.items():
        shown = gradebook.safe_cell(student)
        for level in GRADED:
            row = rows[(shown, level)]
            words = want.get(level)
            if words == "":
                assert row["passed"] == "true", (student, level, row["reason"])
            else:
                assert row["passed"] == "false", (student, level)
                assert row["reason"].startswith(grading.NOT_HANDED_IN) if words is None else words in row["reason"], (student, level, row["reason"])
            if student in ONLY_NO_ANSWER:
                assert row["reason"] == grading.NOT_HANDED_IN
    assert snapshot(cls) == before  # nothing lost, nothing changed
    assert f"{len(EXPECTED) * 2} rows ({len(EXPECTED)} students × 2 levels)" in stdout
    assert "2 solution files for other levels left out" in stdout  # other-level's and broken-other's bridge-01
    assert "wrong-id/tutorial-01.json: level: 'tutorial-1' is no level" in stderr  # every unknown level id named
    assert "formula-id/answer.json: level: '=1+2' is no level" in stderr


def test_no_cell_can_be_read_as_a_formula(hostile, tmp_path):
    levels, cls, _ = hostile
    out = tmp_path / "grades.csv"
    assert main(["grade", str(levels), str(cls), "--csv", str(out), "--workers", "1"]) == 0
    cells = [cell for row in read_back(out) for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r", "\n")]
    students = {row[0] for row in read_back(out)[1:]}
    assert "'" + FORMULA in students and "'-2+3" in students and "'\ttab" in students and "'@SUM(1+1)" in students
    assert "cr\rname" in students and "lf\nname" in students and 'comma, "quoted" name' in students  # quoted, one cell
    assert "caf\ufffd" in students  # a name that is not UTF-8


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ("=1+1", "'=1+1"),
        ("+1+cmd", "'+1+cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("-12.5", "-12.5"),  # a genuine negative number stays a number
        ("+3", "+3"),
        ("-1e-3", "-1e-3"),
        ("-", "'-"),
        ("alice", "alice"),
        ('{"a": -1}', '{"a": -1}'),
    ],
)
def test_a_cell_is_neutralised_as_owasp_advises(cell, safe):
    assert gradebook.safe_cell(cell) == safe


def test_a_one_level_grade_never_takes_another_levels_broken_file(hostile, tmp_path, capsys):
    """Grading tutorial-01 alone: a broken file named for bridge-01 is not its answer,
    and a broken file for tutorial-04 (not graded) becomes no row without a level."""
    _, cls, _ = hostile
    assert main(["grade", "tutorial-01", str(cls), "--csv", "-", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    table = list(csv.reader(io.StringIO(out, newline="")))
    assert len(table) == 1 + len(EXPECTED)
    rows = {r[0]: dict(zip(gradebook.COLUMNS, r, strict=True)) for r in table[1:]}
    assert all(r["level"] == "tutorial-01" for r in rows.values())
    assert rows["broken-other"]["reason"] == grading.NOT_HANDED_IN and rows["broken-other"]["file"] == ""
    assert rows["broken-own"]["passed"] == "true"
    assert rows["huge"]["reason"] == grading.NOT_HANDED_IN  # its file is for tutorial-04, not graded here


def test_a_huge_solution_is_refused_before_any_solve(hostile, tmp_path, monkeypatch, capsys):
    """The budget is checked before the judge runs: the judge is never called for it,
    in `grade` nor in `check`, which says so in one line and exits 2."""
    import equilibria.rules.judge

    _, cls, _ = hostile
    judged: list[str] = []
    real = equilibria.rules.judge.check
    monkeypatch.setattr(equilibria.rules.judge, "check", lambda level, solution: judged.append(solution.level) or real(level, solution))
    huge = cls / "huge"
    assert main(["grade", "tutorial-04", str(huge.parent / "huge"), "--csv", "-", "--workers", "1"]) == 0
    assert judged == []
    assert f"tutorial-04.json: moves: {HUGE_NODES:,} new nodes" in capsys.readouterr().out  # its row says why
    huge_file = str(huge / "tutorial-04.json")
    assert main(["check", "tutorial-04", "--solution", huge_file]) == 2
    err = capsys.readouterr().err
    why = f"moves: {HUGE_NODES:,} new nodes; a solution may add at most {BUDGET.nodes} (twenty times what any level of the course needs)"
    assert err == f"{huge_file}: {why}, so it is not judged\n"
    assert judged == []


def test_the_budget_holds_every_reference_solution_twenty_times_over():
    """The budget is generous: every shipped reference solution, even repeated twenty
    times over in size, is within it."""
    from collections import Counter

    from equilibria.format.solution import load_solution

    for path in sorted(REFERENCE.glob("*.json")):
        solution = load_solution(json.loads(path.read_text()))
        count = Counter(m.type for m in solution.moves)
        assert 20 * len(solution.moves) <= BUDGET.moves and 20 * count["add_node"] <= BUDGET.nodes, path.name
        assert 20 * count["add_member"] <= BUDGET.members and 20 * path.stat().st_size <= BUDGET.bytes, path.name


def test_a_file_over_the_bytes_budget_is_refused_unread(tmp_path, capsys):
    big = write(tmp_path / "big.json", '{"format": 1, "level": "tutorial-01", "moves": []}' + " " * BUDGET.bytes)
    assert main(["check", "tutorial-01", "--solution", str(big)]) == 2
    assert capsys.readouterr().err == f"{big}: (file): 500 kB; a solution may be at most 500 kB, so it is not judged\n"


# ---------------------------------------------------------------------------- --csv
@pytest.mark.parametrize("where", ["level", "solution", "roster", "folder", "json"])
def test_the_csv_never_overwrites_an_input_and_is_refused_before_grading(hostile, tmp_path, monkeypatch, capsys, where):
    levels, cls, _ = hostile
    roster = write(tmp_path / "roster.txt", "alice\n")
    out = {
        "level": levels / "tutorial-01.json",
        "solution": cls / "upper" / "ANSWER.JSON",
        "roster": roster,
        "folder": tmp_path,
        "json": cls / "grades.json",  # new, but the next grading would read it as a solution
    }[where]
    before = snapshot(tmp_path / "levels"), snapshot(cls), roster.read_bytes()
    monkeypatch.setattr(grading, "plan", lambda *a, **k: pytest.fail("graded before the output was checked"))
    assert main(["grade", str(levels), str(cls), "--csv", str(out), "--roster", str(roster)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{out}: --csv: ")
    assert (snapshot(tmp_path / "levels"), snapshot(cls), roster.read_bytes()) == before


def test_the_csv_can_go_without_a_bom(hostile, tmp_path):
    _, cls, _ = hostile
    out = tmp_path / "plain.csv"
    shutil.rmtree(cls)
    write(cls / "alice.json", (REFERENCE / "tutorial-01.json").read_text())
    assert main(["grade", "tutorial-01", str(cls), "--csv", str(out), "--no-bom"]) == 0
    assert out.read_bytes().startswith(b"student,level,")


# ---------------------------------------------------------------------------- roster
def test_a_roster_gives_everyone_on_it_a_row(hostile, tmp_path, capsys):
    """A CSV roster as Excel saves it (a BOM, a `Student ID` column beside the names):
    every id on it gets a row for each level, handed in or not; a folder whose name
    differs in case is theirs; a folder of someone not on the roster is graded and named."""
    _, cls, _ = hostile
    roster = tmp_path / "roster.csv"
    (cls / "Jos\u0065\u0301").mkdir()  # "José" as macOS writes a file name: e and a combining accent
    roster.write_bytes("Name,Student ID\nAnn,Upper\nBo,nobody here\nCy,empty\nJo,Jos\u00e9\n".encode("utf-8-sig"))
    assert main(["grade", "tutorial-01", str(cls), "--csv", "-", "--roster", str(roster), "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(out, newline=""))}
    assert rows["Upper"]["passed"] == "true" and rows["Upper"]["file"] == "upper/ANSWER.JSON"
    assert rows["nobody here"]["reason"] == grading.NOT_HANDED_IN and rows["empty"]["reason"] == grading.NOT_HANDED_IN
    assert rows["Jos\u00e9"]["reason"] == grading.NOT_HANDED_IN  # the roster's spelling, one row
    assert len(rows) == len(EXPECTED) + 2  # everyone found, and the roster's "nobody here" and José
    assert "shout: not on the roster; graded all the same" in err
    assert "cr\\rname: not on the roster" in err  # a name's control characters are never sent to the terminal raw


def test_a_text_roster_with_an_empty_class_folder(tmp_path, capsys):
    cls = tmp_path / "class"
    cls.mkdir()
    roster = write(tmp_path / "roster.txt", "# class 3B\nann\n\nben\nann\n")
    assert main(["grade", "tutorial-01", str(cls), "--csv", "-", "--roster", str(roster)]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out, newline="")))
    nothing = ["tutorial-01", "false", "0", "", "", "", "", grading.NOT_HANDED_IN, "", "", "", "", ""]  # marks 0, no record
    assert table[1:] == [["ann", *nothing], ["ben", *nothing]]


@pytest.mark.parametrize(
    ("text", "args", "line"),
    [
        ("", [], "{roster}: --roster: no student named in it"),
        ("Email\nx@y\n", ["--roster-column", "Student"], "{roster}: --roster-column: no column headed 'Student' (the columns: 'Email')"),
    ],
)
def test_a_bad_roster_is_one_line_and_exit_2(tmp_path, capsys, text, args, line):
    roster = write(tmp_path / "roster.csv", text)
    (tmp_path / "class").mkdir()
    assert main(["grade", "tutorial-01", str(tmp_path / "class"), "--csv", "-", "--roster", str(roster), *args]) == 2
    assert capsys.readouterr().err == line.format(roster=roster) + "\n"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any folder")
def test_an_unreadable_folder_for_real(tmp_path, capsys):
    cls = tmp_path / "class"
    write(cls / "locked" / "tutorial-01.json", (REFERENCE / "tutorial-01.json").read_text())
    (cls / "locked").chmod(0)
    try:
        assert main(["grade", "tutorial-01", str(cls), "--csv", "-"]) == 0
    finally:
        (cls / "locked").chmod(0o755)
    table = list(csv.reader(io.StringIO(capsys.readouterr().out, newline="")))
    assert [r[:3] for r in table[1:]] == [["locked", "tutorial-01", "false"]] and "locked: cannot read the folder" in table[1][3]


def test_levels_in_the_folder_are_known_ids(tmp_path):
    """A solution for a level of LEVELS that is not graded (a demo) is for another
    level, not for an unknown one."""
    levels = tmp_path / "levels"
    levels.mkdir()
    shutil.copy(LEVELS / "tutorial-01.json", levels)
    shutil.copy(LEVELS / "demo-portal-braced.json", levels)
    assert "demo-portal-braced" in grading.known_levels([str(levels)])


def test_an_unreadable_file_is_a_row_naming_it(tmp_path, monkeypatch, capsys):
    """A file that cannot be read (no permission: made so by a stand-in for reading, as
    the tests run as root here) is its student's row, named relative to the class
    folder, the machine's path nowhere in it; a very long unknown level id is cut."""
    cls = tmp_path / "class"
    locked = write(cls / "ann" / "tutorial-01.json", (REFERENCE / "tutorial-01.json").read_text())
    write(cls / "ben" / "answer.json", {"format": 1, "level": "x" * 5000, "moves": []})
    real = Path.read_text

    def read_text(self, *args, **kwargs):
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    assert main(["grade", "tutorial-01", str(cls), "--csv", "-", "--workers", "1"]) == 0
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out, newline=""))}
    assert [rows["ann"][c] for c in ("passed", "reason", "file")] == [
        "false",
        "ann/tutorial-01.json: cannot read the file (Permission denied)",  # the system's reason, not a word about UTF-8
        "ann/tutorial-01.json",
    ]
    assert str(tmp_path) not in rows["ann"]["reason"]
    assert rows["ben"]["reason"] == f"{grading.NOT_HANDED_IN}; ben/answer.json: level: '{'x' * 60}…' is no level of the course nor of the levels graded"


def test_a_teachers_level_saved_as_upper_case_json_is_listed(tmp_path):
    from equilibria.course.teacher import teacher_levels

    level = json.loads((LEVELS / "tutorial-01.json").read_text())
    write(tmp_path / "ARCH.JSON", {**level, "id": "arch-01"})
    assert [t.id for t in teacher_levels(tmp_path)] == ["arch-01"]


@pytest.mark.parametrize(
    ("text", "column", "names"),
    [
        ("Email,Student\nz@x,ann\ny@x,ben\n", None, ["z@x", "y@x"]),  # an id (the email) before a name
        ("Name,Email\nann,z@x\n", None, ["z@x"]),
        ("Student ID,Name\ns1,ann\n", None, ["s1"]),  # a platform's usual export: the id, not the name (issue 32)
        ("Student,ID,SIS User ID,SIS Login ID,Section\nAnn Lee,1234,s1,ann,A\n", None, ["s1"]),  # Canvas: SIS User ID before its own ID
        ("First name,Last name,ID number,Email address\nAnn,Lee,s1,ann@x\n", None, ["s1"]),  # Moodle's export
        ("Name,Username\nann,u1\n", None, ["u1"]),
        ("Name,Matriculation\nann,m1\n", None, ["m1"]),
        ("Student ID,Name\ns1,ann\n", "name", ["ann"]),  # --roster-column still wins
        ("ann\nben\n", None, ["ann", "ben"]),  # no header: no one lost
        ("Email,Login\nz@x,ann\n", "email", ["z@x"]),
    ],
)
def test_a_csv_roster_finds_its_column(tmp_path, text, column, names):
    roster = write(tmp_path / "class.csv", text)
    assert read_roster(roster, column).students == names


@pytest.mark.parametrize(
    ("encoding", "separator"),
    [
        ("utf-8", ","),  # Moodle's and Canvas's export
        ("utf-8-sig", ";"),  # Excel's "CSV UTF-8" where the decimal mark is a comma (German, French, Spanish)
        ("cp1252", ";"),  # Excel's plain "CSV" in Western Europe: ü as one byte
        ("utf-16", "\t"),  # Excel's "Unicode text": UTF-16 with its byte-order mark, cells apart by tabs
    ],
)
def test_a_roster_as_excel_and_the_platforms_save_it_is_read_with_its_names_whole(tmp_path, encoding, separator):
    rows = [["Name", "Student ID", "Email"], ["Jürgen Müller", "s1", "j@x"], ["Zoë Núñez", "s2", "z@x"]]
    text = "".join(separator.join(row) + "\r\n" for row in rows)
    roster = tmp_path / "class.csv"
    roster.write_bytes(text.encode(encoding))
    got = read_roster(roster)
    assert got.students == ["s1", "s2"] and got.header == rows[0]
    assert got.rows["s1"] == rows[1] and got.rows["s2"][0] == "Zoë Núñez"


def test_a_comma_inside_quotes_does_not_make_a_semicolon_roster_a_comma_one(tmp_path):
    roster = write(tmp_path / "class.csv", 'Name;Student ID\n"Lee, Ann";s1\n')
    assert read_roster(roster).students == ["s1"]


def test_a_roster_that_cannot_be_read_says_why_in_the_systems_words(tmp_path, monkeypatch, capsys):
    roster = write(tmp_path / "class.csv", "Student ID\ns1\n")
    real = Path.read_bytes

    def read_bytes(self):
        if self == roster:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    (tmp_path / "class").mkdir()
    assert main(["grade", "tutorial-01", str(tmp_path / "class"), "--csv", "-", "--roster", str(roster)]) == 2
    assert capsys.readouterr().err == f"{roster}: --roster: cannot read the file (Permission denied)\n"
