"""Member-end releases (a beam's pinned end) and rollers on a line at any angle
(engine/elements/beam.py, engine/rollers.py), against hand statics and closed forms, never the
code's own earlier output.

Glossary: P point load [N], w uniform load [N/m], L span [m], EI flexural rigidity
[N m²], θ a roller line's angle from the x axis, n = (−sin θ, cos θ) its normal,
H an arch's horizontal thrust [N], m a node's mass [kg], g gravity [m/s²].

Tolerances. The linear solve is exact to round-off: 1e-9 of the load. Relaxation and a
dynamic run end at rest with the out-of-balance force under 1e-3 of the load scale
(engine/simulation.py RestCriteria) and follow the structure as it deflects (a
co-rotational answer, off the small-displacement one by the deflection over the span,
~1e-4 here): 1 % for them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import member, model

from equilibria.engine.elements.beam import beam_blocks
from equilibria.engine.linear import solve_linear
from equilibria.engine.model import ModelError, build_model
from equilibria.engine.simulation import Simulation

EXACT = 1e-9
AT_REST = 1e-2
E = 200e9  # [Pa] the builders' steel
I_SEC = 1e-4  # [m⁴]
EI = E * I_SEC
INTEGRATORS = ["linear", "relax", "rk4", "newmark"]


def solve(data: dict, integrator: str) -> Simulation:
    """The static answer of `integrator`; Newmark with HHT-α −0.1, which damps the
    highest modes (average acceleration keeps them: with mass-proportional damping alone
    these frames, released or not, still ring after 30 s)."""
    alpha = -0.1 if integrator == "newmark" else 0.0
    sim = Simulation(build_model(data, statics_only=integrator in ("linear", "relax")), integrator, hht_alpha=alpha)
    if integrator == "linear":
        assert sim.solve_linear().at_rest, sim.mechanism
    elif integrator == "relax":
        assert sim.relax().at_rest
    else:
        assert sim.advance(60.0, until_rest=True).at_rest
    return sim


def tol(integrator: str) -> float:
    return EXACT if integrator == "linear" else AT_REST


def beam(mid, i, j, release=()):
    b = member(mid, i, j, "beam", A=0.01, I=I_SEC)
    if release:
        b["release"] = list(release)
    return b


def heavy(nodes):
    """Nodes of 100 kg (the dynamic runs take large steps) given as (id, x, y)."""
    return [(q, x, y, {"mass": 100.0, "inertia": 10.0}) for q, x, y in nodes]


# ------------------------------------------------------------------------- releases
def propped(release_at_a: bool, P: float = 1e4, L: float = 6.0) -> dict:
    """A (0, 0) clamped, B (L, 0) on a roller, P down at mid-span C, two beams."""
    nodes = heavy([("A", 0.0, 0.0), ("C", L / 2, 0.0), ("B", L, 0.0)])
    members = [beam("AC", "A", "C", ["i"] if release_at_a else ()), beam("CB", "C", "B")]
    supports = [{"node": "A", "fix": ["x", "y", "rot"]}, {"node": "B", "fix": ["y"]}]
    return model(nodes, members, supports, [{"node": "C", "fy": -P}], damping=0.05)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_propped_cantilever_pinned_at_its_clamp_is_simply_supported(integrator):
    """Released at the clamp, the beam carries P/2 to each end, no moment to the clamp,
    and sags PL³/(48EI) at mid-span; the clamped one (hand: 11P/16 at A, 5P/16 at B,
    3PL/16 at A, sag 7PL³/(768EI)) shows the release is what changed it."""
    P, L = 1e4, 6.0
    sim = solve(propped(True, P, L), integrator)
    r = sim.reactions()
    a, b, c = (sim.model.node_index(q) for q in "ABC")
    t = tol(integrator)
    assert r[a, 1] == pytest.approx(P / 2, rel=t) and r[b, 1] == pytest.approx(P / 2, rel=t)
    assert abs(r[a, 2]) <= t * P * L
    sag = sim.model.arrays.pos0[c, 1] - sim.state.pos[c, 1]
    assert sag == pytest.approx(P * L**3 / (48 * EI), rel=t)
    clamped = solve(propped(False, P, L), "linear").reactions()
    assert clamped[a, 1] == pytest.approx(11 * P / 16, rel=EXACT) and clamped[a, 2] == pytest.approx(3 * P * L / 16, rel=EXACT)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_beam_clamped_at_one_end_pinned_at_the_other_under_a_uniform_load(integrator):
    """Both ends clamped, the beam pinned where it meets B: the propped cantilever's
    fixed-end forces, 5wL/8 and wL²/8 at A, 3wL/8 and no moment at B (whose rotation no
    beam holds: the node's rotation is dropped)."""
    w, L = 3000.0, 6.0
    nodes = heavy([("A", 0.0, 0.0), ("B", L, 0.0)])
    data = model(nodes, [beam("AB", "A", "B", ["j"])], [{"node": q, "fix": ["x", "y", "rot"]} for q in "AB"], damping=0.05)
    data["member_loads"] = [{"member": "AB", "w": -w}]
    sim = solve(data, integrator)
    r = sim.reactions()
    t = tol(integrator)
    assert r[0, 1] == pytest.approx(5 * w * L / 8, rel=t) and r[1, 1] == pytest.approx(3 * w * L / 8, rel=t)
    assert r[0, 2] == pytest.approx(w * L**2 / 8, rel=t) and abs(r[1, 2]) <= t * w * L**2
    assert sim.results()["members"]["AB"]["moment_max"] == pytest.approx(-w * L**2 / 8, rel=t)


def arch(P: float, span: float = 8.0, rise: float = 3.0) -> dict:
    """A three-hinged frame: pins at A (0, 0) and B (span, 0), crown C (span/2, rise)
    where both halves are pinned; D the middle of AC carries P down. Four beams."""
    a = span / 2
    nodes = heavy([("A", 0.0, 0.0), ("D", a / 2, rise / 2), ("C", a, rise), ("E", 1.5 * a, rise / 2), ("B", span, 0.0)])
    members = [beam("AD", "A", "D"), beam("DC", "D", "C", ["j"]), beam("CE", "C", "E", ["i"]), beam("EB", "E", "B")]
    supports = [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["x", "y"]}]
    return model(nodes, members, supports, [{"node": "D", "fy": -P}], damping=0.05)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_three_hinged_arch_has_the_hand_computed_thrust(integrator):
    """P at the quarter point x = a/2 of a span 2a with rise h. Moments about A:
    V_B 2a = P a/2, V_B = P/4, V_A = 3P/4; about the crown hinge, for the right half:
    V_B a − H h = 0, H = P a/(4h) (pushing inward at both feet)."""
    P, span, rise = 2e4, 8.0, 3.0
    a = span / 2
    sim = solve(arch(P, span, rise), integrator)
    r = sim.reactions()
    A, B, C = (sim.model.node_index(q) for q in "ABC")
    t = tol(integrator)
    H = P * a / (4 * rise)
    assert r[A, 0] == pytest.approx(H, rel=t) and r[B, 0] == pytest.approx(-H, rel=t)
    assert r[A, 1] == pytest.approx(3 * P / 4, rel=t) and r[B, 1] == pytest.approx(P / 4, rel=t)
    assert sim.model.arrays.fixed[C, 2], "the crown's rotation is dropped: every beam meeting it is pinned there"
    out = sim.results()["members"]
    assert abs(out["DC"]["moment_j"]) <= t * P * a and abs(out["CE"]["moment_i"]) <= t * P * a


def test_a_hinge_where_every_beam_is_pinned_is_a_mechanism_without_its_arch():
    """Two beams pinned at C between two pins on a line: C can drop (a mechanism), said
    so, never a singular solve."""
    nodes = heavy([("A", 0.0, 0.0), ("C", 2.0, 0.0), ("B", 4.0, 0.0)])
    data = model(nodes, [beam("AC", "A", "C", ["j"]), beam("CB", "C", "B", ["i"])], [{"node": q, "fix": ["x", "y"]} for q in "AB"])
    result = solve_linear(build_model(data, statics_only=True))
    assert result.mechanism is not None


def test_the_pinned_blocks_are_the_textbook_ones():
    """The beam pinned at j, along x: EA/L; 3EI/L³, 3EI/L², 3EI/L (Przemieniecki's
    pinned-end element), nothing on θ_j; both ends pinned: a bar."""
    L, A = 2.0, 0.01
    for release in ("j", "ij"):
        m = build_model(model([("A", 0.0, 0.0), ("B", L, 0.0)], [beam("E", "A", "B", list(release))]), statics_only=True).arrays
        k = beam_blocks(m, m.pos0)[0]
        a, c = E * A / L, (3 * EI / L**3 if release == "j" else 0.0)
        want = np.zeros((6, 6))
        want[np.ix_([0, 3], [0, 3])] = [[a, -a], [-a, a]]
        want[np.ix_([1, 2, 4], [1, 2, 4])] = c * np.array([[1, L, -1], [L, L * L, -L], [-1, -L, 1]])
        np.testing.assert_allclose(k, want, rtol=1e-12, atol=1e-12 * a)


def test_releases_are_read_with_a_clear_message():
    base = model([("A", 0.0, 0.0), ("B", 2.0, 0.0)], [beam("E", "A", "B")])
    for bad, field in (
        ({"release": ["k"]}, "members[0].release"),
        ({"release": "j"}, "members[0].release"),
        ({"kind": "bar", "release": ["j"]}, "members[0].release"),
    ):
        data = model([("A", 0.0, 0.0), ("B", 2.0, 0.0)], [{**base["members"][0], **bad}])
        with pytest.raises(ModelError) as err:
            build_model(data, statics_only=True)
        assert err.value.field == field


# -------------------------------------------------------------------------- rollers
def roller_truss(angle: float, P: float = 1e4) -> dict:
    """Bars A (0, 0)–C (2, 1.5)–B (4, 0) and A–B; A pinned, B on a roller whose line is
    at `angle` degrees; P down at C."""
    nodes = heavy([("A", 0.0, 0.0), ("C", 2.0, 1.5), ("B", 4.0, 0.0)])
    members = [member(n, n[0], n[1], A=1e-3) for n in ("AC", "CB", "AB")]
    supports = [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "roller": {"angle": angle}}]
    return model(nodes, members, supports, [{"node": "C", "fy": -P}], damping=0.05)


@pytest.mark.parametrize("integrator", [*INTEGRATORS, "symplectic"])
def test_a_truss_on_an_inclined_roller_has_the_hand_reactions(integrator):
    """The roller pushes along its normal n = (−sin θ, cos θ) with R: moments about A,
    R cos θ · 4 = P · 2, so R = P/(2 cos θ); A takes the rest, (R sin θ, P − R cos θ)."""
    P, theta = 1e4, 30.0
    sim = solve(roller_truss(theta, P), integrator)
    r = sim.reactions()
    A, B = sim.model.node_index("A"), sim.model.node_index("B")
    R, th = P / (2 * math.cos(math.radians(theta))), math.radians(theta)
    t = tol(integrator)
    np.testing.assert_allclose(r[B, :2], [-R * math.sin(th), R * math.cos(th)], rtol=t, atol=t * P)
    np.testing.assert_allclose(r[A, :2], [R * math.sin(th), P - R * math.cos(th)], rtol=t, atol=t * P)
    move = sim.state.pos[B, :2] - sim.model.arrays.pos0[B, :2]
    across = move @ [-math.sin(th), math.cos(th)]
    assert abs(across) <= 1e-11, "the roller's node left its line (by more than the round-off of 4 m coordinates over the run's steps)"


def test_a_level_roller_is_a_roller_fixing_y():
    """Angle 0: the same answer as fix ["y"], to round-off."""
    level = solve(roller_truss(0.0), "linear")
    data = roller_truss(0.0)
    data["supports"][1] = {"node": "B", "fix": ["y"]}
    plain = solve(data, "linear")
    np.testing.assert_allclose(level.state.pos, plain.state.pos, rtol=0, atol=1e-12)
    np.testing.assert_allclose(level.reactions(), plain.reactions(), rtol=0, atol=1e-9 * 1e4)


@pytest.mark.parametrize("integrator", ["rk4", "symplectic", "newmark"])
def test_a_block_on_an_incline_slides_and_is_pushed_by_m_g_cos_theta(integrator):
    """A node of mass m alone on a roller at θ under gravity, no damping: the roller
    pushes m g cos θ along its normal, and the block slides down the line with g sin θ,
    s = ½ g sin θ t² (constant acceleration: RK4 and Newmark's average acceleration are
    exact to round-off; the symplectic step, v first, gives ½ a t (t + dt) exactly)."""
    m_, g, theta, t_end = 5.0, 9.81, 25.0, 0.5
    th = math.radians(theta)
    data = model([("A", 1.0, 2.0, {"mass": m_})], supports=[{"node": "A", "roller": {"angle": theta}}], gravity=g)
    sim = Simulation(build_model(data), integrator, dt=1e-3)
    sim.advance(t_end)
    d = sim.state.pos[0, :2] - sim.model.arrays.pos0[0, :2]
    s = 0.5 * g * math.sin(th) * t_end * (t_end + (1e-3 if integrator == "symplectic" else 0.0))
    np.testing.assert_allclose(d, [-s * math.cos(th), -s * math.sin(th)], rtol=1e-9)
    r = sim.reactions()[0, :2]
    N = m_ * g * math.cos(th)
    np.testing.assert_allclose(r, [-N * math.sin(th), N * math.cos(th)], rtol=1e-9)


def test_a_block_on_an_incline_is_a_mechanism_for_the_static_solve():
    data = model([("A", 1.0, 2.0, {"mass": 5.0})], supports=[{"node": "A", "roller": {"angle": 25.0}}], gravity=9.81)
    result = solve_linear(build_model(data, statics_only=True))
    assert result.mechanism is not None
    mode = result.mechanism.basis[:2, 0]
    assert abs(mode @ [-math.sin(math.radians(25)), math.cos(math.radians(25))]) <= 1e-9 * np.hypot(*mode)


def test_rollers_are_read_with_a_clear_message():
    for bad, field in (
        ({"roller": {"angle": "steep"}}, "supports[0].roller.angle"),
        ({"roller": {}}, "supports[0].roller.angle"),
        ({"roller": {"angle": 30, "slope": 1}}, "supports[0].roller.slope"),
        ({"roller": {"angle": 30}, "fix": ["y"]}, "supports[0].roller"),
        ({"roller": 30}, "supports[0].roller"),
    ):
        data = model([("A", 0.0, 0.0, {"mass": 1.0})], supports=[{"node": "A", **bad}])
        with pytest.raises(ModelError) as err:
            build_model(data, statics_only=True)
        assert err.value.field == field


def test_a_roller_on_a_line_counts_one_reaction_component():
    """m + r = 2j for the triangle on a pin (2) and an inclined roller (1): 3 + 3 = 6."""
    from equilibria.engine.determinacy import truss_count

    assert truss_count(roller_truss(30.0)).excess == 0


def test_the_crown_of_a_three_hinged_arch_is_the_one_hinge_with_parts():
    """hinge_parts: the crown C splits the arch in two (one condition, the part holding
    B's half); D and E, where beams are held to each other, give none."""
    from equilibria.engine.determinacy import hinge_parts

    model = build_model(arch(1.0), statics_only=True)
    found = hinge_parts(model)
    assert [model.node_ids[h] for h, _ in found] == ["C"]
    part = {model.node_ids[q] for q in np.flatnonzero(found[0][1])}
    assert part in ({"A", "D"}, {"E", "B"})


def test_a_stability_beam_pinned_at_its_foot_sways_as_a_cantilever_under_axial_load():
    """One 'stability' element, pinned at its foot A (released there), its top B held
    from turning but free to sway, under P = ½ P_cr down and a small H across: the
    mirror of a cantilever, δ = H L³/(3EI) · 3(tan φ − φ)/φ³ with φ = L√(P/EI), P_cr =
    π²EI/(4L²) (Timoshenko & Gere §1.11): here 2.003 times the first-order sway. The
    seed's element, condensed alike, gives only the chord's P-Δ, 1/(1 − PL²/(3EI)) =
    1.70 times. Tolerance 1e-3: the column's axial shortening (P/EA = 1.4e-4) changes
    φ, and H's sway (1e-5 of L) turns the chord; both well below it. Relaxation only:
    it stops at 1e-8 of the load, where a dynamic run's rest test (1e-3 of P, a hundred
    times H) cannot resolve a sway H drives; the element's tangent, which Newmark reads,
    is held to its forces in tests/test_tangents.py."""
    L, EI_ = 3.0, E * 1e-5
    P = 0.5 * math.pi**2 * EI_ / (4 * L * L)
    H = 1e-5 * P
    column = member("AB", "A", "B", "beam", A=0.01, I=1e-5)
    column.update(formulation="stability", release=["i"])
    nodes = [("A", 0.0, 0.0, {"mass": 100.0}), ("B", 0.0, L, {"mass": 100.0, "inertia": 10.0})]
    data = model(nodes, [column], [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["rot"]}], [{"node": "B", "fx": H, "fy": -P}], damping=0.05)
    sim = solve(data, "relax")
    phi = L * math.sqrt(P / EI_)
    sway = H * L**3 / (3 * EI_) * 3 * (math.tan(phi) - phi) / phi**3
    assert sim.state.pos[1, 0] == pytest.approx(sway, rel=1e-3)
    assert abs(sim.results()["members"]["AB"]["moment_i"]) <= 1e-9 * H * L
    seed = solve({**data, "members": [{**column, "formulation": "arcade"}]}, "relax")
    assert seed.state.pos[1, 0] == pytest.approx(H * L**3 / (3 * EI_) / (1 - P * L * L / (3 * EI_)), rel=1e-3)


def test_a_moment_where_no_beam_turns_the_node_is_refused_naming_its_field():
    """A node's rotation is a DOF only where a beam holds it; a moment anywhere else
    would be carried by nothing (it went into the dropped rotation's 'reaction')."""
    nodes = heavy([("A", 0.0, 0.0), ("B", 2.0, 0.0)])
    supports = [{"node": "A", "fix": ["x", "y", "rot"]}]
    for members in ([member("AB", "A", "B")], [beam("AB", "A", "B", release=("j",))]):
        with pytest.raises(ModelError) as err:
            build_model(model(nodes, members, supports, [{"node": "B", "fx": 1.0}, {"node": "B", "m": 5.0}]), statics_only=True)
        assert err.value.field == "loads[1].m" and "node B" in err.value.message
    held = build_model(model(nodes, [beam("AB", "A", "B")], supports, [{"node": "B", "m": 5.0}]), statics_only=True)
    assert held.arrays.load_f[0, 2] == 5.0
