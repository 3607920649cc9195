"""A symplectic step of a bar truss written for numba's parallel prange, to measure
whether a second core pays for large explicit models (benchmarks.peer). Not the engine:
the engine's kernels run on one core; this is the same physics (co-rotational bars,
lumped mass, gravity, fixed DOFs) in three loops that can run in parallel without races:
each bar's force, then each node gathering the forces of its own bars (a node-to-bar
table built once, so no two threads write one node), then each node's kick and drift.
The one function is compiled twice, with parallel=True (prange splits the loops among
numba's threads) and with parallel=False (prange is range)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange


def _steps(n, dt, pos, vel, inv_mass, gy, ij, L0, k, fb, ptr, bar, sign, force):
    nb = ij.shape[0]
    nn = pos.shape[0]
    for _ in range(n):
        for e in prange(nb):
            i, j = ij[e, 0], ij[e, 1]
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            length = np.sqrt(dx * dx + dy * dy)
            t = k[e] * (length - L0[e]) / length
            fb[e, 0] = t * dx
            fb[e, 1] = t * dy
        for q in prange(nn):
            fx = 0.0
            fy = gy[q]
            for a in range(ptr[q], ptr[q + 1]):
                fx += sign[a] * fb[bar[a], 0]
                fy += sign[a] * fb[bar[a], 1]
            force[q, 0] = fx
            force[q, 1] = fy
            vel[q, 0] += dt * fx * inv_mass[q, 0]
            vel[q, 1] += dt * fy * inv_mass[q, 1]
            pos[q, 0] += dt * vel[q, 0]
            pos[q, 1] += dt * vel[q, 1]


_parallel = njit(parallel=True, error_model="numpy")(_steps)
_serial = njit(parallel=False, error_model="numpy")(_steps)


@dataclass
class Case:
    """A truss's arrays, ready to step."""

    pos: np.ndarray
    vel: np.ndarray
    inv_mass: np.ndarray
    gy: np.ndarray
    ij: np.ndarray
    L0: np.ndarray
    k: np.ndarray
    fb: np.ndarray
    ptr: np.ndarray
    bar: np.ndarray
    sign: np.ndarray
    force: np.ndarray

    @classmethod
    def of(cls, model) -> Case:
        m = model.arrays
        ij = m.bar_ij.astype(np.int64)
        n = m.pos0.shape[0]
        ends = np.concatenate([ij[:, 0], ij[:, 1]])  # a bar pulls its i end by +f, its j end by −f
        order = np.argsort(ends, kind="stable")
        bar = np.concatenate([np.arange(len(ij)), np.arange(len(ij))])[order]
        sign = np.concatenate([np.ones(len(ij)), -np.ones(len(ij))])[order]
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(ends, minlength=n), out=ptr[1:])
        inv = m.inv_mass[:, :2].copy()
        gy = np.where(m.fixed[:, 1], 0.0, -m.gravity * m.mass[:, 1])
        scratch = (np.zeros((len(ij), 2)), ptr, bar, sign, np.zeros((n, 2)))
        return cls(m.pos0[:, :2].copy(), np.zeros((n, 2)), inv, gy, ij, m.bar_L0.copy(), m.bar_k.copy(), *scratch)

    def run(self, steps: int, parallel: bool, dt: float = 1e-6) -> None:
        kernel = _parallel if parallel else _serial
        kernel(steps, dt, self.pos, self.vel, self.inv_mass, self.gy, self.ij, self.L0, self.k, self.fb, self.ptr, self.bar, self.sign, self.force)
