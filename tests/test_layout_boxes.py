"""The play screen's parts as sections, played with posted events: an open box takes the
keys and clicks first, long boxes scroll and say what lies below, Esc closes the top
box first, and the known defects of the old screen stay fixed (the help cut off at
1280×800, the legend over the net-force block, a bridge's pass criteria cut from the
brief's lines)."""

from __future__ import annotations

import pygame
from test_layout import problems, recorded
from test_play_session import click, key, post, start

from equilibria.app.launch import bench_of_solution
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.widgets.keymap import help_rows
from equilibria.app.window import sections
from equilibria.app.window.sections import Recording
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level


def level(level_id: str, tmp_path, *, solved: bool = False, size: tuple[int, int] | None = None):
    stage = load_stage(shipped_level(level_id))
    bench = bench_of_solution(stage, str(reference_solution(level_id))) if solved else None
    app, scene = start(stage, progress=Progress.load(tmp_path), bench=bench)
    if size is not None:
        pygame.display.set_mode(size, pygame.RESIZABLE)
        app.frame()
    return app, scene


def texts(surface: Recording, name: str) -> list[pygame.Rect]:
    return [meant for section, meant, _ in surface.blits if section is not None and section.name == name]


def wheel(app, at: tuple[int, int], notches: int) -> None:
    post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
    post(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False, precise_x=0.0, precise_y=float(notches))
    app.frame()


def test_f1_shows_every_key_and_every_tool_at_1280_by_800(tmp_path):
    """It showed neither the Esc line nor any of the sandbox's ten tools' lines at 1280×800."""
    _whole_help(*level("bridge-01", tmp_path))
    _whole_help(*start(Stage.empty_sandbox(), progress=Progress.load(tmp_path)))


def _whole_help(app, scene) -> None:
    with app:
        key(app, pygame.K_F1)
        help_part = scene.parts.top_modal()
        assert help_part.name == "help"
        assert help_part.scroll.page == help_part.scroll.count and help_part.scroll.top == 0  # nothing below
        keys, tools = 1 + len(help_rows()), len(scene.toolbar.names)  # the manual's row first
        assert help_part.scroll.count == (keys + 1) // 2 + 1 + (tools + 1) // 2  # two columns: keys, a gap, tools
        assert not problems(scene, recorded(scene, (1280, 800)))


def test_a_long_box_scrolls_with_page_down_and_the_wheel_and_says_how_much_is_below(tmp_path, monkeypatch):
    said: list[str] = []
    label = sections.draw.label
    monkeypatch.setattr(sections.draw, "label", lambda surface, font, text, *a, **k: said.append(text) or label(surface, font, text, *a, **k))
    app, scene = level("bridge-01", tmp_path, size=(800, 600))
    with app:
        key(app, pygame.K_F1)
        scroll = scene.parts.top_modal().scroll
        assert scroll.page < scroll.count and scroll.top == 0
        assert f"▾ {scroll.count - scroll.page} more below   (wheel, Page Up/Down)" in said
        page = scroll.page
        key(app, pygame.K_PAGEDOWN)
        assert scroll.top == page - 1  # a page less the line kept for context
        key(app, pygame.K_END)
        assert scroll.top + scroll.page == scroll.count  # the last row shows, nothing blank below it
        said.clear()
        end = scroll.top
        wheel(app, scene.parts.top_modal().rect.center, 1)
        assert scroll.top == end - 3  # three rows a notch, back up
        assert any(t.startswith(f"▴ {scroll.top} more above   ▾ {scroll.count - scroll.top - scroll.page} more below") for t in said)
        key(app, pygame.K_SPACE)
        assert scene.session.paused and scene.help.is_open  # the open box takes the keys: Space does not run
        key(app, pygame.K_ESCAPE)
        assert not scene.help.is_open
        key(app, pygame.K_F1)
        assert scene.parts.top_modal().scroll.top == 0  # it opens at its head again


def test_a_click_outside_an_open_box_closes_it_and_reaches_nothing_under_it(tmp_path):
    app, scene = level("bridge-01", tmp_path)
    with app:
        scene.toolbar.choose("node")
        key(app, pygame.K_b)
        assert scene.brief.is_open
        nodes = scene.session.model.n_nodes
        click(app, (scene.layout.world.left + 20, scene.layout.world.bottom - 20))
        assert not scene.brief.is_open and scene.session.model.n_nodes == nodes  # no node placed under the box
        click(app, scene.layout.top.center)  # a click on the brief's lines opens it whole
        assert scene.brief.is_open


def test_esc_closes_the_top_box_then_the_one_under_it_then_folds_the_verdict(tmp_path):
    app, scene = level("bridge-01", tmp_path, solved=True)
    with app:
        key(app, pygame.K_c)
        app.frame()
        assert scene.session.verdict.passed
        key(app, pygame.K_u)
        key(app, pygame.K_F1)
        assert [s.name for s in scene.parts.shown()][-1] == "help"  # one modal box drawn: the top one
        assert "table" not in [s.name for s in scene.parts.shown()]
        key(app, pygame.K_ESCAPE)
        assert scene.parts.top_modal().name == "table"
        key(app, pygame.K_ESCAPE)
        assert scene.parts.top_modal() is None and not scene.verdict_box.folded
        key(app, pygame.K_ESCAPE)
        assert scene.verdict_box.folded and not scene.leaving.is_open
        key(app, pygame.K_ESCAPE)
        assert scene.leaving.is_open


def test_after_a_pass_on_beam_01_the_legend_keeps_off_the_net_force_block(tmp_path):
    """The legend ran on over the net-force readout after a pass on beam-01 at 1280×800,
    and in any build level at 900×600."""
    for level_id, size, solved in (("beam-01", (1280, 800), True), ("bridge-01", (900, 600), False), ("bridge-01", (900, 600), True)):
        app, scene = level(level_id, tmp_path, solved=solved, size=size)
        with app:
            if solved:
                key(app, pygame.K_c)
                app.frame()
            surface = recorded(scene, size)
            readout = scene.parts.by_name("readout").rect
            assert readout.height > 0 and texts(surface, "readout")
            assert all(not readout.colliderect(r) for r in texts(surface, "legend")), f"{level_id} at {size}"
            assert scene.parts.by_name("readout").lines()[0].startswith("Net force on the structure")
            assert not problems(scene, surface)


def test_the_legend_scrolls_under_the_wheel_where_it_does_not_fit(tmp_path):
    app, scene = level("bridge-01", tmp_path, size=(800, 600))
    with app:
        legend = scene.parts.by_name("legend")
        assert legend.scroll.page < legend.scroll.count  # 800×600: not all of it fits beside the readout
        wheel(app, legend.rect.center, -2)
        assert legend.scroll.top == 6
        zoom = scene.view.scale
        assert scene.view.scale == zoom  # the wheel over the legend does not zoom the world


def test_a_bridge_s_pass_criteria_are_in_the_brief_s_visible_lines(tmp_path):
    for size in ((800, 600), (1280, 800), (1920, 1080)):
        app, scene = level("bridge-01", tmp_path, size=size)
        with app:
            shown = " ".join(scene.title.lines)
            assert len(scene.title.lines) <= 3
            for words in ("$2,500", "Nothing may break", "20 mm", "come to rest"):
                assert words in shown, f"{words!r} not in the brief's lines at {size}: {scene.title.lines}"


def test_the_member_table_pages_with_page_down_the_arrows_and_the_wheel(tmp_path):
    app, scene = level("bridge-01", tmp_path, solved=True, size=(800, 600))
    with app:
        key(app, pygame.K_c)
        app.frame()
        rows = scene.session.verdict.figures["members"]
        rows += [dict(row, member=f"{row['member']}{n}") for n in range(4) for row in list(rows)]  # a longer table than the box holds
        key(app, pygame.K_u)
        table = scene.table
        assert table.shown and table.rows_shown < len(rows)
        key(app, pygame.K_PAGEDOWN)
        assert table.top == table.rows_shown
        wheel(app, scene.layout.world.center, 1)
        assert table.top == 0
        key(app, pygame.K_DOWN)
        assert table.top == table.rows_shown
        key(app, pygame.K_u)
        assert not table.shown


def test_f1_shows_every_key_at_1280_by_800_from_a_deep_install(tmp_path, monkeypatch):
    """An installed copy's manual sits deep (the sdist's CI run, a Windows venv): its folder
    in the help's first row must not wrap the keys below out of view."""
    from equilibria.files import manual

    monkeypatch.setattr(manual, "docs_folder", lambda: "/tmp/" + "a-very-long-folder-name/" * 6 + "site-packages/game/docs")
    _whole_help(*level("bridge-01", tmp_path))
