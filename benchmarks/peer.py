"""Implicit and explicit dynamics against OpenSees on the peer's structure (issue 17,
point 6): `python -m benchmarks.peer [--sizes 1001,10001,50006] [--seconds 1] [--quick]`.

A script, not a test: it prints figures side by side and never fails. The structure is
the one the OpenSees figures of issue 17 were measured on: a steel lattice of 12 chords
(12 rows of nodes 1 m apart, the bays 1 m wide), X-braced (horizontal, vertical and both
diagonal bars in every cell: 45·bays + 11 members, so 22 bays make 1,001, 44 make 1,991,
222 make 10,001 and 1,111 make 50,006), the bottom nodes pinned every 5 bays, under
gravity and shaken at the top: every node of the top chord pushed by 10 kN × sin(2π·2t)
in x, with light air (mass damping 0.5/s). Steel: E = 200 GPa, 7,850 kg/m³, A = 10 cm².

For each size, in one run:
- Newmark (engine/newmark.py, average acceleration, Newton, through Simulation.advance)
  at dt = 1/120 s: simulated seconds per wall second over --seconds, the
  factorizations and Newton iterations it took, one factorization and one solve
  timed apart (benchmarks.newmark), the factor's size, and the process's peak RSS so far
  (the sizes run from small to large, so it is the largest size's peak);
- RK4 at its estimated stable step: simulated seconds per wall second of the compiled
  kernel (benchmarks.newmark.rk4_realtime);
- OpenSees (openseespy, when it is installed: not a dependency of the game) on the same
  truss, nodes, masses, supports, gravity, shaking and damping: corotational trusses
  (corotTruss, the co-rotational bar of the engine), Newmark (γ = ½, β = ¼) with Newton,
  NormDispIncr 1e-8 m in at most 10 iterations, at dt = 1/120 s, with the UmfPack and the
  BandGeneral solvers (RCM numbering); wall time of the analysis only (the model's
  building left out), and the Newton iterations it took.

Then the explicit path: a Warren truss of 1,999 bars (500 panels of 1 m by 1 m, no
verticals, the bottom chord pinned every 10 panels, gravity) at dt = 0.1 ms through
`equilibria simulate` in a fresh process (RK4 and symplectic): simulated seconds per
wall second, the process's start-up (a run of one step) taken off. And whether the
second core pays for large explicit models: a symplectic step of the lattice's bars as
three numba kernels (bar forces, a race-free gather to the nodes, the kick and drift),
compiled serially and with numba's parallel prange run on 1 and 2 threads, in million
bar evaluations per second, beside the engine's own serial symplectic kernel.

Times are wall times from time.perf_counter(). On a machine shared with other work the
figures are indicative only; the machine's load average is printed with them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path
from time import perf_counter

from benchmarks.newmark import newmark_figures, rk4_realtime
from equilibria.engine import dynamics
from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation

STEEL = {"E": 200e9, "density": 7850.0}  # [Pa], [kg/m³]
AREA = 1e-3  # [m²]
CHORDS = 12  # rows of nodes
PIN_EVERY = 5  # bays between pinned bottom nodes
SHAKE = (10e3, 2.0)  # [N] per top node, [Hz]
AIR = 0.5  # [1/s] mass damping
NEWMARK_DT = 1.0 / 120.0  # [s]
EXPLICIT_DT = 1e-4  # [s]
ROOT = Path(__file__).resolve().parents[1]


def bays_for(members: int) -> int:
    """Bays of the 12-chord lattice with about `members` members (45·bays + 11)."""
    return max(1, round((members - (CHORDS - 1)) / (4 * CHORDS - 3)))


def lattice(bays: int, seconds: float) -> dict:
    """The peer's structure (module doc) as a model file, shaken for `seconds`."""
    name = lambda x, y: f"n{x}_{y}"  # noqa: E731
    nodes = [{"id": name(x, y), "x": float(x), "y": float(y)} for x in range(bays + 1) for y in range(CHORDS)]
    pairs = []
    for x in range(bays + 1):
        for y in range(CHORDS):
            pairs += [((x, y), (x + dx, y + dy)) for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)) if x + dx <= bays and 0 <= y + dy < CHORDS]
    members = [{"id": f"b{k}", "i": name(*a), "j": name(*b), "material": "steel", "A": AREA} for k, (a, b) in enumerate(pairs)]
    supports = [{"node": name(x, 0), "fix": ["x", "y"]} for x in range(0, bays + 1, PIN_EVERY)]
    force, hz = SHAKE
    samples = max(2, math.ceil((seconds + 0.05) * hz * 40))  # 40 points a cycle
    history = [[k / (hz * 40), math.sin(2 * math.pi * k / 40)] for k in range(samples + 1)]
    loads = [{"node": name(x, CHORDS - 1), "fx": force, "history": history} for x in range(bays + 1)]
    return {
        "world": {"gravity": 9.81, "damping": 0.0, "mass_damping": AIR},
        "materials": {"steel": STEEL},
        "nodes": nodes,
        "members": members,
        "supports": supports,
        "loads": loads,
    }


def warren(panels: int = 500) -> dict:
    """A Warren truss: bottom nodes at x = 0..panels, top nodes at x + ½, 1 m up; no
    verticals; 4·panels − 1 bars; the bottom chord pinned every 10 panels; gravity."""
    nodes = [{"id": f"b{i}", "x": float(i), "y": 0.0} for i in range(panels + 1)]
    nodes += [{"id": f"t{i}", "x": i + 0.5, "y": 1.0} for i in range(panels)]
    pairs = [(f"b{i}", f"b{i + 1}") for i in range(panels)] + [(f"t{i}", f"t{i + 1}") for i in range(panels - 1)]
    pairs += [p for i in range(panels) for p in ((f"b{i}", f"t{i}"), (f"t{i}", f"b{i + 1}"))]
    return {
        "world": {"gravity": 9.81, "damping": 0.02},
        "materials": {"steel": STEEL},
        "nodes": nodes,
        "members": [{"id": f"m{k}", "i": i, "j": j, "material": "steel", "A": AREA} for k, (i, j) in enumerate(pairs)],
        "supports": [{"node": f"b{i}", "fix": ["x", "y"]} for i in range(0, panels + 1, 10)],
    }


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # Linux: kB


# --------------------------------------------------------------------------- OpenSees


def opensees_module():
    """openseespy's module, or None (with the reason) when it cannot be imported."""
    try:
        import openseespy.opensees as ops
    except Exception as exc:  # ImportError, or openseespy's RuntimeError without libblas3/liblapack3
        return None, f"{type(exc).__name__}: {exc}"
    return ops, None


def opensees_run(ops, data: dict, model, seconds: float, system: str) -> dict:
    """The same truss in OpenSees (module doc); wall time of the analysis only."""
    ops.wipe()
    ops.model("basic", "-ndm", 2, "-ndf", 2)
    tags = {}
    m = model.arrays
    for k, nd in enumerate(data["nodes"]):
        tags[nd["id"]] = k + 1
        ops.node(k + 1, nd["x"], nd["y"])
        ops.mass(k + 1, float(m.mass[k, 0]), float(m.mass[k, 1]))
    for sp in data["supports"]:
        ops.fix(tags[sp["node"]], 1, 1)
    ops.uniaxialMaterial("Elastic", 1, STEEL["E"])
    for k, mb in enumerate(data["members"]):
        ops.element("corotTruss", k + 1, tags[mb["i"]], tags[mb["j"]], AREA, 1)
    ops.timeSeries("Constant", 1)
    ops.pattern("Plain", 1, 1)
    g = data["world"]["gravity"]
    for k in range(len(data["nodes"])):
        if not m.fixed[k, 1]:
            ops.load(k + 1, 0.0, -float(m.mass[k, 1]) * g)
    hist = data["loads"][0]["history"]
    ops.timeSeries("Path", 2, "-time", *[t for t, _ in hist], "-values", *[v for _, v in hist])
    ops.pattern("Plain", 2, 2)
    for ld in data["loads"]:
        ops.load(tags[ld["node"]], ld["fx"], 0.0)
    ops.rayleigh(AIR, 0.0, 0.0, 0.0)
    ops.constraints("Plain")
    ops.numberer("RCM")
    ops.system(system)
    ops.test("NormDispIncr", 1e-8, 10)
    ops.algorithm("Newton")
    ops.integrator("Newmark", 0.5, 0.25)
    ops.analysis("Transient")
    steps = round(seconds / NEWMARK_DT)
    iterations, failed = 0, False
    begin = perf_counter()
    for _ in range(steps):
        if ops.analyze(1, NEWMARK_DT) != 0:
            failed = True
            break
        iterations += ops.testIter()
    wall = perf_counter() - begin
    ops.wipe()
    return {"realtime": seconds / wall if not failed else float("nan"), "iterations": iterations, "wall": wall}


# --------------------------------------------------------------------------- the lattice


def lattice_rows(sizes: list[int], seconds: float, systems: list[str]) -> None:
    ops, why = opensees_module()
    if ops is None:
        print(f"OpenSees: skipped (openseespy cannot be imported: {why}; `pip install openseespy`, and Debian's libblas3 liblapack3)")
    else:
        ops.logFile(os.devnull, "-noEcho")
    print(f"Newmark and OpenSees at dt = 1/120 s over {seconds:g} s simulated (OpenSees: {', '.join(systems)}); RK4 at its stable step")
    head = f"{'members':>8} {'DOFs':>6} {'newmark RT':>11} {'factors':>8} {'iters':>6} {'factor ms':>10} {'solve ms':>9} {'LU MB':>6} {'RSS MB':>7}"
    head += f" {'rk4 RT':>8} {'rk4 dt':>9}"
    head += "".join(f" {'OS ' + s[:6] + ' RT':>15} {'iters':>6}" for s in systems) if ops else ""
    print(head)
    for target in sizes:
        bays = bays_for(target)
        data = lattice(bays, seconds)
        model = build_model(data, statics_only=True)
        f = newmark_figures(model, seconds, 0.0)
        rss = peak_rss_mb()
        rt, dt = rk4_realtime(model)
        line = (
            f"{len(data['members']):>8,} {f['dofs']:>6} {f['realtime']:>10.3g}x {f['factorizations']:>8} {f['iterations']:>6} "
            f"{f['factor_ms']:>10.3g} {f['solve_ms']:>9.3g} {f['factor_mb']:>6.3g} {rss:>7.0f} {rt:>7.3g}x {dt:>9.3g}"
        )
        if ops is not None:
            for system in systems:
                o = opensees_run(ops, data, model, seconds, system)
                line += f" {o['realtime']:>14.3g}x {o['iterations']:>6}"
        print(line, flush=True)


# --------------------------------------------------------------------------- explicit


def explicit_through_cli(seconds: float) -> None:
    """The Warren truss through `equilibria simulate` in a fresh process, its start-up
    (a run of one step) taken off."""
    data = warren()
    bars = len(data["members"])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "warren.json"
        path.write_text(json.dumps(data))
        for integrator in ("rk4", "symplectic"):
            start = min(_simulate(path, integrator, EXPLICIT_DT)[0] for _ in range(2))  # start-up: the quicker of two one-step runs
            total, out = _simulate(path, integrator, seconds)
            rate = f"{(seconds - EXPLICIT_DT) / (total - start):.3g}x real time" if total > 1.2 * start else "n/a (within the start-up's noise)"
            note = f"  ({out['unstable']})" if "unstable" in out else ""
            took = f"{seconds:g} s simulated in {total:.2f} s wall, start-up {start:.2f} s"
            print(f"  Warren truss, {bars:,} bars, {integrator:<10} dt = 0.1 ms: {rate} ({took}){note}")


def _simulate(path: Path, integrator: str, span: float) -> tuple[float, dict]:
    """Wall time of `equilibria simulate` in a fresh process, and its output."""
    cmd = [sys.executable, "-m", "equilibria", "simulate", str(path), "--integrator", integrator, "--dt", str(EXPLICIT_DT), "--seconds", repr(span), "--json"]
    begin = perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=ROOT)
    elapsed = perf_counter() - begin
    return elapsed, (json.loads(done.stdout) if done.stdout.startswith("{") else {"unstable": done.stderr.strip()})


# --------------------------------------------------------------------------- the second core


def second_core(sizes: list[int], budget: float) -> None:
    """Serial against numba-parallel symplectic bar steps, 1 and 2 threads."""
    import numba

    from benchmarks import parallel_step

    threads = numba.config.NUMBA_NUM_THREADS
    layer = f"{threads} threads available"
    print(f"the second core: million bar evaluations a second of a symplectic step (numba {numba.__version__}, {layer})")
    print(f"{'bars':>8} {'engine serial':>14} {'serial':>8} {'prange 1 thr':>13} {'prange 2 thr':>13} {'2 thr / serial':>15}")
    for target in sizes:
        model = build_model(lattice(bays_for(target), 0.1), statics_only=True)
        m = model.arrays
        bars = m.bar_ij.shape[0]
        sim = Simulation(model, "symplectic", dt=1e-6)
        engine_rate = _rate(partial(_engine_steps, m, sim), bars, budget)
        case = parallel_step.Case.of(model)
        serial = _rate(partial(case.run, parallel=False), bars, budget)
        rates = []
        for t in (1, 2):
            if t > threads:
                rates.append(float("nan"))
                continue
            numba.set_num_threads(t)
            rates.append(_rate(partial(case.run, parallel=True), bars, budget))
        numba.set_num_threads(threads)
        if layer.endswith("available"):
            layer = f"threading layer {numba.threading_layer()}"
            print(f"  ({layer})")
        print(f"{bars:>8,} {engine_rate / 1e6:>14.1f} {serial / 1e6:>8.1f} {rates[0] / 1e6:>13.1f} {rates[1] / 1e6:>13.1f} {rates[1] / serial:>14.2f}x")


def _engine_steps(m, sim, n: int) -> None:
    dynamics.advance(m, sim.state, sim.work, 1e-6, n, dynamics.SYMPLECTIC, sim.ctl)


def _rate(run, bars: int, budget: float) -> float:
    """Bar evaluations per second of run(steps): best of three calls of about `budget`/3."""
    run(2)  # compile, warm
    n = 8
    while True:
        begin = perf_counter()
        run(n)
        elapsed = perf_counter() - begin
        if elapsed > budget / 10:
            break
        n *= 2
    n = max(1, round(n * budget / 3 / elapsed))
    best = 0.0
    for _ in range(3):
        begin = perf_counter()
        run(n)
        best = max(best, n * bars / (perf_counter() - begin))
    return best


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1001,1991,10001,50006", help="member counts of the lattice, comma-separated")
    parser.add_argument("--seconds", type=float, default=1.0, help="simulated seconds per Newmark and OpenSees run")
    parser.add_argument("--explicit-seconds", type=float, default=4.0, help="simulated seconds of the Warren truss runs")
    parser.add_argument("--systems", default="UmfPack,BandGeneral", help="OpenSees solvers, comma-separated")
    parser.add_argument("--parts", default="lattice,explicit,cores", help="which parts to run, comma-separated: lattice, explicit, cores")
    parser.add_argument("--quick", action="store_true", help="1,001 and 10,001 members, 0.25 s simulated, short timings")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    seconds, explicit, budget = args.seconds, args.explicit_seconds, 1.0
    if args.quick:
        sizes, seconds, explicit, budget = [1001, 10001], 0.25, 1.5, 0.3
    import scipy.sparse.linalg as spla

    spla.use_solver(useUmfpack=False)
    begin = perf_counter()
    print(f"{platform.machine()}, {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, Python {platform.python_version()}")
    shake = f"{SHAKE[0] / 1e3:g} kN × sin 2π·{SHAKE[1]:g}t per node"
    print(f"lattice: 12 chords, X-braced, 1 m cells, pinned every {PIN_EVERY} bays, shaken at the top ({shake}), gravity, air {AIR}/s")
    parts = args.parts.split(",")
    if "lattice" in parts:
        lattice_rows(sizes, seconds, args.systems.split(","))
    if "explicit" in parts:
        print("explicit, through `equilibria simulate` (a fresh process each):")
        explicit_through_cli(explicit)
    if "cores" in parts:
        second_core([2000, 10001, 50006] if not args.quick else [2000, 10001], budget)
    print(f"benchmark took {perf_counter() - begin:.0f} s; load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
