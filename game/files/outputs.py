"""Where a command writes, checked before it does any long work: a screenshot after N
frames, a hand-in, a CSV after grading a class. A path that cannot be written is one
line naming it (BadInput, exit 2) before the run, not after it. No pygame.
"""

from __future__ import annotations

import os
from pathlib import Path

from equilibria.files.store import BadInput
from equilibria.words.i18n import _

IMAGE_FORMATS = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".bmp": "bmp"}  # pygame.image.save writes each


def image_format(path: str | os.PathLike) -> str:
    """The format an image file's extension asks for (png, jpeg, bmp); BadInput for any
    other, which would otherwise get PNG data under a name that says it is not."""
    suffix = Path(path).suffix.lower()
    if suffix not in IMAGE_FORMATS:
        known = ", ".join(IMAGE_FORMATS)
        raise BadInput(_("{file}: a screenshot is saved as {formats}: end the name with one of them").format(file=path, formats=known))
    return IMAGE_FORMATS[suffix]


def check_writable(path: str | os.PathLike) -> Path:
    """`path` as a Path when a file can be written there (its folder exists and may be
    written; it is no folder itself); BadInput naming it when not."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise BadInput(_("{file}: is a folder; give a file name").format(file=path))
    if not folder.is_dir():
        raise BadInput(_("{file}: the folder {folder} does not exist").format(file=path, folder=folder))
    if not os.access(folder, os.W_OK):
        raise BadInput(_("{file}: the folder {folder} cannot be written to").format(file=path, folder=folder))
    if target.exists() and not os.access(target, os.W_OK):
        raise BadInput(_("{file}: the file cannot be written over (it is read-only)").format(file=path))
    return target


def check_screenshot(path: str | os.PathLike | None) -> None:
    """A --screenshot path: a known image format, in a folder that can be written."""
    if path is not None:
        image_format(path)
        check_writable(path)
