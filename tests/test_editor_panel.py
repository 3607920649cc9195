"""The level editor's panel as a teacher reads it, found in a play-test under Xvfb
(issue 34): what validate says in the words of the panel's rows (no field paths, no
1e+09), a free body that statics cannot solve refused with what to do, a translation
left over from the English text it was written for, rows shown whole in a small window
with the rest a key away, a cursor in the row being typed, a dimension measured from a
node the student sees, and checks worked out beside the frame (never a frozen editor)."""

from __future__ import annotations

import re
import threading

import pygame
import pytest
from test_level_editor import click, frame, key, node_px, row, sandbox_design, type_into

from equilibria.app.scenes import editor as editor_module
from equilibria.app.scenes.editor import CURSOR, EditorScene, edited_lines
from equilibria.app.scenes.editor_panel import in_panel_words
from equilibria.app.scenes.menuparts import HELP_LINES
from equilibria.app.session.draft_checks import DraftChecks
from equilibria.app.window.app import App
from equilibria.course import authoring as a
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import read_json
from equilibria.words.figures import kn
from equilibria.words.i18n import LANGUAGES, _, plain, speaking


@pytest.fixture
def small_app():
    with App((800, 600), fixed_frame=1 / 60) as app:
        yield app


@pytest.mark.parametrize(
    ("said", "shown"),
    [
        ("hints[0].es: {Q}: no number", "Hint 1 (Español): {Q}: no number"),
        ("title.fr: it has placeholders", "Title (Français): it has placeholders"),
        ("warning: vary: none, so every student gets the same numbers", "Note: Numbers of each student's own: none, so every student gets the same numbers"),
        ("vary.numbers.P1.max: must be at most 5", "Number P1: must be at most 5"),
        ("player.asked: at least 1 item", "Members asked: at least 1 item"),
        ("members: nothing to take out", "The structure: nothing to take out"),
        ("A sentence with no field: kept", "A sentence with no field: kept"),
    ],
)
def test_what_validate_says_is_named_as_the_panel_s_rows_name_it(said, shown):
    assert in_panel_words(said) == shown


def test_a_number_in_a_refusal_is_never_written_with_an_exponent():
    assert [plain(x) for x in (1e9, 2e-5, 0.35, 9.81, 3.0, -4.5e-7)] == ["1000000000", "0.00002", "0.35", "9.81", "3", "-0.00000045"]
    with speaking("de"):
        assert plain(1.5e9) == "1500000000" and plain(0.25) == "0,25"


def test_a_given_load_is_labelled_as_its_brief_states_it():
    assert kn(14050, 4) == "14.05 kN" and kn(14050) == "14.1 kN"  # a load: four figures; a result: three
    assert kn(10000, 4) == "10 kN" and kn(2500.5, 4) == "2.501 kN"


def two_pins() -> dict:
    design = sandbox_design()
    design["supports"][1]["fix"] = ["x", "y"]  # C pinned too: the bottom chord ties A to C
    return design


def test_a_free_body_statics_cannot_solve_is_refused_with_what_to_do_unless_the_explanation_says_what_passes(app, home):
    scene = EditorScene(app, two_pins())
    app.push(scene)
    said = scene.findings().said
    assert said == [
        "The cuts: statics alone does not give their forces (more unknowns than equations of equilibrium), so any balanced set would pass:"
        " make one of the supports a roller in the sandbox, or say in the explanation what passes"
    ]
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    assert not home.exists() and scene.authoring.said.startswith("Not saved: The cuts:")
    type_into(scene, "text:explanation", "Any pair of forces across A and C that balance passes with the vertical ones.")
    assert scene.findings().said[0].startswith("Note:")  # only the note that no number varies
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    assert (home / "my-level-1.json").is_file(), scene.authoring.said


def test_a_roller_at_c_gives_the_unique_answer_and_no_such_problem(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    assert not any("statics alone" in p for p in scene.findings().said)
    assert scene.findings().answer == ["force at A: Fx = 0 kN, Fy = 5 kN", "force at C: Fx = 0 kN, Fy = 5 kN"]


def test_a_translation_written_for_an_earlier_english_text_is_said_until_it_is_written_again(app, home):
    level = read_json(LEVELS_DIR / "balance-01.json")
    scene = EditorScene(app, level)
    app.push(scene)
    assert not any("earlier English" in p for p in scene.findings().said)  # as shipped: each translation of its English
    type_into(scene, "text:brief", "A new brief in English.")
    notes = [p for p in scene.findings().said if "earlier English" in p]
    assert notes == [f"Note: Brief ({LANGUAGES[c]}) was written for an earlier English text: check it, or empty it" for c in ("de", "es", "fr")]
    click(scene, row(scene, "lang").center)  # the German texts
    assert next(f.shown for f in scene.fields() if f.name == "text:brief").endswith("(written for an earlier English text)")
    type_into(scene, "text:brief", "Eine neue Aufgabe.")
    notes = [p for p in scene.findings().said if "earlier English" in p]
    assert [n.split("(")[1].split(")")[0] for n in notes] == ["Español", "Français"]  # German written again: said no more
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    assert len([p for p in scene.findings().said if "earlier English" in p]) == 3  # undone: said again


def test_in_a_small_window_the_panel_shows_whole_rows_and_the_rest_a_key_away(small_app, home):
    scene = EditorScene(small_app, sandbox_design())
    small_app.push(scene)
    frame(small_app)
    panel = pygame.Rect(scene.picture_rect().right, 0, 800 - scene.picture_rect().right, 600)
    rows = [r for r, _f in scene.rects]
    assert rows and all(panel.contains(r) for r in rows) and all(r.bottom <= scene.below_y for r in rows)  # whole rows, above the findings
    assert len(rows) < len(scene.fields())  # not all: Tab reaches the rest
    for _k in range(len(scene.fields()) - 1):
        key(scene, pygame.K_TAB)
        frame(small_app)
        assert scene.fields()[scene.focus].name in [f.name for _r, f in scene.rects]  # the focused row always in view, whole
    assert scene.below_top == 0
    key(scene, pygame.K_PAGEDOWN)
    frame(small_app)
    assert scene.below_top > 0  # the preview below scrolled into view
    key(scene, pygame.K_PAGEUP)
    frame(small_app)
    assert scene.below_top == 0


def test_the_row_being_typed_shows_the_cursor_where_the_text_goes(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    click(scene, row(scene, "text:brief").center)
    scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="Find the forces. " * 40))  # a long brief: many lines
    key(scene, pygame.K_HOME)
    scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="Now "))
    frame(app)
    font, field = scene.app.fonts.body, next(f for f in scene.fields() if f.name == "text:brief")
    lines = edited_lines(font, field, scene.line, 400)
    assert len(lines) <= 6 and lines[0].startswith("Brief: Now " + CURSOR)  # the cursor after what was typed, at the start
    key(scene, pygame.K_END)
    lines = edited_lines(font, field, scene.line, 400)
    assert len(lines) == 6 and lines[-1].endswith(CURSOR)  # at the end: the last lines shown, the cursor in them


def test_a_dimension_is_measured_from_a_node_the_student_sees_and_the_keyboard_sets_one(app, home):
    design = sandbox_design()
    for node in design["nodes"]:
        node["x"] += 3.0  # the structure drawn 3 m right of the origin, which the student never sees
    scene = EditorScene(app, design)
    app.push(scene)
    click(scene, node_px(scene, "C"), pygame.KMOD_CTRL)  # C's x: its distance from A, the leftmost other support
    number = scene.doc["vary"]["numbers"]["L1"]
    assert number["words"]["en"] == "the distance of C from A" and number["default"] == 4
    assert (number["min"], number["max"]) == (3, 5)  # 4 m a quarter either way (not 7 m ± 1.75 m from the origin), B at 2 m not reached
    assert scene.findings().said[0].startswith("Note:")  # it validates: no version puts C on B
    assert scene.doc["vary"]["set"]["nodes.C.x"] == "3 + L1"
    assert {n["id"]: n["x"] for n in scene.doc["nodes"]}["C"] == 7  # where it is drawn
    type_into(scene, "dimension", "D y")  # the keyboard's way: D's height above A
    assert scene.doc["vary"]["numbers"]["L2"]["words"]["en"] == "the height of D above A"
    type_into(scene, "dimension", "Q z")
    assert scene.authoring.said == "Type a node's name and x or y, such as A y: the nodes are A, B, C, D."
    assert sorted(scene.doc["vary"]["numbers"]) == ["L1", "L2"]  # nothing changed


def test_every_line_of_the_menu_s_keys_names_the_editor_in_every_language():
    for code in LANGUAGES:
        with speaking(code):
            for words in HELP_LINES:
                assert re.search(r"(^|\s)E\s?:", _(words)), (code, _(words))  # French: "E\u00a0:"


def test_the_editor_s_preview_says_on_leaving_that_nothing_of_it_is_kept(app, home):
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.stage import Stage
    from equilibria.course.level import load_level

    scene = EditorScene(app, sandbox_design(), player=lambda app, stage: PlayScene(app, stage, progress=None))
    app.push(scene)
    stage = Stage.from_level(load_level(a.level_document(scene.doc)))
    play = PlayScene(app, stage, progress=None)
    _title, _colour, rows, *_rest = play.leaving.content(500)
    text = " ".join(getattr(r, "text", str(r)) for r in rows)
    assert "Nothing of this play is kept" in text and "Your work is kept" not in text


def test_the_checks_run_beside_the_frame_the_newest_draft_first_and_a_bug_is_raised_not_hidden():
    release, started, worked = threading.Event(), threading.Event(), []

    def work(key: str) -> str:
        started.set()
        release.wait(10)
        if key == "bad":
            raise RuntimeError("a bug in the checks")
        worked.append(key)
        return key.upper()

    checks = DraftChecks(work)
    assert checks.latest("a") == (None, True)  # nothing finished yet: the window draws on, "checking…"
    started.wait(10)
    checks.ask("b")
    checks.ask("c")  # b overtaken before its turn: never worked out
    release.set()
    assert checks.result("c") == "C" and worked == ["a", "c"]
    assert checks.latest("c") == ("C", False)
    assert checks.latest("d")[1] is True or checks.latest("d") == ("D", False)  # d asked: checking until done
    assert checks.result("d") == "D"
    with pytest.raises(RuntimeError, match="a bug in the checks"):
        checks.result("bad")


def test_a_slow_check_leaves_the_editor_drawing_and_saying_it_is_checking(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    frame(app)
    gate = threading.Event()
    quick = scene.checks.work
    scene.checks.work = lambda key: (gate.wait(10), quick(key))[1]
    click(scene, node_px(scene, "A"))  # an edit: A put back as a support
    app.fixed_frame, fixed = None, app.fixed_frame  # as a player's window: draws without waiting
    try:
        found, checking = scene.shown_findings()
        assert checking and found is not None  # the last draft's findings, and "checking…"
        scene.draw(app.screen)  # draws at once, the check still running
    finally:
        app.fixed_frame = fixed
        gate.set()
    assert not scene.shown_findings()[1]


def test_a_slow_change_of_kind_leaves_the_editor_drawing_and_saying_so_and_takes_no_key_meanwhile(app, home, monkeypatch):
    """K to a build level of thousands of members judges the drawn design for its sag (3.7 s
    at 2,001 members): drafted beside the frame, the editor draws "Making the level…", and a
    key pressed meanwhile changes nothing (it would land on a draft about to change)."""
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    frame(app)
    gate = threading.Event()
    slow = a.set_kind
    monkeypatch.setattr(a, "set_kind", lambda doc, kind: (gate.wait(10), slow(doc, kind))[1])
    app.fixed_frame, fixed = None, app.fixed_frame  # as a player's window: draws without waiting
    try:
        focus = scene.focus
        key(scene, pygame.K_k)
        assert scene.pending.busy and scene.doc["kind"] == "free_body"
        key(scene, pygame.K_TAB)  # taken by nobody while the edit is on its way
        assert scene.focus == focus
        said = []
        below = editor_module.draw_below

        def noted(surface, fonts, blocks, area, top):  # what the panel says below its rows, noted
            said.extend(t for _font, lines, _colour in blocks for t in lines)
            return below(surface, fonts, blocks, area, top)

        monkeypatch.setattr(editor_module, "draw_below", noted)
        scene.draw(app.screen)  # at once, the edit still running
        assert "Making the level…" in said
    finally:
        app.fixed_frame = fixed
        gate.set()
    scene.pending.wait()
    assert scene.doc["kind"] == "section" and not scene.pending.busy


def pratt(panels: int) -> dict:
    """A Pratt truss of `panels` 1 m panels, 1 m deep, on a pin and a roller, 10 kN at each inner bottom node."""
    from test_level_editor import BAR, STEEL

    nodes = [{"id": f"B{k}", "x": k, "y": 0} for k in range(panels + 1)] + [{"id": f"T{k}", "x": k, "y": 1} for k in range(1, panels)]
    pairs = [(f"B{k}", f"B{k + 1}") for k in range(panels)] + [(f"T{k}", f"T{k + 1}") for k in range(1, panels - 1)]
    pairs += [(f"B{k}", f"T{k}") for k in range(1, panels)] + [("B0", "T1"), (f"T{panels - 1}", f"B{panels}")]
    pairs += [(f"T{k}", f"B{k + 1}") if k < panels / 2 else (f"B{k}", f"T{k + 1}") for k in range(1, panels - 1)]
    return {
        "format": 1,
        "id": "sandbox",
        "title": "Sandbox",
        "kind": "sandbox",
        "materials": {"steel": STEEL},
        "nodes": nodes,
        "members": [{"id": f"{i}{j}", "i": i, "j": j, **BAR} for i, j in pairs],
        "supports": [{"node": "B0", "fix": ["x", "y"]}, {"node": f"B{panels}", "fix": ["y"]}],
        "loads": [{"node": f"B{k}", "fy": -10000} for k in range(1, panels)],
    }


def test_a_section_level_drafted_from_a_pratt_truss_first_asks_a_member_a_section_finds():
    doc = a.set_kind(a.start(pratt(4)), "section")
    asked = doc["player"]["asked"]
    # The middle post B2–T2 is nearest the middle, but no section of three members cuts it (its force is found at
    # joint B2 only): the draft asks the nearest member a section does find, and says no problem.
    assert asked != ["B2T2"] and a.checked(doc)[0] == [], (asked, a.checked(doc)[0])


def test_a_build_level_whose_design_fails_the_judge_says_so_and_does_not_save(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    while scene.doc["kind"] != "build":
        key(scene, pygame.K_k)
    assert scene.findings().problems == []  # the truss as drawn passes its own level: its sag is within the limit drafted for it
    type_into(scene, "goal:max_displacement", "0.001")  # 0.01 mm: no structure of light bars is that stiff
    problems = scene.findings().said
    assert problems[0].startswith("The answer: your structure, built as the student would build it, does not pass: Node"), problems
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    assert not home.exists() and scene.authoring.said.startswith("Not saved: The answer:")


def test_a_language_spoken_in_the_checks_thread_is_that_thread_s_alone():
    """The checks fill each language's texts (i18n.speaking, for every version they try) while the
    window draws in the game's language: the window never reads a word of the other."""
    from equilibria.words.i18n import decimal, language

    inside, leave, seen = threading.Event(), threading.Event(), []

    def checks() -> None:
        with speaking("de"):
            seen.append((language(), _("Budget: {budget}"), decimal(1.5, 1)))
            inside.set()
            leave.wait(10)

    worker = threading.Thread(target=checks)
    worker.start()
    inside.wait(10)
    try:
        assert (language(), _("Budget: {budget}"), decimal(1.5, 1)) == ("en", "Budget: {budget}", "1.5")  # the window's thread: English
    finally:
        leave.set()
        worker.join()
    assert seen == [("de", "Budget: {budget}", "1,5")]  # the thread's own: German (its budget word is the same)


def test_a_stability_level_made_by_clicking_the_members_taken_away_saves_validates_and_passes_with_them_put_back(app, home):

    from equilibria.app.draw.draft import where
    from equilibria.cli.main import main
    from equilibria.course.level import load_level
    from equilibria.format.solution import load_solution
    from equilibria.rules.judge import check as judge

    def drawn_px(scene, member: str):  # a member of the structure as drawn, taken away or not
        m = next(m for m in scene.doc["_design"]["members"] if m["id"] == member)
        (xi, yi), (xj, yj) = (scene._px(where(scene.doc)[k]) for k in (m["i"], m["j"]))
        return (0.3 * xi + 0.7 * xj, 0.3 * yi + 0.7 * yj)  # nearer j: clear of a load's arrow at i

    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    while scene.doc["kind"] != "stability":
        key(scene, pygame.K_k)
    assert "BD" not in {m["id"] for m in scene.doc["members"]}  # the post, taken away: a mechanism without it
    frame(app)
    click(scene, drawn_px(scene, "BD"))  # put back (drawn dashed, still clickable): already stable, said
    assert scene.findings().said[0] == "The structure: a stability level starts as a mechanism, but this structure is already stable"
    click(scene, drawn_px(scene, "AD"))  # AD taken away instead: A–B–D hinge free
    assert scene.findings().problems == []
    type_into(scene, "id", "brace-it")
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    path = home / "brace-it.json"
    assert path.is_file(), scene.authoring.said
    assert main(["validate", str(path)]) == 0
    saved = read_json(home / "solutions" / "brace-it.json")
    assert [m["id"] for m in saved["moves"]] == ["AD"]  # the reference answer: AD put back
    level = load_level(read_json(path))
    assert judge(level, load_solution(saved)).passed
    assert not judge(level, load_solution({"format": 1, "level": "brace-it", "moves": []})).passed  # nothing added: a mechanism


@pytest.mark.parametrize(
    ("code", "shown"),
    [
        ("de", "Hinweis: Eigene Zahlen jedes Studierenden: keines, also bekommen alle dieselben Zahlen"),
        ("es", "Nota: Números propios de cada estudiante: "),
        ("fr", "Remarque\u00a0: Nombres propres à chaque étudiant\u00a0: aucun"),
    ],
)
def test_a_warning_of_validate_in_another_language_is_named_as_the_panel_s_rows_name_it_there(code, shown):
    """The warning's own word is translated with the rest ("Warnung: vary: …", "avertissement\u00a0: vary\u00a0: …"):
    the panel still finds the field after it, and says it as its rows do, in the language's marks."""
    with speaking(code):
        said = in_panel_words(_("warning: vary: none, so every student gets the same numbers and the class shares one answer"))
        title = in_panel_words("title.fr: " + _("it has placeholders, and the English text has none"))
    assert said.startswith(shown) and "vary" not in said, said
    assert "title.fr" not in title and "(Français)" in title, title
