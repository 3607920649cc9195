"""What a command says before the engine compiles: once, on standard error.

On a first start the engine's kernels compile (some 20 s on a laptop, a minute on a busy
one; engine/warm.py), and a command that needs them would sit silent meanwhile. A
command that compiles (levels, validate, check; play and sandbox, whose window then
shows its loading bar) says first what it does and for about how long, and compiles the
steps a level needs through the warm-up, which notes them in the cache, so that the next
command says nothing. A cache that cannot be written (a read-only home or install:
engine/compiled/cache.py UNKEPT) is said instead, with how to point NUMBA_CACHE_DIR at a
folder that can be: every start compiles again until then.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from equilibria.words.i18n import _

ABOUT_SECONDS = 20  # a first start's compile of the steps a level needs, on a 2-core laptop (README "Start-up")


def engine_notice(steps: int) -> str:
    """The line to say before the first `steps` warm-up steps run ('' when they are in
    the cache already)."""
    from equilibria.engine import warm
    from equilibria.engine.compiled import cache

    if cache.UNKEPT is not None:
        folder, why = cache.UNKEPT
        example = Path(tempfile.gettempdir()) / "equilibria-cache"
        return _(
            "The compiled engine cannot be kept: {folder} cannot be written ({why}), so every start compiles it again (about {seconds} s)."
            " To keep it, set the environment variable NUMBA_CACHE_DIR to a folder you can write, for example NUMBA_CACHE_DIR={example}"
        ).format(folder=folder, why=why, seconds=ABOUT_SECONDS, example=example)
    if warm.steps_done() < steps:
        return _("Preparing the engine for this computer (about {seconds} s, once)…").format(seconds=ABOUT_SECONDS)
    return ""


def prepare_engine(*, compile_now: bool = True) -> None:
    """Before a command that compiles: say so on standard error, once, and (with
    `compile_now`, unless the cache cannot keep it) compile what a level needs now,
    noted in the cache; without, the window's warm-up does it."""
    from equilibria.engine import warm
    from equilibria.engine.compiled import cache

    said = engine_notice(warm.PLAY_STEPS)
    if not said:
        return
    print(said, file=sys.stderr, flush=True)
    if compile_now and cache.UNKEPT is None:
        warm.prepare(warm.PLAY_STEPS)
