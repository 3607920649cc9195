"""A model that cannot make sense is refused with one message naming the field."""

import copy
import math

import numpy as np
import pytest
from builders import bridge_truss, member, model
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from equilibria.engine.model import ModelError, build_model

GOOD = bridge_truss(100.0)
GOOD["triangles"] = [{"id": "T", "nodes": ["A", "B", "D"], "material": "steel", "t": 0.01}]


def broken(change) -> dict:
    data = copy.deepcopy(GOOD)
    change(data)
    return data


CASES = [
    ("unknown node in a member", lambda d: d["members"][0].update(j="Q"), "members[0].j", "unknown node 'Q'"),
    ("unknown node in a support", lambda d: d["supports"][0].update(node="Q"), "supports[0].node", "unknown node"),
    ("unknown node in a load", lambda d: d["loads"][0].update(node="Q"), "loads[0].node", "unknown node"),
    ("unknown node in a triangle", lambda d: d["triangles"][0].update(nodes=["A", "B", "Q"]), "triangles[0].nodes[2]", "unknown node"),
    ("unknown material", lambda d: d["members"][1].update(material="wood"), "members[1].material", "unknown material 'wood'"),
    ("duplicate node id", lambda d: d["nodes"].append({"id": "A", "x": 9, "y": 9}), "nodes[5].id", "duplicate node id 'A'"),
    ("duplicate member id", lambda d: d["members"].append(member("AB", "A", "C")), "members[7].id", "duplicate member id"),
    (
        "zero-length member",
        lambda d: (d["nodes"].append({"id": "A2", "x": 0, "y": 0}), d["members"].append(member("AA", "A", "A2"))),
        "members[7]",
        "zero length",
    ),
    ("member to itself", lambda d: d["members"][0].update(j="A"), "members[0].j", "two different nodes"),
    ("negative modulus", lambda d: d["materials"]["steel"].update(E=-1.0), "materials.steel.E", "positive"),
    ("NaN modulus", lambda d: d["materials"]["steel"].update(E=float("nan")), "materials.steel.E", "finite"),
    ("zero area", lambda d: d["members"][2].update(A=0), "members[2].A", "positive"),
    ("text for a number", lambda d: d["nodes"][1].update(x="two"), "nodes[1].x", "expected a number"),
    ("missing coordinate", lambda d: d["nodes"][1].pop("y"), "nodes[1].y", "expected a number"),
    ("zero-area triangle", lambda d: d["triangles"][0].update(nodes=["A", "B", "C"]), "triangles[0].nodes", "zero area"),
    ("unknown member kind", lambda d: d["members"][0].update(kind="rope"), "members[0].kind", "one of bar, cable, beam"),
    ("beam without I", lambda d: d["members"][0].update(kind="beam"), "members[0].I", "second moment"),
    ("unknown beam formulation", lambda d: d["members"][0].update(kind="beam", I=1e-6, formulation="exact"), "members[0].formulation", "arcade, stability"),
    ("formulation on a bar", lambda d: d["members"][0].update(formulation="stability"), "members[0].formulation", "only a beam"),
    ("bad fix", lambda d: d["supports"][0].update(fix=["z"]), "supports[0].fix", '"x", "y", "rot"'),
    ("history going back", lambda d: d["loads"][0].update(history=[[0, 0], [1, 1], [0.5, 2]]), "loads[0].history[2]", "times must increase"),
    ("Poisson ratio 0.5", lambda d: d["materials"]["steel"].update(nu=0.5), "materials.steel.nu", "below 0.5"),
    ("nodes not a list", lambda d: d.update(nodes={"A": 1}), "nodes", "expected a list"),
    ("no nodes", lambda d: d.update(nodes=[]), "nodes", "at least one node"),
]


@pytest.mark.parametrize(("change", "field", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_model_is_refused_naming_the_field(change, field, words):
    with pytest.raises(ModelError) as err:
        build_model(broken(change))
    assert err.value.field == field
    assert words in err.value.message
    assert str(err.value).startswith(f"{field}: ")


def test_top_level_must_be_an_object():
    with pytest.raises(ModelError, match="expected an object"):
        build_model([1, 2, 3])


def test_a_good_model_builds_with_no_warnings():
    built = build_model(GOOD)
    assert built.warnings == ()
    assert built.member_ids == ("AB", "BC", "AD", "DB", "BE", "EC", "DE")


def test_single_node_model_builds():
    built = build_model(model([("A", 0, 0)]))
    assert built.n_nodes == 1


@settings(max_examples=300, deadline=None)
@given(
    base=st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3)),
    gap=st.tuples(st.floats(-1.0, 1.0), st.floats(-1.0, 1.0)),
    tol=st.floats(1e-9, 1e-3),
)
def test_nodes_closer_than_the_tolerance_are_always_caught_and_far_ones_never(base, gap, tol):
    """Wherever the two fall on the cell grids: caught when both offsets are under tol,
    passed when the nodes are more than 2√2 tol apart (the one-sided slack of the grids)."""
    from equilibria.engine.model import _refuse_coincident

    xy = np.array([[0.0, 0.0], base, [base[0] + gap[0] * 4 * tol, base[1] + gap[1] * 4 * tol], [5e3, 5e3]])
    nodes = [{"id": k} for k in "OABZ"]
    assume(math.dist(xy[0], xy[1]) > 4 * tol and math.dist(xy[0], xy[2]) > 4 * tol)  # O stays out of it
    dx, dy = np.abs(xy[2] - xy[1])
    if max(dx, dy) < tol:
        with pytest.raises(ModelError, match="node 'B' is at the same place as node 'A'"):
            _refuse_coincident(nodes, xy, tol)
    elif math.hypot(dx, dy) > 2 * math.sqrt(2) * tol:
        _refuse_coincident(nodes, xy, tol)
