"""The pygame backend: draws a list of drawing records (game/app/draw/drawlist.py) on a
surface, in order, each with the pygame-ce call (or primitives.py function) it names; text
labels from a cache of rendered text images. What to draw is decided before, without a
surface (render.py's StructurePainter.sketch); this only draws it."""

from __future__ import annotations

import numpy as np
import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.drawlist import Arrow, Bands, Box, Circle, Curl, Dashes, Hatch, Label, Layer, Line, Lines, Polygon
from equilibria.app.draw.palette import BACKGROUND, Colour, Fonts

KEEP = 4096  # text images kept; past that the cache starts afresh


class Backend:
    """Draws drawing records on a pygame surface. fonts: the fonts a Label names (None:
    a list without labels); keeps the text images it rendered, by font, text and colour."""

    def __init__(self, fonts: Fonts | None = None) -> None:
        self.fonts = fonts
        self._images: dict[tuple[str, str, Colour, float], pygame.Surface] = {}  # by font, text, colour and the fonts' scale

    def draw(self, surface: pygame.Surface, items) -> None:
        """Each item on `surface`, in order (the last on top)."""
        for item in items:
            DRAW[type(item)](self, surface, item)

    def image(self, font: str, text: str, colour: Colour) -> pygame.Surface:
        """The text rendered (anti-aliased) in the font named `font`, from the cache when
        it was rendered before."""
        key = (font, text, colour, self.fonts.scale)
        image = self._images.get(key)
        if image is None:
            if len(self._images) >= KEEP:
                self._images.clear()
            image = self._images[key] = getattr(self.fonts, font).render(text, True, colour)
        return image

    def _line(self, surface: pygame.Surface, line: Line) -> None:
        pygame.draw.line(surface, line.colour, line.a, line.b, line.width)

    def _lines(self, surface: pygame.Surface, lines: Lines) -> None:
        if lines.width == 0:
            pygame.draw.aalines(surface, lines.colour, lines.closed, lines.points)
        else:
            pygame.draw.lines(surface, lines.colour, lines.closed, lines.points, lines.width)

    def _polygon(self, surface: pygame.Surface, polygon: Polygon) -> None:
        pygame.draw.polygon(surface, polygon.colour, polygon.points, polygon.width)
        if polygon.edge is not None:
            pygame.draw.aalines(surface, polygon.edge, True, polygon.points)

    def _circle(self, surface: pygame.Surface, circle: Circle) -> None:
        pygame.draw.circle(surface, circle.colour, circle.centre, circle.radius, circle.width)

    def _box(self, surface: pygame.Surface, box: Box) -> None:
        r = box.top_radius
        pygame.draw.rect(surface, box.colour, box.rect, border_radius=box.radius, border_top_left_radius=r, border_top_right_radius=r)

    def _hatch(self, surface: pygame.Surface, hatch: Hatch) -> None:
        draw.hatch(surface, hatch.colour, pygame.Rect(hatch.rect), hatch.spacing)

    def _dashes(self, surface: pygame.Surface, d: Dashes) -> None:
        draw.dashed(surface, d.colour, d.a, d.b, d.width, d.dash, d.gap)

    def _arrow(self, surface: pygame.Surface, a: Arrow) -> None:
        draw.arrow(surface, a.colour, a.tail, a.head, a.width, a.head_length, a.head_width, hollow=a.hollow, dashed_shaft=a.dashed)

    def _curl(self, surface: pygame.Surface, c: Curl) -> None:
        draw.moment_arrow(surface, c.colour, c.centre, c.radius, c.counter_clockwise, c.width, hollow=c.hollow)

    def _label(self, surface: pygame.Surface, label: Label) -> None:
        """The text on its plate (as LabelLayer placed it)."""
        rect = pygame.Rect(label.rect)
        pygame.draw.rect(surface, BACKGROUND, rect.inflate(6, 2), border_radius=3)
        surface.blit(self.image(label.font, label.text, label.colour), rect)

    def _layer(self, surface: pygame.Surface, layer: Layer) -> None:
        """The layer's items on a see-through surface of its size, faded to its opacity,
        laid on `surface`."""
        x, y, w, h = layer.rect
        sheet = pygame.Surface((w, h), pygame.SRCALPHA)
        self.draw(sheet, layer.items)
        if layer.opacity < 1.0:
            sheet.fill((255, 255, 255, round(255 * layer.opacity)), special_flags=pygame.BLEND_RGBA_MULT)
        surface.blit(sheet, (x, y))

    def _bands(self, surface: pygame.Surface, bands: Bands) -> None:
        """Members from a to b, one drawing call each, from flat columns of numbers.
        Smooth: bands with anti-aliased edges (a thin one as a plain line), in order;
        otherwise thick lines of the nearest whole width, a colour at a time."""
        a, b, width, sign = bands.a, bands.b, bands.width, bands.sign
        d = b - a
        if not bands.smooth:
            # pygame draws a thick line as spans `width` px tall (mostly level) or wide (mostly
            # upright): across the line that is width·max(|cos|, |sin|), so widen it by the inverse.
            # A band (a filled polygon, which covers both its edges) is a pixel wider than its
            # width, and a thin member a 2 px line: the same here, so that widths mean what the
            # legend's bands and the anti-aliased bands of a smaller structure mean.
            length = np.hypot(d[:, 0], d[:, 1])
            px = np.where(width < 1.5, 1.0, np.where(width <= 2.5, 2.0, width + 1.0))  # 1 px: a large design thinned (render.thinned)
            across = np.rint(px * length / np.maximum(np.abs(d).max(axis=1), 1e-9)).astype(np.int64)
            line = pygame.draw.line
            for k in (0, 2, -1, 1):  # by colour, those about zero underneath
                rows = sign == k
                colour = bands.colours[k]
                columns = (a[rows, 0].tolist(), a[rows, 1].tolist(), b[rows, 0].tolist(), b[rows, 1].tolist(), across[rows].tolist())
                for x0, y0, x1, y1, w in zip(*columns, strict=True):
                    line(surface, colour, (x0, y0), (x1, y1), w)
            return
        colours = [bands.colours[k] for k in sign.tolist()]
        half = np.stack((-d[:, 1], d[:, 0]), axis=1) * (width / 2 / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9))[:, None]
        corners = np.concatenate((a + half, b + half, b - half, a - half), axis=1)  # (K, 8) [px]
        columns = (*(corners[:, k].tolist() for k in range(8)), width.tolist())
        for colour, x0, y0, x1, y1, x2, y2, x3, y3, w in zip(colours, *columns, strict=True):
            if w <= 2.5:
                pygame.draw.line(surface, colour, (0.5 * (x0 + x3), 0.5 * (y0 + y3)), (0.5 * (x1 + x2), 0.5 * (y1 + y2)), 1 if w < 1.5 else 2)
            else:
                quad = ((x0, y0), (x1, y1), (x2, y2), (x3, y3))
                pygame.draw.polygon(surface, colour, quad)
                pygame.draw.aalines(surface, colour, True, quad)


DRAW = {
    Line: Backend._line,
    Lines: Backend._lines,
    Polygon: Backend._polygon,
    Circle: Backend._circle,
    Box: Backend._box,
    Hatch: Backend._hatch,
    Dashes: Backend._dashes,
    Arrow: Backend._arrow,
    Curl: Backend._curl,
    Label: Backend._label,
    Bands: Backend._bands,
    Layer: Backend._layer,
}  # each record's drawing
