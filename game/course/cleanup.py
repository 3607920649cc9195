"""What Equilibria keeps on a computer, and taking it away: `equilibria clean`, and the
pruning of compiled engines no version uses any more. No pygame, no engine import.

Two folders (platformdirs; README.md gives the Linux ones):
- the user cache, `~/.cache/equilibria`: `numba/VERSION-DIGEST/`, one folder of machine
  code per engine (engine/compiled/cache.py names them). Removing it costs the next start
  its compile, nothing else.
- the user data, `~/.local/share/equilibria` (EQUILIBRIA_HOME moves it): the player's
  progress, designs, screenshots, graphs, hand-ins, a teacher's levels and crash logs.
  `clean --data` removes exactly those entries (the folder itself once it is empty), never
  anything else a person put there: EQUILIBRIA_HOME may name a folder that holds more.

Pruning old engines: each new version (or edited engine) compiles into a folder of its
own, so the old ones pile up, some 10 MB each. At the start of the game the siblings of
this engine's folder are removed when nothing in them has been written or used for
STALE_DAYS: another version still in use elsewhere on the computer (another venv, a
second copy running now) keeps its folder, because using the game stamps its folder's
time (`stamp`), and a version not run for a month loses only its compile (it compiles
again on its next start). Only folders named like an engine's are ever touched.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
from pathlib import Path

import platformdirs

from equilibria.course.progress import data_folder
from equilibria.words.i18n import _, decimal, ngettext

STALE_DAYS = 30
ENGINE_FOLDER = re.compile(r"[^/\\]+-[0-9a-f]{12}")  # VERSION-DIGEST (engine/compiled/cache.py)
DATA_ENTRIES = ("progress.json", "designs", "screenshots", "graphs", "methods", "hand-in", "logs")  # what the game writes in the data folder
TEACHER_LEVELS = "levels"  # a teacher's own levels (game/course/teacher.py): theirs, removed only when asked by name


def cache_root() -> Path:
    """The user cache folder of Equilibria (the compiled engines are in `numba/` inside)."""
    return Path(platformdirs.user_cache_dir("equilibria", appauthor=False))


def _newest_time(folder: Path) -> float:
    """The latest modification time of the folder or anything in it."""
    newest = folder.stat().st_mtime
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            with contextlib.suppress(OSError):
                newest = max(newest, os.stat(os.path.join(root, name)).st_mtime)
    return newest


def stamp(current: Path) -> None:
    """Mark this engine's folder as in use now (its time), so pruning elsewhere keeps it."""
    with contextlib.suppress(OSError):
        os.utime(current)


def prune_engines(current: Path | None, now: float | None = None, stale_days: float = STALE_DAYS) -> list[Path]:
    """Stamp `current` (this engine's cache folder) and remove its sibling engine folders
    not touched for `stale_days`; the folders removed. Nothing is done when `current` is
    not in the user cache's numba/ folder (NUMBA_CACHE_DIR chose another place: its
    neighbours are not ours to judge)."""
    if current is None or current.parent != cache_root() / "numba" or not current.is_dir():
        return []
    stamp(current)
    now = time.time() if now is None else now
    removed = []
    try:
        siblings = [p for p in current.parent.iterdir() if p != current and p.is_dir() and ENGINE_FOLDER.fullmatch(p.name)]
    except OSError:
        return []
    for folder in siblings:
        try:
            if now - _newest_time(folder) < stale_days * 86400:
                continue
            shutil.rmtree(folder)
        except OSError:
            continue  # in use on a system that locks open files, or not ours to remove: left
        removed.append(folder)
    return removed


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _remove(path: Path) -> str:
    """Remove a file or a folder; what to say of it."""
    if not path.exists():
        return "  " + _("{path}: not there").format(path=path)
    try:
        size = _size(path)
        shutil.rmtree(path) if path.is_dir() else path.unlink()
    except OSError as exc:
        return "  " + _("{path}: could not be removed ({why})").format(path=path, why=exc.strerror or exc)
    return "  " + _("{path}: removed ({size} MB)").format(path=path, size=decimal(size / 1e6, 1))


def clean(data: bool, levels: bool = False) -> list[str]:
    """Remove the compiled engines and, with `data`, the player's things; a teacher's own
    levels only with `levels` as well (they are the teacher's work, not the game's). The
    lines to print (each folder and what became of it)."""
    lines = [_("The compiled engine (it compiles again on the next start):"), _remove(cache_root())]
    folder = data_folder()
    if not data:
        kept = _("The player's progress, designs, screenshots, hand-ins and a teacher's levels are kept, in {folder}").format(folder=folder)
        lines += [kept, "  " + _("(`equilibria clean --data` removes them too).")]
        return lines
    lines.append(_("The player's things, in {folder}:").format(folder=folder))
    lines += [_remove(folder / name) for name in DATA_ENTRIES]
    own = folder / TEACHER_LEVELS
    if levels:
        lines.append(_remove(own))
    elif own.exists():
        count = len(list(own.glob("*.json")))
        words = ngettext(
            "{path}: kept, a teacher's own levels ({count} file; `equilibria clean --data --levels` removes them too)",
            "{path}: kept, a teacher's own levels ({count} files; `equilibria clean --data --levels` removes them too)",
            count,
        )
        lines.append("  " + words.format(path=own, count=count))
    lines += [_remove(p) for p in sorted([*folder.glob("progress.broken-*.json"), *folder.glob(".progress.json.*.tmp")])]  # moved aside; a killed write's
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when nothing else is left in it
    if folder.exists():
        lines.append("  " + _("{folder} is kept: it holds other files").format(folder=folder))
    return lines
