"""Start-up of the game, cold and warm: how soon the window answers, how soon a level plays.

    python -m benchmarks.startup            # about a minute on a first run
    python -m benchmarks.startup --quick    # warm cache only

Each run is a fresh `python` process doing what `equilibria play tutorial-01` (or the
bare `equilibria`, then Enter on the first level) does, with a real frame loop (SDL's
dummy driver where there is no display), observed from outside: the only change to the
game is a wrapper around `App.frame` that notes the wall time of every frame and stops
at the first frame drawn by the level itself.

- first frame: launch of python to the end of the first frame, whose events were handled
  (the window answers input from then on);
- playable: launch to the first frame the level's own scene drew;
- longest frame: the longest gap between two frames until then (the window never held).

Cold runs use a fresh numba cache folder (NUMBA_CACHE_DIR), as on a first start; warm
runs use the same folder again. Other work on the machine slows the cold compile: run
it with nothing else going.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numba

DRIVER = r"""
import json, sys, time
T0 = float(sys.argv[1])
from equilibria.app.window.app import App
marks = {"frames": 0, "longest": 0.0}
plain = App.frame
def frame(self):
    plain(self)
    now = time.time() - T0
    if marks["frames"]:
        marks["longest"] = max(marks["longest"], now - marks["last"])
    else:
        marks["first"] = now
        if sys.argv[2] == "menu":
            import pygame
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    marks["frames"] += 1
    marks["last"] = now
    if type(self.scene).__name__ == "PlayScene":
        marks["playable"] = now
        self.quit()
App.frame = frame
from equilibria.cli.main import main
code = main(["play", "tutorial-01"] if sys.argv[2] == "play" else [])
print(json.dumps(marks))
sys.exit(code)
"""

TARGETS = {"first": 1.0, ("playable", "cold"): 10.0, ("playable", "warm"): 1.5}


def run(entry: str, cache: str, home: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, EQUILIBRIA_HOME=home)
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", DRIVER, repr(t0), entry], env=env, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"{entry} failed ({out.returncode}): {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="warm cache only")
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, numba {numba.__version__}")
    print("launch of python to ... [s]; a window that holds for longer than a frame shows as the longest frame\n")
    print(f"{'entry':<28} {'cache':<5} {'first frame':>11} {'playable':>9} {'longest frame':>14}")
    rows = []
    with tempfile.TemporaryDirectory() as home:
        for entry, how in (("play", "equilibria play tutorial-01"), ("menu", "equilibria, then Enter")):
            with tempfile.TemporaryDirectory() as cache:
                for temperature in ("warm",) if args.quick else ("cold", "warm"):
                    if args.quick:
                        run(entry, cache, home)  # fill the cache first
                    m = run(entry, cache, home)
                    rows.append((temperature, m))
                    print(f"{how:<28} {temperature:<5} {m['first']:>11.2f} {m['playable']:>9.2f} {m['longest']:>14.2f}", flush=True)
    print("\ntargets (✓ met, ✗ missed)")
    for temperature, m in rows:
        for key, target in (("first", TARGETS["first"]), ("playable", TARGETS[("playable", temperature)])):
            print(f"  {key:<9} {temperature}: {m[key]:6.2f} s  target ≤ {target:g} s  {'✓' if m[key] <= target else '✗'}")


if __name__ == "__main__":
    main()
