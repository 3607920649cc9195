"""A running structure as the player sees it: ground, plates, members, joints, supports,
loads and reactions, with forces shown by colour and width.

What to draw is made first, without a surface: `StructurePainter.sketch` returns the
frame's picture as a list of drawing records (game/app/draw/drawlist.py: lines, polygons,
arrows, labels…, in screen pixels), and `draw` hands that list to the pygame backend
(game/app/draw/backend.py). Reads the engine's public Simulation (state arrays,
reactions) and Model (ids, element arrays, loads) and never writes them.
Glossary: N axial force [N], positive in tension; σm = (σx + σy)/2 a plate's mean stress
[Pa], positive in tension.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cached_property

import numpy as np
import pygame

from equilibria.app.draw import contacts, symbols
from equilibria.app.draw import primitives as draw
from equilibria.app.draw.backend import Backend
from equilibria.app.draw.beamdraw import SpreadLoads
from equilibria.app.draw.cuts import CutMarks
from equilibria.app.draw.drawlist import Arrow, Bands, Box, Circle, Curl, Dashes, Item, Layer, Line, Polygon, Sketch, curl_label_at
from equilibria.app.draw.labels import LabelLayer
from equilibria.app.draw.palette import (
    BROKEN,
    GROUND,
    GROUND_LINE,
    INK,
    JOINT,
    LOAD,
    MARK,
    MEMBER_MAX_PX,
    MEMBER_MIN_PX,
    MUTED,
    OWN_FORCE,
    PLATE,
    REACTION,
    SIGN_COLOUR,
    SIGN_TEXT,
    ZERO_SHARE,
    Fonts,
    mix,
)
from equilibria.app.session.stage import Stage
from equilibria.app.session.view import View
from equilibria.engine import histories
from equilibria.engine.model import Model
from equilibria.engine.results import member_ends, member_results
from equilibria.engine.simulation import Simulation
from equilibria.words.figures import GIVEN_FIGURES, figure, kn
from equilibria.words.i18n import _, decimal

JOINT_PX = 4.5  # radius of a pin joint [px]
SMOOTH_UP_TO = 400  # members on screen; more are drawn as plain thick lines (a third of the cost of a band with anti-aliased edges)
BEYOND_PX = 40  # [px] how far outside the clip area a mark may start and still reach into it
ARROW_PX = 70.0  # [px] the length of the arrow of a scene's reference force (the legend says which)
SHORTEST_PX = 12.0  # [px] no arrow is drawn shorter (a tiny force still shows its direction and head; its value is written)
HEAD_PX = 13.0  # [px] an arrow's head; a shorter arrow gets a head of half its length
LONGEST_PX = 3 * ARROW_PX  # [px] nor longer (a reaction far above the loads, a huge added force)
DEFAULT_REF = 10e3  # [N] the reference force of a scene with no loads and no weight (an empty sandbox)
NAME = (90, 90, 110)  # node and member names
ALONG_COS = 0.94  # an arrow within 20° of a member (cos 20°) would hide it: drawn on the other side
SECTION_MAX_PX = 12.0  # [px] the width of a member of the largest section on offer, while the player builds
SECTION_MIN_PX = 3.0  # [px] and no member narrower (a thin cable stays in sight)


def section_widths(model: Model, areas: dict[str, float], widest: float) -> np.ndarray:
    """Each member's width (M,) [px] in member order as the player builds: a member's
    width grows with the square root of its cross-section's area (its size across, where
    the area grows with its square), SECTION_MAX_PX for a `widest` [m²] one (the widest
    of the structure) and never under SECTION_MIN_PX nor over SECTION_MAX_PX. areas:
    member id → A [m²]."""
    widths = np.array([SECTION_MAX_PX * math.sqrt(areas.get(mid, 0.0) / widest) for mid in model.member_ids])
    return np.clip(widths, SECTION_MIN_PX, SECTION_MAX_PX)


class Scale:
    """A reference magnitude that follows a new peak at once and falls back slowly
    (so that widths do not flicker as a structure vibrates), never below `floor`."""

    def __init__(self, floor: float, decay: float = 0.97):
        self.floor = floor
        self.decay = decay
        self.peak = 0.0

    @property
    def value(self) -> float:
        return max(self.peak, self.floor)

    def update(self, value: float) -> float:
        """Take this frame's largest magnitude; return the reference."""
        self.peak = max(value, self.peak * self.decay)
        return self.value


def full_loads(model: Model, rows: range | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per node: the load at its fullest (N, 3) [N, N, N m], each load (of `rows`, the
    rows of the model's loads; default all) at the history value of largest size, and
    the time its last history ends (N,) [s] (0: constant)."""
    m = model.arrays
    full = np.zeros((model.n_nodes, 3))
    ends = np.zeros(model.n_nodes)
    rows = range(len(m.load_node)) if rows is None else rows
    for k in rows:
        node, h = int(m.load_node[k]), int(m.load_hist[k])
        full[node] += histories.peak(m, h) * m.load_f[k]
        ends[node] = max(ends[node], histories.end(m, h))
    return full, ends


def reference_force(load_ref: float, allowed: float = 0.0, weight: float = 0.0) -> float:
    """The force [N] a scene draws ARROW_PX long, the same for every arrow in it (given
    loads, the student's forces dragged or typed, reactions): its largest given load;
    else the largest force the level allows; else the structure's weight (a scene
    loaded by gravity alone: its reactions in proportion to it); else DEFAULT_REF."""
    return next((f for f in (load_ref, allowed, weight) if f > 0.0), DEFAULT_REF)


def arrow_head(length: float, scale: float = 1.0) -> tuple[float, float]:
    """(head length, head width) [px] of an arrow `length` px long: the usual head (grown
    with the text's `scale`), or half the arrow for a short one, so that a small force's
    arrow stays in proportion."""
    head = min(HEAD_PX * scale, 0.5 * length)
    return head, head * 10.0 / 13.0


def loads_now(model: Model, t: float, rows: range) -> np.ndarray:
    """Per node, (N, 3) [N, N, N m]: the loads of `rows` at time t (their histories'
    piecewise-linear scale, held at the ends)."""
    m = model.arrays
    out = np.zeros((model.n_nodes, 3))
    for k in rows:
        out[int(m.load_node[k])] += histories.scale(m, int(m.load_hist[k]), t) * m.load_f[k]
    return out


def zone_items(area: pygame.Rect, view: View, zone: list[tuple[float, float]], fill: tuple, line: tuple) -> list[Item]:
    """A build zone (world polygon [m]) tinted with `fill` and outlined in dashes of
    `line`, the tint cut to the clip area `area` [px] first and the dashes drawn only
    where they show: zoomed far in, it costs what the screen shows, not the millions of
    pixels of its whole outline."""
    pts = [view.point(x, y) for x, y in zone]
    inside = draw.clip_polygon(pts, area.inflate(2 * BEYOND_PX, 2 * BEYOND_PX))
    out: list[Item] = [Polygon(tuple(inside), fill)] if len(inside) >= 3 else []
    return out + [Dashes(a, b, line, 2, 10, 6) for a, b in zip(pts, pts[1:] + pts[:1], strict=True)]


class Vehicle:
    """A goal's moving load (game/format/schema.py MovingLoad) drawn as a truck on the deck.

    The level turns it into nodal loads with hat-shaped histories; here the same
    shares say where it is: at arc length s = speed (t − start) along the path (negative:
    still to come, past the end: gone)."""

    def __init__(self, moving, model: Model):
        self.moving = moving
        self.path = np.array([model.node_index(n) for n in moving.path], dtype=np.int64)
        self.force = np.array([moving.fx, moving.fy])
        where = {n: tuple(model.arrays.pos0[model.node_index(n), :2]) for n in moving.path}
        self.hats = [load["history"] for load in moving.loads(where)]
        steps = np.diff(model.arrays.pos0[self.path, :2], axis=0)
        self.stations = np.concatenate(([0.0], np.cumsum(np.hypot(steps[:, 0], steps[:, 1]))))  # [m] along the path

    def shares(self, t: float) -> np.ndarray:
        """The share of the load each path node carries at time t (the hat functions)."""
        return np.array([np.interp(t, [h[0][0], h[1][0], h[2][0]], [0.0, 1.0, 0.0]) for h in self.hats])

    def where(self, t: float, pts: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
        """The point on screen under the vehicle and the unit direction it drives in:
        its distance along the path as built, laid on the path where it is now (carried
        on straight before the first node and after the last)."""
        s = self.moving.speed * (t - self.moving.start)
        k = int(np.clip(np.searchsorted(self.stations, s, side="right") - 1, 0, len(self.path) - 2))
        a, b = pts[self.path[k]], pts[self.path[k + 1]]
        f = (s - self.stations[k]) / max(self.stations[k + 1] - self.stations[k], 1e-12)
        at = a + f * (b - a)
        u = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
        return (float(at[0]), float(at[1])), (float(u[0]), float(u[1]))

    def draw(self, sketch: Sketch, t: float, pts: np.ndarray, labels: LabelLayer) -> None:
        """A truck standing on the deck where the load is (a see-through layer, so the
        members behind it show), its weight written over it; grey before it comes on
        and after it has left."""
        on = float(self.shares(t).sum()) > 1e-9
        colour = LOAD if on else MUTED
        (x, y), (ux, _) = self.where(t, pts)
        body = pygame.Rect(2, 2, 52, 24) if ux >= 0 else pygame.Rect(22, 2, 52, 24)
        cab = pygame.Rect(body.right + 2, 10, 18, 16) if ux >= 0 else pygame.Rect(body.left - 20, 10, 18, 16)
        truck: list[Item] = [Box(tuple(body), (*colour, 170), radius=3), Box(tuple(cab), (*colour, 200), top_radius=6)]
        truck += [Circle((wx, 30), 5, (*INK, 230)) for wx in (body.left + 10, body.right - 8, cab.centerx)]
        at = pygame.Rect(0, 0, 76, 36)
        at.midbottom = (round(x), round(y - JOINT_PX))
        sketch.add(Layer(tuple(at), tuple(truck)))
        labels.put(sketch, "bold", kn(float(np.hypot(*self.force))), (at.centerx, at.top - 2), colour, "midbottom")


class StructurePainter:
    """Makes the picture of one stage's structure (`sketch`: a list of drawing records) and
    draws it (`draw`: the list handed to its backend); keeps only its own scales, its
    label layer's text sizes and its backend's text images between frames."""

    def __init__(
        self,
        fonts: Fonts,
        stage: Stage,
        model: Model | None,
        supports: list[tuple[str, frozenset[str]]] | None = None,
        *,
        own_loads: int = 0,
        force_ref: float | None = None,
        section_px: np.ndarray | None = None,
    ):
        """supports: (node id, locked DOFs) of each support drawn (default: the stage's);
        own_loads: how many of the model's loads, the last ones, the player added (drawn
        apart from the given loads, in their own colour); force_ref [N]: the force whose
        arrow is ARROW_PX long, the same for the whole scene (default: the largest load);
        section_px: the members' widths (M,) [px] by section (`section_widths`), drawn
        instead of widths by force while the player builds (`draw(built=True)`)."""
        self.section_px = section_px
        self.fonts = fonts
        self.stage = stage
        self.model = model
        n_loads = model.point_loads if model else 0  # the member loads' equivalents follow: drawn as rows of arrows (self.spread)
        self.given = range(n_loads - own_loads)
        self.own = range(n_loads - own_loads, n_loads)
        self.full, self.load_ends = full_loads(model, self.given) if model else (np.zeros((0, 3)), np.zeros(0))
        self.own_full = full_loads(model, self.own)[0] if model else np.zeros((0, 3))
        goal = stage.level.goal if stage.level is not None else None
        self.vehicle = Vehicle(goal.moving_load, model) if model is not None and goal and goal.moving_load else None
        if self.vehicle is not None:  # drawn as one vehicle, not as a load at every deck node
            self.full[self.vehicle.path, :2] -= self.vehicle.force
            self.full[np.abs(self.full) < 1e-9 * max(1.0, float(np.abs(self.vehicle.force).max()))] = 0.0
        self.spread = SpreadLoads(model)
        self.point_ref = float(np.hypot(self.full[:, 0], self.full[:, 1]).max(initial=0.0))  # [N] the largest given point load (a vehicle's too)
        if self.vehicle is not None:
            self.point_ref = max(self.point_ref, float(np.hypot(*self.vehicle.force)))
        self.load_ref = max(self.point_ref, self.spread.largest)  # [N] and a distributed load's resultant
        own_ref = float(np.hypot(self.own_full[:, 0], self.own_full[:, 1]).max(initial=0.0))
        self.force_ref = force_ref or max(self.load_ref, own_ref, 1.0)
        self.labels = LabelLayer(fonts)
        self.backend = Backend(fonts)
        self.member_scale = Scale(max(self.load_ref, 1.0))
        self.plate_scale = Scale(1.0)
        self.supports: list[tuple[int, str, tuple[float, float]]] = []
        self.hinges = np.zeros((0, 2), dtype=np.int64)  # (member, end 0 | 1): a beam's end pinned where the joint is rigid
        self.rigid = np.zeros(0, dtype=bool)
        self.ties: tuple[np.ndarray, ...] = ()  # what joins the nodes (members, plates): a support's symbol keeps clear of it
        empty = np.zeros((0, 2), dtype=np.int64)
        self.member_ij = member_ends(model) if model else empty  # (M, 2) in member order
        self.arrows = ForceArrows(self)
        cuts = getattr(stage.level, "cut", None) if stage.level is not None else None
        self.cuts = CutMarks(self, cuts) if model is not None and cuts else None  # a free body's cuts, drawn as its diagram
        if model is not None:
            self.rigid = np.zeros(model.n_nodes, dtype=bool)
            r = member_results(model)
            held = r.bending[:, None] & ~r.pinned  # a beam-column's ends that are not pinned to their node
            self.rigid[self.member_ij[held]] = True  # where a beam-column meets it, held from turning
            self.hinges = np.argwhere(r.bending[:, None] & r.pinned & self.rigid[self.member_ij])  # (member, end) pinned at a rigid joint
            self.ties = (self.member_ij, model.arrays.tri_ijk.astype(np.int64))
            placed = [(model.node_index(node), symbols.support_type(fix)) for node, fix in (stage.supports() if supports is None else supports)]
            pos, tol = model.arrays.pos0[:, :2], 1e-6 * model.char_length
            for q, kind in placed:
                walled = symbols.on_wall(pos, q, [p for p, _ in placed], tol)
                self.supports.append((q, kind, symbols.side(pos, self.ties, q, kind, walled=walled)))
            for q, nx, ny in model.rollers:  # a roller on a line at any angle: drawn on its incline
                self.supports.append((q, symbols.ON_LINE, symbols.across(pos, self.member_ij, q, (nx, ny))))

    @property
    def stroke(self) -> int:
        """An arrow's line [px]: 3 at 100 %, grown with the text's scale (palette.Fonts)."""
        return max(2, round(3 * self.fonts.scale))

    @property
    def loads_to_come(self) -> bool:
        """Whether some load follows a history (and may be drawn as still to come)."""
        return bool((self.load_ends > 0).any())

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, view: View, sim: Simulation | None, **how) -> None:
        """The structure drawn on `surface`: its picture made for the surface's clip area
        (`sketch`, with `how` its options) and handed to the backend."""
        self.backend.draw(surface, self.sketch(surface.get_clip() or surface.get_rect(), view, sim, **how))

    def sketch(
        self,
        area: pygame.Rect,
        view: View,
        sim: Simulation | None,
        *,
        values: bool,
        forces: bool = True,
        pos: np.ndarray | None = None,
        names: Sequence[str] = (),
        begin: bool = True,
        reactions: bool = True,
        built: bool = False,
    ) -> list[Item]:
        """The frame's picture for the clip area `area` [px], as drawing records, in the
        order that keeps the important things on top (the last on top). forces
        False draws every member alike (a puzzle that asks which carry nothing); `pos`
        (N, 2) [m] draws the structure there instead of where it is (a magnified
        deflection, a mechanism's motion); `names`: the nodes and members to name.
        Labels go through one layer, so none covers another: loads, reactions, names,
        then member values, most loaded first, as many as there is room for (`begin`
        False: the caller began the frame's labels and placed some first); `built`: the
        player builds, and members are as wide as their sections (if section_px). Touches
        no surface: the records are drawn by `draw` (the backend)."""
        sketch = Sketch(pygame.Rect(area))
        if begin:
            self.labels.begin()
        self.ends: list[tuple[float, float, float, float]] = []  # [px] the force values' boxes this frame (reach)
        self.taken: dict[int, list[tuple[float, float]]] = {}  # node → the directions [screen] its arrows and symbols leave in
        self.rings: dict[int, float] = {}  # node → the radius [px] of a moment's curl drawn round it
        self._ground(sketch, view)
        if sim is None:
            return sketch.items
        pts = view.points(sim.state.pos[:, :2] if pos is None else pos[:, :2])
        if self.cuts is not None:
            self.cuts.under(sketch, pts, view.points(self.model.arrays.pos0[:, :2]))
        self._plates(sketch, sim, pts)
        by_section = self.section_px if built else None
        labels, first = self._members(sketch, sim, pts, values=values and forces, forces=forces, by_section=by_section)
        self._joints(sketch, pts)
        if self.cuts is not None:
            self.cuts.over(sketch, pts)
        near = self._near(sketch.area, pts)
        for q, kind, side in self.supports:
            if near[q]:
                sketch.add(*symbols.support_items(kind, tuple(pts[q].tolist()), side))
                self.taken.setdefault(q, []).append(side)
        contacts.contact_surfaces(sketch, view, sim, near, self._text)
        self._loads(sketch, sim, pts, near)
        self.spread.draw(sketch, self, sim, pts, near, LOAD)
        if reactions:
            self._reactions(sketch, sim, pts, near)
            contacts.contact_forces(sketch, sim, pts, near, (self.arrows.arrow_px, arrow_head), self._text, 5e-3 * self.force_ref)
        self._names(sketch, pts, names)
        if self.cuts is not None:
            self.cuts.labels(sketch, pts)
        if values:
            for text, at, colour, anchor in labels:
                self.labels.put(sketch, "small", text, at, colour, anchor)
        if first is not None:
            self._mark_first(sketch, *first)
        self.reach = beyond(pts, self.ends)
        return sketch.items

    reach: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # see beyond: of the frame drawn last

    @staticmethod
    def _near(area: pygame.Rect, pts: np.ndarray) -> np.ndarray:
        """(N,) bool: the nodes on the clip area or near enough (4 BEYOND_PX: an arrow
        with its value reaches some 150 px) that what is drawn at them may reach into it."""
        area = area.inflate(8 * BEYOND_PX, 8 * BEYOND_PX)
        x, y = pts[:, 0], pts[:, 1]
        return (x >= area.left) & (x <= area.right) & (y >= area.top) & (y <= area.bottom)

    def _ground(self, sketch: Sketch, view: View) -> None:
        """The ground polyline, carried on level to the screen's edges, earth below it;
        cut to the clip area first (zoomed far in, its points lie far off the screen)."""
        ground = self.stage.ground
        if len(ground) < 2:
            return
        area = sketch.area
        line = [view.point(x, y) for x, y in ground]
        line = [(min(area.left, line[0][0]), line[0][1]), *line, (max(area.right, line[-1][0]), line[-1][1])]
        box = area.inflate(2 * BEYOND_PX, 2 * BEYOND_PX)
        earth = draw.clip_polygon([*line, (line[-1][0], box.bottom), (line[0][0], box.bottom)], box)
        if len(earth) >= 3:
            sketch.add(Polygon(tuple(earth), GROUND))
        for a, b in itertools.pairwise(line):
            seen = draw.clip_segment(a, b, box)
            if seen is not None:
                sketch.add(Line(seen[0], seen[1], GROUND_LINE, 3))

    def _plates(self, sketch: Sketch, sim: Simulation, pts: np.ndarray) -> None:
        s = sim.state
        if not len(s.tri_out):
            return
        mean = 0.5 * (s.tri_out[:, 0] + s.tri_out[:, 1])
        on = s.tri_on
        ref = self.plate_scale.update(float(np.abs(mean[on]).max(initial=0.0)))
        area = sketch.area
        corners = pts[self.model.arrays.tri_ijk.astype(np.int64)]  # (T, 3, 2) [px]
        low, high = corners.min(axis=1), corners.max(axis=1)
        seen = on & (high[:, 0] >= area.left) & (low[:, 0] <= area.right) & (high[:, 1] >= area.top) & (low[:, 1] <= area.bottom)
        box = area.inflate(2 * BEYOND_PX, 2 * BEYOND_PX)
        for k in np.flatnonzero(seen).tolist():
            share = abs(mean[k]) / ref
            colour = mix(PLATE, SIGN_COLOUR[1 if mean[k] > 0 else -1], 0.2 + 0.8 * share) if share > ZERO_SHARE else PLATE
            tri = draw.clip_polygon([tuple(p) for p in corners[k].tolist()], box)
            if len(tri) >= 3:
                sketch.add(Polygon(tuple(tri), colour, edge=mix(colour, INK, 0.35)))

    def _members(self, sketch: Sketch, sim: Simulation, pts: np.ndarray, *, values: bool, forces: bool, by_section=None) -> tuple[list, tuple | None]:
        """The members on the clip area, as one Bands record (each cut to it first: zoomed
        far in, a member costs what the screen shows of it) and the broken ones' dashes;
        return their value labels (text, where, colour, anchor), most loaded first, if
        `values`, and the first to break (its ends on screen and when it broke), or None.
        Geometry is worked out for all members at once, and a frame keeps no Python object
        per member alive (such objects, thousands a frame, made the garbage collector sweep
        the whole heap every few frames): the Bands record holds arrays. by_section: the
        members' widths (M,) [px] to draw instead of widths by force."""
        ij = self.member_ij
        if not len(ij):
            return [], None
        r = member_results(sim.model, sim.state)
        on, axial = r.active, r.axial
        if not forces:  # every member alike, middling width, in a neutral colour (not the grey of "about zero")
            axial = np.full(len(ij), 0.3 * self.member_scale.value)
        ref = self.member_scale.update(float(np.abs(axial[on]).max(initial=0.0)))
        zero = ZERO_SHARE * ref
        box = sketch.area.inflate(2 * BEYOND_PX, 2 * BEYOND_PX)
        first, first_seen = r.first_broken(), None
        a, b, seen = draw.clip_segments(pts[ij[:, 0]], pts[ij[:, 1]], box)
        width = MEMBER_MIN_PX + (MEMBER_MAX_PX - MEMBER_MIN_PX) * np.minimum(np.abs(axial) / ref, 1.0)
        if by_section is not None:
            width = by_section
        # The lines grow with the text (Ctrl+=), and all of them shrink in proportion where
        # the members are too short on the screen for their widths (a large design fitted).
        cap, full = thinned(pts[ij[:, 0]], pts[ij[:, 1]], on & seen), MEMBER_MAX_PX * self.fonts.scale
        width = np.maximum(width * self.fonts.scale * min(1.0, cap / full), min(MEMBER_MIN_PX * self.fonts.scale, cap))
        sign = np.where(axial > zero, 1, np.where(axial < -zero, -1, 0)) if forces else np.full(len(ij), 2, dtype=np.int64)
        shown = np.flatnonzero(on & seen)
        sketch.add(Bands(shown, a[shown], b[shown], width[shown], sign[shown], SIGN_COLOUR, len(shown) <= SMOOTH_UP_TO))
        for k in np.flatnonzero(~on & seen).tolist():
            ends = (tuple(a[k].tolist()), tuple(b[k].tolist()))
            sketch.add(Dashes(*ends, BROKEN, 2))
            if k == first:
                first_seen = (*ends, float(r.break_time[k]))
        labels = member_value_labels(a, b, width, axial, sign, shown[sign[shown] != 0]) if values else []
        labels.sort(key=lambda label: -label[0])
        return [label[1:] for label in labels], first_seen

    def _mark_first(self, sketch: Sketch, a, b, t: float) -> None:
        """A cross on the first member to break, in the middle of its part on screen."""
        seen = draw.clip_segment(a, b, sketch.area.inflate(-40, -40))
        if seen is None:
            return
        (x0, y0), (x1, y1), _t0, _t1 = seen
        cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
        for dx, dy in ((1, 1), (1, -1)):
            sketch.add(Line((cx - 8 * dx, cy - 8 * dy), (cx + 8 * dx, cy + 8 * dy), MARK, 4))
        self.labels.put(sketch, "small", _("broke first, t = {t} s").format(t=decimal(t, 2)), (cx + 12, cy), INK, "midleft")

    def _joints(self, sketch: Sketch, pts: np.ndarray) -> None:
        """Pins as rings, rigid (beam) joints as dots; none where members are too short
        on screen for rings to help (a dense lattice)."""
        if self.member_ij.size:
            d = pts[self.member_ij[:, 1]] - pts[self.member_ij[:, 0]]
            if float(np.median(np.hypot(d[:, 0], d[:, 1]))) < 6 * JOINT_PX:
                return
        area = sketch.area
        xs, ys = pts[:, 0], pts[:, 1]
        seen = np.flatnonzero((xs >= area.left - JOINT_PX) & (xs <= area.right + JOINT_PX) & (ys >= area.top - JOINT_PX) & (ys <= area.bottom + JOINT_PX))
        for q, x, y in zip(seen.tolist(), xs[seen].tolist(), ys[seen].tolist(), strict=True):
            if self.rigid[q]:
                sketch.add(Circle((x, y), JOINT_PX - 1, INK))
            else:
                sketch.add(Circle((x, y), JOINT_PX, JOINT), Circle((x, y), JOINT_PX, INK, 2))
        for k, end in self.hinges.tolist():  # a beam pinned to a rigid joint: a ring on the beam beside it
            at, other = pts[self.member_ij[k, end]], pts[self.member_ij[k, 1 - end]]
            d = other - at
            size = float(np.hypot(*d))
            if size > 6 * JOINT_PX:
                c = tuple((at + d * (2.2 * JOINT_PX / size)).tolist())
                sketch.add(Circle(c, JOINT_PX, JOINT), Circle(c, JOINT_PX, INK, 2))

    def _text(self, sketch: Sketch, text: str, at: tuple[float, float], colour: tuple, anchor: str) -> None:
        """A bold label, placed where it covers no other; a force's value, at its arrow's
        far end: its box is kept (ends) whether or not it found room, the view fits it
        (reach)."""
        rect = pygame.Rect((0, 0), self.labels.size("bold", text))
        setattr(rect, anchor, (round(at[0]), round(at[1])))
        self.ends.append((rect.left, rect.top, rect.right, rect.bottom))
        self.labels.put(sketch, "bold", text, at, colour, anchor)

    @cached_property
    def _ids(self) -> tuple[dict[str, int], dict[str, int]]:
        """Each node id's index and each member id's: made once per painter (per model),
        not at every frame (Model.node_index searches the list)."""
        return {nid: q for q, nid in enumerate(self.model.node_ids)}, {mid: k for k, mid in enumerate(self.model.member_ids)}

    def _names(self, sketch: Sketch, pts: np.ndarray, names: Sequence[str]) -> None:
        """Node names beside their joints, on the side their members, arrows and
        symbols leave free (beyond a moment's curl) and no label covers, and member names
        beside their middles."""
        nodes, members = self._ids
        area = sketch.area
        for name in names:
            if name in nodes:
                q = nodes[name]
                if not area.collidepoint(pts[q]):
                    continue  # off the screen: no side would show
                (x, y), taken = pts[q], [*self.arrows.along(q, pts).tolist(), *self.taken.get(q, ())]
                reach = NAME_GAP_PX + self.rings.get(q, 0.0)
                for (dx, dy), anchor in free_sides(taken):  # the best side where it covers no label placed before
                    if self.labels.put(sketch, "small", name, (x + dx * reach, y + dy * reach), NAME, anchor) is not None:
                        break
            elif name in members:
                i, j = self.member_ij[members[name]]
                (ax, ay), (bx, by) = pts[i], pts[j]
                self.labels.put(sketch, "small", name, ((ax + bx) / 2 + 6, (ay + by) / 2 + 6), NAME, "topleft")

    def _loads(self, sketch: Sketch, sim: Simulation, pts: np.ndarray, seen: np.ndarray) -> None:
        """A moving load as a vehicle where it is; the other loads as they act now, in
        black with their value; a load still to come (zero now, growing later) with a
        dashed shaft and the value it will reach; the forces the player added in their
        own colour with a hollow head, beside any given load at the same node."""
        if self.force_ref <= 0.0:
            return
        now = loads_now(self.model, sim.time, self.given)
        if self.vehicle is not None:
            now[self.vehicle.path, :2] -= self.vehicle.shares(sim.time)[:, None] * self.vehicle.force
            self.vehicle.draw(sketch, sim.time, pts, self.labels)
        tiny = 1e-4 * self.force_ref
        for q in np.flatnonzero((np.abs(self.full).max(axis=1) > 0) & seen):
            f, to_come = now[q], False
            if math.hypot(f[0], f[1]) <= tiny and abs(f[2]) <= tiny * self.model.char_length:
                if sim.time >= self.load_ends[q]:
                    continue
                f, to_come = self.full[q], True
            self.arrows.draw(sketch, f, pts[q], LOAD, tiny, along=self.arrows.along(q, pts), q=q, dashed=to_come)
        if len(self.own):
            mine = loads_now(self.model, sim.time, self.own)
            for q in np.flatnonzero((np.abs(mine).max(axis=1) > tiny) & seen):
                beside = 0.0 if not np.abs(self.full[q]).max() else 10.0  # apart from a given load at the node
                self.arrows.draw(sketch, mine[q], pts[q], OWN_FORCE, tiny, beside, along=self.arrows.along(q, pts), q=q, hollow=True)

    def _reactions(self, sketch: Sketch, sim: Simulation, pts: np.ndarray, seen: np.ndarray) -> None:
        """Each support's reaction by components, drawn beyond its symbol: along the
        symbol's axis, and across it beside the symbol's foot; a moment as a curl."""
        if not self.supports:
            return
        r = sim.reactions()
        rows = [q for q, _, _ in self.supports]
        ref = max(self.force_ref, float(np.abs(r[rows, :2]).max(initial=0.0)), 1e-9)
        tiny = 5e-3 * ref
        for q, kind, (nx, ny) in self.supports:
            if not seen[q]:
                continue
            x, y = pts[q].tolist()
            reach, half = symbols.extent(kind)
            # By components; a roller on a line by its one force across the line (along the
            # symbol's axis, whose world direction is (nx, −ny)).
            parts = ((r[q, 0] * nx - r[q, 1] * ny, nx, ny),) if kind == symbols.ON_LINE else ((r[q, 0], 1.0, 0.0), (r[q, 1], 0.0, -1.0))
            for value, ax, ay in parts:
                if abs(value) <= tiny:
                    continue
                dx, dy = ax * math.copysign(1, value), ay * math.copysign(1, value)  # screen direction
                length = self.arrows.arrow_px(value)
                if abs(ax * nx + ay * ny) > 0.5:  # along the symbol's axis, beyond it
                    near = (x + nx * (reach + 4), y + ny * (reach + 4))
                    toward = dx * nx + dy * ny < 0
                    far = (near[0] + nx * length, near[1] + ny * length)
                    tail, head = (far, near) if toward else (near, far)
                    out = (nx, ny)
                else:  # across the axis, beside the symbol's foot
                    foot = (x + nx * 0.7 * reach, y + ny * 0.7 * reach)
                    head = (foot[0] - dx * (half + 4), foot[1] - dy * (half + 4))
                    tail = (head[0] - dx * length, head[1] - dy * length)
                    far, out = tail, (-dx, -dy)
                sketch.add(Arrow(tail, head, REACTION, self.stroke, *arrow_head(length, self.fonts.scale)))
                self.taken.setdefault(q, []).append(out)
                self._text(sketch, kn(abs(value)), (far[0] + out[0] * 4, far[1] + out[1] * 4), REACTION, draw.anchor_away(out))
            if kind == "fixed" and abs(r[q, 2]) > tiny * self.model.char_length:
                sketch.add(Curl((x, y), 30.0, REACTION, bool(r[q, 2] > 0)))
                self.rings[q] = max(self.rings.get(q, 0.0), 30.0)
                self._text(sketch, f"{figure(abs(r[q, 2]) / 1e3)} kN·m", curl_label_at((x, y), 30.0), REACTION, "bottomleft")


BAY_SHARE = 0.12  # no member drawn wider than this share of a typical member's drawn length


def thinned(a: np.ndarray, b: np.ndarray, shown: np.ndarray) -> float:
    """The widest a member may be drawn [px]: BAY_SHARE of the median drawn length of the
    members `shown` (from a (M, 2) to b [px]), at least 1 px. A large design at its fitted
    view (2,000 members in a window, bays of a few pixels) then shows its bays and
    members, not a block of colour; an ordinary one, its members a hundred pixels long,
    is drawn as wide as its forces ask (MEMBER_MAX_PX)."""
    if not shown.any():
        return math.inf
    d = b[shown] - a[shown]
    return max(1.0, BAY_SHARE * float(np.median(np.hypot(d[:, 0], d[:, 1]))))


def beyond(pts: np.ndarray, ends: list[tuple[float, float, float, float]]) -> tuple[float, float, float, float]:
    """How far [px] the boxes `ends` (left, top, right, bottom: the force values, at
    their arrows' far ends) reach beyond the nodes `pts` (N, 2) [px] on each side: left,
    top, right, bottom (0 where they do not)."""
    if not ends or not len(pts):
        return (0.0, 0.0, 0.0, 0.0)
    e = np.array(ends, dtype=float)
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    return (max(x0 - e[:, 0].min(), 0.0), max(y0 - e[:, 1].min(), 0.0), max(e[:, 2].max() - x1, 0.0), max(e[:, 3].max() - y1, 0.0))


NAME_GAP_PX = 8.0  # [px] from a joint's centre to its name
SIDES = tuple((math.cos(math.radians(a)), -math.sin(math.radians(a))) for a in (135, 45, 225, 315, 90, 180, 0, 270))  # up-left first
CLEAR_COS = 0.75  # a name's side is clear of a member or an arrow some 41° away from it (cos 41° = 0.75)
SIDE_ANCHORS = ("bottomright", "bottomleft", "topright", "topleft", "midbottom", "midright", "midleft", "midtop")
NAME_SIDES = tuple(zip(SIDES, SIDE_ANCHORS, strict=True))


def member_value_labels(a: np.ndarray, b: np.ndarray, width: np.ndarray, axial: np.ndarray, sign: np.ndarray, rows: np.ndarray) -> list:
    """(|N|, text, where, colour, anchor) of the members `rows`: beside the middle of
    each one's part on screen, on its upper side (its left when it is upright)."""
    d = b[rows] - a[rows]
    normal = np.stack((-d[:, 1], d[:, 0]), axis=1) / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    flip = (normal[:, 1] > 0) | ((normal[:, 1] == 0) & (normal[:, 0] > 0))
    up = np.where(flip[:, None], -normal, normal)
    at = 0.5 * (a[rows] + b[rows]) + up * (width[rows] / 2 + 4)[:, None]
    out = []
    for n, s, (x, y), (ux, uy) in zip(axial[rows].tolist(), sign[rows].tolist(), at.tolist(), up.tolist(), strict=True):
        out.append((abs(n), f"{'+' if n > 0 else '−'}{figure(abs(n) / 1e3)}", (x, y), SIGN_TEXT[s], draw.anchor_away((ux, uy))))
    return out


def free_sides(taken) -> list[tuple[tuple[float, float], str]]:
    """The sides [screen unit vectors] of a joint to put its name on, best first, each
    with the label anchor that puts the name beyond that point: the sides at least
    CLEAR_COS away in angle from every direction in `taken` (the members, arrows, cuts
    and symbols that leave the joint) in the order of SIDES (up-left first, as a textbook
    names joints; the corners before the straight sides), then the others, clearest first.
    Plain Python: a handful of directions, for every named joint of a frame."""
    units = [(x / h, y / h) for x, y in taken if (h := math.hypot(x, y)) > 1e-12]
    if not units:
        return list(NAME_SIDES)
    nearest = [max(sx * x + sy * y for x, y in units) for sx, sy in SIDES]  # cos of the angle to the nearest thing, per side
    clear = [k for k in range(len(SIDES)) if nearest[k] <= CLEAR_COS]
    rest = sorted((k for k in range(len(SIDES)) if nearest[k] > CLEAR_COS), key=nearest.__getitem__)
    return [NAME_SIDES[k] for k in clear + rest]


class ForceArrows:
    """Force arrows of one scene's scale: ARROW_PX long for `force_ref` [N], in
    proportion, for every load, reaction and added force; each on the side of its joint
    where it hides no member, its value at its far end."""

    def __init__(self, painter: StructurePainter):
        self.painter = painter
        self._neighbours: tuple[np.ndarray, np.ndarray] | None = None  # see along

    def arrow_px(self, force: float) -> float:
        """The length [px] of a force's arrow: in proportion, ARROW_PX for force_ref,
        the same scale for every load, reaction and added force of the scene (within
        SHORTEST_PX and LONGEST_PX)."""
        return min(max(ARROW_PX * abs(force) / self.painter.force_ref, SHORTEST_PX), LONGEST_PX)

    def along(self, q: int, pts: np.ndarray) -> np.ndarray:
        """(K, 2) unit screen directions of the members at node q."""
        if self._neighbours is None:  # worked out once: node → the nodes its members reach
            ij = self.painter.member_ij
            pairs = np.concatenate((ij, ij[:, ::-1])) if len(ij) else np.zeros((0, 2), dtype=np.int64)
            pairs = pairs[np.argsort(pairs[:, 0], kind="stable")]
            starts = np.searchsorted(pairs[:, 0], np.arange(self.painter.model.n_nodes + 1))
            self._neighbours = (pairs[:, 1], starts)
        others, starts = self._neighbours
        d = pts[others[starts[q] : starts[q + 1]]] - pts[q]
        return d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]

    def draw(
        self,
        sketch: Sketch,
        f,
        at,
        colour: tuple,
        tiny: float,
        beside: float = 0.0,
        along: np.ndarray | None = None,
        q: int | None = None,
        *,
        hollow: bool = False,
        dashed: bool = False,
    ) -> None:
        """A force f (fx, fy, m) [N, N, N m] on the node drawn at `at`: an arrow pushing
        on the joint (its head at the joint), or pulling it (its tail at the joint) where
        a pushing arrow would lie along a member (`along`: the members' directions), moved
        `beside` px across its line; its value at the far end. `q`: the node, whose name
        is then kept clear of the arrow (StructurePainter.taken, rings); `hollow`,
        `dashed`: the arrow's head an outline, its shaft in dashes (drawlist.Arrow)."""
        taken = self.painter.taken.setdefault(q, []) if q is not None else []
        x, y = float(at[0]), float(at[1])
        size = math.hypot(f[0], f[1])
        if size > tiny:
            ux, uy = f[0] / size, -f[1] / size  # screen direction of the force
            x, y = x - uy * beside, y + ux * beside
            length = self.arrow_px(size)
            behind = float((along @ np.array([-ux, -uy])).max(initial=-1.0)) if along is not None else -1.0
            ahead = float((along @ np.array([ux, uy])).max(initial=-1.0)) if along is not None else -1.0
            if behind > ALONG_COS and ahead < behind:  # pull: tail at the joint, clear of the member behind
                tail = (x + ux * (JOINT_PX + 2), y + uy * (JOINT_PX + 2))
                head = (tail[0] + ux * length, tail[1] + uy * length)
                far, out = head, (ux, uy)
            else:
                head = (x - ux * (JOINT_PX + 2), y - uy * (JOINT_PX + 2))
                tail = (head[0] - ux * length, head[1] - uy * length)
                far, out = tail, (-ux, -uy)
            sketch.add(Arrow(tail, head, colour, self.painter.stroke, *arrow_head(length, self.painter.fonts.scale), hollow=hollow, dashed=dashed))
            taken.append(out)
            label = kn(abs(size), GIVEN_FIGURES)  # a load as the brief gives it (14.05 kN, not 14.1 kN)
            self.painter._text(sketch, label, (far[0] + out[0] * 4, far[1] + out[1] * 4), colour, draw.anchor_away(out))
        if abs(f[2]) > tiny * self.painter.model.char_length:
            sketch.add(Curl((x, y), 22.0, colour, bool(f[2] > 0), hollow=hollow))
            if q is not None:
                self.painter.rings[q] = max(self.painter.rings.get(q, 0.0), 22.0)
            self.painter._text(sketch, f"{figure(abs(f[2]) / 1e3)} kN·m", curl_label_at((x, y), 22.0), colour, "bottomleft")
