"""The words the game has for things a level file names by key: a member's element
(engine/results.py ELEMENTS), a section's kind (game/format.py Section.kind) and the
usual materials, in the player's language. A key the game has no word for (a material
a level made up) is shown as the level wrote it."""

from __future__ import annotations

from equilibria.i18n import N_, _

ELEMENT_NAMES = {
    # TRANSLATORS: a member that carries only an axial force (a truss bar)
    "bar": N_("bar"),
    "cable": N_("cable"),
    # TRANSLATORS: a member that bends as well as carrying an axial force
    "beam-column": N_("beam-column"),
}
SECTION_KINDS = {"bar": ELEMENT_NAMES["bar"], "cable": ELEMENT_NAMES["cable"], "beam": N_("beam")}
MATERIAL_NAMES = {"steel": N_("steel"), "timber": N_("timber"), "concrete": N_("concrete")}


def named(names: dict[str, str], key: object) -> str:
    """`key`'s word in `names`, translated; the key itself where there is none."""
    key = str(key)
    return _(names[key]) if key in names else key


def element_name(element: object) -> str:
    """What a student calls a member's element ("bar", "cable", "beam-column")."""
    return named(ELEMENT_NAMES, element)


def section_kind(kind: object) -> str:
    """A section's kind ("bar", "cable", "beam")."""
    return named(SECTION_KINDS, kind)


def material_name(material: object) -> str:
    """A material's key ("steel") as a word."""
    return named(MATERIAL_NAMES, material)
