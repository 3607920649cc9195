"""The play screen's boxes own whether they are open, and draw from what they are handed:
each is made here with no play scene at all (the fonts, a stage, a session standing in),
opened, drawn, pressed and closed. The brief, the help and the question before leaving
once read flags that the play scene kept for them."""

from __future__ import annotations

from types import SimpleNamespace

import pygame
import pytest

from equilibria.app.draw.palette import Fonts
from equilibria.app.scenes.boxes import BriefPart, HelpPart, LeavePart
from equilibria.app.scenes.parts import TitlePart
from equilibria.app.session.stage import Stage
from equilibria.app.widgets.tools import Toolbar
from equilibria.app.window.sections import SectionManager

AREA = pygame.Rect(0, 0, 900, 600)


@pytest.fixture(scope="module")
def fonts():
    pygame.font.init()
    return Fonts()


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")


def test_the_brief_and_the_help_open_and_close_themselves(fonts):
    stage = Stage.empty_sandbox()
    help_box = HelpPart(fonts, Toolbar(("inspect", "drag")))
    brief = BriefPart(fonts, stage, help_box.open)
    title = TitlePart(fonts, stage, brief.open)
    parts = SectionManager([title, brief, help_box])
    assert title.fit(AREA.width) > 0 and title.lines
    assert parts.top_modal() is None
    title.rect = pygame.Rect(0, 0, AREA.width, 80)
    assert parts.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(20, 20), button=1), (20, 20))  # a click on the title
    assert brief.is_open and parts.top_modal() is brief
    brief.rect = brief.place(AREA)
    parts.draw(pygame.Surface(AREA.size))
    parts.dispatch(key(pygame.K_F1), (0, 0))  # the help over the brief
    assert parts.top_modal() is help_box and brief.is_open
    help_box.rect = help_box.place(AREA)
    parts.draw(pygame.Surface(AREA.size))
    assert parts.escape() and not help_box.is_open and parts.top_modal() is brief  # Esc: back to the brief
    brief.toggle()
    assert not brief.is_open and parts.top_modal() is None


def test_the_question_before_leaving_answers_through_what_it_was_handed(fonts):
    left = []
    session = SimpleNamespace(bench=None, level_bench=None)
    leaving = LeavePart(fonts, session, alone=lambda: True, leave=lambda: left.append(True))
    leaving.open()
    assert leaving.content(400)[0] == "Leave the game?"
    leaving.rect = leaving.place(AREA)
    leaving.draw(pygame.Surface(AREA.size))
    (_, stay), (button, leave) = leaving.buttons
    assert (stay, leave) == ("stay", "leave")
    leaving.handle_event(key(pygame.K_a))  # any other key stays
    assert not leaving.is_open and not left
    leaving.open()
    leaving.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.center, button=1))
    assert not leaving.is_open and left == [True]
