"""Text safe to print in a terminal and to draw: the one helper for every text a level,
a file name or a notice brings. Imports nothing of the game's."""

from __future__ import annotations

import re

# C0 and C1 control characters but the newline: an escape sequence in a title would clear
# the terminal it is printed in or retitle its window; a carriage return overwrites the
# line; a NUL ends a string handed to the font renderer. Lone surrogates, half of a
# character (a title cut inside an emoji, a file name not in UTF-8 as Python reads it):
# no font can draw one and no terminal print one (UnicodeEncodeError).
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
HALVES = re.compile("[\ud800-\udfff]")


def plain_text(text: str) -> str:
    """`text` with each control character but the newline (an escape, a carriage return,
    a tab, a NUL…) and each half character (a lone surrogate) replaced by U+FFFD, so that
    it shows and does nothing; a CR LF line end is a newline."""
    return UNSAFE.sub("\ufffd", text.replace("\r\n", "\n"))


def whole_characters(text: str) -> str:
    """`text` with each half character (a lone surrogate) as U+FFFD, the rest as it is:
    what a font can measure and draw, and a terminal print."""
    return text if text.isascii() or not HALVES.search(text) else HALVES.sub("\ufffd", text)


CUT = 60  # characters of a name echoed in a message: a name is recognised by its start


def cut(name: str, most: int = CUT) -> str:
    """`name` as a message echoes it: its first `most` characters and "…" when it is
    longer (a 9 MB key would make a 9 MB line), made harmless (plain_text)."""
    return plain_text(name if len(name) <= most else name[:most] + "…")


def named(value: object) -> str:
    """`value` (an id, a key, a name a file gives) as a message quotes it: repr() of its
    first CUT characters (`cut`), so 'A' but never a 9 MB line."""
    return repr(cut(value)) if isinstance(value, str) else cut(repr(value))


QUOTED = re.compile(f"'[^'\\n]{{{CUT + 1},}}'|\"[^\"\\n]{{{CUT + 1},}}\"")  # a quoted part longer than CUT


def quotes_cut(message: str) -> str:
    """`message` with every quoted part longer than CUT characters cut (`named`): for the
    words of a library (pydantic's "Input tag '…' found") that quote what they refuse."""
    return QUOTED.sub(lambda m: named(m.group(0)[1:-1]), message)
