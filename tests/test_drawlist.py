"""The structure's picture as a list of drawing records (game/app/draw/drawlist.py), made
without a surface and drawn by the pygame backend (game/app/draw/backend.py).

As pymunk's tests draw a space through a printing backend and assert the transcript,
these read what the painter makes: a two-panel truss at its static answer, each member
a band in the colour and width its force gives it, the load and the reactions as arrows
that point where statics says, their values written at their far ends. Then the guards:
making the picture draws nothing and renders no text (pygame.draw, pygame.Surface and
the fonts' render refuse, and every level still makes its picture), writes no state, and
holds plain data only; and the backend draws a see-through layer as faint as it says.

Glossary: P the truss's load [N]; N a member's axial force [N], + in tension; the painter
draws |N| = P (the scene's largest load) MEMBER_MAX_PX wide, 0 MEMBER_MIN_PX, linear
between; a force F's arrow is ARROW_PX · F / P long (within SHORTEST_PX and LONGEST_PX).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pygame
import pytest
from builders import BRIDGE_FORCES, bridge_truss
from drawing import arrows, band, of, texts

from equilibria.app.draw import render, symbols
from equilibria.app.draw.backend import Backend
from equilibria.app.draw.drawlist import Bands, Circle, Label, Layer, Polygon
from equilibria.app.draw.labels import LabelLayer
from equilibria.app.draw.palette import BACKGROUND, COMPRESSION, INK, JOINT, LOAD, MEMBER_MAX_PX, MEMBER_MIN_PX, REACTION, TENSION, Fonts
from equilibria.app.session.stage import Stage
from equilibria.app.session.statics import static_answer
from equilibria.app.session.view import View
from equilibria.engine.model import build_model

P = 20e3  # [N]
AREA = pygame.Rect(0, 0, 900, 600)


@pytest.fixture
def fonts() -> Fonts:
    pygame.font.init()
    return Fonts()


@pytest.fixture(scope="module")
def truss():
    """The two-panel truss (bridge_truss of tests/builders.py) at its static answer: its model,
    its simulation, the view that fits it in AREA and its nodes there [px] (as deflected)."""
    model = build_model(bridge_truss(P), statics_only=True)
    sim = static_answer(model).sim
    view = View.fit((0.0, 0.0, 4.0, 1.0), tuple(AREA), 120)
    return model, sim, view, {n: tuple(p) for n, p in zip(model.node_ids, view.points(sim.state.pos[:, :2]).tolist(), strict=True)}


def painted(fonts, truss):
    model, sim, view, _ = truss
    painter = render.StructurePainter(fonts, Stage("t", "sandbox", "", None, ()), model, [("A", frozenset("xy")), ("C", frozenset("y"))])
    return painter, painter.sketch(AREA, view, sim, values=True, names=list(model.node_ids))


# ---------------------------------------------------------------------- the transcript
def test_each_member_is_a_band_in_the_colour_and_width_of_its_force(fonts, truss):
    """AB = BC = +P/2 in tension blue, 8 px wide; AD = EC = −P/√2 in compression
    vermillion; DE = −P the widest, MEMBER_MAX_PX; each from its joint to its joint."""
    model, _, _, at = truss
    _, items = painted(fonts, truss)
    (bands,) = of(Bands, items)
    assert bands.smooth and sorted(bands.members.tolist()) == list(range(7))
    for mid, share in BRIDGE_FORCES.items():
        drawn = band(items, model.member_ids.index(mid))
        assert drawn.colour == (TENSION if share > 0 else COMPRESSION), mid
        assert drawn.width == pytest.approx(MEMBER_MIN_PX + (MEMBER_MAX_PX - MEMBER_MIN_PX) * abs(share), rel=1e-6), mid
        assert (*drawn.a, *drawn.b) == pytest.approx((*at[mid[0]], *at[mid[1]])), mid
    assert band(items, model.member_ids.index("AB")).width == pytest.approx(8.0)


def test_the_load_at_b_points_down_onto_its_joint_and_the_reactions_at_a_and_c_point_up(fonts, truss):
    """P down at B: an arrow ARROW_PX long, its head just above the joint (pushing: no
    member lies along it). R_A = R_C = P/2 up: each half as long, under its support's
    symbol, pointing up at it. Each value at its arrow's far end."""
    painter, items = painted(fonts, truss)
    a, b, c = (truss[3][n] for n in "ABC")
    (load,) = arrows(items, LOAD)
    assert load.head == pytest.approx((b[0], b[1] - (render.JOINT_PX + 2)))
    assert load.tail == pytest.approx((b[0], b[1] - (render.JOINT_PX + 2) - render.ARROW_PX))
    reach = symbols.extent("pin")[0]
    ups = sorted(arrows(items, REACTION), key=lambda r: r.head[0])
    assert [r.head for r in ups] == [pytest.approx((x, y + reach + 4)) for x, y in (a, c)]  # at the symbol's foot
    assert [r.tail for r in ups] == [pytest.approx((x, y + reach + 4 + render.ARROW_PX / 2)) for x, y in (a, c)]  # P/2: half as long, below
    assert texts(items, LOAD) == ["20 kN"] and texts(items, REACTION) == ["10 kN", "10 kN"]
    assert painter.reach[3] > render.ARROW_PX / 2  # the reactions' values reach below the nodes: the view makes room for them


def test_the_joints_supports_names_and_values_are_drawn_in_their_order(fonts, truss):
    """Under the labels: the bands, then the pins as white rings, then each support's
    symbol (the pin's triangle at A, the roller's at C); the texts after them: values,
    then names, then member values (+10, −20…), most loaded first."""
    model, _, _, at = truss
    _, items = painted(fonts, truss)
    kinds = [type(item).__name__ for item in items]
    assert kinds.index("Bands") < kinds.index("Circle") < kinds.index("Polygon") < kinds.index("Arrow") < kinds.index("Label")
    rings = [c.centre for c in of(Circle, items) if c.colour == JOINT]
    assert rings == [pytest.approx(at[n]) for n in model.node_ids]
    assert [p.points[0] for p in of(Polygon, items)][::2] == [pytest.approx(at["A"]), pytest.approx(at["C"])]
    said = texts(items)
    assert {"A", "B", "C", "D", "E"} <= set(said)
    values = [t for t in said if t[0] in "+−"]
    assert values[0] == "−20" and set(values) == {"+10", "−14.1", "+14.1", "−20"}


# ---------------------------------------------------------------------- the guards
LEVELS = ("bridge-03", "free-body-01", "friction-03", "beam-04", "machines-01", "demo-plate-pendulum", "frame-01", "reactions-01")


def refuse(monkeypatch) -> None:
    """Every pygame.draw function, a new pygame.Surface and pygame.transform refuse."""

    def refused(*args, **kwargs):
        raise AssertionError("drawn while the picture was being made")

    for name in ("line", "lines", "aaline", "aalines", "polygon", "circle", "rect", "ellipse", "arc"):
        monkeypatch.setattr(pygame.draw, name, refused)
    monkeypatch.setattr(pygame, "Surface", refused)
    monkeypatch.setattr(pygame.transform, "scale", refused)


class Measuring:
    """Fonts that measure text and refuse to render it."""

    def __init__(self, fonts: Fonts):
        self.fonts = fonts

    def __getattr__(self, name: str):
        font = getattr(self.fonts, name)
        if name in ("scale", "px"):  # the fonts' scale, not a font
            return font

        class Font:
            def size(self, text: str):
                return font.size(text)

            def render(self, *args):
                raise AssertionError("text rendered while the picture was being made")

        return Font()


def plain(value) -> bool:
    """Numbers, strings, tuples of them (a record is a tuple, a Layer's items a tuple of
    records), arrays, a colour table; no pygame object."""
    if value is None or isinstance(value, numbers.Number | str | np.ndarray):
        return True
    if isinstance(value, tuple):
        return all(plain(v) for v in value)
    if isinstance(value, dict):
        return all(plain(k) and plain(v) for k, v in value.items())
    return False


@pytest.mark.parametrize("level", LEVELS)
def test_making_the_picture_draws_nothing_renders_no_text_and_writes_no_state(level, monkeypatch):
    """Each level as it opens (and checked, where it has a reference answer: the truck on
    bridge-03, a passed beam's diagram): its picture is made again with drawing refused,
    into records of plain data, and the simulation and the model are as they were."""
    from test_play_session import key, start

    from equilibria.app.launch import bench_of_solution
    from equilibria.app.session.stage import load_stage
    from equilibria.course.syllabus import reference_solution, shipped_level

    stage = load_stage(shipped_level(level))
    solution = reference_solution(level)
    app, scene = start(stage, bench=bench_of_solution(stage, str(solution)) if solution else None)
    with app:
        if solution:
            key(app, pygame.K_c)
        for _ in range(30):
            app.frame()
        picture, sim = scene.picture, scene.picture.sim
        painter, view, area = picture.painter, scene.view, scene.layout.world
        shown = picture.positions()
        pts = view.points(sim.state.pos[:, :2] if shown is None else shown)
        before = [np.copy(a) for a in (*sim.state, *sim.model.arrays) if isinstance(a, np.ndarray)]
        painter.fonts = Measuring(painter.fonts)
        painter.labels = LabelLayer(painter.fonts)  # no text measured yet
        refuse(monkeypatch)
        items = picture.diagrams.fill(area, sim.model, sim, pts, "moment")
        items += painter.sketch(area, view, sim, values=True, pos=shown, names=picture.names(), begin=True, reactions=True)
        items += picture.diagrams.label(area, painter.labels)
        monkeypatch.undo()
        after = [a for a in (*sim.state, *sim.model.arrays) if isinstance(a, np.ndarray)]
        assert all(np.array_equal(x, y) for x, y in zip(before, after, strict=True))
        assert (of(Bands, items) or not sim.model.member_ids) and of(Label, items), level
        assert all(plain(item) for item in items)


def test_a_see_through_layer_is_drawn_as_faint_as_its_opacity(fonts):
    """A removed support's ghost (game/app/draw/cuts.py) and the truck are Layers: an ink
    disc on a layer laid on half opaque comes out half-way between the ink and the
    background, and where the layer holds nothing the background stays."""
    surface = pygame.Surface((40, 20))
    surface.fill(BACKGROUND)
    disc = (Circle((10, 10), 8, INK),)
    Backend().draw(surface, [Layer((0, 0, 20, 20), disc, 0.5), Layer((20, 0, 20, 20), disc)])
    faint, full, empty = surface.get_at((10, 10))[:3], surface.get_at((30, 10))[:3], surface.get_at((1, 1))[:3]
    assert full == INK and empty == BACKGROUND
    assert all(abs(f - (i + b) / 2) <= 1 for f, i, b in zip(faint, INK, BACKGROUND, strict=True)), faint


def test_a_label_is_drawn_on_its_plate_at_the_box_placed(fonts):
    """A Label's text covers the lines under it with a plate of the background, 3 px
    wider each side and 1 px taller than its box."""
    surface = pygame.Surface((120, 40))
    surface.fill(TENSION)
    backend = Backend(fonts)
    w, h = fonts.small.size("+10")
    backend.draw(surface, [Label("+10", (20, 10, w, h), INK, "small")])
    mid = 10 + h // 2
    assert surface.get_at((17, mid))[:3] == BACKGROUND and surface.get_at((20 + w + 2, mid))[:3] == BACKGROUND
    assert surface.get_at((16, mid))[:3] == TENSION and surface.get_at((20 + w + 3, mid))[:3] == TENSION
    ink = [surface.get_at((x, y))[:3] for x in range(20, 20 + w) for y in range(10, 10 + h)]
    assert sum(math.dist(p, INK) < 60 for p in ink) > 10  # the text itself


# ------------------------------------------------------------- shapes beside colours
def test_the_players_force_has_a_hollow_head_and_a_load_to_come_a_dashed_shaft(fonts):
    """Colour alone does not tell the kinds of arrow apart for every eye (issue 33): the
    force the player added (the model's last load) is drawn with a hollow head, a given
    load with a filled one, and a load still to come (zero now, its history rising
    later) with a dashed shaft; on the surface the hollow head's middle is background."""
    from equilibria.app.draw.palette import OWN_FORCE
    from equilibria.engine.simulation import Simulation

    data = bridge_truss(P)
    data["loads"] = [{"node": "B", "fy": -P}, {"node": "D", "fx": P / 2, "history": [[0, 0], [5, 0], [6, 1]]}, {"node": "E", "fy": -P / 2}]
    model = build_model(data)
    sim = Simulation(model, "rk4")  # at t = 0: D's load is still to come
    view = View.fit((0.0, 0.0, 4.0, 1.0), tuple(AREA), 120)
    painter = render.StructurePainter(fonts, Stage("t", "sandbox", "", None, ()), model, own_loads=1)
    items = painter.sketch(AREA, view, sim, values=True)
    (given, to_come) = sorted(arrows(items, LOAD), key=lambda a: a.dashed)
    (own,) = arrows(items, OWN_FORCE)
    assert own.hollow and not given.hollow and not to_come.hollow
    assert to_come.dashed and not given.dashed and not own.dashed
    surface = pygame.Surface(AREA.size)
    surface.fill(BACKGROUND)
    Backend(fonts).draw(surface, [own, given])
    for a, inside in ((own, BACKGROUND), (given, LOAD)):
        ux, uy = (a.head[0] - a.tail[0]), (a.head[1] - a.tail[1])
        size = math.hypot(ux, uy)
        middle = (a.head[0] - ux / size * a.head_length * 0.55, a.head[1] - uy / size * a.head_length * 0.55)  # inside the head
        assert tuple(surface.get_at((round(middle[0]), round(middle[1]))))[:3] == inside


def test_a_distributed_load_still_to_come_is_drawn_with_dashed_shafts(fonts):
    """As a point load still to come (above): in the loads' black, its shafts dashed, not
    in a grey beside the grey of "about zero" (issue 33)."""
    from equilibria.engine.simulation import Simulation

    data = bridge_truss(P)
    data["member_loads"] = [{"member": "DE", "w": -5e3, "history": [[0, 0], [5, 0], [6, 1]]}]
    model = build_model(data)
    view = View.fit((0.0, 0.0, 4.0, 1.0), tuple(AREA), 120)
    painter = render.StructurePainter(fonts, Stage("t", "sandbox", "", None, ()), model)
    row = [a for a in arrows(painter.sketch(AREA, view, Simulation(model, "rk4"), values=True), LOAD) if a.width == 2]
    assert row and all(a.dashed for a in row)
