"""One 'stability' member past Euler's load takes the elastica's shape (engine/elements/beam_chain.py)
and never folds through its own support: against the elastica's closed form and a
many-element peer.

Glossary (SI throughout): E, I, A, EI, L as tests/test_beam_stability.py; P the load on
the top [N], ρ = P/P_cr with P_cr = π²EI/L² (between pins); θ0 the end rotation, δ the
mid-height deflection, c the chord (the top's height above the foot) [rad, m, m].

The elastica between pins (Timoshenko & Gere, Theory of Elastic Stability, 1961, §2.7):
with k = sin(θ0/2) and K(k), E(k) the complete elliptic integrals of the first and
second kind (scipy's ellipk and ellipe take m = k²),
    K(k) = (π/2)√ρ,   δ = k L / K,   c = L (2E/K − 1),
and the moment at mid-height is P δ (the ends are pinned). The column is made
inextensible to 1e-6 (A = 1 m²: P/EA ≲ 3e-6), so that the closed form, which has no
axial strain, is the answer to the column asked.

Tolerances. Four sub-elements carry the member: measured against the closed form their
end rotation is within 5e-4 of it at ρ = 1.03, 1.1 and 1.5, the top within 5e-4 of L
and the largest moment within 1.7e-3 of P δ (a moment sampled at 101 points and the
chain's straight sub-elements under the curve); the tolerances are 4×, 4× and 3× those,
room for the machine's round-off and nothing more: two sub-elements are 3 % off (an
element of half the member bent through half the turning of its ends).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.special import ellipe, ellipk
from test_beam_stability import EI, EULER, L, column_data

from equilibria.engine.elements.beam import beam_deformation
from equilibria.engine.elements.beam_chain import NODES, RHO0, RHO1, chain_law, member_forces, member_law, member_tangent
from equilibria.engine.elements.beam_stability import stability_forces, stability_tangent
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation

INEXTENSIBLE = 1.0  # [m²] (module note)
NUDGE = 1.0  # [N m] end moments that start the buckling: 1e-5 of P δ, far below the tolerances


def elastica(rho: float) -> tuple[float, float, float]:
    """(θ0, δ, c) of the pinned elastica at ρ (module note)."""
    k = brentq(lambda k: ellipk(k * k) - 0.5 * math.pi * math.sqrt(rho), 1e-12, 1.0 - 1e-12)
    big_k, big_e = ellipk(k * k), ellipe(k * k)
    return 2.0 * math.asin(k), k * L / big_k, L * (2.0 * big_e / big_k - 1.0)


def pinned(n: int, rho: float) -> Simulation:
    """n 'stability' members between pins under ρ P_cr, relaxed."""
    data = column_data(n, P=rho * EULER, M0=NUDGE)
    for mb in data["members"]:
        mb["A"] = INEXTENSIBLE
    sim = Simulation(build_model(data), "relax")
    assert sim.relax(tol=1e-10).at_rest
    return sim


def largest_moment(sim: Simulation) -> float:
    return max(abs(f["moment_max"]) for f in sim.results()["members"].values())


def bent(sim: Simulation) -> float:
    """The largest √(r1² + r2²) of the members [rad]: how far each turns from its chord."""
    m, s = sim.model.arrays, sim.state
    out = 0.0
    for e in range(len(m.beam_L0)):
        i, j = (int(q) for q in m.beam_ij[e])
        d = s.pos[j, :2] - s.pos[i, :2]
        r1, r2, *_ = beam_deformation(d[0], d[1], s.pos[i, 2] - m.pos0[i, 2], s.pos[j, 2] - m.pos0[j, 2], s.chord[e], m.beam_chord0[e], m.beam_L0[e])
        out = max(out, math.hypot(r1, r2))
    return out


@pytest.mark.parametrize("rho", [1.03, 1.1, 1.5])
def test_one_pinned_member_past_eulers_load_takes_the_elasticas_shape(rho):
    theta0, delta, chord = elastica(rho)
    sim = pinned(1, rho)
    assert abs(sim.value("node.N0.rot")) == pytest.approx(theta0, rel=2e-3)
    assert abs(sim.value("node.N1.rot")) == pytest.approx(theta0, rel=2e-3)
    assert sim.value("node.N1.y") == pytest.approx(chord, abs=2e-3 * L)
    assert largest_moment(sim) == pytest.approx(rho * EULER * delta, rel=5e-3)
    assert sim.results()["members"]["B0"]["axial"] == pytest.approx(-rho * EULER, rel=1e-6)  # pushed, along its chord


@pytest.mark.parametrize(("rho", "n"), [(1.03, 32), (1.1, 16), (1.5, 16)])
def test_one_member_matches_a_many_element_peer(rho, n):
    """The same column as n members. At 1.03 P_cr, 32 are each bent less than RHO0 from
    their chords, so none of them uses the chain: the peer is the ordinary element. At
    1.1 and 1.5 the most bent of 16 pass RHO0 (0.12, 0.26 rad) and carry their own
    chains: a peer of 64 sub-elements against 4. Tolerances as the module's note (the
    peer is within 2e-4 of the closed form in θ0 and c, 3e-5 in the moment)."""
    one, peer = pinned(1, rho), pinned(n, rho)
    if rho == 1.03:
        assert bent(peer) < RHO0
    assert one.value("node.N0.rot") == pytest.approx(peer.value("node.N0.rot"), rel=2e-3)
    assert one.value("node.N1.y") == pytest.approx(peer.value(f"node.N{n}.y"), abs=2e-3 * L)
    assert largest_moment(one) == pytest.approx(largest_moment(peer), rel=5e-3)
    # The moment along the one member is P times the chain's sway, as in the peer: at
    # mid-height it is P δ with δ the peer's middle node.
    assert largest_moment(one) == pytest.approx(rho * EULER * abs(peer.value(f"node.N{n // 2}.x")), rel=5e-3)


@pytest.mark.parametrize("rho", [1.0005, 2.0])
def test_a_pinned_member_past_eulers_load_never_passes_through_its_pin(rho):
    """Just past Euler's load (the elastica's end rotation 0.063 rad, ρ_member = 0.089:
    inside the blend of the one element and the chain) and at twice it (end rotation
    125°, the top 0.071 L above the foot): the top stays above the foot, the member
    pushed, on the elastica. At 2.18 P_cr the elastica's ends meet; past it they pass
    each other in a loop, which a member between a pin and a roller on one line cannot
    follow (its chord would have to turn over through zero length).

    Tolerances: at 2.0 the module's for θ0 (measured 6e-4 off) and 4e-3 L for the top
    (measured 2.1e-3 L: each sub-element turns through 60°); at 1.0005 the end rotation
    to 10 %: in the blend the member is part the one element, whose bent shape has no
    stiffness of its own there (measured 4.8 % off), and the top, 1.8e-4 L down, to
    2e-4 L (measured 9e-5 L)."""
    theta0, _, chord = elastica(rho)
    sim = pinned(1, rho)
    assert sim.value("node.N1.y") > 0.0
    assert sim.results()["members"]["B0"]["axial"] < 0.0
    assert abs(sim.value("node.N0.rot")) == pytest.approx(theta0, rel=2e-3 if rho > 1.001 else 0.1)
    assert sim.value("node.N1.y") == pytest.approx(chord, abs=(4e-3 if rho > 1.001 else 2e-4) * L)


@pytest.mark.parametrize("integrator", ["newmark", "rk4"])
def test_a_pinned_member_past_eulers_load_buckles_in_time_without_folding(integrator):
    """At 1.1 P_cr, damped (30 % of critical in its lowest mode), from straight: the top
    never drops below the elastica's chord by more than the overshoot of a damped swing
    (here 1e-3 L), the member is pushed throughout, and it comes to rest on the elastica
    (to 1e-3 of θ0: the module's tolerance; A = 1e-2 m² as test_beam_stability, whose
    shortening P/EA = 1.2e-4 moves θ0 by 5e-4)."""
    theta0, _, chord = elastica(1.1)
    data = column_data(1, P=1.1 * EULER, M0=NUDGE)
    data["world"] = {"gravity": 0.0, "damping": 0.3}
    sim = Simulation(build_model(data), integrator)
    for _ in range(50):
        sim.advance(0.05)
        assert sim.value("node.N1.y") > chord - 1e-3 * L
        assert sim.results()["members"]["B0"]["axial"] < 0.0
    assert abs(sim.value("node.N0.rot")) == pytest.approx(theta0, rel=1e-3)


STATES = np.random.default_rng(5).uniform(-1.0, 1.0, size=(40, 3))


def test_below_the_blend_the_member_is_the_one_element_as_before():
    """Where its end rotations from its chord are under RHO0 a member's forces and tangent
    are the element with stability functions, bit for bit, compressed up to 3.8 P_cr or
    stretched (so nothing below Euler's load moved); at 0.01 rad the chain agrees with it
    to 1e-3 (the two differ by O(θ²): measured 2e-4 at 0.01 rad)."""
    EA, L0 = 200e9 * 1e-2, 3.0
    for a, b, c in STATES:
        r1, r2 = 0.7 * RHO0 * a, 0.7 * RHO0 * b
        r3 = c * 3.8 * EULER * L0 / EA
        assert member_forces(r1, r2, r3, EA, EI, L0) == stability_forces(r1, r2, r3, EA, EI, L0)
        k, k1 = np.zeros((3, 3)), np.zeros((3, 3))
        assert member_tangent(r1, r2, r3, EA, EI, L0, k) == stability_forces(r1, r2, r3, EA, EI, L0)
        stability_tangent(r1, r2, r3, EA, EI, L0, k1)
        assert np.array_equal(k, k1)
    r = (0.01, -0.01, -0.5 * EULER * L0 / EA)
    chain, one = chain_law(*r, EA, EI, L0, np.zeros((3, 3)), np.zeros((NODES, 3)), 0), stability_forces(*r, EA, EI, L0)
    assert chain[4]
    assert chain[1] == pytest.approx(one[1], rel=1e-3)
    assert chain[0] == pytest.approx(one[0], rel=1e-3)


@pytest.mark.parametrize("size", [0.06, 0.08, 0.3, 1.2])
def test_the_members_forces_and_tangent_are_derivatives_of_its_energy(size):
    """Across the blend (RHO0 0.05 to RHO1 0.1 rad) and on the chain, compressed and
    stretched: R = ∂U/∂r and K = ∂R/∂r by central differences (h = 1e-7 rad or m: the
    error h² U''' ~ 1e-14 and round-off ε U / h ~ 1e-9 of the entries; within 1e-5 of the
    largest apart from a wrong derivative, which misses by the blend's 1/(RHO1 − RHO0) = 20
    times a moment)."""
    EA, L0, h = 200e9 * 1e-2, 3.0, 1e-7
    assert RHO0 < 0.06 < 0.08 < RHO1
    for a, b, c in STATES[:8]:
        r = np.array([size * a, size * b, -abs(c) * 1e-4 * L0 if a > 0 else c * 1e-4 * L0])
        k = np.zeros((3, 3))
        N, M1, M2, _ = member_tangent(*r, EA, EI, L0, k)
        R = np.array([M1, M2, N])
        fd_R, fd_K = np.zeros(3), np.zeros((3, 3))
        for q in range(3):
            up, down = r.copy(), r.copy()
            up[q] += h
            down[q] -= h
            fu, fd = member_forces(*up, EA, EI, L0), member_forces(*down, EA, EI, L0)
            fd_R[q] = (fu[3] - fd[3]) / (2 * h)
            fd_K[:, q] = (np.array([fu[1], fu[2], fu[0]]) - np.array([fd[1], fd[2], fd[0]])) / (2 * h)
        assert np.abs(fd_R - R).max() <= 1e-5 * np.abs(R).max()
        assert np.abs(fd_K - k).max() <= 1e-5 * np.abs(k).max()
        assert np.abs(k - k.T).max() <= 1e-9 * np.abs(k).max()


def test_the_chain_finds_its_equilibrium_wherever_a_member_can_be():
    """400 random states: end rotations 0.05–2.5 rad from the chord in any mix of single
    and double curvature, the chord from stretched 1 % to shortened by up to 60 % of what
    a circle of those rotations would give (compressions past 4 P_cr included): the
    chain's inner nodes come to equilibrium in every one (measured: 3,000 of 3,000)."""
    EA, L0 = 200e9 * 1e-2, 3.0
    rng = np.random.default_rng(1)
    for _ in range(400):
        rho, angle = rng.uniform(0.05, 2.5), rng.uniform(0.0, 2.0 * math.pi)
        r3 = rng.uniform(-0.6, 0.01) * L0 * min(1.0, rho * rho / 4.0)
        assert chain_law(rho * math.cos(angle), rho * math.sin(angle), r3, EA, EI, L0, np.zeros((3, 3)), np.zeros((NODES, 3)), 0)[4]


@pytest.mark.parametrize("release", [1, 2])
@pytest.mark.parametrize("size", [0.06, 0.08, 0.3, 1.2])
def test_a_member_with_a_pinned_end_has_forces_and_tangent_that_are_derivatives_of_its_energy(size, release):
    """The same with one end released (member_law's `release`): the released rotation
    is solved within the member (on the one element, then by the chain), so the law is a
    function of the held end's rotation and the stretch only: its moment at the pin is
    zero, its row and column of the tangent are zero, and the rest are central
    differences of U (tolerances as above)."""
    EA, L0, h = 200e9 * 1e-2, 3.0, 1e-7
    held = 0 if release == 2 else 1
    for a, b, c in STATES[:8]:
        r = np.array([size * a, size * b, -abs(c) * 1e-4 * L0 if a > 0 else c * 1e-4 * L0])
        k = np.zeros((3, 3))
        N, M1, M2, _ = member_law(*r, EA, EI, L0, release, 1, k)
        R = np.array([M1, M2, N])
        assert R[1 - held] == 0.0 and not k[1 - held].any() and not k[:, 1 - held].any()
        fd_R, fd_K = np.zeros(3), np.zeros((3, 3))
        for q in (held, 2):
            up, down = r.copy(), r.copy()
            up[q] += h
            down[q] -= h
            fu, fd = member_law(*up, EA, EI, L0, release, 0, k.copy()), member_law(*down, EA, EI, L0, release, 0, k.copy())
            fd_R[q] = (fu[3] - fd[3]) / (2 * h)
            fd_K[:, q] = (np.array([fu[1], fu[2], fu[0]]) - np.array([fd[1], fd[2], fd[0]])) / (2 * h)
        assert np.abs(fd_R - R).max() <= 1e-5 * np.abs(R).max()
        assert np.abs(fd_K - k).max() <= 1e-5 * np.abs(k).max()
        other = r.copy()
        other[1 - held] += 0.3  # the node's rotation at the pin: the member does not see it
        assert member_law(*other, EA, EI, L0, release, 0, k.copy()) == member_law(*r, EA, EI, L0, release, 0, k.copy())


def cantilever_elastica(rho: float) -> tuple[float, float]:
    """(sway, height) of the top of a cantilever of length L at ρ times its Euler load
    π²EI/(4L²): half of a pinned column of length 2L (module note's closed form)."""
    k = brentq(lambda k: ellipk(k * k) - 0.5 * math.pi * math.sqrt(rho), 1e-12, 1.0 - 1e-12)
    big_k, big_e = ellipk(k * k), ellipe(k * k)
    return 2.0 * k * L / big_k, L * (2.0 * big_e / big_k - 1.0)


@pytest.mark.parametrize("rho", [1.1, 1.5])
def test_one_member_pinned_at_its_top_past_eulers_load_takes_the_cantilevers_elastica(rho):
    """A single 'stability' member clamped at its foot and pinned at its top (`release`
    j: its top node has no rotation at all), loaded down past the cantilever's Euler
    load with a nudge of 1e-4 P across: its top sways and drops as the elastica's
    closed form says, within 1e-3 L (measured 3e-4 L at 1.1 and 1e-4 L at 1.5; the
    one-element law it had before was 1.2 % and 5.7 % of L off in height), and as a
    peer of eight members whose top node turns freely (no release: M = 0 there by the
    node's balance), within 1e-4 L (measured 1e-7 L)."""
    P = rho * math.pi**2 * EI / (4.0 * L * L)

    def top(n: int, release: list[str]) -> np.ndarray:
        data = column_data(n, P=P, top=())
        for mb in data["members"]:
            mb["A"] = INEXTENSIBLE
        data["members"][-1]["release"] = release
        data["supports"] = [{"node": "N0", "fix": ["x", "y", "rot"]}]
        data["loads"] = [{"node": f"N{n}", "fx": 1e-4 * P, "fy": -P}]
        sim = Simulation(build_model(data), "relax")
        assert sim.relax(tol=1e-10).at_rest
        return sim.state.pos[n, :2]

    one = top(1, ["j"])
    sway, height = cantilever_elastica(rho)
    assert one[0] == pytest.approx(sway, abs=1e-3 * L)
    assert one[1] == pytest.approx(height, abs=1e-3 * L)
    np.testing.assert_allclose(one, top(8, []), atol=1e-4 * L)
