"""A teacher's course: the course file handed to the students and the key the teacher
keeps. No pygame.

`equilibria course new NAME --levels ID,ID,…` writes two files (atomically,
game/files/store.py):

    NAME.course.json   for the students:
        {"format": 1, "course": "Statics 1", "code": "ABCDE-FGHIJ-KLMNO-PQRST",
         "levels": ["particle-01", "reactions-02"], "key_sha256": "<64 hex digits>"}
    NAME.key.json      for the teacher alone:
        {"format": 1, "course": "Statics 1", "code": "ABCDE-FGHIJ-KLMNO-PQRST",
         "secret": "<64 hex digits>"}

The secret is 32 random bytes (`secrets`); the course file holds only its SHA-256
digest, so the course file says which key is its own without holding it. The code is
worked out from that digest (code_of: SHA-256 again, 100 bits in base32), never chosen:
a course file whose code is not its digest's is refused, so a student cannot make a
course of their own (with a key of their own) that draws their class's numbers. The
numbers a student draws depend on the code (game/rules/variants.py), so each new course
(another class, another year) gives every student new numbers.

What this does not protect (docs/cli.md, "Teachers"): the program on a student's
machine can solve every level (it judges them), so a student who reads or changes its
source can print an answer without any key. The key keeps the answers out of the
commands and the game as they are shipped, and lets the teacher print them.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, Field, ValidationError

from equilibria.files.store import BadInput, SaveError, read_json, write_json_atomic
from equilibria.format.schema import CourseCode, LevelId, _Strict, error_said, field_path
from equilibria.words.i18n import _
from equilibria.words.suggest import did_you_mean
from equilibria.words.text import named

COURSE_SUFFIX = ".course.json"  # the students' file
KEY_SUFFIX = ".key.json"  # the teacher's
CODE_TAG = "Equilibria course code 1"  # hashed with the key's digest: the code
MAX_LEVELS = 200
HEX64 = re.compile(r"[0-9a-f]{64}")


def _hex64(value: str) -> str:
    if not HEX64.fullmatch(value):
        raise ValueError(_("64 hexadecimal digits (0-9, a-f), as `equilibria course new` wrote them"))
    return value


Hex64 = Annotated[str, AfterValidator(_hex64)]
NOT_IN_A_NAME = re.compile(r'[/\\:*?"<>|]')  # what a file name on some system cannot hold


def _a_name(value: str) -> str:
    if name_error(value):
        raise ValueError(name_error(value))
    return value


CourseName = Annotated[str, AfterValidator(_a_name)]


def name_error(name: str) -> str | None:
    """Why `name` cannot name a course (its files are NAME.course.json and NAME.key.json), or None."""
    if not name.strip() or name != name.strip():
        return _("a course's name has letters or digits, and no spaces at its ends")
    if len(name) > 64:
        return _("a course's name is at most {n} characters").format(n=64)
    if not name.isprintable() or NOT_IN_A_NAME.search(name) or name.startswith("."):
        return _("a course's name is part of its files' names: no / \\ : * ? \" < > |, and no dot first")
    return None


class CourseFile(_Strict):
    """What the students are given: the course, its code, its levels in order, its key's digest."""

    format: Literal[1]
    course: CourseName = Field(description="the course's name, as the teacher gave it")
    code: CourseCode = Field(description="worked out from key_sha256 (code_of); the numbers are drawn with it")
    levels: list[LevelId] = Field(min_length=1, max_length=MAX_LEVELS, description="the homework's levels, in order")
    key_sha256: Hex64 = Field(description="the SHA-256 digest of the teacher's key (its secret)")


class KeyFile(_Strict):
    """What the teacher keeps: the secret whose digest the course file holds."""

    format: Literal[1]
    course: CourseName
    code: CourseCode
    secret: Hex64 = Field(description="32 random bytes in hex; never in the course file")


def digest(secret: str) -> str:
    """The SHA-256 digest of a key's secret, in hex (what the course file holds)."""
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def code_of(key_sha256: str) -> str:
    """The course code that belongs to a key's digest: SHA-256 of CODE_TAG and the
    digest, its first 100 bits in base32, in four groups of five ("ABCDE-FGHIJ-KLMNO-PQRST")."""
    raw = hashlib.sha256(f"{CODE_TAG}\n{key_sha256}".encode("ascii")).digest()
    text = base64.b32encode(raw[:15]).decode("ascii")[:20]
    return "-".join(text[k : k + 5] for k in range(0, 20, 5))


def key_opens(key: KeyFile, course: CourseFile) -> bool:
    """Whether `key` is the key of `course` (compared in constant time)."""
    return hmac.compare_digest(digest(key.secret), course.key_sha256)


# ---------------------------------------------------------------------------- reading
def read_course(path: str | Path, known: list[str] | None = None) -> CourseFile:
    """The course file in `path`; BadInput (one line naming the file and the field) when
    it is not one, its code is not its key's, or (with `known`, the level ids this copy
    of the game has) it names a level there is not."""
    data = read_json(path)
    if isinstance(data, dict) and "secret" in data:
        said = _("{file}: secret: this is the teacher's key, not a course file (students are given NAME{suffix})")
        raise BadInput(said.format(file=path, suffix=COURSE_SUFFIX))
    course = _validated(CourseFile, data, path)
    if course.code != code_of(course.key_sha256):
        said = _("{file}: code: not the code of this course's key (the file was changed); ask your teacher for the course file again")
        raise BadInput(said.format(file=path))
    for k, level_id in enumerate(course.levels if known is not None else []):
        if level_id not in known:
            hint = did_you_mean(level_id, known)
            said = _("{file}: levels[{k}]: no level {id} in this copy of Equilibria") + (f"; {hint}" if hint else "")
            raise BadInput(said.format(file=path, k=k, id=named(level_id)))
    return course


def read_key(path: str | Path) -> KeyFile:
    """The key file in `path`; BadInput (one line naming the file and the field) when it is not one."""
    data = read_json(path)
    if isinstance(data, dict) and "key_sha256" in data and "secret" not in data:
        raise BadInput(_("{file}: secret: this is a course file, not the teacher's key (NAME{suffix})").format(file=path, suffix=KEY_SUFFIX))
    key = _validated(KeyFile, data, path)
    if key.code != code_of(digest(key.secret)):
        raise BadInput(_("{file}: code: not the code of this key's secret (the file was changed)").format(file=path))
    return key


def _validated(model, data, path: str | Path):
    if not isinstance(data, dict):
        raise BadInput(_("{file}: not a JSON object").format(file=path))
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise BadInput(f"{path}: {field_path(first['loc']) or 'format'}: {error_said(first)}") from None


# ---------------------------------------------------------------------------- writing
def make_course(name: str, levels: list[str], folder: Path, known: list[str], *, force: bool = False) -> tuple[Path, Path, CourseFile]:
    """Write NAME.course.json and NAME.key.json in `folder` for a new course of `levels`
    (ids of `known`): the key first, with a new secret. BadInput (one line) for a bad
    name, an unknown or repeated level, or a file of that name already there (neither is
    written over without `force`: a lost key prints no answers); SaveError when a file
    cannot be written."""
    if why := name_error(name):
        raise BadInput(f"NAME: {why}")
    ids = [i.strip() for i in levels if i.strip()]
    if not ids:
        raise BadInput("--levels: " + _("give the homework's level ids, separated by commas (--levels particle-01,reactions-02)"))
    if len(ids) > MAX_LEVELS:
        raise BadInput("--levels: " + _("at most {n} levels in one course").format(n=MAX_LEVELS))
    for level_id in ids:
        if level_id not in known:
            hint = did_you_mean(level_id, known)
            said = _("--levels: no level {id} (`equilibria levels` lists them)") + (f"; {hint}" if hint else "")
            raise BadInput(said.format(id=named(level_id)))
        if ids.count(level_id) > 1:
            raise BadInput("--levels: " + _("{id} is given twice").format(id=named(level_id)))
    course_path, key_path = folder / f"{name}{COURSE_SUFFIX}", folder / f"{name}{KEY_SUFFIX}"
    for path in (key_path, course_path):
        if (path.exists() or path.is_symlink()) and not force:
            said = _("{file}: already exists; a course's key is never written over (its course's answers would be lost): give another name, or --force")
            raise BadInput(said.format(file=path))
        if path.is_dir():
            raise SaveError(_("{file}: is a folder").format(file=path))
    secret = secrets.token_hex(32)
    code = code_of(digest(secret))
    write_json_atomic(key_path, KeyFile(format=1, course=name, code=code, secret=secret).model_dump(mode="json"))
    with contextlib.suppress(OSError):  # readable by the teacher alone where the system has such modes (POSIX)
        os.chmod(key_path, 0o600)
    course = CourseFile(format=1, course=name, code=code, levels=ids, key_sha256=digest(secret))
    write_json_atomic(course_path, course.model_dump(mode="json"))
    return course_path, key_path, course
