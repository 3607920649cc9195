"""Hit-testing under the mouse and ground contact, through pymunk. No pygame here.

pymunk answers two kinds of question and never simulates (the engine moves the
structure):

- `Shapes` mirrors one engine Model as static pymunk shapes at the structure's current
  positions (a circle of radius 0 per node, a segment per member, a triangle polygon per
  plate); `pick` asks pymunk what lies within a radius of the mouse.
- `Ground` holds the level's ground polyline as static segments; `contacts` asks pymunk
  for the nearest ground point of every node near or under the ground and returns rows
  the engine applies as unilateral contacts.

World coordinates: metres, y up. Glossary: a the contact point on the ground [m]; n the
ground's outward unit normal there (toward the side the structure stands on); g = (x − a)·n
the gap [m], negative when a node is in the ground; k contact stiffness [N/m], c contact
damping [N s/m], mu friction coefficient [-].

Cost, measured for 2000 members (bars and beams) on 1100 nodes with 400 triangles: `update`
only copies arrays (~10 µs); the pymunk shapes follow on the next `pick`, and only those
at nodes that moved more than `tolerance`: that pick costs ~3 ms when every node moved
(~1.5 ms of it pymunk re-indexing), ~0.1 ms when the structure is at rest, and a pick
with nothing to follow ~5–10 µs. `contacts` costs ~7 µs per node near or under the
ground, and ~0.1 ms for 2000 nodes well above it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pymunk

from engine import Model

NODE, MEMBER, TRIANGLE = "node", "member", "triangle"
KINDS = (NODE, MEMBER, TRIANGLE)  # the order in which `pick` prefers them
_CATEGORY = {NODE: 0b001, MEMBER: 0b010, TRIANGLE: 0b100}
CONTACT_COLUMNS = ("node", "ax", "ay", "nx", "ny", "k", "c", "mu")
REACH = 1e6  # [m] how far the ground is carried on level beyond its ends


@dataclass(frozen=True)
class Hit:
    """What `Shapes.pick` found. kind: "node", "member" or "triangle"; id: its id in the
    level; index: its row in model.node_ids, member_ids or triangle_ids; distance [m]
    from the query point to the element, negative inside a triangle (the depth)."""

    kind: str
    id: str
    index: int
    distance: float


class Shapes:
    """Static pymunk shapes that follow one Model's structure, for picking.

    Members are kept in `model.member_ids` order (`model.member_slot` says which bar or
    beam row each is); an element that is off (removed or broken) is taken out of the
    space and put back when it is on again.
    """

    def __init__(self, model: Model, tolerance: float | None = None):
        """tolerance [m]: how far a node may move before its shapes are moved after it
        (default 1e-6 of the structure's size: far below a pixel)."""
        m = model.arrays
        self.model = model
        self.tolerance = 1e-6 * model.char_length if tolerance is None else tolerance
        n_bars = len(m.bar_ij)
        # Each member's row in concatenate((bar_on, beam_on)).
        self._member_row = np.array([row if kind == "bar" else n_bars + row for kind, row in model.member_slot], dtype=np.int64)
        self._member_ij = np.concatenate((m.bar_ij, m.beam_ij)).astype(np.int64).reshape(-1, 2)[self._member_row]
        self._tri_ijk = m.tri_ijk.astype(np.int64).reshape(-1, 3)
        self._pos = m.pos0[:, :2].copy()  # as last given to `update`
        self._shown = self._pos.copy()  # where the shapes stand
        self._member_on = np.ones(len(self._member_ij), dtype=bool)
        self._tri_on = np.ones(len(self._tri_ijk), dtype=bool)
        self._member_in = self._member_on.copy()  # which are in the space
        self._tri_in = self._tri_on.copy()
        self._dirty = False

        self._space = pymunk.Space()
        self._space.use_spatial_hash(self._cell(), 10 * (model.n_nodes + len(self._member_ij) + len(self._tri_ijk)))
        body = self._space.static_body
        pts = self._pos.tolist()
        self._nodes = [pymunk.Circle(body, 0.0, p) for p in pts]
        self._members = [pymunk.Segment(body, pts[i], pts[j], 0.0) for i, j in self._member_ij.tolist()]
        self._triangles = [pymunk.Poly(body, [pts[i], pts[j], pts[k]]) for i, j, k in self._tri_ijk.tolist()]
        self._tag: dict[pymunk.Shape, tuple[str, int]] = {}
        for kind, shapes in ((NODE, self._nodes), (MEMBER, self._members), (TRIANGLE, self._triangles)):
            category = pymunk.ShapeFilter(categories=_CATEGORY[kind])
            for index, shape in enumerate(shapes):
                shape.filter = category
                self._tag[shape] = (kind, index)
        self._space.add(*self._nodes, *self._members, *self._triangles)

    def _cell(self) -> float:
        """The spatial hash's cell size [m]: the longest member or triangle edge as
        built, so that no element spans more than two cells a side. (pymunk's default
        bounding-box tree costs three times as much to re-index once every node moved.)"""
        pos = self._pos
        edges = [self._member_ij, *(self._tri_ijk[:, pair] for pair in ((0, 1), (1, 2), (2, 0)))]
        ends = np.concatenate(edges)
        longest = float(np.hypot(*(pos[ends[:, 1]] - pos[ends[:, 0]]).T).max(initial=0.0))
        return longest if longest > 0.0 else self.model.char_length

    def update(self, pos: np.ndarray, bar_on: np.ndarray, beam_on: np.ndarray, tri_on: np.ndarray) -> None:
        """Take the structure as it is now: pos (N, 2 or 3) [m] (rotations ignored) and the
        `on` masks (B,), (Bm,), (T,) bool of the engine's State. Only copies: the shapes
        follow on the next `pick`, so frames without a pick cost nothing more."""
        self._pos[...] = pos[:, :2]
        self._member_on[...] = np.concatenate((bar_on, beam_on))[self._member_row]
        self._tri_on[...] = tri_on
        self._dirty = True

    def pick(self, x: float, y: float, radius: float, kinds: Iterable[str] = KINDS) -> Hit | None:
        """What lies within `radius` [m] of the world point (x, y): a node before a
        member before a triangle (whatever the distances), and of one kind the nearest
        (ties to the lower index). `kinds` narrows the search; None when nothing is near."""
        self._sync()
        wanted = set(kinds)
        for kind in KINDS:
            if kind not in wanted:
                continue
            found = self._space.point_query((x, y), radius, pymunk.ShapeFilter(mask=_CATEGORY[kind]))
            if found:
                distance, index = min((info.distance, self._tag[info.shape][1]) for info in found)
                return Hit(kind, self._id(kind, index), index, distance)
        return None

    def _id(self, kind: str, index: int) -> str:
        ids = {NODE: self.model.node_ids, MEMBER: self.model.member_ids, TRIANGLE: self.model.triangle_ids}[kind]
        return ids[index]

    def _sync(self) -> None:
        """Move the shapes of nodes that moved more than the tolerance, and of the
        elements at them; take out elements turned off, put back those turned on."""
        if not self._dirty:
            return
        self._dirty = False
        # A node whose position is not finite stays where it was (NaN compares false).
        moved = (np.abs(self._pos - self._shown).max(axis=1) > self.tolerance) & np.isfinite(self._pos).all(axis=1)
        if not moved.any() and np.array_equal(self._member_on, self._member_in) and np.array_equal(self._tri_on, self._tri_in):
            return
        self._shown[moved] = self._pos[moved]
        pts = self._shown.tolist()
        for q in np.flatnonzero(moved).tolist():
            self._nodes[q].unsafe_set_offset(pts[q])
        members = self._switch(self._members, self._member_on, self._member_in, moved[self._member_ij].any(axis=1))
        for r, (i, j) in zip(members, self._member_ij[members].tolist(), strict=True):
            self._members[r].unsafe_set_endpoints(pts[i], pts[j])
        triangles = self._switch(self._triangles, self._tri_on, self._tri_in, moved[self._tri_ijk].any(axis=1))
        for r, (i, j, k) in zip(triangles, self._tri_ijk[triangles].tolist(), strict=True):
            (xi, yi), (xj, yj), (xk, yk) = pts[i], pts[j], pts[k]
            # pymunk takes the corners as given and wants them counter-clockwise.
            corners = [pts[i], pts[j], pts[k]] if (xj - xi) * (yk - yi) >= (yj - yi) * (xk - xi) else [pts[i], pts[k], pts[j]]
            self._triangles[r].unsafe_set_vertices(corners)
        if moved.any() or members or triangles:
            self._space.reindex_static()  # the shapes' bounding boxes

    def _switch(self, shapes: list[pymunk.Shape], on: np.ndarray, inside: np.ndarray, moved: np.ndarray) -> list[int]:
        """For one kind of element: take the shapes turned off out of the space and put
        those turned on back (`inside`, which are in it, follows `on`); return the rows
        whose shapes must be placed: those on that moved or came back."""
        gone = np.flatnonzero(inside & ~on).tolist()
        back = np.flatnonzero(on & ~inside).tolist()
        placed = np.flatnonzero(on & (moved | ~inside)).tolist()
        if gone:
            self._space.remove(*(shapes[r] for r in gone))
        if back:
            self._space.add(*(shapes[r] for r in back))
        inside[...] = on
        return placed


class Ground:
    """The level's ground as static pymunk segments, for contact with the nodes.

    `points` is the ground polyline [(x, y), ...] [m] from left to right with the earth
    below it (given right to left, it is turned round), carried on level for `reach`
    beyond both ends, as the renderer draws it. Fewer than two points: no ground.
    Each segment's outward normal is its left-hand perpendicular: up for a level ground.
    """

    def __init__(self, points: Sequence[tuple[float, float]], reach: float = REACH):
        pts: list[tuple[float, float]] = []
        for x, y in points:
            if not pts or (float(x), float(y)) != pts[-1]:
                pts.append((float(x), float(y)))
        if len(pts) >= 2 and pts[0][0] > pts[-1][0]:
            pts.reverse()
        if len(pts) >= 2:
            (x0, y0), (xn, yn) = pts[0], pts[-1]
            chain = np.array([(x0 - reach, y0), *pts, (xn + reach, yn)])
        else:
            chain = np.zeros((0, 2))
        a, b = chain[:-1], chain[1:]
        d = b - a
        n = np.stack((-d[:, 1], d[:, 0]), axis=1) / np.hypot(d[:, 0], d[:, 1])[:, None]
        self._normals: list[tuple[float, float]] = [tuple(v) for v in n.tolist()]
        self._ends = list(zip(a.tolist(), b.tolist(), strict=True))
        # For a quick first cut: a node within `margin` of segment s, or under it, lies
        # in its x range (widened by margin) and no higher than its top (plus margin).
        self._x_lo = np.minimum(a[:, 0], b[:, 0])
        self._x_hi = np.maximum(a[:, 0], b[:, 0])
        self._y_hi = np.maximum(a[:, 1], b[:, 1])
        self._space = pymunk.Space()
        self._index: dict[pymunk.Shape, int] = {}
        for s, ends in enumerate(self._ends):
            segment = pymunk.Segment(self._space.static_body, *ends, 0.0)
            self._index[segment] = s
            self._space.add(segment)

    def contacts(self, pos: np.ndarray, margin: float, *, skip: np.ndarray | None = None, k: float = 0.0, c: float = 0.0, mu: float = 0.0) -> np.ndarray:
        """Contact rows (K, 8) float64, one per node within `margin` [m] of the ground
        or under it, in node order: [node index, ax, ay, nx, ny, k, c, mu] (see
        CONTACT_COLUMNS), a the ground point nearest the node and n the unit normal out
        of the ground there, so that g = (x − a)·n is the node's signed distance to the
        ground: the segment's normal where a is inside a segment; at a corner, the
        direction from a to the node, or from the node to a when the node is in the
        ground (below the bottom of a valley: straight up). One row per node, from the
        nearest segment, so corners never count twice.

        pos: (N, 2 or 3) [m] node positions (rotations ignored).
        skip: (N,) bool, nodes to leave out. The caller decides; a node held by a
            support should usually be left out (`model.arrays.fixed[:, :2].any(axis=1)`)
            so that the ground does not share the support's reaction.
        k, c, mu: written into every row as they are (0: for the caller to fill).
        """
        xy = np.asarray(pos, dtype=np.float64)[:, :2]
        if not self._normals or not len(xy):
            return np.zeros((0, len(CONTACT_COLUMNS)))
        x, y = xy[:, :1], xy[:, 1:]
        near = ((x >= self._x_lo - margin) & (x <= self._x_hi + margin) & (y <= self._y_hi + margin)).any(axis=1)
        if skip is not None:
            near &= ~np.asarray(skip, dtype=bool)
        rows = []
        everything = pymunk.ShapeFilter()
        for q in np.flatnonzero(near).tolist():
            px, py = xy[q].tolist()
            found = self._space.point_query_nearest((px, py), math.inf, everything)
            contact = self._contact(self._index[found.shape], px, py, margin)
            if contact is not None:
                rows.append((q, *contact, k, c, mu))
        return np.array(rows, dtype=np.float64).reshape(-1, len(CONTACT_COLUMNS))

    def _contact(self, s: int, px: float, py: float, margin: float) -> tuple[float, float, float, float] | None:
        """(ax, ay, nx, ny) for a node at (px, py) whose nearest ground segment is s, or
        None when it is above the ground by more than `margin`.

        Inside or under a segment the gap is measured along its normal. At a corner V
        shared by segments s and t the node is in the ground when (p − V)·(n_s + n_t) < 0
        (the pseudo-normal test: the sum of the two normals points out of the ground
        whether the corner is a hill or a valley), and the normal is ±(p − V)/|p − V|."""
        (ax, ay), (bx, by) = self._ends[s]
        dx, dy = bx - ax, by - ay
        t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
        last = len(self._normals) - 1
        if (t <= 0.0 and s > 0) or (t >= 1.0 and s < last):
            other = s - 1 if t <= 0.0 else s + 1
            vx, vy = (ax, ay) if t <= 0.0 else (bx, by)
            rx, ry = px - vx, py - vy
            sx, sy = (u + w for u, w in zip(self._normals[s], self._normals[other], strict=True))
            dist = math.hypot(rx, ry)
            inside = rx * sx + ry * sy < 0.0
            if not inside and dist > margin:
                return None
            if dist <= 1e-12 * (1.0 + abs(vx) + abs(vy)):  # on the corner: the pseudo-normal
                size = math.hypot(sx, sy)
                return (vx, vy, sx / size, sy / size) if size > 1e-12 else (vx, vy, *self._normals[s])
            sign = -1.0 if inside else 1.0
            return vx, vy, sign * rx / dist, sign * ry / dist
        t = min(max(t, 0.0), 1.0)
        nx, ny = self._normals[s]
        cx, cy = ax + t * dx, ay + t * dy
        if (px - cx) * nx + (py - cy) * ny > margin:
            return None
        return cx, cy, nx, ny
