"""Labels on the structure, thinned to those that fit, from cached text images.

A dense structure has more members than the screen has room for labels: drawing them
all makes a soup of overlapping numbers and costs a font render and two blits each.
`LabelLayer` instead keeps the labels whose anchor is on the screen (moved inside
when cut by its edge), the most important
first (the caller's order), and of those only the ones that overlap no label placed
before them; each text is rendered once and kept by (font, text, colour), so a frame
costs a blit per label shown, and at most what the screen has room for.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from equilibria.app.draw.palette import BACKGROUND, Colour

CELL = 32  # [px] side of the cells that placed labels are filed under, for the overlap test
KEEP = 4096  # text images kept; past that the cache starts afresh
GAP = 2  # [px] kept between two labels


class LabelLayer:
    """Places and draws labels so that none covers another within a frame: `begin` at
    the start of a frame, then `put` one label or `draw` many, the most important
    first (loads, reactions, names, then member values). Between frames it keeps only
    its cache of text images; `plates` are the plates placed this frame."""

    def __init__(self) -> None:
        self._images: dict[tuple[pygame.font.Font, str, Colour], pygame.Surface] = {}
        self.begin()

    def begin(self) -> None:
        """A new frame: nothing placed yet."""
        self._cells: dict[tuple[int, int], list[pygame.Rect]] = {}
        self.plates: list[pygame.Rect] = []
        self.held: dict[str, pygame.Rect] = {}  # text → the room kept for it (`keep`), to draw later this frame

    def image(self, font: pygame.font.Font, text: str, colour: Colour) -> pygame.Surface:
        """The text rendered (anti-aliased), from the cache when it was rendered before."""
        key = (font, text, colour)
        image = self._images.get(key)
        if image is None:
            if len(self._images) >= KEEP:
                self._images.clear()
            image = self._images[key] = font.render(text, True, colour)
        return image

    def put(
        self, surface: pygame.Surface, font: pygame.font.Font, text: str, at: tuple[float, float], colour: Colour, anchor: str = "center"
    ) -> pygame.Rect | None:
        """Draw one label (its anchor, a pygame.Rect attribute such as midleft, at `at`
        [px]) if its anchor is on the clip area and its plate covers no plate placed
        before it this frame; the plate, or None when it was left out."""
        image = self.image(font, text, colour)
        rect = self._room(surface, image, at, anchor)
        if rect is None:
            return None
        plate = rect.inflate(6, 2)
        pygame.draw.rect(surface, BACKGROUND, plate, border_radius=3)
        surface.blit(image, rect)
        self.plates.append(plate)
        return plate

    def keep(self, surface: pygame.Surface, font: pygame.font.Font, text: str, at: tuple[float, float], colour: Colour, anchor: str = "center") -> bool:
        """Keep room for a label as `put` places it, without drawing it (`held[text]`: its
        rect): a label placed before the rest but drawn over what comes after it. Whether
        there was room."""
        rect = self._room(surface, self.image(font, text, colour), at, anchor)
        if rect is not None:
            self.held[text] = rect
        return rect is not None

    def _room(self, surface: pygame.Surface, image: pygame.Surface, at: tuple[float, float], anchor: str) -> pygame.Rect | None:
        """The rect of `image` anchored at `at`, its plate filed as placed, if its anchor is
        on the clip area and its plate covers no plate placed before it (else None)."""
        area = surface.get_clip() or surface.get_rect()
        if not area.collidepoint(at):
            return None
        rect = image.get_rect(**{anchor: (round(at[0]), round(at[1]))})
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

    def draw(self, surface: pygame.Surface, font: pygame.font.Font, labels: Sequence[tuple[str, tuple[float, float], Colour, str]]) -> list[pygame.Rect]:
        """`put` each label (text, where [px], colour, anchor) in order; the plates drawn."""
        placed = (self.put(surface, font, text, at, colour, anchor) for text, at, colour, anchor in labels)
        return [plate for plate in placed if plate is not None]
