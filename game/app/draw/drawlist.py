"""What a picture draws, as a list of plain records, before anything is drawn: lines,
polygons, circles, boxes, dashes, arrows, curls (a moment's arrow), text labels, members'
bands, and layers drawn see-through. Each record holds screen coordinates [px] (x right,
y down), colours (r, g, b) or (r, g, b, a), widths [px] and text; nothing here draws or
knows a surface. A picture is made as a list of them, in order (the last on top), and
handed to a backend that draws them (game/app/draw/backend.py), as pymunk's
`space.debug_draw(options)` hands its segments, polygons and dots to the options passed
in. So a test reads what the painter draws, not pixels: "member AB in tension blue, 9 px
wide", "an arrow at A pointing up".

Records are NamedTuples of numbers, strings and tuples, except `Bands`, every member of a
frame in one record of arrays (a frame keeps no Python object per member: thousands a
frame made the garbage collector sweep the whole heap; render.py). No pygame here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

Point = tuple[float, float]
Colour = tuple[int, ...]  # (r, g, b), or (r, g, b, a) in a see-through Layer
Rect = tuple[int, int, int, int]  # (left, top, width, height) [px]


class Line(NamedTuple):
    """A straight line from a to b, `width` px wide (pygame.draw.line)."""

    a: Point
    b: Point
    colour: Colour
    width: int = 1


class Lines(NamedTuple):
    """A polyline through `points`; width 0: one anti-aliased pixel wide (aalines)."""

    points: tuple[Point, ...]
    colour: Colour
    width: int = 0
    closed: bool = False


class Polygon(NamedTuple):
    """A polygon: filled (width 0) or its outline `width` px wide; `edge`: an
    anti-aliased outline of that colour over the fill (None: none)."""

    points: tuple[Point, ...]
    colour: Colour
    width: int = 0
    edge: Colour | None = None


class Circle(NamedTuple):
    """A disc (width 0) or a ring `width` px wide."""

    centre: Point
    radius: float
    colour: Colour
    width: int = 0


class Box(NamedTuple):
    """A filled rectangle; `radius` rounds its corners, `top_radius` (≥ 0) its upper ones alone."""

    rect: Rect
    colour: Colour
    radius: int = 0
    top_radius: int = -1


class Hatch(NamedTuple):
    """Diagonal hatching inside `rect`, `spacing` px apart (a rigid support's mark)."""

    rect: Rect
    colour: Colour
    spacing: int = 6


class Dashes(NamedTuple):
    """Dashes from a to b: `dash` px drawn, `gap` px left, `width` px wide."""

    a: Point
    b: Point
    colour: Colour
    width: int = 2
    dash: float = 8.0
    gap: float = 6.0


class Arrow(NamedTuple):
    """A straight arrow from `tail` to its point at `head`; `hollow`: its head an outline
    (the player's own forces), `dashed`: its shaft in dashes (a load still to come)."""

    tail: Point
    head: Point
    colour: Colour
    width: int = 3
    head_length: float = 13.0
    head_width: float = 10.0
    hollow: bool = False
    dashed: bool = False


class Curl(NamedTuple):
    """A moment's arrow: three quarters of a circle round `centre`, open at the upper
    right, its head showing the sense of turning (counter_clockwise as seen on screen)."""

    centre: Point
    radius: float
    colour: Colour
    counter_clockwise: bool
    width: int = 3
    hollow: bool = False  # its head an outline (the player's own moment)


class Label(NamedTuple):
    """Text in `font` (a name of palette.Fonts: "small", "bold"…), its box at `rect`,
    on a plate of the background (`plate`) so that lines under it do not hide it."""

    text: str
    rect: Rect
    colour: Colour
    font: str

    @property
    def plate(self) -> Rect:
        x, y, w, h = self.rect
        return (x - 3, y - 1, w + 6, h + 2)


class Bands(NamedTuple):
    """The members of a frame, K of them: member `members[k]` (its index in member order)
    from a[k] to b[k] [px] (its part on the clip area), width[k] [px] wide, in the colour
    `colours[sign[k]]` (sign: 1 pulls, −1 pushes, 0 about zero, 2 hidden). `smooth`:
    bands with anti-aliased edges, drawn in order; else thick lines, a colour at a time."""

    members: np.ndarray  # (K,) int64
    a: np.ndarray  # (K, 2) float64 [px]
    b: np.ndarray  # (K, 2) float64 [px]
    width: np.ndarray  # (K,) float64 [px]
    sign: np.ndarray  # (K,) int64
    colours: Mapping[int, Colour]
    smooth: bool

    def colour(self, row: int) -> Colour:
        return self.colours[int(self.sign[row])]


class Layer(NamedTuple):
    """Items drawn on a see-through layer of the size of `rect`, in its own coordinates
    (0, 0 at its top left), then laid on the picture at `rect`, `opacity` as opaque."""

    rect: Rect
    items: tuple[Any, ...]
    opacity: float = 1.0


Item = Line | Lines | Polygon | Circle | Box | Hatch | Dashes | Arrow | Curl | Label | Bands | Layer


class Sketch:
    """A picture being made: its items so far, in order, and the area [px] it is made for
    (the surface's clip area, as a pygame.Rect: what is on it shows)."""

    def __init__(self, area) -> None:
        self.area = area
        self.items: list[Item] = []

    def add(self, *items: Item) -> None:
        self.items.extend(items)


def curl_label_at(centre: Point, radius: float) -> Point:
    """The point in a Curl's opening, for its label."""
    cx, cy = centre
    return cx + (radius + 4) * math.cos(math.radians(45.0)), cy - (radius + 4) * math.sin(math.radians(45.0))
