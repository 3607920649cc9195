"""Handing work in (issue 22, point 7): `equilibria export LEVEL [-o FILE]` and Ctrl+E in
the game write the work as the solution file `check` and `grade` take, stamped with the
level and the student id, atomically, never over a level file; and a solution shown with
`play LEVEL --solution REF --check` (a teacher's demonstration) is never recorded as the
player's win nor saved as their work."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from judging import answer_for

from equilibria.classroom import handin
from equilibria.cli.main import main
from equilibria.course.progress import Progress, data_folder
from equilibria.files.store import temporaries
from equilibria.format.solution import load_solution

LEVELS = Path(__file__).resolve().parents[1] / "levels"
REFERENCE = LEVELS / "solutions"


def saved_work(level_id: str, work: dict | None = None) -> dict:
    """Progress holding `work` (default: the reference solution) on a level, as the game
    saves it; the work."""
    work = work or json.loads((REFERENCE / f"{level_id}.json").read_text())
    progress = Progress.load()
    progress.save_work(level_id, work)
    progress.save()
    return work


def test_export_writes_the_saved_work_as_a_solution_check_passes(tmp_path, capsys):
    saved_work("tutorial-01")
    out = tmp_path / "handed-in" / "t1.json"
    assert main(["export", "tutorial-01", "-o", str(out)]) == 0
    stdout, stderr = capsys.readouterr()
    assert stdout == f"Your work on tutorial-01 (1 move) is in {out.resolve()}; no student id stamped: the progress holds none yet.\n"
    assert stderr == ""
    data = json.loads(out.read_text())
    assert data["level"] == "tutorial-01" and "student" not in data
    assert temporaries(out) == []
    assert main(["check", "tutorial-01", "--solution", str(out)]) == 0


def test_export_by_default_writes_level_json_in_the_current_folder(tmp_path, monkeypatch, capsys):
    saved_work("tutorial-01")
    monkeypatch.chdir(tmp_path)
    assert main(["export", "tutorial-01"]) == 0
    assert (tmp_path / "tutorial-01.json").is_file() and str(tmp_path / "tutorial-01.json") in capsys.readouterr().out
    assert main(["export", "tutorial-01"]) == 0  # an earlier hand-in of the same level is replaced


def test_export_never_overwrites_a_level_or_another_file(tmp_path, monkeypatch, capsys):
    saved_work("tutorial-01")
    levels = tmp_path / "levels"
    shutil.copytree(LEVELS, levels, ignore=shutil.ignore_patterns("solutions"))
    before = (levels / "tutorial-01.json").read_bytes()
    monkeypatch.chdir(levels)  # the default name is the level's own file here
    assert main(["export", "tutorial-01"]) == 2
    assert main(["export", "tutorial-01", "-o", str(levels / "bridge-01.json")]) == 2
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": true}')
    assert main(["export", "tutorial-01", "-o", str(notes)]) == 2
    err = capsys.readouterr().err.splitlines()
    why = "already exists and is not a solution for tutorial-01 (a level, or another file), so it is not written over"
    assert err[0] == f"tutorial-01.json: {why}: choose another name (-o FILE)"
    assert len(err) == 3 and all("not written over" in line for line in err)
    assert (levels / "tutorial-01.json").read_bytes() == before and notes.read_text() == '{"mine": true}'
    assert main(["export", "tutorial-01", "-o", str(tmp_path)]) == 2  # a folder
    assert capsys.readouterr().err == f"{tmp_path}: is a folder; give the name of the file to write (-o FILE)\n"


def test_export_without_work_or_of_a_demo_says_so(capsys):
    assert main(["export", "tutorial-01"]) == 1
    assert capsys.readouterr().err.startswith("tutorial-01: no saved work on this level in ")
    assert main(["export", "demo-portal-braced"]) == 2
    assert capsys.readouterr().err.endswith("kind: a demo level has no goal, so there is no work to hand in\n")
    assert main(["export", "no-such-level"]) == 2


def test_a_stamped_solution_is_read_by_check_and_grade(tmp_path, capsys):
    """The student id rides in the file (`student`); check and grade read it."""
    work = answer_for("tutorial-01", "s042", stamped=False)  # the answer to s042's own numbers
    out = tmp_path / "class" / "s042" / "tutorial-01.json"
    line = handin.hand_in(work, "s042", out)
    assert line.endswith("; stamped with the student id s042.")
    assert load_solution(json.loads(out.read_text())).student == "s042"
    assert main(["check", "tutorial-01", "--solution", str(out)]) == 0
    assert main(["grade", "tutorial-01", str(tmp_path / "class"), "--csv", "-", "--workers", "1"]) == 0
    assert ",tutorial-01,true," in capsys.readouterr().out


def test_the_student_id_comes_from_the_progress():
    class Held:
        def __init__(self, student):
            self.student = student

        def to_json(self):
            return {"format": 1, "levels": {}, **({"student": self.student} if self.student is not None else {})}

    assert handin.student_of(Held("s042")) == "s042"
    assert handin.student_of(Held(None)) is None and handin.student_of(None) is None


def session_on(level_id: str, progress):
    from equilibria.app.session.play import PlaySession
    from equilibria.app.session.stage import load_stage

    return PlaySession(load_stage(str(LEVELS / f"{level_id}.json")), progress=progress, fixed=True)


def test_ctrl_e_hands_in_the_work_in_hand():
    import pygame

    from equilibria.app.widgets.keymap import binding_for

    assert binding_for(pygame.K_e, pygame.KMOD_CTRL).action == "session.hand_in"
    assert binding_for(pygame.K_e, 0).action != "session.hand_in"  # E alone still exports the graph
    work = saved_work("tutorial-01")
    session = session_on("tutorial-01", Progress.load())
    session.hand_in()
    out = data_folder() / handin.FOLDER / "tutorial-01.json"
    assert session.notice.startswith("Your work on tutorial-01 (1 move) is in ") and str(out.resolve()) in session.notice
    assert load_solution(json.loads(out.read_text())).moves == load_solution(work).moves


def test_ctrl_e_in_a_demonstration_hands_nothing_in():
    session = session_on("tutorial-01", None)
    session.hand_in()
    assert session.notice.startswith("Nothing is handed in here: this is a demonstration")
    assert not (data_folder() / handin.FOLDER).exists()


@pytest.mark.parametrize("saved", [False, True])
def test_a_demonstration_is_never_the_players_win_nor_their_work(saved):
    """`play LEVEL --solution REF --check`: the reference passes on screen, but the
    progress is as it was: not won, no marks, no tries, the player's own work kept."""
    own = {"format": 1, "level": "tutorial-01", "moves": [{"type": "add_force", "node": "B", "fx": 0, "fy": 1000}]}
    if saved:
        saved_work("tutorial-01", own)
    before = (data_folder() / "progress.json").read_bytes() if saved else None
    assert main(["play", "tutorial-01", "--solution", str(REFERENCE / "tutorial-01.json"), "--check", "--frames", "20"]) == 0
    progress = Progress.load()
    assert not progress.won("tutorial-01") and progress.marks("tutorial-01") is None and progress.tries("tutorial-01") == 0
    if saved:
        assert progress.work("tutorial-01") == own and (data_folder() / "progress.json").read_bytes() == before
    else:
        assert progress.work("tutorial-01") is None


def test_export_never_writes_among_the_levels(capsys):
    """Not over a shipped reference solution (a solution for the same level, but the
    course's), nor into the teacher's levels folder, where it would be read as a level."""
    from equilibria.course.teacher import teacher_folder
    from equilibria.files.shipped import LEVELS_DIR

    saved_work("tutorial-01")
    reference = LEVELS_DIR / "solutions" / "tutorial-01.json"
    before = reference.read_bytes()
    assert main(["export", "tutorial-01", "-o", str(reference)]) == 2
    assert reference.read_bytes() == before
    assert main(["export", "tutorial-01", "-o", str(teacher_folder() / "mine.json")]) == 2
    assert not (teacher_folder() / "mine.json").exists()
    assert all("choose another place (-o FILE)" in line for line in capsys.readouterr().err.splitlines())
