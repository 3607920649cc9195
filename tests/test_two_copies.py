"""Two copies of the game on one data folder lose nothing (issue 26 point 4): the progress
merge runs under a file lock, so that many processes saving at once keep every record;
a lock held too long is one line and the file as it was; each new sandbox design gets a
file of its own even when two copies save in the same second. Real processes
(multiprocessing, spawned), not threads: the lock and O_EXCL are the operating system's."""

from __future__ import annotations

import json
import multiprocessing
from types import SimpleNamespace

import pytest
from filelock import FileLock

from equilibria.course import progress as progress_module
from equilibria.course.progress import Progress, lock_path
from equilibria.files.store import SaveError

COPIES = 4
RECORDS = 40  # per copy: each saved at once, as the game does after a check
DESIGNS = 40  # per copy


def _win_levels(folder: str, copy: int) -> None:
    """One copy of the game: wins RECORDS levels of its own, saving after each."""
    for k in range(RECORDS):
        progress = Progress.load(folder)
        progress.record_check(f"level-{copy}-{k}", True, 100 - k % 50, 1)
        progress.save()


def _claim_designs(folder: str, queue) -> None:
    """One copy of the game saving DESIGNS new sandbox designs, every one in the same
    second as every other copy's (the clock frozen), each written as the save does."""
    import os

    os.environ["EQUILIBRIA_HOME"] = folder
    from equilibria.app.session import play as session
    from equilibria.files.store import write_json_atomic

    session.time = SimpleNamespace(strftime=lambda _: "20260101-120000")  # the same second for all
    names = []
    for k in range(DESIGNS):
        path = session.new_design_file(SimpleNamespace(level=None))
        write_json_atomic(path, {"format": 1, "by": os.getpid(), "k": k})
        names.append(path.name)
    queue.put(names)


def _run(target, args_for) -> None:
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=target, args=args_for(c)) for c in range(COPIES)]
    for p in procs:
        p.start()
    return procs


def test_many_copies_saving_at_once_lose_no_record(tmp_path):
    procs = _run(_win_levels, lambda c: (str(tmp_path), c))
    for p in procs:
        p.join(timeout=600)
        assert p.exitcode == 0, "a copy of the game failed to save"
    saved = json.loads((tmp_path / "progress.json").read_text(encoding="utf-8"))["levels"]
    expected = {f"level-{c}-{k}" for c in range(COPIES) for k in range(RECORDS)}
    assert set(saved) == expected, f"{len(expected - set(saved))} of {len(expected)} records lost"
    assert all(saved[f"level-{c}-{k}"]["won"] and saved[f"level-{c}-{k}"]["marks"] == 100 - k % 50 for c in range(COPIES) for k in range(RECORDS))
    assert lock_path(tmp_path / "progress.json").exists()  # the lock lives beside the file


def test_a_lock_held_too_long_is_one_line_and_the_file_as_it_was(tmp_path, monkeypatch):
    first = Progress.load(tmp_path)
    first.record_check("balance-01", True, 90, 1)
    first.save()
    before = (tmp_path / "progress.json").read_bytes()
    monkeypatch.setattr(progress_module, "LOCK_SECONDS", 0.05)
    other = Progress.load(tmp_path)
    other.record_check("balance-02", True, 80, 1)
    with FileLock(lock_path(tmp_path / "progress.json")), pytest.raises(SaveError) as exc:  # another copy in the middle of its save
        other.save()
    line = str(exc.value)
    assert "\n" not in line and line.startswith(str(tmp_path / "progress.json")) and "another copy of Equilibria" in line
    assert (tmp_path / "progress.json").read_bytes() == before
    other.save()  # the lock let go: the save goes through and keeps the first copy's win
    assert Progress.load(tmp_path).won("balance-01") and Progress.load(tmp_path).won("balance-02")


def test_sandboxes_saving_in_the_same_second_each_get_a_design_file(tmp_path):
    queue = multiprocessing.get_context("spawn").Queue()
    procs = _run(_claim_designs, lambda c: (str(tmp_path), queue))
    names = [name for _ in procs for name in queue.get(timeout=600)]
    for p in procs:
        p.join(timeout=600)
        assert p.exitcode == 0
    assert len(names) == len(set(names)) == COPIES * DESIGNS
    files = sorted((tmp_path / "designs").glob("*.json"))
    assert len(files) == COPIES * DESIGNS
    written = {(d["by"], d["k"]) for d in (json.loads(f.read_text(encoding="utf-8")) for f in files)}
    assert len(written) == COPIES * DESIGNS  # no design written over another


# ---------------------------------------------------------------------- one level, one design, two copies (issue 36 point 4)
def _work(level: str, fx: float) -> dict:
    return {"format": 1, "level": level, "moves": [{"type": "add_force", "node": "B", "fx": fx}]}


def test_a_copys_work_saved_meanwhile_is_never_written_over_and_the_other_is_told(tmp_path):
    first, second = Progress.load(tmp_path), Progress.load(tmp_path)  # two copies, each opening the level
    first.save_work("tutorial-01", _work("tutorial-01", -3000))
    first.save()
    second.save_work("tutorial-01", _work("tutorial-01", -1000))
    second.save()
    assert "tutorial-01" in second.overwritten and "tutorial-01" not in first.overwritten
    assert Progress.load(tmp_path).work("tutorial-01")["moves"][0]["fx"] == -3000  # the first copy's, which it said it saved
    second.save()  # tried again: still not written over
    assert Progress.load(tmp_path).work("tutorial-01")["moves"][0]["fx"] == -3000
    second.saw_work("tutorial-01")  # the level opened again: the file's work restored in this copy
    second.save_work("tutorial-01", _work("tutorial-01", -2000))
    second.save()
    assert Progress.load(tmp_path).work("tutorial-01")["moves"][0]["fx"] == -2000 and not second.overwritten


def test_a_copy_that_only_checked_a_level_keeps_the_work_another_saved(tmp_path):
    first, second = Progress.load(tmp_path), Progress.load(tmp_path)
    first.save_work("tutorial-01", _work("tutorial-01", -3000))
    first.save()
    second.record_check("tutorial-01", False, None, 1)  # touched the level, its work as it read it (none)
    second.save()
    saved = Progress.load(tmp_path)
    assert saved.work("tutorial-01")["moves"][0]["fx"] == -3000 and saved.tries("tutorial-01") == 1 and not second.overwritten


def test_two_sessions_on_one_level_the_later_is_not_said_saved(tmp_path):
    from equilibria.app.session import play as session_module
    from equilibria.app.session.play import PlaySession
    from equilibria.app.session.stage import load_stage
    from equilibria.course.syllabus import shipped_level

    sessions = [PlaySession(load_stage(shipped_level("tutorial-01")), progress=Progress.load(tmp_path), fixed=True) for _ in range(2)]
    for fx, s in zip((-3000.0, -1000.0), sessions, strict=True):
        s.bench.add_force("B", fx, 0.0)
    assert sessions[0].save(force=True)
    assert not sessions[1].save(force=True)
    assert sessions[1].notice == session_module._(session_module.OVERWRITTEN)
    assert Progress.load(tmp_path).work("tutorial-01")["moves"][0]["fx"] == -3000


def test_two_sessions_on_one_design_lose_neither(tmp_path):
    from equilibria.app.session.play import PlaySession
    from equilibria.app.session.stage import load_stage
    from equilibria.course.progress import data_folder
    from equilibria.course.syllabus import shipped_level
    from equilibria.files.store import read_json

    designs = data_folder() / "designs"
    designs.mkdir(parents=True)
    design = designs / "bridge.json"
    design.write_text(json.dumps(read_json(shipped_level("bridge-01"))), encoding="utf-8")
    sessions = [PlaySession(load_stage(design, sandbox=True), progress=Progress.load(tmp_path), fixed=True) for _ in range(2)]
    assert all(s.design_file == design for s in sessions)
    zone = read_json(shipped_level("bridge-01"))["player"]["zone"]
    y = round(sum(p[1] for p in zone) / len(zone), 6)  # inside: the zone is convex
    for x, s in zip((1.0, 2.0), sessions, strict=True):
        s.bench.add_node(x, y)
    assert sessions[0].save(force=True)
    assert sessions[1].save(force=True)
    assert sessions[1].design_file != design and "saved bridge.json meanwhile" in sessions[1].notice
    mine = [n for n in read_json(design)["nodes"] if n["y"] == y]
    theirs = [n for n in read_json(sessions[1].design_file)["nodes"] if n["y"] == y]
    assert [n["x"] for n in mine] == [1.0] and [n["x"] for n in theirs] == [2.0]
    sessions[1].bench.add_node(3.0, y)
    assert sessions[1].save(force=True)  # its own file from now on, the first's untouched
    assert [n["x"] for n in read_json(design)["nodes"] if n["y"] == y] == [1.0]
