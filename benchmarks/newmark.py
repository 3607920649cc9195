"""Implicit Newmark against explicit RK4 on the benchmark truss:
`python -m benchmarks.newmark [--sizes 1000,10000] [--seconds 1] [--alpha -0.05]`.

A script, not a test: it prints figures side by side and never fails. The structure is
benchmarks.bench's steel lattice truss (1 m cells, both diagonals, the two bottom corners
pinned) under gravity put on at once, with light air (mass damping 0.5/s). For each size:

- Newmark (engine/newmark.py) at dt = 1/120 s with HHT α (default −0.05): simulated
  seconds per wall second over `--seconds` of simulated time, the factorizations and
  Newton iterations it took, the mean time of one factorization (engine/newmark.py: a
  profile LDLᵀ, or SuperLU's LU) and of one solve with it (timed apart, on the matrix at
  the state reached), and the factor's memory;
- RK4 at its estimated stable step: simulated seconds per wall second of the compiled
  kernel (dynamics.advance, best of three calls after a warm-up).
Times are wall times from time.perf_counter(), on one core (numba and SuperLU here run
single-threaded).
"""

from __future__ import annotations

import argparse
from time import perf_counter

import numpy as np
import scipy.sparse.linalg as spla

from benchmarks.bench import truss_level
from equilibria.engine import dynamics
from equilibria.engine.model import build_model
from equilibria.engine.profile_ldl import ProfileLDL
from equilibria.engine.simulation import Simulation


def newmark_figures(model, seconds: float, alpha: float) -> dict:
    sim = Simulation(model, "newmark", hht_alpha=alpha)
    nm = sim.implicit
    start = perf_counter()
    sim.advance(seconds)
    wall = perf_counter() - start
    # One factorization and one solve, timed apart, on S at the state reached.
    nm._pattern(model)
    begin = perf_counter()
    nm._form(model, sim.state, sim.state.pos, sim.dt, False)
    factor = perf_counter() - begin
    lu = nm._lu[1]
    rhs = np.ones(nm._nf)
    begin = perf_counter()
    for _ in range(10):
        lu.solve(rhs)
    solve = (perf_counter() - begin) / 10
    return {
        "realtime": seconds / wall,
        "steps": round(seconds / sim.dt),
        "factorizations": nm.factorizations - 1,
        "iterations": nm.iterations,
        "factor_ms": 1e3 * factor,
        "solve_ms": 1e3 * solve,
        "factor_mb": lu.nnz * 8 / 1e6 if isinstance(lu, ProfileLDL) else (lu.L.nnz + lu.U.nnz) * 12 / 1e6,
        "dofs": nm._nf,
    }


def rk4_realtime(model) -> tuple[float, float]:
    """(simulated seconds per wall second, dt) of the compiled RK4 kernel at the stable step."""
    sim = Simulation(model, "rk4")
    sim.advance(sim.dt)
    m = model.arrays
    best = 0.0
    n = 200
    for _ in range(3):
        begin = perf_counter()
        dynamics.advance(m, sim.state, sim.work, sim.dt, n, dynamics.RK4, sim.ctl)
        best = max(best, n * sim.dt / (perf_counter() - begin))
    return best, sim.dt


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="bar counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=1.0, help="simulated seconds per Newmark run")
    parser.add_argument("--alpha", type=float, default=-0.05, help="HHT alpha")
    args = parser.parse_args(argv)
    spla.use_solver(useUmfpack=False)
    print(f"Newmark dt = 1/120 s, HHT alpha = {args.alpha}, {args.seconds:g} s simulated; RK4 at its stable step")
    print(f"{'bars':>7} {'DOFs':>7} {'newmark RT':>11} {'factors':>8} {'iters':>6} {'factor ms':>10} {'solve ms':>9} {'LU MB':>6} {'rk4 RT':>8} {'rk4 dt':>9}")
    for target in (int(s) for s in args.sizes.split(",")):
        data = truss_level(target)
        data["world"] = {"gravity": 9.81, "damping": 0.0, "mass_damping": 0.5}
        model = build_model(data, statics_only=True)
        f = newmark_figures(model, args.seconds, args.alpha)
        rt, dt = rk4_realtime(model)
        bars = model.arrays.bar_ij.shape[0]
        print(
            f"{bars:>7} {f['dofs']:>7} {f['realtime']:>10.3g}x {f['factorizations']:>8} {f['iterations']:>6} "
            f"{f['factor_ms']:>10.3g} {f['solve_ms']:>9.3g} {f['factor_mb']:>6.3g} {rt:>7.3g}x {dt:>9.3g}"
        )


if __name__ == "__main__":
    main()
