"""The second core for large explicit models (issue 17, point 6): the elements' forces
evaluated on all of numba's threads.

Measured on a 2-core machine (`python -m benchmarks.peer --parts cores`, a symplectic
step of the X-braced lattice), two threads evaluate bars 1.2× faster than the engine's
serial kernel at 10,001 bars and 1.6× at 50,006, but 0.84× as fast at 1,991: below some
thousands of elements, waking the second thread every force evaluation costs more than
it saves. Hence PARALLEL_MIN_ELEMENTS; the game's models are far smaller and stay serial
(and never compile this module's kernel).

No races and no atomics, and a result independent of the thread count: each element's
forces on its nodes are computed on their own (by its module's one formulation:
engine/bar.py's `bar_force`, beam.py's `beam_force`, elements.py's `triangle_force`),
into one row per element end, then each node gathers the rows of its own ends through a
node-to-end table built once per model. A node adds its bars, then its beams, then its
triangles, each in the order of their index, after its external forces, as the serial
sum does (engine/elements.py: eval_forces), and each end's force enters as the same
number, so every node's force is the serial path's to the bit, whatever the threads.
Tethers, damping, supports and histories are the serial path's own code.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from engine.bar import bar_force
from engine.beam import beam_force
from engine.elements import external_forces, triangle_force
from engine.kernel_options import INNER

# Elements from which a model's forces are evaluated in parallel, given two threads:
# between the 1,991 bars where two threads lost (0.84×) and the 10,001 where they won
# (1.2×) on this project's 2-core machines (module note). Beams and triangles cost more
# per element than bars, so they pay at least as early.
PARALLEL_MIN_ELEMENTS = 8_000

# The parallel kernel's options: numba's runtime stays on (its thread pool's launch
# may use it), parallel turns prange into loops split among the threads, and only
# kernels call it (no Python entry point: engine/kernel_options.py).
PARALLEL = {"cache": True, "error_model": "numpy", "parallel": True, "no_cpython_wrapper": True}


def gather_table(m) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ptr, end, row) for model arrays m. The element ends are numbered bars first
    (bar e's i end 2e, its j end 2e + 1), then beams (2B + 2e, 2B + 2e + 1), then
    triangles (2B + 2Bm + 3e + c for corner c); node q's ends are end[ptr[q]:ptr[q + 1]]
    in increasing order (so in the order of the serial sum); row (ends, 3) is the
    scratch of each end's force [N, N, N m]."""
    ends = np.concatenate([m.bar_ij.reshape(-1), m.beam_ij.reshape(-1), m.tri_ijk.reshape(-1)]).astype(np.int64)
    n = m.pos0.shape[0]
    end = np.argsort(ends, kind="stable").astype(np.int64)
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(ends, minlength=n), out=ptr[1:])
    return ptr, end, np.zeros((len(ends), 3))


def element_count(m) -> int:
    return m.bar_ij.shape[0] + m.beam_ij.shape[0] + m.tri_ijk.shape[0]


_TABLES: list[tuple[tuple, tuple]] = []  # the last few models' tables
_KEEP = 4


def parallel_gather(m, min_elements: int = PARALLEL_MIN_ELEMENTS):
    """The gather table of m when its elements are evaluated in parallel (at least
    min_elements of them and two of numba's threads), else None (the serial path).
    Tables are kept for the last few models: a model's arrays are never written."""
    if element_count(m) < min_elements or numba.get_num_threads() < 2:  # the count first: a small model never starts numba's threads
        return None
    key = (m.bar_ij, m.beam_ij, m.tri_ijk, m.pos0)
    for known, table in _TABLES:
        if all(a is b for a, b in zip(known, key, strict=True)):
            return table
    table = gather_table(m)
    _TABLES.insert(0, (key, table))
    del _TABLES[_KEEP:]
    return table


@njit(**PARALLEL)
def element_forces_parallel(m, pos, vel, chord, bar_on, beam_on, tri_on, force, bar_N, beam_out, tri_out, ptr, end, row):
    """Every active element's forces added to force (N, 3), and bar_N, beam_out and
    tri_out written, as eval_forces does after the external forces, in two parallel
    loops: every element's end forces into row, then every node's own ends added up."""
    nb = m.bar_ij.shape[0]
    nm = m.beam_ij.shape[0]
    for x in prange(nb + nm + m.tri_ijk.shape[0]):
        if x < nb:
            e = x
            if bar_on[e]:
                N, fx, fy = bar_force(m, e, pos, vel)
                bar_N[e] = N
                row[2 * e, 0] = fx
                row[2 * e, 1] = fy
                row[2 * e + 1, 0] = -fx  # `force[j] -= f` in the serial sum
                row[2 * e + 1, 1] = -fy
            else:
                bar_N[e] = 0.0
        elif x < nb + nm:
            e = x - nb
            if beam_on[e]:
                fx, fy, M1, M2 = beam_force(m, e, pos, vel, chord, beam_out)
                r = 2 * nb + 2 * e
                row[r, 0] = fx
                row[r, 1] = fy
                row[r, 2] = -M1
                row[r + 1, 0] = -fx
                row[r + 1, 1] = -fy
                row[r + 1, 2] = -M2
            else:
                for c4 in range(4):
                    beam_out[e, c4] = 0.0
        else:
            e = x - nb - nm
            if tri_on[e]:
                fjx, fjy, fkx, fky = triangle_force(m, e, pos, vel, tri_out)
                r = 2 * nb + 2 * nm + 3 * e
                row[r, 0] = -(fjx + fkx)  # `force[i] -= fj + fk` in the serial sum
                row[r, 1] = -(fjy + fky)
                row[r + 1, 0] = fjx
                row[r + 1, 1] = fjy
                row[r + 2, 0] = fkx
                row[r + 2, 1] = fky
            else:
                for c4 in range(4):
                    tri_out[e, c4] = 0.0
    for q in prange(force.shape[0]):
        fx = force[q, 0]
        fy = force[q, 1]
        fr = force[q, 2]
        for a in range(ptr[q], ptr[q + 1]):
            r = end[a]
            if r < 2 * nb:
                on = bar_on[r >> 1]
            elif r < 2 * (nb + nm):
                on = beam_on[(r - 2 * nb) >> 1]
                if on:
                    fr += row[r, 2]  # only beams turn nodes
            else:
                on = tri_on[(r - 2 * (nb + nm)) // 3]
            if on:
                fx += row[r, 0]
                fy += row[r, 1]
        force[q, 0] = fx
        force[q, 1] = fy
        force[q, 2] = fr


@njit(**INNER)
def eval_forces_parallel(m, pos, vel, t, chord, bar_on, beam_on, tri_on, force, bar_N, beam_out, tri_out, gather):
    """eval_forces (engine/elements.py) with the elements on all threads; gather is
    parallel_gather's table. Same arguments, outputs and result, bit for bit."""
    ptr, end, row = gather
    power = external_forces(m, vel, t, force)
    element_forces_parallel(m, pos, vel, chord, bar_on, beam_on, tri_on, force, bar_N, beam_out, tri_out, ptr, end, row)
    return power
