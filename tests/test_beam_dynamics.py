"""Beam-columns against closed-form answers: vibration, buckling and large deflection.

Seed 000 (Martini, Arcade) checks its beam element three ways: the first frequency of a
simply supported beam from a free-vibration record (Table 1, with the rotational mass
m̄L³/105 of eq. 8), and buckling of columns with an L/1000 imperfection (Figs 4–5). We
repeat those and add the tip-loaded cantilever elastica, whose large rotations exercise
the co-rotational chord tracking.

Glossary (SI throughout):
    E      Young's modulus [Pa]; I second moment of area [m⁴]; EI flexural rigidity [N m²]
    A      cross-section area [m²]; it sets the axial stiffness EA and, with the density,
           the mass per length
    m̄      mass per unit length [kg/m] = density · A
    L      length of the whole beam, column or cantilever [m]; n number of beam elements
    f_ss   (π/2)·√(EI/(m̄L⁴)) first natural frequency of a simply supported beam [Hz]
    P_cr   π²EI/L² Euler load of a pinned–pinned column [N]
    P_n    buckling load of the n-element model (below)
    δ0     amplitude of the initial sine out-of-straightness [m]
    δ      lateral offset of the column's midheight node from the line of its ends [m]
    α      PL²/EI load parameter of the tip-loaded cantilever
    δv, δh vertical and horizontal tip displacement of the cantilever [m]; θ tip rotation
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from equilibria.engine.linear import lowest_frequency
from equilibria.engine.model import build_model
from equilibria.engine.simulation import RestCriteria, Simulation, make_probe

STEEL_E = 200e9  # [Pa]
KIP = 4448.222  # [N]

# Rest that is really rest: speed below 1e-7 of the size per second and out-of-balance
# force below 1e-7 of the load (the defaults, 1e-4 and 1e-3, are for the game).
STILL = RestCriteria(speed=1e-7, residual=1e-7, hold=0.05)


def beam_line(n, length, *, E, I, A, density, supports, loads, damping=0.0, vertical=False, offset=None):
    """A straight line of n equal beam elements, nodes N0…Nn, members B0…B(n−1).

    The line runs along x from the origin (along y if vertical); offset(s), s ∈ [0, 1],
    moves node k = s·n sideways (the imperfection of a column). No gravity; `damping` is
    world.damping, the damping ratio of the lowest mode.
    """
    nodes = []
    for k in range(n + 1):
        along, across = length * k / n, offset(k / n) if offset else 0.0
        x, y = (across, along) if vertical else (along, across)
        nodes.append({"id": f"N{k}", "x": x, "y": y})
    members = [{"id": f"B{k}", "i": f"N{k}", "j": f"N{k + 1}", "kind": "beam", "material": "m", "A": A, "I": I} for k in range(n)]
    return build_model(
        {
            "world": {"gravity": 0.0, "damping": damping},
            "materials": {"m": {"E": E, "density": density}},
            "nodes": nodes,
            "members": members,
            "supports": supports,
            "loads": loads,
        }
    )


def relative_error(value, reference):
    return (value - reference) / reference


# ----------------------------------------------------------------------------------------
# 1. First frequency of a simply supported beam (seed 000, Table 1)
#
# The seed's beam (Englekirk's example, converted to SI): span 30 ft = 9.14 m, E = 200 GPa,
# I = 1090 in⁴ = 454e-6 m⁴, total weight 11.81 kips = 52.4 kN. With these rounded SI values
# f_ss = 7.41 Hz (the seed's 7.39 Hz comes from the US-unit values); we compare with f_ss
# computed from the values we give the model.

SS_SPAN = 9.14  # [m]
SS_I = 454e-6  # [m⁴]
SS_MBAR = 52.4e3 / 9.81 / SS_SPAN  # [kg/m]
SS_A = 1e-2  # [m²]; A only sets the axial stiffness, the density gives m̄
SS_IMPULSE_PEAK = 2000 * KIP  # [N], the seed's total triangular load at its peak
SS_DT = 1e-4  # [s]


def simply_supported_beam(n):
    """Pin at N0, roller (y) at Nn. The seed's impulse: a triangular distributed load
    (zero at the supports, largest at midspan) as nodal point loads that rise from 0 at
    t = 0 to their peak at 1 ms and fall back to 0 at 2 ms."""
    shape = [1.0 - abs(2.0 * k / n - 1.0) for k in range(1, n)]  # tributary loads ∝ w(x_k)
    pulse = [[0.0, 0.0], [1e-3, 1.0], [2e-3, 0.0]]
    loads = [{"node": f"N{k}", "fy": -SS_IMPULSE_PEAK * w / sum(shape), "history": pulse} for k, w in enumerate(shape, start=1)]
    return beam_line(
        n,
        SS_SPAN,
        E=STEEL_E,
        I=SS_I,
        A=SS_A,
        density=SS_MBAR / SS_A,
        supports=[{"node": "N0", "fix": ["x", "y"]}, {"node": f"N{n}", "fix": ["y"]}],
        loads=loads,
    )


def frequency_from_record(sim, spec, cycles=5, every=5, max_time=2.0):
    """Frequency [Hz] of the free vibration of `spec`: `cycles` full cycles between the
    first and the (2·cycles+1)-th zero crossing, each crossing placed by linear
    interpolation between samples taken every `every` steps."""
    probe = make_probe(sim, spec)
    crossings = []
    t_prev, y_prev = sim.time, probe()
    while len(crossings) < 2 * cycles + 1:
        assert sim.time < max_time, f"only {len(crossings)} zero crossings of {spec} in {max_time} s"
        sim.advance(every * sim.dt)
        t, y = sim.time, probe()
        if y_prev != 0.0 and (y < 0.0) != (y_prev < 0.0):
            crossings.append(t_prev - y_prev * (t - t_prev) / (y - y_prev))
        t_prev, y_prev = t, y
    return cycles / (crossings[-1] - crossings[0])


@pytest.mark.parametrize(("n", "seed_error"), [(2, 0.030), (4, 0.0079), (6, 0.0050)])
def test_simply_supported_beam_first_frequency(n, seed_error):
    """Seed 000 Table 1: the lumped model's error is 3.0 %, 0.79 %, 0.50 % for 2, 4, 6
    elements; ours must match or beat it (we measure 2.8 %, 0.60 %, 0.28 %, all low: the
    lumped rotational mass m̄L³/105 adds inertia and the discrete model is slightly soft)."""
    f_ss = math.pi / 2.0 * math.sqrt(STEEL_E * SS_I / (SS_MBAR * SS_SPAN**4))
    model = simply_supported_beam(n)
    # dt = 0.1 ms (Arcade's usual 0.1–0.5 ms) resolves the 2 ms pulse in 20 steps; the
    # estimated stable step is the 1 ms cap for the 2- and 4-element beams. RK4's period
    # error at ω₁ dt ≈ 0.005 is negligible.
    sim = Simulation(model, "rk4", dt=SS_DT)
    f = frequency_from_record(sim, f"node.N{n // 2}.dy")

    error = relative_error(f, f_ss)
    assert abs(error) <= seed_error, f"{n} elements: f = {f:.4f} Hz vs {f_ss:.4f} Hz, error {error:+.2%} (seed 000: {seed_error:.2%})"
    # The record is the model's own first mode: its period over 5 cycles, from
    # interpolated zero crossings, agrees with the linear eigenvalue of the same lumped
    # model to 0.03 % (measured); the peak deflection L/150 shifts it by < 0.01 %
    # (measured with a 100× smaller impulse). 0.1 % leaves room for both.
    f_model = lowest_frequency(model) / (2.0 * math.pi)
    assert abs(relative_error(f, f_model)) <= 1e-3, f"{n} elements: record {f:.5f} Hz vs model eigenvalue {f_model:.5f} Hz"


# ----------------------------------------------------------------------------------------
# 2. Euler buckling of a pinned column with an L/1000 imperfection (seed 000 Fig. 4)
#
# The 10-element co-rotational model buckles at P_n, slightly above P_cr: its geometric
# stiffness comes only from the axial force turning with each chord (a "string" term
# N/L_e), which for the half-sine mode is sin²(x)/x² of the continuum's with x = π/(2n).
# So P_n = P_cr · x²/sin²(x) = 1.0083 P_cr for n = 10 (the cubic bending part is exact
# for that mode; a linear buckling analysis of the model gives 1.00825). Below P_cr the
# δ0/(1 − P/P_cr) amplification therefore overestimates the model's deflection a little,
# and near P_cr the comparison must be made at P/P_n.

COL_L = 5.0  # [m]
COL_N = 10
COL_I = 1e-6  # [m⁴]
COL_A = 1e-3  # [m²]; P_cr/EA = 4e-4, so the column hardly shortens
COL_DELTA0 = COL_L / 1000.0
COL_PCR = math.pi**2 * STEEL_E * COL_I / COL_L**2
COL_PN = COL_PCR * (math.pi / (2 * COL_N)) ** 2 / math.sin(math.pi / (2 * COL_N)) ** 2
COL_RAMP = 1.0  # [s], 10 periods of the unloaded column's first mode (≈ 10 Hz)


def pinned_column(load_ratio):
    """Pinned at the base (x, y), roller at the top (x fixed, y free); a half sine of
    amplitude δ0 as initial out-of-straightness; the top load ramps from 0 to
    load_ratio·P_cr over COL_RAMP and is then held. Damping ratio 0.3 of the unloaded first
    mode (mass-proportional, so it vanishes at rest and leaves the equilibrium unchanged)."""
    return beam_line(
        COL_N,
        COL_L,
        E=STEEL_E,
        I=COL_I,
        A=COL_A,
        density=7850.0,
        vertical=True,
        offset=lambda s: COL_DELTA0 * math.sin(math.pi * s),
        supports=[{"node": "N0", "fix": ["x", "y"]}, {"node": f"N{COL_N}", "fix": ["x"]}],
        loads=[{"node": f"N{COL_N}", "fy": -load_ratio * COL_PCR, "history": [[0.0, 0.0], [COL_RAMP, 1.0]]}],
        damping=0.3,
    )


@functools.cache
def column_deflection(load_ratio):
    """δ [m] at rest under load_ratio·P_cr, reached along the quasi-static path: a slow
    ramp, then held until still."""
    sim = Simulation(pinned_column(load_ratio), "rk4", rest=STILL)
    sim.advance(COL_RAMP)
    outcome = sim.advance(20.0, until_rest=True)
    assert outcome.at_rest, f"column under {load_ratio} P_cr not at rest after 20 s"
    return sim.value(f"node.N{COL_N // 2}.x")


def imperfect_elastica_deflection(load_ratio, delta0_over_L):
    """δ/L of a pinned–pinned elastica with a stress-free half-sine initial shape of
    amplitude δ0, under load_ratio times its Euler load (inextensible, exact large
    rotations). With s the arc length over L, θ the angle from the column's axis and u the
    lateral offset over L: EI(θ' − θ0') = −P L² u, u' = sin θ; shoot on θ(0) so that u(1) = 0."""
    lam2 = load_ratio * math.pi**2

    def rhs(s, z):
        theta, u = z
        return [-delta0_over_L * math.pi**2 * math.sin(math.pi * s) - lam2 * u, math.sin(theta)]

    def solve(theta0):
        return solve_ivp(rhs, (0.0, 1.0), [theta0, 0.0], rtol=1e-10, atol=1e-12, dense_output=True)

    def top(theta0):
        return solve(theta0).y[1, -1]

    grid = np.geomspace(1e-4, 1.5, 60)
    values = [top(t) for t in grid]
    for a, b, fa, fb in zip(grid[:-1], grid[1:], values[:-1], values[1:], strict=True):
        if fa * fb < 0.0:
            return float(solve(brentq(top, a, b, xtol=1e-14)).sol(0.5)[1])
    raise AssertionError("no buckled shape found")


def test_column_deflection_below_pcr_follows_amplification():
    """(a) At 0.5 P_cr the response is near-linear: δ = δ0/(1 − P/P_cr) = 2 δ0. The
    brief's tolerance is 5 %; the model's 0.83 % stiffer buckling load makes it 0.83 %
    low, so 2 % is a fair bound, and against P_n (0.2 %) the model agrees to 0.05 %."""
    delta = column_deflection(0.5)
    assert abs(relative_error(delta, COL_DELTA0 / (1 - 0.5))) <= 0.02, f"δ = {delta / COL_DELTA0:.4f} δ0"
    assert abs(relative_error(delta, COL_DELTA0 / (1 - 0.5 * COL_PCR / COL_PN))) <= 0.002, f"δ = {delta / COL_DELTA0:.4f} δ0"


def test_column_load_deflection_curve_turns_over_at_pcr():
    """(b) At 0.9 P_cr the deflection is still bounded by the amplification formula
    (10 δ0; the model, buckling at P_n, gives 9.3 δ0: between 90 % and 100 % of it). At
    1.02 P_cr, 13 % more load, the column has buckled: its deflection is the elastica's,
    > 10× that at 0.9 P_cr (measured 13×), where a curve that had not turned over would
    have grown less than 5× (it grew 4.7× from 0.5 to 0.9 P_cr)."""
    d09, d102 = column_deflection(0.9), column_deflection(1.02)
    bound = COL_DELTA0 / (1 - 0.9)
    assert 0.9 * bound <= d09 <= bound, f"δ(0.9 P_cr) = {d09 / COL_DELTA0:.3f} δ0"
    assert d102 >= 10 * d09, f"δ(1.02 P_cr) = {d102 / d09:.2f} δ(0.9 P_cr)"
    # Post-buckled: the imperfect elastica at the model's own overload P/P_n gives
    # δ = 0.124 L (the perfect elastica at 1.02 P_cr also gives 0.124 L; at P/P_n, 0.096 L).
    # So close to P_cr, δ is steep in P (d ln δ / d ln P ≈ 25), so the 0.01 % uncertainty
    # of P_n and the column's 0.04 % shortening become ~1 %: 3 % (measured 0.5 %).
    reference = imperfect_elastica_deflection(1.02 * COL_PCR / COL_PN, COL_DELTA0 / COL_L) * COL_L
    assert abs(relative_error(d102, reference)) <= 0.03, f"δ(1.02 P_cr) = {d102 / COL_L:.4f} L, elastica {reference / COL_L:.4f} L"


# ----------------------------------------------------------------------------------------
# 3. Tip-loaded cantilever with large rotation (the elastica)

CANT_L = 2.0  # [m]
CANT_I = 1e-6  # [m⁴]
CANT_A = 1e-3  # [m²]; at α = 2, P/EA = 5e-4: the extensibility floor of the comparison
CANT_ALPHA = 2.0  # tip rotation 45°
CANT_RAMP = 0.2  # [s], about 4 periods of the unloaded first mode (22 Hz)


@functools.cache
def cantilever_elastica(alpha):
    """(δv/L, δh/L, θ) at the tip of an inextensible cantilever under a vertical dead load
    with PL²/EI = α. With s the arc length over L and θ the slope: θ'' = −α cos θ,
    θ(0) = 0, θ'(1) = 0 (no moment at the tip); x' = cos θ, y' = sin θ. Shooting on θ'(0)."""

    def rhs(s, z):
        theta, kappa, _, _ = z
        return [kappa, -alpha * math.cos(theta), math.cos(theta), math.sin(theta)]

    def tip(kappa0):
        return solve_ivp(rhs, (0.0, 1.0), [0.0, kappa0, 0.0, 0.0], rtol=1e-12, atol=1e-14).y[:, -1]

    # θ'(0) is the root moment over EI/L, between 0 and the small-deflection value α.
    theta, _, x, y = tip(brentq(lambda k: tip(k)[1], 0.0, alpha, xtol=1e-14))
    return float(y), float(1.0 - x), float(theta)


@pytest.mark.parametrize(
    ("alpha", "table"),
    [(1.0, (0.3017, 0.0564)), (2.0, (0.4935, 0.1606)), (3.0, (0.6032, 0.2544))],
)
def test_elastica_reference_matches_tabulated_values(alpha, table):
    """The shooting solution reproduces the classic tables (Bisshopp & Drucker 1945) to
    their last digit. The brief quoted δh/L = 0.0566 at α = 1; the ODE gives 0.05643."""
    dv, dh, _ = cantilever_elastica(alpha)
    assert dv == pytest.approx(table[0], abs=1e-4)
    assert dh == pytest.approx(table[1], abs=1e-4)


def cantilever(n, damping=0.0):
    """Fixed root (x, y, rot) at N0, a downward tip load P = α EI/L² at Nn that ramps up
    over CANT_RAMP and is then held (relax uses its final value)."""
    load = CANT_ALPHA * STEEL_E * CANT_I / CANT_L**2
    return beam_line(
        n,
        CANT_L,
        E=STEEL_E,
        I=CANT_I,
        A=CANT_A,
        density=7850.0,
        supports=[{"node": "N0", "fix": ["x", "y", "rot"]}],
        loads=[{"node": f"N{n}", "fy": -load, "history": [[0.0, 0.0], [CANT_RAMP, 1.0]]}],
        damping=damping,
    )


def tip_of(sim, n):
    """(δv/L, δh/L, θ) at the tip; θ is positive clockwise like the elastica's slope."""
    tip = sim.results()["nodes"][f"N{n}"]
    return -tip["y"] / CANT_L, (CANT_L - tip["x"]) / CANT_L, -tip["rot"]


def cantilever_tolerance(n):
    """Observed errors fall as 1/n² (0.74 %, 0.26 %, 0.13 % at n = 4, 8, 16 on the worst
    component, δh) over a floor of ~0.1 % from the axial stretch P/EA. Bound: 1.2 %·(4/n)²
    plus 0.15 %, i.e. 1.35 %, 0.45 %, 0.23 %."""
    return 0.012 * (4 / n) ** 2 + 0.0015


@functools.cache
def cantilever_at_rest_by_dynamics(n):
    """The tip at rest after the load ramps up slowly, with damping ratio 0.7 of the first
    mode: the physical quasi-static path (mass-proportional damping leaves the
    equilibrium itself unchanged)."""
    sim = Simulation(cantilever(n, damping=0.7), "rk4", rest=STILL)
    sim.advance(CANT_RAMP)
    outcome = sim.advance(10.0, until_rest=True)
    assert outcome.at_rest, f"{n}-element cantilever not at rest after 10 s"
    return tip_of(sim, n)


def test_cantilever_large_deflection_converges_to_elastica():
    """α = 2 (tip rotation 45°), 4, 8, 16 elements, static equilibrium reached by damped
    RK4: the answer converges (each halving of the element length cuts the change at
    least 2.5×; second-order convergence gives 4×) and matches the elastica within
    cantilever_tolerance(n)."""
    reference = cantilever_elastica(CANT_ALPHA)
    tips = {n: cantilever_at_rest_by_dynamics(n) for n in (4, 8, 16)}
    for n, tip in tips.items():
        for name, value, ref in zip(("δv/L", "δh/L", "θ"), tip, reference, strict=True):
            err = relative_error(value, ref)
            assert abs(err) <= cantilever_tolerance(n), f"{n} elements: {name} = {value:.5f} vs elastica {ref:.5f} ({err:+.2%})"
    for k in range(3):
        change_coarse = abs(tips[8][k] - tips[4][k])
        change_fine = abs(tips[16][k] - tips[8][k])
        assert change_fine * 2.5 <= change_coarse, f"component {k}: changes {change_coarse:.2e} then {change_fine:.2e}"


@pytest.mark.parametrize("n", [4, 8, 16])
def test_cantilever_large_deflection_by_relax(n):
    """Dynamic relaxation must land on the same equilibrium as the damped dynamics, and
    therefore on the elastica within cantilever_tolerance(n)."""
    sim = Simulation(cantilever(n), "relax")
    outcome = sim.relax()
    tip = tip_of(sim, n)
    assert np.isfinite(tip).all(), f"relax returned at_rest={outcome.at_rest} with the tip at {tip}"
    assert outcome.at_rest
    for name, value, ref in zip(("δv/L", "δh/L", "θ"), tip, cantilever_elastica(CANT_ALPHA), strict=True):
        err = relative_error(value, ref)
        assert abs(err) <= cantilever_tolerance(n), f"{n} elements: {name} = {value:.5f} vs elastica {ref:.5f} ({err:+.2%})"
