"""The unique answer of a free-body level (game/rules/answer.py `solve_cuts`), computed
from the level's own numbers: it equals every shipped free-body level's reference
solution and a few hand computations (closed forms written here), and says None where
the cuts are not statically determinate.

Tolerance: 1e-6 relative (plus 1e-6 N absolute). The solve is a 3 × 3 linear system in
double precision; the reference files and hand figures are exact or given to 7 figures
(friction-02's 186.5231 N), hence the 1e-6 for that one."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from builders import own_numbers

from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.rules.answer import solve_cuts, solve_values

LEVELS = Path(__file__).resolve().parents[1] / "levels"
FREE_BODY = sorted(p.stem for p in LEVELS.glob("*.json") if p.stem != "level.schema" and json.loads(p.read_text()).get("kind") == "free_body")


def level(level_id: str, **change):
    data = read_json(LEVELS / f"{level_id}.json")
    data = own_numbers(data) if change else data  # taken apart: its own numbers, its texts filled for the level as written
    data.update(change)
    return load_level(data)


# free-body-01 with other cuts has no unique answer, so its explanation, which states the
# student's answer ({A.fy|abs}, …), cannot be filled: these variants say what passes instead
OTHER_CUTS = "With these cuts the level has no unique answer: the sums judge."


def as_table(moves) -> dict:
    """{(node, 'f'): (fx, fy)} and {(node, 'm'): m} of a list of moves (objects or dicts)."""
    out = {}
    for m in moves:
        m = m if isinstance(m, dict) else m.model_dump()
        if m["type"] == "add_force":
            out[(m["node"], "f")] = (m.get("fx", 0.0), m.get("fy", 0.0))
        else:
            out[(m["node"], "m")] = (m.get("m", 0.0),)
    return out


def close(a, b, rel=1e-6, floor=1e-3):
    return all(math.isclose(x, y, rel_tol=rel, abs_tol=floor) for x, y in zip(a, b, strict=True))


def test_every_free_body_level_is_checked():
    assert len(FREE_BODY) >= 10


@pytest.mark.parametrize("level_id", FREE_BODY)
def test_the_answer_is_the_reference_solution(level_id):
    got = as_table(solve_cuts(level(level_id)))
    ref = as_table(read_json(LEVELS / "solutions" / f"{level_id}.json")["moves"])
    assert got.keys() == ref.keys()
    for key in ref:
        assert close(got[key], ref[key], rel=1e-6, floor=1e-2), (key, got[key], ref[key])


def test_hand_free_body_01_a_beam_with_an_overhang():
    # Load (3, −9) kN at the free end, 6 m from A, the roller 4 m from A: ΣM_A: B·4 = 9·6 →
    # B = 13.5 kN; Ay = 9 − 13.5 = −4.5 kN (the pin pulls down); Ax = −3.
    got = as_table(solve_cuts(level("free-body-01")))
    assert close(got[("A", "f")], (-3000.0, -4500.0)) and close(got[("B", "f")], (0.0, 13500.0))


def test_hand_friction_02_the_ladder_against_a_smooth_wall():
    # ΣM_A: P·L sin θ = W (L/2) cos θ → P = W / (2 tan θ), θ = 65°, W = 800 N.
    p = 800.0 / (2 * math.tan(math.radians(65)))
    got = as_table(solve_cuts(level("friction-02")))
    assert close(got[("B", "f")], (p, 0.0), rel=2e-4) and close(got[("A", "f")], (-p, 800.0), rel=2e-4)  # the nodes are given to 5 figures


def test_hand_machines_01_the_pin_force_along_the_two_force_leg():
    # ΣM_A: 16 kN × 1.5 m = F (4/5 · 3 + 3/5 · 4) = 4.8 F → F = 5 kN along (−3, 4)/5.
    values = {u.words: v for u, v in solve_values(level("machines-01"))}
    assert math.isclose(values["the force of the pin at C"], 5000.0, rel_tol=1e-9)
    got = as_table(solve_cuts(level("machines-01")))
    assert close(got[("A", "f")], (3000.0, 12000.0))


def test_hand_beam_02_a_triangular_load_counts_at_its_centroid():
    # Resultant ½ · 3 kN/m · 6 m = 9 kN at 4 m from A: B = 9 · 4 / 6 = 6 kN, A = 3 kN.
    got = as_table(solve_cuts(level("beam-02")))
    assert close(got[("A", "f")], (0.0, 3000.0)) and close(got[("B", "f")], (0.0, 6000.0))


def test_hand_sections_01_member_forces_are_tension_positive():
    # About F: BC · 4 = 18 · 3 → 13.5 kN tension; about C: FG · 4 = 18 · 6 − 12 · 3 → 18 kN compression.
    values = {u.words: v for u, v in solve_values(level("sections-01"))}
    assert math.isclose(values["the force in bar BC at S3"], 13500.0, rel_tol=1e-9)
    assert math.isclose(values["the force in bar FG at S1"], -18000.0, rel_tol=1e-9)
    assert math.isclose(values["the force in bar FC at S2"], 7500.0, rel_tol=1e-9)


def test_no_unique_answer_when_the_cuts_are_indeterminate():
    # Both supports pins: four unknowns for three equations.
    cut = [{"node": "A", "what": "support", "carries": ["x", "y"]}, {"node": "B", "what": "support", "carries": ["x", "y"]}]
    assert solve_cuts(level("free-body-01", cut=cut, explanation=OTHER_CUTS)) is None


def test_no_unique_answer_when_the_cuts_are_a_mechanism():
    # Two rollers: nothing can balance the load's 3 kN to the right.
    cut = [{"node": "A", "what": "support", "carries": ["y"]}, {"node": "B", "what": "support", "carries": ["y"]}]
    assert solve_cuts(level("free-body-01", cut=cut, explanation=OTHER_CUTS)) is None


def test_without_a_unique_answer_the_sums_judge(tmp_path):
    """free-body-01 with both supports pins: four unknowns, three equations, so any split
    of the 3 kN x reaction between A and B is right; the sums decide, each against its own
    forces (game/rules/equilibrium.py), and a misread lever arm still fails."""
    from equilibria.format.solution import load_solution
    from equilibria.rules.judge import check

    cut = [{"node": "A", "what": "support", "carries": ["x", "y"]}, {"node": "B", "what": "support", "carries": ["x", "y"]}]
    lv = level("free-body-01", cut=cut, explanation=OTHER_CUTS)

    def judged(a, b):
        moves = [{"type": "add_force", "node": "A", "fx": a[0], "fy": a[1]}, {"type": "add_force", "node": "B", "fx": b[0], "fy": b[1]}]
        return check(lv, load_solution({"format": 1, "level": "free-body-01", "moves": moves}))

    for a, b in (((-3000, -4500), (0, 13500)), ((-1500, -4500), (-1500, 13500))):
        v = judged(a, b)
        assert v.passed and v.figures["judged"] == "equilibrium", v.reason
    b = math.hypot(3, 9) * 1000 * 6 / 4  # the inclined load's moment as |F| × 6 m
    v = judged((-3000, 9000 - b), (0, b))
    assert not v.passed and "ΣM about A" in v.reason


def test_the_balance_rule_rejects_the_ladder_s_length_for_its_height():
    """friction-02 with the wall's cut carrying x and y (four unknowns: the sums judge, as on
    a balance level). The wall's push from P·L = W (L/2) cos 65° (length for height):
    0.169 kN; ΣM_A = 800 N × 1.057 m − 169 N × 4.53 m = +79 N·m, against 2 % of ½(845 + 766)
    = 16 N·m, or the floor 1 % × 800 N × 2.5 m (half the ladder, the shortest gap) = 20 N·m."""
    from equilibria.format.solution import load_solution
    from equilibria.rules.judge import check

    cut = [{"node": "A", "what": "support", "carries": ["x", "y"]}, {"node": "B", "what": "support", "carries": ["x", "y"]}]
    lv = level("friction-02", cut=cut)
    p = 800 * math.cos(math.radians(65)) / 2
    moves = [{"type": "add_force", "node": "A", "fx": -p, "fy": 800.0}, {"type": "add_force", "node": "B", "fx": p}]
    v = check(lv, load_solution({"format": 1, "level": "friction-02", "moves": moves}))
    assert not v.passed and v.figures["judged"] == "equilibrium" and v.figures["off"] == ["m"]
    assert v.figures["tolerance"]["m"] == pytest.approx(20.0, rel=1e-3)
    right = 800 / (2 * math.tan(math.radians(65)))
    moves = [{"type": "add_force", "node": "A", "fx": -right, "fy": 800.0}, {"type": "add_force", "node": "B", "fx": right}]
    assert check(lv, load_solution({"format": 1, "level": "friction-02", "moves": moves})).passed
