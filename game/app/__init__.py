"""The game itself: a pygame-ce window, a stack of scenes, and drawing.

    launch.play(path, frames, screenshot)     equilibria play LEVEL
    launch.sandbox(path, frames, screenshot)  equilibria sandbox [DESIGN]
    launch.menu(frames, screenshot)           equilibria

Modules, from the bottom up: `stage` (what a scene shows, from a level file; no pygame),
`pacing` (frames of wall time into engine sub-steps; no pygame), `view` (world ↔ screen;
no pygame), `palette`, `draw` (drawing primitives), `symbols` (support symbols),
`render` (a structure and its forces), `overlay` (title, legend, HUD, messages), `app`
(the window, the frame loop, the scene stack), `scenes` (menu, play) and `launch`.

Only this package imports pygame; rendering reads the engine's public Simulation and
Model and never changes them.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # no banner on stdout
