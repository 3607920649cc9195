"""The play scene: a level or the sandbox, built with tools and run in real time.

The scene is the window's side of a play session (game/app/session/play.py: the work, its
model, the run, the check and the saves): it turns input into calls on the session and
the tool in hand (game/app/widgets/tools.py), keys through one table (game/app/widgets/keymap.py), and
draws the structure (game/app/draw/render.py) and the words around it (game/app/widgets/panels.py).
The screen's parts are sections (game/app/window/sections.py; the parts in parts.py and
boxes.py, their rectangles from game/app/window/layout.py): a press or the wheel goes to the
part under the mouse, and an open box (the help, the brief, the member table, the force
being typed, the question before leaving) takes every key and click first.

While the player edits (a build tool in hand, the run not started or paused) the
structure is drawn and picked as built, never moving under the mouse; before a run the
forces and reactions shown are the static answer. A check's run is the very run that was
judged. Esc closes the top box, then folds the verdict, then cancels what a tool has
half done, then asks before leaving.
"""

from __future__ import annotations

import time
from operator import attrgetter

import pygame

from equilibria.app.scenes.boxes import BriefPart, EntryPart, HelpPart, LeavePart, TablePart, VerdictPart
from equilibria.app.scenes.editor import open_editor
from equilibria.app.scenes.methodbox import MethodPart
from equilibria.app.scenes.parts import BadgesPart, GraphPart, HudPart, LegendPart, ReadoutPart, StatusPart, TipPart, TitlePart, ToolbarPart, WorldPart
from equilibria.app.session.answers import FORCE, MEMBER, MOMENT, asked
from equilibria.app.session.camera import ZOOM_STEP, Camera
from equilibria.app.session.play import PlaySession, next_stage
from equilibria.app.session.shapes import Hit
from equilibria.app.session.stage import Stage
from equilibria.app.session.view import View
from equilibria.app.widgets.entry import AnswerEntry
from equilibria.app.widgets.graphdesk import GraphDesk
from equilibria.app.widgets.keymap import TOOL_KEY_CODES, binding_for
from equilibria.app.widgets.keypointer import KeyPointer
from equilibria.app.widgets.membertable import MemberTable
from equilibria.app.widgets.panels import save_screenshot
from equilibria.app.widgets.picture import Picture
from equilibria.app.widgets.tools import Toolbar, pin_nearest_end
from equilibria.app.window import scale
from equilibria.app.window.app import App, Scene
from equilibria.app.window.layout import Layout, arrange
from equilibria.app.window.sections import SectionManager
from equilibria.rules.kinds import kind_of
from equilibria.words.i18n import _


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
    progress: the student's progress (game/course/progress.py) or None (nothing is saved)."""

    def __init__(self, app: App, stage: Stage, *, integrator: str = "auto", dt: float | None = None, progress=None, bench=None):
        super().__init__(app)
        self.stage = stage
        self.session = PlaySession(stage, integrator=integrator, dt=dt, progress=progress, bench=bench, fixed=app.fixed_frame is not None)
        self.stage = stage = self.session.stage  # a level that varies: drawn for the student (game/rules/variants.py)
        bench = self.session.bench
        self.toolbar = Toolbar(bench.tools if bench is not None else ("inspect", "drag", "nail", "bomb"))
        if bench is not None:
            self.toolbar.choose(first_tool(bench))
        self.graphs = GraphDesk(app.fonts)
        self.table = MemberTable()  # every member's section, length and cost; after a build check its force, capacities and use ratio
        self.checking = False  # a check asked for: the next frame says so, the one after starts judging (session.judging)
        self._check_shown = False
        self.draw_ms = 0.0
        self._size: tuple | None = None  # (window size, the fonts' scale) the screen was laid out for: arrange lays it out anew when either changes
        self.hover: Hit | None = None
        self.selected: Hit | None = None
        self.mouse = (0, 0)
        self.zoom_step = ZOOM_STEP
        self.picture = Picture(self.session, app.fonts, stage, lambda: self.editing)
        self.keys = KeyPointer(self)  # play by keys alone: Tab, the arrows, Enter, Delete
        self.parts = self._parts(app.fonts)

    def _parts(self, fonts) -> SectionManager:
        """The screen's parts, each handed what it shows and what its presses do; those the
        keys open and those the scene asks of (their heights, the answer typed) kept by name."""
        s = self.session
        self.help = HelpPart(fonts, self.toolbar)
        self.brief = BriefPart(fonts, self.stage, self.help.open)
        self.title = TitlePart(fonts, self.stage, self.brief.open)
        self.toolbar_part = ToolbarPart(fonts, self.toolbar, s, self.choose_tool)
        self.readout, self.hud = ReadoutPart(fonts, self), HudPart(fonts, self)
        actions = {"table.toggle": self.table.toggle, "try_again": self.try_again, "next_level": self.next_level}
        self.verdict_box = VerdictPart(
            fonts, s, checking=lambda: self.checking or s.judging is not None, said_checking=self.check_shown, world=lambda: self.layout.world, actions=actions
        )
        self.entry_box = EntryPart(fonts, s, self.picture)  # a force being typed
        self.leaving = LeavePart(fonts, s, alone=lambda: len(self.app.scenes) == 1, leave=self.leave)
        docked = [self.title, self.toolbar_part, WorldPart(fonts, self), LegendPart(fonts, s, self.picture), self.readout, StatusPart(fonts, self)]
        over = [BadgesPart(fonts, self), self.hud, GraphPart(fonts, self.graphs), TipPart(fonts, self, boxed=lambda: sections.top_modal() is not None)]
        self.method = MethodPart(fonts, s, self.picture, self.help.open)  # K: the textbook's method, step by step (game/app/scenes/methodbox.py)
        boxes = [self.verdict_box, TablePart(fonts, self.table, s, self.help.open), self.brief, self.method, self.help, self.entry_box, self.leaving]
        sections = SectionManager(docked + over + boxes)  # in drawing order
        return sections

    @property
    def editing(self) -> bool:
        """The player is building: the structure is shown and picked as built."""
        s = self.session
        return self.toolbar.tool.edits and (s.paused or not s.started) and s.verdict is None

    @property
    def view(self) -> View:
        return self.picture.camera.view

    @property
    def section_rect(self) -> pygame.Rect | None:
        """The section button, while the member tool is in hand."""
        return self.toolbar_part.section_rect

    @property
    def buttons(self) -> list[tuple[pygame.Rect, str]]:
        """The shown boxes' buttons as drawn last frame, and what each does."""
        return [b for part in self.parts.shown() for b in getattr(part, "buttons", [])]

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if self.session.judging is not None and event.type != pygame.MOUSEMOTION:  # while judging, only Esc: it stops the check
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                self.session.cancel_check()
            return
        if event.type == pygame.MOUSEMOTION:
            self.keys.cursor.active &= event.rel == (0, 0)  # the mouse moving takes the pointer back from the keys
            if event.buttons[1]:  # the middle button held: pan
                self.picture.camera.pan(*event.rel, self.picture.box())
            self.mouse = event.pos
            if self.session.hand is not None:
                self.session.hand_at = self.picture.world(event.pos)
            return
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.mouse = event.pos
        if self.parts.dispatch(event, self.mouse):  # an open box, or the part under the mouse
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self.toolbar.tool.cancel()
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.toolbar.tool.release(self, event.pos, fine=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))

    def _key(self, event: pygame.event.Event) -> None:
        binding = binding_for(event.key, event.mod)
        if binding is None:
            return
        if binding.action.startswith("toggle:"):
            owner, flag = binding.action.split(":")[1].rpartition(".")[::2]
            target = attrgetter(owner)(self) if owner else self
            setattr(target, flag, not getattr(target, flag))
            hidden = not (kind_of(self.stage.kind).resultants_before_pass or self.session.passed)  # Kind: finding the resultant is part of the work
            if binding.action == "toggle:picture.resultants" and self.picture.resultants and hidden:
                self.session.notice = _("The resultants of the distributed loads show after a pass: working them out is part of this level.")
        elif binding.action in ("tool_key", "keys.pan", "keys.arrow", "text_size"):  # these read the key pressed (and its modifiers)
            attrgetter(binding.action)(self)(event)
        else:
            attrgetter(binding.action)(self)()  # "check": self.check(); "session.undo": self.session.undo()

    def text_size(self, event: pygame.event.Event) -> None:  # Ctrl+= larger, Ctrl+− smaller, Ctrl+0 back to 100 % (game/app/window/scale.py)
        self.session.notice = scale.rescale(self.app, self.session.progress, scale.KEYS[event.key])

    def type_force(self, node: str, *, moment: bool = False) -> None:
        """Open the box to type a force (or a moment) at `node`."""
        self.entry_box.open(AnswerEntry(asked(self.session, MOMENT if moment else FORCE, node)))

    def type_member_force(self, member: str) -> None:
        """Open the box to type the force in `member`, cut by the student's section."""
        self.entry_box.open(AnswerEntry(asked(self.session, MEMBER, member)))

    def choose_tool(self, name: str) -> None:
        self.toolbar.choose(name)
        if self.toolbar.tool.edits and not self.session.paused and self.session.verdict is None:
            self.session.paused = True  # building: the structure stands still as built

    def tool_key(self, event: pygame.event.Event) -> None:
        name = self.toolbar.keyed(TOOL_KEY_CODES.index(event.key))
        if name is not None:
            self.choose_tool(name)

    def pin_end(self) -> None:  # P: the end nearest the pointer of the member under it pinned, or unpinned (tools.py)
        pin_nearest_end(self)

    def escape(self) -> None:
        """Close the top box, fold the verdict, cancel what the tool has half done (the
        parts, top first), else ask before leaving."""
        if not self.parts.escape():
            self.leaving.open()

    def leave(self) -> None:
        """Back to the menu, with the work saved; if it cannot be, say so and stay: Esc
        again leaves all the same."""
        s = self.session
        if s.save(force=True) or s.unsaved_warned:
            self.app.pop()
            return
        s.unsaved_warned = True
        s.notice += " " + _("Esc again leaves without saving it.")

    def closing(self) -> None:
        self.stop_work()  # a check being judged counts for nothing
        self.session.save(force=True)

    def stop_work(self) -> None:
        self.session.cancel_check()

    # ------------------------------------------------------------------ key actions
    def run_pause(self) -> None:
        s = self.session
        if s.paused:
            self.toolbar.tool.cancel()  # a member half drawn is dropped (the tools that do not edit hold nothing)
            s.run()
        else:
            s.paused = True

    def reset(self) -> None:
        self.session.reset()
        self.session.notice = ""  # what was said of the run (a break, a blow-up) went with it
        self.graphs.recorder.clear()
        self.picture.back_in_view()  # the view followed a body that flew off: back to where it is again

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

    def show_answer(self) -> None:  # Ctrl+A twice: the worked answer in as the work, checked beside the frames
        if self.session.show_answer():
            self.check()

    def try_again(self) -> None:
        self.session.try_again()
        self.verdict_box.unfold()

    def next_level(self) -> None:
        """After a pass, the next level of the course in this one's place."""
        s = self.session
        stage = next_stage(s)
        if stage is not None:
            self.app.replace(PlayScene(self.app, stage, integrator=s.integrator, progress=s.progress))

    def toggle_graphs(self) -> None:  # G (game/app/widgets/graphdesk.py)
        self.session.notice = self.graphs.toggle(self.session.sim) or self.session.notice

    def follow(self) -> None:
        self.session.notice = self.graphs.follow(self.session.sim, self.selected, forces=self.session.revealed) or self.session.notice

    def export_graph(self) -> None:
        self.session.notice = self.graphs.export()

    def make_level(self) -> None:  # Ctrl+L: the level editor on what is on the screen (game/app/scenes/editor.py)
        open_editor(self)

    def screenshot(self) -> None:
        self.session.notice = save_screenshot(self.app.screen)

    def zoom_notches(self, notches: int) -> None:
        """The wheel, `notches` up (in) or down (out), zooms about the pointer."""
        self.zoom(self.zoom_step**notches, self.mouse)

    def zoom(self, factor: float, about: tuple[int, int]) -> None:
        """Zoom the view by `factor`, keeping the world point under `about` in place."""
        self.picture.camera.zoom(factor, about, self.picture.box())

    def fit_view(self) -> None:
        """Fit the view to the structure where it is drawn now (the stage when nothing is
        built), above the verdict as it is now (open, or folded to its strip)."""
        if self.session.verdict is not None and self.picture.camera.kept is not None:
            self.picture.camera.below = self._verdict_room()
        self.picture.fit()

    def _verdict_room(self) -> int:
        """The height [px] the verdict takes at the foot of the world: its box, or the
        strip it is folded to."""
        part, world = self.verdict_box, self.layout.world
        return part.place(world, None).height + 8 if part.folded else part.size(world)[1]

    # ------------------------------------------------------------------ time
    def update(self, frame_seconds: float) -> None:
        s = self.session
        if self.checking and self._check_shown:  # "Checking…" is on the screen: judged beside the frames from now on
            self.checking = self._check_shown = False
            s.begin_check(self.app.check_batches)
        if s.judging is not None and s.judging.step():
            s.end_check()
            self.verdict_box.unfold()
            self.toolbar.tool.cancel()
            if s.verdict is not None and s.level_bench is not None:  # the structure moved above the verdict's box
                self.picture.clear_of(self.verdict_box.size(self.layout.world)[1])
        before = s.sim
        s.tick(frame_seconds)
        if not self.picture.current:
            self.picture.take_model()
            self.selected = self.hover = None
        if s.sim is not before:
            self.graphs.recorder.clear()
        self.picture.follow()  # a body flying off, a frame falling: kept in view
        self.picture.clear_of_mechanism(self.verdict_box, self._verdict_room)
        if s.sim is not None and s.started and not s.paused:
            self.graphs.sample(s.sim)
            s.notice = self.picture.tame_magnify() or s.notice

    # ------------------------------------------------------------------ drawing
    def _fit(self, size: tuple[int, int]) -> None:
        """Lay the screen out and fit the view, when the window size changes."""
        self.top_height = self.title.fit(size[0])
        self.layout = Layout.of(size, self.top_height, scale=self.app.fonts.scale)
        if self.picture.camera is None:
            self.picture.camera = Camera(self.stage.bounds(), tuple(self.layout.world))
        else:  # the player's view, and the one kept for T, fitted to the new size
            self.picture.camera.resized(tuple(self.layout.world), self.picture.box(), self.picture.built_box())
            if self.session.verdict is not None and self.picture.camera.kept is not None:  # clear of the verdict's box again
                self.picture.clear_of(self._verdict_room(), keep=False)
        if self._size is None and kind_of(self.stage.kind).magnify_motion:
            self.session.notice = self.picture.magnify_small_motion() or self.session.notice
        self._size = (size, self.app.fonts.scale)

    def arrange(self, size: tuple[int, int]) -> None:
        """Every part's rectangle for this frame: the docked ones from the layout (the
        readout as tall as its lines), then the ones over the world, none over another."""
        self.app.hold_scale(size)
        if (size, self.app.fonts.scale) != self._size:
            self._fit(size)
        self.layout = Layout.of(size, self.top_height, self.readout.height(), self.app.fonts.scale)
        self.keys.lend()
        self.hover = self.picture.pick(self.mouse) if self.layout.world.collidepoint(self.mouse) else None
        arrange(self.parts.by_name, self.layout, self.picture.drawn_rect())

    def draw(self, surface: pygame.Surface) -> None:
        start = time.perf_counter()
        self.arrange(surface.get_size())
        self.parts.draw(surface)
        self.draw_ms = 1e3 * (time.perf_counter() - start)
        self.session.pacer.share_frame(self.draw_ms / 1e3)

    def check_shown(self) -> None:
        """The "Checking…" box is on the screen: the next frame judges."""
        self._check_shown = True
