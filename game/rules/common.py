"""What every judge shares: the verdict, running a model from rest, what "stands" means,
the words for forces and directions (a mechanism's free motion: game/rules/motion.py)."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

import numpy as np

from equilibria.engine.linear import Mechanism, mechanism
from equilibria.engine.model import Model, build_model
from equilibria.engine.results import elements_without
from equilibria.engine.simulation import Simulation, Unstable
from equilibria.format.schema import BaseLevel as Level
from equilibria.rules.motion import describe_motion
from equilibria.words.i18n import N_, _, decimal, plain

IMPERFECTION = 1e-5  # node jitter, as a fraction of the size, so that instability shows
# Every check that runs a structure in time runs it with this integrator at its stable
# step, whatever the game runs it with (game/app/session/chooser.py): a verdict never changes
# because the game chose another. Its name is in every verdict's figures (judged_by, in
# `check --json`), never in the student's verdict text.
JUDGE = "rk4"

# The one definition, for every kind that asks whether a structure stands (zero_force's
# remove mode, build, stability), said in the level texts and docs/level-format.md.
STANDS = N_(
    "A structure stands when nothing in it can move without stretching a member (no mechanism) and, run from a slightly "
    "disturbed start under its loads, no node moves more than the limit for the level's hold time."
)


@dataclass(frozen=True)
class Verdict:
    """`passed`, a `reason` a student understands, and the figures behind it (JSON).
    `sim` is the simulation as the check left it; `start` the same run as it started
    (jitter and removed members included), for the game to show the very run that was
    judged."""

    passed: bool
    reason: str
    figures: dict = field(default_factory=dict)
    sim: Simulation | None = field(default=None, compare=False, repr=False)
    start: Simulation | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict:
        """For JSON: a non-finite figure (a run that blew up moved 'infinitely') is null;
        `judged_by` says how the structure was solved (judged_by())."""
        judged = {"judged_by": judged_by(self.sim)} if self.sim is not None else {}
        return _finite({"passed": self.passed, "reason": self.reason, **self.figures, **judged})


def judged_by(sim: Simulation) -> str:
    """How a check solved the structure, in a student's words."""
    if sim.integrator == "linear":
        return "a static solve (small deflections)"
    if sim.integrator == "newmark":
        return f"implicit steps of {sim.dt * 1e3:.3g} ms (Newmark)"
    return f"explicit steps of {sim.dt * 1e3:.3g} ms ({sim.integrator.upper()})"


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


# The most steps one run of a check may take (each run of the structure in time: the
# hold, or a build's load test). The course's levels take at most about 70,000 (the
# portal demos' 15 s at 0.13 ms); a student's design with shorter or stiffer members
# takes more, so the budget is about 30 times that; past it the check refuses in one
# line before it runs, and no level or design makes it run for long.
MAX_JUDGE_STEPS = 2_000_000


def within_budget(dt: float, seconds: float) -> int:
    """The steps of `dt` [s] (the judge's step) it takes to run `seconds` [s], counted
    before running; ValueError (one line, what to change) when more than MAX_JUDGE_STEPS."""
    steps = seconds / dt if dt > 0.0 else math.inf
    if not steps <= MAX_JUDGE_STEPS:
        count = decimal(steps, 0) if math.isfinite(steps) else _("endless")
        raise ValueError(
            _(
                "checking this structure for {seconds} s would take {count} steps, more than the {most} a check may take:"
                " a very short or very stiff member sets that pace, so make the shortest members longer"
                " (in a level file: E, density or A too large for a member's length, or too long a goal.hold)"
            ).format(seconds=plain(seconds), count=count, most=decimal(MAX_JUDGE_STEPS, 0))
        )
    return round(steps)


DRAFTED_HOLD = 3.0  # [s] a level the editor drafts asks the body to stay put this long


def drafted_at_rest(doc: dict, player: dict | None = None) -> dict:
    """A level drafted in the editor (game/course/authoring.py) that asks about its structure
    as it stands: the members' weight left out, as the textbook's statics leaves it, the
    goal to stay at rest DRAFTED_HOLD, and `player`'s fields."""
    doc["world"] = drafted_world(doc, gravity=0.0)
    doc["goal"] = {"hold": DRAFTED_HOLD}
    if player:
        doc["player"] = player
    return doc


def drafted_world(doc: dict, **world) -> dict:
    """A drafted level's world: the ground the structure was drawn on, the damping of the
    shipped levels (it settles in a second or two: the sandbox's light air would take many),
    and `world`'s fields."""
    ground = (doc.get("world") or {}).get("ground")
    return {"damping": 0.05, **({"ground": ground} if ground else {}), **world}


def listing(items: list[str]) -> str:
    """Names in a list a student reads: "A", "A and B", "A, B and C" (the language's "and")."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def hold_time(level: Level) -> float:
    return level.goal.hold if level.goal else 3.0


def moment_point(level: Level) -> str:
    """The node moments are taken about, in the verdict and on the play screen's ΣM: one
    the student can use, a support, a load's point or a named node — `goal.moment_about`,
    else the first cut's node (a free body), the first support's, the first load's, the
    first node."""
    if level.goal and level.goal.moment_about:
        return level.goal.moment_about
    for first in (level.cut or [], level.supports, level.loads):
        if first:
            return first[0].node
    return level.nodes[0].id


def limit(level: Level, size: float) -> float:
    """Largest node displacement that still counts as staying put [m]."""
    goal = level.goal
    return goal.max_displacement if goal and goal.max_displacement else 0.01 * size


def jittered(sim: Simulation, amount: float) -> None:
    """Move the free nodes by a seeded random fraction `amount` of the size, so that an
    unstable equilibrium shows itself (the same jitter every run: verdicts repeat)."""
    model = sim.model
    rng = np.random.default_rng(12345)
    free = ~model.arrays.fixed[:, :2]
    sim.state.pos[:, :2] += np.where(free, rng.uniform(-1, 1, free.shape) * amount * model.char_length, 0.0)


def snapshot(sim: Simulation) -> Simulation:
    """A copy of `sim` as it is now that runs on by itself (the model is shared: no run
    changes it)."""
    return copy.deepcopy(sim, {id(sim.model): sim.model})


# What a caller asks to be done between two batches of a judged run, told how far the
# run is: the game's background check (game/app/session/checking.py) shows it ("judging:
# 0.4 of 1.0 s held") and stops the run there when the player cancels; a headless check
# sets nothing. A context variable, so that a check in one thread or task never runs
# another's hook.
BETWEEN_BATCHES: ContextVar[Callable[[float, float, float], None] | None] = ContextVar("between_batches", default=None)


def between_batches(time: float, held: float, hold: float) -> None:
    """Run the caller's hook between two batches of a judged run, if it set one, with the
    simulated time run so far [s], how long the structure has held so far [s] and the
    hold it must reach [s]."""
    hook = BETWEEN_BATCHES.get()
    if hook is not None:
        hook(time, held, hold)


RAMP = 0.5  # [s] the loads of a run shown at rest come on over this time (smoothly_loaded)


def smoothly_loaded(data: dict) -> dict:
    """`data` with its loads coming on over RAMP seconds along a smooth step (3s² − 2s³,
    s = t/RAMP), not at once: a sudden load sets an elastic body vibrating about its
    place, and a structure shown at rest carries the static forces. Loads with a history
    of their own keep it."""
    out = dict(data)
    smooth = [[RAMP * k / 20, (k / 20) ** 2 * (3 - 2 * k / 20)] for k in range(21)]
    for key in ("loads", "member_loads"):
        out[key] = [ld if ld.get("history") else {**ld, "history": smooth} for ld in data.get(key, [])]
    return out


def run(data: dict, seconds: float, *, jitter: float = 0.0, removed: tuple[str, ...] = ()) -> tuple[Simulation, float, Simulation]:
    """Run a model for `seconds` from rest (JUDGE); returns the simulation, the largest
    node displacement seen [m] (infinite if it blew up) and the run's start."""
    model = build_model(data)
    sim = Simulation(model, JUDGE)
    for mid in removed:
        sim.remove_member(mid)
    if jitter:
        jittered(sim, jitter)
    within_budget(sim.dt, seconds)
    start = snapshot(sim)
    pos0 = model.arrays.pos0[:, :2]
    worst = 0.0
    try:
        for _batch in range(max(1, round(seconds / 0.02))):
            sim.advance(0.02)
            worst = max(worst, float(np.hypot(*(sim.state.pos[:, :2] - pos0).T).max()))
            between_batches(sim.time, sim.time, seconds)  # held as long as it has run
    except Unstable:
        worst = math.inf
    return sim, worst, start


def free_motion(model: Model, removed: tuple[str, ...] = ()) -> tuple[Mechanism, str] | None:
    """The first half of STANDS: the free motion of `model` without the members `removed`
    at its reference geometry, and its words; None when there is none."""
    free = mechanism(model, active=elements_without(model, removed) if removed else None)
    return None if free is None else (free, describe_motion(model, free))


@dataclass
class Standing:
    """What STANDS found: the free motion's words (empty: none), the run (the simulation
    as it ended, as it started), the largest displacement in it and the limit [m]."""

    motion: str
    sim: Simulation
    start: Simulation
    worst: float
    limit: float
    free: object = None  # the engine's Mechanism, when there is one

    @property
    def stands(self) -> bool:
        return not self.motion and self.worst <= self.limit


def stands(level: Level, removed: tuple[str, ...] = ()) -> Standing:
    """STANDS for the level's structure without the members `removed`: no mechanism, and
    a run from a slightly disturbed start holds within the limit for the hold time."""
    data = level.model_data()
    found = free_motion(build_model(data, statics_only=True), removed)
    sim, worst, start = run(data, hold_time(level), jitter=IMPERFECTION, removed=removed)
    return Standing(found[1] if found else "", sim, start, worst, limit(level, sim.model.char_length), found[0] if found else None)


def direction(angle: float) -> str:
    """A direction in words for an angle in degrees, counter-clockwise from +x."""
    words = (N_("right"), N_("up and right"), N_("up"), N_("up and left"), N_("left"), N_("down and left"), N_("down"), N_("down and right"))
    return _(words[round(angle / 45.0) % 8])
