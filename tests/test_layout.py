"""Every scene holds together at every window size from the minimum up: the menu, the
loading screen, and the play screen for every kind of level (a free-body level, a build
level, a zero-force level, the sandbox, a demo) with each of its boxes open (the help,
the brief, the verdict after a failed and after a passed check, the member table, the
graph, the force being typed).

The parts are caught as they draw: the scene is drawn on a `Recording` surface
(game/app/window/sections.py), which notes for each section the rectangle every blit (all
text is blitted) was meant to fill and what of it shows. A screen holds together when
- the docked parts (title, toolbar, world, legend, readout, status) lie inside the
  window and no two of them overlap;
- the parts over the world (badges, HUD, graph, verdict) lie inside the world and no two
  of them overlap (the tool tip follows the mouse and is left out; the open modal box
  lies over the rest by design and is drawn alone on top);
- every text a part draws lies inside that part's rectangle and shows whole: nothing
  is cut by a clip area (text entirely outside the world, off-screen labels of a
  structure panned away, is not drawn at all and is not counted).

Every test runs in English and in each language of the game (German, Spanish, French), whose
words are longer (issue 25 point 5, issue 33 point 6).
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pygame
import pytest
from test_play_session import key, start

from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.loading import LoadingScene
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.window.app import App
from equilibria.app.window.layout import MIN_SIZE
from equilibria.app.window.sections import Recording
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.words.i18n import set_language


@pytest.fixture(autouse=True, params=["en", "de", "es", "fr"])
def language(request):
    """Each test in English, then in German, Spanish and French (conftest.py brings English back after it)."""
    set_language(request.param)
    return request.param


SIZES = [(800, 600), (900, 600), (1024, 600), (1280, 800), (1366, 768), (1920, 1080), (2560, 1440)]
# The scales of text and lines (Ctrl+=, Ctrl+−) each size is drawn at: the smallest and the
# largest at the extreme sizes, 100 % and 150 % at the others (a window too small for a
# scale draws at the largest it holds: game/app/window/scale.py `held`).
SCALES = {(800, 600): (75, 100), (2560, 1440): (75, 100, 150, 200)}
MIDDLE_SCALES = (100, 150)


def sizes_and_scales():
    """(size, scale [%]) for every size, at its scales."""
    return [(size, percent) for size in SIZES for percent in SCALES.get(size, MIDDLE_SCALES)]


def recorded(scene, size: tuple[int, int]) -> Recording:
    surface = Recording(size)
    scene.draw(surface)
    return surface


def problems(scene, surface: Recording) -> list[str]:
    """What is wrong with the screen drawn on `surface`: parts that overlap or leave
    their place, text outside its part or cut."""
    out: list[str] = []
    screen = surface.get_rect()
    shown = scene.parts.shown() if hasattr(scene, "parts") else []
    docked = [s for s in shown if not s.floating]
    floats = [s for s in shown if s.floating and not s.modal and s.name != "tip"]
    world = next((s.rect for s in docked if s.name == "world"), screen)
    for s in docked:
        if not screen.contains(s.rect):
            out.append(f"{s.name} {s.rect} leaves the window {screen.size}")
    for s in floats:
        if not world.contains(s.rect):
            out.append(f"{s.name} {s.rect} leaves the world {world}")
    for group in (docked, floats):
        for a, b in itertools.combinations(group, 2):
            if a.rect.colliderect(b.rect):
                out.append(f"{a.name} {a.rect} overlaps {b.name} {b.rect}")
    by_section: dict[str, list[pygame.Rect]] = {}
    for section, meant, seen in surface.blits:
        if meant.width == 0 or meant.height == 0:
            continue
        if section is not None and section.name == "world" and seen.width * seen.height == 0:
            continue  # a label of the structure off the world: not drawn
        area = section.rect if section is not None else screen
        name = section.name if section is not None else "the screen"
        if section is not None and section.name == "tip":
            area = world
        if not area.contains(meant):
            out.append(f"text at {meant} leaves {name} {area}")
        elif seen.size != meant.size:
            out.append(f"text at {meant} of {name} is cut to {seen}")
        if section is not None and section.name not in ("world", "hud", "tip"):  # the world's labels: tests/test_labels_apart.py
            by_section.setdefault(name, []).append(meant)
    for name, rects in by_section.items():  # within a part, no text over another
        out += [f"texts at {a} and {b} of {name} overlap" for a, b in itertools.combinations(rects, 2) if a.colliderect(b)]
    return out


def assert_holds(scene, what: str) -> None:
    app = scene.app
    try:
        for size, percent in sizes_and_scales():
            app.scale = percent  # the scene holds it for the size as it lays itself out
            found = problems(scene, recorded(scene, size))
            assert not found, f"{what} at {size[0]}×{size[1]}, {app.fonts.scale:.0%}: " + "; ".join(found[:6])
    finally:
        app.scale = 100


def with_boxes(app, scene, what: str) -> None:
    """The screen as it is, then with the brief, the help and the graph open in turn."""
    assert_holds(scene, what)
    for box, name in ((scene.brief, "the brief"), (scene.help, "the help")):
        box.open()
        assert_holds(scene, f"{what}, {name} open")
        assert scene.parts.top_modal() is box
        box.close()
    key(app, pygame.K_g)
    scene.follow()  # the energies
    scene.hud.open()
    app.frame()
    assert_holds(scene, f"{what}, the graph and the HUD shown")
    scene.graphs.shown = False
    scene.hud.close()


def level(level_id: str, tmp_path, *, solved: bool = False):
    stage = load_stage(shipped_level(level_id))
    bench = bench_of_solution(stage, str(reference_solution(level_id))) if solved else None
    return start(stage, progress=Progress.load(tmp_path), bench=bench)


def checked(app, scene, passed: bool) -> None:
    key(app, pygame.K_c)
    app.frame()
    app.frame()
    assert scene.session.verdict is not None and scene.session.verdict.passed == passed


@pytest.mark.parametrize("level_id", ["beam-01", "bridge-01", "zero-force-01"])
def test_a_level_holds_together_with_every_box_at_every_size(level_id, tmp_path):
    app, scene = level(level_id, tmp_path)
    with app:
        with_boxes(app, scene, f"{level_id} as it opens")
        checked(app, scene, passed=False)
        assert_holds(scene, f"{level_id} after a failed check")
        scene.verdict_box.fold()
        assert_holds(scene, f"{level_id}, the failed verdict folded")
    app, scene = level(level_id, tmp_path, solved=True)
    with app:
        checked(app, scene, passed=True)
        with_boxes(app, scene, f"{level_id} after a pass")
        if scene.session.verdict.figures.get("members"):
            key(app, pygame.K_u)
            assert scene.parts.top_modal().name == "table"
            assert_holds(scene, f"{level_id}, the member table open")


def test_the_force_entry_holds_together(tmp_path):
    app, scene = level("free-body-01", tmp_path)
    with app:
        node = scene.session.model.node_ids[0]
        scene.type_force(node)
        assert_holds(scene, "free-body-01, a force about to be typed (the prompt shown)")
        for ch in "12, -3":
            app.frame()
            scene.entry_box.entry.line.insert(ch)
        assert scene.parts.top_modal().name == "entry"
        assert_holds(scene, "free-body-01, a force being typed")


def test_the_sandbox_and_a_demo_hold_together(tmp_path):
    app, scene = start(Stage.empty_sandbox(), progress=Progress.load(tmp_path))
    with app:
        with_boxes(app, scene, "the empty sandbox")
        scene.leaving.open()
        assert_holds(scene, "the sandbox, asking before leaving")
    app, scene = level("demo-portal-braced", tmp_path)
    with app:
        key(app, pygame.K_SPACE)
        app.run(frames=5)
        with_boxes(app, scene, "the braced portal demo, running")


def test_the_menu_and_the_loading_screen_hold_together(tmp_path):
    """The menu's parts are sections laid out by one layout (MenuLayout): none over another,
    every text inside its own part, at every size, with a progress problem under the list."""
    with App(fixed_frame=FRAME) as app:
        progress = Progress.load(tmp_path)
        progress.problem = "The progress file could not be written: a problem long enough to wrap on a narrow window, shown under the list."
        menu = MenuScene(app, progress=progress)
        menu.arrange((800, 600))
        assert [s.name for s in menu.parts.shown()] == ["header", "levels", "problem", "student", "language", "keys"]
        warming = SimpleNamespace(progress=lambda steps: (0.4, "the beam kernels"), seconds=lambda: 3.0, ready=lambda: False)
        loading = LoadingScene(app, warming, lambda app: None)
        for scene, what in ((menu, "the menu"), (loading, "the loading screen")):
            for size, percent in sizes_and_scales():
                pygame.display.set_mode(size)
                app.scale = percent
                found = problems(scene, recorded(scene, size))
                assert not found, f"{what} at {size[0]}×{size[1]}, {app.fonts.scale:.0%}: " + "; ".join(found[:6])
            app.scale = 100


def test_the_window_is_never_smaller_than_the_minimum(tmp_path):
    """At 640×480 bridge-01 became a dot and the grid read "9.77e+06 m": the window now
    grows back to 800×600, the structure fills its world, and the grid's words are in
    plain digits."""
    app, scene = level("bridge-01", tmp_path)
    with app:
        share = scene.picture.drawn_rect().width / scene.layout.world.width  # of the world's width, at 1280×800
        pygame.display.set_mode((640, 480), pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=(640, 480), w=640, h=480))
        app.frame()
        assert app.screen.get_size() == MIN_SIZE
        assert scene.layout.world.right == MIN_SIZE[0] - scene.layout.legend.width
        assert scene.picture.drawn_rect().width > 0.6 * share * scene.layout.world.width  # near the share of the world it had at 1280×800, not a dot
    with App((500, 300), fixed_frame=FRAME) as small:
        assert small.screen.get_size() == MIN_SIZE


def test_the_grid_says_its_spacing_in_plain_digits(language):
    from equilibria.app.widgets.marks import _length

    said = {
        "en": ["20 cm", "1 m", "1.5 m", "500 m", "9,770,000 m"],
        "de": ["20 cm", "1 m", "1,5 m", "500 m", "9.770.000 m"],
        "es": ["20 cm", "1 m", "1,5 m", "500 m", "9.770.000 m"],
        "fr": ["20 cm", "1 m", "1,5 m", "500 m", "9\u202f770\u202f000 m"],  # CLDR's narrow no-break space between the thousands
    }
    assert [_length(x) for x in (0.2, 1.0, 1.5, 500.0, 9.77e6)] == said[language]


def test_size_opens_the_window_at_that_size_and_never_under_the_minimum(tmp_path):
    from equilibria.app import launch
    from equilibria.cli.main import build_parser

    assert build_parser().parse_args(["play", "bridge-01", "--size", "1024x600"]).size == (1024, 600)
    for asked, got in (((1024, 600), (1024, 600)), ((640, 480), MIN_SIZE)):
        shot = tmp_path / f"{asked[0]}.png"
        assert launch.play(str(shipped_level("bridge-01")), frames=1, screenshot=str(shot), size=asked) == 0
        assert pygame.image.load(str(shot)).get_size() == got
