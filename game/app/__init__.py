"""The game itself: a pygame-ce window, a stack of scenes, and drawing.

    launch.play(path, frames, screenshot)     equilibria play LEVEL
    launch.sandbox(path, frames, screenshot)  equilibria sandbox [DESIGN]
    launch.menu(frames, screenshot)           equilibria

Rooms, from the bottom up: `session/` (what a scene shows, the play session, pacing,
view and camera; no pygame), `draw/` (palette, primitives, symbols, the structure and its
forces), `window/` (the frame loop and the scene stack, sections, layout), `widgets/` (the
play screen's parts: tools, panels, the member table, graphs), `scenes/` (menu, play,
loading) and, here, `launch`.

Only this package imports pygame (and not its session/ room); rendering reads the engine's public Simulation and
Model and never changes them.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on stdout
