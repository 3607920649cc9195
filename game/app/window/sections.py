"""The parts of a screen as sections, after python-arcade's `arcade/sections.py`.

A `Section` is one part of a screen (the toolbar, the world, the legend, a box): the
rectangle the screen's layout gives it (`rect`), what it does with input
(`handle_event`, `escape`) and its drawing (`draw`). A `SectionManager` holds a
screen's sections in drawing order and dispatches input: a shown modal section (a
box the player must deal with) is drawn last and sees every event first; otherwise a
press or the wheel goes to the top-most shown section under the mouse, and Esc to the
top-most section that has something to close or cancel. A screen's press and escape
logic is a loop over its sections, not a chain of flags.

`Scroll` is how a long box (the help, the brief, a verdict, the legend) shows rows of
text that do not all fit its rectangle: the wheel, Page Up/Down, Up/Down, Home/End,
and a line that says how much lies above and below.

`Recording` is a surface that notes, for each section, the rectangle of everything
blitted on it (text is blitted) and what of it shows: tests lay a screen out on one
and find parts that overlap or text that is clipped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import MUTED
from equilibria.words.i18n import _

WHEEL_ROWS = 3  # rows scrolled per notch of the wheel


class Section:
    """One part of a screen. `modal`: while shown it is drawn over the others and takes
    every event first. `floating`: it lies over the world (a box, the graph), not beside
    the other parts. The layout sets `rect`; `shown` says whether it is on the screen."""

    name = "part"
    modal = False
    floating = False

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)

    @property
    def shown(self) -> bool:
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to a press, the wheel or a key; whether the event was used."""
        return False

    def escape(self) -> bool:
        """Esc: close or cancel what this part has open; whether there was anything."""
        return False

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the part inside `rect`."""


class Opening:
    """What a part that opens and shuts (a box, the HUD) owns: whether it is open. The
    screen asks it to `open`, `close` or `toggle` it; it is shown while open. (Mixed in
    before the section class: `class HelpBox(Opening, Section)`.)"""

    is_open = False

    @property
    def shown(self) -> bool:
        return self.is_open

    def open(self) -> None:
        self.is_open = True

    def close(self) -> None:
        self.is_open = False

    def toggle(self) -> None:
        if self.is_open:
            self.close()
        else:
            self.open()


class SectionManager:
    """A screen's sections in drawing order (the modal ones are drawn after the rest,
    the last shown modal one on top; a modal section under another stays hidden until
    the one above closes)."""

    def __init__(self, sections: Sequence[Section]):
        self.sections = list(sections)

    def by_name(self, name: str) -> Section:
        return next(s for s in self.sections if s.name == name)

    def top_modal(self) -> Section | None:
        return next((s for s in reversed(self.sections) if s.modal and s.shown), None)

    def shown(self) -> list[Section]:
        """The sections on the screen now, in the order they are drawn."""
        top = self.top_modal()
        return [s for s in self.sections if not s.modal and s.shown] + ([top] if top is not None else [])

    def draw(self, surface: pygame.Surface) -> None:
        enter: Callable[[Section | None], None] | None = getattr(surface, "enter", None)
        for section in self.shown():
            if enter is not None:
                enter(section)
            clip = surface.get_clip()
            section.draw(surface)
            surface.set_clip(clip)
        if enter is not None:
            enter(None)

    def dispatch(self, event: pygame.event.Event, mouse: tuple[int, int]) -> bool:
        """Hand `event` to the top modal section first; what it uses goes no further (the
        play screen's boxes use every event; the menu's message lets the wheel and the
        pointer's moves through to the menu behind it). Else a press or the wheel to the
        top-most shown section under the mouse (at `mouse`, where the last motion left
        it) that uses it. Whether a section took it."""
        modal = self.top_modal()
        if modal is not None and modal.handle_event(event):
            return True
        if event.type == pygame.MOUSEWHEEL:
            pos = mouse
        elif event.type == pygame.MOUSEBUTTONDOWN:
            pos = event.pos
        else:
            return False
        return any(s.rect.collidepoint(pos) and s.handle_event(event) for s in reversed(self.shown()) if s is not modal)

    def escape(self) -> bool:
        """Esc to the top-most section with something to close or cancel."""
        return any(s.escape() for s in reversed(self.shown()))


# ---------------------------------------------------------------------- long text
@dataclass(frozen=True)
class Piece:
    """Text in a row: `dx`, `dy` [px] from the row's upper left corner."""

    font: pygame.font.Font
    text: str
    colour: tuple
    dx: int = 0
    dy: int = 0


Paint = Callable[[pygame.Surface, int, int], None]  # draws a mark at a row's upper left corner (x, y)
Row = tuple[int, tuple["Piece | Paint", ...]]  # (height [px], the row's pieces of text and marks)


def text_rows(font: pygame.font.Font, text: str, width: int, colour: tuple, *, gap: int = 2) -> list[Row]:
    """`text` wrapped to `width` px, one row a line (each paragraph starts a line)."""
    lines = [w for para in text.split("\n") for w in (draw.wrap(font, para, width) or [""])]
    return [(font.get_linesize() + gap, (Piece(font, line, colour),)) for line in lines]


def side_by_side(rows: Sequence[Row], width: int, gap: int) -> list[Row]:
    """Rows two to a line, the second at `width + gap` px: a wide box in two columns."""
    out: list[Row] = []
    for k in range(0, len(rows), 2):
        (h1, left), (h2, right) = rows[k], rows[k + 1] if k + 1 < len(rows) else (0, ())
        out.append((max(h1, h2), left + tuple(Piece(p.font, p.text, p.colour, p.dx + width + gap, p.dy) for p in right)))
    return out


class Scroll:
    """Which row of a long text is shown first, and how many showed in the last drawing."""

    def __init__(self) -> None:
        self.top = 0
        self.page = 1  # rows shown last time
        self.count = 0  # rows in all

    def home(self) -> None:
        self.top = 0

    def by(self, rows: int) -> None:
        self.top = max(0, min(self.top + rows, self.count - self.page))

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The wheel, Page Up/Down, Up/Down, Home/End; whether the event was one of them."""
        if event.type == pygame.MOUSEWHEEL:
            self.by(-WHEEL_ROWS * event.y)
            return True
        if event.type != pygame.KEYDOWN:
            return False
        moves = {
            pygame.K_PAGEDOWN: max(1, self.page - 1),
            pygame.K_PAGEUP: -max(1, self.page - 1),
            pygame.K_DOWN: 1,
            pygame.K_UP: -1,
            pygame.K_END: self.count,
            pygame.K_HOME: -self.count,
        }
        if event.key not in moves:
            return False
        self.by(moves[event.key])
        return True

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, rows: Sequence[Row], cue_font: pygame.font.Font) -> int:
        """The rows from `top` that fit in `rect`, and, when some do not, a last line that
        says how many lie above and below and how to reach them. Returns the y below."""
        self.count = len(rows)
        room = rect.height
        if rows_height(rows) <= room:
            self.top, fits = 0, len(rows)
        else:
            room -= cue_font.get_linesize() + 2  # the cue's line
            self.top = max(0, min(self.top, len(rows) - _fitting_back(rows, room)))
            fits = _fitting(rows, self.top, room)
        self.page = max(1, fits)
        y = rect.top
        for height, pieces in rows[self.top : self.top + fits]:
            for p in pieces:
                if isinstance(p, Piece):
                    draw.label(surface, p.font, p.text, (rect.left + p.dx, y + p.dy), p.colour, "topleft", None)
                else:
                    p(surface, rect.left, y)
            y += height
        above, below = self.top, len(rows) - self.top - fits
        if above or below:
            words = "   ".join(
                w for w in ("▴ " + _("{n} more above").format(n=above) if above else "", "▾ " + _("{n} more below").format(n=below) if below else "") if w
            )
            how = next((h for h in ("   " + _("(wheel, Page Up/Down)"), _(": wheel"), "") if cue_font.size(words + h)[0] <= rect.width), "")
            draw.label(surface, cue_font, words + how, (rect.left, rect.bottom), MUTED, "bottomleft", None)
        return y


def _fitting(rows: Sequence[Row], top: int, height: int) -> int:
    """How many rows from `top` fit in `height` px."""
    used = n = 0
    for h, _pieces in rows[top:]:
        if used + h > height:
            break
        used, n = used + h, n + 1
    return n


def _fitting_back(rows: Sequence[Row], height: int) -> int:
    """How many of the last rows fit in `height` px."""
    used = n = 0
    for h, _pieces in reversed(rows):
        if used + h > height:
            break
        used, n = used + h, n + 1
    return n


def rows_height(rows: Sequence[Row]) -> int:
    return sum(h for h, _ in rows)


# ---------------------------------------------------------------------- tests' view
class Recording(pygame.Surface):
    """A surface that notes every blit (text is blitted): the section drawing it (set by
    `SectionManager.draw` through `enter`), the rectangle it was meant to fill and the
    part of it that shows (less, when the clip area cut it)."""

    def __init__(self, size: tuple[int, int]):
        super().__init__(size)
        self.section: Section | None = None
        self.blits: list[tuple[Section | None, pygame.Rect, pygame.Rect]] = []

    def enter(self, section: Section | None) -> None:
        self.section = section

    def blit(self, source, dest, area=None, special_flags=0):
        shown = super().blit(source, dest, area, special_flags)
        at = pygame.Rect(dest).topleft if len(dest) == 4 else (round(dest[0]), round(dest[1]))
        whole = source.get_rect()
        size = whole.clip(pygame.Rect(area)).size if area is not None else whole.size  # a blit of part of a text means that part
        self.blits.append((self.section, pygame.Rect(at, size), shown))
        return shown
