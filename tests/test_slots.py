"""The 'stability' beam's law behind its slot (engine/compiled/slots.py, engine/elements/beam.py): compiled
once as a C function and reached by the force kernels through a named cell, so that a
first start compiles it once, not within every kernel above it.

What could break: a kernel that calls an empty cell (a crash, or another law without a
word), a cached kernel that cannot find the cell in a new process, the warm-up's second
process. The physics of the law itself is tests/test_buckled_member.py's and
tests/test_beam_stability.py's; here the same member is asked the same question by
every path, and the answers must agree to the last bit (they run the same compiled law).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import numpy as np
from test_beam_stability import EULER, column_data

from equilibria.engine.elements.beam import STABILITY
from equilibria.engine.elements.beam_chain import member_law
from equilibria.engine.elements.kernels import built_state, eval_forces
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation

BENT = (0.12, -0.05, -1e-5)  # (r1, r2, r3) [rad, rad, m]: past the chain's blend, RHO1


def buckled_top() -> list[float]:
    """The top of a one-member 'stability' column at 1.1 P_cr, relaxed: a member carried
    by the chain (bent past RHO1)."""
    sim = Simulation(build_model(column_data(1, P=1.1 * EULER, M0=1.0)), "relax")
    assert sim.relax(tol=1e-9).at_rest
    return sim.state.pos[-1].tolist()


def test_a_model_with_a_stability_beam_fills_the_slot():
    build_model(column_data(1, P=0.5 * EULER))
    assert STABILITY.filled


def test_the_kernels_and_python_ask_the_law_the_same():
    """eval_forces (through the slot) gives the beam end moments member_law gives
    when called from Python (its own compiled copy)."""
    model = build_model(column_data(1, P=0.5 * EULER))
    m = model.arrays
    state = built_state(m)
    r1, r2, r3 = BENT
    L0 = float(m.beam_L0[0])
    state.pos[1, :2] = state.pos[0, :2] + (L0 + r3) * np.array([math.cos(m.beam_chord0[0]), math.sin(m.beam_chord0[0])])
    state.pos[0, 2] += r1
    state.pos[1, 2] += r2
    eval_forces(m, state, state.pos, state.vel, 0.0, state.force)
    N, M1, M2, _ = member_law(r1, r2, r3, float(m.beam_EA[0]), float(m.beam_EI[0]), L0, 0, 0, np.zeros((3, 3)))
    assert math.hypot(r1, r2) > 0.1  # on the chain
    np.testing.assert_allclose(state.member_out[[0, 2, 3], model.record_row[0]], [N, M1, M2], rtol=1e-9, atol=1e-9 * abs(N))


def test_a_new_process_finds_the_cell_from_the_cache():
    """A second process loads the kernels from the cache this one wrote and answers the
    same to the last bit."""
    here = buckled_top()
    code = "import json, sys; sys.path.insert(0, 'tests'); from test_slots import buckled_top; print(json.dumps(buckled_top()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == here


def test_an_empty_slot_gives_nan_not_another_law():
    """A kernel asked for a 'stability' beam's forces before the slot is filled (a model
    not made by build_model) answers NaN, which the blow-up check rolls back, never the
    one-element law in silence."""
    code = (
        "import sys, math; sys.path.insert(0, 'tests');"
        "from equilibria.engine.elements.beam import STABILITY; STABILITY.ensure = lambda: None;"
        "from test_slots import *;"
        "model = build_model(column_data(1, P=0.5 * EULER)); m = model.arrays; s = built_state(m);"
        "eval_forces(m, s, s.pos, s.vel, 0.0, s.force);"
        "print(math.isnan(s.member_out[0, model.record_row[0]]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True"]


def test_the_warm_ups_second_process_compiles_its_part_and_exits():
    out = subprocess.run([sys.executable, "-m", "equilibria.engine.warm", "--side"], capture_output=True, text=True, timeout=600, env=os.environ.copy())
    assert out.returncode == 0 and out.stdout == "", out.stderr
