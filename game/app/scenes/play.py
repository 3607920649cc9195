"""The play scene: a level or the sandbox, built with tools and run in real time.

The scene is the window's side of a play session (game/app/session.py: the work, its
model, the run, the check and the saves): it turns input into calls on the session and
the tool in hand (game/app/tools.py), keys through one table (game/app/keymap.py), and
draws the structure (game/app/render.py) and the words around it (game/app/panels.py).

While the player edits (a build tool in hand, the run not started or paused) the
structure is drawn and picked as built, never moving under the mouse; before a run the
forces and reactions shown are the static answer. A check's run is the very run that was
judged. Esc closes the top box, then cancels what a tool has half done, then asks before
leaving.
"""

from __future__ import annotations

import time
from operator import attrgetter

import pygame

from game.app import overlay
from game.app.app import App, Scene
from game.app.camera import PAN_PX, ZOOM_STEP, Camera
from game.app.entry import ForceEntry
from game.app.graphdesk import GraphDesk
from game.app.keymap import binding_for
from game.app.marks import draw_marks
from game.app.membertable import MemberTable
from game.app.panels import badges, draw_boxes, draw_readout, hover_lines, hud_lines, save_screenshot, status_text, verdict_texts
from game.app.picture import Picture
from game.app.render import ARROW_PX
from game.app.session import PlaySession
from game.app.shapes import Hit
from game.app.stage import Stage
from game.app.tools import Toolbar
from game.app.view import View
from game.rules import kind_of

KEYS_HELP = "F1 help · Space run/pause · R reset · Ctrl+Z undo · Esc back"
PAN_KEYS = {pygame.K_LEFT: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}


def first_tool(bench) -> str:
    """The tool in hand when a level opens: what its task needs first (members to join,
    supports to add, forces to place, members to mark), never inspect."""
    player = getattr(getattr(bench, "level", None), "player", None)
    if player is not None and "member" in bench.tools and not player.sections and player.supports and "support" in bench.tools:
        return "support"
    if player is not None and player.sections and "member" in bench.tools:
        return "member"
    return bench.tools[1]


class PlayScene(Scene):
    """integrator and dt as for `PlaySession` ("auto" and None: the game chooses).
    progress: the student's progress (game/progress.py) or None (nothing is saved)."""

    def __init__(self, app: App, stage: Stage, *, integrator: str = "auto", dt: float | None = None, progress=None, bench=None):
        super().__init__(app)
        self.stage = stage
        self.session = PlaySession(stage, integrator=integrator, dt=dt, progress=progress, bench=bench, fixed=app.fixed_frame is not None)
        bench = self.session.bench
        self.toolbar = Toolbar(bench.tools if bench is not None else ("inspect", "drag", "nail", "bomb"))
        if bench is not None:
            self.toolbar.choose(first_tool(bench))
        self.show_hud = self.show_help = self.brief_open = self.confirm_leave = self.folded = False
        self.graphs = GraphDesk(app.fonts)
        self.table = MemberTable()  # every member's section, length and cost; after a build check its force, capacities and use ratio
        self.checking = False  # a check asked for: the next frame says so, the one after judges
        self._check_shown = False
        self.draw_ms = 0.0
        self._size: tuple[int, int] | None = None
        self.section_rect: pygame.Rect | None = None  # the section button, while the member tool is in hand
        self.hover: Hit | None = None
        self.selected: Hit | None = None
        self.mouse = (0, 0)
        self.entry: ForceEntry | None = None  # a force being typed
        self.buttons: list[tuple[pygame.Rect, str]] = []  # the boxes' buttons drawn last frame, and what each does
        self.picture = Picture(self.session, app.fonts, stage, lambda: self.editing)

    @property
    def editing(self) -> bool:
        """The player is building: the structure is shown and picked as built."""
        s = self.session
        return self.toolbar.tool.edits and (s.paused or not s.started) and s.verdict is None

    @property
    def view(self) -> View:
        return self.picture.camera.view

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if self.entry is not None and event.type in (pygame.TEXTINPUT, pygame.TEXTEDITING):
            self._entry_key(event)  # typed text, and an input method's, for the force box
            return
        if event.type == pygame.KEYDOWN:
            if self.entry is not None:
                self._entry_key(event)
                return
            if self.confirm_leave:
                self.confirm_leave = False
                if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                    self.leave()
                return
            binding = binding_for(event.key, event.mod)
            if binding is None:
                return
            if binding.action.startswith("toggle:"):
                owner, flag = binding.action.split(":")[1].rpartition(".")[::2]
                target = attrgetter(owner)(self) if owner else self
                setattr(target, flag, not getattr(target, flag))
            elif binding.action in ("tool_key", "pan_key"):
                getattr(self, binding.action)(event.key)
            else:
                attrgetter(binding.action)(self)()  # "check": self.check(); "session.undo": self.session.undo()
        elif event.type == pygame.MOUSEWHEEL:
            self.zoom(ZOOM_STEP**event.y, self.mouse)
        elif event.type == pygame.MOUSEMOTION:
            if event.buttons[1]:  # the middle button held: pan
                self.picture.camera.pan(*event.rel, self.picture.box())
            self.mouse = event.pos
            if self.session.hand is not None:
                self.session.hand_at = self.picture.world(event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self._press(event.pos, shift=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
            elif event.button == 3:
                self.toolbar.tool.cancel()
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.mouse = event.pos
            self.toolbar.tool.release(self, event.pos, fine=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))

    def _press(self, pos: tuple[int, int], *, shift: bool) -> None:
        button = next((action for rect, action in self.buttons if rect.collidepoint(pos)), None)
        self.confirm_leave = False
        if button is not None:
            attrgetter(button)(self)()
            return
        if self.entry is not None:  # a click elsewhere drops the force being typed
            self.entry = None
            return
        if self.section_rect is not None and self.section_rect.collidepoint(pos):
            self.session.next_section()
            return
        tool = self.toolbar.at(pos)
        if tool is not None:
            self.choose_tool(tool)
            return
        if not self.layout.world.collidepoint(pos) or self.show_help:
            return
        s = self.session
        if self.toolbar.tool.edits and s.started and s.verdict is None:
            s.reset()  # an edit is made on the structure as built
        self.toolbar.tool.press(self, pos, shift=shift)

    def type_force(self, node: str, *, moment: bool = False) -> None:
        """Open the box to type a force (or a moment) at `node`."""
        bench = self.session.level_bench
        self.entry = ForceEntry(node, bench.own_force(node) if bench is not None and not moment else None, moment=moment)

    def _entry_key(self, event: pygame.event.Event) -> None:
        done, entry, bench = self.entry.key(event), self.entry, self.session.bench
        if done == "place":
            self.session.edit(bench.add_moment, entry.node, entry.force()) if entry.moment else self.session.edit(bench.add_force, entry.node, *entry.force())
        if done is not None:
            self.entry = None

    def choose_tool(self, name: str) -> None:
        self.toolbar.choose(name)
        if self.toolbar.tool.edits and not self.session.paused and self.session.verdict is None:
            self.session.paused = True  # building: the structure stands still as built

    def tool_key(self, key: int) -> None:
        number = 10 if key == pygame.K_0 else key - pygame.K_0
        if 1 <= number <= len(self.toolbar.names):
            self.choose_tool(self.toolbar.names[number - 1])

    def pan_key(self, key: int) -> None:
        dx, dy = PAN_KEYS[key]
        self.picture.camera.pan(PAN_PX * dx, PAN_PX * dy, self.picture.box())

    def escape(self) -> None:
        """Close the top box, else cancel what the tool has half done, else ask before leaving."""
        if self.show_help:
            self.show_help = False
        elif self.brief_open:
            self.brief_open = False
        elif self.table.shown:
            self.table.shown = False
        elif self.session.verdict is not None and not self.folded:
            self.folded = True
        elif self.toolbar.tool.cancel():
            pass
        else:
            self.confirm_leave = True

    def leave(self) -> None:
        """Back to the menu, with the work saved; if it cannot be, say so and stay: Esc
        again leaves all the same."""
        s = self.session
        if s.save(force=True) or s.unsaved_warned:
            self.app.pop()
            return
        s.unsaved_warned = True
        s.notice += " Esc again leaves without saving it."

    def stay(self) -> None:
        """The question before leaving, answered: stay."""

    def closing(self) -> None:
        self.session.save(force=True)

    # ------------------------------------------------------------------ key actions
    def run_pause(self) -> None:
        s = self.session
        if s.paused:
            if self.toolbar.tool.edits:
                self.toolbar.tool.cancel()
            s.run()
        else:
            s.paused = True

    def reset(self) -> None:
        self.session.reset()
        self.session.notice = ""  # what was said of the run (a break, a blow-up) went with it
        self.graphs.recorder.clear()

    def stable_reset(self) -> None:
        if self.session.problem and self.session.dt is not None:
            self.session.dt = None  # the step was the player's choice: back to the engine's stable one
            self.reset()

    def check(self) -> None:
        s = self.session
        if s.verdict is None and s.level_bench is not None:
            self.checking = True  # drawn first ("Checking…"), judged on the next frame
        else:
            s.check()

    def try_again(self) -> None:
        self.session.try_again()
        self.folded = False

    def next_level(self) -> None:
        """After a pass, the next level of the course in this one's place."""
        s = self.session
        stage = s.next_stage()
        if stage is not None:
            self.app.replace(PlayScene(self.app, stage, integrator=s.integrator, progress=s.progress))

    def toggle_against(self) -> None:
        self.graphs.toggle_against()

    def follow(self) -> None:
        self.session.notice = self.graphs.follow(self.session.sim, self.selected) or self.session.notice

    def export_graph(self) -> None:
        self.session.notice = self.graphs.export()

    def screenshot(self) -> None:
        self.session.notice = save_screenshot(self.app.screen)

    def zoom(self, factor: float, about: tuple[int, int]) -> None:
        """Zoom the view by `factor`, keeping the world point under `about` in place."""
        self.picture.camera.zoom(factor, about, self.picture.box())

    def fit_view(self) -> None:
        """Fit the view to the structure where it is now (and the stage around it)."""
        sim = self.session.sim
        self.picture.camera.fit(sim.state.pos[:, :2] if sim is not None else None)

    # ------------------------------------------------------------------ time
    def update(self, frame_seconds: float) -> None:
        s = self.session
        if self.checking and self._check_shown:
            self.checking = self._check_shown = False
            s.check()
            self.folded = False
            self.toolbar.tool.cancel()
            if s.verdict is not None and s.level_bench is not None:  # the structure moved above the verdict's box
                self.picture.clear_of(overlay.message_size(self.app.fonts, self.layout.world, verdict_texts(s)[1])[1])
        before = s.sim
        s.tick(frame_seconds)
        if not self.picture.current:
            self.picture.take_model()
            self.selected = self.hover = None
        if s.sim is not before:
            self.graphs.recorder.clear()
        if s.sim is not None and s.started and not s.paused:
            self.graphs.sample(s.sim)
            s.notice = self.picture.tame_magnify() or s.notice

    # ------------------------------------------------------------------ drawing
    def _fit(self, size: tuple[int, int]) -> None:
        """Lay the screen out and fit the view, when the window size changes."""
        fonts = self.app.fonts
        self.brief_lines = overlay.title_lines(fonts, self.stage.brief, size[0])
        self.layout = overlay.Layout.of(size, overlay.top_height(fonts, self.brief_lines) + 44)
        self.bar_rect = self.toolbar.layout(fonts, (overlay.PAD, self.layout.top.bottom - 40))
        self.picture.camera = Camera(self.stage.bounds(), tuple(self.layout.world))
        if self._size is None and kind_of(self.stage.kind).magnify_motion:
            self.session.notice = self.picture.magnify_small_motion() or self.session.notice
        self._size = size

    def draw(self, surface: pygame.Surface) -> None:
        start = time.perf_counter()
        if surface.get_size() != self._size:
            self._fit(surface.get_size())
        s, fonts, layout = self.session, self.app.fonts, self.layout
        picture, sim = self.picture, self.picture.sim
        self.hover = picture.pick(self.mouse) if layout.world.collidepoint(self.mouse) else None
        surface.set_clip(layout.world)
        draw_marks(self, surface, under=True)
        picture.draw(surface)
        draw_marks(self, surface, under=False)
        if s.sim is not None:
            self.toolbar.tool.marks(self, surface)
        surface.set_clip(None)
        overlay.title_bar(surface, fonts, layout.top, self.stage.title, self.stage.kind, self.brief_lines)
        self.toolbar.draw(surface, fonts)
        section = s.section if self.toolbar.current == "member" else None
        self.section_rect = overlay.tool_line(surface, fonts, self.bar_rect, self.toolbar.tool.tip_for(s), section)
        overlay.legend(
            surface,
            fonts,
            layout.legend,
            widest=picture.painter.member_scale.value if sim and s.revealed and not picture.by_section else None,
            to_come=picture.painter.loads_to_come,
            plates=s.model is not None and len(s.model.triangle_ids) > 0,
            breakable=sim is not None and sim.breakable,
            supports={kind for _, kind, _ in picture.painter.supports},
            arrow=(ARROW_PX, picture.painter.force_ref) if picture.painter.force_ref > 1.0 else None,
            own=len(picture.painter.own) > 0,
            hidden=not s.revealed,
            beam_notes=picture.legend_notes(),
        )
        draw_readout(self, surface, sim)
        overlay.status_line(surface, fonts, layout.status, s.notice or status_text(self), KEYS_HELP)
        overlay.badges(surface, fonts, layout.world.topright, badges(self))
        self.graphs.draw(surface, layout.world)
        if self.show_hud:
            overlay.hud(surface, fonts, (layout.world.left + 10, layout.world.top + 10), hud_lines(self))
        if self.hover is not None and (self.toolbar.current == "inspect" or s.paused):
            lines = hover_lines(self, sim)
            if lines:
                overlay.hud(surface, fonts, (self.mouse[0] + 16, self.mouse[1] + 16), lines, within=layout.world)
        draw_boxes(self, surface)
        if self.entry is not None and self.entry.node in (s.model.node_ids if s.model is not None else ()):
            self.entry.draw(surface, fonts, layout.world, picture.point_of(s.model.node_index(self.entry.node)))
        self.draw_ms = 1e3 * (time.perf_counter() - start)
        s.pacer.share_frame(self.draw_ms / 1e3)

    def check_shown(self) -> None:
        """The "Checking…" box is on the screen: the next frame judges."""
        self._check_shown = True
