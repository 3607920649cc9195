"""Words and picture agree (issue 23, point 3's small defects), each with its test: a
demo asks "Leave this demo?"; no stale "Pass this level first" after the pass; Esc in
the level select asks before it quits; a click beside a node, or the member tool's first
click on empty ground, says why nothing happened; Ctrl+Z after a bomb says the bomb
cannot be undone instead of taking away an earlier edit."""

from __future__ import annotations

import pygame
from test_play_session import click, key, start

from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.window.app import App
from equilibria.course.syllabus import reference_solution, shipped_level


def node_at(scene, node: str) -> tuple[float, float]:
    model = scene.session.model
    return scene.view.point(*model.arrays.pos0[model.node_index(node), :2])


def test_a_demo_opened_from_the_menu_asks_to_leave_the_demo():
    app, scene = start(load_stage(shipped_level("demo-beam-vibration")))
    app.scenes.insert(0, MenuScene(app))  # opened from the menu, as the game has it
    key(app, pygame.K_ESCAPE)
    assert scene.leaving.is_open
    app.frame()  # the question is drawn
    title, *_ = scene.parts.by_name("leave").content(400)
    assert title == "Leave this demo?"
    app.close()


def test_no_stale_pass_this_level_first_after_the_pass():
    stage = load_stage(shipped_level("tutorial-01"))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution("tutorial-01"))))
    key(app, pygame.K_n)  # N before a pass
    assert "Pass this level first" in scene.session.notice
    key(app, pygame.K_c)
    app.frame()
    assert scene.session.passed
    assert "Pass this level first" not in scene.session.notice
    app.close()


def test_esc_in_the_level_select_asks_before_it_quits():
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app)
        app.push(menu)
        app.frame()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
        app.frame()
        assert app.running and menu.leaving.is_open  # asks
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a"))
        app.frame()
        assert app.running and not menu.leaving.is_open  # any other key: stays
        for _ in range(2):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
            app.frame()
        assert not app.running  # Esc twice: leaves


def test_a_click_beside_a_node_says_why_nothing_happened():
    app, scene = start(load_stage(shipped_level("balance-01")))
    scene.choose_tool("force")
    x, y = node_at(scene, "B")
    click(app, (x + 20, y))  # 20 px beside B: out of reach
    assert scene.entry_box.entry is None and not scene.session.bench.moves
    assert "nearest, B, is 20 px away" in scene.session.notice
    app.close()


def test_the_member_tools_first_click_on_empty_ground_says_why():
    app, scene = start(load_stage(shipped_level("bridge-01")))
    scene.choose_tool("member")
    x, y = node_at(scene, "B")
    click(app, (x, y - 60))  # above the deck: nothing there
    assert scene.toolbar.tool.pending == []
    assert "A member starts at a node" in scene.session.notice
    app.close()


def test_ctrl_z_after_a_bomb_keeps_the_edits_and_says_why():
    app, scene = start(Stage.empty_sandbox())
    s = scene.session
    scene.choose_tool("node")
    for xy in ((0, 1), (4, 1), (2, 3)):
        click(app, scene.view.point(*xy))
    scene.choose_tool("member")
    for xy in ((0, 1), (4, 1), (2, 3), (0, 1)):
        click(app, scene.view.point(*xy))
    key(app, pygame.K_ESCAPE)
    scene.choose_tool("force")
    apex = scene.view.point(2, 3)
    click(app, apex, to=(apex[0], apex[1] + 35))
    edits = s.bench.revision
    s.run()
    app.run(3)
    s.bomb("member", s.model.member_ids[0])
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert s.bench.revision == edits and s.bench.design()["loads"]  # the load is still there
    assert "bomb cannot be undone" in s.notice and "R puts back" in s.notice
    key(app, pygame.K_r)  # R: the structure as built, the bombed member back
    key(app, pygame.K_z, pygame.KMOD_CTRL)  # now Ctrl+Z undoes the last edit, the load
    assert not s.bench.design().get("loads")
    app.close()
