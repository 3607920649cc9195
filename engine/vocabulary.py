"""The model file's words: the choices each of its fields takes, in one place.

engine/model.py checks a model file against these; the level format (game/format/schema.py)
reads them for its own schema, so that the engine and `equilibria validate` accept and
refuse the same words. This module imports only engine/words.py, the standard library's
(the game reads it at start, before the engine and numba are loaded).
"""

from __future__ import annotations

from equilibria.engine.words import N_

# A member entry's `kind`: "bar" (axial force, and buckling where members break),
# "cable" (pulls only), "beam" (a beam-column: axial force, shear and moment).
MEMBER_KINDS = ("bar", "cable", "beam")
# What a student calls a member of each kind (engine/results.py's MemberResults.element;
# marked: the game shows them translated).
MEMBER_WORDS = {"bar": N_("bar"), "cable": N_("cable"), "beam": N_("beam-column")}
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
