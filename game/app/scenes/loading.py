"""The loading screen: shown while the engine is prepared (game/app/session/warmup.py) and a
level is asked for before it is ready; it gives way to the level once it is.

The window answers throughout: the compiling happens in another process and the
loading in another thread, so this scene only draws the progress, and Esc (or closing
the window) leaves.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import INK, MUTED, PANEL, RULE, TENSION
from equilibria.app.session.warmup import EngineWarmup
from equilibria.app.window.app import App, Scene
from equilibria.engine.warm import PLAY_STEPS
from equilibria.words.i18n import N_, _, decimal

FIRST_START = N_("The first start compiles the structural engine; later starts read it from the cache.")


def when_ready(app: App, then: Callable[[App], Scene]) -> Scene:
    """The scene `then` makes, at once when the engine is ready for it (or the app has
    no warm-up: the scene compiles what it needs itself), else a loading screen first."""
    warmup = app.warmup
    if warmup is None or warmup.ready():
        return then(app)
    return LoadingScene(app, warmup, then)


class LoadingScene(Scene):
    """Waits for `warmup` to be ready to play, then replaces itself with `then(app)`."""

    def __init__(self, app: App, warmup: EngineWarmup, then: Callable[[App], Scene]):
        super().__init__(app)
        self.warmup = warmup
        self.then = then

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()  # back to the menu, or out of the game

    def update(self, frame_seconds: float) -> None:
        if self.warmup.ready():
            self.app.replace(self.then(self.app))

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        w, h = surface.get_size()
        self.app.hold_scale((w, h))
        px = fonts.px
        draw.label(surface, fonts.big, "Equilibria", (w // 2, h // 2 - px(80)), INK, "center", None)
        bar = pygame.Rect(0, 0, min(520, w - 80), 18)
        bar.center = (w // 2, h // 2)
        pygame.draw.rect(surface, PANEL, bar, border_radius=4)
        share, doing = self.warmup.progress(PLAY_STEPS)
        pygame.draw.rect(surface, TENSION, (bar.left, bar.top, round(bar.width * share), bar.height), border_radius=4)
        pygame.draw.rect(surface, RULE, bar, 1, border_radius=4)
        draw.label(
            surface,
            fonts.body,
            _("Preparing {what} … {seconds} s").format(what=_(doing), seconds=decimal(self.warmup.seconds(), 0)),
            (w // 2, bar.bottom + px(20)),
            INK,
            "center",
            None,
        )
        draw.label(surface, fonts.small, _(FIRST_START), (w // 2, bar.bottom + px(48)), MUTED, "center", None)
        draw.label(surface, fonts.small, _("Esc goes back."), (w // 2, bar.bottom + px(70)), MUTED, "center", None)
