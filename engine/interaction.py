"""The game's actions on a running simulation (seed 003, seed 000): tethers (the hand's
spring, ground contact; engine/tethers.py), nails that pin a node where it is, the bomb
that switches an element off, and a factor on the loads. A mixin of Simulation
(engine/simulation.py), whose model, state, step and refresh() it uses.

These run-time inputs live in a Controls object beside the State (`sim.controls`), never
in the level's Model, which stays as built: `sim.level` is that Model, and `sim.model`
the Model as it runs, the level's with the controls applied (nails held like supports,
loads times the load factor), made anew only when a control changes. Both integrators
read `sim.model` and the State, so a nail, a tether, a removed member or a load factor
acts the same under RK4 and under Newmark. The State keeps the kernels' own copies:
the tether rows (state.tether) and the elements' on-flags (engine/results.py switch_off; a broken
member is off there too).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from equilibria.engine import dynamics, linear, newmark, tethers
from equilibria.engine.model import Model
from equilibria.engine.results import largest_damping, switch_off
from equilibria.engine.words import N_, Refusal, Words


@dataclass
class Controls:
    """What the player does to a running structure (module note).

    level_fixed: (N, 3) bool, the DOFs the level's supports hold; nails: indices of the
    nailed nodes (x and y held where they are); tethers: (K, 8) rows (engine/tethers.py);
    removed: ids of the members and triangles switched off (the bomb); load_factor: the
    factor on every applied load (not on gravity, which is the structure's own)."""

    level_fixed: np.ndarray
    nails: set[int] = field(default_factory=set)
    tethers: np.ndarray = field(default_factory=lambda: np.zeros((0, len(tethers.COLUMNS))))
    removed: set[str] = field(default_factory=set)
    load_factor: float = 1.0

    def applied(self, level: Model) -> Model:
        """The level's Model as it runs: nails held (fixed, zero inverse mass), loads
        times the load factor; the level's own Model when no control changes it."""
        if not self.nails and self.load_factor == 1.0:
            return level
        m = level.arrays
        fixed = self.level_fixed.copy()
        fixed[sorted(self.nails), :2] = True
        inv_mass = np.divide(1.0, m.mass, out=np.zeros_like(m.mass), where=~fixed & (m.mass > 0))
        return level.with_arrays(fixed=fixed, inv_mass=inv_mass, load_f=m.load_f * self.load_factor)


class Interaction:
    """What the player does to a structure while it runs."""

    @property
    def tethers(self) -> np.ndarray:
        """The tethers acting now, (K, 8) [node, ax, ay, nx, ny, k, c, mu] (read-only)."""
        view = self.state.tether.view()
        view.flags.writeable = False
        return view

    def set_tethers(self, rows) -> None:
        """Replace the tethers (engine/tethers.py) with `rows`, (K, 8) float64
        [node index, ax, ay, nx, ny, k, c, mu], K ≥ 0; they act from now on, in every
        sub-step, until the next call. n = (0, 0): a spring-damper from the anchor
        a = (ax, ay) to the node, F = k (a − x) − c v; n a unit vector: a ground contact
        on the half-plane through a with outward normal n (see engine/tethers.py). A
        contact that goes on (same node, same surface as one in force) keeps the point
        where it stuck (tethers.carry_anchors). The model's own contact supports stay in
        force ahead of `rows` (contact_rows). ValueError names a bad row; the tethers in
        force are then unchanged."""
        rows = tethers.checked_rows(rows, self.model.n_nodes)
        standing = len(self.model.contacts)
        old = self.state.tether
        rows = tethers.carry_anchors(old[standing:], rows)
        self.controls.tethers = rows
        rows = np.ascontiguousarray(np.concatenate((old[:standing], rows)))
        self.state = self.state._replace(tether=rows, tether_f=np.zeros((rows.shape[0], 2)))
        self.refresh()

    def contact_rows(self) -> np.ndarray:
        """The model's contact supports (`supports[].contact`) as contact tethers, each
        stuck where its node starts, with the stiffness and damping tether_stiffness
        gives its node (half the room the step leaves, ζ = 0.7; under newmark, its own
        rule: newmark.tether_stiffness): (C, 8). Under relax, which has no step of its
        own, as stiff as RK4's stable step would allow."""
        explicit = (linear.stable_dt(self.model, "rk4"), "rk4") if self.integrator == "relax" else None
        rows = []
        for q, nx, ny, mu in self.model.contacts:
            k, c = self.tether_stiffness(q, explicit=explicit)
            rows.append((q, *self.state.pos[q, :2], nx, ny, k, c, mu))
        return tethers.checked_rows(rows, self.model.n_nodes)

    def _install_contacts(self) -> None:
        """Put the model's contact supports in force (from Simulation's constructor)."""
        if not self.model.contacts:
            return
        if self.integrator == "linear":
            s = self.model.contacts[0][0]
            where = self.model.node_ids[s]
            raise ValueError(f"node {where} rests on a contact (supports[].contact), which the linear solve does not model: use rk4, symplectic or newmark")
        rows = self.contact_rows()
        self.state = self.state._replace(tether=rows, tether_f=np.zeros((rows.shape[0], 2)))

    def _stiffen_contacts(self) -> None:
        """Give the model's contact supports the stiffness and damping of the step and
        integrator now in use (after Simulation.use), with the force they hold kept: a
        contact k₀ pressed in by g and stretched by s from where it stuck has its anchor
        moved toward the node to x − (k₀/k₁)(x − a), so that k₁ times the new g and s is
        the force it held (the surface shifts by the change in sink, a fraction of a
        millimetre); a stiffer spring on the old sink would throw the body off."""
        if not self.model.contacts or self.integrator == "linear":
            return
        fresh = self.contact_rows()
        rows = self.state.tether.copy()
        for r, row in enumerate(fresh):
            k0, k1 = rows[r, tethers.T_K], row[tethers.T_K]
            if k0 > 0.0 and k1 > 0.0:
                x = self.state.pos[int(row[tethers.T_NODE]), :2]
                rows[r, tethers.T_AX : tethers.T_AY + 1] = x - (k0 / k1) * (x - rows[r, tethers.T_AX : tethers.T_AY + 1])
            rows[r, tethers.T_K], rows[r, tethers.T_C] = k1, row[tethers.T_C]
        self.state = self.state._replace(tether=rows)

    def contact_forces(self) -> np.ndarray:
        """(C, 4) per contact support, in model.contacts order: the force the surface
        applies to the node [fx, fy] and its parts, the normal force N (along n, ≥ 0)
        and the friction F (along t = (ny, −nx), n turned clockwise) [N], at the last evaluation."""
        out = np.zeros((len(self.model.contacts), 4))
        for r, (_q, nx, ny, _mu) in enumerate(self.model.contacts):
            fx, fy = self.state.tether_f[r]
            out[r] = fx, fy, fx * nx + fy * ny, fx * ny - fy * nx
        return out

    def support_forces(self) -> np.ndarray:
        """(N, 3) [N, N, N m]: what every support applies to the structure, the fixed
        DOFs' reactions (reactions()) and the contact supports' forces together."""
        r = self.reactions().copy()
        for (q, *_), (fx, fy, _n, _f) in zip(self.model.contacts, self.contact_forces(), strict=True):
            r[q, :2] += fx, fy
        return r

    def tether_forces(self) -> np.ndarray:
        """(K, 2) [N]: the force each tether applied to its node at the last evaluation
        (the last step, or refresh()), rows in the order given to set_tethers."""
        return self.state.tether_f.copy()

    def tether_stiffness(
        self, node_index: int, fraction: float = 0.5, damping_ratio: float = 0.7, *, explicit: tuple[float, str] | None = None
    ) -> tuple[float, float]:
        """(k [N/m], c [N s/m]) for a tether on node `node_index` that keeps the run
        stable at the current step and integrator (under Newmark, stable at any step,
        one that holds: newmark.tether_stiffness; what follows is the explicit rule).

        The node's fastest mode is bounded by its Gershgorin row of M^-½ K M^-½ (all
        elements, reference geometry, grown by 1.21 for rotation, as in
        linear.stable_dt); the tether takes `fraction` of what that mode and its damping
        leave of the integrator's stability limit on ω dt (2√2 for RK4, 2 for symplectic
        Euler), with a margin of 0.9. Under symplectic Euler the tether's own ω dt also
        stays below 0.9: at 1, the energy the blow-up check measures swings 3× along a
        stable orbit. c gives the tether alone the damping ratio `damping_ratio` on the
        node's translational mass m, c = 2 ζ √(k m). Derivation: tethers.stable_stiffness.
        Several tethers on one node (the hand and the ground) stay stable while their
        fractions add up to at most 1. k is proportional to m, so a very light node gets
        a soft tether, never an unstable one. (0, 0) when the step leaves no room (a step
        set at or past the model's stable step). explicit: (dt, "rk4" or "symplectic")
        to size it for that step and integrator instead of the simulation's own."""
        q = self._node(node_index)
        if not 0.0 < fraction <= 1.0:
            raise ValueError(f"fraction must be in (0, 1], got {fraction}")
        if damping_ratio < 0.0:
            raise ValueError(f"damping_ratio must not be negative, got {damping_ratio}")
        m = self.model.arrays
        beta = largest_damping(m)
        row = float(self._gershgorin_rows()[q])
        if self.integrator == "newmark":
            return newmark.tether_stiffness(float(m.mass[q, 0]), row, self.dt, fraction, damping_ratio)
        rate = m.mass_damping + beta * tethers.ROTATION_GROWTH * row  # that mode's damping rate: α + β ω²
        dt, integrator = explicit or (self.dt, self.integrator)
        return tethers.stable_stiffness(float(m.mass[q, 0]), row, rate, dt, integrator, fraction, damping_ratio)

    def _gershgorin_rows(self) -> np.ndarray:
        """(N,) [1/s²]: per node, the larger of its x and y Gershgorin rows (see
        linear.gershgorin_rows; free DOFs of the level, nails not counted, which can
        only make the rows smaller); computed once."""
        if self._node_rows is None:
            self._node_rows = linear.gershgorin_rows(self.level).reshape(-1, 3)[:, :2].max(axis=1)
        return self._node_rows

    @property
    def level_dofs(self) -> int:
        """How many DOFs the level's supports leave free (nails not counted): the size
        of the structure to integrate, whatever is nailed for now."""
        return int((~self.controls.level_fixed).sum())

    @property
    def nails(self) -> frozenset[int]:
        """Indices of the nailed nodes."""
        return frozenset(self.controls.nails)

    def nail(self, node_index: int) -> None:
        """Pin the node's x and y where it is now (seed 003): its velocity is zeroed and
        it is held like a support (reactions() reports what the nail holds) until
        unnail(). The reference geometry (pos0) is unchanged: a held DOF never moves
        (zero velocity, zero inverse mass), so nothing needs its place written down.
        ValueError for a node whose x and y the level's supports already hold."""
        q = self._node(node_index)
        if q in self.controls.nails:
            return
        if self.controls.level_fixed[q, :2].all():
            raise Refusal(Words(N_("node {node} is held by a support of the level; it needs no nail"), {"node": repr(self.model.node_ids[q])}))
        self.controls.nails.add(q)
        self._apply_fixity()
        self.state.vel[q, :2] = 0.0
        self._changed()

    def unnail(self, node_index: int) -> None:
        """Free a nailed node again (its velocity stays zero; what the level's own
        supports hold stays held). ValueError for a node that is not nailed, a
        support of the level among them."""
        q = self._node(node_index)
        if q not in self.controls.nails:
            what = "a support of the level, not a nail" if self.controls.level_fixed[q, :2].any() else "not nailed"
            raise ValueError(f"node {self.model.node_ids[q]!r} is {what}")
        self.controls.nails.discard(q)
        self._apply_fixity()
        self._changed()

    def _apply_fixity(self) -> None:
        """The Model as it runs is made anew from the level's and the controls."""
        self._running = None

    def set_load_factor(self, factor: float) -> None:
        """Multiply every applied load (and its history) by `factor` from now on, until
        the next call (1: the level's loads); gravity stays. ValueError for a factor
        that is not finite."""
        if not np.isfinite(factor):
            raise ValueError(f"load factor must be a finite number, got {factor!r}")
        self.controls.load_factor = float(factor)
        self._running = None
        self._changed()

    @property
    def load_factor(self) -> float:
        return self.controls.load_factor

    def remove_member(self, member_id: str) -> None:
        """Switch member `member_id` off in the running state (the bomb, seed 000): it
        carries nothing from now on. It is removed, not broken (its break time stays
        −1). ValueError for an unknown id."""
        if member_id not in self.model.member_ids:
            raise ValueError(f"unknown member {member_id!r}")
        switch_off(self.model, self.state, self.model.member_index(member_id))
        self.controls.removed.add(member_id)
        self._changed()

    def remove_triangle(self, triangle_id: str) -> None:
        """Switch triangle `triangle_id` off in the running state. ValueError for an
        unknown id."""
        if triangle_id not in self.model.triangle_ids:
            raise ValueError(f"unknown triangle {triangle_id!r}")
        self.state.tri_on[self.model.triangle_ids.index(triangle_id)] = False
        self.controls.removed.add(triangle_id)
        self._changed()

    def _changed(self) -> None:
        """After an action on the structure: forces again, and rest must be shown anew."""
        self.state.clock[dynamics.K_REST] = 0.0
        self.refresh()

    def _node(self, node_index: int) -> int:
        q = int(node_index)
        if q != node_index or not 0 <= q < self.model.n_nodes:
            raise ValueError(f"node index must be 0..{self.model.n_nodes - 1}, got {node_index!r}")
        return q
