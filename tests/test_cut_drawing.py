"""A free body's cuts drawn as a textbook draws a free-body diagram (game/app/draw/cuts.py):
each cut named by what it carries, a removed support as a faint ghost of its symbol where
it stood, a cut member with a cut mark and its rest faint beyond, and nothing of the
session written by the drawing. Looked at headless, as the player sees it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygame
import pytest
from test_play_session import key, start

from equilibria.app.draw.cuts import words
from equilibria.app.draw.labels import LabelLayer
from equilibria.app.draw.palette import BACKGROUND, INK, OWN_FORCE
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


@pytest.fixture
def puts(monkeypatch):
    """The texts the label layer placed, with their plates."""
    placed: list[tuple[str, pygame.Rect]] = []
    put = LabelLayer.put

    def catching(self, surface, font, text, at, colour, anchor="center"):
        plate = put(self, surface, font, text, at, colour, anchor)
        if plate is not None and colour == OWN_FORCE:
            placed.append((text, plate))
        return plate

    monkeypatch.setattr(LabelLayer, "put", catching)
    return placed


@pytest.mark.parametrize("level", sorted(SAID))
def test_every_cut_is_named_near_it_as_the_level_opens(level, puts):
    _app, scene = start(load_stage(shipped_level(level)))
    cuts = scene.stage.level.cut
    texts = {t for t, _ in puts}
    assert texts == SAID[level]
    picture = scene.picture
    for text, plate in puts:  # each near its own cut: within 100 px of the node
        cut = next(c for c in cuts if words(c) == text)
        x, y = picture.point_of(picture.model.node_index(cut.node))
        assert plate.inflate(200, 200).collidepoint(x, y), (text, plate, (x, y))


def test_a_removed_support_is_a_faint_ghost_where_it_stood():
    """free-body-01: the pin at A and the roller at B removed. Below each node, where the
    symbol stood, pixels are drawn, none of them as dark as the ink of a real symbol."""
    app, scene = start(load_stage(shipped_level("free-body-01")))
    picture, screen = scene.picture, app.screen
    for node in ("A", "B"):
        x, y = picture.point_of(picture.model.node_index(node))
        box = pygame.Rect(round(x) - 20, round(y) + 6, 40, 24)  # under the node: the triangle, its ground line
        pixels = pygame.surfarray.array3d(screen.subsurface(box)).reshape(-1, 3).astype(int)
        drawn = np.abs(pixels - BACKGROUND).sum(axis=1) > 30
        assert drawn.sum() > 20, node  # the ghost is there
        darkest = pixels[drawn].sum(axis=1).min()
        assert darkest > 3 * max(INK) + 150, (node, darkest)  # and faint: nowhere near the ink's darkness


def test_a_cut_member_has_a_cut_mark_and_its_rest_faint_beyond():
    """free-body-03: CB cut at B1 (level, to the right of C). Two dark strokes cross the
    member just past B1; beyond them a faint line carries it on."""
    app, scene = start(load_stage(shipped_level("free-body-03")))
    picture, screen = scene.picture, app.screen
    x, y = (round(v) for v in picture.point_of(picture.model.node_index("B1")))
    column = [screen.get_at((x + k, y - 8))[:3] for k in range(4, 18)]  # 8 px above the member's line: only the strokes reach there
    dark = [k for k, c in zip(range(4, 18), column, strict=True) if sum(c) < 200]
    assert len(dark) >= 2 and max(dark) - min(dark) >= 4, column  # two strokes, apart
    rest = [screen.get_at((x + k, y))[:3] for k in range(25, 40)]
    assert all(sum(abs(a - b) for a, b in zip(c, BACKGROUND, strict=True)) > 40 for c in rest), rest  # drawn
    assert all(sum(c) > 3 * max(INK) + 150 for c in rest), rest  # and faint


def test_drawing_the_cuts_writes_nothing_and_survives_a_check(puts):
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
    puts.clear()
    key(app, pygame.K_c)
    app.frame()
    assert scene.session.verdict is not None and scene.session.verdict.passed
    assert {t for t, _ in puts} >= {"F along BC"}


def test_a_cut_beam_is_named_by_its_internal_forces(tmp_path, puts):
    """A cantilever's free end, cut from the rest at K (a beam cut): N, V, M beside it."""
    doc = json.loads((LEVELS / "free-body-02.json").read_text())
    doc.update(id="beam-cut", nodes=[{"id": "K", "x": 0, "y": 0, "mass": 50}, {"id": "B", "x": 2, "y": 0, "mass": 50}])
    doc["members"] = [dict(doc["members"][0], id="KB", i="K", j="B")]
    doc["cut"], doc["goal"]["moment_about"] = [{"node": "K", "what": "beam", "member": "KB"}], "K"
    path = tmp_path / "beam-cut.json"
    path.write_text(json.dumps(doc))
    _app, scene = start(load_stage(str(path)))
    assert [t for t, _ in puts] == ["N, V, M"]
    x, y = scene.picture.point_of(0)
    assert puts[0][1].inflate(100, 100).collidepoint(x, y)
