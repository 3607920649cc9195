"""Reading the player's and the author's files: data only, never code.

JSON only (no eval, no pickle). A file over a sane size is refused before it is read.
Every problem comes back as BadInput with one line naming the file and what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 20_000_000  # a level or model bigger than this is refused unread


class BadInput(Exception):
    """Bad input: the message already names the file and the field."""


def read_json(path: str | Path) -> Any:
    """The JSON value in `path`, or BadInput naming the file and what is wrong."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise BadInput(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    if not p.is_file():
        raise BadInput(f"{path}: not a file")
    if size > MAX_FILE_BYTES:
        raise BadInput(f"{path}: the file is {size / 1e6:.0f} MB; files over {MAX_FILE_BYTES / 1e6:.0f} MB are refused")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: cannot read the file as UTF-8 text ({exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise BadInput(f"{path}: not valid JSON: nested too deeply") from None
