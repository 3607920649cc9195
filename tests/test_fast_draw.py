"""Drawing and picking that cost the same at every zoom and model size (issue 15, point 6).

Costs are counted (calls, pixels) or bounded by construction, never timed: timings are
the business of benchmarks/frames.py.
"""

import numpy as np
import pygame
import pytest
from builders import member, model

from equilibria.app.draw import primitives as draw
from equilibria.app.draw import render
from equilibria.app.draw.backend import Backend
from equilibria.app.draw.drawlist import Bands, Dashes, Polygon, Sketch
from equilibria.app.draw.labels import LabelLayer
from equilibria.app.draw.palette import BACKGROUND, MEMBER_MAX_PX, MEMBER_MIN_PX, SIGN_COLOUR, ZERO_SHARE, Fonts
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.shapes import Shapes
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.session.view import View
from equilibria.app.window.app import App
from equilibria.course.syllabus import level_path
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation


def grid_model(nx: int, ny: int, cell: float = 0.5):
    """nx × ny nodes on a grid, joined along the rows."""
    nodes = [(f"N{i}_{j}", i * cell, j * cell) for j in range(ny) for i in range(nx)]
    members = [member(f"M{i}_{j}", f"N{i}_{j}", f"N{i + 1}_{j}") for j in range(ny) for i in range(nx - 1)]
    return build_model(model(nodes, members), statics_only=True)


def test_a_pick_zoomed_far_out_finds_the_nearest_node():
    """At 7 px/m the 9 px pick radius is over a metre; at 1e-3 px/m it is 9 km and
    covers everything: the nearest node still wins, as a brute-force search says."""
    m = grid_model(30, 20)
    shapes = Shapes(m)
    rng = np.random.default_rng(1)
    pos = m.arrays.pos0[:, :2]
    for x, y in rng.uniform(-5, 20, (20, 2)):
        hit = shapes.pick(x, y, 9.0 / 1e-3)
        nearest = int(np.argmin(np.hypot(pos[:, 0] - x, pos[:, 1] - y)))
        assert (hit.kind, hit.index) == ("node", nearest)
        assert hit.distance == pytest.approx(float(np.hypot(*(pos[nearest] - (x, y)))))


def test_a_member_pick_is_the_nearest_segment():
    m = grid_model(5, 3)
    shapes = Shapes(m)
    hit = shapes.pick(0.8, 0.55, 0.2, kinds=("member",))
    assert hit.id == "M1_1" and hit.distance == pytest.approx(0.05)


# ---------------------------------------------------------------------- drawing, clipped
class Counting:
    """Counts the calls made to some pygame.draw functions (and still makes them)."""

    def __init__(self, monkeypatch, *names: str):
        self.calls = dict.fromkeys(names, 0)
        for name in names:
            real = getattr(pygame.draw, name)

            def counted(*args, _real=real, _name=name, **kwargs):
                self.calls[_name] += 1
                return _real(*args, **kwargs)

            monkeypatch.setattr(pygame.draw, name, counted)

    @property
    def total(self) -> int:
        return sum(self.calls.values())


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    pygame.font.init()
    return Fonts()


def test_clip_segment_and_polygon():
    box = (0.0, 0.0, 100.0, 50.0)
    (a, b, t0, t1) = draw.clip_segment((-100.0, 25.0), (300.0, 25.0), box)
    assert a == pytest.approx((0.0, 25.0)) and b == pytest.approx((100.0, 25.0))
    assert (t0, t1) == pytest.approx((0.25, 0.5))
    assert draw.clip_segment((-10.0, -10.0), (-1.0, 60.0), box) is None
    square = draw.clip_polygon([(-1e9, -1e9), (1e9, -1e9), (1e9, 1e9), (-1e9, 1e9)], box)
    assert {(round(x), round(y)) for x, y in square} == {(0, 0), (100, 0), (100, 50), (0, 50)}
    a, b, seen = draw.clip_segments(np.array([[-100.0, 25.0], [200.0, 200.0]]), np.array([[300.0, 25.0], [300.0, 300.0]]), box)
    assert seen.tolist() == [True, False]
    assert a[0] == pytest.approx((0.0, 25.0)) and b[0] == pytest.approx((100.0, 25.0))


def test_a_dashed_line_far_longer_than_the_screen_draws_only_what_it_shows(monkeypatch):
    """Zoomed to 1e6 px/m, a 10 m outline is 1e7 px long: some 700,000 dashes. Those on
    a 200 px screen are about 15."""
    surface = pygame.Surface((200, 200))
    counting = Counting(monkeypatch, "line")
    draw.dashed(surface, (0, 0, 0), (-5e6, 100.0), (5e6, 100.0), 2, 8, 6)
    assert 10 <= counting.calls["line"] <= 20
    assert surface.get_at((100, 100))[:3] == (0, 0, 0) or surface.get_at((95, 100))[:3] == (0, 0, 0)
    counting.calls["line"] = 0
    draw.dashed(surface, (0, 0, 0), (-5e6, -50.0), (5e6, -50.0), 2)  # wholly off the screen
    assert counting.calls["line"] == 0


def test_the_build_zone_at_a_million_pixels_a_metre_costs_what_the_screen_shows(monkeypatch):
    surface = pygame.Surface((400, 300))
    zone = [(0.0, 0.0), (10.0, 0.0), (10.0, 5.0), (0.0, 5.0)]
    view = View(1e6, -2e6, 1e6)  # the point (2, 1) m at the screen's top left corner
    counting = Counting(monkeypatch, "line", "polygon")
    items = render.zone_items(surface.get_rect(), view, zone, (200, 220, 240), (0, 0, 255))
    assert [type(item) for item in items] == [Polygon, Dashes, Dashes, Dashes, Dashes]  # the tint, cut to the screen, and the outline
    assert all(abs(x) <= 400 + 2 * render.BEYOND_PX and abs(y) <= 300 + 2 * render.BEYOND_PX for x, y in items[0].points)
    Backend().draw(surface, items)
    assert counting.calls["polygon"] == 1 and counting.calls["line"] == 0  # inside the zone: tint only
    assert surface.get_at((200, 150))[:3] == (200, 220, 240)
    view = View(1e6, 200.0 - 1e7, 150.0 + 5e6)  # the zone's corner (10, 5) m in the middle
    Backend().draw(surface, render.zone_items(surface.get_rect(), view, zone, (200, 220, 240), (0, 0, 255)))
    assert counting.calls["line"] <= 2 * (250 // 16 + 2)


# ---------------------------------------------------------------------- members, batched
def lattice(nx: int, ny: int, cell: float = 0.5):
    """An X-braced lattice of nx × ny cells: 4 nx ny + nx + ny bars."""
    nodes = [(f"N{i}_{j}", i * cell, j * cell) for j in range(ny + 1) for i in range(nx + 1)]
    members = []
    for j in range(ny + 1):
        for i in range(nx + 1):
            pairs = [((i, j), (i + 1, j))] if i < nx else []
            pairs += [((i, j), (i, j + 1))] if j < ny else []
            pairs += [((i, j), (i + 1, j + 1)), ((i + 1, j), (i, j + 1))] if i < nx and j < ny else []
            for p, q in pairs:
                members.append(member(f"M{len(members)}", "N{}_{}".format(*p), "N{}_{}".format(*q)))
    return build_model(model(nodes, members), statics_only=True)


def loaded(m) -> Simulation:
    """A simulation whose bars carry forces of both signs and all sizes (set by hand:
    the drawing only reads them)."""
    sim = Simulation(m, "rk4")
    n = len(m.arrays.bar_ij)
    sim.state.member_out[0] = 1e4 * np.sin(np.arange(n) * 0.7) * np.linspace(0.1, 1.0, n)
    return sim


def reference_members(surface: pygame.Surface, painter: render.StructurePainter, sim: Simulation, pts: np.ndarray) -> None:
    """The members as they were drawn before batching: one band (a polygon) each, in order (a lattice of bars only: member order is the bars' order)."""
    axial = sim.state.member_out[0]
    ref = painter.member_scale.value
    ij = painter.member_ij
    cap = render.thinned(pts[ij[:, 0]], pts[ij[:, 1]], np.ones(len(ij), dtype=bool))  # members short on the screen are drawn thinner
    for (i, j), n in zip(ij.tolist(), axial.tolist(), strict=True):
        width = MEMBER_MIN_PX + (MEMBER_MAX_PX - MEMBER_MIN_PX) * min(abs(n) / ref, 1.0)
        width = max(width * min(1.0, cap / MEMBER_MAX_PX), min(MEMBER_MIN_PX, cap))
        sign = 1 if n > ZERO_SHARE * ref else -1 if n < -ZERO_SHARE * ref else 0
        draw.segment(surface, SIGN_COLOUR[sign], tuple(pts[i]), tuple(pts[j]), width)


def colour_masks(surface: pygame.Surface) -> dict:
    rgb = pygame.surfarray.array3d(surface).astype(int)
    return {c: (np.abs(rgb - np.array(SIGN_COLOUR[c])).sum(axis=2) < 30) for c in (-1, 0, 1)}  # tight: a blend of blue and orange edges is near the grey


@pytest.mark.parametrize("cells", [(4, 2), (16, 6)])  # 34 members (anti-aliased bands), 422 (thick lines)
def test_batched_members_cover_the_pixels_they_did(fonts, cells):
    """Each colour covers nearly the same pixels as the old one-band-per-member drawing:
    the same colours, and widths that mean the same force at every angle."""
    m = lattice(*cells)
    sim = loaded(m)
    stage = Stage("t", "sandbox", "", None, ())
    painter = render.StructurePainter(fonts, stage, m, [])
    size = (900, 500)
    view = View.fit((0.0, 0.0, 0.5 * cells[0], 0.5 * cells[1]), (0, 0, *size), 40)
    new, old = pygame.Surface(size), pygame.Surface(size)
    for s in (new, old):
        s.fill(BACKGROUND)
    painter.member_scale.update(float(np.abs(sim.state.member_out[0]).max()))
    pts = view.points(sim.state.pos[:, :2])
    bands = [item for item in painter.sketch(new.get_rect(), view, sim, values=False) if isinstance(item, Bands)]
    assert len(bands) == 1 and bands[0].smooth == (len(m.member_ids) <= render.SMOOTH_UP_TO)
    Backend().draw(new, bands)
    reference_members(old, painter, sim, pts)
    # Thick lines end square to the axes, not to the member, and have no anti-aliased
    # edges; members about zero are 2 px thin and mostly under others: a looser match.
    for sign, least in ((-1, 0.8), (1, 0.8), (0, 0.6)):
        a, b = colour_masks(new)[sign], colour_masks(old)[sign]
        union = (a | b).sum()
        assert union > 100, sign
        assert (a & b).sum() / union > least, sign


def test_zoomed_far_in_only_the_members_on_screen_are_drawn(fonts, monkeypatch):
    m = lattice(40, 10)  # 850 members
    sim = loaded(m)
    painter = render.StructurePainter(fonts, Stage("t", "sandbox", "", None, ()), m, [])
    surface = pygame.Surface((300, 200))
    view = View(2e4, 300 / 2 - 2e4 * 5.1, 200 / 2 + 2e4 * 2.7)  # 15 mm by 10 mm around (5.1, 2.7) m: inside a cell
    counting = Counting(monkeypatch, "line", "polygon", "aalines", "circle")
    painter.draw(surface, view, sim, values=True)
    assert counting.total == 0
    view = View(2e4, 300 / 2 - 2e4 * 5.0, 200 / 2 + 2e4 * 2.5)  # on the node (5, 2.5) m: its 8 members
    painter.draw(surface, view, sim, values=True)
    assert 8 <= counting.calls["polygon"] + counting.calls["line"] <= 8 * 2


# ---------------------------------------------------------------------- labels
def test_labels_thinned_to_those_that_fit_and_rendered_once(fonts, monkeypatch):
    surface = pygame.Surface((400, 300))
    rng = np.random.default_rng(3)
    values, xs, ys = rng.normal(0, 10, 2000), rng.uniform(-50, 450, 2000), rng.uniform(-50, 350, 2000)
    labels = [(f"{v:+.3g}", (float(x), float(y)), (0, 0, 0), "center") for v, x, y in zip(values, xs, ys, strict=True)]
    rendered = []

    class Font:  # counts what is rendered
        def render(self, *args):
            rendered.append(args[0])
            return fonts.small.render(*args)

        def size(self, text):
            return fonts.small.size(text)

    class Counted:
        small = Font()
        scale = 1.0  # the fonts' scale (palette.Fonts), which the text caches key by

    layer, backend = LabelLayer(Counted()), Backend(Counted())

    def frame() -> list:
        layer.begin()
        sketch = Sketch(surface.get_rect())
        for text, at, colour, anchor in labels:
            layer.put(sketch, "small", text, at, colour, anchor)
        backend.draw(surface, sketch.items)
        return sketch.items

    drawn = frame()
    plates = [pygame.Rect(label.plate) for label in drawn]
    assert 10 < len(drawn) < 300  # what fits in 400 × 300 px, not 2000
    assert all(surface.get_rect().contains(p) for p in plates)
    assert not any(a.colliderect(b) for k, a in enumerate(plates) for b in plates[k + 1 :])
    first = len(rendered)
    assert first == len({label.text for label in drawn})  # only the texts drawn are rendered, each once
    assert frame() == drawn
    assert len(rendered) == first  # the second frame renders nothing anew


# ---------------------------------------------------------------------- zoom limits
def test_zoom_limits_keep_the_structure_in_sight():
    bounds, rect = (0.0, 0.0, 10.0, 4.0), (0, 0, 1000, 600)
    view = View.fit(bounds, rect)
    least, most = View.scale_limits(bounds, rect)
    out = view
    for _ in range(200):
        out = out.zoomed(1 / 1.15, (990, 590), bounds, rect)
    assert out.scale == pytest.approx(least) and 10.0 * out.scale >= 39.9
    near = out
    for _ in range(400):
        near = near.zoomed(1.15, (5, 5), bounds, rect)
    assert near.scale == pytest.approx(most)
    for v in (out, near):  # some of the structure's box is on the screen
        (x0, y1), (x1, y0) = v.point(0.0, 0.0), v.point(10.0, 4.0)
        assert x1 > rect[0] and x0 < rect[0] + rect[2] and y1 > rect[1] and y0 < rect[1] + rect[3]
    panned = View(view.scale, view.ox + 1e6, view.oy).in_sight(bounds, rect)
    assert panned.point(0.0, 0.0)[0] <= rect[2] - 39.9


# ---------------------------------------------------------------------- the benchmark's models
@pytest.mark.parametrize("members", [100, 600, 2000])
def test_the_frame_benchmark_lattices_are_the_sizes_it_names(members):
    from benchmarks.frames import lattice_design

    m = build_model(lattice_design(members), statics_only=True)
    assert abs(len(m.member_ids) - members) <= 0.05 * members


# ---------------------------------------------------------------------- a whole scene
def test_a_level_zoomed_in_with_the_wheel_draws_a_bounded_number_of_shapes(monkeypatch):
    """bridge-01 at the wheel's closest zoom: its build zone's outline, ground and deck
    run millions of pixels past the window. A frame draws what the window shows (before,
    the outline alone was some 10⁶ dashes a frame)."""
    app = App(fixed_frame=FRAME)
    try:
        app.push(PlayScene(app, load_stage(level_path("bridge-01"))))
        app.frame()
        w, h = app.screen.get_size()
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(w // 3, h // 2), rel=(0, 0), buttons=(0, 0, 0)))
        for _ in range(120):  # 1.15¹²⁰ ≈ 2·10⁷: to the zoom limit
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0))
        app.frame()
        counting = Counting(monkeypatch, "line", "lines", "polygon", "circle", "aalines")
        app.frame()
        assert counting.total < 500
    finally:
        app.close()


@pytest.mark.parametrize("size", [(800, 600), (1280, 800)])
def test_a_large_design_at_its_fitted_view_shows_its_bays_not_a_block(fonts, size):
    """2,060 members, 0.5 m bays fitted in the play screen's world (the window less the
    legend and the bars): members drawn 14 px wide in bays of 10 px were a solid block of
    colour (issue 33). Thinned to a share of the typical member's drawn length, the bays
    show: over a third of the structure's outline is background, and no member is wider
    than render.BAY_SHARE of the median drawn length."""
    m = lattice(50, 10)
    assert len(m.member_ids) >= 2000
    sim = loaded(m)
    painter = render.StructurePainter(fonts, Stage("t", "sandbox", "", None, ()), m, [])
    painter.member_scale.update(float(np.abs(sim.state.member_out[0]).max()))
    world = pygame.Rect(0, 0, size[0] - 236, size[1] - 150)
    view = View.fit((0.0, 0.0, 25.0, 5.0), tuple(world), 40)
    surface = pygame.Surface(size)
    surface.fill(BACKGROUND)
    items = painter.sketch(surface.get_rect(), view, sim, values=False)
    Backend(fonts).draw(surface, items)
    (bands,) = [item for item in items if isinstance(item, Bands)]
    length = np.hypot(*(bands.b - bands.a).T)
    assert bands.width.max() <= max(1.0, render.BAY_SHARE * float(np.median(length))) + 1e-9
    pts = view.points(sim.state.pos[:, :2])
    (x0, y0), (x1, y1) = pts.min(axis=0).astype(int), pts.max(axis=0).astype(int)
    inside = pygame.surfarray.array3d(surface)[x0:x1, y0:y1].astype(int)
    seen = (np.abs(inside - np.array(BACKGROUND)).sum(axis=2) < 20).mean()
    assert seen > 0.35, f"{seen:.0%} of the structure's outline shows the background"
