"""Distributed loads on members and the internal forces along a member
(engine/member_loads.py), checked against hand statics and the textbook's fixed-end
forces, never against the code's own earlier output."""

from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest
from builders import member, model, own_numbers
from judging import F, M, fails, passes, verdict

from equilibria.engine.member_loads import equivalent_global, forces_along, member_forces, resultant
from equilibria.engine.model import ModelError, build_model
from equilibria.engine.simulation import Simulation

W = 3000.0  # [N/m]
L = 6.0  # [m]
# A linear or relaxed solve is exact to round-off: 1e-9 of the load. The dynamic runs
# stop at rest with the out-of-balance under their rest tolerance (1e-3 of the load
# scale, engine/simulation.py RestCriteria), so they are held to 1 %.
EXACT = 1e-9
AT_REST = 1e-2


def span(n: int = 1, *, fix_i=("x", "y"), fix_j=("y",), loads=(), kind="beam", gravity=0.0, **world) -> dict:
    """A horizontal member of n elements from A (0, 0) to B (L, 0), steel, 0.01 m², I =
    1e-4 m⁴; nodes of 100 kg so the dynamic runs take big steps."""
    names = ["A", *[f"N{k}" for k in range(1, n)], "B"]
    nodes = [(q, L * k / n, 0.0, {"mass": 100.0, "inertia": 10.0}) for k, q in enumerate(names)]
    members = [member(f"E{k}", names[k], names[k + 1], kind, A=0.01, I=1e-4 if kind == "beam" else None) for k in range(n)]
    supports = [{"node": "A", "fix": list(fix_i)}, {"node": "B", "fix": list(fix_j)}]
    data = model(nodes, members, supports, gravity=gravity, **world)
    data["member_loads"] = list(loads)
    return data


def solve(data: dict, integrator: str = "linear") -> Simulation:
    sim = Simulation(build_model(data, statics_only=integrator in ("linear", "relax")), integrator)
    if integrator == "linear":
        sim.solve_linear()
    elif integrator == "relax":
        sim.relax()
    else:
        assert sim.advance(60.0, until_rest=True).at_rest
    return sim


# ---------------------------------------------------------------------- nodal equivalents
def test_a_uniform_load_on_a_beam_gives_the_fixed_end_forces():
    """Uniform w on a beam of length L: wL/2 and wL²/12 at each end, the moments opposite
    (the textbook's fixed-end forces with the sign of a load, not of a reaction)."""
    m = build_model(span(loads=[{"member": "E0", "w": -W}]), statics_only=True)
    f = m.arrays.load_f
    assert m.point_loads == 0 and len(f) == 2
    np.testing.assert_allclose(f[:, 1], [-W * L / 2, -W * L / 2], rtol=EXACT)
    np.testing.assert_allclose(f[:, 2], [-W * L**2 / 12, W * L**2 / 12], rtol=EXACT)


def test_a_triangular_load_on_a_beam_gives_its_fixed_end_forces():
    """0 at i rising to w at j: 3wL/20 and 7wL/20; moments wL²/30 at i, wL²/20 at j
    (Gere & Goodno, table of fixed-end actions)."""
    m = build_model(span(loads=[{"member": "E0", "wi": 0.0, "wj": -W}]), statics_only=True)
    f = m.arrays.load_f
    np.testing.assert_allclose(f[:, 1], [-3 * W * L / 20, -7 * W * L / 20], rtol=EXACT)
    np.testing.assert_allclose(f[:, 2], [-W * L**2 / 30, W * L**2 / 20], rtol=EXACT)


def test_a_bar_takes_forces_only_as_a_simple_span_would():
    """A bar does not bend: 0 → w goes to its ends as wL/6 and wL/3, with no moment."""
    m = build_model(span(kind="bar", loads=[{"member": "E0", "wi": 0.0, "wj": -W}]), statics_only=True)
    f = m.arrays.load_f
    np.testing.assert_allclose(f[:, 1], [-W * L / 6, -W * L / 3], rtol=EXACT)
    assert not f[:, 2].any()


def test_a_load_on_a_sloping_member_is_per_metre_of_the_member_and_keeps_its_direction():
    """Along global y on a member at 30°: the ends take w·L in y in all, nothing in x; along
    the normal, the total w·L lies across the member."""
    data = model([("A", 0.0, 0.0), ("B", L * math.cos(math.pi / 6), L * math.sin(math.pi / 6))], [member("AB", "A", "B", "beam", A=0.01, I=1e-4)])
    for direction, total in (("y", (0.0, -W * L)), ("normal", (W * L * math.sin(math.pi / 6), -W * L * math.cos(math.pi / 6)))):
        data["member_loads"] = [{"member": "AB", "w": -W, "direction": direction}]
        f = build_model(data, statics_only=True).arrays.load_f
        np.testing.assert_allclose(f[:, :2].sum(axis=0), total, atol=EXACT * W * L)


def test_the_equivalents_are_statically_the_resultant_at_the_centroid():
    """Any linear load: the nodal equivalents sum to the resultant ½(wi + wj)L and their
    moment about i is that resultant at the trapezoid's centroid L(wi + 2wj)/(3(wi + wj))."""
    for wi, wj in ((-W, -W), (0.0, -W), (-2 * W, -W / 2), (W, -W / 3)):
        m = build_model(span(loads=[{"member": "E0", "wi": wi, "wj": wj}]), statics_only=True)
        total, at = resultant(wi, wj, L)
        f = m.arrays.load_f
        assert f[:, 1].sum() == pytest.approx(total, rel=EXACT)
        assert f[1, 1] * L + f[:, 2].sum() == pytest.approx(total * at, rel=EXACT)
    assert resultant(0.0, -W, L)[1] == pytest.approx(2 * L / 3)
    assert resultant(-W, -W, L)[1] == pytest.approx(L / 2)


# ---------------------------------------------------------------------- reactions, every integrator
@pytest.mark.parametrize("integrator", ["linear", "relax", "newmark", "rk4", "symplectic"])
def test_every_integrator_gives_the_simple_spans_reactions(integrator):
    """Pin at A, roller at B, 0 → w over L (a triangle): R_A = wL/6, R_B = wL/3 (the
    resultant wL/2 at 2L/3 from A). Two elements, so the load spans a joint too."""
    data = span(2, loads=[{"member": "E0", "wi": 0.0, "wj": -W / 2}, {"member": "E1", "wi": -W / 2, "wj": -W}], damping=0.5)
    sim = solve(data, integrator)
    r = sim.results()["reactions"]
    tol = EXACT if integrator in ("linear", "relax") else AT_REST
    if integrator == "relax":
        tol = 1e-6  # relaxation stops at 1e-8 of the load's scale, out-of-balance spread over the nodes
    assert r["A"]["fy"] == pytest.approx(W * L / 6, rel=tol)
    assert r["B"]["fy"] == pytest.approx(W * L / 3, rel=tol)
    assert abs(r["A"]["fx"]) <= tol * W * L


def test_a_load_history_scales_a_member_load_as_it_scales_a_point_load():
    """Ramped from 0 to 1 over 1 s: halfway, half the reactions; the static solve takes
    the final value."""
    data = span(loads=[{"member": "E0", "w": -W, "history": [[0.0, 0.0], [1.0, 1.0]]}])
    m = build_model(data, statics_only=True)
    from equilibria.engine.linear import load_vector

    assert load_vector(m, 0.5)[:, 1].sum() == pytest.approx(-W * L / 2, rel=EXACT)
    assert solve(data).results()["reactions"]["A"]["fy"] == pytest.approx(W * L / 2, rel=EXACT)


def test_simulate_reports_a_member_load_in_the_reactions_and_the_largest_moment(tmp_path, capsys):
    """`equilibria simulate --json`: a cantilever of length L under uniform w: the wall
    gives wL up and wL²/2 counter-clockwise; moment_max is the wall's −wL²/2 (hogging)."""
    from equilibria.cli.main import main

    data = span(4, fix_i=("x", "y", "rot"), fix_j=(), loads=[{"member": f"E{k}", "w": -W} for k in range(4)])
    data["supports"] = data["supports"][:1]
    path = tmp_path / "cantilever.json"
    path.write_text(json.dumps(data))
    assert main(["simulate", str(path), "--integrator", "linear", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reactions"]["A"]["fy"] == pytest.approx(W * L, rel=EXACT)
    assert out["reactions"]["A"]["m"] == pytest.approx(W * L**2 / 2, rel=EXACT)
    assert out["members"]["E0"]["moment_max"] == pytest.approx(-W * L**2 / 2, rel=EXACT)


# ---------------------------------------------------------------------- internal forces
def test_a_simple_span_under_a_uniform_load_has_the_textbook_diagrams():
    """One element, pin and roller: V = wL/2 − wx, M = wx(L − x)/2, the largest wL²/8 at
    mid-span where V = 0 (sagging positive)."""
    sim = solve(span(loads=[{"member": "E0", "w": -W}]))
    f = member_forces(sim.model, sim.state, 0, 61)
    np.testing.assert_allclose(f.V, W * L / 2 - W * f.x, atol=EXACT * W * L)
    np.testing.assert_allclose(f.M, W * f.x * (L - f.x) / 2, atol=EXACT * W * L**2)
    k = int(np.argmax(f.M))
    assert f.x[k] == pytest.approx(L / 2) and f.M[k] == pytest.approx(W * L**2 / 8, rel=EXACT)
    np.testing.assert_allclose(f.N, 0.0, atol=EXACT * W * L)


def test_a_clamped_span_has_the_fixed_end_moments_though_its_nodes_never_move():
    """Both ends clamped, one element: the nodes stay put, yet M = −wL²/12 at the ends and
    +wL²/24 at mid-span."""
    sim = solve(span(fix_i=("x", "y", "rot"), fix_j=("x", "y", "rot"), loads=[{"member": "E0", "w": -W}]))
    f = member_forces(sim.model, sim.state, 0, 3)
    np.testing.assert_allclose(f.M, [-W * L**2 / 12, W * L**2 / 24, -W * L**2 / 12], rtol=EXACT)


@pytest.mark.parametrize("integrator", ["linear", "relax"])
def test_the_reported_end_moments_of_a_loaded_span_are_the_ones_its_nodes_apply(integrator):
    """docs/model.md: moment_i, moment_j are the moments the nodes apply (counter-clockwise
    positive), shear_i the force node i applies across the chord. A clamped span under w
    reported 0, 0 and 0 (the element's own, its nodes never move) where the clamps apply
    +wL²/12, −wL²/12 and wL/2 (closed form; a one-element span is exact, so to 1e-9 of
    wL²; relaxation stops within its rest tolerance). Clamped at A and on a roller
    at B (a propped cantilever): wL²/8 at A, 0 at B, 5wL/8 up at A."""
    loads = [{"member": "E0", "w": -W}]
    clamped = solve(span(fix_i=("x", "y", "rot"), fix_j=("x", "y", "rot"), loads=loads), integrator).results()["members"]["E0"]
    tol = EXACT if integrator == "linear" else AT_REST
    assert clamped["moment_i"] == pytest.approx(W * L**2 / 12, rel=tol)
    assert clamped["moment_j"] == pytest.approx(-W * L**2 / 12, rel=tol)
    assert clamped["shear_i"] == pytest.approx(W * L / 2, rel=tol)
    propped = solve(span(fix_i=("x", "y", "rot"), fix_j=("y",), loads=loads), integrator).results()["members"]["E0"]
    assert propped["moment_i"] == pytest.approx(W * L**2 / 8, rel=tol)
    assert abs(propped["moment_j"]) <= tol * W * L**2
    assert propped["shear_i"] == pytest.approx(5 * W * L / 8, rel=tol)


def test_a_bar_under_a_member_load_reports_no_end_moments():
    bar = solve(span(kind="bar", loads=[{"member": "E0", "w": -W}])).results()["members"]["E0"]
    assert bar["moment_i"] == bar["moment_j"] == bar["shear_i"] == 0.0


def test_a_triangular_load_gives_its_largest_moment_where_the_shear_is_zero():
    """0 → w over a simple span: V = wL/6 − wx²/(2L) vanishes at x = L/√3, where M is
    wL²/(9√3); split in three elements, each with its own piece of the load, the closed
    form inside each agrees."""
    n = 3
    loads = [{"member": f"E{k}", "wi": -W * k / n, "wj": -W * (k + 1) / n} for k in range(n)]
    sim = solve(span(n, loads=loads))
    f = forces_along(sim.model, sim.state, [2, 0, 1], 41)  # all at once, in any order
    x = np.concatenate([f.x[1], f.x[2] + L / n, f.x[0] + 2 * L / n])
    m, v = (np.concatenate([a[1], a[2], a[0]]) for a in (f.M, f.V))
    np.testing.assert_allclose(v, W * L / 6 - W * x**2 / (2 * L), atol=1e-9 * W * L)
    np.testing.assert_allclose(m, W * L * x / 6 - W * x**3 / (6 * L), atol=1e-9 * W * L**2)
    assert m.max() == pytest.approx(W * L**2 / (9 * math.sqrt(3)), rel=1e-3)  # sampled: 1e-3 of the peak


def test_a_bar_under_a_transverse_load_is_a_simple_span_inside():
    """A pin-ended bar: the moment is zero at its ends and wL²/8 at mid-span."""
    sim = solve(span(kind="bar", loads=[{"member": "E0", "w": -W}]) | {"supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["x", "y"]}]})
    f = member_forces(sim.model, sim.state, 0, 3)
    np.testing.assert_allclose(f.M, [0.0, W * L**2 / 8, 0.0], atol=EXACT * W * L**2)


def test_a_sloping_beam_under_a_vertical_load_has_the_textbook_internal_forces():
    """A beam at θ = 30°, pin at its foot, a roller holding its head up (vertical reaction),
    w per metre of the beam down: each support takes wL/2 up. Across the beam the load is
    w cos θ, so M = w cos θ · x(L − x)/2; along it w sin θ, so N = −w sin θ (L/2 − x)
    (pushed at the foot, pulled at the head); V = w cos θ (L/2 − x)."""
    t = math.pi / 6
    data = model(
        [("A", 0.0, 0.0, {"mass": 100.0, "inertia": 10.0}), ("B", L * math.cos(t), L * math.sin(t), {"mass": 100.0, "inertia": 10.0})],
        [member("AB", "A", "B", "beam", A=0.01, I=1e-4)],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
    )
    data["member_loads"] = [{"member": "AB", "w": -W}]
    sim = solve(data)
    assert sim.results()["reactions"]["B"]["fy"] == pytest.approx(W * L / 2, rel=EXACT)
    f = member_forces(sim.model, sim.state, 0, 13)
    np.testing.assert_allclose(f.M, W * math.cos(t) * f.x * (L - f.x) / 2, atol=EXACT * W * L**2)
    np.testing.assert_allclose(f.N, -W * math.sin(t) * (L / 2 - f.x), atol=EXACT * W * L)
    np.testing.assert_allclose(f.V, W * math.cos(t) * (L / 2 - f.x), atol=EXACT * W * L)


def test_equivalents_put_through_a_rotation_stay_the_same_load():
    """The global equivalents of a normal load turn with the member."""
    from equilibria.engine.member_loads import MemberLoad

    pos = np.array([[0.0, 0.0, 0.0], [L, 0.0, 0.0]])
    a = equivalent_global(MemberLoad(0, 0, 1, -W, -W, "normal", -1, True), pos)
    c, s = math.cos(0.7), math.sin(0.7)
    turned = pos.copy()
    turned[1, :2] = (L * c, L * s)
    b = equivalent_global(MemberLoad(0, 0, 1, -W, -W, "normal", -1, True), turned)
    np.testing.assert_allclose(b[:, 0], c * a[:, 0] - s * a[:, 1], atol=EXACT * W * L)
    np.testing.assert_allclose(b[:, 2], a[:, 2], rtol=EXACT)


# ---------------------------------------------------------------------- bad input
GOOD = span(loads=[{"member": "E0", "w": -W}])


@pytest.mark.parametrize(
    ("load", "field", "words"),
    [
        ({"member": "Q", "w": -W}, "member_loads[0].member", "unknown member 'Q'"),
        ({"member": "E0", "w": -W, "wi": 0}, "member_loads[0].w", "not both"),
        ({"member": "E0", "wi": 0}, "member_loads[0].wj", "wi and wj"),
        ({"member": "E0"}, "member_loads[0].w", "needs w"),
        ({"member": "E0", "w": "heavy"}, "member_loads[0].w", "expected a number"),
        ({"member": "E0", "w": -W, "direction": "down"}, "member_loads[0].direction", "y, x, normal"),
        ({"member": "E0", "w": -W, "history": [[1, 0], [0, 1]]}, "member_loads[0].history[1]", "increase"),
        ({"member": "E0", "q": -W}, "member_loads[0].q", "a member load takes"),
    ],
)
def test_a_bad_member_load_is_refused_naming_its_field(load, field, words):
    data = copy.deepcopy(GOOD)
    data["member_loads"] = [load]
    with pytest.raises(ModelError) as err:
        build_model(data, statics_only=True)
    assert err.value.field == field and words in str(err.value)


# ---------------------------------------------------------------------- the course's beam levels
# Hand statics (x right, y up, counter-clockwise positive; V and M in the beam convention):
# beam-01  8 m, pin A, roller B, 2 kN/m down: resultant 16 kN at 4 m; ΣM_A: B·8 = 16·4 →
#          B = 8 kN, A = 8 kN.
# beam-02  6 m, pin A, roller B, 0 → 3 kN/m down from A to B: resultant ½·3·6 = 9 kN at
#          2L/3 = 4 m; ΣM_A: B·6 = 9·4 → B = 6 kN, A = 3 kN.
# beam-03  part A–C (2 m) of a beam under 2 kN/m, A's reaction (−4, +6) kN as a load: the
#          cut at C gives (+4, −2) kN (N = +4 kN tension, V = 6 − 2·2 = +2 kN) and
#          ΣM_C: −6·2 + 4·1 + M = 0 → M = +8 kN·m (= 6·2 − 2·2²/2, sagging).
# beam-04  part A–D (3 m) of an 8 m beam under 2 kN/m and 8 kN at C (2 m): R_A from the
#          whole beam, ΣM_B: R_A·8 = 16·4 + 8·6 = 112 → 14 kN. At D: V = 14 − 8 − 2·3 = 0;
#          ΣM_D: −14·3 + 8·1 + 6·1.5 + M = 0 → M = +25 kN·m, the largest (V = 0 there).
BEAM_LEVELS = ["beam-01", "beam-02", "beam-03", "beam-04"]


@pytest.mark.parametrize("level_id", BEAM_LEVELS)
def test_each_beam_level_validates_and_its_hand_worked_solution_passes(level_id, capsys):
    from pathlib import Path

    from equilibria.cli.main import main
    from equilibria.files.store import read_json

    levels = Path(__file__).resolve().parents[1] / "levels"
    from equilibria.course.level import load_level
    from equilibria.rules.judge import briefed

    said = briefed(load_level(read_json(levels / f"{level_id}.json")))  # the brief as the game shows it, its assumptions after
    assert "Self-weight is neglected" in said and "moments counter-clockwise positive" in said and "within 2%" in said
    assert main(["validate", str(levels / f"{level_id}.json")]) == 0
    capsys.readouterr()
    assert main(["check", str(levels / f"{level_id}.json"), "--solution", str(levels / "solutions" / f"{level_id}.json"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["passed"] and out["max_displacement"] < 0.02, out["reason"]
    # the hand answers balance to round-off: 1e-9 of the largest load
    assert abs(out["net_force"]["fx"]) < 1e-5 and abs(out["net_force"]["fy"]) < 1e-5 and abs(out["net_moment"]) < 1e-4


def test_beam_01_the_resultant_is_the_load_times_its_length():
    passes("beam-01", [F("A", 0, 8000), F("B", 0, 8000)])
    passes("beam-01", [F("A", 0, 8050), F("B", 0, 7950)])  # typed to 2-3 figures: within 2 % of 16 kN
    # w taken as the force (2 kN, not 2 kN/m × 8 m): ΣFy = 2 − 16 = −14 kN, it falls
    fails("beam-01", [F("A", 0, 1000), F("B", 0, 1000)], "ΣFy", "move down")
    # all of it on the pin: ΣM_A = −16·4 = −64 kN·m, it turns clockwise
    fails("beam-01", [F("A", 0, 16000), F("B", 0, 0)], "ΣM about A", "clockwise")


def test_a_wrong_answer_on_a_distributed_load_is_hinted_at_its_resultant_and_centroid():
    """The resultant put at mid-span: ΣM is off, and the hint names the moment equation
    and where a distributed load's resultant acts, never a force's size."""
    from pathlib import Path

    from equilibria.course.level import load_level
    from equilibria.files.store import read_json
    from equilibria.rules.hints import hint

    level = load_level(read_json(Path(__file__).resolve().parents[1] / "levels" / "beam-02.json"))
    words = hint(level, verdict("beam-02", [F("A", 0, 4500), F("B", 0, 4500)]))
    assert "take moments about A" in words and "at the centroid of the diagram" in words
    assert not any(n in words for n in ("3 kN", "6 kN", "9 kN", "4 m"))


def test_beam_02_the_resultant_acts_at_the_centroid_not_mid_span():
    passes("beam-02", [F("A", 0, 3000), F("B", 0, 6000)])
    # the resultant put at mid-span: 4.5 kN each; ΣM_A = 4.5·6 − 9·4 = −9 kN·m
    fails("beam-02", [F("A", 0, 4500), F("B", 0, 4500)], "ΣM about A", "clockwise")
    # the centroid measured from the wrong end (L/3 from A): A 6, B 3; ΣM_A = 18 − 36 = −18
    fails("beam-02", [F("A", 0, 6000), F("B", 0, 3000)], "ΣM about A")
    # the whole rectangle w·L = 18 kN taken as the resultant: ΣFy = 18 − 9 = +9 kN
    fails("beam-02", [F("A", 0, 6000), F("B", 0, 12000)], "ΣFy", "move up")
    # a roller cannot hold sideways
    fails("beam-02", [F("A", 0, 3000), F("B", 1000, 6000)], "roller at B gives no force along x")


def test_beam_03_n_v_and_m_at_a_cut():
    passes("beam-03", [F("C", 4000, -2000), M("C", 8000)])
    # M with the wrong sense (hogging instead of sagging): ΣM_C = −16 kN·m
    fails("beam-03", [F("C", 4000, -2000), M("C", -8000)], "ΣM about C", "turn clockwise")
    # the distributed load on the piece forgotten: V = 6, M = 12; ΣFy = −4, ΣM_C = +4
    fails("beam-03", [F("C", 4000, -6000), M("C", 12000)], "ΣFy", "ΣM about C")
    # the axial force forgotten: ΣFx = −4 kN, the piece moves left
    fails("beam-03", [F("C", 0, -2000), M("C", 8000)], "ΣFx", "move left")


def test_beam_04_the_largest_moment_is_where_the_shear_is_zero():
    passes("beam-04", [F("D", 0, 0), M("D", 25000)])
    passes("beam-04", [F("D", 0, 0), M("D", 25300)])  # within 2 % × 14 kN × 3 m = 0.84 kN·m
    # wL²/8 of the uniform load alone (16 kN·m), the point load forgotten: ΣM_D = −9 kN·m
    fails("beam-04", [F("D", 0, 0), M("D", 16000)], "ΣM about D")
    # the resultant of the load on A–D put at D instead of mid-way: M = 42 − 8 = 34: +9 kN·m
    fails("beam-04", [F("D", 0, 0), M("D", 34000)], "ΣM about D")
    # the wrong sign of M: −50 kN·m off
    fails("beam-04", [F("D", 0, 0), M("D", -25000)], "ΣM about D")


def test_the_diagrams_of_beam_04_peak_where_the_shear_is_zero():
    """The internal forces of the freed body with the answer in place: the part A–D of
    the beam, V = 14 − 2x (x < 2 m), 6 − 2x after C; M(3 m) = 25 kN·m, the largest."""
    from pathlib import Path

    from equilibria.course.level import load_level
    from equilibria.files.store import read_json
    from equilibria.format.solution import player_loads
    from equilibria.rules.free_body import held

    level = load_level(read_json(Path(__file__).resolve().parents[1] / "levels" / "beam-04.json"))
    data = level.model_data()
    data["loads"] = data["loads"] + player_loads([m for m in load_solution_moves("beam-04")])
    sim = solve(held(level, data))
    model = sim.model
    ac, cd = (member_forces(model, sim.state, model.member_index(k), 21) for k in ("AC", "CD"))
    np.testing.assert_allclose(ac.V, 14000 - 2000 * ac.x, atol=1e-6 * 14000)
    np.testing.assert_allclose(cd.V, 6000 - 2000 * (cd.x + 2), atol=1e-6 * 14000)
    np.testing.assert_allclose(cd.M[-1], 25000, rtol=1e-6)
    assert max(ac.M.max(), cd.M.max()) == pytest.approx(25000, rel=1e-6)


def load_solution_moves(level_id: str) -> list:
    from pathlib import Path

    from equilibria.files.store import read_json
    from equilibria.format.solution import load_solution

    return load_solution(read_json(Path(__file__).resolve().parents[1] / "levels" / "solutions" / f"{level_id}.json")).moves


# ---------------------------------------------------------------------- drawn in the game
def opened(level: str, *, checked: bool = False):
    import pygame
    from test_play_session import key, start

    from equilibria.app.launch import bench_of_solution
    from equilibria.app.session.stage import load_stage
    from equilibria.course.syllabus import reference_solution, shipped_level

    stage = load_stage(shipped_level(level))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution(level))) if checked else None)
    if checked:
        key(app, pygame.K_c)
        for _ in range(60):  # the judged run settles (the beam levels damp it in half a second)
            app.frame()
    return app, scene


def test_a_distributed_load_is_drawn_with_w_and_on_request_its_resultant_at_the_centroid(drawn):
    import pygame
    from drawing import texts
    from test_play_session import key

    app, _ = opened("beam-02")
    drawn.clear()
    app.frame()
    said = texts(drawn)
    assert "3 kN/m" in said and not any(t.startswith("resultant") for t in said)
    assert not any(t.endswith(" kN") and t[0].isdigit() for t in said)  # no point loads drawn at its ends
    key(app, pygame.K_w)
    drawn.clear()
    app.frame()
    said = texts(drawn)
    assert not any(t.startswith("resultant") for t in said)  # before a pass: finding it is the work (Kind.resultants_before_pass, issue 32)
    app, _ = opened("beam-02", checked=True)  # after a pass, W draws it
    key(app, pygame.K_w)
    drawn.clear()
    app.frame()
    assert "resultant 9 kN, 4 m from A" in texts(drawn)  # ½·3 kN/m·6 m at 2L/3


def test_the_diagrams_key_cycles_shear_moment_and_none_with_values_and_signs(drawn):
    """beam-04 after its answer passed: the moment diagram shows by itself (+24 kN·m at
    C, +25 kN·m at D: 14·2 − 2·2²/2 and the hand answer); I gives the shear (+14 kN at A,
    +10 and +2 kN either side of C's 8 kN), then none."""
    import pygame
    from drawing import texts
    from test_play_session import key

    app, scene = opened("beam-04", checked=True)
    assert scene.picture.diagram == "moment"
    drawn.clear()
    app.frame()
    said = texts(drawn)
    assert {"+24 kN·m", "+25 kN·m"} <= set(said), said
    key(app, pygame.K_i)
    assert scene.picture.diagram is None
    key(app, pygame.K_i)
    drawn.clear()
    app.frame()
    said = texts(drawn)
    assert scene.picture.diagram == "shear" and {"+14 kN", "+10 kN", "+2 kN"} <= set(said), " | ".join(said)
    assert any("the forces left of a cut add up to V, + up" in line for line in scene.picture.legend_notes())


def test_a_freed_body_shows_no_diagram_till_an_answer_passes(drawn):
    import pygame
    from drawing import texts
    from test_play_session import key

    app, scene = opened("beam-03")
    key(app, pygame.K_i)
    drawn.clear()
    app.frame()
    said = texts(drawn)
    assert scene.picture.diagram == "shear" and not any(t.endswith(" kN") and t[0] in "+−" for t in said)
    assert any("once the body is in equilibrium" in line for line in scene.picture.legend_notes())


def test_drawing_the_diagrams_writes_nothing_into_the_run():
    import pygame
    from test_play_session import key

    app, scene = opened("beam-04", checked=True)
    key(app, pygame.K_SPACE)  # paused
    state = scene.picture.sim.state
    before = [a.copy() for a in (state.pos, state.vel, state.member_out, state.force)]
    for k in (pygame.K_i, pygame.K_i, pygame.K_w):
        key(app, k)
    after = (state.pos, state.vel, state.member_out, state.force)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def test_a_sandbox_erasing_a_loaded_member_takes_its_distributed_load_with_it():
    from pathlib import Path

    from equilibria.course.level import load_level
    from equilibria.files.store import read_json
    from equilibria.work.workbench import SandboxBench

    doc = own_numbers(read_json(Path(__file__).resolve().parents[1] / "levels" / "beam-04.json"))  # a sandbox has no answer to explain
    for key in ("cut", "goal"):
        doc.pop(key)
    bench = SandboxBench(load_level({**doc, "kind": "sandbox"}))
    bench.erase("member", "CD")
    assert [w["member"] for w in bench.doc["member_loads"]] == ["AC"]
    bench.erase("node", "A")
    assert bench.doc["member_loads"] == []
    build_model(bench.doc, statics_only=True)


def test_load_factors_scale_a_member_load_its_reactions_and_its_moments(tmp_path, capsys):
    """`simulate --load-factors 0.5,1`: the cantilever's wall takes ½wL, then wL, and its
    largest moment is −wL²/4, then −wL²/2 (the member loads scale with the point loads)."""
    from equilibria.cli.main import main

    data = span(2, fix_i=("x", "y", "rot"), loads=[{"member": f"E{k}", "w": -W} for k in range(2)])
    data["supports"] = data["supports"][:1]
    path = tmp_path / "cantilever.json"
    path.write_text(json.dumps(data))
    assert main(["simulate", str(path), "--integrator", "linear", "--load-factors", "0.5,1", "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    for run, factor in zip(runs, (0.5, 1.0), strict=True):
        assert run["reactions"]["A"]["fy"] == pytest.approx(factor * W * L, rel=EXACT)
        assert run["members"]["E0"]["moment_max"] == pytest.approx(-factor * W * L**2 / 2, rel=EXACT)
