"""`equilibria grade LEVEL FOLDER` on one student's own hand-in folder (files named after
levels, no folders): each file would be a student of its own, so a line on stderr says
that this looks like one student's folder and how to grade it; the CSV is written all
the same. A class folder (a folder per student, or files named after students) gets no
such line."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from equilibria.cli.main import main

LEVELS = Path(__file__).resolve().parents[1] / "levels"
REFERENCE = LEVELS / "solutions"
SAID = "looks like one student's hand-in folder"


@pytest.fixture
def levels(tmp_path) -> Path:
    folder = tmp_path / "levels"
    folder.mkdir()
    for level_id in ("tutorial-01", "balance-01"):
        shutil.copy(LEVELS / f"{level_id}.json", folder)
    return folder


def handed(folder: Path, names: dict[str, str]) -> Path:
    """`folder` with the reference solution of each level under the name given."""
    for name, level_id in names.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REFERENCE / f"{level_id}.json", folder / name)
    return folder


def test_one_students_folder_is_said_in_one_line_and_graded_all_the_same(levels, tmp_path, capsys):
    folder = handed(tmp_path / "mine", {"tutorial-01.json": "tutorial-01", "balance-01.json": "balance-01"})
    out = tmp_path / "grades.csv"
    assert main(["grade", str(levels), str(folder), "--csv", str(out)]) == 0
    err = capsys.readouterr().err
    said = [line for line in err.splitlines() if SAID in line]
    assert said == [
        f"{folder}: every file in it is named after a level (balance-01.json, tutorial-01.json), so this looks like one student's "
        "hand-in folder, not a class folder; to grade it, put it in a folder of its own (named after the student) inside the class folder"
    ]
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
    assert len(rows) == 4  # two "students" (the files) × two levels: written all the same
    assert {r["student"] for r in rows} == {"tutorial-01", "balance-01"}


@pytest.mark.parametrize(
    "names",
    [
        {"alice/tutorial-01.json": "tutorial-01", "alice/balance-01.json": "balance-01"},  # a folder per student
        {"alice.json": "tutorial-01", "bob.json": "tutorial-01"},  # files named after students
        {"tutorial-01.json": "tutorial-01", "bob/balance-01.json": "balance-01"},  # a folder beside the files
    ],
)
def test_a_class_folder_is_not_taken_for_one_students(levels, tmp_path, capsys, names):
    folder = handed(tmp_path / "class", names)
    assert main(["grade", str(levels), str(folder), "--csv", str(tmp_path / "grades.csv")]) == 0
    assert SAID not in capsys.readouterr().err
