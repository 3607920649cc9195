"""Where numba keeps the engine's compiled kernels.

numba compiles a kernel on its first call (seconds) and, with `cache=True`, saves the
machine code so that later starts load it (a fraction of a second). By default it saves
beside the source, in `engine/__pycache__`, which an installed, read-only or shared copy
may not allow, and it notices a change of the kernel's own file but not of a file the
kernel calls into. So the engine keeps its cache in a folder of the user's cache
directory (platformdirs: `~/.cache/equilibria` on Linux) named for this exact engine:
the installed version and a digest of the engine's source files, numba's version and
Python's. Every user compiles once per engine; a new version, or an edited kernel,
compiles afresh instead of loading stale code. NUMBA_CACHE_DIR, when set, wins.

This runs when `engine` is imported, before any kernel module is: numba binds each
kernel to its cache folder when the kernel is defined.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib import metadata
from pathlib import Path

import numba
import platformdirs

VARIABLE = "NUMBA_CACHE_DIR"


def engine_digest() -> str:
    """12 hex digits that change with any engine source file, numba or Python."""
    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    top = Path(__file__).resolve().parents[1]  # engine/, with its rooms
    for path in sorted(top.rglob("*.py")):
        digest.update(path.relative_to(top).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def version() -> str:
    try:
        return metadata.version("equilibria")
    except metadata.PackageNotFoundError:
        return "unknown"


def cache_folder() -> Path:
    """This engine's folder in the user's cache directory."""
    root = Path(platformdirs.user_cache_dir("equilibria", appauthor=False))
    return root / "numba" / f"{version()}-{engine_digest()}"


def configure() -> Path | None:
    """Point numba's cache at this engine's folder (made if need be) and return it; the
    folder NUMBA_CACHE_DIR names if that is set; None when no folder can be made (numba
    then caches where it can, or compiles every time)."""
    chosen = os.environ.get(VARIABLE)
    if chosen:
        return Path(chosen)
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    # Both: numba re-reads the environment before each compile, and child processes
    # (the game's warm-up) inherit it.
    os.environ[VARIABLE] = str(folder)
    numba.config.CACHE_DIR = str(folder)
    return folder


FOLDER = configure()
