"""Drawing defects met in play (issue 33 point 5), each with a test that fails without its
fix: at 800 × 600 the mechanism's box, which cannot be folded, covered the supports of
supports-03; the support tool's tip lay over the support chosen at A of supports-02; W's dashed
resultant crossed "2 kN/m"; a 100 kN arrow ran off the picture with its value."""

from __future__ import annotations

import pygame
import pytest
from drawing import of
from test_play_session import click, key, post, start

from equilibria.app.draw import primitives as draw
from equilibria.app.draw import render, symbols
from equilibria.app.draw.drawlist import Arrow, Dashes, Label
from equilibria.app.draw.palette import OWN_FORCE, Fonts
from equilibria.app.session.stage import load_stage
from equilibria.app.session.view import View
from equilibria.course.progress import Progress
from equilibria.course.syllabus import shipped_level
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation

SYMBOL_PX = 30  # [px] how far below its node a support's symbol reaches


def opened(level_id: str, tmp_path, size: tuple[int, int] = (800, 600), frames: int = 3):
    app, scene = start(load_stage(shipped_level(level_id)), progress=Progress.load(tmp_path))
    pygame.display.set_mode(size, pygame.RESIZABLE)
    app.run(frames=frames)
    return app, scene


def test_the_mechanism_box_leaves_the_supports_of_supports_03_in_sight(tmp_path):
    """The box that says "a mechanism" stays until the structure stands; at 800 × 600 it
    lay over A's roller and B. The structure, fitted, moves above it."""
    app, scene = opened("supports-03", tmp_path)
    with app:
        assert scene.verdict_box.what() == "mechanism"
        box = scene.verdict_box.rect
        model = scene.session.model
        for node in ("A", "B", "C"):
            x, y = scene.picture.point_of(model.node_index(node))
            assert not box.colliderect(pygame.Rect(x - SYMBOL_PX, y - 6, 2 * SYMBOL_PX, SYMBOL_PX + 6)), (node, (x, y), box)


def drawn_box(items) -> pygame.Rect:
    """The box [px] of drawing records: every point they name, and every rect."""
    xs, ys = [], []

    def points(value):
        if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int | float) for v in value):
            yield value
        elif isinstance(value, tuple):
            for v in value:
                yield from points(v)

    for item in items:
        for name, value in item._asdict().items():
            if name == "rect":
                x, y, w, h = value
                xs += [x, x + w]
                ys += [y, y + h]
            else:
                for x, y in points(value):
                    xs.append(x)
                    ys.append(y)
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


@pytest.mark.parametrize(("clicks", "kind"), [(1, "pin"), (2, "roller")])
def test_the_tip_over_a_node_leaves_the_support_chosen_there_in_sight(tmp_path, clicks, kind):
    """supports-02 at 800 × 600: the support tool's tip, below and right of the pointer,
    lay over the support just chosen at A when the pointer was a little left of the node
    (a click within reach of it). It keeps off the symbol now."""
    app, scene = opened("supports-02", tmp_path)
    with app:
        key(app, pygame.K_3)
        assert scene.toolbar.current == "support"
        x, y = scene.picture.point_of(scene.session.model.node_index("A"))
        for _ in range(clicks):
            click(app, (x, y))
        (_node, drawn_kind, side), *_ = scene.picture.painter.supports
        assert drawn_kind == kind
        pointer = (round(x - 10), round(y + 8))  # within reach of A (NODE_PICK_PX)
        post(pygame.MOUSEMOTION, pos=pointer, rel=(0, 0), buttons=(0, 0, 0))
        app.frame()
        tip = scene.parts.by_name("tip")
        assert tip.shown and scene.hover is not None and scene.hover.id == "A"
        symbol = drawn_box(symbols.support_items(kind, (x, y), side))
        assert not tip.rect.colliderect(symbol), (tip.rect, symbol)


@pytest.mark.parametrize("size", [(564, 420), (1044, 600)])  # the world at 800 × 600 and at 1280 × 800
def test_the_resultants_dashed_line_keeps_off_the_load_per_metre(size):
    """beam-01's uniform 2 kN/m: its value was written in the middle of the row of arrows,
    where W draws the resultant's dashed line (the centroid); it is written a quarter
    along now, clear of the line."""
    pygame.font.init()
    stage = load_stage(shipped_level("beam-01"))
    model = build_model(stage.level.model_data(), statics_only=True)
    painter = render.StructurePainter(Fonts(), stage, model)
    painter.spread.resultants = True  # W
    area = pygame.Rect((0, 0), size)
    items = painter.sketch(area, View.fit(stage.bounds(), tuple(area), 60), Simulation(model, "rk4"), values=True)
    (w,) = [label for label in of(Label, items) if label.text == "2 kN/m"]
    (line,) = of(Dashes, items)
    assert draw.clip_segment(line.a, line.b, pygame.Rect(w.rect).inflate(6, 2)) is None, (w.rect, line)  # its plate too


def test_a_force_far_larger_than_the_loads_keeps_its_arrow_and_value_in_the_picture(tmp_path):
    """balance-01 at 800 × 600, its loads 10 kN: a force of 50 kN typed at B (the largest
    allowed) drew its arrow at the longest, down off the world, its value beyond the
    window's foot. The view, showing the whole structure, is fitted again to hold it."""
    app, scene = opened("balance-01", tmp_path)
    with app:
        scene.type_force("B")
        app.frame()
        for ch in "0, -50":
            scene.entry_box.entry.line.insert(ch)
        key(app, pygame.K_RETURN)
        app.run(frames=2)
        world = scene.layout.world
        items = scene.picture.painter.sketch(world, scene.view, scene.session.sim, values=True)
        (arrow,) = [a for a in of(Arrow, items) if tuple(a.colour) == OWN_FORCE]
        values = [label for label in of(Label, items) if label.text == "50 kN" and tuple(label.colour) == OWN_FORCE]
        assert len(values) == 1, f"the force's value is not on the picture (its arrow: {arrow}, the world: {world})"
        (value,) = values
        assert world.collidepoint(arrow.tail) and world.collidepoint(arrow.head), (arrow, world)
        assert world.contains(pygame.Rect(value.rect)), (value.rect, world)
