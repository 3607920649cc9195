"""Playable by keys alone (issue 33, point 2): Tab and Shift+Tab step through what the tool
in hand acts on in reading order, the arrows go to the nearest that way, Shift+arrows move
a free point on the grid (Alt: a tenth of a step), Enter does what a click of the tool
does, Delete erases, Esc lets the keys' pointer go; the selection is drawn and read out in
the status line; F1 lists the keys. And every level's reference solution, played by
posted key events alone (no mouse event at all), passes the check.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pygame
import pytest
from test_answer_box import check, keys_for, text

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.cursor import KeyCursor, Target, reading_order
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.keymap import TOOL_KEY_CODES, help_rows
from equilibria.app.window.app import App
from equilibria.course.syllabus import shipped_level
from equilibria.work.workbench import LevelBench

SOLUTIONS = Path(__file__).resolve().parents[1] / "levels" / "solutions"
TOOL_OF = {
    "add_node": "node",
    "add_member": "member",
    "add_support": "support",
    "add_force": "force",
    "add_moment": "moment",
    "cut_member": "cut",
    "mark_zero": "mark",
    "remove_member": "remove",
}


class Keys:
    """A student at the keyboard: every event a KEYDOWN (and TEXTINPUT in a box), never
    the mouse."""

    def __init__(self, level: str, size: tuple[int, int] = (1280, 800), draw: int | None = None):
        """draw: which of a level's loads drawn at random it has (the reference's)."""
        self.app = App(size, fixed_frame=FRAME)
        stage = load_stage(shipped_level(level))
        bench = None
        if draw is not None:
            bench = LevelBench(stage.level)
            bench.attempt.draw = draw
        self.scene = PlayScene(self.app, stage, bench=bench)
        self.app.push(self.scene)
        self.app.frame()
        self.pressed = 0

    def press(self, k: int, mod: int = 0) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))
        self.app.frame()
        self.pressed += 1

    @property
    def chosen(self) -> tuple[str, str] | None:
        t = self.scene.keys.cursor.target
        return (t.kind, t.id) if t is not None else None

    def tool(self, name: str) -> None:
        if self.scene.toolbar.current != name:
            self.press(TOOL_KEY_CODES[self.scene.toolbar.names.index(name)])
        assert self.scene.toolbar.current == name

    def choose(self, kind: str, ident: str) -> None:
        """Tab until (kind, ident) is chosen: every target is reached within one round."""
        for _ in range(len(self.scene.toolbar.tool.targets(self.scene)) + 1):
            if self.chosen == (kind, ident):
                return
            self.press(pygame.K_TAB)
        raise AssertionError(f"Tab never reached {kind} {ident}")

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Shift+arrows to the grid point nearest (x, y), then Alt+Shift+arrows the tenths
        of a step that remain; the point reached."""
        if not self.scene.keys.active:
            self.press(pygame.K_TAB)
        g = self.scene.picture.grid_step()
        for mod, step in ((pygame.KMOD_CTRL, 10 * g), (0, g), (pygame.KMOD_ALT, g / 10)):
            at = self.scene.keys.cursor.at
            for delta, (minus, plus) in ((x - at[0], (pygame.K_LEFT, pygame.K_RIGHT)), (y - at[1], (pygame.K_DOWN, pygame.K_UP))):
                whole = abs(delta) / step + (0.0 if mod == pygame.KMOD_CTRL else 0.5)  # tens first, then the steps rounded
                for _ in range(int(whole)):
                    self.press(plus if delta > 0 else minus, pygame.KMOD_SHIFT | mod)
        return self.scene.keys.cursor.at

    def enter(self) -> None:
        self.press(pygame.K_RETURN)

    def close(self) -> None:
        self.app.close()


def play(keys: Keys, moves: list[dict]) -> None:
    """The reference moves made by keys: new nodes at the grid point nearest theirs."""
    scene, named = keys.scene, {}
    for move in moves:
        keys.tool(TOOL_OF[move["type"]])
        kind = move["type"]
        if kind == "add_node":
            x, y = keys.point(move["x"], move["y"])
            keys.enter()
            made = scene.session.bench.node_near(x, y, 1e-6)
            assert made is not None, scene.session.notice
            named[move["id"]] = made
        elif kind == "add_member":
            while scene.session.section != move["section"]:
                keys.press(pygame.K_s)
            for end in ("i", "j"):
                keys.choose("node", named.get(move[end], move[end]))
                keys.enter()
            keys.press(pygame.K_ESCAPE)  # the chain ends here
            assert not scene.toolbar.tool.pending
        elif kind == "add_support":
            keys.choose("node", move["node"])
            for _ in range(len(scene.session.bench.support_cycle())):
                fixed = next((s for s in scene.session.data()["supports"] if s["node"] == move["node"]), None)
                if fixed is not None and {f for f in ("x", "y", "rot") if f in fixed.get("fix", fixed)} == set(move["fix"]):
                    break
                keys.enter()
        elif kind in ("add_force", "add_moment", "cut_member"):
            _, at, typed = keys_for(move)
            keys.choose("member" if kind == "cut_member" else "node", at)
            keys.enter()
            assert scene.entry_box.entry is not None, scene.session.notice
            text(typed)
            keys.enter()
            assert scene.entry_box.entry is None, scene.entry_box.entry.problem
        else:  # mark_zero, remove_member
            keys.choose("member", move["member"])
            keys.enter()
    keys.press(pygame.K_ESCAPE)  # the keys let go of the pointer before the check


def solved_levels() -> list[str]:
    return sorted(p.stem for p in SOLUTIONS.glob("*.json") if json.loads(p.read_text(encoding="utf-8"))["moves"])


@pytest.mark.parametrize("level", solved_levels())
def test_every_reference_solution_played_by_keys_alone_passes(level, monkeypatch):
    solution = json.loads((SOLUTIONS / f"{level}.json").read_text(encoding="utf-8"))
    moves = solution["moves"]
    keys = Keys(level, draw=solution.get("draw"))
    mouse = []
    real = pygame.event.post

    def post(event):
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            mouse.append(event)
        return real(event)

    monkeypatch.setattr(pygame.event, "post", post)
    play(keys, moves)
    assert mouse == []
    assert len(scene_moves(keys)) == len(moves), f"{len(scene_moves(keys))} moves made by keys, the reference has {len(moves)}"
    check(keys.app, keys.scene)
    assert keys.scene.session.passed, keys.scene.session.verdict.reason
    keys.close()


def scene_moves(keys: Keys) -> list:
    bench = keys.scene.session.bench
    return bench.moves if hasattr(bench, "moves") else []


# ---------------------------------------------------------------------- the cursor alone
def grid_targets() -> list[Target]:
    """Nodes of a 3 × 2 grid, 1 m apart, and the member A–B between the first two."""
    nodes = [Target("node", n, k, x, y) for k, (n, x, y) in enumerate([("A", 0, 0), ("B", 1, 0), ("C", 2, 0), ("D", 0, 1), ("E", 1, 1), ("F", 2, 1)])]
    return [*nodes, Target("member", "AB", 0, 0.5, 0.0)]


def test_reading_order_is_the_top_row_first_left_to_right():
    order = [t.id for t in reading_order(grid_targets(), 2.0)]
    assert order == ["D", "E", "F", "A", "AB", "B", "C"]


def test_tab_goes_round_and_shift_tab_back():
    cursor, targets = KeyCursor(), grid_targets()
    seen = [cursor.step(targets, 2.0).id for _ in range(8)]
    assert seen == ["D", "E", "F", "A", "AB", "B", "C", "D"]
    assert cursor.step(targets, 2.0, forward=False).id == "C"


def test_an_arrow_goes_to_the_nearest_that_way_and_nowhere_when_nothing_is():
    cursor, targets = KeyCursor(), grid_targets()
    cursor.select(targets[0])  # A, at the lower left
    assert cursor.toward(targets, "right").id == "AB"  # the member's middle, half a metre on
    assert cursor.toward(targets, "up").id == "D"  # from AB (0.5, 0), D (0, 1) and E (1, 1) score alike: the first listed
    cursor.select(targets[0])
    assert cursor.toward(targets, "left") is None and cursor.target.id == "A"
    assert cursor.toward(targets, "down") is None


def test_ctrl_shift_arrows_move_the_free_point_ten_steps():
    keys = Keys("bridge-01")
    keys.tool("node")
    keys.press(pygame.K_TAB)
    x, y = keys.scene.keys.cursor.at
    g = keys.scene.picture.grid_step()
    keys.press(pygame.K_RIGHT, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert math.isclose(keys.scene.keys.cursor.at[0], x + 10 * g) and keys.scene.keys.cursor.at[1] == y
    keys.close()


def test_shift_arrows_walk_the_grid_and_alt_a_tenth_of_a_step():
    cursor = KeyCursor()
    cursor.start((0.0, 0.0))
    for _ in range(3):
        cursor.nudge("right", 0.5)
    assert cursor.at == (1.5, 0.0) and not cursor.fine
    cursor.nudge("down", 0.5, fine=True)
    assert cursor.fine and math.isclose(cursor.at[1], -0.05) and cursor.target is None


# ---------------------------------------------------------------------- in the scene
def test_tab_chooses_a_node_draws_it_and_says_it_in_the_status_line():
    keys = Keys("tutorial-04")
    keys.tool("member")
    before = pygame.surfarray.array3d(keys.app.screen).copy()
    keys.press(pygame.K_TAB)
    assert keys.chosen is not None and keys.chosen[0] == "node"
    node = keys.chosen[1]
    notice = keys.scene.session.notice
    assert notice.startswith(f"Node {node} at (") and "Enter: " in notice, notice
    after = pygame.surfarray.array3d(keys.app.screen)
    x, y = (round(v) for v in keys.scene.keys.point())
    ring = np.abs(after[x - 20 : x + 20, y - 20 : y + 20].astype(int) - before[x - 20 : x + 20, y - 20 : y + 20]).sum()
    assert ring > 0, "the chosen node is not drawn"
    assert keys.scene.mouse == (x, y) and keys.scene.hover is not None and keys.scene.hover.id == node
    keys.close()


def test_enter_starts_and_ends_a_member_and_the_mouse_takes_the_pointer_back():
    keys = Keys("tutorial-04")
    keys.tool("member")
    before = len(keys.scene.session.bench.moves)
    keys.choose("node", "A")
    keys.enter()
    assert keys.scene.toolbar.tool.pending == ["A"]
    keys.choose("node", "C")
    keys.enter()
    assert len(keys.scene.session.bench.moves) == before + 1
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(5, 5), rel=(3, 3), buttons=(0, 0, 0)))
    keys.app.frame()
    assert not keys.scene.keys.active and keys.scene.mouse == (5, 5)
    keys.close()


def test_delete_erases_what_is_chosen_and_esc_lets_the_pointer_go():
    keys = Keys("tutorial-04")
    keys.tool("member")
    keys.choose("node", "A")
    keys.enter()
    keys.choose("node", "C")
    keys.enter()
    keys.press(pygame.K_ESCAPE)  # the chain ends; the pointer stays with the keys
    assert keys.scene.keys.active
    made = keys.scene.session.bench.moves[-1].id
    keys.choose("member", made)
    keys.press(pygame.K_DELETE)
    assert made not in {getattr(m, "id", None) for m in keys.scene.session.bench.moves}
    keys.press(pygame.K_ESCAPE)
    assert not keys.scene.keys.active
    keys.close()


def test_the_arrows_pan_until_something_is_chosen_and_ctrl_arrows_always():
    keys = Keys("tutorial-04")
    view = keys.scene.view
    keys.press(pygame.K_LEFT)
    assert keys.scene.view != view and not keys.scene.keys.active
    keys.press(pygame.K_TAB)
    chosen = keys.chosen
    view = keys.scene.view
    keys.press(pygame.K_RIGHT, pygame.KMOD_CTRL)
    assert keys.scene.view != view and keys.chosen == chosen
    keys.close()


def test_f1_lists_the_keys_that_play_without_a_mouse():
    keys = dict(help_rows())
    for shown in ("Tab, Shift+Tab", "Shift+arrows", "Enter, Delete", "S, P"):
        assert shown in keys, shown


@pytest.mark.parametrize("member", ["FC", "BG"])
def test_enter_acts_on_the_member_chosen_where_two_cross_at_their_middles(member):
    """determinacy-01's FC and BG cross at their middles: Enter takes out the one chosen."""
    keys = Keys("determinacy-01")
    keys.tool("remove")
    keys.choose("member", member)
    keys.enter()
    assert sorted(keys.scene.session.bench.marked()) == [member]
    keys.close()
