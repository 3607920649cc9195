"""The linear solve with cables (tension only), checked against statics, an exhaustive
search over which cables are taut, and the engine's dynamic relaxation.

Glossary: an X-braced bay, columns AC and BD (3 m), beam CD (4 m), diagonals AD and BC
(5 m, cos θ = 4/5) as cables; A and B pinned. Members are stiff steel so that the
small-displacement answer and the relaxed (large-displacement) one differ by under 1e-4.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from builders import member, model

from engine import Simulation, build_model
from engine.linear import bar_axial_linear, find_mechanism, load_vector, prescribed_displacement, stiffness

P, H = 100e3, 20e3  # [N] vertical load on each top node, lateral load at C


def bay(vertical: float, lateral: float, bays: int = 1) -> dict:
    """`bays` X-braced bays side by side, 4 m wide and 3 m tall, pinned at the foot of every
    column; `vertical` down at every top node, `lateral` to the right at the top left."""
    nodes = [(f"B{k}", 4.0 * k, 0.0) for k in range(bays + 1)] + [(f"T{k}", 4.0 * k, 3.0) for k in range(bays + 1)]
    members = [member(f"C{k}", f"B{k}", f"T{k}", A=1e-2) for k in range(bays + 1)]
    for k in range(bays):
        members += [member(f"G{k}", f"T{k}", f"T{k + 1}", A=1e-2)]
        members += [member(f"U{k}", f"B{k}", f"T{k + 1}", kind="cable", A=1e-3), member(f"D{k}", f"T{k}", f"B{k + 1}", kind="cable", A=1e-3)]
    supports = [{"node": f"B{k}", "fix": ["x", "y"]} for k in range(bays + 1)]
    loads = [{"node": f"T{k}", "fx": lateral if k == 0 else 0.0, "fy": -vertical} for k in range(bays + 1)]
    return model(nodes, members, supports, loads)


def linear(data: dict) -> dict:
    sim = Simulation(build_model(data, statics_only=True), "linear")
    assert sim.solve_linear().at_rest, sim.mechanism
    return {k: v["axial"] for k, v in sim.results()["members"].items()}


def exhaustive(data: dict) -> dict:
    """Try every set of taut cables: the answer is the one whose taut cables stretch and
    whose slack ones (left out) shorten. An independent check of the active-set iteration."""
    built = build_model(data, statics_only=True)
    m = built.arrays
    cables = np.flatnonzero(m.bar_cable)
    free = ~m.fixed.ravel()
    F = load_vector(built, built.load_end_time).ravel()
    found = []
    for taut in itertools.product((True, False), repeat=len(cables)):
        on = np.ones(len(m.bar_L0), bool)
        on[cables[~np.array(taut)]] = False
        active = (on, np.ones(len(m.beam_L0), bool), np.ones(len(m.tri_E), bool))
        K = stiffness(built, active=active)
        if find_mechanism(built, K, free) is not None:
            continue
        u = prescribed_displacement(built, 0.0).ravel()
        u[free] = np.linalg.solve(K[free][:, free].toarray(), F[free])
        N = bar_axial_linear(built, u.reshape(-1, 3))
        if np.all(N[cables[np.array(taut)]] >= -1e-6) and np.all(N[cables[~np.array(taut)]] <= 1e-6):
            N[~on] = 0.0
            found.append(dict(zip(built.member_ids, N, strict=False)))
    assert len(found) == 1, f"{len(found)} consistent sets of taut cables"
    return found[0]


def test_vertical_loads_that_shorten_both_diagonals_leave_them_slack_not_a_mechanism():
    N = linear(bay(P, 0.0))
    assert N["U0"] == 0.0 and N["D0"] == 0.0  # slack: no would-be compression reported
    assert N["C0"] == pytest.approx(-P, rel=1e-6) and N["C1"] == pytest.approx(-P, rel=1e-6)
    assert abs(N["G0"]) < 1e-6 * P


def test_a_lateral_load_stretches_one_diagonal_which_carries_it_alone():
    """With the shortened diagonal slack the bay is a determinate truss: the stretched
    diagonal carries H / cos θ = H · 5/4, the beam nothing, the far column H · 3/4 in
    compression more (moments about the near foot)."""
    N = linear(bay(P, H))
    assert N["D0"] == 0.0
    assert N["U0"] == pytest.approx(H * 5 / 4, rel=1e-6)
    assert N["C1"] == pytest.approx(-P - H * 3 / 4, rel=1e-6)


@pytest.mark.parametrize(("vertical", "lateral"), [(P, H), (P, -3 * H), (0.0, H), (P, 0.2 * H)])
def test_two_bays_match_the_exhaustive_search_and_the_relaxation(vertical, lateral):
    data = bay(vertical, lateral, bays=2)
    N = linear(data)
    for mid, n in exhaustive(data).items():
        assert N[mid] == pytest.approx(n, abs=1e-6 * P)
    relaxed = Simulation(build_model(data, statics_only=True), "relax")
    assert relaxed.relax().at_rest
    for mid, f in relaxed.results()["members"].items():
        assert N[mid] == pytest.approx(f["axial"], abs=1e-3 * P)  # small against large displacements, and the relaxation's 1e-8 residual


def test_every_joint_balances():
    """The member forces of the answer leave no joint out of balance (to 1e-6 of P)."""
    data = bay(P, H, bays=2)
    N = linear(data)
    where = {n["id"]: np.array([n["x"], n["y"]]) for n in data["nodes"]}
    net = {k: np.zeros(2) for k in where}
    for mem in data["members"]:
        e = where[mem["j"]] - where[mem["i"]]
        e = e / np.linalg.norm(e)
        net[mem["i"]] += N[mem["id"]] * e
        net[mem["j"]] -= N[mem["id"]] * e
    for load in data["loads"]:
        net[load["node"]] += (load["fx"], load["fy"])
    for joint in ("T0", "T1", "T2"):
        assert np.abs(net[joint]).max() < 1e-6 * P, joint


def test_loads_only_a_slack_cable_could_hold_are_a_mechanism():
    """A mass hung from two cables in a V stands; pushed up harder than its weight, both
    cables go slack and nothing holds it."""
    nodes = [("A", -1, 0), ("C", 1, 0), ("B", 0, -1, {"mass": 10.0})]
    members = [member("AB", "A", "B", kind="cable"), member("CB", "C", "B", kind="cable")]
    supports = [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["x", "y"]}]
    hung = model(nodes, members, supports, gravity=9.81)
    weight = (10.0 + 7850.0 * 1e-3 * 2**0.5) * 9.81  # B's mass and half of each cable's
    assert linear(hung)["AB"] == pytest.approx(weight / 2 * 2**0.5, rel=1e-6)  # W / (2 cos 45°)
    pushed = model(nodes, members, supports, [{"node": "B", "fx": 0.0, "fy": 1e3}], gravity=9.81)
    sim = Simulation(build_model(pushed, statics_only=True), "linear")
    assert not sim.solve_linear().at_rest
    assert "cables" in sim.mechanism.message
