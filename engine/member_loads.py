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
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

DIRECTIONS = ("y", "x", "normal")


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
    else:
        out[:, 1] = length * (2 * qi + qj) / 6, length * (qi + 2 * qj) / 6
    return out


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
    """A member's internal forces at n points from end i to end j."""

    x: np.ndarray  # [m] from end i
    N: np.ndarray  # [N] tension positive
    V: np.ndarray  # [N]
    M: np.ndarray  # [N m] sagging positive (for a member drawn from left to right)
    length: float


def member_forces(model, state, member: int, points: int = 41) -> MemberForces:
    """The internal forces along member `member` (its row in model.member_ids) in the
    state `state` (engine.state.State): its end forces from its deformation, less the
    equivalent loads of its distributed loads at its ends, then the closed form above.
    The frame and the loads are taken in the starting geometry (small rotations)."""
    kind, row = model.member_slot[member]
    m = model.arrays
    ij = m.beam_ij[row] if kind == "beam" else m.bar_ij[row]
    i, j = int(ij[0]), int(ij[1])
    length = frame(m.pos0[i], m.pos0[j])[0]
    if kind == "beam":
        axial, shear_i, moment_i, _ = (float(v) for v in state.beam_out[row])
        end = np.array([-axial, shear_i, moment_i])
    else:
        end = np.array([-float(state.bar_N[row]), 0.0, 0.0])
    load = np.zeros(4)
    t = float(state.clock[0])  # the run's time (a static solve's: the end of the histories)
    for ml in model.member_loads:
        if ml.member != member:
            continue
        scale = _scale(m, ml.history, t)
        _, pi, pj, qi, qj = along_across(ml, m.pos0)
        load += scale * np.array([pi, pj, qi, qj])
        end -= scale * equivalent_local(ml, m.pos0)[0]
    x = np.linspace(0.0, length, points)
    n, v, mm = internal_forces(x, (end[0], end[1], end[2]), tuple(load), length)
    return MemberForces(x, n, v, mm, length)


def _scale(m, history: int, t: float) -> float:
    """A load history's value at time t (held at its ends; 1 without one)."""
    if history < 0:
        return 1.0
    a, b = m.hist_start[history], m.hist_start[history + 1]
    return float(np.interp(t, m.hist_t[a:b], m.hist_v[a:b]))


def largest_moments(model, state) -> np.ndarray:
    """(members,) [N m]: the bending moment of largest size along each member, signed as
    above (sagging positive): at an end for an unloaded beam (M(0) = −M_i, M(L) = M_j of
    the end moments the nodes apply), from the closed form for a loaded member, 0 for an
    unloaded bar."""
    out = np.zeros(len(model.member_ids))
    ends = np.column_stack((-state.beam_out[:, 2], state.beam_out[:, 3]))
    pick = np.take_along_axis(ends, np.abs(ends).argmax(axis=1)[:, None], axis=1)[:, 0] if len(ends) else ends[:, 0]
    for k, (kind, row) in enumerate(model.member_slot):
        if kind == "beam":
            out[k] = pick[row]
    for k in sorted({ml.member for ml in model.member_loads}):
        moments = member_forces(model, state, k, 101).M
        out[k] = moments[np.abs(moments).argmax()]
    return out
