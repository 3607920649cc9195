"""What the engine's Python side asks an element kind, as one record per kind: each kind's
module makes its own (bar.py's BAR, beam.py's BEAM, neo_hookean.py's TRIANGLE, for the
triangle of cst.py and neo_hookean.py), and engine/elements/kernels.py lists them in one
map (KINDS) beside the compiled calls, which numba dispatches statically. The model
builder, the stiffness, the linear solve, the implicit integrator and a member's results
(engine/results.py) walk that map; none of them names a kind's arrays (docs/engine.md,
"What a new element kind touches").

Shapes: m is engine/model.py's ModelArrays; E the kind's elements in the model; d the
DOFs of one element (4 for a bar, 6 for a beam or a triangle); N the nodes.

The member record (Box2D's b2JointSim: one record for what every member has): every
member has one row of the State's member_on, member_broke and member_out [N, V, M_i,
M_j] (a column of it: member_out is (4, M), each quantity a row over every member) and
of ModelArrays' member_cap_t, member_cap_c, each member kind a slice of rows
(ModelArrays.member_start, in the map's order), so that whether a member is on, when it
broke and what it carries are asked once for every kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, kw_only=True, eq=False)
class ElementKind:
    """An element kind: what the stiffness and the integrators ask of it."""

    name: str  # its key in KINDS, and of element_blocks, the on-flags and damping by kind
    count: Callable[[Any], int]  # E in m
    dofs: Callable[[Any], np.ndarray]  # (m) → (E, d) int64 global DOFs, 3 q + (x, y, rot)
    blocks: Callable[[Any, np.ndarray], np.ndarray]  # (m, pos (N, 3)) → (E, d, d) small-displacement blocks at pos (numpy)
    tangents: Callable[[Any, np.ndarray, np.ndarray, bool], np.ndarray]  # (m, pos, chord (Bm,) [rad], safe) → (E, d, d) (module of the kind)
    damping: Callable[[Any], np.ndarray]  # (m) → (E,) stiffness-proportional damping β [s]
    small: Callable[[Any, np.ndarray], np.ndarray]  # (m, u (N, 3) [m, rad]) → its outputs for small displacements from the start


@dataclass(frozen=True, kw_only=True, eq=False)
class MemberKind(ElementKind):
    """An element kind that makes members (a slice of the member record, module note).
    `small` gives (E, 4) [N, V, M_i, M_j], the kind's columns of member_out."""

    formats: tuple[str, ...]  # the model format's member kinds it reads (engine/vocabulary.py MEMBER_KINDS)
    ends: Callable[[Any], np.ndarray]  # (m) → (E, 2) its end nodes (rows of the nodes)
    traits: Callable[[Any], dict[str, np.ndarray]]  # (m) → per member: "format" (E,) int8, its row of `formats`;
    # "bending" (E,) bool, it carries shear and moment; "pinned" (E, 2) bool, end i, j passes no moment
    # (a beam's `release`; False for a bar, pinned by nature); "pushes" (E,) bool, it can carry compression
