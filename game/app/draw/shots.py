"""A frame saved as an image file, in the format its name asks for (PNG, JPEG or BMP;
game/files/outputs.py says which), written atomically like every file the game writes."""

from __future__ import annotations

import io
import os

import pygame

from equilibria.files.outputs import image_format
from equilibria.files.store import write_bytes_atomic


def save_image(surface: pygame.Surface, path: str | os.PathLike) -> None:
    """`surface` as an image file of the format its extension names; encoded in memory,
    then written atomically (SaveError naming the file when that fails)."""
    data = io.BytesIO()
    pygame.image.save(surface, data, image_format(path))
    write_bytes_atomic(path, data.getvalue())
