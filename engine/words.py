"""What the engine says to a person, kept translatable without the engine knowing any
language: a template with named fields (`Words`), the template marked `N_` so that the
game's catalogs (game/words/catalogs.py) find it. The engine reads it in English (`str`); the
game shows it in the player's language, `words.said(_)` (its catalog's template, then the
fields, a nested `Words` said the same way). Nothing here imports game code.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

ECHO = 60  # characters of a name or a value a text quotes (the game's words/text.py CUT): a 9 MB key is no 9 MB line
_LONG_PART = re.compile(rf"[^.\[\]]{{{ECHO + 1},}}")  # a part of a field's path longer than ECHO


def short(value: str) -> str:
    """`value` (a value's repr, an id) as a text quotes it: its first ECHO characters and "…"."""
    return value if len(value) <= ECHO else value[:ECHO] + "…"


def short_path(field: str) -> str:
    """A field's path (`materials.steel.E`) with each part longer than ECHO characters cut (`short`)."""
    return field if len(field) <= ECHO else _LONG_PART.sub(lambda m: short(m.group(0)), field)


def N_(message: str) -> str:
    """Marks an engine text for the catalogs; the game translates it where it shows it."""
    return message


@dataclass(frozen=True)
class Words:
    """A text a person reads: `template` with {named} fields filled from `fields`."""

    template: str
    fields: dict[str, Any] = field(default_factory=dict)

    def said(self, translate: Callable[[str], str] | None = None) -> str:
        """The text with its fields, the template (and any nested Words) through
        `translate` (None: English, as written)."""
        values = {k: v.said(translate) if isinstance(v, Words) else short(v) if isinstance(v, str) else v for k, v in self.fields.items()}
        return (translate(self.template) if translate else self.template).format(**values)

    def __str__(self) -> str:
        return self.said()


class Refusal(ValueError):
    """An action the engine refuses, its `words` for a person (str: English)."""

    def __init__(self, words: Words):
        super().__init__(str(words))
        self.words = words
