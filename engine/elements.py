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
from engine.cst import cst_force
from engine.kernel_options import INNER, KERNEL
from engine.neo_hookean import neo_force


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

    Each node's force is summed in one order: external forces, then bars, beams and
    triangles each in their order; engine/parallel.py keeps it (so its sums are these).
    """
    power = external_forces(m, vel, t, force)
    bar_forces(m, pos, vel, bar_on, force, bar_N)  # engine/bar.py
    beam_and_triangle_forces(m, pos, vel, chord, beam_on, tri_on, force, beam_out, tri_out)
    return power


@njit(**INNER, inline="always")
def external_forces(m, vel, t, force):
    """force (N, 3) set to the external forces at time t: gravity, ground motion, mass
    damping and the loads; returns their power [W] (eval_forces)."""
    ax, gy = ground(m, t)
    power = 0.0
    if m.mass_damping == 0.0 and ax == 0.0:  # the common case, kept lean: weight only
        for q in range(vel.shape[0]):
            power += node_weight_lean(m, q, vel, force, gy)
    else:
        for q in range(vel.shape[0]):
            power += node_weight(m, q, vel, force, ax, gy)
    return load_forces(m, vel, t, force, power)


@njit(**INNER, inline="always")
def ground(m, t):
    """(ax, g + ay) [m/s²]: the ground's acceleration at t and gravity with its y. The
    structure is seen from the ground, so the ground's acceleration a_g appears as −m a_g."""
    ax = 0.0
    ay = 0.0
    if m.ground_ax_hist >= 0:
        ax = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ax_hist, t)
    if m.ground_ay_hist >= 0:
        ay = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ay_hist, t)
    return ax, m.gravity + ay


@njit(**INNER, inline="always")
def node_weight_lean(m, q, vel, force, gy):
    """force[q] set to node q's weight alone (no ground motion in x, no mass damping);
    returns its power [W]."""
    fy = -m.mass[q, 1] * gy
    force[q, 0] = 0.0
    force[q, 1] = fy
    force[q, 2] = 0.0
    return fy * vel[q, 1]


@njit(**INNER, inline="always")
def node_weight(m, q, vel, force, ax, gy):
    """force[q] set to node q's weight, ground motion and mass damping (the general case
    of external_forces); returns the power of the first two [W]."""
    alpha = m.mass_damping
    fx = -m.mass[q, 0] * ax
    fy = -m.mass[q, 1] * gy
    force[q, 0] = fx - alpha * m.mass[q, 0] * vel[q, 0]
    force[q, 1] = fy - alpha * m.mass[q, 1] * vel[q, 1]
    force[q, 2] = -alpha * m.mass[q, 2] * vel[q, 2]
    return fx * vel[q, 0] + fy * vel[q, 1]


@njit(**INNER, inline="always")
def load_forces(m, vel, t, force, power):
    """The loads at time t added to force; returns power [W] plus theirs."""
    for e in range(m.load_node.shape[0]):
        s = load_scale(m, e, t)
        q = m.load_node[e]
        for d in range(3):
            f = s * m.load_f[e, d]
            force[q, d] += f
            power += f * vel[q, d]
    return power


@njit(**INNER, inline="always")
def load_scale(m, e, t):
    """Load e's factor at time t: its history's value, or 1."""
    if m.load_hist[e] >= 0:
        return history_value(m.hist_start, m.hist_t, m.hist_v, m.load_hist[e], t)
    return 1.0


@njit(**INNER, inline="always")
def beam_and_triangle_forces(m, pos, vel, chord, beam_on, tri_on, force, beam_out, tri_out):
    """Add every active beam's and triangle's force to force (eval_forces)."""
    beam_forces(m, pos, vel, chord, beam_on, force, beam_out)  # engine/beam.py
    for e in range(m.tri_ijk.shape[0]):
        if not tri_on[e]:
            for c4 in range(4):
                tri_out[e, c4] = 0.0
            continue
        fjx, fjy, fkx, fky = triangle_force(m, e, pos, vel, tri_out)
        i = m.tri_ijk[e, 0]
        j = m.tri_ijk[e, 1]
        k = m.tri_ijk[e, 2]
        force[j, 0] += fjx
        force[j, 1] += fjy
        force[k, 0] += fkx
        force[k, 1] += fky
        force[i, 0] -= fjx + fkx
        force[i, 1] -= fjy + fky


@njit(**INNER, inline="always")
def triangle_force(m, e, pos, vel, tri_out):
    """Triangle e's forces [N] on its nodes j and k, (fjx, fjy, fkx, fky) (node i takes
    minus their sum), and its tri_out[e], by its own formulation."""
    if m.tri_neo[e]:
        return neo_force(m, e, pos, vel, tri_out)  # engine/neo_hookean.py
    return cst_force(m, e, pos, vel, tri_out)  # engine/cst.py


def strain_energy(m, pos, chord, bar_on, beam_on, tri_out) -> float:
    """Elastic strain energy [J] of all active elements at pos (tri_out from eval_forces)."""
    return float(_member_energy(m, pos, chord, bar_on, beam_on) + tri_out[:, 3].sum())


@njit(**KERNEL)
def _member_energy(m, pos, chord, bar_on, beam_on):
    """One entry point for both (each that takes the model costs a first start its own
    Python wrapper: engine/kernel_options.py)."""
    return bar_energy(m, pos, bar_on) + beam_energy(m, pos, chord, beam_on)
