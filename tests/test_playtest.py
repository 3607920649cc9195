"""Defects found by playing with the mouse in a real window (where features meet), each
with the test that fails without its fix: the pin of an inclined roller's hidden link
drawn beside the roller after a pass; the tool tip peeking out from under an open box;
a large truss's count wider than the side column; G opening an empty graph; a cut cable
called a bar in the feedback; T leaving the failed run's line; a click on the folded
verdict falling through to the world; the brief's title lines repeating a sentence; the
level select calling a level given up "in progress"."""

from __future__ import annotations

import json
import re

import pygame
from test_layout import SIZES, assert_holds, level, problems, recorded
from test_play_session import click, key, post, start

from equilibria.app.draw import primitives as draw
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.overlay import PAD, _sentences, title_lines
from equilibria.app.window.app import App
from equilibria.app.window.layout import LEGEND_WIDTH
from equilibria.course.level import load_level
from equilibria.course.progress import Progress
from equilibria.course.syllabus import load_course, reference_solution, shipped_level
from equilibria.engine.determinacy import TrussCount
from equilibria.rules.answer import unknowns


def node_at(scene, node: str) -> tuple[int, int]:
    model = scene.session.model
    x, y = scene.view.point(*model.arrays.pos0[model.node_index(node), :2])
    return round(x), round(y)


def test_an_inclined_rollers_link_is_drawn_as_no_pin_after_a_pass(tmp_path):
    """reactions-02 passed: the check puts the roller at B back as a short link to a
    pinned anchor (game/rules/free_body.py `held`); only A's pin is drawn as a support,
    not a second pin beside B (and the legend does not list one for it)."""
    app, scene = level("reactions-02", tmp_path, solved=True)
    with app:
        key(app, pygame.K_c)
        app.frame()
        app.frame()
        assert scene.session.passed
        drawn = [node for node, _ in scene.session.supports()]
        work = {n["id"] for n in scene.session.data()["nodes"]}
        assert set(drawn) <= work, f"supports drawn on nodes the work does not have: {sorted(set(drawn) - work)}"


def test_the_tool_tip_is_not_drawn_under_an_open_box(tmp_path):
    """Paused, the force tool: the pointer on node A shows its tip; clicking A opens the
    force box, and the tip (drawn before the box, under it) is no longer shown."""
    app, scene = level("reactions-02", tmp_path)
    with app:
        at = node_at(scene, "A")
        post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
        app.frame()
        assert "tip" in [s.name for s in scene.parts.shown()], "the tip shows over a node while paused"
        scene.type_force("A")
        app.frame()
        names = [s.name for s in scene.parts.shown()]
        assert "entry" in names and "tip" not in names


def test_a_large_truss_count_fits_the_side_column(tmp_path):
    """The sandbox with a lattice of 2,019 members: `m + r = 2019 + 13 = 2032 > 2j = 1100`
    is wider than the side column; it is wrapped, never drawn past the column's edge."""
    app, scene = level("tutorial-04", tmp_path)
    with app:
        font = app.fonts.small
        scene.session.count = TrussCount(m=2019, r=13, j=550)
        scene.session.free = None
        lines = scene.parts.by_name("readout").lines()
        assert any("2019" in line for line in lines), lines  # a build level shows the count
        assert all(font.size(line)[0] <= LEGEND_WIDTH - 2 * PAD for line in lines), lines
        assert "2032 > 2j = 1100" in " ".join(" ".join(lines).split())  # all of it, only wrapped
        assert_holds(scene, "a large truss count in the readout")


def test_g_opens_a_graph_with_something_on_it(tmp_path):
    """G alone (nothing inspected): the energies are graphed at once, not an empty panel
    that says "no samples yet"; G again shuts it."""
    app, scene = level("balance-03", tmp_path)
    with app:
        key(app, pygame.K_g)
        assert scene.graphs.shown
        assert "energy.kinetic" in scene.graphs.recorder.specs
        key(app, pygame.K_g)
        assert not scene.graphs.shown


def test_a_cut_cable_is_named_a_cable_in_the_feedback():
    """particle-01 with A1's force of the wrong sense: the feedback names "cable RA",
    which is what the picture and the brief call it, not "bar RA"."""
    level = load_level(json.loads(shipped_level("particle-01").read_text(encoding="utf-8")))
    words = [u.words for u in unknowns(level)]
    assert any("cable RA" in w for w in words) and not any("bar RA" in w for w in words), words


def typed(app, scene, node: str, text: str) -> None:
    scene.type_force(node)
    for ch in text:
        app.frame()
        scene.entry_box.entry.line.insert(ch)
    key(app, pygame.K_RETURN)


def test_try_again_clears_the_line_that_the_failed_run_was_stopped(tmp_path):
    """particle-01, A1's force of the wrong sense: the failed run flies off and stops with
    "The run is stopped here: it has gone…"; after T the ring is back where it was built,
    and that line no longer stands under it."""
    app, scene = level("particle-01", tmp_path)
    with app:
        weight = -sum(ld.get("fy", 0.0) for ld in scene.session.data()["loads"]) / 1e3  # [kN] the level's own numbers
        ta, tb = 0.6 * weight, 0.8 * weight  # the ring: ΣFx = −0.8 TA + 0.6 TB = 0, ΣFy = 0.6 TA + 0.8 TB = W
        typed(app, scene, "A1", f"{0.8 * ta:.4f}, {-0.6 * ta:.4f}")  # the sense reversed
        typed(app, scene, "B1", f"{0.6 * tb:.4f}, {0.8 * tb:.4f}")
        key(app, pygame.K_c)
        for _ in range(900):
            app.frame()
            if "stopped here" in scene.session.notice:
                break
        assert scene.session.verdict is not None and not scene.session.passed
        assert "stopped here" in scene.session.notice
        key(app, pygame.K_t)
        assert scene.session.verdict is None
        assert "stopped here" not in scene.session.notice


def test_a_click_on_the_folded_verdict_opens_it_again(tmp_path):
    """A failed check folded by Esc to its strip ("Not yet · T: try again"): a click on
    the strip opens the verdict again, and is not taken as a click in the world under it
    ("No node under the click…")."""
    app, scene = level("balance-01", tmp_path)
    with app:
        key(app, pygame.K_c)
        app.frame()
        app.frame()
        assert scene.session.verdict is not None and not scene.session.passed
        key(app, pygame.K_ESCAPE)
        assert scene.verdict_box.folded
        strip = scene.parts.by_name("verdict").rect
        scene.session.notice = ""
        click(app, strip.center)
        assert not scene.verdict_box.folded
        assert "No node under the click" not in scene.session.notice


def test_the_briefs_lines_never_repeat_a_sentence():
    """The brief in the title's three lines, at every window width: its head, "…" and its
    last sentences, never the same sentence twice (bridge-01 at 1920 px showed "Two loads
    of 10 kN … stand on the deck at B and C" on its first line and again on its second)."""
    with App(fixed_frame=FRAME) as app:
        for level_id in [lv for lv in load_course().level_ids() if not lv.startswith("demo")]:
            brief = load_stage(shipped_level(level_id)).brief
            if not brief:
                continue
            for width in (800, 1024, 1280, 1366, 1600, 1920, 2560):
                text = " ".join(" ".join(title_lines(app.fonts, brief, width)).split())
                for sentence in _sentences(brief.split("\n")[0]):
                    words = " ".join(sentence.split())
                    assert len(words) < 25 or text.count(words) <= 1, f"{level_id} at {width} px repeats: {words}"


def test_the_menu_says_the_answer_was_shown_not_in_progress(tmp_path, monkeypatch):
    """balance-02 given up with Ctrl+A twice (its work kept, the answer's moves): the
    level select said "in progress", as if it were work under way; it says the answer
    was shown, for 0 marks."""
    progress = Progress.load(tmp_path)
    progress.save_work("balance-02", json.loads(reference_solution("balance-02").read_text(encoding="utf-8")))
    progress.record_check("balance-02", False, None, 1, shown=True)
    said: list[str] = []
    label = draw.label

    def noted(surface, font, text, *args, **kwargs):
        said.append(text)
        return label(surface, font, text, *args, **kwargs)

    monkeypatch.setattr(draw, "label", noted)
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, progress=progress)
        pygame.display.set_mode((1280, 800))
        menu.draw(app.screen)
    assert "answer shown: 0 marks" in said and "in progress" not in said, said


def test_an_answer_shown_is_never_handed_in(capsys):
    """balance-02 given up with Ctrl+A twice: its work in hand is then the reference
    answer, and Ctrl+E once stamped it with the student's id and `grade` passed it. Now
    Ctrl+E and `equilibria export` hand in the record alone (answer shown, no moves),
    so the grade book learns it was shown (marks 0) and never gets the answer."""
    from equilibria.app.scenes.play import PlayScene
    from equilibria.classroom.handin import FOLDER
    from equilibria.cli.main import main
    from equilibria.course.progress import data_folder

    progress = Progress.load()
    progress.set_student("s1234567")
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, load_stage(shipped_level("balance-02")), progress=progress)
    app.push(scene)
    with app:
        app.frame()
        key(app, pygame.K_a, pygame.KMOD_CTRL)
        key(app, pygame.K_a, pygame.KMOD_CTRL)
        app.frame()
        assert progress.shown("balance-02")
        key(app, pygame.K_e, pygame.KMOD_CTRL)
        assert scene.session.notice.startswith("Your record on balance-02 is in ") and "without your work" in scene.session.notice
    handed = json.loads((data_folder() / FOLDER / "balance-02.json").read_text())
    assert handed["moves"] == [] and handed["record"]["shown"] is True and handed["student"] == "s1234567"
    assert main(["export", "balance-02", "-o", str(data_folder() / "b02.json")]) == 0
    assert "show-the-answer" in capsys.readouterr().out
    assert json.loads((data_folder() / "b02.json").read_text())["moves"] == []


def test_export_refuses_work_done_with_another_students_numbers(tmp_path, capsys):
    """reactions-02 worked as student s1234567 (their numbers kept in the work), then the
    id changed to s7654321: `export` stamped the new id on it and `grade` failed it as
    "another version of the level". It now refuses, says why, and writes nothing."""
    from equilibria.cli.main import main

    progress = Progress.load()
    progress.set_student("s1234567")
    app, scene = start(load_stage(shipped_level("reactions-02")), progress=progress)
    with app:
        typed(app, scene, "A", "1, 1")
        app.frame()
        scene.session.save(force=True)
    assert main(["export", "reactions-02", "-o", str(tmp_path / "mine.json")]) == 0
    capsys.readouterr()
    progress = Progress.load()
    progress.set_student("s7654321")
    progress.save()
    assert main(["export", "reactions-02", "-o", str(tmp_path / "theirs.json")]) == 1
    assert "other numbers than student s7654321" in capsys.readouterr().err
    assert not (tmp_path / "theirs.json").exists()


def test_work_done_with_other_numbers_says_so_when_the_level_opens():
    """reactions-02 worked as s1234567, the id then changed to s7654321: the level opens
    with the new numbers and the old forces on them without a word (and a check of them
    fails as if wrong). A line now says the work was done with other numbers."""
    progress = Progress.load()
    progress.set_student("s1234567")
    app, scene = start(load_stage(shipped_level("reactions-02")), progress=progress)
    with app:
        typed(app, scene, "A", "1, 1")
        scene.session.save(force=True)
    app, scene = start(load_stage(shipped_level("reactions-02")), progress=Progress.load())
    with app:  # the same student: the work is theirs, nothing said
        assert scene.session.level_bench.attempt.moves and "other numbers" not in scene.session.notice
    progress = Progress.load()
    progress.set_student("s7654321")
    app, scene = start(load_stage(shipped_level("reactions-02")), progress=progress)
    with app:
        assert scene.session.level_bench.attempt.moves, "the work is kept"
        assert "other numbers" in scene.session.notice


def test_the_joints_a_student_built_stay_labelled_after_the_check(tmp_path):
    """bridge-01 built and passed: the verdict and the member table name the members by
    the student's own joints ("FG", "EB"), but those joints were labelled only while a
    mechanism's message named them, and not after the check. They are labelled now."""
    app, scene = level("bridge-01", tmp_path, solved=True)
    with app:
        built = {m.id for m in scene.session.level_bench.attempt.moves if m.type == "add_node"}
        assert built, "the reference builds joints of its own"
        key(app, pygame.K_c)
        app.frame()
        app.frame()
        assert scene.session.passed
        assert built <= set(scene.picture.names())


def test_the_sums_after_a_pass_read_no_round_off_noise(tmp_path):
    """free-body-02 answered exactly and passed: the readout's sums, from the judged run
    at rest, read "ΣFx = +0.00000533 kN" — figures far under anything a reading means.
    Values under 0.01 % of the forces at play (200 times under the judge's 2 %) read 0."""
    app, scene = level("free-body-02", tmp_path, solved=True)
    with app:
        key(app, pygame.K_c)
        app.frame()
        app.frame()
        assert scene.session.passed
        app.run(frames=360)
        sums = [line for line in scene.parts.by_name("readout").lines() if "Σ" in line]
        assert len(sums) == 3
        assert not any(re.search(r"0\.000\d", line) for line in sums), sums


def test_ctrl_z_after_a_check_says_to_try_again_first(tmp_path):
    """balance-01 checked and failed: Ctrl+Z did nothing and said nothing (an edit, or
    Ctrl+R, says "Press T to try again before you change anything"). It says so too,
    and takes nothing back."""
    app, scene = level("balance-01", tmp_path)
    with app:
        typed(app, scene, "B", "0, -14")
        typed(app, scene, "C", "0, 14")
        key(app, pygame.K_c)
        app.frame()
        app.frame()
        s = scene.session
        assert s.verdict is not None and not s.passed
        for k in (pygame.K_z, pygame.K_y):
            s.notice = ""
            key(app, k, pygame.KMOD_CTRL)
            assert s.notice.startswith("Press T to try again") and len(s.level_bench.attempt.moves) == 2


def test_a_long_student_id_stays_on_the_menus_screen():
    """A student id of 64 characters (the longest the progress keeps): the menu's line
    "Student id: … (I: change it)" ran off both sides of an 800×600 window; the id is cut
    with "…" to fit."""
    progress = Progress.load()
    progress.set_student("W" * 64)
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, progress=progress)
        for size in SIZES:
            pygame.display.set_mode(size)
            found = problems(menu, recorded(menu, size))
            assert not found, f"the menu at {size}: {found[:3]}"
