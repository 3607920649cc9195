"""Numbers of its own for every student: a level's `vary` block drawn by a student id.

A level that varies names numbers with ranges (`vary.numbers`: min, max, step, unit),
sets fields of the level from them (`vary.set`: "loads[0].fy": "-P"), and its texts use
them as `{P}`. Each student's numbers are drawn from the level id and the student id
alone, through SHA-256 (never Python's `hash()`, salted per process, nor a global random
state): the same student gets the same numbers on every machine, in every process, and
every level draws anew. In a course (a teacher's course file, game/course/homework.py)
the course code is hashed too, so two classes or two years draw different numbers;
without a course the numbers are the same as before courses existed. Without a student
id the level is played with its own numbers (each number's `default`), which are also
what its file holds.

    version(level, student, course)   the level with that student's numbers set and texts filled
    numbers_line(level)       "P = 8 kN, a = 2.5 m" (the draw, for the brief and the CSV)
    vary_errors(level)        what `equilibria validate` says of a `vary` block

Texts: `{P}` shows a number with its unit ("8 kN"), `{P|abs}` without its sign, `{P|num}`
without its unit. The explanation (shown after a pass) may also use the answer of a
free-body level, solved for the student's numbers (game/rules/answer.py): `{A.fx}`,
`{A.fy}` and `{A.F}` (the force at the cut's node A, its x and y parts and its size),
`{A.m}` (the moment there), with `|abs` and `|dir` ("to the right", "up",
"counter-clockwise", as the sign says). Expressions (`vary.set`, `vary.derived`) are
read by the small parser below, never by `eval`: numbers, names, + − * / ^,
parentheses and sqrt, abs, hypot, min, max, and sin, cos, tan, asin, acos, atan,
atan2 in degrees. No pygame here.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import math
import operator
import random
import re
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from typing import TypeVar

from pydantic import ValidationError

from equilibria.format.schema import UNITS, BaseLevel, Number, each_language, error_said, field_path, text_versions
from equilibria.words.i18n import _, decimal, decimal_mark, plain
from equilibria.words.text import named

L = TypeVar("L", bound=BaseLevel)

SEED_TAG = "Equilibria vary 1"  # part of every hash: a new way of drawing would change it
COURSE_TAG = "Equilibria vary 1 course"  # the same, for a draw in a course (its code follows on the next line)
TEXTS = ("brief", "hints", "explanation")  # where numbers may be shown; the title names the level for everyone
ANSWER_PARTS = ("fx", "fy", "F", "m")
FILTERS = ("abs", "num", "dir")
PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
STUDENT_MAX = 64


# ---------------------------------------------------------------------------- student ids
def student_error(text: str) -> str | None:
    """Why `text` cannot be a student id, or None: 1 to 64 printable characters."""
    s = text.strip()
    if not s:
        return _("a student id has at least one letter or digit")
    if len(s) > STUDENT_MAX:
        return _("a student id is at most {n} characters").format(n=STUDENT_MAX)
    if any(not c.isprintable() for c in s):
        return _("a student id holds printable characters only")
    return None


def student_key(student: str) -> str:
    """The form of a student id the numbers are drawn from: spaces at the ends and the
    case do not count ("S123 " and "s123" are one student)."""
    return student.strip().casefold()


# ---------------------------------------------------------------------------- drawing
def values(number: Number) -> int:
    """How many values `number` may take."""
    return round((number.max - number.min) / number.step) + 1


def value_at(number: Number, k: int) -> float:
    """Value k (0 … values − 1) of `number`: min + k·step, computed in decimal so that
    0.1 + 3 × 0.1 is 0.4, not 0.4000000000000001."""
    return float(Decimal(repr(number.min)) + k * Decimal(repr(number.step)))


def default_value(number: Number) -> float:
    """The level's own value: `default`, else the step nearest the middle (the lower one on a tie)."""
    if number.default is not None:
        return value_at(number, round((number.default - number.min) / number.step))
    return value_at(number, (values(number) - 1) // 2)


def drawn_index(level_id: str, student: str, name: str, count: int, course: str | None = None) -> int:
    """Which of `count` values the student draws for number `name` of the level: SHA-256
    of the level id, the student id (student_key) and the name, modulo count (the bias of
    a 256-bit number modulo at most 10 000 is below 1e-70). In a course, its code comes
    first, under a tag of its own (COURSE_TAG: no text without a course hashes the same)."""
    head = SEED_TAG if course is None else f"{COURSE_TAG}\n{course}"
    digest = hashlib.sha256(f"{head}\n{level_id}\n{student_key(student)}\n{name}".encode()).digest()
    return int.from_bytes(digest, "big") % count


def draw(level: BaseLevel, student: str | None, course: str | None = None) -> dict[str, float]:
    """The drawn numbers of `level` (as written) for `student` in `course` (a course code,
    None: no course), by name; the defaults for no student. A level that `follows` a
    chain's first level draws with that level's id: the numbers both name (with the same
    range) are the same for the student in both."""
    if level.vary is None:
        return {}
    if student is None:
        return {name: default_value(n) for name, n in level.vary.numbers.items()}
    drawn_as = level.vary.follows or level.id  # a chain draws as its first level: the same student's numbers carry along it
    return {name: value_at(n, drawn_index(drawn_as, student, name, values(n), course)) for name, n in level.vary.numbers.items()}


def with_derived(level: BaseLevel, numbers: dict[str, float]) -> dict[str, float]:
    """The numbers and the level's derived numbers, worked out in order."""
    env = dict(numbers)
    for name, d in level.vary.derived.items():
        env[name] = evaluate(parse(d.value), env, f"vary.derived.{name}")
    return env


# ---------------------------------------------------------------------------- versions
def template(level: L) -> L:
    """The level as written, of which `level` may be one student's version."""
    return level._template or level


def version(level: L, student: str | None = None, course: str | None = None) -> L:
    """`level` with the student's numbers in `course` (a course code; None: no course):
    its `vary.set` fields set, its texts filled and a line naming the numbers added to
    the brief. A level that does not vary is returned as it is; so is a version asked
    again for its own student and course (or for no student, which keeps whichever
    numbers a version holds: a level as written gets its own numbers).
    ValueError (one 'field: problem' line) when the numbers make a level the format refuses."""
    base = template(level)
    if base.vary is None:
        return level
    if level is not base and (student is None or (level.student is not None and student_key(level.student) == student_key(student) and level.course == course)):
        return level
    if student is not None and (why := student_error(student)):
        raise ValueError(f"student: {why}")
    out = _build(base, None if student is None else student.strip(), draw(base, student, course))
    out._course = course if student is not None else None
    return out


def _build(base: L, student: str | None, numbers: dict[str, float], *, explain: bool = True, texts: bool = True) -> L:
    env = with_derived(base, numbers)
    data = base.model_dump(mode="json", exclude={"vary"}, exclude_none=True)
    for path, text in base.vary.set.items():
        put(data, path, evaluate(parse(text), env, f"vary.set.{path}"))
    if texts:  # (without: the structure alone, as `validate` builds every version; the texts as written)
        _fill_texts(base, student, numbers, env, data)
    out = _validated(base, data, numbers)
    if base.explanation and explain:
        answer = answer_values(out) if any(needs_answer(t) for _, t in text_versions("explanation", base.explanation_)) else {}
        out = out.model_copy(update={"explanation_": each_language(base.explanation_, lambda t: fill(t, env, base, "explanation", answer))})
    out._template, out._student, out._numbers = base, student, dict(numbers)
    return out


def _fill_texts(base: BaseLevel, student: str | None, numbers: dict[str, float], env: dict[str, float], data: dict) -> None:
    """Every language's brief and hints in `data` filled with the numbers (the file's form
    kept), so a version reads in whichever language is chosen later; the brief opens
    with the line naming them."""
    data["brief"] = each_language(base.brief_, lambda t: fill(t, env, base, "brief").rstrip())
    data["hints"] = [each_language(h, lambda t, k=k: fill(t, env, base, f"hints[{k}]")) for k, h in enumerate(base.hints_)]

    def whose(text: str) -> str:  # in the language of `text` (each_language speaks it): the line first, as the folded brief shows it
        shown = numbers_text(base, numbers)
        if student:
            line = _("Your numbers (student {student}): {numbers}.").format(student=student, numbers=shown)
        else:
            line = _("The level's own numbers (give your student id on the menu to get yours): {numbers}.").format(numbers=shown)
        return f"{line}\n{text}".rstrip()

    data["brief"] = each_language(data["brief"], whose)


def _validated(base: L, data: dict, numbers: dict[str, float]) -> L:
    try:
        return type(base).model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        problem = f"{field_path(first['loc'])}: {error_said(first)}"
        said = _("the numbers {numbers} make a level the format refuses ({problem})").format(numbers=numbers_text(base, numbers), problem=problem)
        raise ValueError("vary: " + said) from None


def numbers_line(level: BaseLevel) -> str:
    """The numbers a version of `level` was drawn with, as the student reads them
    ("the load at C = 8 kN, a = 2.5 m"); "" for a level that does not vary."""
    base = template(level)
    if base.vary is None:
        return ""
    return numbers_text(base, level.numbers or draw(base, None))


def numbers_text(base: BaseLevel, numbers: dict[str, float]) -> str:
    parts = []
    for name, value in numbers.items():
        n = base.vary.numbers[name]
        parts.append(f"{n.words or name} = {shown(value, n.unit, decimals_of(n))}")
    return ", ".join(parts)


# ---------------------------------------------------------------------------- texts
def shown(value: float, unit: str, decimals: int | None = None, *, with_unit: bool = True) -> str:
    """A number as a text shows it: in `unit` ("8 kN", "2.5 m", "30°"; "8" without the
    unit), with `decimals` places (None: three significant figures), trailing zeros
    dropped, "−" for minus."""
    x = Decimal(f"{value / UNITS[unit]:.9g}")  # round-off (9.3749999999 for 9.375) rounds as the exact value would
    if decimals is None:
        small = 0.01 <= abs(x) < 1  # 0.187, 0.0956 to three figures too; below 0.01 it is round-off, shown as 0
        decimals = 0 if abs(x) >= 100 else 1 if abs(x) >= 10 else 2 - math.floor(math.log10(abs(x))) if small else 2
    text = f"{x.quantize(Decimal(1).scaleb(-max(decimals, 0)), ROUND_HALF_UP):f}"  # half up, as by hand: 7.125 is 7.13
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    text = text.replace("-", "−").replace(".", decimal_mark())
    return text if not (unit and with_unit) else f"{text}{unit}" if unit == "°" else f"{text} {unit}"


def decimals_of(number: Number) -> int:
    """Decimal places that show every value of `number` in its unit exactly."""
    places = 0
    for x in (number.min / UNITS[number.unit], number.step / UNITS[number.unit]):
        text = f"{x:.9f}".rstrip("0")
        places = max(places, len(text.split(".")[1]) if "." in text else 0)
    return places


def needs_answer(text: str) -> bool:
    return any("." in m.group(1).split("|")[0] for m in PLACEHOLDER.finditer(text))


def fill(text: str, env: dict[str, float], base: BaseLevel, field: str, answer: dict[str, float] | None = None) -> str:
    """`text` with each {placeholder} replaced (module docstring); ValueError naming the
    field for a placeholder that names nothing."""

    def one(match: re.Match) -> str:
        return _placeholder(match.group(1), env, base, field, answer or {})

    return PLACEHOLDER.sub(one, text)


def _placeholder(inside: str, env: dict[str, float], base: BaseLevel, field: str, answer: dict[str, float]) -> str:
    name, *hows = (part.strip() for part in inside.split("|"))
    for how in hows:
        if how not in FILTERS:
            raise ValueError(f"{field}: {{{inside}}}: " + _("unknown form {form} (use |abs, |num or |dir)").format(form=named(how)))
    how = "dir" if "dir" in hows else ""
    if "." in name:
        node, _dot, part = name.rpartition(".")
        if field.split(".")[0] != "explanation":  # "explanation" or "explanation.de"
            raise ValueError(f"{field}: {{{inside}}}: " + _("the answer may be shown in the explanation only (after a pass)"))
        if part not in ANSWER_PARTS:
            raise ValueError(f"{field}: {{{inside}}}: " + _("an answer is NODE.fx, NODE.fy, NODE.F or NODE.m"))
        if name not in answer:
            raise ValueError(f"{field}: {{{inside}}}: " + _("the level's answer has no {part} at node {node}").format(part=part, node=named(node)))
        value = answer[name]
        unit = "kN·m" if part == "m" else "kN"
        if how == "dir":
            if part == "F":
                raise ValueError(f"{field}: {{{inside}}}: " + _("|dir is for fx, fy and m (F is the force's size)"))
            return _direction(part, value)
        return shown(abs(value) if "abs" in hows else value, unit, with_unit="num" not in hows)
    if name not in env:
        known = ", ".join(sorted(env)) or "none"
        raise ValueError(f"{field}: {{{inside}}}: " + _("no number named {name} in vary (the level's numbers: {known})").format(name=named(name), known=known))
    if how == "dir":
        raise ValueError(f"{field}: {{{inside}}}: " + _("|dir is for the answer's parts (NODE.fx, NODE.fy, NODE.m)"))
    unit, decimals = _unit_of(base, name)
    value = abs(env[name]) if "abs" in hows else env[name]
    return shown(value, unit, decimals, with_unit="num" not in hows)


def _unit_of(base: BaseLevel, name: str) -> tuple[str, int | None]:
    if name in base.vary.numbers:
        n = base.vary.numbers[name]
        return n.unit, decimals_of(n)
    return base.vary.derived[name].unit, None


def _direction(part: str, value: float) -> str:
    if part == "fx":
        return _("to the right") if value >= 0 else _("to the left")
    if part == "fy":
        return _("up") if value >= 0 else _("down")
    if part == "m":
        return _("counter-clockwise") if value >= 0 else _("clockwise")
    return ""  # F is a size: it has no direction


def answer_values(level: BaseLevel) -> dict[str, float]:
    """A free-body level's answer for its numbers as named values: "A.fx", "A.fy", "A.F"
    (the force at cut node A and its size) and "A.m" [N, N m]; {} when the level has no
    unique answer."""
    from equilibria.rules.answer import solve_cuts  # the rules import this module (game/rules/__init__.py)

    if not level.cut:
        return {}
    try:
        moves = solve_cuts(level)
    except Exception:  # a level the engine refuses has no answer to show; validate says why
        return {}
    out: dict[str, float] = {}
    for move in moves or []:
        if move.type == "add_force":
            out.update({f"{move.node}.fx": move.fx, f"{move.node}.fy": move.fy, f"{move.node}.F": math.hypot(move.fx, move.fy)})
        else:
            out[f"{move.node}.m"] = move.m
    return out


# ---------------------------------------------------------------------------- fields
PATH_PART = re.compile(r"\.?([^.\[\]]+)|\[(\d+)\]")


def path_parts(path: str) -> list[str | int]:
    """ "nodes.B.x" → ["nodes", "B", "x"]; "loads[0].fy" → ["loads", 0, "fy"]."""
    parts: list[str | int] = []
    at = 0
    while at < len(path):
        m = PATH_PART.match(path, at)
        if not m or m.end() == at:
            raise ValueError(f"vary.set.{path}: " + _("not a field (write it as nodes.B.x, loads[0].fy, member_loads[0].w)"))
        parts.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        at = m.end()
    return parts


def _walk(data, path: str):
    """(container, key) of the numeric field `path` names in a level's data."""
    parts = path_parts(path)
    here = data
    for k, part in enumerate(parts):
        where = f"vary.set.{path}"
        last = k == len(parts) - 1
        if isinstance(here, list) and isinstance(part, str):
            found = [i for i, item in enumerate(here) if isinstance(item, dict) and item.get("id") == part]
            if not found:
                raise ValueError(f"{where}: " + _("no {what} with id {id}").format(what=parts[k - 1] if k else "item", id=named(part)))
            part = found[0]
        if isinstance(here, list) and isinstance(part, int) and part >= len(here):
            raise ValueError(f"{where}: " + _("there is no item {index} (the level has {count})").format(index=part, count=len(here)))
        if isinstance(here, dict) and isinstance(part, str) and part not in here:
            raise ValueError(f"{where}: " + _("the level has no field {name} there").format(name=named(part)))
        if not isinstance(here, dict | list) or (isinstance(here, dict) and isinstance(part, int)):
            raise ValueError(f"{where}: " + _("not a field of the level"))
        if last:
            value = here[part]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"{where}: " + _("not a number in the level"))
            return here, part
        here = here[part]
    raise ValueError(f"vary.set.{path}: " + _("not a field of the level"))


def get(data: dict, path: str) -> float:
    container, key = _walk(data, path)
    return container[key]


def put(data: dict, path: str, value: float) -> None:
    container, key = _walk(data, path)
    container[key] = value


# ---------------------------------------------------------------------------- expressions
FUNCTIONS = {
    "sqrt": (1, math.sqrt),
    "abs": (1, abs),
    "hypot": (2, math.hypot),
    "min": (2, min),
    "max": (2, max),
    # angles in degrees, as a level writes them (a number with unit "°" holds degrees)
    "sin": (1, lambda a: math.sin(math.radians(a))),
    "cos": (1, lambda a: math.cos(math.radians(a))),
    "tan": (1, lambda a: math.tan(math.radians(a))),
    "asin": (1, lambda x: math.degrees(math.asin(x))),
    "acos": (1, lambda x: math.degrees(math.acos(x))),
    "atan": (1, lambda x: math.degrees(math.atan(x))),
    "atan2": (2, lambda y, x: math.degrees(math.atan2(y, x))),
}
OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv, ast.Pow: math.pow}


@lru_cache(maxsize=1024)  # a level's few expressions, read again for every version `validate` builds
def parse(text: str) -> ast.expr:
    """An expression of numbers, the level's names, + − × / ^ (or **), brackets and the
    FUNCTIONS, read by Python's own parser (ast) and kept only when every part of it is
    one of those: never run, never eval. ValueError for anything else. The tree is
    only ever read (evaluate), so one tree serves every caller."""
    source = text.replace("−", "-").replace("×", "*").replace("·", "*").replace("^", "**")
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # not an expression; a NUL; nested past the parser's depth
        missing = source.count("(") > source.count(")")
        raise ValueError((_("a ')' is missing in {text}") if missing else _("cannot read {text}")).format(text=named(text))) from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            if name not in FUNCTIONS or node.keywords:
                raise ValueError(
                    _("no function {name} in {text} (there are {functions})").format(name=named(name), text=named(text), functions=", ".join(FUNCTIONS))
                )
            if len(node.args) != FUNCTIONS[name][0]:
                raise ValueError(_("{name}() takes {n} number(s), in {text}").format(name=name, n=FUNCTIONS[name][0], text=named(text)))
        elif (isinstance(node, ast.BinOp) and type(node.op) not in OPERATORS) or (
            isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.USub | ast.UAdd)
        ):
            raise ValueError(_("unexpected {what} in {text}").format(what=named(ast.unparse(node)), text=named(text)))
        elif isinstance(node, ast.Constant) and (isinstance(node.value, bool) or not isinstance(node.value, int | float)):
            raise ValueError(_("unexpected {what} in {text}").format(what=named(node.value), text=named(text)))
        elif not isinstance(node, ast.BinOp | ast.UnaryOp | ast.Constant | ast.Name | ast.Call | ast.operator | ast.unaryop | ast.Load):
            raise ValueError(
                _("unexpected {what} in {text}").format(what=ast.unparse(node) if isinstance(node, ast.expr) else repr(type(node).__name__), text=named(text))
            )
    return tree


def names_in(tree: ast.expr) -> set[str]:
    """The names an expression uses (its functions aside)."""
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called}


def evaluate(tree: ast.expr, env: dict[str, float], field: str) -> float:
    """The value of a parsed expression; ValueError naming `field` for an unknown name, a
    division by zero or a result that is not a finite number."""
    try:
        value = _value(tree, env)
    except KeyError as exc:
        raise ValueError(f"{field}: " + _("no number named {name} in vary").format(name=named(exc.args[0]))) from None
    except ZeroDivisionError:
        raise ValueError(f"{field}: " + _("cannot be worked out: a division by zero")) from None
    except OverflowError:
        raise ValueError(f"{field}: " + _("cannot be worked out: a number too large")) from None
    except ValueError:  # math's domain error: the square root of a negative number
        raise ValueError(f"{field}: " + _("cannot be worked out: a function given a number outside what it takes (a square root of a negative)")) from None
    if not math.isfinite(value):
        raise ValueError(f"{field}: " + _("the value is not a finite number"))
    return value


def _value(node: ast.expr, env: dict[str, float]) -> float:
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.Name):
        return env[node.id]
    if isinstance(node, ast.Call):
        return float(FUNCTIONS[node.func.id][1](*(_value(a, env) for a in node.args)))
    if isinstance(node, ast.UnaryOp):
        inner = _value(node.operand, env)
        return -inner if isinstance(node.op, ast.USub) else inner
    return OPERATORS[type(node.op)](_value(node.left, env), _value(node.right, env))


# ---------------------------------------------------------------------------- validation
def vary_errors(level: BaseLevel) -> list[str]:
    """What is wrong with the level's `vary` block and the placeholders of its texts, one
    'field: problem' line each, all of them (empty: nothing): the block's own names and
    expressions first, then each text and each set number on its own, so one mistake is
    said once and does not hide the next. The drawn versions themselves are checked by
    `extremes` and the level's sense checks (game/course/level.py)."""
    titles = text_versions("title", level.title_)
    texts = [v for field, text in level.texts()[1:] if not field.startswith("vary") for v in text_versions(field, text)]  # every language's
    if level.vary is None:
        found: dict[str, str] = {}  # each placeholder once, at the first place it is
        for field, text in titles + texts:
            for m in PLACEHOLDER.finditer(text):
                found.setdefault(m.group(1), field)
        return [
            f"{field}: {{{inside}}}: " + _("the level has no numbers of each student's own (no vary block), so no number to show")
            for inside, field in found.items()
        ]
    problems = []
    if any(PLACEHOLDER.search(text) for _field, text in titles):
        problems.append("title: " + _("the title names the level for everyone: show the numbers in the brief"))
    if problem := chain_problem(level):
        problems.append(problem)
    known = set(level.vary.numbers)
    for name, d in level.vary.derived.items():
        if problem := _expression_problem(d.value, known, f"vary.derived.{name}"):
            problems.append(problem)
        if name in known:
            problems.append(f"vary.derived.{name}: " + _("already the name of a drawn number"))
        known.add(name)  # named, even when wrong: what uses it is not wrong again
    data = level.model_dump(mode="json", exclude={"vary"}, exclude_none=True)
    sets = []  # the set numbers whose path and expression are sound, checked against the file below
    for path, text in level.vary.set.items():
        if path_parts(path)[0] in ("id", "format", "kind", "title", *TEXTS):
            problems.append(f"vary.set.{path}: " + _("only the level's numbers are set from vary"))
            continue
        try:
            get(data, path)
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if problem := _expression_problem(text, known, f"vary.set.{path}"):
            problems.append(problem)
        else:
            sets.append((path, text))
    if any(p.startswith("vary.derived.") for p in problems):
        return problems  # the defaults cannot be worked out: the texts and set numbers are checked once these are mended
    try:
        env = with_derived(level, draw(level, None))
    except ValueError as exc:
        return [*problems, str(exc)]
    said = set()  # each wrong placeholder once, where it is first (the same mistake in every language is one)
    for field, text in texts:
        explanation = field.split(".")[0] == "explanation"
        answer = {m.group(1).split("|")[0].strip(): 0.0 for m in PLACEHOLDER.finditer(text)} if explanation else {}
        for match in PLACEHOLDER.finditer(text):
            try:
                _placeholder(match.group(1), env, level, field, answer)
            except ValueError as exc:
                if (mistake := str(exc).split(": ", 1)[-1]) not in said:
                    said.add(mistake)
                    problems.append(str(exc))
    for path, text in sets:
        try:
            written, wanted = get(data, path), evaluate(parse(text), env, f"vary.set.{path}")
        except ValueError as exc:
            problems.append(str(exc))
            continue
        if abs(written - wanted) > 1e-9 * max(1.0, abs(wanted)):
            said = _("the file holds {written}, the default numbers give {wanted} (the file is the level with its own numbers)")
            problems.append(f"vary.set.{path}: " + said.format(written=plain(written), wanted=plain(wanted)))
    return problems


def chain_problem(level: BaseLevel) -> str | None:
    """What is wrong with the level's `vary.follows`, or None: it names another level, and
    where that is a shipped level, one that varies, is itself a chain's first level, and
    draws each number the two share over the same values (else the student's numbers
    would not carry from one to the other)."""
    first = level.vary.follows
    if first is None:
        return None
    if first == level.id:
        return "vary.follows: " + _("a level cannot follow itself: name the chain's first level")
    from equilibria.files.shipped import LEVELS_DIR  # only validate needs it
    from equilibria.files.store import BadInput, read_json

    path = LEVELS_DIR / f"{first}.json"
    if not path.is_file():
        return None  # a teacher's chain of their own levels: the course's test checks the shipped ones
    try:
        head = BaseLevel.model_validate(read_json(path))
    except (BadInput, ValidationError):
        return None  # that level's own validate says what is wrong with it
    if head.vary is None or head.vary.follows is not None:
        return "vary.follows: " + _("{first} is not a chain's first level (it must vary and follow none)").format(first=first)
    for name, n in level.vary.numbers.items():
        m = head.vary.numbers.get(name)
        if m is not None and (m.min, m.max, m.step) != (n.min, n.max, n.step):
            return f"vary.numbers.{name}: " + _("{first} draws {name} from {a} to {b} in steps of {c}: a chain draws a shared number alike").format(
                first=first, name=name, a=plain(m.min), b=plain(m.max), c=plain(m.step)
            )
    return None


def _expression_problem(text: str, known: set[str], field: str) -> str | None:
    try:
        tree = parse(text)
    except ValueError as exc:
        return f"{field}: {exc}"
    unknown = sorted(names_in(tree) - known)
    return (
        f"{field}: " + _("no number named {name} in vary (the level's numbers: {known})").format(name=named(unknown[0]), known=", ".join(sorted(known)))
        if unknown
        else None
    )


def with_numbers(level: L, numbers: dict[str, float], *, explain: bool = True, texts: bool = True) -> L:
    """The level (as written) with these numbers, the explanation filled only with
    `explain` (it solves the level: first see that the level's model builds), the texts
    only with `texts` (the structure alone is what a check of every version builds)."""
    return _build(level, None, numbers, explain=explain, texts=texts)


def extremes(level: BaseLevel) -> list[dict[str, float]]:
    """Numbers that reach the ends of the level's ranges: every number at its least,
    every one at its greatest, and each alone at either end with the others at their
    defaults. A property that holds at these and is monotonic in each number holds for
    every student; `equilibria validate` checks the level with each."""
    if level.vary is None:
        return []
    numbers = level.vary.numbers
    base = draw(level, None)
    picks = [{n: number.min for n, number in numbers.items()}, {n: number.max for n, number in numbers.items()}]
    for name, number in numbers.items():
        picks += [{**base, name: number.min}, {**base, name: number.max}]
    out, seen = [], set()
    for pick in picks:
        key = tuple(sorted(pick.items()))
        if key not in seen:
            seen.add(key)
            out.append({n: value_at(numbers[n], round((pick[n] - numbers[n].min) / numbers[n].step)) for n in numbers})
    return out


MOST_TRIED = 10_000  # versions `validate` builds one by one: every one up to this many, a sample of this many past it


def versions_to_try(level: BaseLevel, most: int | None = None) -> tuple[list[dict[str, float]], int | None]:
    """The numbers of every version of `level` when it has at most `most` (seed None),
    else `most` of them drawn at random with the seed returned: a seed of the level's id
    (SHA-256), so that every run of `validate` tries the same ones and says which."""
    if level.vary is None:
        return [], None
    most = MOST_TRIED if most is None else most
    numbers = level.vary.numbers
    counts = [values(n) for n in numbers.values()]
    if math.prod(counts) <= most:
        picks = itertools.product(*(range(c) for c in counts))
        seed = None
    else:
        seed = int.from_bytes(hashlib.sha256(f"{SEED_TAG} validate\n{level.id}".encode()).digest()[:4], "big")
        rng = random.Random(seed)
        picks = (tuple(rng.randrange(c) for c in counts) for _ in range(most))
    return [{name: value_at(n, k) for (name, n), k in zip(numbers.items(), pick, strict=True)} for pick in picks], seed


def versions_tried_said(level: BaseLevel, seed: int | None, tried: int) -> str:
    """For `validate`'s line: which versions were built ("" for a level that does not vary)."""
    if level.vary is None:
        return ""
    if seed is None:
        return _("; every one of them built")
    return _("; {tried} of them built, drawn at random with seed {seed}").format(tried=decimal(tried, 0), seed=seed)


# ---------------------------------------------------------------------------- solutions
def version_for(level: L, solution) -> L:
    """The version of `level` a solution answers: its student's numbers in its course (the
    level's own without a student). ValueError ('numbers: …') when the solution records
    numbers other than the student's: it was worked with another student's numbers, in
    another course, or before the level's ranges changed."""
    out = version(level, solution.student, solution.course)
    if solution.numbers is not None and template(out).vary is not None:
        drawn = out.numbers
        if set(solution.numbers) != set(drawn) or any(abs(solution.numbers[n] - v) > 1e-9 * max(1.0, abs(v)) for n, v in drawn.items()):
            if out.student:
                said = _("this work was done with other numbers than student {student}'s ({numbers}); it answers another version of the level")
            else:
                said = _("this work was done with other numbers than the level's own ({numbers}); it answers another version of the level")
            raise ValueError("numbers: " + said.format(student=out.student, numbers=numbers_line(out)))
    return out


# ---------------------------------------------------------------------------- a teacher's print
def answer_solution(level: BaseLevel) -> dict | None:
    """The answer of a version of a free-body level as a solution file (stamped with its
    student, course and numbers), or None when the level has no unique answer to print."""
    from equilibria.rules.answer import solve_cuts  # the rules import this module

    moves = solve_cuts(level) if level.cut else None
    if moves is None:
        return None
    out = {"format": 1, "level": level.id}
    if template(level).vary is not None:
        out.update({"student": level.student, "course": level.course, "numbers": level.numbers} if level.student else {"numbers": level.numbers})
    out["moves"] = [{k: round(v, 6) if isinstance(v, float) else v for k, v in m.model_dump(mode="json").items()} for m in moves]
    return {k: v for k, v in out.items() if v is not None}


def answer_lines(level: BaseLevel) -> list[str]:
    """The answer of a version of a free-body level as a student would write it."""
    solved = answer_solution(level)
    if solved is None:
        return [_("(no unique answer to print: the level's explanation says what passes)")]
    lines = []
    for m in solved["moves"]:
        if m["type"] == "add_force":
            lines.append(_("force at {node}: Fx = {fx}, Fy = {fy}").format(node=m["node"], fx=shown(m["fx"], "kN"), fy=shown(m["fy"], "kN")))
        else:
            lines.append(_("moment at {node}: M = {m} (counter-clockwise positive)").format(node=m["node"], m=shown(m["m"], "kN·m")))
    return lines


def show_text(level: BaseLevel, *, answers: bool = False) -> str:
    """A version of a level as a student gets it: its numbers, brief and hints; with
    `answers` (the teacher's key given) also its answer and explanation."""
    numbers = numbers_line(level) or _("the level does not vary its numbers")
    if level.student:
        who = _("Numbers for student {student}: {numbers}").format(student=level.student, numbers=numbers)
    else:
        who = _("Numbers for no student (the level's own numbers): {numbers}").format(numbers=numbers)
    parts = [f"{level.id}: {level.title}", who, "", level.brief, ""]
    parts += [_("Hint {n}: {hint}").format(n=k, hint=h) for k, h in enumerate(level.hints, 1)]
    if answers:
        explained = [_("Explanation: {text}").format(text=level.explanation)] if level.explanation else [""]
        parts += ["", _("Answer:"), *(f"  {line}" for line in answer_lines(level)), "", *explained]
    return "\n".join(parts).rstrip() + "\n"


def own_numbers(level: BaseLevel) -> bool:
    """Whether `level` holds the numbers its file holds: it does not vary, or it is drawn
    with its defaults (what a shipped reference solution answers)."""
    base = template(level)
    return base.vary is None or (level.numbers or draw(base, None)) == draw(base, None)


def versions_said(level: BaseLevel, class_size: int = 30) -> str:
    """For `validate`'s line: how many versions a level that varies has, and how many of
    a class would share theirs with someone (expected: n·(1 − (1 − 1/N)^(n − 1)) for n
    students and N versions drawn evenly); "" for a level that does not vary."""
    if level.vary is None:
        return ""
    count = math.prod(values(n) for n in level.vary.numbers.values())
    sharing = class_size * (1 - (1 - 1 / count) ** (class_size - 1))
    if sharing < 0.5:  # not "about 0": most likely no one
        return _("; {count} versions: in a class of {size}, most likely no one would share theirs with another").format(
            count=decimal(count, 0), size=class_size
        )
    said = _("; {count} versions: in a class of {size}, about {sharing} would share theirs with another")
    return said.format(count=decimal(count, 0), size=class_size, sharing=decimal(sharing, 0))


CLASS = 200  # the class a teacher sets a level for
LEAST_VERSIONS = 1000  # below this a class of CLASS shares versions: about 36 of 200 share theirs at 1,000, 126 at 200
NUMERIC_KINDS = ("balance", "free_body", "section")  # the kinds whose answer is typed numbers or depends on the loads


def versions_warning(level: BaseLevel) -> str:
    """For `validate`: one line when a class of CLASS students would share versions of a
    level whose answer depends on its numbers (fewer than LEAST_VERSIONS, the product of
    the counts of values of its numbers, or no `vary` at all); "" otherwise. A warning,
    not a problem: the level plays, but classmates could share one answer."""
    if level.kind not in NUMERIC_KINDS:
        return ""
    if level.vary is None:
        return _("warning: vary: none, so every student gets the same numbers and the class shares one answer")
    count = math.prod(values(n) for n in level.vary.numbers.values())
    if count >= LEAST_VERSIONS:
        return ""
    sharing = CLASS * (1 - (1 - 1 / count) ** (CLASS - 1))
    said = _(
        "warning: vary: only {count} versions ({counts}): in a class of {size}, about {sharing} would share theirs with another;"
        " give its numbers more values (at least {least} versions)"
    )
    counts = " × ".join(f"{name} {values(n)}" for name, n in level.vary.numbers.items())
    return said.format(count=decimal(count, 0), counts=counts, size=CLASS, sharing=decimal(sharing, 0), least=decimal(LEAST_VERSIONS, 0))
