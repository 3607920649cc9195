"""Reading and writing the player's and the author's files: data only, never code.

JSON only (no eval, no pickle). A file over a sane size is refused before it is read,
and never written; one with more objects than a level can sensibly have is refused
before it is parsed, and never written either. Every problem comes back as BadInput
(SaveError when writing) with one line naming the file and what is wrong.

Writes are atomic: the data goes to a temporary file in the target's folder, is flushed
to the disk (fsync), and only then renamed over the target (os.replace, atomic on POSIX
and Windows), after which the folder is synced where the platform allows. A crash or a
kill at any moment leaves the target as it was or as it is meant to be, never half
written. What a kill can leave behind is the temporary file, `.NAME.XXXXXXXX.tmp` next
to the target: harmless (readers only ever open the target), and removed by a later
write of the same target once it is an hour old (a live write takes far less).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from equilibria.words.i18n import _, decimal
from equilibria.words.text import cut

MAX_FILE_BYTES = 10_000_000  # a level or model bigger than this is refused unread
MAX_OBJECTS = 100_000  # JSON objects in one file (each node, member, load… is one); a level
# that big runs at a twentieth of real time, so more is refused before parsing
FORMAT = 1  # the format of levels, designs and solutions this version reads and writes (docs/level-format.md)
STALE_SECONDS = 3600.0  # a temporary file this old was left by a killed write


class BadInput(Exception):
    """Bad input: the message already names the file and the field."""


class SaveError(BadInput):
    """A file could not be written; the message names the file and why. The target is
    untouched. A BadInput, so whatever reports bad input in one line reports this too."""


def read_json(path: str | Path) -> Any:
    """The JSON value in `path`, or BadInput naming the file and what is wrong."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise BadInput(_("{file}: cannot read the file ({why})").format(file=path, why=exc.strerror or exc)) from None
    if not p.is_file():
        raise BadInput(_("{file}: not a file").format(file=path))
    if size > MAX_FILE_BYTES:
        said = _("{file}: the file is {size} MB; files over {most} MB are refused")
        raise BadInput(said.format(file=path, size=f"{size / 1e6:.0f}", most=f"{MAX_FILE_BYTES / 1e6:.0f}"))
    try:
        text = p.read_text(encoding="utf-8-sig")  # a byte-order mark (Notepad writes one) is no part of the JSON
    except OSError as exc:  # no permission, a file gone since: the system's reason, not a word about UTF-8
        raise BadInput(_("{file}: cannot read the file ({why})").format(file=path, why=exc.strerror or exc)) from None
    except UnicodeDecodeError as exc:
        raise BadInput(_("{file}: cannot read the file as UTF-8 text ({why})").format(file=path, why=exc)) from None
    if text.count("{") > MAX_OBJECTS:  # every object opens with one (a brace in a string counts too)
        said = _("{file}: more than {most} objects (nodes, members, loads…); larger files are refused")
        raise BadInput(said.format(file=path, most=decimal(MAX_OBJECTS, 0)))
    return parse_json(text, path)


def parse_json(text: str, path: str | Path) -> Any:
    """The JSON value `text` holds (the contents of the file `path`), or BadInput naming
    the file, what is wrong and where: not JSON (at a line and column), an empty file,
    nested too deeply, a key given twice, a whole number longer than Python converts
    (sys.get_int_max_str_digits, 4,300 digits), or half a character (a lone surrogate,
    `"\\ud83d"`, which no text can be drawn or printed with)."""
    if not text.strip():
        raise BadInput(_("{file}: the file is empty (a JSON object was expected)").format(file=path))
    try:
        value = json.loads(text, object_pairs_hook=partial(_unique_keys, path))
    except json.JSONDecodeError as exc:
        # Python's words end "starting at" where they give a position of their own: the line and column follow
        problem = exc.msg.removesuffix(" at")
        # TRANSLATORS: {problem} is Python's own English words for what is wrong (Expecting ',' delimiter)
        said = _("{file}: not valid JSON: {problem} at line {line}, column {column}")
        raise BadInput(said.format(file=path, problem=problem, line=exc.lineno, column=exc.colno)) from None
    except RecursionError:
        raise BadInput(_("{file}: not valid JSON: nested too deeply").format(file=path)) from None
    except ValueError:  # the one other error json raises: a whole number past Python's digits for int()
        _refuse_long_number(text, path)
        raise  # unreachable: _refuse_long_number raises
    if SURROGATE_ESCAPE.search(text):  # only a \uD800-\uDFFF escape makes one; a valid pair is one character
        found = _first(value, lambda v: isinstance(v, str) and SURROGATE.search(v) is not None)
        if found is not None:
            said = _("{file}: {field}: half of a character (a lone surrogate): the text was cut inside a character; write it whole")
            raise BadInput(said.format(file=path, field=json_path(found[0])))
    return value


SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
SURROGATE = re.compile("[\ud800-\udfff]")


class _LongNumber(int):
    """A whole number too long to convert, as the second reading of the file keeps it: its digits' count."""


def _refuse_long_number(text: str, path: str | Path) -> None:
    """BadInput naming the field of the first whole number in `text` with more digits
    than Python converts (read again with such numbers kept as their length)."""
    most = sys.get_int_max_str_digits()

    def whole(digits: str) -> int:
        n = len(digits.lstrip("-"))
        return _LongNumber(n) if most and n > most else int(digits)

    value = json.loads(text, parse_int=whole)  # the first reading parsed: only the numbers differ
    where, digits = _first(value, lambda v: isinstance(v, _LongNumber)) or ((), 0)
    said = _("{file}: {field}: a number of {digits} digits; no number in a file may have more than {most}")
    raise BadInput(said.format(file=path, field=json_path(where), digits=decimal(digits, 0), most=decimal(most, 0)))


def _first(value: Any, test) -> tuple[tuple[str | int, ...], Any] | None:
    """The path to the first value (or key) in `value`, in the file's order, that passes
    `test`, and that value; None: none does. Without recursion (any depth json read)."""
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        where, v = stack.pop()
        if test(v):
            return where, v
        if isinstance(v, dict):
            for key in v:
                if test(key):
                    return (*where, key), key
            stack.extend(((*where, key), item) for key, item in reversed(v.items()))
        elif isinstance(v, list):
            stack.extend(((*where, k), item) for k, item in reversed(list(enumerate(v))))
    return None


def json_path(where: tuple | list) -> str:
    """('members', 3, 'i') → 'members[3].i' (each key cut to its first characters, words/text.py `cut`)."""
    out = ""
    for part in where:
        out += f"[{part}]" if isinstance(part, int) else (f".{cut(str(part))}" if out else cut(str(part)))
    return out or _("(top level)")


def _unique_keys(path: str | Path, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """json's object_pairs_hook: the object, or BadInput for a key given twice (JSON
    itself would keep the last one silently)."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        if isinstance(obj.get("id"), str):
            said = _("{file}: {field}: given twice in the object with id {id} (JSON would keep only the last)")
        else:
            said = _("{file}: {field}: given twice in one object (JSON would keep only the last)")
        raise BadInput(said.format(file=path, field=cut(twice), id=repr(cut(obj["id"])) if isinstance(obj.get("id"), str) else ""))
    return obj


def format_problem(data: dict, *, required: bool = True) -> str | None:
    """Why `data` is not in the format this version reads (FORMAT), or None. A model
    file may leave `format` out; a level, a design or a solution must give it."""
    if "format" not in data:
        return _('missing: the file must say which format it is in ("format": {format})').format(format=FORMAT) if required else None
    version = data["format"]
    if isinstance(version, bool) or not isinstance(version, int):
        return _("expected the whole number {format}, got {value}").format(format=FORMAT, value=cut(repr(version)))
    if version > FORMAT:
        said = _("format {version} is newer than this version of Equilibria reads (format {format}); open it with a newer Equilibria")
        return said.format(version=cut(str(version)), format=FORMAT)
    if version < FORMAT:
        return _("format {version} is older than any Equilibria wrote (the first was format {format})").format(version=cut(str(version)), format=FORMAT)
    return None


def write_json_atomic(path: str | Path, value: Any, *, indent: int | None = 1) -> None:
    """Write `value` as UTF-8 JSON to `path` atomically (see the module's docstring).
    SaveError, with the target untouched, for a value JSON cannot hold (NaN included),
    one over MAX_FILE_BYTES or MAX_OBJECTS (which read_json would refuse), or a failed
    write. indent None: on one line, about ten times faster (json's C encoder)."""
    try:
        text = json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"
    except (TypeError, ValueError, RecursionError) as exc:
        raise SaveError(_("{file}: cannot be written as JSON ({why})").format(file=path, why=exc)) from None
    data = text.encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        said = _("{file}: not written: {size} MB is over the {most} MB a file may have")
        raise SaveError(said.format(file=path, size=f"{len(data) / 1e6:.0f}", most=f"{MAX_FILE_BYTES / 1e6:.0f}"))
    if text.count("{") > MAX_OBJECTS:  # read_json's own count, so what is written can be read
        said = _("{file}: not written: it holds more than the {most} objects a file may have")
        raise SaveError(said.format(file=path, most=decimal(MAX_OBJECTS, 0)))
    write_bytes_atomic(path, data)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` atomically (see the module's docstring); SaveError naming
    the file when that fails, the target untouched and no temporary file left."""
    target = Path(path)
    try:
        fd, temporary = _create_temporary(target)
    except OSError as exc:
        raise SaveError(_("{file}: cannot write the file ({why})").format(file=path, why=exc.strerror or exc)) from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        _replace(temporary, target)
    except BaseException as exc:  # an interrupt too: take the temporary file away first
        with contextlib.suppress(OSError):
            temporary.unlink()
        if isinstance(exc, OSError):
            raise SaveError(_("{file}: cannot write the file ({why})").format(file=path, why=exc.strerror or exc)) from None
        raise
    _sync_folder(target.parent)
    remove_stale_temporaries(target)


def temporaries(path: str | Path) -> list[Path]:
    """The temporary files that writes of `path` left behind (only a killed one does)."""
    target = Path(path)
    prefix = f".{target.name}."
    try:
        return sorted(p for p in target.parent.iterdir() if p.name.startswith(prefix) and p.name.endswith(".tmp"))
    except OSError:
        return []


def remove_stale_temporaries(path: str | Path, older_than: float = STALE_SECONDS) -> int:
    """Remove the temporary files of `path` not touched for `older_than` seconds (a
    younger one may belong to a write under way in another process); how many went."""
    removed = 0
    now = time.time()
    for stray in temporaries(path):
        with contextlib.suppress(OSError):
            if now - stray.stat().st_mtime > older_than:
                stray.unlink()
                removed += 1
    return removed


def _create_temporary(target: Path) -> tuple[int, Path]:
    """A new file next to `target`, opened for writing, with the permissions the user's
    umask gives a new file (as the target would get if written directly)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _attempt in range(100):
        temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name next to {target}")


def _replace(temporary: Path, target: Path) -> None:
    """os.replace, retried briefly on Windows, where a virus scanner or an indexer may
    hold the target open for a moment."""
    attempts = 10 if os.name == "nt" else 1
    for attempt in range(attempts):
        try:
            os.replace(temporary, target)
            return
        except PermissionError:
            if attempt == attempts - 1:
                raise
            time.sleep(0.05)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable: fsync the folder (POSIX). Windows cannot open a
    folder this way and needs no such step; a failure here loses no data (the rename is
    done), so it is not reported."""
    if os.name == "nt":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
