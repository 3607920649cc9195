"""Where numba keeps the engine's compiled kernels.

numba compiles a kernel on its first call (seconds) and, with `cache=True`, saves the
machine code so that later starts load it (a fraction of a second). By default it saves
beside the source, in `engine/__pycache__`, which an installed, read-only or shared copy
may not allow, and it notices a change of the kernel's own file but not of a file the
kernel calls into. So the engine keeps its cache in a folder of the user's cache
directory (platformdirs: `~/.cache/equilibria` on Linux) named for this exact engine:
the installed version and a digest of the engine's source files, numba's version and
Python's. Every user compiles once per engine; a new version, or an edited kernel,
compiles afresh instead of loading stale code. NUMBA_CACHE_DIR, when set, wins. A folder
that cannot be written is said (UNKEPT), and the kernels compile into a temporary one.

This runs when `engine` is imported, before any kernel module is: numba binds each
kernel to its cache folder when the kernel is defined.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import sys
import tempfile
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


def unwritable(folder: Path) -> str:
    """Why numba could not keep kernels in `folder` ('' when it can): made if need be, and
    a file written and removed in it, as numba's cache locator tries before it uses one."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return ""


def choose_folder(environ) -> tuple[Path | None, tuple[Path, str] | None]:
    """(the folder for numba's cache, None): this engine's folder, or the one
    NUMBA_CACHE_DIR names if that is set. When that folder cannot be written (a read-only
    home), numba would find no cache of its own either and refuse to define the kernels:
    they go to a temporary folder instead, removed at exit, so every start compiles
    again; then (that folder, (the folder that could not be written, why)), for the
    commands to say so (game/cli/preparing.py). (None, ...) when not even a temporary
    folder can be made: numba caches where it can."""
    chosen = environ.get(VARIABLE)
    folder = Path(chosen) if chosen else cache_folder()
    problem = unwritable(folder)
    if not problem:
        return folder, None
    try:
        temporary = Path(tempfile.mkdtemp(prefix="equilibria-engine-"))
    except OSError:
        return None, (folder, problem)
    atexit.register(shutil.rmtree, temporary, ignore_errors=True)  # this process made it; a child warm-up only borrows it
    return temporary, (folder, problem)


def configure() -> tuple[Path | None, tuple[Path, str] | None]:
    """Point numba's cache at the folder chosen (choose_folder) and return what that said."""
    folder, unkept = choose_folder(os.environ)
    if folder is not None:
        # Both: numba re-reads the environment before each compile, and child processes
        # (the game's warm-up) inherit it.
        os.environ[VARIABLE] = str(folder)
        numba.config.CACHE_DIR = str(folder)
    return folder, unkept


FOLDER, UNKEPT = configure()  # UNKEPT: (the folder the kernels could not be kept in, why), or None
