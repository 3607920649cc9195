"""The level select's parts, one section each (game/app/window/sections.py), each in the
rectangle `MenuLayout` (game/app/window/layout.py) gives it: the header (the name, how many
graded levels are won, the engine's warm-up), the list of levels (`LevelList`: the rows,
the cursor, the scrolling, the scrollbar and the line that says which rows are in view),
the progress problem, the student id's line, the language line (a click changes it) and
the keys' line; and over them the boxes that take the next key or click: the student id
asked, why a level cannot be opened, the question before leaving. Each owns its state
(the list its rows, cursor and scroll; a box whether it is open) and is handed what it
reads and what it does (game/app/scenes/menu.py makes them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import ALERT, INK, MUTED, PANEL, REACTION, RULE, TENSION
from equilibria.app.widgets import overlay
from equilibria.app.widgets.coursebox import CourseBox
from equilibria.app.widgets.studentbox import StudentBox, student_line
from equilibria.app.window.layout import MENU_BAR_GAP, MENU_LEFT, MENU_ROW
from equilibria.app.window.sections import Opening, Section
from equilibria.course.progress import Progress
from equilibria.engine.warm import PLAY_STEPS
from equilibria.rules.kinds import kind_of
from equilibria.words.figures import percent
from equilibria.words.i18n import LANGUAGES, N_, SOURCE, _, language, ngettext

LEFT, ROW = MENU_LEFT, MENU_ROW
BOX = 14  # [px] side of a level's won box
TEXT_INSET = 40  # [px] from a row's left edge to its text
BAR = 6  # [px] width of the scrollbar
WHEEL_ROWS = 3  # rows scrolled per notch of the wheel
HELP_LINES = (  # the keys, in the longest words the window has room for (each names E: a teacher finds the editor here)
    N_(
        "Up/Down, Page Up/Down, Home/End, the wheel or the mouse: choose   ·   Enter or click: play   ·   E: make a level of it (the editor)"
        "   ·   O: a course file   ·   L: language   ·   Ctrl+= Ctrl+−: text size   ·   Esc: leave (asks first)"
    ),
    N_(
        "Up/Down, Page Up/Down, Home/End, the wheel or the mouse: choose   ·   Enter or click: play   ·   E: make a level of it"
        "   ·   O: a course file   ·   L: language   ·   Ctrl+= Ctrl+−: text size   ·   Esc: leave (asks first)"
    ),
    N_(
        "Up/Down, Page Up/Down, Home/End, the wheel or the mouse: choose   ·   Enter or click: play   ·   E: make a level of it"
        "   ·   O: a course file   ·   L: language   ·   Esc: leave (asks first)"
    ),
    N_("Up/Down, Page Up/Down, the wheel or the mouse: choose   ·   Enter or click: play   ·   E: make a level   ·   L: language   ·   Esc: leave (asks)"),
    N_("Up/Down, wheel: choose  ·  Enter: play  ·  E: make a level  ·  L: language  ·  Esc: leave"),
    N_("Up/Down: choose  ·  Enter: play  ·  E: make a level  ·  Esc: leave"),
)


@dataclass(frozen=True)
class Row:
    """A topic heading (path None, not chosen) or a level; `sandbox` opens an empty one.
    `kind` and `level` are the level's kind and id as its file gives them (None: unknown);
    `problem` is "" or the one line that says why the level cannot be opened."""

    text: str
    path: Path | None = None
    sandbox: bool = False
    kind: str | None = field(default=None, compare=False)
    level: str | None = field(default=None, compare=False)
    problem: str = field(default="", compare=False)

    @property
    def choosable(self) -> bool:
        return self.path is not None or self.sandbox

    @property
    def level_id(self) -> str | None:
        """The level's id, as the progress knows it: the file's, else the file's name."""
        if self.path is None:
            return None
        return self.level or self.path.stem

    @property
    def winnable(self) -> bool:
        """A judged level (not a demo or a sandbox): one that can be won."""
        kind = kind_of(self.kind)
        return kind is not None and kind.judged


def topic_counts(rows: list[Row], progress: Progress) -> dict[int, tuple[int, int]]:
    """For each heading (by row index) that has levels to win: (won, winnable) among
    the levels under it."""
    counts: dict[int, tuple[int, int]] = {}
    heading = None
    for k, row in enumerate(rows):
        if not row.choosable:
            heading = k
        elif heading is not None and row.winnable:
            won, total = counts.get(heading, (0, 0))
            counts[heading] = (won + progress.won(row.level_id), total + 1)
    return counts


def check_mark(surface: pygame.Surface, box: pygame.Rect, colour) -> None:
    """A tick in `box`, drawn with lines (no font need have the glyph)."""
    x, y, w, h = box
    points = [(x + 0.2 * w, y + 0.52 * h), (x + 0.42 * w, y + 0.75 * h), (x + 0.82 * w, y + 0.22 * h)]
    pygame.draw.lines(surface, colour, False, points, 3)


def language_line() -> str:
    """The line that names the language and how to change it."""
    # TRANSLATORS: the language line of the menu; {language} is the language's own name (English, Deutsch)
    return _("Language: {language}   (L: change it)").format(language=LANGUAGES.get(language(), LANGUAGES[SOURCE]))


class Part(Section):
    """A section of the level select, drawn in `fonts`."""

    def __init__(self, fonts):
        super().__init__()
        self.fonts = fonts


class HeaderPart(Part):
    """The game's name, the invitation with how many graded levels are won (`counts()`:
    the list's tallies by topic), and while the engine warms up (`warmup()`) how far it is."""

    name = "header"

    def __init__(self, fonts, counts: Callable[[], dict[int, tuple[int, int]]], warmup: Callable[[], object]):
        super().__init__(fonts)
        self.counts, self.warmup = counts, warmup

    def text(self, counts: dict[int, tuple[int, int]]) -> str:
        """The line under the title, with how many of the graded levels (those that can be
        won: not the demos and sandboxes, which the list's line counts too) are won."""
        intro = _("Structures that are not in equilibrium move. Choose a level:")
        won, total = (sum(c[i] for c in counts.values()) for i in (0, 1))
        if not total:
            return intro
        return intro + "   " + ngettext("({won} of {total} graded level won)", "({won} of {total} graded levels won)", total).format(won=won, total=total)

    def line(self, counts: dict[int, tuple[int, int]], width: int) -> str:
        """The header, or where it is wider than `width` px (German in a narrow window)
        the tally after a shorter invitation."""
        whole = self.text(counts)
        if self.fonts.body.size(whole)[0] <= width:
            return whole
        won, total = (sum(c[i] for c in counts.values()) for i in (0, 1))
        return ngettext("Choose a level:   {won} of {total} graded level won", "Choose a level:   {won} of {total} graded levels won", total).format(
            won=won, total=total
        )

    def draw(self, surface: pygame.Surface) -> None:
        fonts, rect = self.fonts, self.rect
        draw.label(surface, fonts.big, "Equilibria", (LEFT, fonts.px(30)), INK, "topleft", None)
        draw.label(surface, fonts.body, self.line(self.counts(), rect.width - 2 * LEFT), (LEFT, fonts.px(68)), MUTED, "topleft", None)
        warmup = self.warmup()
        if warmup is not None and not warmup.ready():
            share, doing = warmup.progress(PLAY_STEPS)
            words = _("Preparing the engine: {what}, {share}").format(what=_(doing), share=percent(share))
            draw.label(surface, fonts.small, words, (rect.right - LEFT, fonts.px(36)), MUTED, "topright", None)


class LevelList(Part):
    """The rows in one column that scrolls (`top`: the first row in view), the cursor
    (`selected`) always on a row that opens and in view; the scrollbar beside them and
    above them which rows are in view. Up/Down, Page Up/Down, Home/End, the wheel and the
    scrollbar (a click on its track pages, its thumb drags) move through it; Enter or a
    click plays the row (`play(row)`). The mouse chooses the row under it once it moves
    while the menu is on top (`pointer_live`): the pointer left where a level's last click
    was does not move the cursor. The layout gives it `rect` and `box`, the rows' own."""

    name = "levels"

    def __init__(self, fonts, progress: Progress, play: Callable[[Row], None]):
        super().__init__(fonts)
        self.progress, self.play = progress, play
        self.rows: list[Row] = []
        self.selected = 0
        self.top = 0  # the first row in view
        self.box = pygame.Rect(LEFT, 0, 200, 2 * ROW)  # the rows' rectangle (whole rows), set by the layout
        self.pointer_live = False  # whether a frame was shown since the menu came on top (the mouse chooses after that)
        self.dragging: int | None = None  # [px] where the scrollbar's thumb was taken, below its top (None: not dragged)

    def hold_pointer(self) -> None:
        """The menu is on top again: the pointer is where a level's last click left it,
        and chooses nothing until a frame has been shown (`update`)."""
        self.pointer_live = False

    def update(self) -> None:
        """A frame: the cursor's row kept in view (the window may have changed size), and
        the pointer chooses from now on."""
        self.follow()
        self.pointer_live = True

    # ------------------------------------------------------------------ the rows and the cursor
    def fill(self, rows: list[Row], selected: int | None = None) -> None:
        """List `rows` with the cursor on row `selected` (None: the row that opens nearest
        to where the cursor was)."""
        was = self.selected
        self.rows = rows
        self.selected = selected if selected is not None else self.nearest(min(was, len(rows) - 1), 1) if rows else 0

    @property
    def chosen(self) -> Row | None:
        return self.rows[self.selected] if self.rows else None

    def counts(self) -> dict[int, tuple[int, int]]:
        return topic_counts(self.rows, self.progress)

    def nearest(self, k: int, step: int) -> int:
        """The choosable row at `k`, else the nearest one past it in the direction of
        `step`, else the nearest before it (k itself when there is none)."""
        for direction in (step, -step):
            q = k
            while 0 <= q < len(self.rows):
                if self.rows[q].choosable:
                    return q
                q += direction
        return k

    def move(self, step: int) -> None:
        k = self.selected + step
        while 0 <= k < len(self.rows) and not self.rows[k].choosable:
            k += step
        if 0 <= k < len(self.rows):
            self.selected = k
        self.follow(heading=True)

    def jump(self, k: int, step: int) -> None:
        """Put the cursor on the choosable row at or past `k` (clamped to the list)."""
        if self.rows:
            self.selected = self.nearest(max(0, min(k, len(self.rows) - 1)), step)
        self.follow(heading=True)

    def scroll(self, rows: int) -> None:
        """Scroll the view by `rows` (down positive); the cursor is pulled along to stay
        in view."""
        page = self.page
        self.top = max(0, min(self.top + rows, len(self.rows) - page))
        if self.selected < self.top:
            self.selected = self.nearest(self.top, 1)
        elif self.selected >= self.top + page:
            self.selected = self.nearest(self.top + page - 1, -1)

    def follow(self, *, heading: bool = False) -> None:
        """Scroll as little as keeps the cursor's row in view (and, with `heading`, the
        heading just above it: the topic's name comes into view with its first level)."""
        page = self.page
        first = self.selected - 1 if heading and self.selected > 0 and not self.rows[self.selected - 1].choosable else self.selected
        if first < self.top:
            self.top = first
        elif self.selected >= self.top + page:
            self.top = self.selected - page + 1
        self.top = max(0, min(self.top, len(self.rows) - page))

    # ------------------------------------------------------------------ where the rows are
    @property
    def page(self) -> int:
        """How many rows are in view at once."""
        return self.box.height // self.fonts.px(ROW)

    def shown(self) -> range:
        """The rows in view."""
        return range(self.top, min(len(self.rows), self.top + self.page))

    def places(self) -> list[pygame.Rect]:
        """Where each row goes, as scrolled: the rows out of view (not in `shown`) lie
        above or below the rows' box and are not drawn."""
        box = self.box
        row = self.fonts.px(ROW)
        return [pygame.Rect(box.left, box.top + (k - self.top) * row, box.width, row) for k in range(len(self.rows))]

    def row_at(self, pos: tuple[int, int]) -> int | None:
        places = self.places()
        return next((k for k in self.shown() if places[k].collidepoint(pos)), None)

    def where(self) -> str:
        """Which of the choosable rows (levels, demos and sandboxes) are in view, as
        "levels 21–40 of 52" ("" when all are)."""
        choosable = [k for k, r in enumerate(self.rows) if r.choosable]
        shown = self.shown()
        seen = [n for n, k in enumerate(choosable, 1) if k in shown]
        if not seen or len(seen) == len(choosable):
            return ""
        return _("levels {first}–{last} of {n}").format(first=seen[0], last=seen[-1], n=len(choosable))

    def scrollbar(self) -> tuple[pygame.Rect, pygame.Rect] | None:
        """The scrollbar's track and thumb (None when every row is in view)."""
        box, page, n = self.box, self.page, len(self.rows)
        if n <= page:
            return None
        track = pygame.Rect(box.right + self.fonts.px(MENU_BAR_GAP) // 2 - BAR // 2, box.top, BAR, box.height)
        length = max(BAR * 3, round(track.height * page / n))
        top = track.top + round((track.height - length) * self.top / max(1, n - page))
        return track, pygame.Rect(track.left, top, BAR, length)

    @staticmethod
    def won_box(rect: pygame.Rect) -> pygame.Rect:
        """The won box of the level row at `rect`."""
        return pygame.Rect(rect.left + 16, rect.centery - BOX // 2, BOX, BOX)

    # ------------------------------------------------------------------ input
    def key(self, event: pygame.event.Event) -> bool:
        """Up/Down, Page Up/Down, Home/End move the cursor, Enter plays its row; whether
        the key was one of them."""
        page = self.page
        moves = {
            pygame.K_UP: lambda: self.move(-1),
            pygame.K_DOWN: lambda: self.move(1),
            pygame.K_PAGEUP: lambda: self.jump(self.selected - page, -1),
            pygame.K_PAGEDOWN: lambda: self.jump(self.selected + page, 1),
            pygame.K_HOME: lambda: self.jump(0, 1),
            pygame.K_END: lambda: self.jump(len(self.rows) - 1, -1),
            pygame.K_RETURN: lambda: self.play(self.rows[self.selected]),
            pygame.K_KP_ENTER: lambda: self.play(self.rows[self.selected]),
        }
        if event.key not in moves:
            return False
        moves[event.key]()
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Keys, the wheel (wherever the pointer is), the scrollbar, and the pointer over
        the rows (its moves, wherever they are: the thumb drags from anywhere)."""
        if event.type == pygame.KEYDOWN:
            return self.key(event)
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-WHEEL_ROWS * event.y)
            return True
        if self._on_scrollbar(event):
            return True
        if event.type == pygame.MOUSEMOTION and (not self.pointer_live or tuple(getattr(event, "rel", (1, 1))) == (0, 0)):
            return False  # queued with the click that left a level, or made up by the window: the pointer did not move here
        if event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            k = self.row_at(event.pos)
            if k is not None and self.rows[k].choosable:
                self.selected = k
                if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    self.play(self.rows[k])
            return True
        return False

    def _on_scrollbar(self, event: pygame.event.Event) -> bool:
        """A click on the scrollbar's track pages towards it; the thumb drags the view.
        Whether the event was the scrollbar's."""
        bar = self.scrollbar()
        if event.type == pygame.MOUSEBUTTONUP:
            self.dragging = None
        if bar is None:
            return False
        track, thumb = bar
        if event.type == pygame.MOUSEMOTION and self.dragging is not None:
            room = max(1, track.height - thumb.height)
            self.scroll(round((event.pos[1] - self.dragging - track.top) / room * (len(self.rows) - self.page)) - self.top)
            return True
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1 or not track.inflate(self.fonts.px(MENU_BAR_GAP) - BAR, 0).collidepoint(event.pos):
            return False
        if thumb.top <= event.pos[1] < thumb.bottom:
            self.dragging = event.pos[1] - thumb.top
        else:
            self.scroll(self.page if event.pos[1] >= thumb.bottom else -self.page)
        return True

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        fonts, counts, places = self.fonts, self.counts(), self.places()
        for k in self.shown():
            row, rect = self.rows[k], places[k]
            if not row.choosable:
                title = draw.label(surface, fonts.bold, row.text, (rect.left, rect.bottom - 4), INK, "bottomleft", None)
                if k in counts:
                    tally = _("{won} of {total} won").format(won=counts[k][0], total=counts[k][1])
                    if fonts.body.size(tally)[0] > rect.right - title.right - 12:
                        tally = "{}/{}".format(*counts[k])  # a narrow column
                    draw.label(surface, fonts.body, tally, (rect.right, rect.bottom - 4), MUTED, "bottomright", None)
                pygame.draw.line(surface, RULE, (rect.left, rect.bottom - 2), (rect.right, rect.bottom - 2))
                continue
            if k == self.selected:
                pygame.draw.rect(surface, PANEL, rect.inflate(0, -2), border_radius=4)
                pygame.draw.rect(surface, TENSION, (rect.left, rect.top + 1, 4, rect.height - 2))
            right = self._draw_standing(surface, row, rect)
            room = max(0, right - 8 - rect.left - fonts.px(TEXT_INSET))  # cut short with "…" where it would run into the marks
            draw.label(surface, fonts.body, draw.elided(fonts.body, row.text, room), (rect.left + fonts.px(TEXT_INSET), rect.centery), INK, "midleft", None)
        self._draw_where(surface)

    def _draw_where(self, surface: pygame.Surface) -> None:
        """The scrollbar, and above the list's right end which rows are in view."""
        bar = self.scrollbar()
        if bar is None:
            return
        track, thumb = bar
        pygame.draw.rect(surface, PANEL, track, border_radius=BAR // 2)
        pygame.draw.rect(surface, MUTED, thumb, border_radius=BAR // 2)
        draw.label(surface, self.fonts.small, self.where(), (self.box.right, self.box.top - 4), MUTED, "bottomright", None)

    def _draw_standing(self, surface: pygame.Surface, row: Row, rect: pygame.Rect) -> int:
        """A level's box (ticked once won) and, on the right, its best marks, "answer
        shown: 0 marks" where the player gave it up, or "in progress" where work is kept
        but the level is not won yet. Returns the x left free for the level's name."""
        if not row.winnable:
            return rect.right
        box, level_id, progress = self.won_box(rect), row.level_id, self.progress
        won = progress.won(level_id)
        pygame.draw.rect(surface, REACTION if won else RULE, box, 2, border_radius=3)
        marks = progress.marks(level_id)
        if won:
            check_mark(surface, box, REACTION)
        at = (rect.right - 8, rect.centery)
        if marks is not None:
            return draw.label(surface, self.fonts.bold, ngettext("{n} mark", "{n} marks", marks).format(n=marks), at, REACTION, "midright", None).left
        if not won and progress.shown(level_id):  # given up with Ctrl+A: not work under way
            return draw.label(surface, self.fonts.small, _("answer shown: 0 marks"), at, MUTED, "midright", None).left
        if not won and progress.work(level_id) is not None:
            return draw.label(surface, self.fonts.small, _("in progress"), at, MUTED, "midright", None).left
        return rect.right


class ProblemPart(Part):
    """The progress problem (it cannot be read or written), under the list, in lines
    that fit the window."""

    name = "problem"

    def __init__(self, fonts, progress: Progress):
        super().__init__(fonts)
        self.progress = progress

    def lines(self, width: int) -> list[str]:
        """The problem's lines in a window `width` px wide (none: no problem)."""
        return draw.wrap(self.fonts.small, self.progress.problem, width - 2 * LEFT) if self.progress.problem else []

    def height(self, width: int) -> int:
        lines, font = self.lines(width), self.fonts.small
        return len(lines) * font.get_linesize() + max(0, font.get_height() - font.get_linesize()) if lines else 0  # the last line's whole box

    @property
    def shown(self) -> bool:
        return bool(self.progress.problem)

    def draw(self, surface: pygame.Surface) -> None:
        lines, font = self.lines(self.rect.width), self.fonts.small
        draw.text_block(surface, font, lines, (LEFT, self.rect.bottom - self.height(self.rect.width)), ALERT, spacing=0)


class StudentLinePart(Part):
    """The student id's line (I gives or changes it), a long id cut to leave the
    language line its room."""

    name = "student"

    def __init__(self, fonts, progress: Progress):
        super().__init__(fonts)
        self.progress = progress

    def draw(self, surface: pygame.Surface) -> None:
        font, room = self.fonts.small, self.rect.right - 24 - LEFT
        words, colour = student_line(self.progress, lambda text: font.size(text)[0] <= room)
        draw.label(surface, font, words, (LEFT, self.rect.centery), colour, "midleft", None)


class LanguagePart(Part):
    """The language line; a click on it changes the language (`next_language()`), as L does."""

    name = "language"

    def __init__(self, fonts, next_language: Callable[[], None]):
        super().__init__(fonts)
        self.next_language = next_language

    def draw(self, surface: pygame.Surface) -> None:
        draw.label(surface, self.fonts.small, language_line(), self.rect.midleft, MUTED, "midleft", None)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.next_language()
            return True
        return False


class KeysPart(Part):
    """What the keys do, in the longest words that fit."""

    name = "keys"

    def draw(self, surface: pygame.Surface) -> None:
        font, room = self.fonts.body, self.rect.width - 2 * LEFT
        line = next((_(words) for words in HELP_LINES if font.size(_(words))[0] <= room), _(HELP_LINES[-1]))
        draw.label(surface, font, line, (LEFT, self.rect.bottom - self.fonts.px(24)), MUTED, "midleft", None)


# ---------------------------------------------------------------------- the boxes over it
class Box(Part):
    """A box over the menu, above the foot; modal: it sees every event first."""

    modal = floating = True


class StudentIdPart(Box):
    """The box that asks for the student id (game/app/widgets/studentbox.py): open, it takes
    every key; `asked` once it has been answered this session ("not now" is not asked
    again before a level that varies)."""

    name = "student_id"

    def __init__(self, fonts, progress: Progress):
        super().__init__(fonts)
        self.progress = progress
        self.box: StudentBox | None = None
        self.asked = False

    @property
    def shown(self) -> bool:
        return self.box is not None

    def open(self, then: Callable[[bool], None] | None = None) -> None:
        """Ask; `then(kept)` once answered (kept: an id was kept)."""

        def done(kept: bool) -> None:
            self.box, self.asked = None, True
            if then is not None:
                then(kept)

        self.box = StudentBox(self.progress, done)

    def draw(self, surface: pygame.Surface) -> None:
        self.box.draw(surface, self.fonts, self.rect)

    def handle_event(self, event: pygame.event.Event) -> bool:
        self.box.handle_event(event)
        return True


class CourseOpenPart(StudentIdPart):
    """The box that opens a teacher's course file (game/app/widgets/coursebox.py), at O."""

    name = "course_file"

    def open(self, then: Callable[[bool], None] | None = None) -> None:
        """Ask for the file; `then(opened)` once answered."""

        def done(opened: bool) -> None:
            self.box = None
            if then is not None:
                then(opened)

        self.box = CourseBox(self.progress, done)


class CannotOpenPart(Box):
    """Why a level cannot be opened (the file, the field at fault): it stays until the
    next key or click, which only closes it; the menu runs on behind it (the wheel and
    the pointer's moves go through)."""

    name = "cannot_open"

    def __init__(self, fonts):
        super().__init__(fonts)
        self.title = self.text = ""

    @property
    def shown(self) -> bool:
        return bool(self.text)

    def open(self, title: str, text: str) -> None:
        self.title, self.text = title, text

    def close(self) -> None:
        self.title = self.text = ""

    def draw(self, surface: pygame.Surface) -> None:
        overlay.message(surface, self.fonts, self.rect, self.title, self.text, _("Any key or click: close this box"))

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.close()  # the key or click that closes the box does nothing else
            return True
        return False


class QuitPart(Opening, Box):
    """Esc asked whether to leave the game: Enter or Esc again leaves (`leave()`), any
    other key or a click stays; the wheel and the pointer's moves go through."""

    name = "quit"

    def __init__(self, fonts, leave: Callable[[], None]):
        super().__init__(fonts)
        self.leave = leave

    def draw(self, surface: pygame.Surface) -> None:
        text, foot = _("Your progress is kept: it is here when you come back."), _("Enter or Esc: leave   ·   any other key or a click: stay")
        overlay.message(surface, self.fonts, self.rect, _("Leave the game?"), text, foot, colour=TENSION)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type not in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            return False
        self.close()  # answered
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.leave()
        return True
