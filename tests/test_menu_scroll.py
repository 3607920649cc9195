"""The level select scrolls: a course of fifty levels and a teacher's folder do not fit a
window. Up/Down, Page Up/Down, Home/End, the wheel and the scrollbar move through one column, the
cursor's row is always in view, a scrollbar and "21–40 of 52" say where the view is, and
the cursor is where it was on the way back from a level (and at the next start)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from equilibria.app.draw.palette import MUTED
from equilibria.app.scenes.menu import MenuScene, Row, level_rows
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.window.app import App
from equilibria.course.progress import Progress

LEVELS = 60  # fake rows: more than any window shows


def fake_rows() -> list[Row]:
    """Six topics of ten levels each: 66 rows."""
    rows: list[Row] = []
    for t in range(LEVELS // 10):
        rows.append(Row(f"Topic {t + 1}"))
        rows += [Row(f"level {10 * t + k + 1}", Path(f"fake-{10 * t + k + 1:02}.json")) for k in range(10)]
    return rows


def key(k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))


def wheel(notches: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False, precise_x=0.0, precise_y=float(notches)))


def motion(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(2, 2), buttons=(0, 0, 0)))


@pytest.fixture
def menu(tmp_path):
    app = App(fixed_frame=FRAME)
    scene = MenuScene(app, fake_rows(), Progress.load(tmp_path))
    app.push(scene)
    app.frame()
    yield app, scene
    app.close()


def in_view(scene: MenuScene) -> bool:
    return scene.levels.selected in scene.levels.shown() and scene.levels.rows[scene.levels.selected].choosable


def test_the_arrow_keys_walk_the_whole_list_and_the_cursor_stays_in_view(menu):
    app, scene = menu
    page = scene.levels.page
    assert 10 < page < len(scene.levels.rows)  # the 800 px window shows part of the 66 rows
    seen = []
    for _ in range(LEVELS - 1):
        key(pygame.K_DOWN)
        app.frame()
        assert in_view(scene)
        seen.append(scene.levels.rows[scene.levels.selected].text)
    assert seen == [f"level {n}" for n in range(2, LEVELS + 1)]  # every level once, headings skipped
    assert scene.levels.top == len(scene.levels.rows) - page  # at the end of the list, not past it
    for _ in range(LEVELS - 1):
        key(pygame.K_UP)
        app.frame()
        assert in_view(scene)
    assert scene.levels.selected == 1 and scene.levels.top == 0  # back at the first level, its topic's heading in view


def test_page_keys_move_a_page_and_home_end_go_to_the_ends(menu):
    app, scene = menu
    page = scene.levels.page
    key(pygame.K_PAGEDOWN)
    app.frame()
    assert in_view(scene) and page - 1 <= scene.levels.selected <= page + 1  # a page on (a heading there: the next level)
    key(pygame.K_END)
    app.frame()
    assert scene.levels.rows[scene.levels.selected].text == f"level {LEVELS}" and in_view(scene)
    key(pygame.K_PAGEUP)
    app.frame()
    assert in_view(scene) and len(scene.levels.rows) - 1 - page - 1 <= scene.levels.selected <= len(scene.levels.rows) - 1 - page + 1
    key(pygame.K_HOME)
    app.frame()
    assert scene.levels.selected == 1 and scene.levels.top == 0


def test_the_wheel_scrolls_and_pulls_the_cursor_along(menu):
    app, scene = menu
    wheel(-2)  # two notches down: six rows
    app.frame()
    assert scene.levels.top == 6 and in_view(scene) and scene.levels.rows[scene.levels.selected].text == "level 6"  # the first row in view
    wheel(-100)
    app.frame()
    assert scene.levels.top == len(scene.levels.rows) - scene.levels.page and in_view(scene)
    wheel(100)
    app.frame()
    assert scene.levels.top == 0 and in_view(scene)


def test_a_scrollbar_and_the_rows_in_view_say_where_you_are(menu):
    app, scene = menu
    page = scene.levels.page
    first = scene.levels.where()
    # Rows 0..page-1 are in view: the headings at 0, 11, 22 ... are not counted.
    levels_in_view = sum(1 for k in range(page) if scene.levels.rows[k].choosable)
    assert first == f"levels 1–{levels_in_view} of {LEVELS}"
    track, thumb = scene.levels.scrollbar()
    image = pygame.surfarray.array3d(app.screen)
    assert np.all(image[thumb.centerx, thumb.top + 2 : thumb.bottom - 2] == MUTED)  # the thumb is drawn
    assert thumb.top == track.top and thumb.height == pytest.approx(track.height * page / len(scene.levels.rows), abs=1)
    key(pygame.K_END)
    app.frame()
    track, thumb = scene.levels.scrollbar()
    assert thumb.bottom == track.bottom and scene.levels.where().endswith(f"–{LEVELS} of {LEVELS}")


def click(pos: tuple[int, int], kind: int = pygame.MOUSEBUTTONDOWN) -> None:
    pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))


def test_the_scrollbar_pages_on_a_click_and_its_thumb_drags(menu):
    app, scene = menu
    page = scene.levels.page
    track, thumb = scene.levels.scrollbar()
    click((track.centerx, track.bottom - 2))  # below the thumb: a page down
    click((track.centerx, track.bottom - 2), pygame.MOUSEBUTTONUP)
    app.frame()
    assert scene.levels.top == page and in_view(scene) and app.scene is scene  # nothing opened
    track, thumb = scene.levels.scrollbar()
    click((thumb.centerx, thumb.centery))  # take the thumb and pull it to the bottom
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(thumb.centerx, track.bottom + 50), rel=(0, 300), buttons=(1, 0, 0)))
    click((thumb.centerx, track.bottom + 50), pygame.MOUSEBUTTONUP)
    app.frame()
    assert scene.levels.top == len(scene.levels.rows) - page and in_view(scene) and scene.levels.dragging is None


def test_a_short_list_has_no_scrollbar(tmp_path):
    with App(fixed_frame=FRAME) as app:
        scene = MenuScene(app, fake_rows()[:8], Progress.load(tmp_path))
        app.push(scene)
        app.frame()
        assert scene.levels.scrollbar() is None and scene.levels.where() == ""


def test_the_mouse_chooses_only_once_it_moves_over_the_menu(menu):
    app, scene = menu
    places = scene.levels.places()
    scene.resumed()  # back from a level; the click that left it may have queued motion
    motion(places[5].center)
    app.frame()
    assert scene.levels.selected == 1, "motion queued before the menu was shown again does not move the cursor"
    motion(places[5].center)
    app.frame()
    assert scene.levels.selected == 5  # a move made over the menu chooses the row under the pointer
    below = places[scene.levels.page + 2].center  # a row out of view, below the list
    motion(below)
    app.frame()
    assert scene.levels.selected == 5


def test_coming_back_from_a_level_keeps_the_cursor_and_the_next_start_finds_it(tmp_path):
    """The bug: a level left unchanged wrote nothing, so the next start chose the first
    row. Now the level opened last is kept on the way back."""
    progress = Progress.load(tmp_path)
    with App(fixed_frame=FRAME) as app:
        scene = MenuScene(app, level_rows(), progress)
        app.push(scene)
        app.frame()
        key(pygame.K_END)  # the last row: an empty sandbox; the last level is above it
        app.frame()
        target = max(k for k, r in enumerate(scene.levels.rows) if r.choosable and not r.sandbox and r.level_id)
        scene.levels.selected = target
        key(pygame.K_RETURN)
        app.frame()
        assert isinstance(app.scene, PlayScene)
        key(pygame.K_ESCAPE)
        app.frame()
        key(pygame.K_ESCAPE)
        app.frame()
        assert app.scene is scene and scene.levels.selected == target and target in scene.levels.shown()
        chosen = scene.levels.rows[target].level_id
    assert Progress.load(tmp_path).last_level == chosen
    with App(fixed_frame=FRAME) as app:
        again = MenuScene(app, level_rows(), Progress.load(tmp_path))
        app.push(again)
        app.frame()
        assert again.levels.rows[again.levels.selected].level_id == chosen and again.levels.selected in again.levels.shown()


def test_after_moving_on_with_n_the_menu_chooses_the_level_left(tmp_path):
    progress = Progress.load(tmp_path)
    progress.set_student("s1")  # the first level draws numbers of the student's own: without an id, Enter asks for one
    with App(fixed_frame=FRAME) as app:
        scene = MenuScene(app, progress=progress)
        app.push(scene)
        app.frame()
        key(pygame.K_RETURN)
        app.frame()
        assert isinstance(app.scene, PlayScene)
        progress.opened("balance-03")  # what N does after a pass (next_stage in game/app/session/play.py)
        app.pop()
        app.frame()
        assert scene.levels.rows[scene.levels.selected].level_id == "balance-03"


def test_the_header_and_the_list_say_what_they_count(tmp_path):
    """The shipped course has demos and sandboxes beside its graded levels: the list
    counts every row that opens ("levels 1–18 of 67"), the header only those that can be
    won, and says so ("0 of 61 graded levels won"), so the two numbers do not seem to
    count one set."""
    from equilibria.app.scenes.menuparts import topic_counts

    app = App(fixed_frame=FRAME)
    scene = MenuScene(app, level_rows(), Progress.load(tmp_path))
    app.push(scene)
    app.frame()
    choosable = sum(r.choosable for r in scene.levels.rows)
    graded = sum(r.choosable and r.winnable for r in scene.levels.rows)
    assert 0 < graded < choosable  # the case the header and the list disagreed on
    header = scene.header.text(topic_counts(scene.levels.rows, scene.progress))
    assert header.endswith(f"(0 of {graded} graded levels won)")
    assert scene.levels.where().endswith(f" of {choosable}")
    assert scene.levels.where().startswith("levels 1–")
    app.close()


def test_the_wheel_scrolls_the_list_wherever_the_pointer_is_and_behind_the_box_that_says_a_level_cannot_be_opened(tmp_path):
    """The list owns its scrolling: the wheel over the header or the foot scrolls it as over
    the rows; the box that says a level cannot be opened closes at the next key or click
    and lets the wheel through to the list behind it (the menu runs on); the student id's
    box takes every event."""
    bad = tmp_path / "broken.json"
    bad.write_text("{ not JSON")
    app = App(fixed_frame=FRAME)
    scene = MenuScene(app, [*fake_rows(), Row("broken", bad)], Progress.load(tmp_path))
    app.push(scene)
    app.frame()
    with app:
        for at in (scene.header.rect.center, scene.parts.by_name("keys").rect.center, scene.levels.box.center):
            motion(at)
            wheel(-1)
            app.frame()
        assert scene.levels.top == 9  # three notches of three rows
        key(pygame.K_END)
        key(pygame.K_RETURN)
        app.frame()
        assert scene.cannot_open.shown and scene.parts.top_modal() is scene.cannot_open
        wheel(100)
        app.frame()
        assert scene.levels.top == 0 and scene.cannot_open.shown  # scrolled behind the box (the cursor along), which stays
        chosen = scene.levels.selected
        key(pygame.K_DOWN)
        app.frame()
        assert not scene.cannot_open.shown and scene.levels.selected == chosen  # the key only closed it
        key(pygame.K_i)
        app.frame()
        wheel(-2)
        app.frame()
        assert scene.student.shown and scene.levels.top == 0  # the student id's box keeps the wheel
