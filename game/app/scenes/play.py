"""The play scene: a stage's structure running in real time, its forces drawn.

Each frame advances the simulation by the frame's share of simulated time in ONE call
to `Simulation.advance` (one compiled batch of many sub-steps); `Pacer` decides how many
and slows the run down visibly when the model is too heavy for real time. An `Unstable`
run is rolled back by the engine; the scene pauses and shows why.

Keys: Space pause, . one frame, R reset, [ and ] slower and faster (also - and +),
H or F1 the HUD, V the force values, Esc back.
"""

from __future__ import annotations

import time

import pygame

from engine import Simulation, Unstable, build_model
from game.app import overlay
from game.app.app import App, Scene
from game.app.pacing import FRAME, SPEEDS, Pacer
from game.app.palette import ALERT, INK, MUTED, TENSION
from game.app.render import StructurePainter
from game.app.stage import Stage
from game.app.view import View

SLOWER_KEYS = (pygame.K_LEFTBRACKET, pygame.K_MINUS, pygame.K_KP_MINUS)
FASTER_KEYS = (pygame.K_RIGHTBRACKET, pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS)
KEYS_HELP = "Space pause · . step · R reset · [ ] speed · H HUD · V values · Esc back"
VALUES_UP_TO = 40  # members; more and the force values start hidden
WAIT_KINDS = ("build", "stability")  # levels that open paused: the player changes them first
VIEW_MARGIN = 150  # [px] room around the structure for supports, arrows and labels


def factor(x: float) -> str:
    """×1/4 for the chosen speeds below one, ×0.37 for a measured rate."""
    for s in SPEEDS:
        if s < 1 and abs(x - s) < 1e-9:
            return f"×1/{round(1 / s)}"
    return f"×{x:.2g}"


class PlayScene(Scene):
    """integrator and dt as for `Simulation` (dt None: the engine's stable step)."""

    def __init__(self, app: App, stage: Stage, *, integrator: str = "rk4", dt: float | None = None):
        super().__init__(app)
        self.stage = stage
        data = stage.model_data()
        self.model = build_model(data) if data is not None else None
        self.integrator = integrator
        self.dt = dt
        self.painter = StructurePainter(app.fonts, stage, self.model)
        self.show_hud = False
        self.show_values = self.model is not None and len(self.model.member_ids) <= VALUES_UP_TO
        self.sim: Simulation | None = None
        self.pacer = Pacer(1.0, fixed=app.fixed_frame is not None)  # dt set by reset()
        self.paused = False
        self.problem: str | None = None  # why the run stopped (Unstable), shown until reset
        self.sim_ms = 0.0  # wall time of the last frame's advance [ms]
        self._step = False
        self._size: tuple[int, int] | None = None
        self.reset()

    # ------------------------------------------------------------------ control
    def reset(self) -> None:
        """Back to the structure as built: running, except in build and stability
        levels, where the player first changes the structure (Space runs it)."""
        if self.model is not None:
            self.sim = Simulation(self.model, self.integrator, dt=self.dt)
            self.pacer.dt = self.sim.dt
        self.pacer.restart()
        self.paused = self.stage.kind in WAIT_KINDS
        self.problem = None

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        if key == pygame.K_SPACE:
            self.paused = not self.paused
            self.pacer.restart()
        elif key == pygame.K_PERIOD:
            self.paused = self._step = True
        elif key == pygame.K_r:
            self.reset()
        elif key in SLOWER_KEYS:
            self.pacer.slower()
        elif key in FASTER_KEYS:
            self.pacer.faster()
        elif key in (pygame.K_h, pygame.K_F1):
            self.show_hud = not self.show_hud
        elif key == pygame.K_v:
            self.show_values = not self.show_values
        elif key == pygame.K_ESCAPE:
            self.app.pop()

    def update(self, frame_seconds: float) -> None:
        if self.sim is None or (self.paused and not self._step):
            return
        if self._step:  # one frame's worth of simulated time, then stay paused
            frame_seconds, self._step = FRAME, False
        steps = self.pacer.steps_for(frame_seconds)
        start = time.perf_counter()
        if steps:
            try:  # one compiled batch: the batch is as long as the frame's share
                self.sim.advance(steps * self.sim.dt, batch_seconds=(steps + 1) * self.sim.dt)
            except Unstable as exc:
                self.paused, self.problem, steps = True, str(exc), 0
        wall = time.perf_counter() - start
        self.sim_ms = 1e3 * wall
        self.pacer.record(steps, wall, frame_seconds)

    # ------------------------------------------------------------------ drawing
    def _fit(self, size: tuple[int, int]) -> None:
        """Lay the screen out and fit the view, when the window size changes."""
        fonts = self.app.fonts
        self.brief_lines = overlay.title_lines(fonts, self.stage.brief, size[0])
        self.layout = overlay.Layout.of(size, overlay.top_height(fonts, self.brief_lines))
        self.view = View.fit(self.stage.bounds(), tuple(self.layout.world), VIEW_MARGIN)
        self._size = size

    def draw(self, surface: pygame.Surface) -> None:
        start = time.perf_counter()
        if surface.get_size() != self._size:
            self._fit(surface.get_size())
        fonts, layout = self.app.fonts, self.layout
        surface.set_clip(layout.world)
        self.painter.draw(surface, self.view, self.sim, values=self.show_values)
        surface.set_clip(None)
        overlay.title_bar(surface, fonts, layout.top, self.stage.title, self.stage.kind, self.brief_lines)
        overlay.legend(
            surface,
            fonts,
            layout.legend,
            widest=self.painter.member_scale.value if self.sim else None,
            to_come=self.painter.loads_to_come,
            plates=self.model is not None and len(self.model.triangle_ids) > 0,
            breakable=self.sim is not None and self.sim.breakable,
            supports={kind for _, kind, _ in self.painter.supports},
        )
        overlay.status_line(surface, fonts, layout.status, self._status(), KEYS_HELP)
        overlay.badges(surface, fonts, layout.world.topright, self._badges())
        if self.show_hud:
            overlay.hud(surface, fonts, (layout.world.left + 10, layout.world.top + 10), self.hud_lines())
        if self.problem:
            overlay.message(surface, fonts, layout.world, "The simulation became unstable and was paused", self.problem, "R: reset to the structure as built")
        self.pacer.share_frame(time.perf_counter() - start)

    def _status(self) -> str:
        if self.sim is None:
            return "nothing built yet"
        parts = [f"t = {self.sim.time:.2f} s", "paused (Space runs)" if self.paused else "running"]
        if self.sim.time > 0:
            parts.append("at rest" if self.sim.rest_time >= self.sim.rest.hold else "moving")
        parts.append(f"speed {factor(self.pacer.speed)}")
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
