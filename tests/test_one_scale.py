"""One scale for every arrow (issue 23, point 3): a force lands as long as it was
dragged, in a level and in the sandbox; a scene with no loads draws its reactions in
proportion to its weight (tutorial-03: 0.124 and 0.516 kN were drawn the same length).

Arrows and names are read from the frame's transcript: the drawing records it hands the
backend (tests/drawing.py), each arrow with its colour, tail and head, each label with its
text, box and colour."""

from __future__ import annotations

import math

import pygame
import pytest
from drawing import arrows as arrows_of
from drawing import of

from equilibria.app.draw.drawlist import Label
from equilibria.app.draw.palette import LOAD, MUTED, OWN_FORCE, REACTION
from equilibria.app.draw.render import ARROW_PX, HEAD_PX, JOINT_PX, NAME, SHORTEST_PX
from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage, named_in
from equilibria.app.window.app import App
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.work.attempt import Attempt
from equilibria.work.workbench import LevelBench

SNAP_PX = 3.0  # [px] a dragged force snaps to a fortieth of the reference force per component: under 2 px each


def lengths(drawn: list) -> list[tuple[tuple, float, tuple]]:
    """The arrows drawn: (colour, length [px], tail [px]) of each."""
    return [(tuple(a.colour)[:3], math.hypot(a.head[0] - a.tail[0], a.head[1] - a.tail[1]), tuple(a.tail)) for a in arrows_of(drawn)]


def names_of(drawn: list) -> list[Label]:
    """The node and member names drawn."""
    return [label for label in of(Label, drawn) if label.colour == NAME]


def opened(stage, bench=None) -> tuple[App, PlayScene]:
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, stage, bench=bench)
    app.push(scene)
    app.run(2)
    return app, scene


def drag_force(app: App, scene: PlayScene, node: str, by: tuple[int, int]) -> None:
    scene.choose_tool("force")
    model = scene.session.model
    x, y = (round(v) for v in scene.view.point(*model.arrays.pos0[model.node_index(node), :2]))
    end = (x + by[0], y + by[1])
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=by, buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.frame()


@pytest.mark.parametrize(
    ("level_id", "sandbox", "node"),
    [("balance-01", False, "B"), ("free-body-01", False, "A"), ("bridge-01", True, "A")],
)
def test_a_force_lands_as_long_as_it_was_dragged(level_id, sandbox, node, drawn):
    app, scene = opened(load_stage(shipped_level(level_id), sandbox=sandbox))
    with app:
        drag_force(app, scene, node, (-60, -43))  # 74 px up and to the left
        drawn.clear()
        app.frame()
        colours = (LOAD, MUTED) if sandbox else (OWN_FORCE,)  # the sandbox's forces are loads of its design, still to come at t = 0
        own = [length for c, length, tail in lengths(drawn) if c in colours and scene.layout.world.collidepoint(tail)]
        assert any(length == pytest.approx(math.hypot(60, 43), abs=SNAP_PX) for length in own), own
        if not sandbox:
            move = scene.session.bench.moves[-1]
            ref = scene.picture.force_reference()
            assert math.hypot(move.fx, move.fy) / ref * ARROW_PX == pytest.approx(math.hypot(60, 43), abs=SNAP_PX)


def test_a_scene_loaded_by_gravity_alone_draws_its_reactions_in_proportion(drawn):
    """tutorial-03's sign on its two supports: the reactions' components are drawn in
    proportion to their values (the scale is the sign's weight), none shorter than
    SHORTEST_PX."""
    stage = load_stage(shipped_level("tutorial-03"))
    app, scene = opened(stage, bench_of_solution(stage, str(reference_solution("tutorial-03"))))
    with app:
        drawn.clear()
        app.frame()
        model = scene.picture.sim.model
        weight = model.arrays.gravity * float(model.arrays.mass[:, 0].sum())
        assert scene.picture.force_reference() == pytest.approx(weight)
        r = scene.picture.sim.reactions()
        values = sorted(abs(v) for v in r[:, :2].ravel() if abs(v) > 5e-3 * weight)
        drawn_px = sorted(length for colour, length, tail in lengths(drawn) if colour == REACTION and scene.layout.world.collidepoint(tail))
        assert len(drawn_px) == len(values) >= 2
        for value, length in zip(values, drawn_px, strict=True):
            assert length == pytest.approx(max(ARROW_PX * value / weight, SHORTEST_PX), abs=1.0)
        assert drawn_px[-1] > 2 * drawn_px[0]  # not the same length


def test_the_arrow_keeps_clear_of_the_joint():
    """The landed arrow's head stops JOINT_PX + 2 short of the node: the length compared
    above is the arrow's own, not the distance to the joint's centre."""
    assert JOINT_PX + 2 < ARROW_PX


@pytest.mark.parametrize("level_id", ["free-body-01", "free-body-02", "free-body-03", "particle-01", "reactions-01", "reactions-02", "two-force-01"])
def test_no_name_covers_an_arrowhead(level_id, drawn):
    """A node's name goes on the side its members, arrows and symbols leave free: it
    covers no arrow's head (five points along its length) (free-body-01's C and free-body-02's B covered the head of
    their oblique loads)."""
    stage = load_stage(shipped_level(level_id))
    app, scene = opened(stage, bench_of_solution(stage, str(reference_solution(level_id))))
    with app:
        scene.picture.labels = True  # every node named
        drawn.clear()
        app.frame()
        heads = []
        for a in arrows_of(drawn):
            (tx, ty), (hx, hy) = a.tail, a.head
            length = math.hypot(hx - tx, hy - ty)
            back = min(HEAD_PX, 0.5 * length) / max(length, 1e-9)  # the head: its last HEAD_PX (render.arrow_head)
            heads.extend((hx + k / 4 * back * (tx - hx), hy + k / 4 * back * (ty - hy)) for k in range(5))
        names = [(label.text, pygame.Rect(label.plate)) for label in names_of(drawn)]
        world = scene.layout.world
        shown = [h for h in heads if world.collidepoint(h)]
        assert shown and names
        covered = [(text, h) for text, plate in names for h in shown if plate.inflate(2, 2).collidepoint(h)]
        assert not covered


@pytest.mark.parametrize(("level_id", "moves"), [("frames-01", 0), ("bridge-01", 4), ("bridge-01", 3)])
def test_every_node_a_message_names_is_labelled(level_id, moves, drawn):
    """frames-01's mechanism box names D, E and F; bridge-01's, with the player's own E
    and F half joined, names those: each is labelled on the picture."""
    stage = load_stage(shipped_level(level_id))
    work = list(load_solution(read_json(reference_solution(level_id))).moves)[:moves]
    app, scene = opened(stage, LevelBench(stage.level, Attempt(stage.level, work)))
    with app:
        s = scene.session
        assert s.free is not None  # the box that names the moving joints is up
        said = " ".join([s.notice, s.free_words])
        named = named_in(said, s.model.node_ids)
        assert named
        drawn.clear()
        app.frame()
        names = [label.text for label in names_of(drawn)]
        assert named <= set(names), (said, names)


def test_every_node_a_failed_verdict_names_is_labelled_even_where_labels_crowd(drawn):
    """bridge-01 with a top chord and no diagonals: the verdict names B, C, E and F; B
    and C hang under their supports among reaction values, and are named on a side
    that no value covers."""
    stage = load_stage(shipped_level("bridge-01"))
    work = [m for m in load_solution(read_json(reference_solution("bridge-01"))).moves if getattr(m, "id", None) in ("E", "F", "AE", "EF", "FD")]
    app, scene = opened(stage, LevelBench(stage.level, Attempt(stage.level, work)))
    with app:
        scene.check()
        app.run(200)
        verdict = scene.session.verdict
        assert verdict is not None and not verdict.passed
        named = named_in(verdict.reason, scene.session.model.node_ids)
        assert {"B", "C"} <= named
        drawn.clear()
        app.frame()
        names = [label.text for label in names_of(drawn)]
        assert named <= set(names), (verdict.reason, names)
