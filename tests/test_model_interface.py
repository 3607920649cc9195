"""The model interface of `equilibria simulate` (issue 17, point 7): initial velocities,
the rotation records, records at the exact --every times, a mechanism's exit code, I = 0
where no one reads it, and several load factors in one call. Every figure is checked
against a closed form: a mass on a spring (x = (v0/ω) sin ωt), a rotational spring
(θ = (ω0/ω) sin ωt) and a bar pulled along its axis (u = FL/EA)."""

import json
import math

import numpy as np
import pytest
from builders import BRIDGE_FORCES, bridge_truss, member, model

from equilibria.cli.main import main

MASS = 1000.0  # [kg] on the spring's free end
OMEGA = 2.0 * math.pi  # [rad/s]: a period of 1 s
AREA = 1e-3  # [m²]
SPRING_E = MASS * OMEGA**2 / AREA  # [Pa]: EA/L = m ω² with L = 1 m
V0 = 0.02  # [m/s] the mass's initial velocity


def run(args: list[str], capsys) -> tuple[int, dict | None, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else None), err


def write(tmp_path, data: dict, name: str = "model.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def spring_mass(**node_b) -> dict:
    """A 1 m bar along x from a pin A to B, which slides along x with MASS on it; the
    bar is massless, so k = EA/L = m ω² and B moves as a mass on a spring."""
    nodes = [("A", 0.0, 0.0), ("B", 1.0, 0.0, {"mass": MASS, **node_b})]
    supports = [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}]
    return model(nodes, [member("AB", "A", "B", A=AREA)], supports, materials={"steel": {"E": SPRING_E}})


# ---------------------------------------------------------------- initial velocities


@pytest.mark.parametrize(("integrator", "dt", "tol"), [("rk4", "0.0003", 1e-4), ("newmark", None, 3e-3)])
def test_a_mass_started_at_v0_swings_with_amplitude_v0_over_omega(tmp_path, capsys, integrator, dt, tol):
    """x(t) = (v0/ω) sin ωt with no load at all. Tolerances, as fractions of the
    amplitude A = v0/ω: RK4 at ωh = 0.0019 has a phase error of order (ωh)⁴ per step,
    and linear interpolation between steps errs by at most (ωh)²/8 = 4.4e-7, so 1e-4
    is loose; Newmark at h = 1/120 s stretches the period by (ωh)²/12 = 2.3e-4, a phase
    error of 1.4e-3 rad after one period, plus (ωh)²/8 = 3.4e-4 of interpolation: 3e-3."""
    path = write(tmp_path, spring_mass(vx=V0))
    args = ["simulate", path, "--integrator", integrator, "--seconds", "1", "--record", "node.B.dx", "--record", "node.B.vx", "--json"]
    code, out, _ = run(args + (["--dt", dt] if dt else []), capsys)
    assert code == 0
    amplitude = V0 / OMEGA
    dx, vx = out["records"]["node.B.dx"], out["records"]["node.B.vx"]
    assert vx[0] == [0.0, pytest.approx(V0, rel=1e-12)]
    for t, x in dx:
        assert x == pytest.approx(amplitude * math.sin(OMEGA * t), abs=tol * amplitude)
    assert max(abs(x) for _, x in dx) == pytest.approx(amplitude, rel=tol + 5e-4)  # samples 0.01 s apart miss the peak by ≤ 4.9e-4


def test_a_rotation_started_at_w0_records_drot_and_vrot(tmp_path, capsys):
    """A beam clamped at A, pinned at B (B still turns): B's rotation sees the spring
    4EI/L (A's end does not turn), so with rotational inertia J at B, θ(t) = (w0/ω)
    sin ωt, ω = √(4EI/(L J)). The beam is massless (density 0), J all at B. RK4 at
    ωh = 0.0063 and interpolation error (ωh)²/8 = 5e-6: 1e-4 of the amplitude."""
    E, inertia_area, J, w0 = 200e9, 1e-6, 50.0, 0.01
    omega = math.sqrt(4 * E * inertia_area / (1.0 * J))
    nodes = [("A", 0.0, 0.0), ("B", 1.0, 0.0, {"inertia": J, "vrot": w0})]
    supports = [{"node": "A", "fix": ["x", "y", "rot"]}, {"node": "B", "fix": ["x", "y"]}]
    data = model(nodes, [member("AB", "A", "B", kind="beam", I=inertia_area)], supports, materials={"steel": {"E": E}})
    path = write(tmp_path, data)
    period = 2 * math.pi / omega
    dt = period / 1000 * 1.0137  # a step that divides neither the period nor --every
    every = period / 40
    args = ["simulate", path, "--seconds", f"{period:.9g}", "--dt", f"{dt:.9g}", "--every", f"{every:.9g}", "--json"]
    args += ["--record", "node.B.drot", "--record", "node.B.vrot"]
    code, out, _ = run(args, capsys)
    assert code == 0
    amplitude = w0 / omega
    for t, theta in out["records"]["node.B.drot"]:
        assert theta == pytest.approx(amplitude * math.sin(omega * t), abs=1e-4 * amplitude)
    for t, w in out["records"]["node.B.vrot"]:
        assert w == pytest.approx(w0 * math.cos(omega * t), abs=1e-4 * w0)


@pytest.mark.parametrize(
    ("node_b", "supports_b", "words"),
    [
        ({"vy": 0.1}, ["y"], "nodes[1].vy: cannot start moving: a support holds its y"),
        ({"vrot": 0.1}, ["y"], "nodes[1].vrot: cannot start moving: no beam meets the node"),
        ({"vx": "fast"}, ["y"], "nodes[1].vx: expected a number, got 'fast'"),
    ],
)
def test_a_velocity_that_cannot_be_is_one_line_naming_the_field(tmp_path, capsys, node_b, supports_b, words):
    data = spring_mass(**node_b)
    data["supports"][1]["fix"] = supports_b
    path = write(tmp_path, data)
    code, out, err = run(["simulate", path, "--seconds", "0.1", "--json"], capsys)
    assert code == 2 and out is None
    assert err.count("\n") == 1 and err.startswith(f"{path}: {words}")


# ---------------------------------------------------------------- records at the exact times


def test_records_fall_on_the_every_times_not_the_nearest_step(tmp_path, capsys):
    """dt = 0.0007 s does not divide --every = 0.01 s: the nearest step would be up to
    0.35 ms off, an error of up to ωh/2 = 2.2e-3 of the amplitude in x; interpolated,
    the sample at exactly k × 0.01 s is within (ωh)²/8 = 2.4e-6 (RK4's own error is far
    below), so 2e-4 tells them apart. The times themselves are k × 0.01 to round-off."""
    path = write(tmp_path, spring_mass(vx=V0))
    args = ["simulate", path, "--seconds", "0.5", "--dt", "0.0007", "--every", "0.01", "--record", "node.B.dx", "--record", "time", "--json"]
    code, out, _ = run(args, capsys)
    assert code == 0
    dx = out["records"]["node.B.dx"]
    # round(0.5 / 0.0007) = 714 steps end at 0.4998 s: samples at 0, 0.01, ... 0.49,
    # then the run's last state, at its own time
    assert [t for t, _ in dx[:-1]] == pytest.approx([0.01 * k for k in range(50)], abs=1e-12)
    assert dx[-1][0] == out["time"] == pytest.approx(714 * 0.0007, abs=1e-12)
    for t, x in dx:
        assert x == pytest.approx(V0 / OMEGA * math.sin(OMEGA * t), abs=2e-4 * V0 / OMEGA)
    for t, value in out["records"]["time"]:
        assert value == pytest.approx(t, abs=1e-12)  # the clock, interpolated, is the time asked for


def test_records_finer_than_the_step_are_interpolated_too(tmp_path, capsys):
    """--every below the step: several samples between two steps, each on its time."""
    path = write(tmp_path, spring_mass(vx=V0))
    code, out, _ = run(["simulate", path, "--seconds", "0.01", "--dt", "0.003", "--every", "0.001", "--record", "time", "--json"], capsys)
    assert code == 0
    times = [t for t, _ in out["records"]["time"]]
    assert times[:10] == pytest.approx([0.001 * k for k in range(10)], abs=1e-12)
    assert [v for _, v in out["records"]["time"]] == pytest.approx(times, abs=1e-12)


def test_records_between_steps_are_as_accurate_as_the_steps(tmp_path, capsys):
    """The spring-mass x = (V0/ω) sin ωt under RK4 at h = 0.03 s (ωh = 0.19), recorded
    every 0.005 s, six records a step. At the steps the error is RK4's own, growing to
    about ωt (ωh)⁴/120 = 1.3e-4 of the amplitude A by t = 2 s. Between them the cubic
    Hermite rebuild of the state adds at most (ωh)⁴/384 A = 3.3e-6 A; the straight line
    between the steps added up to (ωh)²/8 A = 4.4e-3 A, thirty times RK4's error. So the
    records between the steps must be within the steps' own error plus 2 (ωh)⁴/384 A, and
    under a tenth of the straight line's."""
    path = write(tmp_path, spring_mass(vx=V0))
    h, amplitude = 0.03, V0 / OMEGA
    args = ["simulate", path, "--seconds", "2", "--dt", str(h), "--every", "0.005", "--record", "node.B.dx", "--record", "node.B.vx", "--json"]
    code, out, _ = run(args, capsys)
    assert code == 0
    t, x = np.array(out["records"]["node.B.dx"]).T
    _, v = np.array(out["records"]["node.B.vx"]).T
    error = np.abs(x - amplitude * np.sin(OMEGA * t))
    on_step = np.abs(t / h - np.round(t / h)) < 1e-9
    assert on_step.sum() > 60 and (~on_step).sum() > 300
    hermite = 2.0 * (OMEGA * h) ** 4 / 384 * amplitude
    assert error[~on_step].max() <= error[on_step].max() + hermite
    assert error[~on_step].max() < 0.1 * (OMEGA * h) ** 2 / 8 * amplitude
    speed_error = np.abs(v - V0 * np.cos(OMEGA * t))  # the velocity from (v, a) at both steps: as good
    assert speed_error[~on_step].max() <= speed_error[on_step].max() + OMEGA * hermite


# ---------------------------------------------------------------- a mechanism exits 1


def test_linear_on_a_mechanism_exits_1_with_one_line(tmp_path, capsys):
    data = model([("A", 0, 0), ("B", 1, 0), ("C", 1, 1)], [member("AB", "A", "B"), member("BC", "B", "C")], [{"node": "A", "fix": ["x", "y"]}])
    path = write(tmp_path, data)
    code, out, err = run(["simulate", path, "--integrator", "linear", "--json"], capsys)
    assert code == 1 and "mechanism" in out["mechanism"]["message"]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(path) and "mechanism" in lines[0] and "Traceback" not in err


# ---------------------------------------------------------------- I = 0


def test_i_zero_is_accepted_on_bars_and_cables(tmp_path, capsys):
    """I is never read for a bar or a cable: I = 0 changes nothing (statics of the
    bridge truss, BRIDGE_FORCES by the method of joints)."""
    data = bridge_truss(100.0)
    for k, m in enumerate(data["members"]):
        m["I"] = 0
        if k == 0:
            m["kind"] = "cable"  # AB is in tension: a cable carries it alike
    path = write(tmp_path, data)
    code, out, _ = run(["simulate", path, "--integrator", "linear", "--json"], capsys)
    assert code == 0
    for mid, c in BRIDGE_FORCES.items():
        assert out["members"][mid]["axial"] == pytest.approx(100.0 * c, rel=1e-9)


@pytest.mark.parametrize("breakable", [False, True])
def test_i_zero_is_refused_where_it_is_used(tmp_path, capsys, breakable):
    """A beam bends with EI; a bar in a breakable world buckles at π²EI/L²: I = 0 there
    is one line naming the field."""
    data = bridge_truss(100.0)
    if breakable:
        data["world"]["breakable"] = True
        data["materials"]["steel"]["strength"] = 250e6
    else:
        data["members"][0]["kind"] = "beam"
    data["members"][0]["I"] = 0
    path = write(tmp_path, data)
    code, out, err = run(["simulate", path, "--integrator", "linear", "--json"], capsys)
    assert code == 2 and out is None
    assert err.strip() == f"{path}: members[0].I: must be positive, got 0"


# ---------------------------------------------------------------- several load factors


@pytest.mark.parametrize(("integrator", "rel"), [("linear", 1e-12), ("relax", 1e-6)])
def test_load_factors_give_the_load_deflection_curve_in_one_call(tmp_path, capsys, integrator, rel):
    """A bar pulled along its axis by λF: u = λFL/EA, N = λF, exactly (a bar along its
    axis is linear even in large displacement). linear: round-off; relax stops at an
    out-of-balance force of 1e-8 of the load, so 1e-6 is loose."""
    force = 5000.0
    data = spring_mass()
    data["loads"] = [{"node": "B", "fx": force}]
    path = write(tmp_path, data)
    factors = [0.25, 0.5, 1.0, 2.0]
    args = ["simulate", path, "--integrator", integrator, "--load-factors", "0.25,0.5,1,2", "--record", "node.B.dx", "--json"]
    code, out, _ = run(args, capsys)
    assert code == 0
    stiffness = SPRING_E * AREA / 1.0
    assert [f for f, _ in out["records"]["node.B.dx"]] == factors
    for f, u in out["records"]["node.B.dx"]:
        assert u == pytest.approx(f * force / stiffness, rel=rel)
    assert [r["load_factor"] for r in out["runs"]] == factors
    for r in out["runs"]:
        assert r["at_rest"] is True
        assert r["members"]["AB"]["axial"] == pytest.approx(r["load_factor"] * force, rel=rel)
        assert r["reactions"]["A"]["fx"] == pytest.approx(-r["load_factor"] * force, rel=rel)


def test_load_factors_text_summary_and_bad_input(tmp_path, capsys):
    data = spring_mass()
    data["loads"] = [{"node": "B", "fx": 1000.0}]
    path = write(tmp_path, data)
    code, _, _ = run(["simulate", path, "--integrator", "linear", "--load-factors", "0.5,1"], capsys)
    assert code == 0
    code, _, err = run(["simulate", path, "--integrator", "rk4", "--load-factors", "0.5,1"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--load-factors" in err
    with pytest.raises(SystemExit) as exc:
        main(["simulate", path, "--integrator", "linear", "--load-factors", "0.5,half"])
    assert exc.value.code == 2


# ---------------------------------------------------------------- the same fields in a level file


def as_level(data: dict) -> dict:
    return {"format": 1, "id": "teacher-demo", "title": "A demo", "kind": "demo", "brief": "Watch it.", **data}


def test_a_level_file_takes_starting_velocities_and_i_zero_on_a_bar(tmp_path, capsys):
    """A level is a model with a goal: what `simulate` reads, `validate` accepts (a
    teacher's free-vibration demo needs no load pulse), and the level runs it the same
    (the spring–mass's amplitude v0/ω, as above)."""
    data = spring_mass(vx=V0)
    data["members"][0]["I"] = 0
    path = write(tmp_path, as_level(data), "demo.json")
    assert main(["validate", path]) == 0
    capsys.readouterr()
    code, out, _ = run(["simulate", path, "--integrator", "rk4", "--dt", "0.0003", "--seconds", "0.25", "--record", "node.B.dx", "--json"], capsys)
    assert code == 0
    assert out["records"]["node.B.dx"][-1][1] == pytest.approx(V0 / OMEGA, rel=1e-3)  # a quarter period: at the peak


def test_a_level_file_with_i_zero_on_a_beam_is_one_line(tmp_path, capsys):
    data = spring_mass()
    data["members"][0] |= {"kind": "beam", "I": 0}
    path = write(tmp_path, as_level(data), "demo.json")
    assert main(["validate", path]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "members[0].I" in err, err
