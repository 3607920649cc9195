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
        span = max(xmax - xmin, ymax - ymin, 1.0)
        bw = max(xmax - xmin, 0.25 * span)
        bh = max(ymax - ymin, 0.25 * span)
        scale = max(min((w - 2 * margin) / bw, (h - 2 * margin) / bh), 1e-6)
        cx, cy = 0.5 * (xmin + xmax), 0.5 * (ymin + ymax)
        return cls(scale, x + 0.5 * w - scale * cx, y + 0.5 * h + scale * cy)

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
