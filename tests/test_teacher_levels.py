"""The teacher's levels (issue 16, point 5): level files copied into the data folder's
`levels/` are listed by the menu under a heading of their own after the course and by
`equilibria levels`, open by id, and a broken one, or one whose id is a course level's,
is refused in the one line every command prints, in the menu's box when chosen."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from equilibria.app.scenes.menu import MenuScene, level_rows
from equilibria.app.session.pacing import FRAME
from equilibria.app.widgets import overlay
from equilibria.app.window.app import App
from equilibria.cli.main import main
from equilibria.course.progress import Progress, data_folder
from equilibria.course.syllabus import level_path, load_course
from equilibria.course.teacher import HEADING, teacher_folder, teacher_levels
from equilibria.files.store import BadInput

LEVELS = Path(__file__).resolve().parents[1] / "levels"


def copy_level(name: str, level_id: str, title: str, source: str = "bridge-01") -> Path:
    """Copy a shipped level into the teacher's folder as `name`, with a new id and title."""
    data = json.loads((LEVELS / f"{source}.json").read_text())
    data.update(id=level_id, title=title)
    folder = teacher_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(data))
    return path


@pytest.fixture
def classroom() -> dict[str, Path]:
    """A good level, a broken one and one that takes a course level's id."""
    good = copy_level("arch.json", "arch-01", "An arch of my own")
    broken = teacher_folder() / "broken.json"
    broken.write_text('{"format": 1, "id": "broken",')
    clash = copy_level("clash.json", "tutorial-01", "Not the course's tutorial")
    return {"good": good, "broken": broken, "clash": clash}


def test_the_folder_is_in_the_data_folder_and_absent_means_no_heading():
    assert teacher_folder() == data_folder() / "levels"
    assert teacher_levels() == []
    assert all(r.text != HEADING for r in level_rows())


def test_the_menu_lists_the_teachers_levels_after_the_course_under_their_heading(classroom):
    rows = level_rows()
    heading = next(k for k, r in enumerate(rows) if r.text == HEADING)
    assert not rows[heading].choosable
    mine = rows[heading + 1 : heading + 4]
    assert [r.path for r in mine] == [classroom["good"], classroom["broken"], classroom["clash"]]
    good, broken, clash = mine
    assert good.text == "arch-01: An arch of my own" and good.level_id == "arch-01" and good.winnable and not good.problem
    assert broken.text == "broken.json (cannot be opened)" and not broken.winnable
    assert broken.problem.startswith(f"{classroom['broken']}: not valid JSON")
    assert clash.text == "clash.json (cannot be opened)" and not clash.winnable
    assert clash.problem == f"{classroom['clash']}: id: 'tutorial-01' is the id of a level of the course; give the teacher's level an id of its own"
    assert rows[heading + 4].text == "Free play"
    course_ids = [r.level_id for r in rows[:heading] if r.choosable]
    assert "tutorial-01" in course_ids and "arch-01" not in course_ids


def test_two_files_with_one_id_the_first_by_name_is_the_level():
    first = copy_level("a.json", "twin", "First")
    second = copy_level("b.json", "twin", "Second")
    found = teacher_levels()
    assert (found[0].path, found[0].problem) == (first, "")
    assert found[1].problem == f"{second}: id: 'twin' is already the id of a.json; give each level an id of its own"
    assert level_path("twin") == first


@pytest.fixture
def shown(monkeypatch) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    message = overlay.message

    def spy(surface, fonts, area, title, text, foot, *colour):
        seen.append((title, text))
        return message(surface, fonts, area, title, text, foot, *colour)

    monkeypatch.setattr(overlay, "message", spy)
    return seen


@pytest.mark.parametrize("case", ["broken", "clash"])
def test_a_teachers_level_that_cannot_be_played_shows_its_line_in_the_box(classroom, shown, case):
    app = App(fixed_frame=FRAME)
    menu = MenuScene(app, progress=Progress.load())
    app.push(menu)
    with app:
        app.frame()
        menu.levels.selected = next(k for k, r in enumerate(menu.levels.rows) if r.path == classroom[case])
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        app.frame()
        assert app.scene is menu and app.running
        title, text = shown[-1]
        assert title == f"{classroom[case].name} cannot be opened"
        assert text == menu.levels.rows[menu.levels.selected].problem and "\n" not in text and text.startswith(f"{classroom[case]}: ")


def test_equilibria_levels_lists_them_after_the_course(classroom, capsys):
    assert main(["levels"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    at = lines.index(f"Your teacher's levels, in {teacher_folder()}:")
    assert [line.split()[0] for line in lines[at + 1 : at + 4]] == ["arch-01", "broken.json", "clash.json"]
    assert lines[at + 1].split()[1] == "build" and lines[at + 1].endswith("An arch of my own")
    assert lines[-1].startswith(f"{len(load_course().level_ids()) + 3} levels (3 of them your teacher’s)")
    assert err.splitlines() == [teacher_levels()[1].problem, teacher_levels()[2].problem]
    assert main(["levels", "--json"]) == 0
    listed = [r for r in json.loads(capsys.readouterr().out) if r["source"] == "teacher"]
    assert [(r["id"], r["kind"], r["path"], r["problem"] is None) for r in listed] == [
        ("arch-01", "build", str(classroom["good"]), True),
        ("broken.json", "?", str(classroom["broken"]), False),
        ("clash.json", "?", str(classroom["clash"]), False),
    ]


def test_check_and_play_open_a_teachers_level_by_id_and_the_course_keeps_its_own(classroom, tmp_path, capsys):
    solution = json.loads((LEVELS / "solutions" / "bridge-01.json").read_text())
    solution["level"] = "arch-01"
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(solution))
    assert level_path("arch-01") == classroom["good"]
    assert main(["check", "arch-01", "--solution", str(answer)]) == 0
    assert capsys.readouterr().out.startswith("PASSED")
    assert level_path("tutorial-01") == LEVELS / "tutorial-01.json"  # the course's, never the clashing file
    with pytest.raises(BadInput, match="not valid JSON"):
        level_path("broken")
    assert main(["check", "broken"]) == 2
    assert capsys.readouterr().err.startswith(f"{classroom['broken']}: not valid JSON")
    assert main(["play", "arch-01", "--frames", "2"]) == 0
