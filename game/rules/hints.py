"""The hint after a failed check, chosen from the mistake: the verdict's figures say
which balance is off, which joint to look at, what broke or why the structure moves,
and the hint names the textbook's step for it (free-body diagram, ΣFy = 0, two-force
member, π²EI/L²). The one home of the choice, for every kind; the game shows it under
the verdict, `equilibria check --json` gives it as "hint". It never gives the answer:
no force's size or sense, no member's name that the student has to find.

A verdict whose figures say nothing the rules here know gets the level's first hint.
"""

from __future__ import annotations

import math

from game.format import BaseLevel as Level
from game.rules.common import Verdict

JOINT_RULES = {
    "two in line": "two members in line and a third, and no load: ΣF perpendicular to the line = 0 leaves nothing for the third",
    "two apart": "two members not in line, and no load: ΣF = 0 along each one's perpendicular leaves nothing for the other",
    "joint": "draw its free-body diagram and write ΣFx = 0 and ΣFy = 0 with the members' forces as unknowns",
}


def hint(level: Level, verdict: Verdict) -> str:
    """The hint for a failed `verdict` on `level` ("" for a pass)."""
    if verdict.passed:
        return ""
    f = verdict.figures
    for rule in (_joint, _balance, _friction, _standing, _construction):
        words = rule(f)
        if words:
            return words + (SPREAD if rule is _balance and level.member_loads and not words.startswith("Draw the free-body diagram and write ΣFx") else "")
    return level.hints[0] if level.hints else ""


SPREAD = (
    " A distributed load counts as its resultant: the area under its diagram (w times the length it covers; half that for"
    " a triangle), acting at the centroid of the diagram (the middle of a rectangle; a third of the way from a triangle's"
    " tall end)."
)


def _joint(f: dict) -> str:
    """Zero-force marks: one joint and the method of joints there."""
    if "look_at" not in f:
        return ""
    return f"Method of joints: look at joint {f['look_at']}: {JOINT_RULES[f['rule']]}."


def _balance(f: dict) -> str:
    """A free body out of balance: the first equation that is off."""
    if "net_force" not in f or "tolerance" not in f:
        return ""
    tol, about = f["tolerance"], f.get("moment_about", "a node")
    fx, fy, m = f["net_force"]["fx"], f["net_force"]["fy"], f["net_moment"]
    if abs(fy) > tol["force"]:
        return "Draw the free-body diagram and write ΣFy = 0: the upward forces must balance the downward ones."
    if abs(fx) > tol["force"]:
        return "Draw the free-body diagram and write ΣFx = 0: the forces to the right must balance those to the left."
    if abs(m) > tol["moment"]:
        return (
            f"ΣM = 0: take moments about {about}, each force times its lever arm (the perpendicular distance from {about} to its "
            f"line of action), counter-clockwise positive; a force through {about} has no moment about it."
        )
    return ""


def _friction(f: dict) -> str:
    """A body on surfaces (contact supports) that moves: the surface that would pull, or
    the friction needed beyond μN (game/rules/contact.py's figures)."""
    contacts = f.get("contacts")
    if not contacts:
        return ""
    if any(c["normal_force"] < 0 for c in contacts):
        return "A surface can only push: draw the free-body diagram and take moments about the other contact; the normal force there must come out positive."
    if any(c["friction"] > c["friction_limit"] * (1 + 1e-9) for c in contacts):
        return (
            "Draw the free-body diagram with axes along and across the surface: ΣF across it gives the normal force N, ΣF along "
            "it the friction F the body needs, and static friction can give at most F ≤ μN, in either direction."
        )
    return ""


def _standing(f: dict) -> str:
    """A truss with members removed that no longer stands."""
    if "removed" not in f or not f.get("removed") or "can_also_go" in f:
        return ""
    if f.get("carried"):
        return (
            "A member that carries a force cannot go. Find the zero-force members first, by the method of joints: a joint "
            "with two members in line and a third, and no load, leaves nothing for the third."
        )
    return (
        "Draw the free-body diagram of the joint the removed member held: with two members in one line and nothing across "
        "it, ΣF across the line = 0 has no member to give it, so the joint moves (a mechanism)."
    )


def _construction(f: dict) -> str:
    """Build and stability: why the design moves, breaks, sags or costs too much."""
    if f.get("reactions") == "parallel":
        return "Three support reactions hold a body in the plane only if they are not all parallel: give one a different direction."
    if f.get("reactions"):
        return "Three support reactions hold a body in the plane only if their lines do not all pass through one point: move one off it."
    if "free_motion" in f:
        return "A mechanism: a triangle cannot change shape, a rectangle can. Count members plus reactions against twice the joints (m + r ≥ 2j)."
    broken = f.get("broken") or []
    if broken:
        if broken[0]["how"] == "buckled":
            return "A member in compression buckled: its buckling load π²EI/L² falls with the square of its length. Shorten it or stiffen it."
        return "A member reached its yield load (strength × area): give it a bigger section, or a shape that lowers its force (a deeper truss)."
    if f.get("slack_cables"):
        return "A cable is a two-force member that can only pull: where a member is pushed (in compression), use one that can push."
    budget, cost = f.get("budget"), f.get("cost")
    if budget is not None and cost is not None and cost > budget * (1 + 1e-9):
        return "Over budget: use only the members and supports that stop every free motion, and a cable where a member is only pulled."
    worst, allowed = f.get("max_displacement"), f.get("limit")
    if worst is not None and allowed is not None and math.isfinite(worst) and worst > allowed:
        return "Too flexible: a deeper structure or stiffer members (larger area A, larger I) deflect less."
    return ""
