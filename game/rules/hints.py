"""The hint after a failed check, chosen from the mistake: the verdict's figures say
which balance is off, which joint to look at, what broke or why the structure moves,
and the hint names the textbook's step for it (free-body diagram, ΣFy = 0, two-force
member, π²EI/L²). The one home of the choice, for every kind; the game shows it under
the verdict, `equilibria check --json` gives it as "hint". It never gives the answer:
no force's size or sense, no member's name that the student has to find.

The level's own hints come one by one on later failures: after the n-th failed check
the student sees the hint chosen from the mistake and, from the second failure on, the
level's hint n − 1 (its last once they run out); where the mistake says nothing the
rules here know, the level's hint n instead (its first at the first failure). The game
counts the failures (game/work/attempt.py); `equilibria check --attempt N` gives the hint of
the N-th failure, and without it "hints", all of the level's.
"""

from __future__ import annotations

import math

from equilibria.format.schema import BaseLevel as Level
from equilibria.rules.common import Verdict
from equilibria.words.i18n import N_, _

JOINT_RULES = {
    "two in line": N_("two members in line and a third, and no load: ΣF perpendicular to the line = 0 leaves nothing for the third"),
    "two apart": N_("two members not in line, and no load: ΣF = 0 along each one's perpendicular leaves nothing for the other"),
    "joint": N_("draw its free-body diagram and write ΣFx = 0 and ΣFy = 0 with the members' forces as unknowns"),
}


def hint(level: Level, verdict: Verdict, failures: int = 1) -> str:
    """The hint after failed check number `failures` (1: the first) with `verdict` on
    `level` ("" for a pass): see the module's docstring."""
    if verdict.passed:
        return ""
    words = mistake_hint(level, verdict)
    own = level.hints or []
    if not words:
        return own[min(failures, len(own)) - 1] if own else ""
    if failures >= 2 and own:
        return f"{words} {own[min(failures - 1, len(own)) - 1]}"
    return words


def mistake_hint(level: Level, verdict: Verdict) -> str:
    """The hint chosen from the mistake alone ("" when the figures say nothing the rules
    here know)."""
    f = verdict.figures
    if "excess" in f:
        return determinacy_hint(level, f)
    for rule in (_joint, _section, _balance, _friction, _standing, _construction):
        words = rule(f)
        if words:
            return words + (" " + _(SPREAD) if rule is _balance and level.member_loads and (f.get("off") or [None])[:1] != ["fx"] else "")
    return ""


SPREAD = N_(
    "A distributed load counts as its resultant: the area under its diagram (w times the length it covers; half that for"
    " a triangle), acting at the centroid of the diagram (the middle of a rectangle; a third of the way from a triangle's"
    " tall end)."
)


def _joint(f: dict) -> str:
    """Zero-force marks: one joint and the method of joints there."""
    if "look_at" not in f:
        return ""
    return _("Method of joints: look at joint {node}: {rule}.").format(node=f["look_at"], rule=_(JOINT_RULES[f["rule"]]))


def _section(f: dict) -> str:
    """A section whose member force is not right: the moment point that leaves it alone
    (game/rules/section.py `look_about`), or ΣF across two parallel members."""
    member = f.get("look_for")
    if not member:
        return ""
    if f.get("look_about"):
        return _(
            "Draw the free-body diagram of one part, with each cut member's force pulling away from it (tension positive), and take "
            "moments about {point}, where the lines of the other cut members meet: only {member}'s force is left, times its lever arm."
        ).format(point=f["look_about"], member=member)
    return _(
        "Draw the free-body diagram of one part, with each cut member's force pulling away from it (tension positive); the "
        "reactions first, from the whole truss. Choose the equation in which {member}'s force is the only unknown."
    ).format(member=member)


def _balance(f: dict) -> str:
    """A free body out of balance: the equation off by most, relative to its bound."""
    if "net_force" not in f or "tolerance" not in f:
        return ""
    about = f.get("moment_about", "")
    off = f.get("off") or []
    first = off[0] if off else None
    if first == "fy":
        return _("Draw the free-body diagram and write ΣFy = 0: the upward forces must balance the downward ones.")
    if first == "fx":
        return _("Draw the free-body diagram and write ΣFx = 0: the forces to the right must balance those to the left.")
    if first == "m":
        return _(
            "ΣM = 0: take moments about {node}, each force times its lever arm (the perpendicular distance from {node} to its "
            "line of action, not the distance to its point), counter-clockwise positive; a force through {node} has no moment about it."
        ).format(node=about)
    if f.get("hinges") and any(not u["right"] for u in f.get("unknowns", [])):
        return _(
            "Cut the body at the hinge {node}: it passes no moment, so the moments about {node} of the forces on one part alone"
            " are zero, the equation the whole body's three do not give."
        ).format(node=f["hinges"][0])
    if any(not u["right"] for u in f.get("unknowns", [])):
        return _("Nearly there: work each unknown out to three significant figures, and take them from the equations, not from one another's rounded values.")
    return ""


def _friction(f: dict) -> str:
    """A body on surfaces (contact supports) that moves: the surface that would pull, or
    the friction needed beyond μN (game/rules/contact.py's figures)."""
    contacts = f.get("contacts")
    if not contacts:
        return ""
    over = next((c["tips_over"] for c in contacts if c.get("tips_over")), None)
    if over:
        return _(
            "Take moments about {node}, the contact it would tip over: the moments turning the body over must not be more than"
            " those holding it down. Friction acts along the surface through {node}: it has no moment about it, and cannot stop"
            " the tipping."
        ).format(node=over)
    if any(c["normal_force"] < 0 for c in contacts):
        return _("A surface can only push: draw the free-body diagram and take moments about the other contact; the normal force there must come out positive.")
    if any(c["friction"] > c["friction_limit"] * (1 + 1e-9) for c in contacts):
        return _(
            "Draw the free-body diagram with axes along and across the surface: ΣF across it gives the normal force N, ΣF along "
            "it the friction F the body needs, and static friction can give at most F ≤ μN, in either direction."
        )
    return _(
        "Draw the free-body diagram with the surface's push and friction at each contact: ΣFx = 0, ΣFy = 0 and ΣM = 0 must"
        " all hold with every push positive and each friction within μN."
    )


def _standing(f: dict) -> str:
    """A truss with members removed that no longer stands."""
    if "removed" not in f or not f.get("removed") or "can_also_go" in f:
        return ""
    if f.get("carried"):
        return _(
            "A member that carries a force cannot go. Find the zero-force members first, by the method of joints: a joint "
            "with two members in line and a third, and no load, leaves nothing for the third."
        )
    return _(
        "Draw the free-body diagram of the joint the removed member held: with two members in one line and nothing across "
        "it, ΣF across the line = 0 has no member to give it, so the joint moves (a mechanism)."
    )


def determinacy_hint(level: Level, f: dict) -> str:
    """Why the truss left by a determinacy answer fails, from the members left: one member
    too many or too few, a joint left on one member, a joint where two members meet in
    line with nothing else (three hinges in line), or a panel left without a diagonal."""
    if f.get("excess", 0) < 0:
        return _("Too many taken out: m + r < 2j leaves fewer unknown forces than equations. Put one back and take a different one.")
    if not f.get("moving"):
        if f.get("excess", 0) > 0:
            return _("One member too many is still there: m + r > 2j. Find a panel with more members than its two triangles need.")
        return ""
    removed = set(f.get("removed") or [])
    left = [m for m in level.members if m.id not in removed]
    where = {n.id: (n.x, n.y) for n in level.nodes}
    held = {s.node for s in level.supports}
    ends: dict[str, list[str]] = {}
    for m in left:
        ends.setdefault(m.i, []).append(m.j)
        ends.setdefault(m.j, []).append(m.i)
    for node in f["moving"]:
        others = ends.get(node, [])
        if node in held:
            continue
        if len(others) == 1:
            return _(
                "A joint is left on one member: one bar fixes only its distance from the other end, so the joint swings around it."
                " Every joint needs two members not in line (or a support)."
            )
        if len(others) == 2 and _in_line(where[others[0]], where[node], where[others[1]]):
            return _(
                "Three hinges in line: at a joint where two members meet in a straight line, and nothing else, nothing holds the"
                " joint across that line but a stretch. The member you took out was holding it."
            )
    return _(
        "A panel is no longer made of triangles: four bars in a ring, without a diagonal (or a panel that lost a side), can"
        " lean into a parallelogram (it shears). Take the spare member from a panel that has more than its two triangles need."
    )


def _in_line(a, b, c) -> bool:
    """Whether b lies on the straight line from a to c (within 1e-6 of its length)."""
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return abs(cross) <= 1e-6 * math.dist(a, c) ** 2


def _construction(f: dict) -> str:
    """Build and stability: why the design moves, breaks, sags or costs too much."""
    if f.get("reactions") == "parallel":
        return _("Three support reactions hold a body in the plane only if they are not all parallel: give one a different direction.")
    if f.get("reactions"):
        return _("Three support reactions hold a body in the plane only if their lines do not all pass through one point: move one off it.")
    if "free_motion" in f and f.get("truss_excess", -1) >= 0:
        return _(
            "The count is right (m + r ≥ 2j), but the members are badly placed: a panel of four bars without a diagonal leans"
            " into a parallelogram (it shears), a joint on one member swings. Put a member where a panel is not two triangles."
        )
    if "free_motion" in f:
        return _("A mechanism: a triangle cannot change shape, a rectangle can. Count members plus reactions against twice the joints (m + r ≥ 2j).")
    broken = f.get("broken") or []
    if broken:
        if broken[0]["how"] == "buckled":
            return _("A member in compression buckled: its buckling load π²EI/L² falls with the square of its length. Shorten it or stiffen it.")
        return _("A member reached its yield load (strength × area): give it a bigger section, or a shape that lowers its force (a deeper truss).")
    if f.get("slack_cables"):
        return _("A cable is a two-force member that can only pull: where a member is pushed (in compression), use one that can push.")
    budget, cost = f.get("budget"), f.get("cost")
    if budget is not None and cost is not None and cost > budget * (1 + 1e-9):
        return _("Over budget: use only the members and supports that stop every free motion, and a cable where a member is only pulled.")
    worst, allowed = f.get("max_displacement"), f.get("limit")
    if worst is not None and allowed is not None and math.isfinite(worst) and worst > allowed:
        return _("Too flexible: a deeper structure or stiffer members (larger area A, larger I) deflect less.")
    return ""
