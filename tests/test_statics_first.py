"""Statics before dynamics: paused before a run, the reactions and the net-force panel
show the static answer (the direct stiffness method, every load at its final value),
not the unloaded state at t = 0; a mechanism says it has no static answer."""

from __future__ import annotations

import pygame
import pytest
from test_play_session import key, start

from equilibria.app.draw import primitives as draw
from equilibria.app.launch import bench_of_solution
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.panels import net_force_lines
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.engine.linear import solve_linear
from equilibria.engine.model import build_model


def test_before_a_run_the_reactions_and_the_net_force_are_the_static_answer():
    stage = load_stage(shipped_level("bridge-01"))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution("bridge-01"))))
    assert not scene.session.started
    shown = scene.picture.sim
    assert shown is not scene.session.sim  # the static answer is drawn, not the run at t = 0
    expected = solve_linear(build_model(scene.session.data())).reactions
    # The two supports carry the two 10 kN loads and the structure's weight between them.
    assert shown.reactions() == pytest.approx(expected, abs=1e-6)
    total = float(expected[:, 1].sum())
    weight = float(scene.session.model.arrays.mass[:, 1].sum()) * 9.81
    assert total == pytest.approx(20e3 + weight, rel=1e-9)
    lines = net_force_lines(shown, static=True)
    assert lines[0].endswith("(statics)") and lines[1:4] == ["  ΣFx = 0 kN", "  ΣFy = 0 kN", "  ΣM about (0, 0) = 0 kN·m"]
    key(app, pygame.K_SPACE)
    app.run(5)
    assert scene.session.started and scene.picture.sim is scene.session.sim  # running: the run's own values
    app.close()


def test_a_mechanism_says_it_has_no_static_answer(monkeypatch):
    app, scene = start(load_stage(shipped_level("supports-01")))
    assert scene.session.free is not None and scene.session.static is None
    drawn, original = [], draw.label  # the readout's lines are drawn one label each (game/app/window/sections.py Scroll)
    monkeypatch.setattr(draw, "label", lambda surface, font, text, *a, **k: drawn.append([text]) or original(surface, font, text, *a, **k))
    app.frame()
    assert any("a mechanism: no static answer" in line for block in drawn for line in block)
    app.close()


def test_arrows_are_drawn_in_proportion_to_one_scale_per_scene():
    """bridge-01's loads are 10 kN: the scene's scale is ARROW_PX for 10 kN, and every
    arrow (loads, reactions, added forces) is in proportion, within its floor and cap."""
    from equilibria.app.draw.render import ARROW_PX, LONGEST_PX, SHORTEST_PX

    stage = load_stage(shipped_level("bridge-01"))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution("bridge-01"))))
    painter = scene.picture.painter
    assert painter.force_ref == pytest.approx(10e3)
    length = painter.arrows.arrow_px
    assert length(10e3) == pytest.approx(ARROW_PX) and length(5e3) == pytest.approx(ARROW_PX / 2)
    assert length(10.5e3) / length(10e3) == pytest.approx(1.05)  # a reaction beside a load: its true share
    assert length(1.0) == SHORTEST_PX and length(1e9) == LONGEST_PX
    key(app, pygame.K_r, pygame.KMOD_CTRL)  # a new model after an edit keeps the scene's scale
    assert scene.picture.painter.force_ref == pytest.approx(10e3)
    app.close()


def test_after_a_pass_the_judged_run_is_called_statics_only_once_it_is_at_rest():
    """The judged run plays from its start, loads coming on: while it loads and moves
    its net force is the run's own (inertia and all, ΣM of kN·m on sections-02 at 0.5 s),
    and the panel does not call it the statics'; at rest it is the verdict's, with the
    lever arms as built, and reads 0 (its residues are under the rest test's tolerance)."""
    from equilibria.app.widgets.panels import readout_lines

    stage = load_stage(shipped_level("sections-02"))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution("sections-02"))))
    scene.session.check()
    assert scene.session.verdict.passed and scene.session.judged
    app.run(30)
    sim = scene.session.sim
    assert sim.rest_time < sim.rest.hold
    assert readout_lines(scene, sim)[0] == "Net force on the structure"
    while sim.rest_time < sim.rest.hold:
        sim.advance(0.5)
    lines = readout_lines(scene, sim)
    assert lines[0] == "Net force on the structure (statics)"
    assert lines[1:4] == ["  ΣFx = 0 kN", "  ΣFy = 0 kN", "  ΣM about A = 0 kN·m"]  # its residues at rest are the rest test's, shown as 0
    app.close()
