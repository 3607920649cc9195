"""The model file's words: the choices each of its fields takes, in one place.

engine/model.py checks a model file against these; the level format (game/format/schema.py)
reads them for its own schema, so that the engine and `equilibria validate` accept and
refuse the same words. This module imports only the standard library's
(the game reads it at start, before the engine and numba are loaded).
"""

from __future__ import annotations

# A member entry's `kind`: "bar" (axial force, and buckling where members break),
# "cable" (pulls only), "beam" (a beam-column: axial force, shear and moment).
MEMBER_KINDS = ("bar", "cable", "beam")
# What a student calls a member of each kind, in every language the game speaks: the
# English is engine/results.py's MemberResults.element, the game shows the student's
# (game/app/session/terms.py). Written here, as a level file writes its texts, not in the
# catalogs: a new kind's words are in its entry, one file (docs/engine.md, "What a new
# element kind touches"); tests/test_kind_files.py holds every language to it.
MEMBER_WORDS = {
    "bar": {"en": "bar", "de": "Fachwerkstab", "es": "barra", "fr": "barre"},
    "cable": {"en": "cable", "de": "Seil", "es": "cable", "fr": "câble"},
    "beam": {"en": "beam-column", "de": "Biegebalken", "es": "viga-columna", "fr": "poutre-poteau"},
}
DEFAULT_MEMBER_KIND = "bar"
# An entry of each kind, the fields it needs beside id, i, j and material: the warm-up
# model (engine/warm.py) has one member of each, so that its kernels compile at start.
EXAMPLES = {"bar": {"A": 1e-3, "I": 1e-7}, "cable": {"A": 1e-4}, "beam": {"A": 1e-3, "I": 1e-6}}
# The kinds that carry an axial force only: a structure of these alone is a truss.
AXIAL_KINDS = ("bar", "cable")
# A beam's `formulation`: "arcade", seed 000 eq. (1), whose bending stiffness ignores the
# axial force; "stability", with stability functions (engine/elements/beam_stability.py), which
# buckles where Euler says with one element per member.
BEAM_FORMULATIONS = ("arcade", "stability")
# A member's `release`: the ends pinned to their node, as engine/elements/beam.py's bits.
RELEASE_BITS = {"i": 1, "j": 2}
RELEASE_ENDS = tuple(RELEASE_BITS)
# The fields only a beam may carry (a bar or cable is pinned at its ends already).
BEAM_ONLY = ("formulation", "release")
# A member's numbers that only some kinds carry, beside A and I which every kind may:
# {field: (the kinds that carry it, its largest value, what it is)}, each more than 0.
# The level format makes each an optional field of a member entry (game/format/schema.py
# `member_model`), refused on any other kind, so that a kind with a number of its own
# (a spring's stiffness k [N/m]) is written here and nowhere else outside the engine.
KIND_NUMBERS: dict[str, tuple[tuple[str, ...], float, str]] = {}
# A triangle's `model`.
TRIANGLE_MODELS = ("linear", "neo_hookean")
DEFAULT_TRIANGLE_MODEL = "linear"
# A node's degrees of freedom: a support's `fix`, its `motion`'s keys.
DOF_NAMES = ("x", "y", "rot")
# A member load's `direction`: global y (up), global x, or the member's normal.
LOAD_DIRECTIONS = ("y", "x", "normal")
# Poisson's ratio of a material: at least 0, below this.
POISSON_LIMIT = 0.5
# The fields an entry of these parts may have (any other is refused by both the engine
# and the level format, whose classes have these fields: tests/test_format_rules.py).
ROLLER_FIELDS = ("angle",)
CONTACT_FIELDS = ("normal", "mu")
MEMBER_LOAD_FIELDS = ("member", "w", "wi", "wj", "direction", "history")
GROUND_MOTION_FIELDS = ("ax", "ay")
