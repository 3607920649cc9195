"""The view never loses the structure (issue 23, point 2): after a check, failed or
passed, after Try again, after a resize and in a small window F fits what is drawn now;
a body that flies off is followed and its run stopped once it is clearly away (the
notice says which way it went); the player's own view comes back with T."""

from __future__ import annotations

import json

import numpy as np
import pygame
import pytest

from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.camera import VIEW_MARGIN, Camera
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.session.view import View
from equilibria.app.window.app import App
from equilibria.course.syllabus import reference_solution, shipped_level


def drawn(scene: PlayScene) -> np.ndarray:
    """(N, 2) [px] where the nodes are drawn now."""
    return np.array([scene.picture.point_of(q) for q in range(scene.session.model.n_nodes)])


def inside(scene: PlayScene, pts: np.ndarray) -> bool:
    world = scene.layout.world
    return bool(((pts[:, 0] >= world.left) & (pts[:, 0] <= world.right) & (pts[:, 1] >= world.top) & (pts[:, 1] <= world.bottom)).all())


def span(pts: np.ndarray) -> float:
    return float(np.ptp(pts, axis=0).max())


@pytest.fixture
def wrong_sign(tmp_path):
    """particle-01's reference answer with cable RB's pull turned to the left."""
    data = json.loads(reference_solution("particle-01").read_text())
    data["moves"][1]["fx"] = -data["moves"][1]["fx"]
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data))
    return path


def opened(level_id: str, solution) -> tuple[App, PlayScene]:
    stage = load_stage(shipped_level(level_id))
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, stage, bench=bench_of_solution(stage, str(solution)) if solution else None)
    app.push(scene)
    app.run(2)
    return app, scene


def test_a_body_thrown_off_by_a_wrong_sign_stays_in_view_and_its_run_stops(wrong_sign):
    app, scene = opened("particle-01", wrong_sign)
    with app:
        scene.zoom(1.3, (300, 300))  # the player's own view
        before = scene.view
        scene.check()
        app.run(2)
        assert scene.session.verdict is not None and not scene.session.verdict.passed
        camera = scene.picture.camera
        assert camera.below > 0  # the verdict's box at the foot of the world
        for _ in range(20):  # 6 s: unchecked, the ring is 400 m away (the first report: an empty canvas)
            app.run(18)
            assert inside(scene, drawn(scene))
            assert (drawn(scene)[:, 1] <= scene.layout.world.bottom - camera.below).all()  # above the verdict
        s = scene.session
        assert s.paused and "to the left" in s.notice  # RB's force turned left: the ring went left
        moved = float(np.hypot(*(s.sim.state.pos[:, :2] - s.model.arrays.pos0[:, :2]).mean(axis=0)))
        assert moved < 3 * s.model.char_length  # stopped once clearly away, not flown on
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_f, mod=0, unicode="f"))
        app.frame()
        assert inside(scene, drawn(scene)) and span(drawn(scene)) > 0.3 * min(scene.layout.world.size)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t"))
        app.frame()
        assert scene.session.verdict is None
        assert scene.view == before  # the player's view, as it was before the check
        assert inside(scene, drawn(scene))


def test_after_a_pass_and_try_again_the_structure_is_in_view():
    app, scene = opened("free-body-01", reference_solution("free-body-01"))
    with app:
        scene.check()
        app.run(60)
        assert scene.session.passed and inside(scene, drawn(scene))
        scene.fit_view()
        assert inside(scene, drawn(scene))
        scene.try_again()
        app.frame()
        assert inside(scene, drawn(scene))


@pytest.mark.parametrize("size", [(800, 600), (640, 480)])
def test_in_a_small_window_the_structure_is_fitted_not_a_dot(size):
    app, scene = opened("bridge-01", None)
    with app:
        pygame.display.set_mode(size, pygame.RESIZABLE)
        app.frame()
        scene.fit_view()
        app.frame()
        pts = drawn(scene)
        assert inside(scene, pts)
        assert span(pts) > 0.3 * min(scene.layout.world.size)  # 6 m across at least a third of the world


def test_a_fit_in_a_rect_smaller_than_its_margins_still_fills_it():
    """The margin shrinks with the rect: a 6 m deck in a 200 × 120 px rect spans most of
    its width (the margin of 150 px each side left it 10⁻⁶ px/m, a dot)."""
    view = View.fit((0.0, 0.0, 6.0, 1.0), (0, 0, 200, 120), 150)
    x0, _ = view.point(0.0, 0.0)
    x1, _ = view.point(6.0, 0.0)
    assert 0.5 * 200 <= x1 - x0 <= 200


def test_the_camera_follows_a_box_that_moves_off_and_zooms_out_only_when_it_must():
    camera = Camera((0.0, 0.0, 4.0, 3.0), (0, 0, 800, 600))
    scale = camera.view.scale
    for dx in np.linspace(0.0, 50.0, 11):  # the body slides 50 m to the right
        camera.follow((dx, 0.0, dx + 4.0, 3.0))
        assert camera.view.contains((dx, 0.0, dx + 4.0, 3.0), camera.inner())
    assert camera.view.scale == scale  # panned, not zoomed
    camera.follow((0.0, 0.0, 40.0, 3.0))  # it grew past the window
    assert camera.view.contains((0.0, 0.0, 40.0, 3.0), camera.inner()) and camera.view.scale < scale


def test_a_player_zoomed_in_on_a_detail_is_not_zoomed_out_by_the_run():
    camera = Camera((0.0, 0.0, 4.0, 3.0), (0, 0, 800, 600))
    box = (0.0, 0.0, 4.0, 3.0)
    camera.zoom(4.0, (400, 300), box)
    zoomed = camera.view
    camera.follow(box)
    assert camera.view == zoomed


def test_the_portal_demo_that_falls_stays_in_view():
    """demo-portal-unbraced sways over at about 9 s and falls below its pins."""
    app, scene = opened("demo-portal-unbraced", None)
    with app:
        for _ in range(12):
            app.run(60)
            assert inside(scene, drawn(scene))
        assert scene.session.sim.time > 11.0


def values_drawn(scene) -> list[pygame.Rect]:
    """The boxes [px] of the force values (loads, reactions, the student's forces, at
    their arrows' far ends) the last frame drew, where they are meant to go (before a
    label is clamped into the screen or left out: the painter's `ends`)."""
    return [pygame.Rect(left, top, right - left, bottom - top) for left, top, right, bottom in scene.picture.painter.ends]


@pytest.mark.parametrize("level_id", ["particle-01", "free-body-01"])
def test_after_a_failed_check_the_force_arrows_and_their_values_stay_in_view(level_id, tmp_path):
    """The first force of the reference answer turned round: the run follows the body
    with its arrows, and F at 800 × 600 fits the arrows' values too (a reaction's value
    was left below the world)."""
    data = json.loads(reference_solution(level_id).read_text())
    first = next(m for m in data["moves"] if "fx" in m)
    first["fx"] = -first["fx"]
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data))
    app, scene = opened(level_id, path)
    with app:
        pygame.display.set_mode((800, 600), pygame.RESIZABLE)
        app.frame()
        scene.check()
        app.run(2)
        assert scene.session.verdict is not None and not scene.session.verdict.passed
        for _ in range(6):
            app.run(18)
            app.frame()
            boxes, world = values_drawn(scene), scene.layout.world
            assert boxes and all(world.contains(b) for b in boxes), (world, boxes)
            assert all(b.bottom <= world.bottom - scene.picture.camera.below for b in boxes)  # none under the verdict
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_f, mod=0, unicode="f"))
        app.frame()
        app.frame()
        boxes, world = values_drawn(scene), scene.layout.world
        assert boxes and all(world.contains(b) for b in boxes), (world, boxes)
        assert all(b.bottom <= world.bottom - scene.picture.camera.below for b in boxes)  # none under the verdict
        assert inside(scene, drawn(scene))


def test_a_resize_with_the_verdict_open_keeps_the_structure_above_it_and_t_brings_back_the_players_view(wrong_sign):
    """A failed check, then the window made 800 × 600: the structure is moved above the
    verdict at once (not left under it until Esc); T gives back the view the player had,
    fitted to the new window (its centre and its zoom relative to the fit kept), not one
    fitted to the old window (small in the new one)."""
    app, scene = opened("particle-01", wrong_sign)
    with app:
        camera = scene.picture.camera
        fitted = View.fit(camera.bounds, camera.world, VIEW_MARGIN).scale
        scene.zoom(1.3, (300, 300))
        zoom = scene.view.scale / fitted  # the player's zoom, relative to the fit
        scene.check()
        app.run(20)
        assert scene.session.verdict is not None and not scene.session.verdict.passed
        pygame.display.set_mode((800, 600), pygame.RESIZABLE)
        app.frame()
        verdict = scene.parts.by_name("verdict").rect
        pts = drawn(scene)
        assert inside(scene, pts) and (pts[:, 1] < verdict.top).all()  # above the verdict, not under it
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t"))
        app.frame()
        assert scene.session.verdict is None
        camera = scene.picture.camera
        now = View.fit(camera.bounds, camera.world, VIEW_MARGIN).scale
        assert scene.view.scale / now == pytest.approx(zoom, rel=1e-9)  # the same zoom on the new window's fit
        assert inside(scene, drawn(scene))


def test_f_after_the_verdict_is_folded_fits_the_structure_to_the_world_above_the_strip(wrong_sign):
    """Esc folds the verdict to a strip: F then fits the structure to the world above the
    strip, not above the box that is no longer there."""
    app, scene = opened("particle-01", wrong_sign)
    with app:
        pygame.display.set_mode((800, 600), pygame.RESIZABLE)
        app.frame()
        scene.check()
        app.run(40)
        camera = scene.picture.camera
        open_box = camera.below
        assert open_box > 100  # the verdict's box
        for key in (pygame.K_ESCAPE, pygame.K_f):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))
            app.frame()
        assert scene.verdict_box.folded
        strip = scene.parts.by_name("verdict").rect
        assert camera.below <= strip.height + 8 < open_box
        pts = drawn(scene)
        assert inside(scene, pts) and (pts[:, 1] < strip.top).all()
