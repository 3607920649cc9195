"""Section: the method of sections on a whole truss, with the section the
student's own. The level is a statically determinate truss (pins, bars, supports, loads)
and `player.asked` names the members whose forces are asked. The student cuts the truss
where they choose, by naming the members the section passes through, and gives the force
in each (`cut_member {member, force}`, N, tension positive).

How it is judged, in the order a student's mistakes come:

1. the cut is a section: without the members cut, the truss falls into exactly two
   parts (its nodes joined by the members left), and each member cut joins the two (one
   with both ends in one part is not crossed by the section);
2. it cuts at most three members: one part gives three equations (ΣFx, ΣFy, ΣM), so
   four unknown forces are one too many for one section;
3. it cuts each member asked;
4. the members cut are not all concurrent or parallel (the 3 × n matrix of their lines'
   unit contributions to ΣFx, ΣFy and ΣM has rank n): three members meeting at one point
   leave the moment equation empty, and one part cannot tell their forces apart;
5. every member cut has a force given, and each is within the same rule as every other
   numeric answer (game/rules/free_body.py): |yours − N| ≤ max(τ·|N|, φᵤ·F), τ =
   `goal.tolerance` (default 2 %), φᵤ = 0.1 %, F the largest given load; N is the truss's
   own member force from the engine's static solve (zero_force.member_forces_at_equilibrium),
   the answer any correct section gives. So two students who cut in different places
   both pass, each with the members their own section cuts.

A failed check names what is wrong (the section, or which members' forces are not
right) and never a force; the hint names a moment point that isolates a wrong member
(where the lines of the other two cut members meet). The figures, member forces and
reactions, stay hidden until a pass (Kind.hides_sums_until_passed). No pygame here.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from equilibria.engine.linear import mechanism
from equilibria.engine.model import Model, ModelError, build_model
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.solution import CutMember, Solution
from equilibria.rules.common import Verdict, drafted_at_rest, hold_time, listing, run, smoothly_loaded
from equilibria.rules.equilibrium import SHOWN_BEFORE_PASS, UNKNOWN_FLOOR, largest_load, tolerance_of
from equilibria.rules.kind import Kind
from equilibria.rules.zero_force import member_forces_at_equilibrium
from equilibria.words.figures import num, percent
from equilibria.words.i18n import N_, _, ngettext
from equilibria.words.text import named

MOST_CUT = 3  # unknown forces one part's three equations can give


def names(items: list[str]) -> str:
    """'AB', 'AB and BC', 'AB, BC and CD' (the language's "and": common.listing)."""
    return listing(items)


def parts_of(level: Level, cut: set[str]) -> list[set[str]]:
    """The pieces the truss falls into without the members `cut`: sets of node ids joined
    by the members left (a node left on no member is a piece of its own)."""
    joined: dict[str, set[str]] = {n.id: set() for n in level.nodes}
    for m in level.members:
        if m.id not in cut:
            joined[m.i].add(m.j)
            joined[m.j].add(m.i)
    pieces, seen = [], set()
    for start in joined:
        if start in seen:
            continue
        piece, todo = set(), [start]
        while todo:
            q = todo.pop()
            if q not in piece:
                piece.add(q)
                todo += joined[q] - piece
        seen |= piece
        pieces.append(piece)
    return pieces


def _lines(level: Level, cut: list[str]) -> np.ndarray:
    """A (3, n): each cut member's unit force along it and its moment about the origin."""
    where = {n.id: (n.x, n.y) for n in level.nodes}
    ends = {m.id: (m.i, m.j) for m in level.members}
    a = np.zeros((3, len(cut)))
    for k, mid in enumerate(cut):
        (xi, yi), (xj, yj) = where[ends[mid][0]], where[ends[mid][1]]
        length = math.hypot(xj - xi, yj - yi)
        ux, uy = (xj - xi) / length, (yj - yi) / length
        a[:, k] = ux, uy, xi * uy - yi * ux
    return a


def section_problem(level: Level, cut: list[str]) -> str | None:
    """Why the members `cut` are not a section that finds the asked forces, in a student's
    words (None: they are); points 1–4 of the module's docstring."""
    if not cut:
        return _("Cut the truss first: click the members your section passes through, then give the force in each.")
    pieces = parts_of(level, set(cut))
    if len(pieces) == 1:
        return _(
            "Your cut does not split the truss in two: the members you left still join every joint to every other. "
            "A section passes through every member that joins its two parts."
        )
    if len(pieces) > 2:
        said = _("Your cut splits the truss into {count} pieces, not two: a section is one line across the truss, cutting it into two parts.")
        return said.format(count=len(pieces))
    part = {q: k for k, piece in enumerate(pieces) for q in piece}
    ends = {m.id: (m.i, m.j) for m in level.members}
    inside = [mid for mid in cut if part[ends[mid][0]] == part[ends[mid][1]]]
    if inside:
        said = ngettext(
            "Your section does not cross {members}: both its ends stay in one part. Cut only the members that join the two parts.",
            "Your section does not cross {members}: both ends of each stay in one part. Cut only the members that join the two parts.",
            len(inside),
        )
        return said.format(members=names(inside))
    if len(cut) > MOST_CUT:
        said = _(
            "Your section cuts {count} members: {count} unknown forces, but one part of the truss gives only three equations "
            "(ΣFx = 0, ΣFy = 0 and ΣM = 0), so one section cannot find them all. Choose a section through at most three members."
        )
        return said.format(count=len(cut))
    missing = [m for m in level.player.asked or [] if m not in cut]
    if missing:
        said = ngettext(
            "Your section does not cut {members}, the member asked: put the section through {members}.",
            "Your section does not cut {members}, the members asked: put the section through {members}.",
            len(missing),
        )
        return said.format(members=names(missing))
    if np.linalg.matrix_rank(_lines(level, cut), tol=1e-9 * max(1.0, _size(level))) < len(cut):
        if len(cut) > 2:
            said = _(
                "The members you cut, {members}, all meet at one point or are all parallel: the equations of one part cannot tell "
                "their forces apart (a moment about that point says nothing of them). Choose another section."
            )
        else:
            said = _(
                "The members you cut, {members}, lie in one line: the equations of one part cannot tell their forces apart "
                "(a moment about that point says nothing of them). Choose another section."
            )
        return said.format(members=names(cut))
    return None


def _size(level: Level) -> float:
    xs, ys = [n.x for n in level.nodes], [n.y for n in level.nodes]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def sections_through(level: Level, member: str) -> list[tuple[str, ...]]:
    """Every section of at most three members that cuts `member` and finds its force."""
    others = sorted(m.id for m in level.members if m.id != member)
    asked = level.player.asked or []
    out = []
    for n in range(0, MOST_CUT):
        for rest in itertools.combinations(others, n):
            cut = [member, *rest]
            if all(a in cut for a in asked) and section_problem(level, cut) is None:
                out.append(tuple(cut))
    return out


NEAREST = 40  # a section's other members are sought among this many nearest the one it goes through


def first_section_through(level: Level, member: str) -> tuple[str, ...] | None:
    """A section of at most three members that cuts `member` and finds its force, the one of
    fewest members, the nearest first; None when there is none. A section cuts the truss
    across one panel, so its members are near each other: they are sought among the NEAREST
    members nearest `member` (all of them in a truss of up to NEAREST + 1 members), and a
    truss of thousands of members is answered in a moment, not in hours (every pair of its
    members, each split tried: the level editor froze on 2,000)."""
    where = {n.id: (n.x, n.y) for n in level.nodes}
    middle = {m.id: tuple((where[m.i][k] + where[m.j][k]) / 2 for k in (0, 1)) for m in level.members}
    if member not in middle:
        return None
    others = sorted((m for m in middle if m != member), key=lambda m: (math.dist(middle[m], middle[member]), m))
    others = others[:NEAREST]
    asked = level.player.asked or []
    for n in range(0, MOST_CUT):
        for rest in itertools.combinations(others, n):
            cut = [member, *rest]
            if all(a in cut for a in asked) and section_problem(level, cut) is None:
                return tuple(cut)
    return None


def section_answer(level: Level) -> list[CutMember] | None:
    """An answer as the judge computes it: the first section through the first member
    asked for (or the first member) with the forces the truss carries there [N]."""
    first = (level.player.asked or [m.id for m in level.members])[:1]
    through = first_section_through(level, first[0]) if first else None
    if through is None:
        return None
    forces = member_forces_at_equilibrium(level)
    return [CutMember(type="cut_member", member=mid, force=forces[mid]) for mid in through]


def look_about(level: Level, cut: list[str], member: str) -> str:
    """A moment point that leaves only `member`'s force: where the lines of the other cut
    members meet (a node's name if one is there), or "" when they do not meet."""
    others = [m for m in cut if m != member]
    if len(others) != 2:
        return ""
    where = {n.id: np.array((n.x, n.y), float) for n in level.nodes}
    ends = {m.id: (m.i, m.j) for m in level.members}
    (p, p2), (q, q2) = ((where[ends[m][0]], where[ends[m][1]]) for m in others)
    d, e = p2 - p, q2 - q
    det = d[0] * -e[1] + e[0] * d[1]
    if abs(det) < 1e-12 * max(1.0, _size(level)) ** 2:
        return ""
    t = ((q - p)[0] * -e[1] + e[0] * (q - p)[1]) / det
    point = p + t * d
    for nid, at in where.items():
        if np.linalg.norm(at - point) < 1e-6 * max(1.0, _size(level)):
            return nid
    return _("the point ({x}, {y})").format(x=num(float(point[0]), "m", sign=False), y=num(float(point[1]), "m", sign=False))


def judge_section(level: Level, solution: Solution) -> Verdict:
    """The student's section and the forces in the members it cuts (see the module)."""
    moves = [m for m in solution.moves if isinstance(m, CutMember)]
    cut = list(dict.fromkeys(m.member for m in moves))
    if len(cut) < len(moves):
        return Verdict(False, _("You cut one member twice: one force for each member cut."), {"cut": cut})
    problem = section_problem(level, cut)
    if problem:
        return Verdict(False, problem, {"cut": cut, "section": False})
    given = {m.member: m.force for m in moves}
    bare = [mid for mid in cut if given[mid] is None]
    if bare:
        said = _("Your section is a good one. Now give the force in {members} (tension positive).").format(members=names(bare))
        return Verdict(False, said, {"cut": cut, "section": True})
    forces = member_forces_at_equilibrium(level)
    model = build_model(level.model_data(), statics_only=True)
    tol, floor = tolerance_of(level), UNKNOWN_FLOOR * largest_load(level, model)
    rows = []
    for mid in cut:
        answer, yours = forces[mid], float(given[mid])
        allowed = max(tol * abs(answer), floor)
        rows.append({"unknown": _("the force in member {member}").format(member=mid), "member": mid, "yours": yours, "right": abs(yours - answer) <= allowed})
    wrong = [r["member"] for r in rows if not r["right"]]
    pieces = sorted(sorted(p) for p in parts_of(level, set(cut)))
    figures = {
        "cut": cut,
        "section": True,
        "parts": pieces,
        "unknowns": [{k: r[k] for k in ("unknown", "yours", "right")} for r in rows],
        "tolerance": {"fraction": tol, "unknown_floor": UNKNOWN_FLOOR},
    }
    sim, _held, start = run(smoothly_loaded(level.model_data()), hold_time(level))  # the truss standing under its loads: the run shown
    if not wrong:
        words = ngettext(
            "Right: your section through {members} cuts the truss in two, and your force is within {within} of the force the truss carries.",
            "Right: your section through {members} cuts the truss in two, and each of your {count} forces is within {within} of the force the truss carries.",
            len(cut),
        ).format(members=names(cut), count=len(cut), within=percent(tol))
        return Verdict(True, words, {**figures, "forces": {mid: forces[mid] for mid in cut}}, sim, start)
    about = look_about(level, cut, wrong[0])
    figures["look_about"] = about
    figures["look_for"] = wrong[0]
    return Verdict(
        False,
        ngettext(
            "Your section is a good one, but the force in {members} is not right (tension positive: a member pulling on the joints at its ends).",
            "Your section is a good one, but the forces in {members} are not right (tension positive: a member pulling on the joints at its ends).",
            len(wrong),
        ).format(members=names(wrong)),
        figures,
        sim,
        start,
    )


def _sense(level: Level, model: Model) -> list[str]:
    """A section level is a statically determinate truss of bars that stands (m + r = 2j,
    no mechanism), weight neglected, each member asked one a section of at most three
    members finds."""
    if level.world.gravity != 0:
        return ["world.gravity: " + _("a section level neglects weight (gravity 0): the loads drawn are all the forces on the truss")]
    for k, member in enumerate(level.members):
        if member.kind != "bar":
            return [f"members[{k}].kind: " + _("a section level is a truss of bars (pinned ends), not a {kind}").format(kind=member.kind)]
    if level.member_loads:
        return ["member_loads: " + _("a truss is loaded at its joints")]
    if not any(ld.fx or ld.fy for ld in level.loads):
        return ["loads: " + _("a truss without loads has no forces to find")]
    reactions = sum(len(s.fix) for s in level.supports if "rot" not in s.fix)
    if any("rot" in s.fix for s in level.supports) or len(level.members) + reactions != 2 * len(level.nodes):
        said = _("m + r = {members} + {reactions}, not 2j = {joints}: the truss is not statically determinate")
        return ["members: " + said.format(members=len(level.members), reactions=reactions, joints=2 * len(level.nodes))]
    if mechanism(model) is not None:
        return ["supports: " + _("the truss is a mechanism")]
    asked = level.player.asked or []
    if not asked:
        return ["player.asked: " + _("name the member whose force the section finds")]
    ids = {m.id for m in level.members}
    for k, mid in enumerate(asked):
        if mid not in ids:
            return [f"player.asked[{k}]: " + _("unknown member {id}").format(id=named(mid))]
    if first_section_through(level, asked[0]) is None:
        return ["player.asked: " + _("no section through at most three members finds {members}").format(members=names(asked))]
    return []


def drafted(doc: dict) -> dict:
    """The editor's section level: the whole truss on its supports, at rest, asking the force
    in the member nearest the middle of the truss (the teacher marks the ones asked)."""
    at = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    middle = tuple(sum(p[k] for p in at.values()) / len(at) for k in (0, 1))
    members = [m for m in doc.get("members") or [] if m["i"] in at and m["j"] in at]

    def off(m: dict) -> float:
        (xi, yi), (xj, yj) = at[m["i"]], at[m["j"]]
        return math.dist(((xi + xj) / 2, (yi + yj) / 2), middle)

    ordered = sorted(members, key=off)
    doc = drafted_at_rest(doc, {"asked": [ordered[0]["id"]]} if ordered else {})
    for m in ordered[:DRAFT_TRIES]:  # the nearest the middle that a section finds (not a Pratt truss's middle post)
        doc["player"] = {"asked": [m["id"]]}
        try:
            level = Level.model_validate({k: v for k, v in doc.items() if not k.startswith("_")})  # the editor's own fields aside
            if first_section_through(level, m["id"]) is not None:
                return doc
        except (ValueError, ModelError):  # a draft validate refuses says so itself
            break
    doc["player"] = {"asked": [ordered[0]["id"]]} if ordered else doc.get("player", {})
    return doc


DRAFT_TRIES = 8  # members near the middle tried for a section level's first question


KIND = Kind(
    name="section",
    # TRANSLATORS: the level kind: a truss cut by the method of sections
    title_word=N_("section"),
    summary=N_("cut the truss with a section of your own choice and give the forces in the members it cuts"),
    moves=(CutMember,),
    tools=("inspect", "cut", "erase", "drag"),
    player_fields=frozenset({"asked"}),
    goal_fields=frozenset({"hold", "tolerance"}),
    judge=judge_section,
    sense=_sense,
    judges_each_answer=True,
    answer=section_answer,
    figures_before_pass=SHOWN_BEFORE_PASS,
    resultants_before_pass=False,
    hides_sums_until_passed=True,  # the member forces and reactions are the answer and its first step
    drafted=drafted,
    asks_members="asked",
)
