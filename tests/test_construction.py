"""Build and stability rules: every rule of the level is enforced with a reason a
student understands, the engine decides what holds, and a mechanism's free motion is
named. The levels here are small and inline so that each test shows its whole case.

The bridge: an 8 m deck A–E of four bars on a pin (A) and a roller (E), three 10 kN
loads at B, C, D. A Pratt truss 2 m deep carries them: the end diagonals take
15 kN / sin 45° = 21.2 kN of compression (the light tube buckles at π²EI/L² = 28.6 kN
over 2.83 m), the top chord 20 kN. Hand statics, not the code, set these numbers.
"""

import copy
import json
import math

import pytest

from equilibria.course.level import load_level
from equilibria.format.solution import load_solution
from equilibria.rules.common import Verdict
from equilibria.rules.construction import inside
from equilibria.rules.judge import check, marks

LIGHT = {"material": "steel", "A": 4.5e-4, "I": 1.16e-7, "cost": 100}  # CHS 48.3 × 3.2
HEAVY = {"material": "steel", "A": 1.07e-3, "I": 9.7e-7, "cost": 220}  # CHS 88.9 × 4
DECK = {"material": "steel", "A": 1.07e-3, "I": 9.7e-7}

BRIDGE = {
    "format": 1,
    "id": "bridge-test",
    "title": "Test bridge",
    "kind": "build",
    "world": {"gravity": 9.81, "damping": 0.05, "breakable": True},
    "materials": {"steel": {"E": 200e9, "density": 7850, "strength": 250e6}},
    "nodes": [{"id": k, "x": 2.0 * n, "y": 0.0} for n, k in enumerate("ABCDE")],
    "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "E", "fix": ["y"]}],
    "members": [{"id": a + b, "i": a, "j": b, **DECK} for a, b in ("AB", "BC", "CD", "DE")],
    "loads": [{"node": k, "fy": -10e3, "history": [[0, 0], [1, 1]]} for k in "BCD"],
    "goal": {"hold": 1.0, "max_displacement": 0.02},
    "player": {"zone": [[0, 0], [8, 0], [8, 3], [0, 3]], "budget": 4000, "node_cost": 50, "sections": {"light": LIGHT, "heavy": HEAVY}},
}


def node(nid, x, y):
    return {"type": "add_node", "id": nid, "x": x, "y": y}


def bar(mid, i, j, section="light"):
    return {"type": "add_member", "id": mid, "i": i, "j": j, "section": section}


PRATT = [
    node("F", 2, 2),
    node("G", 4, 2),
    node("H", 6, 2),
    *(bar(a + b, a, b) for a, b in ("AF", "FG", "GH", "HE", "BF", "CG", "DH", "FC", "HC")),
]


def judge(level: dict, moves: list, **solution):
    return check(load_level(level), load_solution({"format": 1, "level": level["id"], "moves": moves, **solution}))


def edited(level: dict, **changes) -> dict:
    out = copy.deepcopy(level)
    for key, value in changes.items():
        section, _, field = key.partition("__")
        if field:
            out[section][field] = value
        else:
            out[section] = value
    return out


def test_a_pratt_truss_carries_the_deck_and_its_cost_is_the_score():
    verdict = judge(BRIDGE, PRATT)
    assert verdict.passed, verdict.reason
    cost = 3 * 50 + 100 * (5 * 2 + 4 * math.sqrt(8))  # 5 members of 2 m, 4 diagonals
    assert verdict.figures["score"] == pytest.approx(cost)
    assert "It holds" in verdict.reason and "$2,281 of $4,000" in verdict.reason
    assert verdict.figures["at_rest"] and not verdict.figures["broken"]
    # the end diagonals, 21.2 kN of a 28.6 kN buckling load, are the most loaded (74 %
    # statically, more while the loads come on)
    assert verdict.figures["most_loaded"]["member"] in ("AF", "HE")
    assert 0.74 < verdict.figures["most_loaded"]["utilisation"] < 1.0


def test_a_missing_diagonal_leaves_a_mechanism_named_in_the_reason():
    verdict = judge(BRIDGE, PRATT[:-1])
    assert not verdict.passed
    assert verdict.reason.startswith("It is a mechanism, not a structure:")
    assert "H" in verdict.figures["moving_nodes"] and "A" not in verdict.figures["moving_nodes"]


def test_a_member_that_buckles_is_named_with_its_buckling_load():
    """Ten times the load: the end diagonal AF needs 212 kN and buckles at 28.6 kN."""
    heavy_loads = edited(BRIDGE, loads=[{"node": k, "fy": -100e3, "history": [[0, 0], [1, 1]]} for k in "BCD"])
    verdict = judge(heavy_loads, PRATT)
    assert not verdict.passed
    first = verdict.figures["broken"][0]
    assert first["how"] == "buckled" and first["member"] in ("AF", "HE", "FG", "GH")
    euler = math.pi**2 * 200e9 * LIGHT["I"] / (8.0 if first["member"] in ("AF", "HE") else 4.0)
    assert first["capacity"] == pytest.approx(euler, rel=1e-9)
    assert f"Member {first['member']} buckled" in verdict.reason and "π²EI/L²" in verdict.reason


def test_a_bridge_that_sags_past_the_limit_fails_with_the_figures():
    """Stiff enough not to break but the limit is 1 mm: the Pratt truss sags 2–3 mm."""
    verdict = judge(edited(BRIDGE, goal__max_displacement=0.001), PRATT)
    assert not verdict.passed and "the limit is 1 mm" in verdict.reason
    assert verdict.figures["max_displacement"] > 0.001


def test_a_moving_load_crosses_before_the_hold():
    """A 20 kN vehicle crosses at 4 m/s; the loads histories make it take 2 s."""
    level = edited(BRIDGE, loads=[], goal={"hold": 1.0, "max_displacement": 0.02, "moving_load": {"path": list("ABCDE"), "fy": -20e3, "speed": 4.0}})
    data = load_level(level).model_data()
    assert [ld["node"] for ld in data["loads"]] == list("ABCDE")
    assert data["loads"][2]["history"] == [[1.5, 0.0], [2.0, 1.0], [2.5, 0.0]]  # C is reached 4 m in
    verdict = judge(level, PRATT)
    assert verdict.passed, verdict.reason
    assert verdict.figures["time"] > 3.5  # crossing done at 3.5 s, then at rest for 1 s


@pytest.mark.parametrize(
    ("level", "moves", "reason"),
    [
        (BRIDGE, [*PRATT[:2], node("H", 6, 3.5), *PRATT[3:]], "Node H at (6 m, 3.5 m) is outside the build zone."),
        (edited(BRIDGE, player__budget=2000), PRATT, "This design costs $2,281; the budget is $2,000."),
        (edited(BRIDGE, player__max_members=8), PRATT, "You may add at most 8 members; this design adds 9."),
        (edited(BRIDGE, player__max_length=2.5), PRATT, "Member AF is 2.83 m long; the longest allowed is 2.5 m."),
        (BRIDGE, [*PRATT, bar("FA", "F", "A")], "Member FA doubles AF between F and A."),
        (BRIDGE, [*PRATT, node("X", 4, 0), bar("XC", "X", "C")], "This design cannot be built: member 'XC' has zero length (nodes coincide)."),
    ],
    ids=["zone", "budget", "member count", "length", "doubled member", "zero length"],
)
def test_the_levels_rules_are_enforced_with_a_reason(level, moves, reason):
    verdict = judge(level, moves)
    assert not verdict.passed and verdict.reason == reason


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([bar("AF", "A", "F")], "moves[0].j: unknown node 'F'"),
        ([node("F", 2, 2), bar("AF", "A", "F", "gold")], "moves[1].section: unknown section 'gold' (this level offers heavy, light)"),
        ([node("B", 2, 2)], "moves[0].id: node 'B' already exists"),
        ([node("F", 2, 2), bar("AB", "A", "F")], "moves[1].id: member 'AB' already exists"),
        ([{"type": "add_support", "node": "C", "fix": ["x", "y"]}], "moves[0].fix: this level does not offer a support fixing x, y (it offers: none)"),
        ([{"type": "add_force", "node": "C", "fy": 1.0}], "moves[0].type: a build level does not allow add_force"),
    ],
)
def test_a_solution_naming_what_does_not_exist_is_rejected(moves, message):
    with pytest.raises(ValueError) as err:
        judge(BRIDGE, moves)
    assert str(err.value) == message


# ------------------------------------------------------------------ stability

PORTAL = {
    "format": 1,
    "id": "portal-test",
    "title": "Test portal",
    "kind": "stability",
    "world": {"gravity": 9.81, "damping": 0.05},
    "materials": {"steel": {"E": 200e9, "density": 7850, "strength": 250e6}},
    "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 4, "y": 0}, {"id": "C", "x": 0, "y": 3}, {"id": "D", "x": 4, "y": 3}],
    "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["x", "y"]}],
    "members": [{"id": a + b, "i": a, "j": b, **DECK} for a, b in ("AC", "CD", "BD")],
    "loads": [{"node": "C", "fx": 2e3, "history": [[0, 0], [0.5, 1]]}],
    "goal": {"hold": 1.0},
    "player": {"sections": {"brace": LIGHT}, "budget": 1000, "supports": [["x", "y"], ["x"]], "support_cost": 300, "nodes": ["C", "D"]},
}


def test_a_pin_jointed_portal_is_a_mechanism_that_sways():
    verdict = judge(PORTAL, [])
    assert not verdict.passed
    assert verdict.reason == "Still a mechanism: nodes C and D can slide sideways together."


@pytest.mark.parametrize(
    "moves",
    [[bar("AD", "A", "D", "brace")], [bar("BC", "B", "C", "brace")], [{"type": "add_support", "node": "D", "fix": ["x"]}]],
    ids=["brace AD", "brace BC", "roller at D"],
)
def test_a_brace_or_a_support_makes_it_stable(moves):
    verdict = judge(PORTAL, moves)
    assert verdict.passed, verdict.reason
    assert verdict.reason.startswith("Stable:")


def test_stability_rules_budget_and_support_places():
    exactly = judge(PORTAL, [bar("AD", "A", "D", "brace"), bar("BC", "B", "C", "brace")])  # 2 × 5 m × $100
    assert exactly.passed and exactly.figures["cost"] == pytest.approx(1000.0)
    assert judge(edited(PORTAL, player__budget=900), [bar("AD", "A", "D", "brace"), bar("BC", "B", "C", "brace")]).reason == (
        "This design costs $1,000; the budget is $900."
    )
    wrong_place = judge(edited(PORTAL, player__nodes=["D"]), [{"type": "add_support", "node": "C", "fix": ["x"]}])
    assert wrong_place.reason == "Supports may go at D, not at C."
    with pytest.raises(ValueError, match="a stability level does not allow add_node"):
        judge(PORTAL, [node("E", 2, 3)])


def test_the_free_motion_is_named_turning_about_a_node():
    """A bar hanging from one pin at A turns about A."""
    level = edited(
        PORTAL,
        nodes=[{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 3, "y": 0}],
        supports=[{"node": "A", "fix": ["x", "y"]}],
        members=[{"id": "AB", "i": "A", "j": "B", **DECK}],
        loads=[],
        player={"sections": {"brace": LIGHT}, "supports": [["x", "y"], ["y"]]},
    )
    assert judge(level, []).reason.startswith("Still a mechanism: node B can turn about node A. The lines of all the support reactions pass through node A")
    assert judge(level, [{"type": "add_support", "node": "B", "fix": ["y"]}]).passed


def test_a_stability_level_that_is_already_stable_is_refused():
    braced = edited(PORTAL, members=[*PORTAL["members"], {"id": "AD", "i": "A", "j": "D", **DECK}])
    with pytest.raises(ValueError, match="already stable"):
        load_level(braced)


def test_player_fields_belong_to_their_kind():
    with pytest.raises(ValueError, match=r"player: zone is not used by a stability level"):
        load_level(edited(PORTAL, player__zone=[[0, 0], [1, 0], [1, 1]]))
    with pytest.raises(ValueError, match=r"player.sections.brace.material: unknown material 'wood'"):
        load_level(edited(PORTAL, player__sections={"brace": {**LIGHT, "material": "wood"}}))


def test_inside_counts_the_edge_and_excludes_the_outside():
    square = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]
    assert inside((1, 1), square) and inside((2, 1), square) and inside((0, 0), square)
    assert not inside((2.01, 1), square) and not inside((-1, -1), square)
    l_shape = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    assert inside((0.5, 1.5), l_shape) and not inside((1.5, 1.5), l_shape)


def test_marks_fall_with_each_try_and_never_below_the_floor():
    assert [marks(t) for t in (1, 2, 3, 4, 5, 9)] == [100, 80, 60, 40, 40, 40]
    with pytest.raises(ValueError):
        marks(0)


def test_a_verdict_with_a_run_that_blew_up_is_still_strict_json():
    verdict = Verdict(False, "collapsed", {"max_displacement": math.inf, "broken": [{"time": math.nan}]})
    text = json.dumps(verdict.as_dict(), allow_nan=False)
    assert json.loads(text)["max_displacement"] is None and json.loads(text)["broken"] == [{"time": None}]


@pytest.mark.parametrize(
    ("supports", "words"),
    [
        (
            [],
            "6 free motions: nothing holds nodes A, B and C: no support touches them, so they can slide and turn freely; "
            "nothing holds nodes D and E: no support touches them, so they can slide and turn freely",
        ),
        (
            [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
            "nothing holds nodes D and E: no support touches them, so they can slide and turn freely",
        ),
    ],
    ids=["nothing held: both parts float", "a loose bar beside a held truss"],
)
def test_a_part_no_support_touches_is_said_to_float_not_to_turn_about_some_point(supports, words):
    from builders import member, model

    from equilibria.engine.linear import mechanism
    from equilibria.engine.model import build_model
    from equilibria.rules.motion import describe_motion

    nodes = [("A", 0, 0), ("B", 2, 0), ("C", 1, 1), ("D", 4, 0), ("E", 5, 1)]
    members = [member("AB", "A", "B"), member("BC", "B", "C"), member("CA", "C", "A"), member("DE", "D", "E")]
    built = build_model(model(nodes, members, supports), statics_only=True)
    assert describe_motion(built, mechanism(built)) == words
    whole = build_model(model(nodes[:3], members[:3]), statics_only=True)
    assert describe_motion(whole, mechanism(whole)) == "nothing holds the whole structure: no support touches it, so it can slide and turn freely"
