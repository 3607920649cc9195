"""Both edges of the judging rule, on every free-body and balance level of the course
(docs/level-format.md "Judging", game/rules/free_body.py, game/rules/equilibrium.py).

Free body: each unknown u of each level, its answer from the level's reference solution
(hand statics, levels/solutions/), is moved by 0.95 and 1.05 times what it is allowed,

    allowed = max(2 % · |answer|, 0.1 % · F)           (a force component, a member force)
    allowed = max(2 % · |answer|, 0.1 % · F · ℓ)       (a moment)

F the largest given load and ℓ the shortest distance between two nodes, both computed
here from the level file: 0.95 passes, 1.05 fails, with every other unknown right.

Balance: each force component the reference solution gives is moved until the first sum
reaches its bound (ΣFx, ΣFy, ΣM about the moment point, each within 2 % of half the sum of
its terms' sizes, or the floor), computed here by hand; 0.97 of that passes, 1.03 fails.
A 3 % margin each side: the bound itself moves a little with the change.
"""

from __future__ import annotations

import math
from itertools import combinations

import pytest
from judging import LEVELS, verdict

from equilibria.course.syllabus import load_course
from equilibria.files.store import read_json
from equilibria.rules.answer import unit

TAU, PHI = 0.02, 0.01
PHI_U = 0.001  # an unknown's floor (the sums keep PHI)


def kind_of(level_id: str) -> str:
    return read_json(LEVELS / f"{level_id}.json")["kind"]


COURSE = load_course().level_ids()
FREE_BODY = [lid for lid in COURSE if kind_of(lid) == "free_body"]
BALANCE = [lid for lid in COURSE if kind_of(lid) == "balance" and not any(s.get("contact") for s in read_json(LEVELS / f"{lid}.json").get("supports", []))]


def hand_scales(data: dict) -> tuple[float, float]:
    """(F [N], ℓ [m]) from the level file."""
    where = [(n["x"], n["y"]) for n in data["nodes"]]
    gaps = [math.dist(a, b) for a, b in combinations(where, 2)]
    by_id = {n["id"]: (n["x"], n["y"]) for n in data["nodes"]}
    members = {m["id"]: m for m in data["members"]}
    big = max([math.hypot(ld.get("fx", 0.0), ld.get("fy", 0.0)) for ld in data.get("loads", [])] + [0.0])
    for ml in data.get("member_loads", []):
        m = members[ml["member"]]
        wi, wj = (ml["w"], ml["w"]) if "w" in ml else (ml.get("wi", 0.0), ml.get("wj", 0.0))
        big = max(big, 0.5 * (abs(wi) + abs(wj)) * math.dist(by_id[m["i"]], by_id[m["j"]]))
    return big, min(gaps)


def unknowns(data: dict) -> list[tuple[str, tuple[float, float] | None]]:
    """(node, direction) of each unknown, None for a moment, from the file's cuts."""
    by_id = {n["id"]: (n["x"], n["y"]) for n in data["nodes"]}
    members = {m["id"]: m for m in data["members"]}
    out = []
    for c in data["cut"]:
        if c["what"] == "bar":
            m = members[c["member"]]
            other = m["j"] if m["i"] == c["node"] else m["i"]
            out.append((c["node"], unit((by_id[c["node"]][0] - by_id[other][0], by_id[c["node"]][1] - by_id[other][1]))))
            continue
        if c.get("along"):
            out.append((c["node"], unit(c["along"])))
            continue
        carries = c.get("carries") or (["x", "y", "rot"] if c["what"] == "beam" else ["x", "y"])
        out += [(c["node"], d) for axis, d in (("x", (1.0, 0.0)), ("y", (0.0, 1.0)), ("rot", None)) if axis in carries]
    return out


def moved(moves: list[dict], node: str, direction, delta: float) -> list[dict]:
    """The moves with unknown (node, direction) changed by delta [N or N m]."""
    out = [dict(m) for m in moves]
    kind = "add_moment" if direction is None else "add_force"
    target = next((m for m in out if m["type"] == kind and m["node"] == node), None)
    if target is None:
        target = {"type": kind, "node": node}
        out.append(target)
    if direction is None:
        target["m"] = target.get("m", 0.0) + delta
    else:
        target["fx"] = target.get("fx", 0.0) + delta * direction[0]
        target["fy"] = target.get("fy", 0.0) + delta * direction[1]
    return out


def free_body_cases():
    for lid in FREE_BODY:
        data = read_json(LEVELS / f"{lid}.json")
        for k in range(len(unknowns(data))):
            for sign in (1, -1):
                yield pytest.param(lid, k, sign, id=f"{lid}-u{k}-{'+' if sign > 0 else '-'}")


def test_every_free_body_and_balance_level_is_covered():
    assert len(FREE_BODY) >= 10 and len(BALANCE) >= 3


@pytest.mark.parametrize(("level_id", "k", "sign"), list(free_body_cases()))
def test_each_unknown_just_inside_passes_and_just_outside_fails(level_id, k, sign):
    data = read_json(LEVELS / f"{level_id}.json")
    moves = read_json(LEVELS / "solutions" / f"{level_id}.json")["moves"]
    node, direction = unknowns(data)[k]
    big, arm = hand_scales(data)
    force = next((m for m in moves if m["type"] == ("add_moment" if direction is None else "add_force") and m["node"] == node), {})
    if direction is None:
        answer, floor = force.get("m", 0.0), PHI_U * big * arm
    else:
        answer, floor = force.get("fx", 0.0) * direction[0] + force.get("fy", 0.0) * direction[1], PHI_U * big
    allowed = max(TAU * abs(answer), floor)
    inside = verdict(level_id, moved(moves, node, direction, sign * 0.95 * allowed))
    assert inside.passed, inside.reason
    outside = verdict(level_id, moved(moves, node, direction, sign * 1.05 * allowed))
    assert not outside.passed, (answer, allowed)
    assert "Not right:" in outside.reason


# ------------------------------------------------------------------ balance


def hand_sums(data: dict, moves: list[dict], about: str) -> tuple[dict, dict]:
    """(ΣFx, ΣFy, ΣM about `about`) and each one's bound, by hand."""
    where = {n["id"]: (n["x"], n["y"]) for n in data["nodes"]}
    forces = [(ld["node"], ld.get("fx", 0.0), ld.get("fy", 0.0)) for ld in data["loads"]]
    forces += [(m["node"], m.get("fx", 0.0), m.get("fy", 0.0)) for m in moves]
    px, py = where[about]
    net = {"fx": sum(f[1] for f in forces), "fy": sum(f[2] for f in forces)}
    net["m"] = sum((where[n][0] - px) * fy - (where[n][1] - py) * fx for n, fx, fy in forces)
    size = {"fx": 0.5 * sum(abs(f[1]) for f in forces), "fy": 0.5 * sum(abs(f[2]) for f in forces)}
    size["m"] = 0.5 * sum(abs(where[n][0] - px) * abs(fy) + abs(where[n][1] - py) * abs(fx) for n, fx, fy in forces)
    big, arm = hand_scales(data)
    bound = {"fx": max(TAU * size["fx"], PHI * big), "fy": max(TAU * size["fy"], PHI * big), "m": max(TAU * size["m"], PHI * big * arm)}
    return net, bound


def edge(data, moves, about, i, axis, sign) -> float:
    """The change of force i's `axis` component at which the first sum reaches its bound."""

    def over(delta: float) -> bool:
        changed = [dict(m) for m in moves]
        changed[i][axis] = changed[i].get(axis, 0.0) + sign * delta
        net, bound = hand_sums(data, changed, about)
        return any(abs(net[k]) > bound[k] for k in net)

    lo, hi = 0.0, 1.0
    while not over(hi):
        hi *= 2
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if over(mid) else (mid, hi)
    return hi


def balance_cases():
    for lid in BALANCE:
        for i, _ in enumerate(read_json(LEVELS / "solutions" / f"{lid}.json")["moves"]):
            for axis in ("fx", "fy"):
                for sign in (1, -1):
                    yield pytest.param(lid, i, axis, sign, id=f"{lid}-f{i}-{axis}{'+' if sign > 0 else '-'}")


@pytest.mark.parametrize(("level_id", "i", "axis", "sign"), list(balance_cases()))
def test_each_force_just_inside_passes_and_just_outside_fails(level_id, i, axis, sign):
    data = read_json(LEVELS / f"{level_id}.json")
    moves = read_json(LEVELS / "solutions" / f"{level_id}.json")["moves"]
    about = (data.get("goal") or {}).get("moment_about") or data["loads"][0]["node"]
    delta = edge(data, moves, about, i, axis, sign)
    for factor, passed in ((0.97, True), (1.03, False)):
        changed = [dict(m) for m in moves]
        changed[i][axis] = changed[i].get(axis, 0.0) + sign * factor * delta
        v = verdict(level_id, changed)
        assert v.passed is passed, (factor, delta, v.reason)
