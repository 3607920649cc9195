"""The play screen's boxes, one section each (game/app/window/sections.py): the verdict (or
"Checking…", a blow-up, a mechanism), over the world where it hides least of the
structure; and the modal ones, drawn on top and taking every key and click while open:
the member table, the whole brief, the help, the answer being typed, the question
before leaving. A long box scrolls (the wheel, Page Up/Down, Up/Down, Home/End) and
says how much lies above and below."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import ALERT, INK, REACTION, TENSION
from equilibria.app.scenes.parts import Part
from equilibria.app.session.answers import MEMBER, give
from equilibria.app.session.camera import box_room
from equilibria.app.widgets import overlay
from equilibria.app.widgets.entry import AnswerEntry
from equilibria.app.widgets.keymap import help_rows
from equilibria.app.widgets.panels import verdict_texts
from equilibria.app.window.sections import Opening, Row, Scroll, rows_height, text_rows
from equilibria.engine.results import member_ends
from equilibria.files import manual
from equilibria.words.i18n import _

PAD = overlay.PAD
BUTTON_H = 26  # [px] a button's height (bold text and its margin)


def outside(event: pygame.event.Event, rect: pygame.Rect) -> bool:
    """A left click outside `rect`."""
    return event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not rect.collidepoint(event.pos)


class TextBox(Part):
    """A framed box: a title, rows of text that scroll, a foot and buttons. A subclass
    says what it holds (`content`) and where it goes (`place`); a button's action is a
    name in `actions`, what the box was handed to call."""

    widest = 760
    frame = 3

    def __init__(self, fonts, actions: Mapping[str, Callable[[], None]] | None = None):
        super().__init__(fonts)
        self.actions = dict(actions or {})
        self.scroll = Scroll()
        self.buttons: list[tuple[pygame.Rect, str]] = []  # drawn last frame, and what each does

    def content(self, width: int) -> tuple[str, tuple, list[Row], str, Sequence[tuple[str, str]]]:
        """(title, colour, rows of the body `width` px wide, foot, buttons as (label, action))."""
        raise NotImplementedError

    def title_font(self):
        return self.fonts.bold

    def foot_rows(self, foot: str, width: int, actions) -> tuple[list[str], int]:
        """The foot's lines and the height of the foot with the buttons beside or under it."""
        fonts = self.fonts
        room = width - sum(fonts.bold.size(label)[0] + 26 for label, _ in actions)
        lines = draw.wrap(fonts.small, foot, width) if foot else []
        if not actions:
            return lines, len(lines) * fonts.small.get_linesize()
        if len(lines) <= 1 and (not lines or fonts.small.size(lines[0])[0] <= room):
            return lines, fonts.px(BUTTON_H)
        return lines, len(lines) * fonts.small.get_linesize() + 4 + fonts.px(BUTTON_H)

    def size(self, area: pygame.Rect) -> tuple[int, int]:
        width = min(area.width - 2 * PAD, self.widest)
        title, _, rows, foot, actions = self.content(width - 2 * PAD)
        _, foot_h = self.foot_rows(foot, width - 2 * PAD, actions)
        title_h = len(draw.wrap(self.title_font(), title, width - 2 * PAD)) * self.title_font().get_linesize()
        height = PAD + title_h + 6 + rows_height(rows) + 6 + foot_h + PAD
        return width, min(height, area.height - 2 * PAD)

    def least(self, area: pygame.Rect) -> int:
        """[px] the least height the box needs in `area`: its title, a line of its text
        with the line that says there is more, and its foot."""
        width = min(area.width - 2 * PAD, self.widest)
        title, _, _, foot, actions = self.content(width - 2 * PAD)
        _, foot_h = self.foot_rows(foot, width - 2 * PAD, actions)
        title_h = len(draw.wrap(self.title_font(), title, width - 2 * PAD)) * self.title_font().get_linesize()
        return 2 * PAD + title_h + 6 + 2 * (self.fonts.body.get_linesize() + 2) + 6 + foot_h + 2 * PAD

    def draw(self, surface: pygame.Surface) -> None:
        box, fonts = self.rect, self.fonts
        title, colour, rows, foot, actions = self.content(box.width - 2 * PAD)
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
        pygame.draw.rect(surface, colour, box, self.frame, border_radius=6)
        surface.set_clip(box)
        inner = box.inflate(-2 * PAD, -2 * PAD)
        head = draw.text_block(surface, self.title_font(), draw.wrap(self.title_font(), title, inner.width), inner.topleft, colour, 0)
        lines, foot_h = self.foot_rows(foot, inner.width, actions)
        body = pygame.Rect(inner.left, head + 6, inner.width, inner.bottom - foot_h - 6 - head - 6)
        self.scroll.draw(surface, body, rows, fonts.small)
        y = inner.bottom - foot_h
        for line in lines:
            y = draw.label(surface, fonts.small, line, (inner.left, y), overlay.MUTED, "topleft", None).bottom
        rects = overlay.buttons(surface, fonts, box, [label for label, _ in actions], colour)
        self.buttons = [(rect, action) for rect, (_, action) in zip(rects, actions, strict=True)]

    def press(self, pos: tuple[int, int]) -> bool:
        """A click on one of the box's buttons does what it says; whether it was on one."""
        action = next((action for rect, action in self.buttons if rect.collidepoint(pos)), None)
        if action is not None:
            self.actions[action]()
        return action is not None

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return self.press(event.pos) or self.rect.collidepoint(event.pos)
        return self.scroll.handle_event(event)


class VerdictPart(TextBox):
    """The one message over the world: checking, a blow-up, the verdict (folded to a
    strip by Esc: the box owns whether it is folded), or a mechanism.

    session        what it tells of (the problem, the verdict, the free motion)
    checking()     whether a check is asked for and not yet judged ("Checking…", and how far
                   judging is while the session judges it)
    said_checking()  called once "Checking…" is on the screen: the next frame judges
    world()        the world it floats over: a tall verdict leaves the structure its third
    actions        its buttons: the member table ("table.toggle"), "try_again", "next_level"
    """

    name = "verdict"
    floating = True

    def __init__(self, fonts, session, *, checking: Callable[[], bool], said_checking: Callable[[], None], world: Callable[[], pygame.Rect], actions):
        super().__init__(fonts, actions)
        self.session, self.checking, self.said_checking, self.world = session, checking, said_checking, world
        self.folded = False

    def fold(self) -> None:
        self.folded = True

    def unfold(self) -> None:
        self.folded = False

    def what(self) -> str:
        s = self.session
        if self.checking():
            return "checking"
        if s.problem:
            return "problem"
        if s.verdict is not None and s.level_bench is not None:
            return "folded" if self.folded else "verdict"
        if s.free is not None and not s.started:
            return "mechanism"
        return ""

    @property
    def shown(self) -> bool:
        return bool(self.what())

    def content(self, width: int):
        s, fonts, what = self.session, self.fonts, self.what()
        actions: list[tuple[str, str]] = []
        if what == "checking":
            title, text, foot, colour = _("Checking your answer…"), _("The engine is running your structure under the level's loads."), "", ALERT
            if s.judging is not None:  # judged beside the frames: how far, and how to stop it
                text, foot = f"{text} {s.judging.said()}", _("Esc stops the check: nothing is counted, your answer stays as it is.")
        elif what == "problem":
            foot = _("R: reset to the structure as built   D: reset with the stable step") if s.dt is not None else _("R: reset to the structure as built")
            title, text, colour = _("The simulation became unstable and was paused"), s.problem, ALERT
        elif what == "mechanism":
            title, text, colour = (
                _("This is a mechanism: it can move without any member stretching"),
                _("The free motion, shown dashed: {motion}").format(motion=s.free_words),
                ALERT,
            )
            foot = _("It cannot stand as it is: add members or supports.")
        else:
            title, text, foot, passed = verdict_texts(s)
            colour = REACTION if passed else ALERT
            table = [(_("Members (U)"), "table.toggle")] if s.verdict.figures.get("members") else []
            actions = [*table, (_("Try again (T)"), "try_again"), *([(_("Next level (N)"), "next_level")] if passed else [])]
        return title, colour, text_rows(fonts.body, text, width, INK), foot, actions

    def size(self, area: pygame.Rect) -> tuple[int, int]:
        """As tall as its text, but no taller than leaves the structure the third of the
        world the camera keeps it in above the box (a long verdict scrolls, as in German at
        800 x 600), and never shorter than its least."""
        width, height = super().size(area)
        room = box_room(self.world().height)
        return width, min(height, max(room, self.least(area)))

    def strip(self) -> tuple[str, tuple]:
        title, _text, _foot, passed = verdict_texts(self.session)
        keys = _("T: try again   ·   N: next level") if passed else _("T: try again")
        return f"{title}   ·   {keys}", REACTION if passed else ALERT

    def place(self, area: pygame.Rect, avoid: pygame.Rect | None) -> pygame.Rect:
        if self.what() == "folded":
            text, _ = self.strip()
            width = min(self.fonts.bold.size(text)[0] + 2 * PAD, area.width - 2 * PAD)
            lines = draw.wrap(self.fonts.bold, text, width - 2 * PAD)
            box = pygame.Rect(0, 0, width, len(lines) * self.fonts.bold.get_linesize() + 10)
            box.midbottom = (area.centerx, area.bottom - 4)
            return box
        return overlay.place_box(area, self.size(area), avoid)

    def draw(self, surface: pygame.Surface) -> None:
        what = self.what()
        if what == "folded":
            self.buttons = []
            text, colour = self.strip()
            lines = draw.wrap(self.fonts.bold, text, self.rect.width - 2 * PAD)
            pygame.draw.rect(surface, (255, 255, 255), self.rect, border_radius=6)
            pygame.draw.rect(surface, colour, self.rect, 2, border_radius=6)
            draw.text_block(surface, self.fonts.bold, lines, (self.rect.left + PAD, self.rect.top + 5), colour, 0)
            return
        super().draw(surface)
        if what == "checking":
            self.said_checking()

    def escape(self) -> bool:
        if self.what() == "verdict":
            self.fold()
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.what() == "folded":  # a click on the strip opens the verdict again, never a click in the world under it
            clicked = event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos)
            if clicked:
                self.unfold()
            return clicked
        return super().handle_event(event)


class Modal(Opening, TextBox):
    """A box that takes every key and click while it is open: `keys` close it, the
    scroll keys scroll it, a click outside it closes it; F1 opens the help over it
    (`open_help`, where the box is not the help)."""

    modal = True
    floating = True
    keys: tuple[int, ...] = (pygame.K_ESCAPE,)

    def __init__(self, fonts, actions=None, open_help: Callable[[], None] | None = None):
        super().__init__(fonts, actions)
        self.open_help = open_help

    def escape(self) -> bool:
        self.close()
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1 and pygame.K_F1 not in self.keys:
            self.open_help()  # the help opens over any box (Esc comes back to this one)
        elif (event.type == pygame.KEYDOWN and event.key in self.keys) or outside(event, self.rect):
            self.close()
        else:
            super().handle_event(event)
        return True


class BriefPart(Modal):
    """The whole brief (B), over the top of the world."""

    name = "brief"
    widest, frame = 820, 2
    keys = (pygame.K_ESCAPE, pygame.K_b)

    def __init__(self, fonts, stage, open_help: Callable[[], None]):
        super().__init__(fonts, open_help=open_help)
        self.stage = stage

    def close(self) -> None:
        super().close()
        self.scroll.home()

    def title_font(self):
        return self.fonts.title

    def content(self, width: int):
        stage = self.stage
        return stage.title, INK, text_rows(self.fonts.body, stage.brief, width, INK), _("B or Esc: fold the brief"), ()

    def place(self, area: pygame.Rect) -> pygame.Rect:
        box = pygame.Rect((0, 0), self.size(area))
        box.midtop = (area.centerx, area.top + PAD)
        return box


class HelpPart(Modal):
    """The keys and the tools (F1), over the middle of the world and the side column;
    in two columns where the window is wide."""

    name = "help"
    widest, frame = 1240, 2
    keys = (pygame.K_ESCAPE, pygame.K_F1)

    def __init__(self, fonts, toolbar):
        super().__init__(fonts)
        self.toolbar = toolbar

    def close(self) -> None:
        super().close()
        self.scroll.home()

    def title_font(self):
        return self.fonts.title

    def content(self, width: int):
        tools = [_("{tool}: {tip}").format(tool=_(t.label), tip=_(t.tip)) for t in self.toolbar.tools.values()]
        rows = overlay.help_rows(self.fonts, [manual.help_row(), *help_rows()], tools, width)
        return _("Keys and tools"), INK, rows, _("F1 or Esc: close"), ()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_SLASH and event.mod & pygame.KMOD_SHIFT:
            self.close()  # "?" opened it
            return True
        return super().handle_event(event)

    def place(self, area: pygame.Rect) -> pygame.Rect:
        box = pygame.Rect((0, 0), self.size(area))
        box.center = area.center
        return box


class TablePart(Modal):
    """The member table (U): sections, lengths and costs, and after a check the forces;
    it pages itself and keeps whether it is open (game/app/widgets/membertable.py)."""

    name = "table"
    keys = (pygame.K_ESCAPE, pygame.K_u)

    def __init__(self, fonts, table, session, open_help: Callable[[], None]):
        super().__init__(fonts, open_help=open_help)
        self.table, self.session = table, session

    @property
    def is_open(self) -> bool:
        return self.table.shown

    @property
    def shown(self) -> bool:
        return self.table.shown and self.table.contents(self.session) is not None

    def open(self) -> None:
        if not self.table.shown:
            self.table.toggle()

    def close(self) -> None:
        self.table.shown = False

    def place(self, area: pygame.Rect) -> pygame.Rect:
        return area.inflate(0, 0)

    def draw(self, surface: pygame.Surface) -> None:
        self.box = self.table.draw(surface, self.fonts, self.rect, self.table.contents(self.session))

    def handle_event(self, event: pygame.event.Event) -> bool:
        table = self.table
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F1:
            self.open_help()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEDOWN, pygame.K_DOWN):
            table.page_down()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEUP, pygame.K_UP):
            table.page_up()
        elif event.type == pygame.MOUSEWHEEL:
            table.page_up() if event.y > 0 else table.page_down()
        elif (event.type == pygame.KEYDOWN and event.key in self.keys) or outside(event, getattr(self, "box", None) or self.rect):
            self.close()
        return True


class EntryPart(Part):
    """The answer being typed (a force, a moment, a cut member's force): the box owns it
    (`entry`, None: none). Every key goes to it; Enter gives it to the session's bench
    (a refusal is said in the box, which stays open), Esc or a click elsewhere drops it.
    Keys typed ahead of the box's closing (in the frame it closes, before the player
    has seen it gone) are the box's too: they never act as commands."""

    name = "entry"
    modal = floating = True

    def __init__(self, fonts, session, picture):
        super().__init__(fonts)
        self.session, self.picture = session, picture
        self.entry: AnswerEntry | None = None
        self.closing = False  # closed this frame: the keys typed ahead are still the box's

    def open(self, entry: AnswerEntry) -> None:
        self.entry, self.closing = entry, False

    def close(self) -> None:
        self.entry, self.closing = None, True

    @property
    def shown(self) -> bool:
        if self.entry is None:
            return self.closing
        model = self.session.model
        return model is not None and self.entry.asked.at in (model.member_ids if self.entry.asked.what == MEMBER else model.node_ids)

    def place(self, area: pygame.Rect) -> pygame.Rect:
        return area

    def draw(self, surface: pygame.Surface) -> None:
        model, entry, picture = self.session.model, self.entry, self.picture
        if entry is None:  # drawn once closed: from now on keys are commands again
            self.closing = False
            return
        if entry.asked.what == MEMBER:  # beside the member's middle
            i, j = member_ends(model)[model.member_index(entry.asked.at)]
            (ax, ay), (bx, by) = picture.point_of(int(i)), picture.point_of(int(j))
            at = ((ax + bx) / 2, (ay + by) / 2)
        else:
            at = picture.point_of(model.node_index(entry.asked.at))
        self.box = entry.draw(surface, self.fonts, self.rect, at)

    def key(self, event: pygame.event.Event) -> None:
        """A key (typed text, an input method's composing) for the answer being typed:
        Enter gives it, Esc drops it."""
        entry = self.entry
        done = entry.key(event)
        if done == "place":
            entry.problem = give(self.session, entry.asked, entry.value)
            if entry.problem:
                return
        if done is not None:
            self.close()

    def escape(self) -> bool:
        if self.entry is None:
            return False
        self.close()
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        typed = event.type in (pygame.KEYDOWN, pygame.TEXTINPUT, pygame.TEXTEDITING)
        if self.entry is None:
            return typed  # typed ahead of the closing: the box's, not a command
        if typed:
            self.key(event)  # keys, typed text and an input method's composing
        elif event.type == pygame.MOUSEBUTTONDOWN and not getattr(self, "box", self.rect).collidepoint(event.pos):
            self.close()
        return True


class LeavePart(Modal):
    """Before leaving: Enter or Esc leaves (the work is kept), any other key stays.
    `alone()`: the scene is the game's last (leaving it ends the game); `leave()` leaves."""

    name = "leave"
    frame = 3

    def __init__(self, fonts, session, alone: Callable[[], bool], leave: Callable[[], None]):
        super().__init__(fonts, {"stay": self.close, "leave": leave})
        self.session, self.alone, self.leave = session, alone, leave

    def content(self, width: int):
        s, alone = self.session, self.alone()
        demo = s.bench is None and not alone  # nothing of the player's to keep
        if alone:
            title = _("Leave the game?")
        elif s.level_bench is not None:
            title = _("Leave this level?")
        else:
            title = _("Leave this demo?") if demo else _("Leave the sandbox?")
        if s.level_bench is not None and s.progress is None:  # the level editor's preview: nothing of it is saved
            text = _("Nothing of this play is kept: back to the level editor.")
        else:
            text = _("It starts again from the beginning when you come back.") if demo else _("Your work is kept: it is here when you come back.")
        foot = _("Enter or Esc: leave   ·   any other key: stay")
        return title, TENSION, text_rows(self.fonts.body, text, width, INK), foot, ((_("Stay"), "stay"), (_("Leave"), "leave"))

    def place(self, area: pygame.Rect) -> pygame.Rect:
        return overlay.place_box(area, self.size(area), None)

    def escape(self) -> bool:
        self.close()
        self.leave()
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            self.close()
            if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.leave()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.close()
            self.press(event.pos)
        return True
