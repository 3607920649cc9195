"""A member's results in one place: one call, `member_results(model, state)`, gives every
member's forces, capacities, on/off and break time in member order (model.member_ids),
whatever element carries it. Box2D's `b2Joint_GetConstraintForce` and `b2JointSim` are
the model: every member is a row of one member record (engine/elements/kind.py: its
on-flag, break time, output and capacities, each kind a slice of rows), so that the
call reads that record and asks each kind only what is its own (its traits and ends),
and no caller ever learns where a bar or a beam keeps its force. Nothing outside
engine/ reads the engine's arrays (state.member_out, model.arrays.bar_ij, ...); a test
holds the game to that. The rest of the engine's Python side asks the kinds here too
(the last section: blocks, on-flags, damping, breaks, end forces, a record's reader),
walking the one map of the kinds (engine/elements/kernels.py KINDS), so that a new kind
is added in few files (docs/engine.md).

Glossary and signs (as engine/elements/kernels.py): N axial force [N], tension positive.
End forces are those the nodes apply to the member, in the member's frame (x from i to
j, y across it, 90° counter-clockwise): at end i (−N, V, M_i), at end j (N, −V, M_j),
with V = (M_i + M_j)/L. They are the element's own, from its deformation; a member's
distributed load is not taken off them here (engine/member_loads.py forces_along does
that, for the diagrams along a member). A bar or cable carries no shear or moment.

Capacities [N], both positive: tension (yield: strength × area), compression (the
lesser of yield and Euler's π²EI/L²; 0 for a cable, which cannot push); infinite in a
world where nothing breaks. `compression_by` says what limits compression:
"yield", "buckling", "cable" (it cannot push) or "none" (no limit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from equilibria.engine.elements.kernels import KINDS, MEMBERS, kind_rows
from equilibria.engine.vocabulary import MEMBER_KINDS, MEMBER_WORDS


class Model(Protocol):
    """What this module reads of engine/model.py's Model. Not imported from there:
    model.py imports engine/member_loads.py, which reads end_forces here."""

    arrays: Any  # ModelArrays
    member_ids: tuple[str, ...]
    triangle_ids: tuple[str, ...]

    @property
    def members_by_kind(self) -> dict[str, np.ndarray]: ...

    @property
    def record_row(self) -> np.ndarray: ...


# What limits a member in compression (MemberResults.compression_by), by its code.
YIELD, BUCKLING, CABLE, NO_LIMIT = "yield", "buckling", "cable", "none"
LIMITS = np.array([YIELD, BUCKLING, CABLE, NO_LIMIT])
# What a student calls each element (MemberResults.element), by its code: the model
# format's member kinds in turn (engine/vocabulary.py), so a member's code is its kind's.
ELEMENTS = np.array([MEMBER_WORDS[kind]["en"] for kind in MEMBER_KINDS])
_CODES = {kind: np.array([MEMBER_KINDS.index(f) for f in kind.formats], dtype=np.int8) for kind in MEMBERS.values()}


def element_word(kind: str) -> str:
    """What a student calls a member of the model format's kind `kind` ("bar", "cable",
    "beam": a beam is a beam-column), in English; `kind` itself where it is none of them."""
    return MEMBER_WORDS[kind]["en"] if kind in MEMBER_WORDS else str(kind)


# Euler's load counts as the limit when it is below yield by more than round-off.
BUCKLES_BELOW = 1.0 - 1e-9


@dataclass(frozen=True)
class MemberResults:
    """Every member's results now, in member order (M members). Shapes and units:

    ids: (M,) the model's member ids; element: (M,) str "bar", "cable" or "beam-column"
        (from element_code (M,) int8, a row of ELEMENTS)
    ends: (M, 2) int64 node rows of ends i and j
    bending: (M,) bool, it carries shear and moment at its ends (a beam-column)
    pinned: (M, 2) bool, a beam-column's end i, j pinned to its node (`release`: it
        passes no moment there); False for a bar's, pinned by nature
    axial, shear_i, shear_j, moment_i, moment_j: (M,) [N, N, N, N m, N m] (module note)
    cap_t, cap_c: (M,) [N] tension and compression capacities (inf: no limit)
    compression_by: (M,) str "yield", "buckling", "cable" or "none" (from limit_code,
        a row of LIMITS)
    active: (M,) bool, it carries load now (not broken, not removed)
    break_time: (M,) [s] when it broke, NaN if it did not (a removed member did not)
    """

    ids: tuple[str, ...]
    element_code: np.ndarray
    ends: np.ndarray
    bending: np.ndarray
    pinned: np.ndarray
    axial: np.ndarray
    shear_i: np.ndarray
    shear_j: np.ndarray
    moment_i: np.ndarray
    moment_j: np.ndarray
    cap_t: np.ndarray
    cap_c: np.ndarray
    limit_code: np.ndarray
    active: np.ndarray
    break_time: np.ndarray

    @property
    def element(self) -> np.ndarray:
        """(M,) str: what a student calls each member's element."""
        return ELEMENTS[self.element_code]

    @property
    def compression_by(self) -> np.ndarray:
        """(M,) str: what limits each member in compression."""
        return LIMITS[self.limit_code]

    @property
    def broken(self) -> np.ndarray:
        """(M,) bool: the member broke (it passed a capacity)."""
        return ~np.isnan(self.break_time)

    def capacity(self, k: int, force: float) -> float:
        """The capacity [N] of member k in the sense of `force` (tension if positive)."""
        return float(self.cap_t[k] if force > 0 else self.cap_c[k])

    def first_broken(self) -> int | None:
        """The member that broke first (its index), or None."""
        broke = np.flatnonzero(self.broken)
        return int(broke[np.argmin(self.break_time[broke])]) if len(broke) else None


# ---------------------------------------------------------------- the member record
# Every member's forces, on-flag, break time and capacities are a row of the member
# record (engine/elements/kind.py), whatever its kind; each kind answers for its own
# members only what is its own (MemberKind.traits, ends).


def _traits(m) -> dict[str, np.ndarray]:
    """Every kind's traits and ends in the order of the member record (M rows), the
    element codes (rows of ELEMENTS) among them."""
    parts = []
    for kind in MEMBERS.values():
        traits = kind.traits(m)
        parts.append({**traits, "element_code": _CODES[kind][traits["format"]], "ends": kind.ends(m)})
    return {name: np.concatenate([p[name] for p in parts]) for name in ("element_code", "bending", "pinned", "pushes", "ends")}


def _limit(cap_t: np.ndarray, cap_c: np.ndarray, pushes: np.ndarray) -> np.ndarray:
    """What limits compression (a code of LIMITS): a member that cannot push, "cable";
    else none, buckling or yield."""
    can = np.where(~np.isfinite(cap_c), np.int8(3), np.where(cap_c < cap_t * BUCKLES_BELOW, np.int8(1), np.int8(0))).astype(np.int8)
    return np.where(pushes, can, np.int8(2)).astype(np.int8)


def member_results(model: Model, state=None) -> MemberResults:
    """Every member's results (MemberResults) in `state` (equilibria.engine.elements.kernels.State) of
    `model` (the Model as it runs: sim.model, sim.state), in member order; without a
    state, the structure as built: every member on, carrying nothing."""
    m = model.arrays
    rows = model.record_row  # the member record's row of each member
    traits = _traits(m)
    n = len(rows)
    out = state.member_out[:, rows].T if state is not None else np.zeros((n, 4))
    pushes = traits["pushes"][rows]
    cap_t, cap_c = m.member_cap_t[rows], m.member_cap_c[rows]
    broke = state.member_broke[rows] if state is not None else np.full(n, -1.0)
    return MemberResults(
        ids=model.member_ids,
        element_code=traits["element_code"][rows],
        ends=traits["ends"][rows].astype(np.int64).reshape(-1, 2),
        bending=traits["bending"][rows],
        pinned=traits["pinned"][rows].reshape(-1, 2),
        axial=out[:, 0],
        shear_i=out[:, 1],
        shear_j=np.where(traits["bending"][rows], -out[:, 1], 0.0),  # a bar's 0, not −0
        moment_i=out[:, 2],
        moment_j=out[:, 3],
        cap_t=cap_t,
        cap_c=np.where(pushes, cap_c, 0.0),  # a cable cannot push
        limit_code=_limit(cap_t, cap_c, pushes),
        active=state.member_on[rows] if state is not None else np.ones(n, bool),
        break_time=np.where(broke >= 0, broke, np.nan),
    )


def end_forces(model: Model, state, members: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the nodes apply to the members `members` (K,) (rows of model.member_ids) in
    `state`, in each member's frame (module note): their end nodes (K, 2) int64, at end i
    (−N, V, M_i) (K, 3) [N, N, N m] and at end j the moment M_j (K,) [N m]; a bar's or
    cable's shear and moments are 0. Only those members' (a diagram's, every frame)."""
    out = state.member_out[:, model.record_row[members]].T.reshape(-1, 4)
    end = np.column_stack((-out[:, 0], out[:, 1], out[:, 2]))
    return member_ends(model)[members].reshape(-1, 2), end, out[:, 3].copy()


def member_ends(model: Model) -> np.ndarray:
    """(M, 2) int64: each member's end nodes (rows of model.node_ids), in member order."""
    ends = np.concatenate([kind.ends(model.arrays) for kind in MEMBERS.values()]).reshape(-1, 2)
    return ends[model.record_row].astype(np.int64)


def elements_without(model: Model, removed=()) -> dict[str, np.ndarray]:
    """The elements' on-flags by kind (engine/linear.py's `active`, as all_on) with the
    members and triangles whose ids are in `removed` switched off."""
    gone = set(removed)
    m = model.arrays
    record = np.ones(len(m.member_cap_t), bool)
    record[model.record_row[[k for k, mid in enumerate(model.member_ids) if mid in gone]]] = False
    on = {name: record[kind_rows(m, name)] for name in MEMBERS}
    on["triangle"] = np.array([tid not in gone for tid in model.triangle_ids], dtype=bool)
    return on


def switch_off(model: Model, state, k: int) -> None:
    """Member k (its row in model.member_ids) carries nothing from now on: its on-flag in
    `state` is cleared (the bomb, a removed member; its break time stays)."""
    state.member_on[model.record_row[k]] = False


# ------------------------------------------------- what the rest of the engine asks a kind
# The engine's Python side asks the element kinds these questions here, walking the map
# of the kinds (engine/elements/kernels.py KINDS), so that the integrators, the
# simulation and the interaction name no kind's arrays (docs/engine.md, "What a new
# element kind touches"). Everything by kind is a dict keyed by the kind's name, never
# a tuple in some order: a kind missing from one is a KeyError, never another's arrays.


def element_blocks(m, pos: np.ndarray, chord: np.ndarray | None = None, *, tangent: bool = False, safe: bool = False) -> dict:
    """{kind: (ke (E, d, d), dofs (E, d) int64)} for every element kind (KINDS) at pos
    (N, 3): the small-displacement blocks at that geometry (numpy: nothing to compile),
    or with tangent=True the tangents at the state (pos, chord: the beams' running chord
    angles, by default their start; compiled kernels).

    safe=True (with tangent): a positive semi-definite stand-in for the tangent, for an
    iteration matrix: the bars' tangent with the geometric stiffness of tension only,
    every other element's small-displacement block at pos. (Compression's geometric
    stiffness can make the tangent indefinite, a short stiff bar's hugely so, and Newton
    then leaps away: engine/newmark.py.)"""
    return {name: (kind.tangents(m, pos, chord, safe) if tangent else kind.blocks(m, pos), kind.dofs(m)) for name, kind in KINDS.items()}


def write_small(m, state, u: np.ndarray, slack: np.ndarray) -> None:
    """Every element's output in `state` (member_out, tri_out's stresses) for small
    displacements u (N, 3) [m, rad] of a linear solve (m: ModelArrays); the slack
    cables (B,) bool (rows of the bars) carry nothing."""
    for name, kind in MEMBERS.items():
        state.member_out[:, kind_rows(m, name)] = kind.small(m, u).T
    state.member_out[:, kind_rows(m, "bar")][:, slack] = 0.0
    state.tri_out[:, :3] = KINDS["triangle"].small(m, u)


def all_on(m) -> dict[str, np.ndarray]:
    """Every element on, by kind, as engine/linear.py's `active` takes them (the keys of
    element_blocks)."""
    return {name: np.ones(kind.count(m), bool) for name, kind in KINDS.items()}


def on_flags(m, state) -> dict[str, np.ndarray]:
    """Each element kind's on-flags in `state` (views of its arrays), by the kind names
    of element_blocks, as engine/linear.py's `active` takes them."""
    on = {name: state.member_on[kind_rows(m, name)] for name in MEMBERS}
    on["triangle"] = state.tri_on
    return on


def element_damping(m) -> dict[str, np.ndarray]:
    """Each element's stiffness-proportional damping β [s] by kind."""
    return {name: kind.damping(m) for name, kind in KINDS.items()}


def largest_damping(m) -> float:
    """The largest element damping β [s] of the structure (0 without any)."""
    return max((float(np.max(b, initial=0.0)) for b in element_damping(m).values()), default=0.0)


def breakable(m) -> bool:
    """Whether any member can break (has a finite capacity)."""
    return bool(np.isfinite(m.member_cap_t).any() or np.isfinite(m.member_cap_c).any())


RECORDED = ("axial", "shear_i", "moment_i", "moment_j")  # what a member record may read: the member record's columns


def member_reader(model: Model, state, k: int, what: str):
    """A call that reads one of RECORDED [N, N, N m, N m] of member k from `state` as it
    is when called: one array read, for a record sampled every step (member_results
    would work out every member's). ValueError for what is not RECORDED."""
    if what not in RECORDED:
        raise ValueError(f"a member records {', '.join(RECORDED)}, not {what!r}")
    row, c = int(model.record_row[k]), RECORDED.index(what)
    return lambda: float(state.member_out[c, row])
