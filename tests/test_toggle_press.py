"""machines-03: a toggle press, and its mechanical advantage (issue 22, point 6: "a
machine (pliers, toggle: mechanical advantage)").

Worked here by hand, the textbook way (the knee pin as a particle), not as the judge
solves the freed body. Links AB and BC, equal, each rising h = 70 mm over a = 240 mm
(length 250 mm; sin θ = 70/250, cos θ = 240/250); the hand pushes the knee B down with
P = 280 N. Both links are two-force members, in compression F_AB and F_BC.

    knee B   ΣFx: F_AB cos θ − F_BC cos θ = 0          → F_AB = F_BC = F
             ΣFy: 2 F sin θ − P = 0                    → F = P / (2 sin θ) = 500 N
    head C   BC pushes it with F along B → C: (F cos θ, −F sin θ) = (480, −140) N;
             the work pushes back along x: K = −F cos θ = −480 N (the press squeezes
             the work with 480 N), the smooth guide holds it up: C = F sin θ = 140 N.
    advantage  F cos θ / P = 1 / (2 tan θ) = a / (2h) = 240/140 = 1.714

The freed body of the level (link BC with the knee pin and the head) takes AB's force
on the knee at B, (F cos θ, F sin θ) = (480, 140) N, C and K. Tolerance 2 % of each
unknown (game/rules/answer.py); each wrong answer below is 4 % or more off one of them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from judging import F, fails, passes

from equilibria.cli.main import main
from equilibria.course.syllabus import load_course
from equilibria.files.store import read_json

LEVELS = Path(__file__).resolve().parents[1] / "levels"
P, A_RUN, H_RISE = 280.0, 0.240, 0.070
SIN, COS = H_RISE / math.hypot(A_RUN, H_RISE), A_RUN / math.hypot(A_RUN, H_RISE)
F_LINK = P / (2 * SIN)
CLAMP = F_LINK * COS
GUIDE = F_LINK * SIN


def answer(f_link: float = F_LINK, clamp: float = CLAMP, guide: float = GUIDE) -> list[dict]:
    return [F("B", f_link * COS, f_link * SIN), F("C", 0.0, guide), F("K", -clamp, 0.0)]


def test_the_hand_figures():
    assert F_LINK == pytest.approx(500.0) and CLAMP == pytest.approx(480.0) and GUIDE == pytest.approx(140.0)
    assert CLAMP / P == pytest.approx(A_RUN / (2 * H_RISE))  # the mechanical advantage, 1.71


def test_the_reference_solution_is_the_hand_answer():
    shipped = read_json(LEVELS / "solutions" / "machines-03.json")["moves"]
    for got, want in zip(shipped, answer(), strict=True):
        assert got["node"] == want["node"]
        assert got.get("fx", 0.0) == pytest.approx(want["fx"], abs=1e-6) and got.get("fy", 0.0) == pytest.approx(want["fy"], abs=1e-6)


def test_the_reference_passes_on_the_command_line_and_stands(capsys):
    assert main(["validate", str(LEVELS / "machines-03.json")]) == 0
    capsys.readouterr()
    code = main(["check", str(LEVELS / "machines-03.json"), "--solution", str(LEVELS / "solutions" / "machines-03.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["passed"], out["reason"]
    assert out["max_displacement"] < 1e-3  # put back at its cuts, it stands: elastic strain only


def test_the_answer_to_three_figures_passes():
    passes("machines-03", [F("B", 480, 140), F("C", 0, 140), F("K", -480, 0)])
    passes("machines-03", [F("B", 481, 140.3), F("C", 0, 140), F("K", -479, 0)])


WRONG = {
    "the factor 2 forgotten: P / tan θ": answer(f_link=2 * F_LINK, clamp=2 * CLAMP, guide=2 * GUIDE),
    "the link's force taken as the clamping force": answer(clamp=F_LINK),
    "the work's push with its sign turned": answer(clamp=-CLAMP),
    "AB's whole force given a lever arm of 240 mm about C": answer(f_link=P * A_RUN / A_RUN, clamp=P * COS, guide=P * SIN),
    "the guide taking the whole hand's push": answer(guide=P),
    "tan θ upside down: P tan θ / 2 for the clamp": answer(clamp=P * (H_RISE / A_RUN) / 2),
}


@pytest.mark.parametrize("name", WRONG)
def test_a_wrong_answer_fails_without_the_number(name):
    reason = fails("machines-03", WRONG[name])
    for figure in ("480", "500", "140", "1.71"):
        assert figure not in reason


def test_a_force_at_b_across_the_link_fails():
    fails("machines-03", [F("B", 480, 0), F("C", 0, 280), F("K", -480, 0)], "two-force member")


def test_the_level_is_in_the_course_beside_the_pliers():
    machines = next(t for t in load_course().topics if t.title == "Frames and machines").levels
    assert machines.index("machines-03") == machines.index("machines-02") + 1
