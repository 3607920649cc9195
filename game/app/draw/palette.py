"""Colours, sizes and fonts. Blue for tension (a pull), orange for compression (a push),
grey for a member that carries next to nothing; loads in black, the player's own forces
(and marks) in purple, reactions in green.

The colours were chosen so that every pair the picture draws side by side (SIDE_BY_SIDE)
stays at least ΔE00 20 apart to a normal eye and under simulated protanopia,
deuteranopia and tritanopia (Machado, Oliveira & Fernandes 2009, severity 1.0), and
every colour of a graphic keeps 3:1 against the background (WCAG 2.1, 1.4.11); the
pairs that share a colour are told apart by shape (BY_SHAPE). tests/test_colours.py
computes both from this module."""

from __future__ import annotations

from equilibria.app.draw.typeface import BOLD, REGULAR, load

Colour = tuple[int, int, int]

BACKGROUND: Colour = (247, 247, 242)
PANEL: Colour = (236, 236, 229)
RULE: Colour = (205, 205, 196)
INK: Colour = (33, 33, 33)
MUTED: Colour = (105, 105, 100)
TENSION: Colour = (24, 140, 235)  # a clear blue
COMPRESSION: Colour = (196, 124, 36)  # an ochre orange
ZERO: Colour = (122, 121, 120)  # a mid grey, on the thinnest members
REACTION: Colour = (23, 82, 0)  # a dark green
LOAD: Colour = INK
OWN_FORCE: Colour = (122, 14, 122)  # the forces the player added: purple (with a hollow head), apart from the given loads in black
BROKEN: Colour = ZERO  # dashed: told from "about zero" by its dashes
RESULTANT: Colour = (88, 88, 84)  # a distributed load's resultant (W): a dashed arrow, its words beside it
MARK: Colour = OWN_FORCE  # what the picture points out (the first to break, the player's marks and cuts, a mechanism's motion): strokes and rings
PLATE: Colour = (226, 226, 220)
GROUND: Colour = (226, 216, 194)
GROUND_LINE: Colour = (120, 104, 78)
JOINT: Colour = (255, 255, 255)
HUD_BACK = (25, 25, 25, 215)
HUD_TEXT: Colour = (240, 240, 240)
ALERT: Colour = (213, 94, 0)  # warnings and nails: vermillion

MEMBER_MIN_PX = 2.0  # width of a member carrying nothing
MEMBER_MAX_PX = 14.0  # width of the most loaded member
ZERO_SHARE = 0.02  # |force| under this share of the scale counts as zero (grey)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """a at t = 0, b at t = 1."""
    t = min(max(t, 0.0), 1.0)
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


HIDDEN: Colour = (112, 112, 108)  # a member whose force is hidden until the check (not "about zero"): every member alike, wide
SIGN_COLOUR = {1: TENSION, -1: COMPRESSION, 0: ZERO, 2: HIDDEN}  # by the sign of a force; 2: hidden
SIGN_TEXT = {s: mix(c, INK, 0.3) for s, c in SIGN_COLOUR.items()}  # a member's value in its sign's colour, darker: text keeps 4.5:1


# What the picture draws side by side, by role: the colour of each role, and the pairs
# that must look apart by colour (SIDE_BY_SIDE) or are told apart by shape (BY_SHAPE).
ROLES: dict[str, Colour] = {
    "tension": TENSION,
    "compression": COMPRESSION,
    "about zero": ZERO,
    "hidden": HIDDEN,
    "broken": BROKEN,
    "load": LOAD,
    "load to come": LOAD,
    "your force": OWN_FORCE,
    "reaction": REACTION,
    "mark": MARK,
    "resultant": RESULTANT,
    "nail": ALERT,  # a node nailed in place (a ring crossed by a stroke), and the warnings' words
}
_MEMBERS = ("tension", "compression", "about zero")  # meet at joints; "hidden" draws every member alike, never beside these
_ARROWS = ("load", "your force", "reaction")  # arrows at the joints, over the members' ends, beside one another
SIDE_BY_SIDE: tuple[tuple[str, str], ...] = (
    ("tension", "compression"),  # members meeting at a joint; also the graphs' first two series
    ("tension", "about zero"),
    ("compression", "about zero"),
    *((arrow, member) for arrow in _ARROWS for member in (*_MEMBERS, "hidden")),  # an arrow on a member's end
    ("load", "your force"),  # at one node: the given load and the player's beside it
    ("load", "reaction"),  # a loaded support
    ("your force", "reaction"),  # the graphs' third series (reactions) too
    *(("mark", role) for role in (*_MEMBERS, "hidden", "load", "reaction")),  # a mark on a member, beside an arrow
    *(("broken", role) for role in ("tension", "compression", *_ARROWS, "mark")),  # a broken member's dashes beside the standing, crossed if first
    ("resultant", "tension"),  # W: over the beam it loads
    ("resultant", "compression"),
    ("resultant", "your force"),
    *(("nail", role) for role in ("tension", "about zero", "hidden", "load", "your force")),  # on a node, among its members and arrows
)
BY_SHAPE: dict[tuple[str, str], str] = {  # one colour, two shapes
    ("broken", "about zero"): "dashes, against a solid thin line",
    ("load to come", "load"): "a dashed shaft, against a solid one",
    ("mark", "your force"): "strokes, crosses and rings, against an arrow with a hollow head",
    # No seventh colour keeps ΔE00 20 from the six beside it (under 3:1, for every eye): W's
    # resultant is a dashed arrow with its words ("resultant 16 kN, 4 m from A").
    ("resultant", "load"): "a long dashed arrow and its words, against the row of solid arrows it stands for",
    ("resultant", "about zero"): "a dashed arrow with a head, against a thin solid line",
    ("resultant", "hidden"): "a dashed arrow with a head, against a wide solid band",
    ("resultant", "reaction"): "a dashed arrow on the beam's span, against solid arrows at the supports",
    ("nail", "compression"): "a ring crossed by a stroke at a node, against a band along a member",
    ("nail", "reaction"): "a ring crossed by a stroke at a node, against an arrow",
}
GRAPHICS = tuple(ROLES)  # each keeps 3:1 against BACKGROUND (the picture, the graphs' plots, the legend's swatches)


class Fonts:
    """The fonts every scene uses: DejaVu Sans Condensed as the game ships it (game/app/draw/typeface.py),
    the same on every system, at `scale` (1.0: 100 %; the player's Ctrl+= and Ctrl+−,
    game/app/window/scale.py). Needs pygame.font initialised."""

    def __init__(self, scale: float = 1.0) -> None:
        self.rescale(scale)

    def rescale(self, scale: float) -> None:
        """Every font anew at `scale`, in place: whoever holds these fonts draws at the new
        size from the next frame (the text caches key by `scale`)."""
        self.scale = scale
        self.small = load(REGULAR, round(13 * scale))
        self.body = load(REGULAR, round(15 * scale))
        self.bold = load(BOLD, round(15 * scale))
        self.title = load(BOLD, round(21 * scale))
        self.big = load(BOLD, round(26 * scale))

    def px(self, size: float) -> int:
        """A length laid out for 100 % [px], at this scale."""
        return round(size * self.scale)
