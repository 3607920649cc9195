"""`equilibria grade` (issue 16, point 5): a class's solution files judged by the same
judge as `check`, one CSV row per student and level, a broken file a row with its one
line, never a crash; the same bytes with one worker and with two; bad input one line
and exit 2; an unexpected error a row, a log and exit 3."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from judging import answer_for
from test_corpus import BROKEN_SOLUTION, CORPUS

from equilibria.classroom import grade as grading
from equilibria.classroom import gradebook
from equilibria.cli.main import main
from equilibria.course.progress import data_folder

LEVELS = Path(__file__).resolve().parents[1] / "levels"
REFERENCE = LEVELS / "solutions"


def write(path: Path, value) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return path


@pytest.fixture
def classroom(tmp_path) -> tuple[Path, Path]:
    """Two levels, and a class: alice right on both; bob wrong on bridge-01 and broken on
    tutorial-01; carol (one file) naming an unknown node; dave two files for one level;
    erin only a solution for a level not graded."""
    levels = tmp_path / "levels"
    levels.mkdir()
    for level_id in ("tutorial-01", "bridge-01", "demo-portal-braced"):  # a demo has no goal: left out
        shutil.copy(LEVELS / f"{level_id}.json", levels)
    solutions = tmp_path / "class"
    for level_id in ("tutorial-01", "bridge-01"):
        write(solutions / "alice" / f"{level_id}.json", (REFERENCE / f"{level_id}.json").read_text())
    write(solutions / "bob" / "bridge.json", {"format": 1, "level": "bridge-01", "moves": []})
    write(solutions / "bob" / "tutorial-01.json", '{"format": 1,')
    write(solutions / "carol.json", {"format": 1, "level": "tutorial-01", "moves": [{"type": "add_force", "node": "Z", "fx": 1}]})
    write(solutions / "dave" / "a.json", {"format": 1, "level": "bridge-01", "moves": []})
    write(solutions / "dave" / "b" / "c.json", {"format": 1, "level": "bridge-01", "moves": []})
    write(solutions / "erin.json", {"format": 1, "level": "zero-force-01", "moves": []})
    write(solutions / ".hidden.json", "not even JSON")
    return levels, solutions


def rows_of(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_class_gets_one_row_per_student_and_level(classroom, tmp_path, capsys):
    levels, solutions = classroom
    out, book = tmp_path / "grades.csv", tmp_path / "grades.json"
    assert main(["grade", str(levels), str(solutions), "--csv", str(out), "--json", str(book), "--workers", "2"]) == 0
    stdout, stderr = capsys.readouterr()
    assert out.read_bytes().startswith(b"\xef\xbb\xbfstudent,")  # a byte-order mark: Excel reads the file as UTF-8
    rows = rows_of(out.read_text(encoding="utf-8-sig"))
    assert list(rows[0]) == list(gradebook.COLUMNS) and "figures" not in rows[0]  # the figures are in the JSON only
    got = [(r["student"], r["level"], r["passed"], r["file"]) for r in rows]
    assert got == [
        ("alice", "bridge-01", "true", "alice/bridge-01.json"),
        ("alice", "tutorial-01", "true", "alice/tutorial-01.json"),
        ("bob", "bridge-01", "false", "bob/bridge.json"),
        ("bob", "tutorial-01", "false", "bob/tutorial-01.json"),
        ("carol", "bridge-01", "false", ""),
        ("carol", "tutorial-01", "false", "carol.json"),
        ("dave", "bridge-01", "false", "dave/a.json, dave/b/c.json"),
        ("dave", "tutorial-01", "false", ""),
        ("erin", "bridge-01", "false", ""),
        ("erin", "tutorial-01", "false", ""),
    ]
    why = {(r["student"], r["level"]): r["reason"] for r in rows}
    figures = {(r["student"], r["level"]): r["figures"] for r in json.loads(book.read_text())["rows"]}
    assert why[("alice", "bridge-01")].startswith("It holds") and figures[("alice", "bridge-01")]["broken"] == []
    assert why[("bob", "bridge-01")].startswith("It is a mechanism") and figures[("bob", "bridge-01")]["moving_nodes"] == ["B", "C"]
    assert why[("bob", "tutorial-01")] == "bob/tutorial-01.json: not valid JSON: Expecting property name enclosed in double quotes at line 1, column 14"
    assert why[("carol", "tutorial-01")] == "carol.json: moves[0].node: unknown node 'Z'"
    assert why[("dave", "bridge-01")] == "2 solution files for this level (dave/a.json, dave/b/c.json): hand in one"
    assert why[("carol", "bridge-01")] == why[("erin", "tutorial-01")] == grading.NOT_HANDED_IN
    assert figures[("carol", "tutorial-01")] == {}
    flagged = "4 rows flagged"  # alice's, bob's bridge.json and carol's files: written by hand, with no attempt record
    assert stdout == f"10 rows (5 students × 2 levels): 2 passed; {flagged}; 1 solution file for other levels left out; written to {out}, {book}\n"
    assert stderr.splitlines()[-1] == "graded 4/4" and "Traceback" not in stderr


def test_the_same_bytes_with_one_worker_and_with_two(classroom, tmp_path):
    levels, solutions = classroom
    texts = []
    for workers in ("1", "2"):
        out = tmp_path / f"grades-{workers}.csv"
        assert main(["grade", str(levels), str(solutions), "--csv", str(out), "--workers", workers]) == 0
        texts.append(out.read_bytes())
    assert texts[0] == texts[1]


def test_one_level_by_id_and_a_flat_folder_of_the_corpus_each_file_its_line(tmp_path, capsys):
    """Every broken solution of the corpus, one student each, on tutorial-01: its row
    says the line `check` prints. A file too broken to name its level answers the one
    level graded; one for another level leaves its student with nothing handed in."""
    solutions = tmp_path / "class"
    shutil.copytree(CORPUS / "solutions", solutions)
    # The corpus's good.json answers the level as written; the student "good" has numbers of their own.
    write(solutions / "good.json", answer_for("tutorial-01", "good", stamped=False))
    assert main(["grade", "tutorial-01", str(solutions), "--csv", "-"]) == 0
    rows = {r["student"]: r for r in rows_of(capsys.readouterr().out)}
    assert set(rows) == {*BROKEN_SOLUTION, "good"}
    assert rows["good"]["passed"] == "true"
    for name, words in BROKEN_SOLUTION.items():
        row = rows[name]
        assert row["level"] == "tutorial-01" and row["passed"] == "false"
        if name == "another-level":
            assert row["reason"] == grading.NOT_HANDED_IN
        else:
            assert row["reason"].startswith(f"{name}.json: {words}"), row["reason"]


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["tutorial-01", "{tmp}/nowhere"], "{tmp}/nowhere: no such folder (SOLUTIONS_DIR is a folder of the class's solution files)"),
        (["tutorial-01", "{tmp}/empty"], "{tmp}/empty: no solution files (*.json) in it, nor in folders in it"),
        (["no-such-level", "{tmp}/empty"], "no-such-level: no such file, and no level of the course has that id (`equilibria levels` lists them)"),
        (["demo-portal-braced", "{tmp}/empty"], "demo-portal-braced.json: kind: a demo level has no goal, so there is nothing to grade"),
        (["{tmp}/broken.json", "{tmp}/empty"], "{tmp}/broken.json: members[0].j: unknown node 'NOWHERE'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, args, line):
    (tmp_path / "empty").mkdir()
    level = json.loads((LEVELS / "tutorial-01.json").read_text())
    level["members"][0]["j"] = "NOWHERE"
    write(tmp_path / "broken.json", level)
    args = [a.format(tmp=tmp_path) for a in args]
    assert main(["grade", *args, "--csv", str(tmp_path / "out.csv")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.rstrip("\n").endswith(line.format(tmp=tmp_path))
    assert not (tmp_path / "out.csv").exists()


def test_nowhere_to_write_the_csv_is_said_before_grading(classroom, tmp_path, capsys):
    levels, solutions = classroom
    assert main(["grade", str(levels), str(solutions), "--csv", str(tmp_path / "no" / "out.csv")]) == 2
    assert capsys.readouterr().err == f"{tmp_path / 'no' / 'out.csv'}: --csv: no folder {tmp_path / 'no'} to write it in\n"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_unexpected_error_is_a_row_a_log_and_exit_3(classroom, tmp_path, capsys, monkeypatch, workers):
    import equilibria.rules.judge

    def broken_judge(level, solution):
        raise RuntimeError("a bug in the judge")

    monkeypatch.setattr(equilibria.rules.judge, "check", broken_judge)
    levels, solutions = classroom
    out = tmp_path / "grades.csv"
    only_alice = tmp_path / "alice-only"
    shutil.copytree(solutions / "alice", only_alice / "alice")
    assert main(["grade", str(levels), str(only_alice), "--csv", str(out), "--workers", workers]) == 3
    _, err = capsys.readouterr()
    rows = rows_of(out.read_text(encoding="utf-8-sig"))
    assert [r["reason"] for r in rows] == ["could not be judged: an unexpected error (RuntimeError)"] * 2
    logs = sorted((data_folder() / "logs").glob("crash-*.log"))
    assert len(logs) == 2 and "a bug in the judge" in logs[0].read_text()
    assert "Traceback" not in err and sum("could not be judged" in line for line in err.splitlines()) == 2


def test_workers_started_as_fresh_pythons_give_the_same_rows(classroom, tmp_path, monkeypatch):
    """Where workers cannot be forked (macOS, Windows) they start as fresh Pythons that
    load the engine from its cache: the same rows."""
    levels, solutions = classroom
    found = grading.plan(grading.gradable_levels([str(levels)]), solutions)
    here = grading.run(found.jobs, 1, lambda n, total: None)
    monkeypatch.setattr(grading, "_start_method", lambda: "spawn")
    assert grading.run(found.jobs, 2, lambda n, total: None) == here
