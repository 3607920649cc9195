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
CLEAR_MARGIN = 100  # [px] room kept around the structure moved clear of a box: a load's arrow and its value


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

    def clear_of(self, box: tuple[float, float, float, float], below: int) -> None:
        """Move (and if need be shrink, never enlarge) the view so that the structure in
        `box` (xmin, ymin, xmax, ymax) [m] sits above a box `below` px tall at the foot
        of the world: the verdict reads beside the structure it talks about."""
        x, y, w, h = self.world
        free = (x, y, w, max(h - below - 24, h // 3))
        fitted = View.fit(box, free, CLEAR_MARGIN)
        scale = min(fitted.scale, self.view.scale)
        cx, cy = 0.5 * (box[0] + box[2]), 0.5 * (box[1] + box[3])
        self.view = View(scale, free[0] + 0.5 * free[2] - scale * cx, free[1] + 0.5 * free[3] + scale * cy)

    def fit(self, pos: np.ndarray | None = None) -> None:
        """Fit the view to the nodes `pos` (N, 2) [m], or to the stage."""
        box = self.bounds if pos is None or not len(pos) else (*pos.min(axis=0), *pos.max(axis=0))
        self.view = View.fit(box, self.world, VIEW_MARGIN)
