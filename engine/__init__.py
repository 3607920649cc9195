"""Equilibria's structural engine: numpy arrays in, numpy arrays out (numba kernels).

model = build_model(level_dict)          # ModelError names the bad field
sim = Simulation(model, "rk4")           # or "symplectic", "newmark", "relax", "linear"
sim.advance(2.0, until_rest=True)        # Unstable: rolled back and explained
sim.results()                            # nodes, members, reactions, energy...
sim.set_tethers(rows)                    # the hand's spring, ground contact (engine/tethers.py)
sim.nail(q); sim.remove_member("AB")     # nails and the bomb
"""

from equilibria.engine import kernel_cache  # noqa: F401  (first: it places numba's cache before any kernel is defined)
from equilibria.engine.model import Model, ModelError, build_model, damped
from equilibria.engine.simulation import INTEGRATORS, Outcome, RestCriteria, Simulation, Unstable

__all__ = ["INTEGRATORS", "Model", "ModelError", "Outcome", "RestCriteria", "Simulation", "Unstable", "build_model", "damped"]
