"""Records of a run in time, sampled at exact times between the integrator's steps.

A record time t rarely falls on a step. Between the steps at t0 and t1 = t0 + h the
state is rebuilt at t by cubic Hermite interpolation, the cubic that matches the
positions and velocities at both ends (and, for the velocities, the velocities and the
accelerations F/m at both ends):
    x(t) = h00 x0 + h10 h v0 + h01 x1 + h11 h v1,   s = (t − t0)/h,
    h00 = 2s³ − 3s² + 1, h10 = s³ − 2s² + s, h01 = −2s³ + 3s², h11 = s³ − s²,
whose error is h⁴ x''''/384 at most: the order of RK4's own error per step, where the
straight line between the steps erred by h² x''/8. Held DOFs with a prescribed motion
take the cubic's derivative for their velocity (no acceleration of theirs is known).
Every recorded quantity (member forces, reactions, energies) is then read from the
rebuilt state, so all of them are as accurate as the positions.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from equilibria.engine.dynamics import K_TIME, State

Sampler = Callable[[float, list[float]], None]  # called with a record time [s] and the probes' values there


def record_run(sim, probes: list[Callable[[], float]], every: float, span: float, until_rest: bool, sample: Sampler) -> tuple[int, bool]:
    """Advance `sim` (rk4, symplectic or newmark) by `span` seconds (until_rest: at most,
    stopping at rest), calling sample(t, values) at t = 0, every, 2·every, … exactly
    (the step need not divide `every`), and once more at the end of the run when that
    falls between two record times. Returns (steps, at rest)."""
    total = max(round(span / sim.dt), 0)
    if not probes:  # nothing to sample: one call, which batches its steps and watches for rest itself
        outcome = sim.advance(total * sim.dt, until_rest=until_rest)
        return outcome.steps, bool(outcome.at_rest)
    slack = 1e-6 * sim.dt  # the clock is a sum of steps: its round-off is far below this
    steps, stopped, k = 0, False, 1
    before = after = sim.state.copy()  # the states on either side of the next record time
    sample(sim.time, [p() for p in probes])
    sampled = sim.time
    while True:
        t_k = k * every
        while after.clock[K_TIME] < t_k - slack and steps < total and not stopped:
            to_go = math.ceil((t_k - after.clock[K_TIME]) / sim.dt - 1e-6)  # steps to reach t_k
            n = min(total - steps, max(to_go - 1, 1))  # to the step before t_k, then one more
            outcome = sim.advance(n * sim.dt, until_rest=until_rest)
            steps += outcome.steps
            before, after = after, sim.state.copy()
            stopped = until_rest and outcome.at_rest
        if after.clock[K_TIME] < t_k - slack:
            break
        sample(t_k, _values_at(sim, probes, before, after, t_k))
        sampled, k = t_k, k + 1
    if sim.time > sampled + slack:
        sample(sim.time, [p() for p in probes])
    return steps, bool(stopped or sim.rest_time >= sim.rest.hold)


def _values_at(sim, probes: list[Callable[[], float]], before: State, after: State, t: float) -> list[float]:
    """The probes read at time t from the state rebuilt between `before` and `after`
    (module note); sim's state is left as `after`."""
    t0, t1 = float(before.clock[K_TIME]), float(after.clock[K_TIME])
    if t1 - t0 <= 0.0 or t >= t1:
        return [p() for p in probes]
    inv_mass = sim.model.arrays.inv_mass
    between = before.copy()
    between.pos[:], between.vel[:] = hermite(t0, t1, t, before, after, inv_mass)
    between.clock[K_TIME] = t
    sim.state.restore(between)
    sim.refresh()
    values = [p() for p in probes]
    sim.state.restore(after)
    return values


def hermite(t0: float, t1: float, t: float, a: State, b: State, inv_mass: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pos, vel) (N, 3) at t in [t0, t1] from the states a (at t0) and b (at t1), whose
    `force` arrays were evaluated at their positions (module note); inv_mass (N, 3)
    [1/kg], 0 on held DOFs."""
    h = t1 - t0
    s = (t - t0) / h
    h00, h10, h01, h11 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s, -2 * s**3 + 3 * s**2, s**3 - s**2
    pos = h00 * a.pos + h10 * h * a.vel + h01 * b.pos + h11 * h * b.vel
    d00, d10, d01, d11 = 6 * s**2 - 6 * s, 3 * s**2 - 4 * s + 1, -6 * s**2 + 6 * s, 3 * s**2 - 2 * s  # d/ds of the four
    slope = (d00 * a.pos + d01 * b.pos) / h + d10 * a.vel + d11 * b.vel
    moving = h00 * a.vel + h10 * h * a.force * inv_mass + h01 * b.vel + h11 * h * b.force * inv_mass
    return pos, np.where(inv_mass > 0.0, moving, slope)
