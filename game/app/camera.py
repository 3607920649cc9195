"""The play scene's view of the world: zoom about the mouse within limits that keep the
structure in sight, pan (never losing it off the screen), fit, follow a structure that
moves, and the player's own view kept across a check. Screen pixels and metres (y up);
the limits themselves are View's (game/app/view.py)."""

from __future__ import annotations

from dataclasses import replace

from game.app.view import Bounds, View

VIEW_MARGIN = 150  # [px] room around the structure for supports, arrows and labels
ZOOM_STEP = 1.15  # view scale per notch of the mouse wheel
PAN_PX = 60  # [px] the arrow keys move the view by
CLEAR_MARGIN = 100  # [px] room kept around the structure moved clear of a box: a load's arrow and its value
FOLLOW_MARGIN = 60  # [px] a moving structure is kept this far inside the world's edges (its joints and supports)


class Camera:
    """Holds the view. bounds: (xmin, ymin, xmax, ymax) [m] of the stage; world: the
    screen rect (x, y, w, h) [px] the world is drawn in. `whole`: the structure was
    wholly in view when the view was last set (a fit, or the player's zoom or pan), so a
    run keeps it so (`follow`); `kept`: the player's view before a check (`keep`,
    `restore`)."""

    def __init__(self, bounds: Bounds, world: tuple[int, int, int, int]):
        self.bounds = bounds
        self.world = world
        self.view = View.fit(bounds, world, VIEW_MARGIN)
        self.whole = True
        self.kept: tuple[View, bool] | None = None
        self.below = 0  # [px] a box at the foot of the world (a check's verdict) the run is kept above

    def zoom(self, factor: float, about: tuple[int, int], box: Bounds | None = None) -> None:
        """Zoom by `factor`, keeping the world point under `about` [px] in place, within
        limits that keep the structure (`box`: xmin, ymin, xmax, ymax [m] of its nodes
        now; the stage when None) on the screen and of a size to see."""
        self.view = self.view.zoomed(factor, about, box or self.bounds, self.world)
        self.whole = self.view.contains(box or self.bounds, self.inner())

    def pan(self, dx: float, dy: float, box: Bounds | None = None) -> None:
        """Move the view by (dx, dy) [px], never so far that the structure leaves it."""
        self.view = replace(self.view, ox=self.view.ox + dx, oy=self.view.oy + dy).in_sight(box or self.bounds, self.world)
        self.whole = self.view.contains(box or self.bounds, self.inner())

    def clear_of(self, box: Bounds, below: int) -> None:
        """Move (and if need be shrink, never enlarge) the view so that the structure in
        `box` (xmin, ymin, xmax, ymax) [m] sits above a box `below` px tall at the foot
        of the world: the verdict reads beside the structure it talks about."""
        x, y, w, h = self.world
        free = (x, y, w, max(h - below - 24, h // 3))
        fitted = View.fit(box, free, CLEAR_MARGIN)
        scale = min(fitted.scale, self.view.scale)
        cx, cy = 0.5 * (box[0] + box[2]), 0.5 * (box[1] + box[3])
        self.view = View(scale, free[0] + 0.5 * free[2] - scale * cx, free[1] + 0.5 * free[3] + scale * cy)

    def fit(self, box: Bounds | None = None) -> None:
        """Fit the view to the structure's box (xmin, ymin, xmax, ymax) [m] where it is
        drawn now, or to the stage."""
        self.view = View.fit(box or self.bounds, self.world, VIEW_MARGIN)
        self.whole = True

    def follow(self, box: Bounds | None) -> None:
        """A frame of a run: keep the structure (its box [m] where it is drawn now) in
        view as it moves. Wholly, panning the least (and zooming out, never in, when it
        grows past the world), if it was wholly in view; else as a pan keeps it (some of
        it on the screen): a body that flies off or a frame that falls is followed."""
        if box is not None:
            self.view = self.view.holding(box, self.inner()) if self.whole else self.view.in_sight(box, self.world)

    def inner(self) -> tuple[int, int, int, int]:
        """The world rect less FOLLOW_MARGIN all round (less, in a small window) and
        less the box at its foot (`below`, leaving at least a third of it)."""
        x, y, w, h = self.world
        m = min(FOLLOW_MARGIN, w // 4, h // 4)
        return (x + m, y + m, w - 2 * m, max(h - 2 * m - self.below, h // 3))

    def keep(self, below: int = 0) -> None:
        """Remember the player's view (a check is about to move it); the check's run is
        then followed whole, whatever the player had zoomed in on, above a box `below`
        px tall at the foot of the world (its verdict)."""
        self.kept = (self.view, self.whole)
        self.whole, self.below = True, below

    def restore(self) -> None:
        """Back to the view kept before the check (Try again)."""
        if self.kept is not None:
            (self.view, self.whole), self.kept = self.kept, None
        self.below = 0
