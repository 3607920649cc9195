"""The small-displacement static answer of a structure with cables (tension only), as
the convex problem it is.

Glossary: x (n,) [m, m, rad] displacements of the free DOFs; K (n, n) the stiffness of
every element but the cables [N/m, N, N m]; b (n,) [N, N, N m] the loads on the free
DOFs less what the prescribed support motions push on them; G (C, n) [1] each cable's
elongation per free displacement (e·(u_j − u_i), the bar's own small-displacement law),
e0 (C,) [m] its elongation from the support motions; k (C,) [N/m] its stiffness EA/L0;
e = G x + e0 the elongations; (e)₊ = max(e, 0).

A cable is a spring that pulls when stretched and does nothing when shortened, so the
total potential energy
    Π(x) = ½ xᵀ K x − bᵀ x + Σ_c ½ k_c (e_c)₊²
is convex and piecewise quadratic, and its gradient
    ∇Π = K x − b + Gᵀ k (e)₊
is the out-of-balance force with every taut cable pulling k e and every slack one
nothing. An equilibrium is exactly a minimum of Π (∇Π = 0): no cable in compression and
no slack cable stretched hold by construction. Π unbounded below means the loads do
positive work along a motion that stretches no cable and deforms nothing: a mechanism
under its loads.

Π is minimised by Newton's method with an exact line search (a semismooth Newton
method): the Newton direction on the piece where the iterate is,
    d = −(K + Gᵀ diag(k [e > 0]) G + μ Gᵀ diag(k [e ≤ 0]) G)⁻¹ ∇Π,
the slack cables kept at μ = REGULARISE of their stiffness so that the matrix is
positive definite whenever the structure with every cable taut is one (checked before);
this only shapes the direction. The step along d minimises Π exactly: Π(x + αd) is a
convex piecewise quadratic in α whose derivative is piecewise linear and rises, so its
root is found by walking the cables' break points (line_minimum). Every step lowers Π
strictly, so the iteration cannot cycle (an active-set loop that flips the set of slack
cables can), and on the piece of the minimum the full Newton step lands on it. The
answer is returned only when its out-of-balance force is within round-off of zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

REGULARISE = 1e-6  # the share of their stiffness slack cables keep in the Newton matrix (only the direction)
FREE_CURVATURE = 1e-10  # Π's curvature along d over dᵀ diag(K + Gᵀ k G) d below which d is a free motion (as engine/linear.py's MECHANISM_TOL)
RESIDUAL = 1e-9  # the out-of-balance force accepted, as a share of the load
MAX_NEWTON = 200  # each step lowers Π strictly; a net of C cables settles in a handful


@dataclass(frozen=True)
class TensionOnly:
    """The minimum of Π, or why there is none.

    x: (n,) the free DOFs' displacements (zeros without an answer);
    elongation: (C,) [m] e at x; taut: (C,) bool e > 0 (the others carry nothing);
    free_motion: (n,) a motion along which the loads do work and nothing resists, when
    Π is unbounded below (a mechanism under the loads), else None;
    failure: why no answer was verified (the iteration did not settle), else None."""

    x: np.ndarray
    elongation: np.ndarray
    taut: np.ndarray
    free_motion: np.ndarray | None = None
    failure: str | None = None


def solve(K: sp.csr_matrix, b: np.ndarray, G: sp.csr_matrix, e0: np.ndarray, k: np.ndarray, start: np.ndarray, free_motions: np.ndarray) -> TensionOnly:
    """The minimum of Π (module note) from the displacements `start` (n,), e.g. the
    answer with every cable taut. free_motions: (n, r) a basis of K's null space (the
    motions the structure without its cables allows).

    Π's minimum scales with (b, e0): the problem is solved with both divided by a power
    of two near their size (exactly, so loads of 1e-290 N lose nothing to subnormal
    arithmetic) and the answer scaled back."""
    size = max(float(np.abs(b).max(initial=0.0)), float(np.abs(k * e0).max(initial=0.0)))
    if size == 0.0:  # no load, no support motion: the structure stays where it is
        return TensionOnly(np.zeros_like(start), e0.copy(), e0 > 0.0)
    unit = math.ldexp(1.0, math.frexp(size)[1])
    found = _solve(K, b / unit, G, e0 / unit, k, start / unit, free_motions)
    if found.free_motion is not None or found.failure is not None:
        return found
    return TensionOnly(found.x * unit, found.elongation * unit, found.taut)


def _solve(K: sp.csr_matrix, b: np.ndarray, G: sp.csr_matrix, e0: np.ndarray, k: np.ndarray, start: np.ndarray, free_motions: np.ndarray) -> TensionOnly:
    """solve() on loads of size about 1."""
    d = loaded_free_motion(b, G, free_motions)
    if d is not None:
        return TensionOnly(np.zeros_like(start), np.zeros_like(e0), np.zeros(len(e0), bool), free_motion=d)
    Gt = G.T.tocsr()
    scale = np.asarray(K.diagonal() + Gt.multiply(Gt).multiply(k[None, :]).sum(axis=1).A1)  # diag(K + Gᵀ k G), for the curvature test
    x = start.astype(float).copy()
    for _ in range(MAX_NEWTON):
        e = G @ x + e0
        grad = K @ x - b + Gt @ (k * np.maximum(e, 0.0))
        if np.abs(grad).max(initial=0.0) <= _tolerance(K, b, Gt, k, x, e):
            taut = e > 0.0
            return TensionOnly(x, e, taut)
        share = np.where(e > 0.0, k, REGULARISE * k)
        H = (K + Gt @ sp.diags(share) @ G).tocsc()
        d = -spla.spsolve(H, grad)
        if not np.all(np.isfinite(d)):
            break
        alpha = line_minimum(float(d @ (K @ x - b)), float(d @ (K @ d)), e, G @ d, k, FREE_CURVATURE * float(scale @ (d * d)))
        if alpha is None:
            return TensionOnly(np.zeros_like(x), np.zeros_like(e0), np.zeros(len(e0), bool), free_motion=d)
        if alpha <= 0.0:
            break  # no descent left above round-off, yet the residual is not small: fails below
        x = x + alpha * d
    e = G @ x + e0
    return TensionOnly(np.zeros_like(x), e, e > 0.0, failure="the tension-only solve of the cables did not settle on an equilibrium")


def loaded_free_motion(b: np.ndarray, G: sp.csr_matrix, Z: np.ndarray) -> np.ndarray | None:
    """A motion d = Z y that deforms nothing (K d = 0), stretches no cable (G d ≤ 0) and
    along which the loads do work (bᵀd > 0), or None when there is none, i.e. when Π is
    bounded below (a convex quadratic with (·)₊² terms falls without end only along
    such a direction). A linear program: max bᵀZy over G Z y ≤ 0, −1 ≤ y ≤ 1; work under
    RESIDUAL of |b| |d| is round-off, not a motion."""
    if not Z.shape[1]:
        return None
    c = -(Z.T @ b)
    GZ = np.asarray(G @ Z)
    rows = GZ.shape[0] > 0
    import scipy.optimize  # here, not at the top: it adds a third of a second to every start

    res = scipy.optimize.linprog(c, A_ub=GZ if rows else None, b_ub=np.zeros(GZ.shape[0]) if rows else None, bounds=[(-1.0, 1.0)] * Z.shape[1], method="highs")
    if res.status != 0:
        return None
    d = Z @ res.x
    size = float(np.linalg.norm(d))
    if size == 0.0 or -res.fun <= RESIDUAL * float(np.linalg.norm(b)) * size:
        return None
    return d


def _tolerance(K, b, Gt, k, x, e) -> float:
    """The out-of-balance force [N] an answer may keep: RESIDUAL of the loads, or the
    round-off of the forces summed at the DOFs (ε Σ|K_ij x_j| and the cables' own) if
    that is larger."""
    eps = np.finfo(float).eps
    summed = abs(K) @ np.abs(x) + abs(Gt) @ (k * np.abs(np.maximum(e, 0.0)))
    return max(RESIDUAL * float(np.abs(b).max(initial=0.0)), 1e3 * eps * float(summed.max(initial=0.0)), 1e-300)


def line_minimum(slope0: float, curvature: float, e: np.ndarray, s: np.ndarray, k: np.ndarray, flat: float) -> float | None:
    """The α ≥ 0 minimising φ(α) = Π(x + α d), or None when φ falls without end.

    slope0 = dᵀ(K x − b), curvature = dᵀ K d, e the elongations at x, s = G d their rates.
    φ'(α) = slope0 + α curvature + Σ k_c (e_c + α s_c)₊ s_c is piecewise linear and
    non-decreasing; between break points α_c = −e_c / s_c it is p + q (α − α₀). Walk the
    break points in order from α = 0, switching each cable on (s > 0) or off (s < 0) as
    it is passed, until φ' reaches 0. Returns 0 when φ'(0) ≥ 0 (no descent), None when
    past the last break point φ' is still negative and its rate q at most `flat` (d is
    then a free motion: it deforms nothing and stretches no cable, and the loads do
    work along it)."""
    on = (e > 0.0) | ((e == 0.0) & (s > 0.0))  # taut just past α = 0
    p = slope0 + float(np.sum(k[on] * e[on] * s[on]))
    q = curvature + float(np.sum(k[on] * s[on] * s[on]))
    if p >= 0.0:
        return 0.0
    moving = s != 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        at = np.where(moving, -e / np.where(moving, s, 1.0), -1.0)
    ahead = np.flatnonzero(at > 0.0)
    a0 = 0.0
    for c in ahead[np.argsort(at[ahead], kind="stable")].tolist():
        step = at[c] - a0
        if p + q * step >= 0.0:
            return a0 - p / q
        p += q * step
        a0 = at[c]
        q += k[c] * s[c] * s[c] if s[c] > 0.0 else -k[c] * s[c] * s[c]
        q = max(q, curvature)  # round-off of the running sum: never below K's own part
    if q <= flat or not math.isfinite(a0 - p / q):
        return None
    return a0 - p / q
