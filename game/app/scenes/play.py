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

import math
import time
from dataclasses import replace

import numpy as np
import pygame

from game.app import draw, overlay
from game.app.app import App, Scene
from game.app.graphs import GraphPanel, Recorder
from game.app.keymap import HELP, binding_for
from game.app.marks import draw_marks
from game.app.palette import ALERT, REACTION, TENSION
from game.app.panels import badges, broken_words, describe_hit, hud_lines, net_force_lines, node_lines, status_text, verdict_texts
from game.app.render import StructurePainter
from game.app.session import PlaySession, data_place
from game.app.shapes import Hit, Shapes
from game.app.stage import Stage, load_stage
from game.app.tools import TOOLS, Toolbar, grid_step, snap
from game.app.view import View
from game.course import load_course, shipped_level
from game.files import BadInput, SaveError

KEYS_HELP = "F1 help · Space run/pause · R reset · Ctrl+Z undo · Esc back"
VALUES_UP_TO = 40  # members; more and the force values start hidden
VIEW_MARGIN = 150  # [px] room around the structure for supports, arrows and labels
PICK_PX = 9  # [px] how near the mouse must be to a member or plate to pick it
NODE_PICK_PX = 14  # [px] how near to a node: a click that near uses the node
MAGNIFY = (1, 10, 100, 1000)  # the deflection magnifier's steps (M)
ZOOM_STEP = 1.15  # view scale per notch of the mouse wheel
PAN_PX = 60  # [px] the arrow keys move the view by
PAN_KEYS = {pygame.K_LEFT: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}


class PlayScene(Scene):
    """integrator and dt as for `Simulation` (dt None: the engine's stable step).
    progress: the student's progress (game/progress.py) or None (nothing is saved)."""

    def __init__(self, app: App, stage: Stage, *, integrator: str = "rk4", dt: float | None = None, progress=None, bench=None):
        super().__init__(app)
        self.stage = stage
        self.session = PlaySession(stage, integrator=integrator, dt=dt, progress=progress, bench=bench, fixed=app.fixed_frame is not None)
        bench = self.session.bench
        self.toolbar = Toolbar(bench.tools if bench is not None else ("inspect", "drag", "nail", "bomb"))
        if bench is not None:
            self.toolbar.choose(bench.tools[1])  # the level's own tool in hand: mark, force, node…
        names = list(bench.sections()) if bench is not None else []
        self.section = names[0] if names else None
        self.show_hud = self.show_help = self.show_graph = self.brief_open = self.confirm_leave = self.folded = False
        self.labels: bool | None = None  # names on nodes and members; None: when the texts name them
        self.magnify = 1
        self.recorder = Recorder()
        self.graph = GraphPanel(self.recorder, app.fonts)
        self.against = False  # plot the later quantities against the first followed one
        self.checking = False  # a check asked for: the next frame says so, the one after judges
        self._check_shown = False
        self.draw_ms = 0.0
        self._size: tuple[int, int] | None = None
        self.section_rect: pygame.Rect | None = None  # the section button, while the member tool is in hand
        self.hover: Hit | None = None
        self.selected: Hit | None = None
        self.mouse = (0, 0)
        self.values_chosen: bool | None = None
        self._model = None
        self._take_model()

    # ------------------------------------------------------------------ the session's model
    def _take_model(self) -> None:
        """Painter and picking shapes for the session's model (after every build)."""
        s = self.session
        self._model = s.model
        self.painter = StructurePainter(self.app.fonts, self.stage, s.model, s.supports())
        self.shapes = Shapes(s.model) if s.model is not None else None
        self.members = {m["id"]: m for m in (s.data() or {}).get("members", [])}
        self.selected = self.hover = None
        self.recorder.clear()

    @property
    def editing(self) -> bool:
        """The player is building: the structure is shown and picked as built."""
        s = self.session
        return self.toolbar.tool.edits and (s.paused or not s.started) and s.verdict is None

    @property
    def shown_sim(self):
        """The simulation drawn: the static answer before the run starts, else the run."""
        s = self.session
        if not s.started and s.static is not None and s.static.sim is not None and not s.judged:
            return s.static.sim
        return s.sim

    def shown_positions(self) -> np.ndarray | None:
        """Where to draw the nodes (None: where they are): as built while editing or
        before the run, magnified deflections on M."""
        s = self.session
        if s.sim is None:
            return None
        pos0 = s.model.arrays.pos0[:, :2]
        if self.editing or not s.started:
            return pos0
        if self.magnify > 1:
            return pos0 + self.magnify * (s.sim.state.pos[:, :2] - pos0)
        return None

    def free_motion(self) -> np.ndarray | None:
        """A mechanism's free motion, animated (drawn as a ghost over the structure)."""
        s = self.session
        if s.free is None or s.started:
            return None
        amplitude = 0.04 * s.model.char_length * math.sin(2 * math.pi * 0.6 * s.clock)
        size = np.abs(s.free.mode[:, :2]).max() or 1.0
        return s.model.arrays.pos0[:, :2] + amplitude * s.free.mode[:, :2] / size

    def point_of(self, q: int) -> tuple[float, float]:
        """Where node q is drawn [px]."""
        shown = self.shown_positions()
        xy = shown[q] if shown is not None else self.session.sim.state.pos[q, :2]
        return self.view.point(float(xy[0]), float(xy[1]))

    # ------------------------------------------------------------------ what tools use
    def world(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.view.world(*pos)

    def reach(self) -> float:
        """How near [m] a click must be to a node to mean it."""
        return NODE_PICK_PX / self.view.scale

    def pick(self, pos: tuple[int, int], kinds: tuple[str, ...] = ("node", "member", "triangle")) -> Hit | None:
        if self.shapes is None or self.session.model is not self._model:
            return None
        self._sync_shapes()
        x, y = self.world(pos)
        if "node" in kinds:
            hit = self.shapes.pick(x, y, self.reach(), ("node",))
            if hit is not None:
                return hit
        rest = tuple(k for k in kinds if k != "node")
        return self.shapes.pick(x, y, PICK_PX / self.view.scale, rest) if rest else None

    def _sync_shapes(self) -> None:
        s = self.session.sim.state
        shown = self.shown_positions()
        self.shapes.update(s.pos if shown is None else shown, s.bar_on, s.beam_on, s.tri_on)

    def place(self, pos: tuple[int, int], shift: bool) -> tuple[float, float]:
        x, y = self.world(pos)
        if shift:
            return x, y
        xmin, ymin, xmax, ymax = self.stage.bounds()
        g = grid_step(max(xmax - xmin, ymax - ymin))
        return snap(x, g), snap(y, g)

    def force_reference(self) -> float:
        """The force a full-length drag makes [N]: the level's largest allowed force, or
        its largest load, or 10 kN."""
        bench = self.session.level_bench
        if bench is not None and bench.level.player.max_force:
            return bench.level.player.max_force
        return max(self.painter.load_ref, 10e3) if self.painter.load_ref > 0 else 10e3

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if self.confirm_leave:
                self.confirm_leave = False
                if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                    self.leave()
                return
            binding = binding_for(event.key, event.mod)
            if binding is not None:
                getattr(self, binding.action)(event.key) if binding.action in ("tool_key", "pan_key") else getattr(self, binding.action)()
        elif event.type == pygame.MOUSEWHEEL:
            self.zoom(ZOOM_STEP**event.y, self.mouse)
        elif event.type == pygame.MOUSEMOTION:
            if event.buttons[1]:  # the middle button held: pan
                self.view = replace(self.view, ox=self.view.ox + event.rel[0], oy=self.view.oy + event.rel[1])
            self.mouse = event.pos
            if self.session.hand is not None:
                self.session.hand_at = self.world(event.pos)
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
        self.confirm_leave = False
        if self.section_rect is not None and self.section_rect.collidepoint(pos):
            self.next_section()
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
        self.view = replace(self.view, ox=self.view.ox + PAN_PX * dx, oy=self.view.oy + PAN_PX * dy)

    def escape(self) -> None:
        """Close the top box, else cancel what the tool has half done, else ask before leaving."""
        if self.show_help:
            self.show_help = False
        elif self.brief_open:
            self.brief_open = False
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

    def step(self) -> None:
        self.session.paused = self.session.step_once = True

    def reset(self) -> None:
        self.session.reset()
        self.recorder.clear()

    def stable_reset(self) -> None:
        if self.session.problem and self.session.dt is not None:
            self.session.dt = None  # the step was the player's choice: back to the engine's stable one
            self.reset()

    def reset_level(self) -> None:
        self.session.reset_level()

    def slower(self) -> None:
        self.session.pacer.slower()

    def faster(self) -> None:
        self.session.pacer.faster()

    def undo(self) -> None:
        self.session.undo()

    def redo(self) -> None:
        self.session.redo()

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
        if s.verdict is None or not s.verdict.passed:
            s.notice = "Pass this level first (C checks it); then N opens the next one."
            return
        try:
            following = load_course().next_after(s.level_bench.level.id)
            stage = load_stage(shipped_level(following)) if following else None
        except (BadInput, ValueError) as exc:
            s.notice = f"The next level cannot be opened: {str(exc).splitlines()[0]}"
            return
        if stage is None:
            s.notice = "This is the last level of the course: Esc goes back to the levels."
            return
        s.save(force=True)
        if s.progress is not None:
            s.progress.opened(following)
        self.app.replace(PlayScene(self.app, stage, integrator=s.integrator, progress=s.progress))

    def magnify_next(self) -> None:
        self.magnify = MAGNIFY[(MAGNIFY.index(self.magnify) + 1) % len(MAGNIFY)]

    def toggle_values(self) -> None:
        self.values_chosen = not self.show_values

    def toggle_labels(self) -> None:
        self.labels = not self.show_labels

    def toggle_brief(self) -> None:
        self.brief_open = not self.brief_open

    def toggle_graph(self) -> None:
        self.show_graph = not self.show_graph

    def toggle_against(self) -> None:
        self.against = not self.against
        self._show_graph()

    def toggle_hud(self) -> None:
        self.show_hud = not self.show_hud

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def save_design(self) -> None:
        self.session.save_design()

    def screenshot(self) -> None:
        try:
            path = data_place("screenshots") / time.strftime("equilibria-%Y%m%d-%H%M%S.png")
            draw.save_png(self.app.screen, path)
            self.session.notice = f"Screenshot saved to {path}"
        except (BadInput, pygame.error, OSError) as exc:
            self.session.notice = f"Could not save the screenshot: {exc}"

    def zoom(self, factor: float, about: tuple[int, int]) -> None:
        """Zoom the view by `factor`, keeping the world point under `about` in place."""
        v = self.view
        least, most = self._zoom_limits()
        scale = min(max(v.scale * factor, least), most)
        f = scale / v.scale
        self.view = View(scale, about[0] - (about[0] - v.ox) * f, about[1] - (about[1] - v.oy) * f)

    def _zoom_limits(self) -> tuple[float, float]:
        """Least and most px/m: the whole stage at least a tenth of the world's width,
        a millimetre at most a tenth of it."""
        xmin, ymin, xmax, ymax = self.stage.bounds()
        span = max(xmax - xmin, ymax - ymin, 1.0)
        if self.session.model is not None:
            span = max(span, self.session.model.char_length)
        width = self.layout.world.width
        return 0.1 * width / span, 0.1 * width / 1e-3

    def fit_view(self) -> None:
        """Fit the view to the structure where it is now (and the stage around it)."""
        sim = self.session.sim
        if sim is None:
            self.view = View.fit(self.stage.bounds(), tuple(self.layout.world), VIEW_MARGIN)
            return
        pos = sim.state.pos[:, :2]
        self.view = View.fit((*pos.min(axis=0), *pos.max(axis=0)), tuple(self.layout.world), VIEW_MARGIN)

    def next_section(self) -> None:
        """The next of the sections on offer for new members."""
        bench = self.session.bench
        names = list(bench.sections()) if bench is not None else []
        if names:
            self.section = names[(names.index(self.section) + 1) % len(names)] if self.section in names else names[0]
            section = bench.sections()[self.section]
            self.session.notice = f"New members: {self.section} ({section.kind}, {section.material}, A = {section.A * 1e4:.3g} cm²)"

    # ------------------------------------------------------------------ graphs
    def follow(self) -> None:
        """Add the followed node's or member's main quantity to the graph."""
        s, hit = self.session, self.selected
        if s.sim is None:
            return
        if hit is None:  # nothing followed: the energies, kinetic and strain
            for spec in ("energy.kinetic", "energy.strain"):
                self.recorder.add(spec)
            self._show_graph()
            self.show_graph = True
            s.notice = "Graphing the kinetic and strain energy (inspect a node or member and press A to graph it)"
            return
        if hit.kind == "node":
            q = s.model.node_index(hit.id)
            spec = f"reaction.{hit.id}.fy" if s.model.arrays.fixed[q, 1] else f"node.{hit.id}.y"
        elif hit.kind == "member":
            spec = f"member.{hit.id}.axial"
        else:
            return
        self.recorder.add(spec)
        self._show_graph()
        self.show_graph = True
        s.notice = f"Graphing {self.recorder.label(spec)}" + ("" if self.against else " (X: plot against the first)")

    def _show_graph(self) -> None:
        """Up to three quantities against time, or the later ones against the first.
        Only these stay recorded (the first followed and the last three): the others'
        buffers are freed."""
        followed = [s for s in self.recorder.specs if s != "time"]
        followed = list(dict.fromkeys([*followed[:1], *followed[-3:]]))
        self.recorder.keep(followed)
        if self.against and len(followed) > 1:
            self.graph.show(followed[1:][-3:], x=followed[0])
        else:
            self.graph.show(followed[-3:])

    def export_graph(self) -> None:
        if len(self.recorder.specs) < 2:
            self.session.notice = "Nothing is graphed yet: inspect a node or member and press A."
            return
        try:
            stem = data_place("graphs") / time.strftime("graph-%Y%m%d-%H%M%S")
            self.recorder.to_csv(stem.with_suffix(".csv"))
            self.graph.save_png(stem.with_suffix(".png"))
            self.session.notice = f"Saved {stem}.csv and .png"
        except (SaveError, OSError, pygame.error) as exc:
            self.session.notice = f"Could not export the graph: {exc}"

    # ------------------------------------------------------------------ time
    def update(self, frame_seconds: float) -> None:
        s = self.session
        if self.checking and self._check_shown:
            self.checking = self._check_shown = False
            s.check()
            self.folded = False
        before = s.sim
        s.tick(frame_seconds)
        if s.model is not self._model:
            self._take_model()
        elif s.sim is not before:
            self.recorder.clear()
        if len(self.recorder.specs) > 1 and s.sim is not None and s.started and not s.paused:
            self.recorder.sample(s.sim)

    # ------------------------------------------------------------------ drawing
    @property
    def show_values(self) -> bool:
        if self.values_chosen is not None:
            return self.values_chosen
        return self.session.model is not None and len(self.session.model.member_ids) <= VALUES_UP_TO

    @property
    def show_labels(self) -> bool:
        """Names on nodes and members: when the level's texts name them, or on L."""
        if self.labels is not None:
            return self.labels
        return self.stage.names_parts

    def _fit(self, size: tuple[int, int]) -> None:
        """Lay the screen out and fit the view, when the window size changes."""
        fonts = self.app.fonts
        self.brief_lines = overlay.title_lines(fonts, self.stage.brief, size[0])
        self.layout = overlay.Layout.of(size, overlay.top_height(fonts, self.brief_lines) + 44)
        self.bar_rect = self.toolbar.layout(fonts, (overlay.PAD, self.layout.top.bottom - 40))
        self.view = View.fit(self.stage.bounds(), tuple(self.layout.world), VIEW_MARGIN)
        self._size = size

    def draw(self, surface: pygame.Surface) -> None:
        start = time.perf_counter()
        if surface.get_size() != self._size:
            self._fit(surface.get_size())
        s, fonts, layout = self.session, self.app.fonts, self.layout
        shown, sim = self.shown_positions(), self.shown_sim
        self.hover = self.pick(self.mouse) if s.sim is not None and layout.world.collidepoint(self.mouse) else None
        surface.set_clip(layout.world)
        draw_marks(self, surface, under=True)
        self.painter.draw(surface, self.view, sim, values=self.show_values, forces=s.revealed, pos=shown)
        draw_marks(self, surface, under=False)
        if s.sim is not None:
            self.toolbar.tool.marks(self, surface)
        surface.set_clip(None)
        overlay.title_bar(surface, fonts, layout.top, self.stage.title, self.stage.kind, self.brief_lines)
        self.toolbar.draw(surface, fonts)
        section = self.section if self.toolbar.current == "member" else None
        self.section_rect = overlay.tool_line(surface, fonts, self.bar_rect, TOOLS[self.toolbar.current].tip, section)
        overlay.legend(
            surface,
            fonts,
            layout.legend,
            widest=self.painter.member_scale.value if sim and s.revealed else None,
            to_come=self.painter.loads_to_come,
            plates=s.model is not None and len(s.model.triangle_ids) > 0,
            breakable=sim is not None and sim.breakable,
            supports={kind for _, kind, _ in self.painter.supports},
        )
        self._readout(surface, sim)
        overlay.status_line(surface, fonts, layout.status, s.notice or status_text(self), KEYS_HELP)
        overlay.badges(surface, fonts, layout.world.topright, badges(self))
        if self.show_graph:
            self.graph.draw(surface, self._graph_rect())
        if self.show_hud:
            overlay.hud(surface, fonts, (layout.world.left + 10, layout.world.top + 10), hud_lines(self))
        if self.hover is not None and (self.toolbar.current == "inspect" or s.paused):
            member = self.members.get(self.hover.id) if self.hover.kind == "member" else None
            lines = describe_hit(sim, self.hover, revealed=s.revealed, member=member, broken_words=broken_words(sim, self.hover))
            if lines:
                overlay.hud(surface, fonts, (self.mouse[0] + 16, self.mouse[1] + 16), lines, within=layout.world)
        self._boxes(surface)
        self.draw_ms = 1e3 * (time.perf_counter() - start)
        s.pacer.share_frame(self.draw_ms / 1e3)

    def _boxes(self, surface: pygame.Surface) -> None:
        """The one box on top: checking, a blow-up, the verdict, a mechanism, the brief,
        the help, or the question before leaving; each placed where it hides the least
        of the structure."""
        s, fonts, world = self.session, self.app.fonts, self.layout.world
        avoid = self.drawn_rect()
        if self.checking:
            overlay.message(surface, fonts, world, "Checking your answer…", "The engine is running your structure under the level's loads.", "", avoid=avoid)
            self._check_shown = True
        elif s.problem:
            foot = "R: reset to the structure as built" + ("   D: reset with the stable step" if s.dt is not None else "")
            overlay.message(surface, fonts, world, "The simulation became unstable and was paused", s.problem, foot, avoid=avoid)
        elif s.verdict is not None and s.level_bench is not None:
            title, text, foot, passed = verdict_texts(s)
            colour = REACTION if passed else ALERT
            if self.folded:
                overlay.folded(surface, fonts, world, f"{title}   ·   T: try again" + ("   ·   N: next level" if passed else ""), colour)
            else:
                overlay.message(surface, fonts, world, title, text, foot, colour=colour, avoid=avoid)
        elif s.free is not None and not s.started:
            title = "This is a mechanism: it can move without any member stretching"
            text = f"The free motion, shown dashed: {s.free_words}"
            overlay.message(surface, fonts, world, title, text, "It cannot stand as it is: add members or supports.", avoid=avoid)
        if self.brief_open:
            overlay.text_box(surface, fonts, world, self.stage.title, self.stage.brief, "B or Esc: fold the brief")
        if self.show_help:
            overlay.help_box(surface, fonts, world, HELP, [f"{TOOLS[n].label}: {TOOLS[n].tip}" for n in self.toolbar.names])
        if self.confirm_leave:
            what = "the game" if len(self.app.scenes) == 1 else "this level" if s.level_bench is not None else "the sandbox"
            text, foot = "Your work is kept: it is here when you come back.", "Enter or Esc: leave   ·   any other key: stay"
            overlay.message(surface, fonts, world, f"Leave {what}?", text, foot, colour=TENSION)

    def drawn_rect(self) -> pygame.Rect | None:
        """The structure's box on the screen [px] (None: nothing built)."""
        s = self.session
        if s.sim is None:
            return None
        shown = self.shown_positions()
        pts = self.view.points(shown if shown is not None else s.sim.state.pos[:, :2])
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        return pygame.Rect(int(x0), int(y0), int(x1 - x0) + 1, int(y1 - y0) + 1).inflate(40, 40)

    def _graph_rect(self) -> pygame.Rect:
        w = self.layout.world
        return pygame.Rect(w.left + 10, w.top + 10, min(520, w.width - 20), 240)

    def _readout(self, surface: pygame.Surface, sim) -> None:
        """Net force and moment on the whole structure (loads, weight, reactions, hand
        and ground): zero when it is in equilibrium; and the followed node."""
        if sim is None:
            return
        lines = net_force_lines(sim, static=sim is not self.session.sim)
        if self.selected is not None and self.selected.kind == "node" and self.selected.id in self.session.model.node_ids:
            lines += node_lines(sim, self.selected.id)
        legend = self.layout.legend
        size = self.app.fonts.small.get_linesize() + 1
        top = legend.bottom - overlay.PAD - size * len(lines)
        overlay.rule(surface, legend, top - 6)
        draw.text_block(surface, self.app.fonts.small, lines, (legend.left + overlay.PAD, top), overlay.INK, 1)
