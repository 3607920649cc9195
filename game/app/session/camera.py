"""The play scene's view of the world: zoom about the mouse within limits that keep the
structure in sight, pan (never losing it off the screen), fit, follow a structure that
moves, and the player's own view kept across a check. Screen pixels and metres (y up);
the limits themselves are View's (game/app/session/view.py)."""

from __future__ import annotations

from dataclasses import replace

from equilibria.app.session.view import Bounds, View

VIEW_MARGIN = 150  # [px] room around the structure for supports, arrows and labels
ZOOM_STEP = 1.15  # view scale per notch of the mouse wheel
PAN_PX = 60  # [px] the arrow keys move the view by
CLEAR_MARGIN = 100  # [px] room kept around the structure moved clear of a box: a load's arrow and its value
FOLLOW_MARGIN = 60  # [px] a moving structure is kept this far inside the world's edges (its joints and supports)
LABEL_GAP = 12  # [px] kept between the world's edge and the farthest force arrow or its value
BOX_GAP = 24  # [px] kept between the structure moved clear of a box and the box
KEEP_SHARE = 0.35  # the least share of the world's width and height left to the structure itself
Pads = tuple[float, float, float, float]  # [px] how far the force arrows and their values reach beyond the nodes: left, top, right, bottom


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

    def clear_of(self, box: Bounds, below: int, pads: Pads = (0.0, 0.0, 0.0, 0.0)) -> None:
        """Move (and if need be shrink, never enlarge) the view so that the structure in
        `box` (xmin, ymin, xmax, ymax) [m], with its force arrows reaching `pads` [px]
        beyond it, sits above a box `below` px tall at the foot of the world: the
        verdict reads beside the structure it talks about."""
        x, y, w, h = self.world
        free = (x, y, w, max(h - below - BOX_GAP, h // 3))
        if any(pads):
            free = padded(free, pads, LABEL_GAP)
        fitted = View.fit(box, free, max(CLEAR_MARGIN - max(pads), LABEL_GAP))
        scale = min(fitted.scale, self.view.scale)
        cx, cy = 0.5 * (box[0] + box[2]), 0.5 * (box[1] + box[3])
        self.view = View(scale, free[0] + 0.5 * free[2] - scale * cx, free[1] + 0.5 * free[3] + scale * cy)

    def fit(self, box: Bounds | None = None, pads: Pads = (0.0, 0.0, 0.0, 0.0)) -> None:
        """Fit the view to the structure's box (xmin, ymin, xmax, ymax) [m] where it is
        drawn now, or to the stage, above a check's verdict (`below`); `pads`: how far
        [px] its force arrows and their values reach beyond the nodes on each side, kept
        inside the world too."""
        x, y, w, h = self.world
        world = (x, y, w, max(h - self.below - BOX_GAP, h // 3)) if self.below else self.world  # above a check's verdict
        if not any(pads):
            self.view = View.fit(box or self.bounds, world, VIEW_MARGIN)
        else:
            rect = padded(world, pads, LABEL_GAP)
            self.view = View.fit(box or self.bounds, rect, max(VIEW_MARGIN - max(pads), LABEL_GAP))
        self.whole = True

    def resized(self, world: tuple[int, int, int, int], box: Bounds | None, built: Bounds | None) -> None:
        """The window changed size: the view, and the player's view kept for T, keep
        their centres and their zoom relative to the stage fitted in the world; one
        that showed the whole structure (`box` [m] where it is drawn now, `built` as
        built: what T shows) still does, moved the least."""
        old, self.world = self.world, world
        self.view = self._moved(self.view, self.whole, box, old)
        if self.kept is not None:
            below, self.below = self.below, 0  # T closes the verdict
            self.kept = (self._moved(self.kept[0], self.kept[1], built, old), self.kept[1])
            self.below = below

    def _moved(self, view: View, whole: bool, box: Bounds | None, old: tuple[int, int, int, int]) -> View:
        """`view` of the world rect `old` on the world now (resized)."""
        shown = box is not None and view.contains(box, old)
        view = rescaled(view, self.bounds, old, self.world)
        if box is None or not (whole or shown):
            return view
        return view.holding(box, self.inner() if whole else self.world)

    def follow(self, box: Bounds | None, pads: Pads = (0.0, 0.0, 0.0, 0.0)) -> None:
        """A frame of a run: keep the structure (its box [m] where it is drawn now) in
        view as it moves. Wholly, panning the least (and zooming out, never in, when it
        grows past the world), if it was wholly in view; else as a pan keeps it (some of
        it on the screen): a body that flies off or a frame that falls is followed.
        `pads` [px]: how far its force arrows and their values reach beyond the nodes,
        held in view with them."""
        if box is not None:
            self.view = self.view.holding(box, self.inner(pads)) if self.whole else self.view.in_sight(box, self.world)

    def inner(self, pads: Pads = (0.0, 0.0, 0.0, 0.0)) -> tuple[int, int, int, int]:
        """The world rect less FOLLOW_MARGIN all round (less, in a small window) and
        less the box at its foot (`below`, leaving at least a third of it); less the
        reach of the force arrows (`pads` [px]) where that is more."""
        x, y, w, h = self.world
        m = min(FOLLOW_MARGIN, w // 4, h // 4)
        rect = (x + m, y + m, w - 2 * m, max(h - 2 * m - self.below, h // 3))
        if not any(pads):
            return rect
        left, top, right, bottom = (max(p + LABEL_GAP, m) for p in pads)
        return sides_off((x, y, w, max(h - self.below, h // 3)), left, top, right, bottom)

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


def box_room(height: int) -> int:
    """[px] the tallest box at the foot of a world `height` px tall that still leaves the
    structure moved clear of it (clear_of) its third of the world: a taller one scrolls."""
    return height - height // 3 - BOX_GAP


def padded(rect: tuple[int, int, int, int], pads: Pads, gap: float) -> tuple[int, int, int, int]:
    """`rect` less `pads` [px] (+ `gap`) on its sides (left, top, right, bottom), each
    side at most a quarter of the rect (a small window keeps room for the structure)."""
    return sides_off(rect, *(p + gap for p in pads))


def sides_off(rect: tuple[int, int, int, int], left: float, top: float, right: float, bottom: float) -> tuple[int, int, int, int]:
    """`rect` less `left`, `top`, `right`, `bottom` [px] on its sides; when they take
    more than KEEP_SHARE of its width or height away, each in proportion less (a small
    window keeps room for the structure)."""
    x, y, w, h = rect
    across = min(1.0, (1 - KEEP_SHARE) * w / max(left + right, 1e-9))
    down = min(1.0, (1 - KEEP_SHARE) * h / max(top + bottom, 1e-9))
    left, right, top, bottom = left * across, right * across, top * down, bottom * down
    return (int(x + left), int(y + top), max(int(w - left - right), 1), max(int(h - top - bottom), 1))


def rescaled(view: View, bounds: Bounds, old: tuple[int, int, int, int], new: tuple[int, int, int, int]) -> View:
    """`view` of a world rect `old` moved to the rect `new`: the world point at the old
    rect's centre at the new one's, the scale in the same ratio to the stage fitted in
    each (a view twice as close as the fit stays twice as close)."""
    ratio = View.fit(bounds, new, VIEW_MARGIN).scale / View.fit(bounds, old, VIEW_MARGIN).scale
    cx = (old[0] + 0.5 * old[2] - view.ox) / view.scale
    cy = (view.oy - old[1] - 0.5 * old[3]) / view.scale
    scale = view.scale * ratio
    return View(scale, new[0] + 0.5 * new[2] - scale * cx, new[1] + 0.5 * new[3] + scale * cy)
