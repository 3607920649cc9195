"""The graph panel: what the Recorder keeps, checked against closed forms; its ring
buffer, CSV and PNG exports; nice tick values.

Glossary: m mass of the hanging node [kg], g gravity [m/s²], k = EA/L spring stiffness
of the bar [N/m], δ = mg/k static deflection [m], ω = √(k/m), T = 2π/ω the period.
Released from rest with the bar unstretched, the node moves as y(t) = y0 − δ(1 − cos ωt):
it swings between y0 and y0 − 2δ about the static position y0 − δ.
"""

import csv
import math
import re
from pathlib import Path

import numpy as np
import pygame
import pytest
from builders import member, model

from equilibria.app.draw.palette import COMPRESSION, REACTION, TENSION, Fonts
from equilibria.app.widgets.graphs import CAPACITY, QUANTITIES, GraphPanel, Recorder, label, nice_ticks, tick_text
from equilibria.engine import records
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation, make_probe
from equilibria.files.store import SaveError

M, G, T = 10.0, 9.81, 0.6  # [kg], [m/s²], [s]: a period of 36 frames at 60 Hz
K = M * (2 * math.pi / T) ** 2  # [N/m]
DELTA = M * G / K  # [m]
FRAME = 1 / 60  # [s]
ROOT = Path(__file__).resolve().parents[1]


def spring(**world) -> dict:
    """Node B (mass M) hangs 1 m below the pin A on a massless bar of stiffness K."""
    return model(
        [("A", 0.0, 0.0), ("B", 0.0, -1.0, {"mass": M})],
        [member("AB", "A", "B", A=1e-3, material="rod")],
        [{"node": "A", "fix": ["x", "y"]}],
        materials={"rod": {"E": K / 1e-3, "density": 0.0}},  # EA/L = K with A = 1e-3 m², L = 1 m
        gravity=G,
        **world,
    )


def run(recorder: Recorder, sim: Simulation, frames: int) -> None:
    """As the app does: sample, then one frame of simulated time at a time."""
    recorder.sample(sim)
    for _ in range(frames):
        sim.advance(FRAME)
        recorder.sample(sim)


@pytest.fixture(scope="module")
def swing() -> Recorder:
    """Four periods of the spring, RK4 at 10 steps a frame."""
    rec = Recorder(["node.B.y", "node.B.x", "member.AB.axial", "reaction.A.fy", "energy.kinetic", "energy.strain"])
    run(rec, Simulation(build_model(spring()), "rk4", dt=FRAME / 10), 4 * 36)
    return rec


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    pygame.font.init()
    return Fonts()


# ---------------------------------------------------------------------- what is recorded
def test_a_mass_on_a_spring_swings_about_the_static_deflection(swing):
    t, y = swing.series("time"), swing.series("node.B.y")
    assert len(swing) == 4 * 36 + 1 and t[0] == 0.0 and t[-1] == pytest.approx(4 * T)
    # The frames after t = 0 cover four whole periods evenly, so the cosine averages out.
    assert y[1:].mean() == pytest.approx(-1.0 - DELTA, abs=1e-4 * DELTA)
    assert y.min() == pytest.approx(-1.0 - 2 * DELTA, abs=1e-4 * DELTA)  # sampled at t = T/2
    assert y == pytest.approx(-1.0 - DELTA * (1 - np.cos(2 * math.pi * t / T)), abs=1e-4 * DELTA)
    assert np.all(swing.series("node.B.x") == 0.0)
    # shown: displacement from the start position, in mm
    assert swing.shown("node.B.y").min() == pytest.approx(-2e3 * DELTA, rel=1e-4)
    assert swing.label("node.B.y") == "node B, y displacement [mm]"


def test_forces_and_energies_follow_the_stretch(swing):
    stretch = -1.0 - swing.series("node.B.y")  # [m]
    axial = swing.series("member.AB.axial")
    assert axial == pytest.approx(K * stretch, abs=1e-9 * M * G)
    # The pin holds the bar's pull and the weight of A's small lumped mass.
    m_a = M * 1e-3
    assert swing.series("reaction.A.fy") == pytest.approx(axial + m_a * G, abs=1e-9 * M * G)
    assert swing.shown("member.AB.axial").max() == pytest.approx(2 * M * G / 1e3, rel=1e-4)  # [kN]
    # Energy is conserved: kinetic + strain = the work of gravity, m g (y0 − y).
    energy = swing.series("energy.kinetic") + swing.series("energy.strain")
    assert energy == pytest.approx(M * G * stretch, abs=1e-5 * M * G * DELTA)
    assert label("energy.strain") == "strain energy [J]" and label("reaction.A.fy") == "support A, y reaction [kN]"


def test_a_load_follows_its_history():
    data = spring()
    data["loads"] = [{"node": "B", "fy": -200.0, "history": [[0.0, 0.0], [0.5, 1.0]]}]
    rec = Recorder(["load.B.fy"])
    run(rec, Simulation(build_model(data), "rk4", dt=FRAME / 10), 60)
    t = rec.series("time")
    assert rec.series("load.B.fy") == pytest.approx(-200.0 * np.minimum(t / 0.5, 1.0), abs=1e-9)
    assert rec.label("load.B.fy") == "node B, y load [kN]" and rec.unit("load.B.fy") == "kN"


def test_the_ring_buffer_keeps_the_newest_samples_and_memory_stays_flat():
    rec = Recorder(["node.B.y"], capacity=50)
    sim = Simulation(build_model(spring()), "symplectic", dt=FRAME / 10)
    run(rec, sim, 30)
    assert len(rec) == 31
    run(rec, sim, 90)
    t = rec.series("time")
    assert len(rec) == 50 and t.size == 50 and rec.series("node.B.y").size == 50
    assert t[-1] == sim.time and np.all(np.diff(t) > 0)
    assert t == pytest.approx(sim.time - FRAME * np.arange(49, -1, -1), abs=1e-9)
    assert CAPACITY >= 60 * 60  # at least a minute at 60 frames a second


def test_the_ring_gives_back_every_channel_in_order_as_it_wraps():
    """Checked after every sample against a log of what the probes read, through three
    wraps of a 7-sample ring, with a channel added and one removed on the way."""
    rec = Recorder(["node.B.y", "member.AB.axial"], capacity=7)
    sim = Simulation(build_model(spring()), "symplectic", dt=FRAME / 10)
    log: dict[str, list[float]] = {spec: [] for spec in ("time", "node.B.y", "member.AB.axial", "node.B.vy")}
    for frame in range(25):
        if frame == 10:
            rec.add("node.B.vy")  # NaN for the samples before
        if frame == 17:
            rec.remove("member.AB.axial")
        assert rec.sample(sim)
        for spec, values in log.items():
            values.append(make_probe(sim, spec)() if spec != "node.B.vy" or frame >= 10 else math.nan)
        assert len(rec) == min(frame + 1, 7)
        for spec in rec.specs:
            assert np.array_equal(rec.series(spec), log[spec][-7:], equal_nan=True), (frame, spec)
        sim.advance(FRAME)
    assert rec.specs == ("time", "node.B.y", "node.B.vy") and np.all(np.diff(rec.series("time")) > 0)


def test_quantities_no_longer_followed_are_freed():
    """Following 50 quantities one after another, as the play scene does (it keeps the
    first and the last three: the ones it can still show), holds five buffers at most,
    and the kept ones keep their samples."""
    specs = [f"node.{n}.{q}" for n in "AB" for q in QUANTITIES["node"]] + [f"member.AB.{q}" for q in QUANTITIES["member"]]
    specs += [f"node.N{k}.y" for k in range(50 - len(specs))]  # unknown to the model: NaN, but a buffer all the same
    rec = Recorder()
    sim = Simulation(build_model(spring()), "symplectic", dt=FRAME / 10)
    most = 0
    for spec in specs:
        rec.add(spec)
        followed = rec.specs[1:]
        rec.keep([*followed[:1], *followed[-3:]])
        run(rec, sim, 3)
        most = max(most, rec.nbytes)
    assert rec.specs == ("time", specs[0], *specs[-3:])
    assert most <= 5 * CAPACITY * 8 and rec.nbytes == 5 * CAPACITY * 8  # 720 kB; leaked, 51 buffers would hold 7.3 MB
    assert np.isfinite(rec.series(specs[0])).all() and len(rec) > 3 * 50  # followed from the first sample on
    for spec in specs[1:-3]:  # added and removed in turn: one buffer at a time
        rec.add(spec)
        rec.remove(spec)
    assert rec.specs == ("time", specs[0], *specs[-3:]) and rec.nbytes == 5 * CAPACITY * 8
    rec.keep([])
    assert rec.specs == ("time",) and rec.nbytes == CAPACITY * 8
    with pytest.raises(ValueError):
        rec.remove("time")


def test_paused_samples_are_skipped_and_a_restart_clears():
    rec = Recorder(["node.B.y"])
    sim = Simulation(build_model(spring()), "rk4", dt=FRAME / 10)
    run(rec, sim, 10)
    assert not rec.sample(sim) and len(rec) == 11  # paused: nothing changed
    rec.add("member.AB.axial")  # added later: NaN before, values from now on
    sim.advance(FRAME)
    assert rec.sample(sim)
    axial = rec.series("member.AB.axial")
    assert np.isnan(axial[:-1]).all() and np.isfinite(axial[-1])
    run(rec, Simulation(build_model(spring()), "rk4", dt=FRAME / 10), 3)  # time 0 again
    assert len(rec) == 4 and rec.series("time")[0] == 0.0
    rec.clear()
    assert len(rec) == 0 and rec.series("time").size == 0


def test_bad_specs_are_refused_or_recorded_as_nan():
    rec = Recorder()
    for bad in ("node.B.z", "widget.B.y", "energy.total", "node.B"):
        with pytest.raises(ValueError):
            rec.add(bad)
    rec.add("member.XY.axial")  # well formed, but this model has no member XY
    rec.sample(Simulation(build_model(spring()), "rk4", dt=FRAME / 10))
    assert np.isnan(rec.series("member.XY.axial")).all()
    assert "unknown member 'XY'" in rec.problems["member.XY.axial"]
    pygame.font.init()
    image = pygame.Surface((400, 240))
    GraphPanel(rec, Fonts(), ["member.XY.axial"]).draw(image, image.get_rect())  # says why, does not fail
    with pytest.raises(KeyError):
        rec.series("node.B.y")


# ---------------------------------------------------------------------- exports
def test_csv_round_trips(swing, tmp_path):
    path = tmp_path / "swing.csv"
    path.write_text("old")
    swing.to_csv(path)
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["time [s]", "node.B.y [m]", "node.B.x [m]", "member.AB.axial [N]", "reaction.A.fy [N]", "energy.kinetic [J]", "energy.strain [J]"]
    assert len(rows) == len(swing) + 1
    values = np.array(rows[1:], dtype=float)
    for k, spec in enumerate(swing.specs):
        assert np.array_equal(values[:, k], swing.series(spec))  # exact: floats written as repr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["swing.csv"]  # no temporary file left
    with pytest.raises(SaveError, match="missing"):
        swing.to_csv(tmp_path / "missing" / "swing.csv")


def test_png_shows_the_line_where_the_data_is(swing, fonts, tmp_path):
    panel = GraphPanel(swing, fonts, ["node.B.y"])
    path = tmp_path / "swing.png"
    plot = panel.save_png(path, (640, 400))
    image = pygame.image.load(str(path))
    assert image.get_size() == (640, 400)
    assert count(image, TENSION, plot.area) > 500  # four periods of a 2 px line
    assert count(image, COMPRESSION) == 0
    # the lowest point (t = T/2, −2δ) and the start (0, 0) lie on the line
    for t, y_mm in ((T / 2, -2e3 * DELTA), (0.0, 0.0), (1.5 * T, -2e3 * DELTA)):
        px, py = plot.to_px(t, y_mm)
        assert near(image, (px, py), TENSION, 2) > 0, (t, y_mm)
    assert plot.y_range[0] <= -2e3 * DELTA and plot.y_range[1] >= 0.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["swing.png"]


def test_load_against_displacement_is_a_straight_line_and_three_series_get_three_colours(swing, fonts, tmp_path):
    panel = GraphPanel(swing, fonts, ["reaction.A.fy"], x="node.B.y")
    plot = panel.save_png(tmp_path / "xy.png", (500, 360))
    image = pygame.image.load(str(tmp_path / "xy.png"))
    for share in (0.25, 0.5, 0.75):  # the spring's law: reaction = k × stretch (+ A's weight)
        d = -2 * DELTA * share
        px, py = plot.to_px(d * 1e3, (-K * d + M * 1e-3 * G) / 1e3)
        assert near(image, (px, py), TENSION, 2) > 0, share
    panel.show(["energy.kinetic", "energy.strain", "member.AB.axial"])
    plot = panel.save_png(tmp_path / "three.png", (500, 360))
    image = pygame.image.load(str(tmp_path / "three.png"))
    for colour in (TENSION, COMPRESSION, REACTION):
        assert count(image, colour, plot.area) > 100
    with pytest.raises(ValueError):
        panel.show(["node.B.y", "node.B.x", "energy.kinetic", "energy.strain"])


def test_an_empty_or_tiny_panel_draws_without_error(fonts):
    surface = pygame.Surface((300, 200))
    panel = GraphPanel(Recorder(), fonts, ["node.B.y"])
    panel.draw(surface, surface.get_rect())
    panel.draw(surface, pygame.Rect(0, 0, 40, 30))


# ---------------------------------------------------------------------- ticks
def nice(step: float) -> bool:
    mantissa = step / 10 ** math.floor(math.log10(step) + 1e-9)
    return any(abs(mantissa - m) < 1e-9 for m in (1, 2, 5))


@pytest.mark.parametrize(
    ("lo", "hi", "expected"),
    [
        (0.0, 1.0, [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
        (0.0, 0.0, [-1.0, -0.5, 0.0, 0.5, 1.0]),  # a zero range around zero
        (5.0, 5.0, [4.4, 4.6, 4.8, 5.0, 5.2, 5.4, 5.6]),  # a zero range elsewhere: ± 10 %
        (-37.0, -3.0, [-40.0, -30.0, -20.0, -10.0, 0.0]),
        (-0.013, 0.021, [-0.02, -0.01, 0.0, 0.01, 0.02, 0.03]),
        (-2.5e4, -1.2e4, [-25000.0, -20000.0, -15000.0, -10000.0]),
        (12.0, 3.0, [2.0, 4.0, 6.0, 8.0, 10.0, 12.0]),  # reversed bounds
    ],
)
def test_ticks_are_nice_and_cover_the_range(lo, hi, expected):
    ticks = nice_ticks(lo, hi)
    assert ticks == expected
    steps = np.diff(ticks)
    assert nice(float(steps[0])) and np.allclose(steps, steps[0])
    assert ticks[0] <= min(lo, hi) and ticks[-1] >= max(lo, hi)


def test_ticks_of_nothing_and_tick_text():
    assert nice_ticks(math.nan, 1.0) == [] and nice_ticks(0.0, math.inf) == []
    assert [tick_text(t, 0.5) for t in nice_ticks(0.0, 0.0)] == ["−1.0", "−0.5", "0.0", "0.5", "1.0"]
    assert tick_text(-0.0004, 0.5) == "0.0"  # never −0
    assert tick_text(-20000.0, 2000.0) == "−20000" and tick_text(3e7, 1e7) == "3e+07"


# ---------------------------------------------------------------------- helpers
def count(image: pygame.Surface, colour, rect: pygame.Rect | None = None) -> int:
    """Pixels of exactly `colour` in rect (default: everywhere)."""
    rect = rect or image.get_rect()
    block = pygame.surfarray.array3d(image)[rect.left : rect.right, rect.top : rect.bottom]
    return int(np.all(block == np.array(colour), axis=-1).sum())


def near(image: pygame.Surface, at: tuple[float, float], colour, radius: int) -> int:
    """Pixels of exactly `colour` within `radius` px of `at`."""
    x0, y0 = round(float(at[0])), round(float(at[1]))
    return sum(image.get_at((x, y))[:3] == colour for x in range(x0 - radius, x0 + radius + 1) for y in range(y0 - radius, y0 + radius + 1))


# ---------------------------------------------------------------------- one grammar
# The record grammar lives once, in the engine (engine/records.py): `simulate --record`
# and the graphs read it. Before, each wrote its own: the engine's took vrot, drot and a
# contact's normal and friction, which the graphs refused; the graphs' took load.ID.*,
# which `simulate` refused.
UNION = [
    "time",
    "energy.kinetic",
    "energy.strain",
    *(f"node.B.{q}" for q in ("x", "y", "rot", "vx", "vy", "vrot", "dx", "dy", "drot")),
    *(f"member.AB.{q}" for q in ("axial", "shear_i", "moment_i", "moment_j")),
    *(f"reaction.A.{q}" for q in ("fx", "fy", "m")),
    "reaction.C.normal",
    "reaction.C.friction",
    *(f"load.B.{q}" for q in ("fx", "fy", "m")),
    *(f"triangle.T.{q}" for q in ("sx", "sy", "txy")),
]


def every_part() -> Simulation:
    """A member, a triangle, a pin A, a contact under C, a load on B with a history: a
    model with a quantity of every part of the grammar."""
    data = model(
        [("A", 0.0, 0.0), ("B", 1.0, 0.0), ("C", 0.5, 0.8)],
        [member("AB", "A", "B"), member("BC", "B", "C"), member("AC", "A", "C")],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "contact": {"normal": [0.0, -1.0], "mu": 0.3}}],
        [{"node": "B", "fy": -1e3, "history": [[0.0, 0.0], [0.1, 1.0]]}],
        triangles=[{"id": "T", "nodes": ["A", "B", "C"], "material": "steel", "t": 0.001}],
        gravity=G,
    )
    sim = Simulation(build_model(data), "rk4")
    sim.advance(0.05)
    return sim


def specs_of(sim: Simulation) -> list[str]:
    """Every spec the engine's grammar names, for the ids of every_part."""
    ident = {"node": "B", "member": "AB", "reaction": "A", "load": "B", "triangle": "T"}
    specs = list(records.WHOLE)
    for part, quantities in records.SPECS.items():
        specs += [f"{part}.{'C' if q in ('normal', 'friction') else ident[part]}.{q}" for q in quantities]
    return specs


def test_the_graphs_show_what_the_engine_records_and_nothing_else():
    """The graphs' quantities are the engine's grammar, part by part, each with its word
    and display unit; every one of them the engine reads from a run and the Recorder
    follows; and what both took before still works, in both."""
    assert {part: list(q) for part, q in QUANTITIES.items()} == {part: list(q) for part, q in records.SPECS.items()}
    assert all(QUANTITIES[part][what].si == si for part, q in records.SPECS.items() for what, si in q.items())
    sim = every_part()
    assert sorted(specs_of(sim)) == sorted(UNION)
    rec = Recorder(UNION)
    rec.sample(sim)
    assert rec.problems == {} and all(np.isfinite(rec.series(spec)).all() for spec in UNION)
    for spec in UNION:
        assert math.isfinite(make_probe(sim, spec)()) and label(spec).endswith("]")
    assert make_probe(sim, "load.B.fy")() == pytest.approx(-1e3 * sim.time / 0.1, rel=1e-12)  # on its ramp
    with pytest.raises(ValueError, match="no contact"):
        make_probe(sim, "reaction.A.normal")
    with pytest.raises(ValueError, match="unknown quantity"):
        Recorder(["node.B.z"])


def documented(text: str) -> set[str]:
    """The specs a doc writes in backticks, `.y` after `node.ID.x` standing for `node.ID.y`."""
    found, prefix = set(), ""
    for token in re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)*|\.[a-z_]+)`", text):
        if token.startswith("."):
            token = prefix + token
        elif "." in token and token.split(".")[0] in records.SPECS:
            prefix = token.rsplit(".", 1)[0]
        found.add(token)
    return {t for t in found if t in records.WHOLE or t.split(".")[0] in records.SPECS}


def test_the_docs_name_the_grammar():
    """docs/cli.md's table of record specs and docs/model.md's list name every spec the
    grammar takes, and none it does not."""
    grammar = set(records.WHOLE) | {f"{part}.ID.{q}" for part, quantities in records.SPECS.items() for q in quantities}
    cli = (ROOT / "docs/cli.md").read_text(encoding="utf-8").split("### Record specs", 1)[1].split("\n#", 1)[0]
    listed = (ROOT / "docs/model.md").read_text(encoding="utf-8").split("**Record specs**", 1)[1].split("\n\n", 1)[0]
    assert documented(cli) == grammar
    assert documented(listed) == grammar
