"""How large the text and lines are drawn: the player's scale, in steps from 75 % to
200 % (Ctrl+= and Ctrl+−, Ctrl+0 back to 100 %), kept with the progress
(game/course/progress.py), and where it starts on a display that has never been told
(a high-density one, its desktop wider than HIGH_DENSITY_WIDTH, starts at 150 %).

A window too small for the scale chosen draws at the largest step it holds (every part of
the screen is laid out for MIN_SIZE at 100 %, so a scale s needs a window s times that);
the choice stays, and a larger window brings it back."""

from __future__ import annotations

import contextlib

import pygame

from equilibria.app.window.layout import MIN_SIZE
from equilibria.files.store import SaveError
from equilibria.words.i18n import _

STEPS = (75, 90, 100, 110, 125, 150, 175, 200)  # [%]
KEYS = {  # with Ctrl: a step up (+1), down (−1), back to NORMAL (0); the same in every scene
    pygame.K_EQUALS: 1,
    pygame.K_PLUS: 1,
    pygame.K_KP_PLUS: 1,
    pygame.K_MINUS: -1,
    pygame.K_KP_MINUS: -1,
    pygame.K_0: 0,
    pygame.K_KP0: 0,
}
NORMAL = 100
HIGH_DENSITY_WIDTH = 2200  # [px] a desktop wider than this is a high-density display (a 2560 × 1440 laptop)
HIGH_DENSITY = 150  # [%] where such a display starts


def stepped(percent: int, by: int) -> int:
    """The step after `percent` up (`by` > 0) or down (`by` < 0), within STEPS; `by` 0:
    back to NORMAL."""
    if by == 0:
        return NORMAL
    beyond = [s for s in STEPS if (s > percent if by > 0 else s < percent)]
    if not beyond:
        return STEPS[-1] if by > 0 else STEPS[0]
    return beyond[0] if by > 0 else beyond[-1]


def held(percent: int, size: tuple[int, int]) -> int:
    """The scale [%] a window of `size` draws at for the chosen `percent`: the largest step
    up to it whose layout the window holds (at least the smallest step)."""
    w, h = size
    fits = [s for s in STEPS if s <= percent and w * 100 >= MIN_SIZE[0] * s and h * 100 >= MIN_SIZE[1] * s]
    return fits[-1] if fits else STEPS[0]


def starting(desktop: tuple[int, int] | None) -> int:
    """The scale [%] for a player who never chose one, on a desktop of `desktop` px."""
    return HIGH_DENSITY if desktop is not None and desktop[0] > HIGH_DENSITY_WIDTH else NORMAL


def window_for(size: tuple[int, int], percent: int, desktop: tuple[int, int] | None) -> tuple[int, int]:
    """The window to open: `size` (laid out for 100 %) grown with the scale, as long as the
    desktop holds it (the layout then has the room the scale asks)."""
    w, h = round(size[0] * percent / 100), round(size[1] * percent / 100)
    if percent <= NORMAL or desktop is None or w > desktop[0] or h > desktop[1] - 80:  # 80 px for the desktop's own bars
        return size
    return w, h


def rescale(app, progress, by: int) -> str:
    """Ctrl+= (`by` +1), Ctrl+− (−1) or Ctrl+0 (0) in any scene: the text and lines a
    step larger, smaller or back to 100 %, drawn at once and kept in `progress` (None:
    for this session only) for the next start; the notice that says so."""
    percent = stepped(app.scale, by)
    shown = app.set_scale(percent)
    if progress is not None:
        progress.set_scale(percent)
        with contextlib.suppress(SaveError):  # chosen for this session all the same; the scene says why saves fail when they do
            progress.save()
    if shown < percent:
        return _("Text and lines at {shown} % ({chosen} % needs a larger window).").format(shown=shown, chosen=percent)
    return _("Text and lines at {shown} % (Ctrl+= larger, Ctrl+− smaller, Ctrl+0 back to 100 %).").format(shown=shown)
