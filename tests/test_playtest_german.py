"""What the German play-test of sections-02, hinge-01 and machines-03 found, held:
the truss count's verdict reads in the player's language, every level kind has a name in
the title line, a long verdict at 800 x 600 leaves the structure in view above it, and
a level's name too long for the level select is cut with "…" rather than clipped."""

from __future__ import annotations

import pygame
import pytest
from test_play_session import key, start

from equilibria.app.draw import primitives as draw
from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.scenes.parts import kind_name
from equilibria.app.session.camera import box_room
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.panels import count_lines
from equilibria.app.window.app import App
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.rules.kinds import NAMES
from equilibria.words.i18n import set_language


def opened(level_id: str, tmp_path, size: tuple[int, int] = (800, 600), *, solved: bool = False):
    stage = load_stage(shipped_level(level_id))
    bench = bench_of_solution(stage, str(reference_solution(level_id))) if solved else None
    app, scene = start(stage, progress=Progress.load(tmp_path), bench=bench)
    pygame.display.set_mode(size)
    app.frame()
    return app, scene


def test_the_truss_count_says_determinate_in_german(tmp_path):
    set_language("de")
    _app, scene = opened("sections-02", tmp_path)
    lines = count_lines(scene.session)
    assert lines and lines[-1].strip() == "statisch bestimmt", lines  # m + r = 15 + 3 = 18 = 2j
    assert not any("determinate" in line for line in lines)


def test_every_level_kind_is_named_in_the_title_line():
    set_language("de")
    assert kind_name("section") == "Ritterschnitt"
    assert all(kind_name(name) != name for name in NAMES)  # each in German (tests/test_kinds.py: in every language)


@pytest.mark.parametrize("lang", ["de", "es", "fr", "en"])
def test_a_long_verdict_at_800_x_600_leaves_the_structure_in_view(lang, tmp_path):
    """The passed verdict of sections-02 is a dozen lines in German: the box scrolls
    rather than cover the world, and the camera keeps the truss above it."""
    set_language(lang)
    app, scene = opened("sections-02", tmp_path, solved=True)
    key(app, pygame.K_c)
    for _ in range(10):  # "Checking…" drawn, then judged
        if scene.session.verdict is not None:
            break
        app.frame()
    assert scene.session.verdict is not None and scene.session.verdict.passed
    scene.arrange((800, 600))
    world, box = scene.layout.world, scene.parts.by_name("verdict").rect
    assert box.height <= box_room(world.height)
    assert box.top >= world.top + world.height // 3  # the camera's third above it (camera.py clear_of)
    xmin, ymin, xmax, ymax = scene.picture.box()
    view = scene.picture.camera.view
    for x, y in ((xmin, ymin), (xmax, ymax), (xmin, ymax), (xmax, ymin)):
        sx, sy = view.point(x, y)
        assert world.left <= sx <= world.right and world.top <= sy < box.top, (sx, sy, box)


def test_a_long_level_name_in_the_level_select_is_cut_with_an_ellipsis(tmp_path, monkeypatch):
    set_language("de")
    drawn: list[tuple[str, pygame.Rect]] = []
    label = draw.label

    def noted(surface, font, text, at, colour, anchor, background):
        rect = label(surface, font, text, at, colour, anchor, background)
        drawn.append((text, rect))
        return rect

    monkeypatch.setattr(draw, "label", noted)
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, progress=Progress.load(tmp_path))
        surface = pygame.display.set_mode((800, 600))
        menu.levels.selected = next(k for k, row in enumerate(menu.levels.rows) if row.level_id == "demo-portal-unbraced")
        menu.levels.top = max(0, menu.levels.selected - 3)
        menu.draw(surface)
    row = [(text, rect) for text, rect in drawn if text.startswith("demo-portal-unbraced")]
    assert row, "the demo's row is drawn as a label"
    text, rect = row[0]
    assert text.endswith("…") and rect.right <= 800, (text, rect)


def test_a_members_element_is_named_in_german():
    """The tool tip's "Stab AB (beam-column)" read English in German: the element's
    name had no text in any catalog."""
    from equilibria.app.session.terms import element_name
    from equilibria.engine.results import ELEMENTS

    set_language("de")
    german = {str(e): element_name(e) for e in ELEMENTS}  # every kind's element (engine/vocabulary.py MEMBER_WORDS)
    assert {e: german[e] for e in ("bar", "cable", "beam-column")} == {"bar": "Fachwerkstab", "cable": "Seil", "beam-column": "Biegebalken"}
    assert all(said != english for english, said in german.items()), german


def test_money_reads_as_the_german_briefs_write_it():
    """bridge-01's German brief says "Dein Budget ist 2.500 $" while the verdict and the
    member table said "$2.500": one way on one screen, the brief's."""
    from equilibria.words.figures import money

    assert money(2500) == "$2,500"
    set_language("de")
    assert money(2500) == "2.500\u00a0$"  # a no-break space: the amount and its symbol stay on one line
    set_language("es")
    assert money(2500) == "2.500\u00a0$"  # CLDR's Spanish: the symbol after, as in German
    set_language("fr")
    assert money(2500) == "2\u202f500\u00a0$"  # French groups with a narrow no-break space


def test_the_member_tables_use_ratio_reads_a_german_per_cent():
    """The member table said "51%" under a verdict that says "51 %"."""
    from equilibria.app.widgets.membertable import row_words

    row = {"member": "FD", "force": -14700.0, "tension_capacity": 113e3, "compression_capacity": 28.6e3, "compression_by": "buckling", "use": 0.514}
    assert row_words(row)[4] == "51%"
    set_language("de")
    assert row_words(row)[4] == "51 %"
    for code in ("es", "fr"):  # as CLDR writes them: a no-break space before the sign
        set_language(code)
        assert row_words(row)[4] == "51\u00a0%", code


def test_a_sections_kind_and_material_are_named_in_german(tmp_path):
    """sections-02's tool tip said "steel, A = 20 cm²" and the sandbox's notice "(bar,
    steel, …)" in German; a material the game has no word for stays as the level wrote it."""
    from equilibria.app.session.play import new_members_said
    from equilibria.app.widgets.panels import section_words
    from equilibria.work.workbench import SANDBOX_SECTIONS

    set_language("de")
    assert section_words({"material": "steel", "A": 20e-4}) == "Stahl, A = 20 cm²"
    assert section_words({"material": "strand", "A": 1e-4}).startswith("strand, ")
    said = new_members_said("timber beam", SANDBOX_SECTIONS["timber beam"])
    assert "(Biegebalken, Holz, A = 180 cm²)" in said, said  # a section of kind beam builds a beam-column (engine/results.py element_word)
