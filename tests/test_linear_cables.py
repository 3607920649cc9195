"""The linear solve with cables (tension only), checked against statics, an exhaustive
search over which cables are taut, and the engine's dynamic relaxation.

Glossary: an X-braced bay, columns AC and BD (3 m), beam CD (4 m), diagonals AD and BC
(5 m, cos θ = 4/5) as cables; A and B pinned. Members are stiff steel so that the
small-displacement answer and the relaxed (large-displacement) one differ by under 1e-4.
A cable net: supports A (0, 0), B (4, 0), C (4, 3), D (0, 3) [m] and free nodes P, Q
tied to them and to each other by cables of several sections.

The independent solve (`exhaustive`) tries every set of taut cables, solving each by
least squares (numpy's dense lstsq, not the engine's sparse path), and keeps the sets
whose taut cables stretch and whose slack ones shorten; none means no equilibrium (a
mechanism under the loads). It does not depend on the engine's method.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from builders import member, model
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from equilibria.cli.main import main
from equilibria.engine.elements.beam import beam_forces_small
from equilibria.engine.linear import bar_axial_linear, load_vector, prescribed_displacement, stiffness
from equilibria.engine.model import build_model
from equilibria.engine.results import all_on
from equilibria.engine.simulation import Simulation

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
    """The one answer of the exhaustive search (module note)."""
    found = consistent_sets(data)
    assert found, "no set of taut cables is consistent: a mechanism under the loads"
    return found[0]


def consistent_sets(data: dict, tol: float = 1e-7) -> list[dict]:
    """Every set of taut cables whose answer stretches its taut cables and shortens its
    slack ones, to tol of the largest load (member forces [N], slack ones 0); [] when
    the structure with every cable taut is a mechanism or no set is consistent. A set
    that leaves a free motion is solved by least squares: its answer counts when the
    loads are balanced (to tol), i.e. when they do no work along that motion."""
    built = build_model(data, statics_only=True)
    m = built.arrays
    cables = np.flatnonzero(m.bar_cable)
    free = ~m.fixed.ravel()
    F = load_vector(built, built.load_end_time).ravel()
    scale = np.abs(F).max()
    every = all_on(m)  # by kind (engine/results.py)
    K_all = stiffness(built, active=every).toarray()[free][:, free]
    d = 1.0 / np.sqrt(np.diag(K_all))
    if np.linalg.eigvalsh(K_all * d[:, None] * d[None, :]).min() < 1e-10:
        return []
    found = []
    for taut in itertools.product((True, False), repeat=len(cables)):
        taut = np.array(taut, dtype=bool)
        on = np.ones(len(m.bar_L0), bool)
        on[cables[~taut]] = False
        K = stiffness(built, active={**every, "bar": on}).toarray()[free][:, free]
        uf = np.linalg.lstsq(K, F[free], rcond=1e-13)[0]
        if np.abs(K @ uf - F[free]).max() > tol * scale:
            continue
        u = prescribed_displacement(built, 0.0).ravel()
        u[free] = uf
        N = bar_axial_linear(built, u.reshape(-1, 3))
        if np.all(N[cables[taut]] >= -tol * scale) and np.all(N[cables[~taut]] <= tol * scale):
            N[cables[~taut]] = 0.0
            beam_N = beam_forces_small(built.arrays, u.reshape(-1, 3))[:, 0]
            found.append({mid: float((N if kind == "bar" else beam_N)[row]) for mid, (kind, row) in zip(built.member_ids, built.member_slot, strict=True)})
    return found


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


SUPPORTS = [("A", 0.0, 0.0), ("B", 4.0, 0.0), ("C", 4.0, 3.0), ("D", 0.0, 3.0)]
NET_AREAS = {"PA": 1.7e-4, "PB": 3.0e-4, "PC": 1.8e-4, "QA": 6.4e-4, "QB": 1.8e-4, "QC": 2.7e-4, "QD": 6.1e-4, "PQ": 3.3e-4}  # [m²]


def cable_net(areas: dict, loads: list, free=(("P", 2.5, 1.15), ("Q", 2.4, 0.5))) -> dict:
    """Cables named by their two end nodes, each of its area; the four corners pinned."""
    members = [member(k, k[0], k[1], kind="cable", A=a) for k, a in areas.items()]
    return model(SUPPORTS + list(free), members, [{"node": n, "fix": ["x", "y"]} for n, *_ in SUPPORTS], loads)


def test_a_two_node_cable_net_where_the_set_of_slack_cables_cycled():
    """The loads P (1.0, 0.5) kN and Q (−1.2, −7.6) kN. Flipping the set of slack cables
    from the answer with every cable taut cycled here and kept the last solve: PC and PQ
    in compression (−1.8 and −0.9 kN), PA slack though stretched. The exhaustive search
    finds one consistent set (PB and QA slack, the rest taut); dynamic relaxation (large
    displacements, from the start) agrees to 1e-3 of the load."""
    data = cable_net(NET_AREAS, [{"node": "P", "fx": 1.0e3, "fy": 0.5e3}, {"node": "Q", "fx": -1.2e3, "fy": -7.6e3}])
    N = linear(data)
    expected = exhaustive(data)
    assert len(consistent_sets(data)) == 1
    for mid, n in expected.items():
        assert N[mid] == pytest.approx(n, abs=1e-6 * 7.6e3), mid  # both solve the same linear system: to round-off of the loads
    assert N["PB"] == 0.0 and N["QA"] == 0.0 and min(N.values()) >= 0.0
    assert N["PA"] == pytest.approx(1699.4, abs=0.1) and N["QC"] == pytest.approx(5405.1, abs=0.1)  # the exhaustive search's figures, rounded
    relaxed = Simulation(build_model(data, statics_only=True), "relax")
    assert relaxed.relax().at_rest
    for mid, f in relaxed.results()["members"].items():
        assert N[mid] == pytest.approx(f["axial"], abs=1e-3 * 7.6e3), mid  # small against large displacements (strains ~1e-4)


MECHANISM_NET = {"PA": 2e-4, "PD": 2e-4, "QA": 2e-4, "QD": 2e-4, "PQ": 2e-4}


def test_a_net_that_is_a_mechanism_under_its_loads_is_reported_and_exits_1(tmp_path, capsys):
    """P and Q hang from the left supports only; with every cable taut the net stands,
    but the loads push both nodes to the left, towards A and D, which shortens every cable: nothing
    holds them. No set of taut cables is consistent (the exhaustive search), the linear
    solve reports a mechanism naming both nodes, and `simulate --integrator linear`
    exits 1 with that line."""
    data = cable_net(MECHANISM_NET, [{"node": "P", "fx": -5e3, "fy": 1e3}, {"node": "Q", "fx": -4e3, "fy": -1e3}])
    assert consistent_sets(data) == []
    sim = Simulation(build_model(data, statics_only=True), "linear")
    assert not sim.solve_linear().at_rest
    assert "mechanism under its loads" in sim.mechanism.message and "nodes P, Q move freely" in sim.mechanism.message
    path = tmp_path / "net.json"
    path.write_text(json.dumps(data))
    assert main(["simulate", str(path), "--integrator", "linear", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert "mechanism" in out and all(f["axial"] == 0.0 for f in out["members"].values())


@st.composite
def cable_nets(draw):
    """One to three free nodes inside the 4 × 3 m frame of supports (at least 0.5 m from
    each other and from the frame), each tied by two to four cables to supports or to
    the free nodes before it, of areas from 0.5 to 5 cm²; loads of −5…5 kN on each."""
    free = []
    for name in "PQR"[: draw(st.integers(1, 3))]:
        x, y = draw(st.floats(0.5, 3.5)), draw(st.floats(0.5, 2.5))
        if any(np.hypot(x - fx, y - fy) < 0.5 for _, fx, fy in free):
            continue
        free.append((name, x, y))
    areas = {}
    for k, (name, *_) in enumerate(free):
        ends = [n for n, *_ in SUPPORTS] + [n for n, *_ in free[:k]]
        for end in draw(st.lists(st.sampled_from(ends), min_size=2, max_size=4, unique=True)):
            areas[name + end] = draw(st.sampled_from((0.5e-4, 1e-4, 2e-4, 5e-4)))
    kn = st.integers(-5, 5).map(lambda v: 1e3 * v)
    loads = [{"node": n, "fx": draw(kn), "fy": draw(kn)} for n, *_ in free]
    if not any(load["fx"] or load["fy"] for load in loads):
        loads[0]["fy"] = -1e3
    return cable_net(areas, loads, free)


@st.composite
def braced_frames(draw):
    """One or two bays 4 m wide, one or two storeys 3 m high, columns and girders as
    bars (pin-jointed: the braces hold it) or beams (a rigid frame), each bay of each
    storey braced by one or two cable diagonals; vertical loads of 0…50 kN down and a
    lateral load of −20…20 kN at each floor."""
    bays, storeys, kind = draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(st.sampled_from(("bar", "beam")))
    name = lambda c, r: f"N{c}{r}"  # noqa: E731
    nodes = [(name(c, r), 4.0 * c, 3.0 * r) for r in range(storeys + 1) for c in range(bays + 1)]
    frame = dict(A=1e-2, I=1e-4) if kind == "beam" else dict(A=1e-2)
    members = []
    for r in range(storeys):
        for c in range(bays + 1):
            members.append(member(f"C{c}{r}", name(c, r), name(c, r + 1), kind, **frame))
        for c in range(bays):
            members.append(member(f"G{c}{r}", name(c, r + 1), name(c + 1, r + 1), kind, **frame))
            for diagonal in draw(st.lists(st.sampled_from(("U", "D")), min_size=1, max_size=2, unique=True)):
                i, j = (name(c, r), name(c + 1, r + 1)) if diagonal == "U" else (name(c, r + 1), name(c + 1, r))
                members.append(member(f"{diagonal}{c}{r}", i, j, "cable", A=draw(st.sampled_from((2e-4, 5e-4, 1e-3)))))
    supports = [{"node": name(c, 0), "fix": ["x", "y"]} for c in range(bays + 1)]
    loads = []
    for r in range(1, storeys + 1):
        loads.append({"node": name(0, r), "fx": 1e3 * draw(st.integers(-20, 20)), "fy": -1e3 * draw(st.integers(0, 50))})
        loads.append({"node": name(bays, r), "fx": 0.0, "fy": -1e3 * draw(st.integers(0, 50))})
    if not any(load["fx"] or load["fy"] for load in loads):
        loads[0]["fx"] = 1e3
    return model(nodes, members, supports, loads)


RANDOM = dict(deadline=None, derandomize=True, database=None, phases=(Phase.explicit, Phase.generate), suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=60, **RANDOM)
@given(data=st.one_of(cable_nets(), braced_frames()))
def test_the_linear_answer_with_cables_is_the_exhaustive_searchs(data):
    """Over random cable nets and braced frames, the linear solve and the exhaustive
    search agree: both find no equilibrium (a mechanism, exit 1 from the CLI), or the
    same member forces to 1e-6 of the largest load (both are solves of the same linear
    system; 1e-6 leaves room for the conditioning of a soft net, far above round-off
    and far below any wrong set of taut cables, whose forces differ by a share of the
    load). The answer has no cable in compression."""
    found = consistent_sets(data)
    sim = Simulation(build_model(data, statics_only=True), "linear")
    at_rest = sim.solve_linear().at_rest
    assert sim.no_equilibrium is None
    assert at_rest == bool(found), sim.mechanism.message if sim.mechanism else "answered where no set of taut cables is consistent"
    if not found:
        return
    scale = max(max(abs(load["fx"]), abs(load["fy"])) for load in data["loads"])
    N = {k: v["axial"] for k, v in sim.results()["members"].items()}
    for mid, n in found[0].items():
        assert N[mid] == pytest.approx(n, abs=1e-6 * scale), mid
    cables = [mem["id"] for mem in data["members"] if mem["kind"] == "cable"]
    assert min(N[c] for c in cables) >= 0.0
