"""The course's stability and build levels outside the bridges: tutorial-03/04,
supports-01..03, frames-01..03. Each reference solution passes; the likely mistakes
fail with a reason naming what is wrong. The expectations are hand statics:

- a pin stops translation, not rotation; a roller gives one reaction along its axis;
- three reactions hold a rigid body unless parallel (it slides) or concurrent (it turns);
- a pin-jointed rectangle sways; a cable brace works only while the sway stretches it;
- a fixed base resists by a moment; a cantilever tip deflects PL³/3EI (frames-03:
  4 kN over 3 m on IPE 200 is 9.3 mm, plus 1.7 mm from the beam's and the sign's weight).
"""

from pathlib import Path

import pytest

from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check

LEVELS = Path(__file__).resolve().parents[1] / "levels"
PIN, ROLLER_Y, ROLLER_X, FIXED = ["x", "y"], ["y"], ["x"], ["x", "y", "rot"]


def judge(name: str, moves: list):
    level = load_level(read_json(LEVELS / f"{name}.json"))
    return check(level, load_solution({"format": 1, "level": name, "moves": moves}))


def support(node, fix):
    return {"type": "add_support", "node": node, "fix": fix}


def member(mid, section):
    return {"type": "add_member", "id": mid, "i": mid[0], "j": mid[1], "section": section}


@pytest.mark.parametrize(
    ("name", "moves", "reason"),
    [
        ("tutorial-03", [], "Still a mechanism: node B can turn about node A."),
        ("tutorial-03", [support("B", ROLLER_X)], "Still a mechanism: node B can turn about node A."),
        ("tutorial-04", [member("BC", "tube")], "It is a mechanism, not a structure: node C can turn about node B."),
        ("tutorial-04", [member("AC", "cable"), member("BC", "cable")], "Cable AC went slack: a cable can pull but never push."),
        ("supports-01", [support("A", ROLLER_Y), support("D", ROLLER_Y)], "Still a mechanism: the whole structure can slide sideways."),
        ("supports-01", [support("B", PIN), support("C", ROLLER_X)], "Still a mechanism: nodes A, C and D can turn together about node B."),
        ("supports-02", [support("A", PIN)], "Still a mechanism: nodes B and C can turn together about node A."),
        ("supports-03", [support("B", ROLLER_Y), support("C", ROLLER_Y)], "Still a mechanism: the whole structure can slide sideways."),
        ("frames-01", [], "Still a mechanism: nodes D, E and F can slide sideways together."),
        ("frames-01", [member("DB", "cable")], "Cable DB went slack: a cable can pull but never push."),
        ("frames-01", [member("AE", "tube"), member("BF", "tube")], "This design costs $1,000; the budget is $600."),
        ("frames-02", [support("A", PIN), support("B", PIN)], "Still a mechanism: nodes C and D can slide sideways together."),
        ("frames-02", [support("A", FIXED), support("B", FIXED), support("C", PIN)], "You may add at most 2 supports; this design adds 3."),
        ("frames-03", [member("AB", "IPE 200")], "Node B moved 11.2 mm; the limit is 10 mm. Make it stiffer."),
        ("frames-03", [member("AB", "IPE 300")], "This design costs $1,350; the budget is $1,000."),
    ],
)
def test_a_likely_mistake_fails_with_its_reason(name, moves, reason):
    verdict = judge(name, moves)
    assert not verdict.passed
    assert reason in verdict.reason, verdict.reason


@pytest.mark.parametrize(
    ("name", "moves"),
    [
        ("tutorial-03", [support("B", PIN)]),
        ("supports-01", [support("B", ROLLER_Y), support("C", PIN)]),
        ("supports-01", [support("A", PIN), support("D", PIN)]),
        ("supports-03", [support("B", ROLLER_X), support("C", ROLLER_X)]),
        ("frames-01", [member("DB", "tube")]),
        ("frames-02", [support("A", PIN), support("B", FIXED)]),
    ],
)
def test_other_right_answers_pass(name, moves):
    verdict = judge(name, moves)
    assert verdict.passed, verdict.reason


def test_the_stayed_sign_is_cheaper_than_any_cantilever_that_passes():
    """frames-03: the score is the cost; IPE 100 stayed by a cable ($468) beats every
    cantilever, of which only IPE 300 would be stiff enough, and it is over budget."""
    stayed = judge("frames-03", [member("AB", "IPE 100"), member("WB", "cable")])
    assert stayed.passed and stayed.figures["score"] == pytest.approx(3 * 120 + 30 * 13**0.5)
    assert stayed.figures["max_displacement"] < 0.002
