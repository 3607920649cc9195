"""The window, the frame loop and the stack of scenes.

One frame: measure the wall time since the last frame (or take a fixed 1/60 s when
running headless for a set number of frames, so that runs repeat exactly), hand the
queued input events to the top scene, let it update by the frame's time, draw it, show
it. A scene owns its own fixed-step accounting (see `pacing`); the app only paces frames
at the display rate.

Tests drive an App frame by frame: `app.frame()` or `app.run(frames=N)`, with input
posted in between through `pygame.event.post`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from game.app.palette import BACKGROUND, Fonts
from game.app.shots import save_image

if TYPE_CHECKING:
    from game.app.warmup import EngineWarmup

WINDOW_SIZE = (1280, 800)
FPS = 60
MAX_FRAME = 0.1  # [s] a longer frame (a dragged window, a debugger) counts as this


class Scene:
    """One screen. The app calls handle_event for each input event, then update with
    the frame's wall time [s], then draw. `app` lets a scene push, pop and quit."""

    def __init__(self, app: App):
        self.app = app

    def handle_event(self, event: pygame.event.Event) -> None:
        """React to one input event."""

    def update(self, frame_seconds: float) -> None:
        """Advance by one frame of `frame_seconds` wall time."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the whole screen."""

    def closing(self) -> None:
        """The app is about to quit (the window closed): keep what must be kept."""

    def resumed(self) -> None:
        """The scene above this one has closed: this one is on top again."""


class App:
    """A pygame window with a stack of scenes; the top one runs.

    fixed_frame: seconds per frame for deterministic headless runs (None: wall time,
    paced at FPS)."""

    def __init__(self, size: tuple[int, int] = WINDOW_SIZE, *, fixed_frame: float | None = None):
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption("Equilibria")
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.fonts = Fonts()
        self.clock = pygame.time.Clock()
        self.fixed_frame = fixed_frame
        self.scenes: list[Scene] = []
        self.running = True
        self.frames = 0
        self.warmup: EngineWarmup | None = None  # the engine's warm-up, when launched with one

    # ------------------------------------------------------------------ scenes
    @property
    def scene(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)

    def replace(self, scene: Scene) -> None:
        """Put `scene` in place of the top scene (the loading screen gives way)."""
        if self.scenes:
            self.scenes.pop()
        self.scenes.append(scene)

    def pop(self) -> None:
        """Leave the top scene; leaving the last one quits."""
        if self.scenes:
            self.scenes.pop()
        if not self.scenes:
            self.quit()
        else:
            self.scenes[-1].resumed()

    def quit(self) -> None:
        """Stop the loop; every scene still open may first save what it holds."""
        if self.running:
            for scene in reversed(self.scenes):
                scene.closing()
        self.running = False

    @property
    def fps(self) -> float:
        """Frames per second over the last few frames (as measured, even headless)."""
        return self.clock.get_fps()

    # ------------------------------------------------------------------ the loop
    def frame(self) -> None:
        """One frame: events, update, draw, show."""
        if self.fixed_frame is None:
            seconds = min(self.clock.tick(FPS) / 1000.0, MAX_FRAME)
        else:
            self.clock.tick()
            seconds = self.fixed_frame
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit()
            elif self.scene is not None:
                self.scene.handle_event(event)
        scene = self.scene
        if not self.running or scene is None:
            return
        scene.update(seconds)
        self.screen = pygame.display.get_surface()
        self.screen.fill(BACKGROUND)
        scene.draw(self.screen)
        pygame.display.flip()
        self.frames += 1

    def run(self, frames: int | None = None) -> None:
        """Run until quit, or for `frames` frames."""
        done = 0
        while self.running and (frames is None or done < frames):
            self.frame()
            done += 1

    def screenshot(self, path: str | Path) -> None:
        """Save the last frame drawn as PNG, JPEG or BMP by its extension (atomically;
        SaveError when it cannot be)."""
        save_image(self.screen, path)

    def close(self) -> None:
        pygame.font.quit()
        pygame.display.quit()

    def __enter__(self) -> App:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
