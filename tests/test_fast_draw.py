"""Drawing and picking that cost the same at every zoom and model size (issue 15, point 6).

Costs are counted (calls, pixels) or bounded by construction, never timed: timings are
the business of benchmarks/frames.py.
"""

import numpy as np
import pytest
from builders import member, model

from engine import build_model
from game.app.shapes import Shapes


def grid_model(nx: int, ny: int, cell: float = 0.5):
    """nx × ny nodes on a grid, joined along the rows."""
    nodes = [(f"N{i}_{j}", i * cell, j * cell) for j in range(ny) for i in range(nx)]
    members = [member(f"M{i}_{j}", f"N{i}_{j}", f"N{i + 1}_{j}") for j in range(ny) for i in range(nx - 1)]
    return build_model(model(nodes, members), statics_only=True)


def test_a_pick_zoomed_far_out_finds_the_nearest_node():
    """At 7 px/m the 9 px pick radius is over a metre; at 1e-3 px/m it is 9 km and
    covers everything: the nearest node still wins, as a brute-force search says."""
    m = grid_model(30, 20)
    shapes = Shapes(m)
    rng = np.random.default_rng(1)
    pos = m.arrays.pos0[:, :2]
    for x, y in rng.uniform(-5, 20, (20, 2)):
        hit = shapes.pick(x, y, 9.0 / 1e-3)
        nearest = int(np.argmin(np.hypot(pos[:, 0] - x, pos[:, 1] - y)))
        assert (hit.kind, hit.index) == ("node", nearest)
        assert hit.distance == pytest.approx(float(np.hypot(*(pos[nearest] - (x, y)))))


def test_a_member_pick_is_the_nearest_segment():
    m = grid_model(5, 3)
    shapes = Shapes(m)
    hit = shapes.pick(0.8, 0.55, 0.2, kinds=("member",))
    assert hit.id == "M1_1" and hit.distance == pytest.approx(0.05)
