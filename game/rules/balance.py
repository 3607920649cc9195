"""Balance (seed 000 Fig. 13): add exactly the allowed number of forces to a free body
so that it stays put. Infinitely many answers are right; the engine judges each."""

from __future__ import annotations

import math

from engine import Model
from engine.linear import load_vector
from game.format import BaseLevel as Level
from game.rules.common import Verdict, direction, hold_time, kn, limit, plural, run
from game.rules.contact import held_words, surfaces, why_it_moves
from game.rules.kind import Kind, Places
from game.solution import AddForce, Solution

BALANCED = 1e-6  # net force within this fraction of the largest load (net moment: times the size) is none


def places(level: Level) -> Places:
    """`player.forces` forces (2 unless it says), at `player.nodes` (absent: anywhere)."""
    return Places(forces=level.player.forces or 2, nodes=tuple(level.player.nodes or ()))


def judge_balance(level: Level, solution: Solution) -> Verdict:
    """Seed 000 Fig. 13: add exactly the allowed number of forces to a free body so
    that it stays put; infinitely many answers are right. A failing verdict gives the
    net force and the net moment about the centre of mass, which say how it moves."""
    player = level.player
    wanted = places(level).forces
    max_force = player.max_force or math.inf
    allowed_nodes = set(player.nodes or []) or {n.id for n in level.nodes}
    forces = [m for m in solution.moves if isinstance(m, AddForce)]
    if len(forces) != wanted:
        return Verdict(False, f"Add exactly {plural(wanted, 'force')}; this solution adds {len(forces)}.", {"forces": len(forces)})
    for f in forces:
        if f.node not in allowed_nodes:
            return Verdict(False, f"Forces may act at {', '.join(sorted(allowed_nodes))}, not at {f.node}.")
        if math.hypot(f.fx, f.fy) > max_force:
            return Verdict(False, f"The force at {f.node} is {kn(math.hypot(f.fx, f.fy))}; at most {kn(max_force)} is allowed.")
    data = level.model_data()
    data["loads"] = data.get("loads", []) + [{"node": f.node, "fx": f.fx, "fy": f.fy} for f in forces]
    hold = hold_time(level)
    sim, worst, start = run(data, hold)
    net_f, net_m = _net_load(sim.model)
    allowed = limit(level, sim.model.char_length)
    figures = {"net_force": {"fx": net_f[0], "fy": net_f[1]}, "net_moment": net_m, "max_displacement": worst, "limit": allowed, "hold": hold}
    found = surfaces(sim.model)
    if found:
        figures["contacts"] = [s.figures() for s in found]
    if worst <= allowed:
        held = held_words(found)
        words = f"The body stays put for {hold:g} s: the forces and their moments balance" + (f", and {held}." if held else ".")
        return Verdict(True, words, figures, sim, start)
    if found:
        why = why_it_moves(found) or "the contact forces cannot hold it."
        return Verdict(False, f"The body moves {worst:.3g} m within {hold:g} s: {why}", figures, sim, start)
    scale = max(1.0, _load_scale(data))
    size = math.hypot(*net_f)
    if size <= BALANCED * scale and abs(net_m) <= BALANCED * scale * sim.model.char_length:
        # Statics says equilibrium, the run says it turns away: forces fixed in direction
        # that squeeze a body (Σ r·F < 0 about its centre) make its equilibrium unstable,
        # and round-off is nudge enough. The answer is right; the student learns why.
        figures["stable_equilibrium"] = False
        return Verdict(
            True,
            "The forces and their moments balance: the body is in equilibrium. But it is an unstable one: your forces "
            f"squeeze the body, so the smallest nudge turns it away (it moved {worst:.3g} m), like a pencil standing on "
            "its tip. Forces that pull the body apart would hold it steady.",
            figures,
            sim,
            start,
        )
    parts = []
    if size > 1e-9 * scale:
        angle = math.degrees(math.atan2(net_f[1], net_f[0]))
        parts.append(f"a net force of {kn(size)} pointing {direction(angle)} ({angle:.0f}°)")
    if abs(net_m) > 1e-9 * scale:
        sense = "counter-clockwise" if net_m > 0 else "clockwise"
        parts.append(f"a net moment of {abs(net_m) / 1e3:.3g} kN·m {sense} about its centre of mass")
    why = " and ".join(parts) or "forces that do not balance"
    return Verdict(False, f"The body moves {worst:.3g} m within {hold:g} s: it feels {why}.", figures, sim, start)


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


KIND = Kind(
    name="balance",
    summary="add forces to a free body so that it stays put",
    moves=(AddForce,),
    tools=("inspect", "force", "erase", "drag"),
    player_fields=frozenset({"forces", "max_force", "nodes"}),
    judge=judge_balance,
    places=places,
    seeks_mechanism=False,  # the body is free on purpose
)
