"""The student id, given once (issue 22, point 5): kept in the progress file, asked by a
small box on the menu before the first level that varies its numbers, and used by the
play scene to draw the student's own numbers, which the brief shows."""

from __future__ import annotations

import json

import pygame
import pytest

from equilibria.app.scenes.menu import MenuScene, level_rows
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.window.app import App
from equilibria.course.progress import Progress
from equilibria.course.syllabus import shipped_level


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def typed(text: str) -> None:
    for ch in text:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.key.key_code(ch), mod=0, unicode=ch))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))  # as the window sends it: typed once, not twice


def test_the_student_id_is_kept_in_the_progress_file(tmp_path):
    progress = Progress.load(tmp_path)
    assert progress.student is None
    progress.set_student("  s1001 ")
    progress.save()
    assert json.loads((tmp_path / "progress.json").read_text())["student"] == "s1001"
    assert Progress.load(tmp_path).student == "s1001"
    for bad in ("", "   ", "x" * 65, "a\tb"):
        with pytest.raises(ValueError):
            progress.set_student(bad)
    assert progress.student == "s1001"


def test_another_copy_of_the_game_keeps_the_id_given_in_this_one(tmp_path):
    ours, theirs = Progress.load(tmp_path), Progress.load(tmp_path)
    theirs.set_student("s2")
    theirs.save()
    ours.opened("tutorial-01")
    ours.save()  # this session gave no id: it keeps the other copy's
    assert Progress.load(tmp_path).student == "s2"


def test_the_menu_asks_the_id_before_the_first_level_that_varies_and_the_brief_shows_the_numbers(tmp_path):
    progress = Progress.load(tmp_path)
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, level_rows(), progress)
        app.push(menu)
        app.frame()
        menu.levels.selected = next(k for k, r in enumerate(menu.levels.rows) if r.level_id == "reactions-02")
        key(pygame.K_RETURN)
        app.frame()
        assert menu.student.box is not None and app.scene is menu, "asked first"
        typed("s1001")
        key(pygame.K_RETURN)
        app.frame()
        app.frame()
        assert isinstance(app.scene, PlayScene)
        brief = app.scene.stage.brief
        assert brief.startswith("Your numbers (student s1001): the load at C = 9 kN, A to C = 1.5 m, A to B = 5.25 m.")
        assert "A load of 9 kN hangs at C, 1.5 m from A" in brief
        assert app.scene.session.bench.attempt.solution().student == "s1001"
    assert Progress.load(tmp_path).student == "s1001"


def test_not_now_plays_the_levels_own_numbers_and_is_not_asked_again(tmp_path):
    progress = Progress.load(tmp_path)
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, level_rows(), progress)
        app.push(menu)
        app.frame()
        menu.levels.selected = next(k for k, r in enumerate(menu.levels.rows) if r.level_id == "particle-01")
        key(pygame.K_RETURN)
        app.frame()
        key(pygame.K_ESCAPE)
        app.frame()
        app.frame()
        assert isinstance(app.scene, PlayScene)
        assert app.scene.stage.brief.startswith("The level's own numbers") and "A weight of 10 kN" in app.scene.stage.brief
        assert menu.student.asked and progress.student is None


def test_a_play_scene_draws_the_saved_students_numbers(tmp_path):
    progress = Progress.load(tmp_path)
    progress.set_student("s1002")
    with App(fixed_frame=FRAME) as app:
        scene = PlayScene(app, load_stage(shipped_level("particle-01")), progress=progress)
        app.push(scene)
        app.frame()
        assert scene.stage.level.numbers == {"W": 19990.0}
        loads = scene.session.stage.model_data()["loads"]
        assert loads[0]["fy"] == -19990.0, "the structure carries the student's weight"


def test_a_solution_shown_in_the_game_has_the_numbers_of_the_student_it_is_stamped_with(tmp_path):
    from equilibria.app.launch import bench_of_solution

    path = tmp_path / "work.json"
    path.write_text(json.dumps({"format": 1, "level": "reactions-02", "student": "s1002", "moves": []}))
    stage = load_stage(shipped_level("reactions-02")).drawn_for_solution(str(path))
    assert stage.brief.startswith("Your numbers (student s1002): the load at C = 4 kN, A to C = 3.25 m, A to B = 6.75 m.")
    assert bench_of_solution(stage, str(path)).level.student == "s1002"
    path.write_text("{not JSON")
    assert load_stage(shipped_level("reactions-02")).drawn_for_solution(str(path)).level.student is None  # reading it for its moves says why


def test_the_i_key_opens_the_box_and_types_nothing_into_it(tmp_path):
    progress = Progress.load(tmp_path)
    progress.set_student("s7")
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, level_rows(), progress)
        app.push(menu)
        app.frame()
        typed("i")
        app.frame()
        assert menu.student.box is not None and menu.student.box.text == "s7"
        key(pygame.K_BACKSPACE)
        key(pygame.K_BACKSPACE)
        typed("S8")
        key(pygame.K_RETURN)
        app.frame()
        assert menu.student.box is None and progress.student == "S8" and app.scene is menu
