"""Static answers against closed forms, by the direct stiffness method and by the
dynamic paths (relaxation, RK4 run to rest).

Glossary: K rod stiffness EA/L [N/m]; f, P applied force [N]; L length [m];
E Young's modulus [Pa]; I second moment of area [m⁴]; δ deflection [m].

Tolerances: the linear solve is exact for these structures (bars; Euler–Bernoulli
beams under end loads), so 1e-9 relative covers round-off. The dynamic paths solve the
large-displacement problem; loads are chosen so that displacements are ≤ 1e-5 of the
size, so geometric nonlinearity stays below 1e-5 relative, and relaxation stops at a
residual of 1e-8 of the load: 1e-4 relative. A run to rest stops when speeds fall below 1e-4 of the
size per second, which leaves a residual vibration of the same order: 1e-3 relative.
"""

import math

import pytest
from builders import BRIDGE_FORCES, bridge_truss, cantilever, member, model, three_rod_triangle

from equilibria.engine.linear import find_mechanism, stiffness
from equilibria.engine.model import ModelError, build_model
from equilibria.engine.simulation import Simulation


def solved(data: dict, integrator: str) -> dict:
    sim = Simulation(build_model(data), integrator)
    if integrator == "linear":
        outcome = sim.solve_linear()
    elif integrator == "relax":
        outcome = sim.relax()
    else:
        outcome = sim.advance(60.0, until_rest=True)
    assert outcome.at_rest, f"{integrator} did not reach rest"
    return sim.results()


def displacement(res: dict, data: dict, node: str, axis: str) -> float:
    start = next(n for n in data["nodes"] if n["id"] == node)
    return res["nodes"][node][axis] - start[axis]


@pytest.mark.parametrize(("integrator", "rel"), [("linear", 1e-9), ("relax", 1e-4), ("rk4", 1e-3)])
def test_three_rod_triangle_seed004(integrator, rel):
    """Seed 004 eq. (9.52)–(9.54): δB1 = −f/K, δB2 = −2(1+√2) f/K, δC2 = −f/K.

    The dynamic paths are exact in geometry: as AB turns by δB2/L, B also moves in by
    δB2²/2L, which is δB2²/(2L δB1) ≈ 1e-6 of δB1 at this load (1e-4 at 100× it)."""
    f, K = 1e-2, 1e5
    data = three_rod_triangle(f, K)
    data["world"]["damping"] = 0.05
    res = solved(data, integrator)
    assert displacement(res, data, "B", "x") == pytest.approx(-f / K, rel=rel)
    assert displacement(res, data, "B", "y") == pytest.approx(-2 * (1 + math.sqrt(2)) * f / K, rel=rel)
    assert displacement(res, data, "C", "y") == pytest.approx(-f / K, rel=rel)
    assert res["reactions"]["A"]["fy"] + res["reactions"]["C"]["fy"] == pytest.approx(f, rel=rel)


@pytest.mark.parametrize(("integrator", "rel"), [("linear", 1e-9), ("relax", 1e-4), ("rk4", 1e-3), ("symplectic", 1e-3)])
def test_cantilever_tip_deflection_and_rotation(integrator, rel):
    """Tip deflection PL³/3EI and rotation PL²/2EI; root reaction P and moment PL."""
    L, P, E, I = 2.0, -100.0, 200e9, 1e-6
    data = cantilever(4, L, P, E=E, I=I, density=0.0 if integrator == "linear" else 7850.0, damping=0.05)
    data["world"]["gravity"] = 0.0
    res = solved(data, integrator)
    assert displacement(res, data, "N4", "y") == pytest.approx(P * L**3 / (3 * E * I), rel=rel)
    assert res["nodes"]["N4"]["rot"] == pytest.approx(P * L**2 / (2 * E * I), rel=rel)
    assert res["reactions"]["N0"]["fy"] == pytest.approx(-P, rel=rel)
    assert res["reactions"]["N0"]["m"] == pytest.approx(-P * L, rel=rel)
    root = res["members"]["M0"]
    # End forces the nodes apply to the root element (CCW and along the chord normal
    # positive): the root holds the whole cantilever, moment −PL and shear −P.
    assert root["moment_i"] == pytest.approx(-P * L, rel=rel)
    assert root["shear_i"] == pytest.approx(-P, rel=rel)


@pytest.mark.parametrize(("integrator", "rel"), [("linear", 1e-9), ("rk4", 1e-3)])
def test_truss_by_the_method_of_joints(integrator, rel):
    P = 100.0
    data = bridge_truss(P)
    data["world"]["damping"] = 0.05
    res = solved(data, integrator)
    for mid, coefficient in BRIDGE_FORCES.items():
        assert res["members"][mid]["axial"] == pytest.approx(coefficient * P, rel=rel, abs=1e-6 * P), mid
    assert res["reactions"]["A"]["fy"] == pytest.approx(P / 2, rel=rel)
    assert res["reactions"]["C"]["fy"] == pytest.approx(P / 2, rel=rel)


def test_dynamic_run_to_rest_agrees_with_linear_solve_for_a_truss():
    data = bridge_truss(100.0)
    data["world"]["damping"] = 0.05
    linear = solved(data, "linear")
    dynamic = solved(data, "rk4")
    for mid in BRIDGE_FORCES:
        assert dynamic["members"][mid]["axial"] == pytest.approx(linear["members"][mid]["axial"], rel=1e-3)


def test_propped_cantilever_support_settlement():
    """A beam fixed at A and on a roller at B that settles by δ: the roller pulls the
    beam after it with R_B = 3EIδ/L³ (signed: down for a settlement down)."""
    L, E, I, delta = 4.0, 200e9, 1e-6, -0.01
    data = cantilever(4, L, 0.0, E=E, I=I, density=0.0)
    data["loads"] = []
    data["supports"].append({"node": "N4", "fix": ["y"], "motion": {"y": [[0, 0], [0.5, delta]]}})
    res = solved(data, "linear")
    assert res["reactions"]["N4"]["fy"] == pytest.approx(3 * E * I * delta / L**3, rel=1e-9)
    assert displacement(res, data, "N4", "y") == pytest.approx(delta, rel=1e-12)


def test_ground_acceleration_loads_the_mass_like_an_equivalent_static_force():
    """A mass M on a massless vertical cantilever column, constant ground acceleration a:
    relative to the ground, the mass feels −M a, so its sway is −M a h³ / 3EI.
    (Sway 1.5e-4 h, so the elastica's correction is ~1e-8.)"""
    h, E, I, M, a = 3.0, 200e9, 1e-6, 500.0, 0.02
    data = model(
        [("base", 0.0, 0.0), ("top", 0.0, h, {"mass": M})],
        [member("col", "base", "top", "beam", A=1e-3, I=I)],
        [{"node": "base", "fix": ["x", "y", "rot"]}],
        materials={"steel": {"E": E, "density": 0.0}},
        ground_motion={"ax": [[0.0, 0.0], [0.2, a]]},
    )
    res = solved(data, "relax")
    assert displacement(res, data, "top", "x") == pytest.approx(-M * a * h**3 / (3 * E * I), rel=1e-4)


def test_cable_carries_tension_only():
    """A node M hangs from two cables; a post below and a strut beside it keep it stable.
    Pulled down, the cables take tension; pushed up, they go slack and carry nothing,
    and the post alone holds M in tension W."""
    W = 1000.0
    nodes = [("L", -1.0, 1.0), ("R", 1.0, 1.0), ("M", 0.0, 0.0), ("G", 0.0, -1.0), ("H", 1.0, 0.0)]
    members = [member("LM", "L", "M", "cable"), member("RM", "R", "M", "cable"), member("post", "M", "G"), member("strut", "M", "H")]
    pins = [{"node": n, "fix": ["x", "y"]} for n in ("L", "R", "G", "H")]

    def run(fy: float, integrator: str) -> dict:
        return solved(model(nodes, members, pins, [{"node": "M", "fy": fy}], damping=0.05), integrator)

    hang = run(-W, "linear")
    assert hang["members"]["LM"]["axial"] > 0 and hang["members"]["RM"]["axial"] > 0
    for integrator, rel in (("linear", 1e-9), ("rk4", 1e-3)):
        push = run(W, integrator)
        assert push["members"]["LM"]["axial"] == 0.0 and push["members"]["RM"]["axial"] == 0.0
        assert push["members"]["post"]["axial"] == pytest.approx(W, rel=rel)


def test_mechanism_is_reported_with_the_mode_that_moves():
    """A square frame of bars with no diagonal, pinned at its base: it sways."""
    data = model(
        [("A", 0, 0), ("B", 1, 0), ("C", 1, 1), ("D", 0, 1)],
        [member(m, m[0], m[1]) for m in ("AB", "BC", "CD", "DA")],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["x", "y"]}],
        [{"node": "C", "fx": 10.0}],
    )
    sim = Simulation(build_model(data), "linear")
    assert not sim.solve_linear().at_rest
    res = sim.results()
    mode = res["mechanism"]["mode"]
    assert "mechanism" in res["mechanism"]["message"]
    assert set(mode) == {"C", "D"}
    assert abs(mode["C"]["x"]) == pytest.approx(1.0) and mode["C"]["x"] == pytest.approx(mode["D"]["x"])
    assert abs(mode["C"]["y"]) < 1e-9 and abs(mode["D"]["y"]) < 1e-9
    data["members"].append(member("AC", "A", "C"))
    assert Simulation(build_model(data), "linear").solve_linear().at_rest


def test_a_structure_with_every_dof_held_is_no_mechanism():
    """A bar pinned at both ends has no free DOF at all: stable, not an empty eigenproblem."""
    held = build_model(model([("A", 0, 0), ("B", 2, 0)], [member("AB", "A", "B")], [{"node": n, "fix": ["x", "y"]} for n in "AB"], []))
    assert find_mechanism(held, stiffness(held), ~held.arrays.fixed.ravel()) is None


def test_settlement_followed_in_time_by_a_dynamic_run():
    """The same propped cantilever, its roller settling over 0.5 s in an RK4 run with
    damping: at rest the reaction is the static 3EIδ/L³ (1e-3, the rest tolerance)."""
    L, E, I, delta = 4.0, 200e9, 1e-6, -0.01
    data = cantilever(4, L, 0.0, E=E, I=I, damping=0.05)
    data["loads"] = []
    data["supports"].append({"node": "N4", "fix": ["y"], "motion": {"y": [[0, 0], [0.5, delta]]}})
    res = solved(data, "rk4")
    assert res["nodes"]["N4"]["y"] == pytest.approx(delta, rel=1e-12)
    assert res["reactions"]["N4"]["fy"] == pytest.approx(3 * E * I * delta / L**3, rel=1e-3)


def test_members_break_past_their_strength_when_the_world_says_so():
    """Strength 250 MPa × A = 1e-3 m² gives 250 kN in tension. The hanger AB takes the
    whole load: at 200 kN it holds, at 300 kN it breaks and its node falls away."""

    def hanger(load: float, breakable: bool) -> dict:
        data = model(
            [("A", 0.0, 1.0), ("B", 0.0, 0.0)],
            [member("AB", "A", "B", I=1e-6)],
            [{"node": "A", "fix": ["x", "y"]}],
            [{"node": "B", "fy": -load, "history": [[0, 0], [0.1, 1]]}],
            damping=0.05,
            breakable=breakable,
        )
        data["materials"]["steel"]["strength"] = 250e6
        return data

    holds = Simulation(build_model(hanger(200e3, True)), "rk4")
    holds.advance(0.3)
    assert not holds.results()["members"]["AB"]["broken"]
    breaks = Simulation(build_model(hanger(300e3, True)), "rk4")
    breaks.advance(0.3)
    res = breaks.results()
    assert res["members"]["AB"]["broken"] and res["members"]["AB"]["axial"] == 0.0
    assert res["nodes"]["B"]["y"] < -0.1
    assert 0.08 < breaks.state.member_broke[0] < 0.1  # while the load passed 250 kN on its ramp
    unbreakable = Simulation(build_model(hanger(300e3, False)), "rk4")
    unbreakable.advance(0.3)
    assert not unbreakable.results()["members"]["AB"]["broken"]


@pytest.mark.parametrize(("integrator", "rel"), [("linear", 1e-9), ("relax", 1e-4)])
def test_cantilever_under_a_tip_moment(integrator, rel):
    """A moment M at the tip bends the cantilever into a circle: θ = ML/EI, δ = ML²/2EI."""
    L, M, E, I = 2.0, 50.0, 200e9, 1e-6
    data = cantilever(4, L, 0.0, E=E, I=I)
    data["loads"] = [{"node": "N4", "m": M, "history": [[0, 0], [1, 1]]}]
    res = solved(data, integrator)
    assert res["nodes"]["N4"]["rot"] == pytest.approx(M * L / (E * I), rel=rel)
    assert displacement(res, data, "N4", "y") == pytest.approx(M * L**2 / (2 * E * I), rel=rel)
    assert res["reactions"]["N0"]["m"] == pytest.approx(-M, rel=rel)


def test_a_strut_breaks_at_its_euler_load_and_a_bar_without_i_is_refused():
    """A 1 m pin-ended strut, E = 200 GPa, I = 1e-8 m⁴: π²EI/L² = 19.74 kN, well below
    its yield load of 250 kN. Pushed to 15 kN it holds; pushed to 25 kN on a 0.1 s ramp it
    breaks as the load passes 19.74 kN (at t ≈ 0.079 s; the step's lag allows 2 ms)."""

    def strut(load: float) -> dict:
        data = model(
            [("A", 0.0, 0.0), ("B", 1.0, 0.0)],
            [member("AB", "A", "B", I=1e-8)],
            [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
            [{"node": "B", "fx": -load, "history": [[0, 0], [0.1, 1]]}],
            damping=0.05,
            breakable=True,
        )
        data["materials"]["steel"]["strength"] = 250e6
        return data

    holds = Simulation(build_model(strut(15e3)), "rk4")
    holds.advance(0.3)
    assert not holds.results()["members"]["AB"]["broken"]
    breaks = Simulation(build_model(strut(25e3)), "rk4")
    breaks.advance(0.3)
    assert breaks.results()["members"]["AB"]["broken"]
    assert abs(breaks.state.member_broke[0] - 0.1 * 19.74 / 25) < 2e-3
    no_inertia = strut(15e3)
    del no_inertia["members"][0]["I"]
    with pytest.raises(ModelError, match="buckling") as err:
        build_model(no_inertia)
    assert err.value.field == "members[0].I"
