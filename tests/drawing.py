"""What the game draws, read as a transcript rather than as pixels: the drawing records
(game/app/draw/drawlist.py) each frame hands the pygame backend, caught by wrapping
`Backend.draw` (as pymunk's tests draw a space through a printing backend), and readers
for them: the labels' texts, the arrows of a colour, the band a member is drawn as.

`record(monkeypatch)` returns the list the records are caught in (the `drawn` fixture of
conftest.py); clear it before a frame to read that frame's. A Layer's own items (in the
layer's coordinates) are inside it: `flat` lists them after it."""

from __future__ import annotations

from typing import NamedTuple

from equilibria.app.draw.backend import Backend
from equilibria.app.draw.drawlist import Arrow, Bands, Label, Layer


def record(monkeypatch) -> list:
    """Every record handed to any Backend from now on, in the order drawn (a Layer's items
    once, inside it)."""
    caught: list = []
    depth = [0]
    draw = Backend.draw

    def noting(self, surface, items):
        items = list(items)
        if depth[0] == 0:
            caught.extend(items)
        depth[0] += 1
        try:
            return draw(self, surface, items)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(Backend, "draw", noting)
    return caught


def flat(items) -> list:
    """The items, each Layer's own items after it."""
    out = []
    for item in items:
        out.append(item)
        if isinstance(item, Layer):
            out += flat(item.items)
    return out


def of(kind: type, items) -> list:
    """The records of one kind (Arrow, Label, Circle…), layers' items too."""
    return [item for item in flat(items) if isinstance(item, kind)]


def texts(items, colour=None) -> list[str]:
    """The labels' texts (of `colour` only, if given), in the order drawn."""
    return [label.text for label in of(Label, items) if colour is None or tuple(label.colour) == tuple(colour)]


def arrows(items, colour=None) -> list[Arrow]:
    return [a for a in of(Arrow, items) if colour is None or tuple(a.colour)[:3] == tuple(colour)]


class Band(NamedTuple):
    """One member as its frame's Bands record draws it."""

    colour: tuple
    width: float
    a: tuple[float, float]
    b: tuple[float, float]


def band(items, member: int) -> Band | None:
    """Member `member` (its index in member order) as the last Bands drawn has it, or None
    when it is not drawn there (off the screen, broken)."""
    bands = of(Bands, items)
    if not bands:
        return None
    last = bands[-1]
    rows = [k for k, m in enumerate(last.members.tolist()) if m == member]
    if not rows:
        return None
    k = rows[0]
    return Band(last.colour(k), float(last.width[k]), tuple(last.a[k].tolist()), tuple(last.b[k].tolist()))
