"""The static answer shown before a run starts. No pygame here.

Before the player runs a structure, the reactions, the member forces and the net-force
panel show what statics says (the direct stiffness method, engine/linear.py, every load
at its final value), not the unloaded state at t = 0: a student reads the answer to
ΣF = 0 and ΣM = 0 first, then watches the dynamics reach it.
"""

from __future__ import annotations

from dataclasses import dataclass

from equilibria.engine.linear import Mechanism
from equilibria.engine.simulation import Simulation
from equilibria.words.i18n import _

STATIC_UP_TO = 1500  # nodes; larger models show the run's own values (a solve per edit costs too much)


@dataclass(frozen=True)
class StaticAnswer:
    """sim: a Simulation holding the small-displacement answer (its forces, reactions and
    time at the end of the load histories), None where there is none; words: why there
    is none ("" when there is one)."""

    sim: Simulation | None
    words: str = ""
    free: Mechanism | None = None  # the free motion of a mechanism (every cable taut), found on the way


def static_answer(model) -> StaticAnswer | None:
    """The static answer of a model (None for a model too large to solve at every edit)."""
    if model.n_nodes > STATIC_UP_TO:
        return None
    sim = Simulation(model, "linear", dt=1.0)  # a linear solve takes no step: no stable-step estimate (an assembly) per edit
    if not sim.solve_linear().at_rest:
        cables = sim.mechanism is not None and "cables" in sim.mechanism.message
        if cables:
            return StaticAnswer(None, _("no static answer: cables go slack"))
        return StaticAnswer(None, _("a mechanism: no static answer"), sim.mechanism)
    return StaticAnswer(sim)
