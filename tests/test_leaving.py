"""Leaving and moving on: Esc closes the top box, then cancels what a tool half did,
then asks before it leaves; after a pass a button (or N) opens the next level of the
course; Ctrl+R resets the level, and Ctrl+Z brings the work back."""

from __future__ import annotations

from types import SimpleNamespace

import pygame
from test_play_session import click, key, start

from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.stage import load_stage
from equilibria.course.progress import Progress
from equilibria.course.syllabus import load_course, reference_solution, shipped_level


def passed(level: str, tmp_path):
    stage = load_stage(shipped_level(level))
    app, scene = start(stage, progress=Progress.load(tmp_path), bench=bench_of_solution(stage, str(reference_solution(level))))
    key(app, pygame.K_c)
    app.frame()
    assert scene.session.verdict.passed
    return app, scene


def test_after_a_pass_the_next_level_button_opens_the_next_level_of_the_course(tmp_path):
    app, scene = passed("tutorial-01", tmp_path)
    app.frame()
    [(_, again), (button, action)] = scene.buttons
    assert (again, action) == ("try_again", "next_level")
    click(app, button.center)
    following = load_course().next_after("tutorial-01")
    assert isinstance(app.scene, PlayScene) and app.scene is not scene
    assert app.scene.session.level_bench.level.id == following == "tutorial-02"
    assert Progress.load(tmp_path).won("tutorial-01")
    app.close()


def test_the_verdict_box_foot_stays_clear_of_its_buttons(tmp_path):
    """A build level's pass has three buttons (Members, Try again, Next level) on the
    foot's line: the foot ran under them, cut to 'Esc: fold this'. How the check was
    judged (the integrator, its step) is for `check --json`, never the student's text."""
    from equilibria.app.widgets import overlay
    from equilibria.app.widgets.panels import verdict_texts

    app, scene = passed("bridge-01", tmp_path)
    app.frame()
    _, text, foot, _ = verdict_texts(scene.session)
    assert "Judged with" not in text and "RK4" not in text and " ms" not in text
    assert len(scene.buttons) == 3
    foot_right = min(rect.left for rect, _ in scene.buttons) - 8
    box_left = max(rect.right for rect, _ in scene.buttons) - overlay.message_size(scene.app.fonts, scene.layout.world, text)[0] + overlay.PAD
    assert box_left + overlay.PAD + scene.app.fonts.small.size(foot)[0] < foot_right
    app.close()


def test_the_last_level_says_so_instead_of_moving_on(tmp_path, monkeypatch):
    course = load_course()
    assert course.next_after(course.level_ids()[-1]) is None and course.next_after("no-such-level") is None
    app, scene = passed("tutorial-01", tmp_path)
    as_if_last = SimpleNamespace(next_after=lambda level_id: None)  # as if tutorial-01 were the last
    monkeypatch.setattr("equilibria.app.session.play.load_course", lambda: as_if_last)
    key(app, pygame.K_n)
    assert app.scene is scene and "last level" in scene.session.notice
    app.close()


def test_escape_closes_a_box_then_cancels_a_tool_then_asks_then_leaves(tmp_path):
    stage = load_stage(shipped_level("bridge-01"))
    app, _ = start(stage)
    app.scenes.insert(0, MenuScene(app))  # a menu under the level, as the game has it
    scene = app.scene
    key(app, pygame.K_F1)
    assert scene.help.is_open
    key(app, pygame.K_ESCAPE)
    assert not scene.help.is_open and app.scene is scene
    scene.toolbar.choose("member")
    model = scene.session.model
    click(app, scene.view.point(*model.arrays.pos0[model.node_index("A"), :2]))
    assert scene.toolbar.tool.pending == ["A"]
    key(app, pygame.K_ESCAPE)
    assert scene.toolbar.tool.pending == [] and app.scene is scene
    key(app, pygame.K_ESCAPE)
    assert scene.leaving.is_open and app.scene is scene  # asks
    key(app, pygame.K_a)  # any other key: stays
    assert not scene.leaving.is_open and app.scene is scene
    key(app, pygame.K_ESCAPE)
    app.frame()
    [(_, stay), (leave, what)] = scene.buttons
    assert stay == "stay"
    assert what == "leave"
    click(app, leave.center)
    assert isinstance(app.scene, MenuScene)
    app.close()


def test_reset_level_takes_every_move_back_and_undo_brings_them_back(tmp_path):
    stage = load_stage(shipped_level("bridge-01"))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution("bridge-01"))))
    moves = list(scene.session.bench.moves)
    assert moves
    key(app, pygame.K_r, pygame.KMOD_CTRL)
    assert scene.session.bench.moves == [] and "Ctrl+Z" in scene.session.notice
    key(app, pygame.K_r, pygame.KMOD_CTRL)
    assert "nothing to take back" in scene.session.notice
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.session.bench.moves == moves
    app.close()


def test_the_support_tool_says_only_the_supports_the_level_offers():
    stage = load_stage(shipped_level("supports-01"))
    app, scene = start(stage)
    assert scene.toolbar.current == "support"  # the task is supports: the tool in hand
    offered = scene.session.level_bench.level.player.supports
    tip = scene.toolbar.tool.tip_for(scene.session)
    assert tip.count("→") == len(offered) and tip.endswith("no support")
    if all(set(fix) != {"x", "y", "rot"} for fix in offered):
        assert "fixed" not in tip
    app.close()
