"""Hints that describe an answer are true: the answer a hint describes is built and checked
by the real judge. Tip or slip (tipping-01, tipping-02): a failure says that the body tips and over which
corner, the hint after it is about tipping, and each level's hints are true: the answers
a hint describes are built here and checked by the real judge (issue 32 point 6).

By hand, the cabinet (1 m wide, 2 m tall, W = 10 kN at its centre E, on corners A (0, 0)
and B (1, 0), μ = 0.5):
- tipping-01, pushed 3 kN right at D (2 m up): about B the push turns it with 6 kN·m, the
  weight holds with 10 × 0.5 = 5 kN·m, so it tips over B unless a force adds at least
  1 kN·m against it: a pull back at E (1 m up) of more than 1 kN, or a press down at A
  (1 m behind B) of more than 1 kN. A force along the floor has no moment about B.
- tipping-02, pushed 6.5 kN right at P (0.4 m up): about B 2.6 kN·m against 5 kN·m, it
  stays on both corners, but the floor gives at most μN = 5 kN. With a force f pulling
  left by fx and pressing down by d: N = 10 + d, so it holds when 6.5 − fx ≤ 0.5 (10 + d),
  i.e. fx + 0.5 d ≥ 1.5 kN.
The margins below are 0.2 kN or more from each edge: the engine's run decides at the edge
itself, within its contact springs' stretch.
"""

from __future__ import annotations

import pytest
from judging import LEVELS

from equilibria.course.level import load_level
from equilibria.engine.model import build_model
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.contact import surfaces
from equilibria.rules.judge import check
from equilibria.rules.variants import version
from equilibria.words.i18n import speaking


def verdict(level_id: str, node: str, fx: float, fy: float):
    lv = load_level(read_json(LEVELS / f"{level_id}.json"))
    work = load_solution({"format": 1, "level": level_id, "moves": [{"type": "add_force", "node": node, "fx": fx, "fy": fy}]})
    with speaking("en"):
        return check(lv, work)


def test_statics_finds_the_corner_it_tips_over():
    lv = load_level(read_json(LEVELS / "tipping-01.json"))
    (floor,) = surfaces(build_model(lv.model_data(), statics_only=True))
    assert floor.tips_over == "B"
    data = lv.model_data()
    data["loads"] = [*data["loads"], {"node": "E", "fx": -1500.0}]
    (held,) = surfaces(build_model(data, statics_only=True))
    assert held.tips_over is None


def test_a_force_along_the_floor_tips_the_cabinet_and_the_verdict_says_over_which_corner():
    v = verdict("tipping-01", "B", -2000.0, 0.0)
    assert not v.passed
    assert "tips over B" in v.reason and "lifting off at A" in v.reason
    hint = v.figures["hint"]
    assert "moments about B" in hint and "Too flexible" not in hint and "stiffer members" not in hint


@pytest.mark.parametrize(
    ("node", "fx", "fy", "passes"),
    [
        ("E", -1200.0, 0.0, True),  # pulled back at E: 1.2 kN × 1 m > 1 kN·m
        ("A", 0.0, -1200.0, True),  # pressed down at A: 1.2 kN × 1 m
        ("E", -800.0, 0.0, False),  # 0.8 kN·m: short of 1
        ("A", 2000.0, 0.0, False),  # along the floor: no moment about B
    ],
)
def test_tipping_01_s_third_hint_is_true(node, fx, fy, passes):
    v = verdict("tipping-01", node, fx, fy)
    assert v.passed is passes, v.reason
    if not passes:
        assert "tips over B" in v.reason


@pytest.mark.parametrize(
    ("fx", "fy", "passes"),
    [
        (-1700.0, 0.0, True),  # a pull alone: 1.7 ≥ 1.5
        (-1100.0, -1600.0, True),  # 1.1 + 0.5 × 1.6 = 1.9 ≥ 1.5 (the hint once said this fails)
        (-1200.0, 0.0, False),  # 1.2 < 1.5
        (0.0, -2000.0, False),  # a press alone: 0.5 × 2 = 1 < 1.5
    ],
)
def test_tipping_02_s_third_hint_is_true(fx, fy, passes):
    v = verdict("tipping-02", "E", fx, fy)
    assert v.passed is passes, v.reason
    if not passes:
        assert "slides" in v.reason
    with speaking("en"):  # the file's hint holds placeholders ({mu|num}): the level's own numbers filled in
        hint = version(load_level(read_json(LEVELS / "tipping-02.json"))).hints[2]
    assert "0.5 times what it presses down" in hint


# ---------------------------------------------------------------- other hints that describe an answer
def two(level_id: str, *forces):
    lv = load_level(read_json(LEVELS / f"{level_id}.json"))
    moves = [{"type": "add_force", "node": n, "fx": fx, "fy": fy} for n, fx, fy in forces]
    with speaking("en"):
        return check(lv, load_solution({"format": 1, "level": level_id, "moves": moves}))


def test_balance_03_s_third_hint_holds_the_bracket():
    """G pulls up 12 kN, F down 6 kN, and the wind's 2 kN taken at either (both act on the
    wind's own line, y = 2 m: no moment about F): passes both ways."""
    assert two("balance-03", ("G", -2000.0, 12000.0), ("F", 0.0, -6000.0)).passed
    assert two("balance-03", ("G", 0.0, 12000.0), ("F", -2000.0, -6000.0)).passed
    assert not two("balance-03", ("G", 0.0, 6000.0), ("F", -2000.0, 0.0)).passed  # the first hint's "not enough": it turns


def test_balance_02_s_second_hint_a_and_c_would_need_too_much():
    """Hooks at A (1 m left of D) and C (5 m right): ΣM_D gives A = 5 C and A + C = 12 kN,
    so A = 10 kN, more than the 9 kN a hook can pull: the most a hook gives fails."""
    assert not two("balance-02", ("A", 0.0, 9000.0), ("C", 0.0, 3000.0)).passed


@pytest.mark.parametrize(("push", "passes"), [(3000.0, True), (3900.0, True), (2600.0, False)])
def test_friction_01_s_third_hint_the_least_push_up_the_slope(push, passes):
    """W (sin 30° − μ cos 30°) = 10 × (0.5 − 0.25 × 0.866) = 2.83 kN at least, up the slope
    (cos 30°, sin 30°), anything from there to the 4 kN allowed."""
    v = two("friction-01", ("E", push * 0.8660254, push * 0.5))
    assert v.passed is passes, v.reason
