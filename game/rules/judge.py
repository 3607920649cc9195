"""The judge's one entry: `check(level, solution)` fits the solution to the level (its
student's numbers, its moves allowed, the things it names) and judges it by the level's
kind (game/rules/kinds.py); a failed verdict gets its hint. Also the marks a pass earns
and what every brief assumes (self-weight, signs, how close counts). Nothing is compared
with a stored answer (game/rules/__init__.py)."""

from __future__ import annotations

from equilibria.format.schema import BaseLevel as Level
from equilibria.format.solution import AddForce, AddMoment, CutMember, MarkZero, RemoveMember, Solution
from equilibria.rules.common import STANDS, Verdict, moment_point
from equilibria.rules.equilibrium import UNKNOWN_FLOOR, tolerance_of
from equilibria.rules.hints import hint
from equilibria.rules.kinds import KINDS, kind_of
from equilibria.rules.variants import version_for
from equilibria.words.figures import percent
from equilibria.words.i18n import N_, _, plain
from equilibria.words.text import named

__all__ = ["KINDS", "Verdict", "assumptions", "briefed", "check", "hint", "kind_of", "marks"]

SIGNS = N_("Signs: x to the right, y up, moments counter-clockwise positive, member forces tension positive.")

FULL_MARKS = 100
MARKS_LOST_PER_TRY = 20
LEAST_MARKS = 40


def assumptions(level: Level) -> str:
    """What every brief assumes, said from the level itself so that it is always true:
    whether self-weight counts (the level's gravity), the sign conventions, and where a
    structure is judged by whether it stands, what that means (common.STANDS)."""
    g = level.world.gravity
    weight = (
        _("Self-weight is neglected (no gravity): the loads drawn are all the forces.")
        if g == 0
        else _("Self-weight is included (g = {g} m/s²): every member and joint has weight.").format(g=plain(g))
    )
    kind = kind_of(level.kind)
    judged_standing = kind is not None and kind.judged and (kind.builds or kind.judges_standing or level.player.mode == "remove")
    balanced = []
    if kind is not None and kind.judged and "tolerance" in kind.goal_fields:
        balanced = [judged_words(level, kind.cuts or kind.judges_each_answer)]
    return " ".join([weight, _(SIGNS), *balanced, *([_(STANDS)] if judged_standing else [])])


def judged_words(level: Level, cuts: bool) -> str:
    """How close counts, in the brief (game/rules/equilibrium.py, free_body.py)."""
    tol = tolerance_of(level)
    if cuts:
        return _(
            "Each force component, moment and member force counts as right within {tolerance} of its own value (one smaller than"
            " {small} of the largest load, such as a zero, within {floor} of that load): three significant figures are enough."
        ).format(tolerance=percent(tol), small=percent(UNKNOWN_FLOOR / tol), floor=percent(UNKNOWN_FLOOR))
    return _(
        "Balanced means ΣFx, ΣFy and ΣM about {node} each zero within {tolerance} of the forces (and moments) that"
        " make it up: forces to three significant figures are enough."
    ).format(node=moment_point(level), tolerance=percent(tol))


def briefed(level: Level) -> str:
    """The brief as the student reads it: the level's words, then its assumptions."""
    return f"{level.brief.rstrip()}\n{assumptions(level)}" if level.brief else assumptions(level)


def marks(tries: int) -> int:
    """Marks for a level passed at check number `tries`: full marks at the first
    check, fewer after each failed one, never below LEAST_MARKS for a pass."""
    if tries < 1:
        raise ValueError("a level is passed at check 1 or later")
    return max(FULL_MARKS - MARKS_LOST_PER_TRY * (tries - 1), LEAST_MARKS)


def check(level: Level, solution: Solution, failures: int | None = None) -> Verdict:
    """Judge `solution` on `level`. ValueError (one 'field: problem' line) when the
    solution does not fit the level (see fitted). A failed verdict's "hint" is the one
    after failure number `failures` (game/rules/hints.py; None: the first)."""
    level = fitted(level, solution)
    verdict = KINDS[level.kind].judge(level, solution)
    if not verdict.passed:
        verdict.figures["hint"] = hint(level, verdict, failures or 1)
    return verdict


def fitted(level: Level, solution: Solution) -> Level:
    """The level with the loads the solution drew; ValueError (one 'field: problem'
    line) when the solution is for another level, uses a move the level does not
    allow, or names something that does not exist."""
    if solution.level != level.id:
        raise ValueError("level: " + _("this solution is for level {given}, not {level}").format(given=named(solution.level), level=named(level.id)))
    level = version_for(level, solution).drawn(solution.draw)
    kind = kind_of(level.kind)
    if kind is None or not kind.judged:
        raise ValueError("level: " + _("a {kind} level has no goal to check").format(kind=level.kind))
    node_ids = {n.id for n in level.nodes}
    member_ids = {m.id for m in level.members}
    for k, move in enumerate(solution.moves):
        if not kind.takes(type(move)):
            raise ValueError(f"moves[{k}].type: " + _("a {kind} level does not allow {move}").format(kind=level.kind, move=move.type))
        if isinstance(move, AddForce | AddMoment) and move.node not in node_ids:
            raise ValueError(f"moves[{k}].node: " + _("unknown node {id}").format(id=named(move.node)))
        if isinstance(move, MarkZero | RemoveMember | CutMember) and move.member not in member_ids:
            raise ValueError(f"moves[{k}].member: " + _("unknown member {id}").format(id=named(move.member)))
    return level
