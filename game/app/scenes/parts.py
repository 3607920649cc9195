"""The play screen's standing parts, one section each (game/app/window/sections.py): the title
and brief's lines, the toolbar, the world, the legend, the net-force readout, the status
line, and over the world the badges, the HUD, the graph and the tool tip. Each draws
inside the rectangle the layout (game/app/window/layout.py) or the scene's `arrange` gives it,
from what the scene hands it when it is made (the session, the picture, the toolbar, a
callable for what a press does); what it does with a press or the wheel is its own, and
so is whether it is open (the HUD: the scene asks it to toggle). A part that hands the
scene on (to the tool in hand, or to the words of game/app/widgets/panels.py, which read
it whole) keeps it for that. The boxes (the verdict, the help, the brief, the member
table, the answer box, the question before leaving) are in game/app/scenes/boxes.py."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import INK, MUTED, PANEL, RULE
from equilibria.app.draw.render import ARROW_PX
from equilibria.app.widgets import overlay
from equilibria.app.widgets.marks import draw_marks
from equilibria.app.widgets.panels import badges, hover_lines, hud_lines, readout_lines, status_text
from equilibria.app.window.layout import GRAPH_LEAST, LEGEND_WIDTH
from equilibria.app.window.sections import Opening, Piece, Scroll, Section
from equilibria.rules.kinds import kind_of
from equilibria.words.i18n import N_, _

PAD = overlay.PAD
KEYS_HELP = N_("F1 help · Space run/pause · R reset · Ctrl+Z undo · Esc back")
BRIEF_CUE = N_("B: the whole brief")


def kind_name(kind: str) -> str:
    """A level kind's name in the player's language, as its `Kind` gives it ("free-body")."""
    about = kind_of(kind)
    return _(about.title_word) if about is not None else kind.replace("_", "-")


class Part(Section):
    """A section of the play screen, drawn in `fonts`."""

    def __init__(self, fonts):
        super().__init__()
        self.fonts = fonts


class TitlePart(Part):
    """The level's title, its kind, and the brief in a few lines (a click or B opens it whole)."""

    name = "title"

    def __init__(self, fonts, stage, open_brief: Callable[[], None]):
        super().__init__(fonts)
        self.stage, self.open_brief = stage, open_brief
        self.lines: list[str] = []  # the brief's lines shown
        self.cut = False  # whether they leave some of it out

    def fit(self, width: int) -> int:
        """The brief's lines for a window `width` px wide; the height [px] they take."""
        brief = self.stage.brief
        self.lines = overlay.title_lines(self.fonts, brief, width)
        self.cut = " ".join(self.lines) != " ".join(brief.split()) if brief else False
        fonts = self.fonts
        return PAD + fonts.title.get_linesize() + 4 + len(self.lines) * (fonts.body.get_linesize() + 2) + PAD

    def draw(self, surface: pygame.Surface) -> None:
        rect, fonts, stage = self.rect, self.fonts, self.stage
        pygame.draw.rect(surface, PANEL, rect)
        room = rect.width - 2 * PAD - 12 - fonts.small.size(kind_name(stage.kind))[0]  # the kind keeps its place after the title
        title = draw.elided(fonts.title, stage.title, room)
        head = draw.label(surface, fonts.title, title, (rect.left + PAD, rect.top + PAD), INK, "topleft", None)
        kind = draw.label(surface, fonts.small, kind_name(stage.kind), (head.right + 12, head.centery + 1), MUTED, "midleft", None)
        if self.cut and kind.right + 24 + fonts.small.size(_(BRIEF_CUE))[0] < rect.right - PAD:
            draw.label(surface, fonts.small, _(BRIEF_CUE), (rect.right - PAD, head.centery + 1), MUTED, "midright", None)
        draw.text_block(surface, fonts.body, self.lines, (rect.left + PAD, head.bottom + 4), INK)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.stage.brief:
            self.open_brief()
            return True
        return False


class ToolbarPart(Part):
    """The tools, numbered; for members the section as a button; what the tool does.
    A press on a tool calls `choose(name)`."""

    name = "toolbar"

    def __init__(self, fonts, toolbar, session, choose: Callable[[str], None]):
        super().__init__(fonts)
        self.toolbar, self.session, self.choose = toolbar, session, choose
        self.section_rect: pygame.Rect | None = None

    def draw(self, surface: pygame.Surface) -> None:
        toolbar, s, rect = self.toolbar, self.session, self.rect
        pygame.draw.rect(surface, PANEL, rect)
        pygame.draw.line(surface, RULE, rect.bottomleft, rect.bottomright)
        bar = toolbar.layout(self.fonts, (rect.left + PAD, rect.top + 4), rect.right - PAD)
        toolbar.draw(surface, self.fonts)
        section = s.bench.section_name(s.section) if toolbar.current == "member" and s.bench is not None and s.section else None
        clip = surface.get_clip()
        surface.set_clip(rect)
        self.section_rect = overlay.tool_line(surface, self.fonts, bar, toolbar.tool.tip_for(s), section, rect.right - PAD)
        surface.set_clip(clip)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1:
            return False
        if self.section_rect is not None and self.section_rect.collidepoint(event.pos):
            self.session.next_section()
            return True
        tool = self.toolbar.at(event.pos)
        if tool is not None:
            self.choose(tool)
        return True


class WorldPart(Part):
    """The structure, the ground, the grid and the marks on them; a press goes to the
    tool in hand, the wheel zooms. The tools and the marks act on the scene itself
    (game/app/widgets/tools.py, marks.py): the world hands it to them."""

    name = "world"

    def __init__(self, fonts, scene):
        super().__init__(fonts)
        self.scene = scene
        self.toolbar, self.session, self.picture = scene.toolbar, scene.session, scene.picture

    def draw(self, surface: pygame.Surface) -> None:
        surface.set_clip(self.rect)
        draw_marks(self.scene, surface, under=True)
        self.picture.draw(surface)
        draw_marks(self.scene, surface, under=False)
        if self.session.sim is not None:
            self.toolbar.tool.marks(self.scene, surface)
        self.scene.keys.draw(surface)

    def escape(self) -> bool:
        return self.toolbar.tool.cancel() or self.scene.keys.clear()

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEWHEEL:
            self.scene.zoom_notches(event.y)
            return True
        if event.button != 1:
            return False
        self.press(event.pos, shift=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
        return True

    def press(self, pos: tuple[float, float], *, shift: bool) -> None:
        """The left button down at `pos` (a click, or Enter on what the keys chose): to
        the tool in hand, on the structure as built when it edits."""
        s, tool = self.session, self.toolbar.tool
        if tool.edits and s.started and s.verdict is None:
            s.reset()  # an edit is made on the structure as built
        tool.press(self.scene, pos, shift=shift)


class LegendPart(Part):
    """What colours, widths, arrows and symbols mean; it scrolls (the wheel over it)
    where the column is too short for all of it."""

    name = "legend"

    def __init__(self, fonts, session, picture):
        super().__init__(fonts)
        self.session, self.picture = session, picture
        self.scroll = Scroll()

    def draw(self, surface: pygame.Surface) -> None:
        s, rect, picture = self.session, self.rect, self.picture
        painter, sim = picture.painter, picture.sim
        pygame.draw.rect(surface, PANEL, rect)
        pygame.draw.line(surface, RULE, rect.topleft, rect.bottomleft)
        rows = overlay.legend_rows(
            self.fonts,
            rect.width - 2 * PAD,
            widest=painter.member_scale.value if sim and s.revealed and not picture.by_section else None,
            to_come=painter.loads_to_come,
            plates=s.model is not None and len(s.model.triangle_ids) > 0,
            broke=sim is not None and sim.breakable and s.broke,
            supports={kind for _, kind, _ in painter.supports},
            arrow=(ARROW_PX, painter.force_ref) if painter.force_ref > 1.0 else None,
            own=len(painter.own) > 0,
            hidden=not s.revealed,
            beam_notes=picture.legend_notes(),
        )
        self.scroll.draw(surface, rect.inflate(-2 * PAD, -2 * PAD), rows, self.fonts.small)

    def handle_event(self, event: pygame.event.Event) -> bool:
        return event.type == pygame.MOUSEWHEEL and self.scroll.handle_event(event)


class ReadoutPart(Part):
    """The net force and moment on the structure, the truss count, the followed node,
    under the legend (its words, game/app/widgets/panels.py, read the scene)."""

    name = "readout"

    def __init__(self, fonts, scene):
        super().__init__(fonts)
        self.scene, self.picture = scene, scene.picture
        self.scroll = Scroll()

    def lines(self) -> list[str]:
        """The readout's lines, a line too wide for the side column (a large truss's
        count, `m + r = 2019 + 13 = 2032 > 2j = 1100`) wrapped under its own indent."""
        font, width = self.fonts.small, self.fonts.px(LEGEND_WIDTH) - 2 * PAD
        out: list[str] = []
        for line in readout_lines(self.scene, self.picture.sim):
            if font.size(line)[0] <= width:
                out.append(line)
                continue
            indent = line[: len(line) - len(line.lstrip())]
            first, *rest = draw.wrap(font, line.strip(), width - font.size(indent + "  ")[0]) or [""]
            out += [indent + first, *(indent + "  " + r for r in rest)]
        return out

    def height(self) -> int:
        """[px] the readout asks of the side column."""
        n = len(self.lines())
        return n * (self.fonts.small.get_linesize() + 1) + 2 * PAD + 2 if n else 0

    def draw(self, surface: pygame.Surface) -> None:
        rect = self.rect
        pygame.draw.rect(surface, PANEL, rect)
        pygame.draw.line(surface, RULE, rect.topleft, rect.bottomleft)
        overlay.rule(surface, rect, rect.top + 2)
        font = self.fonts.small
        rows = [(font.get_linesize() + 1, (Piece(font, line, INK),)) for line in self.lines()]
        self.scroll.draw(surface, rect.inflate(-2 * PAD, -2 * PAD), rows, font)

    def handle_event(self, event: pygame.event.Event) -> bool:
        return event.type == pygame.MOUSEWHEEL and self.scroll.handle_event(event)


class StatusPart(Part):
    """The status line: what the session says, else the state of the run (its words read the scene)."""

    name = "status"

    def __init__(self, fonts, scene):
        super().__init__(fonts)
        self.scene, self.session = scene, scene.session

    def draw(self, surface: pygame.Surface) -> None:
        overlay.status_line(surface, self.fonts, self.rect, self.session.notice or status_text(self.scene), _(KEYS_HELP))


class BadgesPart(Part):
    """Big words at the world's upper right (PAUSED, SLOW MOTION ×¼), one under another;
    in the body's bold where the big letters would not leave half the world."""

    name = "badges"
    floating = True

    def __init__(self, fonts, scene):
        super().__init__(fonts)
        self.scene = scene  # the badges' words read it (game/app/widgets/panels.py)
        self.world = pygame.Rect(0, 0, 0, 0)  # where they were placed last

    @property
    def shown(self) -> bool:
        return bool(badges(self.scene))

    def font(self, world: pygame.Rect):
        texts = [t for t, _ in badges(self.scene)]
        big = self.fonts.big
        return big if max(big.size(t)[0] for t in texts) <= world.width // 2 else self.fonts.bold

    def place(self, world: pygame.Rect) -> pygame.Rect:
        texts = [t for t, _ in badges(self.scene)]
        font = self.font(world)
        lines = [w for t in texts for w in draw.wrap(font, t, world.width // 2)]
        width = max(font.size(w)[0] for w in lines)
        rect = pygame.Rect(0, 0, width + PAD, len(lines) * font.get_height() + PAD)
        rect.topright = (world.right - PAD // 2, world.top + PAD // 2)
        self.world = world
        return rect

    def draw(self, surface: pygame.Surface) -> None:
        font = self.font(self.world)
        y = self.rect.top + PAD // 2
        for text, colour in badges(self.scene):
            for line in draw.wrap(font, text, self.rect.width - PAD):
                y = draw.label(surface, font, line, (self.rect.right - PAD // 2, y), colour, "topright", None).bottom


class HudPart(Opening, Part):
    """Frame rate and timing (H toggles it), at the world's upper left; where the world is
    too short for it, the graph and a box at once, it gives way (`crowded`). Its lines
    read the scene (the frame's times)."""

    name = "hud"
    floating = True
    crowded = False

    def __init__(self, fonts, scene):
        super().__init__(fonts)
        self.scene = scene

    @property
    def shown(self) -> bool:
        return self.is_open and not self.crowded

    def place(self, world: pygame.Rect) -> pygame.Rect:
        lines, font = hud_lines(self.scene), self.fonts.small
        width = max(font.size(line)[0] for line in lines) + 2 * PAD
        return pygame.Rect(world.left + 10, world.top + 10, width, len(lines) * (font.get_linesize() + 1) + 2 * PAD - 4)

    def draw(self, surface: pygame.Surface) -> None:
        overlay.hud(surface, self.fonts, self.rect.topleft, hud_lines(self.scene))


class GraphPart(Part):
    """The graph panel (G: its desk, game/app/widgets/graphdesk.py, is open or shut), at
    the world's upper left (under the HUD when it is shown)."""

    name = "graph"
    floating = True

    def __init__(self, fonts, graphs):
        super().__init__(fonts)
        self.graphs = graphs

    @property
    def shown(self) -> bool:
        return self.graphs.shown

    def place(self, world: pygame.Rect, top: int, right: int, room: int) -> pygame.Rect:
        """Below `top`, left of `right` (the badges), at most 520 × 240 px, two fifths
        of the world's height, and what leaves `room` px under it for a box."""
        height = max(self.fonts.px(GRAPH_LEAST), min(self.fonts.px(240), world.height * 2 // 5, world.bottom - room - top))
        return pygame.Rect(world.left + 10, top, max(200, min(520, right - world.left - 20)), height)

    def draw(self, surface: pygame.Surface) -> None:
        self.graphs.panel.draw(surface, self.rect)


class TipPart(Part):
    """What is under the mouse (inspecting, or paused), beside the pointer, within the
    world; never under an open box (`boxed`), beside which it would peek out. Its lines
    read the scene (what is under the mouse, what is selected)."""

    name = "tip"
    floating = True

    def __init__(self, fonts, scene, boxed: Callable[[], bool]):
        super().__init__(fonts)
        self.scene, self.boxed = scene, boxed
        self.toolbar, self.session, self.picture = scene.toolbar, scene.session, scene.picture
        self.world = pygame.Rect(0, 0, 0, 0)  # set by the layout

    def lines(self) -> list[str]:
        return hover_lines(self.scene, self.picture.sim)

    @property
    def shown(self) -> bool:
        if self.boxed():
            return False
        inspecting = self.toolbar.current == "inspect" or self.session.paused
        return self.scene.hover is not None and inspecting and bool(self.lines())

    def draw(self, surface: pygame.Surface) -> None:
        x, y = self.scene.mouse
        d, keep = overlay.TIP_OFFSET, self.picture.symbol_rect(self.scene.hover)
        self.rect = overlay.hud(surface, self.fonts, (x + d, y + d), self.lines(), within=self.world, avoid=keep)
