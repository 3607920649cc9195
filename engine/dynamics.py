"""Time integration (seed 000 Fig. 1) and dynamic relaxation (seed 001).

One compiled call advances many sub-steps; Python never runs per sub-step. The state
arrays are updated in place. Every step also keeps the at-rest timer (Box2D's sleep
timer: reset whenever a node moves faster than the tolerance or the structure is out of
balance) and stops at the first non-finite value so the caller can roll back.

Integrators (method codes):
    SYMPLECTIC  semi-implicit Euler, one force evaluation per step:
                v ← v + dt a(x, v, t);  x ← x + dt v
    RK4         classical 4th-order Runge–Kutta at a constant step (Arcade's method),
                four evaluations per step; the accuracy reference
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from equilibria.engine.compiled.options import INNER, KERNEL
from equilibria.engine.elements.kernels import State, _check_breaks, built_state, eval_forces, history_rate, history_value
from equilibria.engine.rollers import _hold_rollers
from equilibria.engine.tethers import eval_tethers, slide_anchors

SYMPLECTIC = 0
RK4 = 1

# status codes written to state.status[0]
RUNNING = 0
AT_REST = 1
NOT_FINITE = 2
INVERTED = 3  # relax only: it cannot start from an inverted Neo-Hookean triangle

# indices into the control vector `ctl` (float64)
C_VTOL, C_FTOL, C_KETOL, C_HOLD, C_STOP, C_BREAK, C_LREF = range(7)
# indices into state.clock
K_TIME, K_WORK, K_REST, K_SPEED, K_RESIDUAL, K_KINETIC = range(6)


class Work(NamedTuple):
    """Scratch arrays for RK4, allocated once, (N, 3) each: stage position and
    velocity, weighted sums of the stage derivatives, and the stage force."""

    p: np.ndarray
    v: np.ndarray
    dp: np.ndarray
    dv: np.ndarray
    f: np.ndarray


def new_state(m) -> State:
    """The State of model arrays m as built (engine/elements/kernels.py, built_state), every
    fixed DOF at its place and speed at time 0."""
    state = built_state(m)
    hold_supports(m, state.pos, state.vel, 0.0)
    return state


def new_work(n: int) -> Work:
    return Work(*(np.zeros((n, 3)) for _ in range(5)))


@njit(**KERNEL)
def apply_supports(m, pos, vel, t):
    """Position boundary conditions (box A): supports that move follow their history.

    A fixed DOF without a history needs nothing: its velocity is zero and its inverse
    mass is zero, so it never leaves its place. (For callers in Python; kernels inline
    its body, `_apply_supports`: each kernel a kernel calls costs a first start its own
    compile, engine/compiled/options.py.)"""
    _apply_supports(m, pos, vel, t)


@njit(**INNER, inline="always")
def _apply_supports(m, pos, vel, t):
    for r in range(m.moving_dofs.shape[0]):
        q = m.moving_dofs[r, 0]
        d = m.moving_dofs[r, 1]
        h = m.motion_hist[q, d]
        pos[q, d] = m.pos0[q, d] + history_value(m.hist_start, m.hist_t, m.hist_v, h, t)
        vel[q, d] = history_rate(m.hist_start, m.hist_t, m.hist_v, h, t)


def hold_supports(m, pos, vel, t: float) -> None:
    """Every fixed DOF at its place and speed at time t (at the start, after edits).
    apply_supports' rule, in Python: a kernel that takes the model costs a first start
    its own compile, and this is called before the first step."""
    pos[m.fixed] = m.pos0[m.fixed]
    vel[m.fixed] = 0.0
    for q, d in m.moving_dofs.tolist():
        h = int(m.motion_hist[q, d])
        pos[q, d] = m.pos0[q, d] + history_value(m.hist_start, m.hist_t, m.hist_v, h, float(t))
        vel[q, d] = history_rate(m.hist_start, m.hist_t, m.hist_v, h, float(t))


@njit(**KERNEL)
def update_chords(m, pos, chord):
    """Advance each beam's running chord angle by its (small) change this step (for
    callers in Python; kernels inline `_update_chords`, as apply_supports)."""
    _update_chords(m, pos, chord)


@njit(**INNER, inline="always")
def _update_chords(m, pos, chord):
    for e in range(m.beam_ij.shape[0]):
        i = m.beam_ij[e, 0]
        j = m.beam_ij[e, 1]
        a = math.atan2(pos[j, 1] - pos[i, 1], pos[j, 0] - pos[i, 0])
        d = a - chord[e]
        chord[e] += d - 2.0 * math.pi * math.floor((d + math.pi) / (2.0 * math.pi))


@njit(**INNER, inline="always")
def _symplectic_update(m, force, dt, pos, vel):
    """v ← v + dt·force/m, then x ← x + dt·v, on every DOF (a flat loop, see _rk4_step)."""
    x = pos.reshape(-1)
    v = vel.reshape(-1)
    f = force.reshape(-1)
    inv_m = m.inv_mass.reshape(-1)
    for r in range(x.shape[0]):
        v[r] += dt * f[r] * inv_m[r]
        x[r] += dt * v[r]


@njit(**INNER, inline="always")
def _measures(m, vel, force, lref):
    """The rest test's measures: (max node speed [m/s], residual [N], kinetic energy [J],
    support power [W]). The residual is the largest out-of-balance force on a free DOF
    (moments count as force over the structure's size lref); the support power is the
    work rate of the reactions (−force) at supports that move."""
    vmax2 = 0.0
    res = 0.0
    ke = 0.0
    power = 0.0
    for q in range(vel.shape[0]):
        for d in range(3):
            f = force[q, d]
            if m.fixed[q, d]:
                if m.motion_hist[q, d] >= 0:
                    power -= f * vel[q, d]
            else:
                a = abs(f) / lref if d == 2 else abs(f)
                if not a <= res:  # also takes a NaN, which max() would drop
                    res = a
        vx = vel[q, 0]
        vy = vel[q, 1]
        vmax2 = max(vmax2, vx * vx + vy * vy)
        ke += 0.5 * (m.mass[q, 0] * vx * vx + m.mass[q, 1] * vy * vy + m.mass[q, 2] * vel[q, 2] * vel[q, 2])
    return math.sqrt(vmax2), res, ke, power


MEASURE_EVERY = 8  # steps between evaluations of the rest measures (and the last step)


# nogil: a batch lets go of Python's lock while it runs, so that the window's thread
# draws its frames while a check's thread runs its batches (game/app/session/checking.py);
# the arrays it writes are its own simulation's, which no other thread touches meanwhile.
@njit(**KERNEL, nogil=True)
def advance(m, s, w, dt, nsteps, method, ctl):
    """Advance state s by up to nsteps steps of dt [s]; returns the steps taken.

    ctl (7,) float64: speed tolerance [m/s], residual tolerance [N], kinetic energy
    tolerance [J], hold time [s], stop at rest (1.0) or not, check breaks (1.0) or not,
    length scale for moments [m]. Stops early at rest (if asked) or at a non-finite
    value, and says which in s.status[0].
    """
    pos = s.pos
    vel = s.vel
    force = s.force
    t = s.clock[K_TIME]
    s.status[0] = RUNNING
    t_measured = t
    p_support = 0.0
    for step in range(nsteps):
        slide_anchors(s.tether, pos, vel)  # friction's stick point, fixed within the step
        if method == SYMPLECTIC:
            power = eval_forces(m, s, pos, vel, t, force)
            eval_tethers(s.tether, pos, vel, force, s.tether_f, 1.0)
            _hold_rollers(m, force)
            _symplectic_update(m, force, dt, pos, vel)
        else:
            power = _rk4_step(m, s, w, t, dt)
        t += dt
        _apply_supports(m, pos, vel, t)
        _update_chords(m, pos, s.chord)
        if ctl[C_BREAK] > 0.0:
            _check_breaks(m, s, t)
        s.clock[K_TIME] = t
        s.clock[K_WORK] += (power + p_support) * dt
        if step % MEASURE_EVERY != MEASURE_EVERY - 1 and step != nsteps - 1:
            continue
        # The rest test, every few steps: the timer grows by the time since the last
        # test while speed, residual and kinetic energy are all below tolerance.
        vmax, res, ke, p_support = _measures(m, vel, force, ctl[C_LREF])
        s.clock[K_SPEED] = vmax
        s.clock[K_RESIDUAL] = res
        s.clock[K_KINETIC] = ke
        if not (math.isfinite(ke) and math.isfinite(res)):
            s.status[0] = NOT_FINITE
            return step + 1
        if vmax <= ctl[C_VTOL] and res <= ctl[C_FTOL] and ke <= ctl[C_KETOL]:
            s.clock[K_REST] += t - t_measured
            if ctl[C_STOP] > 0.0 and s.clock[K_REST] >= ctl[C_HOLD]:
                s.status[0] = AT_REST
                t_measured = t
                return step + 1
        else:
            s.clock[K_REST] = 0.0
        t_measured = t
    return nsteps


@njit(**INNER, inline="always")
def _rk4_step(m, s, w, t, dt):
    """One classical RK4 step of y' = (v, a(x, v, t)), y = (x, v), from t to t + h
    (h = dt), in place:
        k1 = (v, a(x, v, t)),
        k2 = (v2, a(x2, v2, t + h/2)) at (x2, v2) = y + h/2 k1,
        k3 = (v3, a(x3, v3, t + h/2)) at (x3, v3) = y + h/2 k2,
        k4 = (v4, a(x4, v4, t + h)) at (x4, v4) = y + h k3,
        y ← y + h/6 (k1 + 2 k2 + 2 k3 + k4).
    A stage's position rate is its velocity, so the work arrays hold the stage state
    (w.p, w.v), its force w.f and the running sums of the k (w.dp, w.dv); the last stage
    completes the sums and the step in one pass. Fixed DOFs follow their prescribed
    motion at each stage time (inv_mass is 0 there). Tethers act at every stage (their
    energy is the caller's to count, see engine/tethers.py). The first stage's force
    stays in s.force (for the residual and reactions), its tether forces in s.tether_f;
    returns the external power at t.

    The node loops run over the (N, 3) arrays as flat (3N,) views, which LLVM vectorises,
    rotations included even in a truss (their velocity, force and inv_mass are 0 there,
    so they stay put): faster than skipping every third DOF."""
    x = s.pos.reshape(-1)
    v = s.vel.reshape(-1)
    f1 = s.force.reshape(-1)
    inv_m = m.inv_mass.reshape(-1)
    p = w.p.reshape(-1)
    vs = w.v.reshape(-1)
    f = w.f.reshape(-1)
    dp = w.dp.reshape(-1)
    dv = w.dv.reshape(-1)
    power = eval_forces(m, s, s.pos, s.vel, t, s.force)
    eval_tethers(s.tether, s.pos, s.vel, s.force, s.tether_f, 1.0)
    _hold_rollers(m, s.force)
    for r in range(x.shape[0]):
        a = f1[r] * inv_m[r]
        dp[r] = v[r]
        dv[r] = a
        p[r] = x[r] + 0.5 * dt * v[r]
        vs[r] = v[r] + 0.5 * dt * a
    for stage in range(3):  # k2, k3, k4 at t + h/2, t + h/2, t + h
        ts = t + (dt if stage == 2 else 0.5 * dt)
        _apply_supports(m, w.p, w.v, ts)
        eval_forces(m, s, w.p, w.v, ts, w.f)
        eval_tethers(s.tether, w.p, w.v, w.f, s.tether_f, 0.0)
        _hold_rollers(m, w.f)
        if stage < 2:
            h_next = dt if stage == 1 else 0.5 * dt
            for r in range(x.shape[0]):
                a = f[r] * inv_m[r]
                dp[r] += 2.0 * vs[r]
                dv[r] += 2.0 * a
                p[r] = x[r] + h_next * vs[r]
                vs[r] = v[r] + h_next * a
        else:  # y ← y + h/6 (k1 + 2 k2 + 2 k3 + k4)
            for r in range(x.shape[0]):
                x[r] += dt / 6.0 * (dp[r] + vs[r])
                v[r] += dt / 6.0 * (dv[r] + f[r] * inv_m[r])
    return power


@njit(**INNER)
def _residual(m, force, lref):
    res = 0.0
    for q in range(force.shape[0]):
        for d in range(3):
            if not m.fixed[q, d]:
                a = abs(force[q, d]) / lref if d == 2 else abs(force[q, d])
                if not a <= res:  # also takes a NaN, which max() would drop
                    res = a
    return res


@njit(**INNER)
def _invert_check(m, pos, tri_on, flag):
    """Whether an active Neo-Hookean triangle is inverted (J ≤ 0) at pos; flag (T,)
    bool is set on each that is. J = det(D_s) det(D_m⁻¹), the ratio of the current area
    to the reference area, signed."""
    any_inverted = False
    for e in range(m.tri_ijk.shape[0]):
        flag[e] = False
        if not (tri_on[e] and m.tri_neo[e]):
            continue
        i = m.tri_ijk[e, 0]
        j = m.tri_ijk[e, 1]
        k = m.tri_ijk[e, 2]
        det_s = (pos[j, 0] - pos[i, 0]) * (pos[k, 1] - pos[i, 1]) - (pos[k, 0] - pos[i, 0]) * (pos[j, 1] - pos[i, 1])
        det_a = m.tri_dm_inv[e, 0, 0] * m.tri_dm_inv[e, 1, 1] - m.tri_dm_inv[e, 0, 1] * m.tri_dm_inv[e, 1, 0]
        if not det_s * det_a > 0.0:  # also takes a NaN
            flag[e] = True
            any_inverted = True
    return any_inverted


MAX_STIFFENINGS = 100  # fictitious masses grow 4× each time: 4^100 ≈ 1e60, then give up


@njit(cache=True, error_model="numpy")  # allocates, so keeps numba's runtime (see KERNEL)
def relax(m, s, fict_inv_mass, t_load, max_iter, ftol, lref):
    """Dynamic relaxation with kinetic damping (seed 001; Cundall, Barnes).

    Leapfrog in fictitious time (Δt = 1) with fictitious masses chosen from the
    stiffness so that every DOF converges at a similar rate; whenever the fictitious
    kinetic energy passes a peak, all velocities are zeroed. Loads are held at their
    values at t_load; tethers act as springs and frictionless contacts (no velocity, so
    no damping and no friction); no physical damping acts. Returns the iterations
    taken; s.status[0] is AT_REST when the largest out-of-balance force fell below ftol
    [N] (the velocities are then zeroed: the state is a static one), INVERTED when the
    start has an inverted Neo-Hookean triangle, NOT_FINITE when a force is not finite.

    A Neo-Hookean triangle's energy W = … − μ ln J has no value at J ≤ 0 and grows
    without bound as J → 0, so its true equilibrium is never inverted; but its stiffness
    also grows without bound, and the fictitious masses (from the stiffness at the
    start) can be too light for a strongly squashed triangle, so that a leapfrog step
    jumps through J = 0 to a mirror image whose forces are finite and balanced. A step
    that inverts one is therefore taken back, the velocities are zeroed, and the nodes
    of that triangle get 4× the fictitious mass (half the step), as often as needed.
    fict_inv_mass: (N, 3) [1/kg], 0 on fixed DOFs; changed in place by that rule.
    """
    pos = s.pos
    vel = s.vel
    n = pos.shape[0]
    still = np.zeros_like(vel)  # damping forces see no velocity
    inverted = np.zeros(m.tri_ijk.shape[0], dtype=np.bool_)
    _apply_supports(m, pos, vel, t_load)
    vel[:, :] = 0.0
    ke_prev = 0.0
    stiffenings = 0
    s.status[0] = RUNNING
    if _invert_check(m, pos, s.tri_on, inverted):
        s.status[0] = INVERTED
        return 0
    for it in range(max_iter):
        eval_forces(m, s, pos, still, t_load, s.force)
        eval_tethers(s.tether, pos, still, s.force, s.tether_f, 1.0)
        _hold_rollers(m, s.force)
        res = _residual(m, s.force, lref)
        s.clock[K_RESIDUAL] = res
        if not math.isfinite(res):
            s.status[0] = NOT_FINITE
            return it
        if res <= ftol:
            s.status[0] = AT_REST
            vel[:, :] = 0.0
            return it
        ke = 0.0
        for q in range(n):
            for d in range(3):
                vel[q, d] += s.force[q, d] * fict_inv_mass[q, d]
                if fict_inv_mass[q, d] > 0.0:
                    ke += vel[q, d] * vel[q, d] / fict_inv_mass[q, d]
        if ke < ke_prev:
            # Kinetic energy peaked between the last two positions: stop there.
            for q in range(n):
                for d in range(3):
                    vel[q, d] = 0.0
            ke = 0.0
        for q in range(n):
            for d in range(3):
                pos[q, d] += vel[q, d]
        if _invert_check(m, pos, s.tri_on, inverted):
            stiffenings += 1
            if stiffenings > MAX_STIFFENINGS:
                s.status[0] = NOT_FINITE
                return it + 1
            for q in range(n):
                for d in range(3):
                    pos[q, d] -= vel[q, d]
                    vel[q, d] = 0.0
            for e in range(inverted.shape[0]):
                if inverted[e]:
                    for c in range(3):
                        q = m.tri_ijk[e, c]
                        fict_inv_mass[q, 0] *= 0.25
                        fict_inv_mass[q, 1] *= 0.25
            ke = 0.0
        _update_chords(m, pos, s.chord)
        ke_prev = ke
    vel[:, :] = 0.0
    return max_iter
