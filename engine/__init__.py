"""Equilibria's structural engine: numpy arrays in, numpy arrays out (numba kernels).

model = build_model(level_dict)          # ModelError names the bad field
sim = Simulation(model, "rk4")           # or "symplectic", "newmark", "relax", "linear"
sim.advance(2.0, until_rest=True)        # Unstable: rolled back and explained
sim.results()                            # nodes, members, reactions, energy...
sim.set_tethers(rows)                    # the hand's spring, ground contact (engine/tethers.py)
sim.nail(q); sim.remove_member("AB")     # nails and the bomb

The names below are loaded on first use, so that a module that needs none of them (the
level format reads engine/vocabulary.py at the game's start) loads neither numba nor the
kernels. Every kernel module places numba's cache first (engine/kernel_options.py
imports engine/kernel_cache.py).
"""

from __future__ import annotations

FROM_MODEL = ("Model", "ModelError", "build_model", "damped")
FROM_SIMULATION = ("INTEGRATORS", "Outcome", "RestCriteria", "Simulation", "Unstable")
__all__ = sorted(FROM_MODEL + FROM_SIMULATION)


def __getattr__(name: str):
    if name in FROM_MODEL:
        from equilibria.engine import model

        return getattr(model, name)
    if name in FROM_SIMULATION:
        from equilibria.engine import simulation

        return getattr(simulation, name)
    raise AttributeError(f"module 'equilibria.engine' has no attribute {name!r}")
