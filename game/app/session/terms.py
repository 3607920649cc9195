"""The words the game has for things a level file names by key: a member's element (the
engine's words in every language, engine/vocabulary.py MEMBER_WORDS, the student's taken
here), a section's kind (its
element) and the usual materials, in the player's language. A key the game has no word
for (a material a level made up) is shown as the level wrote it."""

from __future__ import annotations

from equilibria.engine.results import element_word
from equilibria.engine.vocabulary import MEMBER_WORDS
from equilibria.words.i18n import N_, PSEUDO, _, language, localized

MATERIAL_NAMES = {"steel": N_("steel"), "timber": N_("timber"), "concrete": N_("concrete")}


def named(names: dict[str, str], key: object) -> str:
    """`key`'s word in `names`, translated; the key itself where there is none."""
    key = str(key)
    return _(names[key]) if key in names else key


ELEMENT_WORDS = {words["en"]: words for words in MEMBER_WORDS.values()}  # by the English the engine gives


def element_name(element: object) -> str:
    """What a student calls a member's element ("bar", "cable", "beam-column"), in the
    student's language."""
    words = ELEMENT_WORDS.get(str(element))
    if words is None:
        return str(element)
    return f"⟦{words['en']}⟧" if language() == PSEUDO else localized(words)


def section_kind(kind: object) -> str:
    """A section's kind ("bar", "cable", "beam") as the element it builds, translated."""
    return element_name(element_word(str(kind)))


def material_name(material: object) -> str:
    """A material's key ("steel") as a word."""
    return named(MATERIAL_NAMES, material)
