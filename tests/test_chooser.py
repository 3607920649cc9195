"""The game chooses its integrator (game/app/session/chooser.py): explicit RK4 where its stable
step keeps real time, implicit Newmark at frame-rate steps where a member is too stiff
or the design too large; checks always judge with the rules' own integrator; tethers
(the hand, the ground) under Newmark; Newmark warmed with the others."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import brentq

from equilibria.app.session.chooser import BUDGET, KEEP_UP_FRAMES, NEWMARK_DT, RK4_COST, choose_integrator, keep_up
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.play import HAND_HZ, PlaySession
from equilibria.app.session.stage import load_stage
from equilibria.course.syllabus import shipped_level
from equilibria.engine.model import build_model
from equilibria.engine.newmark import tether_stiffness
from equilibria.engine.simulation import Simulation
from equilibria.format.solution import load_solution
from equilibria.rules.common import JUDGE

G = 9.81
STEEL = {"E": 210e9, "density": 7850.0, "nu": 0.3}
BAR = {"kind": "bar", "material": "steel", "A": 1e-3, "I": 1.2e-7}


# ---------------------------------------------------------------------- the pure choice
def test_a_structure_whose_explicit_steps_keep_real_time_runs_them():
    """A sandbox truss of 1 m steel bars: 3,300 steps a second of 0.3 ms, 60 DOFs: a
    fraction of a millisecond a frame. Pure: the same inputs give the same choice."""
    choice = choose_integrator(3.06e-4, 60, BUDGET)
    assert choice.integrator == "rk4" and choice.dt == 3.06e-4
    assert choice.reason == "the motion is shown in real time"  # the status line: a student's words
    assert choice.detail == "RK4 keeps up: 3,300 steps/s"  # the HUD: the figures
    assert choose_integrator(3.06e-4, 60, BUDGET) == choice


def test_a_very_stiff_member_makes_the_game_step_implicitly():
    """The 5 cm stub: a 14 µs step, 71,000 steps a second, however few DOFs."""
    choice = choose_integrator(1.4e-5, 6, BUDGET)
    assert choice.integrator == "newmark" and choice.dt == NEWMARK_DT
    assert choice.reason == "a stiff member: the motion is shown smoothed so it keeps pace"
    assert choice.detail == "Newmark: stiff, 71,000 RK4 steps/s"


def test_a_large_design_steps_implicitly_only_where_that_is_cheaper():
    """20,000 DOFs at 6,700 steps a second: 66 ms a frame explicitly against a 10 ms
    budget, 33 ms implicitly: Newmark. At the ordinary 3,300 steps a second both cost
    about the same (measured: a 10,000-bar lattice, 1.8× and 2× real time); RK4 stays
    unless Newmark is the cheaper."""
    choice = choose_integrator(1.5e-4, 20_000, BUDGET)
    assert choice.integrator == "newmark"
    assert choice.reason == "the large design: the motion is shown smoothed so it keeps pace"
    assert choice.detail == "Newmark: 6,700 RK4 steps/s too slow"
    assert choose_integrator(3.06e-4, 20_000, BUDGET, rk4_cost=RK4_COST / 4).integrator == "rk4"


# ---------------------------------------------------------------------- in the game
def sandbox(tmp_path, stub: bool, free_node: bool = False, fixed: bool = False, **world) -> PlaySession:
    """The instability test's hanging bar (tests/test_newmark.py's stub_model) as a
    sandbox design, with or without its 5 cm stub, and perhaps a free 100 kg node C at
    (2, 1) m; ground 1 m under the bar's foot."""
    nodes = [{"id": "T", "x": 0.0, "y": 3.0}, {"id": "F", "x": 0.0, "y": 1.0}]
    if free_node:
        nodes.append({"id": "C", "x": 2.0, "y": 1.0, "mass": 100.0})
    members = [{"id": "TF", "i": "T", "j": "F", **BAR}]
    if stub:
        nodes.append({"id": "S", "x": 0.05, "y": 1.0})
        members.append({"id": "FS", "i": "F", "j": "S", **BAR})
    level = {
        "format": 1,
        "id": "stub",
        "title": "Bar and stub",
        "kind": "sandbox",
        "world": {"ground": [[-5, 0], [5, 0]], "mass_damping": 0.5, **world},
        "materials": {"steel": STEEL},
        "nodes": nodes,
        "supports": [{"node": "T", "fix": ["x", "y"]}],
        "members": members,
        "loads": [{"node": "F", "fx": 2000.0, "fy": -5000.0}],
    }
    path = tmp_path / "stub.json"
    path.write_text(json.dumps(level))
    return PlaySession(load_stage(path, sandbox=True), fixed=fixed)


def test_a_stub_on_a_running_bar_runs_implicitly_and_keeps_pace_with_the_frames(tmp_path):
    """The bar + 5 cm stub: RK4 would need 71,000 steps a second (1,190 a 60 Hz frame);
    the game runs Newmark at 1/120 s, two steps a frame: after 120 frames the structure
    has run 2 s, exactly (headless frames, as the game's own when it keeps up). What a
    frame costs in wall time is benchmarks/chooser.py's to print (a bound here failed on
    a busy machine). The swing itself is checked against RK4 in tests/test_newmark.py;
    here: it moved, and stayed finite."""
    session = sandbox(tmp_path, stub=True, fixed=True)
    assert session.sim.integrator == "newmark" and session.sim.dt == NEWMARK_DT
    assert session.choice.reason.startswith("a stiff member")
    session.run()
    frames = 120
    for _ in range(frames):
        session.tick(FRAME)
        assert session.pacer.last_steps == 2
    assert session.problem is None and np.isfinite(session.sim.state.pos).all()
    assert session.sim.time == pytest.approx(frames * FRAME, abs=1e-9)  # simulated time kept pace
    foot = session.sim.state.pos[session.model.node_index("F")]
    assert foot[0] > 0.1  # pulled to the right by 2 kN: it swings


def test_an_edit_that_adds_a_stub_switches_to_implicit_steps_and_undo_switches_back(tmp_path):
    session = sandbox(tmp_path, stub=False)
    assert session.sim.integrator == "rk4" and session.choice.reason == "the motion is shown in real time"
    bench = session.bench
    tip = session.edit(bench.add_node, 0.05, 1.0)
    session.edit(bench.add_member, "F", tip, session.section)
    session.tick(FRAME)  # the edit builds the model anew
    assert session.sim.integrator == "newmark" and session.choice.reason.startswith("a stiff member")
    session.undo()
    session.undo()
    session.tick(FRAME)
    assert session.sim.integrator == "rk4"


def test_a_switch_in_a_running_structure_carries_its_state_over(tmp_path):
    """keep_up: an explicit run measured too slow goes on implicitly from the state it
    is in: positions, velocities, time, nails and tethers as they were."""
    session = sandbox(tmp_path, stub=False)
    session.run()
    for _ in range(6):
        session.tick(FRAME)
    sim = session.sim
    sim.nail(session.model.node_index("F"))
    before = sim.state.copy()
    nails, t = sim.nails, sim.time
    choice = keep_up(sim, step_cost=1e-3)  # measured at 1 ms a step: far behind real time
    assert choice is not None and choice.reason.startswith("the large design")
    assert sim.integrator == "newmark" and sim.dt == NEWMARK_DT
    assert np.array_equal(sim.state.pos, before.pos) and np.array_equal(sim.state.vel, before.vel)
    assert sim.time == t and sim.nails == nails
    sim.advance(0.1)
    assert sim.time == pytest.approx(t + 0.1) and np.isfinite(sim.state.pos).all()
    assert keep_up(sim, step_cost=1e-3) is None  # already implicit: nothing to do


def test_an_explicit_run_that_falls_behind_for_half_a_second_goes_on_implicitly(tmp_path):
    """The session measures what its frames cost (the pacer); here the measure is held
    at 1 ms a step, far beyond this bar's 27 steps a frame in a 10 ms budget: every
    frame is cut short, and after KEEP_UP_FRAMES of them the run goes on with Newmark
    from where it was, its simulated time kept; the status bar says why."""
    session = sandbox(tmp_path, stub=False)
    session.pacer.step_cost = 1e-3
    session.pacer.record = lambda *args: None  # the measure held (a machine this slow)
    session.run()
    for _ in range(KEEP_UP_FRAMES - 1):
        session.tick(FRAME)
    assert session.sim.integrator == "rk4" and session.pacer.limited
    t = session.sim.time
    session.tick(FRAME)
    assert session.sim.integrator == "newmark" and session.pacer.dt == NEWMARK_DT
    assert session.sim.time > t > 0.0  # the state carried over (not put back to its start)
    assert session.choice.reason.startswith("the large design")
    assert session.choice.detail == "Newmark: 1,600 RK4 steps/s too slow"
    assert session.rk4_cost == pytest.approx(1e-3 / session.sim.level_dofs)


def test_a_running_newmark_simulation_can_be_copied_and_the_copy_runs_on_alike(tmp_path):
    """A snapshot (rules.common.snapshot: the game's preview of a run, a check's start)
    of a run under Newmark, its factor formed: the copy runs on as the original does
    (the same steps from the same state: equal to round-off, 1e-9 m, as the copy forms
    its factor at another iterate than the original kept)."""
    from equilibria.rules.common import snapshot

    session = sandbox(tmp_path, stub=True, fixed=True)
    session.run()
    for _ in range(6):
        session.tick(FRAME)
    copy = snapshot(session.sim)
    copy.advance(0.1)
    session.sim.advance(0.1)
    assert copy.time == session.sim.time
    assert np.abs(copy.state.pos - session.sim.state.pos).max() < 1e-9
    assert session.preview_motion(0.2) < math.inf


# ---------------------------------------------------------------------- checks
def test_a_check_gives_the_same_verdict_whichever_integrator_the_game_runs(tmp_path):
    """The rules judge with JUDGE (RK4) at its stable step: the same work checked from a
    session running RK4 and from one the game switched to Newmark gives the same verdict,
    figures and words, and the verdict names how it was judged."""
    verdicts = []
    for integrator in ("rk4", "newmark"):
        session = PlaySession(load_stage(shipped_level("bridge-01")), integrator=integrator)
        session.bench.restore(list(load_solution(json.loads(Path("levels/solutions/bridge-01.json").read_text())).moves))
        session.tick(FRAME)
        assert session.sim.integrator == integrator
        session.check()
        verdicts.append(session.verdict)
    first, second = verdicts
    assert first.passed and json.dumps(first.as_dict()) == json.dumps(second.as_dict())
    assert JUDGE == "rk4" and first.sim.integrator == "rk4"
    assert first.as_dict()["judged_by"].startswith("explicit steps of") and first.as_dict()["judged_by"].endswith("ms (RK4)")


# ---------------------------------------------------------------------- tethers under Newmark
def hanging_node(mass: float) -> dict:
    """A 2 m steel bar pinned at A, level, a mass at its free end B: held up only by
    what tethers B (the bar turns freely about A)."""
    return {
        "world": {"gravity": G, "mass_damping": 2.0},
        "materials": {"steel": STEEL},
        "nodes": [{"id": "A", "x": 0.0, "y": 1.0}, {"id": "B", "x": 2.0, "y": 1.0, "mass": mass}],
        "supports": [{"node": "A", "fix": ["x", "y"]}],
        "members": [{"id": "AB", "i": "A", "j": "B", **BAR}],
    }


def test_a_node_held_by_the_hand_under_newmark_hangs_where_statics_says():
    """The hand's spring (session.hand_spring's rule: the whole mass swinging at HAND_HZ,
    within what newmark.tether_stiffness allows) anchored where B is: at rest, moments
    about A give k δ L = (m g) L + (w L) L/2, δ = (m g + w L / 2)/k, w the bar's weight
    per metre (small rotation: δ/L ~ 1e-2 makes the lever shorter by (δ/L)²/2 ~ 5e-5;
    tolerance 1e-3)."""
    mass = 100.0
    sim = Simulation(build_model(hanging_node(mass)), "newmark", hht_alpha=-0.05)
    b = sim.model.node_index("B")
    k_stable, _ = sim.tether_stiffness(b)
    total = float(sim.model.arrays.mass[:, 0].sum())
    k = min(k_stable, total * (2 * math.pi * HAND_HZ) ** 2)
    assert k == total * (2 * math.pi * HAND_HZ) ** 2  # Newmark's own rule is no limit here
    sim.set_tethers([[b, 2.0, 1.0, 0.0, 0.0, k, 2 * 0.7 * math.sqrt(k * total), 0.0]])
    sim.advance(6.0)
    w = 7850.0 * 1e-3 * G
    sag = (mass * G + w * 2.0 / 2) / k
    assert 1.0 - sim.state.pos[b, 1] == pytest.approx(sag, rel=1e-3)
    assert np.hypot(*sim.state.vel[b, :2]) < 1e-4 * sag  # at rest on the spring
    # dragged: the hand moves 0.3 m up, and B follows it (on its circle about A)
    sim.set_tethers([[b, 2.0, 1.3, 0.0, 0.0, k, 2 * 0.7 * math.sqrt(k * total), 0.0]])
    sim.advance(6.0)

    # On the circle about A (the bar's stretch, ~1e-5 m, left out): the moment about A
    # of the spring k (a − x_B) and of the weights vanishes at the bar's angle θ.
    def moment(theta):
        x, y = 2.0 * math.cos(theta), 2.0 * math.sin(theta)
        return x * k * (0.3 - y) - y * k * (2.0 - x) - (mass * G + w * 2.0 / 2) * x

    theta = brentq(moment, 0.0, 0.3)
    assert sim.state.pos[b, 1] - 1.0 == pytest.approx(2.0 * math.sin(theta), rel=1e-3)
    assert sim.state.pos[b, 0] == pytest.approx(2.0 * math.cos(theta), rel=1e-4)


def test_a_node_resting_on_the_ground_under_newmark_sinks_by_its_weight_over_the_contact_stiffness():
    """A 100 kg node on the end of a bar pinned at its level, resting on the ground
    (a contact with the Newmark rule, fraction ½): at rest it is pressed in by
    (m g + w L / 2)/k (moments about A), and stays there; k is the rule's: at least
    m (2/h)², at most m (20/h)²."""
    mass = 100.0
    sim = Simulation(build_model(hanging_node(mass)), "newmark", hht_alpha=-0.05)
    b = sim.model.node_index("B")
    k, c = sim.tether_stiffness(b)
    m_b = float(sim.model.arrays.mass[b, 0])
    h = sim.dt
    assert (k, c) == tether_stiffness(m_b, float(sim._gershgorin_rows()[b]), h, 0.5, 0.7)
    assert 0.5 * m_b * (2 / h) ** 2 <= k <= 0.5 * m_b * (20 / h) ** 2
    sim.set_tethers([[b, 2.0, 1.0, 0.0, 1.0, k, c, 0.6]])  # the ground through B's rest place
    sim.advance(3.0)
    w = 7850.0 * 1e-3 * G
    press = (mass * G + w * 2.0 / 2) / k
    assert 1.0 - sim.state.pos[b, 1] == pytest.approx(press, rel=1e-3)
    assert abs(sim.state.pos[b, 0] - 2.0) < 1e-3 * press  # friction and the bar: it does not slide
    assert sim.tether_forces()[0, 1] == pytest.approx(mass * G + w, rel=1e-3 + 2.0 * press / 2.0)


def test_a_node_falls_onto_the_ground_in_the_game_under_newmark_and_stays_on_it(tmp_path):
    """The game's ground contacts (session.tethers, with newmark.tether_stiffness) in a
    design the stub makes the game run with Newmark: a free 100 kg node beside it
    falls 1 m onto the ground (4.4 m/s) and comes to rest on it, pressed in by its weight
    over the contact's stiffness, m g / k with k = ½ m (2/h)² (it has no members: its
    own fastest mode is none), 0.34 mm; tolerance 1 %, for the friction's creep."""
    session = sandbox(tmp_path, stub=True, free_node=True)
    assert session.sim.integrator == "newmark"
    session.run()
    for _ in range(180):
        session.tick(FRAME)
    assert session.problem is None
    c = session.model.node_index("C")
    k = 0.5 * 100.0 * (2.0 / NEWMARK_DT) ** 2
    assert session.sim.state.pos[c, 1] == pytest.approx(-100.0 * G / k, rel=1e-2)
    assert abs(session.sim.state.vel[c, 1]) < 1e-3


# ---------------------------------------------------------------------- warmed
def test_the_warm_up_compiles_newmarks_kernels():
    """equilibria.engine.warm's implicit step (which the game loads right after the steps a level
    needs, so that a first start is not held up by it) leaves every tangent kernel Newmark
    calls compiled, in a fresh process: once warm, the game's switch to Newmark never
    waits on a compiler."""
    code = (
        "from equilibria.engine import warm; dict(warm.STEPS)['the motion of large structures'](); "
        "from equilibria.engine.elements.bar import bar_tangents; from equilibria.engine.elements.beam import beam_tangents; "
        "from equilibria.engine.elements.cst import cst_tangents; from equilibria.engine.elements.neo_hookean import neo_tangents; "
        "print(min(len(k.signatures) for k in (bar_tangents, beam_tangents, cst_tangents, neo_tangents)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
    assert int(done.stdout.split()[-1]) >= 1


# ---------------------------------------------------------------------- the controls
def pulled_bar() -> dict:
    """A 1 m steel bar along x, pinned at A, on a roller at B (y held), pulled at B by
    10 kN put on over 1 s (slowly next to its axial period, 0.9 ms: it follows statics
    to ~1e-6); no gravity."""
    return {
        "world": {"gravity": 0.0, "mass_damping": 5.0},
        "materials": {"steel": STEEL},
        "nodes": [{"id": "A", "x": 0.0, "y": 0.0}, {"id": "B", "x": 1.0, "y": 0.0}],
        "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
        "members": [{"id": "AB", "i": "A", "j": "B", **BAR}],
        "loads": [{"node": "B", "fx": 1e4, "fy": 0.0, "history": [[0.0, 0.0], [1.0, 1.0]]}],
    }


@pytest.mark.parametrize("integrator", ["rk4", "newmark"])
def test_the_load_factor_is_a_control_both_integrators_read_and_the_level_model_stays(integrator):
    """Load factor 2: B moves 2 F L/(EA) = 2 × 1e4 × 1 / (210e9 × 1e-3) = 95.2 µm
    (tolerance 1e-3: the slow ramp's dynamic part and the bar's stretch, 1e-4, under the
    small-deflection formula); the level's Model keeps its loads."""
    level = build_model(pulled_bar())
    sim = Simulation(level, integrator)
    sim.set_load_factor(2.0)
    assert sim.load_factor == 2.0 and sim.level is level
    assert np.array_equal(level.arrays.load_f[:, 0], [1e4]) and sim.model.arrays.load_f[0, 0] == 2e4
    sim.advance(1.5)
    assert sim.value("node.B.dx") == pytest.approx(2 * 1e4 * 1.0 / (210e9 * 1e-3), rel=1e-3)
    sim.set_load_factor(1.0)
    assert sim.model is level  # no control left that changes it


@pytest.mark.parametrize("integrator", ["rk4", "newmark"])
def test_a_nail_is_a_control_both_integrators_hold_and_reactions_report(integrator):
    """A nail on B: B stays where it was nailed under either integrator, the nail holds
    the load (its reaction −F, statics), and the level's Model never held B."""
    level = build_model(pulled_bar())
    sim = Simulation(level, integrator)
    b = level.node_index("B")
    sim.advance(0.5)
    at = sim.state.pos[b].copy()
    sim.nail(b)
    assert sim.nails == {b} and sim.controls.nails == {b}
    assert not level.arrays.fixed[b, 0] and sim.model.arrays.fixed[b, 0]
    sim.advance(1.0)
    assert np.array_equal(sim.state.pos[b, :2], at[:2])
    assert sim.results()["reactions"]["B"]["fx"] == pytest.approx(-1e4 + 210e9 * 1e-3 * (at[0] - 1.0), rel=1e-6)
    sim.unnail(b)
    assert sim.model is level
    sim.remove_member("AB")
    assert sim.controls.removed == {"AB"} and not sim.state.member_on[0]


JARGON = ("explicit", "implicit", "RK4", "rk4", "Newmark", "newmark", "steps", "a second")


def test_no_reason_on_the_status_line_names_an_integrator_or_a_step_rate():
    """Every reason the status line can show is in a student's words: the stiff stub,
    the large design, real time, as asked, the check's run; the figures stay in the detail."""
    from types import SimpleNamespace

    from equilibria.app.session.chooser import ASKED, judged_choice

    choices = [choose_integrator(3.06e-4, 60, BUDGET), choose_integrator(1.4e-5, 6, BUDGET), choose_integrator(1.5e-4, 20_000, BUDGET)]
    choices.append(judged_choice(SimpleNamespace(integrator="rk4", dt=1e-4)))  # it reads only these two
    assert choices[-1].reason == "the run the check judged"
    for choice in choices:
        assert not [w for w in JARGON if w in choice.reason], choice.reason
        assert choice.detail  # the figures kept for the HUD
    assert not [w for w in JARGON if w in ASKED]
