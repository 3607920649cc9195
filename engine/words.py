"""What the engine says to a person, kept translatable without the engine knowing any
language: a template with named fields (`Words`), the template marked `N_` so that the
game's catalogs (game/words/catalogs.py) find it. The engine reads it in English (`str`); the
game shows it in the player's language, `words.said(_)` (its catalog's template, then the
fields, a nested `Words` said the same way). Nothing here imports game code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


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
        values = {k: v.said(translate) if isinstance(v, Words) else v for k, v in self.fields.items()}
        return (translate(self.template) if translate else self.template).format(**values)

    def __str__(self) -> str:
        return self.said()


class Refusal(ValueError):
    """An action the engine refuses, its `words` for a person (str: English)."""

    def __init__(self, words: Words):
        super().__init__(str(words))
        self.words = words
