"""Colour for every eye (issue 33 point 3): every pair of colours the picture draws side
by side (game/app/draw/palette.py SIDE_BY_SIDE) stays ΔE00 20 apart to a normal eye and
under simulated protanopia, deuteranopia and tritanopia, the pairs of one colour differ
by shape (BY_SHAPE), and every colour of a graphic keeps WCAG's 3:1 against the
background. The colour science is tests/vision.py, checked here against its sources."""

from __future__ import annotations

import pytest
from vision import EYES, MACHADO, ciede2000, contrast, distance, lab, seen

from equilibria.app.draw import palette

APART = 20.0  # ΔE00: far apart at a glance, for thin lines as for wide bands
GRAPHIC_CONTRAST = 3.0  # WCAG 2.1 success criterion 1.4.11, non-text contrast
TEXT_CONTRAST = 4.5  # WCAG 2.1 success criterion 1.4.3, text


# Sharma, Wu & Dalal (2005), Table 1: pairs 1, 7, 13, 14, 17, 19, 25 and 34 (L*, a*, b*) and their ΔE00,
# chosen to take every branch: the mean hue across 0°, a neutral colour, the hue
# difference past 180°, large differences and dark colours.
SHARMA = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_gives_sharma_wu_and_dalals_figures(lab1, lab2, expected):
    assert float(ciede2000(lab1, lab2)) == pytest.approx(expected, abs=1e-4)
    assert float(ciede2000(lab2, lab1)) == pytest.approx(expected, abs=1e-4)  # symmetric


def test_the_colour_conversions_hold_their_fixed_points():
    assert lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=1e-3)  # D65 white
    assert lab((0, 0, 0)) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert lab((255, 0, 0)) == pytest.approx((53.2408, 80.0925, 67.2032), abs=1e-2)  # sRGB red, as CIE 15 gives it
    for eye in MACHADO:  # a dichromat sees greys as they are: each matrix's rows sum to 1
        assert seen((128, 128, 128), eye) == pytest.approx((128, 128, 128), abs=0.6)
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)  # WCAG's own example of 4.5:1


def worst(pairs) -> list[tuple[float, str, str, str]]:
    """(ΔE00, eye, role, role) of each pair, by the eye that sees it worst."""
    out = []
    for a, b in pairs:
        d, eye = min((distance(palette.ROLES[a], palette.ROLES[b], eye), eye) for eye in EYES)
        out.append((d, eye, a, b))
    return sorted(out)


def test_every_pair_drawn_side_by_side_stays_apart_for_every_eye():
    close = [f"{a} / {b}: ΔE00 {d:.1f} ({eye})" for d, eye, a, b in worst(palette.SIDE_BY_SIDE) if d < APART]
    assert close == []


def test_the_pairs_of_one_colour_are_named_with_their_shape_and_no_pair_is_left_out():
    for a, b in palette.BY_SHAPE:
        assert palette.ROLES[a] == palette.ROLES[b] or min(distance(palette.ROLES[a], palette.ROLES[b], eye) for eye in EYES) < APART
        assert (a, b) not in palette.SIDE_BY_SIDE and (b, a) not in palette.SIDE_BY_SIDE
    named = {frozenset(p) for p in palette.SIDE_BY_SIDE} | {frozenset(p) for p in palette.BY_SHAPE}
    assert len(named) == len(palette.SIDE_BY_SIDE) + len(palette.BY_SHAPE), "a pair named twice"
    for role in palette.ROLES:
        assert any(role in p for p in named), f"{role} is drawn beside nothing?"


def test_the_guard_finds_a_pair_too_close(monkeypatch):
    """The old palette's purple beside tension blue: 5.5 under deuteranopia (issue 33)."""
    monkeypatch.setitem(palette.ROLES, "your force", (117, 68, 150))
    monkeypatch.setitem(palette.ROLES, "tension", (0, 114, 178))
    d, eye, *_ = worst([("your force", "tension")])[0]
    assert (round(d, 1), eye) == (5.5, "deuteranopia")


@pytest.mark.parametrize("role", palette.GRAPHICS)
def test_every_graphic_keeps_three_to_one_against_the_background(role):
    assert contrast(palette.ROLES[role], palette.BACKGROUND) >= GRAPHIC_CONTRAST


@pytest.mark.parametrize("sign", sorted(palette.SIGN_TEXT))
def test_a_members_value_is_written_in_a_shade_that_keeps_text_contrast(sign):
    assert contrast(palette.SIGN_TEXT[sign], palette.BACKGROUND) >= TEXT_CONTRAST
    assert distance(palette.SIGN_TEXT[sign], palette.SIGN_COLOUR[sign]) < APART  # still its member's colour
