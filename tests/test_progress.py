"""The student's progress (`equilibria.course.progress`): what is kept between sessions, what happens
to a broken or newer progress file, where it lives, and the level select that shows it.
Every test keeps its progress in tmp_path (never the real home)."""

import json

import numpy as np
import platformdirs
import pygame
import pytest

from equilibria.app.draw.palette import ALERT, REACTION
from equilibria.app.scenes.menu import MenuScene, level_rows
from equilibria.app.scenes.menuparts import topic_counts
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.window.app import App
from equilibria.course.progress import FILE_NAME, FORMAT, HOME_VARIABLE, Progress, data_folder
from equilibria.files.store import SaveError, temporaries

WORK = {"format": 1, "level": "balance-01", "moves": [{"type": "add_force", "node": "P3", "fx": 0.0, "fy": 5000.0}]}


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Whatever a test forgets, Progress.load() without a folder lands in tmp_path."""
    folder = tmp_path / "home"
    monkeypatch.setenv(HOME_VARIABLE, str(folder))
    return folder


def lines(text: str) -> int:
    return text.count("\n") + 1


def count(image: pygame.Surface, colour, rect: pygame.Rect | None = None) -> int:
    """Pixels of exactly `colour` in rect (default: everywhere)."""
    rect = rect or image.get_rect()
    block = pygame.surfarray.array3d(image)[rect.left : rect.right, rect.top : rect.bottom]
    return int(np.all(block == np.array(colour), axis=-1).sum())


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


# ---------------------------------------------------------------------- keeping it
def test_progress_round_trips_through_its_file(tmp_path):
    progress = Progress.load(tmp_path)
    assert progress.problem == "" and progress.path == tmp_path / FILE_NAME
    assert not progress.won("balance-01") and progress.marks("balance-01") is None and progress.work("balance-01") is None
    progress.save_work("balance-01", WORK)
    progress.record_check("balance-01", False, None, 1)
    progress.record_check("balance-01", True, 80, 2)
    progress.record_check("zero-force-01", False, None, 3)
    progress.opened("balance-01")
    progress.save()
    again = Progress.load(tmp_path)
    assert again.problem == ""
    assert again.won("balance-01") and again.marks("balance-01") == 80 and again.tries("balance-01") == 2
    assert not again.won("zero-force-01") and again.tries("zero-force-01") == 3
    assert again.work("balance-01")["moves"] == WORK["moves"] and again.work("balance-01")["level"] == "balance-01"
    assert again.last_level == "balance-01"
    assert again.to_json() == progress.to_json() == json.loads((tmp_path / FILE_NAME).read_text())
    assert again.to_json()["format"] == FORMAT
    assert temporaries(tmp_path / FILE_NAME) == []


def test_a_won_level_keeps_its_best_marks_and_work_is_a_copy(tmp_path):
    progress = Progress.load(tmp_path)
    progress.record_check("balance-01", True, 60, 3)
    progress.record_check("balance-01", True, 100, 1)  # played again, better
    progress.record_check("balance-01", False, None, 1)  # and again, worse
    assert progress.won("balance-01") and progress.marks("balance-01") == 100
    progress.save_work("balance-01", WORK)
    progress.work("balance-01")["moves"].clear()
    assert progress.work("balance-01")["moves"] == WORK["moves"]


def test_work_and_checks_that_are_not_what_they_say_are_refused(tmp_path):
    progress = Progress.load(tmp_path)
    with pytest.raises(ValueError, match="for level 'balance-01', not 'balance-02'"):
        progress.save_work("balance-02", WORK)
    with pytest.raises(ValueError, match=r"moves\[0\]"):
        progress.save_work("balance-01", {"format": 1, "level": "balance-01", "moves": [{"type": "teleport"}]})
    for bad in ({"marks": 101}, {"marks": 80.5}, {"tries": -1}, {"passed": "yes"}):
        args = {"passed": True, "marks": 80, "tries": 1} | bad
        with pytest.raises(ValueError):
            progress.record_check("balance-01", **args)
    assert progress.to_json() == {"format": 1, "levels": {}}


def test_the_environment_variable_names_the_folder(tmp_path, monkeypatch, home):
    assert data_folder() == home
    progress = Progress.load()
    assert progress.path == home / FILE_NAME
    progress.opened("tutorial-01")
    progress.save()  # makes the folder
    assert json.loads((home / FILE_NAME).read_text())["last_level"] == "tutorial-01"
    monkeypatch.delenv(HOME_VARIABLE)
    assert data_folder() == platformdirs.user_data_path("equilibria", appauthor=False)  # (nothing written there)


# ---------------------------------------------------------------------- files that are not right
@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b'{"format": 1, "levels": {"balan', "not valid JSON"),
        (b"\xff\xfe junk", "not UTF-8 text"),
        (b"[1, 2]", "not a progress file (not a JSON object)"),
        (b'{"format": 0, "levels": {}}', "format"),
        (b'{"levels": {}}', "format"),
        (b'{"format": 1, "levels": {"balance-01": {"won": true, "marks": 150}}}', "levels.balance-01.marks"),
        (b'{"format": 1, "levels": {"balance-02": {"work": ' + json.dumps(WORK).encode() + b"}}}", "is for level 'balance-01'"),
        (b'{"format": 1, "levels": {"balance-01": {"won": true, "marks": ' + b"9" * 5001 + b"}}}", "levels.balance-01.marks: a number of 5,001 digits"),
        (b'{"format": 1, "student": "ann\\udc00", "levels": {}}', "student: half of a character"),
        (b"", "the file is empty"),
    ],
)
def test_a_broken_file_is_moved_aside_and_a_fresh_progress_starts(tmp_path, content, why):
    path = tmp_path / FILE_NAME
    path.write_bytes(content)
    progress = Progress.load(tmp_path)
    assert lines(progress.problem) == 1 and progress.problem.startswith(f"{path}: ") and why in progress.problem
    (aside,) = tmp_path.glob("progress.broken-*.json")
    assert aside.read_bytes() == content  # kept, never deleted
    assert f"kept as {aside.name}" in progress.problem
    assert not path.exists() and progress.to_json() == {"format": 1, "levels": {}}
    progress.record_check("balance-01", True, 100, 1)
    progress.save()
    assert Progress.load(tmp_path).marks("balance-01") == 100 and aside.read_bytes() == content


def test_a_second_broken_file_in_the_same_second_does_not_replace_the_first(tmp_path):
    for text in ("one", "two"):
        (tmp_path / FILE_NAME).write_text(text)
        Progress.load(tmp_path)
    assert sorted(p.read_text() for p in tmp_path.glob("progress.broken-*.json")) == ["one", "two"]


def test_a_newer_format_is_never_overwritten_and_this_version_keeps_its_own(tmp_path):
    newer = {"format": FORMAT + 1, "levels": {"balance-01": {"stars": 3}}, "settings": {}}
    path = tmp_path / FILE_NAME
    path.write_text(json.dumps(newer))
    progress = Progress.load(tmp_path)
    assert lines(progress.problem) == 1 and progress.problem.startswith(f"{path}: ")
    assert f"newer Equilibria (format {FORMAT + 1})" in progress.problem
    progress.record_check("tutorial-01", True, 80, 2)
    progress.save()
    assert json.loads(path.read_text()) == newer  # untouched
    assert list(tmp_path.glob("progress.broken-*")) == []
    again = Progress.load(tmp_path)  # the older game, next time: its own progress is there
    assert again.marks("tutorial-01") == 80 and "newer Equilibria" in again.problem


def test_a_file_that_cannot_be_read_is_left_alone_and_nothing_is_saved(tmp_path):
    (tmp_path / FILE_NAME).mkdir()  # not a file: cannot be read, nor replaced
    progress = Progress.load(tmp_path)
    assert progress.path is None and "cannot read the progress" in progress.problem and lines(progress.problem) == 1
    progress.record_check("balance-01", True, 100, 1)
    progress.save()  # nowhere to save: does nothing
    assert (tmp_path / FILE_NAME).is_dir() and list(tmp_path.iterdir()) == [tmp_path / FILE_NAME]


def test_a_save_that_fails_says_so_in_one_line(tmp_path):
    folder = tmp_path / "progress"
    progress = Progress.load(folder)
    progress.opened("balance-01")
    folder.write_text("")  # a file where the folder should be made
    with pytest.raises(SaveError) as error:
        progress.save()
    assert str(error.value).startswith(f"{folder / FILE_NAME}: ") and lines(str(error.value)) == 1


# ---------------------------------------------------------------------- the level select
def menu_with(progress: Progress) -> tuple[App, MenuScene]:
    app = App(fixed_frame=FRAME)
    menu = MenuScene(app, level_rows(), progress)
    app.push(menu)
    app.frame()
    return app, menu


def test_the_menu_ticks_won_levels_gives_marks_and_counts_by_topic(tmp_path):
    progress = Progress.load(tmp_path)
    progress.record_check("tutorial-02", True, 80, 2)
    progress.record_check("balance-01", True, 100, 1)
    progress.opened("balance-01")
    app, menu = menu_with(progress)
    with app:
        rows = menu.levels.rows
        index = {row.level_id: k for k, row in enumerate(rows) if row.level_id}
        counts = {rows[k].text: c for k, c in topic_counts(rows, progress).items()}
        assert counts["Getting started"] == (1, 4) and counts["Balance with two forces"] == (1, 3) and counts["Zero-force members"] == (0, 6)
        assert "Watch it move" not in counts  # demos cannot be won: no count, no box
        assert menu.levels.selected == index["balance-01"]  # the level opened last
        places = menu.levels.places()
        for level_id in ("tutorial-02", "balance-01"):
            row, box = places[index[level_id]], menu.levels.won_box(places[index[level_id]])
            assert count(app.screen, REACTION, box) > 20  # the tick
            assert count(app.screen, REACTION, row) > count(app.screen, REACTION, box) + 50  # marks
        for level_id in ("tutorial-01", "balance-02", "demo-portal-braced"):
            assert count(app.screen, REACTION, places[index[level_id]]) == 0
        assert count(app.screen, ALERT) == 0  # no problem to show


def test_the_menu_shows_the_progress_problem_and_writes_nothing(tmp_path):
    (tmp_path / FILE_NAME).write_text("{not json")
    progress = Progress.load(tmp_path)
    app, menu = menu_with(progress)
    with app:
        w, h = app.screen.get_size()
        below = menu.levels.box.bottom
        assert count(app.screen, ALERT, pygame.Rect(0, below, w, h - below)) > 50  # the problem, a line under the list
        assert count(app.screen, ALERT) == count(app.screen, ALERT, pygame.Rect(0, below, w, h - below))
        before = sorted(p.name for p in tmp_path.iterdir())
        key(pygame.K_RETURN)  # open the level chosen: its numbers vary, so the student id is asked first
        app.frame()
        assert isinstance(app.scene, MenuScene) and menu.student.shown
        key(pygame.K_ESCAPE)  # not now: the level's own numbers, and nothing written
        app.frame()
        assert isinstance(app.scene, PlayScene)
        assert progress.last_level == menu.levels.rows[menu.levels.selected].level_id
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # the play scene's save writes it
