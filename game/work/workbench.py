"""What the player changes in a play scene, with undo and redo of every edit. No pygame.

Two kinds of work, one interface:

- `LevelBench`, on a level with a goal: the player's work is the list of moves of an
  `Attempt` (game/format/solution.py); the level itself is never changed. Each edit appends or
  drops moves, so the solution stays the shortest list that says what the player did.
- `SandboxBench`, in the sandbox: the work is the design itself, a level document of
  kind "sandbox" that the player edits freely and saves (`equilibria sandbox DESIGN`
  opens it again).

An edit that cannot be made raises `Refused` with a sentence for the status line; the
work is then unchanged. Every accepted edit can be undone, and an undone one redone until
the next new edit. `revision` grows with every change, so the scene knows when to build
its model again.

The undo history keeps each document packed: a sandbox design as zlib-compressed JSON
(about 10 B per member, where the design's dicts take about 350 B), a level's moves as a
tuple of the move objects, which no edit changes in place. An edit works on a copy
unpacked from the very snapshot it stores for undo: packing and unpacking together cost
less than the `copy.deepcopy` they replace, the copy shares nothing with the document (a
refused edit leaves it as it was), and every edit shows that the snapshot gives back the
document it was made from. A design is JSON data (what a save writes), so it comes back
equal (pickle would be faster, but the game loads no code from data: test_security.py).
The price is paid by undo and redo, which pack the design they leave and unpack the one
they go to: about 4 ms at 1000 members, where validating it takes 14.
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import string
import zlib
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from equilibria.course.level import Level, load_level
from equilibria.engine.model import Model, ModelError, build_model
from equilibria.format.schema import MAX_ANSWER, MAX_COORD, MAX_FORCE, MAX_MOMENT, Section, fresh_id, pinned_fields, support_fields, support_key
from equilibria.format.solution import MAX_MOVES, AddForce, AddMember, AddMoment, AddNode, AddSupport, CutMember, MarkZero, Move, RemoveMember
from equilibria.rules.common import Verdict
from equilibria.rules.construction import Bill, BillRow, Design, bill, design, inside, member_price, node_price, rule_broken
from equilibria.rules.kinds import KINDS
from equilibria.words.figures import kn
from equilibria.words.i18n import N_, _, decimal, plain
from equilibria.words.text import named
from equilibria.work.attempt import Attempt

EMPTY_GROUND = ((-10.0, 0.0), (10.0, 0.0))  # [m] the empty sandbox's ground
SUPPORTS = {"pin": ("x", "y"), "roller": ("y",), "roller_x": ("x",), "fixed": ("x", "y", "rot")}
# The sandbox's supports, in the order clicks go through them: pin, roller, wall roller,
# rollers on lines sloping 30° up to the right and up to the left, fixed, none.
SANDBOX_SUPPORTS = (SUPPORTS["pin"], SUPPORTS["roller"], SUPPORTS["roller_x"], ("roller", 30.0), ("roller", -30.0), SUPPORTS["fixed"], None)
MIN_LENGTH = 1e-3  # [m] a shorter member is refused: it would be as stiff as no step can follow
# The empty sandbox's damping: light air, α [1/s] in f = −α m v. Bodies fall nearly
# freely (the speed is 5 % short of free fall after 0.2 s, the terminal speed g/α is
# 20 m/s) and vibrations die away with a time constant of 2/α = 4 s, whatever the
# structure. A level's world.damping instead tunes α to the lowest elastic mode, which in
# a stiff sandbox structure is hundreds per second: it would fall as through honey.
SANDBOX_AIR = 0.5
RAMP_SECONDS = 1.0  # [s] the sandbox's gravity and loads come on over this time, from 0 to full
UNDO_DEPTH = 200  # edits kept for undo; older ones are forgotten, so memory stays flat
PACK_LEVEL = 1  # zlib's fastest level: a 1000-member design packs to about 10 kB

# What the empty sandbox offers when its level names no sections (S235 steel and C24 timber).
SANDBOX_MATERIALS = {
    "steel": {"E": 210e9, "density": 7850.0, "nu": 0.3, "strength": 235e6},
    "timber": {"E": 11e9, "density": 420.0, "nu": 0.3, "strength": 24e6},
}
SANDBOX_SECTIONS = {
    "steel bar": Section(name={"en": "steel bar", "de": "Stahlstab"}, kind="bar", material="steel", A=1.0e-3, I=1.2e-7),  # 50 × 5 mm tube
    "steel cable": Section(name={"en": "steel cable", "de": "Stahlseil"}, kind="cable", material="steel", A=2.0e-4),  # 16 mm rope
    "steel beam": Section(name={"en": "steel beam", "de": "Stahlträger"}, kind="beam", material="steel", A=2.85e-3, I=1.94e-5),  # IPE 200
    "timber beam": Section(name={"en": "timber beam", "de": "Holzbalken"}, kind="beam", material="timber", A=1.8e-2, I=5.4e-5),  # 90 × 200 mm
}
PLATE_THICKNESS = 0.01  # [m] of the triangles the sandbox builds (steel plate)


class Refused(ValueError):
    """An edit that cannot be made; the message says why, for the player."""


# What a number past the format's bounds (game/format/schema.py) is told as, by the move it is in
PAST_BOUNDS = {
    AddForce: (N_("The game takes forces of at most {most} kN."), MAX_ANSWER * MAX_FORCE / 1e3),
    CutMember: (N_("The game takes member forces of at most {most} kN."), MAX_ANSWER * MAX_FORCE / 1e3),
    AddMoment: (N_("The game takes moments of at most {most} kN·m."), MAX_ANSWER * MAX_MOMENT / 1e3),
    AddNode: (N_("The game keeps nodes within {most} km of the origin."), MAX_COORD / 1e3),
}


def within_bounds(cls: type, **fields: Any):
    """The move `cls(**fields)`, or Refused in the player's words when one of its numbers
    lies past the format's bounds (a force typed as 1e9 kN)."""
    try:
        return cls(**fields)
    except ValidationError:
        said, most = PAST_BOUNDS[cls]
        raise Refused(_(said).format(most=decimal(most, 0) if cls is not AddNode else plain(most))) from None


def tools_for(kind: str, mode: str | None = None) -> tuple[str, ...]:
    """The tools a level of `kind` allows, in toolbar order (the kind says: `Kind.tools`).
    `inspect` and `drag` look and pull without changing the answer, so every level has them."""
    return KINDS[kind].toolbar(mode)


def buildable(structure: dict | None) -> Model | None:
    """The engine's model of `structure` (statics_only: equilibria.engine.model.damped readies it to
    run), or Refused, in words, when the engine would not build it (coincident nodes, a
    member of no length…): the engine's checks, run before an edit is accepted, whose
    model the run then uses (Bench.model): one edit builds one model."""
    if structure is None:
        return None
    try:
        return build_model(structure, statics_only=True)
    except ModelError as exc:
        raise Refused(_("Not possible: {why}.").format(why=exc.words.said(_).replace(chr(39), ""))) from None


def ramped(data: dict, seconds: float = RAMP_SECONDS) -> dict:
    """A sandbox model whose gravity and constant loads grow linearly from nothing to
    their full value over `seconds`, so that a structure that stands statically is not
    broken by the shock of a load put on all at once (a sudden load deflects an elastic
    structure twice as far as the same load at rest: the dynamic amplification of 2).
    Gravity is ramped through a vertical ground acceleration of −g·(1 − t/seconds),
    which the engine adds to g (the structure feels g + a_y); a model that has its own
    ground motion or load histories keeps them."""
    out = dict(data)
    out["loads"] = [load if load.get("history") else {**load, "history": [[0.0, 0.0], [seconds, 1.0]]} for load in data.get("loads", [])]
    world = dict(data.get("world") or {})
    motion = dict(world.get("ground_motion") or {})
    g = float(world.get("gravity", 9.81))
    if "ay" not in motion and g:
        motion["ay"] = [[0.0, -g], [seconds, 0.0]]
        world["ground_motion"] = motion
    out["world"] = world
    return out


def letter_id(taken: set[str]) -> str:
    """The first capital letter no node has (A … Z, then AA, AB …), as a textbook names
    joints: a level's new node after A–D is E."""
    for size in (1, 2):
        for name in ("".join(p) for p in itertools.product(string.ascii_uppercase, repeat=size)):
            if name not in taken:
                return name
    return fresh_id("N", taken)


def joint_id(i: str, j: str, taken: set[str]) -> str:
    """A member named by its ends, as a textbook does (AE), if that name is free."""
    return f"{i}{j}" if f"{i}{j}" not in taken and f"{j}{i}" not in taken and len(i) + len(j) <= 8 else fresh_id("M", taken)


class History:
    """Undo and redo over packed snapshots of a document (each edit stores the one
    before); what a snapshot is, the bench decides (`Bench._pack`)."""

    def __init__(self, depth: int = UNDO_DEPTH):
        self.done: list[Any] = []
        self.undone: list[Any] = []
        self.depth = depth

    def push(self, before: Any) -> None:
        self.done.append(before)
        del self.done[: -self.depth]
        self.undone.clear()

    def travel(self, now: Any, *, back: bool) -> Any:
        """The document one edit back (undo) or forward (redo) from `now`, which is kept
        for the way back; None when there is none."""
        source, target = (self.done, self.undone) if back else (self.undone, self.done)
        if not source:
            return None
        target.append(now)
        return source.pop()


class Bench:
    """The common part: the document, its history and the revision counter."""

    kind: str

    def __init__(self) -> None:
        self.history = History()
        self.revision = 0
        self._where: tuple[list | None, dict[str, tuple[float, float]]] = (None, {})  # see _positions
        self._built: tuple[dict | None, Model | None] = (None, None)  # (the data, its model): see model

    # ------------------------------------------------------------------ the document
    def _get(self) -> Any:
        raise NotImplementedError

    def _set(self, doc: Any) -> None:
        """Make `doc` the document; Refused (and nothing changed) if it cannot be."""
        raise NotImplementedError

    def _pack(self, doc: Any) -> Any:
        """What the history keeps of `doc`: small, and untouched by later edits."""
        raise NotImplementedError

    def _unpack(self, packed: Any) -> Any:
        """A document of its own, equal to the one `packed` was made from."""
        raise NotImplementedError

    def _edit(self, change: Callable[[Any], Any]) -> None:
        """Apply `change` to a copy of the document; keep it if it is accepted."""
        before = self._pack(self._get())
        after = change(self._unpack(before))
        self._check(after)
        self._set(after)
        self.history.push(before)
        self.revision += 1

    def _check(self, doc: Any) -> None:
        """Raise Refused if `doc` is not a document this bench can hold."""

    @property
    def can_undo(self) -> bool:
        return bool(self.history.done)

    @property
    def can_redo(self) -> bool:
        return bool(self.history.undone)

    def undo(self) -> bool:
        return self._travel(back=True)

    def redo(self) -> bool:
        return self._travel(back=False)

    def _travel(self, *, back: bool) -> bool:
        packed = self.history.travel(self._pack(self._get()), back=back)
        if packed is None:
            return False
        self._set(self._unpack(packed))
        self.revision += 1
        return True

    # ------------------------------------------------------------------ what is there
    def structure(self) -> dict | None:
        """The engine's model of the work as it stands (None: nothing built)."""
        raise NotImplementedError

    def running(self) -> dict | None:
        """The model data the work is run with (the sandbox ramps its loads in: ramped)."""
        return self.structure()

    def model(self) -> Model | None:
        """The engine's model of `running()` (statics_only), built once per edit: the
        edit's check builds it (buildable) and the run reads it; callers never change it."""
        data = self.running()
        if data is None:
            return None
        if self._built[0] is not data:
            self._built = (data, buildable(data))
        return self._built[1]

    def sections(self) -> dict[str, Section]:
        raise NotImplementedError

    def section_name(self, key: str | None) -> str:
        """Section `key` as the student reads it, in their language (Section.shown)."""
        section = self.sections().get(key) if key is not None else None
        return section.shown(key) if section is not None else (key or "")

    def _nodes(self) -> list[dict]:
        """The nodes of the work as the model has them ({"id", "x", "y", …})."""
        return (self.structure() or {"nodes": []})["nodes"]

    def position(self, node: str) -> tuple[float, float]:
        where = self._positions()
        if node not in where:
            raise Refused(_("There is no node {node}.").format(node=node))
        return where[node]

    def _positions(self) -> dict[str, tuple[float, float]]:
        """Each node's (x, y) [m] as built, made once per list of nodes (per edit: an
        edit makes a new one), as a frame may ask where many nodes are."""
        nodes = self._nodes()
        if self._where[0] is not nodes:
            self._where = (nodes, {n["id"]: (float(n["x"]), float(n["y"])) for n in nodes})
        return self._where[1]

    def node_near(self, x: float, y: float, reach: float) -> str | None:
        """The node nearest to (x, y) [m] as built, if one is within `reach` [m]."""
        best, found = reach, None
        for n in self._nodes():
            d = math.hypot(float(n["x"]) - x, float(n["y"]) - y)
            if d <= best:
                best, found = d, n["id"]
        return found

    def clear(self) -> None:
        """Take everything the player did away, in one edit (undo brings it back)."""
        raise NotImplementedError

    def zone(self) -> list[tuple[float, float]] | None:
        """The build zone new nodes must lie in [m] (None: anywhere)."""
        return None

    def in_zone(self, x: float, y: float) -> bool:
        """Whether a new node may go at (x, y) [m]: inside the build zone, if there is one."""
        zone = self.zone()
        return not zone or inside((x, y), zone)

    def movable(self, node: str) -> bool:
        """Whether the player may move `node` (their own joints; in the sandbox, any)."""
        return True

    def section_now(self, member: str) -> str | None:
        """The section `member` is built of (None: the level's own member, or one of no
        section on offer)."""
        return None

    def toggle_pin(self, member: str, end: str) -> bool:
        """Pin a member to its node at `end` ("i" or "j") or unpin it; whether it is pinned now."""
        raise Refused(_("Here no member can be pinned."))

    def pinned_ends(self, member: str) -> list[str]:
        return []

    def price(self, section: str, length: float, joints: int = 0) -> float | None:
        """What a new member of `section`, `length` [m] long, costs with `joints` new
        joints, by the level's cost rules (None: nothing has a price here)."""
        return None


class LevelBench(Bench):
    """The moves of an attempt at a level with a goal."""

    def __init__(self, level: Level, attempt: Attempt | None = None):
        super().__init__()
        self.level = level
        self.kind = level.kind
        self.about = KINDS[level.kind]  # what the kind is: its moves, tools, rules
        if not self.about.judged:
            raise ValueError(_("a {kind} level has no moves to make").format(kind=level.kind))
        self.attempt = attempt or Attempt(level)
        self.tools = tools_for(level.kind, level.player.mode)
        if self.about.places is not None and self.about.places(level).moments == 0:  # no cut here carries a moment
            self.tools = tuple(t for t in self.tools if t != "moment")
        self._made: tuple[list[Move], int | None, Design | None, dict] | None = None  # see _made_of

    def _get(self) -> list[Move]:
        return list(self.attempt.moves)

    def _set(self, doc: list[Move]) -> None:
        self.attempt.moves = doc  # the very list _check judged (an edit's own copy): its design is made already

    def _pack(self, doc: list[Move]) -> tuple[Move, ...]:
        return tuple(doc)  # an edit makes new lists of moves and never changes a move

    def _unpack(self, packed: tuple[Move, ...]) -> list[Move]:
        return list(packed)

    def _check(self, moves: list[Move]) -> None:
        """The level's rules, then the engine's own checks: an edit the engine could not
        build is refused here, in words, and the work stays as it was."""
        if len(moves) > MAX_MOVES:
            raise Refused(_("A solution holds at most {most} moves: undo or erase some to make new ones.").format(most=decimal(MAX_MOVES, 0)))
        try:
            d, data = self._made_of(moves)
        except ValueError as exc:
            raise Refused(str(exc).split(": ", 1)[-1]) from None
        if d is not None and self.level.player.zone:
            for nid, point in d.nodes.items():
                if not inside(point, self.level.player.zone):
                    raise Refused(_("Node {nid} would be outside the build zone (the dashed outline).").format(nid=nid))
        self._built = (data, buildable(data))  # the model the run reads, if these moves become the work

    def _made_of(self, moves: list[Move]) -> tuple[Design | None, dict]:
        """The design of `moves` (a build or stability level; else None) and the model
        they make, worked out once per list of moves and draw. An edit's check makes them
        for the very list the work then holds (`_set`), so one edit builds its design
        once, and every later look (the model, the cost, the rules, a click) reads it.
        The model is shared: callers read it and never change it."""
        made, draw = self._made, self.attempt.draw
        if made is not None and made[0] is moves and made[1] == draw:
            return made[2], made[3]
        if self.about.builds:
            d = design(self.level.drawn(draw), self.attempt.solution(moves))
            data = d.data
        else:
            d, data = None, self.attempt.structure(moves)
        self._made = (moves, draw, d, data)
        return d, data

    def restore(self, moves: list[Move]) -> int:
        """Take saved moves as the work: all of them, or, where the whole cannot be built
        (work saved by an older version), the longest beginning that can. How many."""

        def fine(n: int) -> bool:
            try:
                self._check(moves[:n])
            except (Refused, ValueError, KeyError):
                return False
            return True

        kept = len(moves)
        if not fine(kept):
            good, bad = 0, kept  # the empty beginning is fine; the whole is not
            while bad - good > 1:
                mid = (good + bad) // 2
                good, bad = (mid, bad) if fine(mid) else (good, mid)
            kept = good
        self.attempt.moves = list(moves[:kept])
        self.revision += 1  # new work: what was worked out from the old (its cost) is stale
        return kept

    @property
    def moves(self) -> list[Move]:
        return self.attempt.moves

    def replace(self, moves: list[Move]) -> None:
        """Take `moves` (the answer shown) as the work, in one edit that undo takes back."""
        self._edit(lambda ms: list(moves))

    def clear(self) -> None:
        if not self.attempt.moves:
            raise Refused(_("There is nothing to take back: this is the level as it starts."))
        self._edit(lambda ms: [])

    def structure(self) -> dict:
        return self._made_of(self.attempt.moves)[1]

    def sections(self) -> dict[str, Section]:
        return dict(self.level.player.sections or {})

    def check(self) -> Verdict:
        return self.attempt.check()

    def rule_broken(self) -> str | None:
        """The first rule of a build or stability level the work breaks now (None: none)."""
        d = self._made_of(self.attempt.moves)[0]
        return rule_broken(self.level.drawn(self.attempt.draw), d) if d is not None else None

    def cost(self) -> float | None:
        """What the additions cost (None: this kind of level has no budget), from the
        design made once per edit, as the status line asks every frame."""
        d = self._made_of(self.attempt.moves)[0]
        return d.cost if d is not None else None

    def _ids(self) -> tuple[set[str], set[str]]:
        data = self.structure()
        return {n["id"] for n in data["nodes"]}, {m["id"] for m in data.get("members", [])}

    # ------------------------------------------------------------------ edits
    def add_force(self, node: str, fx: float, fy: float) -> None:
        player = self.level.player
        if not self.about.takes(AddForce) or self.about.places is None:
            raise Refused(_("This level takes no forces from you."))
        places = self.about.places(self.level)
        if places.nodes and node not in places.nodes:
            raise Refused(_("Forces may act at {nodes}, not at {node}.").format(nodes=", ".join(places.nodes), node=node))
        wanted = places.forces
        here = [m for m in self.moves if isinstance(m, AddForce) and m.node == node]  # replaced by the new one
        if not here and sum(isinstance(m, AddForce) for m in self.moves) >= wanted:
            if wanted == 1:
                raise Refused(_("You have placed the one force this level takes; erase one, or change it at its node."))
            raise Refused(_("You have placed all {n} forces this level takes; erase one, or change it at its node.").format(n=wanted))
        if player.max_force and math.hypot(fx, fy) > player.max_force * (1 + 1e-9):
            raise Refused(_("The largest force allowed is {force}.").format(force=kn(player.max_force)))
        new = within_bounds(AddForce, type="add_force", node=node, fx=fx, fy=fy)
        if here:  # a force of yours at this node already: the new one takes its place (one edit)
            self._edit(lambda ms: [new if m is here[-1] else m for m in ms])
        else:
            self._edit(lambda ms: [*ms, new])

    def own_force(self, node: str) -> tuple[float, float] | None:
        """The force the player put at `node` (fx, fy) [N], if there is one."""
        here = [m for m in self.moves if isinstance(m, AddForce) and m.node == node]
        return (here[-1].fx, here[-1].fy) if here else None

    def add_moment(self, node: str, m: float) -> None:
        """A moment [N m, counter-clockwise positive] at `node`, where a cut carries one;
        a moment of yours there already takes the new one's place (one edit), as a force does."""
        if not self.about.takes(AddMoment) or self.about.places is None:
            raise Refused(_("This level takes no moments from you."))
        places = self.about.places(self.level)
        if node not in places.moment_nodes:
            if places.moment_nodes:
                where = ", ".join(places.moment_nodes)
                raise Refused(_("A moment replaces a cut that carries one: only at {nodes}, not at {node}.").format(nodes=where, node=node))
            raise Refused(_("No cut here carries a moment: a moment at {node} would replace nothing.").format(node=node))
        here = [move for move in self.moves if isinstance(move, AddMoment) and move.node == node]  # replaced by the new one
        if not here and sum(isinstance(move, AddMoment) for move in self.moves) >= places.moments:
            raise Refused(_("You have placed all {moments} moments; erase one to place it again.").format(moments=places.moments))
        new = within_bounds(AddMoment, type="add_moment", node=node, m=m)
        if here:
            self._edit(lambda ms: [new if move is here[-1] else move for move in ms])
        else:
            self._edit(lambda ms: [*ms, new])

    def own_moment(self, node: str) -> float | None:
        """The moment the player put at `node` [N m], if there is one."""
        here = [m for m in self.moves if isinstance(m, AddMoment) and m.node == node]
        return here[-1].m if here else None

    def toggle_member(self, member: str) -> bool:
        """Mark (or remove) a member in a zero-force level, or take the mark back.
        Returns whether it is now marked (removed)."""
        if not (self.about.takes(MarkZero) or self.about.takes(RemoveMember)):
            raise Refused(_("This level has no members to mark."))
        if member not in {m.id for m in self.level.members}:
            raise Refused(_("There is no member {member}.").format(member=member))
        remove = self.level.player.mode == "remove" or not self.about.takes(MarkZero)  # a kind that only takes members out
        cls, kind = (RemoveMember, "remove_member") if remove else (MarkZero, "mark_zero")
        on = any(isinstance(m, cls) and m.member == member for m in self.moves)
        if on:
            self._edit(lambda ms: [m for m in ms if not (isinstance(m, cls) and m.member == member)])
        else:
            self._edit(lambda ms: [*ms, cls(type=kind, member=member)])
        return not on

    def marked(self) -> set[str]:
        return {m.member for m in self.moves if isinstance(m, MarkZero | RemoveMember)}

    def cut_member(self, member: str, force: float | None) -> None:
        """Cut `member` with the student's section, with its force [N, tension positive]
        (None: not given yet); a member cut already takes the new force (one edit)."""
        if not self.about.takes(CutMember):
            raise Refused(_("This level has no section to cut."))
        if member not in {m.id for m in self.level.members}:
            raise Refused(_("There is no member {member}.").format(member=member))
        new = within_bounds(CutMember, type="cut_member", member=member, force=force)
        here = [m for m in self.moves if isinstance(m, CutMember) and m.member == member]
        if here:
            self._edit(lambda ms: [new if m is here[-1] else m for m in ms])
        else:
            self._edit(lambda ms: [*ms, new])

    def cuts(self) -> dict[str, float | None]:
        """The members the student's section cuts, each with its force [N] (None: not given)."""
        return {m.member: m.force for m in self.moves if isinstance(m, CutMember)}

    def add_node(self, x: float, y: float) -> str:
        if not self.about.takes(AddNode):
            raise Refused(_("This level does not let you add nodes."))
        if not self.in_zone(x, y):
            raise Refused(_("A new node there would be outside the build zone (the dashed outline)."))
        nodes, _members = self._ids()
        nid = letter_id(nodes)
        new = within_bounds(AddNode, type="add_node", id=nid, x=round(x, 6), y=round(y, 6))
        self._edit(lambda ms: [*ms, new])
        return nid

    def add_member(self, i: str, j: str, section: str) -> str:
        if i == j:
            raise Refused(_("A member needs two different nodes."))
        if math.dist(self.position(i), self.position(j)) < MIN_LENGTH:
            raise Refused(_("Nodes {i} and {j} are at the same place; a member between them has no length.").format(i=i, j=j))
        if any({m["i"], m["j"]} == {i, j} for m in self.structure().get("members", [])):
            raise Refused(_("Nodes {i} and {j} are joined already.").format(i=i, j=j))
        _nodes, members = self._ids()
        mid = joint_id(i, j, members)
        self._edit(lambda ms: [*ms, AddMember(type="add_member", id=mid, i=i, j=j, section=section)])
        return mid

    def zone(self) -> list[tuple[float, float]] | None:
        return self.level.player.zone

    def movable(self, node: str) -> bool:
        return any(isinstance(m, AddNode) and m.id == node for m in self.moves)

    def section_now(self, member: str) -> str | None:
        return next((m.section for m in reversed(self.moves) if isinstance(m, AddMember) and m.id == member), None)

    def price(self, section: str, length: float, joints: int = 0) -> float | None:
        offered = self.sections()
        if not self.about.builds or section not in offered:
            return None
        return member_price(offered[section], length) + joints * node_price(self.level.player)

    def bill(self) -> Bill | None:
        """Every member with its section, length and price, and the cost in parts (None:
        this kind of level builds nothing)."""
        if not self.about.builds:
            return None
        return bill(self.level.drawn(self.attempt.draw), self._made_of(self.attempt.moves)[0])  # the edit's own design

    def _own_member(self, member: str) -> AddMember:
        own = [m for m in self.moves if isinstance(m, AddMember) and m.id == member]
        if not own:
            if member in self._ids()[1]:
                raise Refused(_("Member {member} is part of the level; you can change only the members you added.").format(member=member))
            raise Refused(_("There is no member {member}.").format(member=member))
        return own[-1]

    def set_section(self, member: str, section: str) -> float:
        """Build one of the player's members of another section, where it is (one edit);
        what that changes the cost by [$] (0 where nothing has a price)."""
        offered = self.sections()
        if section not in offered:
            raise Refused(_("This level offers no section {section}.").format(section=named(section)))
        old = self._own_member(member)
        if old.section == section:
            raise Refused(_("Member {member} is {section} already: choose another section (Tab) to change it.").format(member=member, section=section))
        before = self.cost() or 0.0
        new = AddMember(type="add_member", id=old.id, i=old.i, j=old.j, section=section, release=old.release)
        self._edit(lambda ms: [new if m is old else m for m in ms])
        return (self.cost() or 0.0) - before

    def toggle_pin(self, member: str, end: str) -> bool:
        """Pin one of the player's members to its node at `end` ("i" or "j"), or unpin
        it (one edit): whether it is pinned now. The engine refuses, in words, a member
        that carries no moment to release (a bar, a cable)."""
        old = self._own_member(member)
        ends = set(old.release or []) ^ {end}
        new = AddMember(type="add_member", id=old.id, i=old.i, j=old.j, section=old.section, release=sorted(ends) or None)
        self._edit(lambda ms: [new if m is old else m for m in ms])
        return end in ends

    def pinned_ends(self, member: str) -> list[str]:
        own = [m for m in self.moves if isinstance(m, AddMember) and m.id == member]
        return list(own[-1].release or []) if own else []

    def move_node(self, node: str, x: float, y: float) -> None:
        """Move a joint the player added (its members follow, one edit); the level's own
        joints stay where the level puts them."""
        own = [m for m in self.moves if isinstance(m, AddNode) and m.id == node]
        if not own:
            self.position(node)  # Refused if there is no such node
            raise Refused(_("Node {node} is part of the level and stays where it is; you can move only the joints you added.").format(node=node))
        old = own[-1]
        new = within_bounds(AddNode, type="add_node", id=node, x=round(x, 6), y=round(y, 6))
        if (new.x, new.y) == (old.x, old.y):
            raise Refused(_("Node {node} is there already.").format(node=node))
        self._edit(lambda ms: [new if m is old else m for m in ms])

    def add_member_to(self, i: str, x: float, y: float, section: str) -> tuple[str, str]:
        """A new joint at (x, y) [m] and a member from node `i` to it, in one edit: (the
        joint's id, the member's)."""
        if not self.about.takes(AddNode):
            raise Refused(_("This level does not let you add nodes."))
        if not self.in_zone(x, y):
            raise Refused(_("A new joint there would be outside the build zone (the dashed outline)."))
        if math.dist(self.position(i), (x, y)) < MIN_LENGTH:
            raise Refused(_("Node {i} is there already; a member needs two different places.").format(i=i))
        nodes, members = self._ids()
        nid = letter_id(nodes)
        mid = joint_id(i, nid, members)
        node = within_bounds(AddNode, type="add_node", id=nid, x=round(x, 6), y=round(y, 6))
        self._edit(lambda ms: [*ms, node, AddMember(type="add_member", id=mid, i=i, j=nid, section=section)])
        return nid, mid

    def support_cycle(self) -> list:
        """The supports a click on a node goes through, in order (support keys; None,
        none): the level's offer."""
        return [*(support_key(t) for t in self.level.player.supports or []), None]

    def set_support(self, node: str, fix: tuple[str, ...] | None) -> None:
        ours = [m for m in self.moves if isinstance(m, AddSupport) and m.node == node]
        if fix is None:
            if not ours:
                raise Refused(_("Node {node} has no support of yours to take away.").format(node=node))
            self._edit(lambda ms: [m for m in ms if m not in ours])
            return
        key = support_key(fix)
        if key not in [support_key(t) for t in self.level.player.supports or []]:
            raise Refused(_("This level offers no such support."))
        self._edit(lambda ms: [*(m for m in ms if m not in ours), AddSupport(type="add_support", node=node, **support_fields(key))])

    def erase(self, kind: str, ident: str) -> None:
        """Take back something the player added: a force and a moment (by their node), a node (with
        its members and support), a member or a support. The level's own parts stay."""
        if kind == "node":
            own = [m for m in self.moves if isinstance(m, AddForce | AddMoment) and m.node == ident]
            own += [m for m in self.moves if isinstance(m, AddSupport) and m.node == ident]
            own += [m for m in self.moves if isinstance(m, AddNode) and m.id == ident]
            own += [m for m in self.moves if isinstance(m, AddMember) and ident in (m.i, m.j)]
        elif kind == "member":
            own = [m for m in self.moves if isinstance(m, AddMember) and m.id == ident]
            own += [m for m in self.moves if isinstance(m, CutMember) and m.member == ident]  # the section's cut: the member stays
        else:
            own = []
        if not own:
            if kind == "node":
                raise Refused(_("Node {id} is part of the level; you can erase only what you added.").format(id=ident))
            if kind == "member":
                raise Refused(_("Member {id} is part of the level; you can erase only what you added.").format(id=ident))
            raise Refused(_("{id} is part of the level; you can erase only what you added.").format(id=ident))
        self._edit(lambda ms: [m for m in ms if m not in own])


class SandboxBench(Bench):
    """A sandbox design: a level document of kind sandbox, edited freely."""

    kind = "sandbox"

    def __init__(self, level: Level | None = None, *, source: str = "the design"):
        super().__init__()
        self.source = source  # shown in messages: the design's file, or "the design"
        if level is None:
            world = {"breakable": True, "mass_damping": SANDBOX_AIR, "ground": [list(p) for p in EMPTY_GROUND]}  # members break: watch it go
            self.doc: dict = {"format": 1, "id": "sandbox", "title": "Sandbox", "kind": "sandbox", "world": world, "nodes": []}
        else:
            self.doc = level.model_dump(mode="json", exclude_none=True)
            self.doc["kind"] = "sandbox"
            self.doc.pop("goal", None)
        materials = self.doc.setdefault("materials", {})
        for name, material in SANDBOX_MATERIALS.items():
            materials.setdefault(name, material)
        for key in ("nodes", "members", "triangles", "supports", "loads"):
            self.doc.setdefault(key, [])
        self.tools = tools_for("sandbox")
        self._model: tuple[Level | None, dict] = (None, {})  # see structure
        self._run: tuple[Level | None, dict | None] = (None, None)  # see running
        self._level = self._validate(self.doc)
        self._opened = json.loads(json.dumps(self.doc))  # what `clear` goes back to

    def _get(self) -> dict:
        return self.doc

    def _set(self, doc: dict) -> None:
        level = self._validate(doc, edit=True)  # first: a refused design changes nothing
        data = level.model_data() if level is not None else None
        run = ramped(data) if data is not None else None
        built = (run, buildable(run))  # the engine's checks on the model the run then reads
        self._level, self.doc, self._built = level, doc, built
        self._model, self._run = (level, data) if level is not None else self._model, (level, run)

    def _pack(self, doc: dict) -> bytes:
        return zlib.compress(json.dumps(doc, separators=(",", ":")).encode(), PACK_LEVEL)

    def _unpack(self, packed: bytes) -> dict:
        return json.loads(zlib.decompress(packed))

    def _validate(self, doc: dict, *, edit: bool = False) -> Level | None:
        """The design as a level; Refused naming the file and the field when a design
        read from a file is broken, in words when an edit would break it."""
        if not doc["nodes"]:
            return None  # nothing built yet: a level needs a node
        try:
            return load_level(doc, build=not edit)  # an edit's model is built once, by _set
        except ValueError as exc:
            line = str(exc).splitlines()[0]
            if edit:
                raise Refused(_("Not possible: {why}.").format(why=line.split(": ", 1)[-1].replace(chr(39), ""))) from None
            raise Refused(f"{self.source}: {line}") from None

    def structure(self) -> dict | None:
        """The design's model, dumped once per edit (the frame after an edit asks for it
        several times: the build, the supports, the picture); callers only read it."""
        if self._level is None:
            return None
        if self._model[0] is not self._level:
            self._model = (self._level, self._level.model_data())
        return self._model[1]

    def running(self) -> dict | None:
        """The design's model with gravity and loads ramped in (ramped), made once per edit."""
        if self._level is None:
            return None
        if self._run[0] is not self._level or self._run[1] is None:
            self._run = (self._level, ramped(self.structure()))
        return self._run[1]

    def _nodes(self) -> list[dict]:
        return self.doc["nodes"]  # the model's own, read without dumping the whole model (~1 ms at 1000 members)

    def sections(self) -> dict[str, Section]:
        player = self.doc.get("player") or {}
        return {k: Section.model_validate(v) for k, v in player["sections"].items()} if player.get("sections") else dict(SANDBOX_SECTIONS)

    def _ids(self, key: str) -> set[str]:
        return {e["id"] for e in self.doc[key]}

    def clear(self) -> None:
        """Back to the design as it was opened: the level it came from, or the empty world."""
        if self.doc == self._opened:
            raise Refused(_("There is nothing to take back: this is the design as it was opened."))
        opened = self._opened
        self._edit(lambda d: json.loads(json.dumps(opened)))

    # ------------------------------------------------------------------ edits
    def add_node(self, x: float, y: float) -> str:
        if not self.in_zone(x, y):
            raise Refused(_("New nodes go inside the build zone (the dashed outline)."))
        nid = fresh_id("N", self._ids("nodes"))
        self._edit(lambda d: d["nodes"].append({"id": nid, "x": round(x, 6), "y": round(y, 6)}) or d)
        return nid

    def add_member(self, i: str, j: str, section: str) -> str:
        sections = self.sections()
        if section not in sections:
            raise Refused(_("There is no section {section}.").format(section=named(section)))
        if i == j:
            raise Refused(_("A member needs two different nodes."))
        if math.dist(self.position(i), self.position(j)) < MIN_LENGTH:
            raise Refused(_("Nodes {i} and {j} are at the same place; a member between them has no length.").format(i=i, j=j))
        if any({m["i"], m["j"]} == {i, j} for m in self.doc["members"]):
            raise Refused(_("Nodes {i} and {j} are joined already.").format(i=i, j=j))
        mid = fresh_id("M", self._ids("members"))
        member = {"id": mid, "i": i, "j": j, **sections[section].member_fields()}
        self._edit(lambda d: d["members"].append(member) or d)
        return mid

    def add_triangle(self, i: str, j: str, k: str) -> str:
        (xi, yi), (xj, yj), (xk, yk) = (self.position(n) for n in (i, j, k))
        area = 0.5 * ((xj - xi) * (yk - yi) - (xk - xi) * (yj - yi))
        if len({i, j, k}) < 3 or abs(area) < MIN_LENGTH**2:
            raise Refused(_("A plate needs three nodes that are not in one line."))
        nodes = [i, j, k] if area > 0 else [i, k, j]  # counter-clockwise
        tid = fresh_id("T", self._ids("triangles"))
        self._edit(lambda d: d["triangles"].append({"id": tid, "nodes": nodes, "material": "steel", "t": PLATE_THICKNESS}) or d)
        return tid

    def support_cycle(self) -> list:
        """The supports a click on a node goes through, in order: SANDBOX_SUPPORTS."""
        return [support_key(k) if k else None for k in SANDBOX_SUPPORTS]

    def set_support(self, node: str, fix: tuple[str, ...] | None) -> None:
        self.position(node)

        def change(d: dict) -> dict:
            d["supports"] = [s for s in d["supports"] if s["node"] != node]
            if fix is not None:
                d["supports"].append({"node": node, **support_fields(support_key(fix))})
            return d

        self._edit(change)

    def add_force(self, node: str, fx: float, fy: float) -> None:
        self.position(node)
        self._edit(lambda d: d["loads"].append({"node": node, "fx": fx, "fy": fy}) or d)

    def erase(self, kind: str, ident: str) -> None:
        """Erase a node (with its members, plates, support and loads), a member or a plate."""
        key = {"node": "nodes", "member": "members", "triangle": "triangles"}[kind]
        if ident not in self._ids(key):
            said = {"node": N_("There is no node {id}."), "member": N_("There is no member {id}."), "triangle": N_("There is no triangle {id}.")}[kind]
            raise Refused(_(said).format(id=ident))

        def change(d: dict) -> dict:
            d[key] = [e for e in d[key] if e["id"] != ident]
            if kind == "node":
                d["members"] = [m for m in d["members"] if ident not in (m["i"], m["j"])]
                d["triangles"] = [t for t in d["triangles"] if ident not in t["nodes"]]
                d["supports"] = [s for s in d["supports"] if s["node"] != ident]
                d["loads"] = [f for f in d["loads"] if f["node"] != ident]
            kept = {m["id"] for m in d["members"]}  # a distributed load goes with its member
            if "member_loads" in d:
                d["member_loads"] = [w for w in d["member_loads"] if w["member"] in kept]
            return d

        self._edit(change)

    def zone(self) -> list[tuple[float, float]] | None:
        zone = (self.doc.get("player") or {}).get("zone")
        return [tuple(p) for p in zone] if zone else None

    def section_of(self, member: dict, offered: dict[str, dict] | None = None) -> str | None:
        """The name of the section a member of the design is built of (None: one of its
        own). offered: each section's member fields, if worked out already."""
        fields = {k: v for k, v in member.items() if k not in ("id", "i", "j")}
        fields.setdefault("kind", "bar")
        offered = offered if offered is not None else {name: section.member_fields() for name, section in self.sections().items()}
        return next((name for name, made in offered.items() if pinned_fields(made, fields.get("release")) == fields), None)  # a pinned end keeps its section

    def section_now(self, member: str) -> str | None:
        return next((self.section_of(m) for m in self.doc["members"] if m["id"] == member), None)

    def bill(self) -> Bill:
        """Every member with its section and length; nothing has a price in the sandbox."""
        where = {n["id"]: (float(n["x"]), float(n["y"])) for n in self.doc["nodes"]}
        offered = {name: section.member_fields() for name, section in self.sections().items()}
        rows = [BillRow(m["id"], self.section_of(m, offered), math.dist(where[m["i"]], where[m["j"]]), None) for m in self.doc["members"]]
        return Bill(rows, [], None, None)

    def set_section(self, member: str, section: str) -> float:
        """Build a member of another section, where it is (one edit); the cost changes by 0."""
        sections = self.sections()
        if section not in sections:
            raise Refused(_("There is no section {section}.").format(section=named(section)))
        found = [m for m in self.doc["members"] if m["id"] == member]
        if not found:
            raise Refused(_("There is no member {member}.").format(member=member))
        if self.section_of(found[0]) == section:
            raise Refused(_("Member {member} is {section} already: choose another section (Tab) to change it.").format(member=member, section=section))
        fields = sections[section].member_fields()

        def change(d: dict) -> dict:
            d["members"] = [
                {"id": m["id"], "i": m["i"], "j": m["j"], **pinned_fields(fields, m.get("release"))} if m["id"] == member else m for m in d["members"]
            ]
            return d

        self._edit(change)
        return 0.0

    def toggle_pin(self, member: str, end: str) -> bool:
        """Pin member `member` to its node at `end` ("i" or "j"), or unpin it (one edit):
        whether it is pinned now. The engine refuses, in words, a member that carries no
        moment to release (a bar, a cable)."""
        found = [m for m in self.doc["members"] if m["id"] == member]
        if not found:
            raise Refused(_("There is no member {member}.").format(member=member))
        ends = set(found[0].get("release") or []) ^ {end}
        name = self.section_of(found[0])  # unpinned, a member of a section is that section's again
        own = self.sections()[name].member_fields() if name is not None else {k: v for k, v in found[0].items() if k not in ("id", "i", "j")}
        fields = pinned_fields(own, sorted(ends))

        def change(d: dict) -> dict:
            d["members"] = [{"id": m["id"], "i": m["i"], "j": m["j"], **fields} if m["id"] == member else m for m in d["members"]]
            return d

        self._edit(change)
        return end in ends

    def pinned_ends(self, member: str) -> list[str]:
        return next((list(m.get("release") or []) for m in self.doc["members"] if m["id"] == member), [])

    def add_member_to(self, i: str, x: float, y: float, section: str) -> tuple[str, str]:
        """A new node at (x, y) [m] and a member from node `i` to it, in one edit: (the
        node's id, the member's)."""
        sections = self.sections()
        if section not in sections:
            raise Refused(_("There is no section {section}.").format(section=named(section)))
        if not self.in_zone(x, y):
            raise Refused(_("New nodes go inside the build zone (the dashed outline)."))
        if math.dist(self.position(i), (x, y)) < MIN_LENGTH:
            raise Refused(_("Node {i} is there already; a member needs two different places.").format(i=i))
        nid, mid = fresh_id("N", self._ids("nodes")), fresh_id("M", self._ids("members"))
        node = {"id": nid, "x": round(x, 6), "y": round(y, 6)}
        member = {"id": mid, "i": i, "j": nid, **sections[section].member_fields()}

        def change(d: dict) -> dict:
            d["nodes"].append(node)
            d["members"].append(member)
            return d

        self._edit(change)
        return nid, mid

    def move_node(self, node: str, x: float, y: float) -> None:
        """Put a node somewhere else (members follow; refused if one would lose its length,
        or the node leave the build zone)."""
        self.position(node)
        if not self.in_zone(x, y):
            raise Refused(_("Node {node} would be outside the build zone (the dashed outline).").format(node=node))

        def change(d: dict) -> dict:
            for n in d["nodes"]:
                if n["id"] == node:
                    n["x"], n["y"] = round(x, 6), round(y, 6)
            return d

        self._edit(change)

    def design(self) -> dict:
        """The design as a level file of kind sandbox (what a save writes)."""
        return copy.deepcopy(self.doc)
