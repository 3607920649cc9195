"""Throughput of `equilibria grade`: solutions judged per second.

    python -m benchmarks.grade                  # 40 students × 5 levels, 1 worker and all cores
    python -m benchmarks.grade --students 10    # quicker

A class of N students is made in a temporary folder, each with the shipped reference
solutions of a few levels of different kinds (balance, zero-force, build, stability), and
graded by a fresh `python -m equilibria grade` process, as a teacher runs it, once with one
worker and once with one per core. The time is the wall time of the whole command
(start-up, planning, workers' start-up, judging, writing the CSV), and its CPU time, its
workers' included, which other work on the machine does not change much; the engine's
cache is warmed first, so no run compiles. The two CSVs must be the same bytes.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from equilibria.classroom.grade import default_workers
from equilibria.course.syllabus import LEVELS_DIR, reference_solution

LEVELS = ("tutorial-01", "balance-02", "zero-force-02", "bridge-01", "frames-01")


def make_class(root: Path, students: int) -> tuple[Path, Path]:
    """A folder of the levels and a folder with one folder of solutions per student."""
    levels, solutions = root / "levels", root / "class"
    levels.mkdir()
    for level_id in LEVELS:
        shutil.copy(LEVELS_DIR / f"{level_id}.json", levels)
    for k in range(students):
        mine = solutions / f"student-{k:03d}"
        mine.mkdir(parents=True)
        for level_id in LEVELS:
            shutil.copy(reference_solution(level_id), mine)
    return levels, solutions


def grade(levels: Path, solutions: Path, out: Path, workers: int) -> tuple[float, float]:
    """Wall time and CPU time (user + system, its workers included) [s] of one
    `python -m equilibria grade` run."""
    command = [sys.executable, "-m", "equilibria", "grade", str(levels), str(solutions), "--csv", str(out), "--workers", str(workers)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"grade failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40, help="students in the class (default 40)")
    args = parser.parse_args()
    cores = default_workers()
    print(f"{platform.machine()}, {os.cpu_count()} cores ({cores} usable), Python {platform.python_version()}")
    print(f"class: {args.students} students × {len(LEVELS)} levels ({', '.join(LEVELS)}), the reference solutions")
    with tempfile.TemporaryDirectory(prefix="equilibria-grade-") as tmp:
        root = Path(tmp)
        levels, solutions = make_class(root, args.students)
        n = args.students * len(LEVELS)
        subprocess.run([sys.executable, "-m", "equilibria.engine.warm"], capture_output=True, check=True)
        outputs = {}
        for workers in sorted({1, cores}):
            out = root / f"grades-{workers}.csv"
            load = os.getloadavg()[0]
            took, cpu = grade(levels, solutions, out, workers)
            outputs[workers] = out.read_bytes()
            cpu_each = f"CPU {cpu:.1f} s ({1e3 * cpu / n:.0f} ms a solution)"
            print(f"  workers {workers}: {n} solutions in {took:.1f} s: {n / took:.1f} solutions/s; {cpu_each}; load before {load:.1f}")
        same = len(set(outputs.values())) == 1
        print(f"  CSV the same bytes with {' and '.join(map(str, outputs))} workers: {'yes' if same else 'NO'}")
        print("the load average counts other work on the machine: each unit of it takes about a core from the workers")


if __name__ == "__main__":
    main()
