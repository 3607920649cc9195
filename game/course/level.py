"""The level format, version 1 (docs/level-format.md), defined once: a level file is read as a `Level`.

The pydantic models (game/format/schema.py, the format whatever the kind, and `Level` below,
which names the kinds of the registry, game/rules/kinds.py, and checks that the `player`
and `goal` fields fit the level's kind) are the single definition: they validate level
files, and `levels/level.schema.json` is generated from them (`python -m equilibria.course.level
--write-schema`) so that level authors get completion and checking in their editors.
Unknown fields are refused (a typo is an error, not a silent default). Sense checks that
need the whole structure (unknown node ids, zero-length members, mechanisms, and each
kind's own) follow the schema check.

No pygame or pymunk here: `equilibria validate` and `check` run without a display.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, ValidationInfo, field_validator

from equilibria.files.shipped import SCHEMA_PATH, in_checkout
from equilibria.files.store import BadInput, format_problem, write_bytes_atomic
from equilibria.format.schema import BaseLevel, Goal, Player, error_said, field_path
from equilibria.rules.kinds import KINDS, NAMES
from equilibria.rules.variants import PLACEHOLDER, extremes, numbers_text, template, vary_errors, version, versions_to_try, versions_tried_said, with_numbers
from equilibria.rules.variants import draw as drawn_numbers
from equilibria.words.i18n import LANGUAGES, SOURCE, _, languages_missing
from equilibria.words.suggest import unknown_field
from equilibria.words.text import named


class Level(BaseLevel):
    """A level of one of the registry's kinds, with the player and goal fields its kind uses."""

    kind: Literal[NAMES] = Field(description="what is asked: " + "; ".join(f"{k.name}: {k.summary}" for k in KINDS.values()))

    @field_validator("player")
    @classmethod
    def _player_fits_kind(cls, player: Player, info: ValidationInfo) -> Player:
        kind = KINDS.get(info.data.get("kind"))
        extra = sorted(player.model_fields_set - kind.player_fields) if kind else []
        if extra:
            if not kind.player_fields:
                raise ValueError(_("{field} is not used by a {kind} level (it uses no player fields)").format(field=extra[0], kind=kind.name))
            uses = ", ".join(sorted(kind.player_fields))
            raise ValueError(_("{field} is not used by a {kind} level (it uses {fields})").format(field=extra[0], kind=kind.name, fields=uses))
        return player

    @field_validator("goal")
    @classmethod
    def _goal_fits_kind(cls, goal: Goal | None, info: ValidationInfo) -> Goal | None:
        kind = KINDS.get(info.data.get("kind"))
        extra = sorted(goal.model_fields_set - kind.goal_fields) if kind and goal else []
        if extra:
            uses = ", ".join(sorted(kind.goal_fields))
            raise ValueError(_("{field} is not used by a {kind} level (it uses {fields})").format(field=extra[0], kind=kind.name, fields=uses))
        return goal

    @field_validator("cut")
    @classmethod
    def _cut_fits_kind(cls, cut: list | None, info: ValidationInfo) -> list | None:
        kind = KINDS.get(info.data.get("kind"))
        if cut is not None and kind and not kind.cuts:
            raise ValueError(_("a {kind} level has no cut (only a free-body level is cut from what held it)").format(kind=kind.name))
        return cut

    def as_sandbox(self) -> Level:
        """This level's structure and loads to play with freely (`equilibria sandbox
        LEVEL`): a sandbox level without goal, hints or player rules but the sections and
        zone a sandbox uses; loads drawn at random as draw 0, a moving load as the nodal
        loads it makes."""
        data = self.drawn(0 if self.load_choices() else None).model_data()
        player = self.player.model_dump(mode="json", include=KINDS["sandbox"].player_fields & self.player.model_fields_set, exclude_none=True)
        data.update(kind="sandbox", player=player)
        for key in ("hints", "explanation"):
            data.pop(key, None)
        return Level.model_validate(data)


SCHEMA_KEY = "$schema"  # where an editor finds the schema (levels/level.schema.json): allowed, and not part of the level


def without_schema_key(data: Any) -> Any:
    """The level file's object without its "$schema" (the address an editor checks the
    file against, for completion); ValueError when that is not text."""
    if not isinstance(data, dict) or SCHEMA_KEY not in data:
        return data
    if not isinstance(data[SCHEMA_KEY], str):
        raise ValueError(_('{field}: the schema\'s address is text, such as "level.schema.json"').format(field=SCHEMA_KEY))
    return {k: v for k, v in data.items() if k != SCHEMA_KEY}


def schema_errors(data: Any) -> list[str]:
    """Schema problems as 'field: what is wrong', one per problem (empty if none)."""
    return _schema_check(data)[0]


def _schema_check(data: Any) -> tuple[list[str], Level | None]:
    """Schema problems, and the level read from what is left when the only problems are
    fields the format does not know (a misspelt name): its other checks can still run
    (None: they cannot)."""
    problem = format_problem(data) if isinstance(data, dict) else None
    if problem:
        return [f"format: {problem}"], None  # a file of another format is not read further
    try:
        data = without_schema_key(data)
    except ValueError as exc:
        return [str(exc)], None
    try:
        return [], Level.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    problems = [f"{field_path(e['loc'])}: {_problem(e)}" for e in errors]
    if any(e["type"] != "extra_forbidden" for e in errors):
        return problems, None
    try:
        return problems, Level.model_validate(_without_fields(data, [e["loc"] for e in errors]))
    except (ValidationError, ValueError):
        return problems, None


def _without_fields(data: Any, places: list[tuple]) -> Any:
    """A copy of `data` without the fields at `places` (pydantic's locations)."""
    data = json.loads(json.dumps(data))
    for loc in places:
        inside = data
        try:
            for key in loc[:-1]:
                inside = inside[key]
            inside.pop(loc[-1])
        except (KeyError, IndexError, TypeError, AttributeError) as exc:  # a place inside a union's choice: not one of the file's
            raise ValueError(loc) from exc
    return data


def level_problems(data: Any, *, build: bool = True) -> tuple[list[str], Level | None]:
    """Every problem of a level file's object, one 'field: what is wrong' line each, the
    cause before its consequences (`validate` says them all in one run), and the level
    when there is none. A misspelt field does not stop the checks of the rest."""
    problems, level = _schema_check(data)
    if level is not None:
        problems += sense_errors(level, build=build)
    return problems, (level if not problems else None)


def _problem(error: dict) -> str:
    """What is wrong: an unknown field says which name was meant; the rest in the reader's
    language (`error_said`)."""
    if error["type"] == "extra_forbidden":
        return unknown_field(Level, error["loc"])
    return error_said(error)


def languages_note(level: BaseLevel) -> str:
    """For `validate`: the languages of `LANGUAGES` the level's texts lack, and where, as
    one line ("" when every text is in every language). A note, not a problem: the level
    plays, in English where its language is missing."""
    missing: dict[str, list[str]] = {}
    for field, text in level.texts():
        for code in languages_missing(text):
            missing.setdefault(code, []).append(field)
    parts = [
        _("no {language} ({code}) text for {fields}").format(language=LANGUAGES[code], code=code, fields=", ".join(missing[code]))
        for code in LANGUAGES
        if code in missing
    ]
    return _("note: {missing}").format(missing="; ".join(parts)) if parts else ""


def _translation_errors(level: BaseLevel, wrong: set[str] = frozenset()) -> list[str]:
    """A translation must show the numbers the English text shows: the same {placeholders}
    (game/rules/variants.py), in whatever order its sentence puts them; one line for each
    translation that does not, but none for a text whose English names a number that is
    not there (a field of `wrong`): that is the mistake, said already."""
    problems = []
    for field, text in level.texts():
        if isinstance(text, str) or f"{field}.{SOURCE}" in wrong:
            continue
        english = sorted(PLACEHOLDER.findall(text[SOURCE]))
        for code, translated in text.items():
            if sorted(PLACEHOLDER.findall(translated)) != english:
                if not english:
                    problems.append(f"{field}.{code}: " + _("it has placeholders, and the English text has none"))
                    continue
                shown = ", ".join(f"{{{p}}}" for p in english)
                problems.append(f"{field}.{code}: " + _("its placeholders differ from the English text's ({placeholders})").format(placeholders=shown))
    return problems


def sense_errors(level: Level, *, build: bool = True) -> list[str]:
    """Problems the schema cannot see, all of them, the cause before what follows from it:
    ids that do not resolve, the `vary` block and the placeholders its texts name (before
    a translation whose placeholders differ from the English text's), what the player is
    given; then, only when those are sound, the engine's model (zero lengths or areas),
    what the level's kind asks of its levels (a zero-force truss must stand, a stability
    level must start as a mechanism: `Kind.sense`), the judge's budget and a level that
    varies at the ends of its ranges (`vary`, game/rules/variants.py). build=False:
    without the engine's model, the kind's sense and the judge's budget (a sandbox edit,
    whose kind has neither, builds the model it runs itself: game/work/workbench.py)."""
    node_ids = {n.id for n in level.nodes}
    problems = []
    path = level.goal.moving_load.path if level.goal and level.goal.moving_load else []
    for k, (a, b) in enumerate(itertools.pairwise(path)):
        for at, node in ((k, a), (k + 1, b)):
            if node not in node_ids:
                problems.append(f"goal.moving_load.path[{at}]: " + _("unknown node {node}").format(node=named(node)))
        if a == b:
            problems.append(f"goal.moving_load.path[{k + 1}]: " + _("the load must move to another node"))
    placeholders = vary_errors(level)
    wrong = {line.split(": ", 1)[0] for line in placeholders}
    problems += placeholders + _translation_errors(level, wrong) + _player_errors(level, node_ids)
    if problems:
        return list(dict.fromkeys(problems))  # a node named twice in the path is said once
    problems = (_model_errors(level) or _budget_errors(level)) if build else []
    for numbers in [] if problems else extremes(level):
        problems = _drawn_errors(level, numbers)
        if problems:
            break
    return problems


def every_version_errors(level: Level) -> tuple[list[str], str]:
    """For `validate`: a level that varies built in every version a student can draw
    (a seeded sample past MOST_TRIED, game/rules/variants.py `versions_to_try`), each
    with the format, the engine's model and the kind's sense checks (no run, no answer
    solved: a millisecond a version); the first problem, and what was tried in words."""
    picks, seed = versions_to_try(level)
    for numbers in picks:
        problems = _drawn_errors(level, numbers, explain=False)
        if problems:
            return problems, ""
    return [], versions_tried_said(level, seed, len(picks))


class LevelVersionError(BadInput):
    """A version of a level that varies, drawn for one student, cannot be built: the
    level's problem (its ranges), never the student's work."""


def drawn_version(level: Level, student: str | None, course: str | None, source: str | Path) -> Level:
    """`version(level, student, course)`, its model built and checked as the level's
    kind asks; LevelVersionError naming the level's file `source` when these numbers
    make a level that cannot be built (a division by zero, coinciding nodes, a node out
    of bounds inside the ranges `validate` once passed)."""
    try:
        out = version(level, student, course)
        problems = _model_errors(out) if out is not level and template(out).vary is not None else []
    except ValueError as exc:
        problems = [str(exc).splitlines()[0]]
    if not problems:
        return out
    base = template(level)
    said = _("{file}: vary: the numbers of student {student} ({numbers}) make a level that cannot be built: {problem}; the level is to be mended, not the work")
    numbers = numbers_text(base, drawn_numbers(base, student, course))
    raise LevelVersionError(said.format(file=source, student=named(student or ""), numbers=numbers, problem=problems[0].removeprefix("vary: ")))


def _drawn_errors(level: Level, numbers: dict[str, float], *, explain: bool = True) -> list[str]:
    """What is wrong with the level drawn with these numbers (game/rules/variants.py): the
    format, the model and the kind's sense checks, then (`explain`) its explanation's answer."""
    try:
        problems = _model_errors(with_numbers(level, numbers, explain=False, texts=explain))
        if not problems and explain:
            with_numbers(level, numbers)
    except ValueError as exc:
        problems = [str(exc).splitlines()[0]]
    said = numbers_text(level, numbers)
    return [p if p.startswith("vary: ") else "vary: " + _("with the numbers {numbers}: {problem}").format(numbers=said, problem=p) for p in problems[:1]]


def _model_errors(level: Level) -> list[str]:
    """The engine's model of the level must build (for each draw of its loads), and the
    level's kind must find it sound."""
    from equilibria.engine.model import ModelError, build_model

    choices = level.load_choices()
    for draw in [None] if not choices else range(len(choices)):
        try:
            model = build_model(level.drawn(draw).model_data(), statics_only=True)
        except ModelError as exc:
            return [f"player.load_choices[{draw}]: {exc}" if draw is not None and exc.field.startswith("loads") else str(exc)]
    sense = KINDS[level.kind].sense
    return sense(level, model) if sense else []


def _budget_errors(level: Level) -> list[str]:
    """A level the judge could not check within its budget (game/rules/common.py
    MAX_JUDGE_STEPS): its longest run, the loads coming on, settling and the hold, in
    steps of the judge's stable step, counted before anything runs."""
    from equilibria.engine.model import ModelError, build_model
    from equilibria.engine.simulation import stable_dt_for
    from equilibria.rules.common import JUDGE, within_budget
    from equilibria.rules.construction import SETTLE_SECONDS

    if not KINDS[level.kind].judged:
        return []
    hold = level.goal.hold if level.goal else Goal().hold
    # the longest check: a build's load test (the loads, settling, the hold), or the hold
    # once and once more for each member a zero-force truss might spare (game/rules/zero_force.py)
    runs = 1 + len(level.members) if level.player.mode == "remove" else 1
    try:
        model = build_model(level.model_data())
        within_budget(stable_dt_for(model, JUDGE), max(model.load_end_time + SETTLE_SECONDS + hold, hold * runs))
    except (ModelError, ValueError) as exc:
        return [str(exc).splitlines()[0]]
    return []


def zone_area(zone: list[tuple[float, float]]) -> float:
    """The area [m²] of the polygon `zone` (the shoelace formula; either winding)."""
    return 0.5 * abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(zone, zone[1:] + zone[:1], strict=True)))


def _player_errors(level: Level, node_ids: set[str]) -> list[str]:
    """What the player is given must exist: sections' materials, support nodes."""
    player = level.player
    problems = [p for name, section in (player.sections or {}).items() if (p := _section_error(level, f"player.sections.{name}", section))]
    zone = [tuple(p) for p in player.zone or []]
    if zone:
        span = max(max(x for x, _ in zone) - min(x for x, _ in zone), max(y for _, y in zone) - min(y for _, y in zone))
        if zone_area(zone) <= 1e-6 * span * span:  # its corners on a line (or on one point): no node can lie in it
            problems.append("player.zone: " + _("the build zone has no area (its corners lie on one line), so no node could be placed in it"))
    unknown = [(k, node) for k, node in enumerate(player.nodes or []) if node not in node_ids]
    problems += [f"player.nodes[{k}]: " + _("unknown node {node}").format(node=named(node)) for k, node in unknown]
    return problems


def _section_error(level: Level, field: str, section) -> str | None:
    """What is wrong with a member built of `section` (at `field`) in this level's
    world, as "field: message" (None: nothing): the engine's own rules for a member
    (engine/model.py: a beam needs I, only a beam has a formulation, a bar that can
    break needs I for its buckling load, a known material), asked of a member of the
    section alone, never written again here."""
    from equilibria.engine.model import ModelError, build_model

    data = level.model_dump(mode="json", include={"world", "materials"}, exclude_none=True)
    nodes = [{"id": "i", "x": 0.0, "y": 0.0}, {"id": "j", "x": 1.0, "y": 0.0}]
    try:
        build_model({**data, "nodes": nodes, "members": [{"id": "m", "i": "i", "j": "j", **section.member_fields()}]}, statics_only=True)
    except ModelError as exc:
        if not exc.field.startswith("members[0]"):
            return str(exc)  # the level's materials or world, named as the level has them
        return f"{field}{exc.field.removeprefix('members[0]')}: {exc.message}"
    return None


def load_level(data: Any, *, build: bool = True) -> Level:
    """A validated Level, or ValueError holding every problem, one per line. build=False:
    without building the engine's model (a sandbox edit builds the one it runs: workbench)."""
    problems, level = level_problems(data, build=build)
    if problems:
        raise ValueError("\n".join(problems))
    return level


def schema_text() -> str:
    schema = Level.model_json_schema()
    key = {SCHEMA_KEY: {"type": "string", "description": "the address of this schema, for editors; not part of the level"}}
    schema["properties"] = key | schema["properties"]
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Equilibria level, format 1"
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`python -m equilibria.course.level --write-schema` (in a source checkout) or `--print-schema`."""
    parser = argparse.ArgumentParser(prog="python -m equilibria.course.level", description="Level format tools.")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write-schema", action="store_true", help="write levels/level.schema.json from the definition (in a source checkout)")
    what.add_argument("--print-schema", action="store_true", help="print the schema")
    args = parser.parse_args(argv)
    if args.print_schema:
        sys.stdout.write(schema_text())
        return 0
    if not in_checkout():
        print(
            f"python -m equilibria.course.level: --write-schema writes levels/level.schema.json in a source checkout; this copy of Equilibria is installed"
            f" ({SCHEMA_PATH.parent}), so nothing was written (--print-schema prints the schema)",
            file=sys.stderr,
        )
        return 2
    try:
        write_bytes_atomic(SCHEMA_PATH, schema_text().encode())
    except BadInput as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"wrote {SCHEMA_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
