"""Tests run headless: no display, no audio device."""

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Progress, autosaves and screenshots go to a throw-away folder, never the user's own.
os.environ["EQUILIBRIA_HOME"] = tempfile.mkdtemp(prefix="equilibria-tests-")
