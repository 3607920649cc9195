"""Is there a screen to show a window on? SDL answers a missing one quietly: with no
DISPLAY or WAYLAND_DISPLAY on Linux it falls back to its `offscreen` driver, where the
game would run, invisible, until killed. A driver that shows nothing is accepted only
when the user asked for it (SDL_VIDEODRIVER set: the tests, a headless screenshot) or
the run ends by itself (--frames); otherwise the game says so in one line, exit 1.
"""

from __future__ import annotations

import os
import sys

import pygame

from equilibria.words.i18n import N_, _

INVISIBLE = frozenset({"offscreen", "dummy"})  # SDL's video drivers that show nothing
VARIABLE = "SDL_VIDEODRIVER"
HEADLESS = N_("Run it on a desktop, or headless with --frames N (and --screenshot FILE), or set SDL_VIDEODRIVER=dummy")
NO_DISPLAY = N_("cannot open a window: no display was found (no DISPLAY or WAYLAND_DISPLAY is set).")


def why_no_window() -> str | None:
    """Why no window can be seen on this computer, in words; None when one can."""
    if sys.platform.startswith("linux") and not any(os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", VARIABLE)):
        return f"{_(NO_DISPLAY)} {_(HEADLESS)}"  # said before SDL probes (and prints its own complaints about) each driver
    try:
        pygame.display.init()
    except pygame.error as exc:
        return _("cannot open a window ({problem})").format(problem=exc)
    driver = pygame.display.get_driver()
    if driver in INVISIBLE and not os.environ.get(VARIABLE):
        pygame.display.quit()
        named = [f"{v}={os.environ[v]}" for v in ("DISPLAY", "WAYLAND_DISPLAY") if os.environ.get(v)]
        if not named:
            return f"{_(NO_DISPLAY)} {_(HEADLESS)}"
        return _("cannot open a window: the display {display} could not be reached.").format(display=" / ".join(named)) + " " + _(HEADLESS)
    return None
