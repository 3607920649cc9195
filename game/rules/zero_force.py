"""Zero-force members (seed 000 Fig. 12): mark the members that carry nothing under the
given loads, or remove as many as the truss can spare while it still stands."""

from __future__ import annotations

import numpy as np

from engine import Model, Simulation, build_model
from engine.linear import mechanism
from game.format import BaseLevel as Level
from game.rules.common import IMPERFECTION, Verdict, hold_time, kn, limit, plural, run
from game.rules.kind import Kind
from game.solution import MarkZero, RemoveMember, Solution

ZERO_FORCE_TOL = 1e-6  # |N| below this fraction of the largest |N| counts as no force


def member_forces_at_equilibrium(level: Level) -> dict[str, float]:
    """Axial forces [N] by the direct stiffness method (the small-displacement statics
    a student's method of joints gives), to the millinewton: the last bits of a sparse
    solve vary with the machine's BLAS, and no figure shown may."""
    sim = Simulation(build_model(level.model_data(), statics_only=True), "linear")
    if not sim.solve_linear().at_rest:
        raise ValueError("supports: the truss is a mechanism")
    return {mid: round(r["axial"], 3) + 0.0 for mid, r in sim.results()["members"].items()}  # + 0.0: never -0.0


def zero_force_members(forces: dict[str, float]) -> set[str]:
    biggest = max((abs(v) for v in forces.values()), default=0.0)
    return {mid for mid, n in forces.items() if abs(n) <= ZERO_FORCE_TOL * biggest}


def judge_zero_force(level: Level, solution: Solution) -> Verdict:
    if level.player.mode == "remove":
        return _judge_removal(level, solution)
    forces = member_forces_at_equilibrium(level)
    zero = zero_force_members(forces)
    marked = {m.member for m in solution.moves if isinstance(m, MarkZero)}
    wrong = sorted(marked - zero)
    missed = sorted(zero - marked)
    figures = {"zero_force": sorted(zero), "marked": sorted(marked), "forces": forces}
    if not wrong and not missed:
        return Verdict(True, f"Right: {', '.join(sorted(zero)) or 'no member'} carr{'ies' if len(zero) == 1 else 'y'} no force under these loads.", figures)
    lines = [f"{mid} carries {kn(abs(forces[mid]))} of {'tension' if forces[mid] > 0 else 'compression'}" for mid in wrong]
    if missed:
        lines.append(f"{', '.join(missed)} carr{'ies' if len(missed) == 1 else 'y'} no force but {'is' if len(missed) == 1 else 'are'} not marked")
    return Verdict(False, "Not quite: " + "; ".join(lines) + ".", figures)


def _judge_removal(level: Level, solution: Solution) -> Verdict:
    """Remove as many members as possible while the truss still stands (seed 000 Fig.
    12): a zero-force member that braces a compression chord holds the truss up. Passed
    when it stands and no other zero-force member can go too (the removal is maximal;
    in a statically determinate truss only zero-force members can go at all)."""
    removed = tuple(dict.fromkeys(m.member for m in solution.moves if isinstance(m, RemoveMember)))
    sim, worst, allowed, start = _stands(level, removed)
    figures = {"removed": list(removed), "max_displacement": worst, "limit": allowed, "hold": hold_time(level)}
    if worst > allowed:
        return Verdict(False, "The truss collapses: " + _why_it_falls(level, removed) + ".", figures, sim, start)
    spare = [mid for mid in sorted(zero_force_members(member_forces_at_equilibrium(level)) - set(removed)) if _stands(level, (*removed, mid))[1] <= allowed]
    figures["can_also_go"] = spare
    if spare:
        return Verdict(
            False,
            f"The truss still stands with {plural(len(removed), 'member')} removed, but more can go: "
            "look for a member that still carries nothing and holds no squeezed joint in line.",
            figures,
            sim,
            start,
        )
    return Verdict(True, f"The truss still stands with {plural(len(removed), 'member')} removed, and no other member can go.", figures, sim, start)


def _stands(level: Level, removed: tuple[str, ...]) -> tuple[Simulation, float, float]:
    """Run the truss without `removed` from a slightly jittered start for the hold time:
    the simulation, the largest displacement and the limit it must stay within [m]."""
    sim, worst, start = run(level.model_data(), hold_time(level), jitter=IMPERFECTION, removed=removed)
    return sim, worst, limit(level, sim.model.char_length), start


def _why_it_falls(level: Level, removed: tuple[str, ...]) -> str:
    """Name the joints left free whose members are in compression (they are pushed out
    of line, seed 000 Fig. 12), and the removed members that braced them."""
    model = build_model(level.model_data(), statics_only=True)
    keep = (np.ones(len(model.arrays.bar_L0), bool), np.ones(len(model.arrays.beam_L0), bool), np.ones(len(model.arrays.tri_E), bool))
    for mid in removed:
        kind, row = model.member_slot[model.member_index(mid)]
        keep[0 if kind == "bar" else 1][row] = False
    free = mechanism(model, active=keep)
    if free is None:
        return "the members left are overloaded or buckle"
    moving = {model.node_ids[q] for q in free.moving()}
    forces = member_forces_at_equilibrium(level)
    ends = {m.id: (m.i, m.j) for m in level.members}
    biggest = max(abs(n) for n in forces.values())
    squeezed = {mid: n for mid, n in forces.items() if n < -ZERO_FORCE_TOL * biggest and mid not in removed}
    pushed = sorted(q for q in moving if any(q in ends[mid] for mid in squeezed))
    if not pushed:
        return f"without {', '.join(removed)}, joints {', '.join(sorted(moving))} can move freely"
    bracing = [mid for mid in removed if set(ends[mid]) & set(pushed)]
    listed = " and ".join(f"{mid} ({kn(n)})" for mid, n in squeezed.items() if set(ends[mid]) & set(pushed))
    them = "them" if len(pushed) > 1 else "it"
    return f"without {', '.join(bracing)}, nothing holds {', '.join(pushed)} in line, and the compression in {listed} pushes {them} out"


def _sense(level: Level, model: Model) -> list[str]:
    """A zero-force puzzle is set on a truss that stands: a mechanism has no forces to find."""
    free = mechanism(model)
    if free is not None:
        moving = sorted(model.node_ids[q] for q in free.moving())
        return [f"supports: the truss is a mechanism; nodes {', '.join(moving)} can move without deforming it"]
    return []


KIND = Kind(
    name="zero_force",
    summary="mark the members that carry no force, or remove all the truss can spare",
    moves=(MarkZero, RemoveMember),
    tools=("inspect", "mark", "drag"),
    mode_tools={"remove": ("inspect", "remove", "drag")},
    player_fields=frozenset({"mode", "load_choices"}),
    judge=judge_zero_force,
    sense=_sense,
    hides_forces_until_checked=True,  # the forces are the answer
    # A truss without its zero-force members is only marginally stable: the check runs
    # it, and a banner calling the student's answer a mechanism would contradict (or
    # give away) the verdict.
    seeks_mechanism=False,
)
