"""Support symbols, drawn in screen pixels around a node.

The kind of support follows from the DOFs it locks: x, y and rot — fixed (a hatched
block); x and y — pin (a triangle on hatched ground); y only — roller (a triangle on
wheels, rolling along x); x only — roller turned on its side (rolling along y); a roller
on a line at any angle (ON_LINE) — the roller's triangle on wheels, turned onto its
line. `side` is the unit vector on screen from the node into the support.
"""

from __future__ import annotations

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import INK, PANEL

Vec = tuple[float, float]

HEIGHT = 22.0  # [px] node to ground line of a pin or roller
HALF = 13.0  # [px] half the width of the triangle
DEPTH = 12.0  # [px] depth of a fixed block
FIXED_HALF = 18.0  # [px] half the width of a fixed block
WHEEL = 3.5  # [px] radius of a roller's wheels
ON_LINE = "roller_line"  # the kind of a roller on a line at any angle (supports[].roller)


def support_type(fix: frozenset[str]) -> str:
    """'fixed', 'pin', 'roller' (rolls along x) or 'roller_x' (locks x only)."""
    if "rot" in fix:
        return "fixed"
    if {"x", "y"} <= fix:
        return "pin"
    return "roller" if "y" in fix else "roller_x"


def extent(kind: str) -> tuple[float, float]:
    """How far a symbol reaches from the node along `side`, and half its width [px]."""
    if kind == "fixed":
        return DEPTH, FIXED_HALF
    return HEIGHT + 6.0, HALF + 6.0


def support(surface: pygame.Surface, kind: str, at: Vec, side: Vec) -> None:
    if kind == "fixed":
        _fixed(surface, at, side)
    else:
        _triangle(surface, at, side, rolling=kind != "pin")


def _along(at: Vec, side: Vec, s: float, t: float) -> Vec:
    """The point s px along `side` and t px across it."""
    return at[0] + side[0] * s - side[1] * t, at[1] + side[1] * s + side[0] * t


def _triangle(surface: pygame.Surface, at: Vec, side: Vec, rolling: bool) -> None:
    h = HEIGHT - 2 * WHEEL - 1 if rolling else HEIGHT
    tri = [at, _along(at, side, h, -HALF), _along(at, side, h, HALF)]
    pygame.draw.polygon(surface, PANEL, tri)
    pygame.draw.polygon(surface, INK, tri, 2)
    if rolling:
        for t in (-HALF + WHEEL + 1, 0.0, HALF - WHEEL - 1):
            pygame.draw.circle(surface, INK, _along(at, side, h + WHEEL + 0.5, t), WHEEL, 1)
    a, b = _along(at, side, HEIGHT, -HALF - 6), _along(at, side, HEIGHT, HALF + 6)
    pygame.draw.line(surface, INK, a, b, 2)
    for k in range(6):
        t = -HALF - 6 + (2 * HALF + 12) * (k + 0.5) / 6
        pygame.draw.line(surface, INK, _along(at, side, HEIGHT, t), _along(at, side, HEIGHT + 6, t - 5), 1)


def _fixed(surface: pygame.Surface, at: Vec, side: Vec) -> None:
    corners = [_along(at, side, s, t) for s, t in ((0, -FIXED_HALF), (DEPTH, FIXED_HALF))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    rect = pygame.Rect(round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys)))
    pygame.draw.rect(surface, PANEL, rect)
    draw.hatch(surface, INK, rect, 5)
    pygame.draw.line(surface, INK, _along(at, side, 0, -FIXED_HALF), _along(at, side, 0, FIXED_HALF), 3)
