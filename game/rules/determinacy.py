"""Determinacy: take out the members a truss can spare, so that it is statically
determinate (m + r = 2j, engine/determinacy.py) and still stands.

"Stands" means what it means for every kind (game/rules/common.py STANDS), and the
briefs say it: the stiffness check (the direct stiffness method, engine/linear.py) finds
no mechanism, that is no way for the joints to move, however little, without a member
stretching or shortening; and, run under its loads from a slightly disturbed start, no
node moves more than the level's limit. The count alone is not enough: m + r = 2j with
members badly placed (a panel with no diagonal, a joint where two members meet in line
and a third was taken away) is still a mechanism, and the verdict then names the joints
that can move and how.
"""

from __future__ import annotations

from equilibria.engine.determinacy import TrussCount, truss_count
from equilibria.engine.linear import mechanism
from equilibria.format import BaseLevel as Level
from equilibria.rules.common import Verdict, plural, stands
from equilibria.rules.kind import Kind
from equilibria.solution import RemoveMember, Solution


def judge_determinacy(level: Level, solution: Solution) -> Verdict:
    """Passed when the truss without the members removed is statically determinate by
    the count and the stiffness finds no mechanism in it."""
    removed = tuple(dict.fromkeys(m.member for m in solution.moves if isinstance(m, RemoveMember)))
    data = level.model_data()
    data["members"] = [m for m in data["members"] if m["id"] not in removed]
    if not data["members"]:
        why = "Every member is gone: nothing holds the joints together. Take out only the members the truss can spare."
        return Verdict(False, why, {"removed": list(removed)})
    count = truss_count(data)
    if count is None:
        raise ValueError("members: a determinacy level is a truss of bars and cables")  # its sense check says so first
    standing = stands(level, removed)
    sim, start, free = standing.sim, standing.start, standing.free
    figures = {"removed": list(removed), "m": count.m, "r": count.r, "j": count.j, "excess": count.excess}
    figures["moving"] = sorted(sim.model.node_ids[q] for q in free.moving()) if free is not None else []
    figures |= {"largest_displacement": standing.worst, "limit": standing.limit}
    taken = f"With {plural(len(removed), 'member')} taken out" if removed else "As it is"
    if free is not None:
        return Verdict(False, f"{taken}, {count.line()}. {_mechanism_words(count, standing.motion)}", figures, sim, start)
    if not standing.stands:
        moved = f"a joint moves {standing.worst * 1e3:.3g} mm, more than the {standing.limit * 1e3:.3g} mm allowed"
        return Verdict(False, f"{taken}, {count.line()}, but under its loads {moved}: it does not stand.", figures, sim, start)
    if count.excess > 0:
        more = "one more member" if count.excess == 1 else f"{count.excess} more members"
        return Verdict(False, f"{taken}, the truss stands, but {count.line()}: take out {more}.", figures, sim, start)
    return Verdict(True, f"{taken}, {count.line()}, and no joint can move without a member stretching: the truss stands.", figures, sim, start)


def _mechanism_words(count: TrussCount, motion: str) -> str:
    """Why the truss does not stand: the count says so, or it does not and the members
    are badly placed."""
    if count.excess < 0:
        return f"Too many are gone: {motion}."
    said = "The count is right" if count.excess == 0 else "The count has forces to spare"
    return (
        f"{said}, but the truss is a mechanism all the same: {motion}. "
        "m + r = 2j is necessary, not sufficient: the members left must also be placed so that every joint is held."
    )


def _sense(level: Level, model) -> list[str]:
    """A determinacy puzzle is set on a truss that stands, with a member to spare."""
    count = truss_count(level.model_data())
    if count is None:
        return ["members: a determinacy level is a truss: bars and cables only, no beam-columns or plates"]
    if mechanism(model) is not None:
        return ["supports: the truss is a mechanism before anything is taken out"]
    if count.excess <= 0:
        return [f"members: nothing to take out: {count.line()}"]
    return []


KIND = Kind(
    name="determinacy",
    summary="take out the members a truss can spare, so that it is statically determinate (m + r = 2j) and still stands",
    moves=(RemoveMember,),
    tools=("inspect", "remove", "drag"),
    judge=judge_determinacy,
    sense=_sense,
    # Looking for a mechanism as the student edits would give the answer away (the
    # verdict names it, after the check); so would the forces: a member that carries
    # nothing looks spare and may not be.
    hides_forces_until_checked=True,
    seeks_mechanism=False,
    judges_standing=True,
)
