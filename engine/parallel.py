"""The second core for large explicit models (issue 17, point 6): the elements' forces,
and the integrators' loops over the nodes, on all of numba's threads.

Measured on this project's 2-core machine, shared with other work (`python -m
benchmarks.peer --parts cores`, the X-braced lattice, million bar evaluations a second
of the engine's own step, two threads against the serial kernel, symplectic and RK4):
0.85× and 0.92× at 10,001 bars, 0.97× and 1.11× at 19,991, 1.07× and 1.21× at 29,981,
1.13× and 1.19× at 50,006. The parallel sum costs more per element than the serial one
(each element's forces go through rows of their own, and each step starts and joins
three or more parallel loops), so it pays only on large models. Hence
PARALLEL_MIN_ELEMENTS; the game's models are far smaller and stay serial (and never
compile this module's kernels).

No races and no atomics, and a result independent of the thread count: each element's
forces on its nodes are computed on their own (by its module's one formulation:
engine/bar.py's `bar_force`, beam.py's `beam_force`, elements.py's `triangle_force`),
into one row per element end, then each node gathers the rows of its own ends through
node-to-end tables built once per model. A node adds its bars, then its beams, then its
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
from engine.elements import ground, load_scale, node_weight, node_weight_lean, triangle_force

# Elements from which a model is stepped in parallel, given two threads: between the
# 19,991-bar lattice, where two threads about broke even (0.97× symplectic, 1.11× RK4),
# and the 29,981-bar one, where they paid (1.07×, 1.21×) (module note). Beams and
# triangles cost more per element than bars, so they pay at least as early.
PARALLEL_MIN_ELEMENTS = 25_000

# The parallel kernels' options: numba's runtime stays on (its thread pool's launch
# may use it), and parallel turns prange into loops split among the threads (in a
# kernel compiled without it, prange is range).
PARALLEL = {"cache": True, "error_model": "numpy", "parallel": True}


def gather_table(m) -> tuple:
    """The tables of model arrays m, one triple (ptr, end, row) per element kind: bars,
    beams, triangles. A kind's element ends are numbered e·c + corner (c = 2 ends of a
    bar or beam, 3 corners of a triangle); node q's are end[ptr[q]:ptr[q + 1]], in
    increasing order (so in the order of the serial sum); row (ends, 2) for bars and
    triangles, (ends, 3) for beams, is the scratch of each end's force [N, N, N m]."""
    n = m.pos0.shape[0]
    tables = ()
    for ij, width in ((m.bar_ij, 2), (m.beam_ij, 3), (m.tri_ijk, 2)):
        ends = ij.astype(np.int64).reshape(-1)
        ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(ends, minlength=n), out=ptr[1:])
        tables += (ptr, np.argsort(ends, kind="stable").astype(np.int64), np.zeros((len(ends), width)))
    loads = m.load_node.astype(np.int64)
    lp = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(loads, minlength=n), out=lp[1:])
    le = np.argsort(loads, kind="stable").astype(np.int64)
    return (*tables, lp, le, np.zeros(len(loads)), np.zeros((len(loads), 3)), np.zeros(n))


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
def eval_forces_parallel(m, pos, vel, t, chord, bar_on, beam_on, tri_on, force, bar_N, beam_out, tri_out, gather):
    """eval_forces (engine/elements.py) on all threads; gather is parallel_gather's
    table. Same arguments, outputs and result, bit for bit: each kind's element forces
    into the rows of their ends; then every node its external force and its loads, by
    the serial path's functions, and its own ends' rows; the power summed as the serial
    path does, over the nodes and then the loads in their order. An element that is
    off gives rows of −0.0, which adding leaves every number as it was, −0.0 too (as
    the serial sum, which skips it).

    Every loop over the nodes runs in parallel too, and so do the integrators' own
    (engine/dynamics.py, compiled for this path with numba's parallel on): a node's
    numbers stay with one core from step to step; otherwise the second core spends
    more time fetching what the first wrote than it saves."""
    bp, be, br, mp, me, mr, tp, te, tr, lp, le, ls, pl, pw = gather
    for e in range(ls.shape[0]):
        ls[e] = load_scale(m, e, t)
    for e in prange(m.bar_ij.shape[0]):
        if bar_on[e]:
            N, fx, fy = bar_force(m, e, pos, vel)
            bar_N[e] = N
            br[2 * e, 0] = fx
            br[2 * e, 1] = fy
            br[2 * e + 1, 0] = -fx  # `force[j] -= f` in the serial sum
            br[2 * e + 1, 1] = -fy
        else:
            bar_N[e] = 0.0
            for c in range(2):
                br[2 * e + c, 0] = -0.0
                br[2 * e + c, 1] = -0.0
    if m.beam_ij.shape[0] > 0:
        for e in prange(m.beam_ij.shape[0]):
            if beam_on[e]:
                fx, fy, M1, M2 = beam_force(m, e, pos, vel, chord, beam_out)
                mr[2 * e, 0] = fx
                mr[2 * e, 1] = fy
                mr[2 * e, 2] = -M1
                mr[2 * e + 1, 0] = -fx
                mr[2 * e + 1, 1] = -fy
                mr[2 * e + 1, 2] = -M2
            else:
                for c4 in range(4):
                    beam_out[e, c4] = 0.0
                for c in range(3):
                    mr[2 * e, c] = -0.0
                    mr[2 * e + 1, c] = -0.0
    if m.tri_ijk.shape[0] > 0:
        for e in prange(m.tri_ijk.shape[0]):
            if tri_on[e]:
                fjx, fjy, fkx, fky = triangle_force(m, e, pos, vel, tri_out)
                tr[3 * e, 0] = -(fjx + fkx)  # `force[i] -= fj + fk` in the serial sum
                tr[3 * e, 1] = -(fjy + fky)
                tr[3 * e + 1, 0] = fjx
                tr[3 * e + 1, 1] = fjy
                tr[3 * e + 2, 0] = fkx
                tr[3 * e + 2, 1] = fky
            else:
                for c4 in range(4):
                    tri_out[e, c4] = 0.0
                for c in range(3):
                    tr[3 * e + c, 0] = -0.0
                    tr[3 * e + c, 1] = -0.0
    ax, gy = ground(m, t)
    lean = m.mass_damping == 0.0 and ax == 0.0
    for q in prange(force.shape[0]):
        if lean:
            pw[q] = node_weight_lean(m, q, vel, force, gy)
        else:
            pw[q] = node_weight(m, q, vel, force, ax, gy)
        for a in range(lp[q], lp[q + 1]):  # load_forces, node by node
            e = le[a]
            for d in range(3):
                f = ls[e] * m.load_f[e, d]
                force[q, d] += f
                pl[e, d] = f * vel[q, d]
        fx = force[q, 0]
        fy = force[q, 1]
        for a in range(bp[q], bp[q + 1]):
            fx += br[be[a], 0]
            fy += br[be[a], 1]
        if mp[q] < mp[q + 1]:
            fr = force[q, 2]
            for a in range(mp[q], mp[q + 1]):
                fx += mr[me[a], 0]
                fy += mr[me[a], 1]
                fr += mr[me[a], 2]  # only beams turn nodes
            force[q, 2] = fr
        for a in range(tp[q], tp[q + 1]):
            fx += tr[te[a], 0]
            fy += tr[te[a], 1]
        force[q, 0] = fx
        force[q, 1] = fy
    power = 0.0  # summed in the serial path's order: the nodes', then the loads'
    for q in range(pw.shape[0]):
        power += pw[q]
    for e in range(pl.shape[0]):
        for d in range(3):
            power += pl[e, d]
    return power
