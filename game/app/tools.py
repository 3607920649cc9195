"""The tools a player holds, and the toolbar that shows them.

A tool turns clicks in the world into edits of the work (game/workbench.py) or into
actions on the running simulation (drag, nail, bomb). Which tools a level has is the
workbench's business (`tools_for`); this module says what each is called, its key and
what it does, and draws the bar. Sizes in pixels; world positions in metres, y up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from game.app import draw
from game.app.palette import INK, MUTED, PANEL, RULE, TENSION, Fonts


@dataclass(frozen=True)
class Tool:
    name: str
    label: str
    tip: str  # what a click does, for the status line and the help


TOOLS = {
    t.name: t
    for t in (
        Tool("inspect", "Inspect", "hover for values; click a node or member to follow it (A: add it to the graph)"),
        Tool("node", "Node", "click to place a node (on the grid; hold Shift for off-grid)"),
        Tool("member", "Member", "click two nodes to join them (Tab: next section); click empty ground for a new node"),
        Tool("triangle", "Plate", "click three nodes for a triangular steel plate"),
        Tool("support", "Support", "click a node: pin → roller → wall roller → fixed → none"),
        Tool("force", "Force", "press on a node and drag out the force; let go to place it"),
        Tool("erase", "Erase", "click something you added to take it away"),
        Tool("mark", "Mark zero", "click a member you think carries nothing; click again to unmark"),
        Tool("remove", "Remove", "click a member to take it out of the truss; click again to put it back"),
        Tool("drag", "Drag", "press on a node and pull: a spring joins it to your hand"),
        Tool("nail", "Nail", "click a node to nail it where it is; click again to pull the nail"),
        Tool("bomb", "Bomb", "click a member or plate to blow it up while it runs (R brings it back)"),
    )
}

BUTTON_H = 30
GAP = 6


class Toolbar:
    """A row of buttons, one per tool, numbered 1, 2, … for the keyboard."""

    def __init__(self, names: tuple[str, ...]):
        self.names = names
        self.current = names[0]
        self.rects: list[pygame.Rect] = []

    def choose(self, name: str) -> None:
        if name in self.names:
            self.current = name

    def key(self, number: int) -> bool:
        """Choose tool `number` (1-based); whether there is one."""
        if 1 <= number <= len(self.names):
            self.current = self.names[number - 1]
            return True
        return False

    @staticmethod
    def number(k: int) -> str:
        """The key of tool k (0-based): 1 … 9, then 0."""
        return str((k + 1) % 10)

    def layout(self, fonts: Fonts, topleft: tuple[int, int]) -> pygame.Rect:
        x, y = topleft
        self.rects = []
        for k, name in enumerate(self.names):
            w = fonts.small.size(self.number(k))[0] + fonts.body.size(TOOLS[name].label)[0] + 22
            self.rects.append(pygame.Rect(x, y, w, BUTTON_H))
            x += w + GAP
        return pygame.Rect(topleft, (x - topleft[0], BUTTON_H)) if self.rects else pygame.Rect(topleft, (0, 0))

    def at(self, pos: tuple[int, int]) -> str | None:
        for name, rect in zip(self.names, self.rects, strict=False):
            if rect.collidepoint(pos):
                return name
        return None

    def draw(self, surface: pygame.Surface, fonts: Fonts) -> None:
        for k, (name, rect) in enumerate(zip(self.names, self.rects, strict=False)):
            on = name == self.current
            pygame.draw.rect(surface, TENSION if on else PANEL, rect, border_radius=5)
            pygame.draw.rect(surface, TENSION if on else RULE, rect, 1, border_radius=5)
            colour = (255, 255, 255) if on else INK
            number = draw.label(surface, fonts.small, self.number(k), (rect.left + 7, rect.centery), colour if on else MUTED, "midleft", None)
            draw.label(surface, fonts.body, TOOLS[name].label, (number.right + 6, rect.centery), colour, "midleft", None)


def nice_step(x: float) -> float:
    """The number of the form 1, 2 or 5 × 10^n nearest below x (x > 0)."""
    e = math.floor(math.log10(x))
    for m in (5, 2, 1):
        if m * 10**e <= x * (1 + 1e-9):
            return m * 10**e
    return 10**e


def snap(value: float, step: float) -> float:
    return round(value / step) * step


def grid_step(span: float) -> float:
    """A grid of about 40 cells across a world `span` [m] wide: 0.1, 0.2, 0.5, 1 m…"""
    return nice_step(max(span, 1e-3) / 40)


FORCE_PX = 200.0  # [px] a drag this long makes the reference force


def dragged_force(dx_px: float, dy_px: float, reference: float, *, fine: bool = False) -> tuple[float, float]:
    """The force [N] (fx, fy; y up) of a drag of (dx, dy) screen pixels: FORCE_PX
    pixels make `reference` newtons; components snap to a fortieth of it, rounded to
    1, 2 or 5 × 10^n (a tenth as much with `fine`)."""
    per_px = reference / FORCE_PX
    step = nice_step(reference / (400 if fine else 40))
    return snap(dx_px * per_px, step) + 0.0, snap(-dy_px * per_px, step) + 0.0
