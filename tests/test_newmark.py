"""Implicit Newmark (engine/newmark.py) against answers it does not make itself: the
period elongation of its own theory, energy conserved in a linear structure, the static
answer of relaxation and of the direct stiffness method, RK4 at its stable step, and a
failing run rolled back.

Glossary: T the period of a mode [s], ω = 2π/T; h the step [s]; T̄ the period the
integrator gives; α the HHT parameter; L a length [m]; E, I, A as usual.
Newmark's average acceleration rule (Newmark 1959; Hughes, The Finite Element Method,
§9.1) integrates an undamped mode with tan(ω̄h/2) = ωh/2, so T̄/T = (ωh/2)/arctan(ωh/2):
1.0082 at h = T/20, 1.0317 at h = T/10. Undamped and linear, it conserves ½vᵀMv + ½xᵀKx.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.linalg
from builders import cantilever, member, model
from scipy.integrate import solve_ivp

from equilibria.engine.linear import stiffness
from equilibria.engine.model import build_model
from equilibria.engine.simulation import RestCriteria, Simulation, Unstable

STILL = RestCriteria(speed=1e-9, residual=1e-7, hold=0.05)


def first_mode(built):
    """(ω₁ [rad/s], mode (N, 3) scaled to a tip (last node) y of 1) of the model's small
    motions about its start: K φ = ω² M φ on the free DOFs."""
    m = built.arrays
    free = ~m.fixed.ravel()
    K = stiffness(built).toarray()[np.ix_(free, free)]
    lam, vec = scipy.linalg.eigh(K, np.diag(m.mass.ravel()[free]))
    phi = np.zeros(free.size)
    phi[free] = vec[:, 0]
    phi = phi.reshape(-1, 3)
    return math.sqrt(lam[0]), phi / phi[-1, 1]


def crossings(times, values):
    """Times where values change sign, placed by linear interpolation."""
    t, y = np.asarray(times), np.asarray(values)
    k = np.flatnonzero(np.sign(y[1:]) != np.sign(y[:-1]))
    return t[k] - y[k] * (t[k + 1] - t[k]) / (y[k + 1] - y[k])


@pytest.mark.parametrize("per_period", [20, 10])
def test_period_elongation_of_a_cantilever_s_first_mode(per_period):
    """A steel cantilever of 8 elements set off in its first mode (tip 1e-6 L, so the
    co-rotational forces are linear to 1e-12 and no other mode is excited), undamped,
    at h = T/20 and T/10, over 20 periods. The zero crossings, interpolated linearly,
    err by ~(ωh)³/100 of a step each, which the 40 crossings average; with the Newton
    tolerance that leaves the measured T̄ within 1e-4 of the theory, against the
    effect of 8e-3 and 3e-2 being measured."""
    data = cantilever(8, 2.0, 0.0, damping=0.0, mass_damping=0.0)
    built = build_model(data)
    omega, phi = first_mode(built)
    T = 2.0 * math.pi / omega
    sim = Simulation(built, "newmark", dt=T / per_period)
    sim.state.pos[:] += 2e-6 * phi
    times, tip = [0.0], [sim.value("node.N8.y")]
    for _ in range(20 * per_period):
        sim.advance(sim.dt)
        times.append(sim.time)
        tip.append(sim.value("node.N8.y"))
    zeros = crossings(times, tip)
    measured = 2.0 * (zeros[-1] - zeros[0]) / (len(zeros) - 1)
    wh = 2.0 * math.pi / per_period
    assert measured / T == pytest.approx((wh / 2) / math.atan(wh / 2), abs=1e-4)


def test_energy_is_conserved_in_a_linear_structure():
    """A chain of four bars along x, every node held in y: the bars stay on the x axis,
    where N = EA/L0 (L − L0) is linear in the positions. Kicked with random axial speeds,
    undamped, at the game's frame step (ωh up to ~60: the top mode is far from resolved),
    ½vᵀMv + ½ Σ k (L − L0)² keeps its start to 1e-10 over 300 steps: each step's Newton
    converges in one iteration to round-off (the residual is linear), so only round-off
    (measured ~1e-14) is left."""
    nodes = [(f"N{k}", 0.7 * k, 0.0) for k in range(5)]
    bars = [member(f"B{k}", f"N{k}", f"N{k + 1}") for k in range(4)]
    data = model(nodes, bars, [{"node": f"N{k}", "fix": ["y"]} for k in range(5)] + [{"node": "N0", "fix": ["x", "y"]}], mass_damping=0.0)
    sim = Simulation(build_model(data), "newmark")
    rng = np.random.default_rng(5)
    sim.state.vel[1:, 0] = rng.normal(scale=0.3, size=4)
    sim.refresh()
    e0 = sim.kinetic_energy() + sim.strain_energy()
    for _ in range(300):
        sim.advance(sim.dt)
        assert sim.kinetic_energy() + sim.strain_energy() == pytest.approx(e0, rel=1e-10)


def test_the_static_limit_is_relaxation_s_and_the_direct_stiffness_method_s():
    """A cantilever of 4 elements under a tip load ramped on over 0.5 s, with world
    damping and HHT α = −0.1 to take out the modes a frame-rate step cannot follow, run to
    rest (speed 1e-9 L/s, residual 1e-7 of the load): its tip deflection is relaxation's
    (the same nonlinear statics) within 1e-6, and the linear answer's within the
    geometric nonlinearity, (δ/L)² ≈ 5e-5 of it: 1e-3."""
    data = cantilever(4, 2.0, -1000.0, damping=0.05)
    data["loads"][0]["history"] = [[0.0, 0.0], [0.5, 1.0]]
    built = build_model(data)
    sim = Simulation(built, "newmark", rest=STILL, hht_alpha=-0.1)
    assert sim.advance(20.0, until_rest=True).at_rest
    relaxed = Simulation(build_model(data, statics_only=True), "relax")
    relaxed.relax(tol=1e-12)
    linear = Simulation(build_model(data, statics_only=True), "linear")
    linear.solve_linear()
    tip = sim.value("node.N4.y")
    assert tip == pytest.approx(relaxed.value("node.N4.y"), rel=1e-6)
    assert tip == pytest.approx(linear.value("node.N4.y"), rel=1e-3)
    assert tip == pytest.approx(-1000.0 * 2.0**3 / (3 * 200e9 * 1e-6), rel=1e-3)  # PL³/3EI


def stub_model():
    """The instability test's hanging bar (tests/test_instability.py): a 2 m steel bar
    pinned at its top, pulled at its foot, with a 5 cm stub of the same section beside
    the foot, 40 times stiffer on a sliver of its mass. In the sandbox's air."""
    bar = {"kind": "bar", "material": "steel", "A": 1e-3, "I": 1.2e-7}
    return {
        "world": {"gravity": 9.81, "mass_damping": 0.5},
        "materials": {"steel": {"E": 210e9, "density": 7850.0, "nu": 0.3}},
        "nodes": [{"id": "T", "x": 0.0, "y": 3.0}, {"id": "F", "x": 0.0, "y": 1.0}, {"id": "S", "x": 0.05, "y": 1.0}],
        "members": [{"id": "TF", "i": "T", "j": "F", **bar}, {"id": "FS", "i": "F", "j": "S", **bar}],
        "supports": [{"node": "T", "fix": ["x", "y"]}],
        "loads": [{"node": "F", "fx": 2000.0, "fy": -5000.0}],
    }


def test_the_stiff_stub_runs_at_frame_rate_steps():
    """Where RK4 needs steps of 14 µs (the stub's axial mode, ~22 kHz), Newmark takes
    1/120 s and swings the bar as RK4 does: the foot's path over 1 s (three swings)
    agrees within 5 % of the swing. What it may differ by: the swing's period is
    stretched by (ωh/2)/arctan(ωh/2) − 1 ≈ 2e-3 at its ωh ≈ 0.16, a phase lag of ~2e-3 ×
    2π per swing, 4 % of the swing after three (measured 1.5 %, and 3 % for the bar
    without its stub, whose own ringing HHT α = −0.1 takes out)."""
    built = build_model(stub_model())
    implicit = Simulation(built, "newmark", hht_alpha=-0.1)
    explicit = Simulation(built, "rk4")
    assert explicit.dt < 2e-5 and implicit.dt == 1.0 / 120.0
    swing = []
    for _ in range(12):
        implicit.advance(1.0 / 12.0)
        explicit.advance(1.0 / 12.0)
        swing.append((implicit.value("node.F.x"), explicit.value("node.F.x")))
    swing = np.array(swing)
    assert np.isfinite(implicit.state.pos).all()
    assert np.abs(swing[:, 0] - swing[:, 1]).max() <= 0.05 * np.abs(swing[:, 1]).max()


def test_a_step_newton_cannot_take_is_cut_and_a_run_that_still_fails_is_rolled_back():
    """A state no step can leave: a bar's two ends brought together (by a hand, say),
    where its direction, and so its force, has no value. Newton fails on every cut of
    the step; the run is rolled back to where the call started and explained."""
    data = model([("A", 0.0, 0.0), ("B", 1.0, 0.0)], [member("AB", "A", "B")], [{"node": "A", "fix": ["x", "y"]}])
    sim = Simulation(build_model(data), "newmark")
    sim.state.pos[1, :2] = sim.state.pos[0, :2]
    start = sim.state.copy()
    with pytest.raises(Unstable, match="a part moved too fast to follow") as caught:  # in a student's words
        sim.advance(0.1)
    assert "rolled back to t = 0 s" in str(caught.value)
    assert "Newton did not converge even on a step of" in str(caught.value.__cause__)  # the step sizes tried: for a developer
    assert "Newton" not in str(caught.value) and "0.0016" not in str(caught.value)
    assert np.array_equal(sim.state.pos, start.pos) and sim.time == 0.0


@pytest.mark.parametrize("formulation", ["arcade", "stability"])
def test_a_beam_pendulum_through_several_full_turns(formulation):
    """One steel beam element of 1 m pinned at one end, thrown round at 12 rad/s under
    gravity, undamped, at 1/120 s (0.1 rad a step) with HHT α = −0.1: its chord angle
    follows the rigid pendulum I θ'' = −m_Q g L cos θ (I = m_Q L² + both nodes'
    rotational inertia m̄L³/105, m_Q the free node's mass; the beam stretches by 3e-6 of
    its length) through 3.8 turns in 2 s, within 1 % of the 24 rad swept (measured 0.45 %,
    HHT's damping and the step's phase error; at 1/2000 s the two agree to 2e-5). The
    plain rule (α = 0) cannot: a stiff element spinning fast feeds its unresolved modes,
    the known energy instability of the trapezoidal rule in nonlinear dynamics (Simo &
    Tarnow 1992), and the pendulum loses a turn in 2 s."""
    beam = dict(member("B", "P", "Q", "beam", A=1e-4, I=1e-8), formulation=formulation)
    built = build_model(model([("P", 0.0, 0.0), ("Q", 1.0, 0.0)], [beam], [{"node": "P", "fix": ["x", "y"]}], gravity=9.81, mass_damping=0.0))
    m = built.arrays
    mq, inertia, w0 = m.mass[1, 0], m.mass[1, 0] + m.mass[0, 2] + m.mass[1, 2], 12.0
    sim = Simulation(built, "newmark", hht_alpha=-0.1)
    sim.state.vel[1, 1] = w0
    sim.state.vel[:, 2] = w0
    times, angle = [0.0], [0.0]
    for _ in range(240):
        sim.advance(sim.dt)
        times.append(sim.time)
        angle.append(float(sim.state.chord[0]))
    rigid = solve_ivp(lambda t, y: [y[1], -mq * 9.81 * math.cos(y[0]) / inertia], (0.0, times[-1]), [0.0, w0], rtol=1e-11, atol=1e-12, dense_output=True)
    expected = rigid.sol(np.array(times))[0]
    assert expected[-1] > 3.5 * 2.0 * math.pi
    assert np.abs(np.array(angle) - expected).max() <= 0.01 * expected[-1]
