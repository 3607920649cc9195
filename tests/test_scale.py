"""A scale for text and lines (issue 33 point 3): Ctrl+= and Ctrl+− step it from 75 % to
200 % (Ctrl+0 back to 100 %) in the play screen and the level select, the picture's lines
grow with the text, the choice is kept with the progress for the next start, a
high-density display starts at 150 %, and a window too small for the scale chosen draws
at the largest it holds. (The layout holds at every scale: tests/test_layout.py.)"""

from __future__ import annotations

import json

import numpy as np
import pygame
import pytest
from test_play_session import key, start

from equilibria.app import launch
from equilibria.app.draw.drawlist import Arrow, Bands
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.window import scale
from equilibria.app.window.app import App
from equilibria.course.progress import Progress
from equilibria.course.syllabus import shipped_level

CTRL = pygame.KMOD_LCTRL


def test_the_steps_run_from_75_to_200_and_ctrl_0_comes_back_to_100():
    assert scale.STEPS[0] == 75 and scale.STEPS[-1] == 200 and scale.NORMAL in scale.STEPS
    ups = [100]
    while ups[-1] != 200:
        ups.append(scale.stepped(ups[-1], 1))
    assert ups == [100, 110, 125, 150, 175, 200]
    assert scale.stepped(200, 1) == 200 and scale.stepped(75, -1) == 75  # held at the ends
    assert scale.stepped(100, -1) == 90 and scale.stepped(90, -1) == 75
    assert scale.stepped(120, -1) == 110 and scale.stepped(120, 1) == 125  # a scale between steps (an older file): to the next
    assert scale.stepped(175, 0) == 100


def test_a_window_too_small_for_the_scale_draws_at_the_largest_it_holds():
    assert scale.held(200, (800, 600)) == 100  # every part is laid out for 800 × 600 at 100 %
    assert scale.held(75, (800, 600)) == 75
    assert scale.held(200, (1280, 800)) == 125  # 1280 / 800 = 1.6, 800 / 600 = 1.33
    assert scale.held(200, (2560, 1440)) == 200
    assert scale.held(150, (1920, 1200)) == 150


def test_a_high_density_display_starts_larger_and_its_window_with_it():
    assert scale.starting((2560, 1440)) == 150 and scale.starting((3840, 2160)) == 150
    assert scale.starting((1920, 1080)) == 100 and scale.starting(None) == 100
    assert scale.window_for((1280, 800), 150, (2560, 1440)) == (1920, 1200)
    assert scale.window_for((1280, 800), 150, (1920, 1080)) == (1280, 800)  # the desktop cannot hold it: as asked
    assert scale.window_for((1280, 800), 100, (2560, 1440)) == (1280, 800)


def test_the_game_starts_at_the_kept_scale_else_at_the_displays(tmp_path, monkeypatch):
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    monkeypatch.setattr(pygame.display, "get_desktop_sizes", lambda: [(2560, 1600)])
    assert launch.players_scale() == (150, (2560, 1600))
    progress = Progress.load(tmp_path)
    progress.set_scale(90)
    progress.save()
    assert launch.players_scale() == (90, (2560, 1600))
    shot = tmp_path / "shot.png"
    assert launch.play(str(shipped_level("tutorial-01")), frames=1, screenshot=str(shot), size=(1280, 800)) == 0  # at 90 %: starts and draws
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)


def test_ctrl_plus_and_minus_scale_the_play_screen_and_keep_it(tmp_path):
    """Ctrl+= makes every font larger at once (and the lines with them), Ctrl+− smaller,
    Ctrl+0 back to 100 %; the progress keeps the choice; = and − alone still change the
    speed, not the text."""
    progress = Progress.load(tmp_path)
    app, scene = start(load_stage(shipped_level("bridge-01")), progress=progress)
    with app:
        pygame.display.set_mode((2560, 1440))
        body = app.fonts.body.get_linesize()
        key(app, pygame.K_EQUALS, CTRL)
        key(app, pygame.K_EQUALS, CTRL)
        assert app.scale == 125 and app.fonts.scale == 1.25
        assert app.fonts.body.get_linesize() > body
        assert "125 %" in scene.session.notice
        assert json.loads((tmp_path / "progress.json").read_text())["scale"] == 125
        assert scene.layout.legend.width > 236 and scene.layout.toolbar.height > 44  # the parts grow with the text
        speed = scene.session.pacer.speed
        key(app, pygame.K_EQUALS)  # without Ctrl: faster
        assert scene.session.pacer.speed > speed and app.scale == 125
        key(app, pygame.K_MINUS, CTRL)
        assert app.scale == 110
        key(app, pygame.K_0, CTRL)
        assert app.scale == 100 and app.fonts.scale == 1.0 and scene.toolbar.current != "drag"  # Ctrl+0 is no tool key
        assert Progress.load(tmp_path).scale == 100


def test_the_window_too_small_tells_the_player_and_a_larger_one_brings_the_scale_back(tmp_path):
    app, scene = start(load_stage(shipped_level("bridge-01")), progress=Progress.load(tmp_path))
    with app:
        pygame.display.set_mode((1280, 800))
        for _ in range(4):
            key(app, pygame.K_KP_PLUS, CTRL)
        assert app.scale == 175 and app.fonts.scale == 1.25
        assert "175 %" in scene.session.notice and "larger window" in scene.session.notice
        pygame.display.set_mode((2560, 1440))
        app.frame()
        assert app.fonts.scale == 1.75


def test_the_level_select_scales_too(tmp_path):
    with App(fixed_frame=FRAME) as app:
        pygame.display.set_mode((1920, 1080))
        progress = Progress.load(tmp_path)
        menu = MenuScene(app, progress=progress)
        app.push(menu)
        app.frame()
        row = menu.levels.places()[0].height
        key(app, pygame.K_PLUS, CTRL)
        assert app.scale == 110 and progress.scale == 110
        assert menu.levels.places()[0].height > row
        key(app, pygame.K_KP_MINUS, CTRL)
        key(app, pygame.K_KP_MINUS, CTRL)
        assert app.scale == 90 and Progress.load(tmp_path).scale == 90


def test_the_pictures_lines_grow_with_the_text(tmp_path):
    app, scene = start(load_stage(shipped_level("bridge-01")), progress=None)
    with app:
        pygame.display.set_mode((2560, 1440))
        painter, view, sim = scene.picture.painter, scene.view, scene.session.sim
        area = pygame.Rect(0, 0, 2000, 1200)

        def lines() -> tuple[np.ndarray, list[int]]:
            items = painter.sketch(area, view, sim, values=False)
            (bands,) = [i for i in items if isinstance(i, Bands)]
            return bands.width.copy(), [a.width for a in items if isinstance(a, Arrow)]

        widths, arrows = lines()
        app.set_scale(200)
        wider, thicker = lines()
        assert wider == pytest.approx(2 * widths)
        assert arrows and all(b == 2 * a for a, b in zip(arrows, thicker, strict=True))


def test_the_progress_keeps_the_scale_beside_another_copys_work(tmp_path):
    ours, theirs = Progress.load(tmp_path), Progress.load(tmp_path)
    theirs.set_scale(150)
    theirs.save()
    ours.opened("tutorial-01")
    ours.save()  # this copy chose no scale: the other's stays
    assert Progress.load(tmp_path).scale == 150
    ours.set_scale(75)
    ours.save()
    assert Progress.load(tmp_path).scale == 75
