"""The typeface the game draws every text in: DejaVu Sans Condensed, shipped in assets/
(installed as `equilibria.assets`) and loaded from there on every system, never looked up
among the system's fonts (Windows and macOS have no DejaVu; another font lacks → ▸ ⁴ ↔
ẑ m̄ and packs the layout differently). The condensed cut is the one the game was laid
out in: asked for "dejavusans", fontconfig gave it on the computers it was built on.
Its licence is assets/DejaVu-LICENSE.txt.
"""

from __future__ import annotations

import io
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import pygame

from equilibria.words.text import whole_characters

REGULAR = "DejaVuSansCondensed.ttf"
BOLD = "DejaVuSansCondensed-Bold.ttf"


def font_file(name: str) -> Traversable:
    """A shipped font file (REGULAR or BOLD)."""
    return asset_file(name)


def asset_file(name: str) -> Traversable:
    """A file shipped in assets/ (a font, the window's icon)."""
    try:
        root: Traversable = resources.files("equilibria.assets")
    except ModuleNotFoundError:  # a source tree run without installing it: its own assets/
        root = Path(__file__).resolve().parents[3] / "assets"
    return root / name


class Face(pygame.font.Font):
    """pygame's Font, measuring and drawing any text: half of a character (a lone
    surrogate: a file name not in UTF-8 as Python reads it, a title cut inside an emoji)
    is drawn as U+FFFD where pygame would raise UnicodeEncodeError; and its line step
    holds its text (at a few sizes, 10–12 px, a text's box is a pixel taller than the
    font's own line step, and every layout steps by lines)."""

    def __init__(self, file, size: int) -> None:
        super().__init__(file, size)
        self._line = max(super().get_linesize(), self.size("Ag")[1])

    def get_linesize(self) -> int:
        return self._line

    def size(self, text: str) -> tuple[int, int]:
        return super().size(whole_characters(text))

    def render(self, text: str, *args, **kwargs) -> pygame.Surface:
        return super().render(whole_characters(text), *args, **kwargs)


def load(name: str, size: int) -> Face:
    """The shipped font `name` at `size` px (pygame.font initialised). A zipped install
    has no file to open: the font is read from memory, which the Font keeps."""
    path = font_file(name)
    if isinstance(path, Path):
        return Face(str(path), size)
    return Face(io.BytesIO(path.read_bytes()), size)
