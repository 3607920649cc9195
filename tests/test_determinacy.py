"""Determinacy: the count m + r against 2j (engine/determinacy.py), the determinacy kind
(game/rules/determinacy.py) and its two course levels.

Glossary: m members, r reaction components (pin 2, roller 1), j joints. Every count
below is made by hand from the level's drawing, not read from the code; the sets of
members a truss can spare follow from the rigidity argument written beside them (a
panel of four bars and one diagonal is two triangles, rigid; a panel with no diagonal
shears; a joint where two members meet in line, with nothing else, moves across them).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from builders import english
from test_course_levels import check, fails, passes, remove

from equilibria.course.level import load_level
from equilibria.engine.determinacy import TrussCount, truss_count
from equilibria.engine.linear import mechanism
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation
from equilibria.files.store import read_json
from equilibria.rules.common import STANDS
from equilibria.rules.judge import briefed

LEVELS = Path(__file__).resolve().parents[1] / "levels"
STEEL = {"steel": {"E": 2e11, "density": 7850, "nu": 0.3, "strength": 2.5e8}}


def truss(nodes: dict, members: list[str], supports: list[tuple[str, list[str]]], kind: str = "bar") -> dict:
    return {
        "materials": STEEL,
        "nodes": [{"id": k, "x": x, "y": y} for k, (x, y) in nodes.items()],
        "members": [{"id": m, "i": m[0], "j": m[1], "kind": kind, "material": "steel", "A": 1e-3, "I": 1e-6} for m in members],
        "supports": [{"node": n, "fix": fix} for n, fix in supports],
    }


TRIANGLE = {"A": (0, 0), "B": (4, 0), "C": (2, 2)}
SQUARE = {"A": (0, 0), "B": (2, 0), "C": (2, 2), "D": (0, 2)}
PIN_ROLLER = [("A", ["x", "y"]), ("B", ["y"])]


# ---------------------------------------------------------------------- the count
def test_a_triangle_on_a_pin_and_a_roller_is_determinate():
    count = truss_count(truss(TRIANGLE, ["AB", "BC", "CA"], PIN_ROLLER))
    assert count == TrussCount(m=3, r=3, j=3) and count.excess == 0  # 3 + 3 = 6 = 2 × 3
    assert count.line() == "m + r = 3 + 3 = 6 = 2j: statically determinate"


def test_a_square_with_both_diagonals_is_indeterminate_and_one_without_is_a_mechanism():
    crossed = truss_count(truss(SQUARE, ["AB", "BC", "CD", "DA", "AC", "BD"], PIN_ROLLER))
    assert (crossed.m, crossed.r, crossed.j, crossed.excess) == (6, 3, 4, 1)  # 6 + 3 = 9 > 8
    assert crossed.line() == "m + r = 6 + 3 = 9 > 2j = 8: indeterminate to degree 1 (one redundant)"
    bare = truss_count(truss(SQUARE, ["AB", "BC", "CD", "DA"], PIN_ROLLER))
    assert bare.excess == -1  # 4 + 3 = 7 < 8
    assert bare.line() == "m + r = 4 + 3 = 7 < 2j = 8: a mechanism (one member or support too few)"
    two_pins = truss_count(truss(SQUARE, ["AB", "BC", "CD", "DA", "AC", "BD"], [("A", ["x", "y"]), ("B", ["x", "y"])]))
    assert two_pins.excess == 2 and "degree 2 (two redundant)" in two_pins.line()  # 6 + 4 = 10 > 8


def test_cables_count_a_turned_truss_joint_does_not_and_frames_get_no_count():
    assert truss_count(truss(TRIANGLE, ["AB", "BC", "CA"], PIN_ROLLER, kind="cable")).excess == 0
    locked = truss_count(truss(TRIANGLE, ["AB", "BC", "CA"], [("A", ["x", "y", "rot"]), ("B", ["y"])]))
    assert locked.r == 3  # a truss joint is a pin: "rot" holds nothing a bar could turn
    assert truss_count(truss(TRIANGLE, ["AB", "BC"], PIN_ROLLER, kind="beam")) is None  # a frame: 3m + r vs 3j would need its hinges
    with_plate = truss(TRIANGLE, ["AB"], PIN_ROLLER)
    with_plate["triangles"] = [{"id": "P", "nodes": ["A", "B", "C"], "material": "steel", "t": 0.01}]
    assert truss_count(with_plate) is None
    assert truss_count(truss(TRIANGLE, [], PIN_ROLLER)) is None


def test_the_count_is_necessary_not_sufficient():
    """A crossed panel A-B-E-D and a triangle B-C-E: 8 + 3 = 11 > 2 × 5. Take CE away and
    the count says determinate, 7 + 3 = 10 = 2j, but the redundant member was in the
    crossed panel: C hangs on BC alone and turns about B (the stiffness finds it)."""
    nodes = {"A": (0, 0), "B": (2, 0), "C": (4, 0), "D": (0, 2), "E": (2, 2)}
    data = truss(nodes, ["AB", "BC", "DE", "AD", "BE", "AE", "BD", "CE"], PIN_ROLLER)
    assert truss_count(data).excess == 1
    data["members"] = [m for m in data["members"] if m["id"] != "CE"]
    assert truss_count(data).excess == 0 and mechanism(build_model(data, statics_only=True)) is not None


# ---------------------------------------------------------------------- the levels
@pytest.mark.parametrize(("level", "m", "r", "j"), [("determinacy-01", 14, 3, 8), ("determinacy-02", 13, 4, 8)])
def test_each_level_counts_as_its_brief_says(level, m, r, j):
    """determinacy-01: four chord bars top and bottom less one each side (3 + 3), four
    verticals, one diagonal in each end panel and two in the middle: 14; a pin and a
    roller: 3; joints A–H: 8. determinacy-02: one diagonal in the middle: 13; two pins: 4."""
    data = english(read_json(LEVELS / f"{level}.json"))
    count = truss_count(data)
    assert (count.m, count.r, count.j) == (m, r, j) and count.excess == 1
    assert f"m + r = {m} + {r} = {m + r}" in data["brief"] and "2j = 16" in data["brief"]
    assert mechanism(build_model(data, statics_only=True)) is None  # it stands before anything goes
    assert "self-weight is neglected" in data["brief"]
    assert STANDS in briefed(load_level(data))  # the one meaning of 'stands', said after the brief


def test_a_truss_that_has_no_mechanism_but_does_not_hold_under_its_loads_does_not_stand(capsys, tmp_path, monkeypatch):
    """One definition of 'stands' for every kind (common.STANDS): no mechanism AND the run
    under the loads within the limit. With the limit made 0, the reference answer of
    determinacy-01 (no mechanism) fails on the run, with the displacement in words."""
    import equilibria.rules.common as common

    moves = read_json(LEVELS / "solutions" / "determinacy-01.json")["moves"]
    passes(capsys, tmp_path, "determinacy-01", moves)
    monkeypatch.setattr(common, "limit", lambda level, size: 0.0)
    fails(capsys, tmp_path, "determinacy-01", moves, "does not stand", "mm")


def spare(level: str) -> set[str]:
    """The members whose removal leaves a truss that stands (the stiffness)."""
    data = english(read_json(LEVELS / f"{level}.json"))
    out = set()
    for member in data["members"]:
        fewer = dict(data, members=[m for m in data["members"] if m is not member])
        if mechanism(build_model(fewer, statics_only=True)) is None:
            out.add(member["id"])
    return out


def test_determinacy_01_can_spare_any_member_of_its_crossed_panel_and_no_other():
    """The middle panel B-C-G-F with both diagonals is four joints and six bars, one more
    than two triangles need (2 × 4 − 3 = 5): any one of the six can go. Every other
    member is the only one closing a triangle of an end panel, or a chord the panels hang
    on: without it a panel shears or a part turns."""
    assert spare("determinacy-01") == {"BC", "FG", "BF", "CG", "FC", "BG"}


def test_determinacy_02_can_spare_only_the_bottom_chord():
    """On two pins the ground keeps A and D apart, the bottom chord's job: without AB, BC
    or CD the truss is two rigid parts on pins, a three-hinged arch (hinges A, D and F or
    G, not in line). Without a vertical or a diagonal, a panel shears or B (C) hangs
    between two members in line."""
    assert spare("determinacy-02") == {"AB", "BC", "CD"}


def test_determinacy_02_explanation_forces_are_the_hand_answer():
    """Joint F: load 10 kN down, AF along 45°, FG horizontal, the rest carry nothing.
    ΣFy = 0: C_AF sin 45° = 10 kN, C_AF = 14.1 kN; ΣFx = 0: C_FG = C_AF cos 45° = 10 kN.
    The pins give 10 kN up and 10 kN inward each. Tolerance 1e-6 of the load: a direct
    solve, round-off only."""
    data = english(read_json(LEVELS / "determinacy-02.json"))
    sim = Simulation(build_model(data, statics_only=True), "linear")
    assert sim.solve_linear().at_rest
    axial = {k: v["axial"] for k, v in sim.results()["members"].items()}
    P = 10e3
    assert axial["AF"] == pytest.approx(-P * math.sqrt(2), abs=1e-6 * P)
    assert axial["DG"] == pytest.approx(-P * math.sqrt(2), abs=1e-6 * P)
    assert axial["FG"] == pytest.approx(-P, abs=1e-6 * P)
    assert all(abs(n) < 1e-6 * P for k, n in axial.items() if k not in ("AF", "DG", "FG"))
    assert "14.1 kN" in data["explanation"] and "FG 10 kN" in data["explanation"]


def test_determinacy_01_right_answers_pass(capsys, tmp_path):
    v = passes(capsys, tmp_path, "determinacy-01", remove("BG"))  # the reference: a crossing diagonal
    assert (v["m"], v["r"], v["j"], v["excess"]) == (13, 3, 8, 0) and "m + r = 13 + 3 = 16 = 2j" in v["reason"]
    passes(capsys, tmp_path, "determinacy-01", remove("FC"))  # the other diagonal
    passes(capsys, tmp_path, "determinacy-01", remove("BC"))  # the crossed panel's bottom chord: two triangles still


def test_determinacy_01_wrong_answers_teach(capsys, tmp_path):
    why = fails(capsys, tmp_path, "determinacy-01", remove("DG"), "m + r = 13 + 3 = 16 = 2j", "mechanism", "necessary, not sufficient")
    assert "G along a line" in why  # the end panel C-D-H-G shears
    fails(capsys, tmp_path, "determinacy-01", remove("BG", "FC"), "12 + 3 = 15 < 2j = 16", "Too many")
    fails(capsys, tmp_path, "determinacy-01", [], "stands", "17 > 2j = 16", "take out one more member")
    everything = [m["id"] for m in read_json(LEVELS / "determinacy-01.json")["members"]]
    fails(capsys, tmp_path, "determinacy-01", remove(*everything), "Every member is gone")  # a verdict, not an error


def test_determinacy_02_right_answers_pass(capsys, tmp_path):
    v = passes(capsys, tmp_path, "determinacy-02", remove("BC"))
    assert (v["m"], v["r"], v["j"], v["moving"]) == (12, 4, 8, [])
    passes(capsys, tmp_path, "determinacy-02", remove("AB"))
    passes(capsys, tmp_path, "determinacy-02", remove("CD"))


def test_determinacy_02_a_member_that_carries_nothing_is_not_always_spare(capsys, tmp_path):
    """BF carries nothing (joint B: AB and BC in line, no load, so BF = 0), yet without
    it B hangs between AB and BC and moves up and down: 12 + 4 = 16 = 2j all the same."""
    code, v = check(capsys, tmp_path, "determinacy-02", remove("BF"))
    assert code == 1 and not v["passed"] and v["moving"] == ["B"] and v["excess"] == 0
    assert "B up and down" in v["reason"] and "necessary, not sufficient" in v["reason"]
    fails(capsys, tmp_path, "determinacy-02", remove("FC"), "16 = 2j", "mechanism")  # a diagonal that carries nothing: its panel shears


def test_the_reference_solutions_are_shipped():
    for level, move in (("determinacy-01", "remove_member"), ("determinacy-02", "remove_member"), ("determinacy-03", "add_member")):
        solution = json.loads((LEVELS / "solutions" / f"{level}.json").read_text())
        assert solution["level"] == level and [m["type"] for m in solution["moves"]] == [move]


def bar(i: str, j: str) -> list[dict]:
    return [{"type": "add_member", "id": "X", "i": i, "j": j, "section": "bar"}]


def test_determinacy_03_is_one_member_short_and_the_count_does_not_say_where():
    """Chords 3 + 3, verticals 4, a diagonal in each end panel: m = 12; pin and roller:
    r = 3; 12 + 3 = 15 < 16 = 2j. The middle panel is a ring of four bars: it shears."""
    data = english(read_json(LEVELS / "determinacy-03.json"))
    count = truss_count(data)
    assert (count.m, count.r, count.j, count.excess) == (12, 3, 8, -1)
    assert "m + r = 12 + 3 = 15" in data["brief"] and "budget is $500" in data["brief"] and "no joint moves more than 1 %" in data["brief"]
    assert mechanism(build_model(data, statics_only=True)) is not None


def test_determinacy_03_either_diagonal_of_the_bare_panel_passes(capsys, tmp_path):
    passes(capsys, tmp_path, "determinacy-03", bar("B", "G"))  # the reference
    passes(capsys, tmp_path, "determinacy-03", bar("F", "C"))  # the other diagonal


def test_determinacy_03_a_second_diagonal_in_a_braced_panel_fails(capsys, tmp_path):
    """EB crosses AF in the left panel: 13 + 3 = 16 = 2j by the count, but the middle
    panel still shears; the verdict names the joints that move."""
    fails(capsys, tmp_path, "determinacy-03", bar("E", "B"), "Still a mechanism", "F along a line at 135°")
    fails(capsys, tmp_path, "determinacy-03", bar("A", "C"), "costs $600; the budget is $500")  # a 6 m bar is out of reach


# ---------------------------------------------------------------------- in the game
def test_in_the_game_the_count_follows_the_removals_and_a_check_draws_the_level_s_supports():
    """The panel's line is the count of the work as built; after a check the supports
    drawn are the level's pin A and roller D, not every truss joint (whose rotation the
    engine holds only because no beam turns it)."""
    from equilibria.app.session.play import PlaySession
    from equilibria.app.session.stage import load_stage
    from equilibria.app.widgets.panels import count_lines
    from equilibria.course.syllabus import shipped_level

    session = PlaySession(load_stage(shipped_level("determinacy-01")), fixed=True)
    assert count_lines(session) == ["Truss count: m + r against 2j", "  m + r = 14 + 3 = 17 > 2j = 16", "  indeterminate to degree 1"]
    session.edit(session.bench.toggle_member, "DG")  # the remove tool's edit: an end panel's diagonal
    session.build()
    assert count_lines(session)[1:] == ["  m + r = 13 + 3 = 16 = 2j", "  statically determinate"]  # the count cannot see the bare panel
    session.check()
    assert not session.verdict.passed and "necessary, not sufficient" in session.verdict.reason
    assert sorted(session.supports()) == [("A", frozenset({"x", "y"})), ("D", frozenset({"y"}))]


def test_the_sandbox_says_when_the_stiffness_disagrees_with_the_count(tmp_path):
    """A square with both diagonals and a bare square beside it, on a pin and a roller:
    9 + 3 = 12 = 2 × 6, yet the bare square shears. The sandbox looks for mechanisms,
    so the panel says the count is necessary, not sufficient."""
    from equilibria.app.session.play import PlaySession
    from equilibria.app.session.stage import load_stage
    from equilibria.app.widgets.panels import count_lines

    nodes = {"A": (0, 0), "B": (2, 0), "C": (4, 0), "D": (0, 2), "E": (2, 2), "F": (4, 2)}
    design = truss(nodes, ["AB", "BC", "DE", "EF", "AD", "BE", "CF", "AE", "BD"], [("A", ["x", "y"]), ("C", ["y"])])
    design |= {"format": 1, "id": "square", "title": "Two squares", "kind": "sandbox"}
    path = tmp_path / "square.json"
    path.write_text(json.dumps(design))
    session = PlaySession(load_stage(path, sandbox=True), fixed=True)
    assert session.free is not None  # the right-hand square B-C-F-E has no diagonal
    lines = count_lines(session)
    assert lines[1:3] == ["  m + r = 9 + 3 = 12 = 2j", "  determinate by the count,"]
    assert lines[3:] == ["  yet the stiffness finds a mechanism:", "  the count is necessary, not sufficient"]


def test_a_free_body_gets_no_count():
    """free-body-04 cuts a truss at a section: the part kept has no supports (6 + 0 < 12),
    on purpose, the student's forces being its reactions; a count would call it a mechanism."""
    from equilibria.app.session.play import PlaySession
    from equilibria.app.session.stage import load_stage
    from equilibria.app.widgets.panels import count_lines
    from equilibria.course.syllabus import shipped_level

    session = PlaySession(load_stage(shipped_level("free-body-04")), fixed=True)
    assert session.count is not None and session.count.r == 0 and count_lines(session) == []
