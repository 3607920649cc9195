"""Starting up: the engine warms up beside the window, which answers from its first
frame; numba's cache lives in a versioned folder of the user's cache directory."""

import itertools
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame

from equilibria.app.scenes.loading import LoadingScene, when_ready
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.warmup import EngineWarmup
from equilibria.app.window.app import App, Scene
from equilibria.engine import warm
from equilibria.engine.compiled import cache as kernel_cache

ROOT = Path(__file__).resolve().parents[1]
LINES = "import time; [print(k, flush=True) or time.sleep(0.05) for k in (1, 2, 3)]"  # as engine/warm.py prints: `N LABEL`, a label may be empty


def child(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_the_warm_up_loads_each_step_the_child_reports_and_is_then_ready():
    warmup = EngineWarmup.start(child(LINES), cached=0)
    assert warmup.child is not None
    assert warmup.wait(timeout=60) and warmup.ready()
    deadline = time.monotonic() + 60
    while not warmup.done() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert warmup.done() and warmup.progress() == (1.0, warm.STEPS[-1][0])
    assert warmup.failure == ""


def test_each_line_of_the_child_counts_as_it_comes():
    """Ready to play while the child still compiles the rest: the lines, not its end, tell."""
    warmup = EngineWarmup.start(child("import time; print('1 a', flush=True); print(2, flush=True); time.sleep(60)"), cached=0)
    assert warmup.wait(timeout=60)
    assert warmup.child.poll() is None and warmup.compiled == 2 and not warmup.done()
    warmup.stop()


def test_a_child_that_fails_leaves_the_compiling_to_the_thread():
    warmup = EngineWarmup.start(child("import sys; sys.exit(1)"), cached=0)
    assert warmup.wait(timeout=120)
    assert "stopped" in warmup.failure


def test_with_the_cache_warm_there_is_no_child_and_the_steps_load_at_once():
    warmup = EngineWarmup.start(child("raise SystemExit('never run')"), cached=len(warm.STEPS))
    assert warmup.child is None
    assert warmup.wait(timeout=60)


def test_stop_ends_a_child_still_compiling():
    warmup = EngineWarmup.start(child("import time; time.sleep(60)"), cached=0)
    assert not warmup.ready()
    warmup.stop()
    assert warmup.child.poll() is not None
    assert warmup.stopping and not warmup.ready()


def test_the_loading_screen_answers_and_gives_way_when_the_engine_is_ready(tmp_path):
    app = App(fixed_frame=FRAME)
    app.warmup = EngineWarmup.start(child("import time; time.sleep(0.5); print(1, flush=True); print(2, flush=True)"), cached=0)
    level = Scene(app)
    scene = when_ready(app, lambda a: level)
    assert isinstance(scene, LoadingScene)  # not ready: the loading screen first
    app.push(scene)
    app.frame()
    app.screenshot(tmp_path / "loading.png")
    assert app.scene is scene, "it waits, drawing, while the engine is prepared"
    assert app.warmup.wait(timeout=60)
    app.frame()
    assert app.scene is level and app.scenes == [level], "the level takes its place once the engine is ready"
    app.warmup.stop()
    app.close()


def test_escape_leaves_the_loading_screen():
    app = App(fixed_frame=FRAME)
    app.warmup = EngineWarmup.start(child("import time; time.sleep(60)"), cached=0)
    app.push(when_ready(app, lambda a: None))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
    app.frame()
    assert not app.running and not app.scenes
    app.warmup.stop()
    app.close()


def test_the_warm_up_command_reports_every_step(tmp_path):
    out = subprocess.run([sys.executable, "-m", "equilibria.engine.warm"], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert [line.split(" ", 1)[0] for line in out.stdout.splitlines()] == [str(k) for k in range(1, len(warm.STEPS) + 1)]
    assert warm.steps_done() == len(warm.STEPS)
    # The loading bar's count of kernels: at least as many are in the cache as it expects
    # (tests may have added kernels of other signatures), so that the bar can fill.
    assert warm.kernels_cached() >= warm.KERNELS[-1] > 0


def test_the_loading_bar_moves_a_kernel_at_a_time(monkeypatch):
    """While the child compiles the first step, each kernel it writes into the cache moves
    the bar (not two jumps per step); the bar never passes the step under way, and a step
    the child reports done counts in full."""
    import equilibria.app.session.warmup as warmup_module

    counted = [0]
    monkeypatch.setattr(warm, "kernels_cached", lambda: counted[0])
    monkeypatch.setattr(warmup_module, "KERNELS_EVERY", 0.0)
    warmup = EngineWarmup.start(child("import time; time.sleep(60)"), cached=0)
    try:
        shares = []
        for k in range(warm.KERNELS[0] + 3):  # three kernels of the second step written early (the side process)
            counted[0] = k
            shares.append(warmup.progress(warm.PLAY_STEPS)[0])
        first = warm.KERNELS[0]
        assert shares[0] == 0.0 and all(a < b for a, b in itertools.pairwise(shares[: first + 1]))  # a kernel, a move
        assert shares[first] == shares[-1] <= warmup_module.COMPILING  # held at the end of the step under way
        warmup.compiled = 1  # the child says the first step is in
        counted[0] = 0  # (a count that lags) never takes the bar back
        assert warmup.progress(warm.PLAY_STEPS)[0] >= shares[first]
    finally:
        warmup.stop()


def test_the_kernel_cache_is_a_versioned_folder_of_the_user_cache(tmp_path):
    """In a fresh process with no NUMBA_CACHE_DIR, a compiled kernel lands in
    <user cache>/equilibria/numba/<version>-<digest>/, not beside the source."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path)
    code = "from equilibria.engine.compiled import cache; from equilibria.engine.elements.beam import wrap_angle; wrap_angle(7.0); print(cache.FOLDER)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    folder = Path(out.stdout.strip())
    assert folder.parent == tmp_path / "equilibria" / "numba"
    assert folder.name == f"{kernel_cache.version()}-{kernel_cache.engine_digest()}"
    assert any(folder.rglob("*.nbi")), "the kernel's index is in the folder"


def test_numba_cache_dir_wins_when_set(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "mine"))
    code = "from equilibria.engine.compiled import cache; print(cache.FOLDER)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert Path(out.stdout.strip()) == tmp_path / "mine"


def test_the_digest_changes_with_any_engine_source(tmp_path, monkeypatch):
    before = kernel_cache.engine_digest()
    fake = tmp_path / "engine"
    real = Path(kernel_cache.__file__).resolve().parents[1]
    for path in real.rglob("*.py"):
        (fake / path.relative_to(real)).parent.mkdir(parents=True, exist_ok=True)
        (fake / path.relative_to(real)).write_bytes(path.read_bytes())
    monkeypatch.setattr(kernel_cache, "__file__", str(fake / "compiled" / "cache.py"))
    assert kernel_cache.engine_digest() == before
    kernels = fake / "elements" / "kernels.py"  # a module in a room of the engine counts too
    kernels.write_bytes(kernels.read_bytes() + b"\n# edited\n")
    assert kernel_cache.engine_digest() != before
