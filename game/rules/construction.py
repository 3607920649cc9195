"""Build and stability: the player adds nodes, members and supports to a level.

`build`: new nodes inside the build zone, members from the level's sections, within a
budget; passed when, under the level's loads (a moving load crosses first, if the goal
has one), nothing breaks, no node moves more than the limit, and the structure comes to
rest for the hold time. The score is the cost.

`stability`: the level's structure is a mechanism (its stiffness has a zero mode); the
player adds members or supports until it is a structure. The verdict names the free
motion that is left, if any.

Both are judged by the engine: the direct stiffness method finds a mechanism and says how
it moves; a time run (RK4) under the loads finds what breaks, sags or keeps moving.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from equilibria.engine.determinacy import truss_count
from equilibria.engine.linear import mechanism
from equilibria.engine.model import Model, ModelError, build_model
from equilibria.engine.results import BUCKLING, CABLE, member_results
from equilibria.engine.simulation import RestCriteria, Simulation, Unstable
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.schema import pinned_fields, support_fields, support_key, support_words
from equilibria.format.solution import AddMember, AddNode, AddSupport, Solution
from equilibria.rules.common import (
    IMPERFECTION,
    JUDGE,
    Verdict,
    between_batches,
    drafted_world,
    free_motion,
    hold_time,
    jittered,
    limit,
    listing,
    snapshot,
    within_budget,
)
from equilibria.rules.kind import Kind
from equilibria.rules.motion import MOTION_TOL
from equilibria.words.figures import figure, fixed, kn, money, percent
from equilibria.words.i18n import LANGUAGES, N_, _, ngettext, plain, speaking
from equilibria.words.text import named

SETTLE_SECONDS = 20.0  # time allowed after the loads are on to come to rest [s]
BATCH = 0.02  # the load test looks at the structure this often [s]
FALLEN = 0.1  # a node that moved this fraction of the structure's size has fallen, not sagged


def support_price(player, fix) -> float:
    """What a new support costs: a fixed base (it fixes the rotation) its own price if
    the level gives one, any other support `support_cost`."""
    if "rot" in fix and player.fixed_support_cost is not None:
        return player.fixed_support_cost
    return player.support_cost or 0.0


def member_price(section, length: float) -> float:
    """What a new member costs: its section's price per metre times its length [m]."""
    return section.cost * length


def node_price(player) -> float:
    """What a new joint (node) costs."""
    return player.node_cost or 0.0


@dataclass
class Design:
    """The level's model with the player's additions, and what they cost."""

    data: dict
    cost: float = 0.0
    nodes: dict[str, tuple[float, float]] = field(default_factory=dict)  # added: id → (x, y)
    members: dict[str, tuple[str, str, float]] = field(default_factory=dict)  # added: id → (i, j, length)
    supports: list[str] = field(default_factory=list)  # nodes given a support
    sections: dict[str, str] = field(default_factory=dict)  # added member id → its section's name

    def figures(self, level: Level) -> dict:
        return {
            "cost": self.cost,
            "budget": level.player.budget,
            "nodes_added": len(self.nodes),
            "members_added": len(self.members),
            "supports_added": len(self.supports),
        }


def design(level: Level, solution: Solution) -> Design:
    """Apply the player's moves to the level. ValueError ('moves[k].field: problem') for
    a move that names something unknown or reuses an id: that is a broken solution, not
    a wrong answer."""
    player = level.player
    sections = player.sections or {}
    d = Design(level.model_data())
    d.data.setdefault("members", [])
    d.data.setdefault("supports", [])
    where = {n.id: (n.x, n.y) for n in level.nodes}
    member_ids = {m.id for m in level.members}
    supported = {s.node for s in level.supports}
    for k, move in enumerate(solution.moves):
        f = f"moves[{k}]"
        if isinstance(move, AddNode):
            if move.id in where:
                raise ValueError(f"{f}.id: " + _("node {id} already exists").format(id=named(move.id)))
            where[move.id] = d.nodes[move.id] = (move.x, move.y)
            d.data["nodes"].append({"id": move.id, "x": move.x, "y": move.y})
            d.cost += node_price(player)
        elif isinstance(move, AddMember):
            section = sections.get(move.section)
            if section is None:
                offered = ", ".join(sorted(sections)) or _("none")
                raise ValueError(f"{f}.section: " + _("unknown section {id} (this level offers {offered})").format(id=named(move.section), offered=offered))
            for end in ("i", "j"):
                if getattr(move, end) not in where:
                    raise ValueError(f"{f}.{end}: " + _("unknown node {id}").format(id=named(getattr(move, end))))
            if move.id in member_ids:
                raise ValueError(f"{f}.id: " + _("member {id} already exists").format(id=named(move.id)))
            member_ids.add(move.id)
            length = math.dist(where[move.i], where[move.j])
            d.members[move.id] = (move.i, move.j, length)
            d.sections[move.id] = move.section
            d.data["members"].append(
                {"id": move.id, "i": move.i, "j": move.j, **pinned_fields(section.member_fields(), move.release)},
            )
            d.cost += member_price(section, length)
        elif isinstance(move, AddSupport):
            if move.node not in where:
                raise ValueError(f"{f}.node: " + _("unknown node {id}").format(id=named(move.node)))
            allowed = [support_key(t) for t in player.supports or []]
            if move.key not in allowed:
                kinds = "; ".join(support_words(k) if k[:1] == ("roller",) else ", ".join(k) for k in allowed) or _("none")
                what = support_words(move.key) if move.roller else _("support fixing {fix}").format(fix=", ".join(move.fix))
                said = _("this level does not offer a {what} (it offers: {offered})").format(what=what, offered=kinds)
                raise ValueError(f"{f}.{'roller' if move.roller else 'fix'}: {said}")
            if move.node in supported:
                raise ValueError(f"{f}.node: " + _("node {id} already has a support").format(id=named(move.node)))
            supported.add(move.node)
            d.supports.append(move.node)
            d.data["supports"].append({"node": move.node, **support_fields(move.key)})
            d.cost += support_price(player, move.fix)
    return d


def rule_broken(level: Level, d: Design) -> str | None:
    """The first rule of the level that the design breaks, in words (None: all kept)."""
    player = level.player
    if player.zone:
        for nid, point in d.nodes.items():
            if not inside(point, player.zone):
                return _("Node {node} at ({x} m, {y} m) is outside the build zone.").format(node=nid, x=figure(point[0]), y=figure(point[1]))
    if player.max_members is not None and len(d.members) > player.max_members:
        said = ngettext(
            "You may add at most {n} member; this design adds {given}.", "You may add at most {n} members; this design adds {given}.", player.max_members
        )
        return said.format(n=player.max_members, given=len(d.members))
    if player.max_supports is not None and len(d.supports) > player.max_supports:
        said = ngettext(
            "You may add at most {n} support; this design adds {given}.", "You may add at most {n} supports; this design adds {given}.", player.max_supports
        )
        return said.format(n=player.max_supports, given=len(d.supports))
    if player.nodes:
        for node in d.supports:
            if node not in player.nodes:
                return _("Supports may go at {nodes}, not at {node}.").format(nodes=", ".join(player.nodes), node=node)
    if player.max_length:
        for mid, (*_ends, length) in d.members.items():
            if length > player.max_length * (1 + 1e-9):
                return _("Member {member} is {length} m long; the longest allowed is {most} m.").format(
                    member=mid, length=figure(length), most=figure(player.max_length)
                )
    pairs: dict[frozenset, str] = {}
    for m in d.data["members"]:
        pair = frozenset((m["i"], m["j"]))
        if pair in pairs:
            return _("Member {member} doubles {other} between {i} and {j}.").format(member=m["id"], other=pairs[pair], i=m["i"], j=m["j"])
        pairs[pair] = m["id"]
    if player.budget is not None and d.cost > player.budget * (1 + 1e-9):
        return _("This design costs {cost}; the budget is {budget}.").format(cost=money(d.cost), budget=money(player.budget))
    return None


def inside(point: tuple[float, float], polygon: list[tuple[float, float]], tol: float = 1e-9) -> bool:
    """Whether a point lies in a polygon or on its edge (ray casting; edges count)."""
    x, y = point
    size = max(max(abs(px), abs(py)) for px, py in polygon) or 1.0
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        dx, dy = x2 - x1, y2 - y1
        t = ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
        t = min(max(t, 0.0), 1.0)
        if math.hypot(x1 + t * dx - x, y1 + t * dy - y) <= tol * size:
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * dx / dy:
            hit = not hit
    return hit


@dataclass(frozen=True)
class BillRow:
    """One member of a design: its section (None: the level's own member, not the
    player's to price), its length [m] and its price (None: not the player's)."""

    member: str
    section: str | None
    length: float
    price: float | None
    shown: int | None = None  # [$] the price as shown, in whole dollars (Bill)


@dataclass(frozen=True)
class Bill:
    """What a design costs, member by member and in parts, by the level's cost rules:
    `rows` every member (the level's first, then the player's in the order built);
    `parts` (words, amount) — the members of each section, the new joints, the supports —
    which add up to `total` (None: nothing has a price here); `budget` the level's
    (None: none).

    Shown in whole dollars so that every shown figure adds up: `shown` gives each part's
    amount as the sum of its shown rows (a section's) or its own (joints, supports), and
    those add to `shown_total`, the total rounded to the dollar (what the status line
    says). Each row's shown price is its price rounded down or up, the dollars left over
    going to the rows with the largest cents (largest remainders), so none is off by a
    dollar or more."""

    rows: list[BillRow]
    parts: list[tuple[str, float]]
    total: float | None
    budget: float | None
    shown: list[int] = field(default_factory=list)  # [$] each part's amount as shown

    @property
    def shown_total(self) -> int | None:
        return None if self.total is None else sum(self.shown)


def whole_dollars(amounts: list[float]) -> list[int]:
    """`amounts` [$] in whole dollars that add to their sum rounded to the dollar: each
    rounded down, then one more to the ones with the largest cents, as many as the sum
    needs (largest remainders; ties to the first)."""
    floors = [math.floor(x) for x in amounts]
    short = round(sum(amounts)) - sum(floors)
    order = sorted(range(len(amounts)), key=lambda k: -(amounts[k] - floors[k]))
    for k in order[: max(0, min(short, len(amounts)))]:
        floors[k] += 1
    return floors


def bill(level: Level, d: Design) -> Bill:
    """The bill of design `d` on `level` (see Bill)."""
    player = level.player
    sections = player.sections or {}
    where = {n["id"]: (float(n["x"]), float(n["y"])) for n in d.data["nodes"]}
    own = [BillRow(m["id"], None, math.dist(where[m["i"]], where[m["j"]]), None) for m in d.data["members"] if m["id"] not in d.members]
    priced = [(mid, d.sections[mid], length, member_price(sections[d.sections[mid]], length)) for mid, (_, _, length) in d.members.items()]
    parts: list[tuple[str, float]] = []
    for name, section in sections.items():
        lengths = [length for mid, (_, _, length) in d.members.items() if d.sections[mid] == name]
        if lengths:
            metres = sum(lengths)
            said = ngettext("{n} {section} member, {metres} m at {price}/m", "{n} {section} members, {metres} m at {price}/m", len(lengths))
            shown = said.format(n=len(lengths), section=section.shown(name), metres=fixed(metres, 2), price=money(section.cost))
            parts.append((shown, member_price(section, metres)))
    extras: list[tuple[str, float]] = []
    if d.nodes:
        said = ngettext("{n} new joint at {price}", "{n} new joints at {price}", len(d.nodes)).format(n=len(d.nodes), price=money(node_price(player)))
        extras.append((said, len(d.nodes) * node_price(player)))
    if d.supports:
        fixes = {s["node"]: s["fix"] for s in d.data["supports"]}
        said = ngettext("{n} new support", "{n} new supports", len(d.supports)).format(n=len(d.supports))
        extras.append((said, sum(support_price(player, fixes[n]) for n in d.supports)))
    whole = whole_dollars([price for *_, price in priced] + [amount for _, amount in extras])
    rows = own + [BillRow(mid, name, length, price, dollars) for (mid, name, length, price), dollars in zip(priced, whole, strict=False)]
    shown = [sum(r.shown for r in rows if r.section == name and r.shown is not None) for name in sections if any(r.section == name for r in rows[len(own) :])]
    shown += whole[len(priced) :]
    return Bill(rows, parts + extras, d.cost, player.budget, shown)


@dataclass
class LoadTest:
    """What the time run under the loads saw."""

    sim: Simulation
    start: Simulation  # the run as it started, for the game to show it again
    worst: float = 0.0  # largest node displacement [m]
    worst_node: str = ""
    at_rest: bool = False
    blew_up: str = ""
    blew_up_words: object = None  # the engine's Words (engine/words.py): why it blew up, for the student's language
    utilisation: dict[str, float] = field(default_factory=dict)  # member id → peak |N| / capacity
    peak_force: dict[str, float] = field(default_factory=dict)  # member id → N [N] when its use was highest (tension +)
    broken: list[dict] = field(default_factory=list)  # in the order they broke
    slack: list[str] = field(default_factory=list)  # cables carrying nothing at the end

    def figures(self) -> dict:
        peak = max(self.utilisation.items(), key=lambda kv: kv[1], default=(None, 0.0))
        return {
            "max_displacement": self.worst,
            "worst_node": self.worst_node,
            "at_rest": self.at_rest,
            "time": self.sim.time,
            "broken": self.broken,
            "most_loaded": {"member": peak[0], "utilisation": peak[1]},
            "slack_cables": self.slack,
        }


def load_test(model, hold: float, *, jitter: float = 0.0) -> LoadTest:
    """Run the model from rest (RK4) until the loads are all on (a moving load has
    crossed) and it has then been at rest for `hold` seconds, or SETTLE_SECONDS more
    have passed. Members break as the model says; their force at the last look before
    the break tells tension from compression."""
    sim = Simulation(model, JUDGE, rest=RestCriteria(hold=hold))
    within_budget(sim.dt, model.load_end_time + SETTLE_SECONDS + hold)
    if jitter:
        jittered(sim, jitter)
    test = LoadTest(sim, snapshot(sim))
    pos0 = model.arrays.pos0[:, :2]
    loads_on = model.load_end_time
    was_broken = np.zeros(len(model.member_ids), dtype=bool)
    while True:
        before = member_results(sim.model, sim.state).axial.copy()
        try:
            outcome = sim.advance(BATCH, until_rest=sim.time >= loads_on)
        except Unstable as exc:
            test.blew_up = str(exc)
            test.blew_up_words = exc.words
            test.worst = math.inf
            return test
        between_batches(sim.time, sim.rest_time if sim.time >= loads_on else 0.0, hold)  # at rest only once the loads are all on
        moved = np.hypot(*(sim.state.pos[:, :2] - pos0).T)
        q = int(np.argmax(moved))
        if moved[q] > test.worst:
            test.worst, test.worst_node = float(moved[q]), model.node_ids[q]
        r = member_results(sim.model, sim.state)
        broken, compression_by = r.broken, r.compression_by  # once a batch: each is an array made anew when read
        for k, mid in enumerate(r.ids):
            if broken[k] and not was_broken[k]:
                was_broken[k] = True
                tension = before[k] > 0
                how = "yielded in tension" if tension else ("buckled" if compression_by[k] == BUCKLING else "yielded in compression")
                test.broken.append({"member": mid, "time": float(r.break_time[k]), "how": how, "capacity": r.capacity(k, 1.0 if tension else -1.0)})
                test.utilisation[mid] = max(test.utilisation.get(mid, 0.0), 1.0)
                test.peak_force[mid] = float(before[k])
            elif not was_broken[k]:
                n = float(r.axial[k])
                cap = r.capacity(k, n)
                if n and math.isfinite(cap) and cap > 0 and abs(n) / cap >= test.utilisation.get(mid, 0.0):
                    test.utilisation[mid], test.peak_force[mid] = abs(n) / cap, n
                elif not (math.isfinite(cap) and cap > 0) and abs(n) >= abs(test.peak_force.get(mid, 0.0)):
                    test.peak_force[mid] = n  # no limit: the largest force, no use ratio
        test.broken.sort(key=lambda b: b["time"])  # several can break within one look
        test.at_rest = outcome.at_rest and sim.time >= loads_on
        if test.at_rest or sim.time >= loads_on + SETTLE_SECONDS + hold:
            slack = (r.compression_by == CABLE) & r.active & (r.axial <= 0.0)
            test.slack = [r.ids[k] for k in np.flatnonzero(slack).tolist()]
            return test


def member_table(test: LoadTest) -> tuple[list[dict], dict]:
    """Every member after a load test, as Bridge Designer gives it: its force [N] when
    its use was highest (tension +), its tension capacity (yield: strength × area), its
    compression capacity (the lesser of yield and buckling π²EI/L²; none for a cable,
    which cannot push), and its use ratio (|N| over the capacity of its sense), sorted
    by use ratio, highest first; and the first member to fail: the first that broke in
    the run, else the one with the highest use ratio."""
    r = member_results(test.sim.model, test.sim.state)
    limits = r.compression_by
    rows = []
    for k, mid in enumerate(r.ids):
        cap_t, cap_c = float(r.cap_t[k]), float(r.cap_c[k])
        cable = limits[k] == CABLE
        n = test.peak_force.get(mid, 0.0)
        use = test.utilisation.get(mid) if math.isfinite(cap_t) else None
        rows.append(
            {
                "member": mid,
                "force": n,
                "sense": "tension" if n > 0 else ("compression" if n < 0 else "none"),
                "tension_capacity": cap_t,
                "compression_capacity": cap_c,
                # English for a machine (check --json); marked so that the member table shows it in the student's language: _(row["compression_by"])
                "compression_by": N_("a cable cannot push") if cable else (N_("buckling") if limits[k] == BUCKLING else N_("yield")),
                "use": use if use is not None else (0.0 if math.isfinite(cap_t) else None),
            }
        )
    rows.sort(key=lambda r: (-(r["use"] or 0.0), r["member"]))
    if test.broken:
        broke = test.broken[0]
        first = {"member": broke["member"], "why": _(FIRST[broke["how"]]).format(time=fixed(broke["time"], 2))}
    elif rows and rows[0]["use"]:
        first = {"member": rows[0]["member"], "why": _("the highest use ratio, {share}").format(share=percent(rows[0]["use"]))}
    else:
        first = {"member": None, "why": _("no member has a limit here")}
    return rows, first


# How a member broke (the figures' "how", English for a machine) in the words of a verdict.
BROKE = {
    "buckled": N_("Member {member} buckled at {time} s: its force passed its buckling load π²EI/L², {capacity}."),
    "yielded in tension": N_("Member {member} yielded in tension at {time} s: its force passed its yield load (strength × area), {capacity}."),
    "yielded in compression": N_("Member {member} yielded in compression at {time} s: its force passed its yield load (strength × area), {capacity}."),
}
FIRST = {
    "buckled": N_("it buckled first, at {time} s"),
    "yielded in tension": N_("it yielded in tension first, at {time} s"),
    "yielded in compression": N_("it yielded in compression first, at {time} s"),
}


def _failure(test: LoadTest, allowed: float, hold: float) -> str | None:
    """Why the load test failed, in words (None: it passed)."""
    if test.broken:
        first = test.broken[0]
        said = _(BROKE[first["how"]]).format(member=first["member"], time=fixed(first["time"], 2), capacity=kn(first["capacity"]))
        more = len(test.broken) - 1
        if more:
            said += " " + ngettext("{n} more member broke after it.", "{n} more members broke after it.", more).format(n=more)
        return said
    if test.blew_up:
        cause = test.blew_up_words.fields.get("cause") if test.blew_up_words is not None else None
        cause = cause.said(_) if hasattr(cause, "said") else (cause or test.blew_up)
        return _("The structure collapsed violently ({cause}).").format(cause=cause)
    if test.worst > allowed:
        slack = ""
        if test.slack:
            said = ngettext(
                "Cable {cables} went slack: a cable can pull but never push.", "Cables {cables} went slack: a cable can pull but never push.", len(test.slack)
            )
            slack = " " + said.format(cables=listing(test.slack))
        if test.worst > FALLEN * test.sim.model.char_length:
            return _("It falls: node {node} moved {moved} m.").format(node=test.worst_node, moved=figure(test.worst)) + slack
        said = _("Node {node} moved {moved} mm; the limit is {limit} mm. Make it stiffer.")
        return said.format(node=test.worst_node, moved=figure(test.worst * 1e3), limit=figure(allowed * 1e3)) + slack
    if not test.at_rest:
        said = _("It is still moving {settle} s after the loads are on: it never stays at rest for {hold} s.")
        return said.format(settle=plain(SETTLE_SECONDS), hold=plain(hold))
    return None


def reaction_lines(data: dict) -> str | None:
    """Whether the supports' reactions are all parallel ("parallel") or all pass through
    one point ("through NODE" or "through (x, y)"): then they cannot hold a rigid body,
    however strong (it slides across them, or turns about the point). None: neither, or a
    support that fixes the rotation (its moment holds the turning)."""
    where = {n["id"]: (float(n["x"]), float(n["y"])) for n in data["nodes"]}
    lines = []  # (point, direction) of each reaction
    for s in data.get("supports", []):
        if "rot" in s["fix"]:
            return None
        for dof in s["fix"]:
            lines.append((np.array(where[s["node"]]), np.array((1.0, 0.0) if dof == "x" else (0.0, 1.0))))
    if len(lines) < 2:
        return None
    (p0, d0), rest = lines[0], lines[1:]
    cross = [abs(d0[0] * d[1] - d0[1] * d[0]) for _, d in rest]
    if max(cross) < 1e-9:
        return "parallel"
    p1, d1 = rest[int(np.argmax(cross))]
    t = np.linalg.solve(np.column_stack([d0, -d1]), p1 - p0)[0]
    point = p0 + t * d0
    size = max(max(abs(x), abs(y)) for x, y in where.values()) or 1.0
    if any(abs((point - p)[0] * d[1] - (point - p)[1] * d[0]) > 1e-6 * size for p, d in lines):
        return None
    node = next((nid for nid, xy in where.items() if math.dist(xy, point) < 1e-6 * size), None)
    return f"through {node}" if node else f"through ({point[0]:.3g} m, {point[1]:.3g} m)"  # a figure for a machine: English


def _reaction_words(lines: str | None) -> str:
    if lines == "parallel":
        return " " + _("The support reactions are all parallel: nothing resists a push across them.")
    if lines:
        point = lines.removeprefix("through ")
        if point.startswith("("):
            x, y = (float(v.strip().removesuffix(" m")) for v in point.strip("()").split(","))
            where = _("the point ({x} m, {y} m)").format(x=figure(x), y=figure(y))
        else:
            where = _("node {node}").format(node=point)
        return " " + _("The lines of all the support reactions pass through {where}: none has a moment about it, so nothing stops a turn about it.").format(
            where=where
        )
    return ""


def _judge_construction(level: Level, solution: Solution, *, jitter: float, still_moves: str) -> Verdict | tuple[Design, LoadTest, dict]:
    """What build and stability share: rules, mechanism, load test. Returns the failing
    verdict (a mechanism's reason starts with `still_moves`), or the design, the load
    test and the figures for the judge to word the pass."""
    d = design(level, solution)
    figures = d.figures(level)
    broken_rule = rule_broken(level, d)
    if broken_rule:
        return Verdict(False, broken_rule, figures)
    try:
        model = build_model(d.data)
    except ModelError as exc:
        return Verdict(False, _("This design cannot be built: {why}.").format(why=exc.words.said(_)), figures)
    found = free_motion(model)  # the first half of STANDS (game/rules/common.py); the load test is the second
    if found is not None:
        free, words = found
        figures |= {"free_motion": words, "moving_nodes": [model.node_ids[q] for q in free.moving(MOTION_TOL)]}
        count = truss_count(d.data)
        if count is not None:  # a truss: whether the count is met says which mistake it is (game/rules/hints.py)
            figures["truss_excess"] = count.excess
        lines = reaction_lines(d.data)
        if lines:
            figures["reactions"] = lines
        return Verdict(False, _(still_moves).format(motion=words) + _reaction_words(lines), figures)
    hold = hold_time(level)
    test = load_test(model, hold, jitter=jitter)
    allowed = limit(level, model.char_length)
    figures |= test.figures() | {"limit": allowed, "hold": hold}
    if level.player.sections:  # a build check's table of every member (the stability kind's supports have none to read)
        figures["members"], figures["first_to_fail"] = member_table(test)
    why = _failure(test, allowed, hold)
    if why:
        return Verdict(False, why, figures, test.sim, test.start)
    return d, test, figures


def judge_build(level: Level, solution: Solution) -> Verdict:
    judged = _judge_construction(level, solution, jitter=0.0, still_moves=N_("It is a mechanism, not a structure: {motion}."))
    if isinstance(judged, Verdict):
        return judged
    d, test, figures = judged
    figures["score"] = d.cost
    peak = figures["most_loaded"]
    said = _("It holds: nothing breaks, no node moves more than {moved} mm, and it comes to rest.").format(moved=figure(test.worst * 1e3))
    if level.player.budget:
        said += " " + _("Cost {cost} of {budget}.").format(cost=money(d.cost), budget=money(level.player.budget))
    else:
        said += " " + _("Cost {cost}.").format(cost=money(d.cost))
    if peak["member"]:
        said += " " + _("The most loaded member, {member}, works at {share} of its capacity.").format(member=peak["member"], share=percent(peak["utilisation"]))
    return Verdict(
        True,
        said,
        figures,
        test.sim,
        test.start,
    )


def judge_stability(level: Level, solution: Solution) -> Verdict:
    judged = _judge_construction(level, solution, jitter=IMPERFECTION, still_moves=N_("Still a mechanism: {motion}."))
    if isinstance(judged, Verdict):
        return judged
    d, test, figures = judged
    added = [
        *([ngettext("{n} member", "{n} members", len(d.members)).format(n=len(d.members))] if d.members else []),
        *([ngettext("{n} support", "{n} supports", len(d.supports)).format(n=len(d.supports))] if d.supports else []),
    ]
    if not added:
        return Verdict(True, _("Stable: with nothing added no free motion is left, and it stands under its loads."), figures, test.sim, test.start)
    said = _("Stable: with {added} added no free motion is left, and it stands under its loads.").format(added=listing(added))
    return Verdict(True, said, figures, test.sim, test.start)


def _sense_build(level: Level, model: Model) -> list[str]:
    if not level.player.sections and not level.player.supports:
        return ["player: " + _("a {kind} level gives the player sections or supports to build with").format(kind=level.kind)]
    return []


def _sense_stability(level: Level, model: Model) -> list[str]:
    problems = _sense_build(level, model)
    if not problems and mechanism(model) is None:
        return ["supports: " + _("a stability level starts as a mechanism, but this structure is already stable")]
    return problems


BUILD_RULES = frozenset({"sections", "budget", "supports", "support_cost", "fixed_support_cost", "max_members", "max_supports", "nodes"})

LIGHT_AND_HEAVY = {  # a drafted build level's sections: bridge-01's steel bars (A [m²], I [m⁴], price per metre)
    "light": {
        "name": {"en": "light", "de": "leicht", "es": "ligero", "fr": "léger"},
        "kind": "bar",
        "material": "steel",
        "A": 0.000453,
        "I": 1.16e-07,
        "cost": 100,
    },
    "heavy": {
        "name": {"en": "heavy", "de": "schwer", "es": "pesado", "fr": "lourd"},
        "kind": "bar",
        "material": "steel",
        "A": 0.00107,
        "I": 9.63e-07,
        "cost": 220,
    },
}
DRAFTED_STEEL = {"E": 200e9, "density": 7850, "nu": 0.3, "strength": 250e6}
DRAFTED_NODE_COST = 50  # a drafted build level's price of a node the student adds
ZONE_MARGIN = 1.0  # [m] a drafted build zone reaches this far beside the structure and above it


def drafted_build(doc: dict) -> dict:
    """The editor's build level: the nodes that hold a support or a load given, the rest (and
    every member) the student's to build in a zone around the structure as drawn, of the light
    and heavy steel bars, under gravity, members breaking, 2 cm of sag at most. ValueError
    when there is nothing to build between."""
    given = {s["node"] for s in doc.get("supports") or []} | {ld["node"] for ld in doc.get("loads") or []}
    if not given:
        raise ValueError(_("A build level needs supports and loads to build between: add them in the sandbox first."))
    xs, ys = [n["x"] for n in doc["nodes"]], [n["y"] for n in doc["nodes"]]
    m = ZONE_MARGIN
    zone = [[min(xs) - m, min(ys)], [max(xs) + m, min(ys)], [max(xs) + m, max(ys) + m], [min(xs) - m, max(ys) + m]]
    doc["nodes"] = [n for n in doc["nodes"] if n["id"] in given]
    doc["members"] = []
    doc["materials"] = dict(doc.get("materials") or {}, steel=dict(DRAFTED_STEEL))
    doc["world"] = drafted_world(doc, gravity=9.81, breakable=True)
    doc["goal"] = {"hold": 1.0, "max_displacement": 0.02}
    sections = drafted_sections((doc.get("_design") or {}).get("members") or [])
    doc["player"] = {"zone": zone, "sections": sections, "node_cost": DRAFTED_NODE_COST, "budget": 2000}
    return doc


SECTION_FIELDS = ("kind", "material", "A", "I", "formulation")  # what makes a member of one section or another


def section_of(sections: dict, member: dict) -> str | None:
    """The key of the section in `sections` a drawn `member` is built of (its kind,
    material, area, I and formulation alike), None for none."""
    want = {k: member.get(k) for k in SECTION_FIELDS}
    want["kind"] = want["kind"] or "bar"
    return next((key for key, s in sections.items() if {k: s.get(k) for k in SECTION_FIELDS} | {"kind": s.get("kind", "bar")} == want), None)


def drafted_sections(members: list[dict]) -> dict:
    """A drafted build level's sections: the light and heavy steel bars, and each other
    section the teacher's design is built of ("as drawn 1", …), priced by its area as the
    light bar is (so the design the teacher drew is an answer the student can build)."""
    sections = {k: dict(v) for k, v in LIGHT_AND_HEAVY.items()}
    light = LIGHT_AND_HEAVY["light"]
    for member in members:
        if section_of(sections, member) is not None:
            continue
        n = sum(k.startswith("drawn-") for k in sections) + 1
        names = {}
        for code in LANGUAGES:
            with speaking(code):
                names[code] = _("as drawn {n}").format(n=n)
        fields = {k: member[k] for k in SECTION_FIELDS if member.get(k) is not None}
        fields.setdefault("kind", "bar")
        cost = max(round(light["cost"] * float(member["A"]) / light["A"]), 1)
        sections[f"drawn-{n}"] = {"name": names, **fields, "cost": cost}
    return sections


BUILD = Kind(
    name="build",
    title_word=N_("build"),
    summary=N_("build a structure within a zone and a budget that carries its loads"),
    moves=(AddNode, AddMember, AddSupport),
    tools=("inspect", "node", "member", "support", "erase", "drag"),
    player_fields=BUILD_RULES | {"zone", "node_cost", "max_length"},
    judge=judge_build,
    sense=_sense_build,
    builds=True,
    drafted=drafted_build,
)


def drafted_stability(doc: dict) -> dict:
    """The editor's stability level: the structure as drawn but for one member taken away
    (the one nearest the middle whose loss leaves a mechanism, none where no one member's
    does; the teacher clicks others), the student's to put back, of the sections it is
    drawn of (`drafted_sections`), under gravity, nothing breaking, 1 cm of sag at most."""
    members = list(doc.get("members") or [])
    if not doc.get("supports"):
        raise ValueError(_("A stability level needs supports to brace against: add them in the sandbox first."))
    at = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    middle = tuple(sum(p[k] for p in at.values()) / max(len(at), 1) for k in (0, 1))
    ordered = sorted(members, key=lambda m: math.dist(tuple((at[m["i"]][k] + at[m["j"]][k]) / 2 for k in (0, 1)), middle))
    doc["world"] = drafted_world(doc, gravity=9.81)  # a question of stability, not of strength: nothing breaks (as the shipped ones)
    doc["goal"] = {"hold": 1.0, "max_displacement": 0.01}
    doc["player"] = {"sections": drafted_sections((doc.get("_design") or {}).get("members") or members), "budget": 2000}
    for m in ordered[:DRAFT_TRIES]:
        doc["members"] = [k for k in members if k["id"] != m["id"]]
        if leaves_a_mechanism(doc):
            return doc
    doc["members"] = members  # no one member's loss leaves a mechanism: the teacher takes several away (validate says so meanwhile)
    return doc


DRAFT_TRIES = 12  # members near the middle tried for a stability level's first member taken away


def leaves_a_mechanism(doc: dict) -> bool:
    """Whether the structure of the document `doc` (its members as they are) is a mechanism."""
    data = {k: v for k, v in doc.items() if not k.startswith("_") and k not in ("player", "goal", "kind")} | {"kind": "sandbox"}
    try:
        return mechanism(build_model(Level.model_validate(data).model_data(), statics_only=True)) is not None
    except (ValueError, ModelError):
        return False


STABILITY = Kind(
    name="stability",
    title_word=N_("stability"),
    summary=N_("add members or supports that turn a mechanism into a structure"),
    moves=(AddMember, AddSupport),
    tools=("inspect", "member", "support", "erase", "drag"),
    player_fields=BUILD_RULES,
    judge=judge_stability,
    sense=_sense_stability,
    builds=True,
    drafted=drafted_stability,
)
