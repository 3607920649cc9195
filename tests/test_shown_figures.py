"""Figures a student reads add up and look alike: the member table's costs (every shown
row adds to its shown part, the parts to the shown total) and the force box's preview
(the game's one number formatter, its minus sign "−")."""

from __future__ import annotations

import math
import re

import pygame
import pytest

from equilibria.app.session.answers import FORCE, MOMENT, Asked
from equilibria.app.widgets.entry import AnswerEntry
from equilibria.app.widgets.membertable import bill_cells, totals
from equilibria.course.level import load_level
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.construction import bill, design, whole_dollars
from equilibria.words.figures import signed

LIGHT, JOINT = 100.0, 50.0  # bridge-01's prices: $ per metre of the light tube, $ per new joint


def dollars(words: str) -> int:
    assert re.fullmatch(r"\$[0-9,]+", words), words
    return int(words[1:].replace(",", ""))


def table_of(extra: list[dict]):
    """bridge-01's reference design with `extra` moves, its bill and the table's words."""
    level = load_level(read_json(shipped_level("bridge-01")))
    data = read_json(reference_solution("bridge-01"))
    data["moves"] = [*data["moves"], *extra]
    b = bill(level, design(level, load_solution(data)))
    return b, bill_cells(b), totals(b)


def assert_adds_up(b, cells, lines) -> None:
    """Every section's shown rows add to its shown part; the parts to the shown total."""
    parts, (_, total) = lines[:-1], lines[-1]
    for words, amount in parts:
        name = words.split(" ", 1)[1].split(" member")[0] if " member" in words else None
        if name is not None:
            rows = [dollars(cells[r.member][2]) for r in b.rows if r.section == name]
            assert sum(rows) == dollars(amount), (words, rows, amount)
    assert sum(dollars(amount) for _, amount in parts) == dollars(total)


def test_the_reference_bridges_shown_costs_add_up():
    """bridge-01's reference: three light members of 2 m ($200 each) and three of 2√2 m
    ($282.84 each, shown $283), two joints at $50: $1,448.53 + $100 = $1,548.53, $1,549."""
    b, cells, lines = table_of([])
    assert_adds_up(b, cells, lines)
    assert lines[-1][1] == f"${round(LIGHT * (6 + 6 * math.sqrt(2)) + 2 * JOINT):,}" == "$1,549"


def test_a_design_whose_rows_rounded_alone_would_not_add_up():
    """The reference with a fourth light diagonal BF (2√2 m, $282.84): rounded alone its
    four diagonals show 4 × $283 = $1,132 against their exact $1,131.37; the section's
    part is $1,731.37, shown $1,731. The shown rows give up one dollar (the one with the
    fewest cents) so that they add to the shown part, and the parts to the total, which
    is the cost rounded to the dollar (as the status line says it)."""
    move = {"type": "add_member", "id": "BF", "i": "B", "j": "F", "section": "light"}
    b, cells, lines = table_of([move])
    exact = LIGHT * (6 + 8 * math.sqrt(2)) + 2 * JOINT  # $1,831.37
    assert sum(round(r.price) for r in b.rows if r.price is not None) != round(exact)  # the defect: rows rounded alone
    assert_adds_up(b, cells, lines)
    assert lines[-1][1] == f"${round(exact):,}" == "$1,831"
    for r in b.rows:
        if r.price is not None:
            assert abs(r.shown - r.price) < 1.0  # no row is off by a dollar


@pytest.mark.parametrize(
    ("amounts", "shown"),
    [([282.84] * 4, [283, 283, 283, 282]), ([1.5, 1.5], [2, 1]), ([0.8, 0.8, 50.0], [1, 1, 50]), ([], [])],
)
def test_whole_dollars_add_to_the_sum_rounded(amounts, shown):
    """Largest remainders: [$1,131.36 → $1,131]: three up, one down; ties go to the first."""
    assert whole_dollars(amounts) == shown
    assert sum(shown) == round(sum(amounts))


# ---------------------------------------------------------------------- the force box
@pytest.mark.parametrize(
    ("text", "reads"),
    [
        ("0, -3", "= Fx 0 kN, Fy −3 kN: 3 kN at 270°"),
        ("-2.5;1", "= Fx −2.5 kN, Fy +1 kN: 2.69 kN at 158°"),  # √(2.5² + 1²) = 2.693; atan2(1, −2.5) = 158.2°
        ("10 @ 270", "= Fx 0 kN, Fy −10 kN: 10 kN at 270°"),
        ("1.5, 0", "= Fx +1.5 kN, Fy 0 kN: 1.5 kN at 0°"),
    ],
)
def test_the_force_box_preview_writes_minus_as_the_game_does(text, reads):
    """The preview of a typed force in the game's figures: "−" (U+2212), never the hyphen."""
    entry = typed(text)
    assert entry.asked.reads(entry.text) == reads
    assert "-" not in entry.asked.reads(entry.text)


def test_the_moment_box_and_the_force_it_replaces_read_alike():
    entry = typed("-4.5", moment=True)
    assert entry.asked.reads(entry.text) == "= 4.5 kN·m clockwise"
    assert signed(-3.0, "kN") == "−3 kN" and signed(12.5, "kN") == "+12.5 kN" and signed(0.0, "kN") == "0 kN"


def typed(text: str, *, moment: bool = False) -> AnswerEntry:
    """The box at node B with `text` typed into it (a TEXTINPUT event, as the keyboard gives)."""
    pygame.init()
    entry = AnswerEntry(Asked(MOMENT if moment else FORCE, "B"))
    assert entry.key(pygame.event.Event(pygame.TEXTINPUT, text=text)) is None
    assert entry.text == text
    return entry
