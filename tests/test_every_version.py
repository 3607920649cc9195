"""A level that varies is valid for every student or refused (issue 36 point 3): `validate`
builds every version a student can draw when there are at most MOST_TRIED (a sample of
that many past it, drawn with a seed it names), and a version that cannot be built is
the level's problem: `validate` refuses the level, `grade` says so in the student's row
(never blaming their file), and `play` and the menu say so in one line.

The level here is particle-01 with its load set by an expression that divides by zero at
one value inside the range, W = 12 kN, and nowhere at the ends or at the default, so
the old check (the ends of the ranges and the defaults: `extremes`) passed it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from equilibria.app.session.stage import load_stage
from equilibria.cli.main import main
from equilibria.course.level import LevelVersionError, load_level
from equilibria.files.store import BadInput, read_json
from equilibria.rules import variants
from equilibria.rules.variants import drawn_index, values

ROOT = Path(__file__).resolve().parents[1]
BROKEN_AT = 12_000  # [N] W (12 kN) where the load's expression divides by zero


@pytest.fixture
def broken(tmp_path) -> Path:
    data = json.loads((ROOT / "levels" / "particle-01.json").read_text(encoding="utf-8"))
    data["vary"]["set"]["loads[0].fy"] = f"-W / abs(W - {BROKEN_AT}) * 2000"  # -W at the default W = 10,000, as the file holds
    path = tmp_path / "particle-01.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def unlucky(level_path: Path) -> str:
    """A student id whose W is the one that cannot be built."""
    number = load_level(read_json(level_path)).vary.numbers["W"]
    wanted = round((BROKEN_AT - number.min) / number.step)
    return next(s for k in range(100_000) if drawn_index("particle-01", s := f"s{k}", "W", values(number)) == wanted)


def test_the_ends_and_the_default_pass_so_only_every_version_finds_it(broken):
    load_level(read_json(broken))  # what every command reads: the ends of the ranges and the defaults build


def test_validate_builds_every_version_and_refuses_the_level(broken, capsys):
    assert main(["validate", str(broken)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"{broken}: vary: ") and "the weight = 12 kN" in err and "a division by zero" in err, err


def test_validate_says_every_version_was_built(capsys):
    assert main(["validate", str(ROOT / "levels" / "particle-01.json")]) == 0
    out = capsys.readouterr().out
    assert "1,501 versions" in out and "every one of them built" in out


def test_past_the_most_tried_a_sample_with_its_seed_is_said(capsys, monkeypatch):
    monkeypatch.setattr(variants, "MOST_TRIED", 50)
    lines = []
    for _ in range(2):
        assert main(["validate", str(ROOT / "levels" / "particle-01.json")]) == 0
        lines.append(capsys.readouterr().out)
    assert "50 of them built, drawn at random with seed " in lines[0] and lines[0] == lines[1]  # the same seed, the same sample
    level = load_level(read_json(ROOT / "levels" / "particle-01.json"))
    picks, seed = variants.versions_to_try(level)
    assert len(picks) == 50 and f"drawn at random with seed {seed})" in lines[0]


def test_grade_says_the_level_cannot_be_built_for_the_student_and_not_that_their_file_is_wrong(broken, tmp_path, capsys):
    student = unlucky(broken)
    cls = tmp_path / "class"
    for who in (student, "s-lucky"):
        (cls / who).mkdir(parents=True)
        (cls / who / "particle-01.json").write_text((ROOT / "levels" / "solutions" / "particle-01.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["grade", str(broken), str(cls), "--csv", "-", "--workers", "1"]) == 0
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff")))}
    reason = rows[student]["reason"]
    assert reason.startswith(f"{broken}: vary: the numbers of student '{student}' (") and "a division by zero" in reason, reason
    assert "the level is to be mended, not the work" in reason and f"{student}/particle-01.json" not in reason
    assert "the level cannot be built with this student's numbers" in rows[student]["flags"]
    assert "cannot be built" not in rows["s-lucky"]["reason"]


def test_play_and_the_menu_say_it_in_one_line(broken):
    student = unlucky(broken)
    stage = load_stage(broken)
    with pytest.raises(LevelVersionError) as exc:
        stage.drawn_for(student)
    assert isinstance(exc.value, BadInput) and "\n" not in str(exc.value) and str(exc.value).startswith(f"{broken}: vary: ")
    assert stage.drawn_for("s-lucky").level.student == "s-lucky"
