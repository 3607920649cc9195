"""The one answer box: a force typed in (the force tool: click a node without dragging,
then its components, `0, -10` (Fx, Fy in kN; + right and up), or its size and direction,
`10 @ 270`), a moment (the moment tool, kN·m) or a cut member's force (the Cut tool, kN),
all three the same way: the box opens empty and says what it replaces, Enter places the
answer (or says in the box why it cannot), Esc drops it and keeps what was given.

What is asked and the grammar are game/app/session/answers.py and game/words/figures.py
(no pygame: `typed_force`, `typed_moment`, `typed_member_force`); `TextLine` is the line being
edited (a cursor, a selection, what an input method is composing); `AnswerEntry` is the
box that collects the events and shows what the text would give as it is typed.

The box edits as any text field does: Left/Right, Home/End and Ctrl+Left/Right move the
cursor, Shift with them selects, Ctrl+A selects all, Backspace and Delete remove the
selection or one character, Ctrl+C, Ctrl+X and Ctrl+V copy, cut and paste (the system
clipboard, through pygame-ce's `pygame.scrap.get_text`/`put_text`). Text arrives as
TEXTINPUT events, never from KEYDOWN, so an input method (IME: a Japanese or Chinese
keyboard, a dead key for ´) works: what it is composing (TEXTEDITING) is shown
underlined at the cursor until it commits the text.
"""

from __future__ import annotations

import contextlib
import unicodedata

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import ALERT, INK, MUTED, TENSION
from equilibria.app.session.answers import Asked, Value
from equilibria.app.widgets import overlay
from equilibria.words.i18n import _

SELECTION = (179, 215, 243)  # the selected text's highlight: a light blue, as text fields have it

MAX_CHARS = 32


def _clipboard_text() -> str:
    """The system clipboard's text ("" when it holds none or cannot be read)."""
    try:
        return pygame.scrap.get_text() if pygame.scrap.has_text() else ""
    except pygame.error:
        return ""


def _clipboard_put(text: str) -> None:
    with contextlib.suppress(pygame.error):  # no clipboard on this system: the text stays in the box
        pygame.scrap.put_text(text)


class TextLine:
    """One line of text being edited: `text`, the cursor `cursor` (0 … len), the other
    end of a selection `anchor` (None: nothing selected) and `composing`, the input
    method's text not yet committed. No pygame: the box turns events into these calls."""

    def __init__(self, limit: int = MAX_CHARS):
        self.text = ""
        self.cursor = 0
        self.anchor: int | None = None
        self.composing = ""
        self.limit = limit

    def selection(self) -> tuple[int, int]:
        """(start, end) of the selection; start == end when nothing is selected."""
        if self.anchor is None:
            return self.cursor, self.cursor
        return min(self.anchor, self.cursor), max(self.anchor, self.cursor)

    def selected(self) -> str:
        a, b = self.selection()
        return self.text[a:b]

    def move(self, to: int, *, select: bool = False) -> None:
        """Put the cursor at `to`; with `select`, the selection grows from where it was."""
        if select and self.anchor is None:
            self.anchor = self.cursor
        elif not select:
            self.anchor = None
        self.cursor = min(max(to, 0), len(self.text))
        if self.anchor == self.cursor:
            self.anchor = None

    def word_left(self) -> int:
        k = self.cursor
        while k > 0 and not self.text[k - 1].isalnum():
            k -= 1
        while k > 0 and self.text[k - 1].isalnum():
            k -= 1
        return k

    def word_right(self) -> int:
        k, n = self.cursor, len(self.text)
        while k < n and not self.text[k].isalnum():
            k += 1
        while k < n and self.text[k].isalnum():
            k += 1
        return k

    def select_all(self) -> None:
        self.anchor, self.cursor = (0, len(self.text)) if self.text else (None, 0)

    def insert(self, text: str) -> None:
        """Type or paste `text` in place of the selection (its first line, printable
        characters only, up to the limit). Full-width forms, as a Japanese or Chinese
        input method gives them (－１２), are read as the plain ones (-12): NFKC."""
        text = unicodedata.normalize("NFKC", next(iter(text.splitlines()), ""))
        text = "".join(ch for ch in text if ch.isprintable())
        a, b = self.selection()
        room = self.limit - (len(self.text) - (b - a))
        text = text[: max(room, 0)]
        self.text = self.text[:a] + text + self.text[b:]
        self.cursor, self.anchor = a + len(text), None

    def delete(self, forward: bool = False) -> None:
        """Backspace (or, `forward`, Delete): the selection, else one character."""
        a, b = self.selection()
        if a == b:
            a, b = (a, min(a + 1, len(self.text))) if forward else (max(a - 1, 0), a)
        self.text = self.text[:a] + self.text[b:]
        self.cursor, self.anchor = a, None


def edit_key(line: TextLine, key: int, shift: bool, ctrl: bool) -> bool:
    """One editing key (the cursor, the selection, the clipboard); whether it was one."""
    moves = {
        pygame.K_LEFT: line.word_left() if ctrl else (line.selection()[0] if line.anchor is not None and not shift else line.cursor - 1),
        pygame.K_RIGHT: line.word_right() if ctrl else (line.selection()[1] if line.anchor is not None and not shift else line.cursor + 1),
        pygame.K_HOME: 0,
        pygame.K_END: len(line.text),
    }
    if key in moves:
        line.move(moves[key], select=shift)
    elif key == pygame.K_BACKSPACE:
        line.delete()
    elif key == pygame.K_DELETE:
        line.delete(forward=True)
    elif ctrl and key == pygame.K_a:
        line.select_all()
    elif ctrl and key in (pygame.K_c, pygame.K_x) and line.selected():
        _clipboard_put(line.selected())
        if key == pygame.K_x:
            line.delete()
    elif ctrl and key == pygame.K_v:
        line.insert(_clipboard_text())
    else:
        return False
    return True


class AnswerEntry:
    """The one box an answer is typed into (game/app/session/answers.py `Asked`: a force
    or a moment at a node, or the force in a member a section cuts): it opens empty and
    says what the answer replaces; Enter reads it (a problem is said in the box), Esc drops
    it and keeps what was given. A value far past the level's loads is said to be a slip of
    units ("forces are in kN") once; Enter again keeps it."""

    def __init__(self, asked: Asked):
        self.asked = asked
        self.line = TextLine()
        self.problem = ""
        self.value: Value = None  # what Enter read, for the scene to give
        self._warned: str | None = None  # the text whose size was said to be a slip of units
        self._input_rect: pygame.Rect | None = None
        pygame.key.start_text_input()  # typed text (and an input method's) arrives as TEXTINPUT

    @property
    def text(self) -> str:
        return self.line.text

    def key(self, event: pygame.event.Event) -> str | None:
        """Take an event (KEYDOWN, TEXTINPUT, TEXTEDITING): "place" (Enter, with an answer
        that reads, in `value`), "cancel" (Esc), or None."""
        if event.type == pygame.TEXTINPUT:
            self.line.insert(event.text)
            self.problem = ""
            return None
        if event.type == pygame.TEXTEDITING:
            self.line.composing = unicodedata.normalize("NFKC", event.text)  # shown as it will be typed
            return None
        if event.type != pygame.KEYDOWN or self.line.composing:
            return None  # while an input method composes, its keys are its own (Enter commits, Esc drops)
        if event.key == pygame.K_ESCAPE:
            return "cancel"
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self._enter()
        if self._edit(event.key, bool(event.mod & pygame.KMOD_SHIFT), bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META))):
            self.problem = ""
        return None

    def _enter(self) -> str | None:
        try:
            value = self.asked.read(self.text)
        except ValueError as exc:
            self.problem = str(exc)
            return None
        if self.asked.too_large(value) and self._warned != self.text:
            self._warned, self.problem = self.text, self.asked.unit_words()
            return None
        self.value = value
        return "place"

    def _edit(self, key: int, shift: bool, ctrl: bool) -> bool:
        return edit_key(self.line, key, shift, ctrl)

    def draw(self, surface: pygame.Surface, fonts, area: pygame.Rect, anchor: tuple[float, float]) -> pygame.Rect:
        """The box beside `anchor` (the node, or the member's middle, on the screen), kept inside `area`."""
        asked, line = self.asked, self.line
        head = asked.head() + "  "
        if asked.now is not None:
            foot = _("Enter: replace it   ·   Esc: keep yours   ·   Ctrl+V: paste")
        else:
            foot = _("Enter: place it   ·   Esc: drop it   ·   Ctrl+V: paste")
        shown = line.text[: line.cursor] + line.composing + line.text[line.cursor :]
        reads = asked.reads(self.text)
        lines = [
            (fonts.bold, f"{head}{shown} ", INK),  # a space's room for the cursor at the end
            *([(fonts.small, asked.replaces(), MUTED)] if asked.now is not None else []),
            (fonts.small, reads or asked.prompt(), MUTED),
            *([(fonts.small, asked.zero_words(), MUTED)] if asked.zero and not reads else []),
            (fonts.small, self.problem or foot, ALERT if self.problem else MUTED),
        ]
        room = area.width - 2 * overlay.PAD - 4  # a long line (German's prompt in a narrow window) wraps
        lines = [(font, piece, colour) for font, text, colour in lines for piece in (draw.wrap(font, text, room) if font is fonts.small else [text])]
        width = max(font.size(text)[0] for font, text, _ in lines) + 2 * overlay.PAD
        height = sum(font.get_linesize() + 4 for font, _, _ in lines) + 2 * overlay.PAD - 4
        box = pygame.Rect(round(anchor[0]) + 18, round(anchor[1]) + 18, width, height).clamp(area)
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
        pygame.draw.rect(surface, TENSION, box, 2, border_radius=6)
        self._draw_editing(surface, fonts.bold, head, (box.left + overlay.PAD, box.top + overlay.PAD))
        y = box.top + overlay.PAD
        for font, text, colour in lines:
            y = draw.label(surface, font, text, (box.left + overlay.PAD, y), colour, "topleft", None).bottom + 4
        self._caret(surface, fonts.bold, head, (box.left + overlay.PAD, box.top + overlay.PAD))
        return box

    def _x(self, font, head: str, k: int, left: int) -> int:
        """Where character k of the shown text begins, in pixels."""
        line = self.line
        shown = line.text[: line.cursor] + line.composing + line.text[line.cursor :]
        return left + font.size(head + shown[:k])[0]

    def _draw_editing(self, surface: pygame.Surface, font, head: str, topleft: tuple[int, int]) -> None:
        """The selection's highlight, under the text."""
        a, b = self.line.selection()
        if a != b and not self.line.composing:  # an input method composing replaces the selection
            left, top = topleft
            x0, x1 = self._x(font, head, a, left), self._x(font, head, b, left)
            pygame.draw.rect(surface, SELECTION, pygame.Rect(x0, top, x1 - x0, font.get_linesize()))

    def _caret(self, surface: pygame.Surface, font, head: str, topleft: tuple[int, int]) -> None:
        """The cursor, the input method's text underlined, and where its window goes."""
        line = self.line
        left, top = topleft
        height = font.get_linesize()
        if line.composing:
            x0, x1 = self._x(font, head, line.cursor, left), self._x(font, head, line.cursor + len(line.composing), left)
            pygame.draw.line(surface, INK, (x0, top + height - 2), (x1, top + height - 2), 1)
        x = self._x(font, head, line.cursor + len(line.composing), left)
        pygame.draw.line(surface, INK, (x, top + 2), (x, top + height - 3), 2)
        rect = pygame.Rect(x, top, 1, height)
        if rect != self._input_rect:  # the input method's window opens beside the cursor
            pygame.key.set_text_input_rect(rect)
            self._input_rect = rect
