"""The play scene: a level or the sandbox, built with tools and run in real time.

The player's work lives in a workbench (game/workbench.py: the moves of an attempt at a
level, or a sandbox design), with undo and redo of every edit. Each edit builds the
engine model again and puts the run back to its start; tools that act on a running
structure (drag through a spring, nails, the bomb) change the simulation only, and R
undoes them.

Each frame advances the simulation by the frame's share of simulated time in ONE call to
`Simulation.advance` (one compiled batch of many sub-steps); `Pacer` decides how many and
slows the run down visibly when the model is too heavy for real time. An `Unstable` run
is rolled back by the engine; the scene pauses and shows why. Ground contact and the
hand's spring are tethers the engine applies inside every sub-step; pymunk finds them
(game/app/shapes.py), and hit-tests the mouse.

A level with a goal is checked by its rules (C); the verdict box says why it passed or
failed, the run shows what happened, T tries again with every move kept.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame

from engine import ModelError, Simulation, Unstable, build_model
from engine.linear import Mechanism, load_vector, mechanism
from game.app import draw, overlay
from game.app.app import App, Scene
from game.app.graphs import GraphPanel, Recorder
from game.app.pacing import FRAME, SPEEDS, Pacer
from game.app.palette import ALERT, BACKGROUND, INK, MARK, MUTED, REACTION, TENSION, mix
from game.app.render import StructurePainter
from game.app.shapes import Ground, Hit, Shapes
from game.app.stage import Stage
from game.app.tools import TOOLS, Toolbar, dragged_force, grid_step, snap
from game.app.view import View
from game.files import BadInput, SaveError, write_json_atomic
from game.progress import data_folder
from game.rules import ALLOWED_MOVES, Verdict
from game.rules.motion import describe_motion
from game.solution import load_solution
from game.workbench import SUPPORTS, Bench, LevelBench, Refused, SandboxBench

SLOWER_KEYS = (pygame.K_LEFTBRACKET, pygame.K_MINUS, pygame.K_KP_MINUS)
FASTER_KEYS = (pygame.K_RIGHTBRACKET, pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS)
KEYS_HELP = "F1 help · Space run/pause · R reset · Ctrl+Z undo · Esc back"
VALUES_UP_TO = 40  # members; more and the force values start hidden
VIEW_MARGIN = 150  # [px] room around the structure for supports, arrows and labels
PICK_PX = 9  # [px] how near the mouse must be to a node or member to pick it
MECHANISM_UP_TO = 400  # nodes; larger models are not searched for a mechanism while editing
MAGNIFY = (1, 10, 100, 1000)  # the deflection magnifier's steps (M)
HAND_HZ = 3.0  # [Hz] how quickly a structure follows the hand (see _hand_spring)
CONTACT_MU = 0.6  # ground friction coefficient (soil on steel, roughly)
SAVE_EVERY = 3.0  # [s] of wall time between saves of work in progress
ZOOM_STEP = 1.15  # view scale per notch of the mouse wheel
PAN_PX = 60  # [px] the arrow keys move the view by
PAN_KEYS = {pygame.K_LEFT: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
ZONE = mix(BACKGROUND, TENSION, 0.09)  # the build zone's tint
SUPPORT_CYCLE = ("pin", "roller", "roller_x", "fixed", None)
HELP = [
    ("Space", "run or pause"),
    (".", "one frame forward"),
    ("R", "back to the start (undoes drags, nails and bombs)"),
    ("D", "after a blow-up at a step of your choosing (--dt): back to the start with the stable step"),
    ("[ ]", "slower, faster (slow motion down to ×1/16)"),
    ("1 … 9, 0", "choose a tool (the bar at the top)"),
    ("Tab", "next section for new members"),
    ("Ctrl+Z, Ctrl+Y", "undo, redo"),
    ("C", "check your answer (levels with a goal)"),
    ("T", "try again after a check"),
    ("Wheel, middle drag", "zoom, pan (also the arrow keys); F fits the view to the structure"),
    ("M", "magnify the deflections ×10, ×100, ×1000"),
    ("V", "force values on members"),
    ("G", "graph panel; A graphs what you inspect (or the energies); X plots against the first; E exports CSV and PNG"),
    ("Ctrl+S", "save the sandbox design"),
    ("F12", "screenshot"),
    ("H", "frame rate and timing (HUD)"),
    ("F1", "this help"),
    ("Esc", "close a box, cancel a tool, or leave"),
]


def factor(x: float) -> str:
    """×1/4 for the chosen speeds below one, ×0.37 for a measured rate."""
    for s in SPEEDS:
        if s < 1 and abs(x - s) < 1e-9:
            return f"×1/{round(1 / s)}"
    return f"×{x:.2g}"


def data_place(name: str) -> Path:
    """A folder in the user's data folder (designs, screenshots, graphs), made if need be."""
    folder = data_folder() / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def own_design_file(stage: Stage) -> Path | None:
    """The file a sandbox design is kept in: the one it was read from when that is one
    of the player's designs (in the data folder's designs/), else None (a new one is
    made at the first save: a file elsewhere is the player's, never written over)."""
    if stage.kind != "sandbox" or stage.source is None:
        return None
    folder = data_folder() / "designs"
    try:
        return stage.source if stage.source.resolve().parent == folder.resolve() else None
    except OSError:
        return None


def new_design_file(stage: Stage) -> Path:
    """A new file in designs/ for a design not kept anywhere yet, named after where it
    came from and when: never one that another design (or another copy of the game)
    already has."""
    stem = stage.level.id if stage.level is not None and stage.level.id != "sandbox" else "sandbox"
    base = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    folder = data_place("designs")
    path, n = folder / f"{base}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{base}-{n}.json"
    return path


def bench_for(stage: Stage, progress=None) -> tuple[Bench | None, str]:
    """The workbench of a stage, with the player's saved work on its level restored
    (and a line saying what could not be restored, or "")."""
    if stage.kind == "sandbox":
        return SandboxBench(stage.level), ""
    if stage.level is None or stage.kind not in ALLOWED_MOVES:
        return None, ""
    bench = LevelBench(stage.level)
    if progress is not None:
        bench.attempt.tries = progress.tries(stage.level.id)  # the checks made so far count on, whenever they were made
    saved = progress.work(stage.level.id) if progress is not None else None
    if not saved:
        return bench, ""
    try:
        solution = load_solution(saved)
    except ValueError as exc:
        return bench, f"Your saved work on this level could not be read ({str(exc).splitlines()[0]}); you start afresh."
    if solution.draw is not None and stage.level.load_choices():
        bench.attempt.draw = solution.draw
    kept = bench.restore(list(solution.moves))
    if kept < len(solution.moves):
        return bench, f"Your first {kept} moves on this level are restored; the {len(solution.moves) - kept} after them could not be built and are left out."
    return bench, ""


class PlayScene(Scene):
    """integrator and dt as for `Simulation` (dt None: the engine's stable step).
    progress: the student's progress (game/progress.py) or None (nothing is saved)."""

    def __init__(self, app: App, stage: Stage, *, integrator: str = "rk4", dt: float | None = None, progress=None, bench: Bench | None = None):
        super().__init__(app)
        self.stage = stage
        self.progress = progress
        self.integrator = integrator
        self.dt = dt
        self.notice = ""  # a line for the player (a refused edit, a save), until the next action
        if bench is None:
            bench, self.notice = bench_for(stage, progress)
        self.bench = bench
        self.toolbar = Toolbar(bench.tools if bench is not None else ("inspect", "drag", "nail", "bomb"))
        if bench is not None:
            self.toolbar.choose(bench.tools[1])  # the level's own tool in hand: mark, force, node…
        names = list(bench.sections()) if bench is not None else []
        self.section = names[0] if names else None
        self.ground = Ground(stage.ground)
        self.show_hud = False
        self.show_help = False
        self.show_graph = False
        self.magnify = 1
        self.pacer = Pacer(1.0, fixed=app.fixed_frame is not None)
        self.recorder = Recorder()
        self.graph = GraphPanel(self.recorder, app.fonts)
        self.against = False  # plot the later quantities against the first followed one
        self.verdict: Verdict | None = None
        self.checking = False  # a check asked for: the next frame says so, the one after judges
        self._check_shown = False
        self.problem: str | None = None  # why the run stopped (Unstable), shown until reset
        self.sim_ms = 0.0
        self._step = False
        self._size: tuple[int, int] | None = None
        self._built = -1
        self._saved = bench.revision if bench is not None else -1  # as found: nothing to save until an edit
        self._save_clock = -SAVE_EVERY
        self._unsaved_warned = False
        self.design_file = own_design_file(stage)  # a sandbox design's own file (made at its first save)
        self._clock = 0.0  # [s] wall time in this scene, for animations
        self.section_rect: pygame.Rect | None = None  # the section button, while the member tool is in hand
        self.pending: list[str] = []  # nodes clicked so far for a member or a plate
        self.hover: Hit | None = None
        self.selected: Hit | None = None
        self.hand: int | None = None  # node held by the drag tool
        self.hand_at = (0.0, 0.0)  # [m] where the hand is
        self.force_from: str | None = None  # node a force is being dragged out of
        self.mouse = (0, 0)
        self.model = None
        self.sim: Simulation | None = None
        self.free: Mechanism | None = None
        self.free_words = ""
        self.values_chosen: bool | None = None
        self._build()

    # ------------------------------------------------------------------ model
    @property
    def revealed(self) -> bool:
        """Whether member forces are shown: always, except in a zero-force puzzle
        before its check (the forces would give the answer away)."""
        return self.stage.kind != "zero_force" or self.verdict is not None

    def _data(self) -> dict | None:
        if self.bench is None:
            return self.stage.model_data()
        return self.bench.structure()

    def _build(self) -> None:
        """Build the model of the work as it stands and put the run back to its start."""
        self._built = self.bench.revision if self.bench is not None else 0
        data = self._data()
        try:
            self.model = build_model(data) if data is not None else None
        except ModelError as exc:
            self.model, self.notice = None, f"Cannot build this structure: {exc}"
        supports = [(s["node"], frozenset(s["fix"])) for s in (data or {}).get("supports", [])]
        self.painter = StructurePainter(self.app.fonts, self.stage, self.model, supports)
        self.shapes = Shapes(self.model) if self.model is not None else None
        self.free, self.free_words = None, ""
        if self.model is not None and self.stage.kind not in ("balance", "demo") and self.model.n_nodes <= MECHANISM_UP_TO:
            self.free = mechanism(self.model)
            if self.free is not None:
                self.free_words = describe_motion(self.model, self.free)
        self.selected = self.hover = None
        self.pending = [p for p in self.pending if self.model is not None and p in self.model.node_ids]
        self.reset()

    def reset(self) -> None:
        """Back to the structure as built: paused where the player has work to do
        (Space runs it), running in demos and after a check. Drags, nails and bombs
        are undone."""
        self.sim = None
        if self.model is not None:
            self.sim = Simulation(self.model, self.integrator, dt=self.dt)
            self.pacer.dt = self.sim.dt
        self.pacer.restart()
        self.paused = self.bench is not None and self.verdict is None  # the player's move first; a check's run plays at once
        self.problem = None
        self.hand = None
        self.recorder.clear()

    @property
    def started(self) -> bool:
        return self.sim is not None and self.sim.time > 0

    # ------------------------------------------------------------------ editing
    def _edit(self, action, *args) -> object:
        """Make an edit of the work; a refusal goes to the notice line."""
        if self.verdict is not None:
            self.notice = "Press T to try again before you change anything."
            return None
        try:
            out = action(*args)
        except Refused as exc:
            self.notice = str(exc)
            return None
        self.notice = ""
        return out

    def undo(self) -> None:
        if self.bench is not None and self.verdict is None:
            self.notice = "" if self.bench.undo() else "Nothing to undo."

    def redo(self) -> None:
        if self.bench is not None and self.verdict is None:
            self.notice = "" if self.bench.redo() else "Nothing to redo."

    def check(self) -> None:
        """Judge the work by the level's rules; show the verdict and run what it ran."""
        if not isinstance(self.bench, LevelBench):
            self.notice = "There is nothing to check here: this is free play."
            return
        if self.verdict is not None:
            return
        try:
            verdict = self.bench.check()
        except ValueError as exc:
            self.notice = str(exc).splitlines()[0]
            return
        self.verdict = verdict
        if self.progress is not None:
            a = self.bench.attempt
            self.progress.record_check(self.bench.level.id, verdict.passed, a.marks, a.tries)
            self._save(verdict=True)  # every verdict at once: a win survives an Esc or a kill straight after
        self.reset()

    def try_again(self) -> None:
        if isinstance(self.bench, LevelBench) and self.verdict is not None:
            self.bench.attempt.try_again()
            self.verdict = None
            self.reset()

    def _save(self, *, force: bool = False, verdict: bool = False) -> bool:
        """Keep the work: a level's moves (and, after a `verdict`, the record of the check)
        in the progress file, a sandbox design in its own file (design_file). Written
        atomically when the work changed, at most every SAVE_EVERY seconds unless
        `force`d. Whether all is saved; a save that fails says so and is tried again."""
        bench = self.bench
        if bench is None or (self.progress is None and isinstance(bench, LevelBench)):
            return True
        if bench.revision == self._saved and not verdict:
            return True
        if not (force or verdict) and self._clock - self._save_clock < SAVE_EVERY:
            return False
        self._save_clock = self._clock
        try:
            if isinstance(bench, LevelBench):
                self.progress.save_work(bench.level.id, bench.attempt.solution().model_dump(mode="json", exclude_none=True))
                self.progress.save()
            else:
                self.design_file = self.design_file or new_design_file(self.stage)
                write_json_atomic(self.design_file, bench.design())
        except (BadInput, OSError) as exc:
            self.notice = f"Your work is not saved: {exc}"
            return False
        self._saved = bench.revision
        return True

    def save_design(self) -> None:
        if not isinstance(self.bench, SandboxBench):
            self.notice = "Ctrl+S saves sandbox designs; your work on a level is kept as you go."
            return
        self._saved = -1  # write it now, changed or not
        if self._save(force=True):
            self.notice = f"Saved to {self.design_file} (equilibria sandbox {self.design_file} opens it)."

    def screenshot(self) -> None:
        try:
            path = data_place("screenshots") / time.strftime("equilibria-%Y%m%d-%H%M%S.png")
            draw.save_png(self.app.screen, path)
            self.notice = f"Screenshot saved to {path}"
        except (BadInput, pygame.error, OSError) as exc:
            self.notice = f"Could not save the screenshot: {exc}"

    def leave(self) -> None:
        """Back to the menu, with the work saved; if it cannot be, say so and stay: Esc
        again leaves all the same."""
        if self._save(force=True) or self._unsaved_warned:
            self.app.pop()
            return
        self._unsaved_warned = True
        self.notice += " Esc again leaves without saving it."

    def closing(self) -> None:
        self._save(force=True)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEWHEEL:
            self.zoom(ZOOM_STEP**event.y, self.mouse)
        elif event.type == pygame.MOUSEMOTION:
            if event.buttons[1]:  # the middle button held: pan
                self.view = replace(self.view, ox=self.view.ox + event.rel[0], oy=self.view.oy + event.rel[1])
            self.mouse = event.pos
            if self.hand is not None:
                self.hand_at = self.view.world(*event.pos)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self._press(event.pos, shift=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
            elif event.button == 3:
                self.pending, self.force_from = [], None
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.mouse = event.pos
            self._release(event.pos, fine=bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))

    def _key(self, event: pygame.event.Event) -> None:
        key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
        if ctrl and key == pygame.K_z:
            self.redo() if event.mod & pygame.KMOD_SHIFT else self.undo()
        elif ctrl and key == pygame.K_y:
            self.redo()
        elif ctrl and key == pygame.K_s:
            self.save_design()
        elif key == pygame.K_F12:
            self.screenshot()
        elif key == pygame.K_F1 or (key == pygame.K_SLASH and event.mod & pygame.KMOD_SHIFT):
            self.show_help = not self.show_help
        elif key == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
            elif self.pending or self.force_from:
                self.pending, self.force_from = [], None
            else:
                self.leave()
        elif key == pygame.K_SPACE:
            self.paused = not self.paused
            self.pacer.restart()
        elif key == pygame.K_PERIOD:
            self.paused = self._step = True
        elif key == pygame.K_r:
            self.reset()
        elif key == pygame.K_d and self.problem and self.dt is not None:
            self.dt = None  # the step was the player's choice: back to the engine's stable one
            self.reset()
        elif key == pygame.K_c and self.verdict is None and isinstance(self.bench, LevelBench):
            self.checking = True  # drawn first ("Checking…"), judged on the next frame
        elif key == pygame.K_c:
            self.check()
        elif key == pygame.K_t:
            self.try_again()
        elif key in SLOWER_KEYS:
            self.pacer.slower()
        elif key in FASTER_KEYS:
            self.pacer.faster()
        elif key == pygame.K_h:
            self.show_hud = not self.show_hud
        elif key == pygame.K_v:
            self.values_chosen = not self.show_values
        elif key == pygame.K_m:
            self.magnify = MAGNIFY[(MAGNIFY.index(self.magnify) + 1) % len(MAGNIFY)]
        elif key == pygame.K_g:
            self.show_graph = not self.show_graph
        elif key == pygame.K_a:
            self.follow()
        elif key == pygame.K_e:
            self.export_graph()
        elif key == pygame.K_f:
            self.fit_view()
        elif key in PAN_KEYS:
            dx, dy = PAN_KEYS[key]
            self.view = replace(self.view, ox=self.view.ox + PAN_PX * dx, oy=self.view.oy + PAN_PX * dy)
        elif key == pygame.K_x:
            self.against = not self.against
            self._show_graph()
        elif key == pygame.K_TAB:
            self.next_section()
        elif pygame.K_1 <= key <= pygame.K_9 or key == pygame.K_0:
            self.toolbar.key(10 if key == pygame.K_0 else key - pygame.K_0)
            self.pending, self.force_from = [], None

    def zoom(self, factor: float, about: tuple[int, int]) -> None:
        """Zoom the view by `factor`, keeping the world point under `about` in place."""
        v = self.view
        scale = min(max(v.scale * factor, 1e-3), 1e6)
        f = scale / v.scale
        self.view = View(scale, about[0] - (about[0] - v.ox) * f, about[1] - (about[1] - v.oy) * f)

    def fit_view(self) -> None:
        """Fit the view to the structure where it is now (and the stage around it)."""
        if self.sim is None:
            self.view = View.fit(self.stage.bounds(), tuple(self.layout.world), VIEW_MARGIN)
            return
        pos = self.sim.state.pos[:, :2]
        self.view = View.fit((*pos.min(axis=0), *pos.max(axis=0)), tuple(self.layout.world), VIEW_MARGIN)

    def next_section(self) -> None:
        """The next of the sections on offer for new members."""
        names = list(self.bench.sections()) if self.bench is not None else []
        if names:
            self.section = names[(names.index(self.section) + 1) % len(names)] if self.section in names else names[0]
            section = self.bench.sections()[self.section]
            self.notice = f"New members: {self.section} ({section.kind}, {section.material}, A = {section.A * 1e4:.3g} cm²)"

    def _world(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.view.world(*pos)

    def _pick(self, pos: tuple[int, int], kinds: tuple[str, ...] = ("node", "member", "triangle")) -> Hit | None:
        if self.shapes is None:
            return None
        x, y = self._world(pos)
        hit = self.shapes.pick(x, y, PICK_PX / self.view.scale)
        return hit if hit is not None and hit.kind in kinds else None

    def _grid(self) -> float:
        xmin, ymin, xmax, ymax = self.stage.bounds()
        return grid_step(max(xmax - xmin, ymax - ymin))

    def _place(self, pos: tuple[int, int], shift: bool) -> tuple[float, float]:
        x, y = self._world(pos)
        if shift:
            return x, y
        g = self._grid()
        return snap(x, g), snap(y, g)

    def _press(self, pos: tuple[int, int], *, shift: bool) -> None:
        if self.section_rect is not None and self.section_rect.collidepoint(pos):
            self.next_section()
            return
        tool = self.toolbar.at(pos)
        if tool is not None:
            self.toolbar.choose(tool)
            self.pending, self.force_from = [], None
            return
        if not self.layout.world.collidepoint(pos) or self.show_help:
            return
        name = self.toolbar.current
        hit = self._pick(pos)
        bench = self.bench
        if name == "inspect":
            self.selected = hit
        elif name == "node":
            self._edit(bench.add_node, *self._place(pos, shift))
        elif name in ("member", "triangle"):
            node = hit.id if hit is not None and hit.kind == "node" else None
            if node is None and name == "member" and "node" in bench.tools and self.pending:
                node = self._edit(bench.add_node, *self._place(pos, shift))
            if node is None or node in self.pending:
                return
            self.pending.append(node)
            if name == "member" and len(self.pending) == 2:
                if self.section is None:
                    self.notice, self.pending = "This level offers no members to build.", []
                    return
                self._edit(bench.add_member, *self.pending, self.section)
                self.pending = [self.pending[1]]  # go on from the last node: a chain
            elif name == "triangle" and len(self.pending) == 3:
                self._edit(bench.add_triangle, *self.pending)
                self.pending = []
        elif name == "support" and hit is not None and hit.kind == "node":
            self._cycle_support(hit.id)
        elif name == "force" and hit is not None and hit.kind == "node":
            self.force_from = hit.id
        elif name == "erase" and hit is not None:
            self._edit(bench.erase, hit.kind, hit.id)
        elif name in ("mark", "remove") and hit is not None and hit.kind == "member":
            self._edit(bench.toggle_member, hit.id)
        elif name == "drag" and hit is not None and hit.kind == "node" and self.sim is not None:
            self.hand, self.hand_at = hit.index, self._world(pos)
            self.paused = False
            self.pacer.restart()
        elif name == "nail" and hit is not None and hit.kind == "node" and self.sim is not None:
            self._nail(hit.index)
        elif name == "bomb" and hit is not None and hit.kind in ("member", "triangle") and self.sim is not None:
            (self.sim.remove_member if hit.kind == "member" else self.sim.remove_triangle)(hit.id)
            self.sim.refresh()
            self.notice = f"Blew up {hit.kind} {hit.id}; R puts it back."

    def _release(self, pos: tuple[int, int], *, fine: bool) -> None:
        self.hand = None
        if self.force_from is None:
            return
        node, self.force_from = self.force_from, None
        fx, fy = self._dragged(node, pos, fine)
        if fx or fy:
            self._edit(self.bench.add_force, node, fx, fy)

    def _dragged(self, node: str, pos: tuple[int, int], fine: bool) -> tuple[float, float]:
        x, y = self.view.point(*self.bench.position(node))
        return dragged_force(pos[0] - x, pos[1] - y, self._force_reference(), fine=fine)

    def _force_reference(self) -> float:
        """The force a full-length drag makes [N]: the level's largest allowed force, or
        its largest load, or 10 kN."""
        if isinstance(self.bench, LevelBench) and self.bench.level.player.max_force:
            return self.bench.level.player.max_force
        return max(self.painter.load_ref, 10e3) if self.painter.load_ref > 0 else 10e3

    def _cycle_support(self, node: str) -> None:
        data = self._data() or {}
        now = next((tuple(s["fix"]) for s in data.get("supports", []) if s["node"] == node), None)
        if isinstance(self.bench, LevelBench):
            offered = [tuple(t) for t in self.bench.level.player.supports or []]
            own = any(getattr(m, "node", None) == node and m.type == "add_support" for m in self.bench.moves)
            if now is not None and not own:
                self.notice = f"Node {node} has the level's own support."
                return
            cycle: list = [*offered, None]
        else:
            cycle = [SUPPORTS[k] if k else None for k in SUPPORT_CYCLE]
        at = next((k for k, c in enumerate(cycle) if c is not None and now is not None and set(c) == set(now)), -1)
        self._edit(self.bench.set_support, node, cycle[(at + 1) % len(cycle)])

    def _nail(self, q: int) -> None:
        if q in self.sim.nails:
            self.sim.unnail(q)
            self.notice = f"Pulled the nail out of node {self.model.node_ids[q]}."
            return
        try:
            self.sim.nail(q)
            self.notice = f"Nailed node {self.model.node_ids[q]} where it is; R pulls every nail."
        except ValueError as exc:
            self.notice = str(exc)

    # ------------------------------------------------------------------ graphs
    def follow(self) -> None:
        """Add the followed node's or member's main quantity to the graph."""
        hit = self.selected
        if self.sim is None:
            return
        if hit is None:  # nothing followed: the energies, kinetic and strain
            for spec in ("energy.kinetic", "energy.strain"):
                self.recorder.add(spec)
            self._show_graph()
            self.show_graph = True
            self.notice = "Graphing the kinetic and strain energy (inspect a node or member and press A to graph it)"
            return
        if hit.kind == "node":
            q = self.model.node_index(hit.id)
            spec = f"reaction.{hit.id}.fy" if self.model.arrays.fixed[q, 1] else f"node.{hit.id}.y"
        elif hit.kind == "member":
            spec = f"member.{hit.id}.axial"
        else:
            return
        self.recorder.add(spec)
        self._show_graph()
        self.show_graph = True
        self.notice = f"Graphing {self.recorder.label(spec)}" + ("" if self.against else " (X: plot against the first)")

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
            self.notice = "Nothing is graphed yet: inspect a node or member and press A."
            return
        try:
            stem = data_place("graphs") / time.strftime("graph-%Y%m%d-%H%M%S")
            self.recorder.to_csv(stem.with_suffix(".csv"))
            self.graph.save_png(stem.with_suffix(".png"))
            self.notice = f"Saved {stem}.csv and .png"
        except (SaveError, OSError, pygame.error) as exc:
            self.notice = f"Could not export the graph: {exc}"

    # ------------------------------------------------------------------ time
    def update(self, frame_seconds: float) -> None:
        self._clock += frame_seconds
        if self.checking and self._check_shown:
            self.checking = self._check_shown = False
            self.check()
        if self.bench is not None and self.bench.revision != self._built:
            self._build()
        self._save()
        if self.sim is None or (self.paused and not self._step):
            return
        if self._step:  # one frame's worth of simulated time, then stay paused
            frame_seconds, self._step = FRAME, False
        steps = self.pacer.steps_for(frame_seconds)
        start = time.perf_counter()
        if steps:
            self._tethers(steps * self.sim.dt)
            try:  # one compiled batch: the batch is as long as the frame's share
                self.sim.advance(steps * self.sim.dt, batch_seconds=(steps + 1) * self.sim.dt)
            except Unstable as exc:
                self.paused, self.problem, steps = True, str(exc), 0
        wall = time.perf_counter() - start
        self.sim_ms = 1e3 * wall
        self.pacer.record(steps, wall, frame_seconds)
        if len(self.recorder.specs) > 1:
            self.recorder.sample(self.sim)

    def _tethers(self, seconds: float) -> None:
        """Ground contacts near enough to be met this frame, and the hand's spring."""
        sim = self.sim
        pos, vel = sim.state.pos, sim.state.vel
        speed = float(np.hypot(vel[:, 0], vel[:, 1]).max(initial=0.0))
        margin = 2.0 * speed * seconds + 0.01 * self.model.char_length
        rows = [self.ground.contacts(pos, margin, skip=self.model.arrays.fixed[:, :2].any(axis=1))]
        for row in rows[0]:
            row[5], row[6] = sim.tether_stiffness(int(row[0]))
            row[7] = CONTACT_MU
        if self.hand is not None:
            k, c = self._hand_spring(self.hand)
            rows.append(np.array([[self.hand, *self.hand_at, 0.0, 0.0, k, c, 0.0]]))
        sim.set_tethers(np.concatenate(rows) if rows else np.zeros((0, 8)))

    def _hand_spring(self, q: int) -> tuple[float, float]:
        """(k [N/m], c [N s/m]) of the hand's spring: the structure's whole mass on it
        would swing at HAND_HZ, damped near critically; never stiffer than the step allows."""
        k_stable, c_stable = self.sim.tether_stiffness(q)
        mass = float(self.model.arrays.mass[:, 0].sum())
        k = min(k_stable, mass * (2 * math.pi * HAND_HZ) ** 2)
        return k, min(c_stable, 2 * 0.7 * math.sqrt(k * mass))

    # ------------------------------------------------------------------ drawing
    @property
    def show_values(self) -> bool:
        if self.values_chosen is not None:
            return self.values_chosen
        return self.model is not None and len(self.model.member_ids) <= VALUES_UP_TO

    def _fit(self, size: tuple[int, int]) -> None:
        """Lay the screen out and fit the view, when the window size changes."""
        fonts = self.app.fonts
        self.brief_lines = overlay.title_lines(fonts, self.stage.brief, size[0])
        self.layout = overlay.Layout.of(size, overlay.top_height(fonts, self.brief_lines) + 44)
        self.bar_rect = self.toolbar.layout(fonts, (overlay.PAD, self.layout.top.bottom - 40))
        self.view = View.fit(self.stage.bounds(), tuple(self.layout.world), VIEW_MARGIN)
        self._size = size

    def _shown_positions(self) -> np.ndarray | None:
        """Where to draw the nodes: magnified deflections, or a mechanism's free motion
        while the player builds; None: where they are."""
        if self.sim is None:
            return None
        pos0 = self.model.arrays.pos0[:, :2]
        if self.free is not None and not self.started:
            amplitude = 0.04 * self.model.char_length * math.sin(2 * math.pi * 0.6 * self._clock)
            size = np.abs(self.free.mode[:, :2]).max() or 1.0
            return pos0 + amplitude * self.free.mode[:, :2] / size
        if self.magnify > 1:
            return pos0 + self.magnify * (self.sim.state.pos[:, :2] - pos0)
        return None

    def draw(self, surface: pygame.Surface) -> None:
        start = time.perf_counter()
        if surface.get_size() != self._size:
            self._fit(surface.get_size())
        fonts, layout = self.app.fonts, self.layout
        shown = self._shown_positions()
        if self.shapes is not None and self.sim is not None:  # picked where drawn (magnified, animated)
            s = self.sim.state
            self.shapes.update(s.pos if shown is None else shown, s.bar_on, s.beam_on, s.tri_on)
            self.hover = self._pick(self.mouse) if layout.world.collidepoint(self.mouse) else None
        surface.set_clip(layout.world)
        self._zone(surface)
        self.painter.draw(surface, self.view, self.sim, values=self.show_values, forces=self.revealed, pos=shown)
        self._marks(surface, shown)
        self._tool_marks(surface, shown)
        surface.set_clip(None)
        overlay.title_bar(surface, fonts, layout.top, self.stage.title, self.stage.kind, self.brief_lines)
        self.toolbar.draw(surface, fonts)
        self._tool_line(surface)
        overlay.legend(
            surface,
            fonts,
            layout.legend,
            widest=self.painter.member_scale.value if self.sim and self.revealed else None,
            to_come=self.painter.loads_to_come,
            plates=self.model is not None and len(self.model.triangle_ids) > 0,
            breakable=self.sim is not None and self.sim.breakable,
            supports={kind for _, kind, _ in self.painter.supports},
        )
        overlay.status_line(surface, fonts, layout.status, self.notice or self._status(), KEYS_HELP)
        overlay.badges(surface, fonts, layout.world.topright, self._badges())
        self._readout(surface)
        if self.show_graph:
            self.graph.draw(surface, self._graph_rect())
        if self.show_hud:
            overlay.hud(surface, fonts, (layout.world.left + 10, layout.world.top + 10), self.hud_lines())
        if self.hover is not None and (self.toolbar.current == "inspect" or self.paused):
            self._tooltip(surface)
        if self.checking:
            overlay.message(surface, fonts, layout.world, "Checking your answer…", "The engine is running your structure under the level's loads.", "")
            self._check_shown = True
        elif self.problem:
            foot = "R: reset to the structure as built" + ("   D: reset with the stable step" if self.dt is not None else "")
            overlay.message(surface, fonts, layout.world, "The simulation became unstable and was paused", self.problem, foot)
        elif self.verdict is not None:
            self._verdict(surface)
        elif self.free is not None and not self.started:
            title = "This is a mechanism: it can move without any member stretching"
            text = f"The free motion, shown: {self.free_words}"
            overlay.message(surface, fonts, layout.world, title, text, "It cannot stand as it is: add members or supports.")
        if self.show_help:
            overlay.help_box(surface, fonts, layout.world, HELP, [f"{TOOLS[n].label}: {TOOLS[n].tip}" for n in self.toolbar.names])
        self.pacer.share_frame(time.perf_counter() - start)

    def _graph_rect(self) -> pygame.Rect:
        w = self.layout.world
        return pygame.Rect(w.left + 10, w.top + 10, min(520, w.width - 20), 240)

    def _zone(self, surface: pygame.Surface) -> None:
        zone = self.bench.level.player.zone if isinstance(self.bench, LevelBench) else None
        if zone:
            pts = [self.view.point(x, y) for x, y in zone]
            pygame.draw.polygon(surface, ZONE, pts)  # under the ground and the structure, drawn next
            for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
                draw.dashed(surface, TENSION, a, b, 2, 10, 6)

    def _point(self, q: int, shown: np.ndarray | None) -> tuple[float, float]:
        xy = shown[q] if shown is not None else self.sim.state.pos[q, :2]
        return self.view.point(float(xy[0]), float(xy[1]))

    def _marks(self, surface: pygame.Surface, shown: np.ndarray | None) -> None:
        """Members marked as zero-force, nails, the moving nodes of a mechanism."""
        if self.sim is None:
            return
        model = self.model
        if isinstance(self.bench, LevelBench) and self.stage.kind == "zero_force":
            for mid in self.bench.marked():
                if mid in model.member_ids:
                    kind, row = model.member_slot[model.member_index(mid)]
                    i, j = (model.arrays.bar_ij if kind == "bar" else model.arrays.beam_ij)[row]
                    a, b = self._point(int(i), shown), self._point(int(j), shown)
                    draw.dashed(surface, MARK, a, b, 6, 10, 6)
                    draw.label(surface, self.app.fonts.bold, "0", ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 10), MARK, "midbottom")
        for q in self.sim.nails:
            x, y = self._point(q, shown)
            pygame.draw.circle(surface, ALERT, (x, y), 7, 3)
            pygame.draw.line(surface, ALERT, (x - 5, y - 5), (x + 5, y + 5), 3)
        if self.free is not None and not self.started:
            for q in self.free.moving():
                pygame.draw.circle(surface, MARK, self._point(int(q), shown), 10, 3)

    def _tool_marks(self, surface: pygame.Surface, shown: np.ndarray | None) -> None:
        """What the tool in hand is doing: nodes picked so far, the hand's spring, a
        force being dragged out, the selection and what is under the mouse."""
        fonts = self.app.fonts
        if self.sim is None:
            return
        for nid in self.pending:
            p = self._point(self.model.node_index(nid), shown)
            pygame.draw.circle(surface, TENSION, p, 9, 3)
            if self.layout.world.collidepoint(self.mouse):
                draw.dashed(surface, TENSION, p, self.mouse, 2)
        if self.hand is not None:
            p, h = self._point(self.hand, shown), self.view.point(*self.hand_at)
            draw.dashed(surface, INK, p, h, 2, 4, 3)
            pygame.draw.circle(surface, INK, h, 6, 2)
            hand = self._hand_force()
            draw.label(surface, fonts.bold, f"hand: {math.hypot(*hand) / 1e3:.3g} kN", (h[0] + 10, h[1] - 10), INK, "bottomleft")
        if self.force_from is not None:
            q = self.model.node_index(self.force_from)
            tail = self._point(q, shown)
            fx, fy = self._dragged(self.force_from, self.mouse, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
            draw.arrow(surface, INK, tail, self.mouse, 3)
            draw.label(surface, fonts.bold, f"Fx {fx / 1e3:+.3g} kN, Fy {fy / 1e3:+.3g} kN", (self.mouse[0] + 12, self.mouse[1]), INK, "midleft")
        for hit, colour in ((self.selected, TENSION), (self.hover, MUTED)):
            if hit is not None and hit.kind == "node" and hit.id in self.model.node_ids:
                pygame.draw.circle(surface, colour, self._point(self.model.node_index(hit.id), shown), 12, 2)

    def _hand_force(self) -> tuple[float, float]:
        forces = self.sim.tether_forces()
        return (float(forces[-1, 0]), float(forces[-1, 1])) if len(forces) else (0.0, 0.0)

    def _tool_line(self, surface: pygame.Surface) -> None:
        """What the tool in hand does; for members, the section as a button (a click or
        Tab takes the next)."""
        fonts, rect = self.app.fonts, self.bar_rect
        x = rect.right + 14
        self.section_rect = None
        if self.toolbar.current == "member" and self.section:
            box = draw.label(surface, fonts.bold, f"{self.section} ▸", (x + 8, rect.centery), INK, "midleft", None).inflate(16, 10)
            pygame.draw.rect(surface, TENSION, box, 2, border_radius=5)
            self.section_rect, x = box, box.right + 10
        tip = TOOLS[self.toolbar.current].tip
        room = surface.get_width() - x - overlay.PAD
        while tip and fonts.small.size(tip)[0] > room:  # cut to the room there is (F1 has it whole)
            tip = tip[: tip.rstrip(" …").rfind(" ")].rstrip(";,:") + " …" if " " in tip.rstrip(" …") else ""
        draw.label(surface, fonts.small, tip, (x, rect.centery), MUTED, "midleft", None)

    def _readout(self, surface: pygame.Surface) -> None:
        """Net force and moment on the whole structure (loads, weight, reactions, hand
        and ground): zero when it is in equilibrium."""
        if self.sim is None:
            return
        lines = net_force_lines(self.sim)
        if self.selected is not None and self.selected.kind == "node" and self.selected.id in self.model.node_ids:
            q = self.model.node_index(self.selected.id)
            f = self.sim.state.force[q]
            d = (self.sim.state.pos[q, :2] - self.model.arrays.pos0[q, :2]) * 1e3
            off = math.hypot(f[0], f[1])
            off = 0.0 if off < 1e-6 * self.sim.reference_force() else off
            lines += [f"Node {self.selected.id}", f"  moved ({d[0]:+.3g}, {d[1]:+.3g}) mm", f"  out of balance {off / 1e3:.3g} kN"]
        legend = self.layout.legend
        size = self.app.fonts.small.get_linesize() + 1
        top = legend.bottom - overlay.PAD - size * len(lines)
        pygame.draw.line(surface, MUTED, (legend.left + overlay.PAD, top - 6), (legend.right - overlay.PAD, top - 6))
        draw.text_block(surface, self.app.fonts.small, lines, (legend.left + overlay.PAD, top), INK, 1)

    def _tooltip(self, surface: pygame.Surface) -> None:
        lines = describe_hit(self.sim, self.hover, revealed=self.revealed)
        if lines:
            overlay.hud(surface, self.app.fonts, (self.mouse[0] + 16, self.mouse[1] + 16), lines)

    def _verdict(self, surface: pygame.Surface) -> None:
        v, bench = self.verdict, self.bench
        level, a = bench.level, bench.attempt
        if v.passed:
            title = f"Passed: {a.marks} marks" + ("" if a.tries == 1 else f" (check {a.tries})")
            text = f"{v.reason} {level.explanation}".strip()
            foot = "Esc: back to the levels"
        else:
            hint = level.hints[min(a.tries, len(level.hints)) - 1] if level.hints else ""
            title = "Not yet"
            text = f"{v.reason}" + (f"  Hint: {hint}" if hint else "")
            foot = "T: try again (your moves are kept)   ·   Esc: back to the levels"
        overlay.message(surface, self.app.fonts, self.layout.world, title, text, foot, colour=REACTION if v.passed else ALERT)

    def _status(self) -> str:
        if self.sim is None:
            return "nothing built yet: choose a tool and click in the world" if self.bench is not None else "nothing to show"
        parts = [f"t = {self.sim.time:.2f} s", "paused (Space runs)" if self.paused else "running"]
        if self.sim.time > 0:
            parts.append("at rest" if self.sim.rest_time >= self.sim.rest.hold else "moving")
        parts.append(f"speed {factor(self.pacer.speed)}")
        if isinstance(self.bench, LevelBench):
            cost = self.bench.cost()
            if cost is not None and self.bench.level.player.budget:
                parts.append(f"cost ${cost:,.0f} of ${self.bench.level.player.budget:,.0f}")
            if self.verdict is None:
                parts.append("C checks")
        if self.magnify > 1:
            parts.append(f"deflections ×{self.magnify}")
        return "   ·   ".join(parts)

    def _badges(self) -> list[tuple[str, tuple]]:
        out: list[tuple[str, tuple]] = []
        if self.paused:
            out.append(("PAUSED", INK))
        if self.sim is not None and not self.paused:
            if self.pacer.slowed:
                out.append((f"SLOW MOTION ×{self.pacer.rate:.2f}: too heavy for real time", ALERT))
            elif self.pacer.speed < 1:
                out.append((f"SLOW MOTION {factor(self.pacer.speed)}", TENSION))
            elif self.pacer.speed > 1:
                out.append((f"FAST {factor(self.pacer.speed)}", MUTED))
        if self.magnify > 1:
            out.append((f"DEFLECTIONS ×{self.magnify}", MARK))
        return out

    def hud_lines(self) -> list[str]:
        """The figures the HUD shows."""
        lines = [f"{self.app.fps:5.1f} fps"]
        if self.sim is None:
            return lines
        model = self.model
        return [
            *lines,
            f"sub-steps per frame: {self.pacer.last_steps}",
            f"step: {self.sim.dt * 1e3:.3g} ms ({self.integrator})",
            f"simulation: {self.sim_ms:.2f} ms per frame",
            f"real-time factor: ×{self.pacer.rate:.2f} (chosen {factor(self.pacer.speed)})",
            f"simulated time: {self.sim.time:.3f} s",
            f"{model.n_nodes} nodes, {len(model.member_ids)} members, {len(model.triangle_ids)} plates",
        ]


def net_force_lines(sim: Simulation) -> list[str]:
    """The resultant of every external force on the structure (loads, weight, support
    reactions, nails, hand and ground) and its moment about the origin, in words; a
    value under a millionth of the forces at play (round-off) shows as 0."""
    model = sim.model
    f = load_vector(model, sim.time) + sim.reactions()
    pos = sim.state.pos
    forces = sim.tether_forces()
    if len(forces):
        rows = sim.tethers[:, 0].astype(np.int64)
        np.add.at(f[:, :2], rows, forces)
    fx, fy = float(f[:, 0].sum()), float(f[:, 1].sum())
    m = float((pos[:, 0] * f[:, 1] - pos[:, 1] * f[:, 0]).sum() + f[:, 2].sum())
    ref = 1e-6 * sim.reference_force()

    def kilo(x: float, floor: float) -> str:
        return "0" if abs(x) < floor else f"{x / 1e3:+.3g}"

    return [
        "Net force on the structure",
        f"  ΣFx = {kilo(fx, ref)} kN",
        f"  ΣFy = {kilo(fy, ref)} kN",
        f"  ΣM about (0, 0) = {kilo(m, ref * sim.model.char_length)} kN·m",
    ]


def describe_hit(sim: Simulation, hit: Hit | None, *, revealed: bool) -> list[str]:
    """The values of the node, member or plate under the mouse."""
    if sim is None or hit is None:
        return []
    model, s = sim.model, sim.state
    if hit.kind == "node":
        q = model.node_index(hit.id)
        d = (s.pos[q, :2] - model.arrays.pos0[q, :2]) * 1e3
        lines = [f"node {hit.id}", f"moved ({d[0]:+.3g}, {d[1]:+.3g}) mm"]
        if model.arrays.fixed[q, :2].any():
            r = sim.reactions()[q]
            lines.append(f"reaction ({r[0] / 1e3:+.3g}, {r[1] / 1e3:+.3g}) kN")
        return lines
    if hit.kind == "member":
        kind, row = model.member_slot[model.member_index(hit.id)]
        on = (s.bar_on if kind == "bar" else s.beam_on)[row]
        lines = [f"member {hit.id} ({kind})"]
        if not on:
            return [*lines, "broken or removed"]
        if not revealed:
            return [*lines, "its force shows after the check"]
        if kind == "bar":
            n = float(s.bar_N[row])
            lines.append(f"axial {n / 1e3:+.3g} kN ({'tension' if n > 0 else 'compression'})")
        else:
            n, v, m1, m2 = (float(x) for x in s.beam_out[row])
            lines += [f"axial {n / 1e3:+.3g} kN, shear {v / 1e3:+.3g} kN", f"moments {m1 / 1e3:+.3g}, {m2 / 1e3:+.3g} kN·m"]
        return lines
    k = model.triangle_ids.index(hit.id)
    sx, sy, txy = (float(x) / 1e6 for x in s.tri_out[k, :3])
    return [f"plate {hit.id}", f"σx {sx:+.3g}  σy {sy:+.3g}  τxy {txy:+.3g} MPa"]
