"""Distributed loads on members and the internal forces along a member.

A member load is a force per unit length [N/m] along a member, uniform or varying
linearly from w_i at end i to w_j at end j, in a fixed direction: global x or y, or
the member's normal (i→j turned 90° counter-clockwise, taken at the start). It is
measured per metre of the member itself (not of its horizontal projection).

The engine applies it as work-equivalent ("consistent") nodal loads, computed once from
the starting geometry and appended to the model's point loads (so every integrator, the
load histories and the reactions take it as they take a point load). In the member's
frame (x along i→j, y across it, length L) the load splits into an axial part p(s) and a
transverse part q(s), each linear in s. With the beam's Hermite shape functions, a
transverse q gives (uniform q: qL/2 and qL²/12 at each end, the fixed-end forces):

    F_i = L (7 q_i + 3 q_j) / 20,    M_i = +L² (3 q_i + 2 q_j) / 60
    F_j = L (3 q_i + 7 q_j) / 20,    M_j = −L² (2 q_i + 3 q_j) / 60

A bar has no bending, so its transverse part goes to its ends as a simply supported
span's reactions (linear shape functions), with no moments; the axial part does so for
both kinds:

    F_i = L (2 q_i + q_j) / 6,       F_j = L (q_i + 2 q_j) / 6

Internal forces. At a distance x from end i, cutting the member, the part from i to the
cut is in equilibrium under the force (F_xi, F_yi) and moment M_i that node i applies to
the member (its frame), the load on [0, x] and the internal forces on its cut face:
N along +x (tension positive), V along −y and M counter-clockwise (the textbook's beam
convention: for a member drawn left to right, V is the sum of the forces on the part
left of the cut, positive up, and M positive where it sags):

    N(x) = −F_xi − ∫₀ˣ p ds
    V(x) =  F_yi + ∫₀ˣ q ds
    M(x) = −M_i + x F_yi + ∫₀ˣ (x − s) q(s) ds

so dV/dx = q and dM/dx = V. The force a node applies to a loaded member is the element's
own (from its deformation) less the equivalent load put at the node: for a clamped span
that does not move, the element gives nothing and the ends take the fixed-end forces.

A 'stability' beam (engine/elements/beam_stability.py) bends under its axial force too (P-δ): cut
at x in its deflected shape, the compression P = −N acts with the lever w(x), the
deflection from the chord, so M(x) = M_chord(x) − P w(x) with EI w'' = M. Differentiated
twice (M_chord'' = q), that is the beam-column's equation
    M'' + k² M = q,   k² = P/EI  (compression; in tension k² = −N/EI < 0),
whose solution with the end values M(0) = −M_i, M(L) = M_j (the moments the nodes apply,
less the equivalent loads at each end) is, for the linear q,
    M(x) = q(x)/k² + [h0 sin k(L − x) + hL sin kx] / sin kL,
    h0 = M(0) − q_i/k²,  hL = M(L) − q_j/k²,
with sinh for sin in tension (√(−k²) for k). V(x) = dM/dx, the shear across the deflected
axis (Timoshenko & Gere §1.3). At 0.8 P_cr under equal end moments M0 (single curvature)
the largest is M0 sec(kL/2) = 6.06 M0, not M0. Where (kL)² < SMALL_KL2 the P-δ part is
below 1e-7 of the moment and the statics above stand (the closed form would cancel).

A 'stability' beam bent more than RHO0 from its chord (engine/elements/beam_chain.py: past
Euler's load, or with large rotations) is carried by a chain of hidden sub-elements, and
its shape is the chain's: the cut at x (its distance from end i along the member's
axis, at rest) is at (X, Y) in the chord frame, the axis there turned φ from the chord,
and statics of the part from end i to the cut give
    N = −(F_xi cos φ + F_yi sin φ),  V = F_yi cos φ − F_xi sin φ,
    M = −M_i + X F_yi − Y F_xi,
the axial and shear forces along and across the bent axis (at φ = 0, X = x, Y = 0 the
statics above). A distributed load on such a member adds its terms of the statics
above, taken along the chord (its lever arms are those of the straight member).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from equilibria.engine.elements.beam import beam_deformation
from equilibria.engine.elements.beam_chain import NODES, RHO0, SUB, chain_law, chain_start
from equilibria.engine.elements.beam_stability import span_loads
from equilibria.engine.elements.kernels import kind_rows
from equilibria.engine.results import end_forces, member_results
from equilibria.engine.vocabulary import LOAD_DIRECTIONS

DIRECTIONS = LOAD_DIRECTIONS  # a member load's `direction` (engine/vocabulary.py)
SMALL_KL2 = 1e-6  # |k² L²| below which a stability beam's P-δ is left out (module note)


class MemberLoad(NamedTuple):
    """One distributed load as the model holds it."""

    member: int  # row of the member in Model.member_ids
    i: int  # node rows of the member's ends
    j: int
    wi: float  # [N/m] at end i, along `direction`
    wj: float  # [N/m] at end j
    direction: str  # "x", "y" (global) or "normal" (i→j turned 90° counter-clockwise)
    history: int  # history index, or -1 (constant)
    beam: bool  # a beam (moments at its ends) or a bar/cable (forces only)
    release: int = 0  # a beam's released (pinned) ends: bit 1 end i, bit 2 end j (engine/elements/beam.py)


def frame(pi, pj) -> tuple[float, float, float]:
    """(L [m], cos, sin) of the member from pi to pj."""
    dx, dy = float(pj[0] - pi[0]), float(pj[1] - pi[1])
    length = math.hypot(dx, dy)
    return length, dx / length, dy / length


def along_across(load: MemberLoad, pos: np.ndarray) -> tuple[float, float, float, float, float]:
    """(L, p_i, p_j, q_i, q_j): the member's length [m] and its load's axial (p, along
    i→j) and transverse (q, across: i→j turned counter-clockwise) parts at its ends [N/m],
    in the geometry `pos` (N, ≥2) [m]."""
    length, c, s = frame(pos[load.i], pos[load.j])
    if load.direction == "normal":
        return length, 0.0, 0.0, load.wi, load.wj
    gx, gy = (1.0, 0.0) if load.direction == "x" else (0.0, 1.0)
    along, across = gx * c + gy * s, -gx * s + gy * c
    return length, along * load.wi, along * load.wj, across * load.wi, across * load.wj


def equivalent_local(load: MemberLoad, pos: np.ndarray) -> np.ndarray:
    """The work-equivalent nodal loads in the member's frame: (2, 3) rows i, j of
    (axial force, transverse force [N], moment [N m])."""
    length, pi, pj, qi, qj = along_across(load, pos)
    out = np.zeros((2, 3))
    out[:, 0] = length * (2 * pi + pj) / 6, length * (pi + 2 * pj) / 6
    if load.beam:
        out[:, 1] = length * (7 * qi + 3 * qj) / 20, length * (3 * qi + 7 * qj) / 20
        out[:, 2] = length**2 * (3 * qi + 2 * qj) / 60, -(length**2) * (2 * qi + 3 * qj) / 60
        if load.release:
            _condense(out, load.release, length)
    else:
        out[:, 1] = length * (2 * qi + qj) / 6, length * (qi + 2 * qj) / 6
    return out


def _condense(out: np.ndarray, release: int, length: float) -> None:
    """The equivalent loads (2, 3) of a beam with released ends, in place: the moment at
    a released end condensed out with the element's stiffness (engine/elements/beam.py). Its
    column on the released rotation over its diagonal carries half the moment to a
    held far end; the moments taken off go to the transverse forces as a couple:
    ΔF_i = −ΔM/L, ΔF_j = +ΔM/L with ΔM the sum taken off. Uniform q, end j released:
    5qL/8, qL²/8 at i and 3qL/8 at j, the propped cantilever's fixed-end forces."""
    before = out[0, 2] + out[1, 2]
    mi, mj = out[0, 2], out[1, 2]
    if release == 3:
        mi = mj = 0.0
    elif release == 2:
        mi, mj = mi - 0.5 * mj, 0.0
    else:
        mi, mj = 0.0, mj - 0.5 * mi
    shift = (before - mi - mj) / length
    out[:, 2] = mi, mj
    out[0, 1] -= shift
    out[1, 1] += shift


def equivalent_global(load: MemberLoad, pos: np.ndarray) -> np.ndarray:
    """The work-equivalent nodal loads (2, 3) [N, N, N m] at ends i, j in global axes."""
    local = equivalent_local(load, pos)
    _, c, s = frame(pos[load.i], pos[load.j])
    out = local.copy()
    out[:, 0] = c * local[:, 0] - s * local[:, 1]
    out[:, 1] = s * local[:, 0] + c * local[:, 1]
    return out


def resultant(wi: float, wj: float, length: float) -> tuple[float, float]:
    """(R [N], a [m]): the resultant of a linear load w_i → w_j over `length` and its
    distance from end i (the centroid of the trapezoid; L/2 uniform, 2L/3 for 0 → w_j)."""
    total = 0.5 * (wi + wj) * length
    if abs(wi) + abs(wj) == 0.0:
        return 0.0, 0.5 * length
    if abs(total) < 1e-12 * (abs(wi) + abs(wj)) * length:  # antisymmetric: a couple, placed mid-span
        return total, 0.5 * length
    return total, length * (wi + 2 * wj) / (3 * (wi + wj))


def internal_forces(x, end_i: tuple[float, float, float], load: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0), length: float = 1.0):
    """N(x), V(x), M(x) [N, N, N m] at distances x [m] from end i (see the module's
    docstring for the convention). end_i: (F_x, F_y, M) node i applies to the member in
    its frame [N, N, N m]; load: (p_i, p_j, q_i, q_j) [N/m], linear over `length` [m]."""
    x = np.asarray(x, dtype=float)
    fx, fy, mi = end_i
    pi, pj, qi, qj = load
    dp, dq = (pj - pi) / length, (qj - qi) / length
    n = -fx - (pi * x + 0.5 * dp * x**2)
    v = fy + qi * x + 0.5 * dq * x**2
    m = -mi + x * fy + qi * x**2 / 2 + dq * x**3 / 6
    return n, v, m


class MemberForces(NamedTuple):
    """Internal forces at P points along each of K members, from end i to end j (one
    member: 1-D arrays of P)."""

    x: np.ndarray  # [m] from end i
    N: np.ndarray  # [N] tension positive
    V: np.ndarray  # [N]
    M: np.ndarray  # [N m] sagging positive (for a member drawn from left to right)
    length: np.ndarray | float  # [m]


class LoadTable(NamedTuple):
    """A model's member loads as arrays, worked out once (load_table): for L loads, the
    member row (L,), the axial and transverse parts at the ends (L, 4) [N/m] (p_i, p_j,
    q_i, q_j), the equivalent load at end i in the member's frame (L, 3) [N, N, N m],
    the history (L,) (−1: constant) and the equivalent load at end j (L, 3)."""

    member: np.ndarray
    parts: np.ndarray
    at_i: np.ndarray
    history: np.ndarray
    at_j: np.ndarray


def load_table(model) -> LoadTable:
    """The table of a model's member loads, each scaled as its equivalent loads are in
    the model's load arrays (a copy of the model with its loads scaled, as
    `simulate --load-factors` makes, scales its member loads too)."""
    pos = model.arrays.pos0
    loads = model.member_loads
    factor = np.ones(len(loads))
    for k, ml in enumerate(loads):
        given = equivalent_global(ml, pos)[0]
        applied = model.arrays.load_f[model.point_loads + 2 * k]
        size = float(given @ given)
        factor[k] = float(applied @ given) / size if size > 0 else 1.0
    return LoadTable(
        np.array([ml.member for ml in loads], dtype=np.int64),
        factor[:, None] * np.array([along_across(ml, pos)[1:] for ml in loads], dtype=float).reshape(-1, 4),
        factor[:, None] * np.array([equivalent_local(ml, pos)[0] for ml in loads], dtype=float).reshape(-1, 3),
        np.array([ml.history for ml in loads], dtype=np.int64),
        factor[:, None] * np.array([equivalent_local(ml, pos)[1] for ml in loads], dtype=float).reshape(-1, 3),
    )


def forces_along(model, state, members, points: int = 41, table: LoadTable | None = None) -> MemberForces:
    """The internal forces along the members `members` (rows in model.member_ids), (K, P)
    arrays, in the state `state` (equilibria.engine.elements.kernels.State): each member's end forces from
    its deformation, less the equivalent loads of its distributed loads at end i, then
    the closed form above, all members at once. The frame and the loads are those of the
    starting geometry (small rotations). table: load_table(model), if the caller keeps it."""
    m = model.arrays
    members = np.asarray(members, dtype=np.int64).reshape(-1)
    slot = [model.member_slot[k] for k in members.tolist()]
    beam = np.array([kind == "beam" for kind, _ in slot], dtype=bool)  # P-δ below: a beam's own
    rows = np.array([row for _, row in slot], dtype=np.int64)
    ij, end, end_j, parts = loaded_ends(model, state, members, table)
    d = m.pos0[ij[:, 1], :2] - m.pos0[ij[:, 0], :2]
    length = np.hypot(d[:, 0], d[:, 1])
    x = np.linspace(0.0, 1.0, points)[None, :] * length[:, None]
    n, v, mm = internal_forces(x, (end[:, :1], end[:, 1:2], end[:, 2:3]), tuple(parts[:, c : c + 1] for c in range(4)), length[:, None])
    k2 = np.zeros(len(members))  # the beam-column's k² = −N/EI [1/m²], 0 where P-δ is left out
    stab = beam.copy()
    stab[beam] = m.beam_stability[rows[beam]]
    k2[stab] = end[stab, 0] / m.beam_EI[rows[stab]]  # −N = F_xi
    chained = _on_chain(m, state, rows, stab)
    if chained.any():
        _along_chain(m, state, rows[chained], x[chained], end[chained], n, v, mm, np.flatnonzero(chained))
    bent = (np.abs(k2) * length**2 >= SMALL_KL2) & ~chained
    for sel in (bent & (k2 > 0.0), bent & (k2 < 0.0)):
        if sel.any():
            ends = (-end[sel, 2:3], end_j[sel, None], parts[sel, 2:3], parts[sel, 3:4])
            mm[sel], v[sel] = beam_column_moments(x[sel], *ends, length[sel, None], k2[sel, None])
    return MemberForces(x, n, v, mm, length)


def loaded_ends(model, state, members, table: LoadTable | None = None):
    """What the nodes apply to the members `members` (K,) (rows of model.member_ids) in
    `state`, in each member's frame, a loaded member's less the equivalent loads of its
    distributed loads (module note: a clamped span that does not move takes the fixed-end
    forces): their end nodes (K, 2), at end i (−N, V, M_i) (K, 3) [N, N, N m], at end j
    the moment M_j (K,) [N m], and their loads' parts (K, 4) [N/m] (p_i, p_j, q_i, q_j)."""
    m = model.arrays
    members = np.asarray(members, dtype=np.int64).reshape(-1)
    table = load_table(model) if table is None else table
    ij, end, end_j = end_forces(model, state, members)  # end_j: the moment node j applies [N m]
    parts = np.zeros((len(members), 4))
    if len(table.member):
        where = {k: n for n, k in enumerate(members.tolist())}
        mine = np.array([where.get(k, -1) for k in table.member.tolist()], dtype=np.int64)
        use = mine >= 0
        t = float(state.clock[0])  # the run's time (a static solve's: the end of the histories)
        scale = np.array([_scale(m, h, t) for h in table.history[use].tolist()]).reshape(-1, 1)
        np.add.at(parts, mine[use], scale * table.parts[use])
        np.add.at(end, mine[use], -scale * table.at_i[use])
        np.add.at(end_j, mine[use], -scale[:, 0] * table.at_j[use, 2])
        slots = [model.member_slot[k] for k in members[mine[use]].tolist()]
        _shift_spans(m, state, slots, scale[:, 0, None] * table.parts[use, 2:], end, end_j, mine[use])
    return ij, end, end_j, parts


def end_moments(model, state) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(shear_i, moment_i, moment_j) (M,) [N, N m, N m] of every member as docs/model.md
    defines them, the force and moments the nodes apply: engine/results.py's member
    record, with each loaded member's less its loads' equivalents (its fixed-end forces:
    a clamped span under w reports ∓wL²/12, not the element's 0). A bar's are 0."""
    r = member_results(model, state)
    shear, mi, mj = r.shear_i.copy(), r.moment_i.copy(), r.moment_j.copy()
    loaded = sorted({ml.member for ml in model.member_loads})
    if loaded:
        _, end, end_j, _ = loaded_ends(model, state, loaded)
        bending = r.bending[loaded]
        shear[loaded] = np.where(bending, end[:, 1], 0.0)
        mi[loaded] = np.where(bending, end[:, 2], 0.0)
        mj[loaded] = np.where(bending, end_j, 0.0)
    return shear, mi, mj


def _chain_start(m, state, row: int) -> tuple[float, float, float, float]:
    """(r1, r2, r3, ρ) of beam `row` in `state` as its chain starts from them, a released
    end's rotation solved, and how far it is bent (engine/elements/beam_chain.py's chain_start)."""
    r1, r2, r3 = _chain_deformation(m, state, row)
    s1, s2, rho = chain_start(r1, r2, r3, float(m.beam_EA[row]), float(m.beam_EI[row]), float(m.beam_L0[row]), int(m.beam_release[row]))
    return s1, s2, r3, rho


def _chain_deformation(m, state, row: int) -> tuple[float, float, float]:
    """(r1, r2, r3) of beam `row` in `state` (engine/elements/beam.py's beam_deformation)."""
    i, j = (int(q) for q in m.beam_ij[row])
    pos = state.pos
    r1, r2, r3, _, _ = beam_deformation(
        pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1], pos[i, 2] - m.pos0[i, 2], pos[j, 2] - m.pos0[j, 2], state.chord[row], m.beam_chord0[row], m.beam_L0[row]
    )
    return r1, r2, r3


def _on_chain(m, state, rows, stab) -> np.ndarray:
    """(K,) bool: the 'stability' beams among `rows` bent past RHO0 from their chords,
    which the chain of engine/elements/beam_chain.py carries (the module's last note)."""
    out = np.zeros(len(rows), dtype=bool)
    for k in np.flatnonzero(stab).tolist():
        out[k] = _chain_start(m, state, int(rows[k]))[3] > RHO0
    return out


def _along_chain(m, state, rows, x, end, n, v, mm, at) -> None:
    """Replace, in rows `at` of n, v, mm (K, P), the straight member's statics by those
    along the chain's bent axis (the module's last note), for beams `rows` at the points
    x (Kc, P) [m] with the end forces `end` (Kc, 3)."""
    X, kr = np.zeros((NODES, 3)), np.zeros((3, 3))
    for c, row in enumerate(rows.tolist()):
        L0 = float(m.beam_L0[row])
        chain_law(*_chain_start(m, state, row)[:3], float(m.beam_EA[row]), float(m.beam_EI[row]), L0, kr, X, int(m.beam_release[row]))
        # The point x along the axis, on the sub-element it falls in: its chord, and the
        # small bending within it (Hermite, from its end rotations to its chord).
        l0 = L0 / SUB
        k = np.minimum((x[c] / l0).astype(np.int64), SUB - 1)
        xi = x[c] / l0 - k
        d = X[k + 1, :2] - X[k, :2]
        ell = np.hypot(d[:, 0], d[:, 1])
        beta = np.arctan2(d[:, 1], d[:, 0])
        p1, p2 = X[k, 2] - beta, X[k + 1, 2] - beta
        along, across = xi * ell, ell * (p1 * xi * (1.0 - xi) ** 2 - p2 * xi * xi * (1.0 - xi))
        cx, cy = X[k, 0] + along * np.cos(beta) - across * np.sin(beta), X[k, 1] + along * np.sin(beta) + across * np.cos(beta)
        phi = beta + p1 * (1.0 - 4.0 * xi + 3.0 * xi * xi) + p2 * (3.0 * xi * xi - 2.0 * xi)
        fx, fy = end[c, 0], end[c, 1]
        q = at[c]
        n[q] += -(fx * (np.cos(phi) - 1.0) + fy * np.sin(phi))
        v[q] += fy * (np.cos(phi) - 1.0) - fx * np.sin(phi)
        mm[q] += (cx - x[c]) * fy - cy * fx


def _shift_spans(m, state, slots, q, end, end_j, at) -> None:
    """Less, from the end forces `end` (K, 3) and moments `end_j` (K,) of the members
    listed, what their loads q (Ld, 2) [N/m] (transverse, at ends i and j) on 'stability'
    beams put on the nodes beyond their first-order equivalents, at the beam's axial
    force now (engine/elements/kernels.py span_shifts applies the same). slots: each load's
    member's (kind, row); at (Ld,) their rows in end."""
    for (kind, row), (qi, qj), k in zip(slots, q.tolist(), at.tolist(), strict=True):
        if kind != "beam" or not m.beam_stability[row]:
            continue
        L0, EI = float(m.beam_L0[row]), float(m.beam_EI[row])
        now = span_loads(qi, qj, L0, -float(state.member_out[0, kind_rows(m, "beam")][row]) * L0 * L0 / (4.0 * EI))
        first = span_loads(qi, qj, L0, 0.0)
        end[k, 1] -= now[0] - first[0]
        end[k, 2] -= now[1] - first[1]
        end_j[k] -= now[3] - first[3]


def beam_column_moments(x, m0, mL, qi, qj, length, k2):
    """(M(x), V(x)) [N m, N] along beam-columns (the module's note): end moments m0 =
    M(0), mL = M(L) [N m], the transverse load q_i → q_j [N/m] over `length` [m], k²
    [1/m²], all of one sign (positive in compression, negative in tension, never 0).
    All broadcast together."""
    dq = (qj - qi) / length
    q = qi + dq * x
    h0, hL = m0 - qi / k2, mL - qj / k2
    k = np.sqrt(np.abs(k2))
    if np.all(k2 > 0.0):
        s = np.sin(k * length)
        s = np.where(np.abs(s) < 1e-12, np.copysign(1e-12, s), s)  # at a multiple of π: the element's own buckling load
        h = (h0 * np.sin(k * (length - x)) + hL * np.sin(k * x)) / s
        dh = k * (-h0 * np.cos(k * (length - x)) + hL * np.cos(k * x)) / s
    else:
        h = h0 * _sinh_ratio(k * (length - x), k * length) + hL * _sinh_ratio(k * x, k * length)
        dh = k * (-h0 * _cosh_sinh(k * (length - x), k * length) + hL * _cosh_sinh(k * x, k * length))
    return q / k2 + h, dq / k2 + dh


def _sinh_ratio(a, b):
    """sinh a / sinh b for 0 ≤ a ≤ b, without overflow: e^(a − b) (1 − e^−2a)/(1 − e^−2b)."""
    return np.exp(a - b) * (-np.expm1(-2.0 * a)) / (-np.expm1(-2.0 * b))


def _cosh_sinh(a, b):
    """cosh a / sinh b for 0 ≤ a ≤ b, without overflow: e^(a − b) (1 + e^−2a)/(1 − e^−2b)."""
    return np.exp(a - b) * (1.0 + np.exp(-2.0 * a)) / (-np.expm1(-2.0 * b))


def member_forces(model, state, member: int, points: int = 41) -> MemberForces:
    """The internal forces along one member (forces_along for one), as 1-D arrays."""
    f = forces_along(model, state, [member], points)
    return MemberForces(f.x[0], f.N[0], f.V[0], f.M[0], float(f.length[0]))


def _scale(m, history: int, t: float) -> float:
    """A load history's value at time t (held at its ends; 1 without one)."""
    from equilibria.engine.histories import scale  # the one reading of a history, the kernels' own

    return scale(m, history, t)


def largest_moments(model, state) -> np.ndarray:
    """(members,) [N m]: the bending moment of largest size along each member, signed as
    above (sagging positive): at an end for an unloaded beam (M(0) = −M_i, M(L) = M_j of
    the end moments the nodes apply), from the closed form for a loaded member and for a
    'stability' beam (P-δ can put it inside), 0 for an unloaded bar. Sampled at 101
    points, the peak refined by the parabola through the three around it."""
    out = np.zeros(len(model.member_ids))
    beam_out = state.member_out[:, kind_rows(model.arrays, "beam")].T  # (Bm, 4) the beams' [N, V, M_i, M_j]
    ends = np.column_stack((-beam_out[:, 2], beam_out[:, 3]))
    pick = np.take_along_axis(ends, np.abs(ends).argmax(axis=1)[:, None], axis=1)[:, 0] if len(ends) else ends[:, 0]
    beams = [k for k, (kind, _) in enumerate(model.member_slot) if kind == "beam"]
    out[beams] = pick[[model.member_slot[k][1] for k in beams]]
    stability = [k for k in beams if model.arrays.beam_stability[model.member_slot[k][1]]]
    loaded = sorted({ml.member for ml in model.member_loads} | set(stability))
    if loaded:
        moments = forces_along(model, state, loaded, 101).M
        out[loaded] = _peaks(moments)
    return out


def _peaks(moments: np.ndarray) -> np.ndarray:
    """(K,) the value of largest size in each row of samples (K, P) at equal spacing: at
    an interior sample, the top of the parabola through it and its neighbours."""
    at = np.abs(moments).argmax(axis=1)
    rows = np.arange(len(moments))
    peak = moments[rows, at]
    inside = (at > 0) & (at < moments.shape[1] - 1)
    a, b, c = (moments[rows[inside], at[inside] + d] for d in (-1, 0, 1))
    curve = a - 2.0 * b + c
    with np.errstate(divide="ignore", invalid="ignore"):
        top = b - (c - a) ** 2 / (8.0 * curve)
    peak[inside] = np.where((curve != 0.0) & (np.abs(top) >= np.abs(b)), top, b)
    return peak
