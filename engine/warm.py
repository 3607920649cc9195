"""Compiling the engine ahead of need.

numba compiles a kernel the first time it is called with given argument types: seconds
on a first start, a fraction of one when the machine code is in the cache
(engine/compiled/cache.py). Calling every kernel once on a tiny structure that has every
kind of element does it before a level needs it, step by step, in the order a level
needs them: `PLAY_STEPS` first (a level cannot run without them), then the rest.

`python -m equilibria.engine.warm` runs the steps and prints one line per step done, `N LABEL`,
for a caller that compiles in a child process and shows progress (the game's loading
screen, game/app/session/warmup.py). After each step it notes in the cache folder how many are
done (`DONE`), so that a later start loads those without waiting for a compiler, and
a warm-up cut short (the game closed) resumes where it stopped.

On a first start it also starts a second process (`--side`) that compiles, on the other
core, the part of the first step that no kernel of the rest links in (`_side_part`): the
strain energy, and the law of a 'stability' beam, which the kernels
reach through a slot (engine/elements/beam.py, some 6 s of compiling). The first step compiles the
force kernel meanwhile, loads the rest from the cache as it needs them, and waits for
the second process only at its end (compiling its part itself if that failed).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numba.core.caching import _CacheLocator

from equilibria.engine.compiled import cache as kernel_cache
from equilibria.engine.elements.beam import STABILITY
from equilibria.engine.elements.kernels import built_state, eval_forces, strain_energy
from equilibria.engine.linear import mechanism, solve_linear
from equilibria.engine.model import build_model
from equilibria.engine.results import element_blocks
from equilibria.engine.simulation import Simulation
from equilibria.engine.vocabulary import EXAMPLES, MEMBER_KINDS
from equilibria.engine.words import N_

# A member of every kind, a plate, a load with a history, gravity: every kernel path.
WARM_MODEL = {
    "world": {"gravity": 9.81, "damping": 0.05},
    "materials": {"steel": {"E": 200e9, "density": 7850, "nu": 0.3, "strength": 250e6}},
    "nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}, {"id": "C", "x": 0.5, "y": 0.8}, {"id": "D", "x": 1.5, "y": 0.8}],
    "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
    "members": [  # one of each kind (engine/vocabulary.py), on these node pairs in turn
        {"id": i + j, "i": i, "j": j, "kind": kind, "material": "steel", **EXAMPLES[kind]}
        for (i, j), kind in zip(("AC", "BD", "CD", "AD", "BC"), MEMBER_KINDS, strict=False)
    ],
    "triangles": [{"id": "T", "nodes": ["A", "B", "C"], "material": "steel", "t": 0.01}],
    "loads": [{"node": "D", "fx": 0, "fy": -1e3, "history": [[0, 0], [0.1, 1]]}],
}
# Two tethers (engine/tethers.py): a hand's spring on D, a ground contact under C.
WARM_TETHERS = np.array([[3, 1.5, 0.0, 0.0, 1.0, 1e3, 1.0, 0.5], [2, 0.5, 1.0, 0.0, 0.0, 1e3, 1.0, 0.0]])


def _time_integration() -> None:
    """The explicit integrators: one compiled `advance` serves both; and the law of a
    'stability' beam, which the kernels reach through a slot (engine/elements/beam.py). The force
    kernel first, while the second process, if there is one, compiles what `_side_part`
    lists (module note), which the rest then loads from the cache."""
    model = build_model(WARM_MODEL)
    state = built_state(model.arrays)
    eval_forces(model.arrays, state, state.pos, state.vel, 0.0, state.force)
    for integrator in ("rk4", "symplectic"):
        sim = Simulation(build_model(WARM_MODEL), integrator)
        sim.set_tethers(WARM_TETHERS)
        sim.advance(10 * sim.dt)
        sim.strain_energy()
        sim.results()
    _side.wait()
    STABILITY.ensure()


def _side_part() -> None:
    """The second process's share of the first step, in the order the first needs it:
    the strain energy (which Python asks after each step), then the 'stability' beam's
    law. (What `advance` calls, the first compiles: each is compiled into it.)"""
    model = build_model(WARM_MODEL)
    strain_energy(model.arrays, built_state(model.arrays))
    STABILITY.ensure()


class _Side:
    """The second process (module note), if one runs."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        try:
            quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
            self.process = subprocess.Popen([sys.executable, "-m", "equilibria.engine.warm", SIDE], **quiet)
        except OSError:
            self.process = None  # this process compiles it, in its turn

    def wait(self) -> None:
        if self.process is not None:
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.wait()


_side = _Side()
SIDE = "--side"


def _implicit() -> None:
    """Newmark: its steps and the tangents of every element kind, plain and safe, which
    the game may switch to at an edit (a switch must not stall a frame on a compiler).
    After the steps a level needs: a first start plays with explicit steps while these
    compile (some 5 s); a switch before they are in would compile them then."""
    sim = Simulation(build_model(WARM_MODEL), "newmark")
    sim.set_tethers(WARM_TETHERS)
    sim.advance(10 * sim.dt)
    sim.results()
    model = build_model(WARM_MODEL)
    for safe in (False, True):
        element_blocks(model.arrays, model.arrays.pos0, built_state(model.arrays).chord, tangent=True, safe=safe)


def _statics() -> None:
    model = build_model(WARM_MODEL)
    solve_linear(model)
    mechanism(model)
    Simulation(model, "linear").solve_linear()


def _relaxation() -> None:
    Simulation(build_model(WARM_MODEL), "relax").relax(max_iter=50)


# (what a player reads, what to call), in the order they are needed.
# The words are a student's (the loading screen shows them, translated): what each step
# makes ready, not the method's name.
STEPS: list[tuple[str, Callable[[], None]]] = [
    (N_("the motion"), _time_integration),
    (N_("the static answer"), _statics),
    (N_("the motion of large structures"), _implicit),
    (N_("the search for rest"), _relaxation),
]
PLAY_STEPS = 2  # the first steps: what a level needs before it can run
DONE = "warm-steps-done"  # in the cache folder: how many of STEPS are compiled into it
# The compiled kernels in the cache once each of STEPS is done (numba's `.nbc` files, one
# per kernel and signature, the second process's among them), as counted on a first
# start with an empty cache (numba 0.68, Python 3.11): the loading screen's bar moves
# by them, a kernel at a time, while the steps compile.
KERNELS = (36, 36, 51, 54)


def kernel_folders() -> list[Path]:
    """The folders numba keeps this copy of the engine's kernels in, inside the cache
    folder: one per source folder of the engine, named as numba names them (the folder's
    name and a digest of its path as imported); none without a cache folder."""
    if kernel_cache.FOLDER is None:
        return []
    top = Path(os.path.abspath(__file__)).parent  # as numba sees the kernels' files: not resolved
    sources = sorted({path.parent for path in top.rglob("*.py")})
    return [kernel_cache.FOLDER / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py")) for folder in sources]


def kernels_cached() -> int:
    """How many compiled kernels the cache holds for this copy of the engine (its `.nbc`
    files): what the loading bar counts."""
    count = 0
    for folder in kernel_folders():
        with contextlib.suppress(OSError):  # not made yet: nothing compiled there
            count += sum(1 for entry in os.scandir(folder) if entry.name.endswith(".nbc"))
    return count


def steps_done() -> int:
    """How many of the first STEPS are in this engine's cache (0 when unknown)."""
    if kernel_cache.FOLDER is None:
        return 0
    try:
        return min(int((kernel_cache.FOLDER / DONE).read_text()), len(STEPS))
    except (OSError, ValueError):
        return 0


def _note_done(k: int) -> None:
    if kernel_cache.FOLDER is None:
        return
    temporary = kernel_cache.FOLDER / f".{DONE}.{os.getpid()}"
    try:
        temporary.write_text(f"{k}\n")
        os.replace(temporary, kernel_cache.FOLDER / DONE)  # atomic: a reader sees the old count or the new
    except OSError:
        pass  # not noted: a later start compiles (or loads) those steps again


def _interrupted(signum, frame) -> None:
    raise KeyboardInterrupt


def prepare(steps: int = len(STEPS), said: Callable[[int, str], None] | None = None) -> None:
    """Compile the first `steps` steps not yet in the cache (the first one with the second
    process beside it, module note), noting each in the cache folder, and call `said(k,
    label)` after each step k (those already in the cache at once)."""
    done = steps_done()
    if done == 0:
        _side.start()
    try:
        for k, (label, step) in enumerate(STEPS[:steps], 1):
            if k > done:
                step()
                _note_done(k)
            if said is not None:
                said(k, label)
    finally:
        _side.stop()


def main(argv: tuple[str, ...] | list[str] = ()) -> int:
    """Run every step, printing `N LABEL` after each (those already in the cache at
    once); 0 when all are done, 130 when interrupted (quietly). With `--side`, compile
    the first step's side part only (module note)."""
    try:  # the game ending its warm-up: end the second process too
        before = signal.signal(signal.SIGTERM, _interrupted)
    except ValueError:  # not the main thread: a caller's own
        before = None
    try:
        if list(argv) == [SIDE]:
            _side_part()
            return 0
        prepare(len(STEPS), lambda k, label: print(f"{k} {label}", flush=True))
    except KeyboardInterrupt:
        return 130
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
