"""Building as a student knows it from the West Point Bridge Designer: a member clicked
with a section chosen is rebuilt of it in place; heavy and light members are drawn as
wide as their sections; the rubber band says the length and cost of the member being
drawn; a drag from a node draws a member (and its new joint); the player's own joints
move, the level's never; the member table gives each member's section, length and cost
and the cost in parts. Each edit is one undoable edit of the workbench.

The tools are driven by posted mouse events on a real play scene, as in
tests/test_building.py. Costs are checked against hand sums from the level's prices
(bridge-01: light $100/m, heavy $220/m, $50 a joint; members of 2 m and 2√2 m); the
tolerance of $0.01 is the rounding of node positions to a micrometre (round(x, 6))."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
from drawing import band

from equilibria.app.draw.palette import TENSION
from equilibria.app.draw.render import SECTION_MAX_PX, SECTION_MIN_PX, section_widths
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.widgets.membertable import contents
from equilibria.app.window.app import App
from equilibria.course.level import load_level
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.files.store import read_json
from equilibria.format.solution import AddMember, AddNode, load_solution
from equilibria.work.workbench import LevelBench, Refused, SandboxBench

LIGHT, HEAVY, JOINT = 100.0, 220.0, 50.0  # bridge-01's prices: $ per metre of each tube, $ per new joint
LIGHT_A, HEAVY_A = 4.53e-4, 1.07e-3  # [m²] its tubes' areas
DIAGONAL = 2 * math.sqrt(2)  # [m] AE, FD and EC of the reference bridge
CENTS = 0.01  # [$] see the module's docstring


def post(kind: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(kind, **fields))


class Hand:
    """A mouse on the play scene of a level, with the level's reference solution
    built (or nothing, `built=False`)."""

    def __init__(self, level: str, tmp_path, *, built: bool = True):
        self.app = App(fixed_frame=FRAME)
        self.scene = PlayScene(self.app, load_stage(shipped_level(level)), progress=Progress.load(tmp_path))
        self.app.push(self.scene)
        self.app.frame()
        self.session = self.scene.session
        self.bench = self.session.bench
        if built:
            self.bench.restore(load_solution(read_json(reference_solution(level))).moves)
            self.session.build()
            self.app.frame()

    def at(self, x: float, y: float) -> tuple[int, int]:
        p = self.scene.view.point(x, y)
        return round(p[0]), round(p[1])

    def click(self, at, *, to=None) -> None:
        """Press at `at` and let go there, or (`to`) after dragging there."""
        post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
        post(pygame.MOUSEBUTTONDOWN, pos=at, button=1)
        if to is not None:
            post(pygame.MOUSEMOTION, pos=to, rel=(to[0] - at[0], to[1] - at[1]), buttons=(1, 0, 0))
        post(pygame.MOUSEBUTTONUP, pos=to or at, button=1)
        self.app.frame()

    def hover(self, at) -> None:
        post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
        self.app.frame()

    def key(self, k: int, mod: int = 0) -> None:
        post(pygame.KEYDOWN, key=k, mod=mod, unicode="")
        self.app.frame()

    def undo(self) -> None:
        self.key(pygame.K_z, pygame.KMOD_CTRL)

    def tool(self, name: str) -> None:
        self.scene.choose_tool(name)

    def members(self) -> dict[str, AddMember]:
        return {m.id: m for m in self.bench.moves if isinstance(m, AddMember)}

    def nodes(self) -> dict[str, AddNode]:
        return {m.id: m for m in self.bench.moves if isinstance(m, AddNode)}


def reference_cost() -> float:
    """bridge-01's reference: six light members (three of 2 m, three of 2√2 m) and two joints."""
    return LIGHT * (3 * 2 + 3 * DIAGONAL) + 2 * JOINT


# ---------------------------------------------------------------------- a section in place
def test_a_click_on_a_member_with_heavy_chosen_rebuilds_it_and_the_cost_rises_by_the_price_difference(tmp_path):
    h = Hand("bridge-01", tmp_path)
    assert h.bench.cost() == pytest.approx(reference_cost(), abs=CENTS)
    h.tool("member")
    h.session.section = "heavy"
    revision = h.bench.revision
    h.hover(h.at(1, 1))  # the middle of AE, no node within reach: what a click would do
    assert h.scene.toolbar.tool.rebuilt(h.scene) == f"AE: light → heavy, +${(HEAVY - LIGHT) * DIAGONAL:,.0f}" == "AE: light → heavy, +$339"
    h.click(h.at(1, 1))
    assert h.members()["AE"].section == "heavy"
    assert h.scene.toolbar.tool.rebuilt(h.scene) == "", "heavy already: a click changes nothing"
    assert h.bench.revision == revision + 1, "one edit"
    assert h.bench.cost() == pytest.approx(reference_cost() + (HEAVY - LIGHT) * DIAGONAL, abs=CENTS)
    assert "AE is now heavy" in h.session.notice and "$339" in h.session.notice  # 120 $/m × 2.83 m
    assert [m.id for m in h.bench.moves] == [m.id for m in load_solution(read_json(reference_solution("bridge-01"))).moves], "in place: the order kept"
    h.click(h.at(1, 1))  # heavy already: said, nothing changed
    assert "already" in h.session.notice and h.bench.revision == revision + 1
    h.click(h.at(3, 0))  # BC, the level's deck: refused in words
    assert "part of the level" in h.session.notice and h.bench.revision == revision + 1
    h.undo()
    assert h.members()["AE"].section == "light"
    assert h.bench.cost() == pytest.approx(reference_cost(), abs=CENTS)
    h.app.close()


# ---------------------------------------------------------------------- drawn as wide as the section
def test_heavy_and_light_members_are_drawn_as_wide_as_the_square_root_of_their_areas(tmp_path, drawn):
    h = Hand("bridge-01", tmp_path)
    h.tool("member")
    h.session.section = "heavy"
    h.click(h.at(4, 1))  # CF heavy; BE stays light
    assert h.members()["CF"].section == "heavy"
    drawn.clear()
    h.app.frame()
    assert h.scene.picture.by_section, "while the player builds"
    width = dict(zip(h.session.model.member_ids, h.scene.picture.painter.section_px, strict=True))  # in member order
    assert width["CF"] == pytest.approx(SECTION_MAX_PX)  # the widest of the structure (heavy, as the deck)
    assert width["BE"] == pytest.approx(SECTION_MAX_PX * math.sqrt(LIGHT_A / HEAVY_A))  # ≈ 7.8 px
    # and as drawn (the frame's drawing records: tests/drawing.py): both pull, CF as wide as its section, BE as its own
    cf, be = (band(drawn, h.session.model.member_ids.index(mid)) for mid in ("CF", "BE"))
    assert cf.colour == be.colour == TENSION, "both pull: one colour"
    assert (cf.width, be.width) == pytest.approx((width["CF"], width["BE"])), "heavy CF is drawn wider than light BE"
    assert any("√(area)" in line for line in h.scene.picture.legend_notes()), "the legend says what the width means"
    h.session.run()  # running: widths by force again
    h.scene.toolbar.choose("inspect")
    assert not h.scene.picture.by_section
    h.app.close()


def test_section_widths_stay_within_readable_bounds():
    data = {
        "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}, {"id": "C", "x": 2, "y": 0}],
        "materials": {"steel": {"E": 200e9, "density": 7850, "nu": 0.3, "strength": 250e6}},
        "members": [{"id": "AB", "i": "A", "j": "B", "material": "steel", "A": 1e-6}, {"id": "BC", "i": "B", "j": "C", "material": "steel", "A": 1.0}],
        "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["x", "y"]}],
    }
    from equilibria.engine.model import build_model

    model = build_model(data)
    widths = section_widths(model, {"AB": 1e-6, "BC": 1.0}, 1e-3)  # in member order
    assert widths.tolist() == [SECTION_MIN_PX, SECTION_MAX_PX]


# ---------------------------------------------------------------------- the rubber band
def test_the_rubber_band_says_the_length_and_the_cost_by_the_levels_prices(tmp_path):
    h = Hand("bridge-01", tmp_path)
    h.tool("member")
    h.session.section = "light"
    h.click(h.at(2, 2))  # E: the chain starts
    h.hover(h.at(4, 0))  # over C: 2√2 m, light, no new joint
    _, words, fits = h.scene.toolbar.tool.band(h.scene)
    assert words == f"{DIAGONAL:.2f} m · ${LIGHT * DIAGONAL:,.0f}" == "2.83 m · $283" and fits
    h.hover(h.at(3, 2))  # empty ground 1 m from E: a light metre and a new joint
    _, words, fits = h.scene.toolbar.tool.band(h.scene)
    assert words == f"1.00 m · ${LIGHT + JOINT:,.0f}" and fits
    h.hover(h.at(2, 3))  # above the zone (2.5 m high)
    _, words, fits = h.scene.toolbar.tool.band(h.scene)
    assert not fits and "outside the build zone" in words
    h.app.close()


# ---------------------------------------------------------------------- drag to draw
def test_a_drag_from_a_node_to_empty_ground_makes_one_member_and_one_joint_in_one_edit(tmp_path):
    h = Hand("bridge-01", tmp_path, built=False)
    h.tool("member")
    h.session.section = "light"
    revision = h.bench.revision
    h.click(h.at(0, 0), to=h.at(2, 2))  # from A to empty ground inside the zone
    assert [type(m).__name__ for m in h.bench.moves] == ["AddNode", "AddMember"]
    joint = h.nodes()["E"]
    assert (joint.x, joint.y) == (2, 2) and h.members()["AE"].i == "A" and h.members()["AE"].j == "E"
    assert h.bench.revision == revision + 1, "one edit"
    assert h.bench.cost() == pytest.approx(LIGHT * DIAGONAL + JOINT, abs=CENTS)
    assert not h.scene.toolbar.tool.pending, "a drag makes one member: no chain goes on"
    h.click(h.at(2, 2), to=h.at(2, 0))  # from E to node B: a member, no new joint
    assert h.members()["EB"].j == "B" and len(h.nodes()) == 1
    h.click(h.at(2, 2), to=h.at(2, 3))  # to outside the zone: refused in words, nothing made
    assert "A new joint there would be outside the build zone" in h.session.notice and len(h.bench.moves) == 3
    h.undo()
    assert len(h.bench.moves) == 2
    h.undo()
    assert h.bench.moves == [], "the member and its joint went in one edit and come back out in one"
    h.app.close()


def test_click_click_on_empty_ground_makes_the_joint_and_member_in_one_edit_and_goes_on(tmp_path):
    h = Hand("bridge-01", tmp_path, built=False)
    h.tool("member")
    h.session.section = "light"
    h.click(h.at(0, 0))
    h.click(h.at(2, 2))  # empty ground: E and AE at once
    h.click(h.at(4, 2))  # and on: F and EF
    assert [m.id for m in h.bench.moves] == ["E", "AE", "F", "EF"]
    h.undo()
    assert [m.id for m in h.bench.moves] == ["E", "AE"]
    h.app.close()


def test_a_first_click_on_empty_ground_says_where_a_member_starts(tmp_path):
    h = Hand("bridge-01", tmp_path, built=False)
    h.tool("member")
    h.click(h.at(3, 1.5))
    assert h.bench.moves == [] and "starts at a node" in h.session.notice
    h.app.close()


def test_a_shaky_click_on_a_node_is_a_click_and_the_chain_goes_on(tmp_path):
    h = Hand("bridge-01", tmp_path)
    h.tool("member")
    a = h.at(2, 2)
    h.click(a, to=(a[0] + 6, a[1] - 5))  # E, the hand moving 8 px within E's reach
    assert h.scene.toolbar.tool.pending == ["E"] and len(h.members()) == 6
    h.app.close()


# ---------------------------------------------------------------------- moving joints
def test_a_joint_of_yours_moves_with_its_members_and_a_given_one_is_refused(tmp_path):
    h = Hand("bridge-01", tmp_path)
    h.tool("node")
    revision = h.bench.revision
    h.click(h.at(2, 2), to=h.at(2, 2.4))  # E up by 0.4 m
    assert (h.nodes()["E"].x, h.nodes()["E"].y) == (2, 2.4) and h.bench.revision == revision + 1
    assert "Moved node E" in h.session.notice
    h.app.frame()  # the model is built again: the members follow
    model = h.session.model
    e = model.arrays.pos0[model.node_index("E"), :2]
    assert e.tolist() == pytest.approx([2.0, 2.4])
    # AE and EC grow to √(2² + 2.4²), BE to 2.4 m, EF to √(2² + 0.4²); all light
    grown = 2 * math.hypot(2, 2.4) + 2.4 + math.hypot(2, 0.4) - (2 * DIAGONAL + 2 + 2)
    assert h.bench.cost() == pytest.approx(reference_cost() + LIGHT * grown, abs=CENTS)
    h.click(h.at(0, 0), to=h.at(0.4, 0.4))  # A is the level's
    assert "part of the level" in h.session.notice and h.bench.revision == revision + 1
    h.click(h.at(4, 2), to=h.at(4, 3))  # F out of the zone
    assert "outside the build zone" in h.session.notice and h.nodes()["F"].y == 2
    h.undo()
    assert (h.nodes()["E"].x, h.nodes()["E"].y) == (2, 2)
    assert h.bench.cost() == pytest.approx(reference_cost(), abs=CENTS)
    h.click(h.at(2, 2))  # a click on a node with the node tool: no move, says so
    assert "already there" in h.session.notice and h.bench.revision == revision + 2
    h.app.close()


# ---------------------------------------------------------------------- the member table
def test_the_member_table_gives_section_length_and_cost_and_the_cost_in_parts(tmp_path):
    h = Hand("bridge-01", tmp_path)
    h.key(pygame.K_u)  # before any check
    assert h.scene.table.shown
    table = contents(h.session)
    assert table.columns == ["Member", "Section", "Length", "Cost"]
    rows = {words[0]: words[1:] for words, _ in table.rows}
    assert rows["AE"] == ["light", "2.83 m", "$283"] and rows["EF"] == ["light", "2.00 m", "$200"]
    assert rows["AB"] == ["the level's", "2.00 m", "–"]  # the deck is the level's: no price
    parts = dict(table.totals)
    assert parts["6 light members, 14.49 m at $100/m"] == f"${LIGHT * (3 * 2 + 3 * DIAGONAL):,.0f}"  # $1,449
    assert parts["2 new joints at $50"] == "$100"
    total = table.totals[-1]
    assert total[0].startswith("Total, of the $2,500 budget") and total[1] == f"${reference_cost():,.0f}" == "$1,549"
    assert h.scene.table.rows_shown == len(table.rows) == 9, "the frame after U drew the box, every row in it"
    box = h.scene.table.draw(h.app.screen, h.app.fonts, h.scene.layout.world, table)
    assert box is not None and h.scene.layout.world.contains(box)
    bill = h.bench.bill()
    assert sum(amount for _, amount in bill.parts) == pytest.approx(bill.total) and bill.total == pytest.approx(h.bench.cost())
    h.app.close()


def test_after_a_check_the_table_adds_force_capacities_and_use_to_section_length_and_cost(tmp_path):
    h = Hand("tutorial-04", tmp_path)
    h.session.check()
    table = contents(h.session)
    assert table.columns == ["Member", "Section", "Length", "Cost", "Force", "Tension cap.", "Compression cap.", "Use"]
    rows = {words[0]: words[1:] for words, _ in table.rows}
    assert rows["BC"][:3] == ["cable", "2.50 m", "$100"] and rows["BC"][5] == "none (a cable)"  # 2.5 m at $40/m
    assert rows["AC"][:3] == ["tube", "2.00 m", "$200"]
    assert table.totals[-1][1] == "$300"
    h.app.close()


# ---------------------------------------------------------------------- the workbench alone
def test_the_workbench_edits_refuse_in_words_and_undo_in_one_step():
    level = load_level(read_json(shipped_level("bridge-01")))
    b = LevelBench(level)
    e, ae = b.add_member_to("A", 2, 2, "light")
    assert (e, ae) == ("E", "AE") and len(b.moves) == 2
    with pytest.raises(Refused, match="already"):
        b.set_section("AE", "light")
    with pytest.raises(Refused, match="no section"):
        b.set_section("AE", "gold")
    with pytest.raises(Refused, match="part of the level"):
        b.set_section("AB", "heavy")
    assert b.set_section("AE", "heavy") == pytest.approx((HEAVY - LIGHT) * DIAGONAL, abs=CENTS)
    assert b.movable("E") and not b.movable("B") and b.section_now("AE") == "heavy" and b.section_now("AB") is None
    with pytest.raises(Refused, match="part of the level"):
        b.move_node("B", 2, 1)
    with pytest.raises(Refused, match="outside the build zone"):
        b.move_node("E", 2, 3)
    with pytest.raises(Refused):
        b.move_node("E", 0, 0)  # onto A: AE would have no length
    b.move_node("E", 1, 2)
    assert b.cost() == pytest.approx(HEAVY * math.sqrt(5) + JOINT, abs=CENTS)
    for _ in range(3):
        assert b.undo()
    assert b.moves == [] and not b.undo()


def test_the_sandbox_rebuilds_a_member_in_place_and_draws_one_to_a_new_node():
    b = SandboxBench()
    n1 = b.add_node(0, 0)
    n2, m1 = b.add_member_to(n1, 2, 0, "steel bar")
    assert [m["id"] for m in b.design()["members"]] == [m1] and b.section_of(b.design()["members"][0]) == "steel bar"
    b.set_section(m1, "steel beam")
    member = b.design()["members"][0]
    assert (member["i"], member["j"], member["kind"], member["A"]) == (n1, n2, "beam", 2.85e-3)
    assert b.bill().rows[0].section == "steel beam" and b.bill().rows[0].length == pytest.approx(2.0)
    b.undo()
    assert b.section_of(b.design()["members"][0]) == "steel bar"
    b.undo()
    assert [n["id"] for n in b.design()["nodes"]] == [n1] and b.design()["members"] == []


def test_the_sandbox_table_has_no_cost_column(tmp_path):
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, Stage.empty_sandbox())
    app.push(scene)
    bench = scene.session.bench
    bench.add_member_to(bench.add_node(0, 1), 3, 1, "steel cable")
    table = contents(scene.session)
    assert table.columns == ["Member", "Section", "Length"] and table.rows[0][0] == ["M1", "steel cable", "3.00 m"] and table.totals == []
    assert np.isfinite(bench.bill().rows[0].length)
    app.close()


def test_the_sandbox_support_tool_goes_through_rollers_on_slopes_and_they_hold_across_their_line():
    """Pin → roller → wall roller → roller on a 30° slope (up to the right) → on a −30°
    one → fixed → none; a bar held only by the sloped roller at B falls, B sliding along
    the roller's line and never leaving it (to the round-off of its coordinates)."""
    from equilibria.app.widgets.tools import SupportTool

    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, Stage.empty_sandbox())
    app.push(scene)
    session, bench = scene.session, scene.session.bench
    a = bench.add_node(0, 1)
    b, _ = bench.add_member_to(a, 2, 1, "steel bar")
    tip = SupportTool().tip_for(session)
    assert tip == "click a node: pin → roller → wall roller → roller on a 30° slope → roller on a −30° slope → fixed → no support"
    seen = []
    for _ in range(7):
        session.cycle_support(b)
        seen.append(next(({k: v for k, v in s.items() if k != "node"} for s in bench.design()["supports"] if s["node"] == b), None))
    assert seen == [
        {"fix": ["x", "y"]},
        {"fix": ["y"]},
        {"fix": ["x"]},
        {"fix": [], "roller": {"angle": 30.0}},
        {"fix": [], "roller": {"angle": -30.0}},
        {"fix": ["rot", "x", "y"]},
        None,
    ]
    for _ in range(4):
        session.cycle_support(b)  # the 30° roller again
    app.frame()
    sim = session.sim
    q = sim.model.node_index(b)
    start = sim.state.pos[q, :2].copy()
    sim.advance(0.5)
    moved = sim.state.pos[q, :2] - start
    normal = np.array([-math.sin(math.radians(30)), math.cos(math.radians(30))])
    assert np.linalg.norm(moved) > 1e-2 and abs(moved @ normal) <= 1e-9
    app.close()


@pytest.mark.parametrize("level", ["tutorial-04", "frames-03"])
def test_the_member_table_of_one_joint_and_no_members_opens_and_draws(tmp_path, level):
    """Issue 36: one node placed and U pressed on the course's first build levels ended
    the game (the widths of a column with no rows)."""
    h = Hand(level, tmp_path, built=False)
    zone = h.session.stage.level.player.zone
    x, y = sum(p[0] for p in zone) / len(zone), sum(p[1] for p in zone) / len(zone)  # inside: the zones are convex
    h.bench.add_node(x, y)
    h.key(pygame.K_u)
    h.app.frame()
    assert h.scene.table.shown
    table = contents(h.session)
    if table is not None:
        assert table.rows == []
        assert h.scene.table.draw(h.app.screen, h.app.fonts, h.scene.layout.world, table) is not None
    h.app.close()
