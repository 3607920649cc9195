"""Building by mouse alone, as a student does: tools chosen on the toolbar, nodes and
members placed by clicks a few pixels off where they are aimed (a hand is not exact),
the structure drawn and picked as built while it is edited. The reference solutions of
tutorial-04 and bridge-01 come out move for move, in the fewest clicks."""

from __future__ import annotations

import numpy as np
import pygame

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.window.app import App
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.files.store import read_json

OFF = (6, -5)  # [px] how far from its aim every click lands: within a node's reach (14 px)


def post(kind: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(kind, **fields))


class Student:
    """A mouse on a play scene; counts the clicks it makes."""

    def __init__(self, level: str, tmp_path):
        self.app = App(fixed_frame=FRAME)
        self.scene = PlayScene(self.app, load_stage(shipped_level(level)), progress=Progress.load(tmp_path))
        self.app.push(self.scene)
        self.app.frame()
        self.clicks = 0

    def click(self, at, button: int = 1) -> None:
        at = (round(at[0]), round(at[1]))
        post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
        post(pygame.MOUSEBUTTONDOWN, pos=at, button=button)
        post(pygame.MOUSEBUTTONUP, pos=at, button=button)
        self.app.frame()
        self.clicks += 1

    def tool(self, name: str) -> None:
        bar = self.scene.toolbar
        self.click(bar.rects[bar.names.index(name)].center)
        assert bar.current == name

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Where the world point (x, y) [m] is on the screen, missed by OFF."""
        sx, sy = self.scene.view.point(x, y)
        return sx + OFF[0], sy + OFF[1]

    def node(self, name: str) -> tuple[float, float]:
        model = self.scene.session.model
        return self.at(*model.arrays.pos0[model.node_index(name), :2])

    def section(self, name: str) -> None:
        while self.scene.session.section != name:
            self.click(self.scene.section_rect.center)

    def moves(self) -> list[dict]:
        return [m.model_dump(mode="json", exclude_none=True) for m in self.scene.session.bench.moves]


def reference(level: str) -> list[dict]:
    return read_json(reference_solution(level))["moves"]


def test_tutorial_04_is_built_by_mouse_move_for_move(tmp_path):
    s = Student("tutorial-04", tmp_path)
    s.tool("member")
    s.section("tube")
    s.click(s.node("A"))
    s.click(s.node("C"))
    s.click(s.node("C"), button=3)  # the right button ends the chain
    s.section("cable")
    s.click(s.node("B"))
    s.click(s.node("C"))
    assert s.moves() == reference("tutorial-04")
    assert s.clicks <= 8  # the tool, two sections, four nodes, one end of chain
    s.app.close()


def test_bridge_01_is_built_by_mouse_move_for_move_while_it_ran_before(tmp_path):
    s = Student("bridge-01", tmp_path)
    post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode="")  # run it first: the deck sags and sways
    s.app.run(30)
    assert s.scene.session.started and not s.scene.session.paused
    s.tool("node")  # building: it stands still, as built
    assert s.scene.session.paused and s.scene.editing
    s.click(s.at(2, 2))
    s.click(s.at(4, 2))
    s.tool("member")
    s.section("light")
    for chain in (("A", "E", "F", "D"), ("B", "E"), ("C", "F"), ("E", "C")):
        for name in chain:
            s.click(s.node(name))
        s.click(s.node(chain[-1]), button=3)
    assert s.moves() == reference("bridge-01")
    s.app.close()


def test_a_click_near_a_node_uses_it_and_never_puts_one_on_top(tmp_path):
    s = Student("bridge-01", tmp_path)
    s.tool("node")
    s.click(s.node("A"))  # the node tool, on a node: nothing new
    assert s.moves() == [] and "already there" in s.scene.session.notice
    s.click(s.at(2, 2))
    s.tool("member")
    a = s.scene.view.point(0, 0)
    s.click((a[0] + 12, a[1] - 9))  # 15 px off A: out of its reach, and no chain to go on
    assert [m["type"] for m in s.moves()] == ["add_node"], "a click beside A starts nothing where no node is"
    s.click(s.node("A"))
    s.click(s.node("E"))
    assert s.moves()[-1] == {"type": "add_member", "id": "AE", "i": "A", "j": "E", "section": s.scene.session.section}
    s.click(s.node("A"))  # on from E: E to A again is refused in words
    assert "joined already" in s.scene.session.notice and len(s.moves()) == 2
    s.click(s.node("E"), button=3)
    # A chain's click beside a node uses that node, never a new one on top of it: 0.4 of
    # a grid step off C, which the node's reach or the grid (whichever is larger on the
    # screen at this zoom) brings back onto C.
    step = s.scene.picture.place(s.scene.view.point(0.11, 0), False)[0]
    s.click(s.node("E"))
    s.click(s.scene.view.point(4 + 0.4 * step, 0.4 * step))
    assert s.moves()[-1]["type"] == "add_member" and {s.moves()[-1]["i"], s.moves()[-1]["j"]} == {"E", "C"}
    assert [m["type"] for m in s.moves()].count("add_node") == 1
    s.app.close()


def test_supports_go_on_in_one_click_and_nodes_do_not_move_under_the_mouse(tmp_path):
    s = Student("supports-01", tmp_path)
    s.tool("support")
    pos0 = s.scene.session.model.arrays.pos0[:, :2].copy()
    s.app.run(20)  # a mechanism: its free motion is animated, as a ghost
    assert np.array_equal(s.scene.picture.positions(), pos0), "drawn and picked as built"
    first = s.scene.session.model.node_ids[0]
    s.click(s.node(first))
    supports = [m for m in s.moves() if m["type"] == "add_support"]
    assert len(supports) == 1 and supports[0]["node"] == first
    s.app.close()
