"""A clear screen: on every shipped level (as it opens, with its reference solution
checked, and running) and in the sandbox, no two texts on the structure overlap: load
and reaction values, names, member values, the grid's and the scale's words, the marks.
Texts are caught as they are drawn while the world is drawn: the labels of the drawing
records handed to the backend (the structure's and the marks' labels, placed by the label
layer: tests/drawing.py), and draw.label and draw.place; the boxes over the world are left
out (they are meant to cover it)."""

from __future__ import annotations

import itertools

import pygame
import pytest
from drawing import record
from test_play_session import key, start

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.drawlist import Label
from equilibria.app.launch import bench_of_solution
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.widgets import marks
from equilibria.app.widgets.picture import Picture
from equilibria.course.syllabus import load_course, reference_solution, shipped_level


class Texts(list):
    """The rects of the texts drawn on the world (draw.label's and draw.place's, and the
    plates of the labels handed to the backend), as a list refilled per frame."""

    def __init__(self, records: list):
        super().__init__()
        self.records = records

    def clear(self) -> None:
        super().clear()
        self.records.clear()

    def shown(self) -> list[pygame.Rect]:
        return [*self, *(pygame.Rect(r.plate) for r in self.records if isinstance(r, Label))]


@pytest.fixture
def texts(monkeypatch):
    caught = Texts(record(monkeypatch))
    on = {"world": False}

    def catching(function):
        def wrapped(*args, **kwargs):
            rect = function(*args, **kwargs)
            if on["world"] and rect is not None:
                caught.append(pygame.Rect(rect))
            return rect

        return wrapped

    def world(function):
        def wrapped(*args, **kwargs):
            on["world"] = True
            try:
                return function(*args, **kwargs)
            finally:
                on["world"] = False

        return wrapped

    for module, name in ((draw, "label"), (draw, "place")):
        monkeypatch.setattr(module, name, catching(getattr(module, name)))
    monkeypatch.setattr(Picture, "draw", world(Picture.draw))
    monkeypatch.setattr("equilibria.app.scenes.parts.draw_marks", world(marks.draw_marks))
    return caught


def overlaps(rects: list[pygame.Rect]) -> list[tuple[pygame.Rect, pygame.Rect]]:
    return [(a, b) for a, b in itertools.combinations(rects, 2) if a.colliderect(b)]


def frames(app, texts: Texts, n: int) -> list[list[pygame.Rect]]:
    out = []
    for _ in range(n):
        texts.clear()
        app.frame()
        out.append(texts.shown())
    return out


def shipped() -> list[str]:
    return load_course().level_ids()


@pytest.mark.parametrize("level", shipped())
def test_no_two_texts_on_a_level_overlap(level, texts):
    stage = load_stage(shipped_level(level))
    solution = reference_solution(level)
    app, _ = start(stage, bench=bench_of_solution(stage, str(solution)) if solution else None)
    seen = frames(app, texts, 2)  # as it opens: paused, or a demo running
    if solution:
        key(app, pygame.K_c)  # checked: the judged run plays
        app.frame()
    else:
        key(app, pygame.K_SPACE)
    seen += frames(app, texts, 30)
    key(app, pygame.K_l)  # every name
    seen += frames(app, texts, 2)
    for shown in seen:
        assert overlaps(shown) == [], f"{level}: texts overlap"
    assert any(seen), f"{level}: no text at all was caught"
    app.close()


def test_no_two_texts_overlap_in_the_sandbox(texts):
    app, _ = start(load_stage(shipped_level("bridge-06"), sandbox=True))
    key(app, pygame.K_SPACE)
    for shown in frames(app, texts, 40):
        assert overlaps(shown) == []
    app.close()
    app, _ = start(Stage.empty_sandbox())
    for shown in frames(app, texts, 2):
        assert overlaps(shown) == []
    app.close()


def test_a_long_notice_and_the_keys_on_the_status_line_never_overlap(monkeypatch):
    """The keys give way to a long notice (a save's path), and a notice longer than the
    line is cut with "…"."""
    app, scene = start(Stage.empty_sandbox())
    drawn: list[tuple[str, pygame.Rect]] = []
    original = draw.label
    monkeypatch.setattr(draw, "label", lambda surface, font, text, *a, **k: drawn.append((text, original(surface, font, text, *a, **k))) or drawn[-1][1])
    status = scene.layout.status
    for notice in ("Saved.", "Saved to " + "/a-long-folder" * 6 + "/design.json", "x" * 400):
        scene.session.notice = notice
        drawn.clear()
        app.frame()
        on_line = [(text, rect) for text, rect in drawn if status.contains(rect)]
        assert overlaps([rect for _, rect in on_line]) == [], notice[:20]
        assert all(status.contains(rect) for _, rect in on_line)
        if notice == "Saved.":
            assert len(on_line) == 2  # the notice and the keys
        if notice.startswith("x"):
            assert on_line[0][0].endswith(" …")
    app.close()
