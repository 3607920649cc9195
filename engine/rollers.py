"""Rollers on a line at any angle: a support that holds its node's motion along the
line's unit normal n and leaves the motion along the line free (a roller on level
ground, n = (0, 1), is the same as fixing "y").

The constraint u·n = 0 is kept exactly, without a spring:
- in time (RK4, the symplectic step, relaxation, Newmark's residual), the force on the
  node loses its part along n, f ← f − (f·n) n, after every other force (tethers
  included) is summed. A node's x and y share one mass (and one fictitious mass in
  relaxation), so its acceleration then has no part along n either; it starts with no
  velocity along n (engine/model.py refuses one), so it never leaves its line. The
  reaction is what was taken off: R = −(f·n) n.
- in a matrix (the linear solve, Newmark's iteration matrix, the lowest frequency), the
  node's (x, y) turn into (along, across) = (t·u, n·u) with t = (n_y, −n_x) and the
  across slot is held: K̃ = Tᵀ K T, F̃ = Tᵀ F, u = T ũ, where T is the identity but for
  the 2×2 block [t n] of each roller node (orthogonal, so R = T R̃).

Glossary: R number of rollers; n (R, 2) unit normals; T (3N, 3N) the turn above.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numba import njit

from equilibria.engine.compiled.options import INNER, KERNEL


@njit(**KERNEL)
def hold_rollers(m, force):
    """Take off the force (N, 3) [N] on every roller node its part along the normal (for
    callers in Python; kernels inline `_hold_rollers`, as engine/dynamics.py's
    apply_supports)."""
    _hold_rollers(m, force)


@njit(**INNER, inline="always")
def _hold_rollers(m, force):
    for r in range(m.roller_node.shape[0]):
        q = m.roller_node[r]
        nx = m.roller_n[r, 0]
        ny = m.roller_n[r, 1]
        fn = force[q, 0] * nx + force[q, 1] * ny
        force[q, 0] -= fn * nx
        force[q, 1] -= fn * ny


def roller_reactions(m, force: np.ndarray) -> np.ndarray:
    """(N, 3) [N, N, N m]: the rollers' reactions −(f·n) n for the force f (N, 3) on the
    nodes before hold_rollers; zero elsewhere."""
    out = np.zeros_like(m.pos0)
    q = m.roller_node
    fn = (force[q, :2] * m.roller_n).sum(axis=1)
    out[q, :2] = -fn[:, None] * m.roller_n
    return out


def turn(m) -> sp.csr_matrix | None:
    """T (3N, 3N) (module note), or None when the model has no roller."""
    if not len(m.roller_node):
        return None
    n = m.pos0.size
    diag = np.ones(n)
    q = m.roller_node.astype(np.int64)
    nx, ny = m.roller_n[:, 0], m.roller_n[:, 1]
    # Columns 3q (along: t = (ny, −nx)) and 3q + 1 (across: n).
    diag[3 * q], diag[3 * q + 1] = ny, ny
    rows = np.concatenate((np.arange(n), 3 * q + 1, 3 * q))
    cols = np.concatenate((np.arange(n), 3 * q, 3 * q + 1))
    vals = np.concatenate((diag, -nx, nx))
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n))


def across(m) -> np.ndarray:
    """(3N,) bool: the held across slots of the turned DOFs (module note)."""
    out = np.zeros(m.pos0.size, dtype=bool)
    out[3 * m.roller_node.astype(np.int64) + 1] = True
    return out


def turned(K: sp.spmatrix, T: sp.csr_matrix | None) -> sp.csr_matrix:
    """Tᵀ K T (K itself when T is None)."""
    return K if T is None else (T.T @ K @ T).tocsr()
