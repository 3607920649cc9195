"""A teacher's level made in the game: the draft the level editor edits (game/app/scenes/editor.py
draws it and turns clicks and keys into the calls here). No pygame.

A draft is a level document (JSON data, what a save writes), started from the structure
on the screen: a sandbox design, or any level (to make a variant of it). Every edit is a
function from one document to the next, so the editor's history is a list of documents
and Ctrl+Z takes the last one back (`Authoring`). What the level asks is its kind's, and
each kind says how a structure is drafted as one of its levels (`Kind.drafted`, in the
kind's rules module): a free body has the supports cut away (a click puts one back, or
cuts it again: `toggle_cut`), and the student gives the forces they gave; a zero-force or
determinacy puzzle asks about the structure as it stands (a free body may instead be one
joint of it, the method of joints: `isolate_joint`); a build level keeps the nodes
that hold a support or a load, and the teacher's structure is its reference answer, the
budget half as much again as that design costs.

A number of the student's own is a range on one of the picture's loads (`vary_load`) or
one of its dimensions (`vary_node`): `vary.numbers` names it, `vary.set` puts it in the
load's field, and the level holds its default. Texts are per language (`set_text`),
with the numbers as {placeholders}. `problems` is what `equilibria validate` says of
the document; `reference` is the answer the judge computes, in words; `save` writes it
atomically to the teacher's levels folder (game/course/teacher.py), a build's reference
design beside it in `solutions/`.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from equilibria.course.carried import carried
from equilibria.course.level import Level, level_problems
from equilibria.course.teacher import teacher_folder, teacher_levels
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import write_json_atomic
from equilibria.format.schema import LEVEL_ID, Player
from equilibria.format.solution import load_solution
from equilibria.rules.common import drafted_at_rest
from equilibria.rules.construction import DRAFTED_STEEL, section_of
from equilibria.rules.frame_body import body_apart
from equilibria.rules.free_body import cut_of, support_of
from equilibria.rules.judge import check as judge
from equilibria.rules.kinds import KINDS
from equilibria.rules.part_body import joint_body, named_section, other_part, part_body, section_body
from equilibria.rules.variants import LEAST_VERSIONS, answer_lines, answer_solution, evaluate, extremes, names_in, parse, shown, with_numbers
from equilibria.words.i18n import LANGUAGES, N_, _, decimal, language, speaking

KINDS_MADE = tuple(k.name for k in KINDS.values() if k.drafted is not None)  # the kinds the editor makes, in the order K goes through them
FIRST_KIND = next(k.name for k in KINDS.values() if k.cuts and k.drafted is not None)  # a structure on supports starts as a free body
PLAIN_KIND = next(k.name for k in KINDS.values() if k.designs)  # a structure alone: the sandbox
TEXTS = ("title", "brief", "explanation")  # the texts a teacher writes, and the hints: "hint:0", "hint:1", …
MOST_HINTS = 5  # the editor's rows of hints (a level file may hold more)


class Refused(ValueError):
    """An edit that cannot be made, in one sentence the teacher reads."""


def start(design: dict, folder: Path | None = None) -> dict:
    """A draft from `design` (a level document: a sandbox design, or a level to vary), with an
    id of its own in the teacher's folder and the course. A level of a kind the editor makes
    stays that level (a variant of it), but for a stability level, whose answer (the members
    to put back) is not in its file; any other is its structure, a free-body level when it
    has supports (the textbook's first question of a structure), else a sandbox."""
    doc = copy.deepcopy(design)
    doc.pop("$schema", None)
    doc["id"] = free_id(folder)
    variant = doc.get("kind") in KINDS_MADE and not KINDS[doc["kind"]].designs and not takes_members(doc)
    title = doc.get("title") if variant else None  # a sandbox's title is "Sandbox"
    if not title:
        with speaking(SOURCE_LANG):  # every level has an English title, the one shown where a language has none
            title = {SOURCE_LANG: _("My level")}
    doc["title"] = title if isinstance(title, dict) else {language(): title}
    doc["_written_for"] = {f"{field}.{code}": text_of(doc, field, SOURCE_LANG) for field, code in _translations(doc)}
    if variant:
        return doc
    doc = _as_structure(doc)
    doc["kind"] = PLAIN_KIND
    doc.setdefault("materials", {}).setdefault("steel", dict(DRAFTED_STEEL))  # a structure without materials is of steel
    return set_kind(doc, FIRST_KIND) if doc.get("supports") else doc


SOURCE_LANG = "en"


def _as_structure(doc: dict) -> dict:
    """A level of another kind as the structure it shows: its cuts back as supports, its
    player rules and its goal gone, its numbers kept."""
    doc = copy.deepcopy(doc)
    for cut in doc.pop("cut", None) or []:
        if cut.get("what") == "support":
            doc.setdefault("supports", []).append(support_of(cut))
    for key in ("player", "goal", "hints", "explanation"):
        doc.pop(key, None)
    return doc


def free_id(folder: Path | None = None) -> str:
    """`my-level-N`, the first N that is neither a course level's id nor one in the teacher's folder."""
    taken = {level.id for level in teacher_levels(folder)}
    n = 1
    while f"my-level-{n}" in taken or (LEVELS_DIR / f"my-level-{n}.json").is_file():
        n += 1
    return f"my-level-{n}"


def set_kind(doc: dict, kind: str) -> dict:
    """The draft as a level of `kind`, drafted as that kind says (`Kind.drafted`), the other
    kinds' fields taken away. A build level keeps the structure as drawn as its reference
    design, and its budget is half as much again as that design costs."""
    if kind not in KINDS_MADE:
        raise Refused(_("The editor makes levels of these kinds: {kinds}.").format(kinds=", ".join(KINDS_MADE)))
    doc = _plain(doc)
    doc["kind"] = kind
    doc["_world"] = doc.get("world") or {}  # the structure's own world, back when the kind changes again
    if KINDS[kind].builds:
        doc["_design"] = {"nodes": doc["nodes"], "members": doc.get("members", [])}
    try:
        doc = KINDS[kind].drafted(doc)
    except ValueError as exc:
        raise Refused(str(exc)) from exc
    if KINDS[kind].builds and _built(doc):
        doc["player"]["budget"] = _nice_budget(1.5 * design_cost(doc))
        doc = _sag_the_design_passes(doc)
    return _without_lost_numbers(doc)


SAG_MARGIN = 1.25  # a drafted build level allows a quarter more sag than the teacher's design sags
SAG_STEP = 0.005  # [m] and rounds it up to half centimetres


def _sag_the_design_passes(doc: dict) -> dict:
    """A build draft whose largest sag allowed is at least SAG_MARGIN times what the
    teacher's design sags (where it sags more than the drafted limit): the structure as
    drawn is an answer that passes, with room for a student's like it."""
    _found, level = level_problems(level_document(doc))
    if level is None:
        return doc
    sag = judge(level, load_solution(reference_design(doc))).figures.get("max_displacement")
    limit = doc["goal"].get("max_displacement")
    if sag is not None and limit is not None and math.isfinite(sag) and sag * SAG_MARGIN > limit:
        doc["goal"]["max_displacement"] = _round(math.ceil(sag * SAG_MARGIN / SAG_STEP) * SAG_STEP)
    return doc


def design_problem(doc: dict, level: Level) -> str | None:
    """What is wrong with a build draft's reference design (the teacher's structure as a
    student would build it), in the judge's words; None when it passes."""
    design = reference_design(doc)
    if design is None:
        return None
    verdict = judge(level, load_solution(design))
    return None if verdict.passed else "answer: " + _("your structure, built as the student would build it, does not pass: {why}").format(why=verdict.reason)


def _without_lost_numbers(doc: dict) -> dict:
    """The numbers set into a node the kind took away (a build's design node) taken away too."""
    vary = doc.get("vary")
    if not vary:
        return doc
    ids = {n["id"] for n in doc["nodes"]}
    for field in [f for f in vary.get("set", {}) if f.startswith("nodes.") and f.split(".")[1] not in ids]:
        doc = unvary(doc, named_number(vary["set"][field]))
        vary = doc.get("vary") or {}
    return doc


def _plain(doc: dict) -> dict:
    """The draft as its structure alone: cuts back as supports, a build's design back in
    its members, no kind's fields."""
    doc = copy.deepcopy(doc)
    whole = doc.pop("_whole", None)
    for mark in PART_MARKS:
        doc.pop(mark, None)
    if whole is not None:  # a joint or a section cut out: the structure it was cut from, as it was
        doc.pop("cut", None)
        doc.pop("vary", None)
        doc.update(copy.deepcopy(whole))
    for cut in doc.pop("cut", None) or []:
        doc.setdefault("supports", []).append(support_of(cut))
    design = doc.pop("_design", None)
    if design is not None:
        doc["nodes"], doc["members"] = design["nodes"], design["members"]
        if "supports" in design:  # a stability draft's supports taken away: back
            doc["supports"] = design["supports"]
    if "_world" in doc:
        doc["world"] = doc.pop("_world")
    if "_supports" in doc:  # a balance floats free: its structure's supports kept aside
        doc["supports"] = doc.pop("_supports")
    for key in ("player", "goal"):
        doc.pop(key, None)
    return doc


def toggle_cut(doc: dict, node: str) -> dict:
    """free_body: the support at `node` cut away (its forces become the student's unknowns),
    or a cut there put back as the support it was."""
    if not KINDS[doc["kind"]].cuts:
        raise Refused(_("Only a free-body level has cuts: choose that kind first."))
    doc = copy.deepcopy(doc)
    cuts = doc.setdefault("cut", [])
    for k, cut in enumerate(cuts):
        if cut["node"] == node and cut.get("what") == "support":
            doc.setdefault("supports", []).append(support_of(cuts.pop(k)))
            return _tidy(doc)
    supports = doc.get("supports") or []
    for k, support in enumerate(supports):
        if support["node"] == node:
            try:
                cuts.append(cut_of(supports.pop(k)))
            except ValueError as exc:
                raise Refused(str(exc)) from exc
            return _tidy(doc)
    raise Refused(_("Nothing holds this point: cut away a support (add one first with the support tool of the sandbox)."))


def isolate_joint(doc: dict, node: str, asked: list[str] | None = None) -> dict:
    """free_body: the joint `node` of the whole structure alone, the free body of the method of
    joints (game/rules/part_body.py: its members cut, two of them asked, the others' forces
    and its reaction given); `asked`: the members asked (default: two not on one line). The
    whole structure is kept (`_whole`): K, another joint or a section starts from it again."""
    return _cut_free(doc, lambda structure: joint_body(structure, node, asked), {"_joint": node})


def cut_section(doc: dict, p: tuple[float, float], q: tuple[float, float], touching: float = 0.0) -> dict:
    """free_body: the part of the whole structure on one side of the section line drawn from
    `p` to `q` [m], the free body of the method of sections (its side with fewer joints;
    `other_side` turns it round): the members it crosses cut there, three of them asked.
    Refused where it passes within `touching` [m] of a joint."""
    return _section_of(doc, lambda structure: section_body(structure, p, q, touching))


def name_section(doc: dict, text: str) -> dict:
    """free_body: the section that cuts the members named in `text` (apart, or with commas),
    as `cut_section` draws one; each cut halfway."""
    return _section_of(doc, lambda structure: named_section(structure, text.replace(",", " ").split()))


def other_side(doc: dict) -> dict:
    """A section's free body turned round: the part on its other side kept."""
    section = doc.get("_section")
    if section is None:
        raise Refused(_("Draw a section first: drag a line across the structure."))
    return _section_of(doc, lambda structure: other_part(structure, set(section["kept"]), section["shares"]))


def take_apart(doc: dict, member: str, asked: list[str] | None = None) -> dict:
    """free_body: the frame taken apart at its pins, the body of member `member` alone
    (game/rules/frame_body.py: cut at each node where another body or a support held it,
    the cuts statics finds asked, the others' forces given from the whole frame); `asked`:
    the nodes whose cuts are asked (default: supports first, as many as statics finds)."""
    return _cut_free(doc, lambda structure: body_apart(structure, member, asked), {"_body": member})


def toggle_body_cut(doc: dict, node: str) -> dict:
    """A body's cut at `node` asked (the student gives its forces) or given (a load)."""
    asked = [c["node"] for c in doc.get("cut") or []]
    asked = [n for n in asked if n != node] if node in asked else [*asked, node]
    return take_apart(doc, doc["_body"], asked)


def _section_of(doc: dict, part: Callable[[dict], tuple[set[str], dict[str, float]]], asked: list[str] | None = None) -> dict:
    found: dict = {}

    def body(structure: dict) -> dict:
        kept, shares = part(structure)
        found.update(kept=[n["id"] for n in structure["nodes"] if n["id"] in kept], shares=shares)
        return part_body(structure, kept, shares, asked)

    out = _cut_free(doc, body, {})
    out["_section"] = found
    return out


def _cut_free(doc: dict, body: Callable[[dict], dict], mark: dict) -> dict:
    """The free body `body` makes of the whole structure the draft was cut from (or is), the
    whole kept as `_whole`, `mark` (which part it is) beside it."""
    if not KINDS[doc["kind"]].cuts:
        raise Refused(_("Only a free-body level has cuts: choose that kind first."))
    whole = doc.get("_whole") or {k: v for k, v in _plain(doc).items() if k in WHOLE}
    structure = drafted_at_rest({**{k: copy.deepcopy(v) for k, v in doc.items() if k not in PART_MARKS}, **copy.deepcopy(whole)})
    structure.pop("cut", None)
    try:
        cut = carried(structure, body, body(structure))
    except ValueError as exc:
        raise Refused(str(exc)) from exc
    return {**cut, "kind": doc["kind"], "_whole": whole, **mark}


WHOLE = ("nodes", "members", "triangles", "supports", "loads", "member_loads", "vary", "world")  # what `_whole` keeps of the structure a part was cut from
PART_MARKS = ("_joint", "_section", "_body", "_cuts")  # which part a draft is: the editor's, never saved, dropped when another is cut


def toggle_part_member(doc: dict, member: str) -> dict:
    """A member cut at an isolated joint or a section asked (the student gives its force) or
    given (its force a load)."""
    asked = [c["member"] for c in doc.get("cut") or [] if c.get("member")]
    return _recut(doc, [m for m in asked if m != member] if member in asked else [*asked, member])


def _recut(doc: dict, asked: list[str] | None = None) -> dict:
    """The part the draft is cut again from its whole structure (after a change to the whole's
    numbers), `asked` asked (None: what it asks now: members cut, or a body's nodes)."""
    part = cut_part(doc)
    if asked is None:
        asked = [c["node"] for c in doc.get("cut") or []] if part == "body" else [c["member"] for c in doc.get("cut") or [] if c.get("member")]
    if part == "joint":
        return isolate_joint(doc, doc["_joint"], asked)
    if part == "body":
        return take_apart(doc, doc["_body"], asked)
    section = doc["_section"]
    return _section_of(doc, lambda _structure: (set(section["kept"]), section["shares"]), asked)


PART_NUMBERS = N_(
    "A part cut out has the whole structure's numbers, its given forces worked out from them: make a load or a dimension"
    " each student's own on the whole (empty the free body's row), then cut the part again."
)


def _on_whole(doc: dict, change: Callable[[dict], dict]) -> dict:
    """A part's draft with `change` made to its whole structure's numbers, the part cut again."""
    whole = change({**copy.deepcopy(doc["_whole"]), "kind": doc["kind"]})
    return _recut({**doc, "_whole": {k: whole[k] for k in WHOLE if k in whole}})


def part_typed(doc: dict) -> str:
    """The part the draft is, as its row types it: the joint, the members the section cuts, the body's member ("": the whole)."""
    section = doc.get("_section")
    return doc.get("_joint") or (" ".join(section["shares"]) if section else "") or doc.get("_body") or ""


def cut_out(doc: dict, text: str) -> dict:
    """free_body: the part typed in `text` cut out of the whole structure: a joint's name (its
    joint alone), the names of the members a section cuts (two or more), or one member of a
    frame (its body alone); "" the whole structure again."""
    names = text.replace(",", " ").split()
    whole = doc.get("_whole") or {k: v for k, v in _plain(doc).items() if k in WHOLE}
    nodes, members = {n["id"] for n in whole.get("nodes", [])}, [m["id"] for m in whole.get("members", [])]
    if not names:
        return set_kind(doc, doc["kind"])
    if len(names) == 1 and names[0] in nodes:
        return isolate_joint(doc, names[0])
    if len(names) == 1 and names[0] in members:
        return take_apart(doc, names[0])
    if len(names) > 1 and all(n in members for n in names):
        return name_section(doc, text)
    said = _("Type a joint's name, the members a section cuts, or one member of a frame: the joints are {nodes}; the members are {members}.")
    raise Refused(said.format(nodes=", ".join(sorted(nodes)), members=", ".join(members)))


def cut_part(doc: dict) -> str | None:
    """What part of its structure the draft is, when it is one: "joint", "section" or "body" (a frame's, taken apart)."""
    return next((part for part in ("joint", "section", "body") if f"_{part}" in doc), None)


def supported(doc: dict) -> set[str]:
    """The nodes of the draft on a support, or where a support was cut away."""
    return {c["node"] for c in doc.get("cut") or [] if c.get("what") == "support"} | {s["node"] for s in doc.get("supports") or []}


def asked_of(doc: dict) -> list[str] | None:
    """The members the draft's level asks about (a section's), None for a kind that asks about none."""
    field = KINDS[doc["kind"]].asks_members
    return None if field is None else list((doc.get("player") or {}).get(field) or [])


def toggle_asked(doc: dict, member: str) -> dict:
    """The member `member` asked about, or no longer (a kind with `Kind.asks_members`)."""
    asked = asked_of(doc)
    if asked is None:
        raise Refused(_("This kind of level asks about no member by name: choose a section level first."))
    return set_asked(doc, " ".join([m for m in asked if m != member] if member in asked else [*asked, member]))


def set_asked(doc: dict, text: str) -> dict:
    """The members asked about as typed: their names, apart (the level's problems say
    whether the kind takes that many)."""
    field = KINDS[doc["kind"]].asks_members
    if field is None:
        raise Refused(_("This kind of level asks about no member by name: choose a section level first."))
    names = [n for n in text.replace(",", " ").split() if n]
    members = {m["id"] for m in doc.get("members") or []}
    unknown = [n for n in names if n not in members]
    if unknown:
        shown = sorted(members)[:12]
        names = ", ".join(shown) + (", …" if len(members) > len(shown) else "")
        raise Refused(_("No member is named {name}: the members are {names} (each named on the picture).").format(name=unknown[0], names=names))
    doc = copy.deepcopy(doc)
    doc.setdefault("player", {})[field] = list(dict.fromkeys(names))
    return doc


def _tidy(doc: dict) -> dict:
    for key in ("cut", "supports"):
        if key in doc and not doc[key]:
            del doc[key]
    return doc


def design_cost(doc: dict) -> float:
    """What the teacher's design of a build draft costs by the level's prices: each member
    the student builds (all of them in a build level; those taken away in a stability
    level), its length times the price of the section it is drawn of, and its new nodes."""
    design, sections = doc["_design"], doc["player"]["sections"]
    where = {n["id"]: (n["x"], n["y"]) for n in design["nodes"]}
    given = {n["id"] for n in doc["nodes"]}
    built = _built(doc)
    price = {m["id"]: sections.get(section_of(sections, m) or "", {}).get("cost", 0.0) for m in built}
    members = sum(math.dist(where[m["i"]], where[m["j"]]) * price[m["id"]] for m in built)
    supports = sum(_support_price(doc["player"], s) for s in taken_supports(doc))
    return members + supports + doc["player"].get("node_cost", 0) * len(where.keys() - given)


SUPPORT_COST = 200  # a stability draft's price of a support the student puts back (frames-02's), and of a fixed base
FIXED_SUPPORT_COST = 500


def _support_price(player: dict, support: dict) -> float:
    """What support `support` costs the student by `player`'s prices (rules/construction.py `support_price`)."""
    if "rot" in (support.get("fix") or []) and player.get("fixed_support_cost") is not None:
        return player["fixed_support_cost"]
    return player.get("support_cost") or 0.0


def taken_supports(doc: dict) -> list[dict]:
    """stability: the design's supports the draft takes away, the student's to put back."""
    kept = {s["node"] for s in doc.get("supports") or []}
    return [s for s in (doc.get("_design") or {}).get("supports", []) if s["node"] not in kept]


def toggle_taken_support(doc: dict, node: str) -> dict:
    """stability: the support at `node` taken away (the student's to put back, at a price:
    SUPPORT_COST, a fixed base FIXED_SUPPORT_COST) or kept; the student may put back as
    many supports as are taken, at their nodes, choosing each one's kind (a pin, a roller,
    a fixed base, and any other kind taken away); the budget half as much again as all
    that is taken away costs."""
    if not takes_members(doc):
        raise Refused(_("Only a stability level takes members away: choose that kind first."))
    doc = copy.deepcopy(doc)
    design = doc.setdefault("_design", {"nodes": doc["nodes"], "members": doc.get("members") or []})
    design.setdefault("supports", list(doc.get("supports") or []))
    if node not in {s["node"] for s in design["supports"]}:
        raise Refused(_("Nothing holds this point: a support is taken away where the structure as drawn has one."))
    kept = {s["node"] for s in doc.get("supports") or []}
    kept = kept - {node} if node in kept else kept | {node}
    doc["supports"] = [s for s in design["supports"] if s["node"] in kept]
    taken = taken_supports(doc)
    player = doc["player"]
    for key in ("supports", "support_cost", "fixed_support_cost", "max_supports", "nodes"):
        player.pop(key, None)
    if taken:
        offered = [["x", "y"], ["y"], ["rot", "x", "y"]]  # a pin, a roller, a fixed base: the student chooses, as the kinds taken do not say
        for support in taken:
            kind = {"angle": support["roller"]["angle"]} if support.get("roller") else sorted(support["fix"])
            if kind not in offered:
                offered.append(kind)
        player.update(supports=offered, support_cost=SUPPORT_COST, max_supports=len(taken), nodes=[s["node"] for s in taken])
        player["fixed_support_cost"] = FIXED_SUPPORT_COST
    if _built(doc) or taken:
        player["budget"] = _nice_budget(1.5 * design_cost(doc))
    return doc


def _built(doc: dict) -> list[dict]:
    """The design's members the student builds: those the draft does not give."""
    given = {m["id"] for m in doc.get("members") or []}
    return [m for m in (doc.get("_design") or {}).get("members", []) if m["id"] not in given]


def takes_members(doc: dict) -> bool:
    """A build kind without a zone (stability): the structure as drawn, some of its members
    taken away for the student to put back (`toggle_taken`)."""
    kind = KINDS[doc["kind"]]
    return kind.builds and "zone" not in kind.player_fields


def toggle_taken(doc: dict, member: str) -> dict:
    """stability: member `member` taken away (the student's to put back) or kept; the budget
    half as much again as what is taken away costs."""
    if not takes_members(doc):
        raise Refused(_("Only a stability level takes members away: choose that kind first."))
    doc = copy.deepcopy(doc)
    doc.setdefault("_design", {"nodes": doc["nodes"], "members": doc.get("members") or []})  # a level's file: its structure as drawn
    design = {m["id"]: m for m in doc["_design"]["members"]}
    if member not in design:
        return doc
    kept = [m for m in doc.get("members") or [] if m["id"] != member]
    if len(kept) == len(doc.get("members") or []):
        kept = [m for m in doc["_design"]["members"] if m["id"] in {k["id"] for k in kept} | {member}]
    doc["members"] = kept
    if _built(doc) or taken_supports(doc):
        doc["player"]["budget"] = _nice_budget(1.5 * design_cost(doc))
    return doc


def _nice_budget(x: float) -> int:
    step = 10 ** max(1, math.floor(math.log10(max(x, 1.0))) - 1)
    return int(math.ceil(x / step) * step)


def set_zone(doc: dict, a: tuple[float, float], b: tuple[float, float]) -> dict:
    """build: the zone the student's nodes must lie in, the rectangle with corners a and b [m]."""
    if not KINDS[doc["kind"]].builds or "zone" not in KINDS[doc["kind"]].player_fields:
        raise Refused(_("Only a build level has a zone: choose that kind first."))
    (x0, x1), (y0, y1) = sorted((a[0], b[0])), sorted((a[1], b[1]))
    if x1 - x0 < 0.1 or y1 - y0 < 0.1:
        raise Refused(_("Drag out a zone at least 10 cm wide and high."))
    doc = copy.deepcopy(doc)
    r = _round
    doc["player"]["zone"] = [[r(x0), r(y0)], [r(x1), r(y0)], [r(x1), r(y1)], [r(x0), r(y1)]]
    return doc


MODES = tuple(
    m for m in get_args(Player.model_fields["mode"].annotation) for m in get_args(m) if isinstance(m, str)
)  # player.mode's values, as the format has them


def next_mode(doc: dict) -> dict:
    """The next of the modes a kind with modes (`Kind.mode_tools`) is played in."""
    if not KINDS[doc["kind"]].mode_tools:
        raise Refused(_("This kind of level is played one way only."))
    doc = copy.deepcopy(doc)
    player = doc.setdefault("player", {})
    player["mode"] = MODES[(MODES.index(player["mode"]) + 1) % len(MODES)] if player.get("mode") in MODES else MODES[0]
    return doc


def set_budget(doc: dict, budget: float) -> dict:
    if not KINDS[doc["kind"]].builds:
        raise Refused(_("Only a build level has a budget: choose that kind first."))
    if not (budget > 0 and math.isfinite(budget)):
        raise Refused(_("A budget is more than nothing."))
    doc = copy.deepcopy(doc)
    doc["player"]["budget"] = budget
    return doc


GOAL_UNITS = {"hold": 1.0, "max_displacement": 0.01}  # the goal fields the editor sets, and the size of the unit a teacher types them in (s, cm)


def set_goal(doc: dict, field: str, value: float) -> dict:
    """The goal's `field` (one of GOAL_UNITS the kind uses) set to `value` in its unit (s, cm)."""
    if field not in GOAL_UNITS or field not in KINDS[doc["kind"]].goal_fields or "goal" not in doc:
        raise Refused(_("This kind of level does not ask that."))
    if not (value > 0 and math.isfinite(value)):
        raise Refused(_("Type a number greater than zero."))
    doc = copy.deepcopy(doc)
    doc["goal"][field] = _round(value * GOAL_UNITS[field])
    return doc


PLAYER_UNITS = {"forces": 1.0, "max_force": 1000.0}  # a balance's fields the editor sets, and the unit a teacher types them in (forces, kN)
MOST_FORCES = 4  # a balance asks for at most this many forces: the level format's own bound is larger, a class's patience is not


def set_player(doc: dict, field: str, value: float) -> dict:
    """A balance's number of forces, or its largest force allowed [kN] (`PLAYER_UNITS`)."""
    if field not in PLAYER_UNITS or "max_force" not in KINDS[doc["kind"]].player_fields:
        raise Refused(_("This kind of level does not ask that."))
    if field == "forces" and not (value == int(value) and 1 <= value <= MOST_FORCES):
        raise Refused(_("Type a whole number of forces from 1 to {most}.").format(most=MOST_FORCES))
    if not (value > 0 and math.isfinite(value)):
        raise Refused(_("Type a number greater than zero."))
    doc = copy.deepcopy(doc)
    doc["player"][field] = int(value) if field == "forces" else _round(value * PLAYER_UNITS[field])
    return doc


def toggle_place(doc: dict, node: str) -> dict:
    """A balance's node `node` one where the student's forces may act, or no longer."""
    if "max_force" not in KINDS[doc["kind"]].player_fields:
        raise Refused(_("This kind of level does not ask that."))
    doc = copy.deepcopy(doc)
    nodes = list(doc["player"].get("nodes") or [])
    doc["player"]["nodes"] = [n for n in nodes if n != node] if node in nodes else [*nodes, node]
    if not doc["player"]["nodes"]:
        raise Refused(_("The forces need somewhere to act: keep at least one node."))
    return doc


def set_price(doc: dict, section: str, cost: float) -> dict:
    """A build level's price of a metre of `section`."""
    if not KINDS[doc["kind"]].builds or section not in doc["player"].get("sections", {}):
        raise Refused(_("Only a build level has prices: choose that kind first."))
    if not (cost > 0 and math.isfinite(cost)):
        raise Refused(_("Type a number greater than zero."))
    doc = copy.deepcopy(doc)
    doc["player"]["sections"][section]["cost"] = _round(cost)
    return doc


def set_text(doc: dict, field: str, lang: str, text: str) -> dict:
    """The level's `field` (one of TEXTS, or "hint:K", the K-th hint from 0; one past the
    last adds a hint) in language `lang`; an empty text takes that language's away (and a
    hint left with no language, the hint)."""
    hint = _hint_index(field)
    if (field not in TEXTS and hint is None) or lang not in LANGUAGES:
        raise Refused(f"{field} / {lang}")
    doc = copy.deepcopy(doc)
    text = text.strip()
    if lang != SOURCE_LANG:  # the English text this translation is written for (stale_texts)
        doc.setdefault("_written_for", {})[f"{field}.{lang}"] = text_of(doc, field, SOURCE_LANG)
    if hint is not None:
        hints = doc.setdefault("hints", [])
        if hint > len(hints):
            raise Refused(f"{field} / {lang}")
        if hint == len(hints):
            hints.append({})
        hints[hint] = _with(hints[hint] if isinstance(hints[hint], dict) else {SOURCE_LANG: hints[hint]}, lang, text)
        doc["hints"] = [h for h in hints if h]
        if not doc["hints"]:
            del doc["hints"]
        return doc
    old = doc.get(field) or {}
    doc[field] = _with(old if isinstance(old, dict) else {SOURCE_LANG: old}, lang, text)
    if not doc[field] and field != "title":
        del doc[field]
    return doc


def _translations(doc: dict) -> list[tuple[str, str]]:
    """(field, language) of each text the draft holds in a language other than English."""
    fields = [*TEXTS, *(f"hint:{k}" for k in range(len(doc.get("hints") or [])))]
    return [(f, code) for f in fields for code in LANGUAGES if code != SOURCE_LANG and text_of(doc, f, code)]


def stale_texts(doc: dict) -> list[tuple[str, str]]:
    """(field, language) of each translation written for an English text that has changed
    since (a variant of a level whose English brief the teacher rewrote): to check."""
    written_for = doc.get("_written_for") or {}
    return [(f, code) for f, code in _translations(doc) if written_for.get(f"{f}.{code}", text_of(doc, f, SOURCE_LANG)) != text_of(doc, f, SOURCE_LANG)]


def _with(texts: dict, lang: str, text: str) -> dict:
    texts = dict(texts)
    if text:
        texts[lang] = text
    else:
        texts.pop(lang, None)
    return texts


def _hint_index(field: str) -> int | None:
    kind, _colon, k = field.partition(":")
    return int(k) if kind == "hint" and k.isdigit() else None


def text_of(doc: dict, field: str, lang: str) -> str:
    hint, hints = _hint_index(field), doc.get("hints") or []
    value = (hints[hint] if hint < len(hints) else "") if hint is not None else doc.get(field)
    return value.get(lang, "") if isinstance(value, dict) else (value or "" if lang == SOURCE_LANG else "")


@dataclass(frozen=True)
class Range:
    """A number of the student's own: from `low` to `high` in steps of `step`, in the
    number's unit as the teacher typed it (kN, m)."""

    low: float
    high: float
    step: float


FORCE_UNIT, LENGTH_UNIT = "kN", "m"
UNIT_SIZE = {"kN": 1000.0, "m": 1.0}


def suggested_range(value: float, unit: str) -> Range:
    """A range a teacher would start from: a load's size from half to one and a half times
    it in steps fine enough for LEAST_VERSIONS values (what validate asks for) (10 kN: 5 to 15 kN in steps of 0.01);
    a length (a node's distance or height, which may be 0 or less), in steps of a round
    size, a quarter of itself (of 1 m at least) either side of it, so the value as drawn is
    in the range, the node stays where it is, and does not reach a node beside it (4 m
    between nodes 2 m apart: 3 to 5 m)."""
    v = value / UNIT_SIZE[unit]
    size = abs(v) or 1.0
    if unit == LENGTH_UNIT:
        size = max(size, 1.0)
    step = 10 ** math.floor(math.log10(size / 5))
    step *= 5 if size / step >= 50 else 2 if size / step >= 20 else 1
    if unit == LENGTH_UNIT:
        return Range(_round(math.floor((v - size / 4) / step) * step), _round(math.ceil((v + size / 4) / step) * step), _round(step))
    low, high = max(math.floor(size / 2 / step) * step, step), math.ceil(size * 1.5 / step) * step
    most = (high - low) / LEAST_VERSIONS  # the coarsest step that gives the class enough versions with this load alone
    decade = 10 ** math.floor(math.log10(most) + 1e-9)
    fine = next(k * decade for k in (5, 2, 1) if k * decade <= most * (1 + 1e-9))
    return Range(_round(low), _round(high), _round(fine))


def vary_load(doc: dict, load: int, rng: Range) -> dict:
    """The size of load `load` (its index in `loads`) a number of each student's own in
    `rng` [kN]: named P1, P2, … by the order the teacher chose them, its direction kept."""
    if cut_part(doc) is not None:
        raise Refused(_(PART_NUMBERS))
    doc = copy.deepcopy(doc)
    entry = doc["loads"][load]
    parts = [k for k in ("fx", "fy") if entry.get(k)]
    if not parts:
        raise Refused(_("This load is nothing: give it a size in the sandbox first."))
    size = math.hypot(*(entry[k] for k in parts))
    name = _name_for(doc, f"loads[{load}]", "P")
    number = _number(doc, name, rng, FORCE_UNIT, size, N_("the load at {node}"), entry["node"])
    sets = doc["vary"].setdefault("set", {})
    for k in parts:
        share = entry[k] / size
        sets[f"loads[{load}].{k}"] = name if abs(share - 1) < 1e-12 else f"-{name}" if abs(share + 1) < 1e-12 else f"{_round(share)} * {name}"
    doc["vary"]["numbers"][name] = number
    return _put_default(doc, name)


def vary_node(doc: dict, node: str, axis: str, rng: Range) -> dict:
    """Node `node`'s coordinate `axis` ("x" or "y") a number of each student's own in
    `rng` [m], measured from the node the student sees it from (`measured_from`): its
    distance from the leftmost support, its height above the lowest."""
    if cut_part(doc) is not None:
        raise Refused(_(PART_NUMBERS))
    doc = copy.deepcopy(doc)
    origin, value = measured_from(doc, node, axis)
    name = _name_for(doc, f"nodes.{node}.{axis}", "L")
    doc["vary"] = doc.get("vary") or {"numbers": {}}
    words = N_("the distance of {node} from {origin}") if axis == "x" else N_("the height of {node} above {origin}")
    doc["vary"]["numbers"][name] = _number(doc, name, rng, LENGTH_UNIT, value, words, node, origin=origin)
    base = next(n for n in doc["nodes"] if n["id"] == origin)[axis] if origin != node else 0.0
    doc["vary"].setdefault("set", {})[f"nodes.{node}.{axis}"] = f"{_round(base)} + {name}" if base else name
    return _put_default(doc, name)


def measured_from(doc: dict, node: str, axis: str) -> tuple[str, float]:
    """(The node a dimension of `node` is measured from, the dimension [m]): for x the
    leftmost support (any other node where none), for y the lowest; the node itself, from
    the origin, when it is the only one."""
    at = {n["id"]: (n["x"], n["y"]) for n in doc["nodes"]}
    held = [s["node"] for s in doc.get("supports", []) + doc.get("cut", []) if s["node"] in at and s["node"] != node]
    others = held or [k for k in at if k != node]
    k = 0 if axis == "x" else 1
    if not others:
        return node, at[node][k]
    origin = min(others, key=lambda o: (at[o][k], o))
    return origin, at[node][k] - at[origin][k]


def _name_for(doc: dict, field: str, letter: str) -> str:
    """The number already set into `field` (a new range replaces it), else the next free name."""
    vary = doc.setdefault("vary", {"numbers": {}})
    for key, expression in (vary.get("set") or {}).items():
        if key.startswith(field):
            name = named_number(expression)
            if name in vary["numbers"]:
                return name
    k = 1
    while f"{letter}{k}" in vary["numbers"]:
        k += 1
    return f"{letter}{k}"


def _number(doc: dict, name: str, rng: Range, unit: str, value: float, words: str, node: str, origin: str = "") -> dict:
    if not (rng.step > 0 and rng.low <= rng.high):
        raise Refused(_("A range goes up from its least to its greatest value in steps of more than nothing."))
    size = UNIT_SIZE[unit]
    said = {}
    for lang in LANGUAGES:
        with speaking(lang):
            said[lang] = _(words).format(node=node, origin=origin)
    low, high, step = rng.low * size, rng.high * size, rng.step * size
    default = min(max(low + round((value - low) / step) * step, low), high)  # the value as drawn (a load's size), on a step
    return {"min": _round(low), "max": _round(high), "step": _round(step), "unit": unit, "default": _round(default), "words": said}


def set_range(doc: dict, name: str, text: str) -> dict:
    """Number `name`'s range as typed: its least and greatest values and the step, in its
    unit ("6 18 1": 6 kN to 18 kN in steps of 1 kN); its default kept where it still lies in it."""
    if cut_part(doc) is not None:
        return _on_whole(doc, lambda whole: set_range(whole, name, text))
    parts = text.replace(";", " ").split()
    try:
        low, high, step = (float(p.replace(",", ".")) for p in parts)
    except ValueError as exc:
        raise Refused(_("Type the least value, the greatest and the step, such as 6 18 1.")) from exc
    doc = copy.deepcopy(doc)
    number = doc["vary"]["numbers"][name]
    size = UNIT_SIZE.get(number.get("unit", ""), 1.0)
    if not (step > 0 and low <= high and all(map(math.isfinite, (low, high, step)))):
        raise Refused(_("A range goes up from its least to its greatest value in steps of more than nothing."))
    if number.get("unit") == FORCE_UNIT and low <= 0:  # a load's size: its direction is the one drawn
        raise Refused(_("A load's size is more than nothing (its direction stays as drawn): start the range above 0."))
    number.update(min=_round(low * size), max=_round(high * size), step=_round(step * size))
    k = round((number["default"] - number["min"]) / number["step"])
    number["default"] = _round(min(max(number["min"] + k * number["step"], number["min"]), number["max"]))
    return _put_default(doc, name)


def unvary(doc: dict, name: str) -> dict:
    """The number `name` the same for every student again (its default in the level)."""
    if cut_part(doc) is not None:
        return _on_whole(doc, lambda whole: unvary(whole, name))
    doc = copy.deepcopy(doc)
    vary = doc.get("vary") or {"numbers": {}}
    vary["numbers"].pop(name, None)
    vary["set"] = {k: v for k, v in (vary.get("set") or {}).items() if named_number(v) != name}
    if not vary["numbers"]:
        doc.pop("vary", None)
    return doc


def _round(x: float) -> float:
    r = round(x, 9)
    return int(r) if r == int(r) else r


def level_document(doc: dict) -> dict:
    """The draft as the level file it saves: the editor's own fields (_design, the build's
    reference design; _world, the structure's world) left out."""
    return {k: v for k, v in doc.items() if not k.startswith("_")}


def _put_default(doc: dict, name: str) -> dict:
    """The fields the editor set from number `name` ("P1", "-P1", "0.6 * P1", "2 + L1")
    given what its default makes of them: the file holds the level's own numbers, as the format asks."""
    env = {k: n["default"] for k, n in doc["vary"]["numbers"].items()}
    for field, expression in doc["vary"].get("set", {}).items():
        if named_number(expression) != name:
            continue
        value = evaluate(parse(expression), env, field)
        if field.startswith("loads["):
            index, key = field[len("loads[") :].split("].")
            doc["loads"][int(index)][key] = _round(value)
        else:
            _nodes, node, axis = field.split(".")
            next(n for n in doc["nodes"] if n["id"] == node)[axis] = _round(value)
    return doc


def named_number(expression: str) -> str:
    """The number an expression the editor set names ("0.6 * P1", "2 + L1": P1, L1; "" for none)."""
    try:
        return min(names_in(parse(expression)), default="")
    except ValueError:
        return ""


def checked(doc: dict) -> tuple[list[str], Level | None]:
    """What `equilibria validate` says of the level the draft saves, each 'field: what is
    wrong', and the level when it says nothing (the checks build the model and try the ends
    of the ranges: done once per draft, the editor keeps the result)."""
    found, level = level_problems(level_document(doc))
    if KINDS[doc["kind"]].builds and not _built(doc) and (not takes_members(doc) or "_design" not in doc):  # opened bare: no answer in it
        said = _(
            "answer: a structure that carries the loads, drawn in the sandbox: build one there"
            " (`equilibria sandbox LEVEL` opens a level's deck and supports), then Ctrl+L"
        )
        return [said, *found], None
    if level is not None and KINDS[doc["kind"]].builds and (problem := design_problem(doc, level)) is not None:
        return [*found, problem], None
    if level is not None and "max_force" in KINDS[doc["kind"]].player_fields and (problem := _force_problem(level)) is not None:
        return [*found, problem], None
    if level is not None and level.cut and cut_part(doc) is not None and answer_solution(level) is None:  # too many members asked
        said = (
            _("cut: a joint gives two equations, so statics finds the forces of two of its members: a click on a member asked gives it")
            if cut_part(doc) == "joint"
            else _("cut: a body gives three equations, so statics finds three of the unknowns at its cuts: a click on a cut asked gives it")
            if cut_part(doc) == "body"
            else _(
                "cut: a part cut by a section gives three equations, so statics finds the forces of three members"
                " that neither meet at one point nor are parallel: a click on a member asked gives it"
            )
        )
        return [*found, said], None
    if level is not None and level.cut and not doc.get("explanation") and answer_solution(level) is None:  # two pins, say
        said = _(
            "cut: statics alone does not give their forces (more unknowns than equations of equilibrium), so any"
            " balanced set would pass: make one of the supports a roller in the sandbox, or say in the explanation what passes"
        )
        return [*found, said], None
    return found, level


def _force_problem(level: Level) -> str | None:
    """A balance whose forces cannot balance some student's loads at its nodes, or only with
    a force larger than it allows: said with the force needed (the editor's own checks, at
    the level's numbers and at the ends of its ranges)."""
    wanted, nodes = level.player.forces or 2, level.player.nodes or []
    if nodes and len(nodes) < wanted:
        return "player.nodes: " + _("{n} forces act at {n} nodes, one each: give them as many (a click on a node)").format(n=wanted)
    for numbers in [{}, *extremes(level)]:
        version = with_numbers(level, numbers, explain=False, texts=False) if numbers else level
        answer = KINDS[level.kind].answer(version)
        if answer is None:
            return "player.nodes: " + _("no forces at these nodes balance the loads (all on one line?): add a node off their line")
        needed = max(math.hypot(f.fx, f.fy) for f in answer)
        if version.player.max_force is not None and needed > version.player.max_force * (1 + 1e-9):
            said = _("a student's loads need a force of {size} at least: allow that much")
            return "player.max_force: " + said.format(size=shown(needed, "kN"))
    return None


def problems(doc: dict) -> list[str]:
    return checked(doc)[0]


def built(doc: dict) -> Level | None:
    """The draft's level (None while it has problems)."""
    return checked(doc)[1]


def reference(doc: dict, level: Level | None = None) -> list[str]:
    """The answer the judge computes for the draft as written (its default numbers), or for
    `level`, one student's version of it, in lines a teacher reads; [] while the draft has
    problems or the kind has no goal."""
    level = built(doc) if level is None else level
    if level is None or not KINDS[level.kind].judged:
        return []
    kind = KINDS[level.kind]
    if kind.builds:
        said = _("Your design costs {cost} of the budget {budget}.")
        return [said.format(cost=decimal(design_cost(doc), 0), budget=decimal(doc["player"]["budget"], 0))] if doc.get("_design") else []
    if level.cut:
        return answer_lines(level)
    moves = kind.answer(level) if kind.answer is not None else None
    if moves is None:
        return [_("No one answer: the judge decides from the student's work, as the explanation should say.")]
    forces = [m for m in moves if getattr(m, "force", None) is not None]
    if forces:  # a section: the force in each member cut
        said = (_("{member}: {force} in tension"), _("{member}: {force} in compression"), _("{member}: no force"))
        tiny = max(1e-3, 1e-6 * max(abs(m.force) for m in forces))  # below a millinewton, or round-off of the largest force: none
        sign = [0 if m.force > tiny else 1 if m.force < -tiny else 2 for m in forces]
        return [said[k].format(member=m.member, force=shown(abs(m.force), "kN")) for k, m in zip(sign, forces, strict=True)]
    pushes = [m for m in moves if getattr(m, "fx", None) is not None]
    if pushes:  # a balance: one set of forces that balances, of the many that do
        said = _("force at {node}: Fx = {fx}, Fy = {fy}")
        lines = [said.format(node=m.node, fx=shown(m.fx, "kN"), fy=shown(m.fy, "kN")) for m in pushes]
        return [*lines, _("(one answer of many: any forces where the level allows them that balance the loads pass)")]
    members = [m.member for m in moves if hasattr(m, "member")]
    return [_("The members of the answer: {members}").format(members=", ".join(members) or _("none"))]


def reference_design(doc: dict) -> dict | None:
    """A build draft's reference answer as a solution file: the teacher's nodes and members as the student's moves."""
    design = doc.get("_design")
    if design is None:
        return None
    given = {n["id"] for n in doc["nodes"]}
    moves = [{"type": "add_node", "id": n["id"], "x": n["x"], "y": n["y"]} for n in design["nodes"] if n["id"] not in given]
    sections = doc["player"]["sections"]
    moves += [{"type": "add_member", "id": m["id"], "i": m["i"], "j": m["j"], "section": section_of(sections, m) or "light"} for m in _built(doc)]
    moves += [{"type": "add_support", **{k: v for k, v in s.items() if k in ("node", "fix", "roller")}} for s in taken_supports(doc)]
    return {"format": 1, "level": doc["id"], "moves": moves}


def set_id(doc: dict, level_id: str, folder: Path | None = None) -> dict:
    if not LEVEL_ID.fullmatch(level_id):
        raise Refused(_("An id is letters, digits, - and _ (up to 64), such as week-3-bridge."))
    if (LEVELS_DIR / f"{level_id}.json").is_file():
        raise Refused(_("{id} is the id of a level of the course: choose another.").format(id=level_id))
    doc = copy.deepcopy(doc)
    doc["id"] = level_id
    return doc


def save(doc: dict, folder: Path | None = None) -> Path:
    """Write the draft to the teacher's folder as `ID.json` (a build's reference design to
    `solutions/ID.json` beside it), atomically; Refused (its first problem) while it has any."""
    found = problems(doc)
    if found:
        raise Refused(_("Not saved: {problem}").format(problem=found[0]))
    folder = teacher_folder() if folder is None else folder
    path = folder / f"{doc['id']}.json"
    others = [t for t in teacher_levels(folder) if t.id == doc["id"] and t.path != path]
    if others:
        raise Refused(_("{id} is already the id of {file}: choose another.").format(id=doc["id"], file=others[0].path.name))
    folder.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, level_document(doc), indent=1)
    design = reference_design(doc)
    if design is not None:
        (folder / "solutions").mkdir(exist_ok=True)
        write_json_atomic(folder / "solutions" / f"{doc['id']}.json", design, indent=1)
    return path


class Authoring:
    """The draft and its history: each edit a new document, Ctrl+Z the one before, Ctrl+Y
    the one after. An edit that is refused changes nothing and says why (`said`)."""

    def __init__(self, design: dict, folder: Path | None = None):
        self.folder = folder
        self.history = [json.dumps(start(design, folder))]
        self.at = 0
        self.said = ""
        self.saved_to: Path | None = None
        self.saved_doc = ""  # the draft as saved last (JSON)

    @property
    def doc(self) -> dict:
        return json.loads(self.history[self.at])

    def edit(self, change: Callable[[dict], dict]) -> bool:
        """Apply `change` to the draft; False (and `said` why) when it is refused."""
        try:
            doc = change(self.doc)
        except Refused as exc:  # said why; nothing changed
            self.said = str(exc)
            return False
        self.said = ""
        text = json.dumps(doc)
        if text != self.history[self.at]:
            del self.history[self.at + 1 :]
            self.history.append(text)
            self.at += 1
        return True

    def undo(self) -> bool:
        if self.at == 0:
            self.said = _("Nothing to undo.")
            return False
        self.at -= 1
        self.said = ""
        return True

    def redo(self) -> bool:
        if self.at + 1 >= len(self.history):
            self.said = _("Nothing to redo.")
            return False
        self.at += 1
        self.said = ""
        return True

    def save(self) -> Path | None:
        try:
            self.saved_to = save(self.doc, self.folder)
            self.saved_doc = self.history[self.at]
        except Refused as exc:
            self.said = str(exc)
            return None
        self.said = _("Saved as {file}: it is in the level select under “Your teacher's levels”.").format(file=self.saved_to)
        return self.saved_to
