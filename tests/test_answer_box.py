"""One answer box (issue 32, point 7): forces, moments and cut forces are typed the same
way. Opened on something already given it starts empty and says what it replaces; Enter
replaces it; Esc keeps the old; 0 is taken where a cut may carry nothing (beam-04's and
beam-07's briefs: "a force or a moment of zero is typed as 0"); no key typed into the box
acts as a command after it closes; a value far past the level's loads is said to be a
slip of units. And every level whose answer is typed passes with its reference answer
typed into the real scene by posted events alone (a tool key, a click, the keys, Enter, C).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pygame
import pytest

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.answers import FORCE, MEMBER, MOMENT, Asked, asked
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.keymap import TOOL_KEY_CODES
from equilibria.app.window.app import App
from equilibria.course.syllabus import shipped_level
from equilibria.engine.results import member_ends

SOLUTIONS = Path(__file__).resolve().parents[1] / "levels" / "solutions"  # the repository's: a student's copy ships none
TYPED = {"add_force": "force", "add_moment": "moment", "cut_member": "cut"}  # a move typed into the box, and its tool


def typed_levels() -> list[str]:
    """The levels whose reference answer is all typed (forces, moments, cut forces): every
    free-body, section and balance level."""
    out = []
    for path in sorted(SOLUTIONS.glob("*.json")):
        moves = json.loads(path.read_text(encoding="utf-8"))["moves"]
        if moves and all(m["type"] in TYPED for m in moves):
            out.append(path.stem)
    return out


# ---------------------------------------------------------------------- as a player's hands do
def key(key: int, char: str = "", mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=char))


def text(typed: str) -> None:
    """`typed` as a keyboard gives it with text input on: each key's KEYDOWN, then its TEXTINPUT."""
    for ch in typed:
        key(ord(ch) if ch.isascii() else 0, ch)
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))


def enter() -> None:
    key(pygame.K_RETURN, "\r")


def click(at: tuple[int, int]) -> None:
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=at, button=1))


def opened(level: str, size: tuple[int, int] = (1280, 800)) -> tuple[App, PlayScene]:
    app = App(size, fixed_frame=FRAME)
    scene = PlayScene(app, load_stage(shipped_level(level)))
    app.push(scene)
    app.frame()
    return app, scene


def tool(app: App, scene: PlayScene, name: str) -> None:
    """Its key, as the toolbar numbers it."""
    k = scene.toolbar.names.index(name)
    key(TOOL_KEY_CODES[k], "1234567890"[k])
    app.frame()
    assert scene.toolbar.current == name


def where(scene: PlayScene, what: str, at: str) -> tuple[int, int]:
    """[px] a node, or a member's middle, on the screen."""
    model, picture = scene.session.model, scene.picture
    if what == MEMBER:
        i, j = member_ends(model)[model.member_index(at)]
        (ax, ay), (bx, by) = picture.point_of(int(i)), picture.point_of(int(j))
        return round((ax + bx) / 2), round((ay + by) / 2)
    x, y = picture.point_of(model.node_index(at))
    return round(x), round(y)


def box_on(app: App, scene: PlayScene, what: str, at: str) -> None:
    """The box opened by a click on `at` with the tool in hand."""
    click(where(scene, what, at))
    app.frame()
    entry = scene.entry_box.entry
    assert entry is not None and (entry.asked.what, entry.asked.at) == (what, at)


def answer(app: App, scene: PlayScene, what: str, at: str, typed: str) -> None:
    box_on(app, scene, what, at)
    text(typed)
    enter()
    app.frame()
    entry = scene.entry_box.entry
    assert entry is None, entry.problem


def check(app: App, scene: PlayScene) -> None:
    """C, then the frames that say "Checking…" and judge."""
    key(pygame.K_c, "c")
    for _ in range(3):
        app.frame()
    assert scene.session.verdict is not None


def kn(x: float) -> str:
    return f"{x / 1e3:.6g}"


def keys_for(move: dict) -> tuple[str, str, str]:
    """(what, where, the text a student types) of a reference move."""
    if move["type"] == "cut_member":
        return MEMBER, move["member"], kn(move["force"])
    if move["type"] == "add_moment":
        return MOMENT, move["node"], kn(move["m"])
    fx, fy = move.get("fx", 0.0), move.get("fy", 0.0)
    return FORCE, move["node"], "0" if fx == fy == 0 else f"{kn(fx)}, {kn(fy)}"  # a force of nothing typed as 0 (beam-04's brief)


def test_the_levels_with_typed_answers_are_every_free_body_section_and_balance_level():
    assert len(typed_levels()) >= 40 and {"beam-04", "beam-07", "frame-02", "sections-02", "balance-01", "free-body-01"} <= set(typed_levels())


@pytest.mark.parametrize("level", typed_levels())
def test_each_reference_answer_typed_into_the_box_by_keys_passes(level):
    app, scene = opened(level)
    moves = json.loads((SOLUTIONS / f"{level}.json").read_text(encoding="utf-8"))["moves"]
    for move in moves:
        what, at, typed = keys_for(move)
        if scene.toolbar.current != TYPED[move["type"]]:
            tool(app, scene, TYPED[move["type"]])
        answer(app, scene, what, at, typed)
    assert len(scene.session.bench.moves) == len(moves)
    check(app, scene)
    assert scene.session.passed, scene.session.verdict.reason
    app.close()


# ---------------------------------------------------------------------- one way for all three
BOXES = [  # (level, tool, what, where, a first answer, its words, a second answer, the move's value after it)
    ("free-body-02", "force", FORCE, "A", "0, 5", "replaces your Fx 0 kN, Fy +5 kN here", "-2, 4", (-2e3, 4e3)),
    ("frame-02", "moment", MOMENT, "A", "12", "replaces your 12 kN·m counter-clockwise here", "-3.5", -3.5e3),
    ("sections-02", "cut", MEMBER, "GC", "-6.25", "replaces your 6.25 kN of compression here", "6.25", 6.25e3),
]


def given(scene: PlayScene, what: str, at: str):
    bench = scene.session.bench
    return bench.own_force(at) if what == FORCE else bench.own_moment(at) if what == MOMENT else bench.cuts().get(at)


@pytest.mark.parametrize(("level", "tool_name", "what", "at", "first", "replaces", "second", "after"), BOXES)
def test_each_box_opens_empty_on_what_is_given_says_it_and_enter_replaces_esc_keeps(level, tool_name, what, at, first, replaces, second, after):
    """The Cut box opened holding the old value and appended what was typed ("−6.256.25",
    then refused); the Moment box dropped the new value with a note on the status line,
    and the next check judged the old one. Now all three as the force box was."""
    app, scene = opened(level)
    tool(app, scene, tool_name)
    answer(app, scene, what, at, first)
    before = given(scene, what, at)
    box_on(app, scene, what, at)
    entry = scene.entry_box.entry
    assert entry.text == "" and entry.asked.replaces() == replaces
    text("9")
    key(pygame.K_ESCAPE, "\x1b")
    app.frame()
    assert scene.entry_box.entry is None and given(scene, what, at) == before  # Esc keeps the old
    answer(app, scene, what, at, second)
    assert given(scene, what, at) == after  # Enter replaces it
    assert [type(m).__name__ for m in scene.session.bench.moves] == [{FORCE: "AddForce", MOMENT: "AddMoment", MEMBER: "CutMember"}[what]]  # one, replaced
    app.close()


def test_a_moment_typed_again_is_the_one_checked():
    """frame-02: the moment box dropped a second moment at the cut and the check judged the
    first; now the second replaces it, and the right one passes."""
    app, scene = opened("frame-02")
    solution = json.loads((SOLUTIONS / "frame-02.json").read_text(encoding="utf-8"))["moves"]
    for move in solution:
        what, at, typed = keys_for(move)
        tool(app, scene, TYPED[move["type"]])
        answer(app, scene, what, at, "1" if what == MOMENT else typed)  # a wrong moment first
    tool(app, scene, "moment")
    what, at, typed = keys_for(next(m for m in solution if m["type"] == "add_moment"))
    answer(app, scene, what, at, typed)
    check(app, scene)
    assert scene.session.passed, scene.session.verdict.reason
    app.close()


def test_zero_is_an_answer_at_a_cut_and_no_force_elsewhere():
    """beam-07's brief: "a force or a moment of zero is typed as 0". A balance level asks
    for a force that balances: 0 is no force there."""
    cut = Asked(MOMENT, "C", zero=True)
    assert cut.read("0") == 0.0 and cut.reads("0") == "= 0 kN·m: no moment" and cut.zero_words()
    assert Asked(FORCE, "D", zero=True).read("0") == (0.0, 0.0) and Asked(FORCE, "D", zero=True).read("0, 0") == (0.0, 0.0)
    with pytest.raises(ValueError, match="no force"):
        Asked(FORCE, "B").read("0")
    with pytest.raises(ValueError, match="no moment"):
        Asked(MOMENT, "C").read("0")
    app, scene = opened("beam-07")
    tool(app, scene, "moment")
    answer(app, scene, MOMENT, "C", "0")
    assert scene.session.bench.own_moment("C") == 0.0
    app.close()
    app, scene = opened("balance-01")
    tool(app, scene, "force")
    box_on(app, scene, FORCE, "B")
    text("0")
    enter()
    app.frame()
    assert scene.entry_box.entry is not None and "no force" in scene.entry_box.entry.problem and not scene.session.bench.moves
    app.close()


# ---------------------------------------------------------------------- keys after the box
def test_keys_typed_ahead_of_the_box_closing_are_never_commands():
    """Typed fast, "0, 5", Enter, then 1, Space, N and Esc arrive in one frame: they were
    typed into the box and do nothing (the tool stays, nothing runs, nothing asks to
    leave). Once the box is seen closed, keys are commands again."""
    app, scene = opened("free-body-02")
    tool(app, scene, "force")
    box_on(app, scene, FORCE, "A")
    text("0, 5")
    enter()
    text("1 n")
    key(pygame.K_ESCAPE, "\x1b")
    app.frame()
    s = scene.session
    assert scene.entry_box.entry is None and s.bench.own_force("A") == (0.0, 5e3)
    assert scene.toolbar.current == "force" and not s.started and not scene.leaving.is_open
    key(pygame.K_1, "1")
    app.frame()
    assert scene.toolbar.current == "inspect"  # after the frame that showed it closed: a command
    app.close()


def test_a_refused_answer_is_said_in_the_box_which_stays_open():
    """free-body-02 takes its force at A only: at B the box says so and keeps the text
    (it closed, and the refusal went to the status line, where the next keys were commands)."""
    app, scene = opened("free-body-02")
    tool(app, scene, "force")
    box_on(app, scene, FORCE, "B")
    text("0, 5")
    enter()
    app.frame()
    entry = scene.entry_box.entry
    assert entry is not None and "not at B" in entry.problem and entry.text == "0, 5" and not scene.session.bench.moves
    app.close()


# ---------------------------------------------------------------------- kN typed for N
def test_a_thousands_comma_is_said_not_read_as_two_components():
    """English "1,000" was read as Fx 1 kN, Fy 0: a force to the right, placed silently."""
    for what in (FORCE, MOMENT, MEMBER):
        with pytest.raises(ValueError, match="thousands comma"):
            Asked(what, "A").read("1,000")
        with pytest.raises(ValueError, match="thousands comma"):
            Asked(what, "A").read("-12,500 kN")
    assert Asked(FORCE, "A").read("3,4") == (3e3, 4e3) and Asked(FORCE, "A").read("12,5") == (12e3, 5e3)


@pytest.mark.parametrize("lang", ["de", "es", "fr"])
def test_a_point_before_three_digits_is_asked_about_where_the_comma_is_the_decimal_mark(lang):
    """German "1.000" is a thousand; the box read it as 1.0 (issue 32): where the decimal
    mark is the comma, a point followed by exactly three digits (and no comma) could be
    either, so every box says so, with the two ways to type it, and keeps nothing. A point
    before one, two or four digits stays a decimal point (1.5, 1.25, 1.0000), and English
    reads 1.000 as the decimal it is there."""
    from equilibria.words.i18n import speaking

    with speaking(lang):
        for what in (FORCE, MOMENT, MEMBER):
            for typed in ("1.000", "-12.500 kN", "1.000.000"):
                form = f"{typed}; 0" if what == FORCE else typed
                with pytest.raises(ValueError, match=r"1000") as said:
                    Asked(what, "A").read(form)
                assert typed.split()[0] in str(said.value) and typed.split()[0].replace(".", ",", 1) in str(said.value)
        assert Asked(MOMENT, "A").read("1.5") == 1500 and Asked(MOMENT, "A").read("1.25") == 1250
        assert Asked(MOMENT, "A").read("1.0000") == 1000 and Asked(MOMENT, "A").read("1,5") == 1500
        assert Asked(FORCE, "A").read("0; 1.25") == (0.0, 1250.0) and Asked(MEMBER, "A").read("2000") == 2e6
    with speaking("en"):
        assert Asked(MOMENT, "A").read("1.000") == 1000.0 and Asked(FORCE, "A").read("0, 1.000") == (0.0, 1000.0)


def test_a_force_far_past_the_levels_loads_says_forces_are_in_kn_then_enter_again_keeps_it():
    """free-body-02's loads are some kN: 5000 typed for 5,000 N is 5,000 kN. The box says
    forces are in kN; a second Enter keeps it (a student may mean it: the check judges)."""
    app, scene = opened("free-body-02")
    tool(app, scene, "force")
    box_on(app, scene, FORCE, "A")
    text("0, 5000")
    enter()
    app.frame()
    entry = scene.entry_box.entry
    assert entry is not None and "forces are in kN" in entry.problem and not scene.session.bench.moves
    assert not any(ch.isdigit() for ch in entry.problem.replace("1 kN = 1000 N", ""))  # it names no load
    enter()
    app.frame()
    assert scene.entry_box.entry is None and scene.session.bench.own_force("A") == (0.0, 5e6)
    app.close()


def test_no_reference_answer_is_taken_for_a_slip_of_units():
    """The bound is TYPED_PAST (100) times all the given loads: every reference answer lies
    far within it (the largest, machines-02's lever, at 6 times)."""
    for level in typed_levels():
        app, scene = opened(level, (800, 600))
        for move in json.loads((SOLUTIONS / f"{level}.json").read_text(encoding="utf-8"))["moves"]:
            what, at, typed = keys_for(move)
            ask = asked(scene.session, what, at)
            value = ask.read(typed)
            assert not ask.too_large(value), (level, move)
            size = math.hypot(*value) if isinstance(value, tuple) else abs(value)
            assert size * 10 < ask.most, (level, move)
        app.close()
