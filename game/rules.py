"""Challenge rules: the verdict on a player's solution, judged by running the engine.

Nothing is compared with a stored answer, so every correct solution passes, also ones
the author never thought of. A verdict says `passed`, a `reason` a student understands,
and the figures behind it. No pygame or pymunk here.

Kinds judged so far: `balance` (seed 000 Fig. 13) and `zero_force` (seed 000 Fig. 12).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from engine import Model, Simulation, Unstable, build_model
from engine.linear import find_mechanism, load_vector, stiffness
from game.level import Level
from game.solution import AddForce, MarkZero, RemoveMember, Solution

ALLOWED_MOVES = {"balance": (AddForce,), "zero_force": (MarkZero, RemoveMember)}
ZERO_FORCE_TOL = 1e-6  # |N| below this fraction of the largest |N| counts as no force
IMPERFECTION = 1e-5  # node jitter, as a fraction of the size, so that instability shows


@dataclass(frozen=True)
class Verdict:
    passed: bool
    reason: str
    figures: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"passed": self.passed, "reason": self.reason, **self.figures}


def check(level: Level, solution: Solution) -> Verdict:
    """Judge `solution` on `level`. ValueError (one 'field: problem' line) when the
    solution is for another level or uses a move the level does not allow."""
    if solution.level != level.id:
        raise ValueError(f"level: this solution is for level {solution.level!r}, not {level.id!r}")
    level = level.drawn(solution.draw)
    allowed = ALLOWED_MOVES.get(level.kind)
    if allowed is None:
        raise ValueError(f"level: {level.kind} levels cannot be checked yet")
    node_ids = {n.id for n in level.nodes}
    member_ids = {m.id for m in level.members}
    for k, move in enumerate(solution.moves):
        if not isinstance(move, allowed):
            raise ValueError(f"moves[{k}].type: a {level.kind} level does not allow {move.type}")
        if isinstance(move, AddForce) and move.node not in node_ids:
            raise ValueError(f"moves[{k}].node: unknown node {move.node!r}")
        if isinstance(move, MarkZero | RemoveMember) and move.member not in member_ids:
            raise ValueError(f"moves[{k}].member: unknown member {move.member!r}")
    return JUDGES[level.kind](level, solution)


# ------------------------------------------------------------------ shared machinery


def _kn(x: float) -> str:
    return f"{x / 1e3:.3g} kN"


def _limit(level: Level, size: float) -> float:
    """Largest node displacement that still counts as staying put [m]."""
    goal = level.goal
    return goal.max_displacement if goal and goal.max_displacement else 0.01 * size


def _run(data: dict, seconds: float, *, jitter: float = 0.0, removed: tuple[str, ...] = ()) -> tuple[Simulation, float]:
    """Run a model for `seconds` from rest (RK4); returns the simulation and the
    largest node displacement seen [m]. Optional seeded jitter of the node positions
    (a fraction of the size) lets an unstable equilibrium show itself."""
    model = build_model(data)
    sim = Simulation(model, "rk4")
    for mid in removed:
        kind, row = model.member_slot[model.member_index(mid)]
        (sim.state.bar_on if kind == "bar" else sim.state.beam_on)[row] = False
    if jitter:
        rng = np.random.default_rng(12345)
        free = ~model.arrays.fixed[:, :2]
        sim.state.pos[:, :2] += np.where(free, rng.uniform(-1, 1, free.shape) * jitter * model.char_length, 0.0)
    pos0 = model.arrays.pos0[:, :2]
    worst = 0.0
    try:
        for _ in range(max(1, round(seconds / 0.02))):
            sim.advance(0.02)
            worst = max(worst, float(np.hypot(*(sim.state.pos[:, :2] - pos0).T).max()))
    except Unstable:
        worst = math.inf
    return sim, worst


# ------------------------------------------------------------------ balance


def judge_balance(level: Level, solution: Solution) -> Verdict:
    """Seed 000 Fig. 13: add exactly the allowed number of forces to a free body so
    that it stays put; infinitely many answers are right. A failing verdict gives the
    net force and the net moment about the centre of mass, which say how it moves."""
    player = level.player
    wanted = int(player.get("forces", 2))
    max_force = float(player.get("max_force", math.inf))
    allowed_nodes = set(player.get("nodes", [])) or {n.id for n in level.nodes}
    forces = [m for m in solution.moves if isinstance(m, AddForce)]
    if len(forces) != wanted:
        return Verdict(False, f"Add exactly {wanted} forces; this solution adds {len(forces)}.", {"forces": len(forces)})
    for f in forces:
        if f.node not in allowed_nodes:
            return Verdict(False, f"Forces may act at {', '.join(sorted(allowed_nodes))}, not at {f.node}.")
        if math.hypot(f.fx, f.fy) > max_force:
            return Verdict(False, f"The force at {f.node} is {_kn(math.hypot(f.fx, f.fy))}; at most {_kn(max_force)} is allowed.")
    data = level.model_data()
    data["loads"] = data.get("loads", []) + [{"node": f.node, "fx": f.fx, "fy": f.fy} for f in forces]
    hold = level.goal.hold if level.goal else 3.0
    sim, worst = _run(data, hold)
    net_f, net_m = _net_load(sim.model)
    limit = _limit(level, sim.model.char_length)
    figures = {"net_force": {"fx": net_f[0], "fy": net_f[1]}, "net_moment": net_m, "max_displacement": worst, "limit": limit, "hold": hold}
    if worst <= limit:
        return Verdict(True, f"The body stays put for {hold:g} s: the forces and their moments balance.", figures)
    parts = []
    size = math.hypot(*net_f)
    if size > 1e-9 * max(1.0, _load_scale(data)):
        angle = math.degrees(math.atan2(net_f[1], net_f[0]))
        parts.append(f"a net force of {_kn(size)} pointing {_direction(angle)} ({angle:.0f}°)")
    if abs(net_m) > 1e-9 * max(1.0, _load_scale(data)):
        sense = "counter-clockwise" if net_m > 0 else "clockwise"
        parts.append(f"a net moment of {abs(net_m) / 1e3:.3g} kN·m {sense} about its centre of mass")
    why = " and ".join(parts) or "forces that do not balance"
    return Verdict(False, f"The body moves {worst:.3g} m within {hold:g} s: it feels {why}.", figures)


def _direction(angle: float) -> str:
    """A direction in words for an angle in degrees, counter-clockwise from +x."""
    words = ("right", "up and right", "up", "up and left", "left", "down and left", "down", "down and right")
    return words[round(angle / 45.0) % 8]


def _net_load(model: Model) -> tuple[tuple[float, float], float]:
    """Net applied force [N] and net moment about the centre of mass [N m] of the
    loads at their final values (statics: what makes a free body move)."""
    m = model.arrays
    f = load_vector(model, model.load_end_time)
    mass = m.mass[:, 0]
    centre = (m.pos0[:, :2] * mass[:, None]).sum(axis=0) / mass.sum()
    r = m.pos0[:, :2] - centre
    moment = float((r[:, 0] * f[:, 1] - r[:, 1] * f[:, 0]).sum() + f[:, 2].sum())
    return (float(f[:, 0].sum()), float(f[:, 1].sum())), moment


def _load_scale(data: dict) -> float:
    return max((math.hypot(ld.get("fx", 0.0), ld.get("fy", 0.0)) for ld in data.get("loads", [])), default=0.0)


# ------------------------------------------------------------------ zero force


def member_forces_at_equilibrium(level: Level) -> dict[str, float]:
    """Axial forces [N] by the direct stiffness method (the small-displacement statics
    a student's method of joints gives)."""
    sim = Simulation(build_model(level.model_data(), statics_only=True), "linear")
    if not sim.solve_linear().at_rest:
        raise ValueError("supports: the truss is a mechanism")
    return {mid: r["axial"] for mid, r in sim.results()["members"].items()}


def zero_force_members(forces: dict[str, float]) -> set[str]:
    biggest = max((abs(v) for v in forces.values()), default=0.0)
    return {mid for mid, n in forces.items() if abs(n) <= ZERO_FORCE_TOL * biggest}


def judge_zero_force(level: Level, solution: Solution) -> Verdict:
    if level.player.get("mode", "mark") == "remove":
        return _judge_removal(level, solution)
    forces = member_forces_at_equilibrium(level)
    zero = zero_force_members(forces)
    marked = {m.member for m in solution.moves if isinstance(m, MarkZero)}
    wrong = sorted(marked - zero)
    missed = sorted(zero - marked)
    figures = {"zero_force": sorted(zero), "marked": sorted(marked), "forces": forces}
    if not wrong and not missed:
        return Verdict(True, f"Right: {', '.join(sorted(zero)) or 'no member'} carr{'ies' if len(zero) == 1 else 'y'} no force under these loads.", figures)
    lines = [f"{mid} carries {_kn(abs(forces[mid]))} of {'tension' if forces[mid] > 0 else 'compression'}" for mid in wrong]
    if missed:
        lines.append(f"{', '.join(missed)} carr{'ies' if len(missed) == 1 else 'y'} no force but {'is' if len(missed) == 1 else 'are'} not marked")
    return Verdict(False, "Not quite: " + "; ".join(lines) + ".", figures)


def _judge_removal(level: Level, solution: Solution) -> Verdict:
    """Remove as many members as possible while the truss still stands (seed 000 Fig.
    12): a zero-force member that braces a compression chord holds the truss up."""
    removed = tuple(dict.fromkeys(m.member for m in solution.moves if isinstance(m, RemoveMember)))
    hold = level.goal.hold if level.goal else 3.0
    sim, worst = _run(level.model_data(), hold, jitter=IMPERFECTION, removed=removed)
    limit = _limit(level, sim.model.char_length)
    figures = {"removed": list(removed), "max_displacement": worst, "limit": limit, "hold": hold}
    if worst <= limit:
        return Verdict(True, f"The truss still stands with {len(removed)} member{'s' if len(removed) != 1 else ''} removed.", figures)
    return Verdict(False, "The truss collapses: " + _why_it_falls(level, removed) + ".", figures)


def _why_it_falls(level: Level, removed: tuple[str, ...]) -> str:
    """Name the joints left free whose members are in compression (they are pushed out
    of line, seed 000 Fig. 12), and the removed members that braced them."""
    model = build_model(level.model_data(), statics_only=True)
    keep = (np.ones(len(model.arrays.bar_L0), bool), np.ones(len(model.arrays.beam_L0), bool), np.ones(len(model.arrays.tri_E), bool))
    for mid in removed:
        kind, row = model.member_slot[model.member_index(mid)]
        keep[0 if kind == "bar" else 1][row] = False
    mechanism = find_mechanism(model, stiffness(model, active=keep), ~model.arrays.fixed.ravel())
    if mechanism is None:
        return "the members left are overloaded or buckle"
    moving = {model.node_ids[q] for q in range(model.n_nodes) if np.abs(mechanism.mode[q]).max() > 1e-6}
    forces = member_forces_at_equilibrium(level)
    ends = {m.id: (m.i, m.j) for m in level.members}
    squeezed = {mid: n for mid, n in forces.items() if n < 0 and mid not in removed}
    pushed = sorted(q for q in moving if any(q in ends[mid] for mid in squeezed))
    if not pushed:
        return f"without {', '.join(removed)}, joints {', '.join(sorted(moving))} can move freely"
    bracing = [mid for mid in removed if set(ends[mid]) & set(pushed)]
    listed = " and ".join(f"{mid} ({_kn(n)})" for mid, n in squeezed.items() if set(ends[mid]) & set(pushed))
    them = "them" if len(pushed) > 1 else "it"
    return f"without {', '.join(bracing)}, nothing holds {', '.join(pushed)} in line, and the compression in {listed} pushes {them} out"


JUDGES = {"balance": judge_balance, "zero_force": judge_zero_force}
