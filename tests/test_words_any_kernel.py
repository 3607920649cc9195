"""Mechanism words identical under every BLAS kernel (issue 26 point 5).

determinacy-03 with a second diagonal in the first panel (E–B, beside A–F) instead of one
in the middle panel is a mechanism whose middle panel shears: F and G, mirror images
across the panel's middle, move by the same amount. Which of the two the words named
once came from an `argmax` over two values equal but for round-off, and so from the
machine's BLAS kernel ("G … 45°" on one, "F … 135°" on another). Ties now go to the
node first in the level (F), by a rule that does not depend on rounding
(game/rules/motion.py `first_largest`). Checked three ways: the tie itself (by hand,
the two nodes move alike), the basis perturbed by 1e-12 relative noise as another
kernel's round-off would, and the words under three of OpenBLAS's kernels in
subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from equilibria.course.level import load_level
from equilibria.engine.linear import Mechanism, mechanism
from equilibria.engine.model import build_model
from equilibria.files.store import read_json
from equilibria.rules.motion import describe_motion, first_largest

ROOT = Path(__file__).resolve().parents[1]
WORDS = "nodes B, C, E, F, G and H can move without stretching any member (F along a line at 135° to the horizontal)"


def braced_twice():
    """determinacy-03 with the E–B diagonal: its model and free motion."""
    level = load_level(read_json(ROOT / "levels" / "determinacy-03.json"))
    data = level.model_data()
    data["members"].append({"id": "EB", "i": "E", "j": "B", "kind": "bar", "material": "steel", "A": 0.001})
    model = build_model(data, statics_only=True)
    return model, mechanism(model)


def test_the_two_nodes_named_move_alike_and_the_first_is_named():
    model, free = braced_twice()
    assert free is not None and free.count == 1
    u = free.orthonormal[:, 0].reshape(-1, 3)[:, :2]
    size = np.hypot(*u.T)
    f, g = model.node_index("F"), model.node_index("G")
    # the tie, by symmetry: F and G move by the same amount, the most of any node
    # (equal to 1e-9 of the motion's size: round-off of a 24-DOF QR is near 1e-15)
    assert size[f] == pytest.approx(size[g], rel=1e-9) and size[f] == pytest.approx(size.max(), rel=1e-9)
    assert describe_motion(model, free) == WORDS


def test_a_basis_perturbed_as_another_kernel_would_says_the_same_words():
    model, free = braced_twice()
    rng = np.random.default_rng(2026)
    for _ in range(40):
        noisy = free.basis * (1.0 + 1e-12 * rng.standard_normal(free.basis.shape))
        assert describe_motion(model, Mechanism(noisy, free.message)) == WORDS


def test_ties_go_to_the_first_and_clear_winners_win():
    assert first_largest(np.array([1.0, 1.0 + 1e-13, 0.5])) == 0
    assert first_largest(np.array([1.0 - 1e-13, 1.0, 0.5])) == 0
    assert first_largest(np.array([1.0, 1.001, 0.5])) == 1  # a real difference is not a tie
    assert first_largest(np.array([-3.0, -1.0, -1.0])) == 1


SCRIPT = f"""
import sys
sys.path.insert(0, {str(ROOT)!r}); sys.path.insert(0, {str(ROOT / "tests")!r})
from test_words_any_kernel import braced_twice
from equilibria.rules.motion import describe_motion
model, free = braced_twice()
print(describe_motion(model, free))
"""


@pytest.mark.parametrize("kernel", ["Haswell", "Sandybridge", "Prescott"])
def test_the_same_words_under_several_blas_kernels(kernel):
    """OPENBLAS_CORETYPE picks the kernel of numpy's OpenBLAS (ignored by another BLAS:
    then the run repeats the default and still must say the words)."""
    env = {**os.environ, "OPENBLAS_CORETYPE": kernel, "OPENBLAS_NUM_THREADS": "1" if kernel == "Prescott" else "2"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == WORDS
