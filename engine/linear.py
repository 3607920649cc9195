"""The direct stiffness method (seed 004 §9.2) and what the global stiffness tells us.

K is assembled from each element kind's small-displacement block (engine/stiffness.py)
at the initial geometry. It gives:
- the small-displacement static answer K_ff u_f = F_f − K_fs u_s, reactions K u − F;
- mechanisms: a zero eigenvalue of the diagonally scaled K_ff, with its mode;
- a bound on the highest frequency (Gershgorin on M^-½ K M^-½) for the stable step;
- the lowest elastic frequency, to which world.damping is tuned.

DOF numbering: 3 q + d for node q and d ∈ (x, y, rot).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from equilibria.engine import results, rollers, tension_only
from equilibria.engine.elements.bar import bar_axial_small
from equilibria.engine.elements.cst import tri_stress_small
from equilibria.engine.elements.kernels import history_value
from equilibria.engine.model import Model
from equilibria.engine.stiffness import DENSE_LIMIT, assemble, start_blocks
from equilibria.engine.stiffness import lowest_frequency as _lowest_frequency

MECHANISM_TOL = 1e-10  # smallest eigenvalue of the unit-diagonal K_ff below which it is singular


def stiffness(model: Model, pos: np.ndarray | None = None, active=None) -> sp.csr_matrix:
    """Global small-displacement stiffness (3N × 3N) at pos (default: initial geometry)
    [N/m, N, N m], from each element kind's block (engine/stiffness.py).

    active: optional on-flags by kind ({kind: (E,) bool}, engine/results.py on_flags);
    off elements are left out.
    """
    return assemble(model.arrays, pos, active)


def max_frequency_bound(model: Model, K: sp.csr_matrix | None = None) -> float:
    """Upper bound on the highest natural frequency ω_max [rad/s].

    Gershgorin's theorem on the similar symmetric matrix A = M^-½ K M^-½ (free DOFs):
    every eigenvalue ω² ≤ max_i Σ_j |K_ij| / √(m_i m_j)."""
    rows = gershgorin_rows(model, K)
    return float(math.sqrt(rows.max())) if rows.size else 0.0


def gershgorin_rows(model: Model, K: sp.csr_matrix | None = None) -> np.ndarray:
    """(3N,) [1/s²]: Σ_j |K_ij| / √(m_i m_j) over the free DOFs j, for each free DOF i
    (0 on fixed DOFs), K by default at the initial geometry."""
    m = model.arrays
    K = stiffness(model) if K is None else K
    free = ~m.fixed.ravel()
    out = np.zeros(free.size)
    if not free.any():
        return out
    w = 1.0 / np.sqrt(m.mass.ravel()[free])
    A = abs(K[free][:, free]).tocsr()
    out[free] = np.asarray(A.multiply(w[:, None]).multiply(w[None, :]).sum(axis=1)).ravel()
    return out


MAX_DT = 1e-3  # [s] so that load histories and contact stay resolved
STEP_MARGIN = 0.8  # covers the growth of the frequency bound as elements rotate (a rotated bar's Gershgorin row sums grow by up to 1.21)


def stable_dt(model: Model, method: str) -> float:
    """A stable constant step [s] for 'rk4' or 'symplectic' (at most MAX_DT).

    Each mode of the structure is a damped oscillator x'' + c x' + ω² x = 0 with the
    Rayleigh damping c = α + β ω² (α: mass-proportional, β: the largest element's
    stiffness-proportional damping), for ω from 0 (a rigid or mechanism mode) up to
    the bound ω_max on the highest frequency. The step must be stable for all of them.

    Semi-implicit Euler (v += h a; x += h v) has the amplification matrix of trace
    2 − hc − h²ω² and determinant 1 − hc; both roots lie in the unit circle (Jury) when
    hc + h²ω²/2 ≤ 2. The left side grows with ω, so ω_max binds:
        h ≤ (2/ω)(√(1 + ζ²) − ζ),  ζ = c / (2ω) at ω = ω_max
    (2/ω undamped; 2/α for a rigid mode under mass damping alone).

    RK4 is stable where |1 + z + z²/2 + z³/6 + z⁴/24| ≤ 1 for every z = hλ, λ the
    roots −c/2 ± √(c²/4 − ω²): 2√2/ω on the imaginary axis (undamped), 2.785/|λ| on the
    real axis (overdamped), as little as 2.616/|λ| between. No closed form covers every
    angle, so the step is found by bisection over the modes ω ∈ [0, ω_max]. Light damping
    would allow a little more than 2√2/ω_max (the region bulges to 2.96 at 99°), but a
    structure that stiffens as it deforms loses that first: the undamped limit caps it.

    STEP_MARGIN then covers the bound's growth as the structure deforms.
    """
    m = model.arrays
    omega = max_frequency_bound(model)
    alpha = float(m.mass_damping)
    beta = results.largest_damping(m)
    if omega <= 0.0 and alpha <= 0.0:
        return MAX_DT
    if method == "rk4":
        h = _rk4_limit(omega, alpha, beta)
    else:
        c = alpha + beta * omega * omega
        h = 2.0 / c if omega <= 0.0 else 2.0 / omega * (math.sqrt(1.0 + (c / (2.0 * omega)) ** 2) - c / (2.0 * omega))
    return min(MAX_DT, STEP_MARGIN * h)


def _rk4_limit(omega_max: float, alpha: float, beta: float) -> float:
    """The largest h [s] at which RK4 is stable for every mode ω ∈ [0, ω_max] of
    x'' + (α + βω²) x' + ω² x = 0 (see stable_dt): bisection to 1e-6 relative."""
    w = omega_max * np.linspace(0.0, 1.0, 1025)
    c = alpha + beta * w * w
    root = np.sqrt((0.25 * c * c - w * w).astype(complex))
    lam = np.concatenate((-0.5 * c + root, -0.5 * c - root))
    lam = lam[np.abs(lam) > 0.0]

    def stable(h: float) -> bool:
        z = h * lam
        return bool(np.all(np.abs(1.0 + z * (1.0 + z * (0.5 + z * (1.0 / 6.0 + z / 24.0)))) <= 1.0 + 1e-12))

    if not lam.size:
        return math.inf
    if alpha == 0.0 and beta == 0.0:
        return 2.0 * math.sqrt(2.0) / omega_max  # undamped: the imaginary axis, exactly
    lo, hi = 0.0, 3.0 / float(np.abs(lam).max())  # the region reaches at most 2.96 from 0 in the left half-plane
    while hi - lo > 1e-6 * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if stable(mid) else (lo, mid)
    return min(lo, 2.0 * math.sqrt(2.0) / omega_max) if omega_max > 0.0 else lo


def lowest_frequency(model: Model) -> float | None:
    """The lowest elastic natural frequency ω₁ [rad/s], or None (engine/stiffness.py)."""
    return _lowest_frequency(model.arrays)


@dataclass(frozen=True)
class Mechanism:
    """The free motions of a structure: every motion that no element resists.

    basis: (3N, k) [m, m, rad] a basis of the free motions (the null space of K_ff, zero
    on held DOFs). A solver may return any basis of that space, and which one depends on
    the machine's LAPACK; so nothing here reads the basis but through the space it
    spans: its orthogonal projector, the same for every basis.
    """

    basis: np.ndarray
    message: str

    @property
    def count(self) -> int:
        """How many independent free motions (the null space's dimension)."""
        return int(self.basis.shape[1])

    @cached_property
    def orthonormal(self) -> np.ndarray:
        """(3N, k) an orthonormal basis of the same space (the projector is Q Qᵀ)."""
        q, _ = np.linalg.qr(self.basis)
        return q

    @cached_property
    def mode(self) -> np.ndarray:
        """(N, 3) one free motion to show, the same whatever basis was found (sign
        included): a fixed generic motion projected onto the space, scaled so that its
        largest entry is ±1."""
        q = self.orthonormal
        generic = np.sin(1.0 + 2.399963 * np.arange(q.shape[0]))  # no pattern of its own, so no free motion is orthogonal to it
        v = q @ (q.T @ generic)
        biggest = float(np.abs(v).max())
        return (v / biggest if biggest > 0.0 else v).reshape(-1, 3)

    def moving(self, tol: float = 1e-3) -> np.ndarray:
        """Indices of the nodes some free motion moves: those whose translation, in the
        space, passes `tol` of the largest; where no node translates, those that spin."""
        rows = np.linalg.norm(self.orthonormal.reshape(-1, 3, self.count), axis=2)  # (N, 3): each DOF's reach in the space
        size = np.hypot(rows[:, 0], rows[:, 1])
        if size.max() < tol * rows.max():
            size = rows[:, 2]
        return np.flatnonzero(size > tol * size.max())


@dataclass(frozen=True)
class LinearResult:
    displacement: np.ndarray  # (N, 3) [m, m, rad]
    reactions: np.ndarray  # (N, 3) [N, N, N m], non-zero only on fixed DOFs
    mechanism: Mechanism | None
    slack: np.ndarray | None = None  # (B,) bool: the cables that are slack (their force is 0)
    problem: str | None = None  # why no answer could be verified (then there is none)


def find_mechanism(model: Model, K: sp.csr_matrix, free: np.ndarray) -> Mechanism | None:
    """Every free motion of K_ff (None when there is none): its null space, found as the
    eigenvectors of K_ff scaled to unit diagonal (so that translations and rotations
    compare) whose eigenvalue is below MECHANISM_TOL. A DOF with no stiffness at all is
    a free motion by itself."""
    if not free.any():
        return None  # every DOF is held: nothing can move
    kff = K[free][:, free].tocsr()
    diag = kff.diagonal()
    free_idx = np.flatnonzero(free)
    scale = float(np.abs(diag).max(initial=0.0))
    loose = diag <= 1e-12 * scale if scale > 0 else np.ones(diag.size, dtype=bool)
    held = np.flatnonzero(~loose)
    columns = [np.flatnonzero(loose)[None, :] == np.arange(diag.size)[:, None]]  # a unit vector per loose DOF
    if held.size:
        d = 1.0 / np.sqrt(diag[held])
        S = sp.csr_matrix(kff[held][:, held].multiply(d[:, None]).multiply(d[None, :]))
        null = np.zeros((diag.size, 0))
        vectors = _null_space(S)
        if vectors.shape[1]:
            null = np.zeros((diag.size, vectors.shape[1]))
            null[held] = d[:, None] * vectors
        columns.append(null)
    basis_free = np.hstack(columns).astype(float)
    if not basis_free.shape[1]:
        return None
    basis = np.zeros((free.size, basis_free.shape[1]))
    basis[free_idx] = basis_free
    words = "some nodes are held by nothing" if loose.any() else "it can move without deforming"
    return Mechanism(basis, f"this structure is a mechanism: {words}")


def _null_space(S: sp.csr_matrix) -> np.ndarray:
    """(n, k) the eigenvectors of the symmetric S whose eigenvalue is ≤ MECHANISM_TOL."""
    n = S.shape[0]
    if n <= DENSE_LIMIT:
        lam, vec = scipy.linalg.eigh(S.toarray())
        return vec[:, lam <= MECHANISM_TOL]
    k = min(8, n - 1)
    while True:
        lam, vec = spla.eigsh(S, k=k, sigma=-1e-6, which="LM")
        if (lam > MECHANISM_TOL).any() or k == n - 1:
            return vec[:, lam <= MECHANISM_TOL]
        k = min(2 * k, n - 1)  # all k found are free motions: there may be more


def mechanism(model: Model, active=None) -> Mechanism | None:
    """The free motion of the model at its reference geometry with the elements
    `active` (default: all), or None when it is a structure."""
    m = model.arrays
    T = rollers.turn(m)
    found = find_mechanism(model, rollers.turned(stiffness(model, active=active), T), ~m.fixed.ravel() & ~rollers.across(m))
    return found if found is None or T is None else Mechanism(T @ found.basis, found.message)


def load_vector(model: Model, t: float) -> np.ndarray:
    """External forces (N, 3) at time t: loads, gravity and ground acceleration on the
    lumped masses [N, N, N m]."""
    m = model.arrays
    f = np.zeros_like(m.pos0)
    ax = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ax_hist, t) if m.ground_ax_hist >= 0 else 0.0
    ay = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ay_hist, t) if m.ground_ay_hist >= 0 else 0.0
    f[:, 0] -= m.mass[:, 0] * ax
    f[:, 1] -= m.mass[:, 1] * (m.gravity + ay)
    return f + nodal_loads(model, t)


def nodal_loads(model: Model, t: float) -> np.ndarray:
    """The model's point loads at time t, summed per node (N, 3) [N, N, N m]; no
    gravity, no ground acceleration."""
    m = model.arrays
    f = np.zeros_like(m.pos0)
    for e in range(len(m.load_node)):
        s = history_value(m.hist_start, m.hist_t, m.hist_v, m.load_hist[e], t) if m.load_hist[e] >= 0 else 1.0
        f[m.load_node[e]] += s * m.load_f[e]
    return f


def prescribed_displacement(model: Model, t: float) -> np.ndarray:
    """Support displacements (N, 3) at time t (settlements), zero elsewhere."""
    m = model.arrays
    u = np.zeros_like(m.pos0)
    for q, d in np.argwhere(m.motion_hist >= 0):
        u[q, d] = history_value(m.hist_start, m.hist_t, m.hist_v, m.motion_hist[q, d], t)
    return u


def solve_linear(model: Model, t: float | None = None, active=None) -> LinearResult:
    """Small-displacement static answer with every load at its value at time t (default:
    the end of the histories, i.e. the final values).

    Cables carry tension only: the answer is the minimum of the total potential energy
    with each cable a spring that only pulls (engine/tension_only.py), so every taut
    cable is stretched and every slack one (force 0) shortened, and it is returned only
    once its out-of-balance force is within round-off of zero. A slack cable is not
    needed where the rest holds: an X-braced bay whose columns shorten both diagonals
    under vertical loads stands (sway would stretch one of them). Where the loads do
    work along a motion that no element resists and no cable is stretched by, the
    structure is a mechanism under its loads, reported with that free motion; where the
    solve cannot verify an answer, `problem` says so and no answer is given.
    """
    m = model.arrays
    t = model.load_end_time if t is None else t
    # Rollers on a line: the solve runs on the turned DOFs, each roller's across slot
    # held (engine/rollers.py); u, the reactions and free motions are turned back.
    T = rollers.turn(m)
    back = (lambda v: v) if T is None else (lambda v: T @ v)
    F = load_vector(model, t).ravel()
    F = F if T is None else T.T @ F
    us = prescribed_displacement(model, t).ravel()  # zero on a roller's node: T leaves it
    free = ~m.fixed.ravel() & ~rollers.across(m)
    on = results.all_on(m) if active is None else {kind: a.copy() for kind, a in active.items()}
    K_all = rollers.turned(stiffness(model, active=on), T)
    mech = find_mechanism(model, K_all, free)
    if mech is not None:  # a mechanism even with every cable taut
        return LinearResult(np.zeros_like(m.pos0), np.zeros_like(m.pos0), Mechanism(back(mech.basis), mech.message))
    cables = m.bar_cable & on["bar"]
    b = F[free] - K_all[free][:, ~free] @ us[~free]
    start = spla.spsolve(K_all[free][:, free].tocsc(), b) if free.any() else np.zeros(0)
    u = us.copy()
    u[free] = start
    if not cables.any() or np.all(bar_axial_linear(model, back(u).reshape(-1, 3))[cables] >= 0.0):
        return _answer(u, K_all, F, np.zeros(len(cables), bool), free, back)  # every cable stretched: the plain answer
    K = rollers.turned(stiffness(model, active={**on, "bar": on["bar"] & ~cables}), T)
    G = elongation_rows(model, np.flatnonzero(cables))
    G = G if T is None else (G @ T).tocsr()
    loose = find_mechanism(model, K, free)  # what the structure without its cables allows
    Z = loose.basis[free] if loose is not None else np.zeros((int(free.sum()), 0))
    b_cut = F[free] - K[free][:, ~free] @ us[~free]  # the loads less what the support motions push through the rest
    found = tension_only.solve(K[free][:, free].tocsr(), b_cut, G[:, free].tocsr(), G[:, ~free] @ us[~free], m.bar_k[cables], start, Z)
    zero = np.zeros_like(m.pos0)
    if found.free_motion is not None:
        basis = np.zeros((free.size, 1))
        basis[free, 0] = found.free_motion
        basis = back(basis)
        moving = Mechanism(basis, "").moving()
        names = ", ".join(model.node_ids[q] for q in moving)
        nodes = f"nodes {names} move" if len(moving) > 1 else f"node {names} moves"
        words = f"this structure is a mechanism under its loads: they shorten cables that alone could hold it, and {nodes} freely"
        return LinearResult(zero, zero, Mechanism(basis, words))
    if found.failure is not None:
        return LinearResult(zero, zero, None, None, found.failure)
    u[free] = found.x
    slack = np.zeros(len(cables), bool)
    slack[np.flatnonzero(cables)[~found.taut]] = True
    return _answer(u, rollers.turned(stiffness(model, active={**on, "bar": on["bar"] & ~slack}), T), F, slack, free, back)


def _answer(u: np.ndarray, K: sp.csr_matrix, F: np.ndarray, slack: np.ndarray, free: np.ndarray, back) -> LinearResult:
    """The answer u (3N,) with the stiffness K of the elements that carry (slack cables
    left out): reactions K u − F on the held DOFs; both turned back by `back`."""
    R = K @ u - F
    R[free] = 0.0
    return LinearResult(back(u).reshape(-1, 3), back(R).reshape(-1, 3), None, slack)


def elongation_rows(model: Model, rows: np.ndarray) -> sp.csr_matrix:
    """(len(rows), 3N) [1]: each bar's elongation per displacement, e·(u_j − u_i) with e
    its unit vector at the start (the small-displacement law of engine/elements/bar.py)."""
    m = model.arrays
    ij = m.bar_ij[rows].astype(np.int64)
    d = m.pos0[ij[:, 1], :2] - m.pos0[ij[:, 0], :2]
    e = d / np.hypot(d[:, 0], d[:, 1])[:, None]
    r = np.repeat(np.arange(len(rows)), 4)
    c = np.stack((3 * ij[:, 0], 3 * ij[:, 0] + 1, 3 * ij[:, 1], 3 * ij[:, 1] + 1), axis=1).ravel()
    v = np.concatenate((-e, e), axis=1).ravel()
    return sp.csr_matrix((v, (r, c)), shape=(len(rows), m.pos0.size))


def bar_axial_linear(model: Model, u: np.ndarray) -> np.ndarray:
    """Axial forces (B,) [N] of bars for small displacements u (N, 3) (engine/elements/bar.py)."""
    return bar_axial_small(model.arrays, u)


def triangle_stress_linear(model: Model, u: np.ndarray) -> np.ndarray:
    """(T, 3) [σx, σy, τxy] in global axes [Pa] for small displacements u (engine/elements/cst.py)."""
    return tri_stress_small(model.arrays, u)


def stiffest_element(model: Model) -> tuple[str, int, float]:
    """The element with the highest frequency bound, (kind, row, ω [rad/s]), kind being
    "bar", "beam" or "triangle": max over its DOFs of Σ_j |k_ij| / m_dof."""
    m = model.arrays
    mass = m.mass.ravel()
    best = ("bar", 0, 0.0)
    for kind, (ke, dofs) in start_blocks(m).items():
        if not len(ke):
            continue
        w2 = (np.abs(ke).sum(axis=2) / mass[dofs]).max(axis=1)
        row = int(np.argmax(w2))
        if w2[row] > best[2] ** 2:
            best = (kind, row, float(math.sqrt(w2[row])))
    return best
