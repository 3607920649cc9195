"""Support symbols, drawn in screen pixels around a node.

The kind of support follows from the DOFs it locks: x, y and rot — fixed (a hatched
block); x and y — pin (a triangle on hatched ground); y only — roller (a triangle on
wheels, rolling along x); x only — roller turned on its side (rolling along y); a roller
on a line at any angle (ON_LINE) — the roller's triangle on wheels, turned onto its
line. `side` is the unit vector on screen from the node into the support. A symbol is
a list of drawing records (game/app/draw/drawlist.py), part of the structure's picture.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pygame

from equilibria.app.draw.backend import Backend
from equilibria.app.draw.drawlist import Box, Circle, Hatch, Item, Line, Polygon
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


def on_wall(pos: np.ndarray, q: int, supported: list[int], tol: float) -> bool:
    """Whether another support sits straight above or below node q's (a wall): pos (N, 2)
    [m] the nodes as built, `supported` the supported nodes, tol [m] "straight"."""
    return any(p != q and abs(pos[p, 0] - pos[q, 0]) <= tol and abs(pos[p, 1] - pos[q, 1]) > tol for p in supported)


def side(pos: np.ndarray, ties: Sequence[np.ndarray], q: int, kind: str, *, walled: bool) -> Vec:
    """Where the symbol of a support of `kind` at node q goes (a unit vector on screen),
    away from what meets the node (`ties`: index arrays (K, 2) or (K, 3) of the members
    and plates; pos (N, 2) [m] the nodes as built): pins and rollers on x sit below
    (above if the members hang down), or on a wall beside when supports line up one above
    another; a roller locking x sits beside; a fixed block on the side nearest the
    opposite of the members."""
    out = np.zeros(2)
    for ij in ties:
        others = ij[(ij == q).any(axis=1)].ravel()
        d = pos[others[others != q]] - pos[q]
        out += (d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-12)[:, None]).sum(axis=0)
    away = (-out[0], out[1])  # screen: y down
    beside = (1.0, 0.0) if away[0] > 0 else (-1.0, 0.0)
    if kind == "roller_x" or (kind == "pin" and walled):
        return beside
    if kind in ("pin", "roller"):
        return (0.0, -1.0) if away[1] < 0 and abs(out[1]) > abs(out[0]) else (0.0, 1.0)
    if abs(away[0]) > abs(away[1]):
        return beside
    return (0.0, -1.0) if away[1] < 0 else (0.0, 1.0)


def across(pos: np.ndarray, member_ij: np.ndarray, q: int, normal: Vec) -> Vec:
    """Where a roller on a line at node q goes (a unit vector on screen): across its line
    (world `normal`), on the side away from the members at the node (member_ij (M, 2))."""
    others = member_ij[(member_ij == q).any(axis=1)].ravel()
    toward = (pos[others[others != q]] - pos[q]).sum(axis=0) if len(others) else np.zeros(2)
    sign = -1.0 if float(toward @ normal) >= 0.0 else 1.0  # the side of the line the members are not on
    return (sign * normal[0], -sign * normal[1])  # screen: y down


def extent(kind: str) -> tuple[float, float]:
    """How far a symbol reaches from the node along `side`, and half its width [px]."""
    if kind == "fixed":
        return DEPTH, FIXED_HALF
    return HEIGHT + 6.0, HALF + 6.0


def support(surface: pygame.Surface, kind: str, at: Vec, side: Vec) -> None:
    """The symbol drawn straight on `surface` (the legend's)."""
    Backend().draw(surface, support_items(kind, at, side))


def support_items(kind: str, at: Vec, side: Vec) -> list[Item]:
    """The symbol of a support of `kind` at the node `at` [px], reaching along `side`."""
    if kind == "fixed":
        return _fixed(at, side)
    return _triangle(at, side, rolling=kind != "pin")


def _along(at: Vec, side: Vec, s: float, t: float) -> Vec:
    """The point s px along `side` and t px across it."""
    return at[0] + side[0] * s - side[1] * t, at[1] + side[1] * s + side[0] * t


def _triangle(at: Vec, side: Vec, rolling: bool) -> list[Item]:
    h = HEIGHT - 2 * WHEEL - 1 if rolling else HEIGHT
    tri = (at, _along(at, side, h, -HALF), _along(at, side, h, HALF))
    out: list[Item] = [Polygon(tri, PANEL), Polygon(tri, INK, 2)]
    if rolling:
        out += [Circle(_along(at, side, h + WHEEL + 0.5, t), WHEEL, INK, 1) for t in (-HALF + WHEEL + 1, 0.0, HALF - WHEEL - 1)]
    out.append(Line(_along(at, side, HEIGHT, -HALF - 6), _along(at, side, HEIGHT, HALF + 6), INK, 2))
    for k in range(6):
        t = -HALF - 6 + (2 * HALF + 12) * (k + 0.5) / 6
        out.append(Line(_along(at, side, HEIGHT, t), _along(at, side, HEIGHT + 6, t - 5), INK, 1))
    return out


def _fixed(at: Vec, side: Vec) -> list[Item]:
    corners = [_along(at, side, s, t) for s, t in ((0, -FIXED_HALF), (DEPTH, FIXED_HALF))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    rect = (round(min(xs)), round(min(ys)), round(max(xs) - min(xs)), round(max(ys) - min(ys)))
    return [Box(rect, PANEL), Hatch(rect, INK, 5), Line(_along(at, side, 0, -FIXED_HALF), _along(at, side, 0, FIXED_HALF), INK, 3)]
