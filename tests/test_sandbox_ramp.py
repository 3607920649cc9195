"""Statics before dynamics in the sandbox: gravity and loads come on over RAMP_SECONDS,
so a structure that statics says holds is not broken by the shock of a sudden load, and
a member that breaks says by how much statics overloads it.

The structure: two steel bars (the sandbox's 50 × 5 mm tube: A = 1e-3 m², I = 1.2e-7
m⁴, E = 210 GPa) from pins at (0, 0) and (2, 0) to an apex at (1, 0.5), loaded there by
P downwards. Each bar is L = √1.25 m long and carries N = P / (2 sin θ), sin θ = 0.5/L,
in compression; it buckles at π²EI/L² = 198.9 kN (before it yields at 235 kN). At
N = 0.7 of that, a load put on at once swings the bars to about twice N (the dynamic
amplification of a suddenly applied load on a lightly damped elastic structure), past
the buckling load; ramped over 1 s, a hundred times the structure's period, it stays
within a few per cent of N.
"""

from __future__ import annotations

import math

from equilibria.app.session.play import RAMP_SECONDS, PlaySession
from equilibria.app.session.stage import Stage
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation
from equilibria.work.workbench import SandboxBench

E, A_, I_ = 210e9, 1.0e-3, 1.2e-7
L = math.sqrt(1.25)
P_CR = math.pi**2 * E * I_ / L**2  # [N] 198.9 kN
SIN = 0.5 / L


def two_bars(share: float) -> SandboxBench:
    """The two-bar truss with a load that makes the bars carry `share` of P_CR."""
    bench = SandboxBench()
    a, b, c = bench.add_node(0, 0), bench.add_node(2, 0), bench.add_node(1, 0.5)
    bench.set_support(a, ("x", "y"))
    bench.set_support(b, ("x", "y"))
    bench.add_member(a, c, "steel bar")
    bench.add_member(b, c, "steel bar")
    bench.add_force(c, 0.0, -2 * SIN * share * P_CR)
    return bench


def run_session(bench: SandboxBench, seconds: float) -> PlaySession:
    session = PlaySession(Stage.empty_sandbox(), bench=bench, fixed=True)
    session.run()
    for _ in range(round(seconds * 60)):
        session.tick(1 / 60)
    return session


def test_a_load_that_statics_says_holds_is_ramped_in_and_holds():
    session = run_session(two_bars(0.7), RAMP_SECONDS + 1.0)
    s = session.sim.state
    assert session.problem is None
    assert (s.member_broke < 0).all(), session.notice
    # At rest under the full load, each bar carries N = 0.7 P_CR, within 2 % (the
    # ramp's leftover swing, damped by the sandbox's air, and the weight of the bars).
    assert abs(float(s.member_out[0, 0]) + 0.7 * P_CR) < 0.02 * 0.7 * P_CR
    # The same structure loaded at once (no ramp) breaks: the shock the ramp avoids.
    sudden = Simulation(build_model(session.bench.structure()), "rk4")
    sudden.advance(0.2)
    assert (sudden.state.member_broke >= 0).any()


def test_a_member_statics_overloads_says_by_how_much():
    session = run_session(two_bars(1.3), RAMP_SECONDS + 0.5)
    assert (session.sim.state.member_broke >= 0).any()
    assert "statics asks it to carry" in session.notice and "130%" in session.notice
    assert "buckling load" in session.notice and "Make it stronger" in session.notice


def test_the_static_answer_is_shown_before_the_run_and_balances():
    session = PlaySession(Stage.empty_sandbox(), bench=two_bars(0.7), fixed=True)
    static = session.static.sim
    n = float(static.state.member_out[0, 0])
    assert abs(n + 0.7 * P_CR) < 1e-3 * P_CR  # the direct stiffness answer: N = P / (2 sin θ), plus the bars' weight
    r = static.reactions()
    assert abs(r[:, 1].sum() - 2 * SIN * 0.7 * P_CR) < 1e-3 * P_CR
