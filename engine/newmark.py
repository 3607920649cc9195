"""Implicit Newmark integration (seeds 002 and 003) with Newton on the co-rotational
forces: stiff and large structures at frame-rate steps.

Glossary: h step [s]; x, v, a positions, velocities, accelerations (N, 3); M the lumped
masses; F(x, v, t) the total force on every DOF (eval_forces and the tethers: loads,
gravity, ground motion, damping and the elements' internal forces, with minus sign);
K = −∂F/∂x the tangent stiffness (engine/stiffness.py), C = −∂F/∂v the damping;
γ, β Newmark's parameters; α the HHT-α parameter (Hilber, Hughes & Taylor 1977),
α ∈ [−1/3, 0], 0 for the average acceleration rule (γ = ½, β = ¼).

Step n → n + 1 (HHT-α; α = 0 is plain Newmark):
    x₁ = x₀ + h v₀ + h² [(½ − β) a₀ + β a₁],   v₁ = v₀ + h [(1 − γ) a₀ + γ a₁],
    M a₁ = (1 + α) F(x₁, v₁, t₁) − α F(x₀, v₀, t₀),
with γ = ½ − α and β = (1 − α)²/4: second-order accurate, unconditionally stable for a
linear structure, and for α < 0 damping the modes with ωh ≫ 1 (the highest ones, which
a frame-rate step cannot follow anyway). With x₁ the unknown, a₁ and v₁ follow from
the first two lines, and Newton solves the residual r(x₁) = M a₁ − (1 + α) F₁ + α F₀ on
the free DOFs with the iteration matrix
    S = M/(β h²) + (1 + α) [K + γ/(β h) C].
S is factored at the state where it is formed (LDLᵀ in a profile, engine/profile_ldl.py,
where it is symmetric positive definite; else SuperLU's LU) and the factor is kept across
iterations and steps (a modified Newton) while it converges fast; it is formed anew at
the current iterate when an iteration shrinks the increment less than twofold or four
with a kept factor have not sufficed (at most eight times a step). Its sparsity pattern
is computed once per model (and per set of held DOFs). Compression makes the tangent
indefinite (its geometric stiffness; a short stiff bar's hugely): where an iteration's
residual grows tenfold, Newton goes back one iterate and goes on with a positive
semi-definite stand-in (tension's geometric stiffness only, results.element_blocks).
Newton stops when an increment moves no DOF by more than 1e-10 of the structure's size
and the residual is below 1e-9 of the loads (or of the inertia forces of a fast step),
or at the round-off of the forces. The residual is the one the increment started from,
or, where the last iteration cut it at least tenfold, the one the increment leaves as
the contraction goes on (r_k²/r_{k−1}: a kept factor converges linearly): that saves
the iteration that only confirmed a converged step (3.6 → 2.4 a step on the shaken
50,006-member lattice). A step Newton cannot converge in 40 iterations is
cut in halves, down to 1/64 of the step; a run that still fails is rolled back to where
the call started and explained (Unstable), never a crash. A converged step in which a
member turns by more than TURN_MOST is cut in halves too (while it can be): the rule
follows a fast rotation (a light link spinning about a pin, a dangling stub whipped round)
only in small turns a step; past a radian a step it pumps energy into the spin (a 5 cm
stub on a swinging bar, seen spinning at 4,500 rad/s with its kinetic energy 50 times
what the loads had given it, then no step converged).

Undamped and linear, the average acceleration rule conserves ½vᵀMv + ½xᵀKx exactly; it
stretches the period of a mode by (ωh/2)/arctan(ωh/2) (0.8 % at h = T/20).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from numba import njit

from equilibria.engine import dynamics, results, rollers, tethers
from equilibria.engine.compiled.options import KERNEL
from equilibria.engine.dynamics import K_KINETIC, K_RESIDUAL, K_REST, K_SPEED, K_TIME, K_WORK, apply_supports, update_chords
from equilibria.engine.elements.kernels import check_breaks, eval_forces
from equilibria.engine.profile_ldl import Profile
from equilibria.engine.results import element_blocks
from equilibria.engine.rollers import hold_rollers
from equilibria.engine.tethers import eval_tethers, slide_anchors

DEFAULT_DT = 1.0 / 120.0  # [s] a frame of the game at 120 Hz
CONTROLS_EVERY = 0.05  # [s] the rest test's tolerances are set anew this often (as the explicit batches)
NEWTON_MAX = 40  # iterations before a step is cut
SLOW = 0.5  # an iteration whose increment is more than this share of the last one is slow
REFORM_AFTER = 4  # iterations with a kept factor after which the matrix is formed anew
FORMS = 8  # factors formed at most in one step
CUTS = 6  # a step is cut in halves at most this often (to 1/64 of it)
# Newton stops when an increment moves no DOF more than TOLERANCE × the size (rad for
# rotations) and the residual it started from was below RESIDUAL × the force scale. Both:
# a kept factor, formed where an element pointed elsewhere, can make the increments
# small while the residual is not (a stiff bar's old axis takes the push). The residual
# tested may be the one an increment leaves, estimated where Newton contracts by FAST or
# faster (the module note).
TOLERANCE = 1e-10
# The predictor holds the acceleration of the step before, unless that moves a DOF more
# than PREDICTOR_REACH of the size (rad for rotations) in one step: a node with a small
# rotational inertia (one given to a node without mass) under a suddenly applied moment
# has an acceleration that, held, would turn it by radians in one step and start Newton
# where no co-rotational element is near its answer; the speed held (x₀ + h v₀) starts
# it near the state it leaves.
PREDICTOR_REACH = 0.01
# A member may turn by at most this much [rad] in one step while the step can still be cut:
# a rotation of ωh per step is followed to (ωh)²/12 of its phase by the average
# acceleration rule, 0.5 % at 0.25 rad (a swinging bar turns ~0.03 rad a game step).
TURN_MOST = 0.25
RESIDUAL = 1e-9
FAST = 0.1  # an iteration that cuts the residual to this share of the last one or less converges fast
LEAP = 10.0  # an iteration whose residual grows this many times has leapt away
NOISE_EVERY = 1.0  # [s] the forces' round-off floor is estimated anew this often (simulated)


class NewmarkFailed(RuntimeError):
    """Newton did not converge even on the shortest step; the state is rolled back."""


class Newmark:
    """The implicit integrator of one Simulation (its model may change under it: nails
    change the held DOFs, the bomb switches elements off; the pattern follows)."""

    def __init__(self, alpha: float = 0.0):
        if not -1.0 / 3.0 <= alpha <= 0.0:
            raise ValueError(f"HHT alpha must be in [-1/3, 0], got {alpha}")
        self.alpha = alpha
        self.gamma = 0.5 - alpha
        self.beta = 0.25 * (1.0 - alpha) ** 2
        self._fixed = None  # the held-DOF mask the pattern was made for
        self._lu = None  # (h, splu factor)
        self._ends = None  # (the model, its members' end nodes (M, 2)): what `_turned` measures
        self._accel = None  # (pos, vel, a): the acceleration at the end of the last step, and where
        self.factorizations = 0
        self.iterations = 0
        # The reference the benchmarks time beside (benchmarks/newmark.py): profile=False
        # factors with SuperLU alone; fast=0 stops Newton only on the residual it measured.
        self.profile = True
        self.fast = FAST

    def __getstate__(self) -> dict:
        """A copy (copy.deepcopy: a check's snapshot of a run) leaves the factor behind
        (SuperLU cannot be copied): the copy forms its own at its first step."""
        state = dict(self.__dict__)
        state["_lu"] = None
        return state

    # -------------------------------------------------------------- the pattern
    def _pattern(self, model) -> None:
        """The CSC pattern of S on the free DOFs: each element block entry (and the
        diagonal) mapped to its place, so that S is a weighted bincount per formation."""
        m = model.arrays
        free = ~m.fixed.ravel()
        index = np.full(free.size, -1, dtype=np.int64)
        index[free] = np.arange(int(free.sum()))
        nf = int(free.sum())
        rows, cols = [], []
        for _, dofs in element_blocks(m, m.pos0).values():
            nd = dofs.shape[1]
            rows.append(np.repeat(dofs, nd, axis=1).ravel())
            cols.append(np.tile(dofs, (1, nd)).ravel())
        rows.append(np.arange(free.size))
        cols.append(np.arange(free.size))
        r = index[np.concatenate(rows)]
        c = index[np.concatenate(cols)]
        self._keep = (r >= 0) & (c >= 0)
        keys = c[self._keep] * nf + r[self._keep]
        unique, self._slot = np.unique(keys, return_inverse=True)
        self._indices = (unique % nf).astype(np.int32)
        self._indptr = np.searchsorted(unique // nf, np.arange(nf + 1)).astype(np.int32)
        self._nnz = unique.size
        self._profile = Profile(self._indptr, self._indices, nf) if nf else None
        self._free = free
        self._nf = nf
        # Per free DOF: index, mass, the size an increment is measured against (m, or
        # rad), and the lever a residual is (moments count as force over the size).
        self._idx = np.flatnonzero(free)
        rotation = self._idx % 3 == 2
        self._mass = m.mass.ravel()[self._idx]
        self._size = np.where(rotation, 1.0, model.char_length)
        self._lever = np.where(rotation, model.char_length, 1.0)
        self._damp = results.element_damping(m)
        self._damped = any(bool(np.any(d > 0.0)) for d in self._damp.values())
        self._noise_at = -math.inf
        self._fixed = m.fixed
        self._lu = None
        self._turn = rollers.turn(m)
        if self._turn is not None:
            # Rollers (engine/rollers.py): S turned, and on each roller's across slot only
            # its diagonal (the residual there is always 0, so the increment is too).
            T = self._turn[free][:, free]
            self._turn = (T, sp.diags(rollers.across(m)[free].astype(float)))

    def _form(self, model, state, pos, h, safe) -> None:
        """Factor S at pos (see the module note), with the tangent or, safe, with its
        positive semi-definite stand-in (results.element_blocks)."""
        m = model.arrays
        s = state
        c1 = 1.0 + self.alpha
        cd = self.gamma / (self.beta * h)
        tangent = element_blocks(m, pos, s.chord, tangent=True, safe=safe)
        small = element_blocks(m, pos, s.chord) if self._damped else None  # element damping's matrix, if any
        vals = []
        flags = results.on_flags(m, s)
        for kind, (ke, _) in tangent.items():
            on = flags[kind]
            block = ke + cd * self._damp[kind][:, None, None] * small[kind][0] if small is not None else ke
            vals.append((c1 * block * on[:, None, None]).ravel())
        diag = m.mass.ravel() / (self.beta * h * h) + c1 * cd * m.mass_damping * m.mass.ravel()
        vals.append(diag + c1 * tether_tangent(s.tether, pos, s.vel, cd).ravel())
        data = np.bincount(self._slot, weights=np.concatenate(vals)[self._keep], minlength=self._nnz)
        if self._turn is not None:  # rollers on a line: S turned to along and across each line (engine/rollers.py), then LU
            S = sp.csc_matrix((data, self._indices, self._indptr), shape=(self._nf, self._nf))
            T, held = self._turn
            St, rest = rollers.turned(S, T), sp.identity(self._nf) - held
            factor = spla.splu((T @ (rest @ St @ rest + held @ St @ held) @ T.T).tocsc())
        else:
            factor = self._profile.factor(data) if self.profile and self._profile is not None and self._profile.worth else None
            if factor is None:  # not symmetric positive definite, or a profile too wide: LU with pivoting
                factor = spla.splu(sp.csc_matrix((data, self._indices, self._indptr), shape=(self._nf, self._nf)))
        self._lu = (h, factor, safe)
        self.factorizations += 1

    # -------------------------------------------------------------- stepping
    def advance(self, sim, seconds: float, until_rest: bool) -> tuple[int, bool]:
        """Advance sim by round(seconds / sim.dt) steps (fewer at rest if until_rest);
        returns (steps, at rest). NewmarkFailed (state rolled back to the start of the
        call) when a step cannot be taken."""
        model = sim.model
        if self._fixed is not model.arrays.fixed:
            self._pattern(model)
        s = sim.state
        start = s.copy()
        total = max(round(seconds / sim.dt), 0)
        ctl = sim.ctl
        if s.clock[K_TIME] - self._noise_at > NOISE_EVERY or s.clock[K_TIME] < self._noise_at:
            self._noise = 4.0 * sim.roundoff_floor()  # an assembly: not every frame
            self._noise_at = float(s.clock[K_TIME])
        every = max(1, round(CONTROLS_EVERY / sim.dt))
        F0, a0 = self._start(model, s)
        for step in range(total):
            if step % every == 0:  # the loads follow their histories: so do the tolerances
                sim._set_controls(until_rest)
                # What Newton must bring the residual under: RESIDUAL of the loads (or of the
                # inertia, in a step that moves fast), never under the forces' round-off.
                self._force_scale = sim.reference_force()
            try:
                F0, a0 = self._step(model, s, F0, a0, sim.dt, 0)
            except NewmarkFailed:
                s.restore(start)
                self._accel = None
                raise
            if self._rest(model, s, F0, ctl, sim.dt):
                return step + 1, True
        self._accel = (s.pos.copy(), s.vel.copy(), a0)
        return total, float(s.clock[K_REST]) >= ctl[dynamics.C_HOLD]

    def _start(self, model, s):
        """F and a at the current state: a kept from the last step if the state is where
        that step left it (HHT's a is not F/M), else M⁻¹F."""
        m = model.arrays
        F = np.zeros_like(s.pos)
        eval_forces(m, s, s.pos, s.vel, float(s.clock[K_TIME]), F)
        eval_tethers(s.tether, s.pos, s.vel, F, s.tether_f, 1.0)
        hold_rollers(m, F)
        kept = self._accel
        if kept is not None and np.array_equal(kept[0], s.pos) and np.array_equal(kept[1], s.vel):
            return F, kept[2]
        return F, F * m.inv_mass

    def _step(self, model, s, F0, a0, h, depth):
        """One step of h from s (in place), in halves if Newton fails; (F₁, a₁)."""
        saved = (s.pos.copy(), s.vel.copy(), s.chord.copy(), s.clock.copy())
        result = self._newton(model, s, F0, a0, h)
        if result is not None and (depth >= CUTS or self._turned(model, saved[0], s.pos) <= TURN_MOST):
            return result
        s.pos[:], s.vel[:], s.chord[:], s.clock[:] = saved
        if depth >= CUTS:
            raise NewmarkFailed(f"Newton did not converge even on a step of {h:.3g} s ({2**CUTS} times shorter than the step asked for)")
        F0, a0 = self._step(model, s, F0, a0, 0.5 * h, depth + 1)
        return self._step(model, s, F0, a0, 0.5 * h, depth + 1)

    def _turned(self, model, before: np.ndarray, after: np.ndarray) -> float:
        """The largest angle [rad] a member's chord turned through from `before` to `after` (N, 3)."""
        if self._ends is None or self._ends[0] is not model:
            self._ends = (model, results.member_ends(model))
        ends = self._ends[1]
        if not len(ends):
            return 0.0
        d0 = before[ends[:, 1], :2] - before[ends[:, 0], :2]
        d1 = after[ends[:, 1], :2] - after[ends[:, 0], :2]
        cross = d0[:, 0] * d1[:, 1] - d0[:, 1] * d1[:, 0]
        dot = (d0 * d1).sum(axis=1)
        return float(np.abs(np.arctan2(cross, dot)).max())

    def _newton(self, model, s, F0, a0, h):
        """Solve one step by Newton; (F₁, a₁) with s advanced, or None (s garbled).

        With x̂ = x₀ + h v₀ + (½ − β) h² a₀ and v̂ = v₀ + (1 − γ) h a₀ (fixed in the step),
        a₁ = (x₁ − x̂)/(β h²) and v₁ = v̂ + γ h a₁; each iteration works in buffers made
        once per step (the residual and its measures on the free DOFs)."""
        m = model.arrays
        t0 = float(s.clock[K_TIME])
        t1 = t0 + h
        idx, mass, size, lever = self._idx, self._mass, self._size, self._lever
        b, g, al = self.beta, self.gamma, self.alpha
        x = s.pos
        v = s.vel
        F = np.zeros_like(x)
        xp = x + h * v + (0.5 - b) * h * h * a0  # x̂
        vp = v + (1.0 - g) * h * a0  # v̂
        held = 0.5 * h * h * a0  # the predictor: the acceleration held, where that moves no DOF far
        if float((np.abs(held.ravel()[idx]) / size).max(initial=0.0)) > PREDICTOR_REACH:
            held[:] = 0.0  # a light DOF under a sudden load (a node given a small rotational inertia): the speed held
        x += h * v + held
        apply_supports(m, x, v, t1)
        a = np.empty_like(x)
        xr, ar, fr = x.ravel(), a.ravel(), F.ravel()
        fixed = m.fixed.ravel()
        held_x, held_v = x.ravel().copy(), v.ravel().copy()  # the held DOFs' places and speeds at t₁
        past = al * F0.ravel()[idx]  # HHT's share of the force at the start
        ra, r = np.empty(idx.size), np.empty(idx.size)
        ca, gh, c1 = 1.0 / (b * h * h), g * h, 1.0 + al
        last = math.inf
        forms = 0  # factors formed in this step
        safe = False  # the tangent itself, until it leads Newton away
        dx = np.zeros(idx.size)
        previous = math.inf  # the last iteration's residual
        power0 = 0.0
        for it in range(NEWTON_MAX):
            _kinematics(xr, xp.ravel(), vp.ravel(), ar, v.ravel(), fixed, held_x, held_v, ca, gh, False)
            power = eval_forces(m, s, x, v, t1, F)
            eval_tethers(s.tether, x, v, F, s.tether_f, 1.0)
            hold_rollers(m, F)
            if it == 0:
                power0 = power
            residual = _residual(idx, mass, ar, fr, c1, past, lever, ra, r)
            if not math.isfinite(residual):
                return None
            if residual > LEAP * previous and not safe:
                # The tangent was indefinite (compression's geometric stiffness) and
                # Newton leapt: back to the last iterate, on with the safe matrix.
                xr[idx] -= dx
                safe = True
                self._lu = None
                continue
            # The residual this iterate leaves once its increment is taken, if Newton goes on
            # contracting as it did in the last iteration (a kept factor: linearly).
            leaves = residual * residual / previous if residual <= self.fast * previous < math.inf else math.inf
            previous = residual
            if self._lu is None or self._lu[0] != h or self._lu[2] != safe or (it >= REFORM_AFTER and not forms):
                self._form(model, s, x, h, safe)
                forms += 1
            dx = self._lu[1].solve(r)
            self.iterations += 1
            step, inertia = _increment(xr, idx, dx, size, mass, ra, lever)
            if step <= TOLERANCE and min(residual, leaves) <= max(RESIDUAL * max(self._force_scale, inertia), self._noise):
                _kinematics(xr, xp.ravel(), vp.ravel(), ar, v.ravel(), fixed, held_x, held_v, ca, gh, True)
                power = eval_forces(m, s, x, v, t1, F)
                eval_tethers(s.tether, x, v, F, s.tether_f, 1.0)
                hold_rollers(m, F)
                slide_anchors(s.tether, x, v)  # friction's stick point moves between steps only (engine/tethers.py)
                s.clock[K_TIME] = t1
                s.clock[K_WORK] += 0.5 * (power0 + power) * h
                update_chords(m, x, s.chord)
                return F, a
            if step > SLOW * last and forms < FORMS:
                self._lu = None  # slow (a kept factor, or one formed where an element pointed elsewhere): form S anew
            last = step
        return None

    # -------------------------------------------------------------- rest and breaks
    def _rest(self, model, s, F, ctl, h) -> bool:
        """The rest test of dynamics.advance, after a step: the timer grows while speed,
        residual and kinetic energy are all below their tolerances. Breaks too."""
        m = model.arrays
        if ctl[dynamics.C_BREAK] > 0.0:
            check_breaks(m, s, float(s.clock[K_TIME]))
        free = ~m.fixed
        f = np.abs(F) * np.where(free, 1.0, 0.0)
        f[:, 2] /= ctl[dynamics.C_LREF]
        res = float(f.max(initial=0.0))
        vmax = float(np.sqrt((s.vel[:, :2] ** 2).sum(axis=1)).max(initial=0.0))
        ke = float(0.5 * (m.mass * s.vel**2).sum())
        s.clock[K_SPEED], s.clock[K_RESIDUAL], s.clock[K_KINETIC] = vmax, res, ke
        if vmax <= ctl[dynamics.C_VTOL] and res <= ctl[dynamics.C_FTOL] and ke <= ctl[dynamics.C_KETOL]:
            s.clock[K_REST] += h
            return ctl[dynamics.C_STOP] > 0.0 and s.clock[K_REST] >= ctl[dynamics.C_HOLD]
        s.clock[K_REST] = 0.0
        return False


def tether_stiffness(mass: float, row_bound: float, dt: float, fraction: float, damping_ratio: float) -> tuple[float, float]:
    """(k [N/m], c [N s/m]) of a tether on a node under Newmark at step dt, which is
    stable at any stiffness: what bounds k here is holding, and Newton.

    mass: the node's translational mass m [kg]; row_bound: its Gershgorin row of
    M^-½ K M^-½ [1/s²] (the square of its fastest own frequency, at most). The tether
    gets ω_t = √(k/m) as high as the node's own fastest mode, so that it holds the node
    as firmly as the structure's members do (a ground contact under a node that carries
    the whole structure sinks in by about the structure's own deflection); at least
    2/dt, so that even a soft node is held within a step or two (its sinking under its
    own weight g/ω_t² is 0.2 mm at dt = 1/120 s); at most 20/dt, beyond which Newton
    meets a contact that closes and opens in one step as a jump it converges on slowly.
    `fraction` of that k, as for the explicit rule (several tethers on one node share
    it); c = 2 ζ_t √(k m) with ζ_t = damping_ratio. The tangent of every tether goes
    into Newton's matrix (tether_tangent)."""
    if mass <= 0.0 or dt <= 0.0:
        return 0.0, 0.0
    omega = min(max(2.0 / dt, math.sqrt(max(row_bound, 0.0))), 20.0 / dt)
    k = fraction * mass * omega * omega
    return k, 2.0 * damping_ratio * math.sqrt(k * mass)


def tether_tangent(tether: np.ndarray, pos: np.ndarray, vel: np.ndarray, cd: float) -> np.ndarray:
    """(N, 3): the tethers' share of Newton's matrix on each DOF's diagonal, K + cd C
    (cd = γ/(β h)), at pos and vel (engine/tethers.py's forces, differentiated): a
    spring, k + cd c on x and y; a ground contact pressed in (gap < 0), k + cd c along
    its normal, and k + cd c along the ground while it sticks (its tangential spring
    to the point where it stuck is below the cap μN); a sliding node's friction is the
    constant μN, no stiffness along the ground; an open contact, nothing.
    On the diagonal only: a contact's normal off the axes couples x and y, which the
    factor leaves to Newton's iterations (the ground is level)."""
    out = np.zeros_like(pos)
    for row in tether:
        q = int(row[tethers.T_NODE])
        k, c = row[tethers.T_K], row[tethers.T_C]
        n = row[tethers.T_NX : tethers.T_NY + 1]
        if not n.any():
            out[q, :2] += k + cd * c
            continue
        gap = float((pos[q, :2] - row[tethers.T_AX : tethers.T_AY + 1]) @ n)
        if gap >= 0.0:
            continue
        vn = float(vel[q, :2] @ n)
        fn = -k * gap - c * vn
        if fn <= 0.0:
            continue
        out[q, :2] += (k + cd * c) * n * n
        t = np.array((n[1], -n[0]))  # the tangent (engine/tethers.py)
        s = float((pos[q, :2] - row[tethers.T_AX : tethers.T_AY + 1]) @ t)
        if abs(k * s + c * float(vel[q, :2] @ t)) < row[tethers.T_MU] * fn:
            out[q, :2] += (k + cd * c) * t * t
    return out


# ------------------------------------------------------------------ Newton's vector work
# One compiled pass each instead of a dozen numpy calls: on the 10,000-bar Warren truss
# numpy's calls cost more than the solve. Flat (3N,) views of the (N, 3) arrays; the
# arithmetic is numpy's, operation by operation.


@njit(**KERNEL)
def _kinematics(x, xp, vp, a, v, fixed, held_x, held_v, ca, gh, settle):
    """a ← (x − x̂)/(β h²), v ← v̂ + γ h a, the held DOFs at their places and speeds
    (settle: their acceleration 0, as reported at the end of a step)."""
    for q in range(x.shape[0]):
        a[q] = (x[q] - xp[q]) * ca
        if settle and fixed[q]:
            a[q] = 0.0
        v[q] = a[q] * gh + vp[q]
        if fixed[q]:
            v[q] = held_v[q]
            x[q] = held_x[q]


@njit(**KERNEL)
def _residual(idx, mass, a, f, c1, past, lever, ra, r):
    """r ← M a − (1 + α) F + α F₀ on the free DOFs (ra ← a there); returns its largest
    size (moments over the lever), NaN or inf if any is."""
    worst = 0.0
    for k in range(idx.shape[0]):
        q = idx[k]
        ra[k] = a[q]
        r[k] = (mass[k] * ra[k] - f[q] * c1) + past[k]
        w = abs(r[k]) / lever[k]
        if w > worst or w != w:
            worst = w
    return worst


@njit(**KERNEL)
def _increment(x, idx, dx, size, mass, ra, lever):
    """dx ← −dx (the solve gave S⁻¹ r), x ← x + dx on the free DOFs; returns the largest
    increment over the size and the largest inertia force M a (moments over the lever)."""
    step = 0.0
    inertia = 0.0
    for k in range(idx.shape[0]):
        dx[k] *= -1.0
        x[idx[k]] += dx[k]
        w = abs(dx[k]) / size[k]
        if w > step or w != w:
            step = w
        w = abs(mass[k] * ra[k]) / lever[k]
        if w > inertia or w != w:
            inertia = w
    return step, inertia
