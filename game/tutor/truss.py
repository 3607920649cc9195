"""A structure's statics problem, and the method of joints worked on a truss (issue 35).

`Problem.of(data)` reads a model file's structure (engine/model.py's format: what a level,
a sandbox design and `simulate` share) through the engine's own reading of it: its joints,
its members, its supports' reactions (each fixed direction of a support; a roller on a
line pushes along the line's normal) and its loads at the end of their histories (point
loads, self-weight at the joints, a distributed load as its resultant at its centroid for
the whole body and as its members' end forces at the joints).

`method_of_joints` works it as the textbook does (game/tutor/method.py): the count
m + r against 2j first (an honest limit where it is not a determinate truss), the
reactions from the whole truss where there are three, the members that carry nothing
by inspection, then joint after joint with at most two unknowns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from equilibria.engine.linear import load_vector
from equilibria.engine.member_loads import resultant
from equilibria.engine.model import Model, build_model
from equilibria.tutor.method import Force, NotStatics, Step, Unknown, pull, solve_body
from equilibria.words.figures import figure
from equilibria.words.i18n import _

AXIAL = ("bar", "cable")


@dataclass
class Problem:
    """Joints (id → (x, y) [m]), members (id → (i, j)), the reactions as unknowns, the
    loads on the whole body (textbook form) and at each joint (N, 2) [N]."""

    joints: dict[str, tuple[float, float]]
    members: dict[str, tuple[str, str]]
    reactions: list[Unknown]
    loads: list[Force]
    at_joints: dict[str, tuple[float, float]]
    beams: list[str] = field(default_factory=list)
    spread: list[tuple[str, str, float, float, str]] = field(default_factory=list)  # (i, j, w_i, w_j, direction) of each member load [N/m]

    @property
    def span(self) -> float:
        xy = np.array(list(self.joints.values()) or [(0.0, 0.0)])
        return float(max(np.ptp(xy[:, 0]), np.ptp(xy[:, 1]), 1e-9))

    @classmethod
    def of(cls, data: dict) -> Problem:
        model = build_model(data, statics_only=True)
        return cls.of_model(model, data)

    @classmethod
    def of_model(cls, model: Model, data: dict) -> Problem:
        m = model.arrays
        ids = model.node_ids
        joints = {n: (float(m.pos0[q, 0]), float(m.pos0[q, 1])) for q, n in enumerate(ids)}
        members, beams = {}, []
        for entry in data.get("members", []):
            members[entry["id"]] = (entry["i"], entry["j"])
            if entry.get("kind", "bar") not in AXIAL:
                beams.append(entry["id"])
        reactions = _reactions(model, data, joints)
        end = model.load_end_time
        f = load_vector(model, end)
        gravity = np.zeros_like(f)
        gravity[:, 1] = -m.mass[:, 1] * m.gravity
        loads = _point_loads(model, joints, end)
        weights = [(ids[q], float(gravity[q, 1])) for q in range(len(ids)) if gravity[q, 1]]
        loads += [Force(_("the weight at {node}").format(node=n), *joints[n], 0.0, w, where=n) for n, w in weights]
        loads += _distributed(model, joints)
        at_joints = {ids[q]: (float(f[q, 0]), float(f[q, 1])) for q in range(len(ids))}
        spread = [(ids[ml.i], ids[ml.j], ml.wi, ml.wj, ml.direction) for ml in model.member_loads]
        return cls(joints, members, reactions, [ld for ld in loads if ld.fx or ld.fy or ld.m], at_joints, beams, spread)


def _reactions(model: Model, data: dict, joints) -> list[Unknown]:
    rollers = {model.node_ids[q]: (nx, ny) for q, nx, ny in model.rollers}
    out = []
    for s in data.get("supports", []):
        node, fix = s["node"], s.get("fix", [])
        x, y = joints[node]
        if node in rollers:
            nx, ny = rollers[node]
            out.append(Unknown(f"R_{node}", x, y, nx, ny, key=("reaction", node, "n"), where=node))
            continue
        if "x" in fix:
            out.append(Unknown(f"{node}_x", x, y, 1.0, 0.0, key=("reaction", node, "x"), where=node))
        if "y" in fix:
            out.append(Unknown(f"{node}_y", x, y, 0.0, 1.0, key=("reaction", node, "y"), where=node))
        if "rot" in fix and any(node in (e["i"], e["j"]) and e.get("kind", "bar") not in AXIAL for e in data.get("members", [])):
            out.append(Unknown(f"M_{node}", x, y, couple=True, key=("reaction", node, "rot"), where=node))
    return out


def _point_loads(model: Model, joints, t: float) -> list[Force]:
    from equilibria.engine.histories import scale

    m = model.arrays
    out = []
    for e in range(model.point_loads):
        node = model.node_ids[int(m.load_node[e])]
        s = scale(m, int(m.load_hist[e]), t) if m.load_hist[e] >= 0 else 1.0
        fx, fy, mz = (float(v) * s for v in m.load_f[e])
        size = math.hypot(fx, fy)
        name = _("{size} kN at {node}").format(size=figure(size / 1e3), node=node) if size else _("the couple at {node}").format(node=node)
        out.append(Force(name, *joints[node], fx, fy, mz, where=node))
    return out


def _distributed(model: Model, joints) -> list[Force]:
    """Each member load as its resultant, at its centroid (engine/member_loads.py resultant)."""
    out = []
    ids = model.node_ids
    for ml in model.member_loads:
        (xi, yi), (xj, yj) = joints[ids[ml.i]], joints[ids[ml.j]]
        length = math.hypot(xj - xi, yj - yi)
        total, a = resultant(ml.wi, ml.wj, length)
        ux, uy = (xj - xi) / length, (yj - yi) / length
        d = {"x": (1.0, 0.0), "y": (0.0, 1.0), "normal": (-uy, ux)}[ml.direction]
        name = _("the resultant of the load on {member}").format(member=model.member_ids[ml.member])
        out.append(Force(name, xi + a * ux, yi + a * uy, total * d[0], total * d[1]))
    return out


@dataclass
class Worked:
    """The method's steps, and every value it found (by unknown name) [N, N m]."""

    steps: list[Step]
    values: dict[str, float]
    limit: str = ""  # why the method stopped short, in words ("" when it found everything)
    problem: Problem | None = None  # what was worked (the page draws it: game/tutor/page.py)


def method_of_joints(problem: Problem) -> Worked:
    """The reactions, the members that carry nothing by inspection, then joint by joint."""
    p = problem
    if p.beams:
        raise NotStatics(_("members {names} carry bending: this is a frame, not a truss of two-force members").format(names=", ".join(p.beams)))
    m, r, j = len(p.members), len([u for u in p.reactions if not u.couple]), len(p.joints)
    count = Step(_("Count: m + r against 2j"), notes=[_("m + r = {m} + {r} = {mr}, 2j = {j2}").format(m=m, r=r, mr=m + r, j2=2 * j)])
    if m + r < 2 * j:
        raise NotStatics(_("m + r = {mr} < 2j = {j2}: a mechanism, it cannot stand, and statics has no answer").format(mr=m + r, j2=2 * j))
    if m + r > 2 * j:
        raise NotStatics(
            _("m + r = {mr} > 2j = {j2}: statically indeterminate; statics alone does not give the forces (they depend on the stiffnesses)").format(
                mr=m + r, j2=2 * j
            )
        )
    steps, values = [count], {}
    if r == 3:
        whole = solve_body(_("The whole truss"), p.reactions, p.loads, p.span)
        whole.notes.append(_("Three reactions: the whole truss's three equations give them before any joint."))
        steps.append(whole)
        for eq in whole.equations:
            values.update(eq.found)
    zero = _zero_by_inspection(p, values)
    if zero:
        steps.append(Step(_("Members that carry nothing, by inspection"), notes=[f"F_{mid} = 0: {why}" for mid, why in zero], members=[m for m, _ in zero]))
        values.update({f"F_{mid}": 0.0 for mid, _ in zero})
    limit = _joints(p, values, steps)
    return Worked(steps, values, limit, p)


def _ends(p: Problem, node: str) -> list[str]:
    return [mid for mid, (i, j) in p.members.items() if node in (i, j)]


def _other(p: Problem, mid: str, node: str) -> str:
    i, j = p.members[mid]
    return j if i == node else i


def _zero_by_inspection(p: Problem, values: dict) -> list[tuple[str, str]]:
    """The two rules, applied until nothing more follows: an unloaded joint with two
    members not in line: both carry nothing; an unloaded joint with three members, two in
    line: the third carries nothing."""
    zero: list[tuple[str, str]] = []
    held = {u.key[1] for u in p.reactions}
    changed = True
    while changed:
        changed = False
        for node, (x, y) in p.joints.items():
            fx, fy = p.at_joints.get(node, (0.0, 0.0))
            if node in held or math.hypot(fx, fy) > 1e-9 * max(1.0, max(abs(f.fx) + abs(f.fy) for f in p.loads) if p.loads else 1.0):
                continue
            live = [mid for mid in _ends(p, node) if f"F_{mid}" not in values and mid not in {z for z, _ in zero}]
            dirs = {mid: pull((x, y), p.joints[_other(p, mid, node)]) for mid in live}
            if len(live) == 2 and abs(_cross(dirs[live[0]], dirs[live[1]])) > 1e-9:
                why = _("joint {node} has two members not in line and no load").format(node=node)
                zero += [(mid, why) for mid in live]
                changed = True
            elif len(live) == 3:
                for a in range(3):
                    b, c = [k for k in range(3) if k != a]
                    if abs(_cross(dirs[live[b]], dirs[live[c]])) <= 1e-9:
                        zero.append((live[a], _("at joint {node}, {b} and {c} are in line and nothing else loads it").format(node=node, b=live[b], c=live[c])))
                        changed = True
                        break
    return zero


def _cross(u, v) -> float:
    return u[0] * v[1] - u[1] * v[0]


def _joints(p: Problem, values: dict, steps: list[Step]) -> str:
    """Joint after joint with at most two unknowns, the fewest first (then top to bottom,
    left to right); what stopped it, in words, or ""."""
    while True:
        order = sorted(p.joints.items(), key=lambda kv: (-kv[1][1], kv[1][0], kv[0]))
        candidates = [(len(u), k, node, u) for k, (node, _xy) in enumerate(order) if 0 < len(u := _joint_unknowns(p, node, values)) <= 2]
        step = None
        for _count, _k, node, unknown in sorted(candidates, key=lambda c: c[:2]):
            try:  # two unknowns in line (a chord through an unloaded joint) cannot be told apart there: the next joint
                step = solve_body(_("Joint {node}").format(node=node), unknown, _joint_loads(p, node, values), p.span)
                step.joints = [node]
                break
            except NotStatics:
                continue
        left = [mid for mid in p.members if f"F_{mid}" not in values]
        if step is None and left:
            step = _section(p, values, left)
        if step is None:
            if not left:
                return ""
            return _("no joint is left with two unknowns or fewer, and no section through three of {names} frees a part").format(names=", ".join(left))
        for eq in step.equations:
            values.update(eq.found)
        steps.append(step)


MOST_SECTIONS = 20_000  # triples of members tried for a section (a truss of some 50 unknown members)


def _section(p: Problem, values: dict, left: list[str]) -> Step | None:
    """The method of sections where no joint is left with two unknowns: three members whose
    cut frees a part of the truss, that part's three equations (moments first about where
    two of the cut members meet) for their forces; None when no such three are found."""
    from itertools import combinations, islice

    for trio in islice(combinations(left, 3), MOST_SECTIONS):
        part = _part_freed(p, set(trio))
        if part is None:
            continue
        unknowns = []
        for mid in trio:
            i, j = p.members[mid]
            inside, outside = (i, j) if i in part else (j, i)
            x, y = p.joints[inside]
            unknowns.append(Unknown(f"F_{mid}", x, y, *pull((x, y), p.joints[outside]), key=("member", mid), where=inside))
        held = [u for u in p.reactions if u.key[1] in part]
        if any(u.name not in values for u in held):
            continue  # the part has a reaction not known yet: more than three unknowns
        loads = [f for node in sorted(part) for f in _outside_loads(p, node, values)]
        try:
            step = solve_body(_("A section through {a}, {b} and {c}").format(a=trio[0], b=trio[1], c=trio[2]), unknowns, loads, p.span)
        except NotStatics:
            continue
        step.notes.append(
            _("No joint is left with two unknowns: the cut through three members frees the part with joints {joints}.").format(joints=", ".join(sorted(part)))
        )
        step.joints, step.members = sorted(part), list(trio)
        return step
    return None


def _part_freed(p: Problem, cut: set[str]) -> set[str] | None:
    """The joints of the smaller part the members `cut` free (the truss falls in two), or None."""
    links: dict[str, set[str]] = {n: set() for n in p.joints}
    for mid, (i, j) in p.members.items():
        if mid not in cut:
            links[i].add(j)
            links[j].add(i)
    start = next(iter(p.joints))
    seen, todo = {start}, [start]
    while todo:
        for nxt in links[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    rest = set(p.joints) - seen
    if not rest or not _connected(links, rest):
        return None
    crossing = [mid for mid in cut if (p.members[mid][0] in seen) != (p.members[mid][1] in seen)]
    if len(crossing) != len(cut):
        return None  # one of the three lies inside a part: it is no cut
    return seen if len(seen) <= len(rest) else rest


def _connected(links: dict[str, set[str]], nodes: set[str]) -> bool:
    start = next(iter(nodes))
    seen, todo = {start}, [start]
    while todo:
        for nxt in (links[todo.pop()] & nodes) - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen == nodes


def _outside_loads(p: Problem, node: str, values: dict) -> list[Force]:
    """What acts on a part at `node` from outside it: its load and its reactions found."""
    x, y = p.joints[node]
    fx, fy = p.at_joints.get(node, (0.0, 0.0))
    out = [Force(_("the load at {node}").format(node=node), x, y, fx, fy, where=node)] if (fx or fy) else []
    for u in p.reactions:
        if u.key[1] == node and values.get(u.name) and not u.couple:
            out.append(Force(f"{u.name} = {figure(values[u.name] / 1e3)} kN", x, y, values[u.name] * u.ux, values[u.name] * u.uy, where=node))
    return out


def _joint_unknowns(p: Problem, node: str, values: dict) -> list[Unknown]:
    x, y = p.joints[node]
    live = [mid for mid in _ends(p, node) if f"F_{mid}" not in values]
    out = [Unknown(f"F_{mid}", x, y, *pull((x, y), p.joints[_other(p, mid, node)]), key=("member", mid), where=node) for mid in live]
    return out + [u for u in p.reactions if u.key[1] == node and u.name not in values and not u.couple]


def _joint_loads(p: Problem, node: str, values: dict) -> list[Force]:
    x, y = p.joints[node]
    fx, fy = p.at_joints.get(node, (0.0, 0.0))
    out = [Force(_("the load at {node}").format(node=node), x, y, fx, fy)] if (fx or fy) else []
    for mid in _ends(p, node):
        name = f"F_{mid}"
        if values.get(name):
            ux, uy = pull((x, y), p.joints[_other(p, mid, node)])
            out.append(Force(f"{name} = {figure(values[name] / 1e3)} kN", x, y, values[name] * ux, values[name] * uy))
    for u in p.reactions:
        if u.key[1] == node and u.name in values and values[u.name] and not u.couple:
            out.append(Force(f"{u.name} = {figure(values[u.name] / 1e3)} kN", x, y, values[u.name] * u.ux, values[u.name] * u.uy))
    return out
