"""Free body: a structure in equilibrium is cut free from what held it — its
supports removed (the reactions), a joint or a section of a truss cut out (the method of
joints, the method of sections), a beam cut (N, V and M), a frame taken apart at its pins
— and the student replaces each cut by the force, and the moment where the cut carries
one, that it transmitted.

The level's nodes, members and loads are the freed body; `cut` says where it was cut and
what each cut carries (game/format/schema.py `Cut`). The moves are `add_force {node, fx, fy}` and
`add_moment {node, m}` (N m, counter-clockwise positive) at the cuts' nodes.

How it is judged: each unknown against its own answer. The cuts' unknowns (each force
component a cut carries, a moment where it carries one, the force along a cut bar or
along a cut's `along` line) have one answer when the cuts are statically determinate,
computed from the level's own numbers with the engine's load vector (game/rules/answer.py
`solve_values`). The student's value of each unknown (their force at the cut's node, as
its component along the unknown's direction; their moment) passes when

    |yours − answer| ≤ max(τ·|answer|,  φᵤ·F)          (a force component)
    |yours − answer| ≤ max(τ·|answer|,  φᵤ·F·ℓ)        (a moment)

τ = `goal.tolerance` (default 2 %), φᵤ = 0.1 %, F [N] the largest given load, ℓ [m] the
shortest distance between two nodes of the body (game/rules/equilibrium.py): the floor is
for an answer near zero (a vertical load's x reaction), where 2 % of nothing would ask for
an exact zero. It decides only for an answer under φᵤ/τ = 5 % of F: every larger unknown
is judged within τ of its own value, as the brief says. This is how Mastering Engineering and Numbas judge a numeric answer: every
answer typed to three significant figures (at most 0.5 % off) passes; two significant
figures pass only where the rounding is within 2 %; a wrong sign, a lever arm misread (a
ladder's length for its height, 10 % off), a moment taken as force × distance for an
inclined force, a component forgotten are off by more than 2 % of the unknown they touch,
and fail, however big the body. The equilibrium sums ΣFx, ΣFy and ΣM about P
(`goal.moment_about`, else the first cut's node) are kept as figures and say, in a failed
verdict, which equation is off and which way the body would go (the largest imbalance
relative to its bound first), never by how much.

Where the cuts are not statically determinate (more unknowns than equations: no unique
answer), the sums decide, as for a balance level (game/rules/equilibrium.py).

Each force must also be one its cut can give, within φ·F: a roller's reaction has no
part along the surface it rolls on (on an incline, the cut's `along` gives its normal); a
bar (a two-force member) carries only a force along itself, and so does a pin that joined
one taken away (`along`, its line); only a cut that carries a moment (a fixed support, a
cut beam) takes one.

The engine then runs the body from rest for `goal.hold`: the run the game shows. A wrong
answer's body, free, moves off the way the net force and moment push it. A right answer's
body is run with its cuts put back as supports (`held`): they take only the little the
answer leaves, so it stands as it stood, the cut forces in its members.
"""

from __future__ import annotations

import math

import numpy as np

from equilibria.engine.determinacy import hinge_parts
from equilibria.engine.model import Model, build_model
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.schema import Cut
from equilibria.format.solution import AddForce, AddMoment, Solution, player_loads
from equilibria.rules.answer import Unknown, carried, columns, cut_words, solve_cuts, solve_values, unit
from equilibria.rules.balance import WITHIN
from equilibria.rules.common import Verdict, drafted_at_rest, hold_time, listing, moment_point, run, smoothly_loaded
from equilibria.rules.equilibrium import FLOOR, SHOWN_BEFORE_PASS, UNKNOWN_FLOOR, bounds, largest_load, off_words, ranked_off, shortest_arm, sums, tolerance_of
from equilibria.rules.kind import Kind, Places
from equilibria.words.figures import percent
from equilibria.words.i18n import N_, _, ngettext
from equilibria.words.text import named

SHORT_LINK = 0.03  # a roller's link put back (held), as a fraction of the body's size


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


def _count_problem(level: Level, solution: Solution, want: Places) -> str | None:
    forces = [m for m in solution.moves if isinstance(m, AddForce)]
    moments = [m for m in solution.moves if isinstance(m, AddMoment)]
    if len(forces) != want.forces or len(moments) != want.moments:
        asked, given = _forces_and_moments(want.forces, want.moments, want.moments), _forces_and_moments(len(forces), len(moments), moments or want.moments)
        return _("Replace the cuts by exactly {asked}; this solution gives {given}.").format(asked=asked, given=given)
    for moment, moves, nodes in ((False, forces, want.nodes), (True, moments, want.moment_nodes)):
        seen: set[str] = set()
        for m in moves:
            if m.node not in nodes:
                where = ", ".join(nodes) or _("no node")
                said = (
                    _("A moment replaces a cut that carries one, at {nodes}; {node} is not one.")
                    if moment
                    else _("A force replaces a cut that carries one, at {nodes}; {node} is not one.")
                )
                return said.format(nodes=where, node=m.node)
            if m.node in seen:
                said = (
                    _("One moment replaces the cut at {node}: add the two you put there into one.")
                    if moment
                    else _("One force replaces the cut at {node}: add the two you put there into one.")
                )
                return said.format(node=m.node)
            seen.add(m.node)
    return None


def _forces_and_moments(forces: int, moments: int, with_moments) -> str:
    """ "2 forces", "2 forces and 1 moment"."""
    said = ngettext("{n} force", "{n} forces", forces).format(n=forces)
    if not with_moments:
        return said
    return _("{forces} and {moments}").format(forces=said, moments=ngettext("{n} moment", "{n} moments", moments).format(n=moments))


def _misfit(level: Level, cut: Cut, fx: float, fy: float, most: float) -> str | None:
    """Why a force (fx, fy) [N] at `cut` is not one the cut can give (None: it can)."""
    if cut.what == "bar":
        member = next(m for m in level.members if m.id == cut.member)
        where = {n.id: (n.x, n.y) for n in level.nodes}
        other = member.j if member.i == cut.node else member.i
        ux, uy = np.subtract(where[cut.node], where[other]) / math.dist(where[cut.node], where[other])
        across = abs(fx * uy - fy * ux)
        if across > most and member.kind == "cable":
            return _("Cable {member} pulls only along itself: its force at the cut {node} lies along {member}, but yours has a part across it.").format(
                member=cut.member, node=cut.node
            )
        if across > most:
            return _(
                "Member {member} is a two-force member (a bar pinned at both ends): the force it gives at the cut {node} "
                "lies along {member}, but yours has a part across it."
            ).format(member=cut.member, node=cut.node)
        return None
    if cut.along is not None:  # a roller on an incline, or a pin that joined a two-force member
        ux, uy = np.divide(cut.along, math.hypot(*cut.along))
        across = abs(fx * uy - fy * ux)
        if across > most:
            if cut.what == "support":
                return _("The roller at {node} pushes only at right angles to the surface it rolls on, but yours has a part along that surface.").format(
                    node=cut.node
                )
            if cut.member:
                return _(
                    "The pin at {node} joined the two-force member {member} (a member loaded only at its two pins): the force it gives lies along "
                    "that member, but yours has a part across it."
                ).format(node=cut.node, member=cut.member)
            return _(
                "The pin at {node} joined a two-force member (a member loaded only at its two pins): the force it gives lies along "
                "that member, but yours has a part across it."
            ).format(node=cut.node)
        return None
    for axis, value in (("x", fx), ("y", fy)):
        if axis not in carried(cut) and abs(value) > most:
            return _("{cut} gives no force along {axis}, but yours has an {axis} part.").format(cut=cut_words(cut, capital=True), axis=axis)
    return None


def judge_free_body(level: Level, solution: Solution) -> Verdict:
    """Each unknown of the cuts within τ of its own answer (or the sums within their bounds
    where there is no unique answer), each force one its cut can give (see the module's
    docstring)."""
    problem = _count_problem(level, solution, places(level))
    if problem:
        return Verdict(False, problem)
    data = level.model_data()
    data["loads"] = data.get("loads", []) + player_loads(solution.moves)
    model = build_model(data, statics_only=True)
    about = moment_point(level)
    tol, floor = tolerance_of(level), FLOOR * largest_load(level, model)
    cuts = {c.node: c for c in level.cut or []}
    for move in solution.moves:
        if isinstance(move, AddForce):
            problem = _misfit(level, cuts[move.node], move.fx, move.fy, floor)  # φ·F: a force its cut cannot give
            if problem:
                return Verdict(False, problem)
    net, size = sums(model, model.node_index(about))
    bound = bounds(level, model, size)
    solved = solve_values(level)
    if solved is None:
        off, wrong, rows = ranked_off(net, bound), [], []
    else:
        small = UNKNOWN_FLOOR * largest_load(level, model)
        rows = _judged_unknowns(solution, solved, tol, small, small * shortest_arm(model))
        wrong = [r for r in rows if not r["right"]]
        off = ranked_off(net, _unknown_bounds(model, about, solved, rows)) if wrong else []
    failed = bool(off or wrong)
    hold = hold_time(level)
    sim, worst, start = run(data if failed else held(level, data), hold)
    figures = {
        "net_force": {"fx": net["fx"], "fy": net["fy"]},
        "net_moment": net["m"],
        "moment_about": about,
        "tolerance": {"fx": bound["fx"], "fy": bound["fy"], "m": bound["m"], "fraction": tol, "floor": FLOOR, "unknown_floor": UNKNOWN_FLOOR},
        "judged": "each unknown" if solved is not None else "equilibrium",  # for a machine (--json): English
        "unknowns": [{k: r[k] for k in ("unknown", "yours", "right")} for r in rows],
        "off": off,
        "max_displacement": worst,
        "hold": hold,
    }
    if not failed:
        if solved is not None:
            why = ngettext(
                "your {n} unknown within {tolerance} of its answer, so ΣFx = 0, ΣFy = 0 and ΣM about {node} = 0",
                "each of your {n} unknowns within {tolerance} of its answer, so ΣFx = 0, ΣFy = 0 and ΣM about {node} = 0",
                len(rows),
            ).format(n=len(rows), tolerance=percent(tol), node=about)
        else:
            why = _(WITHIN).format(node=about, tolerance=percent(tol))
        words = _("Right: your forces hold the freed body in equilibrium ({why}). Put back at the cuts, the body stands as before.").format(why=why)
        return Verdict(True, words, figures, sim, start)
    hinges = sorted({model.node_ids[h] for h, _ in hinge_parts(model)})
    if hinges:
        figures["hinges"] = hinges  # the hinges inside the body (their equations: game/rules/answer.py)
    return Verdict(False, _wrong_words(net, off, wrong, about, tol, hinged=bool(hinges)), figures, sim, start)


def _judged_unknowns(solution: Solution, solved: list[tuple[Unknown, float]], tol: float, floor: float, moment_floor: float) -> list[dict]:
    """Each unknown: its words, the student's value, the answer and whether it is within
    max(τ·|answer|, floor)."""
    forces = {m.node: (m.fx, m.fy) for m in solution.moves if isinstance(m, AddForce)}
    moments = {m.node: m.m for m in solution.moves if isinstance(m, AddMoment)}
    rows = []
    for u, answer in solved:
        fx, fy = forces.get(u.node, (0.0, 0.0))
        yours = u.value(fx, fy, moments.get(u.node, 0.0))
        allowed = max(tol * abs(answer), moment_floor if u.moment else floor)
        rows.append({"unknown": u.words, "said": u.said(), "yours": yours, "answer": answer, "allowed": allowed, "right": abs(yours - answer) <= allowed})
    return rows


def _unknown_bounds(model: Model, about: str, solved: list[tuple[Unknown, float]], rows: list[dict]) -> dict[str, float]:
    """How far each sum may be off when every unknown is within what it is allowed: Σ
    |its part in the sum| × allowed (the scale a sum's imbalance is ranked against)."""
    a = columns(model, [u for u, _ in solved], model.node_index(about))
    b = np.abs(a) @ np.array([r["allowed"] for r in rows])
    return {"fx": float(b[0]) or 1.0, "fy": float(b[1]) or 1.0, "m": float(b[2]) or 1.0}


def _wrong_words(net: dict[str, float], off: list[str], wrong: list[dict], about: str, tol: float, *, hinged: bool = False) -> str:
    """Which equations are off and which way the body goes, and which unknowns are not
    within τ of their answers: never the answer, nor by how much. `hinged`: the body has
    a hinge inside it (engine/determinacy.py hinge_parts), whose own equation the
    whole body's sums do not show."""
    if off:
        head = _("Not in equilibrium: {what} (x to the right, y up, moments counter-clockwise positive).").format(what=off_words(net, off, about))
    elif hinged:
        head = _("The whole body balances, but not each part of it: about a hinge inside it, the moments of the forces on either side must balance too.")
    else:
        head = _("Nearly: your forces almost balance the body, but not within {tolerance} of each answer.").format(tolerance=percent(tol))
    if wrong:
        head += " " + _("Not right: {unknowns}.").format(unknowns=listing([r["said"] for r in wrong]))
    return head + " " + _("Check the free-body diagram: every cut replaced, each force's sense and lever arm.")


def held(level: Level, data: dict) -> dict:
    """The freed body with the student's forces and its cuts put back, each as what it
    carries and no more: the run a right answer is shown with. A support cut is fixed in
    the directions it carried; a cut bar is a pin at its cut end (its node hangs on that
    bar alone, so the pin holds the bar's line and nothing of the body's); a cut with
    `along` (a roller on an incline, a pin of a two-force member) is a stiff link along
    that line to a pinned anchor `along` away (the member taken away, put back). So the
    body is held just as determinately as it was cut: the supports take only the little
    the answer leaves unbalanced, never a pair of forces of their own on top of the
    student's (pins at both ends of a leg would squeeze it between them), and it stands
    as it stood, the cut forces in its members. Run free instead, a body squeezed by
    forces of fixed direction (a compressed bar's cut end) would be in equilibrium but an
    unstable one, and turn away from the round-off of the first steps."""
    out = dict(data)
    fixed = {s["node"] for s in data.get("supports", [])}
    where = {n["id"]: (n["x"], n["y"]) for n in data["nodes"]}
    supports, nodes, members = list(data.get("supports", [])), list(data["nodes"]), list(data.get("members", []))
    stiff = max((m.get("A", 0.0) for m in members), default=1e-3) * 10.0  # [m²] of a link as long as the body
    size = max((math.dist(a, b) for a in where.values() for b in where.values()), default=1.0) or 1.0
    material = next(iter(data.get("materials", {})), None)
    for c in level.cut or []:
        if c.node in fixed:
            continue
        if c.along is not None and material is not None:
            # a roller's link is short, hidden in the roller drawn there, and as stiff as
            # the long one (A in proportion to its length); a pin's is the member taken away
            ux, uy = unit(c.along)
            length = SHORT_LINK * size if c.what == "support" else math.hypot(*c.along)
            anchor = _fresh(f"{c.node}-link", where)
            where[anchor] = (where[c.node][0] - ux * length, where[c.node][1] - uy * length)
            nodes.append({"id": anchor, "x": where[anchor][0], "y": where[anchor][1]})
            link = _fresh(f"{c.node}-link", {m["id"] for m in members})
            members.append({"id": link, "i": anchor, "j": c.node, "kind": "bar", "material": material, "A": stiff * length / size})
            supports.append({"node": anchor, "fix": ["x", "y"]})
        else:
            supports.append({"node": c.node, "fix": list(carried(c) if c.what != "bar" else ("x", "y"))})
    out.update(nodes=nodes, members=members, supports=supports)
    return smoothly_loaded(out)


def _fresh(stem: str, taken) -> str:
    """`stem`, or `stem` with a number, not among `taken`."""
    name, k = stem, 1
    while name in taken:
        k += 1
        name = f"{stem}{k}"
    return name


def _sense(level: Level, model: Model) -> list[str]:
    """A free-body level is cut somewhere, at nodes of its body, each cut one the format
    allows; its forces go where cuts are; weight is neglected (the loads drawn are all)."""
    if not level.cut:
        return ["cut: " + _("a free_body level says where its body was cut free (at least one cut)")]
    if level.world.gravity != 0:
        return ["world.gravity: " + _("a free-body level neglects weight (gravity 0): the loads drawn are all the forces on the body")]
    if not any(ld.fx or ld.fy or ld.m for ld in level.loads) and not any(any(ml.ends()) for ml in level.member_loads):
        return ["loads: " + _("a free body without loads needs no forces to hold it")]
    nodes = {n.id for n in level.nodes}
    members = {m.id: m for m in level.members}
    seen: set[str] = set()
    for k, cut in enumerate(level.cut):
        at = f"cut[{k}]"
        if cut.node not in nodes:
            return [f"{at}.node: " + _("unknown node {id}").format(id=named(cut.node))]
        if cut.node in seen:
            return [f"{at}.node: " + _("node {id} is cut twice; one cut a node").format(id=named(cut.node))]
        seen.add(cut.node)
        if cut.what == "support" and not cut.carries:
            return [f"{at}.carries: " + _('say what the removed support fixed, e.g. ["x", "y"] for a pin')]
        if cut.along is not None and (cut.what not in ("support", "pin") or set(carried(cut)) != {"x", "y"} or not any(cut.along)):
            return [
                f"{at}.along: " + _('a line of force for a roller on an incline or a pin of a two-force member: a nonzero [dx, dy], with carries ["x", "y"]')
            ]
        if cut.what == "bar":
            if cut.carries:
                return [f"{at}.carries: " + _("a bar's force lies along it; give its member, not carries")]
            member = members.get(cut.member or "")
            if member is None:
                return [
                    f"{at}.member: "
                    + (
                        _("a cut bar names the body's member that ends at the cut; unknown member {id}").format(id=named(cut.member))
                        if cut.member
                        else _("a cut bar names the body's member that ends at the cut")
                    )
                ]
            if cut.node not in (member.i, member.j):
                return [f"{at}.member: " + _("member {member} does not end at {node}").format(member=member.id, node=cut.node)]
        elif cut.member is not None and cut.member not in members and cut.along is None:  # a pin's along: the member taken away
            return [f"{at}.member: " + _("unknown member {id}").format(id=named(cut.member))]
    for k, node in enumerate(level.player.nodes or []):
        if node not in seen:
            return [f"player.nodes[{k}]: " + _("forces replace cuts, and {node} is not cut").format(node=node)]
    about = level.goal.moment_about if level.goal else None
    if about is not None and about not in nodes:
        return ["goal.moment_about: " + _("unknown node {id}").format(id=named(about))]
    return []


def cut_of(support: dict) -> dict:
    """A support of a level document cut away: the cut that carries what it fixed (a roller on a
    line: a force along its normal). ValueError for a contact, which pushes and never pulls."""
    if support.get("contact") is not None:
        raise ValueError(_("A contact pushes and never pulls: the editor cuts pins, rollers and fixed supports only."))
    roller = support.get("roller")
    if roller is not None:
        a = math.radians(roller["angle"])
        return {"node": support["node"], "what": "support", "carries": ["x", "y"], "along": [round(-math.sin(a), 9), round(math.cos(a), 9)]}
    return {"node": support["node"], "what": "support", "carries": list(support["fix"])}


def support_of(cut: dict) -> dict:
    """The support a support's cut was (cut_of the other way)."""
    along = cut.get("along")
    if along is not None:
        return {"node": cut["node"], "roller": {"angle": round(math.degrees(math.atan2(-along[0], along[1])), 6)}}
    return {"node": cut["node"], "fix": list(cut.get("carries") or ["x", "y"])}


def drafted(doc: dict) -> dict:
    """The editor's free body: the whole structure, every support it can cut cut away."""
    doc = drafted_at_rest(doc)
    kept = [s for s in doc.get("supports") or [] if s.get("contact") is not None]
    doc["cut"] = [cut_of(s) for s in doc.get("supports") or [] if s.get("contact") is None]
    doc["supports"] = kept
    return {k: v for k, v in doc.items() if v != [] or k not in ("cut", "supports")}


KIND = Kind(
    name="free_body",
    title_word=N_("free-body"),
    summary=N_("replace the cuts that freed a body by the forces and moments they carried"),
    moves=(AddForce, AddMoment),
    tools=("inspect", "force", "moment", "erase", "drag"),
    player_fields=frozenset({"forces", "moments", "nodes"}),
    goal_fields=frozenset({"hold", "tolerance", "moment_about"}),
    judge=judge_free_body,
    sense=_sense,
    seeks_mechanism=False,  # the body is free on purpose
    hides_sums_until_passed=True,  # ΣF and ΣM of the student's forces would read off the answer
    answer=solve_cuts,
    figures_before_pass=SHOWN_BEFORE_PASS,
    resultants_before_pass=False,  # a distributed load's resultant and centroid are a step of the answer (beam-05)
    cuts=True,
    places=places,
    zero_answers=True,  # a cut may carry no force, or no moment (beam-04, beam-07): typed as 0
    drafted=drafted,
)
