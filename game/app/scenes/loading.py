"""The loading screen: the engine's kernels compiled (or read from numba's cache) one
piece per frame, with a progress bar, before the first scene appears.

numba compiles a kernel the first time it is called with given argument types, which
takes seconds on a first start and a fraction of one when the compiled code is cached on
disk. Calling each kernel once on a tiny structure that has every kind of element does it
here, where the player sees progress, instead of in the middle of the first level.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pygame

from engine import Simulation, build_model
from game.app import draw
from game.app.app import App, Scene
from game.app.palette import INK, MUTED, PANEL, RULE, TENSION

# A bar, a cable, a beam and a plate, a load with a history, gravity: every kernel path.
WARM_MODEL = {
    "world": {"gravity": 9.81, "damping": 0.05},
    "materials": {"steel": {"E": 200e9, "density": 7850, "nu": 0.3, "strength": 250e6}},
    "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}, {"id": "C", "x": 0.5, "y": 0.8}, {"id": "D", "x": 1.5, "y": 0.8}],
    "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
    "members": [
        {"id": "AC", "i": "A", "j": "C", "kind": "bar", "material": "steel", "A": 1e-3, "I": 1e-7},
        {"id": "BD", "i": "B", "j": "D", "kind": "cable", "material": "steel", "A": 1e-4},
        {"id": "CD", "i": "C", "j": "D", "kind": "beam", "material": "steel", "A": 1e-3, "I": 1e-6},
    ],
    "triangles": [{"id": "T", "nodes": ["A", "B", "C"], "material": "steel", "t": 0.01}],
    "loads": [{"node": "D", "fx": 0, "fy": -1e3, "history": [[0, 0], [0.1, 1]]}],
}


def warm_steps() -> list[tuple[str, Callable[[], object]]]:
    """(what the player reads, what to call), in order."""
    made: dict = {}

    def model() -> None:
        made["model"] = build_model(WARM_MODEL)

    def run(integrator: str) -> Callable[[], object]:
        def go() -> None:
            sim = Simulation(made["model"], integrator)
            sim.set_tethers(np.array([[3, 1.5, 0.0, 0.0, 1.0, 1e3, 1.0, 0.5], [2, 0.5, 1.0, 0.0, 0.0, 1e3, 1.0, 0.0]]))
            sim.advance(10 * sim.dt)
            sim.strain_energy()

        return go

    return [
        ("Building a test structure", model),
        ("Compiling the Runge–Kutta integrator", run("rk4")),
        ("Compiling the symplectic integrator", run("symplectic")),
        ("Compiling dynamic relaxation", lambda: Simulation(made["model"], "relax").relax(max_iter=50)),
    ]


class LoadingScene(Scene):
    """Runs one warm-up step per frame, then replaces itself with `then(app)`."""

    def __init__(self, app: App, then: Callable[[App], Scene]):
        super().__init__(app)
        self.steps = warm_steps()
        self.done = 0
        self.then = then

    def update(self, frame_seconds: float) -> None:
        if self.done < len(self.steps):
            self.steps[self.done][1]()
            self.done += 1
            return
        self.app.replace(self.then(self.app))

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        w, h = surface.get_size()
        draw.label(surface, fonts.big, "Equilibria", (w // 2, h // 2 - 80), INK, "center", None)
        bar = pygame.Rect(0, 0, min(520, w - 80), 18)
        bar.center = (w // 2, h // 2)
        pygame.draw.rect(surface, PANEL, bar, border_radius=4)
        share = self.done / len(self.steps)
        pygame.draw.rect(surface, TENSION, (bar.left, bar.top, round(bar.width * share), bar.height), border_radius=4)
        pygame.draw.rect(surface, RULE, bar, 1, border_radius=4)
        doing = self.steps[self.done][0] if self.done < len(self.steps) else "Ready"
        draw.label(surface, fonts.body, f"{doing} …", (w // 2, bar.bottom + 20), INK, "center", None)
        note = "The first start compiles the structural engine (numba); later starts read it from the cache."
        draw.label(surface, fonts.small, note, (w // 2, bar.bottom + 48), MUTED, "center", None)
