"""A symmetric positive definite solve for Newmark's iteration matrix: LDLᵀ in profile
(skyline) storage after a reverse Cuthill–McKee numbering (Bathe's COLSOL, row by row).

Newmark's matrix S = M/(β h²) + (1 + α)(K + γ/(β h) C) is symmetric, and positive
definite wherever the tangent K is not too indefinite (compression's geometric
stiffness is small beside M/(β h²) at a frame's step). The engine's large models are
long strips (lattice trusses, Warren trusses, frames), whose reverse Cuthill–McKee
numbering leaves a narrow profile: each row i of the lower triangle, from its first
non-zero column f_i to the diagonal, is stored contiguously. Then

    for j = f_i … i−1:   g_j = S_ij − Σ_{k = max(f_i, f_j)}^{j−1} g_k L_jk,
    L_ij = g_j / D_j,    D_i = S_ii − Σ_j g_j L_ij,

and a solve is a forward substitution (dot products along rows), a division by D and a
backward substitution (axpys along rows). A factor is n·w²/2 multiply-adds and a solve
4·n·w for a half-bandwidth w: for the 12-chord lattice of benchmarks/peer.py (w ≈ 27)
about a quarter of SuperLU's time to factor and half of it to solve.

Every sum runs in one fixed order (a dot product in four running sums), with no fast-math, so the factor and the solve give
the same bits on any CPU and any thread count. A pivot D_i that is not positive (S is not
positive definite) or not finite stops the factorization: the caller falls back to
SuperLU's LU with pivoting (engine/newmark.py).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numba import njit
from scipy.sparse.csgraph import reverse_cuthill_mckee

from equilibria.engine.compiled.options import INNER, KERNEL

# S is symmetric to round-off (a block's two triangles come from different products): a
# matrix whose two triangles differ by no more than this share of its largest entry is
# factored from its lower triangle (for the iteration matrix of a modified Newton, an
# error of that size changes nothing but the last bits of a step's iterations).
SYMMETRIC = 1e-12
PROFILE_LIMIT = 16  # a profile larger than this many times S's lower triangle is left to SuperLU


class Profile:
    """The profile of a symmetric pattern (CSC arrays of an n × n matrix holding both
    triangles) after its reverse Cuthill–McKee numbering, and where each stored entry of
    the lower triangle goes in it.

    perm (n,) int64: new → old numbering; first (n,) int64: f_i, each row's first
    column; start (n + 1,) int64: where row i's entries f_i … i begin in the values;
    lower (k,) int64: the entries of the CSC data that lie on or below the diagonal
    (new numbering) and place (k,) int64 their places in the values; upper (u,),
    mirror (u,): each entry above the diagonal and its mirror image's entry (S is
    symmetric when data[upper] == data[mirror])."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, n: int):
        pattern = sp.csc_matrix((np.ones(indices.size), indices, indptr), shape=(n, n))
        self.n = n
        self.perm = np.asarray(reverse_cuthill_mckee(pattern.tocsr(), symmetric_mode=True), dtype=np.int64)
        new = np.empty(n, dtype=np.int64)
        new[self.perm] = np.arange(n)
        col = np.repeat(np.arange(n), np.diff(indptr))
        r, c = new[indices.astype(np.int64)], new[col]
        row, cl = np.maximum(r, c), np.minimum(r, c)  # each entry's lower-triangle place
        first = np.arange(n)
        np.minimum.at(first, row, cl)
        self.first = first
        self.start = np.concatenate(([0], np.cumsum(np.arange(n) - first + 1))).astype(np.int64)
        below = r >= c
        self.lower = np.flatnonzero(below)
        self.place = self.start[r[below]] + c[below] - first[r[below]]
        self.upper = np.flatnonzero(~below)
        keys = r * n + c
        order = np.argsort(keys, kind="stable")
        mirror_keys = c[self.upper] * n + r[self.upper]
        at = np.minimum(np.searchsorted(keys[order], mirror_keys), keys.size - 1)
        found = keys[order][at] == mirror_keys
        self.mirror = order[at]
        self.symmetric_pattern = bool(found.all())
        self.size = int(self.start[-1])
        self.worth = self.symmetric_pattern and self.size <= PROFILE_LIMIT * self.lower.size

    def factor(self, data: np.ndarray) -> ProfileLDL | None:
        """LDLᵀ of the matrix with these CSC values (its lower triangle), or None when it
        is not symmetric (to SYMMETRIC) or not positive definite (the caller then takes LU)."""
        top = float(np.abs(data).max(initial=0.0))
        if not float(np.abs(data[self.upper] - data[self.mirror]).max(initial=0.0)) <= SYMMETRIC * top:
            return None
        values = np.zeros(self.size)
        values[self.place] = data[self.lower]
        if ldl_factor(self.start, self.first, values) != 0:
            return None
        return ProfileLDL(self, values)


class ProfileLDL:
    """A factor made by Profile.factor: solve(b) returns S⁻¹ b (SuperLU's interface)."""

    def __init__(self, profile: Profile, values: np.ndarray):
        self.profile = profile
        self.values = values
        self.nnz = values.size

    def solve(self, b: np.ndarray) -> np.ndarray:
        p = self.profile
        y = b[p.perm]
        ldl_solve(p.start, p.first, self.values, y)
        x = np.empty_like(y)
        x[p.perm] = y
        return x


@njit(**KERNEL)
def ldl_factor(start, first, a):
    """Factor in place (module note): a holds each row's entries f_i … i (the diagonal
    last); on return L below the diagonal and D on it. Returns 0, or i + 1 for the first
    pivot that is not positive and finite."""
    n = first.shape[0]
    for i in range(n):
        fi = first[i]
        si = start[i] - fi  # a[si + k] is row i's entry in column k
        for j in range(fi, i):
            fj = first[j]
            sj = start[j] - fj
            a[si + j] -= _dot(a, si, a, sj, max(fi, fj), j)  # g_j for now
        d = a[si + i]
        for j in range(fi, i):
            g = a[si + j]
            lij = g / a[start[j + 1] - 1]
            d -= g * lij
            a[si + j] = lij
        if not d > 0.0:  # also takes a NaN
            return i + 1
        a[si + i] = d
    return 0


@njit(**KERNEL)
def ldl_solve(start, first, a, b):
    """Solve L D Lᵀ x = b in place (b becomes x), the factor from ldl_factor."""
    n = first.shape[0]
    for i in range(n):  # L y = b
        fi = first[i]
        si = start[i] - fi
        b[i] -= _dot(a, si, b, 0, fi, i)
    for i in range(n):  # D z = y
        b[i] /= a[start[i + 1] - 1]
    for i in range(n - 1, -1, -1):  # Lᵀ x = z
        fi = first[i]
        si = start[i] - fi
        x = b[i]
        for k in range(fi, i):
            b[k] -= a[si + k] * x


@njit(**INNER, inline="always")
def _dot(u, su, w, sw, lo, hi):
    """Σ_{k = lo}^{hi−1} u[su + k] w[sw + k] in four running sums (k mod 4 from lo), added
    in a fixed order at the end: four chains of additions run side by side where one
    would wait on each addition (a fifth off a forward substitution's time), and the
    order is the same on every machine."""
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    k = lo
    while k + 4 <= hi:
        s0 += u[su + k] * w[sw + k]
        s1 += u[su + k + 1] * w[sw + k + 1]
        s2 += u[su + k + 2] * w[sw + k + 2]
        s3 += u[su + k + 3] * w[sw + k + 3]
        k += 4
    while k < hi:
        s0 += u[su + k] * w[sw + k]
        k += 1
    return (s0 + s1) + (s2 + s3)
