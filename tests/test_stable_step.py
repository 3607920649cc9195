"""The engine's own step is stable with damping: mass-proportional damping α and
element damping β count in the default step, not only the oscillation bound.

Glossary: a hanging bar AB (A pinned, B a lumped mass m below it), axial stiffness
k = EA/L, so ω = √(k/m) exactly (the Gershgorin bound of a single bar is its own
frequency); damping ratio ζ = 5 (overdamped) gives α = 2ζω. Closed forms (engine/linear.py
derives them): semi-implicit Euler is stable for h ≤ (2/ω)(√(1 + ζ²) − ζ); RK4 for h|λ|
≤ 2.7853 on the real axis, with |λ| = α for the swinging (rigid) mode, the largest here.
The engine takes STEP_MARGIN (0.8) of that.
"""

from __future__ import annotations

import math

import pytest
from builders import model

from equilibria.engine.linear import STEP_MARGIN
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation, Unstable

E, A, L, RHO, M, G, ZETA = 200e9, 1e-4, 1.0, 7850.0, 20.0, 9.81, 5.0
RK4_REAL_AXIS = 2.785293563405282  # where 1 + z + z²/2 + z³/6 + z⁴/24 = −1 on the negative real axis


def hanging(kind: str, zeta: float = ZETA) -> dict:
    members = [{"id": "AB", "i": "A", "j": "B", "kind": kind, "material": "steel", "A": A}]
    return model([("A", 0, 0), ("B", 0, -L, {"mass": M})], members, [{"node": "A", "fix": ["x", "y"]}], gravity=G, damping=zeta)


def omega() -> float:
    return math.sqrt(E * A / L / (M + RHO * A * L / 2))  # B's lumped mass: its own plus half the bar's


def symplectic_limit() -> float:
    w = omega()
    return 2.0 / w * (math.sqrt(1.0 + ZETA**2) - ZETA)


def rk4_limit() -> float:
    return RK4_REAL_AXIS / (2.0 * ZETA * omega())


@pytest.mark.parametrize("kind", ["bar", "cable"])
@pytest.mark.parametrize(("integrator", "limit"), [("symplectic", symplectic_limit), ("rk4", rk4_limit)])
def test_an_overdamped_bar_and_cable_run_to_rest_at_the_default_step(kind, integrator, limit):
    sim = Simulation(build_model(hanging(kind)), integrator)
    # The step is the closed form's, with the margin (bisection for RK4: 1e-6 relative).
    assert sim.dt == pytest.approx(STEP_MARGIN * limit(), rel=1e-5)
    assert sim.advance(5.0, until_rest=True).at_rest
    # at rest where statics puts it: stretched by the weight below A, W L / EA (1e-3 relative: the rest tolerances)
    weight = (M + RHO * A * L / 2) * G
    stretch = -L - sim.results()["nodes"]["B"]["y"]
    assert stretch == pytest.approx(weight * L / (E * A), rel=1e-3)


@pytest.mark.parametrize(("integrator", "limit"), [("symplectic", symplectic_limit), ("rk4", rk4_limit)])
def test_a_step_past_the_damped_limit_blows_up_and_says_which_step_is_stable(integrator, limit):
    """Just past the closed form's limit the run is caught (the closed form is right,
    not only safe); just inside it the run stays bounded."""
    data = hanging("bar")
    data["nodes"][1]["x"] = 0.01  # a small swing, so the swinging mode is excited too
    inside = Simulation(build_model(data), integrator, dt=0.97 * limit())
    inside.advance(0.5)
    past = Simulation(build_model(data), integrator, dt=1.05 * limit())
    with pytest.raises(Unstable) as caught:
        past.advance(0.5)
    message = str(caught.value)
    assert f"a step of {STEP_MARGIN * limit():.3g} s or less is stable" in message and f"the step was {1.05 * limit():.3g} s" in message


def test_a_run_that_fails_at_a_stable_step_never_calls_that_step_stable():
    sim = Simulation(build_model(hanging("bar")), "symplectic")
    message = str(sim._blow_up(2, 0.0, 0.0)[0])  # as if the state turned NaN at the default step
    assert "or less is stable" not in message and f"the step, {sim.dt:.3g} s, is within" in message
