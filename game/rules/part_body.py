"""A part cut out of a structure, the free body of the method of joints or of the method of
sections, as the level editor drafts it (game/course/authoring.py `isolate_joint`,
`cut_section`). No pygame.

The part keeps its nodes, the members between them and their loads; each member with one
end in the part is cut (a joint's halfway along, a section's where the section line
crosses it), a stub of it left on the part, and the stub's free end is where the cut's
force acts (a bar's along the bar: the student gives its size and sense; a beam's: two
components and a moment). Statics gives a joint two equations and a larger part three, so
the members asked (`asked`) are by default the first ones in the order of the file whose
forces statics can find together: a joint's first two not on one line, a section's first
three neither meeting at one point nor parallel (the rank of their equations). Each other
cut member's force, and the reaction of each support in the part, is given, worked out
from the whole structure (its linear statics, the direct stiffness method's: a student's
method of joints or sections finds the same), as a load where it acts: a member's at its
stub's end, along it, as the shipped joints-01 gives AB's and BE's and truss-04 A's
reaction. The moment point the feedback sums about (`goal.moment_about`) is the part's
node where most of the asked bars meet, the textbook's choice (truss-04: B, where BF and
BC meet, leaves EF alone in ΣM).
"""

from __future__ import annotations

import math

import numpy as np

from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.schema import fresh_id
from equilibria.words.i18n import _

STUB = 0.5  # the share of a member a joint's cut leaves on it (and a section named by its members)
SHARES = (0.2, 0.8)  # a section line's crossing, kept this far from either end (a stub long enough to see and click), to a hundredth
RANK = 1e-9  # a column of the cut forces' equations adds to their rank past this share of the largest


def solved(doc: dict) -> tuple[dict[str, dict], dict[str, dict]]:
    """(Each member's results, each support's reaction) of `doc`'s linear statics (docs/model.md's contract)."""
    level = Level.model_validate({k: v for k, v in doc.items() if not k.startswith("_") and k not in ("cut", "player", "goal", "kind")} | {"kind": "sandbox"})
    sim = Simulation(build_model(level.model_data(), statics_only=True), "linear")
    if not sim.solve_linear().at_rest:
        raise ValueError(_("The structure is a mechanism: the forces of its members cannot be worked out."))
    results = sim.results()
    return results["members"], results["reactions"]


def joint_body(doc: dict, node: str, asked: list[str] | None = None) -> dict:
    """The document `doc` (the whole structure, on its supports; world and the rest kept) cut
    down to joint `node` as the module says; `asked`: the members whose forces the student
    gives (default: the first two at the joint not on one line). ValueError, said why."""
    meeting = [m for m in doc.get("members") or [] if node in (m["i"], m["j"])]
    if node not in {n["id"] for n in doc["nodes"]} or not meeting:
        raise ValueError(_("No member meets {node}: a joint is where members meet.").format(node=node))
    return part_body(doc, {node}, {m["id"]: STUB for m in meeting}, asked)


def section_body(doc: dict, p: tuple[float, float], q: tuple[float, float], touching: float = 0.0) -> tuple[set[str], dict[str, float]]:
    """(The part kept, the share of each cut member left on it) of the section drawn from `p`
    to `q` [m] across the structure `doc`: the members it crosses cut where it crosses
    them (kept SHARES from their ends), the part on the side of the line with fewer nodes
    kept (the left of the picture when they are as many: `other_part` turns it round).
    ValueError, said why, where it does not cut the structure in two or passes within
    `touching` [m] of a joint (which side is it on?)."""
    at = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    size = max((math.dist(at[m["i"]], at[m["j"]]) for m in doc.get("members") or []), default=1.0)
    crossed: dict[str, float] = {}
    for m in doc.get("members") or []:
        t = _crossing(at[m["i"]], at[m["j"]], p, q)
        if t is not None:
            crossed[m["id"]] = t
    held = {n for m in doc["members"] for n in (m["i"], m["j"])}  # a node no member meets is no part of the structure
    for node in sorted(held, key=list(at).index):
        if _to_segment(at[node], p, q) < max(1e-6 * size, touching):
            raise ValueError(_("The section passes through joint {node}: draw it between joints, across members.").format(node=node))
    if not crossed:
        raise ValueError(_("The section crosses no member: draw it across the structure, from one side to the other."))
    side = {node: _side(at[node], p, q) for node in held}
    parts = [part for part in _parts(doc, set(crossed)) if part <= held]
    if any(len({side[n] for n in part}) > 1 for part in parts):
        raise ValueError(_("The section does not cut the structure in two: draw it right across, from outside it to outside it."))
    kept = {n for n in held if side[n] > 0}
    if len(held) - len(kept) < len(kept) or (len(held) == 2 * len(kept) and min(at[n][0] for n in kept) > min(at[n][0] for n in held)):
        kept = held - kept
    members = {m["id"]: m for m in doc["members"]}
    shares = {}
    for mid, t in crossed.items():  # t: along i → j
        share = t if members[mid]["i"] in kept else 1.0 - t
        shares[mid] = round(min(max(share, SHARES[0]), SHARES[1]), 2)  # a hundredth of the member: on it still, a tidy place for the cut
    return kept, shares


def named_section(doc: dict, cut: list[str]) -> tuple[set[str], dict[str, float]]:
    """(The part kept, each cut member's share) of the section that cuts the members named
    `cut`: the structure without them falls in two parts, the one with fewer nodes kept
    (the first node's when as many), each cut halfway. ValueError, said why."""
    members = {m["id"]: m for m in doc.get("members") or []}
    unknown = [m for m in cut if m not in members]
    if unknown:
        raise ValueError(_("No member is named {names}: the members are {members}.").format(names=", ".join(unknown), members=", ".join(members)))
    if not cut:
        raise ValueError(_("Type the members the section cuts, such as {example}.").format(example=" ".join(list(members)[:3])))
    parts = [p for p in _parts(doc, set(cut)) if any(m["i"] in p or m["j"] in p for m in members.values())]
    ends = [{members[m]["i"], members[m]["j"]} for m in cut]
    if len(parts) != 2 or any(not (end & parts[0] and end & parts[1]) for end in ends):
        raise ValueError(_("These members do not cut the structure in two, each with an end on either side: name all that a section line crosses."))
    order = [n["id"] for n in doc["nodes"]]
    kept = min(parts, key=lambda part: (len(part), min(order.index(n) for n in part)))
    return kept, {m: STUB for m in cut}


def other_part(doc: dict, kept: set[str], shares: dict[str, float]) -> tuple[set[str], dict[str, float]]:
    """The section's other part (its nodes, each cut member's share left on it)."""
    members = {m["id"]: m for m in doc.get("members") or []}
    ends = {n for m in shares for n in (members[m]["i"], members[m]["j"])}
    grown, frontier = set(ends - kept), list(ends - kept)
    while frontier:  # the nodes reached from the cut members' far ends without crossing the section
        node = frontier.pop()
        for m in members.values():
            if m["id"] not in shares and node in (m["i"], m["j"]):
                other = m["j"] if m["i"] == node else m["i"]
                if other not in grown:
                    grown.add(other)
                    frontier.append(other)
    return grown, {m: 1.0 - s for m, s in shares.items()}


def part_body(doc: dict, kept: set[str], shares: dict[str, float], asked: list[str] | None = None) -> dict:
    """The document `doc` (the whole structure, on its supports; world and the rest kept) cut
    down to the nodes `kept` as the module says, each member named in `shares` cut that
    share of its length from its end in the part; `asked`: the members whose forces the
    student gives (default: as the module says). ValueError, said why."""
    at = {n["id"]: n for n in doc["nodes"]}
    members = doc.get("members") or []
    spread = [ml["member"] for ml in doc.get("member_loads") or [] if ml["member"] in shares]
    if spread:  # its stub would carry the spread load over the stub's length, not the member's: a wrong answer
        said = _(
            "{member} carries a load spread along it: the editor cuts members loaded at their nodes only (cut elsewhere, or give that load as loads at nodes)."
        )
        raise ValueError(said.format(member=spread[0]))
    plates = doc.get("triangles") or []
    if any(kept & set(t["nodes"]) and not set(t["nodes"]) <= kept for t in plates):
        raise ValueError(_("The cut goes through a plate: cut between plates, across members only."))
    results, reactions = solved(doc)
    body = {k: v for k, v in doc.items() if k not in ("nodes", "members", "supports", "loads", "cut", "vary")}
    if plates:
        body["triangles"] = [t for t in plates if set(t["nodes"]) <= kept]
    nodes = [dict(n) for n in doc["nodes"] if n["id"] in kept]
    loads = [dict(ld) for ld in doc.get("loads") or [] if ld["node"] in kept]
    kept_members = [dict(m) for m in members if m["i"] in kept and m["j"] in kept]
    taken = set(at) | {m["id"] for m in members}
    members_by_id = {m["id"]: m for m in members}
    stubs = []  # (member, its end in the part, its stub's free end)
    for m in members:
        if m["id"] not in shares:
            continue
        near, far = (at[m["i"]], at[m["j"]]) if m["i"] in kept else (at[m["j"]], at[m["i"]])
        share = shares[m["id"]]
        end = fresh_id("S" if len(kept) > 1 else far["id"], taken)  # a section's cut ends are S1, S2, … (truss-04), a joint's A1, E1, … (joints-01)
        taken.add(end)
        xy = (near["x"] + share * (far["x"] - near["x"]), near["y"] + share * (far["y"] - near["y"]))
        nodes.append({"id": end, "x": round(xy[0], 9), "y": round(xy[1], 9)})
        stubs.append(({**m, "i": near["id"], "j": end}, near, far))
    asked = _default_asked(stubs, nodes) if asked is None else asked
    cuts = []
    for m, near, _far in stubs:
        kept_members.append(m)
        if m["id"] in asked:
            cuts.append({"node": m["j"], "what": "beam" if m.get("kind") == "beam" else "bar", "member": m["id"]})
        else:  # its force given, where the part is cut: a bar's tension pulls the part toward the member's other end
            end = next(n for n in nodes if n["id"] == m["j"])
            fx, fy, moment = at_cut(at, members_by_id[m["id"]], near["id"], (end["x"], end["y"]), results[m["id"]])
            loads.append({"node": m["j"], "fx": _clean(fx), "fy": _clean(fy), **({"m": _clean(moment)} if m.get("kind") == "beam" else {})})
    for node in sorted(kept & set(reactions), key=list(at).index):  # each support in the part: its reaction, worked out, given
        given = {k: _clean(float(reactions[node].get(k, 0.0))) for k in ("fx", "fy", "m")}
        loads.append({"node": node, **{k: v for k, v in given.items() if v}})
    body.update(nodes=nodes, members=kept_members, loads=[ld for ld in loads if any(ld.get(k) for k in ("fx", "fy", "m"))], cut=cuts)
    whole_members = {m["id"] for m in kept_members if m["id"] not in shares}
    if "member_loads" in body:  # the spread loads on the members kept whole, the others' gone with their members
        body["member_loads"] = [ml for ml in body["member_loads"] if ml["member"] in whole_members]
    about = _moment_point([m for m, *_rest in stubs if m["id"] in asked and m.get("kind") != "beam"])
    if about is not None:
        body["goal"] = {**(body.get("goal") or {}), "moment_about": about}
    return body


def at_cut(at: dict, member: dict, near: str, cut: tuple[float, float], result: dict) -> tuple[float, float, float]:
    """What the rest of `member` (its results in the whole's statics: docs/model.md's end
    forces) does to its stub on the part at the point `cut`, the stub's end at node `near`
    [N, N, N m]: the node at i applies −N along the member and V across it (along it turned
    90° counter-clockwise) and the moment M_i; the node at j, the member loaded at its ends
    only, the opposite force and M_j; the stub in equilibrium, the cut gives the rest."""
    (xi, yi), (xj, yj) = ((at[member[k]]["x"], at[member[k]]["y"]) for k in ("i", "j"))
    length = math.hypot(xj - xi, yj - yi)
    e, n = ((xj - xi) / length, (yj - yi) / length), (-(yj - yi) / length, (xj - xi) / length)
    axial, shear = float(result["axial"]), float(result.get("shear_i", 0.0))
    sign = 1.0 if member["i"] == near else -1.0
    fx, fy = sign * (-axial * e[0] + shear * n[0]), sign * (-axial * e[1] + shear * n[1])  # the node's on the stub
    moment = float(result.get("moment_i" if member["i"] == near else "moment_j", 0.0))
    rx, ry = at[near]["x"] - cut[0], at[near]["y"] - cut[1]
    return -fx, -fy, -(moment + rx * fy - ry * fx)


def _default_asked(stubs: list[tuple[dict, dict, dict]], nodes: list[dict]) -> list[str]:
    """The cut members, in the order of the file, whose forces statics finds together: each
    added while the columns of its unknowns (a bar's one along it, a beam's two components
    and a moment) in the part's three equations (ΣFx, ΣFy, ΣM about the part's middle)
    stay independent."""
    cx = sum(n["x"] for n in nodes) / len(nodes)
    cy = sum(n["y"] for n in nodes) / len(nodes)
    candidates = []
    for m, near, far in stubs:
        end = next(n for n in nodes if n["id"] == m["j"])
        x, y = end["x"] - cx, end["y"] - cy
        if m.get("kind") == "beam":
            candidates.append([[1.0, 0.0, -y], [0.0, 1.0, x], [0.0, 0.0, 1.0]])
        else:
            length = math.dist((near["x"], near["y"]), (far["x"], far["y"]))
            ux, uy = (far["x"] - near["x"]) / length, (far["y"] - near["y"]) / length
            candidates.append([[ux, uy, x * uy - y * ux]])
    return [stubs[k][0]["id"] for k in independent(candidates)]


def independent(candidates: list[list[list[float]]]) -> list[int]:
    """The candidates (each the columns of its unknowns in ΣFx, ΣFy, ΣM), by index, in order,
    each taken while all the columns taken stay independent: the unknowns statics finds
    together (the rank of their equations; at most three). A joint's and a section's cuts,
    a frame body's (game/rules/frame_body.py)."""
    columns: list[list[float]] = []
    taken = []
    for k, more in enumerate(candidates):
        trial = np.array(columns + more).T
        if np.linalg.matrix_rank(trial, tol=RANK * max(1.0, float(np.abs(trial).max()))) == len(columns) + len(more):
            columns += more
            taken.append(k)
    return taken


def _moment_point(bars: list[dict]) -> str | None:
    """The part's node where most (two or more) of the asked bars `bars` meet, the first of them."""
    count: dict[str, int] = {}
    for m in bars:
        count[m["i"]] = count.get(m["i"], 0) + 1
    best = max(count.values(), default=0)
    return next((n for n, c in count.items() if c == best), None) if best >= 2 else None


def _parts(doc: dict, cut: set[str]) -> list[set[str]]:
    """The structure's nodes in the parts its members other than `cut` hold together."""
    of = {n["id"]: n["id"] for n in doc["nodes"]}

    def root(n: str) -> str:
        while of[n] != n:
            of[n] = of[of[n]]
            n = of[n]
        return n

    for m in doc.get("members") or []:
        if m["id"] not in cut:
            of[root(m["i"])] = root(m["j"])
    parts: dict[str, set[str]] = {}
    for n in of:
        parts.setdefault(root(n), set()).add(n)
    return list(parts.values())


def _crossing(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float], q: tuple[float, float]) -> float | None:
    """Where segment a→b crosses segment p→q, as its share from a (None: it does not, or runs along it)."""
    rx, ry, sx, sy = b[0] - a[0], b[1] - a[1], q[0] - p[0], q[1] - p[1]
    den = rx * sy - ry * sx
    if abs(den) < 1e-12 * math.hypot(rx, ry) * math.hypot(sx, sy):
        return None
    t = ((p[0] - a[0]) * sy - (p[1] - a[1]) * sx) / den
    u = ((p[0] - a[0]) * ry - (p[1] - a[1]) * rx) / den
    return t if 0.0 < t < 1.0 and 0.0 <= u <= 1.0 else None


def _side(xy: tuple[float, float], p: tuple[float, float], q: tuple[float, float]) -> int:
    """+1 left of the line p→q, −1 right (on it: right; the section refuses a node on it)."""
    return 1 if (q[0] - p[0]) * (xy[1] - p[1]) - (q[1] - p[1]) * (xy[0] - p[0]) > 0 else -1


def _to_segment(xy: tuple[float, float], p: tuple[float, float], q: tuple[float, float]) -> float:
    dx, dy = q[0] - p[0], q[1] - p[1]
    t = 0.0 if dx == dy == 0 else min(max(((xy[0] - p[0]) * dx + (xy[1] - p[1]) * dy) / (dx * dx + dy * dy), 0.0), 1.0)
    return math.dist(xy, (p[0] + t * dx, p[1] + t * dy))


def _clean(x: float) -> float:
    """Round-off below a micronewton as 0, the rest to the micronewton: the last bits of the
    solve vary with the machine's BLAS; finer than that, so that the given forces balance
    the part to the answer's round-off (game/rules/answer.py CONSISTENT: 1e-9 of the loads)."""
    return 0.0 if abs(x) < 1e-6 else round(x, 6)
