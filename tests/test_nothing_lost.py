"""Nothing the player does is lost: a verdict is written at once, tries count on across
restarts, each sandbox design keeps its own file, an edit the engine could not build is
refused in words with the work unchanged, and a full or read-only data folder or a
second copy of the game loses nothing already saved (a kill mid-save: test_saves.py)."""

from __future__ import annotations

import errno
import json

import pygame
import pytest
from test_play_session import click, key, start, tool

import equilibria.files.store
from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.window.app import App
from equilibria.course.level import load_level
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.format.solution import MAX_MOVES, AddNode
from equilibria.work.attempt import Attempt
from equilibria.work.workbench import LevelBench, Refused, SandboxBench


def level(level_id: str):
    return load_level(json.loads(shipped_level(level_id).read_text()))


def check_in_the_game(app: App) -> None:
    key(app, pygame.K_c)  # "Checking…"
    app.frame()  # judged


def test_a_win_is_written_at_once_and_survives_an_immediate_esc(tmp_path):
    stage = load_stage(shipped_level("tutorial-01"))
    app, scene = start(stage, progress=Progress.load(tmp_path), bench=bench_of_solution(stage, str(reference_solution("tutorial-01"))))
    check_in_the_game(app)
    assert scene.session.verdict is not None and scene.session.verdict.passed
    assert Progress.load(tmp_path).won("tutorial-01")  # on disk before anything else: a kill now loses nothing
    key(app, pygame.K_ESCAPE)  # folds the verdict
    key(app, pygame.K_ESCAPE)  # asks
    key(app, pygame.K_ESCAPE)  # leaves
    after = Progress.load(tmp_path)
    assert after.won("tutorial-01") and after.marks("tutorial-01") == 100
    app.close()


def test_tries_and_marks_count_on_across_restarts(tmp_path):
    stage = load_stage(shipped_level("tutorial-01"))
    app, scene = start(stage, progress=Progress.load(tmp_path))
    for fx in (None, 3000.0):  # nothing added, then a push the wrong way: two different wrong answers
        if fx is not None:
            scene.session.edit(scene.session.bench.add_force, "B", fx, 0.0)
        check_in_the_game(app)
        assert not scene.session.verdict.passed
        key(app, pygame.K_t)
    check_in_the_game(app)  # the same wrong answer checked again costs no try
    key(app, pygame.K_t)
    key(app, pygame.K_ESCAPE)
    app.close()
    assert Progress.load(tmp_path).tries("tutorial-01") == 2
    again = PlayScene(App(fixed_frame=FRAME), stage, progress=Progress.load(tmp_path))  # the game started anew
    assert again.session.bench.attempt.tries == 2
    again.session.bench.add_force("B", -3000.0, 0.0)
    again.session.check()
    assert again.session.verdict.passed and Progress.load(tmp_path).marks("tutorial-01") == 60  # the third check


def test_each_sandbox_design_keeps_its_own_file_listed_at_once(tmp_path, monkeypatch):
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    app = App(fixed_frame=FRAME)
    menu = MenuScene(app)
    app.push(menu)
    designs = tmp_path / "designs"
    made = []
    for x in (0.0, 3.0):
        scene = PlayScene(app, Stage.empty_sandbox())
        app.push(scene)
        app.frame()
        tool(app, scene, "node")
        click(app, scene.view.point(x, 1.0))
        key(app, pygame.K_ESCAPE)  # asks
        key(app, pygame.K_ESCAPE)  # back to the menu, saved
        assert app.scene is menu
        new = sorted(set(designs.glob("*.json")) - set(made))
        assert len(new) == 1, "a new design gets a file of its own"
        made += new
        assert any(r.path == new[0] for r in menu.levels.rows), "listed in the level select at once"
    first = json.loads(made[0].read_text())
    assert [(n["x"], n["y"]) for n in first["nodes"]] == [(0.0, 1.0)], "the first design is as it was left"
    reopened = PlayScene(app, load_stage(made[0], sandbox=True))
    assert reopened.session.design_file == made[0]  # a design of the player's is kept in its own file
    app.close()


def test_a_node_on_a_node_is_refused_in_words_and_the_work_stays():
    bench = LevelBench(level("tutorial-04"))
    bench.add_node(1.0, 1.0)
    before = list(bench.moves)
    with pytest.raises(Refused) as refused:
        bench.add_node(2.0, 0.0)  # where node C is
    words = str(refused.value)
    assert "same place" in words and "nodes[" not in words and "'" not in words
    assert bench.moves == before and bench.structure()["nodes"]
    sandbox = SandboxBench()
    a, b = sandbox.add_node(0.0, 0.0), sandbox.add_node(2.0, 0.0)
    design = sandbox.design()
    with pytest.raises(Refused) as refused:
        sandbox.move_node(b, 0.0, 0.0)
    assert str(refused.value).startswith("Not possible:") and "nodes[" not in str(refused.value)
    assert sandbox.design() == design and a


def test_the_move_limit_is_refused_in_words():
    bridge = level("bridge-01")
    moves = [AddNode(type="add_node", id=f"N{k}", x=0.001 * k, y=1.0) for k in range(MAX_MOVES)]
    bench = LevelBench(bridge, Attempt(bridge, moves))
    with pytest.raises(Refused, match="at most 10,000 moves"):
        bench.add_node(3.0, 2.0)
    assert len(bench.moves) == MAX_MOVES


def full_disk(monkeypatch) -> None:
    def no_room(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(equilibria.files.store.os, "fsync", no_room)


def read_only(monkeypatch) -> None:
    def refused(target):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(equilibria.files.store, "_create_temporary", refused)


@pytest.mark.parametrize("break_it", [full_disk, read_only], ids=["full disk", "read-only folder"])
def test_a_data_folder_that_takes_nothing_is_said_and_loses_nothing_saved(break_it, tmp_path, monkeypatch):
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    progress = Progress.load(tmp_path)
    progress.record_check("tutorial-02", True, 100, 1)
    progress.save()
    saved = (tmp_path / "progress.json").read_bytes()
    stage = load_stage(shipped_level("tutorial-01"))
    app, scene = start(stage, progress=Progress.load(tmp_path))
    break_it(monkeypatch)
    scene.session.bench.add_force("B", -1000.0, 0.0)
    app.frame()  # the save after an edit fails
    assert "not saved" in scene.session.notice and app.running
    key(app, pygame.K_F12)
    assert scene.session.notice.startswith("Could not save the screenshot")
    assert not list((tmp_path / "screenshots").glob("*.png")), "no empty file left saying it was saved"
    key(app, pygame.K_ESCAPE)  # asks
    key(app, pygame.K_ESCAPE)
    assert app.scene is scene and "Esc again leaves" in scene.session.notice, "it stays, and says the work is not saved"
    assert (tmp_path / "progress.json").read_bytes() == saved, "what was saved is as it was"
    monkeypatch.undo()
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    app.frame()
    app.run(int(3.5 / FRAME))  # the save is tried again, and now goes through
    assert Progress.load(tmp_path).work("tutorial-01")["moves"][0]["fx"] == -1000.0
    assert Progress.load(tmp_path).won("tutorial-02")
    app.close()


def test_two_copies_on_one_data_folder_keep_each_others_progress(tmp_path):
    first, second = Progress.load(tmp_path), Progress.load(tmp_path)
    first.record_check("tutorial-01", True, 80, 2)
    first.save()
    second.record_check("tutorial-02", False, None, 1)
    second.save_work("tutorial-02", {"format": 1, "level": "tutorial-02", "moves": [{"type": "mark_zero", "member": "BD"}]})
    second.save()
    on_disk = Progress.load(tmp_path)
    assert on_disk.won("tutorial-01") and on_disk.marks("tutorial-01") == 80
    assert on_disk.tries("tutorial-02") == 1 and on_disk.work("tutorial-02")["moves"]
    first.record_check("tutorial-01", True, 100, 1)  # the first copy wins again, better
    first.save()
    on_disk = Progress.load(tmp_path)
    assert on_disk.marks("tutorial-01") == 100 and on_disk.work("tutorial-02")["moves"], "the second copy's work is kept"


def test_saved_work_that_cannot_all_be_built_keeps_its_buildable_beginning(tmp_path):
    """Work saved before edits were checked against the engine (a node on node C) comes
    back as far as it can be built, never blank."""
    progress = Progress.load(tmp_path)
    moves = [
        {"type": "add_node", "id": "N1", "x": 1.0, "y": 1.0},
        {"type": "add_member", "id": "M1", "i": "A", "j": "N1", "section": next(iter(level("tutorial-04").player.sections))},
        {"type": "add_node", "id": "N2", "x": 2.0, "y": 0.0},  # on node C
    ]
    progress.save_work("tutorial-04", {"format": 1, "level": "tutorial-04", "moves": moves})
    progress.save()
    scene = PlayScene(App(fixed_frame=FRAME), load_stage(shipped_level("tutorial-04")), progress=Progress.load(tmp_path))
    assert [m.model_dump(exclude_none=True) for m in scene.session.bench.moves] == moves[:2]
    assert "first 2 moves" in scene.session.notice and scene.session.model is not None
