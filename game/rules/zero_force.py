"""Zero-force members: mark the members that carry nothing under the given loads, or
remove as many as the truss can spare while it still stands (STANDS, common.py)."""

from __future__ import annotations

import numpy as np

from equilibria.engine.linear import mechanism
from equilibria.engine.model import Model, build_model
from equilibria.engine.simulation import Simulation
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.solution import MarkZero, RemoveMember, Solution
from equilibria.rules.common import Standing, Verdict, drafted_at_rest, free_motion, hold_time, listing, stands, within_budget
from equilibria.rules.kind import Kind
from equilibria.words.figures import kn
from equilibria.words.i18n import N_, _, ngettext

ZERO_FORCE_TOL = 1e-6  # |N| below this fraction of the largest |N| counts as no force


def member_forces_at_equilibrium(level: Level) -> dict[str, float]:
    """Axial forces [N] by the direct stiffness method (the small-displacement statics
    a student's method of joints gives), to the millinewton: the last bits of a sparse
    solve vary with the machine's BLAS, and no figure shown may."""
    sim = Simulation(build_model(level.model_data(), statics_only=True), "linear")
    if not sim.solve_linear().at_rest:
        raise ValueError("supports: the truss is a mechanism")
    return {mid: round(r["axial"], 3) + 0.0 for mid, r in sim.results()["members"].items()}  # + 0.0: never -0.0


def zero_force_members(forces: dict[str, float]) -> set[str]:
    biggest = max((abs(v) for v in forces.values()), default=0.0)
    return {mid for mid, n in forces.items() if abs(n) <= ZERO_FORCE_TOL * biggest}


def judge_zero_force(level: Level, solution: Solution) -> Verdict:
    """Mark mode: exactly the zero-force members marked. A failed check says how many
    marks are wrong and how many are missing, never which, and names one joint to look
    at and the method there (figures["look_at"], figures["rule"]: game/rules/hints.py):
    the forces are the answer, and the game keeps them hidden until a pass."""
    if level.player.mode == "remove":
        return _judge_removal(level, solution)
    forces = member_forces_at_equilibrium(level)
    zero = zero_force_members(forces)
    marked = {m.member for m in solution.moves if isinstance(m, MarkZero)}
    wrong = sorted(marked - zero)
    missed = sorted(zero - marked)
    if not wrong and not missed:
        figures = {"zero_force": sorted(zero), "marked": sorted(marked), "forces": forces}
        if not zero:
            return Verdict(True, _("Right: no member carries no force under these loads."), figures)
        said = ngettext("Right: {members} carries no force under these loads.", "Right: {members} carry no force under these loads.", len(zero))
        return Verdict(True, said.format(members=", ".join(sorted(zero))), figures)
    parts = []
    if wrong:
        parts.append(ngettext("{n} member you marked carries a force", "{n} members you marked carry a force", len(wrong)).format(n=len(wrong)))
    if missed:
        parts.append(ngettext("{n} zero-force member is not marked", "{n} zero-force members are not marked", len(missed)).format(n=len(missed)))
    joint, rule = look_at(level, missed[0] if missed else wrong[0], zero)
    figures = {"marked": sorted(marked), "wrong": len(wrong), "missed": len(missed), "look_at": joint, "rule": rule}
    return Verdict(False, _("Not quite: {what}.").format(what=listing(parts)), figures)  # the hint names the joint (game/rules/hints.py)


def zero_force_answer(level: Level) -> list[MarkZero | RemoveMember] | None:
    """The answer as the judge computes it: the zero-force members marked (mode mark),
    or removed one by one as long as the truss is no mechanism without them (mode
    remove); None where the truss is a mechanism as it is."""
    try:
        zero = sorted(zero_force_members(member_forces_at_equilibrium(level)))
    except ValueError:
        return None
    if level.player.mode != "remove":
        return [MarkZero(type="mark_zero", member=mid) for mid in zero]
    model = build_model(level.model_data(), statics_only=True)
    removed: list[str] = []
    for mid in zero:
        if free_motion(model, (*removed, mid)) is None:
            removed.append(mid)
    return [RemoveMember(type="remove_member", member=mid) for mid in removed]


# Before a pass: the counts and the joint to look at, never the forces the members carry.
SHOWN_BEFORE_PASS = frozenset({"marked", "wrong", "missed", "look_at", "rule", "removed", "max_displacement", "limit", "hold", "free_motion", "hint"})


def look_at(level: Level, member: str, zero: set[str]) -> tuple[str, str]:
    """The joint at which the method of joints shows what `member` carries, and which rule
    shows it there: "two in line" (two members in line and a third, no load: the third
    carries nothing), "two apart" (two members not in line, no load: neither carries
    anything), or "joint" (write ΣFx = 0 and ΣFy = 0 at it). Zero-force members found at
    one joint are set aside, and the rules run again, as a student does."""
    where = {n.id: np.array((n.x, n.y), float) for n in level.nodes}
    ends = {m.id: (m.i, m.j) for m in level.members}
    held = {s.node for s in level.supports}
    loaded = {ld.node for ld in level.loads if ld.fx or ld.fy}
    active = set(ends)
    found: dict[str, tuple[str, str]] = {}
    changed = True
    while changed and member not in found:
        changed = False
        for q in where:
            if q in held or q in loaded:
                continue
            at = sorted(mid for mid in active if q in ends[mid])
            way = {mid: where[ends[mid][1] if ends[mid][0] == q else ends[mid][0]] - where[q] for mid in at}
            in_line = [(a, b) for k, a in enumerate(at) for b in at[k + 1 :] if _in_line(way[a], way[b])]
            if len(at) == 2 and not in_line:
                news = {mid: (q, "two apart") for mid in at}
            elif len(at) == 3 and len(in_line) == 1:
                news = {mid: (q, "two in line") for mid in at if mid not in in_line[0]}
            else:
                continue
            news = {mid: v for mid, v in news.items() if mid in zero and mid not in found}
            if news:
                found |= news
                active -= set(news)
                changed = True
    if member in found:
        return found[member]
    i, j = ends[member]
    return (i if i not in held else j), "joint"


def _in_line(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two members' directions from a joint lie on one line."""
    return abs(float(a[0] * b[1] - a[1] * b[0])) < 1e-9 * float(np.linalg.norm(a) * np.linalg.norm(b))


def _judge_removal(level: Level, solution: Solution) -> Verdict:
    """Remove as many members as possible while the truss still stands (STANDS,
    game/rules/common.py: no mechanism, and a run from a slightly disturbed start holds
    for the hold time). Passed when it stands and no other member can go too. A zero-force
    member that holds a joint across the line of two others cannot go: without it the
    truss is a mechanism, only marginally stable (held by its chord's tension) or
    collapsing (pushed out by its chord's compression)."""
    removed = tuple(dict.fromkeys(m.member for m in solution.moves if isinstance(m, RemoveMember)))
    standing = stands(level, removed)
    figures = {"removed": list(removed), "max_displacement": standing.worst, "limit": standing.limit, "hold": hold_time(level)}
    sim, start = standing.sim, standing.start
    if not standing.stands:
        figures["free_motion"] = standing.motion
        forces = member_forces_at_equilibrium(level)
        biggest = max(abs(n) for n in forces.values())
        figures["carried"] = {mid: forces[mid] for mid in removed if abs(forces[mid]) > ZERO_FORCE_TOL * biggest}
        return Verdict(False, _("{why}.").format(why=_why_it_falls(level, removed, standing)), figures, sim, start)
    model = build_model(level.model_data(), statics_only=True)
    rest = sorted({m.id for m in level.members} - set(removed))
    within_budget(sim.dt, hold_time(level) * (1 + len(rest)))  # the whole check: this run and, at most, one for each member left
    spare = [mid for mid in rest if free_motion(model, (*removed, mid)) is None and stands(level, (*removed, mid)).stands]  # the run only if no mechanism
    figures["can_also_go"] = spare
    if spare:
        return Verdict(
            False,
            ngettext(
                "The truss still stands with {n} member removed, but more can go: "
                "look for a member without which nothing in the truss can move and it still holds its loads.",
                "The truss still stands with {n} members removed, but more can go: "
                "look for a member without which nothing in the truss can move and it still holds its loads.",
                len(removed),
            ).format(n=len(removed)),
            figures,
            sim,
            start,
        )
    if not removed:
        words = _("The truss stands as it is, and no member can go: without any one of them it would no longer stand.")
        return Verdict(True, words, figures, sim, start)
    said = ngettext(
        "The truss still stands with {n} member removed, and no other member can go.",
        "The truss still stands with {n} members removed, and no other member can go.",
        len(removed),
    )
    return Verdict(True, said.format(n=len(removed)), figures, sim, start)


def _why_it_falls(level: Level, removed: tuple[str, ...], standing: Standing) -> str:
    """Why the truss without `removed` does not stand, in a student's words: a removed
    member that carried load is named with its force; else the joints left with two
    members in one line, whether their compression pushes them out (it collapses) or
    their tension holds them only marginally (a mechanism all the same)."""
    forces = member_forces_at_equilibrium(level)
    biggest = max(abs(n) for n in forces.values())
    loaded = [mid for mid in removed if abs(forces[mid]) > ZERO_FORCE_TOL * biggest]
    if loaded:
        carried = [
            (_("{member} carried {force} of tension") if forces[mid] > 0 else _("{member} carried {force} of compression")).format(
                member=mid, force=kn(abs(forces[mid]))
            )
            for mid in loaded
        ]
        said, one = listing(carried), len(loaded) == 1
        if standing.motion:
            how = _("The truss does not stand: {carried}; without it, {motion}") if one else _("The truss does not stand: {carried}; without them, {motion}")
            return how.format(carried=said, motion=standing.motion)
        if one:
            return _("The truss does not stand: {carried}, and the members left cannot carry the loads without it").format(carried=said)
        return _("The truss does not stand: {carried}, and the members left cannot carry the loads without them").format(carried=said)
    ends = {m.id: (m.i, m.j) for m in level.members}
    left = [mid for mid in ends if mid not in removed]
    where = {n.id: np.array((n.x, n.y), float) for n in level.nodes}
    for mid in removed:
        for q in ends[mid]:
            at = [m for m in left if q in ends[m]]
            if len(at) == 1:
                return _("The truss does not stand: without {member}, joint {node} is held only by {other}, so it can swing about {other}'s other end").format(
                    member=mid, node=q, other=at[0]
                )
            if len(at) != 2:
                continue
            a, b = (where[ends[m][1] if ends[m][0] == q else ends[m][0]] - where[q] for m in at)
            if not _in_line(a, b):
                continue
            pair = listing(at)
            head = _(
                "The truss does not stand: without {member}, joint {node} is held only by {pair}, which lie in one line,"
                " so nothing holds {node} across that line"
            )
            head = head.format(member=mid, node=q, pair=pair)
            n = forces[at[0]]
            if n < -ZERO_FORCE_TOL * biggest:
                return _("{head}; the compression in {pair} ({force}) pushes {node} out of line and the truss collapses").format(
                    head=head, pair=pair, force=kn(n), node=q
                )
            if n > ZERO_FORCE_TOL * biggest:
                pulls = _("The tension in {pair} ({force}) pulls {node} back, but only marginally: the smallest push across the line moves it freely")
                return _("{head}: the truss is a mechanism. {pulls}").format(head=head, pulls=pulls.format(pair=pair, force=kn(n), node=q))
            return _("{head}: the truss is a mechanism").format(head=head)
    if standing.motion:
        return _("The truss does not stand: without {members}, {motion}").format(members=", ".join(removed), motion=standing.motion)
    return _("The truss does not stand: the members left are overloaded or buckle")


def _sense(level: Level, model: Model) -> list[str]:
    """A zero-force puzzle is set on a truss that stands: a mechanism has no forces to find."""
    free = mechanism(model)
    if free is not None:
        moving = sorted(model.node_ids[q] for q in free.moving())
        return ["supports: " + _("the truss is a mechanism; nodes {nodes} can move without deforming it").format(nodes=", ".join(moving))]
    return []


KIND = Kind(
    name="zero_force",
    title_word=N_("zero-force"),
    summary=N_("mark the members that carry no force, or remove all the truss can spare"),
    moves=(MarkZero, RemoveMember),
    tools=("inspect", "mark", "drag"),
    mode_tools={"remove": ("inspect", "remove", "drag")},
    player_fields=frozenset({"mode", "load_choices"}),
    judge=judge_zero_force,
    sense=_sense,
    answer=zero_force_answer,
    drafted=lambda doc: drafted_at_rest(doc, {"mode": "mark"}),  # the student marks them
    figures_before_pass=SHOWN_BEFORE_PASS,
    hides_forces_until_checked=True,  # the forces are the answer
    # A banner calling the structure a mechanism before the check would give the answer
    # away (which member left it one); the check says so, by STANDS.
    seeks_mechanism=False,
)
