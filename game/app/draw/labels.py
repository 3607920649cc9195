"""Labels on the structure, thinned to those that fit.

A dense structure has more members than the screen has room for labels: drawing them
all makes a soup of overlapping numbers and costs a font render and two blits each.
`LabelLayer` instead keeps the labels whose anchor is on the screen (moved inside
when cut by its edge), the most important
first (the caller's order), and of those only the ones that overlap no label placed
before them. It places, it does not draw: a label it keeps is a `Label` record added to
the picture being made (game/app/draw/drawlist.py), which the backend draws from its
cache of text images (game/app/draw/backend.py), so a frame costs a blit per label
shown, and at most what the screen has room for. Texts are measured with the fonts'
metrics (Font.size: the size of the image the backend renders), kept once measured.
"""

from __future__ import annotations

import pygame

from equilibria.app.draw.drawlist import Label, Sketch
from equilibria.app.draw.palette import Colour, Fonts

CELL = 32  # [px] side of the cells that placed labels are filed under, for the overlap test
KEEP = 4096  # text sizes kept; past that the cache starts afresh
GAP = 2  # [px] kept between two labels


class LabelLayer:
    """Places labels so that none covers another within a frame: `begin` at the start
    of a frame, then `put` labels, the most important first (loads, reactions, names,
    then member values). Between frames it keeps only the sizes of texts it measured.
    Fonts are named as palette.Fonts names them ("small", "bold")."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self._sizes: dict[tuple[str, str, float], tuple[int, int]] = {}  # by font, text and the fonts' scale
        self.begin()

    def begin(self) -> None:
        """A new frame: nothing placed yet."""
        self._cells: dict[tuple[int, int], list[pygame.Rect]] = {}
        self.held: dict[str, pygame.Rect] = {}  # text → the room kept for it (`keep`), to draw later this frame

    def size(self, font: str, text: str) -> tuple[int, int]:
        """The size [px] of `text` drawn in the font named `font`."""
        key = (font, text, self.fonts.scale)
        size = self._sizes.get(key)
        if size is None:
            if len(self._sizes) >= KEEP:
                self._sizes.clear()
            size = self._sizes[key] = getattr(self.fonts, font).size(text)
        return size

    def put(self, sketch: Sketch, font: str, text: str, at: tuple[float, float], colour: Colour, anchor: str = "center") -> Label | None:
        """Add one label to `sketch` (its anchor, a pygame.Rect attribute such as midleft,
        at `at` [px]) if its anchor is on the sketch's area and its plate covers no plate
        placed before it this frame; the label, or None when it was left out."""
        rect = self._room(sketch.area, self.size(font, text), at, anchor)
        if rect is None:
            return None
        label = Label(text, (rect.x, rect.y, rect.w, rect.h), colour, font)
        sketch.add(label)
        return label

    def keep(self, area: pygame.Rect, font: str, text: str, at: tuple[float, float], anchor: str = "center") -> bool:
        """Keep room for a label as `put` places it, without adding it (`held[text]`: its
        rect): a label placed before the rest but drawn over what comes after it. Whether
        there was room."""
        rect = self._room(area, self.size(font, text), at, anchor)
        if rect is not None:
            self.held[text] = rect
        return rect is not None

    def _room(self, area: pygame.Rect, size: tuple[int, int], at: tuple[float, float], anchor: str) -> pygame.Rect | None:
        """The rect of a text of `size` anchored at `at`, its plate filed as placed, if its
        anchor is on `area` and its plate covers no plate placed before it (else None)."""
        if not area.collidepoint(at):
            return None
        rect = pygame.Rect((0, 0), size)
        setattr(rect, anchor, (round(at[0]), round(at[1])))
        if not area.contains(rect.inflate(6, 2)):  # cut by the edge: moved inside, as draw.label does
            rect.clamp_ip(area.inflate(-6, -4))
        plate = rect.inflate(6, 2)
        cells = [(cx, cy) for cx in range(plate.left // CELL, plate.right // CELL + 1) for cy in range(plate.top // CELL, plate.bottom // CELL + 1)]
        room = plate.inflate(2 * GAP, 2 * GAP)
        if any(room.collidelist(self._cells.get(c, ())) >= 0 for c in cells):
            return None
        for c in cells:
            self._cells.setdefault(c, []).append(plate)
        return rect
