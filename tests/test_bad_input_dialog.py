"""Bad input in the game (issue 5): a level file that cannot be opened from the menu is
named, with the field at fault, in a box over the menu; the game carries on behind it,
and the next key or click closes the box and does nothing else."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from equilibria.app.draw.palette import ALERT
from equilibria.app.scenes import menu as menu_module
from equilibria.app.scenes.menu import MenuScene, Row, level_rows
from equilibria.app.session.pacing import FRAME
from equilibria.app.widgets import overlay
from equilibria.app.window.app import App
from equilibria.course.progress import Progress

LEVELS = Path(__file__).resolve().parent.parent / "levels"


def broken_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """name: (file, what its message must name)."""
    not_json = folder / "not-json.json"
    not_json.write_text('{"format": 1, "id": "x",')
    unknown = json.loads((LEVELS / "tutorial-01.json").read_text())
    unknown["members"][0]["j"] = "NOWHERE"
    unknown_node = folder / "unknown-node.json"
    unknown_node.write_text(json.dumps(unknown))
    return {"not JSON": (not_json, "not valid JSON"), "unknown node": (unknown_node, "members[0].j: unknown node 'NOWHERE'")}


def post(kind: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(kind, **fields))


@pytest.fixture
def shown(monkeypatch) -> list[tuple[str, str]]:
    """(title, text) of every box the menu draws, frame by frame."""
    seen: list[tuple[str, str]] = []
    message = overlay.message

    def spy(surface, fonts, area, title, text, foot, colour=ALERT):
        seen.append((title, text))
        return message(surface, fonts, area, title, text, foot, colour)

    monkeypatch.setattr(overlay, "message", spy)
    return seen


def alert_pixels(app: App) -> int:
    surface = app.screen
    w, h = surface.get_size()
    return sum(surface.get_at((x, y))[:3] == ALERT for x in range(0, w, 2) for y in range(0, h, 2))


def open_menu(folder: Path) -> tuple[App, MenuScene]:
    app = App(fixed_frame=FRAME)
    menu = MenuScene(app, level_rows(folder, folder / "no-course.json"), Progress.load(folder / "progress"))
    app.push(menu)
    app.frame()
    return app, menu


def choose(app: App, menu: MenuScene, path: Path) -> None:
    menu.levels.selected = menu.levels.rows.index(next(r for r in menu.levels.rows if r.path == path))
    post(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r")
    app.frame()


@pytest.mark.parametrize("case", ["not JSON", "unknown node"])
def test_a_broken_level_file_is_named_in_a_box_and_a_key_closes_it(tmp_path, shown, case):
    path, field = broken_files(tmp_path)[case]
    app, menu = open_menu(tmp_path)
    with app:
        assert alert_pixels(app) == 0
        choose(app, menu, path)
        assert app.scene is menu and app.running  # nothing opened, nothing crashed
        title, text = shown[-1]
        assert path.name in title and str(path) in text and field in text
        assert text.count("\n") == 0 and text.startswith(f"{path}: ")  # one line: file: field: problem
        boxed = alert_pixels(app)
        assert boxed > 200  # the box's frame and title
        frames = len(shown)
        post(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode="")  # Down would choose the next row: here it only closes the box
        app.frame()
        assert not menu.cannot_open.text and menu.levels.rows[menu.levels.selected].path == path  # closed; the key did nothing else
        assert len(shown) == frames and alert_pixels(app) == 0
        app.run(5)
        assert app.running and app.scene is menu and len(shown) == frames  # the box stays closed


def test_the_box_stays_while_the_menu_runs_and_a_click_closes_it(tmp_path, shown):
    path, _ = broken_files(tmp_path)["unknown node"]
    app, menu = open_menu(tmp_path)
    with app:
        choose(app, menu, path)
        before = len(shown)
        post(pygame.MOUSEMOTION, pos=(3, 3), rel=(1, 1), buttons=(0, 0, 0))  # moving the mouse does not close it
        app.run(30)
        assert len(shown) == before + 30 and menu.cannot_open.text and app.running
        post(pygame.MOUSEBUTTONDOWN, pos=(640, 400), button=1)
        post(pygame.MOUSEBUTTONUP, pos=(640, 400), button=1)
        app.frame()
        assert not menu.cannot_open.text and app.scene is menu  # closed, and the click opened nothing


def test_escape_closes_the_box_without_quitting_and_a_good_level_still_opens(tmp_path, shown):
    path, _ = broken_files(tmp_path)["not JSON"]
    good = tmp_path / "tutorial-01.json"
    good.write_text((LEVELS / "tutorial-01.json").read_text())
    app, menu = open_menu(tmp_path)
    with app:
        assert Row("not-json (cannot be read)", path) in menu.levels.rows
        choose(app, menu, path)
        post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")
        app.frame()
        assert app.running and not menu.cannot_open.text
        choose(app, menu, good)
        assert menu.student.shown  # its numbers vary: the student id is asked first
        post(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b")  # not now: the level's own numbers
        app.frame()
        assert type(app.scene).__name__ == "PlayScene"


def test_every_broken_level_of_the_corpus_gets_the_cli_line_in_a_box_as_a_level_and_as_a_design(tmp_path, shown, monkeypatch):
    """The whole corpus in one running game: each file the menu lists as a level, and
    again as a saved sandbox design, is refused in a box whose text is the line the
    command line prints; after each box a key closes it, and the menu goes on."""
    from test_corpus import BROKEN_LEVEL, CORPUS

    designs = tmp_path / "home" / "designs"
    designs.mkdir(parents=True)
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(menu_module, "SHOWN_DESIGNS", len(BROKEN_LEVEL))
    for name in BROKEN_LEVEL:
        body = (CORPUS / "levels" / f"{name}.json").read_bytes()
        (tmp_path / f"{name}.json").write_bytes(body)
        (designs / f"{name}.json").write_bytes(body)
    app, menu = open_menu(tmp_path)
    with app:
        for name, words in BROKEN_LEVEL.items():
            for path in (tmp_path / f"{name}.json", designs / f"{name}.json"):
                choose(app, menu, path)
                assert app.scene is menu and menu.cannot_open.text, path
                assert shown[-1][1].startswith(f"{path}: {words}") and "\n" not in shown[-1][1]
                post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ")
                app.frame()
                assert not menu.cannot_open.text and app.scene is menu and app.running
