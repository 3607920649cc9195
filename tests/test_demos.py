"""The demo levels against closed-form physics.

A demo is a scripted model that the student watches, graphs and pokes at; it has no goal,
so what must be checked is that it shows what its brief says, and shows it right. Each
demo runs as shipped (the pendulum's damping aside, see there) and is measured against a
closed-form answer, never against the engine's own earlier output:

- demo-portal-unbraced, demo-portal-braced (seed 000, Figs 4 and 5): the buckling load,
  read off the level's own load ramp with a Southwell plot, against the characteristic
  equations of a portal with pinned feet and a flexible beam, sway and non-sway;
- demo-beam-vibration (seed 000, Table 1): the frequency of the free vibration after the
  load is let go, against Euler–Bernoulli's f = (π/2)√(EI/(m̄L⁴)), within the seed's
  error for six elements;
- demo-plate-pendulum (seed 000, Fig. 7): the period of the swinging plate against the
  physical pendulum, 2π√(I/(m g d)) for small swings and 4K√(I/(m g d)) for the level's
  swing from level;
- demo-ground-motion: the sway frequency against √(k/m) of the frame's sideways
  stiffness and mass, and the peak drift against the single-degree-of-freedom response
  to the level's ground acceleration.

Glossary (SI throughout):
    E      Young's modulus [Pa]; I second moment of area [m⁴]; A area [m²]
    h      column height [m]; L beam span [m]; I_c, I_g column and beam (girder) I
    u      h·√(P/(E I_c)), the column's load parameter; P_cr = u² E I_c / h²
    P      vertical load on each column top [N] (the level's load times its history)
    δ, δ0  growth of the imperfection under load, and the imperfection itself [m]
    m̄      mass per unit length [kg/m]; f frequency [Hz]; ω = 2πf [rad/s]
    ζ      damping ratio of the lowest mode (world.damping)
    θ0     the pendulum's swing amplitude from the downward vertical [rad]
    I_p    the plate's moment of inertia about its pin [kg m²]; d pin to centre of mass [m]
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, curve_fit
from scipy.special import ellipk

from equilibria.cli.main import main
from equilibria.course.level import schema_errors
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation
from equilibria.files.store import read_json

LEVELS = Path(__file__).resolve().parents[1] / "levels"
# Each demo and the seconds of its show: what a student watches in real time.
DEMOS = {
    "demo-portal-unbraced": 15.0,
    "demo-portal-braced": 15.0,
    "demo-beam-vibration": 8.0,
    "demo-plate-pendulum": 20.0,
    "demo-ground-motion": 15.0,
}


def level(name: str) -> dict:
    return read_json(LEVELS / f"{name}.json")


def history_of(load: dict):
    """The scale factor of a load over time (held at the ends, like the engine's)."""
    points = np.array(load["history"], dtype=float)
    return lambda t: np.interp(t, points[:, 0], points[:, 1])


def relative_error(value, reference):
    return (value - reference) / reference


# ----------------------------------------------------------------------------------------
# Every demo: a valid level that runs stably for its whole show


@pytest.mark.parametrize("name", DEMOS)
def test_demo_validates(name, capsys):
    code = main(["validate", str(LEVELS / f"{name}.json")])
    assert code == 0, capsys.readouterr().err


@pytest.mark.parametrize("name", DEMOS)
def test_demo_has_the_fields_of_a_demo(name):
    data = level(name)
    assert schema_errors(data) == []
    assert data["format"] == 1 and data["id"] == name and data["kind"] == "demo"
    assert data["title"] and data["brief"] and data["explanation"]
    assert 1 <= len(data["hints"]) <= 3
    assert data["player"] == {} and "goal" not in data


@pytest.mark.parametrize("name", DEMOS)
def test_demo_runs_stably_through_its_show(name, capsys):
    """`equilibria simulate` takes a level file as a model: the whole show runs without
    going unstable (the portals collapse on the way, violently) and ends finite."""
    code = main(["simulate", str(LEVELS / f"{name}.json"), "--seconds", str(DEMOS[name]), "--every", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and "unstable" not in out, out.get("unstable")
    assert out["time"] == pytest.approx(DEMOS[name], abs=1e-3)
    assert all(math.isfinite(v) for node in out["nodes"].values() for v in node.values())
    assert out["warnings"] == []


# ----------------------------------------------------------------------------------------
# Portal frames (seed 000, Figs 4 and 5)
#
# Columns pinned at their feet, rigidly joined to a flexible beam, a load P on each top
# corner. The column is a beam-column of load parameter u; the beam restrains its top.
# Sway (unbraced): the beam bends in double curvature and holds each top with 6EI_g/L;
# a column pinned at the foot, its top free to sway and held by a spring k, buckles when
# u tan u = kh/(E I_c), so u tan u = 6 (I_g/L)/(I_c/h). Non-sway (braced): the beam bends
# in single curvature, 2EI_g/L; a column pinned at the foot, its top held in place, resists
# a top rotation with (E I_c/h) u² tan u/(tan u − u), which falls through zero past u = π;
# buckling where the two add to zero. (A frame analysis with the consistent geometric
# stiffness, 40 elements a member, gives both loads within 0.05 %; the rest is the
# members' axial shortening.)
#
# Each level ramps P slowly (buckling after ~9 s; the lowest sway mode of the unbraced
# frame is 2.4 Hz, 15 Hz for the braced one), so the response is quasi-static and a
# Southwell plot of the ramp reads the buckling load: with δ the growth of the
# imperfection δ0 in the buckling mode, δ = δ0 (P/P_cr)/(1 − P/P_cr), a straight line
# δ/P = δ/P_cr + δ0/P_cr. It is fitted between 0.5 and 0.9 of the closed-form load.

RAMP_SAMPLE = 0.05  # [s]
RAMP_END = 12.0  # [s], both levels: the load then stands at 1.2 times its nominal value


def portal_dimensions(data: dict) -> tuple[float, float, float, float, float]:
    """(E, I_c, h, I_g, L) read from the level: column L1, beam T1, corners A, B, C."""
    nodes = {n["id"]: n for n in data["nodes"]}
    members = {m["id"]: m for m in data["members"]}
    E = data["materials"][members["L1"]["material"]]["E"]
    h = nodes["B"]["y"] - nodes["A"]["y"]
    span = nodes["C"]["x"] - nodes["B"]["x"]
    return E, members["L1"]["I"], h, members["T1"]["I"], span


def sway_buckling_load(E, Ic, h, Ig, span):
    g = 6.0 * (Ig / span) / (Ic / h)
    u = brentq(lambda u: u * math.tan(u) - g, 1e-9, math.pi / 2 - 1e-12)
    return u * u * E * Ic / h**2


def nonsway_buckling_load(E, Ic, h, Ig, span):
    g = 2.0 * (Ig / span) / (Ic / h)
    # Between u = π (a beam of no stiffness: pinned-pinned) and 4.4934, tan u = u (a beam
    # infinitely stiff: pinned-fixed).
    u = brentq(lambda u: u * u * math.tan(u) / (math.tan(u) - u) + g, math.pi + 1e-9, 4.4934)
    return u * u * E * Ic / h**2


@functools.cache
def portal_ramp(name: str) -> dict:
    """The level as shipped, sampled every RAMP_SAMPLE s up to RAMP_END: time, load P on
    each column, drift of B beyond its initial position, and bow of the left column: its
    mid-height node A4 measured from the chord A–B, outwards (−x) positive, beyond its
    initial bow."""
    data = level(name)
    model = build_model(data)
    sim = Simulation(model, "rk4")
    load = data["loads"][0]
    scale = history_of(load)
    q = {n: model.node_index(n) for n in ("A", "A4", "B")}

    def bow(pos):
        return -(pos[q["A4"], 0] - 0.5 * (pos[q["A"], 0] + pos[q["B"], 0]))

    bow0, x0 = bow(model.arrays.pos0), model.arrays.pos0[q["B"], 0]
    rows = []
    while sim.time < RAMP_END - 1e-9:
        sim.advance(RAMP_SAMPLE)
        pos = sim.state.pos
        rows.append((sim.time, abs(load["fy"]) * scale(sim.time), pos[q["B"], 0] - x0, bow(pos) - bow0))
    t, P, drift, bowing = np.array(rows).T
    return {"t": t, "P": P, "drift": drift, "bow": bowing}


def southwell(P, delta, P_ref, lo=0.5, hi=0.9):
    """(P_cr, δ0) from the line δ/P = δ/P_cr + δ0/P_cr fitted where lo ≤ P/P_ref ≤ hi."""
    m = (P >= lo * P_ref) & (P <= hi * P_ref)
    assert m.sum() >= 20, f"only {m.sum()} samples in the Southwell window"
    slope, intercept = np.polyfit(delta[m], delta[m] / P[m], 1)
    return 1.0 / slope, intercept / slope


def test_unbraced_portal_buckles_by_sway_at_the_closed_form_load():
    """The unbraced frame (HEA 120 columns 5 m, IPE 160 beam 6 m): closed form 92.4 kN per
    column; Southwell reads 93.0 kN (+0.65 %). What makes up the difference, measured on
    copies of the level: without gravity +1.6 % (the frame's own weight, ~1 kN on each
    column top and some along it, buckles it ~1 % sooner); with the ramp 4 times slower
    −0.6 % (the ramp's lag behind the static response reads 1.3 % high); both, +0.5 %: the
    8-element columns' +0.14 % (the co-rotational element's geometric stiffness comes
    from its chord turning only) and the fit's own bias. Tolerance 3 %."""
    data = level("demo-portal-unbraced")
    E, Ic, h, Ig, span = portal_dimensions(data)
    p_cr = sway_buckling_load(E, Ic, h, Ig, span)
    ramp = portal_ramp("demo-portal-unbraced")
    p_fit, delta0 = southwell(ramp["P"], ramp["drift"], p_cr)
    assert abs(relative_error(p_fit, p_cr)) <= 0.03, f"Southwell {p_fit / 1e3:.2f} kN vs closed form {p_cr / 1e3:.2f} kN"
    # The imperfection the fit infers is the level's lean of h/1000 at the top (measured
    # 4.7 mm of 5.0: a straight lean is not quite the buckling mode's shape): within 15 %.
    nodes = {n["id"]: n for n in data["nodes"]}
    lean = nodes["B"]["x"] - nodes["A"]["x"]
    assert abs(relative_error(delta0, lean)) <= 0.15, f"δ0 = {delta0 * 1e3:.2f} mm vs lean {lean * 1e3:.2f} mm"
    # What the student sees: drift about the lean at half the load (δ0 (P/P_cr)/(1 − P/P_cr)
    # = δ0), and the frame fallen over once the load has passed P_cr (measured: B 4.9 m over).
    half = np.argmin(abs(ramp["P"] - 0.5 * p_cr))
    assert ramp["drift"][half] <= 1.5 * lean
    assert ramp["drift"][-1] >= h / 2, f"drift {ramp['drift'][-1]:.3f} m at P = {ramp['P'][-1] / p_cr:.2f} P_cr"


def test_braced_portal_buckles_without_sway_far_above_the_unbraced():
    """The braced frame: closed form 645.6 kN per column, 7.0 times the unbraced frame's;
    Southwell on the left column's bow reads 655 kN (+1.5 %). Measured on copies: without
    gravity +0.75 % (the beam's weight turns the column tops and bends the columns against
    their outward bow, which the fit reads as a stiffer column), with the ramp 4 times
    slower +1.4 %, both +0.7 %. The 8-element columns buckle high in this wavier mode
    (u = 3.65): (x/sin x)² = +1.75 % for a sine, x = u/2n. Tolerance 3 %. The left column
    is measured because the brace's push (it shortens with the columns) lands on the
    right one's top."""
    E, Ic, h, Ig, span = portal_dimensions(level("demo-portal-braced"))
    p_nonsway = nonsway_buckling_load(E, Ic, h, Ig, span)
    p_sway = sway_buckling_load(E, Ic, h, Ig, span)
    ramp = portal_ramp("demo-portal-braced")
    p_fit, _ = southwell(ramp["P"], ramp["bow"], p_nonsway)
    assert abs(relative_error(p_fit, p_nonsway)) <= 0.03, f"Southwell {p_fit / 1e3:.1f} kN vs closed form {p_nonsway / 1e3:.1f} kN"
    p_unbraced, _ = southwell(*(portal_ramp("demo-portal-unbraced")[k] for k in ("P", "drift")), p_sway)
    assert p_fit >= 5.0 * p_unbraced, f"braced {p_fit / 1e3:.0f} kN, unbraced {p_unbraced / 1e3:.1f} kN"
    # Non-sway: at 0.9 P_cr the column's bow has grown by 40 mm (δ0·0.9/(1 − 0.9) = 45 mm)
    # while the top has drifted less than h/500 (measured 6.4 mm, from the brace shortening
    # with the columns); the unbraced frame drifted 38 mm at 0.9 of its own, far smaller, load.
    near = np.argmin(abs(ramp["P"] - 0.9 * p_nonsway))
    assert ramp["bow"][near] >= 5 * h / 1000
    assert abs(ramp["drift"][near]) <= h / 500, f"drift {ramp['drift'][near] * 1e3:.1f} mm at 0.9 P_cr"
    assert abs(ramp["bow"][-1]) >= h / 10 or abs(ramp["drift"][-1]) >= h / 2, "the braced frame did not buckle by the end of the ramp"


# ----------------------------------------------------------------------------------------
# Vibrating beam (seed 000, Table 1)
#
# Englekirk's beam as seed 000 uses it: span 9.14 m, I = 454e-6 m⁴, 52.4 kN in all, on a
# pin and a roller, six elements. The level presses the midspan down with 250 kN, holds,
# and lets go at once; the beam then vibrates freely about its shape under its own weight.


def damped_sine(t, c, a, sigma, omega, phi):
    return c + a * np.exp(-sigma * t) * np.cos(omega * t + phi)


def test_beam_first_frequency_matches_euler_bernoulli_within_the_seeds_error():
    """f = (π/2)√(EI/(m̄L⁴)) = 7.412 Hz; the free vibration gives 7.392 Hz (−0.27 %).
    Seed 000's Table 1 measured −0.50 % with six elements; ours must do as well (the
    lumped model is slightly soft, and the rotational mass m̄L³/105 adds a little inertia).

    The frequency comes from a damped sine plus offset fitted to ten cycles of the
    midspan's height, sampled every step; the offset absorbs the sag under self-weight,
    and the fit, unlike zero crossings of the velocity, is not thrown by the 1 % of third
    mode that the release sets going. The damping it finds is the level's ζ (2 % of the
    lowest mode) within 10 %: mass-proportional damping of that mode is exactly a damped
    oscillator's."""
    data = level("demo-beam-vibration")
    beam = data["members"][0]
    material = data["materials"][beam["material"]]
    E, density = material["E"], material["density"]
    xs = [n["x"] for n in data["nodes"]]
    span, mbar = max(xs) - min(xs), density * beam["A"]
    f_ss = math.pi / 2 * math.sqrt(E * beam["I"] / (mbar * span**4))
    load = data["loads"][0]
    release = load["history"][-1][0]
    assert load["history"][-1][1] == 0.0

    model = build_model(data)
    sim = Simulation(model, "rk4")
    q = model.node_index(load["node"])
    sim.advance(release + 0.05)
    t0 = sim.time
    ts, ys = [], []
    while sim.time < t0 + 10.0 / f_ss:
        sim.advance(sim.dt)
        ts.append(sim.time - t0)
        ys.append(sim.state.pos[q, 1])
    ts, ys = np.array(ts), np.array(ys)
    # Start the fit from the linear least-squares phase and amplitude at the closed-form
    # frequency and damping.
    omega0, sigma0 = 2 * math.pi * f_ss, data["world"]["damping"] * 2 * math.pi * f_ss
    basis = np.column_stack([np.ones_like(ts), np.exp(-sigma0 * ts) * np.cos(omega0 * ts), np.exp(-sigma0 * ts) * np.sin(omega0 * ts)])
    c, ca, sa = np.linalg.lstsq(basis, ys, rcond=None)[0]
    (_, a, sigma, omega_d, _), _ = curve_fit(damped_sine, ts, ys, p0=[c, math.hypot(ca, sa), sigma0, omega0, math.atan2(-sa, ca)])
    omega_n = math.hypot(omega_d, sigma)
    f = omega_n / (2 * math.pi)
    error = relative_error(f, f_ss)
    assert abs(error) <= 0.005, f"f = {f:.4f} Hz vs Euler–Bernoulli {f_ss:.4f} Hz ({error:+.2%}; seed 000 Table 1: 0.50 %)"
    assert abs(a) >= 0.02, f"amplitude {abs(a) * 1e3:.1f} mm: too small to see"
    zeta = sigma / omega_n
    assert abs(relative_error(zeta, data["world"]["damping"])) <= 0.1, f"ζ = {zeta:.4f}"


# ----------------------------------------------------------------------------------------
# Plate pendulum (seed 000, Fig. 7)
#
# The seed's concrete diamond (n1–n3 6.10 m, n2–n4 3.03 m, 152 mm thick, 23.5 kN/m³) in
# 72 constant-strain triangles, pinned at n1, swinging under gravity. A rigid body on a
# pin: θ'' = −(m g d/I_p) sin θ, so T = 4 K(sin²(θ0/2)) √(I_p/(m g d)), which is
# 2π√(I_p/(m g d)) (1 + θ0²/16 + …) for small swings (K: complete elliptic integral of
# the first kind, of parameter sin²(θ0/2)). For the diamond I_p = m (p² + q²)/24 + m d²,
# p and q its diagonals, d = p/2. The model lumps a third of each triangle's mass on each
# of its nodes; for this diamond in an n × n mesh that raises I_p by 0.448/n² (1.24 % at
# n = 6), so the model's period is 0.62 % above the continuum's. Against the rigid body of the model's
# own lumped masses (I_p = Σ m_i r_i², the same formula) the period must agree closely.
#
# Damping is switched off: the formulas are undamped, and the level's light mass damping
# (α = 0.04 /s, ζ ≈ 1 %) lowers the swing as it goes, which shortens a large swing's period.


def plate_pendulum(theta0: float | None) -> tuple[dict, tuple[float, float]]:
    """The level, undamped, turned about its pin so that its axis n1–n3 starts θ0 from the
    downward vertical (None: as shipped); and the pin's position."""
    data = level("demo-plate-pendulum")
    data["world"]["mass_damping"] = 0.0
    nodes = {n["id"]: n for n in data["nodes"]}
    px, py = nodes["n1"]["x"], nodes["n1"]["y"]
    if theta0 is not None:
        turn = theta0 - pendulum_angle(nodes["n3"]["x"] - px, nodes["n3"]["y"] - py)
        c, s = math.cos(turn), math.sin(turn)
        for n in data["nodes"]:
            x, y = n["x"] - px, n["y"] - py
            n["x"], n["y"] = px + c * x - s * y, py + s * x + c * y
    return data, (px, py)


def pendulum_angle(dx: float, dy: float) -> float:
    """Angle of the arm (dx, dy) from the downward vertical, counter-clockwise positive."""
    return math.atan2(dx, -dy)


def pendulum_period_measured(data: dict, pivot: tuple[float, float]) -> tuple[float, float, float, float, float]:
    """(period, θ0, m, d, I_p of the lumped masses) of the model: the period is the time
    between the first and third passes of n3 through the vertical below the pin, each
    placed by linear interpolation (the angle is straightest there)."""
    model = build_model(data)
    sim = Simulation(model, "rk4")
    px, py = pivot
    q = model.node_index("n3")

    def angle():
        return pendulum_angle(sim.state.pos[q, 0] - px, sim.state.pos[q, 1] - py)

    theta0 = abs(angle())
    crossings = []
    t_prev, a_prev = sim.time, angle()
    while len(crossings) < 3:
        assert sim.time < 20.0, f"only {len(crossings)} passes through the vertical in 20 s"
        sim.advance(0.005)
        t, a = sim.time, angle()
        if (a < 0.0) != (a_prev < 0.0) and abs(a - a_prev) < math.pi:
            crossings.append(t_prev - a_prev * (t - t_prev) / (a - a_prev))
        t_prev, a_prev = t, a
    m = model.arrays.mass[:, 0]
    pos = model.arrays.pos0[:, :2] - np.array(pivot)
    mass = float(m.sum())
    d = float(np.hypot(*(m[:, None] * pos).sum(axis=0) / mass))
    inertia = float((m * (pos**2).sum(axis=1)).sum())
    return crossings[2] - crossings[0], theta0, mass, d, inertia


@pytest.mark.parametrize("swing", [math.radians(5.0), None], ids=["small swing 5 degrees", "as shipped, from level"])
def test_plate_pendulum_period_matches_the_physical_pendulum(swing):
    """Measured (6 × 6 mesh): 3.8760 s at 5° and 4.5729 s from level; continuum closed
    forms 3.8521 s and 4.5446 s (+0.62 %, the lumping above), the lumped rigid body's
    3.8760 s and 4.5728 s (< 0.002 %). Tolerances: 1 % against the continuum (the lumping's
    0.62 % and the mass and geometry's rounding); 0.05 % against the lumped rigid body
    (the plate stretches by ~1e-5 under its own swing, and the crossings' interpolation)."""
    data, pivot = plate_pendulum(swing)
    period, theta0, mass, d, inertia_lumped = pendulum_period_measured(data, pivot)
    nodes = {n["id"]: n for n in data["nodes"]}
    p = math.dist((nodes["n1"]["x"], nodes["n1"]["y"]), (nodes["n3"]["x"], nodes["n3"]["y"]))
    q = math.dist((nodes["n2"]["x"], nodes["n2"]["y"]), (nodes["n4"]["x"], nodes["n4"]["y"]))
    tri = data["triangles"][0]
    density, thickness = data["materials"][tri["material"]]["density"], tri["t"]
    m_cont = density * thickness * p * q / 2
    inertia_cont = m_cont * (p * p + q * q) / 24 + m_cont * (p / 2) ** 2
    g = data["world"]["gravity"]
    assert mass == pytest.approx(m_cont, rel=1e-9) and d == pytest.approx(p / 2, rel=1e-9)

    def period_of(inertia):
        return 4.0 * ellipk(math.sin(theta0 / 2) ** 2) * math.sqrt(inertia / (m_cont * g * (p / 2)))

    small = 2 * math.pi * math.sqrt(inertia_cont / (m_cont * g * (p / 2)))
    cont, lumped = period_of(inertia_cont), period_of(inertia_lumped)
    assert abs(relative_error(period, cont)) <= 0.01, f"T = {period:.4f} s vs {cont:.4f} s (small-swing 2π√(I/mgd) = {small:.4f} s)"
    assert abs(relative_error(period, lumped)) <= 5e-4, f"T = {period:.5f} s vs lumped rigid body {lumped:.5f} s"
    if swing is None:  # the level's swing, from level: 18 % slower than a small one
        assert theta0 == pytest.approx(math.pi / 2, abs=1e-9)
        assert period >= 1.15 * small


# ----------------------------------------------------------------------------------------
# Portal frame under ground motion
#
# Fixed feet, a 20 t roof lumped on the top corners, columns I_c of height h, a beam I_g
# of span L. With ρ = (I_g/L)/(I_c/h), slope-deflection for a drift Δ (both top joints
# turning by τΔ/h, τ = 6/(4 + 6ρ)) gives the sideways stiffness
#     k = (24 E I_c/h³)(1 + 6ρ)/(4 + 6ρ)
# (24EI/h³ for a rigid beam, 6EI/h³ for none). Each column then bends as
# v(s) = Δ[(3 − τ)s² + (τ − 2)s³], s = y/h, and by Rayleigh's quotient with that shape
#     the weight P on each column top softens it:  k_eff = k − 2 P c/h,  c = ∫v'² ds/Δ²·h
#     the columns add mass:                         m = m_roof + m_beam + 2 m_col ∫v² ds/Δ²
# (c = 1.15 and ∫v² = 0.34 here). ω = √(k_eff/m). The frame is then a single-degree-of-
# freedom oscillator, ü + 2ζωu̇ + ω²u = −a_g(t), for the drift u relative to the ground.
# (The model's own lowest eigenvalue, without gravity, is within 0.1 % of √(k/m).)

GM_SAMPLE = 0.002  # [s]


def sway_closed_form(data: dict) -> float:
    """ω [rad/s] of the frame's sway, gravity's softening included."""
    nodes = {n["id"]: n for n in data["nodes"]}
    members = {m["id"]: m for m in data["members"]}
    col, beam = members["L1"], members["T1"]
    steel = data["materials"][col["material"]]
    E = steel["E"]
    h = nodes["B"]["y"] - nodes["A"]["y"]
    span = nodes["C"]["x"] - nodes["B"]["x"]
    rho = (beam["I"] / span) / (col["I"] / h)
    tau = 6.0 / (4.0 + 6.0 * rho)
    k = 24.0 * E * col["I"] / h**3 * (1.0 + 6.0 * rho) / (4.0 + 6.0 * rho)
    a2, a3 = 3.0 - tau, tau - 2.0  # v/Δ = a2 s² + a3 s³
    c = 4 * a2**2 / 3 + 3 * a2 * a3 + 9 * a3**2 / 5  # ∫ v'² ds
    v2 = a2**2 / 5 + a2 * a3 / 3 + a3**2 / 7  # ∫ v² ds
    m_roof = nodes["B"].get("mass", 0.0) + nodes["C"].get("mass", 0.0)
    m_beam = steel["density"] * beam["A"] * span
    m_col = steel["density"] * col["A"] * h
    weight_on_top = (m_roof + m_beam) / 2 * data["world"]["gravity"]
    k_eff = k - 2.0 * weight_on_top * c / h
    return math.sqrt(k_eff / (m_roof + m_beam + 2.0 * m_col * v2))


@functools.cache
def ground_motion_run() -> tuple[np.ndarray, np.ndarray]:
    """(t, drift of B relative to the ground) of the level as shipped over its show."""
    model = build_model(level("demo-ground-motion"))
    sim = Simulation(model, "rk4")
    q = model.node_index("B")
    x0 = model.arrays.pos0[q, 0]
    ts, us = [0.0], [0.0]
    while sim.time < DEMOS["demo-ground-motion"] - 1e-9:
        sim.advance(GM_SAMPLE)
        ts.append(sim.time)
        us.append(sim.state.pos[q, 0] - x0)
    return np.array(ts), np.array(us)


def test_ground_motion_frame_sways_at_its_closed_form_frequency():
    """Free vibration after the shaking: five cycles between zero crossings give 1.36 Hz;
    the closed form √(k_eff/m)/2π·√(1 − ζ²) gives 1.361 Hz. Tolerance 1 %: the closed form
    leaves out the members' axial give (0.1 %, from the model's eigenvalue) and takes the
    columns' sway shape from statics (a Rayleigh estimate, high by < 0.1 %)."""
    data = level("demo-ground-motion")
    omega = sway_closed_form(data)
    zeta = data["world"]["damping"]
    f_cf = omega * math.sqrt(1 - zeta**2) / (2 * math.pi)
    ts, us = ground_motion_run()
    shaking_ends = data["world"]["ground_motion"]["ax"][-1][0]
    free = ts >= shaking_ends + 0.25
    t, u = ts[free], us[free]
    flips = np.flatnonzero(np.sign(u[1:]) != np.sign(u[:-1]))
    crossings = t[flips] - u[flips] * (t[flips + 1] - t[flips]) / (u[flips + 1] - u[flips])
    assert len(crossings) >= 11, f"only {len(crossings)} zero crossings after the shaking"
    f = 5.0 / (crossings[10] - crossings[0])
    assert abs(relative_error(f, f_cf)) <= 0.01, f"sway {f:.4f} Hz vs closed form {f_cf:.4f} Hz"


def test_ground_motion_peak_drift_matches_the_single_degree_of_freedom_response():
    """The drift of the roof against ü + 2ζωu̇ + ω²u = −a_g(t), with the level's own
    piecewise-linear a_g and ω from the closed form: peak 40.0 mm, measured 39.9 mm
    (−0.2 %), at any time of the show. Tolerance 3 %: the peak four cycles into
    near-resonance is sensitive to the frequency (1 % off in ω moves it ~1.5 %), and the
    model's mass damping is tuned to its frequency without gravity's softening, 1.8 %
    higher (ζ a little above 2 %)."""
    data = level("demo-ground-motion")
    omega = sway_closed_form(data)
    zeta = data["world"]["damping"]
    ag = np.array(data["world"]["ground_motion"]["ax"], dtype=float)
    ts, us = ground_motion_run()

    def sdof(t, z):
        return [z[1], -2 * zeta * omega * z[1] - omega**2 * z[0] - np.interp(t, ag[:, 0], ag[:, 1])]

    # The level shakes near resonance: its a_g's cycles (counted by their crests) per
    # second of shaking are within 5 % of the frame's frequency.
    moving = np.flatnonzero(ag[:, 1] != 0.0)
    start, end = ag[moving[0] - 1, 0], ag[moving[-1] + 1, 0] if moving[-1] + 1 < len(ag) else ag[-1, 0]
    crests = sum(1 for a, b, c in zip(ag[:-2, 1], ag[1:-1, 1], ag[2:, 1], strict=True) if b > 0 and b >= a and b > c)
    assert abs(relative_error(crests / (end - start), omega / (2 * math.pi))) <= 0.05, f"{crests} cycles in {end - start:.2f} s"
    ref = solve_ivp(sdof, (0.0, ts[-1]), [0.0, 0.0], t_eval=ts, max_step=GM_SAMPLE, rtol=1e-9, atol=1e-12).y[0]
    peak, peak_ref = np.abs(us).max(), np.abs(ref).max()
    assert abs(relative_error(peak, peak_ref)) <= 0.03, f"peak drift {peak * 1e3:.2f} mm vs SDOF {peak_ref * 1e3:.2f} mm"
    assert peak >= 0.03, "the sway is too small to see"
