"""A free body's cuts drawn as a textbook draws a free-body diagram (free_body levels,
game/rules/free_body.py): a removed support as a faint ghost of its symbol where it
stood; a cut member as its stub, a cut mark (two short parallel strokes across it) and
the rest of the member faint beyond; a pin of a frame taken apart as an open ring, with
the two-force member it joined faint beyond it where the level gives its line; and at
each cut, in the colour of the student's forces, what it carries ("Ax, Ay", "N, V, M",
"F along CD"), which is what the student is asked for.

Reads the level and the positions on the screen; adds drawing records to the
structure's picture (game/app/draw/drawlist.py), never writes. Texts go through the
painter's label layer, after the loads, reactions and names and before the member values.
"""

from __future__ import annotations

import math

import numpy as np

from equilibria.app.draw import symbols
from equilibria.app.draw.drawlist import Circle, Layer, Line, Sketch
from equilibria.app.draw.palette import BACKGROUND, INK, MUTED, OWN_FORCE, mix
from equilibria.rules.free_body import carried
from equilibria.words.i18n import _

GHOST_ALPHA = 0.5  # a removed support's symbol, this opaque
FAINT = mix(BACKGROUND, MUTED, 0.45)  # the rest of a cut member, beyond the cut
REST_PX = 46.0  # [px] how much of a cut member's rest is drawn beyond the cut
LINK_PX = 80.0  # [px] how much of a two-force member taken away from a pin is drawn
STROKE_PX = 9.0  # [px] half the length of a cut mark's stroke
STROKE_GAP_PX = 5.0  # [px] between a cut mark's two strokes
STROKE_FROM_PX = 7.0  # [px] from the cut's joint to the first stroke
LABEL_PX = 14.0  # [px] from the cut to its words
GHOST_BOX = 96  # [px] the side of the square a ghost symbol is drawn in


def words(cut) -> str:
    """What a cut carries, as the free-body diagram names its unknowns."""
    n = cut.node
    if cut.what == "bar":
        return _("F along {member}").format(member=cut.member)
    if cut.what == "beam":
        return "N, V, M"
    if cut.along is not None:
        if cut.what == "pin":
            return _("F along {member}").format(member=cut.member) if cut.member else _("F along the link")
        return _("{node} (normal)").format(node=n)
    fix = carried(cut)
    parts = [f"{n}{axis}" for axis in ("x", "y") if axis in fix] + ([f"M{n}"] if "rot" in fix else [])
    return ", ".join(parts)


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    return v / max(float(np.hypot(*v)), 1e-9)


class CutMarks:
    """The cuts of one level on one model. painter: the StructurePainter (its model,
    supports, fonts, label layer and support sides)."""

    def __init__(self, painter, cuts):
        self.painter = painter
        model = painter.model
        self.cuts = [c for c in cuts if c.node in model.node_ids]
        self.index = {c.node: model.node_index(c.node) for c in self.cuts}
        self.ends = {}  # node → the index of the other end of the member cut there (bar, beam)
        for cut in self.cuts:
            member = cut.member if cut.what in ("bar", "beam") else None
            if cut.what == "beam" and member is None:  # the beam that ends at the cut
                member = next((m for m in model.member_ids if self.index[cut.node] in self._member_ends(m)), None)
            if member in model.member_ids:
                i, j = self._member_ends(member)
                self.ends[cut.node] = j if i == self.index[cut.node] else i

    def _member_ends(self, mid: str) -> tuple[int, int]:
        model = self.painter.model
        i, j = self.painter.member_ij[model.member_index(mid)]
        return int(i), int(j)

    def _beyond(self, cut, pts: np.ndarray) -> np.ndarray | None:
        """The screen direction from the cut away from the body, along what was cut (a
        member's line, or against a pin's or roller's line of force), or None."""
        q = self.index[cut.node]
        if cut.node in self.ends:
            return _unit(pts[q] - pts[self.ends[cut.node]])
        if cut.along is not None:
            return -_unit((cut.along[0], -cut.along[1]))  # world y up, screen y down
        return None

    # ------------------------------------------------------------------ drawing
    def under(self, sketch: Sketch, pts: np.ndarray, built: np.ndarray) -> None:
        """Drawn before the structure: the ghosts of removed supports (where they stood,
        `built` the nodes as built [px]) and the faint rest of each cut member."""
        held = {q for q, _, _ in self.painter.supports}  # put back after a check: the real symbol is drawn
        for cut in self.cuts:
            q = self.index[cut.node]
            beyond = self._beyond(cut, pts)
            if cut.what == "support" and q not in held:
                self._ghost(sketch, cut, q, tuple(built[q]))
            elif cut.what != "support" and beyond is not None:
                length = REST_PX if cut.what in ("bar", "beam") else LINK_PX
                a = pts[q] + beyond * (STROKE_FROM_PX + STROKE_GAP_PX + 2 if cut.what in ("bar", "beam") else 8)
                sketch.add(Line(tuple(a), tuple(pts[q] + beyond * length), FAINT, 3))

    def over(self, sketch: Sketch, pts: np.ndarray) -> None:
        """Drawn over the structure: the cut marks and the open rings of taken-apart pins."""
        for cut in self.cuts:
            q = self.index[cut.node]
            x, y = pts[q]
            beyond = self._beyond(cut, pts)
            if beyond is not None:  # the node's name keeps clear of the cut (StructurePainter._names)
                self.painter.taken.setdefault(q, []).append((float(beyond[0]), float(beyond[1])))
            if cut.what in ("bar", "beam") and beyond is not None:
                across = np.array((-beyond[1], beyond[0]))
                for k in (STROKE_FROM_PX, STROKE_FROM_PX + STROKE_GAP_PX):  # two short parallel strokes across the member, clear of its joint
                    c = pts[q] + beyond * k
                    sketch.add(Line(tuple(c - across * STROKE_PX), tuple(c + across * STROKE_PX), INK, 2))
            elif cut.what == "pin":
                sketch.add(Circle((x, y), 7, BACKGROUND), Circle((x, y), 7, INK, 2))

    def labels(self, sketch: Sketch, pts: np.ndarray) -> None:
        """At each cut, what it carries, at the first place no other text takes: beyond a
        removed support's ghost, or past one of its corners; beside a cut member just past
        the cut, above its line, else below it, else past the faint rest of it."""
        layer = self.painter.labels
        for cut in self.cuts:
            q = self.index[cut.node]
            beyond = self._beyond(cut, pts)
            if cut.what == "support":  # beyond the ghost's foot, else past its corners
                out = np.array(self._side(cut, q))
                reach, half = symbols.extent(self._kind(cut))
                down = np.array((-out[1], out[0]))
                down = down if down[1] > 0 or (down[1] == 0 and down[0] > 0) else -down
                foot = pts[q] + out * (reach + 8)
                places = [(foot, out), (foot + down * half, out + down), (foot - down * half, out - down), (foot + out * 2 * LABEL_PX, out)]
            elif beyond is not None:
                up = np.array((-beyond[1], beyond[0]))
                if up[1] > 0 or (up[1] == 0 and up[0] < 0):  # above the line (or to its right when it is upright)
                    up = -up
                near = pts[q] + beyond * LABEL_PX
                places = [(near + up * LABEL_PX, beyond + up), (near - up * LABEL_PX, beyond - up), (pts[q] + beyond * (REST_PX + 6), beyond)]
            else:
                places = [(pts[q] + np.array((0.0, -LABEL_PX)), np.array((0.0, -1.0))), (pts[q] + np.array((0.0, LABEL_PX)), np.array((0.0, 1.0)))]
            for at, away in places:
                if layer.put(sketch, "small", words(cut), tuple(at), OWN_FORCE, _anchor(away)) is not None:
                    break

    # ------------------------------------------------------------------ ghosts
    @staticmethod
    def _kind(cut) -> str:
        if cut.along is not None:
            return "roller"
        return symbols.support_type(frozenset(carried(cut)))

    def _side(self, cut, q: int) -> tuple[float, float]:
        """The screen direction from the node into a removed support's symbol: against
        its line of force (a roller on an incline), else where the painter would put it."""
        if cut.along is not None:
            return tuple(-_unit((cut.along[0], -cut.along[1])))
        return symbols.side(self.painter.model.arrays.pos0[:, :2], self.painter.ties, q, self._kind(cut), walled=False)

    def _ghost(self, sketch: Sketch, cut, q: int, at: tuple[float, float]) -> None:
        """The removed support's symbol, faint, where it stood: drawn on a see-through
        layer GHOST_BOX px square round the node, laid on GHOST_ALPHA opaque."""
        symbol = symbols.support_items(self._kind(cut), (GHOST_BOX / 2, GHOST_BOX / 2), self._side(cut, q))
        rect = (round(at[0] - GHOST_BOX / 2), round(at[1] - GHOST_BOX / 2), GHOST_BOX, GHOST_BOX)
        sketch.add(Layer(rect, tuple(symbol), GHOST_ALPHA))


def _anchor(direction) -> str:
    """The anchor that puts a label beyond a point in `direction` (screen), corner-wise
    for a slanting one, so that it reads clear of the line it stands off."""
    dx, dy = float(direction[0]), float(direction[1])
    if abs(dx) < 0.38 * math.hypot(dx, dy):
        return "midtop" if dy > 0 else "midbottom"
    if abs(dy) < 0.38 * math.hypot(dx, dy):
        return "midleft" if dx > 0 else "midright"
    return ("top" if dy > 0 else "bottom") + ("left" if dx > 0 else "right")
