"""The zoom never jumps past what a click can use, at any number of nodes (issue 26
point 6). One node in the sandbox has no size; the zoom limits once took it as 1e-9 m
across, so one wheel notch out jumped the view to 4e10 px/m, where every click fell on
the node ("Node N1 is already there"). The limits now take a structure as at least
SMALLEST_SPAN across: a notch out changes the view by one notch's factor, and a click a
hundred pixels away places a second node there."""

from __future__ import annotations

import pygame
import pytest

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.camera import ZOOM_STEP
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage
from equilibria.app.session.view import SMALLEST_PX, SMALLEST_SPAN, View
from equilibria.app.window.app import App
from equilibria.course.progress import Progress


def post(kind: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(kind, **fields))


def click(app: App, at: tuple[int, int]) -> None:
    post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=at, button=1)
    post(pygame.MOUSEBUTTONUP, pos=at, button=1)
    app.frame()


@pytest.mark.parametrize("notches", [1, -1, 30, -30])
def test_one_node_and_the_wheel_keep_the_zoom_where_a_click_can_use_it(tmp_path, notches):
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, Stage.empty_sandbox(), progress=Progress.load(tmp_path))
    app.push(scene)
    app.frame()
    scene.choose_tool("node")
    world = scene.layout.world
    click(app, world.center)
    nodes = scene.session.bench.design()["nodes"]
    assert len(nodes) == 1
    before = scene.view.scale
    for _ in range(abs(notches)):  # the wheel over the node, as the player turns it
        post(pygame.MOUSEMOTION, pos=world.center, rel=(0, 0), buttons=(0, 0, 0))
        post(pygame.MOUSEWHEEL, x=0, y=1 if notches > 0 else -1, flipped=False)
        app.frame()
    scale = scene.view.scale
    least, most = View.scale_limits((0.0, 0.0, 0.0, 0.0), (world.x, world.y, world.w, world.h))
    assert least == pytest.approx(SMALLEST_PX / SMALLEST_SPAN) and least <= scale <= most
    if abs(notches) == 1:  # one notch: one notch's change (or a limit), never a jump
        assert scale == pytest.approx(before * ZOOM_STEP**notches, rel=1e-9) or scale in (least, most)
    # a click 100 px to the right of the node, off the grid (Shift), is a new node, not "already there"
    node = scene.view.point(nodes[0]["x"], nodes[0]["y"])
    pygame.key.set_mods(pygame.KMOD_SHIFT)
    try:
        click(app, (round(node[0]) + 100, round(node[1])))
    finally:
        pygame.key.set_mods(0)
    assert len(scene.session.bench.design()["nodes"]) == 2, scene.session.notice
