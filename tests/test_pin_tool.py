"""Pinning a beam's end with the build tools (P over the end of a member): one undoable
edit of the work, written as the member's `release` (a solution's add_member too), read
by the engine as a hinge; a roller on a slope, the level's or the player's, drawn on its incline.

frames-03: a cantilever AB (3 m, IPE 100, fixed at A) tied by a cable from W (0, 2 m) to
B, 4 kN down at B (and the weights, g = 9.81 m/s²). Pinned at A, the beam passes no
moment to the wall: the cable holds B up alone. Moments about A (each member's weight
lumped half at its ends, which gives its moment about an end exactly):
    T · 3 m · 2/√13 = 3 m · (4000 N + g (50 kg + m_beam/2 + m_cable/2)),
the cable's vertical part times its lever. Tolerance: the linear solve is exact to
round-off, 1e-9 of the load.
"""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
from builders import own_numbers
from test_build_tools import Hand

from equilibria.course.level import load_level
from equilibria.course.syllabus import shipped_level
from equilibria.engine.simulation import Simulation
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.work.workbench import LevelBench, Refused, SandboxBench

G = 9.81
STEEL = 7850.0


def frames_03() -> LevelBench:
    level = load_level(read_json(shipped_level("frames-03")))
    bench = LevelBench(level)
    bench.restore(load_solution({"format": 1, "level": "frames-03", "moves": [
        {"type": "add_member", "id": "AB", "i": "A", "j": "B", "section": "IPE 100"},
        {"type": "add_member", "id": "WB", "i": "W", "j": "B", "section": "cable"},
    ]}).moves)  # fmt: skip
    return bench


def test_a_pinned_end_makes_the_cable_hold_the_boom_alone():
    bench = frames_03()
    assert bench.toggle_pin("AB", "i") is True
    assert bench.pinned_ends("AB") == ["i"]
    model = bench.model()
    sim = Simulation(model, "linear")
    assert sim.solve_linear().at_rest
    a = model.node_index("A")
    assert abs(sim.reactions()[a, 2]) <= 1e-9 * 4000 * 3, "a pinned beam passes no moment to the wall"
    m_beam, m_cable = 0.00103 * STEEL * 3.0, 0.0002 * STEEL * math.sqrt(13)
    T = (4000 + G * (50 + m_beam / 2 + m_cable / 2)) * math.sqrt(13) / 2
    axial = dict(zip(model.member_ids, sim.results()["members"].values(), strict=True))
    assert axial["WB"]["axial"] == pytest.approx(T, rel=1e-9)


def test_pinning_is_one_undoable_edit_and_a_bar_cannot_be_pinned():
    bench = frames_03()
    before = bench.revision
    bench.toggle_pin("AB", "j")
    assert bench.revision == before + 1 and bench.pinned_ends("AB") == ["j"]
    assert bench.toggle_pin("AB", "j") is False and bench.pinned_ends("AB") == []
    bench.undo()
    assert bench.pinned_ends("AB") == ["j"]
    with pytest.raises(Refused, match="only a beam"):
        bench.toggle_pin("WB", "i")  # a cable: the engine's own words
    with pytest.raises(Refused, match=r"part of the level|no member"):
        bench.toggle_pin("nothing", "i")


def test_a_sandbox_beam_pinned_keeps_its_section_and_unpinned_is_it_again():
    bench = SandboxBench()
    a, b = bench.add_node(0.0, 0.0), bench.add_node(2.0, 0.0)
    name = next(k for k, s in bench.sections().items() if s.kind == "beam")
    member = bench.add_member(a, b, name)
    fields = dict(bench.doc["members"][0])
    assert bench.toggle_pin(member, "i") is True
    pinned = bench.doc["members"][0]
    assert pinned["release"] == ["i"] and pinned.get("formulation") == fields.get("formulation")  # a built beam keeps its stability functions
    assert bench.section_now(member) == name
    assert bench.toggle_pin(member, "i") is False
    assert bench.doc["members"][0] == fields


def test_p_over_a_beam_pins_the_end_nearest_the_pointer(tmp_path):
    h = Hand("frames-03", tmp_path)
    h.hover(h.at(2.6, 0.0))  # on AB, nearer B
    h.key(pygame.K_p)
    assert h.bench.pinned_ends("AB") == ["j"]
    assert "pinned to node B" in h.session.notice
    h.key(pygame.K_p)
    assert h.bench.pinned_ends("AB") == []
    h.hover(h.at(1.5, 3.0))  # over nothing
    h.key(pygame.K_p)
    assert "Point at a beam" in h.session.notice


def opened(data: dict, tmp_path):
    """The play scene of the level `data`, written to a file and opened as a player
    opens it, its first frame drawn."""
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.pacing import FRAME
    from equilibria.app.session.stage import load_stage
    from equilibria.app.window.app import App
    from equilibria.course.progress import Progress

    path = tmp_path / "slope.json"
    path.write_text(__import__("json").dumps(data))
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, load_stage(path), progress=Progress.load(tmp_path))
    app.push(scene)
    app.frame()
    return scene


def test_a_level_roller_on_a_slope_is_drawn_on_its_incline(tmp_path):
    """The arch's support at B made a roller on a 30° slope: the picture places its
    symbol across the line (screen direction (sin 30°, cos 30°), away from the arch,
    which lies up and to the left of B)."""
    data = own_numbers(read_json(shipped_level("hinge-01")))  # a demo has no answer to explain
    data = {k: v for k, v in data.items() if k not in ("cut", "goal")}
    data.update(kind="demo", supports=[{"node": "A", "fix": ["x", "y"]}, {"node": "B", "roller": {"angle": 30}}], player={})
    scene = opened(data, tmp_path)
    painter = scene.picture.painter
    b = scene.session.model.node_index("B")
    side = next(s for q, kind, s in painter.supports if q == b and kind == "roller_line")
    th = math.radians(30)
    np.testing.assert_allclose(side, (math.sin(th), math.cos(th)), atol=1e-12)


# ------------------------------------------------------------------ a roller the level offers
def slope_level() -> LevelBench:
    """supports-01 (a 6 m beam, 5 kN down at B and C, g) offering a pin and a roller on a
    30° slope."""
    data = read_json(shipped_level("supports-01"))
    data["player"]["supports"] = [["x", "y"], {"angle": 30}]
    return LevelBench(load_level(data))


def test_the_player_places_a_roller_on_the_slope_the_level_offers():
    """Pin at A, the roller at D (6 m): moments about A, R cos 30° · 6 m = 5 kN · 2 m +
    5 kN · 4 m + the beam's weight · 3 m, and the roller pushes across its slope only."""
    bench = slope_level()
    bench.set_support("A", ("x", "y"))
    bench.set_support("D", ("roller", 30.0))
    support = next(m for m in bench.moves if getattr(m, "node", None) == "D")
    assert support.roller is not None and support.roller.angle == 30 and support.fix == []
    model = bench.model()
    sim = Simulation(model, "linear")
    assert sim.solve_linear().at_rest
    d = model.node_index("D")
    weight = 0.00285 * STEEL * 6.0 * G
    R = (5000 * 2 + 5000 * 4 + weight * 3) / (6 * math.cos(math.radians(30)))
    np.testing.assert_allclose(sim.reactions()[d, :2], [-R * math.sin(math.radians(30)), R * math.cos(math.radians(30))], rtol=1e-9)
    with pytest.raises(Refused, match="no such support"):
        bench.set_support("B", ("y",))


def test_the_support_tool_goes_through_the_roller_on_its_slope(tmp_path):
    from equilibria.app.widgets.tools import SupportTool

    data = read_json(shipped_level("supports-01"))
    data["player"]["supports"] = [["x", "y"], {"angle": 30}]
    scene = opened(data, tmp_path)
    session = scene.session
    assert SupportTool().tip_for(session) == "click a node: pin → roller on a 30° slope → no support"
    session.cycle_support("D")
    session.cycle_support("D")
    assert [m.key for m in session.bench.moves] == [("roller", 30.0)]
    session.cycle_support("D")
    assert session.bench.moves == []
