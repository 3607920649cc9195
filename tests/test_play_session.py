"""Real sessions driven by posted input events, as a player makes them: build a truss in
the empty sandbox with the tools, load it, run it, and check the engine's answer against
statics and the screenshot's pixels; undo and redo; a level checked in the game; drag,
nails, the bomb and ground contact in a running structure."""

import json
import math

import numpy as np
import pygame
import pytest
from drawing import band

from equilibria.app.draw.palette import COMPRESSION, MARK, TENSION
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.session.view import View
from equilibria.app.window.app import App
from equilibria.course.progress import Progress

RHO, G, A = 7850.0, 9.81, 1.0e-3  # the sandbox's steel bar: density, gravity, area


def start(stage: Stage, **options) -> tuple[App, PlayScene]:
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, stage, **options)
    app.push(scene)
    app.frame()  # lays the screen out
    return app, scene


def post(kind: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(kind, **fields))


def key(app: App, k: int, mod: int = 0) -> None:
    post(pygame.KEYDOWN, key=k, mod=mod, unicode="")
    app.frame()


def click(app: App, at: tuple[float, float], *, to: tuple[float, float] | None = None) -> None:
    at = (round(at[0]), round(at[1]))
    post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEBUTTONDOWN, pos=at, button=1)
    if to is not None:
        to = (round(to[0]), round(to[1]))
        post(pygame.MOUSEMOTION, pos=to, rel=(to[0] - at[0], to[1] - at[1]), buttons=(1, 0, 0))
    post(pygame.MOUSEBUTTONUP, pos=to or at, button=1)
    app.frame()


def tool(app: App, scene: PlayScene, name: str) -> None:
    number = scene.toolbar.names.index(name) + 1
    key(app, pygame.K_0 + number % 10)
    assert scene.toolbar.current == name


def build_truss(app: App, scene: PlayScene) -> None:
    """Supports at (0, 1) m (pin) and (4, 1) m (roller), apex at (2, 3) m, 5 kN down."""
    at = {name: scene.view.point(*xy) for name, xy in (("N1", (0, 1)), ("N2", (4, 1)), ("N3", (2, 3)))}
    tool(app, scene, "node")
    for name in ("N1", "N2", "N3"):
        click(app, at[name])
    tool(app, scene, "member")
    for name in ("N1", "N2", "N3", "N1"):
        click(app, at[name])
    key(app, pygame.K_ESCAPE)  # ends the chain
    tool(app, scene, "support")
    click(app, at["N1"])  # pin
    click(app, at["N2"])
    click(app, at["N2"])  # pin, then roller
    tool(app, scene, "force")
    click(app, at["N3"], to=(at["N3"][0], at["N3"][1] + 35))  # 35 px down: half of the empty sandbox's 10 kN drawn 70 px long


def test_a_truss_built_with_posted_events_carries_its_load_as_statics_says(drawn):
    app, scene = start(Stage.empty_sandbox())
    build_truss(app, scene)
    design = scene.session.bench.design()
    assert [(m["i"], m["j"]) for m in design["members"]] == [("N1", "N2"), ("N2", "N3"), ("N3", "N1")]
    assert design["supports"] == [{"node": "N1", "fix": ["x", "y"]}, {"node": "N2", "fix": ["y"]}]
    assert design["loads"] == [{"node": "N3", "fx": 0.0, "fy": -5000.0}]
    key(app, pygame.K_SPACE)
    app.run(149)  # 2.5 s: the lowest mode (ζ = 0.05) has long settled
    drawn.clear()
    app.frame()
    sim = scene.session.sim
    assert sim.time == pytest.approx(151 * FRAME, abs=2 * sim.dt)
    # Statics: the apex carries P and half of each diagonal's weight (lumped masses).
    diagonal = 2 * math.sqrt(2)
    apex = 5000.0 + 2 * 0.5 * RHO * A * diagonal * G
    n = {mid: sim.value(f"member.{mid}.axial") for mid in ("M1", "M2", "M3")}
    # 1 %: what is left of the vibration after 2.5 s, and the truss's small change of shape
    assert n["M2"] == pytest.approx(-apex / (2 * math.sin(math.pi / 4)), rel=0.01)
    assert n["M3"] == pytest.approx(-apex / (2 * math.sin(math.pi / 4)), rel=0.01)
    # the chord also carries its own weight's sag; its tension is P/2 to 1 %
    assert n["M1"] == pytest.approx(apex / 2, rel=0.01)
    members = scene.session.model.member_ids  # as drawn in the last frame (its drawing records: tests/drawing.py)
    assert band(drawn, members.index("M1")).colour == TENSION  # the chord pulls
    assert band(drawn, members.index("M2")).colour == band(drawn, members.index("M3")).colour == COMPRESSION  # the diagonals push
    app.close()


def test_undo_and_redo_with_the_keyboard_walk_the_edits_back_and_forth():
    app, scene = start(Stage.empty_sandbox())
    build_truss(app, scene)
    edits = scene.session.bench.revision
    for _ in range(edits):
        key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.session.bench.structure() is None and scene.session.model is None
    for _ in range(edits):
        key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert len(scene.session.bench.design()["members"]) == 3 and scene.session.model is not None
    app.close()


def test_a_refused_edit_says_why_and_the_game_goes_on():
    app, scene = start(Stage.empty_sandbox())
    tool(app, scene, "node")
    p = scene.view.point(1, 2)
    click(app, p)
    tool(app, scene, "member")
    click(app, p)
    click(app, p)  # the same node twice: nothing happens
    tool(app, scene, "triangle")
    q = scene.view.point(3, 2)
    tool(app, scene, "node")
    click(app, q)
    click(app, scene.view.point(5, 2))
    tool(app, scene, "triangle")
    for xy in ((1, 2), (3, 2), (5, 2)):
        click(app, scene.view.point(*xy))
    assert "not in one line" in scene.session.notice
    assert app.running and scene.session.bench.design()["triangles"] == []
    app.close()


def test_a_zero_force_level_hides_forces_until_the_check_and_a_pass_is_kept(tmp_path):
    progress = Progress.load(tmp_path)
    app, scene = start(load_stage("levels/zero-force-01.json"), progress=progress)
    assert not scene.session.revealed
    model = scene.session.model
    for member in ("BF", "DH", "CG"):
        kind, row = model.member_slot[model.member_index(member)]
        i, j = (model.arrays.bar_ij if kind == "bar" else model.arrays.beam_ij)[row]
        mid = 0.5 * (model.arrays.pos0[int(i), :2] + model.arrays.pos0[int(j), :2])
        click(app, scene.view.point(*mid))
    assert scene.session.bench.marked() == {"BF", "DH", "CG"}
    shot = tmp_path / "marked.png"
    app.screenshot(shot)
    image = pygame.image.load(str(shot))
    world = scene.layout.world
    colours = {image.get_at((x, y))[:3] for x in range(world.left, world.right, 2) for y in range(world.top, world.bottom, 2)}
    assert MARK in colours and TENSION not in colours and COMPRESSION not in colours  # marks shown, forces not yet
    key(app, pygame.K_c)
    app.frame()  # the first frame says "Checking…", the next judges
    assert scene.session.verdict is not None and scene.session.verdict.passed and scene.session.revealed
    assert Progress.load(tmp_path).won("zero-force-01") and Progress.load(tmp_path).marks("zero-force-01") == 100
    app.close()


def test_a_failed_check_explains_and_try_again_keeps_the_moves(tmp_path):
    progress = Progress.load(tmp_path)
    app, scene = start(load_stage("levels/zero-force-01.json"), progress=progress)
    mid = scene.session.model.arrays.pos0[[0, 1], :2].mean(axis=0)  # the member between the first two nodes
    click(app, scene.view.point(*mid))
    key(app, pygame.K_c)
    app.frame()  # the first frame says "Checking…", the next judges
    assert scene.session.verdict is not None and not scene.session.verdict.passed
    moves = list(scene.session.bench.moves)
    key(app, pygame.K_t)
    assert scene.session.verdict is None and scene.session.bench.moves == moves and scene.session.bench.attempt.tries == 1
    app.close()
    again = Progress.load(tmp_path)
    assert not again.won("zero-force-01") and again.work("zero-force-01")["moves"]  # the work is kept


def test_the_work_on_a_level_comes_back_when_it_is_opened_again(tmp_path):
    progress = Progress.load(tmp_path)
    app, scene = start(load_stage("levels/balance-01.json"), progress=progress)
    tool(app, scene, "force")
    b = scene.view.point(*scene.session.model.arrays.pos0[scene.session.model.node_index("B"), :2])
    click(app, b, to=(b[0], b[1] - 200))  # 200 px up
    assert len(scene.session.bench.moves) == 1
    key(app, pygame.K_ESCAPE)  # asks
    key(app, pygame.K_ESCAPE)  # leaves, saving
    app.close()
    app, scene = start(load_stage("levels/balance-01.json"), progress=Progress.load(tmp_path))
    assert [m.node for m in scene.session.bench.moves] == ["B"] and scene.session.bench.moves[0].fy > 0
    app.close()


def hanging(tmp_path, **world) -> Stage:
    """A steel bar hanging from a pin, a 100 kg mass at its foot, ground 1 m below."""
    level = {
        "format": 1,
        "id": "hang",
        "title": "Hanging mass",
        "kind": "sandbox",
        "world": {"ground": [[-5, 0], [5, 0]], **world},
        "materials": {"steel": {"E": 210e9, "density": 7850, "nu": 0.3}},
        "nodes": [{"id": "A", "x": 0, "y": 3}, {"id": "B", "x": 0, "y": 1, "mass": 100}, {"id": "C", "x": 2, "y": 1, "mass": 100}],
        "supports": [{"node": "A", "fix": ["x", "y"]}],
        "members": [{"id": "AB", "i": "A", "j": "B", "kind": "bar", "material": "steel", "A": 1e-4}],
    }
    path = tmp_path / "hang.json"
    path.write_text(json.dumps(level))
    return load_stage(path, sandbox=True)


def test_a_free_node_falls_onto_the_ground_and_stays_on_it(tmp_path):
    app, scene = start(hanging(tmp_path, mass_damping=0.5))  # light air drag: it falls freely
    key(app, pygame.K_SPACE)
    app.run(120)
    c = scene.session.model.node_index("C")
    y = scene.session.sim.state.pos[c, 1]
    assert -0.01 < y < 0.0  # on the ground, pressed a little into it by its weight
    assert abs(scene.session.sim.state.vel[c, 1]) < 0.05
    app.close()


def test_the_bomb_removes_a_member_and_reset_brings_it_back(tmp_path):
    app, scene = start(hanging(tmp_path))
    key(app, pygame.K_SPACE)
    app.run(30)
    tool(app, scene, "bomb")
    click(app, scene.view.point(0, 2))
    assert not scene.session.sim.state.member_on[0]
    app.run(30)
    assert scene.session.sim.state.pos[scene.session.model.node_index("B"), 1] < 0.95  # falling
    key(app, pygame.K_r)
    assert scene.session.sim.state.member_on[0]
    app.close()


def test_dragging_a_node_pulls_it_through_a_spring_and_shows_the_hand_force(tmp_path):
    app, scene = start(hanging(tmp_path))
    tool(app, scene, "drag")
    b = scene.view.point(0, 1)
    post(pygame.MOUSEBUTTONDOWN, pos=(round(b[0]), round(b[1])), button=1)
    app.frame()
    target = scene.view.point(1.5, 1.0)  # beyond the bar's reach: it pulls back
    post(pygame.MOUSEMOTION, pos=(round(target[0]), round(target[1])), rel=(0, 0), buttons=(1, 0, 0))
    app.run(120)
    q = scene.session.model.node_index("B")
    assert scene.session.hand == q
    assert scene.session.sim.state.pos[q, 0] > 0.3  # pulled sideways, the bar swinging about A
    fx, fy = scene.session.hand_force()
    assert fx > 0 and math.isfinite(fy)
    post(pygame.MOUSEBUTTONUP, pos=(round(target[0]), round(target[1])), button=1)
    app.frame()
    assert scene.session.hand is None and scene.session.problem is None
    app.close()


def test_a_nail_holds_a_node_where_it_is_and_carries_its_weight(tmp_path):
    app, scene = start(hanging(tmp_path, damping=0.2))
    tool(app, scene, "nail")
    click(app, scene.view.point(2, 1))
    c = scene.session.model.node_index("C")
    assert c in scene.session.sim.nails
    key(app, pygame.K_SPACE)
    app.run(60)
    assert scene.session.sim.state.pos[c, 1] == pytest.approx(1.0, abs=1e-9)
    assert scene.session.sim.reactions()[c, 1] == pytest.approx(100 * G, rel=1e-6)
    app.close()


def test_a_mechanism_is_animated_and_named_instead_of_an_error():
    stage = load_stage("levels/supports-01.json")
    app, scene = start(stage)
    assert scene.session.free is not None and scene.session.free_words
    first = scene.picture.free_motion().copy()
    app.run(10)
    assert not np.allclose(scene.picture.free_motion(), first)  # its free motion moves on screen, as a ghost
    pos0 = scene.session.model.arrays.pos0[:, :2]
    assert np.array_equal(scene.picture.positions(), pos0)  # while the structure is drawn and picked as built
    app.close()


def test_saves_screenshots_and_graph_exports_land_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    app, scene = start(Stage.empty_sandbox())
    build_truss(app, scene)
    app.run(int(3 / FRAME))  # past the autosave interval
    [autosave] = (tmp_path / "designs").glob("sandbox-*.json")  # the design's own file
    assert json.loads(autosave.read_text())["members"] == scene.session.bench.design()["members"]
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    saved = list((tmp_path / "designs").glob("*.json"))
    assert saved == [autosave] and f"Saved to {autosave}" in scene.session.notice
    again = load_stage(saved[0], sandbox=True)  # what `equilibria sandbox FILE` opens
    assert [n.id for n in again.level.nodes] == ["N1", "N2", "N3"]
    tool(app, scene, "inspect")
    click(app, scene.view.point(2, 3))
    key(app, pygame.K_a)
    key(app, pygame.K_SPACE)
    app.run(30)
    key(app, pygame.K_e)
    assert len(list((tmp_path / "graphs").glob("*.csv"))) == 1 and len(list((tmp_path / "graphs").glob("*.png"))) == 1
    key(app, pygame.K_F12)
    assert len(list((tmp_path / "screenshots").glob("*.png"))) == 1
    app.close()


def test_the_magnifier_draws_deflections_larger_and_leaves_the_run_alone(tmp_path):
    app, scene = start(Stage.empty_sandbox())
    build_truss(app, scene)
    key(app, pygame.K_SPACE)
    app.run(60)
    real = scene.session.sim.state.pos[:, :2].copy()
    key(app, pygame.K_m)
    assert scene.picture.magnify == 10
    shown = scene.picture.positions()
    pos0 = scene.session.model.arrays.pos0[:, :2]
    assert np.allclose(shown - pos0, 10 * (scene.session.sim.state.pos[:, :2] - pos0))
    assert np.abs(scene.session.sim.state.pos[:, :2] - real).max() < 1e-3  # the structure itself is not changed
    app.close()


def test_the_wheel_zooms_about_the_mouse():
    app, scene = start(Stage.empty_sandbox())
    at = (400, 300)
    before = scene.view.world(*at)
    post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEWHEEL, x=0, y=2, flipped=False, precise_x=0.0, precise_y=2.0)
    app.frame()
    assert scene.view.world(*at) == pytest.approx(before)
    assert scene.view.scale > 1.3 * View.fit(scene.stage.bounds(), tuple(scene.layout.world), 150).scale
    app.close()


def test_play_with_a_solution_and_check_judges_it_on_screen(tmp_path):
    from equilibria.cli.main import main

    shot = tmp_path / "checked.png"
    args = ["play", "levels/balance-01.json", "--solution", "levels/solutions/balance-01.json", "--check", "--frames", "5", "--screenshot", str(shot)]
    assert main(args) == 0 and shot.stat().st_size > 0
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": 1, "level": "balance-02", "moves": []}))
    assert main(["play", "levels/balance-01.json", "--solution", str(other), "--frames", "1"]) == 2


def test_a_moving_load_is_drawn_as_one_vehicle_where_its_shares_put_it():
    app, scene = start(load_stage("levels/bridge-03.json"))
    vehicle = scene.picture.painter.vehicle
    moving = scene.stage.level.goal.moving_load
    pts = scene.view.points(scene.session.model.arrays.pos0[:, :2])
    first, last = pts[vehicle.path[0]], pts[vehicle.path[-1]]
    assert vehicle.where(0.0, pts)[0][0] < first[0]  # still to come: before the first node
    for k, station in enumerate(vehicle.stations):
        t = moving.start + station / moving.speed
        assert vehicle.where(t, pts)[0] == pytest.approx(tuple(pts[vehicle.path[k]]))
        shares = vehicle.shares(t)
        assert shares[k] == pytest.approx(1.0) and shares.sum() == pytest.approx(1.0)  # all of it at node k
    assert vehicle.where(1e3, pts)[0][0] > last[0]  # gone past the end
    assert not scene.picture.painter.full[vehicle.path, 1].any()  # no "to come" arrow at every deck node
    app.close()


def test_closing_the_window_keeps_the_work_on_a_level(tmp_path):
    app, scene = start(load_stage("levels/zero-force-01.json"), progress=Progress.load(tmp_path))
    model = scene.session.model
    i, j = model.arrays.bar_ij[model.member_slot[model.member_index("BF")][1]]
    click(app, scene.view.point(*(0.5 * (model.arrays.pos0[int(i), :2] + model.arrays.pos0[int(j), :2]))))
    post(pygame.QUIT)
    app.frame()  # at once, well within the autosave interval
    assert not app.running
    assert Progress.load(tmp_path).work("zero-force-01")["moves"] == [{"type": "mark_zero", "member": "BF"}]
    app.close()


def test_the_section_button_and_s_choose_the_section_for_new_members():
    app, scene = start(Stage.empty_sandbox())
    tool(app, scene, "member")
    first = scene.session.section
    click(app, scene.section_rect.center)
    assert scene.session.section != first
    for _ in range(len(scene.session.bench.sections()) - 1):
        key(app, pygame.K_s)  # S: Tab chooses by keys (tests/test_keyboard_play.py)
    assert scene.session.section == first
    app.close()


def test_a_with_nothing_followed_graphs_the_energies():
    app, scene = start(Stage.empty_sandbox())
    build_truss(app, scene)
    key(app, pygame.K_SPACE)
    key(app, pygame.K_a)
    app.run(30)
    assert {"energy.kinetic", "energy.strain"} <= set(scene.graphs.recorder.specs) and scene.graphs.shown
    assert scene.graphs.recorder.series("energy.strain")[-1] > 0
    app.close()


def test_a_click_picks_a_node_where_the_magnifier_draws_it():
    app, scene = start(Stage.empty_sandbox())
    build_truss(app, scene)
    key(app, pygame.K_SPACE)
    app.run(90)  # past the sandbox's 1 s ramp: the full load on
    for _ in range(3):
        key(app, pygame.K_m)  # ×1000
    tool(app, scene, "inspect")
    scene.zoom(10, tuple(round(v) for v in scene.view.point(2, 3)))
    app.frame()
    q = scene.session.model.node_index("N3")
    drawn = scene.picture.positions()[q]
    assert np.hypot(*(drawn - scene.session.sim.state.pos[q, :2])) * scene.view.scale > 3 * 9  # far from where it is
    click(app, scene.view.point(*drawn))
    assert scene.selected is not None and scene.selected.id == "N3"
    app.close()


def test_a_stiff_truss_dropped_in_the_empty_sandbox_falls_as_a_body_in_light_air():
    """The empty sandbox damps motion as light air does (mass-proportional, α = AIR),
    and its gravity comes on over the first T = RAMP_SECONDS: a body falls as
    ÿ = −g t/T − α ẏ, so for t ≤ T, ẏ = −(g/(T α²))(α t − 1 + e^(−αt)) and
    y(t) = y₀ − (g/(T α²))(α t²/2 − t + (1 − e^(−αt))/α), however stiff it is. (Tuned
    to a stiff structure's lowest mode, as a level's world.damping is, α would be
    hundreds per second: the truss would sink at a few cm/s.) RK4 at a sub-millisecond
    step matches the closed form to far below the 0.2 mm allowed."""
    from equilibria.app.session.play import RAMP_SECONDS as T
    from equilibria.work.workbench import SANDBOX_AIR

    app, scene = start(Stage.empty_sandbox())
    bench = scene.session.bench
    a, b, c = bench.add_node(0, 3), bench.add_node(1, 3), bench.add_node(0.5, 3.8)
    for i, j in ((a, b), (b, c), (c, a)):
        bench.add_member(i, j, "steel bar")
    app.frame()
    key(app, pygame.K_SPACE)
    app.run(30)
    t = scene.session.sim.time
    alpha = scene.session.model.arrays.mass_damping
    assert alpha == SANDBOX_AIR
    assert t <= T
    drop = G / (T * alpha**2) * (alpha * t * t / 2 - t + (1 - math.exp(-alpha * t)) / alpha)
    y = scene.session.sim.state.pos[:, 1]
    assert y == pytest.approx(np.array([3.0, 3.0, 3.8]) - drop, abs=2e-4)
    assert drop > 0.9 * G * t**3 / (6 * T)  # 9 % short of the same fall in vacuum (g t³/6T) after half a second; not a few cm
    app.close()
