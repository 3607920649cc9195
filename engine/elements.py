"""The assembly of nodal forces (seed 000, box B): loads, gravity, ground motion, mass
damping, and every element's force from its own module (engine/bar.py, beam.py with
beam_stability.py, cst.py, neo_hookean.py, which also give its tangent and its
small-displacement block, placed by engine/stiffness.py).

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

from numba import njit

from engine.bar import bar_energy, bar_forces
from engine.beam import beam_energy, beam_forces
from engine.cst import cst_forces
from engine.kernel_options import KERNEL
from engine.neo_hookean import neo_forces


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


# ------------------------------------------------------------------------ assembly


@njit(**KERNEL)
def eval_forces(m, pos, vel, t, chord, bar_on, beam_on, tri_on, force, bar_N, beam_out, tri_out):
    """Total force on every DOF at time t (seed 000 Fig. 1, box B); returns the power
    of the external loads (loads, gravity, ground motion) [W].

    Inputs: m ModelArrays; pos, vel (N, 3) [m, rad], [m/s, rad/s]; t [s];
    chord (Bm,) [rad] running chord angles; bar_on (B,), beam_on (Bm,), tri_on (T,) bool.
    Outputs, written in place: force (N, 3) [N, N, N m]; bar_N (B,) [N];
    beam_out (Bm, 4) [N, V, M1, M2]; tri_out (T, 4) [σx, σy, τxy (global axes) Pa,
    strain energy J].
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
        s = 1.0
        if m.load_hist[e] >= 0:
            s = history_value(m.hist_start, m.hist_t, m.hist_v, m.load_hist[e], t)
        q = m.load_node[e]
        for d in range(3):
            f = s * m.load_f[e, d]
            force[q, d] += f
            power += f * vel[q, d]

    bar_forces(m, pos, vel, bar_on, force, bar_N)  # engine/bar.py
    beam_forces(m, pos, vel, chord, beam_on, force, beam_out)  # engine/beam.py
    for e in range(m.tri_ijk.shape[0]):
        if not tri_on[e]:
            for c4 in range(4):
                tri_out[e, c4] = 0.0
            continue
        if m.tri_neo[e]:
            neo_forces(m, e, pos, vel, force, tri_out)  # engine/neo_hookean.py
        else:
            cst_forces(m, e, pos, vel, force, tri_out)  # engine/cst.py
    return power


def strain_energy(m, pos, chord, bar_on, beam_on, tri_out) -> float:
    """Elastic strain energy [J] of all active elements at pos (tri_out from eval_forces)."""
    return float(_member_energy(m, pos, chord, bar_on, beam_on) + tri_out[:, 3].sum())


@njit(**KERNEL)
def _member_energy(m, pos, chord, bar_on, beam_on):
    """One entry point for both (each that takes the model costs a first start its own
    Python wrapper: engine/kernel_options.py)."""
    return bar_energy(m, pos, bar_on) + beam_energy(m, pos, chord, beam_on)
