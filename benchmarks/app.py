"""The app without Python beside the wheel in a venv: size, and first and later start.

    python3 scripts/app/build_app.py                      # first: the app, in dist/app/
    .venv/bin/python -m benchmarks.app                    # about 3 minutes
    .venv/bin/python -m benchmarks.app --app ARCHIVE --wheel WHEEL

The app is the download scripts/app/build_app.py made (its built.json names it), unpacked
into a fresh folder; the wheel (built from this checkout when none is given) is
installed with pip into a fresh venv, with what it needs from the package index, as a
user installs it. Each is then measured the same way, each run a new process with a
fresh HOME (so a fresh data and cache folder) and SDL's dummy driver, timed from
outside:

- size: the download (the .tar.gz or .zip; the wheel alone, and what pip fetches
  beside it, the wheels of its requirements) and what it takes on disk unpacked (the
  app's folder; the venv);
- `--version`: the program's own start, without the engine;
- first start: `play tutorial-01 --frames 1` with an empty cache, as on a first start
  (numba compiles what the level needs before its first frame: the frames of a
  `--frames` run repeat exactly);
- later start: the same again, its kernels loaded from the cache (best of REPEAT).

Other work on the machine slows the first start most (it compiles): run it quiet.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPEAT = 3
PLAY = ["play", "tutorial-01", "--frames", "1"]


def folder_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def timed(program: list[str], args: list[str], home: Path) -> float:
    """Seconds from launch to exit of `program args`, in an environment of its own."""
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    start = time.perf_counter()
    done = subprocess.run(program + args, env=env, cwd=home, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(program + args)} ended with {done.returncode}:\n{done.stderr}")
    return took


def starts(program: list[str], work: Path, name: str) -> dict[str, float]:
    """--version (median of REPEAT), the first start (fresh cache) and the later (best of REPEAT)."""
    version_home = work / f"{name}-version-home"
    version_home.mkdir()
    version = statistics.median(timed(program, ["--version"], version_home) for _ in range(REPEAT))
    home = work / f"{name}-home"
    home.mkdir()
    first = timed(program, PLAY, home)
    later = min(timed(program, PLAY, home) for _ in range(REPEAT))
    return {"version": version, "first": first, "later": later}


def the_app(archive: Path, work: Path) -> tuple[list[str], dict[str, float]]:
    into = work / "app"
    if archive.name.endswith(".tar.gz"):
        with tarfile.open(archive) as tar:
            tar.extractall(into, filter="tar")
        program = into / "Equilibria" / "equilibria"
    else:
        with zipfile.ZipFile(archive) as zipped:
            zipped.extractall(into)
        program = into / "Equilibria" / "Equilibria.exe"
    return [str(program)], {"download": archive.stat().st_size / 1e6, "disk": folder_mb(into)}


def the_wheel(wheel: Path | None, work: Path) -> tuple[list[str], dict[str, float]]:
    if wheel is None:
        subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", work / "wheel", ROOT], check=True)
        (wheel,) = (work / "wheel").glob("equilibria-*.whl")
    fetched = work / "fetched"  # what pip downloads for it: the wheel's requirements
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--dest", fetched, wheel], check=True)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel], check=True)
    return [str(venv / "bin" / "equilibria")], {"download": folder_mb(fetched), "wheel": wheel.stat().st_size / 1e6, "disk": folder_mb(venv)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", type=Path, help="the app's download (default: the one dist/app/built.json names)")
    parser.add_argument("--wheel", type=Path, help="the wheel (default: built from this checkout)")
    args = parser.parse_args(argv)
    archive = args.app
    if archive is None:
        built = ROOT / "dist" / "app" / "built.json"
        if not built.is_file():
            raise SystemExit(f"{built}: no app built yet (python3 scripts/app/build_app.py), or name one with --app")
        archive = built.parent / json.loads(built.read_text())["archive"]
    with tempfile.TemporaryDirectory(prefix="equilibria-bench-app-") as folder:
        work = Path(folder)
        app, app_size = the_app(archive.resolve(), work)
        venv, venv_size = the_wheel(args.wheel.resolve() if args.wheel else None, work)
        app_time, venv_time = starts(app, work, "app"), starts(venv, work, "venv")
    print(f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()}; the wheel's venv: Python {platform.python_version()}")
    print(f"{'':34} {'app (no Python)':>16} {'wheel in a venv':>16}")
    rows = [
        ("download [MB]", app_size["download"], venv_size["download"]),
        ("on disk [MB]", app_size["disk"], venv_size["disk"]),
        ("--version [s]", app_time["version"], venv_time["version"]),
        ("first start, empty cache [s]", app_time["first"], venv_time["first"]),
        (f"later start, best of {REPEAT} [s]", app_time["later"], venv_time["later"]),
    ]
    for label, a, v in rows:
        print(f"{label:34} {a:16.2f} {v:16.2f}")
    print(f"(the wheel itself: {venv_size['wheel']:.1f} MB, its requirements fetched from the package index beside it; start: `{' '.join(PLAY)}`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
