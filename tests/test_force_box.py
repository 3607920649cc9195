"""The force box edits as a text field does (issue 25, point 4): a cursor that moves
(Left/Right, Home/End, Ctrl+Left/Right), a selection (Shift with those, Ctrl+A) that
typing replaces, Backspace and Delete, the clipboard (Ctrl+C, Ctrl+X, Ctrl+V), and
text from an input method (TEXTEDITING while it composes, TEXTINPUT when it commits).
Driven by posted events through the play scene, as a player's keys arrive."""

from __future__ import annotations

import pygame
import pytest

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.entry import SELECTION, TextLine
from equilibria.app.window.app import App
from equilibria.course.syllabus import shipped_level

CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT


def post_key(key: int, mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=""))


def post_text(text: str) -> None:
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=ord(ch) if ch.isascii() else 0, mod=0, unicode=ch))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))


@pytest.fixture
def box():
    """balance-01 with the force tool, a click on B: the box open, nothing typed."""
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, load_stage(shipped_level("balance-01")))
    app.push(scene)
    app.frame()
    scene.toolbar.choose("force")
    model = scene.session.model
    at = tuple(round(v) for v in scene.view.point(*model.arrays.pos0[model.node_index("B"), :2]))
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=at, button=1))
    app.frame()
    assert scene.entry_box.entry is not None
    yield app, scene
    app.close()


def placed(app: App, scene: PlayScene) -> tuple[float, float]:
    post_key(pygame.K_RETURN)
    app.frame()
    assert scene.entry_box.entry is None, scene.entry_box.entry.problem
    [move] = scene.session.bench.moves
    return move.fx, move.fy


def test_the_cursor_moves_and_typing_goes_where_it_is(box):
    app, scene = box
    post_text("0, -1")
    post_key(pygame.K_HOME)
    post_text("3")  # "30, -1"
    post_key(pygame.K_END)
    post_text("2")  # "30, -12"
    post_key(pygame.K_LEFT)
    post_key(pygame.K_LEFT)
    post_key(pygame.K_DELETE)  # the "1" after the cursor: "30, -2"
    app.frame()
    assert scene.entry_box.entry.text == "30, -2" and scene.entry_box.entry.line.cursor == 5
    assert placed(app, scene) == (30e3, -2e3)


def test_a_selection_made_with_shift_is_replaced_by_what_is_typed(box):
    app, scene = box
    post_text("10, 20")
    post_key(pygame.K_LEFT, SHIFT)
    post_key(pygame.K_LEFT, SHIFT)  # "20" selected
    post_text("-3")
    app.frame()
    assert scene.entry_box.entry.text == "10, -3"
    post_key(pygame.K_HOME)
    post_key(pygame.K_RIGHT, CTRL | SHIFT)  # the word "10"
    post_key(pygame.K_BACKSPACE)
    post_text("4")
    assert placed(app, scene) == (4e3, -3e3)


def test_ctrl_a_selects_all_and_ctrl_v_pastes_the_clipboard_in_its_place(box):
    app, scene = box
    post_text("1, 1")
    app.frame()
    pygame.scrap.put_text("0, -7.5\nsecond line")  # what another program copied
    post_key(pygame.K_a, CTRL)
    post_key(pygame.K_v, CTRL)
    app.frame()
    assert scene.entry_box.entry.text == "0, -7.5"  # its first line only, in place of the whole
    assert placed(app, scene) == (0.0, -7.5e3)


def test_ctrl_x_cuts_to_the_clipboard(box):
    app, scene = box
    post_text("3, 4")
    post_key(pygame.K_a, CTRL)
    post_key(pygame.K_x, CTRL)
    app.frame()
    assert scene.entry_box.entry.text == "" and pygame.scrap.get_text() == "3, 4"


def test_an_input_method_composes_then_commits(box):
    """An IME shows its composition (TEXTEDITING) at the cursor, underlined, without
    typing it; the text it commits (TEXTINPUT) is typed once. A Japanese IME gives
    full-width forms (－９): read, and shown, as the plain ones the font has."""
    app, scene = box
    post_text("2, ")
    pygame.event.post(pygame.event.Event(pygame.TEXTEDITING, text="－９", start=2, length=0))
    app.frame()
    assert scene.entry_box.entry.text == "2, " and scene.entry_box.entry.line.composing == "-9"
    post_key(pygame.K_RETURN)  # the input method's Enter: it commits, it does not place the force
    app.frame()
    assert scene.entry_box.entry is not None and scene.session.bench.moves == []
    pygame.event.post(pygame.event.Event(pygame.TEXTEDITING, text="", start=0, length=0))
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="－９"))
    app.frame()
    assert scene.entry_box.entry.text == "2, -9"
    assert placed(app, scene) == (2e3, -9e3)


def test_the_box_draws_its_selection(box):
    """The highlight appears when the text is selected (Ctrl+A), and only then."""
    app, _ = box
    post_text("10, 20")
    app.frame()
    before = (pygame.surfarray.array3d(app.screen) == SELECTION).all(axis=2).sum()
    post_key(pygame.K_a, CTRL)
    app.frame()
    after = (pygame.surfarray.array3d(app.screen) == SELECTION).all(axis=2).sum()
    assert before == 0 and after > 100  # a band behind the six characters, some 40 × 17 px


@pytest.mark.parametrize(
    ("steps", "text", "cursor"),
    [
        ([("insert", "12345"), ("move", 2, False), ("insert", "x")], "12x345", 3),
        ([("insert", "12345"), ("move", 1, False), ("move", 4, True), ("delete",)], "15", 1),
        ([("insert", "a" * 40)], "a" * 32, 32),  # the limit
        ([("insert", "ab\tc")], "abc", 3),  # nothing unprintable
    ],
)
def test_the_line_edits_without_pygame(steps, text, cursor):
    line = TextLine()
    for name, *args in steps:
        getattr(line, name)(*args) if name != "move" else line.move(args[0], select=args[1])
    assert (line.text, line.cursor) == (text, cursor)
