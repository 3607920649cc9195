"""The global stiffness, assembled from each element kind's own blocks.

Every element kind gives its stiffness in its module (engine/elements/bar.py, beam.py,
beam_stability.py through beam.py, cst.py, neo_hookean.py), and engine/results.py, the
kinds' registry, gathers them (element_blocks); this module only places them. Two matrices:
- the small-displacement stiffness at a geometry (the direct stiffness method, seed 004
  §9.2): every element's material block at that geometry, no stress;
- the tangent at a state: d(internal force)/d(position), material and geometric.
It reads ModelArrays only, so that the model builder may use it (to tune damping to the
lowest mode) without importing the linear solve.

DOF numbering: 3 q + d for node q and d ∈ (x, y, rot).
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from equilibria.engine import rollers
from equilibria.engine.results import element_blocks

DENSE_LIMIT = 300  # free DOFs up to which eigenproblems are solved densely (sparse is faster beyond)


KEPT = 4  # models whose blocks at their start are kept (a check's model, its tuned copy, the run's)
_kept: list[tuple[object, dict, dict]] = []  # (ModelArrays, blocks at pos0, {active key: K}), newest first


def _at_start(m) -> tuple[dict, dict]:
    """The small-displacement blocks of m at its start and the matrices assembled from
    them so far, worked out once per model: ModelArrays are never written (engine/model.py),
    so a model whose arrays are the very same objects (the same model, or a copy with its
    damping tuned: `with_arrays`) has the same blocks. The entries hold their arrays, so
    no id is reused while kept."""
    for k, (arrays, blocks, made) in enumerate(_kept):
        if arrays is m or (type(arrays) is type(m) and all(a is b for a, b in zip(arrays, m, strict=True) if isinstance(a, np.ndarray))):
            if k:
                _kept.insert(0, _kept.pop(k))
            return blocks, made
    entry = (m, element_blocks(m, m.pos0), {})
    _kept.insert(0, entry)
    del _kept[KEPT:]
    return entry[1], entry[2]


def start_blocks(m) -> dict:
    """element_blocks(m, m.pos0), worked out once per model (_at_start); read only."""
    return _at_start(m)[0]


def assemble(m, pos: np.ndarray | None = None, active=None, chord: np.ndarray | None = None, *, tangent: bool = False) -> sp.csr_matrix:
    """Global stiffness (3N × 3N) [N/m, N, N m] at pos (default: the start); active:
    optional on-flags by kind ({kind: (E,) bool}, the keys of element_blocks, as
    engine/results.py on_flags gives them), off elements left out; tangent: see
    element_blocks. At the start (pos None or m.pos0 itself, no tangent) the blocks are
    worked out once per model and each set of active elements assembled once (_at_start):
    callers read the matrix and never change it."""
    pos = m.pos0 if pos is None else pos
    if pos is m.pos0 and not tangent:
        blocks, made = _at_start(m)
        on = None if active is None else _by_kind(blocks, active)
        on = None if on is None or all(a.all() for a in on.values()) else on
        key = None if on is None else tuple((kind, a.tobytes()) for kind, a in on.items())
        if key not in made:
            if len(made) >= KEPT:
                del made[next(iter(made))]  # the oldest: a zero-force check tries one set per member
            made[key] = _assembled(m, blocks, on)
        return made[key]
    blocks = element_blocks(m, pos, chord, tangent=tangent)
    return _assembled(m, blocks, None if active is None else _by_kind(blocks, active))


def _by_kind(blocks: dict, active: dict) -> dict[str, np.ndarray]:
    """The on-flags `active` for each kind of `blocks`, as bool arrays; KeyError where
    `active` lacks a kind of the blocks or names one they do not have (never another
    kind's flags)."""
    unknown = set(active) - set(blocks)
    if unknown:
        raise KeyError(f"on-flags for {sorted(unknown)}, which are no element kind (engine/elements/kernels.py KINDS: {', '.join(blocks)})")
    return {kind: np.asarray(active[kind], bool) for kind in blocks}


def _assembled(m, blocks: dict, active) -> sp.csr_matrix:
    """K from the blocks {kind: (ke, dofs)}, the elements off in `active` ({kind: on},
    each kind of the blocks; None: every element) left out."""
    rows, cols, vals = [], [], []
    for kind, (ke, dofs) in blocks.items():
        if active is not None:
            ke, dofs = ke[active[kind]], dofs[active[kind]]
        nd = dofs.shape[1]
        rows.append(np.repeat(dofs, nd, axis=1).ravel())
        cols.append(np.tile(dofs, (1, nd)).ravel())
        vals.append(ke.ravel())
    ndof = m.pos0.size
    return sp.coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(ndof, ndof)).tocsr()


def lowest_frequency(m) -> float | None:
    """The lowest elastic natural frequency ω₁ [rad/s] (rigid and mechanism modes, with
    ω ≈ 0, are skipped), or None when there is none."""
    free = ~m.fixed.ravel() & ~rollers.across(m)  # a roller's across slot held (engine/rollers.py)
    n = int(free.sum())
    if n == 0:
        return None
    K = rollers.turned(assemble(m), rollers.turn(m))[free][:, free]
    w = 1.0 / np.sqrt(m.mass.ravel()[free])
    A = sp.csr_matrix(K.multiply(w[:, None]).multiply(w[None, :]))
    top = float(abs(A).sum(axis=1).max())  # ≥ ω²_max
    if top <= 0.0:
        return None
    floor = 1e-9 * top
    if n <= DENSE_LIMIT:
        lam = scipy.linalg.eigvalsh(A.toarray())
    else:
        k = min(12, n - 2)
        lam = spla.eigsh(A, k=k, sigma=-1e-6 * top, which="LM", return_eigenvectors=False)
    elastic = np.sort(lam[lam > floor])
    return float(math.sqrt(elastic[0])) if elastic.size else None
