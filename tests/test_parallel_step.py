"""The explicit integrators' parallel force evaluation (engine/parallel.py): the same
result as the serial path, to the bit, and the same for any number of threads.

Why bit for bit and not "to round-off": the parallel path computes each element's forces
with the serial path's own functions and adds them to each node in the serial path's
order (external forces, then bars, beams and triangles by index), so every floating-point
operation is the same one on the same operands; a tolerance would hide a change of the
summation order, which is exactly what would make the result depend on the threads.

The model is a strip just over a threshold lowered through `advance`'s min_elements (the
engine's is PARALLEL_MIN_ELEMENTS, tens of thousands of elements, too slow for a test): bars,
cables, beams of both formulations, linear and Neo-Hookean triangles, under gravity,
a load with a history, ground shaking, mass and element damping, a settling support
and the hand's spring, for a few hundred steps of RK4 and of the symplectic rule.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from engine import Simulation, build_model, dynamics, parallel
from engine.warm import WARM_MODEL

CELLS = 36  # 36 cells × 5 elements + 1 closing post = 181 elements
THRESHOLD = 180  # just below the strip's element count: the parallel path runs
STEPS = 300


def strip() -> dict:
    """Two rows of nodes 1 m apart; each cell a bottom bar, a top beam (the two
    formulations in turn), a post (bar), a diagonal cable and a triangle (linear and
    Neo-Hookean in turn)."""
    nodes = [{"id": f"{r}{x}", "x": float(x), "y": float(y)} for x in range(CELLS + 1) for r, y in (("b", 0), ("t", 1))]
    members, triangles = [], []
    for x in range(CELLS):
        formulation = ("arcade", "stability")[x % 2]
        material, law = (("steel", "linear"), ("rubber", "neo_hookean"))[x % 2]
        members += [
            {"id": f"B{x}", "i": f"b{x}", "j": f"b{x + 1}", "material": "steel", "A": 1e-3},
            {"id": f"T{x}", "i": f"t{x}", "j": f"t{x + 1}", "kind": "beam", "material": "steel", "A": 1e-3, "I": 1e-6, "formulation": formulation},
            {"id": f"P{x}", "i": f"b{x}", "j": f"t{x}", "material": "steel", "A": 1e-3},
            {"id": f"D{x}", "i": f"b{x}", "j": f"t{x + 1}", "kind": "cable", "material": "steel", "A": 1e-4},
        ]
        triangles.append({"id": f"S{x}", "nodes": [f"b{x}", f"b{x + 1}", f"t{x + 1}"], "material": material, "t": 0.002, "model": law})
    members.append({"id": "P_end", "i": f"b{CELLS}", "j": f"t{CELLS}", "material": "steel", "A": 1e-3})
    shake = [[0.0, 0.0], [0.002, 3.0], [0.004, -3.0], [0.006, 0.0]]
    return {
        "world": {"gravity": 9.81, "mass_damping": 0.5, "element_damping": 1e-5, "ground_motion": {"ax": shake}},
        "materials": {"steel": {"E": 200e9, "density": 7850.0, "nu": 0.3}, "rubber": {"E": 1e9, "density": 1100.0, "nu": 0.45}},
        "nodes": nodes,
        "members": members,
        "triangles": triangles,
        "supports": [
            {"node": "b0", "fix": ["x", "y"]},
            {"node": f"b{CELLS}", "fix": ["y"], "motion": {"y": [[0.0, 0.0], [0.005, -2e-4]]}},
        ],
        "loads": [{"node": f"t{CELLS // 2}", "fx": 2e4, "fy": -5e4, "m": 300.0, "history": [[0.0, 0.0], [0.003, 1.0]]}],
    }


def started(integrator: str) -> Simulation:
    """The strip after one (serial) step, with the hand's spring on a top node and an
    element of each kind taken out (the parallel sum must skip them as the serial does)."""
    sim = Simulation(build_model(strip()), integrator)
    for on in (sim.state.bar_on, sim.state.beam_on, sim.state.tri_on):
        on[len(on) // 2] = False
    node = 2 * (CELLS // 3) + 1  # a top node
    sim.set_tethers(np.array([[node, sim.state.pos[node, 0] + 0.01, sim.state.pos[node, 1], 0.0, 0.0, 1e6, 1e2, 0.0]]))
    sim.advance(sim.dt)  # sets sim.ctl, and starts everything moving
    return sim


def outputs(sim: Simulation) -> list[np.ndarray]:
    s = sim.state
    return [s.pos, s.vel, s.chord, s.clock, s.force, s.bar_N, s.beam_out, s.tri_out, s.tether_f]


def assert_same_bits(a: list[np.ndarray], b: list[np.ndarray]) -> None:
    for x, y in zip(a, b, strict=True):
        assert x.tobytes() == y.tobytes(), f"differ by up to {np.max(np.abs(x - y)):.3g}"


def test_the_strip_has_every_element_kind_and_runs_in_parallel():
    m = build_model(strip()).arrays
    kinds = (m.bar_cable.any(), (~m.bar_cable).any(), m.beam_stability.any(), (~m.beam_stability).any(), m.tri_neo.any(), (~m.tri_neo).any())
    assert all(kinds)
    assert parallel.element_count(m) > THRESHOLD
    assert parallel.parallel_gather(m) is None  # the engine's own threshold: serial
    if numba.get_num_threads() >= 2:
        assert parallel.parallel_gather(m, THRESHOLD) is not None


def test_the_games_models_stay_serial():
    """The game's models are small: the parallel kernel is neither used nor compiled."""
    assert parallel.parallel_gather(build_model(WARM_MODEL).arrays) is None


@pytest.mark.parametrize("integrator", ["rk4", "symplectic"])
def test_parallel_forces_are_the_serial_ones_to_the_bit(integrator):
    if numba.get_num_threads() < 2:
        pytest.skip("numba has one thread here: the parallel path is never chosen")
    serial, threaded = started(integrator), started(integrator)
    assert_same_bits(outputs(serial), outputs(threaded))
    method = dynamics.RK4 if integrator == "rk4" else dynamics.SYMPLECTIC
    m = serial.model.arrays
    before = serial.state.pos.copy()
    rows = parallel.parallel_gather(m, THRESHOLD)[2::3]
    assert not any(r.any() for r in rows)
    assert dynamics.advance(m, serial.state, serial.work, serial.dt, STEPS, method, serial.ctl) == STEPS
    assert dynamics.advance(m, threaded.state, threaded.work, threaded.dt, STEPS, method, threaded.ctl, min_elements=THRESHOLD) == STEPS
    assert all(r.any() for r in rows)  # the parallel kernel ran: it alone writes the rows of the ends' forces
    moved = np.max(np.abs(serial.state.pos - before))
    assert moved > 1e-7  # [m] the strip moved: the comparison is not of a still state
    assert (serial.state.bar_N[m.bar_cable] == 0.0).any() and (serial.state.bar_N != 0.0).any()  # slack cables and loaded members
    assert_same_bits(outputs(serial), outputs(threaded))


def test_the_result_does_not_depend_on_the_thread_count():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has one thread here")
    runs = []
    threads = numba.get_num_threads()
    try:
        for count in (1, 2):
            numba.set_num_threads(count)
            sim = started("rk4")
            m = sim.model.arrays
            dynamics.advance_parallel(m, sim.state, sim.work, sim.dt, STEPS, dynamics.RK4, sim.ctl, parallel.gather_table(m))
            runs.append(outputs(sim))
    finally:
        numba.set_num_threads(threads)
    assert_same_bits(runs[0], runs[1])
