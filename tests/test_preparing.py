"""A command that compiles says so once, on standard error (game/cli/preparing.py), and
a cache folder that cannot be written is said, with how to point NUMBA_CACHE_DIR at one
that can (engine/compiled/cache.py); never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from equilibria.cli import preparing
from equilibria.cli.main import main
from equilibria.engine import warm
from equilibria.engine.compiled import cache

NOT_A_FOLDER = "/dev/null/equilibria-cache"  # under a file: no one can make it, root neither


@pytest.fixture
def prepared(monkeypatch):
    """warm.prepare as called (the steps asked), compiling nothing."""
    calls: list[int] = []
    monkeypatch.setattr(warm, "prepare", lambda steps, said=None: calls.append(steps))
    return calls


@pytest.mark.parametrize("command", [["validate", "balance-01"], ["check", "balance-01"], ["levels"]])
def test_a_cold_cache_is_said_once_before_a_command_compiles(monkeypatch, capsys, prepared, command):
    monkeypatch.setattr(warm, "steps_done", lambda: 0)
    monkeypatch.setattr(cache, "UNKEPT", None)
    main(command)
    err = capsys.readouterr().err
    assert err.count("Preparing the engine for this computer (about 20 s, once)…") == 1, err
    assert prepared == [warm.PLAY_STEPS]  # compiled then, and noted: the next command says nothing


def test_a_warm_cache_says_nothing(monkeypatch, capsys, prepared):
    monkeypatch.setattr(warm, "steps_done", lambda: len(warm.STEPS))
    monkeypatch.setattr(cache, "UNKEPT", None)
    assert main(["validate", "balance-01"]) == 0
    assert "Preparing" not in capsys.readouterr().err and prepared == []


def test_the_window_commands_say_it_and_leave_the_compiling_to_the_loading_bar(monkeypatch, capsys, prepared):
    monkeypatch.setattr(warm, "steps_done", lambda: 0)
    monkeypatch.setattr(cache, "UNKEPT", None)
    preparing.prepare_engine(compile_now=False)
    assert "Preparing the engine" in capsys.readouterr().err and prepared == []


def test_a_cache_that_cannot_be_written_is_said_with_the_way_out(monkeypatch, capsys, prepared):
    monkeypatch.setattr(cache, "UNKEPT", (Path("/home/student/.cache/equilibria/numba/x"), "Read-only file system"))
    assert main(["validate", "balance-01"]) == 0
    err = capsys.readouterr().err
    line = "The compiled engine cannot be kept: /home/student/.cache/equilibria/numba/x cannot be written (Read-only file system)"
    assert err.count(line) == 1, err
    assert "every start compiles it again" in err and "NUMBA_CACHE_DIR=" in err
    assert prepared == []  # nothing to note: it would be compiled into a folder removed at exit


def test_an_unwritable_cache_folder_gives_way_to_a_temporary_one():
    """numba with no folder it can write refuses to define a cached kernel: the engine
    compiles into a temporary folder instead, and says which folder it could not use."""
    folder, unkept = cache.choose_folder({cache.VARIABLE: NOT_A_FOLDER})
    try:
        assert unkept is not None and unkept[0] == Path(NOT_A_FOLDER) and unkept[1]
        assert folder is not None and folder.is_dir() and cache.unwritable(folder) == ""
    finally:
        if folder is not None:
            folder.rmdir()
    assert cache.choose_folder({cache.VARIABLE: str(cache.FOLDER)}) == (cache.FOLDER, None)


def test_a_command_with_an_unwritable_cache_runs_and_says_so(tmp_path):
    """In a process of its own, NUMBA_CACHE_DIR where no folder can be: the engine loads,
    a command says why nothing will be kept (once, no traceback), and the temporary
    folder is gone at exit."""
    env = dict(os.environ, NUMBA_CACHE_DIR=NOT_A_FOLDER)
    code = (
        "from equilibria.cli.preparing import engine_notice; from equilibria.engine.compiled import cache; "
        "from equilibria.engine.elements.beam import wrap_angle; wrap_angle(7.0); print(cache.FOLDER); print(engine_notice(2))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    temporary, said = out.stdout.splitlines()
    assert f"{NOT_A_FOLDER} cannot be written" in said and "NUMBA_CACHE_DIR=" in said
    assert not Path(temporary).exists()  # removed at exit
