"""The cost of a game frame once the chooser has picked implicit steps:
`python -m benchmarks.chooser [--frames 120]`.

A script, not a test (a wall-clock bound fails on a busy machine): it prints figures and
never fails. The structure is tests/test_chooser.py's hanging steel bar with a 5 cm stub
(RK4 would need 71,000 steps a second), in the sandbox, held by a pin, pulled by 2 kN
sideways: the game runs it with Newmark at 1/120 s, two steps a 60 Hz frame. Figures:
the median and the quickest simulation time of a frame (PlaySession.sim_ms) against the
frame, 16.7 ms, and the budget the choice plans for (game/app/session/chooser.py BUDGET).
Measured when the test still asserted it: 2.4 ms a frame on a quiet machine, 8 to 9 ms
with four other test runs on its two cores.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

from equilibria.app.session.chooser import BUDGET
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.play import PlaySession
from equilibria.app.session.stage import load_stage

STEEL = {"E": 210e9, "density": 7850.0, "nu": 0.3}
BAR = {"kind": "bar", "material": "steel", "A": 1e-3, "I": 1.2e-7}


def stub_session(folder: Path) -> PlaySession:
    """The bar T–F with its stub F–S as a sandbox design, nailed where it hangs."""
    level = {
        "format": 1,
        "id": "stub",
        "title": "Bar and stub",
        "kind": "sandbox",
        "world": {"ground": [[-5, 0], [5, 0]], "mass_damping": 0.5},
        "materials": {"steel": STEEL},
        "nodes": [{"id": "T", "x": 0.0, "y": 3.0}, {"id": "F", "x": 0.0, "y": 1.0}, {"id": "S", "x": 0.05, "y": 1.0}],
        "supports": [{"node": "T", "fix": ["x", "y"]}],
        "members": [{"id": "TF", "i": "T", "j": "F", **BAR}, {"id": "FS", "i": "F", "j": "S", **BAR}],
        "loads": [{"node": "F", "fx": 2000.0, "fy": -5000.0}],
    }
    path = folder / "stub.json"
    path.write_text(json.dumps(level))
    return PlaySession(load_stage(path, sandbox=True), fixed=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=120)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        session = stub_session(Path(folder))
        session.run()
        session.tick(FRAME)  # the first frame compiles what is left to compile
        cost = []
        for _ in range(args.frames):
            session.tick(FRAME)
            cost.append(session.sim_ms)
    print(f"integrator {session.sim.integrator}, step {session.sim.dt * 1e3:.2f} ms, {args.frames} frames")
    print(f"simulation a frame: median {np.median(cost):.2f} ms, quickest {min(cost):.2f} ms (frame {FRAME * 1e3:.1f} ms, budget {BUDGET * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
