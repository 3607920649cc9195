"""Hit-testing under the mouse, and ground contact through pymunk. No pygame here.

- `Shapes` holds one engine Model's nodes, members and plates at the structure's current
  positions; `pick` finds the nearest within a radius of the mouse by a search over
  arrays (numpy), whose cost does not depend on the radius (a pick zoomed far out asks
  about the whole structure, and costs what any other pick does).
- `Ground` holds the level's ground polyline as static pymunk segments (pymunk never
  simulates: the engine moves the structure); `contacts` asks pymunk for the nearest
  ground point of every node near or under the ground and returns rows the engine
  applies as unilateral contacts.

World coordinates: metres, y up. Glossary: a the contact point on the ground [m]; n the
ground's outward unit normal there (toward the side the structure stands on); g = (x − a)·n
the gap [m], negative when a node is in the ground; k contact stiffness [N/m], c contact
damping [N s/m], mu friction coefficient [-].

Cost, measured for 2000 members on 550 nodes with 400 triangles (benchmarks/frames.py
times it in a frame): `update` ~20 µs, a pick that finds a node ~40 µs, one that finds
nothing (every kind searched) ~0.25 ms, at any radius. (With pymunk's spatial hash, a
pick cost ~3 ms once every node had moved, and a radius of many cells, zoomed out,
cost up to seconds.) `contacts` costs ~7 µs per node near or under the ground, and
~0.1 ms for 2000 nodes well above it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pymunk

from equilibria.engine.model import Model
from equilibria.engine.results import member_ends

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
    """The structure's nodes, members and plates where they stand, for picking.

    Members are kept in `model.member_ids` order (engine/results.py gives their ends and
    on-flags in it); an element that is off (removed or broken) is never picked.

    A pick is a nearest search over arrays (numpy): its cost grows with the model's size
    only (tens of microseconds for thousands of members), never with the radius, so a
    pick zoomed far out, whose radius covers the whole structure, costs what any other
    does, and following a moving structure costs a copy, not a re-indexing.
    """

    def __init__(self, model: Model, tolerance: float | None = None):
        """tolerance [m]: how far a node may move before the shapes follow it (default
        1e-6 of the structure's size: far below a pixel)."""
        m = model.arrays
        self.model = model
        self.tolerance = 1e-6 * model.char_length if tolerance is None else tolerance
        self._member_ij = member_ends(model)  # (M, 2) in member order
        self._tri_ijk = m.tri_ijk.astype(np.int64).reshape(-1, 3)
        self._shown = m.pos0[:, :2].copy()  # (N, 2) [m] where the shapes stand
        self._member_on = np.ones(len(self._member_ij), dtype=bool)
        self._tri_on = np.ones(len(self._tri_ijk), dtype=bool)

    def update(self, pos: np.ndarray, member_on: np.ndarray, tri_on: np.ndarray) -> None:
        """Take the structure as it is now: pos (N, 2 or 3) [m] (rotations ignored), the
        members' `on` mask (M,) bool in member order (engine/results.py MemberResults.active)
        and the triangles' (T,). A node moves only when it moved more than the tolerance,
        and never to a position that is not finite."""
        xy = pos[:, :2]
        moved = (np.abs(xy - self._shown).max(axis=1) > self.tolerance) & np.isfinite(xy).all(axis=1)  # NaN compares false
        self._shown[moved] = xy[moved]
        self._member_on[...] = member_on
        self._tri_on[...] = tri_on

    def pick(self, x: float, y: float, radius: float, kinds: Iterable[str] = KINDS) -> Hit | None:
        """What lies within `radius` [m] of the world point (x, y): a node before a
        member before a triangle (whatever the distances), and of one kind the nearest
        (ties to the lower index). `kinds` narrows the search; None when nothing is near."""
        wanted = set(kinds)
        for kind, distances in ((NODE, self._node_distances), (MEMBER, self._member_distances), (TRIANGLE, self._triangle_distances)):
            if kind not in wanted:
                continue
            d = distances(x, y)
            if not len(d):
                continue
            index = int(np.argmin(d))  # the first of equal minima: ties to the lower index
            if d[index] <= radius:
                return Hit(kind, self._id(kind, index), index, float(d[index]))
        return None

    def targets(self, kinds: Iterable[str] = KINDS) -> list[tuple[str, str, int, float, float]]:
        """(kind, id, index, x, y) of every element of `kinds` that can be picked, at the
        point a click on it is made [m]: a node where it stands, a member's middle, a
        plate's centroid (members and plates that are off left out)."""
        wanted, out = set(kinds), []
        if NODE in wanted:
            out += [(NODE, self._id(NODE, q), q, float(x), float(y)) for q, (x, y) in enumerate(self._shown)]
        if MEMBER in wanted and len(self._member_ij):
            middles = 0.5 * (self._shown[self._member_ij[:, 0]] + self._shown[self._member_ij[:, 1]])
            out += [(MEMBER, self._id(MEMBER, k), k, float(x), float(y)) for k, (x, y) in enumerate(middles) if self._member_on[k]]
        if TRIANGLE in wanted and len(self._tri_ijk):
            centroids = self._shown[self._tri_ijk].mean(axis=1)
            out += [(TRIANGLE, self._id(TRIANGLE, k), k, float(x), float(y)) for k, (x, y) in enumerate(centroids) if self._tri_on[k]]
        return [t for t in out if math.isfinite(t[3]) and math.isfinite(t[4])]

    def _node_distances(self, x: float, y: float) -> np.ndarray:
        """(N,) [m] from (x, y) to each node."""
        return np.hypot(self._shown[:, 0] - x, self._shown[:, 1] - y)

    def _member_distances(self, x: float, y: float) -> np.ndarray:
        """(M,) [m] from (x, y) to each member's segment; inf for a member that is off."""
        return np.where(self._member_on, _to_segments(self._shown, self._member_ij, x, y), np.inf)

    def _triangle_distances(self, x: float, y: float) -> np.ndarray:
        """(T,) [m] from (x, y) to each plate: to its nearest edge outside it, minus that
        inside it (the depth); inf for a plate that is off."""
        if not len(self._tri_ijk):
            return np.zeros(0)
        ijk = self._tri_ijk
        edges = np.stack([_to_segments(self._shown, ijk[:, pair], x, y) for pair in ((0, 1), (1, 2), (2, 0))])
        a, b, c = (self._shown[ijk[:, k]] for k in range(3))
        p = np.array([x, y])

        def side(u: np.ndarray, v: np.ndarray) -> np.ndarray:  # z of (v − u) × (p − u)
            return (v[:, 0] - u[:, 0]) * (p[1] - u[:, 1]) - (v[:, 1] - u[:, 1]) * (p[0] - u[:, 0])

        s1, s2, s3 = side(a, b), side(b, c), side(c, a)
        inside = ((s1 >= 0) & (s2 >= 0) & (s3 >= 0)) | ((s1 <= 0) & (s2 <= 0) & (s3 <= 0))  # either winding
        d = edges.min(axis=0)
        return np.where(self._tri_on, np.where(inside, -d, d), np.inf)

    def _id(self, kind: str, index: int) -> str:
        ids = {NODE: self.model.node_ids, MEMBER: self.model.member_ids, TRIANGLE: self.model.triangle_ids}[kind]
        return ids[index]


def _to_segments(pos: np.ndarray, ij: np.ndarray, x: float, y: float) -> np.ndarray:
    """(K,) [m] from the point (x, y) to each segment pos[i]–pos[j] of `ij` (K, 2)."""
    a, b = pos[ij[:, 0]], pos[ij[:, 1]]
    d = b - a
    length2 = (d * d).sum(axis=1)
    t = np.clip(((x - a[:, 0]) * d[:, 0] + (y - a[:, 1]) * d[:, 1]) / np.maximum(length2, 1e-300), 0.0, 1.0)
    return np.hypot(a[:, 0] + t * d[:, 0] - x, a[:, 1] + t * d[:, 1] - y)


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
