"""Small defects met in play (issue 33 point 5), each with a test that fails without its
fix: a size given before the command holds; the German status line writes money as the
brief does; the legend names broken members only once one has broken; after a pass the
status line says the structure stands, not "moving"; "real time" is not said beside a
slow motion; a structure that statics cannot balance says so under its net force; R after
a free run that flew off brings the structure back into view."""

from __future__ import annotations

import pygame
from test_no_answer_on_screen import recording_app
from test_play_session import key, start

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.panels import net_force_lines, status_text
from equilibria.cli.main import build_parser, main
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.words.i18n import speaking


def test_a_size_given_before_the_command_holds(tmp_path):
    """`equilibria --size 800x600 play …` opened 1280×800: the command's own --size,
    not given, set its default over the one given before it."""
    assert build_parser().parse_args(["--size", "800x600", "play", "tutorial-01"]).size == (800, 600)
    assert build_parser().parse_args(["play", "tutorial-01", "--size", "900x700"]).size == (900, 700)
    shot = tmp_path / "small.png"
    assert main(["--size", "800x600", "play", "tutorial-01", "--frames", "2", "--screenshot", str(shot)]) == 0
    assert pygame.image.load(str(shot)).get_size() == (800, 600)


def test_the_german_status_line_writes_money_as_the_brief_does():
    with speaking("de"):
        _app, scene = start(load_stage(shipped_level("bridge-01")))
        line = status_text(scene).replace("\u00a0", " ")  # the amount and its sign kept together
    assert "2.500 $" in line and "$2.500" not in line and "$0" not in line, line


def test_the_legend_names_broken_members_only_once_one_has_broken():
    app, said = recording_app()
    scene = PlayScene(app, load_stage(shipped_level("bridge-01")))
    app.push(scene)
    with speaking("en"):
        app.frame()
    words = [text for text, _ in said]
    assert scene.session.sim.breakable and not scene.session.broke
    assert "broken" not in words and "broke first" not in words, words
    scene.session.broken_seen.add("AB")  # as say_breaks notes a break
    said.clear()
    with speaking("en"):
        app.frame()
    assert "broken" in [text for text, _ in said]


def test_after_a_pass_the_status_line_says_it_stands():
    app, scene = start(load_stage(shipped_level("balance-01")))
    bench = scene.session.bench
    assert bench.restore(list(load_solution(read_json(reference_solution("balance-01"))).moves))
    with speaking("en"):
        scene.session.check()
        assert scene.session.passed
        for _ in range(30):
            app.frame()
        line = status_text(scene)
    assert "it stands: passed" in line and "moving" not in line, line


def test_real_time_is_not_said_beside_a_slow_motion():
    app, scene = start(load_stage(shipped_level("demo-beam-vibration")))
    with speaking("en"):
        assert "the motion is shown in real time" in status_text(scene)
        key(app, pygame.K_LEFTBRACKET)  # slower: slow motion
        assert scene.session.pacer.speed < 1
        line = status_text(scene)
    assert "real time" not in line, line


def test_statics_that_cannot_balance_says_so_under_its_net_force():
    """A bar on a pin and a roller along its own line: it swings (a mechanism); statics
    leaves the vertical load unbalanced, and the net force says that it cannot be in
    equilibrium as built."""
    data = {
        "materials": {"steel": {"E": 2e11, "density": 7850}},
        "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 2, "y": 0}],
        "members": [{"id": "AB", "i": "A", "j": "B", "material": "steel", "A": 1e-3}],
        "supports": [{"node": "A", "fix": ["x"]}],
        "loads": [{"node": "B", "fy": -1000.0}],
        "world": {"gravity": 0.0},
    }
    sim = Simulation(build_model(data), "rk4")
    with speaking("en"):
        lines = net_force_lines(sim, static=True)
    assert any("cannot be in equilibrium" in line for line in lines), lines


def test_r_after_a_free_run_that_flew_off_brings_the_structure_back_into_view():
    """particle-01 with one force far too big, run free (Space, no check): the view follows
    the ring off; R puts it back where it was built and in view."""
    app, scene = start(load_stage(shipped_level("particle-01")))
    s = scene.session
    s.bench.restore(list(load_solution({"format": 1, "level": "particle-01", "moves": [{"type": "add_force", "node": "A1", "fx": 9e5, "fy": 0.0}]}).moves))
    app.frame()
    key(app, pygame.K_SPACE)
    for _ in range(240):
        app.frame()
    world = pygame.Rect(scene.picture.camera.world)
    key(app, pygame.K_r)
    app.frame()
    drawn = scene.picture.drawn_rect()
    assert drawn is not None and drawn.colliderect(world), (drawn, world)


def test_the_point_the_net_force_takes_moments_about_is_labelled():
    """supports-01: the side panel's net force says "ΣM about B" once supports are placed;
    B was not labelled on the picture."""
    from equilibria.rules.common import moment_point

    _app, scene = start(load_stage(shipped_level("supports-01")))
    about = moment_point(scene.session.stage.level)
    assert about == "B" and about in scene.picture.names()


def test_the_status_line_says_checking_not_paused_while_a_check_is_judged(monkeypatch):
    """While C's check was judged beside the frames the status line said "paused (Space runs)"."""
    _app, scene = start(load_stage(shipped_level("reactions-02")))
    monkeypatch.setattr(scene.session, "judging", object())
    line = status_text(scene)
    assert "checking" in line and "paused" not in line, line


def test_the_window_has_the_apps_icon(monkeypatch):
    """The app shipped assets/icon.png for its desktop entry, but the window kept pygame's snake."""
    from equilibria.app.window.app import App

    icons = []
    monkeypatch.setattr(pygame.display, "set_icon", icons.append)
    App((800, 600)).close()
    assert len(icons) == 1 and icons[0].get_size()[0] >= 32


def test_show_the_answer_is_judged_beside_the_frames_not_in_the_windows_thread(monkeypatch):
    """Ctrl+A twice put the answer in and judged it at once in the window's thread (the
    window held still as long as the check took); it now goes the way C does: "Checking…"
    drawn, then judged beside the frames, Esc able to stop it."""
    from equilibria.app.session.play import PlaySession

    def held(self, *args, **kwargs):
        raise AssertionError("judged in the window's thread")

    monkeypatch.setattr(PlaySession, "check", held)
    _app, scene = start(load_stage(shipped_level("reactions-02")))
    with _app:
        key(_app, pygame.K_a, pygame.KMOD_CTRL)
        key(_app, pygame.K_a, pygame.KMOD_CTRL)
        assert scene.checking or scene.session.judging is not None or scene.session.verdict is not None
        for _ in range(4):
            _app.frame()
        assert scene.session.verdict is not None  # the worked answer, checked: it stands, and counts for nothing
        assert scene.session.level_bench.attempt.shown


def test_a_member_click_just_beside_a_node_says_it_made_a_new_joint_there():
    """tutorial-04, a member begun at A, then a click 20 px right of C (6 px outside its
    reach): a new joint and the member A to it were made without a word, the student
    thinking they had joined C."""
    from test_play_session import click, tool
    from test_playtest import node_at

    app, scene = start(load_stage(shipped_level("tutorial-04")))
    with app:
        tool(app, scene, "member")
        click(app, node_at(scene, "A"))
        x, y = node_at(scene, "C")
        scene.session.notice = ""
        click(app, (x + 20, y))
        made = scene.toolbar.tool.pending[0]
        assert made not in ("A", "C")
        notice = scene.session.notice
        assert f"new joint {made}, 20 px beside C" in notice and "Ctrl+Z" in notice, notice
