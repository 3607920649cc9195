"""It always answers the user (issue 23, point 6; issue 26, point 4): `--version` and
`--help` load no engine and make no folder; SIGTERM and SIGHUP to a running game keep the
player's work and end it with exit 0, even in the middle of long work; Ctrl+C while the
engine loads ends quietly with 130. Subprocesses, waited for with generous timeouts:
nothing here is a timing."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numba", "scipy", "numpy", "pydantic", "pygame", "equilibria.engine")


def _env(tmp_path: Path) -> dict:
    """Every folder the game could make points into an empty place of its own."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    env.pop("NUMBA_CACHE_DIR", None)
    for name in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env["EQUILIBRIA_HOME"] = str(tmp_path / "equilibria-home")
    return env


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_version_and_help_load_no_engine_and_make_no_folder(tmp_path, flag):
    probe = (
        "import sys\nfrom equilibria.cli.main import main\ntry:\n    main([sys.argv[1]])\nexcept SystemExit as stop:\n    code = stop.code\n"
        f"print(code, *[m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)"
    )
    out = subprocess.run([sys.executable, "-c", probe, flag], env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.stderr.split() == ["0"], out.stderr  # exit 0, and none of the heavy modules loaded
    assert "equilibria" in out.stdout
    assert [p.name for p in tmp_path.iterdir()] == []  # no cache, data or home folder made


def test_the_console_command_answers_its_version_the_same_way(tmp_path):
    out = subprocess.run([sys.executable, "-m", "equilibria", "--version"], env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("equilibria ")
    assert [p.name for p in tmp_path.iterdir()] == []


DRIVER = r"""
import sys
import equilibria.app.session.play as session_module
from equilibria.app.window.app import App
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.stage import Stage
from equilibria.course.progress import Progress

session_module.SAVE_EVERY = 1e9  # no autosave after the first: what is kept at the end, the close kept
app = App()
scene = PlayScene(app, Stage.empty_sandbox(), progress=Progress.load())
app.push(scene)
session = scene.session
session.edit(session.bench.add_node, 1.0, 2.0)
app.frame()  # the first save
session.edit(session.bench.add_node, 3.0, 2.0)  # not saved yet
if sys.argv[1] == "long":  # the next frame is long work: a preview of an hour of motion
    tick = session.tick
    session.edit(session.bench.add_member, "N1", "N2", "steel bar")
    session.tick = lambda seconds: (session.preview_motion(3600.0), tick(seconds))
print("ready", flush=True)
app.run()
print("the loop ended without a signal", flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="needs SIGTERM and SIGHUP (POSIX)")
@pytest.mark.parametrize(("signum", "work"), [(signal.SIGTERM, "frames"), (signal.SIGHUP, "frames"), (signal.SIGTERM, "long")])
def test_a_closing_signal_keeps_the_work_and_exits_0(tmp_path, signum, work):
    env = _env(tmp_path)
    game_process = subprocess.Popen([sys.executable, "-c", DRIVER, work], env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert game_process.stdout.readline().strip() == "ready", game_process.stderr.read()
        time.sleep(0.5)  # into the loop (or the long work)
        game_process.send_signal(signum)
        out, err = game_process.communicate(timeout=120)
    finally:
        game_process.kill()
    assert game_process.returncode == 0, err
    assert "Traceback" not in err and "without a signal" not in out
    designs = list((Path(env["EQUILIBRIA_HOME"]) / "designs").glob("*.json"))
    assert len(designs) == 1
    nodes = json.loads(designs[0].read_text())["nodes"]
    assert [(n["x"], n["y"]) for n in nodes] == [(1.0, 2.0), (3.0, 2.0)]  # the second node: kept by the close


def test_ctrl_c_while_the_engine_loads_ends_quietly(tmp_path):
    """SIGINT as `main` begins, while `check` imports the engine (numba, scipy, a second
    or more): exit 130 and no traceback. The probe says when it calls `main`; the signal
    follows at once, long before the engine has loaded."""
    env = _env(tmp_path)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")  # a cache of its own: nothing of the user's touched
    probe = (  # says so from inside main's guard, where its first call is build_parser
        "import sys\nimport equilibria.cli.main\nparser = equilibria.cli.main.build_parser\n"
        "def announced():\n    print('main', flush=True)\n    return parser()\n"
        "equilibria.cli.main.build_parser = announced\nsys.exit(equilibria.cli.main.main(['check', 'tutorial-01']))"
    )
    check = subprocess.Popen([sys.executable, "-c", probe], env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert check.stdout.readline().strip() == "main"
    check.send_signal(signal.SIGINT)
    _, err = check.communicate(timeout=300)
    assert check.returncode == 130, err
    assert "Traceback" not in err and err.strip() == "", err


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="needs SIGTERM (POSIX)")
def test_a_closing_signal_a_library_swallowed_still_closes_and_keeps_the_work():
    """SIGTERM while numba compiles: its handler's Closed is raised inside llvmlite's
    callback, which ignores it, and the compile then fails with a RuntimeError (seen in a
    full run of the suite). The game still ends as the signal asked: the scenes keep what
    they hold and Closed goes on up (exit 0), not the library's error."""
    from equilibria.app.session.pacing import FRAME
    from equilibria.app.window.app import App, Closed, Scene

    kept = []

    class Compiling(Scene):
        def update(self, frame_seconds: float) -> None:
            with contextlib.suppress(Closed):  # what llvmlite's callback does with it
                signal.raise_signal(signal.SIGTERM)
            raise RuntimeError("no compiled object yet")

        def closing(self) -> None:
            kept.append("work")

    app = App(fixed_frame=FRAME)
    hook = sys.unraisablehook
    try:
        with app, pytest.raises(Closed):
            app.push(Compiling(app))
            app.run(5)
    finally:
        sys.unraisablehook = hook
    assert kept == ["work"]


SWALLOWED = """
import signal
from equilibria.app.window.app import App, Closed, Scene
from equilibria.app.session.pacing import FRAME

class Dying:
    def __del__(self):  # as llvmlite's objects are collected while numba compiles
        signal.raise_signal(signal.SIGTERM)

class Compiling(Scene):
    def update(self, frame_seconds):
        Dying()  # the signal arrives in its __del__, where Python cannot raise Closed
        raise RuntimeError("no compiled object yet")

app = App(fixed_frame=FRAME)
with app:
    app.push(Compiling(app))
    try:
        app.run(5)
    except Closed:
        print("closed", flush=True)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="needs SIGTERM (POSIX)")
def test_a_swallowed_closing_signal_prints_no_traceback(tmp_path):
    """Python prints an exception raised in a __del__ or a C callback as "Exception
    ignored … Traceback" (outside pytest, which turns them into warnings): the Closed a
    closing signal raised there is said nothing of."""
    done = subprocess.run([sys.executable, "-c", SWALLOWED], env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "closed", done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr


def test_the_window_closed_during_a_long_check_ends_the_game_at_once_and_keeps_the_work(monkeypatch):
    """A check runs its structure for seconds (bridge-03: the truck crosses, then the
    hold), beside the frames (game/app/session/checking.py). The window's close, made
    meanwhile, is answered by the next frame, not when the check is done: the judged run
    stops at its next batch, nothing is counted, the scene keeps its work and the game
    ends."""
    from test_play_session import key, start

    from equilibria.app.launch import bench_of_solution
    from equilibria.app.session.stage import load_stage
    from equilibria.course.syllabus import reference_solution, shipped_level
    from equilibria.engine.simulation import Simulation

    stage = load_stage(shipped_level("bridge-03"))
    app, scene = start(stage, bench=bench_of_solution(stage, str(reference_solution("bridge-03"))))
    app.check_batches = 2  # lock step: two batches of the judged run a frame
    batches, advance = [], Simulation.advance

    def closing_meanwhile(sim, *args, **named):
        batches.append(1)
        if len(batches) == 3:
            pygame.event.post(pygame.event.Event(pygame.QUIT))  # the player closes the window
        return advance(sim, *args, **named)

    kept = []
    monkeypatch.setattr(Simulation, "advance", closing_meanwhile)
    monkeypatch.setattr(scene.session, "save", lambda **named: kept.append("work") if named.get("force") else True)
    with app:
        key(app, pygame.K_c)  # "Checking…" drawn; judging starts on the next frame
        app.run(10)
    assert not app.running and kept == ["work"]
    assert 3 <= len(batches) <= 6, "the check went on after the window was closed"
    assert scene.session.verdict is None and scene.session.judging is None
    assert scene.session.level_bench.attempt.tries == 0  # nothing counted
