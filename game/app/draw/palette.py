"""Colours, sizes and fonts. Forces use the Okabe–Ito palette, which stays distinct for
the common kinds of colour blindness: blue for tension (a pull), vermillion for
compression (a push), grey for a member that carries next to nothing."""

from __future__ import annotations

from equilibria.app.draw.typeface import BOLD, REGULAR, load

Colour = tuple[int, int, int]

BACKGROUND: Colour = (247, 247, 242)
PANEL: Colour = (236, 236, 229)
RULE: Colour = (205, 205, 196)
INK: Colour = (33, 33, 33)
MUTED: Colour = (105, 105, 100)
TENSION: Colour = (0, 114, 178)  # Okabe–Ito blue #0072B2
COMPRESSION: Colour = (213, 94, 0)  # Okabe–Ito vermillion #D55E00
ZERO: Colour = (160, 160, 160)
REACTION: Colour = (0, 158, 115)  # Okabe–Ito bluish green #009E73
LOAD: Colour = INK
OWN_FORCE: Colour = (117, 68, 150)  # the forces the player added: purple, apart from the given loads in black
BROKEN: Colour = (150, 150, 150)
MARK: Colour = (204, 121, 167)  # Okabe–Ito reddish purple #CC79A7: the first to break
PLATE: Colour = (226, 226, 220)
GROUND: Colour = (226, 216, 194)
GROUND_LINE: Colour = (120, 104, 78)
JOINT: Colour = (255, 255, 255)
HUD_BACK = (25, 25, 25, 215)
HUD_TEXT: Colour = (240, 240, 240)
ALERT: Colour = COMPRESSION

MEMBER_MIN_PX = 2.0  # width of a member carrying nothing
MEMBER_MAX_PX = 14.0  # width of the most loaded member
ZERO_SHARE = 0.02  # |force| under this share of the scale counts as zero (grey)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """a at t = 0, b at t = 1."""
    t = min(max(t, 0.0), 1.0)
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


HIDDEN: Colour = (95, 95, 90)  # a member whose force is hidden until the check (not "about zero")
SIGN_COLOUR = {1: TENSION, -1: COMPRESSION, 0: ZERO, 2: HIDDEN}  # by the sign of a force; 2: hidden


class Fonts:
    """The fonts every scene uses: DejaVu Sans Condensed as the game ships it (game/app/draw/typeface.py),
    the same on every system. Needs pygame.font initialised."""

    def __init__(self) -> None:
        self.small = load(REGULAR, 13)
        self.body = load(REGULAR, 15)
        self.bold = load(BOLD, 15)
        self.title = load(BOLD, 21)
        self.big = load(BOLD, 26)
