"""A running simulation: a Model, its State, an integrator, and the checks around it.

The compiled kernels advance whole batches of steps; this class picks the step, keeps
the last good state, rolls back and explains when a batch blows up, decides when the
structure is at rest, and reports results keyed by the model's ids.

It also takes the game's actions on a running structure (seed 003, seed 000): tethers
(the hand's spring, ground contact; engine/tethers.py), nails that pin a node where it
is, and the bomb that switches an element off, from its mixin engine/interaction.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from equilibria.engine import dynamics, linear, newmark, results, rollers, tethers
from equilibria.engine.dynamics import State, new_state, new_work
from equilibria.engine.elements.kernels import eval_forces, strain_energy
from equilibria.engine.interaction import Controls, Interaction
from equilibria.engine.member_loads import end_moments, largest_moments
from equilibria.engine.model import Model
from equilibria.engine.records import make_probe
from equilibria.engine.results import member_results
from equilibria.engine.tethers import eval_tethers
from equilibria.engine.words import N_, Whole, Words, short

INTEGRATORS = ("rk4", "symplectic", "newmark", "relax", "linear")
MEMBER_KEYS = ("axial", "shear_i", "moment_i", "moment_j", "broken", "moment_max")  # results()["members"][id]


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
    """The state blew up (non-finite or runaway energy); it was rolled back. `words` says
    why (engine/words.py): str() in English, `words.said(_)` in the player's language."""

    def __init__(self, words: Words):
        super().__init__(str(words))
        self.words = words


@dataclass(frozen=True)
class Outcome:
    steps: int
    at_rest: bool


class Simulation(Interaction):
    """A Model, its State and an integrator (module note); the game's actions on the
    running structure come from Interaction (engine/interaction.py)."""

    def __init__(self, model: Model, integrator: str = "rk4", dt: float | None = None, rest: RestCriteria | None = None, hht_alpha: float = 0.0):
        """hht_alpha: the HHT-α of "newmark" (engine/newmark.py), in [−1/3, 0]; 0 is the
        average acceleration rule."""
        if integrator not in INTEGRATORS:
            raise ValueError(f"integrator must be one of {', '.join(INTEGRATORS)}")
        self.implicit = newmark.Newmark(hht_alpha) if integrator == "newmark" else None
        self.level = model  # the Model as built; `model` is as it runs (engine/interaction.py)
        self._running: Model | None = None
        self.controls = Controls(model.arrays.fixed.copy())
        self.integrator = integrator
        m = model.arrays
        self.state: State = new_state(m)
        if model.vel0 is not None:  # the nodes' initial velocities (a free vibration needs no load pulse)
            self.state.vel[:] = model.vel0
        self.work = new_work(model.n_nodes)
        self.dt = dt if dt is not None else stable_dt_for(model, integrator)
        self.rest = rest or RestCriteria()
        self.ctl = np.zeros(7)
        self.linear_reactions: np.ndarray | None = None
        self.mechanism: linear.Mechanism | None = None
        self.no_equilibrium: str | None = None  # why relax or linear found no static answer (then it gave none)
        self._node_rows: np.ndarray | None = None  # Gershgorin rows per node, see tether_stiffness
        self._install_contacts()  # supports[].contact: friction contacts (engine/tethers.py)
        self.refresh()

    def use(self, integrator: str, dt: float | None = None, hht_alpha: float = 0.0) -> None:
        """Go on with another time integrator ("rk4", "symplectic" or "newmark") and step
        (dt None: its default, stable_dt_for): the state, the nails and the tethers carry
        over as they are; the tethers' stiffness is the caller's to set anew for the new
        step (tether_stiffness)."""
        if integrator not in ("rk4", "symplectic", "newmark"):
            raise ValueError(f"use() needs a time integrator, not {integrator}")
        self.implicit = newmark.Newmark(hht_alpha) if integrator == "newmark" else None
        self.integrator = integrator
        self.dt = dt if dt is not None else stable_dt_for(self.level, integrator)  # nails may be pulled later
        self.state.clock[dynamics.K_REST] = 0.0
        self._stiffen_contacts()  # the level's contact supports: stiffness for the new step

    @property
    def model(self) -> Model:
        """The Model as it runs: the level's with the controls applied (Controls.applied),
        made anew only when a control changed."""
        if self._running is None:
            self._running = self.controls.applied(self.level)
        return self._running

    @model.setter
    def model(self, model: Model) -> None:
        """Run another Model (the same nodes and elements) from now on, as the level's."""
        self.level = model
        self._running = None

    # ------------------------------------------------------------------ state views
    @property
    def time(self) -> float:
        return float(self.state.clock[dynamics.K_TIME])

    @property
    def breakable(self) -> bool:
        """Whether any member can break (has a finite capacity)."""
        return results.breakable(self.model.arrays)

    @property
    def rest_time(self) -> float:
        return float(self.state.clock[dynamics.K_REST])

    def refresh(self) -> None:
        """Evaluate element and tether forces at the current state (for reporting and
        drawing)."""
        s = self.state
        eval_forces(self.model.arrays, s, s.pos, s.vel, self.time, s.force)
        eval_tethers(s.tether, s.pos, s.vel, s.force, s.tether_f, 1.0)

    def kinetic_energy(self) -> float:
        return float(0.5 * np.sum(self.model.arrays.mass * self.state.vel**2))

    def strain_energy(self) -> float:
        s = self.state
        return strain_energy(self.model.arrays, s)

    def _energy(self) -> float:
        """Kinetic, strain and tether energy [J]: what the blow-up check watches (see
        engine/tethers.py for why the tethers' springs are counted here)."""
        return self.kinetic_energy() + self.strain_energy() + tethers.tether_energy(self.state.tether, self.state.pos)

    def reference_force(self) -> float:
        """The force scale of the rest test [N]: the largest applied force, tether force
        (hand, ground) or support reaction now (a settling support loads a structure
        with no load on it); moments count as force over the structure's size."""
        f = np.abs(linear.load_vector(self.model, self.time))
        r = np.abs(self.reactions())
        f[:, 2] /= self.model.char_length
        r[:, 2] /= self.model.char_length
        t = np.hypot(self.state.tether_f[:, 0], self.state.tether_f[:, 1])
        return max(float(f.max(initial=0.0)), float(r.max(initial=0.0)), float(t.max(initial=0.0)), 1e-9)

    def reactions(self) -> np.ndarray:
        """Support reactions (N, 3) [N, N, N m]: what the supports push with."""
        if self.linear_reactions is not None:
            return self.linear_reactions
        m = self.model.arrays
        r = -self.state.force.copy()
        r[~m.fixed] = 0.0
        if len(m.roller_node):
            r += self._roller_reactions()
        return r

    def _roller_reactions(self) -> np.ndarray:
        """(N, 3) [N]: what the rollers push with now, −(f·n) n with f the force on their
        nodes before the rollers take their part (engine/rollers.py), evaluated afresh
        on scratch arrays (the state's force has lost it)."""
        s, m = self.state, self.model.arrays
        f = np.zeros_like(s.force)
        eval_forces(m, s.copy(), s.pos, s.vel, self.time, f)
        eval_tethers(s.tether, s.pos, s.vel, f, s.tether_f.copy(), 1.0)
        return rollers.roller_reactions(m, f)

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
        """Advance by `seconds` of simulated time (rk4 or symplectic in batches; newmark
        through engine/newmark.py).

        Each batch is one compiled call. A batch that blows up is rolled back and
        Unstable is raised with the explanation; the state is the last good one.
        """
        if self.implicit is not None:
            return self._advance_implicit(seconds, until_rest)
        if self.integrator not in ("rk4", "symplectic"):
            raise ValueError(f"advance() needs a time integrator, not {self.integrator}")
        method = dynamics.RK4 if self.integrator == "rk4" else dynamics.SYMPLECTIC
        total = max(round(seconds / self.dt), 0)
        per_batch = max(1, int(batch_seconds / self.dt))
        done = 0
        energy = self._energy()
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

    def _advance_implicit(self, seconds: float, until_rest: bool) -> Outcome:
        """Newmark (engine/newmark.py): a step Newton cannot take even cut to 1/64 rolls
        the run back to where this call started and raises Unstable."""
        try:
            steps, at_rest = self.implicit.advance(self, seconds, until_rest)
        except newmark.NewmarkFailed as exc:
            self.refresh()
            said = N_(
                "unstable near t = {time} s: a part moved too fast to follow (a light member whipped round, or a joint"
                " pulled through another); rolled back to t = {time} s, where this run started"
            )
            raise Unstable(Words(said, {"time": f"{self.time:.4g}"})) from exc  # the step sizes tried: the exception's, not a student's
        self.refresh()
        return Outcome(steps, at_rest)

    def _blow_up(self, status: int, energy_before: float, work: float) -> tuple[Words | None, float]:
        """Why the last batch is not to be trusted (or None), and the energy after it.

        Energy (kinetic, strain, and the tethers' springs) can only grow by the work
        done on the structure; a batch that ends with more than 3 × (energy before +
        work) plus a small floor has gone numerically unstable (such growth is
        exponential, so the margin costs at most a few steps).
        """
        energy = math.nan
        if status == dynamics.NOT_FINITE:
            cause = Words(N_("the state became non-finite (NaN or infinity)"))
        else:
            self.refresh()
            energy = self._energy()
            budget = 3.0 * (energy_before + max(work, 0.0)) + 1e-3 * self.reference_force() * self.model.char_length
            if energy <= budget:
                return None, energy
            inverted = self._inverted_triangles()
            if math.isfinite(energy):
                said = N_("its energy grew from {before} J to {after} J with {work} J of work done on it")
                cause = Words(said, {"before": f"{energy_before:.3g}", "after": f"{energy:.3g}", "work": f"{max(work, 0.0):.3g}"})
            elif len(inverted):
                names = ", ".join(repr(self.model.triangle_ids[e]) for e in inverted)
                cause = Words(N_("Neo-Hookean triangle {names} turned inside out (its energy has no value there)"), {"names": names})
            else:
                cause = Words(N_("the state became non-finite (NaN or infinity)"))
        kind, row, omega = linear.stiffest_element(self.model)
        stiffest = f"the stiffest element is {self.element_name(kind, row)} (about {omega / (2 * math.pi):.3g} Hz); " if omega > 0 else ""
        safe = stable_dt_for(self.model, self.integrator)
        held = " (tethers too stiff for the step? see tether_stiffness)" if len(self.state.tether) else ""
        if self.dt > safe:
            step = f"a step of {safe:.3g} s or less is stable for the structure as built{held}, the step was {self.dt:.3g} s"
        else:  # never call the step that failed a stable one
            step = f"the step, {self.dt:.3g} s, is within the {safe:.3g} s estimated stable for the structure as built, so it grew stiffer as it moved{held}"
        # The cause is a student's (translated where shown); the step's figures are for whoever tunes the engine (kept in English).
        said = N_("unstable near t = {time} s: {cause}; {details}; rolled back to the last good state")
        return Words(said, {"time": f"{self.time:.4g}", "cause": cause, "details": Whole(f"{stiffest}{step}")}), energy

    def element_name(self, kind: str, row: int) -> str:
        if kind == "triangle":
            return f"triangle {short(repr(self.model.triangle_ids[row]))}"
        slot = self.model.member_slot.index((kind, row))
        return f"member {short(repr(self.model.member_ids[slot]))}"

    def relax(self, max_iter: int = 1_000_000, tol: float = 1e-8) -> Outcome:
        """Jump to static equilibrium under the final loads (dynamic relaxation).

        At rest when the largest out-of-balance force is below tol × reference_force(),
        or below the round-off floor of the internal forces if that is larger (see
        roundoff_floor). Tethers act as springs and frictionless contacts. Unstable (the
        state rolled back) when relaxation diverges or starts from an inverted
        Neo-Hookean triangle."""
        m = self.model.arrays
        t_load = self.model.load_end_time
        self.no_equilibrium = None
        with np.errstate(divide="ignore", invalid="ignore"):  # coincident nodes: NaN, caught below
            K = linear.stiffness(self.model, self.state.pos, results.on_flags(self.model.arrays, self.state))
            rows = np.asarray(abs(K).sum(axis=1)).ravel().reshape(-1, 3)
        # Fictitious masses from Gershgorin row sums (ω² ≤ Σ|K_ij| / m_i, so leapfrog at
        # Δt = 1 is stable). A node's x and y share one mass, the sum of both rows, so
        # the bound holds however the elements turn: a beam's axial stiffness, once on
        # x only, reaches y as it rotates. A tether adds at most 2k to that sum.
        rows[:, :2] = rows[:, :2].sum(axis=1, keepdims=True)
        tether = self.state.tether
        np.add.at(rows[:, 0], tether[:, 0].astype(np.int64), 2.0 * tether[:, tethers.T_K])
        rows[:, 1] = rows[:, 0]
        fill = rows[rows > 0].mean() if (rows > 0).any() else 1.0
        fict = 0.6 * np.where(rows > 0, rows, fill)
        inv = np.where(m.fixed, 0.0, 1.0 / fict)
        self.state.clock[dynamics.K_TIME] = t_load
        ftol = max(tol * self.reference_force(), self.roundoff_floor(K))
        good = self.state.copy()
        iters = dynamics.relax(m, self.state, inv, t_load, max_iter, ftol, self.model.char_length)
        status = int(self.state.status[0])
        if status in (dynamics.NOT_FINITE, dynamics.INVERTED):
            self.state.restore(good)
            self.refresh()
            if status == dynamics.INVERTED:
                names = ", ".join(repr(self.model.triangle_ids[e]) for e in self._inverted_triangles())
                said = N_("relaxation is unstable from here: Neo-Hookean triangle {names} is inverted (its energy has no value there); rolled back")
                raise Unstable(Words(said, {"names": names}))
            raise Unstable(Words(N_("relaxation diverged (non-finite state); rolled back")))
        self.refresh()
        if status != dynamics.AT_REST:
            self.no_equilibrium = self._still_moving(iters)
        return Outcome(iters, status == dynamics.AT_REST)

    def _still_moving(self, iters: int) -> str:
        """Why relaxation stopped short of an equilibrium, in one line: the force still
        out of balance and the node that went furthest."""
        moved = np.hypot(*(self.state.pos[:, :2] - self.model.arrays.pos0[:, :2]).T)
        far = int(np.argmax(moved)) if moved.size else 0
        out_of_balance = float(self.state.clock[dynamics.K_RESIDUAL])
        where = f"; node {self.model.node_ids[far]} went {_plain(moved[far])} m from where it started" if moved.size else ""
        return f"no equilibrium found: after {iters:,} relaxation steps a force of {_plain(out_of_balance)} N is still out of balance{where}"

    def _inverted_triangles(self) -> np.ndarray:
        """Rows of the active Neo-Hookean triangles turned inside out (J ≤ 0) now."""
        m, s = self.model.arrays, self.state
        p = s.pos[m.tri_ijk.astype(np.int64), :2]  # (T, 3, 2)
        a, b = p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]
        j = (a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]) * np.linalg.det(m.tri_dm_inv) if len(p) else np.zeros(0)
        return np.flatnonzero(m.tri_neo & s.tri_on & ~(j > 0))

    def roundoff_floor(self, K=None) -> float:
        """The smallest residual [N] that round-off lets the rest test ask for.

        A position is only held to within its last bit, ε|x| (ε = 2.2e-16), so no
        position can be closer to equilibrium than that: moving every DOF by its own
        round-off δx changes DOF i's force by up to Σ_j |K_ij| δx_j. Translations are
        taken as ε (|x|max + ℓ) (the coordinates, plus the round-off of lengths and
        differences of the size ℓ), rotations as ε (|θ|max + 2π). The sum takes every
        rounding at its worst and in the same direction: on a steel triangle 20 m from
        the origin it is 2.6e-6 N where relaxation reaches 3e-7 to 4e-7 N. Under tol ×
        the load (1e-8) this floor only matters for small loads or structures far from
        the origin, where it is all that the forces can tell.
        K: the stiffness at the current state, if the caller has it."""
        m = self.model.arrays
        s = self.state
        if K is None:
            with np.errstate(divide="ignore", invalid="ignore"):
                K = linear.stiffness(self.model, s.pos, results.on_flags(self.model.arrays, s))
        eps = np.finfo(np.float64).eps
        dx = np.empty_like(s.pos)
        dx[:, :2] = eps * (float(np.abs(s.pos[:, :2]).max()) + self.model.char_length)
        dx[:, 2] = eps * (float(np.abs(s.pos[:, 2]).max()) + 2.0 * math.pi)
        noise = np.asarray(abs(K) @ dx.ravel()).reshape(-1, 3)
        np.add.at(noise[:, 0], s.tether[:, 0].astype(np.int64), s.tether[:, tethers.T_K] * dx[0, 0])
        np.add.at(noise[:, 1], s.tether[:, 0].astype(np.int64), s.tether[:, tethers.T_K] * dx[0, 0])
        noise[:, 2] /= self.model.char_length
        noise[m.fixed] = 0.0
        floor = float(noise.max(initial=0.0))
        return floor if math.isfinite(floor) else 0.0

    def solve_linear(self) -> Outcome:
        """The direct stiffness answer; a mechanism is kept in self.mechanism."""
        result = linear.solve_linear(self.model)
        self.mechanism = self.no_equilibrium = None
        self.state.clock[dynamics.K_TIME] = self.model.load_end_time
        s = self.state
        if result.mechanism is not None or result.problem is not None:
            self.mechanism = result.mechanism
            self.no_equilibrium = result.problem
            self.linear_reactions = result.reactions
            return Outcome(0, False)
        u = result.displacement
        s.pos[:] = self.model.arrays.pos0 + u
        s.vel[:] = 0.0
        results.write_small(self.model.arrays, s, u, result.slack)
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
        r = member_results(md, s)
        largest = largest_moments(md, s)
        shear, moment_i, moment_j = end_moments(md, s)  # a loaded member's less its fixed-end forces, as docs/model.md defines them
        columns = zip(*(a.tolist() for a in (r.axial, shear, moment_i, moment_j, r.broken, largest)), strict=True)
        members = {mid: dict(zip(MEMBER_KEYS, values, strict=True)) for mid, values in zip(md.member_ids, columns, strict=True)}
        triangles = {tid: {"sx": float(s.tri_out[k, 0]), "sy": float(s.tri_out[k, 1]), "txy": float(s.tri_out[k, 2])} for k, tid in enumerate(md.triangle_ids)}
        r = self.support_forces()
        held = (*md.support_nodes, *sorted(self.controls.nails - set(md.support_nodes)))
        reactions = {md.node_ids[q]: {"fx": float(r[q, 0]), "fy": float(r[q, 1]), "m": float(r[q, 2])} for q in held}
        for (q, *_), (*_, normal, friction) in zip(md.contacts, self.contact_forces(), strict=True):
            reactions[md.node_ids[q]].update(normal=float(normal), friction=float(friction))
        out = {
            "time": self.time,
            "nodes": nodes,
            "members": members,
            "triangles": triangles,
            "reactions": reactions,
            "energy": {"kinetic": self.kinetic_energy(), "strain": self.strain_energy()},
        }
        if self.no_equilibrium is not None:
            out["no_equilibrium"] = self.no_equilibrium
        if self.mechanism is not None:
            mode = self.mechanism.mode
            out["mechanism"] = {
                "message": self.mechanism.message,
                "free_motions": self.mechanism.count,
                "mode": {
                    md.node_ids[q]: {"x": float(mode[q, 0]), "y": float(mode[q, 1]), "rot": float(mode[q, 2])}
                    for q in np.flatnonzero(np.abs(mode).max(axis=1) > 1e-9)
                },
            }
        return out

    def value(self, spec: str) -> float:
        """One recorded quantity now, named by the record grammar (engine/records.py
        SPECS and WHOLE: node.ID.y, member.ID.axial, energy.strain, time, ...)."""
        return make_probe(self, spec)()


def _plain(x: float) -> str:
    """A figure in plain digits: whole and grouped from 10 up (178,900), three
    significant digits below (0.0123)."""
    return f"{x:,.0f}" if abs(x) >= 10 else f"{x:.3f}".rstrip("0").rstrip(".") if abs(x) >= 0.001 else f"{x:.3g}"


def stable_dt_for(model: Model, integrator: str) -> float:
    """The default step [s]: the stable one of an explicit integrator; a frame of 1/120 s
    for Newmark, which is stable at any step (relax and linear take none)."""
    if integrator == "newmark":
        return newmark.DEFAULT_DT
    return linear.stable_dt(model, "rk4" if integrator == "rk4" else "symplectic")
