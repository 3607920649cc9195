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
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.solution import RemoveMember, Solution
from equilibria.rules.common import Verdict, drafted_at_rest, stands
from equilibria.rules.kind import Kind
from equilibria.words.figures import figure
from equilibria.words.i18n import N_, _, ngettext


def judge_determinacy(level: Level, solution: Solution) -> Verdict:
    """Passed when the truss without the members removed is statically determinate by
    the count and the stiffness finds no mechanism in it."""
    removed = tuple(dict.fromkeys(m.member for m in solution.moves if isinstance(m, RemoveMember)))
    data = level.model_data()
    data["members"] = [m for m in data["members"] if m["id"] not in removed]
    if not data["members"]:
        why = _("Every member is gone: nothing holds the joints together. Take out only the members the truss can spare.")
        return Verdict(False, why, {"removed": list(removed)})
    count = truss_count(data)
    if count is None:
        raise ValueError("members: " + _("a determinacy level is a truss of bars and cables"))  # its sense check says so first
    standing = stands(level, removed)
    sim, start, free = standing.sim, standing.start, standing.free
    figures = {"removed": list(removed), "m": count.m, "r": count.r, "j": count.j, "excess": count.excess}
    figures["moving"] = sorted(sim.model.node_ids[q] for q in free.moving()) if free is not None else []
    figures |= {"largest_displacement": standing.worst, "limit": standing.limit}
    said = {"taken": _taken(removed), "count": count.line(_)}
    if free is not None:
        return Verdict(False, _("{taken}, {count}. {why}").format(**said, why=_mechanism_words(count, standing.motion)), figures, sim, start)
    if not standing.stands:
        moved = _("{taken}, {count}, but under its loads a joint moves {moved} mm, more than the {limit} mm allowed: it does not stand.")
        return Verdict(False, moved.format(**said, moved=figure(standing.worst * 1e3), limit=figure(standing.limit * 1e3)), figures, sim, start)
    if count.excess > 0:
        more = ngettext(
            "{taken}, the truss stands, but {count}: take out one more member.",
            "{taken}, the truss stands, but {count}: take out {n} more members.",
            count.excess,
        )
        return Verdict(False, more.format(**said, n=count.excess), figures, sim, start)
    said = _("{taken}, {count}, and no joint can move without a member stretching: the truss stands.").format(**said)
    return Verdict(True, said, figures, sim, start)


def _taken(removed: tuple[str, ...]) -> str:
    if not removed:
        return _("As it is")
    return ngettext("With {n} member taken out", "With {n} members taken out", len(removed)).format(n=len(removed))


def _mechanism_words(count: TrussCount, motion: str) -> str:
    """Why the truss does not stand: the count says so, or it does not and the members
    are badly placed."""
    if count.excess < 0:
        return _("Too many are gone: {motion}.").format(motion=motion)
    if count.excess == 0:
        said = _("The count is right, but the truss is a mechanism all the same: {motion}.")
    else:
        said = _("The count has forces to spare, but the truss is a mechanism all the same: {motion}.")
    return said.format(motion=motion) + " " + _("m + r = 2j is necessary, not sufficient: the members left must also be placed so that every joint is held.")


def _sense(level: Level, model) -> list[str]:
    """A determinacy puzzle is set on a truss that stands, with a member to spare."""
    count = truss_count(level.model_data())
    if count is None:
        return ["members: " + _("a determinacy level is a truss: bars and cables only, no beam-columns or plates")]
    if mechanism(model) is not None:
        return ["supports: " + _("the truss is a mechanism before anything is taken out")]
    if count.excess <= 0:
        return ["members: " + _("nothing to take out: {count}").format(count=count.line(_))]
    return []


KIND = Kind(
    name="determinacy",
    title_word=N_("determinacy"),
    summary=N_("take out the members a truss can spare, so that it is statically determinate (m + r = 2j) and still stands"),
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
    drafted=drafted_at_rest,
)
