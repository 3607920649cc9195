"""A joint cut out of a structure: the free body of the method of joints, as the level
editor drafts it (game/course/authoring.py `isolate_joint`). No pygame.

The joint keeps its loads; each member that meets it is cut halfway along, a stub of
it left on the joint, and the stub's free end is where the cut's force acts (a bar's
along the bar: the student gives its size and sense; a beam's: two components and a
moment). Statics gives a joint two equations, so the cut members are at most the two
asked (`asked`, the first two that are not on one line by default); each other member's
force, and the support's reaction where the joint is a support, is given, worked out
from the whole structure (its linear statics, the direct stiffness method's: a
student's method of joints finds the same), as a load where it acts: a member's at its
stub's end, along it, as the shipped joints-01 gives AB's and BE's.
"""

from __future__ import annotations

import math

from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.schema import fresh_id
from equilibria.words.i18n import _

STUB = 0.5  # the share of a cut member left on the joint
MOST_ASKED = 2  # a joint's two equations of equilibrium find two unknown forces


def statics(doc: dict) -> tuple[dict[str, float], dict[str, dict]]:
    """(Each member's axial force [N], tension positive; each support's reaction [N, N m])
    of the structure `doc` (a level document, on its supports), its linear statics.
    ValueError when it is a mechanism."""
    level = Level.model_validate({k: v for k, v in doc.items() if not k.startswith("_") and k not in ("cut", "player", "goal", "kind")} | {"kind": "sandbox"})
    sim = Simulation(build_model(level.model_data(), statics_only=True), "linear")
    if not sim.solve_linear().at_rest:
        raise ValueError(_("The structure is a mechanism: a joint's forces cannot be worked out."))
    results = sim.results()
    return {k: float(r["axial"]) for k, r in results["members"].items()}, results["reactions"]


def joint_body(doc: dict, node: str, asked: list[str] | None = None) -> dict:
    """The document `doc` (the whole structure, on its supports; world and the rest kept) cut
    down to joint `node` as the module says; `asked`: the members whose forces the student
    gives (default: the first two at the joint not on one line). ValueError, said why."""
    at = {n["id"]: n for n in doc["nodes"]}
    meeting = [m for m in doc.get("members") or [] if node in (m["i"], m["j"])]
    if node not in at or not meeting:
        raise ValueError(_("No member meets {node}: a joint is where members meet.").format(node=node))
    forces, reactions = statics(doc)
    asked = _default_asked(at, node, meeting) if asked is None else asked
    body = {k: v for k, v in doc.items() if k not in ("nodes", "members", "supports", "loads", "cut", "vary")}
    joint = dict(at[node])
    nodes, members, loads, cuts = [joint], [], [dict(ld) for ld in doc.get("loads") or [] if ld["node"] == node], []
    taken = {node} | {m["id"] for m in meeting}
    for m in meeting:
        other = at[m["j"] if m["i"] == node else m["i"]]
        end = fresh_id(other["id"], taken)  # joints-01's stub ends are A1, E1, …
        taken.add(end)
        x = joint["x"] + STUB * (other["x"] - joint["x"])
        y = joint["y"] + STUB * (other["y"] - joint["y"])
        nodes.append({"id": end, "x": round(x, 9), "y": round(y, 9)})
        members.append({**m, "i": node, "j": end})
        if m["id"] in asked:
            cuts.append({"node": end, "what": "beam" if m.get("kind") == "beam" else "bar", "member": m["id"]})
        else:  # its force given: tension pulls the joint toward the member's other end
            length = math.dist((joint["x"], joint["y"]), (other["x"], other["y"]))
            t = forces[m["id"]]
            loads.append({"node": end, "fx": _clean(t * (other["x"] - joint["x"]) / length), "fy": _clean(t * (other["y"] - joint["y"]) / length)})
    if node in reactions:  # the joint held: its reaction, worked out, given
        r = reactions[node]
        given = {k: _clean(float(r.get(k, 0.0))) for k in ("fx", "fy", "m")}
        loads.append({"node": node, **{k: v for k, v in given.items() if v}})
    body.update(nodes=nodes, members=members, loads=[ld for ld in loads if any(ld.get(k) for k in ("fx", "fy", "m"))], cut=cuts)
    return body


def _default_asked(at: dict, node: str, meeting: list[dict]) -> list[str]:
    """The first MOST_ASKED members at `node` (in the order of the file) not on one line."""
    asked: list[str] = []
    directions: list[tuple[float, float]] = []
    for m in meeting:
        other = at[m["j"] if m["i"] == node else m["i"]]
        d = (other["x"] - at[node]["x"], other["y"] - at[node]["y"])
        if all(abs(d[0] * e[1] - d[1] * e[0]) > 1e-9 * math.hypot(*d) * math.hypot(*e) for e in directions):
            asked.append(m["id"])
            directions.append(d)
        if len(asked) == MOST_ASKED:
            break
    return asked


def _clean(x: float) -> float:
    """Round-off below a micronewton as 0, the rest to the micronewton: the last bits of the
    solve vary with the machine's BLAS; finer than that, so that the given forces balance
    the joint to the answer's round-off (game/rules/answer.py CONSISTENT: 1e-9 of the loads)."""
    return 0.0 if abs(x) < 1e-6 else round(x, 6)
