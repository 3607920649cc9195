"""The game app, headless: play, sandbox and menu sessions, what the screen shows, and
the fixed-timestep loop. Sessions run through `equilibria.cli.main.main` as a player starts them,
or through the App API frame by frame with input posted in between."""

import json
import math

import numpy as np
import pygame
import pytest
from builders import BRIDGE_FORCES, bridge_truss
from drawing import arrows, band, of, texts

from equilibria.app.draw.drawlist import Dashes, Line, Polygon
from equilibria.app.draw.palette import ALERT, BROKEN, COMPRESSION, GROUND, GROUND_LINE, LOAD, MARK, PANEL, REACTION, TENSION
from equilibria.app.scenes.menu import MenuScene, Row, level_rows
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME, Pacer
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.session.view import View
from equilibria.app.widgets.panels import hud_lines
from equilibria.app.window.app import App
from equilibria.cli.main import main
from equilibria.course.level import load_level

P = 20e3  # [N] the truss load


def truss_level(P: float = P, **world) -> dict:
    """tests/builders.py bridge_truss as a demo level; the load ramps on over 0.3 s."""
    data = bridge_truss(P)
    data.update(format=1, id="truss", title="Two-panel truss", kind="demo", brief="A pin at A, a roller at C, a load at B.")
    data["world"].update(damping=0.05, **world)
    data["loads"][0]["history"] = [[0.0, 0.0], [0.3, 1.0]]
    return data


@pytest.fixture
def truss_file(tmp_path):
    path = tmp_path / "truss.json"
    path.write_text(json.dumps(truss_level()))
    return path


def session(stage: Stage, frames: int, **options) -> tuple[App, PlayScene]:
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, stage, **options)
    app.push(scene)
    app.run(frames)
    return app, scene


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def count(image: pygame.Surface, colour, rect: pygame.Rect | None = None) -> int:
    """Pixels of exactly `colour` in rect (default: everywhere)."""
    rect = rect or image.get_rect()
    block = pygame.surfarray.array3d(image)[rect.left : rect.right, rect.top : rect.bottom]
    return int(np.all(block == np.array(colour), axis=-1).sum())


# ---------------------------------------------------------------------- seeing forces
def test_tension_blue_and_compression_vermillion_where_statics_says(truss_file, drawn):
    """Read from the frame's drawing records (tests/drawing.py): each member's band in the
    colour of the sign statics gives it, from its joint to its joint as drawn, and DE (the
    largest |N|) the widest."""
    app, scene = session(load_stage(truss_file), 59)
    with app:
        drawn.clear()
        app.frame()
        model, picture = scene.session.model, scene.picture
        bands = {mid: band(drawn, k) for k, mid in enumerate(model.member_ids)}
        ends = {mid: tuple(picture.point_of(model.node_index(n)) for n in mid) for mid in model.member_ids}  # where the joints are drawn
    for member, share in BRIDGE_FORCES.items():
        drawn_as = bands[member]
        assert drawn_as is not None, member
        assert drawn_as.colour == (TENSION if share > 0 else COMPRESSION), f"{member} should be drawn in {'tension' if share > 0 else 'compression'}"
        assert (*drawn_as.a, *drawn_as.b) == pytest.approx((*ends[member][0], *ends[member][1]), abs=1e-6), member
    assert max(bands, key=lambda m: bands[m].width) == "DE"
    assert bands["DE"].width > bands["AB"].width + 3  # the widest member (DE, −P) wider than the chords at P/2


def test_broken_members_are_dashed_and_the_first_is_marked(drawn):
    data = truss_level(P=300e3, breakable=True)
    data["materials"]["steel"]["strength"] = 250e6  # DE at −P passes A·strength first
    for m in data["members"]:
        m["I"] = 1e-6
    app, scene = session(Stage.from_level(load_level(data)), 19)  # DE breaks at t = 0.25 s
    with app:
        drawn.clear()
        app.frame()
        broken = [mid for mid, f in scene.session.sim.results()["members"].items() if f["broken"]]
        assert "DE" in broken
        model, picture = scene.session.model, scene.picture
        d, e = (picture.point_of(model.node_index(n)) for n in "DE")
    dashes = [(*x.a, *x.b) for x in of(Dashes, drawn) if x.colour == BROKEN]
    assert pytest.approx((*d, *e), abs=1e-6) in dashes  # DE dashed, from D to E
    assert band(drawn, model.member_ids.index("DE")) is None  # and no band
    middle = (0.5 * (d[0] + e[0]), 0.5 * (d[1] + e[1]))
    cross = [x for x in of(Line, drawn) if x.colour == MARK]
    assert len(cross) == 2 and all(pytest.approx(middle) == (0.5 * (x.a[0] + x.b[0]), 0.5 * (x.a[1] + x.b[1])) for x in cross)  # a cross on its middle


def test_ground_supports_loads_and_reactions_are_drawn(drawn):
    data = truss_level()
    data["world"]["ground"] = [[-2, 0], [6, 0]]
    app, scene = session(Stage.from_level(load_level(data)), 39)
    with app:
        drawn.clear()
        app.frame()
        assert {kind for _, kind, _ in scene.picture.painter.supports} == {"pin", "roller"}
        assert scene.session.sim.reactions()[0, 1] == pytest.approx(P / 2, rel=0.05)
        world, view, picture, model = scene.layout.world, scene.view, scene.picture, scene.session.model
        a, b, c = (picture.point_of(model.node_index(n)) for n in "ABC")
    ground_y = view.point(0.0, 0.0)[1]
    earth = [x for x in of(Polygon, drawn) if x.colour == GROUND]
    assert len(earth) == 1 and min(y for _, y in earth[0].points) == pytest.approx(ground_y)  # earth below the ground line
    xs = [x for x, _ in earth[0].points]
    assert min(xs) <= world.left and max(xs) >= world.right  # carried on to the world's edges
    assert any(x.colour == GROUND_LINE and x.a[1] == pytest.approx(ground_y) for x in of(Line, drawn))
    # each support symbol's triangle, its point on its node (the legend's symbols, outside the world, left out)
    triangles = [x.points[0] for x in of(Polygon, drawn) if x.colour == PANEL and world.collidepoint(x.points[0])]
    assert triangles == [pytest.approx(a), pytest.approx(c)]
    (load,) = arrows(drawn, LOAD)
    assert load.head[0] == pytest.approx(b[0]) and load.tail[1] < load.head[1] < b[1]  # P at B, pointing down onto the joint
    up = arrows(drawn, REACTION)
    assert len(up) == 2 and all(r.head[1] < r.tail[1] for r in up)  # the reactions at A and C point up
    assert sorted(r.head[0] for r in up) == pytest.approx([a[0], c[0]])
    values = texts(drawn, REACTION)
    assert len(values) == 2 and all(float(v.removesuffix(" kN")) == pytest.approx(P / 2e3, rel=0.05) for v in values)  # P/2 each


# ---------------------------------------------------------------------- the loop
def test_each_frame_advances_its_share_in_one_call(truss_file):
    app, scene = session(load_stage(truss_file), 1)
    calls = []
    advance = scene.session.sim.advance

    def counted(seconds, **kw):
        calls.append((seconds, kw.get("batch_seconds", 0.05)))
        return advance(seconds, **kw)

    scene.session.sim.advance = counted
    with app:
        app.run(59)
        assert len(calls) == 59
        assert all(batch >= seconds for seconds, batch in calls)  # one compiled batch each
        assert scene.session.sim.time == pytest.approx(60 * FRAME, abs=scene.session.sim.dt)  # in step with the frames


def test_pause_step_reset_and_speed_keys(truss_file):
    app, scene = session(load_stage(truss_file), 10)
    with app:
        t = scene.session.sim.time
        assert t == pytest.approx(10 * FRAME, abs=scene.session.sim.dt)
        key(pygame.K_SPACE)
        app.run(5)
        assert scene.session.paused and scene.session.sim.time == t
        key(pygame.K_PERIOD)
        app.frame()
        assert scene.session.paused and scene.session.sim.time == pytest.approx(t + FRAME, abs=scene.session.sim.dt)
        key(pygame.K_SPACE)
        key(pygame.K_RIGHTBRACKET)
        app.frame()
        assert scene.session.pacer.speed == 2.0
        t = scene.session.sim.time
        app.frame()
        assert scene.session.sim.time - t == pytest.approx(2 * FRAME, abs=scene.session.sim.dt)
        key(pygame.K_LEFTBRACKET)
        key(pygame.K_LEFTBRACKET)
        key(pygame.K_LEFTBRACKET)
        app.frame()
        assert scene.session.pacer.speed == 0.25
        key(pygame.K_r)
        app.frame()  # the reset is handled, then the frame runs from t = 0
        assert scene.session.sim.time <= FRAME * 0.25 + scene.session.sim.dt
        assert np.allclose(scene.session.sim.state.pos, scene.session.model.arrays.pos0, atol=1e-4)


def test_hud_toggles_with_h_and_help_with_f1(truss_file):
    app, scene = session(load_stage(truss_file), 3)
    with app:
        corner = pygame.Rect(scene.layout.world.left + 12, scene.layout.world.top + 12, 120, 60)

        def dark() -> int:
            block = pygame.surfarray.array3d(app.screen)[corner.left : corner.right, corner.top : corner.bottom]
            return int((block.max(axis=-1) < 90).sum())

        assert dark() < 0.05 * corner.width * corner.height
        key(pygame.K_h)
        app.frame()
        assert scene.hud.is_open and dark() > 0.5 * corner.width * corner.height
        assert any("sub-steps per frame" in line for line in hud_lines(scene))
        assert any("real-time factor" in line for line in hud_lines(scene))
        assert scene.session.choice.detail in hud_lines(scene)  # the integrator and its step rate: the HUD's, not the status line's
        assert "RK4" in scene.session.choice.detail and "steps/s" in scene.session.choice.detail and "steps" not in scene.session.choice.reason
        key(pygame.K_h)
        app.frame()
        assert not scene.hud.is_open and dark() < 0.05 * corner.width * corner.height
        middle = app.screen.get_at(scene.layout.world.center)[:3]
        key(pygame.K_F1)
        app.frame()
        assert scene.help.is_open and app.screen.get_at(scene.layout.world.center)[:3] != middle  # the help box covers it
        key(pygame.K_ESCAPE)
        app.frame()
        assert not scene.help.is_open and app.running  # Esc closes the help first


def test_a_blow_up_pauses_with_the_explanation_instead_of_crashing(truss_file):
    app, scene = session(load_stage(truss_file), 5, dt=0.01)  # ~50 times the stable step
    with app:
        assert scene.session.paused
        assert "unstable" in scene.session.problem and "rolled back" in scene.session.problem
        assert np.isfinite(scene.session.sim.state.pos).all()
        app.run(5)  # and the app goes on
        assert count(app.screen, ALERT) > 500  # the message box
        key(pygame.K_SPACE)  # running again blows up again: paused again, no exception
        app.run(2)
        assert scene.session.paused


def test_headless_runs_repeat_exactly(truss_file):
    shots = []
    for _ in range(2):
        app, scene = session(load_stage(truss_file), 30)
        with app:
            shots.append((scene.session.sim.state.pos.copy(), pygame.image.tobytes(app.screen, "RGB")))
    assert np.array_equal(shots[0][0], shots[1][0])
    assert shots[0][1] == shots[1][1]


def test_pacer_keeps_time_headless_and_drops_debt_when_too_heavy():
    fixed = Pacer(dt=7e-4, fixed=True)
    steps = [fixed.steps_for(FRAME) for _ in range(600)]
    assert abs(sum(steps) * fixed.dt - 10.0) < fixed.dt  # simulated time in step with frames
    live = Pacer(dt=1e-4)
    for _ in range(30):
        n = live.steps_for(FRAME)
        live.record(n, n * 1e-5, FRAME)  # 10 µs a step: 167 steps take 1.7 ms, fine
    assert not live.slowed and live.rate == pytest.approx(1.0, abs=0.02)
    for _ in range(60):
        n = live.steps_for(FRAME)
        live.record(n, n * 1e-3, FRAME)  # 1 ms a step: at most 10 steps in 60 % of a frame
    assert live.slowed and live.owed == 0.0 and live.last_steps == 10
    assert live.rate == pytest.approx(10 * 1e-4 / FRAME, rel=0.05)  # slow motion ×0.06


# ---------------------------------------------------------------------- commands
@pytest.mark.parametrize("level", ["frames-01", "tutorial-04", "zero-force-01"])
def test_play_shipped_levels_headless(level, tmp_path):
    shot = tmp_path / f"{level}.png"
    assert main(["play", f"levels/{level}.json", "--frames", "20", "--screenshot", str(shot)]) == 0
    assert pygame.image.load(str(shot)).get_size() == (1280, 800)


def test_a_bad_level_exits_2_with_one_line(tmp_path, capsys):
    data = truss_level()
    data["members"][0]["i"] = "Q"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["play", str(bad), "--frames", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{bad}: ") and "members[0].i" in err and "'Q'" in err
    assert main(["sandbox", str(tmp_path / "missing.json"), "--frames", "1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_sandbox_opens_empty_with_ground_and_with_a_design(truss_file, tmp_path):
    shot = tmp_path / "sandbox.png"
    assert main(["sandbox", "--frames", "3", "--screenshot", str(shot)]) == 0
    assert count(pygame.image.load(str(shot)), GROUND) > 10_000
    assert main(["sandbox", str(truss_file), "--frames", "30", "--screenshot", str(shot)]) == 0
    image = pygame.image.load(str(shot))
    assert count(image, TENSION) > 200 and count(image, COMPRESSION) > 200


def test_the_menu_lists_levels_and_opens_one(tmp_path, truss_file):
    shot = tmp_path / "menu.png"
    assert main(["--frames", "2", "--screenshot", str(shot)]) == 0
    rows = level_rows(truss_file.parent, tmp_path / "no-course.json")  # no course: the folder
    assert Row("truss: Two-panel truss", truss_file) in rows and rows[-1].sandbox
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, rows)
        app.push(menu)
        app.frame()
        key(pygame.K_RETURN)
        app.frame()
        assert isinstance(app.scene, PlayScene) and app.scene.stage.title == "Two-panel truss"
        key(pygame.K_ESCAPE)
        app.frame()
        assert app.scene.leaving.is_open, "Esc asks before it leaves a level"
        key(pygame.K_ESCAPE)
        app.frame()
        assert app.scene is menu and app.running


def test_view_fits_the_box_with_y_up():
    view = View.fit((0.0, 0.0, 4.0, 1.0), (0, 100, 1000, 600), margin=100)
    (x0, y0), (x1, y1) = view.point(0.0, 0.0), view.point(4.0, 1.0)
    assert x0 >= 100 and x1 <= 900 and y1 < y0  # y up in the world, down on screen
    assert y1 >= 200 and y0 <= 600
    assert math.isclose(x1 - x0, 4 * (y0 - y1))  # one scale for both axes
    assert view.world(*view.point(1.5, 0.25)) == pytest.approx((1.5, 0.25))


def test_the_view_refits_when_the_window_changes_size(truss_file):
    app, scene = session(load_stage(truss_file), 2)
    with app:
        wide = scene.view.scale
        pygame.display.set_mode((800, 600), pygame.RESIZABLE)
        app.frame()
        assert scene.layout.world.right == scene.layout.legend.left == 800 - scene.layout.legend.width
        assert scene.view.scale < wide
        x, _ = scene.view.point(4.0, 0.0)  # node C still inside the world area
        assert x < scene.layout.world.right
