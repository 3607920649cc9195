"""The play scene's view of the world: zoom about the mouse within limits that keep the
structure in sight, pan, fit. Screen pixels and metres (y up), as in game/app/view.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from game.app.view import View

VIEW_MARGIN = 150  # [px] room around the structure for supports, arrows and labels
ZOOM_STEP = 1.15  # view scale per notch of the mouse wheel
PAN_PX = 60  # [px] the arrow keys move the view by
LEAST_SHARE = 0.1  # zoomed out, the stage fills at least this share of the world's width
FINEST = 1e-3  # [m] zoomed in, this length fills at most LEAST_SHARE of the width


class Camera:
    """Holds the view. bounds: (xmin, ymin, xmax, ymax) [m] of the stage; world: the
    screen rect (x, y, w, h) [px] the world is drawn in."""

    def __init__(self, bounds: tuple[float, float, float, float], world: tuple[int, int, int, int]):
        self.bounds = bounds
        self.world = world
        self.view = View.fit(bounds, world, VIEW_MARGIN)

    def limits(self, size: float = 0.0) -> tuple[float, float]:
        """Least and most px/m: the stage (or a structure of `size` [m]) never smaller
        than a tenth of the width, a millimetre never larger."""
        xmin, ymin, xmax, ymax = self.bounds
        span = max(xmax - xmin, ymax - ymin, size, 1.0)
        width = self.world[2]
        return LEAST_SHARE * width / span, LEAST_SHARE * width / FINEST

    def zoom(self, factor: float, about: tuple[int, int], size: float = 0.0) -> None:
        """Zoom by `factor`, keeping the world point under `about` [px] in place."""
        v = self.view
        least, most = self.limits(size)
        scale = min(max(v.scale * factor, least), most)
        f = scale / v.scale
        self.view = View(scale, about[0] - (about[0] - v.ox) * f, about[1] - (about[1] - v.oy) * f)

    def pan(self, dx: float, dy: float) -> None:
        self.view = replace(self.view, ox=self.view.ox + dx, oy=self.view.oy + dy)

    def fit(self, pos: np.ndarray | None = None) -> None:
        """Fit the view to the nodes `pos` (N, 2) [m], or to the stage."""
        box = self.bounds if pos is None or not len(pos) else (*pos.min(axis=0), *pos.max(axis=0))
        self.view = View.fit(box, self.world, VIEW_MARGIN)
