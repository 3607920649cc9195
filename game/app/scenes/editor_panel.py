"""The level editor's panel (game/app/scenes/editor.py): a row for each field of the draft
a teacher sets (its kind, id, texts in each language, goal, budget and prices, numbers of each
student's own) and for each thing a click on the picture does (the keyboard alone makes a
level), in the words the teacher reads. It reads the draft; the scene turns a row's click or
Enter into an edit."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from equilibria.app.draw.draft import varied_loads
from equilibria.course import authoring as a
from equilibria.course.level import Level
from equilibria.format.schema import BaseLevel
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import show_text, version, versions_warning
from equilibria.words.figures import GIVEN_FIGURES, figure
from equilibria.words.i18n import LANGUAGES, N_, _, decimal

ROWS_OF_A_KIND = 6  # the panel's rows of supports to cut and of loads to vary
ROWS_SHARE_LEFT = 0.3  # the share of the panel's height left below its rows (they scroll past it) for what validate says and the answer
MODE_WORDS = {"mark": N_("the student marks them"), "remove": N_("the student removes all the structure can spare")}  # player.mode
TEXT_WORDS = {"title": N_("Title"), "brief": N_("Brief"), "explanation": N_("Explanation (after a pass)")}
FIELD_WORDS = {  # what validate names by its field, in the words of the panel's rows
    "vary": N_("Numbers of each student's own"),
    "nodes": N_("The structure"),
    "members": N_("The structure"),
    "supports": N_("The structure"),
    "loads": N_("The loads"),
    "cut": N_("The cuts"),
    "goal": N_("What it asks"),
    "player": N_("What the student may do"),
    "answer": N_("The answer"),
    "world": N_("The structure"),
    "materials": N_("The structure"),
}
INNER_FIELD = re.compile(r"\b[a-z_]+(\[\d+\])(\.[\w\[\]-]+)*: ")  # a field's path inside what validate says
SEPARATOR = re.compile(r"\u00a0?: ")  # between a field and what is wrong with it, in any language's marks (French: "\u00a0: ")
LEVEL_FIELDS = {*(f.alias or k for k, f in BaseLevel.model_fields.items()), "answer"}  # a level file's fields, and the editor's answer
FIELD = re.compile(r"[a-z_]+(\[\d+\])?(\.[\w\[\]-]+)*")  # a field's path as validate names it: hints[0].de, vary.numbers.P1.min


@dataclass(frozen=True)
class Field:
    """A row of the panel: `name` says what a click does ("kind", "lang", "text:brief",
    "number:P1", "budget", "id", "student", "play", "save"), `shown` what it says."""

    name: str
    shown: str
    editable: str | None = None  # the text a click starts editing (None: a button)
    label: str = ""  # what stands before the text being edited (""; what `shown` says before its first ": ")


@dataclass(frozen=True)
class Findings:
    """What the panel says of a draft below its rows, worked out once per draft (in a
    thread: game/app/session/draft_checks.py)."""

    said: list[str]  # every problem and warning validate finds, in the panel's words
    problems: list[str]  # validate's problems as it says them (any: the draft does not save)
    answer: list[str]  # the answer the judge computes (the teacher's only)
    preview: list[str]  # the student's version as the teacher's key prints it
    level: Level | None  # the draft's level (None while it has problems)


def find(doc: dict, student: str) -> Findings:
    """The findings of the draft `doc`, its preview for `student` ("": the level's own numbers)."""
    problems, level = a.checked(doc)
    warning = versions_warning(level) if level is not None else ""
    answer = a.reference(doc, level) if level is not None else []
    preview: list[str] = []
    if level is not None:
        try:
            drawn = version(level, student or None)
            preview = [*show_text(drawn).splitlines(), "", _("Answer:"), *a.reference(doc, drawn)]
        except ValueError as exc:  # a student id the level cannot draw numbers for
            problems = [str(exc)]
    said = [in_panel_words(p) for p in problems + ([warning] if warning else [])]
    for field, code in a.stale_texts(doc):
        what = _("Hint {n}").format(n=int(field.split(":")[1]) + 1) if field.startswith("hint:") else _(TEXT_WORDS[field])
        said.append(_("Note: {what} ({language}) was written for an earlier English text: check it, or empty it").format(what=what, language=LANGUAGES[code]))
    return Findings(said, problems, answer, preview, level)


def panel_fields(doc: dict, lang: str, student: str) -> list[Field]:
    """The panel's rows for the draft `doc`, its texts in `lang`, the preview's `student`."""
    rows = [
        Field("kind", _("Kind (K): {kind}: {what}").format(kind=_(KINDS[doc["kind"]].title_word), what=_(KINDS[doc["kind"]].summary))),
        Field("id", _("Id: {id}").format(id=doc["id"]), doc["id"]),
        Field("lang", _("Texts in: {language} (a click: the next language)").format(language=LANGUAGES[lang])),
    ]
    if KINDS[doc["kind"]].mode_tools:
        mode = (doc.get("player") or {}).get("mode") or a.MODES[0]
        rows.append(Field("mode", _("Mode (a click: the other): {mode}").format(mode=_(MODE_WORDS.get(mode, mode)))))
    hints = len(doc.get("hints") or [])
    texts = [("title", _(TEXT_WORDS["title"])), ("brief", _(TEXT_WORDS["brief"]))]
    texts += [(f"hint:{k}", _("Hint {n}").format(n=k + 1)) for k in range(min(hints + 1, a.MOST_HINTS))]  # and one more, to add
    stale = set(a.stale_texts(doc))
    for name, words in [*texts, ("explanation", _(TEXT_WORDS["explanation"]))]:
        text = a.text_of(doc, name, lang)
        said = _("{what}: {text}")  # French: "Titre : …"
        shown = said.format(what=words, text=text or "—")
        if (name, lang) in stale:
            shown = _("{text} (written for an earlier English text)").format(text=shown)
        rows.append(Field(f"text:{name}", shown, text, said.format(what=words, text="")))
    rows += _goal_rows(doc, lang)
    for name, n in ((doc.get("vary") or {}).get("numbers") or {}).items():
        size = a.UNIT_SIZE.get(n.get("unit", ""), 1.0)
        low, high, step = (_plain(n[k] / size) for k in ("min", "max", "step"))
        said = _("{name}, {words}: {low} to {high} {unit} in steps of {step}").format(
            name=name, words=n.get("words", {}).get(lang) or n.get("words", {}).get("en", ""), low=low, high=high, unit=n.get("unit", ""), step=step
        )
        rows.append(Field(f"number:{name}", said, f"{low} {high} {step}"))
    rows += _picture_rows(doc)
    rows.append(Field("student", _("Preview as student: {id}").format(id=student or "—"), student))
    rows.append(Field("play", _("Play it as that student (P)")))
    rows.append(Field("save", _("Save to your levels (Ctrl+S)")))
    return rows


def _goal_rows(doc: dict, lang: str) -> list[Field]:
    """What the level asks and costs: how long it must stay at rest, a build's largest
    sag, budget and prices, each a field."""
    rows: list[Field] = []
    goal, kind = doc.get("goal") or {}, KINDS[doc["kind"]]
    if "hold" in goal:
        rows.append(Field("goal:hold", _("Stays at rest for: {value} s").format(value=decimal(goal["hold"], 1)), _plain(goal["hold"])))
    if "max_displacement" in kind.goal_fields and "max_displacement" in goal:
        cm = goal["max_displacement"] / a.GOAL_UNITS["max_displacement"]
        rows.append(Field("goal:max_displacement", _("Largest sag allowed: {value} cm").format(value=decimal(cm, 1)), _plain(cm)))
    if "max_force" in kind.player_fields and "player" in doc:  # a balance: how many forces, how large, where
        player = doc["player"]
        rows.append(Field("player:forces", _("Forces the student adds: {n}").format(n=player.get("forces", 2)), str(player.get("forces", 2))))
        if player.get("max_force"):
            kn_ = player["max_force"] / a.PLAYER_UNITS["max_force"]
            rows.append(Field("player:max_force", _("Largest force allowed: {value} kN").format(value=decimal(kn_, 1)), _plain(kn_)))
        said = _("Where they may act: {nodes} (a click on a node: there, or no longer)").format(nodes=", ".join(player.get("nodes") or []) or "—")
        rows.append(Field("places", said))
    if a.takes_members(doc):  # a stability level: the supports it takes away, each a row (Enter: kept)
        taken = {s["node"] for s in a.taken_supports(doc)}
        for node in sorted(taken | {s["node"] for s in doc.get("supports") or []})[:ROWS_OF_A_KIND]:
            said = _("{node}: a support taken away (the student's to put back)") if node in taken else _("{node}: a support, given (Enter: taken away)")
            rows.append(Field(f"taken:{node}", said.format(node=node)))
    if kind.builds:
        budget = doc["player"]["budget"]
        rows.append(Field("budget", _("Budget: {budget}").format(budget=decimal(budget, 0)), _plain(budget)))
        for name, section in doc["player"].get("sections", {}).items():
            words = section.get("name", {}).get(lang) or section.get("name", {}).get("en") or name
            said = _("Price of a metre of {section}: {cost}").format(section=words, cost=decimal(section["cost"], 0))
            rows.append(Field(f"price:{name}", said, _plain(section["cost"])))
    return rows


def _picture_rows(doc: dict) -> list[Field]:
    """What a click on the picture does, as rows too (Tab and Enter reach them: the
    keyboard alone makes a level): each support a free body may cut, each load still the
    same for every student; up to ROWS_OF_A_KIND of each (a larger structure: the picture)."""
    rows: list[Field] = []
    asked = a.asked_of(doc)
    if asked is not None:
        said = _("Members asked (their names, apart): {names}").format(names=" ".join(asked) or "—")
        rows.append(Field("asked", said, " ".join(asked), _("Members asked (their names, apart): ")))
    if KINDS[doc["kind"]].cuts:
        part = a.part_typed(doc)
        said = _(
            "The free body, typed: a joint's name (the method of joints), the members a section cuts (the method of sections)"
            " or a member of a frame (its body, the frame taken apart at its pins): {part}"
        ).format(part=part or _("the whole structure"))
        rows.append(Field("part", said, part, _("The free body (a joint, the members a section cuts, or a frame's member): ")))
        section = doc.get("_section")
        if section:
            said = _("The part kept: {nodes} (Enter: the part on the other side)").format(nodes=", ".join(section["kept"]))
            rows.append(Field("side", said))
        if a.cut_part(doc) == "body":  # each node the body was cut at: asked, or its force given
            asked = {c["node"] for c in doc.get("cut", [])}
            for node in doc.get("_cuts", [])[:ROWS_OF_A_KIND]:
                said = _("{node}: cut, asked (the student gives its forces)") if node in asked else _("{node}: cut, its force given (Enter: asked)")
                rows.append(Field(f"cut:{node}", said.format(node=node)))
            return rows + _number_rows(doc)
        cut = {c["node"] for c in doc.get("cut", []) if c["what"] == "support"}
        for node in sorted(cut | {s["node"] for s in doc.get("supports", [])})[:ROWS_OF_A_KIND]:
            said = _("{node}: cut away (the student gives its forces)") if node in cut else _("{node}: a support, given (Enter: cut it away)")
            rows.append(Field(f"cut:{node}", said.format(node=node)))
    return rows + _number_rows(doc)


def _number_rows(doc: dict) -> list[Field]:
    """A dimension of each student's own, and each load still the same for all (a part cut
    out: what it has of the whole's numbers, and where to set them)."""
    if a.cut_part(doc) is not None:
        return [Field("part-numbers", _(a.PART_NUMBERS))]
    rows: list[Field] = []
    said = _("A dimension of each student's own: type a node and x (its distance from the leftmost support) or y (its height), such as D y")
    rows.append(Field("dimension", said, "", _("A dimension of each student's own (a node and x or y): ")))
    varied = varied_loads(doc)
    loads = [(k, ld) for k, ld in enumerate(doc.get("loads", [])) if k not in varied and (ld.get("fx") or ld.get("fy"))]
    for k, load in loads[:ROWS_OF_A_KIND]:
        size = figure(math.hypot(load.get("fx", 0.0), load.get("fy", 0.0)) / 1000, GIVEN_FIGURES)  # as the picture labels it
        said = _("The load at {node}, {size} kN: the same for every student (Enter: each their own)")
        rows.append(Field(f"load:{k}", said.format(node=load["node"], size=size)))
    return rows


def picture_help(doc: dict) -> str:
    """What a click or a drag on the editor's picture does, for the draft's kind: its help line."""
    kind = KINDS[doc["kind"]]
    said = (
        _(
            "Click a support to cut it away (or back); a joint: it alone, the method of joints; drag a line across"
            " members: a section, the method of sections; a member of a frame: its body alone, taken apart at the pins."
            " A click on a member cut, or a body's cut: asked or given."
        )
        if kind.cuts
        else _("Click a member or a support: taken away, the student's to put back (again: kept).")
        if a.takes_members(doc)
        else _("Click a node: one where the student's forces may act (again: not).")
        if "max_force" in kind.player_fields
        else _("Drag out the zone the student builds in.")
        if kind.builds
        else _("Click a member: the level asks its force (again: not).")
        if kind.asks_members
        else ""
    )
    more = _("Click a load: the student's own number (again: the same for all). Shift/Ctrl+click a node: its height / its distance from the leftmost support.")
    return " ".join(x for x in (said, more) if x)


def in_panel_words(problem: str) -> str:
    """A line of `equilibria validate` (`field: what is wrong`, a warning's `warning: field: …`,
    the word "warning" in the language's own words and marks: "Warnung: vary: …",
    "avertissement\u00a0: vary\u00a0: …") in the words of the panel: the field as its row names
    it (`hints[0].de` → Hint 1 (Deutsch)), what is wrong as validate says it."""
    parts = SEPARATOR.split(problem, maxsplit=2)
    note = len(parts) == 3 and not _is_field(parts[0]) and _is_field(parts[1])
    head, rest = (parts[1], parts[2]) if note else (parts[0], SEPARATOR.split(problem, maxsplit=1)[1]) if len(parts) > 1 else ("", problem)
    if _is_field(head):
        head = _field_words(head)
    rest = INNER_FIELD.sub("", rest)  # "…: members[1]: member 'BC' has zero length": the member is named after it
    said = _("{what}: {text}").format(what=head, text=rest) if head else rest  # French: "Titre : …"
    return _("Note: {said}").format(said=said) if note else said


def _is_field(head: str) -> bool:
    """Whether `head` is a field's path as validate names it (`title.de`, `hints[0]`, `vary.numbers.P1`)."""
    return bool(FIELD.fullmatch(head)) and re.split(r"[.\[]", head, maxsplit=1)[0] in LEVEL_FIELDS


def _field_words(path: str) -> str:
    parts = path.split(".")
    first, code = parts[0], parts[-1] if len(parts) > 1 and parts[-1] in LANGUAGES else None
    hint = re.fullmatch(r"hints\[(\d+)\]", first)
    if hint:
        words = _("Hint {n}").format(n=int(hint.group(1)) + 1)
    elif first in TEXT_WORDS:
        words = _(TEXT_WORDS[first])
    elif first == "vary" and len(parts) > 2 and parts[1] == "numbers":
        words = _("Number {name}").format(name=parts[2])
    elif first == "player" and len(parts) > 1 and parts[1] in ("budget", "asked"):
        words = _("Budget") if parts[1] == "budget" else _("Members asked")
    else:
        words = _(FIELD_WORDS.get(re.sub(r"\[\d+\]$", "", first), N_("The level")))
    return f"{words} ({LANGUAGES[code]})" if code else words


def _plain(x: float) -> str:
    return f"{x:g}" if abs(x) < 1e15 else str(x)
