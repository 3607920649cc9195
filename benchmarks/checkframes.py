"""Frames while a check is judged: `python -m benchmarks.checkframes [--levels bridge-03,bridge-01] [--repeat 1]`.

A script, not a test: it prints figures and never fails on a missed target (issue 33
point 4: the window never holds still for a check; target, every frame under 50 ms).

What runs. For each level, a real play scene (`PlayScene` in an `App`, SDL's dummy
display) with the level's reference answer in hand, driven frame by frame as the
window's loop does, paced at 60 frames a second (each frame's work timed, then a sleep
for what is left of its 1/60 s): first ORDINARY frames as the level opens (paused, the
structure drawn), then C pressed and frames until the verdict is in, the check judged
in its own thread beside them (game/app/session/checking.py, free: no lock step). The
same answer is then judged in one go in the window's thread, as every check was before
(`PlaySession.check`): the one frame the window would have held still.

Figures per level: `ordinary` the median and the longest of the ordinary frames [ms];
`judging` the frames drawn while the check was judged, their median and the longest
[ms] (the frame that hands the verdict over and shows its run counts among them); `check`
the wall time from C to the verdict [s]; `in one frame` the check judged in the
window's thread [s]. With `--repeat N`, each level's run of N with the shortest longest
frame while judging (other programs on the machine only ever slow a run down).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ORDINARY = 60  # frames before C
FRAME = 1 / 60  # [s] the window's pace
MAX_FRAMES = 60 * 600  # a check that takes longer than ten minutes of frames is cut off


def run_level(level: str) -> dict:
    import pygame

    from equilibria.app.launch import bench_of_solution
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.pacing import FRAME as FIXED
    from equilibria.app.session.stage import load_stage
    from equilibria.app.window.app import App
    from equilibria.course.syllabus import reference_solution, shipped_level

    def scene_with_answer(app: App) -> PlayScene:
        stage = load_stage(shipped_level(level))
        scene = PlayScene(app, stage, bench=bench_of_solution(stage, str(reference_solution(level))))
        app.push(scene)
        return scene

    def frame(app: App) -> float:
        start = time.perf_counter()
        app.frame()
        work = time.perf_counter() - start
        time.sleep(max(0.0, FRAME - work))
        return 1e3 * work

    app = App(fixed_frame=FIXED, check_batches=None)  # fixed frames (no pygame sleep: timed here), the check free in its thread
    with app:
        scene = scene_with_answer(app)
        ordinary = [frame(app) for _ in range(ORDINARY)]
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_c, mod=0, unicode="c"))
        began = time.perf_counter()
        judging = [frame(app)]  # "Checking…" drawn
        while scene.session.verdict is None and len(judging) < MAX_FRAMES:
            judging.append(frame(app))
        took = time.perf_counter() - began
        passed = scene.session.verdict is not None and scene.session.verdict.passed
    app = App(fixed_frame=FIXED)
    with app:
        scene = scene_with_answer(app)
        app.frame()
        start = time.perf_counter()
        scene.session.check()  # judged in the window's thread: the frame it would hold
        alone = time.perf_counter() - start
    return {"level": level, "ordinary": ordinary, "judging": judging, "check": took, "alone": alone, "passed": passed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="bridge-03,bridge-01", help="levels with a reference answer, comma-separated")
    parser.add_argument("--repeat", type=int, default=1, help="runs per level; the one with the shortest longest frame while judging is shown")
    args = parser.parse_args(argv)
    from equilibria.engine import warm

    warm.prepare()  # compiled and loaded first: the frames time the check, not the compiler
    print(f"{os.cpu_count()} cores; frames paced at 60 Hz; target: every frame under 50 ms")
    print(f"{'level':<12} {'ordinary med/max':>17} {'judging frames':>15} {'med/max':>14} {'check':>8} {'in one frame':>13}")
    for level in args.levels.split(","):
        runs = [run_level(level.strip()) for _ in range(max(1, args.repeat))]
        r = min(runs, key=lambda run: max(run["judging"]))
        o, j = r["ordinary"], r["judging"]
        print(
            f"{r['level']:<12} {statistics.median(o):>8.1f}/{max(o):>5.1f} ms {len(j):>15} {statistics.median(j):>7.1f}/{max(j):>5.1f} ms"
            f" {r['check']:>6.2f} s {r['alone']:>11.2f} s{'' if r['passed'] else '  (not passed)'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
