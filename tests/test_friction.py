"""Friction that truly sticks (engine/tethers.py) and the friction levels.

A contact support holds its node to the point where it stuck by a tangential spring
capped at μN; past the cap it slides against μN. Every answer below is hand statics or
Newton's second law on a rigid block, not the engine's own earlier output:
    block on a slope of angle θ: stays when tan θ ≤ μ, else slides with a = g (sin θ − μ cos θ);
    block pushed by P on level ground: stays when P ≤ μ m g, else a = (P − μ m g) / m;
    uniform ladder on a smooth wall, floor friction μ: stands when tan θ ≥ 1 / (2 μ).
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from builders import english

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.engine.model import ModelError, build_model
from equilibria.engine.simulation import Simulation
from equilibria.engine.tethers import T_AX, T_AY, T_C, T_K, carry_anchors, slide_anchors, tether_energy
from equilibria.files.store import read_json
from equilibria.rules.judge import assumptions

LEVELS = Path(__file__).resolve().parents[1] / "levels"
G = 9.81
MASS = 50.0  # [kg] per node


def bar_on(theta_deg: float, mu: float, push: float = 0.0) -> dict:
    """A stiff 1 m steel bar lying on a surface inclined at theta, both ends on it (two
    contact supports of one surface): a rigid block of mass 2 MASS. `push` [N] on each
    node, along the surface, uphill (to the right on level ground)."""
    th = math.radians(theta_deg)
    c, s = math.cos(th), math.sin(th)
    contact = {"normal": [-s, c], "mu": mu}
    return {
        "world": {"gravity": G, "mass_damping": 0.0},
        "materials": {"steel": {"E": 200e9}},
        "nodes": [{"id": "A", "x": 0.0, "y": 0.0, "mass": MASS}, {"id": "B", "x": c, "y": s, "mass": MASS}],
        "members": [{"id": "AB", "i": "A", "j": "B", "material": "steel", "A": 1e-3}],
        "supports": [{"node": "A", "contact": contact}, {"node": "B", "contact": contact}],
        "loads": [{"node": q, "fx": push * c, "fy": push * s} for q in ("A", "B")] if push else [],
    }


def along(sim: Simulation, theta_deg: float) -> float:
    """Node A's displacement along the surface [m], uphill positive."""
    th = math.radians(theta_deg)
    d = sim.state.pos[0, :2] - sim.model.arrays.pos0[0, :2]
    return float(d[0] * math.cos(th) + d[1] * math.sin(th))


def speed_along(sim: Simulation, theta_deg: float) -> float:
    th = math.radians(theta_deg)
    return float(sim.state.vel[0, 0] * math.cos(th) + sim.state.vel[0, 1] * math.sin(th))


# ------------------------------------------------------------------ sticking: no creep


@pytest.mark.parametrize("integrator", ["rk4", "symplectic", "newmark"])
def test_a_block_on_a_slope_below_the_friction_angle_stays_put_with_no_creep(integrator):
    """θ = 20°, μ = 0.5: tan θ = 0.364 < μ, so friction holds it (F = mg sin θ ≤ μ mg cos θ).

    Bounds: over 10 s after the first second, the block moves less than 1 µm along the
    slope: a contact that sticks holds the node at a fixed offset s = F / k from where it
    stuck, so once the start's vibration has died away (ζ = 0.7 on a ~1 kHz spring: gone
    in milliseconds) nothing moves but round-off. Its whole displacement stays below
    2 F / k, the most a load put on at once can stretch a spring (twice the static);
    under Newmark, whose step (1/120 s) is far longer than the contact's period, the
    first step lands the node a little way down the slope before the contact catches
    it, so there the bound adds that step's slide, ½ g sin θ h².
    The old viscous law (force c |v_t| capped at μN) creeps at v = F / c instead: over
    the 10 s that is F 10 s / c, checked here to break the 1 µm bound by far."""
    sim = Simulation(build_model(bar_on(20.0, 0.5)), integrator)
    k, c = sim.tethers[0, T_K], sim.tethers[0, T_C]
    f_t = MASS * G * math.sin(math.radians(20.0))  # friction one node needs [N]
    sim.advance(1.0)
    settled = along(sim, 20.0)
    worst = 0.0
    for _ in range(10):
        sim.advance(1.0)
        worst = max(worst, abs(along(sim, 20.0) - settled))
    assert worst < 1e-6, worst
    first_step = 0.5 * G * math.sin(math.radians(20.0)) * sim.dt**2 if integrator == "newmark" else 0.0
    assert abs(settled) < 2.0 * f_t / k + first_step, (settled, f_t / k)
    assert f_t * 10.0 / c > 1000 * 1e-6  # the old law would have crept > 1 mm: this test fails with it


def test_a_block_pushed_below_mu_n_stays_above_it_slides_at_the_closed_form_rate():
    """Level ground, μ = 0.4: N = m g per node, so μN = 196.2 N a node. P = 0.9 μN: it
    stays (less than 1 µm from 1 s to 6 s, as above). P = 1.1 μN: it slides with
    a = (P − μN) / m = 0.1 μ g = 0.392 m/s²; measured from the speed gained between
    t = 1 s and t = 3 s, within 0.5 % (the penalty contact's start has died out by then;
    nothing else acts: no damping)."""
    mu_n = 0.4 * MASS * G
    sim = Simulation(build_model(bar_on(0.0, 0.4, push=0.9 * mu_n)), "rk4")
    sim.advance(1.0)
    x1 = along(sim, 0.0)
    sim.advance(5.0)
    assert abs(along(sim, 0.0) - x1) < 1e-6
    sim = Simulation(build_model(bar_on(0.0, 0.4, push=1.1 * mu_n)), "rk4")
    sim.advance(1.0)
    v1 = speed_along(sim, 0.0)
    sim.advance(2.0)
    a = (speed_along(sim, 0.0) - v1) / 2.0
    assert a == pytest.approx(0.1 * mu_n / MASS, rel=5e-3)


# ------------------------------------------------------------------ sliding


@pytest.mark.parametrize("integrator", ["rk4", "symplectic", "newmark"])
def test_a_block_on_a_slope_past_the_friction_angle_slides_at_g_sin_minus_mu_cos(integrator):
    """θ = 30°, μ = 0.2: a = g (sin θ − μ cos θ) = 3.206 m/s² down the slope, from the
    speed gained between t = 0.5 s and t = 2 s, within 0.5 % (an integration error of
    a constant acceleration is nil; the rest is the start's transient, long gone)."""
    th = math.radians(30.0)
    sim = Simulation(build_model(bar_on(30.0, 0.2)), integrator)
    sim.advance(0.5)
    v1 = speed_along(sim, 30.0)
    sim.advance(1.5)
    a = -(speed_along(sim, 30.0) - v1) / 1.5
    assert a == pytest.approx(G * (math.sin(th) - 0.2 * math.cos(th)), rel=5e-3)


def test_sticking_and_sliding_repeat_exactly():
    runs = []
    for _ in range(2):
        sim = Simulation(build_model(bar_on(30.0, 0.2)), "rk4")
        sim.advance(0.7)
        runs.append((sim.state.pos.copy(), sim.tethers.copy()))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


# ------------------------------------------------------------------ the ladder


def ladder(theta_deg: float, mu: float) -> dict:
    """A uniform 4 m ladder (three equal masses: foot A, middle M, top B, stiff beams)
    on a floor with friction μ, its top against a smooth wall at x = 0."""
    th = math.radians(theta_deg)
    x, y = 4.0 * math.cos(th), 4.0 * math.sin(th)
    return {
        "world": {"gravity": G, "mass_damping": 0.5},
        "materials": {"steel": {"E": 200e9}},
        "nodes": [{"id": "A", "x": x, "y": 0.0, "mass": MASS}, {"id": "M", "x": x / 2, "y": y / 2, "mass": MASS}, {"id": "B", "x": 0.0, "y": y, "mass": MASS}],
        "members": [{"id": m, "i": m[0], "j": m[1], "kind": "beam", "material": "steel", "A": 1e-3, "I": 1e-6} for m in ("AM", "MB")],
        "supports": [{"node": "A", "contact": {"normal": [0, 1], "mu": mu}}, {"node": "B", "contact": {"normal": [1, 0], "mu": 0.0}}],
    }


@pytest.mark.parametrize(("theta", "stands"), [(62.0, True), (56.0, False)])
def test_a_ladder_stands_above_the_closed_form_angle_and_slips_below(theta, stands):
    """μ = 0.3: tan θ_min = 1 / (2 μ), θ_min = 59.04°. At 62° (3° above; friction needed
    W / (2 tan θ) = 391 N of μN = 441 N) the weight, put on at once, overshoots and the
    foot gives a few millimetres (2.4 mm here; bound 5 mm), then sticks: from 2 s to 6 s
    it moves less than 10 µm (the beams' vibration, 1/20 of the slip, is all that is
    left; a creeping foot would keep going). At 56° (3° below) the foot slides out more
    than 0.1 m in 3 s."""
    assert math.degrees(math.atan(1 / (2 * 0.3))) == pytest.approx(59.04, abs=0.01)
    sim = Simulation(build_model(ladder(theta, 0.3)), "rk4")

    def moved() -> float:
        return float(sim.state.pos[0, 0] - sim.model.arrays.pos0[0, 0])

    if stands:
        sim.advance(2.0)
        at_2 = moved()
        sim.advance(4.0)
        assert abs(moved()) < 5e-3 and abs(moved() - at_2) < 1e-5
    else:
        sim.advance(3.0)
        assert moved() > 0.1


# ------------------------------------------------------------------ the game's contacts


def test_a_contact_found_afresh_keeps_the_point_where_it_stuck():
    """The game finds its ground contacts every frame with a at the node's foot; the
    stick point must carry over, or every frame would start the contact unstrained."""
    old = np.array([[0, 1.0, 0.0, 0.0, 1.0, 1e6, 10.0, 0.5]])
    new = np.array([[0, 1.3, 0.0, 0.0, 1.0, 1e6, 10.0, 0.5], [1, 2.0, 0.0, 0.0, 1.0, 1e6, 10.0, 0.5]])
    out = carry_anchors(old, new)
    assert (out[0, T_AX], out[0, T_AY]) == (1.0, 0.0)  # same node, same surface: kept
    assert out[1, T_AX] == 2.0  # a new contact sticks where it is
    other = new.copy()
    other[0, 3:5] = (0.6, 0.8)  # another surface (a corner): starts afresh
    assert carry_anchors(old, other)[0, T_AX] == 1.3


def test_the_anchor_slides_back_to_mu_n_and_no_further_and_a_node_in_the_air_lets_go():
    """Return mapping, by hand: a floor contact (n up, t = +x) with k = 1000 N/m, no
    damping, μ = 0.3, the node 0.01 m in (N = k · 0.01 = 10 N) and 0.5 m right of its
    anchor. The spring would pull k s = 500 N > μN = 3 N, so the anchor moves right to
    s = μN/k = 0.003 m; a second call changes nothing. Off the floor, the anchor goes to
    the node's foot. The stored energy counts s only up to μ|g| (the elastic part):
    ½ k (g² + (μ g)²)."""
    pos = np.array([[0.5, -0.01, 0.0]])
    vel = np.zeros((1, 3))
    row = np.array([[0, 0.0, 0.0, 0.0, 1.0, 1000.0, 0.0, 0.3]])
    assert tether_energy(row, pos) == pytest.approx(0.5 * 1000 * (0.01**2 + 0.003**2), rel=1e-12)
    slide_anchors(row, pos, vel)
    assert row[0, T_AX] == pytest.approx(0.5 - 0.003, rel=1e-12) and row[0, T_AY] == 0.0
    again = row.copy()
    slide_anchors(again, pos, vel)
    assert np.array_equal(again, row)
    slide_anchors(row, np.array([[0.8, 0.2, 0.0]]), vel)
    assert (row[0, T_AX], row[0, T_AY]) == (0.8, 0.0)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("contact", "fix", "field"),
    [
        ({"normal": [0, 0], "mu": 0.3}, [], "supports[0].contact.normal"),
        ({"normal": [0, 1], "mu": -0.1}, [], "supports[0].contact.mu"),
        ({"normal": [0, 1]}, [], "supports[0].contact.mu"),
        ({"normal": [0, 1], "mu": 0.3, "muu": 1}, [], "supports[0].contact.muu"),
        ({"normal": [0, 1], "mu": 0.3}, ["y"], "supports[0].contact"),
    ],
)
def test_a_bad_contact_names_its_field(contact, fix, field):
    data = bar_on(0.0, 0.3)
    data["supports"][0] = {"node": "A", "fix": fix, "contact": contact}
    with pytest.raises(ModelError) as err:
        build_model(data)
    assert err.value.field == field


def test_validate_names_the_file_and_the_field_of_a_bad_contact(tmp_path, capsys):
    data = read_json(LEVELS / "friction-01.json")
    data["supports"][0]["contact"]["mu"] = -1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr()
    line = (out.out + out.err).strip().splitlines()[0]
    assert line.startswith(f"{path}: supports[0].contact.mu: ")


def test_simulate_names_the_file_and_the_field_of_a_bad_contact(tmp_path, capsys):
    data = bar_on(0.0, 0.3)
    data["supports"][0]["contact"]["normal"] = [0, "up"]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    assert main(["simulate", str(path), "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.strip() == f"{path}: supports[0].contact.normal: expected a number, got 'up'"


def test_the_linear_solve_refuses_a_contact_in_one_line(tmp_path, capsys):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(bar_on(0.0, 0.3)))
    assert main(["simulate", str(path), "--integrator", "linear", "--json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "contact" in err[0] and "Traceback" not in err[0]


# ------------------------------------------------------------------ the levels


def check(capsys, tmp_path, level: str, moves: list) -> tuple[int, dict]:
    (tmp_path / "s.json").write_text(json.dumps({"format": 1, "level": level, "moves": moves}))
    code = main(["check", level, "--solution", str(tmp_path / "s.json"), "--json"])
    return code, json.loads(capsys.readouterr().out)


def force_at(node: str, fx: float, fy: float = 0.0) -> dict:
    return {"type": "add_force", "node": node, "fx": fx, "fy": fy}


def push(node: str, size: float, angle_deg: float) -> dict:
    a = math.radians(angle_deg)
    return {"type": "add_force", "node": node, "fx": round(size * math.cos(a), 4), "fy": round(size * math.sin(a), 4)}


@pytest.mark.parametrize("name", ["friction-01", "friction-02", "friction-03"])
def test_friction_level_is_in_the_course_and_its_reference_solution_passes(capsys, name):
    course = read_json(LEVELS / "course.json")
    topics = [english(t)["title"] for t in course["topics"]]
    assert course["topics"][topics.index("Friction")]["levels"][:3] == ["friction-01", "friction-02", "friction-03"]
    assert topics.index("Friction") > topics.index("Free-body diagrams")  # friction needs free-body diagrams first
    data = english(read_json(LEVELS / f"{name}.json"))
    said = data["brief"] + " " + assumptions(load_level(data))  # the brief as shown: the kind's assumptions after it (signs said once)
    assert "weight" in data["brief"] and "x to the right" in said and 2 <= len(data["hints"]) <= 3
    assert "μ" in data["brief"] or data["kind"] == "free_body"  # the free body states the wall smooth; μ comes after
    assert main(["validate", str(LEVELS / f"{name}.json")]) == 0
    capsys.readouterr()
    code = main(["check", name, "--solution", str(LEVELS / "solutions" / f"{name}.json"), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == 0 and verdict["passed"], verdict["reason"]


# friction-01: W = 10 kN on a 30° slope, μ = 0.25. N = W cos 30° = 8.66 kN, μN = 2.165 kN;
# a push P up the slope holds it for P ≥ W sin 30° − μN = 2.83 kN (and up to 7.17 kN before it
# slides up), and the level allows at most 4 kN: without friction P would have to be the
# whole W sin 30° = 5 kN, so the frictionless answer is out of the window.
W1, MU1, TH1 = 10e3, 0.25, math.radians(30)


def test_friction_01_the_window_excludes_the_frictionless_answer_by_hand_statics():
    least = W1 * (math.sin(TH1) - MU1 * math.cos(TH1))  # friction at its most, up the slope
    frictionless = W1 * math.sin(TH1)  # friction zero
    allowed = read_json(LEVELS / "friction-01.json")["player"]["max_force"]
    assert least == pytest.approx(2835, abs=1) and frictionless == pytest.approx(5000)
    assert least < 3500 <= allowed < frictionless  # the reference's 3.5 kN inside, the frictionless 5 kN outside
    ref = read_json(LEVELS / "solutions" / "friction-01.json")["moves"][0]
    push_ = math.hypot(ref["fx"], ref["fy"])
    assert push_ == pytest.approx(3500, rel=1e-6) and math.degrees(math.atan2(ref["fy"], ref["fx"])) == pytest.approx(30)
    assert W1 * math.sin(TH1) - push_ == pytest.approx(1500)  # the friction the reference needs: 1.5 kN ≤ μN


def test_friction_01_the_frictionless_answer_is_rejected_with_a_reason_that_teaches(capsys, tmp_path):
    code, verdict = check(capsys, tmp_path, "friction-01", [push("E", 5000, 30)])
    assert code == 1 and "at most 4 kN" in verdict["reason"]
    assert "Friction can carry part of the load, up to μN" in verdict["reason"]


def test_friction_01_a_push_too_small_is_rejected_and_says_why_without_the_number(capsys, tmp_path):
    code, verdict = check(capsys, tmp_path, "friction-01", [push("E", 2000, 30)])
    assert code == 1
    assert "friction needed at A and B is more than μN (μ = 0.25)" in verdict["reason"]
    assert "slides down the slope" in verdict["reason"]
    for number in ("3 kN", "2.17", "8.66", "0.83"):  # the friction needed, μN, N, the push missing
        assert number not in verdict["reason"] and number not in verdict["hint"]
    assert "F ≤ μN" in verdict["hint"]  # the hint names the step, not the answer


@pytest.mark.parametrize("move", [push("E", 3500, 30), push("E", 3900, 30), push("E", 3900, 15)])
def test_friction_01_any_push_in_the_window_holds_it(capsys, tmp_path, move):
    """3.5 and 3.9 kN up the slope lie inside [2.83, 4] kN. 3.9 kN at 15° (15° below the
    slope's line, so it presses the crate on): along the slope 3.9 cos 15° = 3.77 kN, N =
    8.66 + 3.9 sin 15° = 9.67 kN, μN = 2.42 kN ≥ 5 − 3.77 = 1.23 kN needed."""
    code, verdict = check(capsys, tmp_path, "friction-01", [move])
    assert code == 0, verdict["reason"]


# friction-02: the free body of a 5 m ladder at 65°, W = 0.8 kN at its middle, the floor
# (N and F at A) and the smooth wall (P at B) taken away. About A: P = W / (2 tan 65°)
# = 0.1865 kN to the right; ΣFy: N = 0.8 kN up; ΣFx: F = 0.1865 kN to the left.


@pytest.mark.parametrize(
    ("moves", "words"),
    [
        ([force_at("A", 186.5, 800), force_at("B", 186.5)], "ΣFx"),  # friction drawn away from the wall
        ([force_at("A", 0, 800), force_at("B", 186.5)], "ΣFx"),  # friction forgotten
        ([force_at("A", -240, 800), force_at("B", 240)], "ΣM about A"),  # friction taken as μN: the moment is off
    ],
)
def test_friction_02_a_wrong_free_body_diagram_is_rejected_by_the_balance_it_breaks(capsys, tmp_path, moves, words):
    code, verdict = check(capsys, tmp_path, "friction-02", moves)
    assert code == 1 and words in verdict["reason"], verdict["reason"]


def test_friction_02_an_answer_to_three_figures_passes(capsys, tmp_path):
    code, verdict = check(capsys, tmp_path, "friction-02", [force_at("A", -187, 800), force_at("B", 187)])
    assert code == 0, verdict["reason"]


# friction-03: W = 0.8 kN at the middle of a 5 m ladder at 50°, smooth wall, μ = 0.3 at
# the floor. About A: wall push = W / (2 tan 50°) = 0.336 kN; N = 0.8 kN, μN = 0.24 kN.
# A horizontal push P toward the wall holds it from 0.096 kN (and up to 0.576 kN); at most 0.3 kN is allowed.


def test_friction_02_the_ladder_alone_would_slip():
    assert 0.8 / (2 * math.tan(math.radians(50))) > 0.3 * 0.8
    assert math.degrees(math.atan(1 / (2 * 0.3))) > 50


def test_friction_03_the_window_excludes_the_frictionless_answer_by_hand_statics():
    wall = 800 / (2 * math.tan(math.radians(50)))  # about A: the wall's push, 0.336 kN
    least = wall - 0.3 * 800  # friction at its most, μN = 0.24 kN
    allowed = read_json(LEVELS / "friction-03.json")["player"]["max_force"]
    assert least == pytest.approx(95.6, abs=0.1)
    assert least < 200 <= allowed < wall  # the reference's 0.2 kN inside, the frictionless 0.336 kN outside
    ref = read_json(LEVELS / "solutions" / "friction-03.json")["moves"][0]
    assert (ref["fx"], ref["fy"]) == (-200, 0) and 0 < wall - 200 <= 0.3 * 800  # the reference leans on friction


def test_friction_03_the_frictionless_answer_is_rejected_with_a_reason_that_teaches(capsys, tmp_path):
    wall = 800 / (2 * math.tan(math.radians(50)))
    code, verdict = check(capsys, tmp_path, "friction-03", [force_at("A", -round(wall, 1))])
    assert code == 1 and "at most 0.3 kN" in verdict["reason"] and "Friction can carry part of the load" in verdict["reason"]


def test_friction_03_a_push_too_small_is_rejected_and_says_why(capsys, tmp_path):
    code, verdict = check(capsys, tmp_path, "friction-03", [push("A", 50, 180)])
    assert code == 1
    assert "friction needed at A is more than μN (μ = 0.3)" in verdict["reason"] and "0.286" not in verdict["reason"]
    assert "slides to the right" in verdict["reason"]


def test_friction_03_pushing_away_from_the_wall_is_rejected(capsys, tmp_path):
    code, verdict = check(capsys, tmp_path, "friction-03", [push("A", 250, 0)])
    assert code == 1 and "slides to the right" in verdict["reason"] and "0.586" not in verdict["reason"]


def test_friction_03_pushing_down_and_in_also_holds_it(capsys, tmp_path):
    """(−0.1, −0.25) kN, 0.27 kN in all: N = 1.05 kN, μN = 0.315 kN ≥ 0.336 − 0.1 = 0.236
    kN: pressing the foot down raises the friction there is."""
    code, verdict = check(capsys, tmp_path, "friction-03", [{"type": "add_force", "node": "A", "fx": -100, "fy": -250}])
    assert code == 0, verdict["reason"]
    assert "0.236 kN, is within μN = 0.315 kN" in verdict["reason"]


def test_simulate_reports_a_contact_s_normal_force_and_friction(tmp_path, capsys):
    """A block at rest on a 20° slope, μ = 0.5: per node N = m g cos θ and friction
    m g sin θ up the slope (along t = (ny, −nx), uphill here), within 0.1 % once at
    rest (the rest test's residual is 1e-3 of the largest force)."""
    path = tmp_path / "m.json"
    data = bar_on(20.0, 0.5)
    data["world"]["mass_damping"] = 5.0  # to rest sooner
    path.write_text(json.dumps(data))
    assert main(["simulate", str(path), "--until-rest", "--json", "--record", "reaction.A.friction"]) == 0
    out = json.loads(capsys.readouterr().out)
    th = math.radians(20.0)
    a = out["reactions"]["A"]
    assert out["at_rest"]
    assert a["normal"] == pytest.approx(MASS * G * math.cos(th), rel=1e-3)
    assert a["friction"] == pytest.approx(MASS * G * math.sin(th), rel=1e-3)
    assert math.hypot(a["fx"], a["fy"]) == pytest.approx(MASS * G, rel=1e-3)
    assert out["records"]["reaction.A.friction"][-1][1] == pytest.approx(a["friction"])


@pytest.mark.parametrize(
    ("level", "node", "angle", "size", "right"),
    [
        ("friction-01", "E", 30, 2800, False),
        ("friction-01", "E", 30, 2900, True),
        ("friction-01", "E", 30, 3990, True),
        ("friction-01", "E", 30, 4010, False),  # over the 4 kN allowed
        ("friction-03", "A", 180, 90, False),
        ("friction-03", "A", 180, 100, True),
        ("friction-03", "A", 180, 299, True),
        ("friction-03", "A", 180, 301, False),  # over the 0.3 kN allowed
    ],
)
def test_the_range_the_engine_accepts_is_the_closed_form_one(capsys, tmp_path, level, node, angle, size, right):
    """The pushes the engine's stick–slip contacts hold are the hand-statics range, to a
    few per cent at the lower end: friction-01 from 2.83 kN up the slope, friction-03
    from 0.096 kN toward the wall, tried 2–4 % inside and 1–6 % outside; the upper end is
    the force allowed (4 kN, 0.3 kN), below the frictionless answer. The weight is
    put on at once, so a push right at a limit may slip in the first moments; a
    student's answer to two or three figures well inside the range passes."""
    code, verdict = check(capsys, tmp_path, level, [push(node, size, angle)])
    assert (code == 0) == right, verdict["reason"]


def test_the_game_draws_each_surface_with_its_mu_and_the_force_as_n_and_f():
    """friction-03 with a push of 0.3 kN toward the wall, run 2 s: the floor's label
    says μ = 0.3, the wall's that it is smooth; the reactions are drawn as N at both
    contacts (the floor's ≈ W = 0.8 kN, pushing the foot up; the wall's pushing the top
    away from it, its value written) and F at the foot, along the floor below it; drawing
    changes no state. (At 900 × 600 the floor's N runs off the foot of the picture and
    F's value meets the floor's μ: those two values are left out.)"""
    import pygame
    from drawing import arrows, texts

    from equilibria.app.draw import render
    from equilibria.app.draw.palette import REACTION, Fonts
    from equilibria.app.session.stage import load_stage
    from equilibria.app.session.view import View
    from equilibria.words.figures import kn

    pygame.font.init()
    stage = load_stage(LEVELS / "friction-03.json")
    data = stage.level.model_data()
    data["loads"].append({"node": "A", "fx": -300.0})
    model = build_model(data)
    sim = Simulation(model, "rk4")
    sim.advance(2.0)
    painter = render.StructurePainter(Fonts(), stage, model, own_loads=1)
    before = sim.state.copy()
    surface = pygame.Surface((900, 600))
    view = View.fit(stage.bounds(), (0, 0, 900, 600), 60)
    items = painter.sketch(surface.get_rect(), view, sim, values=True)
    painter.backend.draw(surface, items)
    said = texts(items)
    assert all(np.array_equal(a, b) for a, b in zip(before, sim.state, strict=True))
    assert "μ = 0.3" in said and "smooth (μ = 0)" in said
    (q_floor, *_), (q_wall, *_) = model.contacts  # the foot on the floor (normal up), the top on the wall (normal +x)
    (_, fy), (wx, _) = sim.tether_forces()[:2]
    assert fy == pytest.approx(800.0, rel=0.02)  # N on the floor ≈ W
    foot, top = (view.point(*model.arrays.pos0[q, :2]) for q in (q_floor, q_wall))
    drawn = arrows(items, REACTION)
    up = [a for a in drawn if abs(a.head[0] - foot[0]) < 1 and a.tail[1] - a.head[1] > 1]
    assert len(up) == 1 and up[0].tail[1] - up[0].head[1] == pytest.approx(painter.arrows.arrow_px(fy)), drawn  # N at the foot, ≈ W long
    away = [a for a in drawn if abs(a.head[1] - top[1]) < 1 and a.head[0] - a.tail[0] > 1]
    assert len(away) == 1 and f"N {kn(wx)}" in said, (drawn, said)  # N at the wall, pushing the top away from it, its value written
    along = [a for a in drawn if abs(a.head[1] - a.tail[1]) < 1e-6 and a.head[1] > foot[1] + 1]
    assert len(along) == 1 and len(drawn) == 3, drawn  # F, along the floor under the foot; nothing else


def test_in_the_game_the_ladder_alone_slides_on_its_contacts_not_on_the_drawn_ground(tmp_path):
    """friction-03 opened in the game and run for 1 s with no push: the level's two
    contacts stay in force ahead of the game's own tethers, the drawn floor and wall add
    no contact of their own at A and B, no support symbol is drawn for a contact (its
    surface is), and the foot slides out (+x), as hand statics says it must."""
    import pygame

    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.pacing import FRAME
    from equilibria.app.session.stage import load_stage
    from equilibria.app.window.app import App
    from equilibria.course.progress import Progress

    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, load_stage(LEVELS / "friction-03.json"), progress=Progress.load(tmp_path))
    app.push(scene)
    app.frame()
    assert scene.session.supports() == []
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    for _ in range(60):
        app.frame()
    sim = scene.session.sim
    assert sim.time > 0.5
    nodes = sim.tethers[:, 0].astype(int).tolist()
    assert nodes[:2] == [0, 2] and nodes.count(0) == 1 and nodes.count(2) == 1
    assert sim.state.pos[0, 0] - sim.model.arrays.pos0[0, 0] > 1e-3
    app.close()


def test_a_change_of_integrator_gives_the_contacts_the_new_step_s_stiffness_and_keeps_the_stick():
    """The game may go on with Newmark mid-run (Simulation.use): the level's contacts
    then take Newmark's stiffness for its step with the force they held (the stick
    point moved toward the node by k_old/k_new of the spring's stretch, so k times the
    stretch is unchanged), and the block on the 20° slope (tan θ < μ) still stays put,
    within 10 µm over 2 s; back on RK4 they take RK4's stiffness again."""
    sim = Simulation(build_model(bar_on(20.0, 0.5)), "rk4")
    k_rk4 = sim.tethers[0, T_K]
    sim.advance(0.5)
    stretch = sim.tethers[:, T_AX : T_AY + 1] - sim.state.pos[:2, :2]
    sim.use("newmark")
    k_newmark = sim.tethers[0, T_K]
    assert k_newmark == sim.tether_stiffness(0)[0] != k_rk4
    held = k_newmark * (sim.tethers[:, T_AX : T_AY + 1] - sim.state.pos[:2, :2])
    assert held == pytest.approx(k_rk4 * stretch, rel=1e-9)
    at = along(sim, 20.0)
    sim.advance(2.0)
    assert abs(along(sim, 20.0) - at) < 1e-5
    sim.use("rk4")
    assert sim.tethers[0, T_K] == pytest.approx(k_rk4)


def test_relax_that_finds_no_equilibrium_says_so_and_exits_1(tmp_path, capsys):
    """A block on a slope of 30° with μ = 0.2 < tan 30° has no equilibrium: it slides
    (above). Dynamic relaxation runs out of steps with the block far down the slope; the
    run is not at rest, exits 1, and standard error says why in one line (no equilibrium
    found, the force still out of balance, the node that went furthest)."""
    path = tmp_path / "slope.json"
    path.write_text(json.dumps(bar_on(30.0, 0.2)))
    code = main(["simulate", str(path), "--integrator", "relax", "--json"])
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert code == 1 and out["at_rest"] is False
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: no equilibrium found") and "out of balance" in lines[0]
    assert out["no_equilibrium"] in lines[0]
    assert math.hypot(out["nodes"]["A"]["x"], out["nodes"]["A"]["y"]) > 1.0  # far down the slope: not an answer


def test_relax_of_a_block_on_level_ground_is_at_rest_and_exits_0(tmp_path, capsys):
    """On a level surface the block's weight is balanced by the normal forces alone:
    relaxation finds rest and the run exits 0."""
    path = tmp_path / "level.json"
    path.write_text(json.dumps(bar_on(0.0, 0.2)))
    assert main(["simulate", str(path), "--integrator", "relax", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["at_rest"] is True
