"""The play scene's view of the world: zoom about the mouse within limits that keep the
structure in sight, pan (never losing it off the screen), fit. Screen pixels and metres
(y up); the limits themselves are View's (game/app/view.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from game.app.view import View

VIEW_MARGIN = 150  # [px] room around the structure for supports, arrows and labels
ZOOM_STEP = 1.15  # view scale per notch of the mouse wheel
PAN_PX = 60  # [px] the arrow keys move the view by


class Camera:
    """Holds the view. bounds: (xmin, ymin, xmax, ymax) [m] of the stage; world: the
    screen rect (x, y, w, h) [px] the world is drawn in."""

    def __init__(self, bounds: tuple[float, float, float, float], world: tuple[int, int, int, int]):
        self.bounds = bounds
        self.world = world
        self.view = View.fit(bounds, world, VIEW_MARGIN)

    def zoom(self, factor: float, about: tuple[int, int], box: tuple[float, float, float, float] | None = None) -> None:
        """Zoom by `factor`, keeping the world point under `about` [px] in place, within
        limits that keep the structure (`box`: xmin, ymin, xmax, ymax [m] of its nodes
        now; the stage when None) on the screen and of a size to see."""
        self.view = self.view.zoomed(factor, about, box or self.bounds, self.world)

    def pan(self, dx: float, dy: float, box: tuple[float, float, float, float] | None = None) -> None:
        """Move the view by (dx, dy) [px], never so far that the structure leaves it."""
        self.view = replace(self.view, ox=self.view.ox + dx, oy=self.view.oy + dy).in_sight(box or self.bounds, self.world)

    def fit(self, pos: np.ndarray | None = None) -> None:
        """Fit the view to the nodes `pos` (N, 2) [m], or to the stage."""
        box = self.bounds if pos is None or not len(pos) else (*pos.min(axis=0), *pos.max(axis=0))
        self.view = View.fit(box, self.world, VIEW_MARGIN)
