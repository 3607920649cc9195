"""A free body's cuts drawn as a textbook draws a free-body diagram (game/app/draw/cuts.py):
each cut named by what it carries, a removed support as a faint ghost of its symbol where
it stood, a cut member with a cut mark and its rest faint beyond, and nothing of the
session written by the drawing. Read from what the game draws as the player sees it
(the frame's drawing records: tests/drawing.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygame
import pytest
from builders import own_numbers
from drawing import of
from test_play_session import key, start

from equilibria.app.draw import symbols
from equilibria.app.draw.cuts import FAINT, GHOST_ALPHA, GHOST_BOX, REST_PX, STROKE_PX, words
from equilibria.app.draw.drawlist import Label, Layer, Line, Polygon
from equilibria.app.draw.palette import INK, OWN_FORCE, PANEL
from equilibria.app.launch import bench_of_solution
from equilibria.app.session.stage import load_stage
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.format.schema import Cut

LEVELS = Path(__file__).resolve().parents[1] / "levels"
SAID = {  # what each cut of a level is named on the picture
    "free-body-01": {"Ax, Ay", "By"},
    "free-body-02": {"Ax, Ay, MA"},
    "free-body-03": {"F along CA", "F along CB"},
    "reactions-01": {"Ax, Ay, MA"},
    "reactions-02": {"Ax, Ay", "B (normal)"},
    "two-force-01": {"Ax, Ay", "F along CD"},
    "sections-01": {"F along FG", "F along FC", "F along BC"},
    "machines-01": {"Ax, Ay", "F along BC"},
}


@pytest.mark.parametrize(
    ("cut", "said"),
    [
        (Cut(node="A", what="support", carries=["x", "y"]), "Ax, Ay"),
        (Cut(node="B", what="support", carries=["y"]), "By"),
        (Cut(node="B", what="support", carries=["x"]), "Bx"),
        (Cut(node="A", what="support", carries=["x", "y", "rot"]), "Ax, Ay, MA"),
        (Cut(node="B", what="support", carries=["x", "y"], along=(-3, 4)), "B (normal)"),
        (Cut(node="A1", what="bar", member="CA"), "F along CA"),
        (Cut(node="K", what="beam"), "N, V, M"),
        (Cut(node="C", what="pin"), "Cx, Cy"),
        (Cut(node="C", what="pin", along=(-3, 4), member="BC"), "F along BC"),
    ],
)
def test_each_cut_is_named_by_the_unknowns_it_carries(cut, said):
    assert words(cut) == said


def puts(drawn: list) -> list[tuple[str, pygame.Rect]]:
    """The texts drawn in the colour of the student's forces (what each cut carries, and
    the student's own forces' values), with their plates."""
    return [(label.text, pygame.Rect(label.plate)) for label in of(Label, drawn) if label.colour == OWN_FORCE]


@pytest.mark.parametrize("level", sorted(SAID))
def test_every_cut_is_named_near_it_as_the_level_opens(level, drawn):
    _app, scene = start(load_stage(shipped_level(level)))
    cuts = scene.stage.level.cut
    placed = puts(drawn)
    texts = {t for t, _ in placed}
    assert texts == SAID[level]
    picture = scene.picture
    for text, plate in placed:  # each near its own cut: within 100 px of the node
        cut = next(c for c in cuts if words(c) == text)
        x, y = picture.point_of(picture.model.node_index(cut.node))
        assert plate.inflate(200, 200).collidepoint(x, y), (text, plate, (x, y))


def test_a_removed_support_is_a_faint_ghost_where_it_stood(drawn):
    """free-body-01: the pin at A and the roller at B removed. Round each node, where the
    symbol stood, its symbol is drawn below the node on a layer laid on half see-through
    (the backend fades it: tests/test_drawlist.py), and no real symbol is drawn there."""
    _app, scene = start(load_stage(shipped_level("free-body-01")))
    picture = scene.picture
    ghosts = [item for item in drawn if isinstance(item, Layer) and item.opacity == GHOST_ALPHA]
    real = [item.points[0] for item in drawn if isinstance(item, Polygon) and item.colour == PANEL]  # a symbol's triangle, its point on its node
    for node, kind in (("A", "pin"), ("B", "roller")):
        x, y = picture.point_of(picture.model.node_index(node))
        ghost = next(g for g in ghosts if abs(g.rect[0] + GHOST_BOX / 2 - x) <= 1 and abs(g.rect[1] + GHOST_BOX / 2 - y) <= 1)
        centre = (GHOST_BOX / 2, GHOST_BOX / 2)
        assert list(ghost.items) == symbols.support_items(kind, centre, (0.0, 1.0)), node  # the symbol, standing below the node
        assert GHOST_ALPHA <= 0.5 and not any(abs(px - x) <= 1 and abs(py - y) <= 1 for px, py in real), node  # faint, and only the ghost


def test_a_cut_member_has_a_cut_mark_and_its_rest_faint_beyond(drawn):
    """free-body-03: CB cut at B1 (level, to the right of C). Two dark strokes cross the
    member just past B1; beyond them a faint line carries it on."""
    _app, scene = start(load_stage(shipped_level("free-body-03")))
    picture = scene.picture
    x, y = picture.point_of(picture.model.node_index("B1"))
    lines = of(Line, drawn)
    strokes = [s for s in lines if s.colour == INK and abs(s.a[0] - s.b[0]) < 1e-6 and 0 < s.a[0] - x < 18]  # upright: across the level member, just past B1
    assert len(strokes) == 2 and abs(strokes[0].a[0] - strokes[1].a[0]) >= 4, strokes  # two strokes, apart
    assert all(sorted((s.a[1] - y, s.b[1] - y)) == pytest.approx([-STROKE_PX, STROKE_PX]) for s in strokes)  # each across the member's line
    rest = [s for s in lines if s.colour == FAINT and abs(s.a[1] - y) < 1e-6 and abs(s.b[1] - y) < 1e-6]
    assert len(rest) == 1 and rest[0].a[0] - x > 12 and rest[0].b[0] - x == pytest.approx(REST_PX), rest  # beyond the strokes, along the member
    assert sum(FAINT) > 3 * max(INK) + 150  # and faint: nowhere near the ink's darkness


def test_drawing_the_cuts_writes_nothing_and_survives_a_check(drawn):
    """The model's arrays are what they were after frames and a check; after a check the
    cuts are still named (the judged run puts them back as supports)."""
    level = "machines-01"
    stage = load_stage(shipped_level(level))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution(level))))
    before = {k: np.copy(v) for k, v in scene.session.model.arrays._asdict().items() if isinstance(v, np.ndarray)}
    for _ in range(3):
        app.frame()
    after = scene.session.model.arrays._asdict()
    assert all(np.array_equal(before[k], after[k]) for k in before)
    key(app, pygame.K_c)
    drawn.clear()
    app.frame()
    assert scene.session.verdict is not None and scene.session.verdict.passed
    assert {t for t, _ in puts(drawn)} >= {"F along BC"}


def test_a_cut_beam_is_named_by_its_internal_forces(tmp_path, drawn):
    """A cantilever's free end, cut from the rest at K (a beam cut): N, V, M beside it."""
    doc = own_numbers(json.loads((LEVELS / "free-body-02.json").read_text()))  # its texts name A, which this level has not
    doc.update(id="beam-cut", nodes=[{"id": "K", "x": 0, "y": 0, "mass": 50}, {"id": "B", "x": 2, "y": 0, "mass": 50}])
    doc["members"] = [dict(doc["members"][0], id="KB", i="K", j="B")]
    doc["cut"], doc["goal"]["moment_about"] = [{"node": "K", "what": "beam", "member": "KB"}], "K"
    path = tmp_path / "beam-cut.json"
    path.write_text(json.dumps(doc))
    _app, scene = start(load_stage(str(path)))
    placed = puts(drawn)
    assert [t for t, _ in placed] == ["N, V, M"]
    x, y = scene.picture.point_of(0)
    assert placed[0][1].inflate(100, 100).collidepoint(x, y)
