"""The frozen app's entry point (scripts/app/app.spec): what `equilibria` does.

In the app, `sys.executable` is the app itself, not a Python. The game starts its
engine's warm-up as `sys.executable -m equilibria.engine.warm` (engine/warm.py,
game/app/session/warmup.py), so the app answers `-m MODULE ARGS...` for a module of
its own (`equilibria.*`) as `python -m` would; it runs nothing else. Workers that
multiprocessing spawns (Windows and macOS: game/classroom/grade.py) start through
multiprocessing's freeze support.
"""

from __future__ import annotations

import multiprocessing
import runpy
import sys


def main() -> int:
    multiprocessing.freeze_support()
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "-m" and args[1].startswith("equilibria."):
        sys.argv = [sys.argv[0], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
        return 0
    from equilibria.cli.main import main as equilibria

    return equilibria()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # before the command line's own handling is in place
        sys.exit(130)
