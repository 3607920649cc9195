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

import contextlib
import signal
import sys
import threading
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from equilibria.app.draw.palette import BACKGROUND, Fonts
from equilibria.app.draw.shots import save_image
from equilibria.app.draw.typeface import asset_file
from equilibria.app.session.checking import ALL
from equilibria.app.window import scale
from equilibria.app.window.layout import MIN_SIZE, at_least_minimum

if TYPE_CHECKING:
    from equilibria.app.session.warmup import EngineWarmup

WINDOW_SIZE = (1280, 800)
FPS = 60
ICON = "icon.png"  # in assets/: the window's icon, the app's and the desktop entry's
MAX_FRAME = 0.1  # [s] a longer frame (a dragged window, a debugger) counts as this
CLOSING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))  # a kill, a closed terminal


class Closed(SystemExit):
    """The game was told to end (SIGTERM, SIGHUP): raised in the main thread wherever it
    is, even in the middle of long work; the app keeps the player's work and the game
    exits 0, as when the window is closed."""

    def __init__(self, signum: int):
        super().__init__(0)
        self.signum = signum


def hint_minimum() -> None:
    """Ask the window manager to keep the window at least MIN_SIZE (where it listens)."""
    with contextlib.suppress(pygame.error, AttributeError), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # pygame-ce would have a Window of its own; the display module's is ours
        pygame.Window.from_display_module().minimum_size = MIN_SIZE


def quiet_about_closing(before):
    """An unraisable-exception hook that says nothing of a Closed: raised by the closing
    signal's handler where Python cannot raise it (a library's callback or __del__, as
    numba's compiler runs them), it would print "Exception ignored … Traceback" on the
    way out; the game ends as the signal asked all the same (App.run)."""
    if getattr(before, "quiet_about_closing", False):
        return before

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, Closed):
            before(unraisable)

    hook.quiet_about_closing = True
    return hook


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

    def stop_work(self) -> None:
        """The window is closing: end any thread the scene started (a check being judged)."""


def set_icon() -> None:
    """The window's icon: assets/icon.png, the app's own (a missing or unreadable file
    leaves the system's)."""
    try:
        with asset_file(ICON).open("rb") as f:
            pygame.display.set_icon(pygame.image.load(f, ICON))
    except (OSError, pygame.error):
        pass


class App:
    """A pygame window with a stack of scenes; the top one runs.

    fixed_frame: seconds per frame for deterministic headless runs (None: wall time,
    paced at FPS). check_batches: a check's lock step, the batches of its judged run each
    frame lets it judge (game/app/session/checking.py; None: it runs beside the frames by
    itself); by default free in a window of wall time, and the whole check in one frame
    in fixed frames, so that a headless run repeats exactly."""

    def __init__(self, size: tuple[int, int] = WINDOW_SIZE, *, fixed_frame: float | None = None, check_batches: int | str | None = "default"):
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption("Equilibria")
        set_icon()
        self.screen = pygame.display.set_mode(at_least_minimum(size), pygame.RESIZABLE)
        hint_minimum()
        self.fonts = Fonts()
        self.scale = scale.NORMAL  # [%] the text and lines' scale the player chose (set_scale); drawn at `held` of it
        self.clock = pygame.time.Clock()
        self.fixed_frame = fixed_frame
        self.check_batches = (None if fixed_frame is None else ALL) if check_batches == "default" else check_batches
        self.scenes: list[Scene] = []
        self.running = True
        self.frames = 0
        self.warmup: EngineWarmup | None = None  # the engine's warm-up, when launched with one
        self.closed_by: int | None = None  # the closing signal received, if one was
        self._signals = self._catch_closing_signals()

    # ------------------------------------------------------------------ the scale
    def set_scale(self, percent: int) -> int:
        """Draw text and lines at `percent` (a step of scale.STEPS) from now on, or at the
        largest step the window holds; returns the scale drawn at [%]."""
        self.scale = percent
        return self.hold_scale(self.screen.get_size())

    def hold_scale(self, size: tuple[int, int]) -> int:
        """The fonts at the scale a screen of `size` holds for the one chosen (a scene
        asks as it lays itself out); returns it [%]."""
        percent = scale.held(self.scale, size)
        if round(self.fonts.scale * 100) != percent:
            self.fonts.rescale(percent / 100)
        return percent

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
        if self.closed_by is not None:  # a signal whose Closed was swallowed (raised inside a compiler's callback)
            raise Closed(self.closed_by)
        if self.fixed_frame is None:
            seconds = min(self.clock.tick(FPS) / 1000.0, MAX_FRAME)
        else:
            self.clock.tick()
            seconds = self.fixed_frame
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.quit()
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWRESIZED):
                self.keep_minimum()
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

    def keep_minimum(self) -> None:
        """A window made smaller than MIN_SIZE grows back to it (where the window
        manager did not hold it there already)."""
        size = pygame.display.get_surface().get_size()
        if size != at_least_minimum(size):
            self.screen = pygame.display.set_mode(at_least_minimum(size), pygame.RESIZABLE)
            hint_minimum()  # set_mode may have made the window anew

    def run(self, frames: int | None = None) -> None:
        """Run until quit, or for `frames` frames. Told to end by a signal (Closed), the
        scenes keep what they hold, as when the window closes, and Closed goes on up."""
        done = 0
        try:
            while self.running and (frames is None or done < frames):
                self.frame()
                done += 1
        except Closed:
            self.quit()
            raise
        except Exception:
            if self.closed_by is None:
                raise
            # Closed raised where a library swallowed it (numba compiling: llvmlite's
            # callback ignores it and the compile then fails): the signal still ends the
            # game, the work kept, as it would have.
            self.quit()
            raise Closed(self.closed_by) from None

    # ------------------------------------------------------------------ signals
    def _catch_closing_signals(self) -> dict:
        """SIGTERM and SIGHUP raise Closed in the main thread (the handlers Python runs
        there between two bytecodes: within a compiled batch's time of the signal, even
        in long work). Only the first does: a second one while the work is being saved
        is ignored. The handlers before, to put back on close; none outside the main
        thread, where signals cannot be caught."""
        if threading.current_thread() is not threading.main_thread():
            return {}

        def closing(signum: int, _frame) -> None:
            self.closed_by = signum
            sys.unraisablehook = quiet_about_closing(sys.unraisablehook)
            for s in CLOSING_SIGNALS:
                signal.signal(s, signal.SIG_IGN)  # the save that follows is not cut short
            raise Closed(signum)

        return {s: signal.signal(s, closing) for s in CLOSING_SIGNALS}

    def screenshot(self, path: str | Path) -> None:
        """Save the last frame drawn as PNG, JPEG or BMP by its extension (atomically;
        SaveError when it cannot be)."""
        save_image(self.screen, path)

    def close(self) -> None:
        for scene in self.scenes:
            scene.stop_work()
        for s, before in self._signals.items():
            signal.signal(s, before if before is not None else signal.SIG_DFL)
        self._signals = {}
        pygame.font.quit()
        pygame.display.quit()

    def __enter__(self) -> App:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
