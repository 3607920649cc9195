"""A member's results in one place: one call, `member_results(model, state)`, gives every
member's forces, capacities, on/off and break time in member order (model.member_ids),
whatever element carries it. Box2D's `b2Joint_GetConstraintForce` is the model: the call
dispatches on the element kind (READERS below) and no caller ever learns where a bar or
a beam keeps its force. Nothing outside engine/ reads the per-kind arrays (state.bar_N,
state.beam_out, model.arrays.bar_cap_t, ...); a test holds the game to that. The rest of
the engine's Python side asks the kinds here too (the last section: on-flags, damping,
breaks, end forces, a record's reader), so that a new kind is added in few files
(docs/engine.md).

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

from equilibria.engine.elements.bar import bar_axial_small, bar_blocks, bar_dofs, bar_tangents
from equilibria.engine.elements.beam import beam_blocks, beam_dofs, beam_forces_small, beam_tangents
from equilibria.engine.elements.cst import cst_blocks, cst_tangents, tri_dofs, tri_stress_small
from equilibria.engine.elements.neo_hookean import neo_tangents
from equilibria.engine.words import N_


class Model(Protocol):
    """What this module reads of engine/model.py's Model. Not imported from there:
    model.py imports engine/member_loads.py, which reads end_forces here."""

    arrays: Any  # ModelArrays
    member_ids: tuple[str, ...]
    member_slot: tuple[tuple[str, int], ...]
    triangle_ids: tuple[str, ...]

    @property
    def members_by_kind(self) -> dict[str, np.ndarray]: ...


# What limits a member in compression (MemberResults.compression_by), by its code.
YIELD, BUCKLING, CABLE, NO_LIMIT = "yield", "buckling", "cable", "none"
LIMITS = np.array([YIELD, BUCKLING, CABLE, NO_LIMIT])
# What a student calls each element (MemberResults.element), by its code.
ELEMENTS = np.array([N_("bar"), N_("cable"), N_("beam-column")])  # marked: the game shows them translated
KIND_ELEMENTS = {"bar": ELEMENTS[0], "cable": ELEMENTS[1], "beam": ELEMENTS[2]}  # a model member's kind → its element's word


def element_word(kind: str) -> str:
    """What a student calls a member of the model format's kind `kind` ("bar", "cable",
    "beam": a beam is a beam-column); `kind` itself where it is none of them."""
    return str(KIND_ELEMENTS.get(kind, kind))


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


# ---------------------------------------------------------------- the kinds' readers
# One reader per element kind that makes members: its rows' results, in the order of
# its own arrays, as a dict of MemberResults's field names (ends and ids come later).


def _bars(m, s) -> dict:
    """Bars and cables (engine/elements/bar.py): axial force only."""
    n = len(m.bar_L0)
    zero = np.zeros(n)
    cable = m.bar_cable.astype(bool)
    cap_c = np.where(cable, 0.0, m.bar_cap_c)
    s = s if s is not None else _AsBuilt(n, 0)
    return {
        "element_code": cable.astype(np.int8),  # bar 0, cable 1
        "ends": m.bar_ij,
        "bending": np.zeros(n, dtype=bool),
        "pinned": np.zeros((n, 2), dtype=bool),
        "axial": s.bar_N,
        "shear_i": zero,
        "shear_j": zero,
        "moment_i": zero,
        "moment_j": zero,
        "cap_t": m.bar_cap_t,
        "cap_c": cap_c,
        "limit_code": np.where(cable, np.int8(2), _limit(m.bar_cap_t, m.bar_cap_c)),
        "active": s.bar_on,
        "break_time": s.bar_broke,
    }


def _beams(m, s) -> dict:
    """Beam-columns (engine/elements/beam.py, beam_stability.py): state.beam_out holds (N, V,
    M1, M2) per beam."""
    n = len(m.beam_L0)
    s = s if s is not None else _AsBuilt(0, n)
    out = s.beam_out
    return {
        "element_code": np.full(n, 2, dtype=np.int8),
        "ends": m.beam_ij,
        "bending": np.ones(n, dtype=bool),
        "pinned": (m.beam_release[:, None] & np.array([1, 2])) > 0,  # bits: engine/elements/beam.py
        "axial": out[:, 0],
        "shear_i": out[:, 1],
        "shear_j": -out[:, 1],
        "moment_i": out[:, 2],
        "moment_j": out[:, 3],
        "cap_t": m.beam_cap_t,
        "cap_c": m.beam_cap_c,
        "limit_code": _limit(m.beam_cap_t, m.beam_cap_c),
        "active": s.beam_on,
        "break_time": s.beam_broke,
    }


READERS = {"bar": _bars, "beam": _beams}  # the kind names of Model.members_by_kind


class _AsBuilt:
    """The state of a structure as built, carrying nothing (for member_results(model))."""

    def __init__(self, bars: int, beams: int):
        self.bar_N, self.bar_on, self.bar_broke = np.zeros(bars), np.ones(bars, bool), np.full(bars, -1.0)
        self.beam_out, self.beam_on, self.beam_broke = np.zeros((beams, 4)), np.ones(beams, bool), np.full(beams, -1.0)


def _limit(cap_t: np.ndarray, cap_c: np.ndarray) -> np.ndarray:
    """What limits compression where the member can push (a code of LIMITS): none,
    buckling or yield."""
    return np.where(~np.isfinite(cap_c), np.int8(3), np.where(cap_c < cap_t * BUCKLES_BELOW, np.int8(1), np.int8(0))).astype(np.int8)


def member_results(model: Model, state=None) -> MemberResults:
    """Every member's results (MemberResults) in `state` (equilibria.engine.elements.kernels.State) of
    `model` (the Model as it runs: sim.model, sim.state), in member order; without a
    state, the structure as built: every member on, carrying nothing."""
    m = model.arrays
    n = len(model.member_ids)
    fields: dict[str, np.ndarray] = {}
    for kind, members in model.members_by_kind.items():
        for name, values in READERS[kind](m, state).items():
            values = np.asarray(values)
            if name not in fields:
                fields[name] = np.empty((n, *values.shape[1:]), dtype=values.dtype)
            fields[name][members] = values
    fields["ends"] = fields["ends"].astype(np.int64)
    fields["break_time"] = np.where(fields["break_time"] >= 0, fields["break_time"], np.nan)
    return MemberResults(ids=model.member_ids, **fields)


def end_forces(model: Model, state, members: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the nodes apply to the members `members` (K,) (rows of model.member_ids) in
    `state`, in each member's frame (module note): their end nodes (K, 2) int64, at end i
    (−N, V, M_i) (K, 3) [N, N, N m] and at end j the moment M_j (K,) [N m]; a bar's or
    cable's shear and moments are 0. Only those members' (a diagram's, every frame)."""
    m = model.arrays
    slot = [model.member_slot[k] for k in members.tolist()]
    beam = np.array([kind == "beam" for kind, _ in slot], dtype=bool)
    rows = np.array([row for _, row in slot], dtype=np.int64)
    ij = np.array([(m.beam_ij if kind == "beam" else m.bar_ij)[row] for kind, row in slot], dtype=np.int64).reshape(-1, 2)
    end = np.zeros((len(members), 3))
    end_j = np.zeros(len(members))
    if beam.any():
        out = state.beam_out[rows[beam]]
        end[beam] = np.column_stack((-out[:, 0], out[:, 1], out[:, 2]))
        end_j[beam] = out[:, 3]
    if (~beam).any():
        end[~beam, 0] = -state.bar_N[rows[~beam]]
    return ij, end, end_j


def member_ends(model: Model) -> np.ndarray:
    """(M, 2) int64: each member's end nodes (rows of model.node_ids), in member order."""
    ends = np.zeros((len(model.member_ids), 2), dtype=np.int64)
    for kind, members in model.members_by_kind.items():
        ends[members] = getattr(model.arrays, f"{kind}_ij").reshape(-1, 2)  # bar_ij, beam_ij
    return ends


def elements_without(model: Model, removed=()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The elements' on-flags (bars, beams, triangles; engine/linear.py's `active`)
    with the members and triangles whose ids are in `removed` switched off."""
    m = model.arrays
    on = {"bar": np.ones(len(m.bar_L0), bool), "beam": np.ones(len(m.beam_L0), bool)}
    tri_on = np.ones(len(m.tri_E), bool)
    gone = set(removed)
    for kind, members in model.members_by_kind.items():
        for row, k in enumerate(members.tolist()):
            if model.member_ids[k] in gone:
                on[kind][row] = False
    for k, tid in enumerate(model.triangle_ids):
        if tid in gone:
            tri_on[k] = False
    return on["bar"], on["beam"], tri_on


def switch_off(model: Model, state, k: int) -> None:
    """Member k (its row in model.member_ids) carries nothing from now on: its kind's
    on-flag in `state` is cleared (the bomb, a removed member; its break time stays)."""
    for kind, members in model.members_by_kind.items():
        getattr(state, f"{kind}_on")[members == k] = False  # bar_on, beam_on


# ------------------------------------------------- what the rest of the engine asks a kind
# The engine's Python side asks the element kinds these questions here, so that the
# integrators, the simulation and the interaction name no kind's arrays (docs/engine.md,
# "What a new element kind touches"). The compiled kernels dispatch in engine/elements/kernels.py
# (the State's arrays, eval_forces, the energy, the break check).


def element_blocks(m, pos: np.ndarray, chord: np.ndarray | None = None, *, tangent: bool = False, safe: bool = False) -> dict:
    """{kind: (ke (E, d, d), dofs (E, d) int64)} for "bar", "beam", "triangle" at pos
    (N, 3): the small-displacement blocks at that geometry (numpy: nothing to compile),
    or with tangent=True the tangents at the state (pos, chord: the beams' running chord
    angles, by default their start; compiled kernels).

    safe=True (with tangent): a positive semi-definite stand-in for the tangent, for an
    iteration matrix: the bars' tangent with the geometric stiffness of tension only,
    every other element's small-displacement block at pos. (Compression's geometric
    stiffness can make the tangent indefinite, a short stiff bar's hugely so, and Newton
    then leaps away: engine/newmark.py.)"""
    chord = m.beam_chord0 if chord is None else chord
    if tangent:
        kb = np.zeros((len(m.bar_L0), 4, 4))
        if len(kb):
            bar_tangents(m, pos, safe, kb)
    else:
        kb = bar_blocks(m, pos)
    if tangent and not safe:
        kbm = np.zeros((len(m.beam_L0), 6, 6))
        kt = cst_blocks(m, pos)  # the Neo-Hookean rows until neo_tangents writes them
        if len(kbm):
            beam_tangents(m, pos, chord, kbm)
        if len(kt):
            cst_tangents(m, pos, kt)
            neo_tangents(m, pos, kt)
    else:
        kbm = beam_blocks(m, pos)
        kt = cst_blocks(m, pos)
    return {"bar": (kb, bar_dofs(m)), "beam": (kbm, beam_dofs(m)), "triangle": (kt, tri_dofs(m))}


def write_small(m, state, u: np.ndarray, slack: np.ndarray) -> None:
    """Every element's output in `state` (bar_N, beam_out, tri_out's stresses) for small
    displacements u (N, 3) [m, rad] of a linear solve (m: ModelArrays); the slack
    cables (B,) bool carry nothing."""
    state.bar_N[:] = bar_axial_small(m, u)
    state.bar_N[slack] = 0.0
    state.beam_out[:] = beam_forces_small(m, u)
    state.tri_out[:, :3] = tri_stress_small(m, u)


def all_on(m) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every element on, as engine/linear.py's `active` takes them (bars, beams,
    triangles: the order of element_blocks)."""
    return np.ones(len(m.bar_L0), bool), np.ones(len(m.beam_L0), bool), np.ones(len(m.tri_E), bool)


def bars_of(active: tuple) -> np.ndarray:
    """The bars' (and cables') flags among `active`."""
    return active[0]


def bars_off(active: tuple, off: np.ndarray) -> tuple:
    """`active` with the bars `off` (B,) bool switched off too (slack cables)."""
    return (active[0] & ~off, *active[1:])


def on_flags(state) -> dict[str, np.ndarray]:
    """Each element kind's on-flags in `state`, by the kind names of
    element_blocks ("bar", "beam", "triangle")."""
    return {"bar": state.bar_on, "beam": state.beam_on, "triangle": state.tri_on}


def active(state) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The on-flags as engine/linear.py's `active` takes them (bars, beams, triangles)."""
    return state.bar_on, state.beam_on, state.tri_on


def element_damping(m) -> dict[str, np.ndarray]:
    """Each element's stiffness-proportional damping β [s] by kind (a bar's from its
    damping coefficient: c L0 / EA)."""
    bar = m.bar_c * m.bar_L0 / m.bar_EA if len(m.bar_L0) else m.bar_c
    return {"bar": bar, "beam": m.beam_beta, "triangle": m.tri_beta}


def largest_damping(m) -> float:
    """The largest element damping β [s] of the structure (0 without any)."""
    return max((float(np.max(b, initial=0.0)) for b in element_damping(m).values()), default=0.0)


def breakable(m) -> bool:
    """Whether any member can break (has a finite capacity)."""
    return any(bool(np.isfinite(c).any()) for c in (m.bar_cap_t, m.bar_cap_c, m.beam_cap_t, m.beam_cap_c))


RECORDED = ("axial", "shear_i", "moment_i", "moment_j")  # what a member record may read


def member_reader(model: Model, state, k: int, what: str):
    """A call that reads one of RECORDED [N, N, N m, N m] of member k from `state` as it
    is when called: one array read, for a record sampled every step (member_results
    would work out every member's)."""
    kind, row = model.member_slot[k]
    if kind == "bar":
        return (lambda: float(state.bar_N[row])) if what == "axial" else (lambda: 0.0)
    c = RECORDED.index(what)
    return lambda: float(state.beam_out[row, c])
