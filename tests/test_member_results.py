"""One home for a member's results (engine/results.py): every member's forces,
capacities, on/off and break time in member order, against hand values.

Glossary: E Young's modulus [Pa], A area [m²], I second moment [m⁴], L length [m],
δ stretch [m], P load [N] (positive up), σy strength [Pa], N axial force [N]
(tension positive), M_i, M_j end moments the nodes apply to the member [N m],
V_i, V_j end shears (across the member, 90° counter-clockwise of i→j) [N].
"""

import math

import numpy as np
import pytest
from builders import STEEL, cantilever, member, model

from equilibria.engine.model import build_model
from equilibria.engine.results import element_blocks, elements_without, member_ends, member_results
from equilibria.engine.simulation import Simulation

E = STEEL["E"]
STRENGTH = 250e6


def test_a_bar_pulled_by_delta_carries_ea_over_l0_times_delta():
    """A 3-4-5 bar stretched by δ along itself: N = EA/L0 · δ. Tolerance 1e-9 relative:
    the length L0 + δ is found from coordinates of size 4 m (round-off ~1e-15 m in δ =
    1e-4 m gives 1e-11)."""
    A, L0, d = 2e-3, 5.0, 1e-4
    sim = Simulation(build_model(model([("A", 0, 0), ("B", 3, 4)], [member("AB", "A", "B", A=A)], [{"node": "A", "fix": ["x", "y"]}])), "rk4")
    sim.state.pos[1, :2] += d * np.array([0.6, 0.8])
    sim.refresh()
    r = member_results(sim.model, sim.state)
    assert r.axial[0] == pytest.approx(E * A / L0 * d, rel=1e-9)
    assert (r.shear_i[0], r.moment_i[0], r.moment_j[0]) == (0.0, 0.0, 0.0)
    assert r.element[0] == "bar" and not r.bending[0] and r.active[0] and not r.broken[0]


@pytest.mark.parametrize("P", [-1e3, 2.5e3])
def test_a_cantilever_beam_under_a_tip_load_has_end_moment_p_times_l(P):
    """One beam element, fixed at i, tip load P at j (linear solve): the support holds it
    with M_i = −P·L (counter-clockwise for a load down), M_j = 0 at the free tip, shear
    V_i = −P across the member at i and V_j = P at j, no axial force. Tolerance: the
    direct solve is exact up to round-off, 1e-9 of P·L."""
    L = 2.0
    sim = Simulation(build_model(cantilever(1, L, P)), "linear")
    sim.solve_linear()
    r = member_results(sim.model, sim.state)
    scale = abs(P) * L
    assert r.moment_i[0] == pytest.approx(-P * L, abs=1e-9 * scale)
    assert r.moment_j[0] == pytest.approx(0.0, abs=1e-9 * scale)
    assert r.shear_i[0] == pytest.approx(-P, abs=1e-9 * abs(P))
    assert r.shear_j[0] == pytest.approx(P, abs=1e-9 * abs(P))
    assert r.axial[0] == pytest.approx(0.0, abs=1e-9 * abs(P))
    assert r.element[0] == "beam-column" and r.bending[0]


def capacities_model() -> dict:
    """A breakable world: a cable, a slender bar that buckles first, a stocky beam that
    yields first, each 2 m long."""
    members = [member("CAB", "A", "B", "cable", A=1e-4), member("BAR", "B", "C", A=1e-4, I=1e-9), member("BM", "C", "D", "beam", A=1e-3, I=1e-5)]
    return model(
        [("A", 0, 0), ("B", 2, 0), ("C", 4, 0), ("D", 6, 0)],
        members,
        [{"node": "A", "fix": ["x", "y"]}, {"node": "D", "fix": ["x", "y", "rot"]}],
        materials={"steel": {**STEEL, "strength": STRENGTH}},
        breakable=True,
    )


def test_capacities_and_what_limits_compression():
    """Tension: σy·A. Compression: 0 for a cable (it cannot push); the lesser of σy·A and
    π²EI/L² otherwise: the slender bar's Euler load (π²·200e9·1e-9/4 = 493 N) is below its
    yield (25 kN), the beam's (π²·200e9·1e-5/4 = 4.93 MN) above its yield (250 kN).
    Tolerance 1e-12 relative (one product each)."""
    sim = Simulation(build_model(capacities_model()), "rk4")
    r = member_results(sim.model, sim.state)
    assert list(r.ids) == ["CAB", "BAR", "BM"]
    assert r.cap_t == pytest.approx([STRENGTH * 1e-4, STRENGTH * 1e-4, STRENGTH * 1e-3], rel=1e-12)
    assert r.cap_c == pytest.approx([0.0, math.pi**2 * E * 1e-9 / 4.0, STRENGTH * 1e-3], rel=1e-12)
    assert list(r.compression_by) == ["cable", "buckling", "yield"]
    assert list(r.element) == ["cable", "bar", "beam-column"]
    assert r.ends.tolist() == [[0, 1], [1, 2], [2, 3]] == member_ends(sim.model).tolist()


def test_nothing_limits_a_member_where_nothing_breaks():
    sim = Simulation(build_model(cantilever(2, 2.0, -1e3)), "rk4")
    r = member_results(sim.model, sim.state)
    assert np.isinf(r.cap_t).all() and np.isinf(r.cap_c).all()
    assert list(r.compression_by) == ["none", "none"]


def test_a_bar_pulled_past_its_capacity_breaks_when_the_load_reaches_it():
    """A bar (A = 1e-4 m², σy = 250 MPa: 25 kN) held at A, its end B on a roller, pulled
    along itself by a load growing linearly to 2 × 25 kN over T = 1 s: it breaks when the
    load reaches 25 kN, at t = T/2. Tolerance 2 ms: the bar's period is about 1 ms
    (ω = √(k/m), k = EA/L = 2e7 N/m, m = 0.39 kg at B), so the force lags a slow ramp
    by at most F'/ω (7 N, 0.03 ms) and the break is seen at the end of a step (0.1 ms),
    with room for the ring-up the ramp's start leaves."""
    cap = STRENGTH * 1e-4
    data = model(
        [("A", 0, 0), ("B", 1, 0)],
        [member("AB", "A", "B", A=1e-4, I=1e-8)],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
        [{"node": "B", "fx": 2 * cap, "history": [[0.0, 0.0], [1.0, 1.0]]}],
        materials={"steel": {**STEEL, "strength": STRENGTH}},
        breakable=True,
        damping=0.02,
    )
    sim = Simulation(build_model(data), "rk4")
    sim.advance(0.45)
    r = member_results(sim.model, sim.state)
    assert r.active[0] and not r.broken[0] and np.isnan(r.break_time[0])
    assert r.axial[0] == pytest.approx(0.9 * cap, rel=1e-3)  # quasi-static: N follows the load
    sim.advance(0.1)
    r = member_results(sim.model, sim.state)
    assert r.broken[0] and not r.active[0] and r.first_broken() == 0
    assert r.break_time[0] == pytest.approx(0.5, abs=2e-3)
    assert r.axial[0] == 0.0


def test_a_removed_member_is_off_and_never_broke():
    sim = Simulation(build_model(capacities_model()), "rk4")
    sim.remove_member("BAR")
    r = member_results(sim.model, sim.state)
    assert r.active.tolist() == [True, False, True]
    assert not r.broken.any() and r.first_broken() is None


def test_elements_without_switches_off_the_named_members_of_each_kind():
    m = build_model(capacities_model())
    on = elements_without(m, ("CAB", "BM"))
    assert on["bar"].tolist() == [False, True] and on["beam"].tolist() == [False] and len(on["triangle"]) == 0
    assert set(on) == set(element_blocks(m.arrays, m.arrays.pos0))  # by kind, the keys the stiffness pairs them with


def test_members_of_mixed_kinds_come_in_member_order():
    """Beams and bars interleaved in the file: each result is its own member's (the
    beam's moment where the beam is, the bars' stretch where they are)."""
    data = model(
        [("A", 0, 0), ("B", 1, 0), ("C", 2, 0), ("D", 3, 0)],
        [member("AB", "A", "B", "beam", I=1e-6), member("BC", "B", "C"), member("CD", "C", "D", "beam", I=1e-6)],
        [{"node": "A", "fix": ["x", "y", "rot"]}],
    )
    sim = Simulation(build_model(data), "rk4")
    sim.state.pos[3, 0] += 1e-5  # stretch CD only
    sim.refresh()
    r = member_results(sim.model, sim.state)
    assert r.axial[0] == 0.0 and r.axial[1] == 0.0
    assert r.axial[2] == pytest.approx(E * 1e-3 / 1.0 * 1e-5, rel=1e-9)
    assert r.bending.tolist() == [True, False, True]
    assert r.ends.tolist() == [[0, 1], [1, 2], [2, 3]]
