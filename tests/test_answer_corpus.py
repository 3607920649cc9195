"""Answers written the way students make them, for every free-body and balance level
(tests/corpus/answers/LEVEL/NAME.json; manifest.json says what each student did), run
through `equilibria check`: every `wrong-*` fails, every `right-*` passes, and no failed
verdict gives a number the student could add to a force to pass (no kN figure, except the
student's own force against the most allowed) nor does the hint chosen from the mistake.

The mistakes: a sense reversed (one force, or every force), a force forgotten, x and y
parts swapped, a lever arm misread (10 % long, or force × distance for an inclined force,
or the ladder's length for its height), a moment taken about the wrong point, sin and cos
swapped in a member's angle; for balance levels also the shares of a lever swapped, a
couple on one line, the wind forgotten; for friction the frictionless push, μW for μN,
pushing the wrong way. The right ones: the answer rounded to three significant figures,
and other right answers (another couple, another point on the line of action).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.rules.common import Verdict
from equilibria.rules.hints import mistake_hint

ROOT = Path(__file__).resolve().parent
CORPUS = ROOT / "corpus" / "answers"
LEVELS = ROOT.parent / "levels"
MANIFEST = read_json(CORPUS / "manifest.json")
FILES = sorted(p for p in CORPUS.glob("*/*.json"))
A_FIGURE = re.compile(r"\d+(\.\d+)? kN")


def kind(level_id: str) -> str:
    return read_json(LEVELS / f"{level_id}.json")["kind"]


def test_every_free_body_and_balance_level_has_wrong_and_right_answers_and_each_is_described():
    numeric = ("free_body", "balance", "section")  # the kinds that ask for numbers
    wanted = {p.stem for p in LEVELS.glob("*.json") if p.stem not in ("course", "level.schema") and kind(p.stem) in numeric}
    assert {p.parent.name for p in FILES} == wanted
    for lid in wanted:
        names = {p.stem for p in FILES if p.parent.name == lid}
        assert any(n.startswith("wrong-") for n in names) and any(n.startswith("right-rounded") for n in names), lid
        assert names == set(MANIFEST[lid]), lid
    mistakes = {n.removeprefix("wrong-") for lid in wanted for n in MANIFEST[lid] if n.startswith("wrong-")}
    assert {"sign", "lever-arm", "missing", "components-swapped", "moment-point"} <= mistakes
    assert len(FILES) >= 140


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_the_answer_is_judged_as_a_teacher_would(path, capsys):
    code = main(["check", path.parent.name, "--solution", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    if path.stem.startswith("right-"):
        assert code == 0 and out["passed"], (MANIFEST[path.parent.name][path.stem], out["reason"])
        return
    assert code == 1 and not out["passed"], MANIFEST[path.parent.name][path.stem]
    reason = out["reason"]
    if "at most" not in reason:  # the student's own force against the limit may be named
        assert not A_FIGURE.search(reason), reason
    level = load_level(read_json(LEVELS / f"{path.parent.name}.json"))
    own = mistake_hint(level, Verdict(False, reason, {k: v for k, v in out.items() if k not in ("passed", "reason")}))
    assert not A_FIGURE.search(own), own


def test_the_issue_s_two_lever_arm_mistakes_fail_by_hand_statics(capsys):
    """friction-02: P = W cos 65° / 2 = 0.169 kN (the ladder's length for the height of B)
    is 9.4 % below W / (2 tan 65°) = 0.187 kN; free-body-01: B = √(3² + 9²) × 6 / 4 =
    14.2 kN (|F| × 6 m for the inclined load) is 5.4 % above 13.5 kN. Both are more than 2 %
    and more than the floor (1 % of the largest load: 8 N and 95 N) off."""
    import math

    right, wrong = 800 / (2 * math.tan(math.radians(65))), 800 * math.cos(math.radians(65)) / 2
    assert (right - wrong) / right == pytest.approx(0.094, abs=1e-3) and right - wrong > 8
    assert math.hypot(3, 9) * 6 / 4 - 13.5 == pytest.approx(0.731, abs=1e-3)  # 5.4 % of 13.5 kN
    for lid, name in (("friction-02", "wrong-length-for-height"), ("free-body-01", "wrong-inclined-force-times-distance")):
        assert main(["check", lid, "--solution", str(CORPUS / lid / f"{name}.json"), "--json"]) == 1
        out = json.loads(capsys.readouterr().out)
        assert "ΣM about A" in out["reason"] and "Not right:" in out["reason"]
