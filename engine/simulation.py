"""A running simulation: a Model, its State, an integrator, and the checks around it.

The compiled kernels advance whole batches of steps; this class picks the step, keeps
the last good state, rolls back and explains when a batch blows up, decides when the
structure is at rest, and reports results keyed by the model's ids.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine import dynamics, linear
from engine.dynamics import State, new_state, new_work
from engine.elements import eval_forces, strain_energy
from engine.model import Model

INTEGRATORS = ("rk4", "symplectic", "relax", "linear")


@dataclass(frozen=True)
class RestCriteria:
    """When a structure counts as at rest: all three held for `hold` seconds.

    speed: largest node speed as a fraction of the structure's size per second
        (1e-4: 1 mm/s for a 10 m structure);
    residual: largest out-of-balance force as a fraction of the largest applied force;
    the kinetic-energy bound is ½ M_total (speed tolerance)², M_total the total mass.
    """

    speed: float = 1e-4
    residual: float = 1e-3
    hold: float = 0.5


class Unstable(RuntimeError):
    """The state blew up (non-finite or runaway energy); it was rolled back."""


@dataclass(frozen=True)
class Outcome:
    steps: int
    at_rest: bool


class Simulation:
    def __init__(self, model: Model, integrator: str = "rk4", dt: float | None = None, rest: RestCriteria | None = None):
        if integrator not in INTEGRATORS:
            raise ValueError(f"integrator must be one of {', '.join(INTEGRATORS)}")
        self.model = model
        self.integrator = integrator
        m = model.arrays
        self.state: State = new_state(m)
        self.work = new_work(model.n_nodes)
        self.dt = dt if dt is not None else stable_dt_for(model, integrator)
        self.rest = rest or RestCriteria()
        self.ctl = np.zeros(7)
        self.linear_reactions: np.ndarray | None = None
        self.mechanism: linear.Mechanism | None = None
        self.refresh()

    # ------------------------------------------------------------------ state views
    @property
    def time(self) -> float:
        return float(self.state.clock[dynamics.K_TIME])

    @property
    def breakable(self) -> bool:
        """Whether any member can break (has a finite capacity)."""
        m = self.model.arrays
        return any(bool(np.isfinite(c).any()) for c in (m.bar_cap_t, m.bar_cap_c, m.beam_cap_t, m.beam_cap_c))

    @property
    def rest_time(self) -> float:
        return float(self.state.clock[dynamics.K_REST])

    def refresh(self) -> None:
        """Evaluate element forces at the current state (for reporting and drawing)."""
        s = self.state
        eval_forces(self.model.arrays, s.pos, s.vel, self.time, s.chord, s.bar_on, s.beam_on, s.tri_on, s.force, s.bar_N, s.beam_out, s.tri_out)

    def kinetic_energy(self) -> float:
        return float(0.5 * np.sum(self.model.arrays.mass * self.state.vel**2))

    def strain_energy(self) -> float:
        s = self.state
        return strain_energy(self.model.arrays, s.pos, s.chord, s.bar_on, s.beam_on, s.tri_out)

    def reference_force(self) -> float:
        """The force scale of the rest test [N]: the largest applied force or support
        reaction now (a settling support loads a structure with no load on it);
        moments count as force over the structure's size."""
        f = np.abs(linear.load_vector(self.model, self.time))
        r = np.abs(self.reactions())
        f[:, 2] /= self.model.char_length
        r[:, 2] /= self.model.char_length
        return max(float(f.max(initial=0.0)), float(r.max(initial=0.0)), 1e-9)

    def reactions(self) -> np.ndarray:
        """Support reactions (N, 3) [N, N, N m]: what the supports push with."""
        if self.linear_reactions is not None:
            return self.linear_reactions
        r = -self.state.force.copy()
        r[~self.model.arrays.fixed] = 0.0
        return r

    # ------------------------------------------------------------------ stepping
    def _set_controls(self, stop_at_rest: bool) -> None:
        lc = self.model.char_length
        vtol = self.rest.speed * lc
        total_mass = float(self.model.arrays.mass[:, 0].sum())
        self.ctl[:] = (
            vtol,
            self.rest.residual * self.reference_force(),
            0.5 * total_mass * vtol * vtol,
            self.rest.hold,
            1.0 if stop_at_rest else 0.0,
            1.0 if self.breakable else 0.0,
            lc,
        )

    def advance(self, seconds: float, until_rest: bool = False, batch_seconds: float = 0.05) -> Outcome:
        """Advance by `seconds` of simulated time (rk4 or symplectic), in batches.

        Each batch is one compiled call. A batch that blows up is rolled back and
        Unstable is raised with the explanation; the state is the last good one.
        """
        if self.integrator not in ("rk4", "symplectic"):
            raise ValueError(f"advance() needs a time integrator, not {self.integrator}")
        method = dynamics.RK4 if self.integrator == "rk4" else dynamics.SYMPLECTIC
        total = max(round(seconds / self.dt), 0)
        per_batch = max(1, int(batch_seconds / self.dt))
        done = 0
        energy = self.kinetic_energy() + self.strain_energy()
        while done < total:
            self._set_controls(until_rest)
            good = self.state.copy()
            n = dynamics.advance(self.model.arrays, self.state, self.work, self.dt, min(per_batch, total - done), method, self.ctl)
            done += n
            status = int(self.state.status[0])
            work = float(self.state.clock[dynamics.K_WORK] - good.clock[dynamics.K_WORK])
            problem, energy = self._blow_up(status, energy, work)
            if problem:
                self.state.restore(good)
                self.refresh()
                raise Unstable(problem)
            if status == dynamics.AT_REST:
                self.refresh()
                return Outcome(done, True)
        self.refresh()
        return Outcome(done, self.rest_time >= self.rest.hold)

    def _blow_up(self, status: int, energy_before: float, work: float) -> tuple[str | None, float]:
        """Why the last batch is not to be trusted (or None), and the energy after it.

        Energy can only grow by the work done on the structure; a batch that ends with
        more than 3 × (energy before + work) plus a small floor has gone numerically
        unstable (such growth is exponential, so the margin costs at most a few steps).
        """
        energy = math.nan
        if status == dynamics.NOT_FINITE:
            cause = "the state became non-finite (NaN or infinity)"
        else:
            self.refresh()
            energy = self.kinetic_energy() + self.strain_energy()
            budget = 3.0 * (energy_before + max(work, 0.0)) + 1e-3 * self.reference_force() * self.model.char_length
            if energy <= budget:
                return None, energy
            if math.isfinite(energy):
                cause = f"its energy grew from {energy_before:.3g} J to {energy:.3g} J with {max(work, 0.0):.3g} J of work done on it"
            else:
                cause = "the state became non-finite (NaN or infinity)"
        kind, row, omega = linear.stiffest_element(self.model)
        name = self.element_name(kind, row)
        safe = stable_dt_for(self.model, self.integrator)
        return (
            f"unstable near t = {self.time:.4g} s: {cause}; the stiffest element is {name} "
            f"(about {omega / (2 * math.pi):.3g} Hz); a step of {safe:.3g} s or less is stable, "
            f"the step was {self.dt:.3g} s; rolled back to the last good state"
        ), energy

    def element_name(self, kind: str, row: int) -> str:
        if kind == "triangle":
            return f"triangle {self.model.triangle_ids[row]!r}"
        slot = self.model.member_slot.index((kind, row))
        return f"member {self.model.member_ids[slot]!r}"

    def relax(self, max_iter: int = 1_000_000, tol: float = 1e-8) -> Outcome:
        """Jump to static equilibrium under the final loads (dynamic relaxation)."""
        m = self.model.arrays
        t_load = self.model.load_end_time
        with np.errstate(divide="ignore", invalid="ignore"):  # coincident nodes: NaN, caught below
            K = linear.stiffness(self.model, self.state.pos, (self.state.bar_on, self.state.beam_on, self.state.tri_on))
            rows = np.asarray(abs(K).sum(axis=1)).ravel().reshape(-1, 3)
        # Fictitious masses from Gershgorin row sums (ω² ≤ Σ|K_ij| / m_i, so leapfrog at
        # Δt = 1 is stable). A node's x and y share one mass, the sum of both rows, so
        # the bound holds however the elements turn: a beam's axial stiffness, once on
        # x only, reaches y as it rotates.
        rows[:, :2] = rows[:, :2].sum(axis=1, keepdims=True)
        fill = rows[rows > 0].mean() if (rows > 0).any() else 1.0
        fict = 0.6 * np.where(rows > 0, rows, fill)
        inv = np.where(m.fixed, 0.0, 1.0 / fict)
        self.state.clock[dynamics.K_TIME] = t_load
        ftol = tol * self.reference_force()
        good = self.state.copy()
        iters = dynamics.relax(m, self.state, inv, t_load, max_iter, ftol, self.model.char_length)
        if int(self.state.status[0]) == dynamics.NOT_FINITE:
            self.state.restore(good)
            self.refresh()
            raise Unstable("relaxation diverged (non-finite state); rolled back")
        self.refresh()
        return Outcome(iters, int(self.state.status[0]) == dynamics.AT_REST)

    def solve_linear(self) -> Outcome:
        """The direct stiffness answer; a mechanism is kept in self.mechanism."""
        result = linear.solve_linear(self.model)
        self.state.clock[dynamics.K_TIME] = self.model.load_end_time
        s = self.state
        if result.mechanism is not None:
            self.mechanism = result.mechanism
            self.linear_reactions = result.reactions
            return Outcome(0, False)
        u = result.displacement
        s.pos[:] = self.model.arrays.pos0 + u
        s.vel[:] = 0.0
        s.bar_N[:] = linear.bar_axial_linear(self.model, u)
        s.bar_N[self.model.arrays.bar_cable & (s.bar_N < 0)] = 0.0
        s.beam_out[:] = linear.beam_forces_linear(self.model, u)
        s.tri_out[:, :3] = linear.triangle_stress_linear(self.model, u)
        self.linear_reactions = result.reactions
        return Outcome(1, True)

    # ------------------------------------------------------------------ results
    def results(self) -> dict:
        """Everything the headless contract reports, keyed by the model's ids."""
        s, md = self.state, self.model
        nodes = {
            nid: {"x": float(s.pos[q, 0]), "y": float(s.pos[q, 1]), "rot": float(s.pos[q, 2]), "vx": float(s.vel[q, 0]), "vy": float(s.vel[q, 1])}
            for q, nid in enumerate(md.node_ids)
        }
        members = {}
        for mid, (kind, row) in zip(md.member_ids, md.member_slot, strict=True):
            if kind == "bar":
                members[mid] = {"axial": float(s.bar_N[row]), "shear_i": 0.0, "moment_i": 0.0, "moment_j": 0.0, "broken": bool(s.bar_broke[row] >= 0)}
            else:
                n_, v, m1, m2 = (float(x) for x in s.beam_out[row])
                members[mid] = {"axial": n_, "shear_i": v, "moment_i": m1, "moment_j": m2, "broken": bool(s.beam_broke[row] >= 0)}
        triangles = {tid: {"sx": float(s.tri_out[k, 0]), "sy": float(s.tri_out[k, 1]), "txy": float(s.tri_out[k, 2])} for k, tid in enumerate(md.triangle_ids)}
        r = self.reactions()
        reactions = {md.node_ids[q]: {"fx": float(r[q, 0]), "fy": float(r[q, 1]), "m": float(r[q, 2])} for q in md.support_nodes}
        out = {
            "time": self.time,
            "nodes": nodes,
            "members": members,
            "triangles": triangles,
            "reactions": reactions,
            "energy": {"kinetic": self.kinetic_energy(), "strain": self.strain_energy()},
        }
        if self.mechanism is not None:
            mode = self.mechanism.mode
            out["mechanism"] = {
                "message": self.mechanism.message,
                "mode": {
                    md.node_ids[q]: {"x": float(mode[q, 0]), "y": float(mode[q, 1]), "rot": float(mode[q, 2])}
                    for q in np.flatnonzero(np.abs(mode).max(axis=1) > 1e-9)
                },
            }
        return out

    def value(self, spec: str) -> float:
        """One recorded quantity: node.ID.{x,y,rot,vx,vy,dx,dy}, member.ID.{axial,
        shear_i,moment_i,moment_j}, reaction.ID.{fx,fy,m}, triangle.ID.{sx,sy,txy},
        energy.{kinetic,strain}, time."""
        return make_probe(self, spec)()


def stable_dt_for(model: Model, integrator: str) -> float:
    return linear.stable_dt(model, "rk4" if integrator == "rk4" else "symplectic")


def make_probe(sim: Simulation, spec: str):
    """A function reading the quantity `spec` from sim; ValueError names what is wrong."""
    md, s = sim.model, sim.state
    parts = spec.split(".")
    if spec == "time":
        return lambda: sim.time
    if len(parts) == 2 and parts[0] == "energy" and parts[1] in ("kinetic", "strain"):
        return sim.kinetic_energy if parts[1] == "kinetic" else sim.strain_energy
    if len(parts) < 3:
        raise ValueError(f"record spec {spec!r}: expected KIND.ID.QUANTITY, e.g. node.B.y")
    kind, ident, what = parts[0], ".".join(parts[1:-1]), parts[-1]
    if kind == "node":
        if ident not in md.node_ids:
            raise ValueError(f"record spec {spec!r}: unknown node {ident!r}")
        q = md.node_index(ident)
        cols = {"x": (s.pos, 0), "y": (s.pos, 1), "rot": (s.pos, 2), "vx": (s.vel, 0), "vy": (s.vel, 1)}
        if what in cols:
            arr, d = cols[what]
            return lambda: float(arr[q, d])
        if what in ("dx", "dy"):
            d = 0 if what == "dx" else 1
            return lambda: float(s.pos[q, d] - md.arrays.pos0[q, d])
    elif kind == "member":
        if ident not in md.member_ids:
            raise ValueError(f"record spec {spec!r}: unknown member {ident!r}")
        slot, row = md.member_slot[md.member_index(ident)]
        cols = {"axial": 0, "shear_i": 1, "moment_i": 2, "moment_j": 3}
        if what in cols:
            if slot == "bar":
                return (lambda: float(s.bar_N[row])) if what == "axial" else (lambda: 0.0)
            c = cols[what]
            return lambda: float(s.beam_out[row, c])
    elif kind == "reaction":
        if ident not in md.node_ids:
            raise ValueError(f"record spec {spec!r}: unknown node {ident!r}")
        q = md.node_index(ident)
        cols = {"fx": 0, "fy": 1, "m": 2}
        if what in cols:
            c = cols[what]
            return lambda: float(sim.reactions()[q, c])
    elif kind == "triangle":
        if ident not in md.triangle_ids:
            raise ValueError(f"record spec {spec!r}: unknown triangle {ident!r}")
        k = md.triangle_ids.index(ident)
        cols = {"sx": 0, "sy": 1, "txy": 2}
        if what in cols:
            c = cols[what]
            return lambda: float(s.tri_out[k, c])
    else:
        raise ValueError(f"record spec {spec!r}: kind must be node, member, reaction, triangle or energy")
    raise ValueError(f"record spec {spec!r}: unknown quantity {what!r}")
