"""Bridges on a budget (bridge-01 … bridge-06): build levels judged by the engine.

Each level ships a reference design that passes with a margin and within its budget; its
score is its cost, recomputed here from member lengths and section prices. A student's
likely mistakes fail with a reason that says what is wrong. The forces behind the levels
were worked out by hand (method of joints and sections, Euler buckling π²EI/L² for pushed
members, influence lines for the moving loads), then checked with the engine:

    bridge-01  6 m, 2 × 10 kN      Pratt truss 2 m deep; end diagonals pushed 14.7 kN, light buckles at 28.6
    bridge-02  12 m, 5 × 40 kN     Pratt, heavy top chord (−180 kN) and end diagonals,
                                   light inner diagonals (+85 kN of 113 kN in tension)
    bridge-03  10 m, 80 kN truck   the middle diagonal sees ±45 kN: light buckles at 28.6 kN
    bridge-04  12 m, 5 × 40 kN     parabolic arch from the rock ledges (−180 kN), thin deck
    bridge-05  16 m, 7 × 20 kN     cable stays from two 7 m masts, backstays to anchors
    bridge-06  20 m, 150 kN truck  Pratt 3.5 m deep: stiffness (30 mm) decides, not strength
"""

import json
import math
from pathlib import Path

import pytest
from builders import english

from equilibria.cli.main import main
from equilibria.files.store import read_json

LEVELS = Path(__file__).resolve().parents[1] / "levels"
BRIDGES = [f"bridge-0{n}" for n in range(1, 7)]
R8 = math.sqrt(8.0)  # a 2 m × 2 m panel's diagonal [m]

# The reference designs' costs by hand: joints × node cost + Σ section price × length.
HAND_COST = {
    "bridge-01": 2 * 50 + 100 * (3 * 2 + 3 * R8),
    "bridge-02": 5 * 50 + 220 * (4 * 2 + 2 * R8) + 100 * (5 * 2 + 4 * R8),
    "bridge-03": 4 * 50 + 220 * (3 * 2 + 3 * R8) + 100 * (4 * 2 + 2 * R8),
    "bridge-04": 5 * 50
    + 220 * 2 * (math.hypot(2, 1.333) + math.hypot(2, 0.8) + math.hypot(2, 0.267))  # arch P-H-I-J-K-L-Q
    + 100 * (2 * 1.667 + 2 * 0.867 + 0.6 + 2 * math.hypot(2, 0.867) + 2 * math.hypot(2, 0.6)),  # posts, diagonals
    "bridge-05": 60 * 2 * (math.hypot(5, 7) + sum(math.hypot(x, 7) for x in (2, 4, 6, 8))),  # 10 cables, no joints
    "bridge-06": 9 * 50
    + 520 * (2 * math.hypot(2, 3.5) + 4 * 2)  # end diagonals, middle top chord
    + 140 * 3 * 3.5  # end hangers and the middle vertical
    + 220 * (4 * 2 + 6 * 3.5 + 8 * math.hypot(2, 3.5)),  # outer top chord, verticals, diagonals
}


def level_data(lid: str) -> dict:
    return english(read_json(LEVELS / f"{lid}.json"))


def reference(lid: str) -> list[dict]:
    return read_json(LEVELS / "solutions" / f"{lid}.json")["moves"]


def check(capsys, tmp_path: Path, lid: str, moves: list) -> tuple[int, dict]:
    path = tmp_path / f"{lid}-solution.json"
    path.write_text(json.dumps({"format": 1, "level": lid, "moves": moves}))
    code = main(["check", str(LEVELS / f"{lid}.json"), "--solution", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


def fails(capsys, tmp_path, lid: str, moves: list, *words: str) -> dict:
    code, verdict = check(capsys, tmp_path, lid, moves)
    assert code == 1 and not verdict["passed"], verdict["reason"]
    for w in words:
        assert w in verdict["reason"], (w, verdict["reason"])
    return verdict


def cost_of(level: dict, moves: list) -> float:
    """What a design costs: each new joint, and each member's length × its section's price."""
    where = {n["id"]: (n["x"], n["y"]) for n in level["nodes"]}
    sections, total = level["player"]["sections"], 0.0
    for move in moves:
        if move["type"] == "add_node":
            where[move["id"]] = (move["x"], move["y"])
            total += level["player"]["node_cost"]
        elif move["type"] == "add_member":
            total += sections[move["section"]]["cost"] * math.dist(where[move["i"]], where[move["j"]])
    return total


def node(nid: str, x: float, y: float) -> dict:
    return {"type": "add_node", "id": nid, "x": x, "y": y}


def bar(mid: str, section: str) -> dict:
    """Member `mid` between the nodes named by its two letters."""
    return {"type": "add_member", "id": mid, "i": mid[0], "j": mid[1], "section": section}


def without(moves: list, *ids: str) -> list:
    return [m for m in moves if m.get("id") not in ids]


def resectioned(moves: list, section: str, ids: tuple[str, ...] | None = None) -> list:
    """The same design with members `ids` (all, if None) made of `section`."""
    return [{**m, "section": section} if m["type"] == "add_member" and (ids is None or m["id"] in ids) else m for m in moves]


def raised(moves: list, y: float) -> list:
    """The same design with every new joint moved to height y."""
    return [{**m, "y": y} if m["type"] == "add_node" else m for m in moves]


# ------------------------------------------------------------------ every level


@pytest.mark.parametrize("lid", BRIDGES)
def test_bridge_level_is_well_formed_and_validates(capsys, lid):
    path = LEVELS / f"{lid}.json"
    data = level_data(lid)
    assert path.read_text().startswith('{\n  "format": 1,')  # 2-space indentation
    assert data["id"] == lid and data["kind"] == "build"
    assert data["title"] and data["brief"] and data["explanation"] and 2 <= len(data["hints"]) <= 3
    assert f"${data['player']['budget']:,.0f}" in data["brief"]  # the brief names the budget
    assert data["world"] == {**data["world"], "gravity": 9.81, "damping": 0.05, "breakable": True}
    assert all(s["kind"] == "cable" or s.get("I") for s in data["player"]["sections"].values())
    assert 2 <= len(data["player"]["sections"]) <= 3
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("lid", BRIDGES)
def test_the_reference_bridge_holds_with_a_margin_and_its_cost_is_the_score(capsys, lid):
    level, moves = level_data(lid), reference(lid)
    code = main(["check", str(LEVELS / f"{lid}.json"), "--solution", str(LEVELS / "solutions" / f"{lid}.json"), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == 0 and verdict["passed"], verdict["reason"]
    assert verdict["score"] == pytest.approx(cost_of(level, moves), rel=1e-9)
    assert verdict["score"] == pytest.approx(HAND_COST[lid], abs=0.01)
    assert verdict["score"] <= level["player"]["budget"]
    assert not verdict["broken"] and verdict["at_rest"]
    assert verdict["most_loaded"]["utilisation"] <= 0.9
    assert verdict["max_displacement"] <= 0.9 * level["goal"]["max_displacement"]
    assert len([m for m in moves if m["type"] == "add_member"]) <= 40


@pytest.mark.parametrize("lid", BRIDGES)
def test_the_reference_all_in_the_dearest_section_is_over_budget(capsys, tmp_path, lid):
    """The budget is tight: the same design in the most expensive tube does not fit."""
    level = level_data(lid)
    dearest = max(level["player"]["sections"], key=lambda s: level["player"]["sections"][s]["cost"])
    wasteful = resectioned(reference(lid), dearest)
    verdict = fails(capsys, tmp_path, lid, wasteful, "This design costs", f"the budget is ${level['player']['budget']:,.0f}.")
    assert verdict["cost"] == pytest.approx(cost_of(level, wasteful))


# ------------------------------------------------------------------ bridge-01


def test_bridge_01_a_square_without_its_diagonal_folds(capsys, tmp_path):
    verdict = fails(capsys, tmp_path, "bridge-01", without(reference("bridge-01"), "EC"), "It is a mechanism, not a structure")
    assert {"B", "C", "E", "F"} <= set(verdict["moving_nodes"])


def test_bridge_01_a_king_post_of_light_tubes_buckles(capsys, tmp_path):
    """One joint at (3, 2): the rafters AE and ED are 3.61 m long and pushed with 18.6 kN;
    the light tube buckles at π²EI/L² = 17.6 kN over that length."""
    kingpost = [node("E", 3, 2), bar("AE", "light"), bar("ED", "light"), bar("BE", "light"), bar("CE", "light")]
    verdict = fails(capsys, tmp_path, "bridge-01", kingpost, "buckled", "π²EI/L²")
    first = verdict["broken"][0]
    assert first["member"] in ("AE", "ED") and first["how"] == "buckled"
    assert first["capacity"] == pytest.approx(math.pi**2 * 200e9 * 1.16e-7 / 13.0)


def test_bridge_01_a_joint_above_the_zone_is_refused(capsys, tmp_path):
    moves = [node("E", 2, 3), *reference("bridge-01")[1:]]
    fails(capsys, tmp_path, "bridge-01", moves, "Node E at (2 m, 3 m) is outside the build zone.")


# ------------------------------------------------------------------ bridge-02


def test_bridge_02_light_tubes_everywhere_buckle_at_the_ends(capsys, tmp_path):
    """The end diagonals carry the 100 kN reaction: pushed with 100 kN × √2 = 141 kN; the light
    tube buckles at 28.6 kN over 2.83 m."""
    verdict = fails(capsys, tmp_path, "bridge-02", resectioned(reference("bridge-02"), "light"), "buckled")
    first = min(verdict["broken"], key=lambda b: b["time"])
    assert first["how"] == "buckled" and first["capacity"] == pytest.approx(math.pi**2 * 200e9 * 1.16e-7 / 8.0)


# ------------------------------------------------------------------ bridge-03


def test_bridge_03_a_light_middle_diagonal_buckles_as_the_truck_passes(capsys, tmp_path):
    verdict = fails(capsys, tmp_path, "bridge-03", resectioned(reference("bridge-03"), "light", ("HD",)), "Member HD buckled")
    assert 1.0 < verdict["broken"][0]["time"] < 3.0  # while the truck is on the deck


def test_bridge_03_heavy_diagonals_to_be_safe_cost_too_much(capsys, tmp_path):
    fails(capsys, tmp_path, "bridge-03", resectioned(reference("bridge-03"), "heavy", ("GC", "JD")), "the budget is $5,000.")


# ------------------------------------------------------------------ bridge-04


def test_bridge_04_a_truss_hung_from_the_deck_ends_buckles(capsys, tmp_path):
    """Supported at A and G alone, a 3 m deep truss below makes the thin deck its pushed top
    chord (−121 kN at midspan, buckling at 57 kN) and its verticals are pushed too."""
    bottom = [node(k, x, -3) for k, x in zip("HIJKL", (2, 4, 6, 8, 10), strict=True)]
    members = ["AH", "LG", "HI", "IJ", "JK", "KL", "BH", "CI", "DJ", "EK", "FL", "BI", "CJ", "EJ", "FK"]
    verdict = fails(capsys, tmp_path, "bridge-04", bottom + [bar(m, "light") for m in members], "Member ", "broke after it")
    times = [b["time"] for b in verdict["broken"]]
    assert times == sorted(times)  # the reason names the first to break, not the first listed
    first = verdict["broken"][0]
    assert first["how"] == "buckled" and verdict["reason"].startswith(f"Member {first['member']} buckled")


def test_bridge_04_an_arch_without_diagonals_sways(capsys, tmp_path):
    fails(capsys, tmp_path, "bridge-04", without(reference("bridge-04"), "BI", "CJ", "EJ", "FK"), "It is a mechanism, not a structure")


# ------------------------------------------------------------------ bridge-05


def test_bridge_05_masts_without_backstays_fall_over(capsys, tmp_path):
    verdict = fails(capsys, tmp_path, "bridge-05", without(reference("bridge-05"), "KS", "LT"), "It is a mechanism, not a structure")
    assert {"S", "T"} <= set(verdict["moving_nodes"])


def test_bridge_05_a_cable_cannot_push_the_mast_tops_apart(capsys, tmp_path):
    """A cable S–T instead of the backstays: it makes a structure on paper, but the stays
    pull the mast tops together, the tie would have to push, and it goes slack."""
    moves = [*without(reference("bridge-05"), "KS", "LT"), {"type": "add_member", "id": "ST", "i": "S", "j": "T", "section": "cable"}]
    verdict = fails(capsys, tmp_path, "bridge-05", moves, "It falls", "went slack: a cable can pull but never push")
    assert "ST" in verdict["slack_cables"]


# ------------------------------------------------------------------ bridge-06


def test_bridge_06_a_cheaper_truss_of_medium_tubes_sags_too_much(capsys, tmp_path):
    """3 m deep, medium top chord: strong enough (nothing breaks) but 33 mm of sag."""
    moves = resectioned(raised(reference("bridge-06"), 3.0), "medium", ("NO", "OP", "PQ", "QR"))
    verdict = fails(capsys, tmp_path, "bridge-06", moves, "the limit is 30 mm")
    assert not verdict["broken"] and verdict["cost"] < 25000


def test_bridge_06_a_shallow_truss_sags_too_much(capsys, tmp_path):
    verdict = fails(capsys, tmp_path, "bridge-06", raised(reference("bridge-06"), 2.0), "the limit is 30 mm")
    assert verdict["max_displacement"] > 0.03
