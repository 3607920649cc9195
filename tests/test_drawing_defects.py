"""Drawing defects met in play (issue 33 point 5), each with a test that fails without its
fix: at 800 × 600 the mechanism's box, which cannot be folded, covered the supports of
supports-03; the support tool's tip lay over the support chosen at A of supports-02."""

from __future__ import annotations

import pygame
import pytest
from test_play_session import click, key, post, start

from equilibria.app.draw import symbols
from equilibria.app.session.stage import load_stage
from equilibria.course.progress import Progress
from equilibria.course.syllabus import shipped_level

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
