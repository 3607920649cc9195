r"""Picking under the mouse (a nearest search over arrays) and ground contact rows (game/app/session/shapes.py).

The structure of the picking tests, in metres:

       C (1, 1)      members AB bar, BC beam, AC bar, BD bar (member_slot mixes rows);
      / \            triangle T on A, C, B (listed clockwise: the pick must work
     /   \           for either winding);
    A-----B-----D    A (0, 0), B (2, 0), D (4, 0).
"""

import math

import numpy as np
import pytest
from builders import member, model

from equilibria.app.session.shapes import CONTACT_COLUMNS, Ground, Hit, Shapes
from equilibria.engine.model import build_model


@pytest.fixture(scope="module")
def frame():
    data = model(
        [("A", 0, 0), ("B", 2, 0), ("C", 1, 1), ("D", 4, 0)],
        [member("AB", "A", "B"), member("BC", "B", "C", "beam", I=1e-6), member("AC", "A", "C"), member("BD", "B", "D")],
        triangles=[{"id": "T", "nodes": ["A", "C", "B"], "material": "steel", "t": 0.01}],
    )
    return build_model(data, statics_only=True)


def on(m, **off) -> tuple[np.ndarray, np.ndarray]:
    """The `on` masks (members in member order, triangles) with the named elements off."""
    return np.array([mid not in off for mid in m.member_ids]), np.array([tid not in off for tid in m.triangle_ids])


def test_a_node_comes_before_a_member_nearer_the_mouse(frame):
    hit = Shapes(frame).pick(0.03, 0.01, 0.1)
    assert hit == Hit("node", "A", 0, pytest.approx(math.hypot(0.03, 0.01)))


def test_the_nearest_of_two_members(frame):
    # 0.106 m from AC, 0.177 m from BC, 0.206 m from C (outside the radius).
    hit = Shapes(frame).pick(0.95, 0.8, 0.19)
    assert (hit.kind, hit.id, hit.index) == ("member", "AC", 2)
    assert hit.distance == pytest.approx(0.15 / math.sqrt(2))
    assert Shapes(frame).pick(1.2, 0.75, 0.19).id == "BC"  # the beam, named in member order


def test_a_triangle_interior_and_nothing_far_away(frame):
    shapes = Shapes(frame)
    hit = shapes.pick(1.0, 0.4, 0.05)
    assert (hit.kind, hit.id, hit.index) == ("triangle", "T", 0)
    assert hit.distance < 0  # inside: the depth
    assert shapes.pick(10.0, 10.0, 0.5) is None
    assert shapes.pick(0.03, 0.01, 0.1, kinds=("member",)).id == "AB"


def test_elements_turned_off_are_not_picked_and_come_back(frame):
    shapes = Shapes(frame)
    pos = frame.arrays.pos0
    shapes.update(pos, *on(frame, AB=True, BC=True))
    assert shapes.pick(1.0, 0.01, 0.05).kind == "triangle"  # AB gone: the plate under it
    assert shapes.pick(1.5, 0.5, 0.05).kind == "triangle"  # the beam BC gone too
    shapes.update(pos, *on(frame, AB=True, T=True))
    assert shapes.pick(1.0, 0.01, 0.05) is None
    assert shapes.pick(1.5, 0.5, 0.05).id == "BC"
    shapes.update(pos, *on(frame))
    assert shapes.pick(1.0, 0.01, 0.05).id == "AB"


def test_shapes_follow_the_positions(frame):
    shapes = Shapes(frame)
    pos = frame.arrays.pos0.copy()
    pos[3, 0] += 1.0  # D to (5, 0)
    pos[2, 1] = -1.0  # C below AB: T turns over, its corners now counter-clockwise as listed
    shapes.update(pos, *on(frame))
    assert shapes.pick(5.0, 0.02, 0.05).id == "D"
    assert shapes.pick(4.0, 0.0, 0.05, kinds=("node",)) is None
    assert shapes.pick(4.5, 0.01, 0.05).id == "BD"
    assert shapes.pick(1.0, -0.4, 0.05).id == "T"
    assert shapes.pick(1.0, 0.4, 0.05) is None
    pos[2, 1] = 1.5  # and back over: clockwise as listed
    shapes.update(pos, *on(frame))
    assert shapes.pick(1.0, 1.2, 0.05).id == "T"
    assert shapes.pick(1.0, -0.4, 0.05) is None


def test_a_move_below_the_tolerance_is_not_followed(frame):
    shapes = Shapes(frame, tolerance=0.01)
    pos = frame.arrays.pos0.copy()
    pos[3, 0] += 0.005
    shapes.update(pos, *on(frame))
    assert shapes.pick(4.0, 0.0, 1e-9).id == "D"


def test_nodes_alone():
    shapes = Shapes(build_model(model([("A", 0, 0), ("B", 3, 4)]), statics_only=True))
    assert shapes.pick(3.0, 3.9, 0.2) == Hit("node", "B", 1, pytest.approx(0.1))


# ---------------------------------------------------------------------- ground contact
def rows_by_node(rows: np.ndarray) -> dict[int, np.ndarray]:
    return {int(r[0]): r[1:5] for r in rows}


def test_no_ground_gives_no_rows():
    for points in ([], [(0.0, 0.0)]):
        rows = Ground(points).contacts(np.zeros((3, 3)), 0.1)
        assert rows.shape == (0, len(CONTACT_COLUMNS)) and rows.dtype == np.float64


def test_level_ground_carried_beyond_its_ends():
    pos = np.array([(0.0, 0.05), (1.0, 0.5), (2.0, -0.1), (100.0, 0.01), (-3.0, -5.0)])
    rows = Ground([(-5.0, 0.0), (5.0, 0.0)]).contacts(pos, 0.1, k=1e6, c=10.0, mu=0.5)
    assert rows[:, 0].tolist() == [0, 2, 3, 4]  # node 1 is above the margin
    np.testing.assert_allclose(rows[:, 1:5], [(0, 0, 0, 1), (2, 0, 0, 1), (100, 0, 0, 1), (-3, 0, 0, 1)], atol=1e-9)
    np.testing.assert_array_equal(rows[:, 5:], [(1e6, 10.0, 0.5)] * 4)


def test_sloped_ground_normal_and_nearest_point():
    n = np.array([-1.0, 2.0]) / math.sqrt(5)  # out of the ground under a 1:2 slope
    foot = np.array([4.0, 2.0])
    pos = np.array([foot + 0.05 * n, foot - 0.3 * n, foot + 0.2 * n])
    for points in ([(0, 0), (10, 5)], [(10, 5), (0, 0)]):  # either way round
        got = rows_by_node(Ground(points).contacts(pos, 0.1))
        assert sorted(got) == [0, 1]
        for q in (0, 1):
            np.testing.assert_allclose(got[q], [*foot, *n], atol=1e-12)


def test_valley_one_row_per_node_pointing_out_of_the_ground():
    valley = Ground([(-2, 2), (0, 0), (2, 2)])
    face = np.array([1.0, 1.0]) / math.sqrt(2)  # the left face's normal
    pos = np.array([(0.0, -0.5), (0.0, 0.0), (0.0, 0.05), (-1.0, 1.0) + 0.02 * face, (-1.0, 0.5), (-1.0, 1.2)])
    rows = valley.contacts(pos, 0.1)
    assert rows[:, 0].tolist() == [0, 1, 2, 3, 4]  # one each, node 2 near both faces included
    got = rows_by_node(rows)
    np.testing.assert_allclose(got[0], [0, 0, 0, 1], atol=1e-12)  # under the vertex: up, not down
    np.testing.assert_allclose(got[1], [0, 0, 0, 1], atol=1e-12)  # on it: the sum of the normals
    assert abs(got[2][2]) == pytest.approx(face[0]) and got[2][3] == pytest.approx(face[1])  # either face
    np.testing.assert_allclose(got[3], [-1, 1, *face], atol=1e-12)
    np.testing.assert_allclose(got[4], [-0.75, 0.75, *face], atol=1e-12)  # in the ground under the left face


def test_hill_top_normal_points_from_the_corner_to_the_node():
    hill = Ground([(-2, 0), (0, 2), (2, 0)])
    rows = hill.contacts(np.array([(0.0, 2.05), (0.0, 2.2), (0.0, 1.9)]), 0.1)
    got = rows_by_node(rows)
    assert sorted(got) == [0, 2]
    np.testing.assert_allclose(got[0], [0, 2, 0, 1], atol=1e-12)
    assert got[2][3] > 0  # in the ground under the top: pushed up a face's normal
    assert (np.array([0.0, 1.9]) - got[2][:2]) @ got[2][2:] == pytest.approx(-0.1 / math.sqrt(2))


def test_skipped_nodes_get_no_rows():
    pos = np.array([(0.0, -0.01), (1.0, -0.01), (2.0, -0.01)])
    rows = Ground([(-5, 0), (5, 0)]).contacts(pos, 0.1, skip=np.array([True, False, True]))
    assert rows[:, 0].tolist() == [1]
