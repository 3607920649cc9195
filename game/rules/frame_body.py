"""A frame or machine taken apart at its pins: one of its bodies alone, the free body the
textbook draws for each part of a frame, as the level editor drafts it (game/course/
authoring.py `take_apart`). No pygame.

A body is the members joined rigidly to one another: beams meeting at a node where neither
is released (a pin in the sandbox is a released end); a bar, or a single beam pinned at
both ends with nothing holding its ends' rotation, is a two-force member, no body to take
apart (its two forces are equal, opposite and along it). The body keeps its nodes and
their loads; at each of its nodes where something else held it (another body, a support)
it is cut:

- a support alone: a support's cut (what it fixed; a roller: along its normal);
- a two-force member alone: a pin's cut along that member's line (one unknown: its size),
  pointing from the member toward the body, as machines-01 cuts leg AC at C;
- anything more (bodies, or a support with them): a pin's cut, two components (and the
  moment where the body is held against turning there).

Statics gives a body three equations, so the cuts asked are by default the first ones,
supports first and then pins in the order of the nodes, whose unknowns statics finds
together (the rank of their equations: game/rules/part_body.py `independent`); each other cut's
force is given, worked out from the whole structure's linear statics (what the body's own
members at the node do not balance of the node's load: docs/model.md's end forces), as
a load where it acts, as frame-02 gives the beam's pull on the post at C. The moment point
is the cut with the most unknowns asked, the first (frame-01: the pin C).
"""

from __future__ import annotations

import math

from equilibria.rules.free_body import cut_of
from equilibria.rules.part_body import independent, solved
from equilibria.words.i18n import _

CLEAN = 1e-6  # [N, N m] round-off below this is 0 (as part_body `_clean`)


def bodies(doc: dict) -> list[list[str]]:
    """The structure's members in the bodies they make, joined rigidly (the module), in the order of the file."""
    members = doc.get("members") or []
    of = {m["id"]: m["id"] for m in members}

    def root(k: str) -> str:
        while of[k] != k:
            of[k] = of[of[k]]
            k = of[k]
        return k

    at: dict[str, list[str]] = {}
    for m in members:
        for node in (m["i"], m["j"]):
            if _rigid_at(m, node):
                at.setdefault(node, []).append(m["id"])
    for joined in at.values():
        for k in joined[1:]:
            of[root(k)] = root(joined[0])
    grouped: dict[str, list[str]] = {}
    for m in members:
        grouped.setdefault(root(m["id"]), []).append(m["id"])
    return list(grouped.values())


def _rigid_at(m: dict, node: str) -> bool:
    """Whether member `m` holds its node `node` against turning (a beam, its end there not released)."""
    if node not in (m["i"], m["j"]):
        return False
    end = "i" if m["i"] == node else "j"
    return m.get("kind") == "beam" and end not in (m.get("release") or [])


def two_force(doc: dict, body: list[str]) -> bool:
    """Whether `body` is a two-force member: one member, neither of whose ends is held against turning."""
    if len(body) != 1:
        return False
    m = next(x for x in doc["members"] if x["id"] == body[0])
    fixed_rot = {s["node"] for s in doc.get("supports") or [] if "rot" in (s.get("fix") or [])}
    for node in (m["i"], m["j"]):
        others = [x for x in doc["members"] if x["id"] != m["id"] and node in (x["i"], x["j"]) and _rigid_at(x, node)]
        if _rigid_at(m, node) and (others or node in fixed_rot):
            return False
    return True


def body_apart(doc: dict, member: str, asked: list[str] | None = None) -> dict:
    """The document `doc` (the whole frame, on its supports) cut down to the body of member
    `member`, as the module says; `asked`: the nodes whose cuts the student gives (default:
    as the module says). ValueError, said why."""
    members = {m["id"]: m for m in doc.get("members") or []}
    if member not in members:
        raise ValueError(_("No member is named {names}: the members are {members}.").format(names=member, members=", ".join(members)))
    if doc.get("triangles"):
        raise ValueError(_("The editor takes apart frames of members only: this one has plates."))
    if doc.get("member_loads"):
        raise ValueError(_("The editor takes apart frames loaded at their nodes only: give the load spread along a member as loads at nodes."))
    body = next(b for b in bodies(doc) if member in b)
    if two_force(doc, body):
        said = _(
            "{member} is a two-force member (pinned at both ends, loaded at them only): its forces are equal, opposite and along it."
            " Click a body of beams joined rigidly, or a joint, or drag a section."
        )
        raise ValueError(said.format(member=member))
    in_body = set(body)
    order = [n["id"] for n in doc["nodes"]]
    kept = sorted({n for k in body for n in (members[k]["i"], members[k]["j"])}, key=order.index)
    results, _reactions = solved(doc)
    at = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    supports = {s["node"]: s for s in doc.get("supports") or []}
    loads = [dict(ld) for ld in doc.get("loads") or [] if ld["node"] in kept]
    cuts = []  # (cut, its columns, the force on the body there)
    for node in kept:
        outside = [m for m in members.values() if m["id"] not in in_body and node in (m["i"], m["j"])]
        if not outside and node not in supports:
            continue
        cut = _cut_at(doc, node, outside, supports.get(node), at, body, members)
        cuts.append((cut, _columns(cut, at[node]), _outside_force(doc, node, body, members, results, at)))
    cuts.sort(key=lambda c: c[0]["what"] != "support")  # supports first, then pins, each in the order of the nodes
    asked = [cuts[k][0]["node"] for k in independent([c[1] for c in cuts])] if asked is None else asked
    out = {k: v for k, v in doc.items() if k not in ("nodes", "members", "supports", "loads", "cut", "vary")}
    out["nodes"] = [dict(n) for n in doc["nodes"] if n["id"] in kept]
    out["members"] = [dict(members[k]) for k in body]
    given = []
    for cut, _cols, (fx, fy, m) in cuts:
        if cut["node"] not in asked:
            given.append({"node": cut["node"], **{k: v for k, v in (("fx", fx), ("fy", fy), ("m", m)) if v}})
    out["loads"] = [ld for ld in loads + given if any(ld.get(k) for k in ("fx", "fy", "m"))]
    out["cut"] = [cut for cut, _cols, _f in cuts if cut["node"] in asked]
    out["_cuts"] = [cut["node"] for cut, _cols, _f in cuts]  # every node it was cut at, asked or given (the editor's, not saved)
    counts = [(len(cols), cut["node"]) for cut, cols, _f in cuts if cut["node"] in asked]
    if counts:
        out["goal"] = {**(out.get("goal") or {}), "moment_about": max(counts, key=lambda c: c[0])[1]}
    return out


def _cut_at(doc: dict, node: str, outside: list[dict], support: dict | None, at: dict, body: list[str], members: dict) -> dict:
    """The cut at `node` of the body (the module's three cases)."""
    if not outside:
        return cut_of(support)
    if support is None and len(outside) == 1 and two_force(doc, [outside[0]["id"]]):
        m = outside[0]
        far = m["j"] if m["i"] == node else m["i"]
        dx, dy = at[node][0] - at[far][0], at[node][1] - at[far][1]
        return {"node": node, "what": "pin", "along": [round(dx, 9), round(dy, 9)], "member": m["id"]}
    held = any(_rigid_at(members[k], node) for k in body) and (any(_rigid_at(m, node) for m in outside) or "rot" in ((support or {}).get("fix") or []))
    if support is not None:
        return {"node": node, "what": "support", "carries": ["x", "y", "rot"] if held else ["x", "y"]}
    return {"node": node, "what": "pin", **({"carries": ["x", "y", "rot"]} if held else {})}  # a pin carries x and y unless said


def _columns(cut: dict, xy: tuple[float, float]) -> list[list[float]]:
    """The columns of the cut's unknowns in ΣFx, ΣFy, ΣM about the origin."""
    x, y = xy
    along = cut.get("along")
    if along is not None:
        length = math.hypot(*along)
        ux, uy = along[0] / length, along[1] / length
        return [[ux, uy, x * uy - y * ux]]
    unit = {"x": [1.0, 0.0, -y], "y": [0.0, 1.0, x], "rot": [0.0, 0.0, 1.0]}
    return [unit[d] for d in cut.get("carries") or ["x", "y"]]


def _outside_force(doc: dict, node: str, body: list[str], members: dict, results: dict, at: dict) -> tuple[float, float, float]:
    """What holds the body at `node` [N, N, N m], from the whole's statics: the node's load
    less what the body's own members there do not balance of it, each member's pull on the
    node from its end forces (docs/model.md: the node at i applies −N along the member and
    V across it, turned 90° counter-clockwise, and the moment M_i; the node at j, unloaded
    between, the opposite force and M_j)."""
    fx = fy = m = 0.0
    for ld in doc.get("loads") or []:
        if ld["node"] == node:
            fx, fy, m = fx - ld.get("fx", 0.0), fy - ld.get("fy", 0.0), m - ld.get("m", 0.0)
    for k in body:
        mem = members[k]
        if node not in (mem["i"], mem["j"]):
            continue
        (xi, yi), (xj, yj) = at[mem["i"]], at[mem["j"]]
        length = math.hypot(xj - xi, yj - yi)
        e, n = ((xj - xi) / length, (yj - yi) / length), (-(yj - yi) / length, (xj - xi) / length)
        r = results[k]
        axial, shear = float(r["axial"]), float(r["shear_i"])
        sign = 1.0 if mem["i"] == node else -1.0  # the member's pull on its node i: N along e, −V across; on j the opposite
        fx -= sign * (axial * e[0] - shear * n[0])
        fy -= sign * (axial * e[1] - shear * n[1])
        m += float(r["moment_i"] if mem["i"] == node else r["moment_j"])  # the member turns its node by −M: what holds it, +M
    return tuple(0.0 if abs(v) < CLEAN else round(v, 6) for v in (fx, fy, m))
