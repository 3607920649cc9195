"""Wrapped text: every line fits the width asked for, a word wider than a line (a long
file path in an error message) is broken across lines rather than let out of its box,
and ordinary sentences wrap as they always did."""

import itertools
import re

import pygame
import pytest

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import Fonts
from equilibria.app.widgets import overlay

PATH = "/home/student/.local/share/equilibria/levels/community/bridges-and-trusses/a_rather_long_level_name_for_testing.json"
HASH = "0123456789abcdef" * 6  # no mark to break at
SENTENCE = (
    "Each node of a truss in equilibrium has the member forces and the loads at it summing to zero, "
    "so a node with two members that do not line up and no load carries no force in either."
)


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    pygame.font.init()
    return Fonts()


def greedy(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """The wrapping of old, which left a word wider than a line whole: the oracle for
    text whose every word fits."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if font.size(trial)[0] <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def ink(text: str) -> str:
    """Text without its whitespace: what wrapping must neither lose nor add to."""
    return re.sub(r"\s", "", text)


@pytest.mark.parametrize("width", [60, 120, 200, 333, 500])
@pytest.mark.parametrize("text", [PATH, HASH, f"Cannot open {PATH}: members[0].j: unknown node 'NOWHERE'", f"{HASH} {PATH}\n\n{SENTENCE}"])
def test_every_line_fits_and_nothing_is_lost(fonts, text, width):
    font = fonts.body
    lines = draw.wrap(font, text, width)
    assert all(font.size(line)[0] <= width for line in lines), [(line, font.size(line)[0]) for line in lines]
    assert ink("".join(lines)) == ink(text)
    assert all(line == line.strip() for line in lines)


def test_a_long_path_breaks_after_its_separators(fonts):
    font, width = fonts.body, 240
    lines = draw.wrap(font, f"Cannot open {PATH}: no such file", width)
    assert lines[0] == "Cannot open"  # the path starts a line of its own
    broken = lines[1:-1]
    assert all(line.endswith(tuple(draw.BREAK_AFTER)) for line in broken)
    assert all(font.size(line)[0] > width / 2 for line in broken)  # no scraps
    assert lines[-1].endswith("no such file")  # the words after it follow on


def test_a_word_without_marks_breaks_between_characters_and_fills_its_lines(fonts):
    font, width = fonts.body, 150
    lines = draw.wrap(font, HASH, width)
    assert "".join(lines) == HASH and len(lines) > 2
    for line, after in itertools.pairwise(lines):
        assert font.size(line)[0] <= width < font.size(line + after[0])[0]  # as full as it can be


@pytest.mark.parametrize("width", [80, 150, 260, 400, 2000])
def test_ordinary_sentences_wrap_as_before(fonts, width):
    text = f"{SENTENCE}\n\nA second paragraph, after an empty line."
    lines = draw.wrap(fonts.body, text, width)
    assert lines == greedy(fonts.body, text, width)
    assert "" in lines and " ".join(line for line in lines if line) == " ".join(text.split())


def test_a_width_under_one_character_still_ends(fonts):
    assert draw.wrap(fonts.body, "WWW ab", 3) == ["W", "W", "W", "a", "b"]
    assert draw.wrap(fonts.body, "", 100) == [""]


def test_a_message_box_holds_a_long_path(fonts):
    """The error box of a level that cannot be opened, its file deep in folders: every
    pixel drawn lies inside the box."""
    surface = pygame.Surface((640, 360))
    back = (200, 210, 220)
    surface.fill(back)
    text = f"{PATH}: members[0].j: unknown node 'NOWHERE'"
    box = overlay.message(surface, fonts, surface.get_rect(), "Cannot open a_rather_long_level_name_for_testing.json", text, "Any key or click: close this box")
    outside = [(x, y) for x in range(0, 640, 2) for y in range(0, 360, 2) if not box.collidepoint(x, y) and surface.get_at((x, y))[:3] != back]
    assert box.width <= 640 and not outside
