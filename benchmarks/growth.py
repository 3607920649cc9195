"""Growth benchmark: `python -m benchmarks.growth [--sizes 250,1000,2000,10000] [--frames 10]`.

A script, not a test: it prints a table and never fails on a missed target (issue 23,
point 5: a 2,000-member design opens to its first frame in under 1.5 s warm and runs at
60 fps in a window; a 10,000-member one opens in under 5 s and edits without a visible
stall; nothing per frame or per edit grows faster than the structure).

What runs. For each size, a child process (so that one size's heap and caches do not
slow the next) opens a sandbox lattice design of about that many members (the X-braced
truss of benchmarks/frames.py: supports along its foot, loads on its top) in a real play
scene, headless (SDL's dummy driver), after the engine's kernels are loaded (warm: a
small design opened and run first). It measures

- open: reading the design file to the play scene made (the model built, the static
  answer solved);
- first frame: the scene's first frame (layout, the picture, its labels);
- edit: one member added between two far nodes, and the frame that builds the model
  again (the design checked, the model, the static answer, the picture);
- frame: the median of `--frames` frames of the running structure (the simulation's
  share of a frame and the drawing), with a notice on the screen naming a node and a
  member (the words the picture labels are worked out from).

Growth. Beside each figure, its growth against linear from the smallest size: (t / t₀) /
(n / n₀), where n counts members. 1 means linear; 2 at four times the size means the
cost grows as n²... A reference line per size prints the linear extrapolation from the
smallest size (t₀ · n / n₀): the code before issue 23 cannot run beside this one (it
took minutes at 2,000 members), so the line to compare with is what linear growth from
250 members would give. Wall times depend on what else the machine runs: read the
growth, and time on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = ("open", "first", "edit", "frame")
NOTICE = "Member M5 and node N7 are named here."


def child(size: int, frames: int) -> dict:
    """Open, draw, edit and run a lattice of about `size` members in this process."""
    import pygame

    from benchmarks.frames import lattice_design
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.pacing import FRAME
    from equilibria.app.session.stage import load_stage
    from equilibria.app.window.app import App

    folder = Path(tempfile.mkdtemp(prefix="equilibria-growth-"))
    os.environ["EQUILIBRIA_HOME"] = str(folder / "home")  # the scene saves: never into the user's folder
    app = App(fixed_frame=FRAME)

    def opened(members: int) -> tuple[PlayScene, float, float]:
        path = folder / f"lattice-{members}.json"
        path.write_text(json.dumps(lattice_design(members)))
        t0 = time.perf_counter()
        scene = PlayScene(app, load_stage(path, sandbox=True))
        app.replace(scene)  # in place of the warm-up's
        t1 = time.perf_counter()
        app.frame()
        return scene, t1 - t0, time.perf_counter() - t1

    opened(40)  # the kernels loaded, the fonts made: what a warm start has
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
    app.run(3)
    scene, open_s, first_s = opened(size)
    session = scene.session
    session.notice = NOTICE
    app.frame()
    ids = [n["id"] for n in session.bench.doc["nodes"]]
    t0 = time.perf_counter()
    session.edit(session.bench.add_member, ids[0], ids[-1], "steel bar")
    session.notice = NOTICE  # as the edit cleared it
    app.frame()
    edit_s = time.perf_counter() - t0
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
    app.frame()
    times = []
    for _ in range(frames):
        t0 = time.perf_counter()
        app.frame()
        times.append(time.perf_counter() - t0)
    members = len(session.model.member_ids)
    app.close()
    return {"members": members, "open": open_s, "first": first_s, "edit": edit_s, "frame": sorted(times)[len(times) // 2]}


def measure(size: int, frames: int) -> dict:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "benchmarks.growth", "--child", str(size), "--frames", str(frames)]
    out = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"size {size}: the child failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def table(rows: list[dict]) -> str:
    """The figures side by side, each with its growth against linear, and under each size
    the linear extrapolation from the smallest."""
    base = rows[0]
    head = f"{'members':>8}  " + "  ".join(f"{name:>12} {'growth':>6}" for name in ("open [s]", "1st frame [s]", "edit [s]", "frame [ms]"))
    lines = [head, "-" * len(head)]
    for r in rows:
        ratio = r["members"] / base["members"]
        cells, ref = [], []
        for key in FIGURES:
            scale = 1e3 if key == "frame" else 1.0
            growth = (r[key] / base[key]) / ratio if base[key] > 0 else float("nan")
            cells.append(f"{r[key] * scale:12.3f} {growth:6.2f}")
            ref.append(f"{base[key] * ratio * scale:12.3f} {'':6}")
        lines.append(f"{r['members']:8d}  " + "  ".join(cells))
        if r is not base:
            lines.append(f"{'linear':>8}  " + "  ".join(ref))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="250,1000,2000,10000", help="members, comma-separated (default 250,1000,2000,10000)")
    parser.add_argument("--frames", type=int, default=10, help="running frames timed per size (default 10)")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.frames)))
        return
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        rows.append(measure(size, args.frames))
        print(f"  {rows[-1]['members']} members measured", file=sys.stderr)
    print("Growth against linear: (t / t₀) / (n / n₀) from the first size; 1 is linear. 'linear': t₀ · n / n₀.")
    print(table(rows))


if __name__ == "__main__":
    main()
