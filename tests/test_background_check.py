"""A check judged beside the frame (issue 33 point 4, game/app/session/checking.py): the
window keeps drawing and says how far judging is while the judged run plays, Esc stops
it and nothing is counted, and the verdict is the one judged in one go, whether the
check ran free in its thread or in the lock step headless runs use. The judged runs
share nothing with the run the window shows (their own models and states): the window's
run goes on bit for bit as without a check. No thread outlives its test (conftest.py).
"""

from __future__ import annotations

import json
import threading

import numpy as np
import pygame
import pytest
from test_play_session import key

from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.checking import ALL, BackgroundCheck
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.window.app import App
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.rules.construction import BATCH as BATCH_SECONDS
from equilibria.work.attempt import Attempt

LONG = "bridge-03"  # the truck crosses, then the hold: a check of many batches


def solved(level: str, tmp_path, batches) -> tuple[App, PlayScene]:
    """The level open with its reference answer in hand, its checks judged in lock step
    of `batches` batches a frame (None: free, beside the frames)."""
    stage = load_stage(shipped_level(level))
    app = App(fixed_frame=FRAME, check_batches=batches)
    scene = PlayScene(app, stage, progress=Progress.load(tmp_path), bench=bench_of_solution(stage, str(reference_solution(level))))
    app.push(scene)
    app.frame()
    return app, scene


def verdict_alone(level: str):
    """The level's reference answer judged in one go, in this thread."""
    stage = load_stage(shipped_level(level))
    bench = bench_of_solution(stage, str(reference_solution(level)))
    return Attempt(stage.level, bench.attempt.moves, draw=bench.attempt.draw).check()


def assert_same(a, b) -> None:
    assert (a.passed, a.reason) == (b.passed, b.reason)
    assert json.dumps(a.figures, sort_keys=True, default=str) == json.dumps(b.figures, sort_keys=True, default=str)
    assert a.sim.time == b.sim.time
    assert np.array_equal(a.sim.state.pos, b.sim.state.pos) and np.array_equal(a.sim.state.vel, b.sim.state.vel)


def box_text(scene: PlayScene) -> str:
    """What the verdict's box says now: its title, its text and its foot."""
    title, _colour, rows, foot, _actions = scene.verdict_box.content(600)
    return " ".join([title, *(piece.text for _h, pieces in rows for piece in pieces), foot])


def test_the_window_draws_and_says_how_far_judging_is_while_the_check_runs(tmp_path):
    app, scene = solved(LONG, tmp_path, batches=5)
    with app:
        key(app, pygame.K_c)  # "Checking…" on the screen
        assert scene.session.judging is None
        seen = []
        for _ in range(4):
            drawn = app.frames
            app.frame()
            assert app.frames == drawn + 1  # a frame drawn while the check is judged
            seen.append(scene.session.judging.time)
            assert scene.session.verdict is None and scene.verdict_box.what() == "checking"
        # Lock step: five batches a frame, whatever the machine's speed (a batch is the
        # whole steps of the run's dt nearest BATCH_SECONDS).
        assert seen == pytest.approx([k * seen[0] for k in range(1, 5)]) and seen[0] == pytest.approx(5 * BATCH_SECONDS, rel=0.02)
        said = box_text(scene)
        assert "Judging: 0.4 s run, held at rest 0.0 of 1.0 s" in said, said  # the truck is still crossing: nothing held yet
        assert "Esc stops the check" in said
        for _ in range(2000):
            if scene.session.judging is None:
                break
            app.frame()
        assert scene.session.verdict is not None and scene.session.verdict.passed


def test_a_run_held_from_the_start_says_how_much_of_the_hold_is_held():
    """The plain judged run (game/rules/common.py run) is held as long as it has run."""
    check = BackgroundCheck(lambda: None)
    check._between_batches(0.4, 0.4, 1.0)
    assert check.said() == "Judging: 0.4 of 1.0 s held"
    check = BackgroundCheck(lambda: None)
    assert check.said() == "Judging: starting the run…"


def test_esc_stops_the_check_and_counts_nothing(tmp_path):
    app, scene = solved(LONG, tmp_path, batches=5)
    s = scene.session
    with app:
        key(app, pygame.K_c)
        for _ in range(3):
            app.frame()
        thread = s.judging._thread
        assert thread.is_alive() and s.judging.time > 0
        key(app, pygame.K_ESCAPE)
        assert s.judging is None and s.verdict is None and not thread.is_alive()
        assert s.level_bench.attempt.tries == 0 and Progress.load(tmp_path).tries(LONG) == 0
        assert "nothing is counted" in s.notice
        assert app.running and not scene.leaving.is_open  # Esc stopped the check; it did not ask to leave
        app.check_batches = ALL
        key(app, pygame.K_c)
        app.frame()
        assert s.verdict is not None and s.verdict.passed and s.level_bench.attempt.tries == 1
        assert Progress.load(tmp_path).marks(LONG) == 100  # the first try counted: full marks


def test_other_keys_wait_while_the_check_is_judged(tmp_path):
    """While judging, a key does nothing (an edit now would not be the answer judged)."""
    app, scene = solved(LONG, tmp_path, batches=5)
    with app:
        key(app, pygame.K_c)
        app.frame()
        moves = list(scene.session.level_bench.attempt.moves)
        key(app, pygame.K_z, pygame.KMOD_CTRL)  # undo
        key(app, pygame.K_DELETE)
        assert scene.session.level_bench.attempt.moves == moves and scene.session.judging is not None
        scene.session.cancel_check()


@pytest.mark.parametrize("batches", [7, None], ids=["lock step", "free"])
def test_a_check_beside_the_frames_gives_the_verdict_judged_in_one_go(tmp_path, batches):
    """The same verdict, figures and final state, bit for bit, as the check judged alone:
    whether in lock step or free in its thread (how the threads take turns changes
    nothing)."""
    alone = verdict_alone(LONG)
    app, scene = solved(LONG, tmp_path, batches=batches)
    with app:
        key(app, pygame.K_c)
        frames_judging = 0
        for _ in range(100_000):
            app.frame()
            if scene.session.judging is None:
                break
            frames_judging += 1
        assert scene.session.verdict is not None
        assert frames_judging >= 1  # the window drew while the check was judged
        assert_same(scene.session.verdict, alone)


def test_the_window_run_goes_on_unchanged_while_a_check_runs(tmp_path):
    """Run the structure (Space), then check it: while the check is judged in its thread,
    the window's own run advances exactly as it does without a check (no buffer shared)."""

    def running(check: bool) -> np.ndarray:
        app, scene = solved(LONG, tmp_path, batches=3)
        with app:
            key(app, pygame.K_SPACE)
            for _ in range(5):
                app.frame()
            if check:
                key(app, pygame.K_c)
            else:
                app.frame()
            for _ in range(10):
                app.frame()
            assert (scene.session.judging is not None) == check
            pos = scene.session.sim.state.pos.copy()
            scene.session.cancel_check()
        return pos

    assert np.array_equal(running(True), running(False))


def test_closing_the_app_ends_a_check_being_judged(tmp_path):
    app, scene = solved(LONG, tmp_path, batches=5)
    key(app, pygame.K_c)
    app.frame()
    thread = scene.session.judging._thread
    assert thread.is_alive()
    app.close()  # without quitting first, as a test or a crash does
    assert not thread.is_alive() and scene.session.judging is None
    assert not [t for t in threading.enumerate() if t is thread]
