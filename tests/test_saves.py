"""Atomic writes (`equilibria.files.store.write_json_atomic`): a process killed at any moment leaves
the target as it was or as it was meant to be, never half written; what a kill leaves
behind (a temporary file) is never read and is cleaned away once stale."""

import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from equilibria.course.progress import Progress
from equilibria.files.store import MAX_FILE_BYTES, MAX_OBJECTS, BadInput, SaveError, read_json, remove_stale_temporaries, temporaries, write_json_atomic

ROOT = Path(__file__).resolve().parents[1]
PAD = MAX_FILE_BYTES - 100  # characters, the largest file: a write takes tens of ms, so kills land inside one

# Writes {"n": n, "pad": digit × PAD, "end": n} for n = 1, 2, … over the target until
# killed, saying "start n" before each write and "done n" after it.
WRITER = """
import sys
from equilibria.files.store import write_json_atomic

target, pad = sys.argv[1], int(sys.argv[2])
n = 0
while True:
    n += 1
    print("start", n, flush=True)
    write_json_atomic(target, {"n": n, "pad": str(n % 10) * pad, "end": n})
    print("done", n, flush=True)
"""


def complete(value: dict, n: int) -> bool:
    return value == {"n": n, "pad": str(n % 10) * PAD, "end": n}


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_a_write_killed_midway_leaves_the_old_or_the_new_file_never_a_partial_one(tmp_path):
    rng = random.Random(7)
    landed = partial = 0  # kills with a write under way; of those, with the data half written
    for attempt in range(60):
        folder = tmp_path / f"kill-{attempt}"
        folder.mkdir()
        target = folder / "big.json"
        write_json_atomic(target, {"n": 0, "pad": "0" * PAD, "end": 0})  # the old file
        child = subprocess.Popen([sys.executable, "-c", WRITER, str(target), str(PAD)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        began = child.stdout.readline()  # "start 1"
        assert began == "start 1\n", began
        started = time.perf_counter()
        assert child.stdout.readline() == "done 1\n"
        took = time.perf_counter() - started  # one write, as long as the next one will be
        assert child.stdout.readline() == "start 2\n"
        if attempt % 2:  # at any moment of the second write: encoding, writing, syncing, renaming
            time.sleep(rng.uniform(0.1, 1.0) * took)
        else:  # soon after the temporary file appears: while the data goes in
            deadline = time.perf_counter() + 10 * took + 5
            while not temporaries(target) and time.perf_counter() < deadline:
                pass
            time.sleep(rng.uniform(0.0, 0.01))
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL
        done = [1] + [int(line.split()[1]) for line in out.splitlines() if line.startswith("done")]
        last = done[-1]
        value = read_json(target)  # never partial: it parses...
        n = value["n"]
        assert n in (last, last + 1), (n, last)  # ...and is the last write done, or the one killed after its rename
        assert complete(value, n)
        strays = temporaries(target)
        assert len(strays) <= 1
        if strays:
            landed += 1
            partial += strays[0].stat().st_size < target.stat().st_size
        if landed >= 5 and partial >= 2 and attempt >= 9:
            break
    assert landed >= 5, f"only {landed} of {attempt + 1} kills landed during a write"
    assert partial >= 2, f"only {partial} kills landed with the temporary file half written"


def test_what_a_kill_leaves_behind_is_never_read_and_goes_once_stale(tmp_path):
    target = tmp_path / "progress.json"
    progress = Progress.load(tmp_path)
    progress.record_check("balance-01", True, 80, 2)
    progress.save()
    stale = tmp_path / ".progress.json.0badf00d.tmp"
    fresh = tmp_path / ".progress.json.12345678.tmp"
    for stray in (stale, fresh):
        stray.write_text('{"format": 1, "levels": {"balan')  # as a kill leaves it
    an_hour_ago = time.time() - 3700
    os.utime(stale, (an_hour_ago, an_hour_ago))
    again = Progress.load(tmp_path)  # readers open the target only
    assert again.problem == "" and again.marks("balance-01") == 80
    assert temporaries(target) == [stale, fresh]  # loading writes nothing
    again.save()  # a write clears what is stale; a young one may be another process's write under way
    assert temporaries(target) == [fresh]
    assert remove_stale_temporaries(target, older_than=-1) == 1 and temporaries(target) == []


def test_a_failed_write_leaves_the_target_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "work.json"
    write_json_atomic(target, {"moves": [1, 2]})

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(SaveError) as error:
        write_json_atomic(target, {"moves": [1, 2, 3]})
    monkeypatch.undo()
    message = str(error.value)
    assert message == f"{target}: cannot write the file (No space left on device)"
    assert isinstance(error.value, BadInput)  # reported as any bad input is: one line
    assert read_json(target) == {"moves": [1, 2]}
    assert temporaries(target) == []


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ({"x": math.nan}, "cannot be written as JSON"),
        ({"x": object()}, "cannot be written as JSON"),
        ({"pad": "x" * (MAX_FILE_BYTES + 1)}, "MB"),
        ({"nodes": [{}] * (MAX_OBJECTS + 1)}, "objects a file may have"),
    ],
)
def test_what_json_cannot_hold_or_read_json_would_refuse_is_not_written(tmp_path, value, why):
    target = tmp_path / "t.json"
    write_json_atomic(target, [1])
    with pytest.raises(SaveError, match=why) as error:
        write_json_atomic(target, value)
    assert str(error.value).startswith(f"{target}: ") and "\n" not in str(error.value)
    assert read_json(target) == [1] and temporaries(target) == []


def test_a_missing_folder_is_one_line_naming_the_file(tmp_path):
    target = tmp_path / "nowhere" / "t.json"
    with pytest.raises(SaveError, match=r"cannot write the file \(No such file or directory\)") as error:
        write_json_atomic(target, {})
    assert str(error.value).startswith(f"{target}: ")


def test_written_json_is_plain_utf8_with_the_usual_permissions(tmp_path):
    target = tmp_path / "t.json"
    write_json_atomic(target, {"title": "Équilibre", "n": [1, 2.5, None, True]})
    assert json.loads(target.read_bytes().decode("utf-8")) == {"title": "Équilibre", "n": [1, 2.5, None, True]}
    if os.name == "posix":
        umask = os.umask(0o022)
        os.umask(umask)
        assert target.stat().st_mode & 0o777 == 0o666 & ~umask
