"""Which integrator the game runs a structure with, and why, in a student's words. No
pygame here.

The explicit integrator (RK4) is the accuracy reference, but its step is bounded by the
stiffest member: a 5 cm stub beside a 2 m bar needs steps of 14 µs, 70,000 a second,
where a 1 m steel bar needs 3,300. Past STIFF_RATE steps a second the game runs
implicit Newmark (engine/newmark.py), stable at any step, at frame-rate steps of
NEWMARK_DT. Each explicit step costs about RK4_FIXED + DOFs × RK4_COST seconds on this
kind of machine (DOF: a degree of freedom), so real time costs (steps a second) ×
(a frame, 1/60 s) × that of every frame; where it does not fit the frame's budget for
the simulation (what drawing leaves, pacing.Pacer.budget × FRAME) and Newmark's own
cost (two steps a frame, NEWMARK_FIXED + DOFs × NEWMARK_COST each) is the smaller,
the game runs Newmark too. The reason says which limit bit, the step or the size, in a
student's words (no integrator names or step rates: the status line); the detail says it
with the figures, short (the HUD, H: it shares the corner with the badges).

The costs are measured on a 2-core machine of this kind (benchmarks/newmark.py's lattice
trusses of 1,000 and 10,000 bars, advanced two Newmark steps a call as the game does);
a running session refines RK4's from what its frames cost (keep_up).
"""

from __future__ import annotations

from dataclasses import dataclass

from equilibria.app.session.pacing import FRAME
from equilibria.engine.simulation import Simulation, stable_dt_for
from equilibria.words.i18n import N_, _, decimal

RK4_COST = 3e-8  # [s] one RK4 step, per free DOF (28 to 30 ns for 550 to 5,200 DOFs)
RK4_FIXED = 1e-6  # [s] one RK4 step of a structure of a few nodes
NEWMARK_COST = 8e-7  # [s] one Newmark step, per free DOF (0.77 µs at 5,200 DOFs, about 4 Newton iterations)
NEWMARK_FIXED = 3e-4  # [s] one Newmark step of a structure of a few nodes (Python's share; 0.4 ms at 550 DOFs)
NEWMARK_DT = 1.0 / 120.0  # [s] the implicit step: two a frame
STIFF_RATE = 20_000  # explicit steps a second past which a member is too stiff for them

# The status line's reasons, in a student's words (no integrator names, no step rates).
# Marked for the catalogs; the status line translates them where it shows them.
REAL_TIME = N_("the motion is shown in real time")
STIFF = N_("a stiff member: the motion is shown smoothed so it keeps pace")
LARGE = N_("the large design: the motion is shown smoothed so it keeps pace")
JUDGED = N_("the run the check judged")
ASKED = N_("the motion is shown as you asked")


@dataclass(frozen=True)
class Choice:
    """integrator: "rk4" or "newmark"; dt [s]; reason: a line for the status bar in a
    student's words; detail: the same with the integrator and its step rate (the HUD)."""

    integrator: str
    dt: float
    reason: str
    detail: str = ""


def choose_integrator(stable_dt: float, dofs: int, budget: float, *, rk4_cost: float = RK4_COST, newmark_cost: float = NEWMARK_COST) -> Choice:
    """The integrator and step for a structure whose explicit stable step is `stable_dt`
    [s] and which has `dofs` free degrees of freedom, when the simulation may take
    `budget` [s] of each frame (module note). Pure: the same inputs, the same choice.

    Too stiff: more than STIFF_RATE explicit steps a second (a steel member shorter
    than about 15 cm), whatever they cost: a stiff stub would set the pace of the whole
    structure. Too large: real time would cost more of a frame than `budget`, and
    Newmark's frame-rate steps cost less. Else explicit."""
    rate = 1.0 / stable_dt  # explicit steps a simulated second
    explicit = rate * FRAME * (RK4_FIXED + dofs * rk4_cost)  # [s] of each frame at real time
    implicit = FRAME / NEWMARK_DT * (NEWMARK_FIXED + dofs * newmark_cost)
    steps = decimal(_round(rate), 0)
    if rate > STIFF_RATE:
        return Choice("newmark", NEWMARK_DT, STIFF, _("Newmark: stiff, {steps} RK4 steps/s").format(steps=steps))
    if explicit > budget and implicit < explicit:
        return Choice("newmark", NEWMARK_DT, LARGE, _("Newmark: {steps} RK4 steps/s too slow").format(steps=steps))
    return Choice("rk4", stable_dt, REAL_TIME, _("RK4 keeps up: {steps} steps/s").format(steps=steps))


def _round(rate: float) -> int:
    """A step count as a student reads it: two significant figures (68,493 → 68,000)."""
    if rate < 100:
        return round(rate)
    digits = len(str(int(rate))) - 2
    return int(round(rate, -digits))


GAME_ALPHA = -0.05  # HHT α of the game's Newmark: the ringing of a stiff stub dies in a few steps
BUDGET = 0.6 * FRAME  # [s] the simulation's share of a frame the choice plans for (pacing.Pacer.budget)
KEEP_UP_FRAMES = 30  # frames an explicit run may fall behind real time before it goes on implicitly
WORDS = {"rk4": "RK4", "symplectic": N_("symplectic"), "newmark": "Newmark"}  # the HUD's words


def free_dofs(model) -> int:
    return int((~model.arrays.fixed).sum())


def simulation_for(model, integrator: str = "auto", dt: float | None = None, rk4_cost: float = RK4_COST) -> tuple[Simulation, Choice]:
    """A Simulation of `model` and the Choice behind it: the game's (choose_integrator)
    when `integrator` is "auto" and no step is given, else the one asked for."""
    if integrator != "auto" or dt is not None:
        sim = Simulation(model, "rk4" if integrator == "auto" else integrator, dt=dt)
        return sim, Choice(sim.integrator, sim.dt, ASKED, _("{integrator}, as asked").format(integrator=_(WORDS[sim.integrator])))
    choice = choose_integrator(stable_dt_for(model, "rk4"), free_dofs(model), BUDGET, rk4_cost=rk4_cost)
    alpha = GAME_ALPHA if choice.integrator == "newmark" else 0.0
    return Simulation(model, choice.integrator, dt=choice.dt, hht_alpha=alpha), choice


def judged_choice(sim: Simulation) -> Choice:
    """What the status bar says of a check's own run (game/rules: it always runs so)."""
    how = _(WORDS[sim.integrator]) if sim.integrator in WORDS else _("a static solve")
    return Choice(sim.integrator, sim.dt, JUDGED, _("{integrator}, as the check ran it").format(integrator=how))


def keep_up(sim: Simulation, step_cost: float) -> Choice | None:
    """An explicit run measured at `step_cost` [s] a step on this machine: if that cost
    makes implicit steps the better choice, the run goes on with them from the state it
    is in (Simulation.use) and the new Choice is returned; else None."""
    if sim.integrator != "rk4":
        return None  # only an explicit run's cost is measured at its stable step
    dofs = sim.level_dofs
    choice = choose_integrator(sim.dt, dofs, BUDGET, rk4_cost=step_cost / max(dofs, 1))
    if choice.integrator == sim.integrator:
        return None
    sim.use(choice.integrator, choice.dt, GAME_ALPHA)
    return choice
