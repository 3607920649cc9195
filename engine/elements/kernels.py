"""The elements' home: the one map of the element kinds (KINDS), and their compiled code:
the State every integrator advances (the member record's on-flags, outputs and break
times among its arrays, engine/elements/kind.py), the members' break check, and the
assembly of nodal forces (seed 000, box B): loads, gravity, ground motion, mass
damping, and every element's force from its own module (engine/elements/bar.py, beam.py with
beam_stability.py, cst.py, neo_hookean.py, which also give its tangent and its
small-displacement block, placed by engine/stiffness.py). numba dispatches statically,
so this is where compiled code names each element kind, beside the map the Python side
reads (docs/engine.md, "What a new element kind touches").

Every element computes its forces from deformations measured in the current geometry,
so rigid motions of any size give zero force. End forces are the exact gradient of the
element's strain energy (plus its damping), which makes each element conserve energy,
linear and angular momentum.

Glossary: EA axial rigidity [N], EI flexural rigidity [N m²], L0 rest length [m],
L current length [m], N axial force [N] (tension positive), M1, M2 end moments [N m],
V end shear [N], E Young's modulus [Pa], ν Poisson's ratio, t thickness [m],
λ, μ Lamé parameters [Pa], β stiffness-proportional (element) damping [s].

Kernels use numba's numpy error model: a division by zero (two nodes of an element
brought together) gives inf or NaN instead of raising, and the blow-up check of the
caller catches it and rolls back.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from equilibria.engine.compiled.options import INNER, KERNEL
from equilibria.engine.elements.bar import BAR, bar_energy, bar_forces
from equilibria.engine.elements.beam import BEAM, beam_energy, beam_forces
from equilibria.engine.elements.beam_stability import span_loads
from equilibria.engine.elements.cst import cst_forces
from equilibria.engine.elements.kind import ElementKind, MemberKind
from equilibria.engine.elements.neo_hookean import TRIANGLE, neo_forces

# ------------------------------------------------------------------ the map of the kinds
# Every element kind, by name (engine/elements/kind.py): the one list the Python side
# walks. The kinds that make members come first, in the order of their slices of the
# member record (ModelArrays.member_start, made by engine/model.py in this order).
KINDS: dict[str, ElementKind] = {kind.name: kind for kind in (BAR, BEAM, TRIANGLE)}
MEMBERS: dict[str, MemberKind] = {name: kind for name, kind in KINDS.items() if isinstance(kind, MemberKind)}
# Each member kind's row of member_start, for the compiled calls below (numba reads
# these as constants).
_BAR = tuple(MEMBERS).index(BAR.name)
_BEAM = tuple(MEMBERS).index(BEAM.name)


def kind_rows(m, name: str) -> slice:
    """The rows of the member record (engine/elements/kind.py) that member kind `name`
    holds in model arrays m; KeyError for a name that is no member kind."""
    if name not in MEMBERS:
        raise KeyError(f"{name!r} is no member kind (engine/elements/kernels.py MEMBERS: {', '.join(MEMBERS)})")
    k = tuple(MEMBERS).index(name)
    return slice(int(m.member_start[k]), int(m.member_start[k + 1]))


@njit(**KERNEL)
def history_value(hist_start, hist_t, hist_v, h, t):
    """Piecewise-linear history h at time t; held at its first and last values."""
    a = hist_start[h]
    b = hist_start[h + 1]
    if t <= hist_t[a]:
        return hist_v[a]
    for q in range(a + 1, b):
        if t <= hist_t[q]:
            s = (t - hist_t[q - 1]) / (hist_t[q] - hist_t[q - 1])
            return hist_v[q - 1] + s * (hist_v[q] - hist_v[q - 1])
    return hist_v[b - 1]


@njit(**KERNEL)
def history_rate(hist_start, hist_t, hist_v, h, t):
    """Time derivative of history h at t (the slope of its segment, 0 outside)."""
    a = hist_start[h]
    b = hist_start[h + 1]
    for q in range(a + 1, b):
        if hist_t[q - 1] <= t < hist_t[q]:
            return (hist_v[q] - hist_v[q - 1]) / (hist_t[q] - hist_t[q - 1])
    return 0.0


# ------------------------------------------------------------------------ the state


class State(NamedTuple):
    """What changes in time. Shapes, dtypes and units (M members, each kind a slice of
    their rows: the member record, engine/elements/kind.py):

    pos, vel: (N, 3) float64 [m, m, rad], [m/s, m/s, rad/s]
    chord: (Bm,) [rad] running total of each beam's chord angle
    clock: (6,) [time s, external work J, rest timer s, max speed m/s, residual N,
            kinetic energy J], the last four as of the last step
    status: (1,) int64 RUNNING / AT_REST / NOT_FINITE
    member_on, tri_on: (M,), (T,) bool; a removed or broken element is off
    member_broke: (M,) [s] time the member broke, or −1
    force: (N, 3) [N, N, N m] total force at the last evaluation
    member_out: (4, M) [N, V, M_i, M_j]: a row of each over every member (a bar's or
            cable's V and moments 0), so that the bars' loop writes its N contiguously;
    tri_out: (T, 4) [Pa ×3, J]
    tether: (K, 8) the tethers acting now (engine/tethers.py; set by the caller between
            calls; the kernels only slide contact anchors, at the start of each step); tether_f: (K, 2) [N] their forces at the
            last evaluation
    """

    pos: np.ndarray
    vel: np.ndarray
    chord: np.ndarray
    clock: np.ndarray
    status: np.ndarray
    member_on: np.ndarray
    tri_on: np.ndarray
    member_broke: np.ndarray
    force: np.ndarray
    member_out: np.ndarray
    tri_out: np.ndarray
    tether: np.ndarray
    tether_f: np.ndarray

    def copy(self) -> State:
        return State(*(a.copy() for a in self))

    def restore(self, other: State) -> None:
        """Copy `other` into these arrays in place."""
        for dst, src in zip(self, other, strict=True):
            dst[...] = src


def built_state(m) -> State:
    """The State of model arrays m as built: at rest where the model puts its nodes, every
    element on and carrying nothing (engine/dynamics.py new_state then holds the supports)."""
    n = m.pos0.shape[0]
    nm = m.member_cap_t.shape[0]
    nt = m.tri_ijk.shape[0]
    return State(
        pos=m.pos0.copy(),
        vel=np.zeros((n, 3)),
        chord=m.beam_chord0.copy(),
        clock=np.zeros(6),
        status=np.zeros(1, dtype=np.int64),
        member_on=np.ones(nm, dtype=np.bool_),
        tri_on=np.ones(nt, dtype=np.bool_),
        member_broke=np.full(nm, -1.0),
        force=np.zeros((n, 3)),
        member_out=np.zeros((4, nm)),
        tri_out=np.zeros((nt, 4)),
        tether=np.zeros((0, 8)),
        tether_f=np.zeros((0, 2)),
    )


@njit(**KERNEL)
def check_breaks(m, s, t):
    """Members whose force passed their capacity break (are switched off) at time t:
    the one rule, for callers in Python (the implicit integrator); `advance` inlines
    `_check_breaks`."""
    _check_breaks(m, s, t)


@njit(**INNER, inline="always")
def _check_breaks(m, s, t):
    """One rule for every member, on the member record: its axial force past its
    tension or compression capacity switches it off."""
    for e in range(m.member_cap_t.shape[0]):
        if s.member_on[e]:
            N = s.member_out[0, e]
            if m.member_cap_t[e] < N or m.member_cap_c[e] < -N:
                s.member_on[e] = False
                s.member_broke[e] = t


# ------------------------------------------------------------------------ assembly


@njit(**KERNEL)
def eval_forces(m, s, pos, vel, t, force):
    """Total force on every DOF at time t (seed 000 Fig. 1, box B); returns the power
    of the external loads (loads, gravity, ground motion) [W].

    The model, the state and where to write (warp.sim's `eval_*_forces(model, state,
    out)`), as `advance` takes them, so that a caller names no element kind's arrays:
    m ModelArrays; s State (engine/dynamics.py), whose elements' own arrays it reads
    (running chord angles, on-flags) and whose element outputs it writes (member_out,
    tri_out); pos, vel (N, 3) [m, rad], [m/s, rad/s] the configuration it
    evaluates at (the state's own, or an RK4 stage's, or relaxation's zero velocity);
    t [s]. Output, written in place: force (N, 3) [N, N, N m].
    """
    n = pos.shape[0]
    g = m.gravity
    alpha = m.mass_damping
    ax = 0.0
    ay = 0.0
    if m.ground_ax_hist >= 0:
        ax = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ax_hist, t)
    if m.ground_ay_hist >= 0:
        ay = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ay_hist, t)
    power = 0.0
    # Gravity and ground acceleration act on the translational mass; the structure is
    # seen from the ground, so the ground's acceleration a_g appears as −m a_g.
    gy = g + ay
    if alpha == 0.0 and ax == 0.0:  # the common case, kept lean: weight only
        for q in range(n):
            fy = -m.mass[q, 1] * gy
            power += fy * vel[q, 1]
            force[q, 0] = 0.0
            force[q, 1] = fy
            force[q, 2] = 0.0
    else:
        for q in range(n):
            fx = -m.mass[q, 0] * ax
            fy = -m.mass[q, 1] * gy
            power += fx * vel[q, 0] + fy * vel[q, 1]
            force[q, 0] = fx - alpha * m.mass[q, 0] * vel[q, 0]
            force[q, 1] = fy - alpha * m.mass[q, 1] * vel[q, 1]
            force[q, 2] = -alpha * m.mass[q, 2] * vel[q, 2]
    for e in range(m.load_node.shape[0]):
        scale = 1.0
        if m.load_hist[e] >= 0:
            scale = history_value(m.hist_start, m.hist_t, m.hist_v, m.load_hist[e], t)
        q = m.load_node[e]
        for d in range(3):
            f = scale * m.load_f[e, d]
            force[q, d] += f
            power += f * vel[q, d]

    bar_forces(m, pos, vel, s.member_on, force, s.member_out, m.member_start[_BAR])  # engine/elements/bar.py
    beams = m.member_start[_BEAM]
    beam_forces(m, pos, vel, s.chord, s.member_on, force, s.member_out, beams)  # engine/elements/beam.py
    if m.span_beam.shape[0]:
        power += span_shifts(m, pos, vel, t, s.member_on, s.member_out, beams, force)
    tri_out = s.tri_out
    for e in range(m.tri_ijk.shape[0]):
        if not s.tri_on[e]:
            for c4 in range(4):
                tri_out[e, c4] = 0.0
            continue
        if m.tri_neo[e]:
            neo_forces(m, e, pos, vel, force, tri_out)  # engine/elements/neo_hookean.py
        else:
            cst_forces(m, e, pos, vel, force, tri_out)  # engine/elements/cst.py
    return power


@njit(**INNER, inline="always")
def span_shifts(m, pos, vel, t, on, out, lo, force):
    """Add to force (N, 3) what a distributed load on a 'stability' beam puts on its
    nodes beyond its first-order equivalent loads (already among the loads): the
    beam-column's fixed-end forces at the beam's axial force now (member_out's N) less
    those at N = 0 (engine/elements/beam_stability.py, span_loads), across the chord as it is
    now (on, out: the member record, the beams from row lo). The load's scale is its end-i row of load_f against that row as built (a load
    factor scales both), times its history. Returns their power [W]."""
    power = 0.0
    for s in range(m.span_beam.shape[0]):
        e = m.span_beam[s]
        row = m.span_row[s]
        size = m.span_f0[s, 0] ** 2 + m.span_f0[s, 1] ** 2 + m.span_f0[s, 2] ** 2
        if not on[lo + np.uint64(e)] or size == 0.0:
            continue
        scale = (m.load_f[row, 0] * m.span_f0[s, 0] + m.load_f[row, 1] * m.span_f0[s, 1] + m.load_f[row, 2] * m.span_f0[s, 2]) / size
        if m.load_hist[row] >= 0:
            scale *= history_value(m.hist_start, m.hist_t, m.hist_v, m.load_hist[row], t)
        L0 = m.beam_L0[e]
        qi = scale * m.span_q[s, 0]
        qj = scale * m.span_q[s, 1]
        Fi, Mi, Fj, Mj = span_loads(qi, qj, L0, -out[0, lo + np.uint64(e)] * L0 * L0 / (4.0 * m.beam_EI[e]))
        Fi0, Mi0, Fj0, Mj0 = span_loads(qi, qj, L0, 0.0)
        i = m.beam_ij[e, 0]
        j = m.beam_ij[e, 1]
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        L = math.sqrt(dx * dx + dy * dy)
        nx = -dy / L
        ny = dx / L
        for q, dF, dM in ((i, Fi - Fi0, Mi - Mi0), (j, Fj - Fj0, Mj - Mj0)):
            force[q, 0] += dF * nx
            force[q, 1] += dF * ny
            force[q, 2] += dM
            power += dF * (nx * vel[q, 0] + ny * vel[q, 1]) + dM * vel[q, 2]
    return power


def strain_energy(m, s) -> float:
    """Elastic strain energy [J] of all active elements in state s (its triangles' from
    their output of the last eval_forces)."""
    return float(_member_energy(m, s.pos, s.chord, s.member_on) + s.tri_out[:, 3].sum())


@njit(**KERNEL)
def _member_energy(m, pos, chord, on):
    """Every member kind's in one entry point (each that takes the model costs a first
    start its own Python wrapper: engine/compiled/options.py); on: the member record's
    on-flags."""
    return bar_energy(m, pos, on, m.member_start[_BAR]) + beam_energy(m, pos, chord, on, m.member_start[_BEAM])
