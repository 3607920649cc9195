"""The keyboard's pointer: a selection moved over the nodes and members by keys alone.

A student who cannot use a mouse plays with the keys, as in a PhET simulation: Tab and
Shift+Tab step through what the tool in hand acts on (its `targets`) in reading order, top
row first and left to right; an arrow key goes to the nearest target in that direction;
Shift with an arrow moves a free point one grid step (Alt as well: a tenth of one), for a
new node or a member to empty ground. The scene then does with Enter what a click of the
tool does at `at`, the selection's point, and draws it there (game/app/scenes/play.py).

No pygame here: the targets come from `Shapes.targets` (world metres, y up), and the
cursor holds only a world point and what stands there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from equilibria.app.session.shapes import Shapes

DIRECTIONS = {"left": (-1.0, 0.0), "right": (1.0, 0.0), "up": (0.0, 1.0), "down": (0.0, -1.0)}
CONE = math.radians(67.5)  # a target counts as "that way" within this angle of the arrow (a diagonal neighbour is)
SIDEWAYS = 2.0  # how much a step sideways costs against one along the arrow, in choosing the nearest
FINE = 10  # Alt+Shift+arrow moves the free point a tenth of a grid step


@dataclass(frozen=True)
class Target:
    """Something a tool acts on: kind ("node", "member", "triangle"), its id, its row in
    the model's ids, and the point [m] a click on it is made at (a node's place, a
    member's middle, a plate's centroid)."""

    kind: str
    id: str
    index: int
    x: float
    y: float


def reading_order(targets: list[Target], span: float) -> list[Target]:
    """Top row first, left to right in a row; a row holds the points within a thousandth
    of the structure's span of each other in height."""
    row = max(span, 1e-9) * 1e-3
    return sorted(targets, key=lambda t: (-round(t.y / row), t.x, t.kind, t.id))


class KeyCursor:
    """The selection the keys move. `active` once a key moved it (the mouse moving hands
    the pointer back); `target` what is selected (None: the free point `at`)."""

    def __init__(self) -> None:
        self.active = False
        self.target: Target | None = None
        self.at: tuple[float, float] | None = None  # [m] where Enter clicks
        self.fine = False  # `at` was put off the grid (Alt): Enter clicks as Shift+click does

    def clear(self) -> bool:
        """Hand the pointer back to the mouse; whether the keys had it."""
        had, self.active, self.target = self.active, False, None
        return had

    def follow(self, targets: list[Target]) -> None:
        """Keep the selection on its target where it stands now (a node moves in a run);
        a target that is gone (erased, broken) leaves its point selected."""
        if self.target is None:
            return
        same = next((t for t in targets if (t.kind, t.id) == (self.target.kind, self.target.id)), None)
        self.target = same
        if same is not None:
            self.at = (same.x, same.y)

    def step(self, targets: list[Target], span: float, forward: bool = True) -> Target | None:
        """Tab (forward) or Shift+Tab: the next target in reading order, round the end."""
        ordered = reading_order(targets, span)
        if not ordered:
            return None
        keys = [(t.kind, t.id) for t in ordered]
        here = (self.target.kind, self.target.id) if self.target is not None else None
        start = keys.index(here) if here in keys else (-1 if forward else 0)  # nothing chosen: the first, or the last
        k = (start + (1 if forward else -1)) % len(ordered)
        return self.select(ordered[k])

    def toward(self, targets: list[Target], direction: str) -> Target | None:
        """An arrow key: the nearest target that way from the selection (None: there is
        none, and the selection stays)."""
        if self.at is None:
            return None
        dx, dy = DIRECTIONS[direction]
        x0, y0 = self.at
        best, score = None, math.inf
        for t in targets:
            if self.target is not None and (t.kind, t.id) == (self.target.kind, self.target.id):
                continue
            ux, uy = t.x - x0, t.y - y0
            along, across = ux * dx + uy * dy, abs(ux * dy - uy * dx)
            if along <= 0 or math.atan2(across, along) > CONE:
                continue
            s = along + SIDEWAYS * across
            if s < score:
                best, score = t, s
        return self.select(best) if best is not None else None

    def nudge(self, direction: str, grid: float, *, fine: bool = False) -> tuple[float, float] | None:
        """Shift+arrow: the free point one grid step that way (Alt: a tenth of a step),
        from the selection; on the grid unless moved finely."""
        if self.at is None:
            return None
        dx, dy = DIRECTIONS[direction]
        step = grid / FINE if fine else grid
        x, y = self.at[0] + dx * step, self.at[1] + dy * step
        self.fine = self.fine or fine
        if not self.fine:
            x, y = round(x / grid) * grid, round(y / grid) * grid
        else:
            x, y = round(x / step) * step, round(y / step) * step
        self.target, self.at, self.active = None, (x + 0.0, y + 0.0), True
        return self.at

    def select(self, target: Target) -> Target:
        self.target, self.at, self.active, self.fine = target, (target.x, target.y), True, False
        return target

    def start(self, at: tuple[float, float]) -> None:
        """The keys take the pointer at the world point `at`, with nothing selected."""
        self.target, self.at, self.active = None, at, True


def targets_of(shapes: Shapes | None, kinds: tuple[str, ...]) -> list[Target]:
    """The targets of `kinds` where the shapes stand (nothing: no structure)."""
    if shapes is None:
        return []
    return [Target(*row) for row in shapes.targets(kinds)]
