"""Frame benchmark: `python -m benchmarks.frames [--frames 180] [--sizes 100,600,2000]`.

A script, not a test: it prints figures side by side and never fails on a missed target
(issue 15: 60 fps at 2,000 members with the simulation in real time, drawing ≤ 8 ms).

What runs. Each scenario is a real play scene (`PlayScene` in an `App`) in a child
process, driven frame by frame as `App.frame` does: the queued input, `update` with a
frame of 1/60 s (the simulation advances 1/60 s of simulated time a frame: real time,
never capped), then the screen filled and drawn, then shown. The mouse rests over the
structure, so each frame also picks what is under it (the hover). The scenarios:

- `empty, paused`: the empty sandbox, paused (the fixed cost of a frame);
- `lattice N, running`: a sandbox lattice truss of about N members (X-braced cells of
  the sandbox's steel bar, 0.5 m, as scripts/soak.py builds; supports along its foot,
  4 kN loads on its top; unbreakable, so that it stands the same in every run),
  running under gravity;
- `bridge-01 ×1000, paused`: the level bridge-01 zoomed in 1000 times about the
  screen's centre (its build zone's dashed outline runs far off the screen);
- `one node at 7 px/m, paused`: a sandbox with one node, zoomed out to 7 px/m (the hover
  pick's 9 px radius then covers metres).

Each runs in two codes, side by side: `before`, the commit given by `--baseline`
(default adb60d7, before issue 15's fast drawing), unpacked with `git archive` into a
temporary folder and imported from there (PYTHONPATH, and that folder as the working
directory), and `after`, this checkout. And on two displays: `headless` (SDL's dummy
driver: no pixels leave the process) and `window`, an X11 window: the DISPLAY given,
or, when none is and `Xvfb` is installed, an Xvfb server this script starts (and stops)
on a free display number. (`apt-get install xvfb` provides it.)

Figures per scenario, after WARM frames (fewer when they take over `--seconds`): `frame` the median wall time of a frame's work
(input, update, draw, show; the loop's sleep to hold 60 fps is not run) and its 95th
percentile, `fps` the frames a second that work allows, `draw` the median of filling
and drawing the screen, `sim` of `update` (the simulation's batch of sub-steps, ground
contact), `show` of `pygame.display.flip`, and `gc` the full garbage collections per
100 frames (each costs tens of milliseconds with the game's heap). A scenario stops
after `--frames` frames or `--seconds` of wall time, whichever comes first. Then the
game's own loop runs for LOOP_SECONDS, as a player gets it (frames paced at 60 Hz by
pygame's clock, the simulation cut by the pacer to what a frame leaves): `loop fps`,
the frames it showed a second, and `×real`, simulated seconds per wall second (1: real
time; less: the slow motion a heavy model is shown in). With `--repeat N` each figure
is the run of N with the fastest median frame (other programs on the machine only
ever slow a run down), and `loop fps` and `×real` the best of the N.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM = 30  # frames run before timing (numba loads, caches fill, the pacer settles)
LOOP_SECONDS = 3.0  # [s] of the game's own frame loop, after the timed frames
CELL = 0.5  # [m] the lattice's cell
LOAD = 4e3  # [N] each point load on the top chord
SCENARIOS = ("empty", "lattice", "zoomed-in", "zoomed-out")


# ---------------------------------------------------------------------- the child
def lattice_design(members: int) -> dict:
    """A sandbox design of an X-braced lattice of about `members` steel bars (scripts/soak.py's
    shape: about five cells long for each cell high), pinned at its ends and on rollers every
    five cells along its foot, with a 4 kN load at every other top node."""
    ny = max(1, round((-6 + math.sqrt(36 + 80 * members)) / 40))
    nx = max(2, round((members - ny) / (4 * ny + 1)))
    x0 = -0.5 * nx * CELL
    ids = {(i, j): f"N{j * (nx + 1) + i + 1}" for j in range(ny + 1) for i in range(nx + 1)}
    nodes = [{"id": ids[i, j], "x": x0 + i * CELL, "y": CELL * (j + 1)} for j in range(ny + 1) for i in range(nx + 1)]
    pairs = []
    for j in range(ny + 1):
        for i in range(nx + 1):
            pairs += [((i, j), (i + 1, j))] if i < nx else []
            pairs += [((i, j), (i, j + 1))] if j < ny else []
            pairs += [((i, j), (i + 1, j + 1)), ((i + 1, j), (i, j + 1))] if i < nx and j < ny else []
    bar = {"kind": "bar", "material": "steel", "A": 1.0e-3, "I": 1.2e-7}  # the sandbox's "steel bar"
    members_ = [{"id": f"M{k + 1}", "i": ids[a], "j": ids[b], **bar} for k, (a, b) in enumerate(pairs)]
    feet = sorted({*range(0, nx + 1, 5), nx})
    return {
        "format": 1,
        "id": "lattice",
        "title": f"Lattice of {len(members_)} members",
        "kind": "sandbox",
        "world": {"gravity": 9.81, "breakable": False, "mass_damping": 0.5, "ground": [[x0 - 10.0, 0.0], [-x0 + 10.0, 0.0]]},
        "materials": {"steel": {"E": 210e9, "density": 7850.0, "nu": 0.3, "strength": 235e6}},
        "nodes": nodes,
        "members": members_,
        "supports": [{"node": ids[i, 0], "fix": ["x", "y"] if i in (0, nx) else ["y"]} for i in feet],
        "loads": [{"node": ids[i, ny], "fx": 0.0, "fy": -LOAD} for i in range(1, nx, 2)],
    }


def one_node_design() -> dict:
    return {
        "format": 1,
        "id": "one-node",
        "title": "One node",
        "kind": "sandbox",
        "world": {"ground": [[-10.0, 0.0], [10.0, 0.0]]},
        "materials": {"steel": {"E": 210e9, "density": 7850.0}},
        "nodes": [{"id": "N1", "x": 0.0, "y": 1.0}],
    }


def child(scenario: str, size: int, frames: int, seconds: float) -> dict:
    """Run one scenario in this process (the code imported is whichever `game` the path
    finds first) and return its figures."""
    import gc

    import numpy as np
    import pygame

    from equilibria.app.draw.palette import BACKGROUND
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.pacing import FRAME
    from equilibria.app.session.stage import Stage, load_stage
    from equilibria.app.window.app import App
    from equilibria.course.syllabus import level_path

    folder = Path(tempfile.mkdtemp(prefix="equilibria-frames-"))
    os.environ["EQUILIBRIA_HOME"] = str(folder / "home")  # the scene autosaves: never into the user's folder
    if scenario in ("lattice", "zoomed-out"):
        path = folder / "design.json"
        path.write_text(json.dumps(lattice_design(size) if scenario == "lattice" else one_node_design()))
        stage = load_stage(path, sandbox=True)
    elif scenario == "zoomed-in":
        stage = load_stage(level_path("bridge-01"))
    else:
        stage = Stage.empty_sandbox()
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, stage)
    app.push(scene)
    app.frame()  # lays the screen out
    world = scene.layout.world
    if scenario == "lattice":
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
    elif scenario == "zoomed-in":
        scene.zoom(1000.0, world.center)
    elif scenario == "zoomed-out":
        scene.zoom(7.0 / scene.view.scale, world.center)
    hover = world.center if scenario != "lattice" else scene.view.point(0.0, CELL * 1.5)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(round(hover[0]), round(hover[1])), rel=(0, 0), buttons=(0, 0, 0)))
    timings: list[tuple[float, float, float, float]] = []
    collections = 0

    def count(phase: str, info: dict) -> None:
        nonlocal collections
        if phase == "start" and info["generation"] == 2:
            collections += 1

    start = time.perf_counter()
    warm = WARM
    for k in range(WARM + frames):
        if k < warm and k >= 2 and time.perf_counter() - start > seconds:
            warm = k  # frames that take seconds (the code before, zoomed in): warm up less
        if k == warm:
            gc.callbacks.append(count)
            start = time.perf_counter()
        elif k > warm and time.perf_counter() - start > seconds:
            break
        t0 = time.perf_counter()
        for event in pygame.event.get():
            scene.handle_event(event)
        scene.update(FRAME)
        t1 = time.perf_counter()
        app.screen.fill(BACKGROUND)
        scene.draw(app.screen)
        t2 = time.perf_counter()
        pygame.display.flip()
        t3 = time.perf_counter()
        if k >= warm:
            timings.append((t3 - t0, t2 - t1, t1 - t0, t3 - t2))
    gc.callbacks.remove(count)
    # The game's own loop, as a player gets it: frames paced at 60 Hz by the clock, the
    # simulation capped by the pacer to what a frame leaves (shown as slow motion).
    run = getattr(scene, "session", scene)  # the run's state: the play session's now, the scene's own in the baseline
    app.fixed_frame, run.pacer.fixed = None, False
    app.frame()
    begin, simulated, frames_before = time.perf_counter(), run.sim.time if run.sim else 0.0, app.frames
    while time.perf_counter() - begin < LOOP_SECONDS:
        app.frame()
    wall = time.perf_counter() - begin
    loop_fps = (app.frames - frames_before) / wall
    rate = ((run.sim.time if run.sim else 0.0) - simulated) / wall
    members = len(run.model.member_ids) if run.model is not None else 0
    app.close()
    shutil.rmtree(folder, ignore_errors=True)
    t = np.array(timings) * 1e3
    return {
        "members": members,
        "frames": len(t),
        "frame": float(np.median(t[:, 0])),
        "p95": float(np.percentile(t[:, 0], 95)),
        "fps": float(1e3 / t[:, 0].mean()),
        "draw": float(np.median(t[:, 1])),
        "sim": float(np.median(t[:, 2])),
        "show": float(np.median(t[:, 3])),
        "gc": 100.0 * collections / len(t),
        "loop": loop_fps,
        "rate": rate,
        "driver": pygame.display.get_driver() if pygame.display.get_init() else os.environ.get("SDL_VIDEODRIVER", ""),
    }


# ---------------------------------------------------------------------- the parent
def baseline_tree(rev: str) -> Path:
    """The commit `rev` of this repository unpacked in a temporary folder (kept for the
    next run: the engine's numba cache is kept in it too)."""
    sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    tree = Path(tempfile.gettempdir()) / f"equilibria-baseline-{sha}"
    if not (tree / "game").is_dir():
        part = Path(tempfile.mkdtemp(prefix=f"equilibria-baseline-{sha}-"))
        archive = subprocess.run(["git", "archive", sha], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(part)], input=archive, check=True)
        part.rename(tree)
    return tree


def start_xvfb() -> tuple[subprocess.Popen | None, str | None]:
    """An Xvfb server on a free display number, and that DISPLAY; (None, None) when
    Xvfb is not installed."""
    if shutil.which("Xvfb") is None:
        return None, None
    for number in range(99, 140):
        if Path(f"/tmp/.X{number}-lock").exists():
            continue
        command = ["Xvfb", f":{number}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        if server.poll() is None:
            return server, f":{number}"
    return None, None


def run_child(code: Path, display: str | None, scenario: str, size: int, frames: int, seconds: float) -> dict | str:
    """The figures of one scenario run in a child process importing `code`, or why it failed."""
    env = dict(os.environ, PYTHONPATH=str(code), SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    if display is None:
        env["SDL_VIDEODRIVER"] = "dummy"
    else:
        env["SDL_VIDEODRIVER"] = "x11"
        env["DISPLAY"] = display
    command = [sys.executable, str(Path(__file__).resolve()), "--child", scenario, "--size", str(size), "--frames", str(frames), "--seconds", str(seconds)]
    done = subprocess.run(command, cwd=code, env=env, capture_output=True, text=True, timeout=900)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return (done.stderr.strip().splitlines() or ["no output"])[-1]
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=180, help="frames timed per scenario (default 180)")
    parser.add_argument("--seconds", type=float, default=6.0, help="most wall seconds timed per scenario (default 6)")
    parser.add_argument("--sizes", default="100,600,2000", help="lattice sizes [members] (default 100,600,2000)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help=f"which to run (default {','.join(SCENARIOS)})")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each scenario, the fastest kept (default 1)")
    parser.add_argument("--baseline", default="adb60d7", help="the commit to compare with (default adb60d7)")
    parser.add_argument("--no-baseline", action="store_true", help="time this checkout only")
    parser.add_argument("--no-window", action="store_true", help="headless only")
    parser.add_argument("--child", choices=SCENARIOS, help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.size, args.frames, args.seconds)), flush=True)
        return 0

    codes = [("after", ROOT)] if args.no_baseline else [("before", baseline_tree(args.baseline)), ("after", ROOT)]
    server, display = None, None
    displays: list[tuple[str, str | None]] = [("headless", None)]
    if not args.no_window:
        display = os.environ.get("DISPLAY")
        if not display:
            server, display = start_xvfb()
        if display:
            displays.append(("window", display))
        else:
            print("no DISPLAY and no Xvfb: headless only (apt-get install xvfb for the window figures)")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    scenarios = [("empty", 0, "empty sandbox, paused"), *(("lattice", n, f"lattice {n}, running") for n in sizes)]
    scenarios += [("zoomed-in", 0, "bridge-01 ×1000, paused"), ("zoomed-out", 0, "one node at 7 px/m, paused")]
    scenarios = [s for s in scenarios if s[0] in args.scenarios.split(",")]
    plan = f"{args.frames} frames or {args.seconds:g} s per scenario after {WARM} to warm up, best of {args.repeat}"
    print(f"{os.cpu_count()} cores; {plan}; times in ms (medians)")
    head = f"{'scenario':<28}{'display':<10}{'code':<8}{'members':>8}{'frame':>9}{'p95':>9}{'fps':>8}{'draw':>9}{'sim':>8}{'show':>8}{'gc/100':>8}"
    print(f"{head}{'loop fps':>10}{'×real':>7}")
    try:
        for scenario, size, title in scenarios:
            for shown, where in displays:
                runs: dict[str, list] = {name: [] for name, _ in codes}
                for _ in range(args.repeat):  # interleaved: a busy spell on the machine slows both codes alike
                    for code_name, code in codes:
                        runs[code_name].append(run_child(code, where, scenario, size, args.frames, args.seconds))
                for code_name, _ in codes:
                    done = [r for r in runs[code_name] if not isinstance(r, str)]
                    r = min(done, key=lambda r: r["frame"]) if done else runs[code_name][0]
                    if done:  # the loop's figures: the best of the runs too
                        r = {**r, "loop": max(d["loop"] for d in done), "rate": max(d["rate"] for d in done)}
                    if isinstance(r, str):
                        print(f"{title:<28}{shown:<10}{code_name:<8}  failed: {r}")
                        continue
                    print(
                        f"{title:<28}{shown:<10}{code_name:<8}{r['members']:>8}{r['frame']:>9.2f}{r['p95']:>9.2f}{r['fps']:>8.0f}"
                        f"{r['draw']:>9.2f}{r['sim']:>8.2f}{r['show']:>8.2f}{r['gc']:>8.1f}{r['loop']:>10.1f}{r['rate']:>7.2f}",
                        flush=True,
                    )
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
