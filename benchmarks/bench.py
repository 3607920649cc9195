"""Engine benchmark: `python -m benchmarks.bench [--quick] [--sizes 400,4000]`.

A script, not a test: it prints figures side by side and never fails on a missed target.
The structure is a steel lattice truss (nodes on a 1 m grid, horizontal, vertical and
both diagonal bars in every cell, the two bottom corners pinned, gravity, no damping)
of about 40, 400, 2,000, 4,000 and 40,000 bars. For each size:

- numba symplectic / RK4: bar evaluations per second of the raw compiled kernel
  `dynamics.advance` (one call, many steps, dt = 1 µs so the truss barely moves): steps ×
  bars for the symplectic step, steps × bars × 4 for RK4 (four force evaluations a step).
  The JIT is warmed first; each figure is the best of a few timed calls.
- numpy: the same truss stepped by vectorised numpy (np.hypot, one np.bincount scatter)
  with symplectic Euler, bar evaluations per second over a fixed wall-time budget.
- pymunk: the same truss as pymunk DampedSprings (same masses, stiffness and dt = 1 µs, a
  step small enough to be stable; a throughput comparison, not one of accuracy): steps ×
  springs per second over a fixed wall-time budget, with pymunk's default 10 solver
  iterations and with 1 (with no damping the extra iterations change nothing, so the
  targets are checked against the faster, 1-iteration figure).
- RK4 real time: simulated seconds per wall second at dt = 0.1 ms through
  `Simulation.advance` (the realistic path: batches of compiled steps with a state copy
  and blow-up checks around each), and the fraction of one core that real time needs.

Then, once: the time from process launch to the first step done, in a subprocess that
imports the engine, builds a small truss and takes one RK4 step, with a cold numba cache
(NUMBA_CACHE_DIR pointing at a fresh directory) and a warm one (the same directory again).
Times are wall times from time.perf_counter().
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib.metadata import version
from pathlib import Path
from time import perf_counter

import numpy as np

from equilibria.engine import dynamics
from equilibria.engine.model import Model, build_model
from equilibria.engine.simulation import Simulation

THROUGHPUT_DT = 1e-6  # [s] step of the throughput runs (numba, numpy, pymunk)
REALTIME_DT = 1e-4  # [s] step of the real-time runs
STEEL = {"E": 200e9, "density": 7850.0}  # [Pa], [kg/m³]
AREA = 1e-3  # [m²]
ROOT = Path(__file__).resolve().parents[1]
STARTUP_CODE = (
    "from equilibria.engine.model import build_model\n"
    "from equilibria.engine.simulation import Simulation\n"
    "from benchmarks.bench import truss_level\n"
    "Simulation(build_model(truss_level(40)), 'rk4', dt=1e-4).advance(1e-4)\n"
    "print('stepped', flush=True)\n"
)


@dataclass(frozen=True)
class Plan:
    """How long to measure: sizes [bars], wall seconds of one timed numba call, repeats
    (best of), wall seconds for each numpy and pymunk run, and the range of simulated
    seconds [s] and the aimed wall seconds of one real-time run."""

    sizes: tuple[int, ...]
    kernel_seconds: float
    repeats: int
    budget: float
    sim_seconds: tuple[float, float]
    realtime_wall: float


FULL = Plan((40, 400, 2000, 4000, 40000), 0.3, 3, 1.5, (0.05, 0.2), 1.0)
QUICK = Plan((40, 400, 2000, 4000), 0.05, 2, 0.25, (0.01, 0.05), 0.15)


@dataclass(frozen=True)
class Row:
    """The figures for one truss; rates in bar evaluations per second."""

    target: int
    bars: int
    nodes: int
    symplectic: float
    rk4: float
    numpy: float
    pymunk_default: float
    pymunk_one: float
    realtime: float  # simulated seconds per wall second, RK4 at REALTIME_DT


# --------------------------------------------------------------------------- the truss


def lattice_cells(target: int) -> tuple[int, int]:
    """Cells (across, up) of a lattice, about four times as wide as tall, whose bar
    count 4·cx·cy + cx + cy is near `target`."""
    cy = max(1, round(math.sqrt(target / 16)))
    cx = max(1, round((target - cy) / (4 * cy + 1)))
    return cx, cy


def truss_level(target: int) -> dict:
    """A level-format steel lattice truss of about `target` bars (see the module doc)."""
    cx, cy = lattice_cells(target)
    nodes = [{"id": f"n{x}_{y}", "x": float(x), "y": float(y)} for x in range(cx + 1) for y in range(cy + 1)]
    pairs = []
    for x in range(cx + 1):
        for y in range(cy + 1):
            pairs += [((x, y), (x + dx, y + dy)) for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)) if 0 <= x + dx <= cx and 0 <= y + dy <= cy]
    members = [{"id": f"b{k}", "i": f"n{a[0]}_{a[1]}", "j": f"n{b[0]}_{b[1]}", "material": "steel", "A": AREA} for k, (a, b) in enumerate(pairs)]
    return {
        "world": {"gravity": 9.81, "damping": 0.0},
        "materials": {"steel": STEEL},
        "nodes": nodes,
        "members": members,
        "supports": [{"node": "n0_0", "fix": ["x", "y"]}, {"node": f"n{cx}_0", "fix": ["x", "y"]}],
    }


# --------------------------------------------------------------------------- timing


def steps_for(run: Callable[[int], float], seconds: float) -> int:
    """Steps that make run(steps) (which returns its wall time) last about `seconds`."""
    n = 1
    while (elapsed := run(n)) < seconds / 10:
        n *= 2
    return max(1, round(n * seconds / elapsed))


def steps_per_second(step: Callable[[], object], budget: float) -> float:
    """Calls of step() per wall second over `budget` seconds, after one warm-up call."""
    step()
    n = 0
    start = perf_counter()
    while (elapsed := perf_counter() - start) < budget:
        step()
        n += 1
    return n / elapsed


# --------------------------------------------------------------------------- numba


def kernel_rate(model: Model, method: int, plan: Plan) -> float:
    """Bar evaluations per second of the raw kernel dynamics.advance (best of repeats)."""
    sim = Simulation(model, "symplectic", dt=THROUGHPUT_DT)
    sim.advance(THROUGHPUT_DT)  # compiles or loads the kernels and sets sim.ctl
    m = model.arrays
    per_step = m.bar_ij.shape[0] * (4 if method == dynamics.RK4 else 1)

    def run(n: int) -> float:
        start = perf_counter()
        taken = dynamics.advance(m, sim.state, sim.work, THROUGHPUT_DT, n, method, sim.ctl)
        elapsed = perf_counter() - start
        if taken != n:
            raise RuntimeError(f"the kernel stopped after {taken} of {n} steps (status {sim.state.status[0]})")
        return elapsed

    n = steps_for(run, plan.kernel_seconds)
    return n * per_step / min(run(n) for _ in range(plan.repeats))


def realtime_factor(model: Model, plan: Plan, rk4_rate: float) -> float:
    """Simulated seconds per wall second of Simulation.advance, RK4 at REALTIME_DT; the
    simulated span is chosen from the kernel's RK4 rate to take about plan.realtime_wall."""
    sim = Simulation(model, "rk4", dt=REALTIME_DT)
    sim.advance(REALTIME_DT)
    wall_per_second = 4 * model.arrays.bar_ij.shape[0] / REALTIME_DT / rk4_rate
    lo, hi = plan.sim_seconds
    seconds = min(hi, max(lo, plan.realtime_wall / wall_per_second))

    def run() -> float:
        start = perf_counter()
        sim.advance(seconds)
        return perf_counter() - start

    return seconds / min(run() for _ in range(plan.repeats))


# --------------------------------------------------------------------------- numpy


class NumpyTruss:
    """The model's bars stepped by vectorised numpy, symplectic Euler, no damping."""

    def __init__(self, model: Model):
        m = model.arrays
        self.i = m.bar_ij[:, 0].astype(np.intp)
        self.j = m.bar_ij[:, 1].astype(np.intp)
        # Scatter targets of (fx, fy) on i and (−fx, −fy) on j in the flat (N·2,) force.
        self.slots = np.concatenate((2 * self.i, 2 * self.i + 1, 2 * self.j, 2 * self.j + 1))
        self.k = m.bar_k
        self.L0 = m.bar_L0
        self.pos = m.pos0[:, :2].copy()
        self.vel = np.zeros_like(self.pos)
        self.inv_mass = m.inv_mass[:, :2].copy()
        self.weight = np.zeros_like(self.pos)
        self.weight[:, 1] = -m.mass[:, 1] * m.gravity

    def step(self, dt: float) -> None:
        d = self.pos[self.j] - self.pos[self.i]
        L = np.hypot(d[:, 0], d[:, 1])
        f = d * (self.k * (L - self.L0) / L)[:, None]
        weights = np.concatenate((f[:, 0], f[:, 1], -f[:, 0], -f[:, 1]))
        force = np.bincount(self.slots, weights, minlength=self.pos.size).reshape(-1, 2) + self.weight
        self.vel += dt * force * self.inv_mass
        self.pos += dt * self.vel


def numpy_rate(model: Model, plan: Plan) -> float:
    truss = NumpyTruss(model)
    return steps_per_second(lambda: truss.step(THROUGHPUT_DT), plan.budget) * model.arrays.bar_ij.shape[0]


# --------------------------------------------------------------------------- pymunk


def pymunk_rate(model: Model, plan: Plan, iterations: int) -> float:
    """Spring evaluations per second of the truss as pymunk DampedSprings: a body of
    the node's mass at every node (static at the supports), no rotation, no shapes."""
    import pymunk  # only the benchmark compares with pymunk; the engine never uses it

    m = model.arrays
    space = pymunk.Space()
    space.gravity = (0.0, -m.gravity)
    space.iterations = iterations
    bodies = []
    for q in range(m.pos0.shape[0]):
        body = pymunk.Body(body_type=pymunk.Body.STATIC) if m.fixed[q, 0] else pymunk.Body(float(m.mass[q, 0]), math.inf)
        body.position = (float(m.pos0[q, 0]), float(m.pos0[q, 1]))
        bodies.append(body)
    space.add(*bodies)
    springs = [
        pymunk.DampedSpring(bodies[i], bodies[j], (0, 0), (0, 0), float(L0), float(k), 0.0)
        for (i, j), L0, k in zip(m.bar_ij.tolist(), m.bar_L0, m.bar_k, strict=True)
    ]
    space.add(*springs)
    return steps_per_second(lambda: space.step(THROUGHPUT_DT), plan.budget) * len(springs)


# --------------------------------------------------------------------------- start-up


def startup_seconds(cache_dir: str) -> float:
    """Wall time from launching a Python that imports the engine, builds a small truss
    and takes one RK4 step, to that step done, with numba's cache in `cache_dir`."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    start = perf_counter()
    with subprocess.Popen([sys.executable, "-c", STARTUP_CODE], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True) as child:
        line = child.stdout.readline()
        elapsed = perf_counter() - start
    if line.strip() != "stepped":
        raise RuntimeError(f"the start-up subprocess failed (exit code {child.returncode})")
    return elapsed


def cold_and_warm_start() -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache_dir:
        return startup_seconds(cache_dir), startup_seconds(cache_dir)


# --------------------------------------------------------------------------- report


def measure(target: int, plan: Plan) -> Row:
    model = build_model(truss_level(target))
    rk4 = kernel_rate(model, dynamics.RK4, plan)
    return Row(
        target=target,
        bars=model.arrays.bar_ij.shape[0],
        nodes=model.n_nodes,
        symplectic=kernel_rate(model, dynamics.SYMPLECTIC, plan),
        rk4=rk4,
        numpy=numpy_rate(model, plan),
        pymunk_default=pymunk_rate(model, plan, 10),
        pymunk_one=pymunk_rate(model, plan, 1),
        realtime=realtime_factor(model, plan, rk4),
    )


def sig3(x: float) -> str:
    """x to three significant figures, without an exponent."""
    return f"{x:.{max(0, 2 - math.floor(math.log10(abs(x))))}f}" if x else "0"


TABLE = (
    ("bars", "", lambda r: f"{r.bars:,}"),
    ("nodes", "", lambda r: f"{r.nodes:,}"),
    ("numba", "sympl.", lambda r: sig3(r.symplectic / 1e6)),
    ("numba", "RK4", lambda r: sig3(r.rk4 / 1e6)),
    ("numpy", "sympl.", lambda r: sig3(r.numpy / 1e6)),
    ("pymunk", "it=10", lambda r: sig3(r.pymunk_default / 1e6)),
    ("pymunk", "it=1", lambda r: sig3(r.pymunk_one / 1e6)),
    ("RK4 real", "time ×", lambda r: sig3(r.realtime)),
    ("cores for", "real time", lambda r: sig3(1.0 / r.realtime)),
)


def print_table(rows: list[Row]) -> None:
    cells = [[head, sub, *(cell(r) for r in rows)] for head, sub, cell in TABLE]
    widths = [max(len(c) for c in column) for column in cells]
    for line in zip(*cells, strict=True):
        print("  ".join(c.rjust(w) for c, w in zip(line, widths, strict=True)))
    print("numba, numpy and pymunk columns: million bar evaluations per second (dt = 1 µs);")
    print("pymunk: DampedSprings, same masses and stiffness, stable at this dt, it = solver iterations (10 is")
    print("  pymunk's default; with no damping both give the same motion): a throughput comparison, not accuracy;")
    print("RK4 real time: simulated s per wall s through Simulation.advance at dt = 0.1 ms (batch overhead included)")


def print_startup(starts: tuple[float, float]) -> None:
    cold, warm = starts
    print(f"\nlaunch of python to first RK4 step done: cold numba cache {sig3(cold)} s, warm cache {sig3(warm)} s")


def check(label: str, value: str, target: str, ok: bool | None) -> None:
    mark = "n/a" if ok is None else ("✓" if ok else "✗")
    print(f"  {label:<40} {value:>12}   target {target:<10} {mark}")


def print_targets(rows: list[Row], starts: tuple[float, float]) -> None:
    by_target = {r.target: r for r in rows}
    big, mid = by_target.get(4000), by_target.get(2000)
    print("\ntargets (✓ met, ✗ missed; n/a: that size was not run)")
    if big:
        check(f"numba symplectic, {big.bars:,} bars [M/s]", sig3(big.symplectic / 1e6), "≥ 150", big.symplectic >= 150e6)
        check("numba sympl. / pymunk it=1", f"{sig3(big.symplectic / big.pymunk_one)}×", "≥ 30×", big.symplectic >= 30 * big.pymunk_one)
        check("numba sympl. / pymunk it=10 (default)", f"{sig3(big.symplectic / big.pymunk_default)}×", "≥ 30×", big.symplectic >= 30 * big.pymunk_default)
        check("numba sympl. / numpy", f"{sig3(big.symplectic / big.numpy)}×", "≥ 5×", big.symplectic >= 5 * big.numpy)
    else:
        check("numba symplectic, 4,000 bars", "-", "≥ 150 M/s", None)
    if mid:
        check(f"RK4 dt = 0.1 ms, {mid.bars:,} bars [cores]", sig3(1.0 / mid.realtime), "≤ 0.5", 1.0 / mid.realtime <= 0.5)
    else:
        check("RK4 dt = 0.1 ms, 2,000 bars [cores]", "-", "≤ 0.5", None)
    check("start to first step, warm cache [s]", sig3(starts[1]), "< 1", starts[1] < 1.0)


def parse_args(argv: list[str]) -> Plan:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, no 40,000-bar truss (under ~30 s)")
    parser.add_argument("--sizes", help="comma-separated bar counts to aim at, e.g. 400,4000")
    args = parser.parse_args(argv)
    plan = QUICK if args.quick else FULL
    if args.sizes:
        plan = replace(plan, sizes=tuple(int(s) for s in args.sizes.split(",")))
    return plan


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    plan = parse_args(argv)
    start = perf_counter()
    print(f"$ python -m benchmarks.bench {' '.join(argv)}".rstrip())
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numpy {np.__version__}, numba {version('numba')}, pymunk {version('pymunk')}"
    )
    print("truss: steel lattice on a 1 m grid, X-braced cells, bottom corners pinned, gravity, no damping\n")
    starts = cold_and_warm_start()
    rows = [measure(target, plan) for target in plan.sizes]
    print_table(rows)
    print_startup(starts)
    print_targets(rows, starts)
    print(f"\nbenchmark took {perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
