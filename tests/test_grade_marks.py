"""The marks in the grade book (issue 32, point 4) and a grade book a teacher imports
(point 5): a hand-in carries the attempt record (tries, hints, answer shown, the check
that passed, the check times); `grade` re-judges every answer and marks it by the game's
rule (100, 80, 60, 40 by the check that passed; 0 after "show the answer" or for an answer
that does not pass), a record that contradicts itself flagged in the row; levels given as
a list of ids; a wide CSV (a row per student, a column of marks per level, a total) with
a platform roster's own columns first; the figures in --json, not in the CSV."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from judging import answer_for

from equilibria.classroom import handin
from equilibria.classroom.gradebook import TOTAL
from equilibria.classroom.marks import mark
from equilibria.cli.main import main
from equilibria.course.progress import Progress
from equilibria.format.solution import AttemptRecord
from equilibria.rules.judge import marks as rule

LEVELS = Path(__file__).resolve().parents[1] / "levels"
REFERENCE = LEVELS / "solutions"
RIGHT = json.loads((REFERENCE / "tutorial-01.json").read_text())  # passes tutorial-01 as written (no student: its own numbers)


def right(student: str) -> dict:
    """The answer to `student`'s own numbers of tutorial-01, as the game hands it in."""
    return answer_for("tutorial-01", student)


WRONG = {"format": 1, "level": "tutorial-01", "moves": [{"type": "add_force", "node": "B", "fx": 0, "fy": 1000}]}
T0, T1 = "2026-03-02T14:05:09Z", "2026-03-02T14:20:00Z"


def handed(folder: Path, student: str, work: dict, record: dict | None) -> Path:
    """`work` on its level handed in by `student`, with `record` (None: none)."""
    path = folder / student / f"{work['level']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**work, **({"record": record} if record is not None else {})}))
    return path


def graded(tmp_path: Path, *args: str) -> tuple[dict[tuple[str, str], dict], str]:
    """`grade` on the class folder: the long CSV's rows by (student, level), and stderr."""
    out = tmp_path / "long.csv"
    assert main(["grade", *args, str(tmp_path / "class"), "--csv", str(out), "--workers", "1"]) == 0
    rows = csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig")))
    return {(r["student"], r["level"]): r for r in rows}, ""


def test_the_rule_is_the_games():
    """The judge's rule, pinned by hand: 100 at the first check, 20 fewer a try, 40 the least."""
    assert [rule(k) for k in (1, 2, 3, 4, 5, 9)] == [100, 80, 60, 40, 40, 40]


@pytest.mark.parametrize(
    ("passed", "record", "marks"),
    [
        (True, {"tries": 1, "passed_at": 1, "marks": 100, "first_check": T0, "last_check": T0}, 100),
        (True, {"tries": 3, "hints": 2, "passed_at": 3, "marks": 60, "first_check": T0, "last_check": T1}, 60),
        (True, {"tries": 6, "hints": 5, "passed_at": 5, "marks": 40, "first_check": T0, "last_check": T1}, 40),
        (True, {"tries": 2, "hints": 2, "first_check": T0, "last_check": T1}, 60),  # fixed and handed in unchecked: check 3
        (True, {"tries": 0}, 100),  # handed in before any check: this is the first
        (False, {"tries": 1, "hints": 1, "first_check": T0, "last_check": T0}, 0),
        (True, {"tries": 2, "hints": 1, "shown": True, "marks": 0, "first_check": T0, "last_check": T1}, 0),
    ],
)
def test_marks_by_the_rule_from_the_re_judge_and_the_record(passed, record, marks):
    got = mark(passed, AttemptRecord(**record), has_moves=not record.get("shown"))
    assert got.marks == marks and got.flags == ()
    assert got.tries == record["tries"] and got.shown == record.get("shown", False)


@pytest.mark.parametrize(
    ("record", "flag"),
    [
        ({"tries": 0, "passed_at": 1, "marks": 100}, "the record says it passed, with no check made"),
        ({"tries": 2, "passed_at": 4, "marks": 40, "first_check": T0, "last_check": T1}, "the record says it passed at check 4, yet gives tries = 2"),
        ({"tries": 2, "shown": True, "marks": 80, "first_check": T0, "last_check": T1}, "the record says the answer was shown, yet gives 80 marks"),
        ({"tries": 3, "passed_at": 3, "marks": 100, "first_check": T0, "last_check": T1}, "gives 100 marks for a pass at check 3, where the rule gives 60"),
        ({"tries": 1, "marks": 100, "first_check": T0, "last_check": T0}, "the record gives marks without a check that passed"),
        ({"tries": 1, "hints": 4, "first_check": T0, "last_check": T0}, "the record has more hints (4) than checks (1)"),
        ({"tries": 2, "first_check": T1, "last_check": T0}, f"the record's last check ({T0}) is before its first ({T1})"),
        ({"tries": 0, "first_check": T0, "last_check": T0}, "the record has check times, with no check made"),
        ({"tries": 1, "first_check": "2026-13-45T99:00:00Z", "last_check": T0}, "the record's time 2026-13-45T99:00:00Z is no date"),
    ],
)
def test_a_record_that_contradicts_itself_is_flagged_and_marked_by_the_re_judge(record, flag):
    got = mark(True, AttemptRecord(**record))
    assert any(flag in f for f in got.flags), got.flags
    tries = record["tries"]
    k = record["passed_at"] if record.get("passed_at") and record["passed_at"] <= tries else tries + 1
    assert got.marks == (0 if record.get("shown") else rule(k))  # never the marks the record claims


def test_the_record_and_the_verdict_disagreeing_is_flagged():
    got = mark(False, AttemptRecord(tries=1, passed_at=1, marks=100, first_check=T0, last_check=T0))
    assert got.marks == 0 and "the game passed it at check 1, but the work handed in does not pass" in got.flags[0]
    got = mark(True, AttemptRecord(tries=1, shown=True, marks=0, first_check=T0, last_check=T0), has_moves=True)
    assert got.marks == 0 and "yet the file holds work that passes" in got.flags[0]  # moves put back into a given-up hand-in
    assert mark(True, None).marks == 100 and "no attempt record" in mark(True, None).flags[0]


def test_the_progress_keeps_the_record_a_hand_in_carries(tmp_path):
    progress = Progress.load()
    progress.record_check("tutorial-01", False, None, 1, hints=1, when=T0)
    progress.record_check("tutorial-01", True, 80, 2, hints=1, passed_at=2, when=T1)
    progress.record_check("tutorial-01", True, 80, 3, hints=1, passed_at=3, when=T1)  # checked again after the pass: the first pass stays
    progress.save()
    record = Progress.load().attempt_record("tutorial-01")
    assert record == {"tries": 3, "hints": 1, "shown": False, "passed_at": 2, "marks": 80, "first_check": T0, "last_check": T1}
    assert mark(True, AttemptRecord(**record)).flags == ()  # what the game writes contradicts nothing


def test_an_attempt_counts_its_hints_and_the_check_that_passed():
    from equilibria.course.level import load_level
    from equilibria.format.solution import load_solution
    from equilibria.work.attempt import Attempt

    attempt = Attempt(load_level(json.loads((LEVELS / "tutorial-01.json").read_text())))
    attempt.moves = list(load_solution(WRONG).moves)
    attempt.check()
    attempt.check()  # the same answer again: no try, no new hint
    assert (attempt.tries, attempt.hints, attempt.passed_at) == (1, 1, None)
    attempt.moves = list(load_solution(RIGHT).moves)
    attempt.check()
    assert (attempt.tries, attempt.hints, attempt.passed_at, attempt.marks) == (2, 1, 2, 80)


def test_export_carries_the_record_and_grade_marks_it(tmp_path, capsys):
    """The student's way: checks recorded in the progress, `export`, then `grade`."""
    progress = Progress.load()
    progress.set_student("ann")
    progress.save_work("tutorial-01", right("ann"))
    progress.record_check("tutorial-01", False, None, 1, hints=1, when=T0)
    progress.record_check("tutorial-01", True, 80, 2, hints=1, passed_at=2, when=T1)
    progress.save()
    out = tmp_path / "class" / "ann" / "tutorial-01.json"
    out.parent.mkdir(parents=True)
    assert main(["export", "tutorial-01", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["record"] == {"tries": 2, "hints": 1, "shown": False, "passed_at": 2, "marks": 80, "first_check": T0, "last_check": T1}
    rows, _ = graded(tmp_path, "tutorial-01")
    ann = rows[("ann", "tutorial-01")]
    assert (ann["passed"], ann["marks"], ann["tries"], ann["hints"], ann["answer shown"], ann["flags"]) == ("true", "80", "2", "1", "no", "")
    assert (ann["first check"], ann["last check"]) == (T0, T1)


def test_a_level_given_up_is_handed_in_as_its_record_alone(tmp_path):
    progress = Progress.load()
    progress.save_work("tutorial-01", right("bob"))  # after "show the answer", the work in hand is the answer
    progress.record_check("tutorial-01", True, 0, 2, shown=True, hints=1, when=T0)
    progress.save()
    target = tmp_path / "class" / "bob" / "tutorial-01.json"
    line = handin.hand_in(right("bob"), "bob", target, handin.record_of(Progress.load(), "tutorial-01"))
    assert "without your work" in line and json.loads(target.read_text())["moves"] == []
    rows, _ = graded(tmp_path, "tutorial-01")
    bob = rows[("bob", "tutorial-01")]
    assert (bob["passed"], bob["marks"], bob["answer shown"], bob["flags"]) == ("false", "0", "yes", "")


def test_a_class_by_a_list_of_level_ids_in_the_long_csv(tmp_path):
    """Right on both levels at the first check, on one at the third, a copied file stamped
    for a classmate, a hand-written record claiming marks it cannot have."""
    cls = tmp_path / "class"
    first = {"tries": 1, "passed_at": 1, "marks": 100, "first_check": T0, "last_check": T0}
    third = {"tries": 3, "hints": 2, "passed_at": 3, "marks": 60, "first_check": T0, "last_check": T1}
    bridge = json.loads((REFERENCE / "bridge-01.json").read_text())
    handed(cls, "ann", right("ann"), first)
    handed(cls, "ann", bridge, first)
    handed(cls, "ben", right("ben"), third)
    handed(cls, "cat", {**right("cat")}, {"tries": 0, "passed_at": 1, "marks": 100})
    rows, _ = graded(tmp_path, "tutorial-01", "bridge-01")
    assert set(rows) == {(s, lv) for s in ("ann", "ben", "cat") for lv in ("tutorial-01", "bridge-01")}
    got = {k: (r["passed"], r["marks"], r["tries"], bool(r["flags"])) for k, r in rows.items()}
    assert got[("ann", "tutorial-01")] == got[("ann", "bridge-01")] == ("true", "100", "1", False)
    assert got[("ben", "tutorial-01")] == ("true", "60", "3", False)
    assert got[("ben", "bridge-01")] == ("false", "0", "", False)  # nothing handed in
    assert got[("cat", "tutorial-01")] == ("true", "100", "0", True)  # flagged: passed with no check; marked as the first
    assert "the record says it passed, with no check made" in rows[("cat", "tutorial-01")]["flags"]


def test_a_student_handing_in_a_classmates_stamped_work_is_flagged(tmp_path):
    """On a level that varies its numbers: ann's work, stamped for her, handed in as ben
    too; and ann's numbers with the stamp taken off, handed in as ben."""
    from equilibria.course.level import load_level
    from equilibria.rules.variants import answer_solution, version

    level = load_level(json.loads((LEVELS / "particle-01.json").read_text()))
    work = answer_solution(version(level, "ann"))  # ann's right answer, stamped for ann
    assert level.vary is not None and work is not None and work["student"] == "ann"
    handed(tmp_path / "class", "ben", work, {"tries": 1, "passed_at": 1, "marks": 100, "first_check": T0, "last_check": T0})
    handed(tmp_path / "class", "ann", work, {"tries": 1, "passed_at": 1, "marks": 100, "first_check": T0, "last_check": T0})
    rows, _ = graded(tmp_path, "particle-01")
    assert (rows[("ann", "particle-01")]["marks"], rows[("ann", "particle-01")]["flags"]) == ("100", "")
    ben = rows[("ben", "particle-01")]
    assert (ben["passed"], ben["marks"]) == ("false", "0") and "stamped for another student ('ann')" in ben["flags"]
    unstamped = {k: v for k, v in work.items() if k != "student"}
    handed(tmp_path / "class", "ben", unstamped, {"tries": 1, "passed_at": 1, "marks": 100, "first_check": T0, "last_check": T0})
    rows, _ = graded(tmp_path, "particle-01")
    ben = rows[("ben", "particle-01")]
    assert (ben["passed"], ben["marks"]) == ("false", "0") and "the numbers in the file are not this student's" in ben["flags"]


def test_the_wide_csv_takes_the_rosters_own_columns_and_a_total(tmp_path):
    """A Canvas export as the roster: its identity columns come back as they were, the
    student found by SIS User ID (not by name, nor Canvas's own ID), one column of marks
    per level in the order given, and the total; a student not on the roster at the end."""
    cls = tmp_path / "class"
    handed(cls, "s1", right("s1"), {"tries": 2, "hints": 1, "first_check": T0, "last_check": T1})  # fixed, unchecked: check 3
    handed(cls, "zed", right("zed"), {"tries": 1, "passed_at": 1, "marks": 100, "first_check": T0, "last_check": T0})
    roster = tmp_path / "canvas.csv"
    roster.write_text('Student,ID,SIS User ID,SIS Login ID,Section\r\n"Lee, Ann",1234,s1,ann,A\r\n"Roe, Bo",1235,s2,bo,A\r\n', encoding="utf-8-sig")
    wide, book = tmp_path / "import.csv", tmp_path / "book.json"
    args = ["grade", "tutorial-01", "bridge-01", str(cls), "--wide", str(wide), "--json", str(book), "--roster", str(roster), "--workers", "1"]
    assert main(args) == 0
    table = list(csv.reader(io.StringIO(wide.read_text(encoding="utf-8-sig"), newline="")))
    assert table == [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "tutorial-01", "bridge-01", TOTAL],
        ["Lee, Ann", "1234", "s1", "ann", "A", "60", "0", "60"],
        ["Roe, Bo", "1235", "s2", "bo", "A", "0", "0", "0"],
        ["", "", "zed", "", "", "100", "0", "100"],
    ]
    data = json.loads(book.read_text())
    assert data["levels"] == ["tutorial-01", "bridge-01"]
    s1 = next(r for r in data["rows"] if r["student"] == "s1" and r["level"] == "tutorial-01")
    assert s1["marks"] == 60 and s1["tries"] == 2 and s1["figures"]["judged_by"]  # the figures: in the JSON


def test_without_a_roster_the_wide_csv_names_the_student(tmp_path, capsys):
    handed(tmp_path / "class", "ann", right("ann"), {"tries": 1, "passed_at": 1, "marks": 100, "first_check": T0, "last_check": T0})
    assert main(["grade", "tutorial-01", str(tmp_path / "class"), "--wide", "-", "--workers", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == ["student,tutorial-01,total", "ann,100,100"]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["tutorial-01", "{cls}"], "grade: say what to write: --csv OUT.csv"),
        (["{cls}", "--csv", "-"], "grade: no level to grade: give level ids, level files or folders of them before SOLUTIONS_DIR"),
        (["tutorial-01", "{cls}", "--csv", "-", "--json", "-"], "grade: only one of --csv, --wide and --json can be - (standard output)"),
        (["tutorial-01", "{cls}", "--json", "{cls}/book.json"], "--json: is in the class folder or is a level or a solution"),
        (["tutorial-01", "{cls}", "--wide", "{tmp}/a.csv", "--csv", "{tmp}/a.csv"], "grade: --csv, --wide and --json each need a file of their own"),
        (["tutorial-01", "no-such-level", "{cls}", "--csv", "-"], "no-such-level: no such file, and no level of the course has that id"),
    ],
)
def test_bad_outputs_and_levels_are_one_line_and_exit_2(tmp_path, capsys, args, line):
    handed(tmp_path / "class", "ann", right("ann"), None)
    args = [a.format(cls=tmp_path / "class", tmp=tmp_path) for a in args]
    assert main(["grade", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and line in err, err


def test_a_level_passed_before_a_restart_stays_passed_at_its_check():
    """Reopened after a pass (80 at check 2), the attempt is still won at check 2: "show
    the answer" is refused as in the session that passed, and the record stays true."""
    from equilibria.app.session.play import bench_for, give_up
    from equilibria.app.session.stage import load_stage

    progress = Progress.load()
    progress.record_check("tutorial-01", False, None, 1, hints=1, when=T0)
    progress.record_check("tutorial-01", True, 80, 2, hints=1, passed_at=2, when=T1)
    bench, _ = bench_for(load_stage(str(LEVELS / "tutorial-01.json")), progress)
    assert bench.attempt.won and (bench.attempt.tries, bench.attempt.hints, bench.attempt.passed_at) == (2, 1, 2)

    class Session:
        level_bench, notice = bench, ""

    give_up(Session)
    assert Session.notice.startswith("Passed") and not bench.attempt.shown
