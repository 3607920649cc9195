"""The speed targets of issue 24 (point 6), each beside its reference in the same run:
`python -m benchmarks.speed [--parts rk4,lattice,sagging] [--seconds 1] [--against main]`.

A script, not a test: it prints figures side by side and never fails. On a machine
shared with other work the absolute figures move with the load; the ratios of figures
taken in the same run, in turns, and the counts (factorizations, Newton iterations,
solves) do not.

- rk4: the Warren truss of benchmarks/peer.py (1,999 bars, the bottom chord pinned every
  10 panels, gravity, damping 0.02) by RK4 at dt = 0.1 ms through Simulation.advance (what
  `equilibria simulate` runs): simulated seconds per wall second; and `equilibria
  simulate` itself in a fresh process, with its start-up and with it taken off. Then the compiled
  kernel (dynamics.advance) alone, in bar evaluations a second (four a bar and step),
  against the arithmetic ceiling of this core, measured in the same process right after
  the kernel (so under the same load) by two tiny numba loops: its scalar peak of additions and multiplications (eight independent chains of
  x ← x·a + b), and its throughput of square roots and divisions (independent ones). A
  bar evaluation (engine/elements/bar.py, bar_forces) counts FLOPS_PER_BAR additions and
  multiplications and one square root and one division (a real division, 1/L: IEEE
  rounding, no fast-math); its ceiling is the lower of peak/FLOPS_PER_BAR and
  1/(t_sqrt + t_div).
- lattice: the 12-chord lattice of benchmarks/peer.py at 50,006 members (26,242 DOFs),
  shaken at the top, by Newmark at dt = 1/120 s: real time, and the factorizations,
  Newton iterations (one solve each) and wall time they took.
- sagging: a Warren truss of 2,500 panels (9,999 bars) pinned every 100 panels, let go
  under gravity from its unloaded shape: each 100 m span sags about 2 m and swings (large
  motion, the geometry changing under Newton); the same figures.

The references, in the same run, taken in turns with the engine's own figures:
- "reference switches": this engine with Newmark's reference switches (engine/newmark.py:
  SuperLU's LU for every factor, and Newton stopping only on the residual it measured);
- --against REF (a git ref, e.g. main): the engine of that commit, exported to a
  temporary folder and run in a subprocess of its own (its own numba cache), the same
  script measuring it. Every figure is the best of --repeats runs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from time import perf_counter

ROOT = Path(__file__).resolve().parents[1]
RK4_DT = 1e-4  # [s]
NEWMARK_DT = 1.0 / 120.0  # [s]
# Additions and multiplications of one bar evaluation (engine/elements/bar.py, bar_forces), besides
# its square root and its division: dx, dy (2); dx² + dy² (3); L − L0 and k(L − L0) (2);
# N dx / L and N dy / L (4); the four force updates (4). A damped bar adds 8, a cable 0.
FLOPS_PER_BAR = 15
SAG_PANELS = 2500
SAG_SPAN = 100  # panels between pinned nodes of the sagging truss


# --------------------------------------------------------------------------- structures


def sagging_warren() -> dict:
    """The sagging Warren truss (module doc) as a model file."""
    from benchmarks.peer import warren

    data = warren(SAG_PANELS)
    data["supports"] = [{"node": f"b{i}", "fix": ["x", "y"]} for i in range(0, SAG_PANELS + 1, SAG_SPAN)]
    return data


# --------------------------------------------------------------------------- one case, measured


def measure(case: str, seconds: float, reference: bool) -> dict:
    """The figures of one case with the engine importable here (this tree's or REF's)."""
    if case == "rk4":
        return _rk4(seconds)
    return _newmark(case, seconds, reference)


def _rk4(seconds: float) -> dict:
    from benchmarks.peer import warren
    from equilibria.engine import dynamics
    from equilibria.engine.model import build_model
    from equilibria.engine.simulation import Simulation

    model = build_model(warren())
    m = model.arrays
    bars = int(m.bar_ij.shape[0])
    sim = Simulation(model, "rk4", dt=RK4_DT)
    sim.advance(0.01)  # compiled or loaded, warm
    begin = perf_counter()
    sim.advance(seconds)
    through = seconds / (perf_counter() - begin)
    steps = 2000
    best = 0.0
    for _ in range(3):
        begin = perf_counter()
        dynamics.advance(m, sim.state, sim.work, RK4_DT, steps, dynamics.RK4, sim.ctl)
        best = max(best, 4 * steps * bars / (perf_counter() - begin))
    top = ceiling()  # right beside the kernel's figure, in the same process: the same load on both
    return {"bars": bars, "realtime": through, "kernel_rate": best, "kernel_realtime": best / (4 * bars) * RK4_DT, **top}


def _newmark(case: str, seconds: float, reference: bool) -> dict:
    import scipy.sparse.linalg as spla

    from benchmarks.peer import bays_for, lattice
    from equilibria.engine.model import build_model
    from equilibria.engine.simulation import Simulation

    spla.use_solver(useUmfpack=False)
    data = lattice(bays_for(50006), seconds + 0.1) if case == "lattice" else sagging_warren()
    model = build_model(data, statics_only=True)
    sim = Simulation(model, "newmark", dt=NEWMARK_DT)
    nm = sim.implicit
    if reference:
        nm.profile, nm.fast = False, 0.0
    sim.advance(NEWMARK_DT)  # compiled or loaded, warm; the pattern made
    f0, i0 = nm.factorizations, nm.iterations
    begin = perf_counter()
    sim.advance(seconds)
    wall = perf_counter() - begin
    m = model.arrays
    return {
        "members": int(m.bar_ij.shape[0] + m.beam_ij.shape[0]),
        "dofs": int((~m.fixed).sum()),
        "realtime": seconds / wall,
        "factorizations": nm.factorizations - f0,
        "iterations": nm.iterations - i0,
        "steps": round(seconds / NEWMARK_DT),
        "sag": float(model.arrays.pos0[:, 1].min() - sim.state.pos[:, 1].min()),
    }


# --------------------------------------------------------------------------- the ceiling


def ceiling() -> dict:
    """This core's scalar peak [flop/s] and its square root + division time [s]."""
    from numba import njit

    @njit(cache=False)
    def chains(n, a, b):  # sixteen independent chains of x ← x·a + b: 2 flops a link
        x = (1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5)
        for _ in range(n):
            x = (
                x[0] * a + b, x[1] * a + b, x[2] * a + b, x[3] * a + b, x[4] * a + b, x[5] * a + b, x[6] * a + b, x[7] * a + b,
                x[8] * a + b, x[9] * a + b, x[10] * a + b, x[11] * a + b, x[12] * a + b, x[13] * a + b, x[14] * a + b, x[15] * a + b,
            )  # fmt: skip
        return sum(x)

    @njit(cache=False)
    def roots(n, a, c):  # eight independent chains of x ← 1/√(x + c): a square root and a division a link
        x0, x1, x2, x3, x4, x5, x6, x7 = 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7
        for _ in range(n):
            x0 = 1.0 / math.sqrt(x0 + c)
            x1 = 1.0 / math.sqrt(x1 + c)
            x2 = 1.0 / math.sqrt(x2 + c)
            x3 = 1.0 / math.sqrt(x3 + c)
            x4 = 1.0 / math.sqrt(x4 + c)
            x5 = 1.0 / math.sqrt(x5 + c)
            x6 = 1.0 / math.sqrt(x6 + c)
            x7 = 1.0 / math.sqrt(x7 + c)
        return x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7

    peak = _best_rate(chains, 20_000_000, 32)
    best = 1.0 / _best_rate(roots, 4_000_000, 8)
    return {"peak": peak, "sqrt_div": best, "bars_per_s": min(peak / FLOPS_PER_BAR, 1.0 / best)}


def _best_rate(loop, n: int, per: int) -> float:
    """Operations a second of loop(n, …) (per operations an iteration), best of three."""
    loop(10, 0.999, 1e-3)
    best = 0.0
    for _ in range(3):
        begin = perf_counter()
        loop(n, 0.999, 1e-3)
        best = max(best, per * n / (perf_counter() - begin))
    return best


# --------------------------------------------------------------------------- running the trees


def tree_of(ref: str, folder: Path) -> Path:
    """The engine, benchmarks and game of git ref `ref`, exported into folder."""
    archive = folder / "ref.tar"
    subprocess.run(["git", "archive", "--format=tar", "-o", str(archive), ref, "engine", "benchmarks", "game"], cwd=ROOT, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder / "tree", filter="data")
    return folder / "tree"


def run_in(tree: Path, case: str, seconds: float, reference: bool) -> dict:
    """measure() in a fresh process whose `engine` and `benchmarks` are tree's."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--case", case, "--seconds", repr(seconds)]
    if reference:
        cmd.append("--reference")
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def through_cli(tree: Path, seconds: float, folder: Path) -> dict:
    """`equilibria simulate` (python -m equilibria simulate) of the Warren truss by RK4 at
    dt = 0.1 ms for `seconds` in a fresh process of tree's: its wall time, and a run of
    one step's (the start-up: imports, the model, the kernels loaded from their cache)."""
    from benchmarks.peer import warren

    path = folder / "warren.json"
    path.write_text(json.dumps(warren()))
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("NUMBA_CACHE_DIR", None)
    walls = []
    for span in (RK4_DT, RK4_DT, seconds):
        cmd = [sys.executable, "-m", "equilibria", "simulate", str(path), "--integrator", "rk4", "--dt", repr(RK4_DT), "--seconds", repr(span), "--json"]
        begin = perf_counter()
        done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
        walls.append(perf_counter() - begin)
        if done.returncode != 0:
            return {"error": (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]}
    start = min(walls[:2])  # the first may compile the kernels into a fresh cache
    return {"wall": walls[2], "start": start, "with_start": seconds / walls[2], "without_start": (seconds - RK4_DT) / max(walls[2] - start, 1e-9)}


def best_of(runs: list[dict]) -> dict:
    good = [r for r in runs if "error" not in r]
    return max(good, key=lambda r: r["realtime"]) if good else runs[0]


def compare(case: str, seconds: float, repeats: int, against: Path | None, label: str) -> list[tuple[str, dict]]:
    """The case in this tree, with the reference switches, and in REF's tree, in turns."""
    rows = {"this engine": [], "reference switches": []}
    if against is not None:
        rows[label] = []
    if case == "rk4":
        del rows["reference switches"]
    clis = {name: [] for name in rows}
    for _ in range(repeats):
        for name in rows:
            tree = against if name == label else ROOT
            rows[name].append(run_in(tree, case, seconds, name == "reference switches"))
            if case == "rk4":
                with tempfile.TemporaryDirectory() as folder:
                    clis[name].append({**through_cli(tree, 4 * seconds, Path(folder)), "seconds": 4 * seconds})
    out = []
    for name, runs in rows.items():
        best = best_of(runs)
        if clis[name]:
            good = [c for c in clis[name] if "error" not in c]
            best = {**best, "cli": max(good, key=lambda c: c["with_start"]) if good else clis[name][0]}
        out.append((name, best))
    return out


def show(case: str, rows: list[tuple[str, dict]]) -> None:
    if case == "rk4":
        bars = rows[0][1].get("bars", 0)
        print(f"RK4, Warren truss of {bars:,} bars, dt = 0.1 ms (real time: simulated s per wall s)")
        print(f"  {'':<22} {'through advance':>16} {'kernel alone':>13} {'M bar evals/s':>14} {'of ceiling':>11}")
        for name, r in rows:
            if "error" in r:
                print(f"  {name:<22} failed: {r['error']}")
                continue
            share = f"{r['kernel_rate'] / r['bars_per_s']:.0%}"
            print(f"  {name:<22} {r['realtime']:>15.3g}x {r['kernel_realtime']:>12.3g}x {r['kernel_rate'] / 1e6:>14.0f} {share:>11}")
            flops, roots = r["peak"] / FLOPS_PER_BAR, 1.0 / r["sqrt_div"]
            print(
                f"  {'':<22} its ceiling, measured beside it: scalar peak {r['peak'] / 1e9:.2f} Gflop/s / {FLOPS_PER_BAR} flops = {flops / 1e6:.0f} M bars/s; "
                f"a square root and a division {r['sqrt_div'] * 1e9:.2f} ns = {roots / 1e6:.0f} M bars/s; the lower, {r['bars_per_s'] / 1e6:.0f} M bars/s"
            )
        for name, r in rows:
            c = r.get("cli")
            if c is None:
                continue
            if "error" in c:
                print(f"  {name:<22} equilibria simulate failed: {c['error']}")
                continue
            print(
                f"  {name:<22} equilibria simulate, {c['seconds']:g} s simulated: {c['wall']:.2f} s wall, {c['with_start']:.3g}x real time; "
                f"start-up {c['start']:.2f} s taken off, {c['without_start']:.3g}x"
            )
        return
    first = next((r for _, r in rows if "error" not in r), {})
    what = "12-chord lattice, shaken" if case == "lattice" else f"Warren truss pinned every {SAG_SPAN} panels, sagging under gravity"
    print(f"Newmark dt = 1/120 s, {what}: {first.get('members', 0):,} members, {first.get('dofs', 0):,} DOFs, {first.get('steps', 0)} steps")
    print(f"  {'':<22} {'real time':>10} {'factors':>8} {'iterations':>11} {'per step':>9} {'drop m':>7}")
    for name, r in rows:
        if "error" in r:
            print(f"  {name:<22} failed: {r['error']}")
            continue
        print(f"  {name:<22} {r['realtime']:>9.3g}x {r['factorizations']:>8} {r['iterations']:>11} {r['iterations'] / r['steps']:>9.2f} {r['sag']:>7.3f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="rk4,lattice,sagging", help="cases, comma-separated: rk4, lattice, sagging")
    parser.add_argument("--seconds", type=float, default=1.0, help="simulated seconds of each run (RK4: four times this)")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each figure, the best kept")
    parser.add_argument("--against", default=None, help="a git ref whose engine is measured beside this one (e.g. main)")
    parser.add_argument("--case", default=None, help=argparse.SUPPRESS)  # one measurement, printed as JSON (run_in)
    parser.add_argument("--reference", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.case:
        print(json.dumps(measure(args.case, args.seconds * (4 if args.case == "rk4" else 1), args.reference)))
        return
    begin = perf_counter()
    print(f"{platform.machine()}, {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as folder:
        against = tree_of(args.against, Path(folder)) if args.against else None
        for case in args.parts.split(","):
            show(case, compare(case, args.seconds, args.repeats, against, args.against or ""))
    print(f"benchmark took {perf_counter() - begin:.0f} s; load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    if __package__ in (None, ""):  # run as a file (run_in): the tree's folder, not this one's
        sys.path[0] = str(Path.cwd())
    main()
