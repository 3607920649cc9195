"""`equilibria simulate`: the headless contract of docs/cli.md and docs/model.md, run as a user runs it."""

import json
import math
import subprocess
import sys

import pytest
from builders import BRIDGE_FORCES, bridge_truss, cantilever, member, model

from equilibria.cli.main import main


def run(args: list[str], capsys) -> tuple[int, dict | None, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else None), err


@pytest.fixture
def truss_file(tmp_path):
    data = bridge_truss(100.0)
    data["world"]["damping"] = 0.05
    path = tmp_path / "truss.json"
    path.write_text(json.dumps(data))
    return path


def test_until_rest_reports_every_contract_field(truss_file, capsys):
    code, out, _ = run(["simulate", str(truss_file), "--until-rest", "--json"], capsys)
    assert code == 0
    for key in ("time", "steps", "at_rest", "nodes", "members", "triangles", "reactions", "energy", "records"):
        assert key in out
    assert out["at_rest"] is True and out["steps"] > 0 and out["time"] > 0
    assert set(out["nodes"]["B"]) >= {"x", "y", "rot", "vx", "vy"}
    assert set(out["members"]["AB"]) >= {"axial", "shear_i", "moment_i", "moment_j", "broken"}
    assert set(out["reactions"]) == {"A", "C"} and set(out["reactions"]["A"]) == {"fx", "fy", "m"}
    assert set(out["energy"]) == {"kinetic", "strain"}
    for mid, c in BRIDGE_FORCES.items():
        assert out["members"][mid]["axial"] == pytest.approx(100.0 * c, rel=1e-3)


@pytest.mark.parametrize("integrator", ["linear", "relax", "rk4", "symplectic", "newmark"])
def test_every_integrator_answers_the_truss(truss_file, capsys, integrator):
    """Newmark with HHT α = −0.1: the plain rule keeps the ringing of the modes a
    frame-rate step cannot follow, which a load put on at once excites, and never rests."""
    extra = ["--hht-alpha", "-0.1"] if integrator == "newmark" else []
    code, out, _ = run(["simulate", str(truss_file), "--integrator", integrator, *extra, "--json"], capsys)
    assert code == 0 and out["at_rest"]
    assert out["members"]["DE"]["axial"] == pytest.approx(-100.0, rel=1e-3)


def test_records_sample_a_time_history_every_interval(tmp_path, capsys):
    data = cantilever(2, 1.0, -50.0, damping=0.05)
    data["loads"][0]["history"] = [[0.0, 0.0], [0.05, 1.0]]
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(["simulate", str(path), "--seconds", "0.1", "--record", "node.N2.y", "--record", "reaction.N0.fy", "--every", "0.01", "--json"], capsys)
    assert code == 0
    times = [t for t, _ in out["records"]["node.N2.y"]]
    assert len(times) == 11 and times[0] == 0.0
    assert times == pytest.approx([0.01 * k for k in range(11)], abs=out["dt"])
    assert out["records"]["node.N2.y"][0][1] == 0.0  # the load starts at zero
    assert out["records"]["node.N2.y"][-1][1] < 0.0
    assert out["time"] == pytest.approx(0.1, abs=out["dt"])


def test_linear_applies_final_load_values(tmp_path, capsys):
    data = bridge_truss(100.0)
    data["loads"][0]["history"] = [[0.0, 0.0], [1.0, 2.0]]  # ends at twice the load
    path = tmp_path / "h.json"
    path.write_text(json.dumps(data))
    _, out, _ = run(["simulate", str(path), "--integrator", "linear", "--json"], capsys)
    assert out["members"]["DE"]["axial"] == pytest.approx(-200.0, rel=1e-9)


def test_mechanism_is_reported_not_raised(tmp_path, capsys):
    data = model([("A", 0, 0), ("B", 1, 0), ("C", 1, 1)], [member("AB", "A", "B"), member("BC", "B", "C")], [{"node": "A", "fix": ["x", "y"]}])
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    code, out, _ = run(["simulate", str(path), "--integrator", "linear", "--json"], capsys)
    assert code == 1 and out["at_rest"] is False  # exit 1, as an unstable run (tests/test_model_interface.py)
    assert "mechanism" in out["mechanism"]["message"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON"),
        ('{"nodes": [{"id": "A", "x": 0, "y": 0}], "members": [{"id": "M", "i": "A", "j": "Z", "material": "s", "A": 1}]}', "members[0].j: unknown node 'Z'"),
        ("[" * 100000, "not valid JSON"),
        ('{"nodes": [{"id": "A", "x": NaN, "y": 0}]}', "nodes[0].x"),
    ],
    ids=["not json", "unknown node", "deeply nested", "NaN"],
)
def test_bad_input_exits_2_with_one_line_naming_the_file(tmp_path, capsys, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run(["simulate", str(path), "--json"], capsys)
    assert code == 2 and out is None
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(str(path)) and words in lines[0]


def test_missing_file_and_bad_record_spec_exit_2(truss_file, capsys):
    code, _, err = run(["simulate", "/nonexistent/model.json"], capsys)
    assert code == 2 and "/nonexistent/model.json" in err
    code, _, err = run(["simulate", str(truss_file), "--record", "node.Q.y"], capsys)
    assert code == 2 and "unknown node 'Q'" in err
    for bad_step in ("-1", "nan", "0"):
        with pytest.raises(SystemExit) as exc:
            main(["simulate", str(truss_file), "--dt", bad_step])
        assert exc.value.code == 2


def test_too_large_a_step_is_caught_rolled_back_and_explained(truss_file, capsys):
    code, out, _ = run(["simulate", str(truss_file), "--dt", "0.01", "--seconds", "1", "--json"], capsys)
    assert code == 1
    assert "unstable" in out["unstable"] and "member" in out["unstable"] and "rolled back" in out["unstable"]
    assert all(math.isfinite(n["x"]) and math.isfinite(n["y"]) for n in out["nodes"].values())


def test_python_dash_m_game_is_the_same_command(truss_file):
    done = subprocess.run(
        [sys.executable, "-m", "equilibria", "simulate", str(truss_file), "--integrator", "linear", "--json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["members"]["DE"]["axial"] == pytest.approx(-100.0)


def test_newmark_takes_frame_steps_and_refuses_an_hht_alpha_outside_its_range(truss_file, capsys):
    """Newmark's default step is a frame of 1/120 s (it is stable at any step); HHT's α
    lies in [−1/3, 0], where the method stays second-order accurate and unconditionally
    stable: outside, bad input (exit 2), not a run."""
    code, out, _ = run(["simulate", str(truss_file), "--integrator", "newmark", "--seconds", "0.1", "--json"], capsys)
    assert code == 0 and out["dt"] == pytest.approx(1.0 / 120.0) and out["steps"] == 12
    for alpha in ("0.1", "-0.5"):
        code, _, err = run(["simulate", str(truss_file), "--integrator", "newmark", "--hht-alpha", alpha], capsys)
        assert code == 2 and "--hht-alpha must be in [-1/3, 0]" in err


def test_load_factors_may_start_with_a_minus(truss_file, capsys):
    """`--load-factors -1,1` was taken for an option ("expected one argument"); `=-1,1` worked."""
    spaced = run(["simulate", str(truss_file), "--integrator", "linear", "--load-factors", "-1,1", "--json"], capsys)
    equals = run(["simulate", str(truss_file), "--integrator", "linear", "--load-factors=-1,1", "--json"], capsys)
    assert spaced[0] == equals[0] == 0 and spaced[1]["load_factors"] == equals[1]["load_factors"] == [-1.0, 1.0]


def test_hht_alpha_under_another_integrator_is_said_to_be_left_out(truss_file, capsys):
    code, _, err = run(["simulate", str(truss_file), "--seconds", "0.01", "--hht-alpha", "-0.1", "--json"], capsys)
    assert code == 0 and "--hht-alpha damps Newmark's steps only; under rk4 it is left out" in err
    code, _, err = run(["simulate", str(truss_file), "--seconds", "0.01", "--integrator", "newmark", "--hht-alpha", "-0.1", "--json"], capsys)
    assert code == 0 and "hht" not in err


def test_newmark_that_finds_no_rest_says_how_to_damp_its_highest_modes(tmp_path, capsys):
    """A small stiff cantilever (two steel elements, 1 m): plain Newmark never came to rest
    (its highest modes ring undamped) and the line said only "not at rest"; it now says
    what --hht-alpha does, and with it the same run comes to rest."""
    path = tmp_path / "cantilever.json"
    data = cantilever(2, 1.0, -1000.0)
    data.setdefault("world", {})["damping"] = 0.02
    path.write_text(json.dumps(data))
    code, _, err = run(["simulate", str(path), "--integrator", "newmark", "--until-rest", "--max-seconds", "3", "--json"], capsys)
    assert code == 1 and "not at rest" in err and "--hht-alpha -0.1" in err, err
    code, out, _ = run(["simulate", str(path), "--integrator", "newmark", "--hht-alpha", "-0.1", "--until-rest", "--max-seconds", "3", "--json"], capsys)
    assert code == 0 and out["at_rest"]
