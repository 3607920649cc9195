"""Balance: add exactly the allowed number of forces to a free body so that it stays put.
Infinitely many answers are right; the engine's own load vector judges each.

How it is judged. The given loads and the player's forces, as the engine applies them
(equilibria.engine.linear.load_vector), give ΣFx, ΣFy and ΣM about a node P the student can use
(`goal.moment_about`, else the first load's node: common.moment_point), the point the
play screen's ΣM is taken about too. The body is balanced when each sum is zero within
2 % of the forces that make it up (of the force pushing each way, of the moment turning
each way), with a floor of 1 % of the largest load (times the shortest distance between
two nodes for ΣM): game/rules/equilibrium.py derives the rule and the significant figures
it allows. The moment's bound does not grow with the body's size: a lever arm misread is
tens of per cent of a moment, and fails. The figures, not a run, decide: a run from rest
drifts visibly under any imbalance, however small, and would make 2.997 kN for 3 kN fail.

The engine then runs the body free for `goal.hold` (RK4): the run the game shows. A
balanced body that still turns away is in an unstable equilibrium (forces that squeeze
it); the answer is right and the verdict says why it turned. A body balanced within the
tolerance but not exactly drifts a little: it is shown held at P (a pin, taking only the
small remainder), as a free body's cuts are put back.

A body resting on contact supports (a block on a slope, a ladder: `supports[].contact`)
is held by forces no sum of the loads shows, so there the run decides: the engine's
contacts stick while the friction they need is at most μN and slide past it
(engine/tethers.py), and the body passes when it stays put (no node moves more than the
goal's `max_displacement`) for `goal.hold`. The verdict says why from hand statics of
the rigid body (game/rules/contact.py): the friction needed against μN, or a surface
that would have to pull.
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import ValidationError

from equilibria.engine.model import Model, build_model
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.solution import AddForce, Solution
from equilibria.rules.common import Verdict, drafted_at_rest, hold_time, limit, moment_point, run
from equilibria.rules.contact import judge_on_contacts
from equilibria.rules.equilibrium import FLOOR, SHOWN_BEFORE_PASS, bounds, off_words, ranked_off, sums, tolerance_of
from equilibria.rules.kind import Kind, Places
from equilibria.words.figures import figure, kn, percent
from equilibria.words.i18n import N_, _, ngettext, plain
from equilibria.words.text import named

WITHIN = N_("ΣFx = 0, ΣFy = 0 and ΣM about {node} = 0, each within {tolerance} of the forces that make it up")
EXACT = 1e-6  # a remainder below this fraction of the tolerance is round-off: balanced exactly


def places(level: Level) -> Places:
    """`player.forces` forces (2 unless it says), at `player.nodes` (absent: anywhere)."""
    return Places(forces=level.player.forces or 2, nodes=tuple(level.player.nodes or ()))


def judge_balance(level: Level, solution: Solution) -> Verdict:
    """The given loads and the player's forces balance within the stated tolerance (see
    the module's docstring). A failing verdict gives ΣFx, ΣFy and ΣM about P that are off
    and which way the body goes; never the answer."""
    player = level.player
    wanted = places(level).forces
    max_force = player.max_force or math.inf
    allowed_nodes = set(player.nodes or []) or {n.id for n in level.nodes}
    forces = [m for m in solution.moves if isinstance(m, AddForce)]
    if len(forces) != wanted:
        said = ngettext("Add exactly {n} force; this solution adds {given}.", "Add exactly {n} forces; this solution adds {given}.", wanted)
        return Verdict(False, said.format(n=wanted, given=len(forces)), {"forces": len(forces)})
    for f in forces:
        if f.node not in allowed_nodes:
            return Verdict(False, _("Forces may act at {nodes}, not at {node}.").format(nodes=", ".join(sorted(allowed_nodes)), node=f.node))
        if math.hypot(f.fx, f.fy) > max_force:
            said = _("The force at {node} is {force}; at most {most} is allowed.").format(node=f.node, force=kn(math.hypot(f.fx, f.fy)), most=kn(max_force))
            if _rubs(level):
                said += " " + _("Friction can carry part of the load, up to μN at each surface: your force need only make up the rest.")
            return Verdict(False, said, {"too_big": f.node})
    data = level.model_data()
    data["loads"] = data.get("loads", []) + [{"node": f.node, "fx": f.fx, "fy": f.fy} for f in forces]
    about = moment_point(level)
    model = build_model(data, statics_only=True)
    if model.contacts:
        return judge_on_contacts(level, data, model)
    net, size = sums(model, model.node_index(about))
    bound = bounds(level, model, size)
    off = ranked_off(net, bound)
    tol = tolerance_of(level)
    hold = hold_time(level)
    sim, worst, start = run(data, hold)
    allowed = limit(level, sim.model.char_length)
    figures = {
        "net_force": {"fx": net["fx"], "fy": net["fy"]},
        "net_moment": net["m"],
        "moment_about": about,
        "tolerance": {"fx": bound["fx"], "fy": bound["fy"], "m": bound["m"], "fraction": tol, "floor": FLOOR},
        "off": off,
        "max_displacement": worst,
        "limit": allowed,
        "hold": hold,
    }
    if off:
        return Verdict(False, _("Not balanced: {what}.").format(what=off_words(net, off, about)), figures, sim, start)
    within = _(WITHIN).format(node=about, tolerance=percent(tol))
    if worst <= allowed:
        said = _("The body stays put for {hold} s: the forces and their moments balance ({within}).").format(hold=plain(hold), within=within)
        return Verdict(True, said, figures, sim, start)
    if all(abs(v) <= EXACT * bound[k] for k, v in net.items()):
        # Statics says equilibrium, the run says it turns away: forces fixed in direction
        # that squeeze a body (Σ r·F < 0 about its centre) make its equilibrium unstable,
        # and round-off is nudge enough. The answer is right; the student learns why.
        figures["stable_equilibrium"] = False
        return Verdict(
            True,
            _(
                "The forces and their moments balance: the body is in equilibrium. But it is an unstable one: your forces "
                "squeeze the body, so the smallest nudge turns it away (it moved {moved} m), like a pencil standing on "
                "its tip. Forces that pull the body apart would hold it steady."
            ).format(moved=figure(worst)),
            figures,
            sim,
            start,
        )
    # Balanced within the tolerance, not exactly: shown held at P, which takes the remainder.
    held = dict(data, supports=[{"node": about, "fix": ["x", "y", "rot"]}])
    sim, worst, start = run(held, hold)
    figures["held_at"] = about
    said = _("Balanced: {within}. The little that is left over would make the free body drift slowly.").format(within=within)
    return Verdict(True, said, figures, sim, start)


def balancing_forces(level: Level) -> list[AddForce] | None:
    """The answer as the judge's sums give it: the forces at the level's first
    `places(level).forces` nodes (player.nodes, in order; one force at any node: the
    first node where it can) that make ΣFx, ΣFy and ΣM zero with the loads, the least in
    size where more than one would (numpy's least squares); None where a contact's
    friction takes part (its share is the engine's) or no forces there balance the loads."""
    from equilibria.engine.words import Words
    from equilibria.rules.answer import CONSISTENT, Unknown, columns, resultant

    wanted = places(level).forces
    if _rubs(level):
        return None
    model = build_model(level.model_data(), statics_only=True)
    if model.contacts:
        return None
    named = list(level.player.nodes or [])
    tries = [named[:wanted]] if named else [[n.id] for n in level.nodes] if wanted == 1 else []  # any node: the first that can
    b = resultant(model, 0)
    for nodes in tries:
        if len(nodes) < wanted:
            continue
        items = [Unknown(n, d, False, Words("")) for n in nodes for d in ((1.0, 0.0), (0.0, 1.0))]
        a = columns(model, items, 0)
        u, *_ = np.linalg.lstsq(a, -b, rcond=None)
        if float(np.abs(a @ u + b).max()) <= CONSISTENT * max(float(np.abs(b).max()), 1.0) * max(1.0, model.char_length):
            return [AddForce(type="add_force", node=n, fx=round(float(u[2 * k]), 6) + 0.0, fy=round(float(u[2 * k + 1]), 6) + 0.0) for k, n in enumerate(nodes)]
    return None


def _rubs(level: Level) -> bool:
    """Whether the body rests on a surface with friction (a contact support with μ > 0)."""
    return any(s.contact is not None and s.contact.mu > 0 for s in level.supports)


def _sense(level: Level, model: Model) -> list[str]:
    about = level.goal.moment_about if level.goal else None
    if about is not None and about not in model.node_ids:
        return ["goal.moment_about: " + _("unknown node {id}").format(id=named(about))]
    return []


DRAFTED_FORCES = 2  # the forces a drafted balance level asks for: two hooks, as balance-01 to -03
FORCE_MARGIN = 1.5  # a drafted level's largest force allowed: half as much again as the answer's largest, rounded up
FORCE_ROUND = 1000.0  # [N] to a kilonewton


def drafted(doc: dict) -> dict:
    """The editor's balance level: the structure floating free (its supports gone, weight
    left out), the student's DRAFTED_FORCES forces to go where the supports were (where the
    structure was held; at any node but a loaded one where fewer than two held it), the
    largest force allowed FORCE_MARGIN times the answer's largest. ValueError when no forces
    there balance the loads (the nodes all on one line, say)."""
    held = [s["node"] for s in doc.get("supports") or []]
    doc = drafted_at_rest(doc)
    doc["_supports"] = doc.pop("supports", None) or []  # the structure's own, back when the kind changes again (the editor's, not saved)
    doc.pop("cut", None)
    loaded = {ld["node"] for ld in doc.get("loads") or []}
    nodes = held if len(held) >= DRAFTED_FORCES else [n["id"] for n in doc["nodes"] if n["id"] not in loaded]
    largest = max((math.hypot(ld.get("fx", 0.0), ld.get("fy", 0.0)) for ld in doc.get("loads") or []), default=0.0)
    if largest == 0:
        raise ValueError(_("A balance level needs a load to balance: add one in the sandbox first."))
    doc["player"] = {"forces": DRAFTED_FORCES, "nodes": nodes}
    try:
        answer = balancing_forces(Level.model_validate({k: v for k, v in doc.items() if not k.startswith("_")}))
    except ValidationError:  # the structure has a problem of its own, which the editor's checks say: the largest force a guess
        doc["player"]["max_force"] = 2 * largest
        return doc
    if answer is None:
        raise ValueError(_("No {n} forces at {nodes} balance the loads: choose nodes not all on one line.").format(n=DRAFTED_FORCES, nodes=", ".join(nodes)))
    most = max(math.hypot(f.fx, f.fy) for f in answer)
    doc["player"]["max_force"] = max(FORCE_ROUND, math.ceil(FORCE_MARGIN * most / FORCE_ROUND) * FORCE_ROUND)
    return doc


KIND = Kind(
    name="balance",
    title_word=N_("balance"),
    summary=N_("add forces to a free body so that it stays put"),
    moves=(AddForce,),
    tools=("inspect", "force", "erase", "drag"),
    player_fields=frozenset({"forces", "max_force", "nodes"}),
    goal_fields=frozenset({"hold", "max_displacement", "tolerance", "moment_about"}),
    judge=judge_balance,
    sense=_sense,
    places=places,
    answer=balancing_forces,
    figures_before_pass=SHOWN_BEFORE_PASS,
    resultants_before_pass=False,  # the resultant of a distributed load is a step of the answer
    seeks_mechanism=False,  # the body is free on purpose
    hides_sums_until_passed=True,  # ΣF and ΣM of the student's forces would read off the answer
    drafted=drafted,
)
