"""Determinism (issue 5): on one machine, the same input gives the same output bit for
bit, run after run.

- Every level with a reference solution gets the same verdict twice: the same figures
  (compared as JSON, whose floats are written exactly) and the same final state of the
  simulation the check ran (every array of the engine's State, byte for byte).
- A recorded input session replays to the same state: the events a player posts (build a
  truss in the sandbox, load it, run it, drag a node, bomb a member), frame by frame in an
  App with a fixed frame, posted again in a fresh App, end in the same state, byte for byte.
- The CLI prints the same JSON twice, in two processes with different hash seeds (so that
  nothing may hang on the order of a set or a dict of strings).

"Close" is not enough here: a difference in the last bit today is a different collapse
after a few thousand steps of a structure on the edge of buckling.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage
from equilibria.app.window.app import App
from equilibria.course.level import load_level
from equilibria.engine.dynamics import State
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "levels"
SOLVED = sorted(p.stem for p in (LEVELS / "solutions").glob("*.json"))


def assert_same_state(a: State, b: State) -> None:
    """Every array of two engine states: same dtype, shape and bytes."""
    for name, x, y in zip(State._fields, a, b, strict=True):
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), f"state.{name} differs"


# ---------------------------------------------------------------------- verdicts
def test_every_judged_kind_has_a_reference_solution_here():
    kinds = {load_level(read_json(LEVELS / f"{lid}.json")).kind for lid in SOLVED}
    assert {"balance", "zero_force", "build", "stability"} <= kinds


@pytest.mark.parametrize("level_id", SOLVED)
def test_a_reference_solution_gets_the_same_verdict_bit_for_bit(level_id):
    level = load_level(read_json(LEVELS / f"{level_id}.json"))
    solution = load_solution(read_json(LEVELS / "solutions" / f"{level_id}.json"))
    first, second = check(level, solution), check(level, solution)
    assert first.passed  # a reference solution: the run judged is the one the level means
    assert json.dumps(first.as_dict()) == json.dumps(second.as_dict())
    assert (first.sim is None) == (second.sim is None)
    if first.sim is not None:
        assert first.sim is not second.sim
        assert_same_state(first.sim.state, second.sim.state)
        assert first.sim.results() == second.sim.results()


# ---------------------------------------------------------------------- a recorded session
class Recording:
    """Input posted as a player makes it, written down frame by frame: `frames[k]` holds
    the (type, fields) of the events handled in frame k."""

    def __init__(self, app: App):
        self.app = app
        self.frames: list[list[tuple[int, dict]]] = []
        self._queued: list[tuple[int, dict]] = []

    def post(self, kind: int, **fields) -> None:
        self._queued.append((kind, fields))
        pygame.event.post(pygame.event.Event(kind, **fields))

    def frame(self, n: int = 1) -> None:
        for _ in range(n):
            self.frames.append(self._queued)
            self._queued = []
            self.app.frame()

    def key(self, k: int, mod: int = 0) -> None:
        self.post(pygame.KEYDOWN, key=k, mod=mod, unicode="")
        self.frame()

    def click(self, at: tuple[float, float], to: tuple[float, float] | None = None) -> None:
        at = (round(at[0]), round(at[1]))
        self.post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0))
        self.post(pygame.MOUSEBUTTONDOWN, pos=at, button=1)
        if to is not None:
            to = (round(to[0]), round(to[1]))
            self.post(pygame.MOUSEMOTION, pos=to, rel=(to[0] - at[0], to[1] - at[1]), buttons=(1, 0, 0))
        self.post(pygame.MOUSEBUTTONUP, pos=to or at, button=1)
        self.frame()


def sandbox() -> tuple[App, PlayScene]:
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, Stage.empty_sandbox())
    app.push(scene)
    return app, scene


def record_session() -> tuple[list[list[tuple[int, dict]]], PlayScene, App]:
    """Build a braced truss with the tools, load it, run it, pull its apex on the hand's
    spring for a second, bomb a diagonal, run on."""
    app, scene = sandbox()
    rec = Recording(app)
    rec.frame()  # lays the screen out
    tool = {name: pygame.K_0 + (k + 1) % 10 for k, name in enumerate(scene.toolbar.names)}
    places = {"A": (0, 1), "B": (2, 1), "C": (4, 1), "D": (2, 3)}
    at = {name: scene.view.point(*xy) for name, xy in places.items()}
    rec.key(tool["node"])
    for name in places:
        rec.click(at[name])
    rec.key(tool["member"])
    for name in ("A", "B", "C", "D", "A"):
        rec.click(at[name])
    rec.post(pygame.MOUSEBUTTONDOWN, pos=(5, 400), button=3)  # ends the chain
    rec.frame()
    rec.key(tool["member"])
    rec.click(at["B"])
    rec.click(at["D"])
    rec.post(pygame.MOUSEBUTTONDOWN, pos=(5, 400), button=3)
    rec.frame()
    rec.key(tool["support"])
    rec.click(at["A"])  # pin
    rec.click(at["C"])
    rec.click(at["C"])  # roller
    rec.key(tool["force"])
    rec.click(at["D"], to=(at["D"][0] + 40, at["D"][1] + 120))
    rec.key(pygame.K_SPACE)
    rec.frame(60)
    rec.key(tool["drag"])
    apex = scene.view.point(*scene.session.sim.state.pos[scene.session.model.node_index("N4"), :2])  # D, the fourth node placed
    rec.post(pygame.MOUSEBUTTONDOWN, pos=(round(apex[0]), round(apex[1])), button=1)
    rec.frame()
    for k in range(60):
        rec.post(pygame.MOUSEMOTION, pos=(round(apex[0]) + k, round(apex[1]) - k // 2), rel=(1, 0), buttons=(1, 0, 0))
        rec.frame()
    assert scene.session.hand == scene.session.model.node_index("N4") and np.hypot(*scene.session.hand_force()) > 0  # pulling D
    rec.post(pygame.MOUSEBUTTONUP, pos=(round(apex[0]) + 59, round(apex[1]) - 29), button=1)
    rec.frame()
    rec.key(tool["bomb"])
    rec.click(scene.view.point(1.0, 2.0))  # the diagonal A–D, halfway
    rec.frame(90)
    return rec.frames, scene, app


def replay(frames: list[list[tuple[int, dict]]]) -> tuple[PlayScene, App]:
    app, scene = sandbox()
    for events in frames:
        for kind, fields in events:
            pygame.event.post(pygame.event.Event(kind, **fields))
        app.frame()
    return scene, app


def test_a_recorded_input_session_replays_to_the_same_state():
    frames, first, app = record_session()
    try:
        design = first.session.bench.design()
        assert len(design["members"]) == 5 and len(design["supports"]) == 2 and len(design["loads"]) == 1
        assert not first.session.sim.state.member_on.all(), "the bomb took a member out"
        assert first.session.sim.time > 2.0 and first.session.problem is None
        state, time_, notice = first.session.sim.state.copy(), first.session.sim.time, first.session.notice
    finally:
        app.close()
    second, app = replay(frames)
    try:
        assert second.session.bench.design() == design
        assert second.session.sim.time == time_ and second.session.notice == notice
        assert_same_state(second.session.sim.state, state)
        assert np.abs(state.pos[:, :2] - second.session.model.arrays.pos0[:, :2]).max() > 1e-3  # it moved: a real run was compared
    finally:
        app.close()


# ---------------------------------------------------------------------- the CLI
def cli(*args: str, hash_seed: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    return subprocess.run([sys.executable, "-m", "equilibria", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "levels/demo-ground-motion.json", "--seconds", "2", "--record", "node.B.x", "--json"),
        ("simulate", "levels/demo-plate-pendulum.json", "--seconds", "1", "--integrator", "symplectic", "--json"),
        ("simulate", "levels/bridge-06.json", "--integrator", "relax", "--json"),
        ("simulate", "levels/demo-portal-unbraced.json", "--seconds", "1", "--integrator", "newmark", "--hht-alpha", "-0.1", "--json"),
        ("check", "levels/zero-force-06.json", "--solution", "levels/solutions/zero-force-06.json", "--json"),
    ],
    ids=["earthquake-rk4", "plates-symplectic", "relax", "portal-newmark", "check-jittered"],
)
def test_the_cli_prints_the_same_json_in_two_processes(args):
    first, second = cli(*args, hash_seed="1"), cli(*args, hash_seed="2")
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    assert json.loads(first.stdout)  # one JSON object, not an empty line
    assert first.stdout == second.stdout
