"""Integrators: determinism, the stable step, blow-up caught and rolled back."""

import hashlib

import numpy as np
import pytest
import scipy.linalg
from builders import FREE_FRAME, bridge_truss, member, model

import equilibria.engine.linear as lin
from equilibria.engine.linear import max_frequency_bound, stable_dt, stiffness
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation, Unstable


def lattice(nx: int, ny: int, **world) -> dict:
    """A braced lattice truss on an nx × ny grid of 1 m cells, pinned at its two
    bottom corners."""
    nodes = [(f"n{i}_{j}", float(i), float(j)) for j in range(ny + 1) for i in range(nx + 1)]
    bars = []
    for j in range(ny + 1):
        for i in range(nx + 1):
            here = f"n{i}_{j}"
            for di, dj in ((1, 0), (0, 1), (1, 1)):
                if i + di <= nx and j + dj <= ny:
                    bars.append(member(f"{here}-{di}{dj}", here, f"n{i + di}_{j + dj}"))
            if i + 1 <= nx and j + 1 <= ny:
                bars.append(member(f"{here}-x", f"n{i + 1}_{j}", f"n{i}_{j + 1}"))
    supports = [{"node": "n0_0", "fix": ["x", "y"]}, {"node": f"n{nx}_0", "fix": ["x", "y"]}]
    return model(nodes, bars, supports, **world)


def final_hash(data: dict, integrator: str, seconds: float, dt: float) -> str:
    sim = Simulation(build_model(data), integrator, dt=dt)
    sim.advance(seconds)
    return hashlib.sha256(sim.state.pos.tobytes() + sim.state.vel.tobytes()).hexdigest()[:16]


def test_same_input_gives_bit_identical_results_run_to_run():
    """Every element kind, every time integrator: two runs give identical arrays (for
    Newmark, SuperLU's factor and solve are sequential and take the matrix in the same
    order every time)."""
    for integrator in ("rk4", "symplectic", "newmark"):
        runs = [final_hash(FREE_FRAME, integrator, 0.05, 1e-4) for _ in range(2)]
        assert runs[0] == runs[1]


def test_golden_hash_of_a_falling_truss():
    """Box2D-style determinism pin: a bar truss sagging under gravity for 0.2 s. Bars use
    only +, −, ×, ÷ and √, which IEEE 754 rounds the same on every machine, so this hash
    is the same everywhere. If an intended change of the physics moves it, update it
    here and say so in the commit."""
    data = lattice(6, 2, gravity=9.81, damping=0.0, mass_damping=2.0)
    assert final_hash(data, "symplectic", 0.2, 5e-5) == GOLDEN_SYMPLECTIC
    assert final_hash(data, "rk4", 0.2, 5e-5) == GOLDEN_RK4


GOLDEN_SYMPLECTIC = "1ceef3ac4af66329"
GOLDEN_RK4 = "84d980c43d5d574a"


@pytest.mark.parametrize(("integrator", "steps", "golden"), [("symplectic", 20_496, "32abb232f1a77564"), ("rk4", 20_584, "cc6a6401d6913efd")])
def test_the_step_at_which_a_damped_truss_comes_to_rest_is_pinned(integrator, steps, golden):
    """Box2D pins the step at which its bodies fall asleep beside its hash: the same
    truss, damped harder (mass damping 20/s), run until it is at rest (speed, residual
    and kinetic energy under their tolerances for 0.5 s) comes to rest at this step, in
    this state, on every machine (the rest test reads the same IEEE 754 figures). A
    change that moves the rest step changes when the game says "at rest": update it here
    and say so in the commit."""
    data = lattice(6, 2, gravity=9.81, damping=0.0, mass_damping=20.0)
    sim = Simulation(build_model(data), integrator, dt=5e-5)
    outcome = sim.advance(10.0, until_rest=True)
    assert outcome.at_rest and outcome.steps == steps
    assert hashlib.sha256(sim.state.pos.tobytes() + sim.state.vel.tobytes()).hexdigest()[:16] == golden


def true_max_frequency(sim: Simulation) -> float:
    m = sim.model.arrays
    free = ~m.fixed.ravel()
    K = stiffness(sim.model)[free][:, free].toarray()
    w = 1.0 / np.sqrt(m.mass.ravel()[free])
    return float(np.sqrt(scipy.linalg.eigvalsh(w[:, None] * K * w[None, :]).max()))


@pytest.mark.parametrize(("integrator", "limit"), [("symplectic", 2.0), ("rk4", 2.0 * np.sqrt(2.0))])
def test_stable_step_is_below_the_true_limit_and_not_far_below(integrator, limit):
    """The estimate comes from a Gershgorin bound on ω_max, so it must sit below the
    true limit (limit / ω_max) and, for a regular truss, within a factor 3 of it."""
    sim = Simulation(build_model(lattice(8, 3, gravity=9.81)), integrator)
    omega = true_max_frequency(sim)
    assert max_frequency_bound(sim.model) >= omega
    true_limit = limit / omega
    dt = stable_dt(sim.model, integrator)
    assert true_limit / 3 < dt < true_limit
    sim.advance(0.5)  # runs without blowing up
    assert np.isfinite(sim.state.pos).all()


@pytest.mark.parametrize("integrator", ["symplectic", "rk4"])
def test_a_step_past_the_limit_is_caught_rolled_back_and_explained(integrator):
    data = lattice(4, 2, gravity=9.81)
    sim = Simulation(build_model(data), integrator)
    omega = true_max_frequency(sim)
    sim.dt = 1.5 * 2 * np.sqrt(2) / omega
    before = sim.state.copy()
    with pytest.raises(Unstable) as err:
        sim.advance(1.0)
    message = str(err.value)
    assert "unstable" in message and "member" in message and "rolled back" in message
    assert f"{stable_dt(sim.model, integrator):.3g}" in message
    assert np.isfinite(sim.state.pos).all()
    # Rolled back to the start of the batch that failed: a finite, earlier state.
    assert sim.time < 1.0 and sim.time >= before.clock[0]


def test_over_stiffening_while_running_is_caught_and_the_state_kept():
    """A player makes the bars a million times stiffer mid-run: the next batch blows
    up, is rolled back, and the simulation can carry on with a stable step."""
    sim = Simulation(build_model(bridge_truss(1000.0)), "symplectic")
    sim.advance(0.1)
    good = sim.state.pos.copy()
    sim.model = sim.model.with_arrays(bar_k=sim.model.arrays.bar_k * 1e6, bar_EA=sim.model.arrays.bar_EA * 1e6)
    with pytest.raises(Unstable):
        sim.advance(0.1)
    assert np.isfinite(sim.state.pos).all()
    assert np.abs(sim.state.pos - good).max() < 0.01
    sim.dt = stable_dt(sim.model, "symplectic")
    sim.advance(0.01)
    assert np.isfinite(sim.state.pos).all()


def test_at_rest_needs_the_hold_time():
    """A damped truss under load comes to rest and says so only after the hold span."""
    data = bridge_truss(100.0)
    data["world"]["damping"] = 0.05
    sim = Simulation(build_model(data), "rk4")
    outcome = sim.advance(30.0, until_rest=True)
    assert outcome.at_rest and sim.rest_time >= sim.rest.hold
    moving = Simulation(build_model(data), "rk4")
    assert not moving.advance(0.01).at_rest


def test_free_body_under_unbalanced_load_never_rests():
    data = model([("A", 0, 0), ("B", 1, 0)], [member("AB", "A", "B")], loads=[{"node": "B", "fx": 1.0}], damping=0.05)
    sim = Simulation(build_model(data), "rk4")
    assert not sim.advance(2.0, until_rest=True).at_rest


def test_relaxation_that_diverges_is_reported_not_passed_off_as_rest():
    """A NaN force must not read as a zero residual (max() drops NaN): a zero-length
    stretch of a bar (coincident nodes after a move) makes its force NaN."""
    sim = Simulation(build_model(bridge_truss(100.0)), "relax")
    sim.state.pos[1, :2] = sim.state.pos[0, :2]  # B onto A: bar AB has no direction
    with pytest.raises(Unstable):
        sim.relax()
    assert np.isfinite(sim.state.pos).all()


def test_mechanism_and_lowest_frequency_in_a_large_model_take_the_sparse_path():
    """Past DENSE_LIMIT free DOFs the eigenproblems go sparse (shift-invert Lanczos):
    the same answers as the dense path."""
    data = lattice(30, 15, gravity=9.81)
    built = build_model(data | {"world": {"gravity": 9.81, "damping": 0.0}})
    assert 2 * built.n_nodes > lin.DENSE_LIMIT
    free = ~built.arrays.fixed.ravel()
    assert lin.find_mechanism(built, stiffness(built), free) is None
    sparse_omega = lin.lowest_frequency(built)
    data["supports"] = data["supports"][:1]  # one pin: the lattice can turn about it
    loose = build_model(data | {"world": {"gravity": 9.81, "damping": 0.0}})
    mechanism = lin.find_mechanism(loose, stiffness(loose), ~loose.arrays.fixed.ravel())
    assert mechanism is not None and "mechanism" in mechanism.message
    # A rigid turn about the pin: every node moves perpendicular to its radius.
    mode, pos = mechanism.mode, loose.arrays.pos0
    assert np.allclose(mode[:, 0] * pos[:, 0] + mode[:, 1] * pos[:, 1], 0.0, atol=1e-6)
    limit, lin.DENSE_LIMIT = lin.DENSE_LIMIT, 10**6
    try:
        assert lin.lowest_frequency(built) == pytest.approx(sparse_omega, rel=1e-9)
    finally:
        lin.DENSE_LIMIT = limit
