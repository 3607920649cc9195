"""Newmark's faster path (issue 24, point 6) against answers it does not make itself.

- The profile LDLᵀ (engine/profile_ldl.py) solves symmetric positive definite systems as
  a dense LAPACK solve does, and refuses (None: the caller takes SuperLU's LU) a matrix
  that is indefinite or not symmetric.
- Newmark with it and with Newton's early stop gives the answer of the reference path
  (SuperLU for every factor, Newton stopping only on the residual it measured) to within
  Newton's own tolerance, on a truss that sags far (the geometry changing under Newton),
  in fewer iterations.

Glossary: S a sparse symmetric matrix (CSC, both triangles stored), b a right-hand side,
L the size Newton's increments are measured against [m] (the model's char_length).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from benchmarks.peer import warren
from equilibria.engine.model import build_model
from equilibria.engine.profile_ldl import Profile, ProfileLDL
from equilibria.engine.simulation import Simulation


def grid_matrix(k: int, shift: float, seed: int) -> sp.csc_matrix:
    """A k × k grid's Laplacian (a 2D mesh's pattern: the profile's hard case) with random
    positive weights on its edges, plus shift on the diagonal, its numbering shuffled."""
    rng = np.random.default_rng(seed)
    n = k * k
    rows, cols, vals = [], [], []
    for a in range(n):
        for b in (a + 1, a + k):
            if b < n and (b != a + 1 or b % k):
                w = rng.uniform(0.5, 2.0)
                rows += [a, b, a, b]
                cols += [b, a, a, b]
                vals += [-w, -w, w, w]
    S = sp.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsc() + shift * sp.identity(n, format="csc")
    p = rng.permutation(n)
    return sp.csc_matrix(S[p][:, p])


def factor_of(S: sp.csc_matrix):
    S = sp.csc_matrix(S)
    S.sort_indices()
    return Profile(S.indptr, S.indices, S.shape[0]).factor(S.data)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_symmetric_positive_definite_system_is_solved_as_lapack_solves_it(seed):
    """S = a weighted grid Laplacian + 0.1 I, condition number about 10³: the two solves
    agree to 1e-10 of the answer's size (round-off times the condition number, with room)."""
    S = grid_matrix(12, 0.1, seed)
    b = np.random.default_rng(seed).standard_normal(S.shape[0])
    f = factor_of(S)
    assert isinstance(f, ProfileLDL)
    x = f.solve(b)
    expected = np.linalg.solve(S.toarray(), b)
    np.testing.assert_allclose(x, expected, rtol=0, atol=1e-10 * np.abs(expected).max())


def test_an_indefinite_or_unsymmetric_matrix_is_refused():
    """A shift below the Laplacian's zero eigenvalue makes S indefinite (a negative
    pivot); one off-diagonal entry changed on one side makes it unsymmetric."""
    assert factor_of(grid_matrix(6, -0.05, 4)) is None
    S = grid_matrix(6, 0.1, 4).tolil()
    S[0, 1] = S[0, 1] + 0.3
    S[1, 0] = S[1, 0] - 0.3
    assert factor_of(S) is None


def sagging(reference: bool):
    """A 200-panel Warren truss pinned at its ends and middle, let go under gravity: each
    100 m span (1 m deep) falls about a metre in 0.5 s of Newmark steps (the sagging
    truss of benchmarks/speed.py, shorter)."""
    data = warren(200)
    data["supports"] = [{"node": f"b{i}", "fix": ["x", "y"]} for i in (0, 100, 200)]
    model = build_model(data, statics_only=True)
    sim = Simulation(model, "newmark")
    nm = sim.implicit
    if reference:
        nm.profile, nm.fast = False, 0.0
    sim.advance(0.5)
    return sim, model


def test_the_fast_path_gives_the_reference_s_answer_in_fewer_iterations():
    """Both paths stop Newton where no DOF moves more than 1e-10 L in an iteration and the
    residual is under 1e-9 of the loads: their positions agree to 1e-8 L (60 steps of a
    motion that is not chaotic: the differences add up, they do not grow), velocities
    to 1e-6 of the largest speed."""
    fast, model = sagging(False)
    ref, _ = sagging(True)
    assert isinstance(fast.implicit._lu[1], ProfileLDL)
    assert not isinstance(ref.implicit._lu[1], ProfileLDL)
    sag = model.arrays.pos0[:, 1].min() - fast.state.pos[:, 1].min()
    assert 0.3 < sag < 3.0  # it moved far: the comparison is not between two still trusses
    L = model.char_length
    np.testing.assert_allclose(fast.state.pos, ref.state.pos, rtol=0, atol=1e-8 * L)
    np.testing.assert_allclose(fast.state.vel, ref.state.vel, rtol=0, atol=1e-6 * np.abs(ref.state.vel).max())
    assert fast.implicit.iterations < ref.implicit.iterations
