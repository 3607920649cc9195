""" "Did you mean …?": the nearest of the names a thing could have been, for a mistyped
level id, command or level-file field (difflib's ratio, as `git` and `pip` suggest).

No pygame, no engine, and pydantic only when a field is looked up (the command line
imports this module to suggest a command, and stays quick).
"""

from __future__ import annotations

import difflib
import re
import types
import typing
from collections.abc import Iterable
from typing import TYPE_CHECKING

from equilibria.words.i18n import _

if TYPE_CHECKING:
    from pydantic import BaseModel

CUTOFF = 0.6  # difflib's default: "chek" → "check", "tutorial-1" → "tutorial-01"; nothing for "xyz"


def close(word: str, options: Iterable[str], n: int = 3) -> list[str]:
    """The options nearest to `word`, best first (none near enough: empty)."""
    options = sorted(set(options) - {word})
    cutoff = CUTOFF if len(word) > 3 else 0.5  # one letter wrong in a short name ("fz" for "fy") is half of it
    found = difflib.get_close_matches(word, options, n=n, cutoff=cutoff)
    found.sort(key=lambda o: (-difflib.SequenceMatcher(None, word, o).ratio(), o))  # ties in order of name: fx before fy
    if not found:  # case alone: "Tutorial-01"
        found = [o for o in options if o.lower() == word.lower()][:n]
    return found


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """'did you mean X?', 'did you mean X or Y?', or '' when nothing is near."""
    found = [f"'{o}'" for o in close(word, options, n=2)]
    if not found:
        return ""
    if len(found) == 1:
        return _("did you mean {name}?").format(name=found[0])
    return _("did you mean {name} or {other}?").format(name=found[0], other=found[1])


def _template(text: str) -> re.Pattern:
    """argparse's message `text` (%-placeholders, in the current language) as a pattern
    whose groups are its placeholders' values."""
    parts = [re.escape(p.strip()) for p in re.split(r"%(?:\(\w+\))?[rs]", text)]
    return re.compile("(.*?)".join(parts[:-1]) + "(.*)" + parts[-1], re.S)  # the last one to the end


def for_argparse(message: str, options: Iterable[str] = ()) -> str:
    """argparse's "invalid choice: 'chek' (choose from 'check', …)" with the nearest
    choice named, and its "unrecognized arguments: --scrrenshot" with the nearest of
    `options` (every option of every command); any other message as it is. argparse's
    messages as the current language words them (equilibria.cli.argtexts)."""
    hint = ""
    choice = _template(_("invalid choice: %(value)r (choose from %(choices)s)")).search(message)
    unknown = _template(_("unrecognized arguments: %s")).search(message)
    if choice:
        word, choices = choice[1].strip(" '\""), [c.strip(" '\"") for c in choice[2].split(",")]
        hint = did_you_mean(word, choices)
    elif unknown:
        given = [w for w in unknown[1].split() if w.startswith("--")]
        hint = did_you_mean(given[0].partition("=")[0], options) if given else ""
    return f"{message}; {hint}" if hint else message


# ---------------------------------------------------------------------- level-file fields
def unknown_field(model: type[BaseModel], loc: tuple) -> str:
    """What to say of the field at `loc` (pydantic's error location, its last part the
    field's name) that `model` and its parts do not have: 'unknown field' and the
    nearest field of that object, when one is near."""
    name = loc[-1] if loc else ""
    fields = fields_at(model, loc[:-1])
    if not isinstance(name, str) or fields is None:
        return _("unknown field")
    hint = did_you_mean(name, fields)
    return _("unknown field ({hint})").format(hint=hint) if hint else _("unknown field")


def fields_at(model: type[BaseModel], loc: tuple) -> list[str] | None:
    """The field names (as a file spells them) of the object at `loc` inside `model`,
    or None when the path leads to no model."""
    here: object = model
    for part in loc:
        here = _step(here, part)
        if here is None:
            return None
    here = _model_in(here)
    if here is None:
        return None
    return [f.alias or name for name, f in here.model_fields.items()]


def _step(here: object, part: object) -> object | None:
    """The type one step down `part` (a field name, a list index or a dict key)."""
    model = _model_in(here)
    if model is not None and isinstance(part, str):
        by_name = {f.alias or name: f for name, f in model.model_fields.items()}
        field = by_name.get(part)
        return field.annotation if field else None
    inner = _unwrap(here)
    origin = typing.get_origin(inner)
    args = [a for a in typing.get_args(inner) if a is not type(None)]
    if origin in (list, tuple) and args:
        return args[0]
    if origin is dict and len(args) == 2:
        return args[1]
    return None


def _unwrap(t: object) -> object:
    """Annotated[X, …] → X; X | None → X (the first non-None member of a union)."""
    while True:
        origin = typing.get_origin(t)
        if origin is typing.Annotated:
            t = typing.get_args(t)[0]
        elif origin in (typing.Union, types.UnionType):
            members = [a for a in typing.get_args(t) if a is not type(None)]
            t = next((m for m in members if _model_in(m) is not None or typing.get_origin(_strip(m)) is not None), members[0])
        else:
            return t


def _strip(t: object) -> object:
    return typing.get_args(t)[0] if typing.get_origin(t) is typing.Annotated else t


def _model_in(t: object) -> type[BaseModel] | None:
    from pydantic import BaseModel

    t = _strip(t)
    if typing.get_origin(t) in (typing.Union, types.UnionType):
        t = next((a for a in typing.get_args(t) if isinstance(a, type) and issubclass(a, BaseModel)), None)
    return t if isinstance(t, type) and issubclass(t, BaseModel) else None
