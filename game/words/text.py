"""Text safe to print in a terminal and to draw: the one helper for every text a level,
a file name or a notice brings. Imports nothing of the game's."""

from __future__ import annotations

import re

# C0 and C1 control characters but the newline: an escape sequence in a title would clear
# the terminal it is printed in or retitle its window; a carriage return overwrites the
# line; a NUL ends a string handed to the font renderer.
CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def plain_text(text: str) -> str:
    """`text` with each control character but the newline (an escape, a carriage return,
    a tab, a NUL…) replaced by U+FFFD, so that it shows and does nothing; a CR LF line
    end is a newline."""
    return CONTROLS.sub("\ufffd", text.replace("\r\n", "\n"))
