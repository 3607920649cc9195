"""Instability in the game (issue 5): a run at too large a step, or one the player makes
stiffer while it runs, is caught in the frame it blows up, rolled back to the state that
frame started from, explained (the stiffest element, the step that would be stable) and
paused; the game goes on drawing frames and does no more steps until the player resets.

The game never picks a step itself that is too large: an edit rebuilds the model and
the engine estimates a new stable step (seed 000, the Gershgorin bound of the stiffest
element), or, where that step is too small for real time, the game goes on with
implicit steps, stable at any step (game/app/session/chooser.py). A step the player chose (`equilibria play/sandbox --dt`, to see what an
explicit integrator does past its limit) stays as chosen until D takes the stable one.
"""

from __future__ import annotations

import math

import numpy as np
import pygame
from test_corpus import CORPUS
from test_play_session import key, start

from equilibria.app.draw.palette import ALERT
from equilibria.app.session.stage import Stage, load_stage


def alert_pixels(surface: pygame.Surface) -> int:
    w, h = surface.get_size()
    return sum(surface.get_at((x, y))[:3] == ALERT for x in range(0, w, 3) for y in range(0, h, 3))


def counting(scene) -> list[float]:
    """The simulated seconds asked of the engine, one entry per call of advance()."""
    calls: list[float] = []
    advance = scene.session.sim.advance

    def spy(seconds, *args, **kwargs):
        calls.append(seconds)
        return advance(seconds, *args, **kwargs)

    scene.session.sim.advance = spy
    return calls


def test_too_large_a_step_is_caught_in_its_first_frame_rolled_back_explained_and_d_takes_the_stable_one():
    """The sandbox's loads come on from nothing (game/app/session/play.py: ramped), so the
    first step, with nothing yet to push it, may pass: the first batch with a load to
    amplify blows up, and that frame is the last one run."""
    stage = load_stage(CORPUS / "levels" / "good.json", sandbox=True)  # a steel plate in a triangle of bars
    _, probe = start(stage)
    safe = probe.session.sim.dt
    app, scene = start(stage, dt=20 * safe)
    calls = counting(scene)
    key(app, pygame.K_SPACE)  # runs one frame
    start_pos, start_time = scene.session.sim.state.pos.copy(), scene.session.sim.time
    if not scene.session.problem:  # one step of almost no load: the next blows up
        assert start_time <= 20 * safe and len(calls) == 1
        app.frame()
    assert len(calls) <= 2 and scene.session.paused and scene.session.problem
    calls.clear()
    assert "the stiffest element is triangle 'T'" in scene.session.problem
    assert f"a step of {safe:.3g} s or less is stable" in scene.session.problem and "rolled back" in scene.session.problem
    assert scene.session.sim.time == start_time and np.array_equal(scene.session.sim.state.pos, start_pos)  # the state the frame started from
    app.run(30)
    assert len(calls) == 0 and app.running and scene.session.problem  # drawing on, no more steps
    assert alert_pixels(app.screen) > 100  # the box that says so
    key(app, pygame.K_d)
    assert scene.session.dt is None and scene.session.sim.dt == safe and scene.session.problem is None
    key(app, pygame.K_SPACE)
    app.run(60)
    assert scene.session.problem is None and scene.session.sim.time > 0.9 and np.isfinite(scene.session.sim.state.pos).all()
    app.close()


def stiffen_while_running(dt: float | None, integrator: str = "auto"):
    """Build the hanging bar, run it a second, then add a short stiff stub beside the
    foot while it runs. Returns (app, scene, the step before the edit)."""
    app, scene = start(Stage.empty_sandbox(), dt=dt, integrator=integrator)
    bench = scene.session.bench
    top, foot = bench.add_node(0, 3), bench.add_node(0, 1)
    bench.add_member(top, foot, "steel bar")
    bench.set_support(top, ("x", "y"))
    bench.add_force(foot, 2000.0, -5000.0)
    app.frame()
    key(app, pygame.K_SPACE)
    app.run(60)
    assert scene.session.problem is None and scene.session.sim.time > 0.5
    before = scene.session.sim.dt
    stub = bench.add_node(0.05, 1.0)  # 5 cm from the foot: 40 times stiffer than the bar, on a sliver of its mass
    bench.add_member(foot, stub, "steel bar")
    app.frame()  # the edit rebuilds the model (and puts the run back to its start, paused)
    key(app, pygame.K_SPACE)
    return app, scene, before


def test_a_structure_made_stiffer_while_it_runs_gets_a_step_it_can_take():
    """Explicit steps only (`integrator="rk4"`): the stable step shrinks with the stub."""
    app, scene, before = stiffen_while_running(None, "rk4")
    assert scene.session.sim.dt < before / 4
    app.run(120)
    assert scene.session.problem is None and np.isfinite(scene.session.sim.state.pos).all()
    app.close()


def test_a_structure_made_stiffer_while_it_runs_goes_on_with_implicit_steps():
    """The game's own choice: the stub would need 71,000 explicit steps a second, so the
    run goes on with Newmark at 1/120 s, and stays stable."""
    app, scene, before = stiffen_while_running(None)
    assert before > 1e-4 and scene.session.sim.integrator == "newmark" and scene.session.sim.dt == 1.0 / 120.0
    app.run(120)
    assert scene.session.problem is None and np.isfinite(scene.session.sim.state.pos).all()
    app.close()


def test_a_structure_made_stiffer_than_a_chosen_step_allows_is_caught_and_names_the_new_member():
    probe, _, before = stiffen_while_running(None)
    probe.close()
    app, scene, _ = stiffen_while_running(before)  # the step that was stable before the edit
    assert scene.session.problem and "the stiffest element is member 'M2'" in scene.session.problem
    safe = float(scene.session.problem.split("a step of ")[1].split(" s")[0])
    assert safe < before / 4 and math.isclose(safe, stable(scene), rel_tol=1e-2)
    assert scene.session.sim.time == 0.0 and np.isfinite(scene.session.sim.state.pos).all()
    app.close()


def stable(scene) -> float:
    from equilibria.engine.simulation import stable_dt_for

    return stable_dt_for(scene.session.model, scene.session.sim.integrator)
