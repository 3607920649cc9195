"""Draws the app's icon, assets/icon.png (256 × 256), with pygame: a triangular truss on
two supports under a load, its members in the game's tension blue and compression
vermillion (game/app/draw/palette.py), on the game's paper colour in a rounded square.

    .venv/bin/python scripts/app/icon.py        # writes assets/icon.png (committed)

The app build (scripts/app/build_app.py) makes the Windows .ico and the macOS .icns from
that picture.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from equilibria.app.draw.palette import BACKGROUND, COMPRESSION, INK, JOINT, RULE, TENSION

SIZE = 256
OUT = Path(__file__).resolve().parents[2] / "assets" / "icon.png"


def draw(size: int = SIZE) -> pygame.Surface:
    """The icon at `size` pixels square, drawn at 4× and smoothed down."""
    big = 4 * size
    s = big / 256  # the drawing below is in a 256-unit square
    surface = pygame.Surface((big, big), pygame.SRCALPHA)
    pygame.draw.rect(surface, RULE, (0, 0, big, big), border_radius=round(48 * s))
    pygame.draw.rect(surface, BACKGROUND, (round(8 * s), round(8 * s), round(240 * s), round(240 * s)), border_radius=round(42 * s))
    left, right, top = (44 * s, 186 * s), (212 * s, 186 * s), (128 * s, 84 * s)

    def member(a, b, colour):
        pygame.draw.line(surface, colour, a, b, round(16 * s))

    member(left, right, TENSION)  # the tie pulls
    member(left, top, COMPRESSION)  # the rafters push
    member(right, top, COMPRESSION)
    for x, y in (left, right):  # a pin and a roller
        pygame.draw.polygon(surface, INK, [(x, y), (x - 20 * s, y + 34 * s), (x + 20 * s, y + 34 * s)])
    pygame.draw.line(surface, INK, (24 * s, 224 * s), (232 * s, 224 * s), round(6 * s))
    x, y = top  # the load, down onto the apex
    pygame.draw.line(surface, INK, (x, 18 * s), (x, y - 30 * s), round(9 * s))
    pygame.draw.polygon(surface, INK, [(x, y - 12 * s), (x - 16 * s, y - 40 * s), (x + 16 * s, y - 40 * s)])
    for point in (left, right, top):
        pygame.draw.circle(surface, INK, point, 14 * s)
        pygame.draw.circle(surface, JOINT, point, 8 * s)
    return pygame.transform.smoothscale(surface, (size, size))


def main() -> int:
    pygame.image.save(draw(), str(OUT))
    print(OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
