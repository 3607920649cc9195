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

What a record may name is written once, here (SPECS, WHOLE: the record grammar): the
`simulate --record` of the command line (docs/cli.md, "Record specs") and the game's
graphs (game/app/widgets/graphs.py, which says how to show each) read it, and
`make_probe` reads each spec it allows from a simulation.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from equilibria.engine.dynamics import K_TIME, State
from equilibria.engine.linear import nodal_loads
from equilibria.engine.results import RECORDED, member_reader

# ------------------------------------------------------------------ the record grammar
# A spec names one quantity: one of WHOLE, or PART.ID.QUANTITY with ID a node's, member's
# or triangle's id (dots allowed: the quantity is the last part) and QUANTITY one of its
# part's below. Each with the SI unit it is recorded in.
WHOLE = {"time": "s", "energy.kinetic": "J", "energy.strain": "J"}
SPECS: dict[str, dict[str, str]] = {
    # position (x, y, rot), displacement and rotation from the start (dx, dy, drot), velocity
    "node": {"x": "m", "y": "m", "rot": "rad", "dx": "m", "dy": "m", "drot": "rad", "vx": "m/s", "vy": "m/s", "vrot": "rad/s"},
    # a member's axial force (tension positive), shear at end i, end moments (engine/results.py)
    "member": dict(zip(RECORDED, ("N", "N", "N m", "N m"), strict=True)),
    # what a support applies to the structure; at a contact also its normal and friction force
    "reaction": {"fx": "N", "fy": "N", "m": "N m", "normal": "N", "friction": "N"},
    # the point loads at a node now, their histories followed (no gravity)
    "load": {"fx": "N", "fy": "N", "m": "N m"},
    # a triangle's stresses in x-y axes
    "triangle": {"sx": "Pa", "sy": "Pa", "txy": "Pa"},
}


class Spec(NamedTuple):
    """A record spec read: its part ("time", "energy" or a key of SPECS), the id ("" for
    time and energy), the quantity and its SI unit."""

    part: str
    ident: str
    what: str
    unit: str


def parse(spec: str) -> Spec:
    """A spec read by the grammar; ValueError says what is wrong. Ids are checked only
    against a model (make_probe)."""
    if spec in WHOLE:
        part, _, what = spec.rpartition(".")
        return Spec(part or spec, "", what, WHOLE[spec])
    parts = spec.split(".")
    if len(parts) < 3 or parts[0] not in SPECS:
        said = f"expected {', '.join(WHOLE)} or KIND.ID.QUANTITY with KIND one of {', '.join(SPECS)}, e.g. node.B.y"
        raise ValueError(f"record spec {spec!r}: {said}")
    part, ident, what = parts[0], ".".join(parts[1:-1]), parts[-1]
    if what not in SPECS[part]:
        raise ValueError(f"record spec {spec!r}: unknown quantity {what!r} (a {part} has {', '.join(SPECS[part])})")
    return Spec(part, ident, what, SPECS[part][what])


def make_probe(sim, spec: str) -> Callable[[], float]:
    """A function reading the quantity `spec` (the grammar above) from `sim`
    (engine/simulation.py's Simulation) as it is when called; ValueError names what is
    wrong (a spec the grammar refuses, an id the model does not have, a contact's force
    at a node without one)."""
    read = parse(spec)
    if read.part == "time":
        return lambda: sim.time
    if read.part == "energy":
        return sim.kinetic_energy if read.what == "kinetic" else sim.strain_energy
    ids = sim.model.triangle_ids if read.part == "triangle" else sim.model.member_ids if read.part == "member" else sim.model.node_ids
    if read.ident not in ids:
        whose = {"member": "member", "triangle": "triangle"}.get(read.part, "node")
        raise ValueError(f"record spec {spec!r}: unknown {whose} {read.ident!r}")
    return _PROBES[read.part](sim, ids.index(read.ident), read.what, spec)


def _node(sim, q: int, what: str, spec: str) -> Callable[[], float]:
    s, d = sim.state, ("x", "y", "rot").index(what.removeprefix("d").removeprefix("v"))
    if what.startswith("v"):
        return lambda: float(s.vel[q, d])
    if what.startswith("d"):
        start = sim.model.arrays.pos0
        return lambda: float(s.pos[q, d] - start[q, d])
    return lambda: float(s.pos[q, d])


def _member(sim, k: int, what: str, spec: str) -> Callable[[], float]:
    return member_reader(sim.model, sim.state, k, what)


def _reaction(sim, q: int, what: str, spec: str) -> Callable[[], float]:
    if what in ("normal", "friction"):
        rows = [r for r, contact in enumerate(sim.model.contacts) if contact[0] == q]
        if not rows:
            raise ValueError(f"record spec {spec!r}: node {sim.model.node_ids[q]!r} rests on no contact, which alone has a {what} force")
        c = 2 if what == "normal" else 3
        return lambda: float(sim.contact_forces()[rows[0], c])
    c = ("fx", "fy", "m").index(what)
    return lambda: float(sim.support_forces()[q, c])


def _load(sim, q: int, what: str, spec: str) -> Callable[[], float]:
    c = ("fx", "fy", "m").index(what)
    return lambda: float(nodal_loads(sim.model, sim.time)[q, c])


def _triangle(sim, k: int, what: str, spec: str) -> Callable[[], float]:
    out, c = sim.state.tri_out, ("sx", "sy", "txy").index(what)
    return lambda: float(out[k, c])


# Each part's reader (a key of SPECS each).
_PROBES: dict[str, Callable[[object, int, str, str], Callable[[], float]]] = {
    "node": _node,
    "member": _member,
    "reaction": _reaction,
    "load": _load,
    "triangle": _triangle,
}

# ------------------------------------------------------------------ records in time

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
