"""Beams as a statics text draws them: distributed loads as a row of arrows with w in
kN/m (and, on request, their resultant at the centroid as a dashed arrow), and the
shear and bending-moment diagrams on the members, filled, one scale per scene, their
extreme values labelled with units and signs.

Signs (engine/member_loads.py, said in the legend): each member is read from its left
end (its lower end if it stands upright). The shear V is the sum of the forces on the
part left of a cut, positive up (the cut's force on that part is V down), drawn on the
upper side; the bending moment M is positive where the member sags, drawn on the side
in tension (below a sagging beam).
Reads the model and the simulation, never writes them; adds drawing records to the
picture being made (game/app/draw/drawlist.py), which a backend draws.
"""

from __future__ import annotations

import math

import numpy as np

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.drawlist import Arrow, Dashes, Lines, Polygon, Sketch
from equilibria.app.draw.labels import LabelLayer
from equilibria.app.draw.palette import BACKGROUND, RESULTANT, Colour, mix
from equilibria.engine import histories
from equilibria.engine.member_loads import forces_along, frame, load_table, resultant
from equilibria.engine.results import member_results
from equilibria.words.figures import figure, kn
from equilibria.words.i18n import N_, _

SPREAD_PX = 32.0  # [px] the arrows of the scene's largest distributed load
SPREAD_GAP_PX = 34.0  # [px] about this far apart along a member
DIAGRAM_PX = 55.0  # [px] the height of the scene's largest shear or moment
DIAGRAM_POINTS = 25  # points along each member
SHEAR: Colour = (0, 110, 160)  # outlines and values; the fill is a pale tint
MOMENT: Colour = (170, 100, 0)
MODES = (None, "shear", "moment")
DIAGRAM_LINES = {  # the legend's line on each diagram
    "shear": N_("shear force V diagram (I: next); read from the left end:"),
    "moment": N_("bending moment M diagram (I: next); read from the left end:"),
}


def kn_per_m(w: float) -> str:
    return f"{figure(abs(w) / 1e3)} kN/m"


def signed(value: float, unit: str, ref: float) -> str:
    """'+14 kN', '−2.5 kN·m' (a true minus sign), to three figures of the scene's largest
    value `ref` [N or N m]: a run at rest is only that close to equilibrium (its rest
    test allows 1e-3 of the loads), so 9.99 of a 14 kN diagram is said as 10."""
    quantum = 10.0 ** (math.floor(math.log10(max(ref, 1e-9))) - 2)
    value = round(value / quantum) * quantum
    return f"{'+' if value >= 0 else '−'}{figure(abs(value) / 1e3)} {unit}"


class SpreadLoads:
    """The model's distributed loads as rows of arrows, in the load's colour; one scale
    for all of them (the largest w: SPREAD_PX), their resultants on request."""

    def __init__(self, model):
        self.model = model
        self.loads = list(model.member_loads) if model is not None else []
        self.w_ref = max((max(abs(ml.wi), abs(ml.wj)) for ml in self.loads), default=0.0)
        self.resultants = False  # drawn when asked (W)
        pos = model.arrays.pos0 if model is not None else None
        self.largest = max((abs(resultant(ml.wi, ml.wj, frame(pos[ml.i], pos[ml.j])[0])[0]) for ml in self.loads), default=0.0)

    def draw(self, sketch: Sketch, painter, sim, pts: np.ndarray, seen: np.ndarray, colour: Colour) -> None:
        """Each load at its value now (a history's scale at the run's time); a load still
        to come at its full value, its arrows' shafts dashed (as a point load's: render.py)."""
        if not self.loads or self.w_ref <= 0.0:
            return
        m = self.model.arrays
        for ml in self.loads:
            if not (seen[ml.i] or seen[ml.j]):
                continue
            scale, to_come = histories.scale(m, ml.history, sim.time), False
            if abs(scale) < 1e-9:
                scale, to_come = histories.peak(m, ml.history), True
            self._row(sketch, painter.labels, ml, scale, pts, colour, dashed=to_come)
            if self.resultants:
                self._resultant(sketch, painter, ml, scale, pts)

    def _direction(self, ml, pts: np.ndarray) -> np.ndarray:
        """The screen direction (unit) of a positive w of this load."""
        if ml.direction == "normal":
            d = pts[ml.j] - pts[ml.i]
            d = d / max(math.hypot(*d), 1e-9)
            return np.array([d[1], -d[0]])  # world (−dy, dx) turned to the screen (y down)
        return np.array([1.0, 0.0]) if ml.direction == "x" else np.array([0.0, -1.0])

    def _row(self, sketch: Sketch, labels: LabelLayer, ml, scale: float, pts: np.ndarray, colour: Colour, *, dashed: bool = False) -> None:
        a, b = pts[ml.i], pts[ml.j]
        span = float(math.hypot(*(b - a)))
        n = max(3, int(span / SPREAD_GAP_PX) + 1)
        up = self._direction(ml, pts)
        tails = []
        for t in np.linspace(0.0, 1.0, n):
            w = scale * (ml.wi + (ml.wj - ml.wi) * t)
            at = a + (b - a) * t
            length = SPREAD_PX * abs(w) / self.w_ref
            push = up * math.copysign(1.0, w)  # where the load pushes, on the screen
            head = at - push * 3.0
            tail = head - push * length
            tails.append(tail)
            if length >= 4.0:
                sketch.add(Arrow(tuple(tail), tuple(head), colour, 2, min(9.0, 0.5 * length), 7.0, dashed=dashed))
        sketch.add(Lines(tuple(tuple(p) for p in tails), colour))
        # A uniform load's w a quarter along, not in the middle: its resultant (W) is drawn
        # at the centroid, the middle, and its dashed line would cross the words.
        ends = [(ml.wi, 0), (ml.wj, -1)] if ml.wi != ml.wj else [(ml.wi, (n - 1) // 4)]
        for w, k in ends:
            if abs(w) > 1e-9 * self.w_ref:
                out = -up * math.copysign(1.0, w)
                labels.put(sketch, "small", kn_per_m(scale * w), tuple(tails[k] + out * 4), colour, draw.anchor_away(tuple(out)))

    def _resultant(self, sketch: Sketch, painter, ml, scale: float, pts: np.ndarray) -> None:
        """The resultant ½(w_i + w_j)L at the centroid: a dashed arrow, its size and where
        it acts."""
        pos = self.model.arrays.pos0
        length = frame(pos[ml.i], pos[ml.j])[0]
        total, at = resultant(scale * ml.wi, scale * ml.wj, length)
        if abs(total) <= 1e-9 * max(self.largest, 1.0):
            return
        where = pts[ml.i] + (pts[ml.j] - pts[ml.i]) * (at / length)
        push = self._direction(ml, pts) * math.copysign(1.0, total)
        arrow = painter.arrows.arrow_px(total)
        head = where - push * 3.0
        tail = head - push * (arrow + SPREAD_PX)
        base = head - push * min(11.0, 0.5 * arrow)
        sketch.add(Dashes(tuple(tail), tuple(base), RESULTANT, 3, 9, 5), Arrow(tuple(base + push), tuple(head), RESULTANT, 3, 11.0, 10.0))
        name = self.model.node_ids[ml.i]
        text = _("resultant {force}, {distance} m from {node}").format(force=kn(abs(total)), distance=figure(at), node=name)
        painter.labels.put(sketch, "small", text, tuple(tail - push * 4), RESULTANT, draw.anchor_away(tuple(-push)))


class Diagrams:
    """The shear or bending-moment diagram on every beam (and every loaded bar) of the
    scene: one scale per scene for each (the largest value seen so far: DIAGRAM_PX)."""

    def __init__(self) -> None:
        self.ref = {"shear": 0.0, "moment": 0.0}
        self._table: tuple[object, object] = (None, None)  # (model, its load_table), worked out once per model
        self._labels: list[tuple[str, tuple[tuple[float, float], ...], Colour, str]] = []

    def fill(self, area, model, sim, pts: np.ndarray, mode: str) -> list:
        """The filled diagrams, under the structure, as drawing records for the clip area
        `area` [px]; their labels are kept for `label`."""
        sketch = Sketch(area)
        self._fill(sketch, model, sim, pts, mode)
        return sketch.items

    def _fill(self, sketch: Sketch, model, sim, pts: np.ndarray, mode: str) -> None:
        self._labels = []
        r = member_results(model, sim.state)
        rows = np.flatnonzero(r.bending).tolist()  # the beam-columns, and the members under a distributed load
        rows += sorted({ml.member for ml in model.member_loads} - set(rows))
        if not rows:
            return
        if self._table[0] is not model:
            self._table = (model, load_table(model))
        area = sketch.area.inflate(2 * DIAGRAM_PX, 2 * DIAGRAM_PX)
        rows = [k for k in rows if r.active[k] and _seen(r.ends[k], pts, area)]
        if not rows:
            return
        f = forces_along(model, sim.state, rows, DIAGRAM_POINTS, self._table[1])
        s_all = f.x / f.length[:, None]
        curves = [(k, s_all[n], (f.V if mode == "shear" else f.M)[n]) for n, k in enumerate(rows)]
        self.ref[mode] = max(self.ref[mode], max((float(np.abs(v).max()) for _, _, v in curves), default=0.0))
        ref = self.ref[mode]
        if ref <= 1e-6:
            return
        colour = SHEAR if mode == "shear" else MOMENT
        tint = mix(BACKGROUND, colour, 0.3)
        side = 1.0 if mode == "shear" else -1.0  # V drawn on the upper side, M on the side in tension
        unit = "kN" if mode == "shear" else "kN·m"
        said: set[tuple[int, int]] = set()
        for k, s, v in curves:
            ij = r.ends[k]
            a, b = pts[int(ij[0])], pts[int(ij[1])]
            if _reversed(a, b):  # read from the left (or lower) end: V keeps its sign, M turns
                a, b, s, v = b, a, 1.0 - s[::-1], (v[::-1] if mode == "shear" else -v[::-1])
                ends = (int(ij[1]), int(ij[0]))
            else:
                ends = (int(ij[0]), int(ij[1]))
            d = b - a
            span = math.hypot(*d)
            if span < 2.0:
                continue
            e = d / span
            normal = np.array([e[1], -e[0]])  # the member's upper side, on the screen
            base = a[None, :] + s[:, None] * d[None, :]
            curve = base + (side * DIAGRAM_PX * v / ref)[:, None] * normal[None, :]
            outline = [tuple(p) for p in curve]
            polygon = [tuple(a), *outline, tuple(b)]
            if len(polygon) >= 3:
                sketch.add(Polygon(tuple(polygon), tint))
            sketch.add(Lines(tuple(outline), colour))
            for p in self._extremes(v, ref):
                node = ends[0] if p == 0 else ends[1] if p == len(v) - 1 else -1
                key = (node, round(v[p] / (0.01 * ref)))
                if node >= 0 and key in said:
                    continue
                said.add(key)
                away = normal * side * math.copysign(1.0, v[p])
                end = 0 if p == 0 else 1 if p == len(v) - 1 else None
                inward = 0.0 if end is None else (8.0 if end == 0 else -8.0)  # clear of the joint's name
                at = curve[p] + away * 4 + e * inward
                tries = (tuple(at), tuple(at + e * 4 * inward)) if end is not None else (tuple(at),)  # then further in
                self._labels.append((signed(v[p], unit, ref), tries, colour, _anchor(away, end)))

    @staticmethod
    def _extremes(v: np.ndarray, ref: float) -> list[int]:
        """The points whose values are labelled: the ends and a peak inside, each at
        least 2 % of the scale (a zero is left unsaid)."""
        picks = [0, len(v) - 1]
        inner = int(np.argmax(np.abs(v[1:-1]))) + 1 if len(v) > 2 else 0
        if inner and abs(v[inner]) > max(abs(v[0]), abs(v[-1])) + 0.02 * ref:
            picks.append(inner)
        return [p for p in picks if abs(v[p]) >= 0.02 * ref]

    def label(self, area, labels: LabelLayer) -> list:
        """The extreme values, after the structure's own labels, as Label records for the
        clip area `area` [px]; a value at a member's end that meets another label there is
        moved further along the member."""
        sketch = Sketch(area)
        for text, tries, colour, anchor in self._labels:
            for at in tries:
                if labels.put(sketch, "small", text, at, colour, anchor) is not None:
                    break
        return sketch.items


def _anchor(away: np.ndarray, end: int | None) -> str:
    """A value's anchor: beyond the diagram (`away`, on the screen) and, at an end of
    the member (0 its left or lower end, 1 the other), toward the member's middle, so
    that the values of two members meeting at a joint stand apart."""
    plain = draw.anchor_away(tuple(away))
    if end is None:
        return plain
    if plain in ("midtop", "midbottom"):  # beside a member that lies along x
        return plain[3:] + ("left" if end == 0 else "right")
    return ("bottom" if end == 0 else "top") + plain[3:]  # beside an upright one: text above its foot, below its head


def _reversed(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the member drawn from a to b runs right to left (or, upright, downward)."""
    dx, dy = float(b[0] - a[0]), float(b[1] - a[1])
    if abs(dx) > 1e-6 * max(abs(dy), 1.0):
        return dx < 0
    return dy > 0  # screen y down: a larger y is lower


def _seen(ends: np.ndarray, pts: np.ndarray, area) -> bool:
    """Whether a member's segment (its end nodes `ends`) on the screen reaches into
    `area` (the clip area and a diagram's height around it): a member far off the screen
    costs nothing."""
    i, j = ends
    return draw.clip_segment(tuple(pts[int(i)]), tuple(pts[int(j)]), area) is not None


def legend_lines(mode: str | None, spread: bool, waiting: bool) -> list[str]:
    """What the legend says of the diagrams and the distributed loads."""
    lines = []
    if spread:
        lines.append(_("distributed load: kN per metre (W: its resultant, dashed, at the centroid)"))
    if mode is not None:
        lines.append(_(DIAGRAM_LINES[mode]))
        if mode == "shear":
            lines.append(_("V: the forces left of a cut add up to V, + up; drawn above"))
        else:
            lines.append(_("M + where it sags, drawn on the side in tension"))
        if waiting:
            lines.append(_("shown once the body is in equilibrium (a check that passes)"))
    return lines
