"""World ↔ screen. No pygame here.

The world is in metres with y up; the screen in pixels with y down. One scale for both
axes (no distortion):

    sx = ox + s·x        sy = oy − s·y        (s px/m; (ox, oy): where the origin falls)

`View.fit` picks s and the origin so that a world box fills a screen rectangle, centred,
with a margin in pixels for supports, arrows and labels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Rect = tuple[float, float, float, float]  # x, y, width, height [px]
Bounds = tuple[float, float, float, float]  # xmin, ymin, xmax, ymax [m]

SMALLEST_PX = 40.0  # [px] zoomed out, the structure spans at least this much of the screen
FINEST_SHARE = 1e-3  # zoomed in, the screen shows at least this share of the structure across
IN_SIGHT_PX = 40.0  # [px] of the structure's box that stays on screen after a zoom or a pan
MARGIN_SHARE = 0.2  # a fit's margin is at most this share of the rect's width and height
SMALLEST_SPAN = 1.0  # [m] the zoom limits take a structure as at least this wide (one node has no size), as fit does


@dataclass(frozen=True)
class View:
    scale: float  # [px/m]
    ox: float  # [px] screen x of world x = 0
    oy: float  # [px] screen y of world y = 0

    @classmethod
    def fit(cls, bounds: tuple[float, float, float, float], rect: Rect, margin: float = 80.0) -> View:
        """The view that shows `bounds` (xmin, ymin, xmax, ymax) [m] in `rect`, centred.
        A box thin in one direction (a single beam) is shown as if at least a quarter
        as tall as it is wide (and 1 m), so that it is not blown up."""
        xmin, ymin, xmax, ymax = bounds
        x, y, w, h = rect
        margin = min(margin, MARGIN_SHARE * w, MARGIN_SHARE * h)  # a small window keeps room for the structure
        span = max(xmax - xmin, ymax - ymin, 1.0)
        bw = max(xmax - xmin, 0.25 * span)
        bh = max(ymax - ymin, 0.25 * span)
        scale = max(min((w - 2 * margin) / bw, (h - 2 * margin) / bh), 1e-6)
        cx, cy = 0.5 * (xmin + xmax), 0.5 * (ymin + ymax)
        return cls(scale, x + 0.5 * w - scale * cx, y + 0.5 * h + scale * cy)

    @staticmethod
    def scale_limits(bounds: Bounds, rect: Rect) -> tuple[float, float]:
        """(least, most) scale [px/m] for the structure in `bounds` shown in `rect`:
        zoomed out, it still spans SMALLEST_PX; zoomed in, the rect still shows
        FINEST_SHARE of it across (1 cm of a 10 m bridge on the screen's narrower side)."""
        xmin, ymin, xmax, ymax = bounds
        span = max(xmax - xmin, ymax - ymin, SMALLEST_SPAN)  # one node: as if 1 m across, not a point (4e10 px/m)
        least = SMALLEST_PX / span
        return least, max(least, min(rect[2], rect[3]) / (FINEST_SHARE * span))

    def zoomed(self, factor: float, about: tuple[float, float], bounds: Bounds, rect: Rect) -> View:
        """This view zoomed by `factor` keeping the world point under the screen point
        `about` in place, the scale held within `scale_limits`, then moved (`in_sight`)
        so that the structure stays in view."""
        least, most = self.scale_limits(bounds, rect)
        scale = min(max(self.scale * factor, least), most)
        f = scale / self.scale
        return View(scale, about[0] - (about[0] - self.ox) * f, about[1] - (about[1] - self.oy) * f).in_sight(bounds, rect)

    def in_sight(self, bounds: Bounds, rect: Rect, keep: float = IN_SIGHT_PX) -> View:
        """This view moved the least so that at least `keep` px of the box `bounds`
        (or all of it, when it is smaller) lie inside `rect`: a pan or a zoom cannot
        lose the structure off the screen."""
        (x0, y1), (x1, y0) = self.point(bounds[0], bounds[1]), self.point(bounds[2], bounds[3])  # screen box
        rx, ry, rw, rh = rect
        dx = _shift(x0, x1, rx, rx + rw, keep)
        dy = _shift(y0, y1, ry, ry + rh, keep)
        return self if dx == 0.0 and dy == 0.0 else View(self.scale, self.ox + dx, self.oy + dy)

    def contains(self, bounds: Bounds, rect: Rect) -> bool:
        """Whether the whole box `bounds` lies inside `rect` on the screen."""
        (x0, y1), (x1, y0) = self.point(bounds[0], bounds[1]), self.point(bounds[2], bounds[3])
        return x0 >= rect[0] and x1 <= rect[0] + rect[2] and y0 >= rect[1] and y1 <= rect[1] + rect[3]

    def holding(self, bounds: Bounds, rect: Rect) -> View:
        """This view moved the least so that the whole box `bounds` lies inside `rect`;
        zoomed out about the box's centre (never in) first when it is too big for it."""
        (x0, y1), (x1, y0) = self.point(bounds[0], bounds[1]), self.point(bounds[2], bounds[3])
        rx, ry, rw, rh = rect
        if x1 - x0 <= rw and y1 - y0 <= rh:
            return self.in_sight(bounds, rect, keep=float("inf"))
        fitted = View.fit(bounds, rect, 0.0)
        scale = min(self.scale, fitted.scale)
        cx, cy = 0.5 * (bounds[0] + bounds[2]), 0.5 * (bounds[1] + bounds[3])
        return View(scale, rx + 0.5 * rw - scale * cx, ry + 0.5 * rh + scale * cy)

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Screen position [px] of the world point (x, y) [m]."""
        return self.ox + self.scale * x, self.oy - self.scale * y

    def points(self, xy: np.ndarray) -> np.ndarray:
        """(N, 2) world points [m] → (N, 2) screen points [px]."""
        out = np.empty((len(xy), 2))
        out[:, 0] = self.ox + self.scale * xy[:, 0]
        out[:, 1] = self.oy - self.scale * xy[:, 1]
        return out

    def world(self, sx: float, sy: float) -> tuple[float, float]:
        """World position [m] of the screen point (sx, sy) [px]."""
        return (sx - self.ox) / self.scale, (self.oy - sy) / self.scale


def _shift(lo: float, hi: float, r0: float, r1: float, keep: float) -> float:
    """How far to move the interval [lo, hi] so that min(keep, its length) of it lies
    within [r0, r1]; 0 when it does already."""
    need = min(keep, hi - lo, r1 - r0)
    if hi < r0 + need:
        return r0 + need - hi
    if lo > r1 - need:
        return r1 - need - lo
    return 0.0
