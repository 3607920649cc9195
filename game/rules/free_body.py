"""Free body (issue 16): a structure in equilibrium is cut free from what held it — its
supports removed (the reactions), a joint or a section of a truss cut out (the method of
joints, the method of sections), a beam cut (N, V and M), a frame taken apart at its pins
— and the student replaces each cut by the force, and the moment where the cut carries
one, that it transmitted.

The level's nodes, members and loads are the freed body; `cut` says where it was cut and
what each cut carries (game/format.py `Cut`). The moves are `add_force {node, fx, fy}` and
`add_moment {node, m}` (N m, counter-clockwise positive) at the cuts' nodes.

How it is judged. The body with the student's forces and moments is built as the
engine's model, and the engine's own load vector (engine.linear.load_vector: every load
as the engine applies it) gives the resultant about a node P of the body
(`goal.moment_about`, else the first cut's node):

    ΣFx = Σ fx,   ΣFy = Σ fy,   ΣM_P = Σ (x − x_P)·fy − (y − y_P)·fx + Σ m

The body is in equilibrium when all three are zero; it counts as zero within the
tolerance τ (`goal.tolerance`, default 2 %), per component:

    |ΣFx| ≤ τ·F,   |ΣFy| ≤ τ·F,   |ΣM_P| ≤ τ·F·r

F [N] is the largest given load (|(fx, fy)| of a load; a pure moment m counts as |m|/r;
a distributed load as ½(|w_i| + |w_j|)·L),
r [m] the largest distance from P to a node of the body: a force off by τ·F anywhere on
the body stays within the moment's share. Why 2 %: answers typed to two or three
significant figures, as a textbook gives them, fall inside it; the mistakes students make
(a wrong sign, reactions swapped, a component forgotten, a lever arm misread) are off by
tens of per cent. ΣF = 0 and ΣM_P = 0 together are equilibrium about every point.

Equilibrium of the whole is not enough: each force must be one its cut can give, within
τ·F. A roller's reaction has no part along the surface it rolls on (on an incline, the
cut's `along` gives its normal); a bar (a two-force member) carries only a force along
itself, and so does a pin that joined one taken away (`along`, its line); only a cut that carries a moment (a fixed
support, a cut beam) takes one. Else forces that no cut gives could balance the body.

The engine then runs the body from rest for `goal.hold` (RK4): the run the game shows. A
wrong answer's body, free, moves off the way the net force and moment push it, and the
verdict says which way, which balance is off and by how much — never the answer itself.
A right answer's body is run with its cuts put back as supports (`held`): they take only
the little the answer leaves, so it stands as it stood, the cut forces in its members.
"""

from __future__ import annotations

import math

import numpy as np

from engine import Model, build_model
from engine.linear import load_vector
from game.format import BaseLevel as Level
from game.format import Cut
from game.rules.balance import DEFAULT_TOLERANCE  # the same 2 % as balance (see the module's docstring)
from game.rules.common import Verdict, direction, hold_time, kn, moment_point, plural, run
from game.rules.kind import Kind, Places
from game.solution import AddForce, AddMoment, Solution, player_loads

CARRIES = {"pin": ("x", "y"), "beam": ("x", "y", "rot"), "bar": ("x", "y")}  # a bar's force: along it


def carried(cut: Cut) -> tuple[str, ...]:
    """What a cut transmits: "x", "y" (force components) and "rot" (a moment)."""
    return tuple(cut.carries) if cut.carries else CARRIES.get(cut.what, ())


def cut_words(cut: Cut) -> str:
    """The cut in a student's words: 'the roller at B', 'the cut bar CD at S1'."""
    if cut.what == "support":
        fix = set(carried(cut))
        name = "fixed support" if "rot" in fix else ("pin" if fix == {"x", "y"} and cut.along is None else "roller")
        return f"the {name} at {cut.node}"
    if cut.what == "bar":
        return f"the cut bar {cut.member} at {cut.node}"
    if cut.what == "beam":
        return f"the beam cut at {cut.node}"
    return f"the pin at {cut.node}"


def places(level: Level) -> Places:
    """One force per cut and one moment per cut that carries one, at the cuts' nodes
    (`player.forces`, `player.moments`, `player.nodes` say otherwise)."""
    cuts = level.cut or []
    moment_nodes = tuple(c.node for c in cuts if "rot" in carried(c))
    player = level.player
    return Places(
        forces=player.forces or len(cuts),
        moments=len(moment_nodes) if player.moments is None else player.moments,
        nodes=tuple(player.nodes or [c.node for c in cuts]),
        moment_nodes=moment_nodes,
        one_per_node=True,
    )


def _scale(level: Level, model: Model, p: int) -> tuple[float, float, float]:
    """(τ, F [N], r [m]) of the tolerance: see the module's docstring."""
    tol = level.goal.tolerance if level.goal and level.goal.tolerance else DEFAULT_TOLERANCE
    pos = model.arrays.pos0[:, :2]
    r = max(float(np.hypot(*(pos - pos[p]).T).max()), 1e-3 * model.char_length)
    f = max((max(math.hypot(ld.fx, ld.fy), abs(ld.m) / r) for ld in level.loads), default=0.0)
    for ml in model.member_loads:  # a distributed load counts as its size, ½(|w_i| + |w_j|)·L
        f = max(f, 0.5 * (abs(ml.wi) + abs(ml.wj)) * math.dist(pos[ml.i], pos[ml.j]))
    return tol, f, r


def _count_problem(level: Level, solution: Solution, want: Places) -> str | None:
    forces = [m for m in solution.moves if isinstance(m, AddForce)]
    moments = [m for m in solution.moves if isinstance(m, AddMoment)]
    if len(forces) != want.forces or len(moments) != want.moments:
        asked = plural(want.forces, "force") + (f" and {plural(want.moments, 'moment')}" if want.moments else "")
        given = plural(len(forces), "force") + (f" and {plural(len(moments), 'moment')}" if moments or want.moments else "")
        return f"Replace the cuts by exactly {asked}; this solution gives {given}."
    for kind, moves, nodes in (("force", forces, want.nodes), ("moment", moments, want.moment_nodes)):
        seen: set[str] = set()
        for m in moves:
            if m.node not in nodes:
                where = ", ".join(nodes) or "no node"
                return f"A {kind} replaces a cut that carries one, at {where}; {m.node} is not one."
            if m.node in seen:
                return f"One {kind} replaces the cut at {m.node}: add the two you put there into one."
            seen.add(m.node)
    return None


def _misfit(level: Level, cut: Cut, fx: float, fy: float, most: float) -> str | None:
    """Why a force (fx, fy) [N] at `cut` is not one the cut can give (None: it can)."""
    if cut.what == "bar":
        member = next(m for m in level.members if m.id == cut.member)
        where = {n.id: (n.x, n.y) for n in level.nodes}
        other = member.j if member.i == cut.node else member.i
        ux, uy = np.subtract(where[cut.node], where[other]) / math.dist(where[cut.node], where[other])
        across = abs(fx * uy - fy * ux)
        if across > most and member.kind == "cable":
            return f"Cable {cut.member} pulls only along itself: its force at the cut {cut.node} lies along {cut.member}, but yours has {kn(across)} across it."
        if across > most:
            return (
                f"Member {cut.member} is a two-force member (a bar pinned at both ends): the force it gives at the cut {cut.node} "
                f"lies along {cut.member}, but yours has {kn(across)} across it."
            )
        return None
    if cut.along is not None:  # a roller on an incline, or a pin that joined a two-force member
        ux, uy = np.divide(cut.along, math.hypot(*cut.along))
        across = abs(fx * uy - fy * ux)
        if across > most:
            if cut.what == "support":
                return f"The roller at {cut.node} pushes only at right angles to the surface it rolls on, but yours has {kn(across)} along that surface."
            member = f"the two-force member {cut.member}" if cut.member else "a two-force member"
            return (
                f"The pin at {cut.node} joined {member} (a member loaded only at its two pins): the force it gives lies along "
                f"that member, but yours has {kn(across)} across it."
            )
        return None
    for axis, value in (("x", fx), ("y", fy)):
        if axis not in carried(cut) and abs(value) > most:
            words = cut_words(cut)
            return f"{words[0].upper()}{words[1:]} gives no force along {axis}, but yours has f{axis} = {value / 1e3:+.3g} kN."
    return None


def judge_free_body(level: Level, solution: Solution) -> Verdict:
    """The student's forces and moments in place of the cuts hold the freed body in
    equilibrium, each one its cut can give (see the module's docstring)."""
    problem = _count_problem(level, solution, places(level))
    if problem:
        return Verdict(False, problem)
    data = level.model_data()
    data["loads"] = data.get("loads", []) + player_loads(solution.moves)
    model = build_model(data, statics_only=True)
    about = moment_point(level)
    p = model.node_index(about)
    tol, big, r = _scale(level, model, p)
    cuts = {c.node: c for c in level.cut or []}
    for move in solution.moves:
        if isinstance(move, AddForce):
            problem = _misfit(level, cuts[move.node], move.fx, move.fy, tol * big)
            if problem:
                return Verdict(False, problem)
    f = load_vector(model, model.load_end_time)
    d = model.arrays.pos0[:, :2] - model.arrays.pos0[p, :2]
    net = {"fx": float(f[:, 0].sum()), "fy": float(f[:, 1].sum()), "m": float((d[:, 0] * f[:, 1] - d[:, 1] * f[:, 0]).sum() + f[:, 2].sum())}
    off = {k: v for k, v in net.items() if abs(v) > tol * big * (r if k == "m" else 1.0)}
    hold = hold_time(level)
    sim, worst, start = run(data if off else held(level, data), hold)
    figures = {
        "net_force": {"fx": net["fx"], "fy": net["fy"]},
        "net_moment": net["m"],
        "moment_about": about,
        "tolerance": {"force": tol * big, "moment": tol * big * r, "fraction": tol},
        "max_displacement": worst,
        "hold": hold,
    }
    if not off:
        why = f"ΣFx = 0, ΣFy = 0 and ΣM about {about} = 0, within {tol:.0%} of the largest load"
        words = f"Right: your forces hold the freed body in equilibrium ({why}). Put back at the cuts, the body stands as before."
        return Verdict(True, words, figures, sim, start)
    return Verdict(False, _imbalance(off, about, worst, hold), figures, sim, start)


def held(level: Level, data: dict) -> dict:
    """The freed body with the student's forces and its cuts put back as supports (a cut
    bar as a pin at its cut end): the run a right answer is shown with. The supports take
    only what the answer leaves unbalanced, so the body stands as it stood, cut forces in
    its members; run free instead, a body squeezed by forces of fixed direction (a
    compressed bar's cut end) would be in equilibrium but an unstable one, and turn away
    from the round-off of the first steps."""
    out = dict(data)
    fixed = {s["node"] for s in data.get("supports", [])}
    out["supports"] = list(data.get("supports", [])) + [
        {"node": c.node, "fix": list(carried(c) if c.what != "bar" else ("x", "y"))} for c in level.cut or [] if c.node not in fixed
    ]
    return out


def _imbalance(off: dict[str, float], about: str, worst: float, hold: float) -> str:
    """Which balances are off, by how much and which way the body goes: never the answer."""
    parts, ways = [], []
    if "fx" in off:
        parts.append(f"ΣFx = {off['fx'] / 1e3:+.3g} kN")
    if "fy" in off:
        parts.append(f"ΣFy = {off['fy'] / 1e3:+.3g} kN")
    if "fx" in off or "fy" in off:
        angle = math.degrees(math.atan2(off.get("fy", 0.0), off.get("fx", 0.0)))
        ways.append(f"moves {direction(angle)}")
    if "m" in off:
        parts.append(f"ΣM about {about} = {off['m'] / 1e3:+.3g} kN·m")
        ways.append("turns " + ("counter-clockwise" if off["m"] > 0 else "clockwise"))
    moved = f" (it moved {worst:.2g} m in {hold:g} s)" if worst < 10 else (f" (it moved {worst:.0f} m in {hold:g} s)" if math.isfinite(worst) else "")
    return (
        f"Not in equilibrium: {', '.join(parts)} (x to the right, y up, moments counter-clockwise positive), so the body "
        f"{' and '.join(ways)}{moved}. Check the free-body diagram: every cut replaced, each force's sense and lever arm."
    )


def _sense(level: Level, model: Model) -> list[str]:
    """A free-body level is cut somewhere, at nodes of its body, each cut one the format
    allows; its forces go where cuts are; weight is neglected (the loads drawn are all)."""
    if not level.cut:
        return ["cut: a free_body level says where its body was cut free (at least one cut)"]
    if level.world.gravity != 0:
        return ["world.gravity: a free-body level neglects weight (gravity 0): the loads drawn are all the forces on the body"]
    if not any(ld.fx or ld.fy or ld.m for ld in level.loads) and not any(any(ml.ends()) for ml in level.member_loads):
        return ["loads: a free body without loads needs no forces to hold it"]
    nodes = {n.id for n in level.nodes}
    members = {m.id: m for m in level.members}
    seen: set[str] = set()
    for k, cut in enumerate(level.cut):
        at = f"cut[{k}]"
        if cut.node not in nodes:
            return [f"{at}.node: unknown node {cut.node!r}"]
        if cut.node in seen:
            return [f"{at}.node: node {cut.node!r} is cut twice; one cut a node"]
        seen.add(cut.node)
        if cut.what == "support" and not cut.carries:
            return [f'{at}.carries: say what the removed support fixed, e.g. ["x", "y"] for a pin']
        if cut.along is not None and (cut.what not in ("support", "pin") or set(carried(cut)) != {"x", "y"} or not any(cut.along)):
            return [f'{at}.along: a line of force for a roller on an incline or a pin of a two-force member: a nonzero [dx, dy], with carries ["x", "y"]']
        if cut.what == "bar":
            if cut.carries:
                return [f"{at}.carries: a bar's force lies along it; give its member, not carries"]
            member = members.get(cut.member or "")
            if member is None:
                return [f"{at}.member: a cut bar names the body's member that ends at the cut" + (f"; unknown member {cut.member!r}" if cut.member else "")]
            if cut.node not in (member.i, member.j):
                return [f"{at}.member: member {member.id} does not end at {cut.node}"]
        elif cut.member is not None and cut.member not in members and cut.along is None:  # a pin's along: the member taken away
            return [f"{at}.member: unknown member {cut.member!r}"]
    for k, node in enumerate(level.player.nodes or []):
        if node not in seen:
            return [f"player.nodes[{k}]: forces replace cuts, and {node} is not cut"]
    about = level.goal.moment_about if level.goal else None
    if about is not None and about not in nodes:
        return [f"goal.moment_about: unknown node {about!r}"]
    return []


KIND = Kind(
    name="free_body",
    summary="replace the cuts that freed a body by the forces and moments they carried",
    moves=(AddForce, AddMoment),
    tools=("inspect", "force", "moment", "erase", "drag"),
    player_fields=frozenset({"forces", "moments", "nodes"}),
    goal_fields=frozenset({"hold", "tolerance", "moment_about"}),
    judge=judge_free_body,
    sense=_sense,
    seeks_mechanism=False,  # the body is free on purpose
    hides_sums_until_passed=True,  # ΣF and ΣM of the student's forces would read off the answer
    cuts=True,
    places=places,
)
