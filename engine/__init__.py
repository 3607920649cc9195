"""Equilibria's structural engine: numpy arrays in, numpy arrays out (numba kernels).

    from equilibria.engine.model import build_model
    from equilibria.engine.simulation import Simulation

    model = build_model(level_dict)          # ModelError names the bad field
    sim = Simulation(model, "rk4")           # or "symplectic", "newmark", "relax", "linear"
    sim.advance(2.0, until_rest=True)        # Unstable: rolled back and explained
    sim.results()                            # nodes, members, reactions, energy...
    sim.set_tethers(rows)                    # the hand's spring, ground contact (engine/tethers.py)
    sim.nail(q); sim.remove_member("AB")     # nails and the bomb

The rooms, from the bottom: compiled/ (numba's options and cache, slots), elements/
(one module per element kind and their compiled home), then the modules here (the
model, the integrators, the static answer, results). This package's own module imports
nothing, so that a module that needs none of the kernels (the level format reads
engine/vocabulary.py at the game's start) loads neither numba nor them. Every kernel
module places numba's cache first (engine/compiled/options.py imports
engine/compiled/cache.py).
"""
