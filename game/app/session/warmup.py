"""Getting the engine compiled without holding the window. No pygame here.

A first start compiles the engine's numba kernels: some 10 s of CPU. Done in the
window's own thread, the window would answer nothing for that long. Instead a child
process (`python -m equilibria.engine.warm`) compiles them into numba's cache on the other core
while the window runs; it prints a line as each step (engine/warm.py) is done, and a
thread here then calls that step's kernels in this process, which loads them from the
cache in a fraction of a second. The steps already in the cache (a later start) the
thread loads straight away, without waiting for a child; there is a child only while
some step is not.

The scenes ask `ready()` before building a level (`PLAY_STEPS` loaded), and show
`progress()` meanwhile, which moves a kernel at a time as the child compiles them (it
counts them in the cache folder); the rest (what only the headless commands use) loads behind.
If the child fails (no Python to run, a crash), the thread compiles the remaining steps
itself: slower, still never in the window's thread.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import threading
import time

from equilibria.engine import warm
from equilibria.words.i18n import _

COMPILING = 0.9  # of the loading bar: compiling the kernels (the rest: loading them here)
KERNELS_EVERY = 0.2  # [s] between two counts of the kernels compiled


class EngineWarmup:
    """The engine's warm-up under way. `start()` begins it; `stop()` ends it (the child
    is told to stop: what it compiled so far stays in the cache)."""

    def __init__(self, child: subprocess.Popen | None, compiled: int):
        self.child = child
        self.labels = [label for label, _ in warm.STEPS]
        self.compiled = compiled if child is not None else len(self.labels)  # steps in the cache
        self.loaded = 0  # steps whose kernels this process has
        self.failure = ""  # why the child gave up, if it did
        self.stopping = False
        self.began = time.monotonic()
        self._kernels, self._counted_at = 0, -math.inf  # kernels(): the last count and when it was made
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="engine warm-up", daemon=True)

    @classmethod
    def start(cls, command: list[str] | None = None, cached: int | None = None) -> EngineWarmup:
        """Start warming: a child (`command`, default `python -m equilibria.engine.warm`) compiles
        what the cache does not hold yet (`cached`: the steps it holds, default as the
        cache folder says)."""
        child = None
        compiled = warm.steps_done() if cached is None else cached
        if compiled < len(warm.STEPS):
            try:
                child = subprocess.Popen(
                    command or [sys.executable, "-m", "equilibria.engine.warm"],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    env=os.environ.copy(),  # with NUMBA_CACHE_DIR: the same cache folder
                )
            except OSError:
                child = None  # the thread compiles, in this process
        warmup = cls(child, compiled)
        warmup._thread.start()
        return warmup

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        self._load_compiled()  # what the cache holds already
        if self.child is not None:
            assert self.child.stdout is not None
            for line in self.child.stdout:
                words = line.split()
                if words and words[0].isdigit():  # `N LABEL`: step N is in the cache
                    self._set(compiled=min(int(words[0]), len(self.labels)))
                    self._load_compiled()
            if self.child.wait() != 0 and not self.stopping:
                self._set(failure=_("the engine's compiler stopped (exit {code}); compiling here instead").format(code=self.child.returncode))
            self._set(compiled=len(self.labels))  # what is left, this thread compiles
        self._load_compiled()

    def _load_compiled(self) -> None:
        while self.loaded < self.compiled and not self.stopping:
            warm.STEPS[self.loaded][1]()
            self._set(loaded=self.loaded + 1)

    def _set(self, **values) -> None:
        with self._changed:
            for name, value in values.items():
                setattr(self, name, value)
            self._changed.notify_all()

    # ------------------------------------------------------------------ what scenes ask
    def ready(self, steps: int = warm.PLAY_STEPS) -> bool:
        """Whether the first `steps` steps are loaded here (default: enough to play)."""
        return self.loaded >= steps

    def done(self) -> bool:
        return self.loaded >= len(self.labels)

    def wait(self, steps: int = warm.PLAY_STEPS, timeout: float | None = None) -> bool:
        """Block until `ready(steps)` (or the timeout [s]); whether it is."""
        with self._changed:
            return self._changed.wait_for(lambda: self.ready(steps), timeout)

    def progress(self, steps: int | None = None) -> tuple[float, str]:
        """(share done, 0 to 1; what is being prepared) of the first `steps` steps
        (default all). Compiling is most of it (COMPILING of the bar) and moves a kernel at
        a time: the compiled kernels the cache holds (engine/warm.py `kernels_cached`, by
        the child and its second process), of those the steps need (`warm.KERNELS`), never
        past the step under way nor short of the steps done; loading each step here is
        the rest."""
        n = len(self.labels) if steps is None else steps
        need = warm.KERNELS[n - 1]
        if self.compiled >= n or need <= 0:
            compiled = 1.0
        else:
            floor = warm.KERNELS[self.compiled - 1] if self.compiled else 0
            compiled = min(max(self.kernels(), floor), warm.KERNELS[self.compiled]) / need
        share = COMPILING * compiled + (1 - COMPILING) * min(self.loaded, n) / n
        doing = self.labels[min(self.loaded, n - 1)]
        return share, doing

    def kernels(self) -> int:
        """The compiled kernels in the cache, counted at most every KERNELS_EVERY seconds
        (the loading screen asks every frame)."""
        now = time.monotonic()
        if now - self._counted_at >= KERNELS_EVERY:
            self._counted_at, self._kernels = now, warm.kernels_cached()
        return self._kernels

    def seconds(self) -> float:
        """Time since the warm-up began [s]."""
        return time.monotonic() - self.began

    def stop(self) -> None:
        """End the child, if it still runs, and load nothing more (the game is closing)."""
        self.stopping = True
        if self.child is not None and self.child.poll() is None:
            self.child.terminate()
            try:
                self.child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.child.kill()
