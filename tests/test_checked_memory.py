"""An unchanged answer checked again costs no try, also after the game restarts (issue 22,
point 3): the fingerprint of the answer last checked, when that check failed, is kept in
the progress file (game/course/progress.py `checked`), taken in and written under its lock with
the rest of the level's record, and read back when the level is opened again. A changed
answer (a move changed, added or taken away) has another fingerprint and counts.

Each test plays a session, saves, and then restarts: a new Progress read from the file
and a new PlaySession, as the game does at its next start. No pygame window is needed:
the play session lives without one.
"""

from __future__ import annotations

import json

import pytest

from equilibria.app.session.play import PlaySession
from equilibria.app.session.stage import load_stage
from equilibria.course.level import load_level
from equilibria.course.progress import FILE_NAME, Progress
from equilibria.course.syllabus import shipped_level
from equilibria.files.store import read_json
from equilibria.format.solution import AddForce
from equilibria.work.attempt import Attempt, answer_key

LEVEL = "free-body-01"
WRONG = [AddForce(type="add_force", node="A", fx=0, fy=-4500), AddForce(type="add_force", node="B", fx=0, fy=13500)]  # Ax forgotten
RIGHT = [AddForce(type="add_force", node="A", fx=-3000, fy=-4500), AddForce(type="add_force", node="B", fx=0, fy=13500)]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    return tmp_path


def session(folder) -> PlaySession:
    """The level opened as the game opens it at a start: the progress read from the file."""
    return PlaySession(load_stage(shipped_level(LEVEL)), progress=Progress.load(folder), fixed=True)


def check_with(s: PlaySession, moves) -> None:
    """Try again (if a verdict is up), put `moves` as the work, check, save."""
    s.try_again()
    s.bench.replace(list(moves))
    s.check()
    assert s.verdict is not None
    s.save(force=True)


def test_the_fingerprint_is_the_answer():
    lv = load_level(read_json(shipped_level(LEVEL)))
    key = answer_key(Attempt(lv, WRONG).solution())
    assert key == answer_key(Attempt(lv, list(WRONG)).solution())  # the same answer, the same key
    assert len(key) == 64
    other = [WRONG[0].model_copy(update={"fx": 1.0}), WRONG[1]]
    assert key != answer_key(Attempt(lv, other).solution())  # one number changed
    assert key != answer_key(Attempt(lv, WRONG[::-1]).solution())  # reordered
    assert key != answer_key(Attempt(lv, WRONG[:1]).solution())  # one move taken away


def test_after_a_restart_the_unchanged_wrong_answer_costs_no_try(folder):
    s = session(folder)
    check_with(s, WRONG)
    assert not s.verdict.passed and s.bench.attempt.tries == 1
    first = s.verdict.reason
    saved = json.loads((folder / FILE_NAME).read_text())["levels"][LEVEL]
    assert saved["tries"] == 1 and saved["checked"] == s.bench.attempt.failed_key

    again = session(folder)  # the game restarted: the work is restored, the same answer
    assert [m.model_dump() for m in again.bench.moves] == [m.model_dump() for m in WRONG]
    again.check()
    assert not again.verdict.passed and again.verdict.reason == first  # the same verdict
    assert again.bench.attempt.tries == 1  # and no try
    again.save(force=True)
    assert Progress.load(folder).tries(LEVEL) == 1

    third = session(folder)  # and again: the answer now changed is a try, and passes at the second
    check_with(third, RIGHT)
    assert third.verdict.passed and third.bench.attempt.tries == 2 and third.bench.attempt.marks == 80
    after = Progress.load(folder)
    assert after.tries(LEVEL) == 2 and after.marks(LEVEL) == 80 and after.checked(LEVEL) is None  # a pass forgets it


def test_after_a_restart_a_changed_wrong_answer_costs_a_try(folder):
    s = session(folder)
    check_with(s, WRONG)
    again = session(folder)
    changed = [WRONG[0].model_copy(update={"fy": -4400}), WRONG[1]]  # still wrong, but changed
    check_with(again, changed)
    assert not again.verdict.passed and again.bench.attempt.tries == 2
    assert Progress.load(folder).tries(LEVEL) == 2
    assert Progress.load(folder).checked(LEVEL) == again.bench.attempt.failed_key != s.bench.attempt.failed_key


def test_changed_and_changed_back_after_a_restart_is_a_new_try_then_free(folder):
    """The memory is of the answer last checked: one checked in between replaces it."""
    s = session(folder)
    check_with(s, WRONG)
    check_with(s, [*WRONG[:1], WRONG[1].model_copy(update={"fy": 13000})])
    assert s.bench.attempt.tries == 2
    again = session(folder)
    check_with(again, WRONG)  # the first wrong answer again: not the last checked, so a try
    assert again.bench.attempt.tries == 3
    fourth = session(folder)
    fourth.check()  # the work restored, unchanged since that check, after a restart: free
    assert fourth.bench.attempt.tries == 3 and Progress.load(folder).tries(LEVEL) == 3


def test_another_copys_save_keeps_the_memory_of_a_level_it_did_not_touch(folder):
    """Two copies share the folder: the one that saves last takes in the other's record
    of a level it did not touch, its fingerprint with it (the merge under the lock)."""
    one = session(folder)
    other = Progress.load(folder)  # a second copy, started before the first checked
    check_with(one, WRONG)
    other.opened("balance-01")
    other.save()
    assert Progress.load(folder).checked(LEVEL) == one.bench.attempt.failed_key is not None


def test_a_progress_file_with_a_bad_fingerprint_is_not_taken(folder):
    (folder / FILE_NAME).write_text(json.dumps({"format": 1, "levels": {LEVEL: {"tries": 1, "checked": "not a key"}}}))
    progress = Progress.load(folder)
    assert "not a progress file" in progress.problem and progress.checked(LEVEL) is None
    with pytest.raises(ValueError, match="fingerprint"):
        progress.record_check(LEVEL, False, None, 1, checked="xyz")
