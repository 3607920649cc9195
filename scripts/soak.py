"""The soak run (issue 5): a large sandbox runs for many simulated minutes in a real play
scene while a seeded random player edits, pulls, nails and bombs it; memory is measured
as it goes, and the figures and a verdict are printed.

    .venv/bin/python scripts/soak.py                              # 10 simulated minutes
    .venv/bin/python scripts/soak.py --minutes 3 --members 600 --seed 7

What runs. A lattice truss (X-braced cells of steel bars, pinned and roller-supported
along its foot, point loads along its top; `--members` sets its size) is built through
`SandboxBench` edits, the player's own edit path (each edit a deep copy of the design,
validated, kept for undo). It opens in a `PlayScene` inside an `App` with a fixed frame
of 1/60 s, headless (SDL's dummy driver), so every frame goes through input, the engine,
ground contact and the hand's spring, pymunk's hit-testing and the drawing. The player's
input is posted as pygame events, as tests/test_play_session.py does. At seeded random
intervals (GAP: 0.3 to 1.5 s) it makes one action (ACTIONS): add or erase a member, a
node or a plate, cycle a support, drag out a load, undo, redo, pull a node round on the
hand's spring for a while, nail or unnail, bomb a member, reset, magnify, follow a node or
member on the graph, zoom and pan, toggle the HUD, values and help, step, change the
speed, save. Additions and erasures keep the member count within BAND of the start, so
that the run's memory can be compared with itself. The same seed makes the same run (the
frame is fixed, and so are the engine's results).

Memory, sampled SAMPLES times after a full garbage collection (a leak is what survives
one): the Python heap as tracemalloc traces it (numpy's arrays included), and the
process's resident set (RSS, from /proc/self/statm; elsewhere the peak from getrusage).
tracemalloc makes allocation-heavy Python five to ten times slower, so it starts after
the build; then UNDO_DEPTH + 2 more edits (a support pinned and freed) fill the undo
history with designs of the full size, all traced, before the scene opens: from then on
every object the game holds is one tracemalloc saw made. `--no-trace` measures the RSS
alone, several times faster.

The verdict compares the sample at a third of the run with the last one. The first third
is the warm-up: the numba kernels load, pygame's glyph caches fill, the graph's ring
buffers are made, the undo history turns over. What the heap legitimately holds after it
varies with the design (the history keeps UNDO_DEPTH snapshots of it, and the member
count wanders within BAND), so "flat" is a growth of the traced heap within TRACED_SHARE
of it plus TRACED_FLOOR, and of the RSS within RSS_SHARE plus RSS_FLOOR (the allocator
keeps freed pages, and the C libraries, numba's LLVM and pymunk, allocate there unseen by
tracemalloc). A leak of one model, simulation and set of pymunk shapes per edit (about a
tenth of a megabyte and more for this lattice) over the hundreds of edits of the last two
thirds is far beyond that; the verdict says how slow a leak per frame and per edit the
thresholds would still miss, and lists the lines of code whose heap grew most.

Cost, on a 2-core x86_64 machine with the default lattice (993 members, 280 nodes): the
build takes about 30 s (edits cost more as the design grows), the traced settling about
2 minutes more. Untraced, the run goes at about 0.6 × real time (force values drawn on
every member, once the player has pressed V, are much of a frame); traced, at 0.05 to
0.15 ×: 3 simulated minutes took 5 minutes with `--no-trace` and 50 with tracemalloc.

It never crashes: an Unstable run is paused and explained by the scene, counted here,
reset (R) and run on; an exception in a frame or an action is counted, its traceback is
printed at the end, and the run goes on. Exit code 0 when memory is flat and nothing
raised, 1 otherwise. Designs, graphs and screenshots are saved in a throw-away data
folder (EQUILIBRIA_HOME), never the player's.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import sys
import tempfile
import time
import traceback
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere, as a plain script

import numpy as np
import pygame

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage
from equilibria.app.window.app import App
from equilibria.course.level import load_level
from equilibria.work.workbench import UNDO_DEPTH, SandboxBench

SECTION = "steel bar"  # the sandbox's 50 × 5 mm steel tube
CELL = 0.5  # [m] the lattice's cell
LOAD = 4e3  # [N] each point load on the top chord
SUPPORT_EVERY = 5  # cells between supports along the foot
BAND = 0.05  # the member count is kept within this fraction of the start
GAP = (18, 90)  # frames between actions (0.3 to 1.5 s at 60 Hz), drawn uniformly
HOLD = (30, 150)  # frames a drag lasts (0.5 to 2.5 s)
SAMPLES = 24  # memory samples over a run, besides the one at its start
TRACED_SHARE, TRACED_FLOOR = 0.03, 2.0  # flat: traced growth ≤ 3 % of the heap + 2 MB
RSS_SHARE, RSS_FLOOR = 0.05, 16.0  # flat: RSS growth ≤ 5 % + 16 MB
MB = 1e6

SANDBOX_KEYS = {  # the sandbox's toolbar, in order: keys 1 … 9, then 0
    name: pygame.K_0 + (k + 1) % 10 for k, name in enumerate(("inspect", "node", "member", "triangle", "support", "force", "erase", "drag", "nail", "bomb"))
}


# ---------------------------------------------------------------------- the structure
@dataclass(frozen=True)
class Lattice:
    """nx × ny cells of CELL metres, the foot at y = CELL above the ground; `nodes[i, j]`
    is the id of the node in column i, row j."""

    nx: int
    ny: int
    nodes: dict[tuple[int, int], str]


def lattice_shape(members: int) -> tuple[int, int]:
    """(nx, ny): about five cells long for each cell high, with about `members` members
    (a cell has two diagonals and shares its sides: m ≈ 4 nx ny + nx + ny)."""
    ny = max(1, round((-6 + math.sqrt(36 + 80 * members)) / 40))
    nx = max(2, round((members - ny) / (4 * ny + 1)))
    return nx, ny


def build_lattice(bench: SandboxBench, members: int, progress: Callable[[int, int], None] | None = None) -> Lattice:
    """Build the lattice with the bench's own edits: nodes row by row, the members of
    each cell, supports along the foot (pins at the ends, rollers between) and a load at
    every other top node. `progress(done, total)` is called before each edit."""
    nx, ny = lattice_shape(members)
    x0 = -0.5 * nx * CELL
    ids: dict[tuple[int, int], str] = {}
    edits: list[Callable[[], object]] = []
    for j in range(ny + 1):
        for i in range(nx + 1):
            edits.append(lambda i=i, j=j: ids.__setitem__((i, j), bench.add_node(x0 + i * CELL, CELL * (j + 1))))
    for j in range(ny + 1):
        for i in range(nx + 1):
            pairs = [((i, j), (i + 1, j))] if i < nx else []
            pairs += [((i, j), (i, j + 1))] if j < ny else []
            pairs += [((i, j), (i + 1, j + 1)), ((i + 1, j), (i, j + 1))] if i < nx and j < ny else []
            edits += [lambda a=a, b=b: bench.add_member(ids[a], ids[b], SECTION) for a, b in pairs]
    feet = sorted({*range(0, nx + 1, SUPPORT_EVERY), nx})
    edits += [lambda i=i: bench.set_support(ids[i, 0], ("x", "y") if i in (0, nx) else ("y",)) for i in feet]
    edits += [lambda i=i: bench.add_force(ids[i, ny], 0.0, -LOAD) for i in range(1, nx, 2)]
    for k, edit in enumerate(edits):
        if progress is not None:
            progress(k, len(edits))
        edit()
    return Lattice(nx, ny, ids)


# ---------------------------------------------------------------------- the player
@dataclass
class Tally:
    actions: Counter = field(default_factory=Counter)  # action → times made
    effects: Counter = field(default_factory=Counter)  # action → times it visibly did what it is for
    refused: Counter = field(default_factory=Counter)  # action → edits the bench refused (with a reason shown)
    edits: int = 0  # accepted changes of the design (undo and redo included)
    unstable: int = 0
    problems: list[str] = field(default_factory=list)  # the first few Unstable explanations
    errors: list[tuple[str, str]] = field(default_factory=list)  # (action, traceback)


class Session:
    """A play scene on a built sandbox, driven by posted input. `gap`: (least, most)
    frames between actions; `hold`: (least, most) frames a drag lasts (slow motion and the
    help a third of that); `strict`: an exception propagates (tests) instead of being
    counted (the soak run)."""

    def __init__(self, bench: SandboxBench, lattice: Lattice, seed: int, *, gap: tuple[int, int] = GAP, hold: tuple[int, int] = HOLD, strict: bool = False):
        if not os.environ.get("EQUILIBRIA_HOME"):  # the scene autosaves, and the player saves: never into the user's folder
            os.environ["EQUILIBRIA_HOME"] = tempfile.mkdtemp(prefix="equilibria-soak-")
        self.app = App(fixed_frame=FRAME)
        stage = Stage.from_level(load_level(bench.design()), sandbox=True)  # as `equilibria sandbox DESIGN` shows it
        self.scene = PlayScene(self.app, stage, bench=bench)
        self.app.push(self.scene)
        self.bench = bench
        self.lattice = lattice
        self.target = len(bench.doc["members"])
        self.loads = len(bench.doc["loads"])
        self.rng = np.random.default_rng(seed)
        self.gap, self.hold = gap, hold
        self.strict = strict
        self.tally = Tally()
        self.frames = 0
        self.simulated = 0.0  # [s] summed over every run the scene made
        self.started = time.perf_counter()
        self.frame()  # lays the screen out
        self.key(pygame.K_SPACE)  # run

    def close(self) -> None:
        self.app.close()

    def members(self) -> int:
        return len(self.bench.doc["members"])

    # ------------------------------------------------------------------ input
    def frame(self, n: int = 1) -> None:
        """Run n frames, adding up the simulated time and counting Unstable runs."""
        for _ in range(n):
            scene = self.scene
            sim, problem = scene.session.sim, scene.session.problem
            before = sim.time if sim is not None else 0.0
            self.app.frame()
            self.frames += 1
            if scene.session.sim is not None:
                self.simulated += max(scene.session.sim.time - (before if scene.session.sim is sim else 0.0), 0.0)
            if scene.session.problem and scene.session.problem != problem:
                self.tally.unstable += 1
                if len(self.tally.problems) < 5:
                    self.tally.problems.append(scene.session.problem)
            if not self.app.running or self.app.scene is not scene:
                self.app.running = True  # put the scene back and go on, but say so
                self.app.scenes[:] = [scene]
                raise RuntimeError("the play scene was left")

    def post(self, kind: int, **fields) -> None:
        pygame.event.post(pygame.event.Event(kind, **fields))

    def key(self, k: int, mod: int = 0) -> None:
        self.post(pygame.KEYDOWN, key=k, mod=mod, unicode="")
        self.frame()

    def move(self, at: tuple[int, int], buttons: tuple[int, int, int] = (0, 0, 0)) -> None:
        self.post(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=buttons)

    def click(self, at: tuple[int, int], to: tuple[int, int] | None = None, button: int = 1) -> None:
        self.move(at)
        self.post(pygame.MOUSEBUTTONDOWN, pos=at, button=button)
        if to is not None:
            self.move(to, (1, 0, 0))
        self.post(pygame.MOUSEBUTTONUP, pos=to or at, button=button)
        self.frame()

    def tool(self, name: str) -> None:
        if self.scene.toolbar.current != name:
            self.key(SANDBOX_KEYS[name])

    def wheel(self, at: tuple[int, int], notches: int) -> None:
        self.move(at)
        self.post(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False, precise_x=0.0, precise_y=float(notches))
        self.frame()

    # ------------------------------------------------------------------ aiming
    def where(self, q: int) -> tuple[float, float]:
        """Node q's world position now (where the scene's picking sees it)."""
        x, y = self.scene.session.sim.state.pos[q, :2]
        return float(x), float(y)

    def aim(self, world: tuple[float, float], want: Callable[[object], bool]) -> tuple[int, int] | None:
        """The screen point of `world`, once a click there picks what `want` accepts:
        the view is fitted when the point is off screen and zoomed in on it when the
        pick is crowded, as a player would. None when it cannot be had."""
        inside = self.scene.layout.world.inflate(-40, -40)
        for _ in range(8):
            x, y = self.scene.view.point(*world)
            if not (math.isfinite(x) and math.isfinite(y)):
                return None
            if not inside.collidepoint(x, y):
                self.key(pygame.K_f)  # fit the view to the structure
                x, y = self.scene.view.point(*world)
                if not inside.collidepoint(x, y):
                    return None
            at = (round(x), round(y))
            if want(self.scene.picture.pick(at)):
                return at
            self.wheel(at, 2)
        return None

    def node(self, q: int | None, tool: str) -> tuple[int, int] | None:
        """Take `tool` and aim at node q."""
        if q is None:
            return None
        self.tool(tool)
        nid = self.scene.session.model.node_ids[q]
        return self.aim(self.where(q), lambda hit: hit is not None and hit.kind == "node" and hit.id == nid)

    def member(self, tool: str) -> tuple[int, int] | None:
        """Take `tool` and aim at the middle of a random member."""
        model = self.scene.session.model
        if model is None or not model.member_ids:
            return None
        self.tool(tool)
        kind, row = model.member_slot[int(self.rng.integers(len(model.member_ids)))]
        i, j = (model.arrays.bar_ij if kind == "bar" else model.arrays.beam_ij)[row]
        (xi, yi), (xj, yj) = self.where(int(i)), self.where(int(j))
        return self.aim((0.5 * (xi + xj), 0.5 * (yi + yj)), lambda hit: hit is not None and hit.kind == "member")

    def random_node(self, free: bool = False) -> int | None:
        """A node of the model (free: one no support holds)."""
        model = self.scene.session.model
        if model is None or model.n_nodes == 0:
            return None
        choices = np.flatnonzero(~model.arrays.fixed[:, :2].any(axis=1)) if free else np.arange(model.n_nodes)
        return int(self.rng.choice(choices)) if len(choices) else None

    # ------------------------------------------------------------------ actions
    def step(self) -> None:
        """Run to the next action (running, unless a problem stopped the run) and make it."""
        self.guard("run", lambda: self.frame(int(self.rng.integers(*self.gap))))
        self.act(self.choose())

    def choose(self) -> str:
        """A random action; half the time a redo follows an undo (any edit between
        would leave nothing to redo); additions and erasures swap where the design would
        leave the band around its starting size, or collect too many loads or plates."""
        if self.bench.history.undone and self.rng.random() < 0.5:
            return "redo"
        name = str(self.rng.choice(NAMES, p=WEIGHTS))
        members = self.members()
        if name in ADDS and members > self.target * (1 + BAND):
            name = "erase_member"
        elif name in ERASES and members < self.target * (1 - BAND):
            name = "add_member"
        if (name == "load" and len(self.bench.doc["loads"]) > self.loads + 10) or (name == "plate" and len(self.bench.doc["triangles"]) >= 4):
            name = "undo"
        return name

    def act(self, name: str) -> None:
        """Make one action, then set the run going again (an edit puts the sandbox back
        to its start, paused; an Unstable run is reset)."""
        revision = self.bench.revision
        self.tally.actions[name] += 1
        did = self.guard(name, getattr(self, f"_{name}"))
        changed = self.bench.revision - revision
        self.tally.edits += changed
        if did or (name in EDITS and changed):
            self.tally.effects[name] += 1
        elif name in EDITS and self.scene.session.notice:
            self.tally.refused[name] += 1
        self.guard("tidy", self._tidy)

    def guard(self, name: str, action: Callable[[], object]) -> object:
        """Run `action`; an exception is counted (or raised, when strict)."""
        try:
            return action()
        except Exception:
            if self.strict:
                raise
            self.tally.errors.append((name, traceback.format_exc()))
            return None

    def _tidy(self) -> None:
        scene = self.scene
        if scene.toolbar.tools["member"].pending or scene.toolbar.tools["force"].node:
            self.click(scene.layout.world.center, button=3)  # drop a half-made member or force
        if scene.help.is_open:
            self.key(pygame.K_F1)
        if scene.session.problem:
            self.key(pygame.K_r)
        if scene.session.paused and scene.session.sim is not None:
            self.key(pygame.K_SPACE)

    # Each action below returns True when it visibly did what it is for (edits of the
    # design are counted by the bench's revision instead).
    def _add_member(self) -> None:
        """Join a node to one within two cells that it is not joined to."""
        q = self.random_node()
        if q is None:
            return
        model = self.scene.session.model
        pos0 = model.arrays.pos0[:, :2]
        joined = {frozenset((m["i"], m["j"])) for m in self.bench.doc["members"]}
        d = np.hypot(*(pos0 - pos0[q]).T)
        near = [p for p in np.flatnonzero((d > 0.1 * CELL) & (d < 2.3 * CELL)) if frozenset((model.node_ids[q], model.node_ids[p])) not in joined]
        a = self.node(q, "member") if near else None
        if a is None:
            return
        self.click(a)
        b = self.node(int(self.rng.choice(near)), "member")
        if b is not None:
            self.click(b)

    def _add_node(self) -> None:
        """A member out of a node into empty space, which puts a node there (snapped)."""
        q = self.random_node()
        a = self.node(q, "member")
        if a is None:
            return
        self.click(a)
        angle = self.rng.uniform(0, 2 * math.pi)
        x, y = self.where(q)
        at = self.aim((x + 1.3 * CELL * math.cos(angle), y + 1.3 * CELL * math.sin(angle)), lambda hit: hit is None)
        if at is not None:
            self.click(at)

    def _free_node(self) -> None:
        """A node on its own (the node tool), somewhere near the structure."""
        q = self.random_node()
        if q is None:
            return
        self.tool("node")
        x, y = self.where(q)
        at = self.aim((x + self.rng.uniform(-2, 2), y + self.rng.uniform(0, 2)), lambda hit: True)
        if at is not None:
            self.click(at)

    def _erase_member(self) -> None:
        at = self.member("erase")
        if at is not None:
            self.click(at)

    def _erase_node(self) -> None:
        at = self.node(self.random_node(), "erase")
        if at is not None:
            self.click(at)

    def _plate(self) -> None:
        """A plate over the lower half of a lattice cell whose corners are all there."""
        i, j = int(self.rng.integers(self.lattice.nx)), int(self.rng.integers(self.lattice.ny))
        corners = [self.lattice.nodes[c] for c in ((i, j), (i + 1, j), (i, j + 1))]
        model = self.scene.session.model
        if model is None or any(c not in model.node_ids for c in corners):
            return
        for c in corners:
            at = self.node(model.node_index(c), "triangle")
            if at is None:
                return
            self.click(at)

    def _support(self) -> None:
        at = self.node(self.random_node(), "support")
        if at is not None:
            self.click(at)

    def _load(self) -> None:
        at = self.node(self.random_node(), "force")
        if at is not None:
            dx, dy = (round(v) for v in self.rng.uniform(-150, 150, 2))
            self.click(at, to=(at[0] + dx, at[1] + dy))

    def _undo(self) -> None:
        for _ in range(int(self.rng.integers(1, 4))):
            self.key(pygame.K_z, pygame.KMOD_CTRL)

    def _redo(self) -> None:
        for _ in range(int(self.rng.integers(1, 4))):
            self.key(*((pygame.K_y, pygame.KMOD_CTRL) if self.rng.random() < 0.5 else (pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)))

    def _drag(self) -> bool:
        """Pull a free node round a loop on the hand's spring for a while (HOLD)."""
        q = self.random_node(free=True)
        at = self.node(q, "drag")
        if at is None:
            return False
        self.move(at)
        self.post(pygame.MOUSEBUTTONDOWN, pos=at, button=1)
        self.frame()
        held = self.scene.session.hand == q
        radius, turn = self.rng.uniform(20, 120), self.rng.choice((-1, 1))
        frames = int(self.rng.integers(*self.hold))
        for f in range(frames):
            angle = turn * 2 * math.pi * f / frames
            self.move((round(at[0] + radius * math.sin(angle)), round(at[1] - radius * (1 - math.cos(angle)))), (1, 0, 0))
            self.frame()
        self.post(pygame.MOUSEBUTTONUP, pos=at, button=1)
        self.frame()
        return held and self.scene.session.hand is None

    def _nail(self) -> bool:
        """Nail a node, or pull a nail out of one."""
        sim = self.scene.session.sim
        nails = sorted(sim.nails) if sim is not None else []
        q = int(self.rng.choice(nails)) if nails and self.rng.random() < 0.5 else self.random_node(free=True)
        at = self.node(q, "nail")
        if at is None:
            return False
        self.click(at)
        return self.scene.session.sim is sim and self.scene.session.sim.nails != frozenset(nails)

    def _bomb(self) -> bool:
        sim = self.scene.session.sim
        at = self.member("bomb")
        if at is None:
            return False
        on = int(sim.state.member_on.sum())
        self.click(at)
        return self.scene.session.sim is sim and int(sim.state.member_on.sum()) == on - 1

    def _reset(self) -> bool:
        self.key(pygame.K_r)
        return self.scene.session.sim is not None and self.scene.session.sim.time == 0.0

    def _magnify(self) -> bool:
        before = self.scene.picture.magnify
        self.key(pygame.K_m)
        return self.scene.picture.magnify != before

    def _follow(self) -> bool:
        """Inspect a node or a member and add it to the graph; now and then plot
        against the first, or hide and show the graph."""
        at = self.node(self.random_node(), "inspect") if self.rng.random() < 0.5 else self.member("inspect")
        if at is None:
            return False
        self.click(at)
        self.key(pygame.K_a)
        graphed = self.scene.session.notice.startswith("Graphing")
        extra = self.rng.random()
        if extra < 0.2:
            self.key(pygame.K_x)
        elif extra < 0.4:
            self.key(pygame.K_g)
        return graphed

    def _view(self) -> bool:
        """Zoom about a point, pan with the arrows or the middle button, or fit."""
        world, before = self.scene.layout.world, self.scene.view
        what = self.rng.integers(4)
        if what == 0:
            at = (int(self.rng.integers(world.left, world.right)), int(self.rng.integers(world.top, world.bottom)))
            self.wheel(at, int(self.rng.choice((-2, -1, 1, 2))))
        elif what == 1:
            self.key(int(self.rng.choice(list(PAN_KEYS))))
        elif what == 2:
            self.post(pygame.MOUSEMOTION, pos=world.center, rel=(int(self.rng.integers(-80, 80)), int(self.rng.integers(-80, 80))), buttons=(0, 1, 0))
            self.frame()
        else:
            self.key(pygame.K_f)
        return self.scene.view != before or what == 3

    def _toggle(self) -> bool:
        """The HUD, the values, the help (shown for a while), the check key (nothing to
        check in a sandbox), the section for new members."""
        scene = self.scene
        k = int(self.rng.choice((pygame.K_h, pygame.K_v, pygame.K_F1, pygame.K_c, pygame.K_TAB)))
        before = (scene.hud.is_open, scene.picture.values, scene.help.is_open, scene.session.notice, scene.session.section)
        self.key(k)
        after = (scene.hud.is_open, scene.picture.values, scene.help.is_open, scene.session.notice, scene.session.section)
        if k == pygame.K_F1:
            self.frame(int(self.rng.integers(*self.hold)) // 3)
            self.key(pygame.K_F1)
        return after != before

    def _speed(self) -> bool:
        """Slow motion (or fast) for a while, then real speed again."""
        slower = self.rng.random() < 0.5
        notches = int(self.rng.integers(1, 3))
        for _ in range(notches):
            self.key(pygame.K_LEFTBRACKET if slower else pygame.K_RIGHTBRACKET)
        changed = self.scene.session.pacer.speed != 1.0
        self.frame(int(self.rng.integers(*self.hold)) // 3)
        for _ in range(notches):
            self.key(pygame.K_RIGHTBRACKET if slower else pygame.K_LEFTBRACKET)
        return changed and self.scene.session.pacer.speed == 1.0

    def _pause(self) -> bool:
        """Pause, step a few frames with '.', run on."""
        self.key(pygame.K_SPACE)
        paused = self.scene.session.paused
        for _ in range(int(self.rng.integers(1, 4))):
            self.key(pygame.K_PERIOD)
        return paused and self.scene.session.paused

    def _save(self) -> bool:
        """Ctrl+S (a design file), F12 (a screenshot) or E (the graph as CSV and PNG)."""
        self.key(*((pygame.K_s, pygame.KMOD_CTRL), (pygame.K_F12, 0), (pygame.K_e, 0))[int(self.rng.integers(3))])
        return self.scene.session.notice.startswith(("Saved", "Screenshot saved"))


ACTIONS = {  # name: weight
    "add_member": 10,
    "erase_member": 10,
    "add_node": 3,
    "free_node": 1,
    "erase_node": 2,
    "plate": 1,
    "support": 3,
    "load": 3,
    "undo": 5,
    "redo": 4,
    "drag": 4,
    "nail": 3,
    "bomb": 3,
    "reset": 2,
    "magnify": 2,
    "follow": 2,
    "view": 3,
    "toggle": 2,
    "speed": 1,
    "pause": 1,
    "save": 1,
}
NAMES = list(ACTIONS)
WEIGHTS = np.array(list(ACTIONS.values()), dtype=float) / sum(ACTIONS.values())
ADDS = ("add_member", "add_node", "free_node", "plate")
ERASES = ("erase_member", "erase_node")
EDITS = (*ADDS, *ERASES, "support", "load", "undo", "redo")
PAN_KEYS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN)


# ---------------------------------------------------------------------- measuring
def rss_bytes() -> int:
    """The process's resident set now (Linux), or its peak where /proc is missing."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


@dataclass(frozen=True)
class Sample:
    sim: float  # [s] simulated time, summed over every run the scene made
    wall: float  # [s] since the session opened
    frames: int
    rss: float  # [MB]
    traced: float  # [MB] the traced heap (0 when tracemalloc is off)
    rate: float  # simulated s per wall s since the previous sample
    members: int
    actions: int
    edits: int
    unstable: int


def sample(session: Session, previous: Sample | None) -> Sample:
    """Memory and progress now, after a full garbage collection."""
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] / MB if tracemalloc.is_tracing() else 0.0
    wall, sim = time.perf_counter() - session.started, session.simulated
    then = previous or Sample(0.0, 0.0, 0, 0.0, 0.0, 0.0, 0, 0, 0, 0)
    rate = (sim - then.sim) / (wall - then.wall) if wall > then.wall else 0.0
    t = session.tally
    return Sample(sim, wall, session.frames, rss_bytes() / MB, traced, rate, session.members(), sum(t.actions.values()), t.edits, t.unstable)


HEADER = f"{'sim s':>7} {'wall s':>7} {'frames':>7} {'RSS MB':>7} {'traced MB':>9} {'real time':>9} {'members':>7} {'actions':>7} {'edits':>6} {'unstable':>8}"


def row(s: Sample) -> str:
    return f"{s.sim:7.1f} {s.wall:7.1f} {s.frames:7d} {s.rss:7.1f} {s.traced:9.2f} {s.rate:8.2f}× {s.members:7d} {s.actions:7d} {s.edits:6d} {s.unstable:8d}"


@dataclass
class Run:
    """The samples of a soak; `base` indexes the one at a third of the run; `growth`
    holds the lines of code whose traced heap grew most from there to the end."""

    samples: list[Sample]
    base: int = 0
    growth: list[str] = field(default_factory=list)


def soak(session: Session, seconds: float, samples: int = SAMPLES, report: Callable[[Sample], None] | None = None) -> Run:
    """Run for `seconds` of simulated time with actions at random intervals, sampling
    memory `samples` times (and once at the start)."""
    run = Run([sample(session, None)])
    if report is not None:
        report(run.samples[-1])
    every, snapshot = seconds / samples, None
    while session.simulated < seconds:
        session.step()
        if session.simulated >= run.samples[-1].sim + every or session.simulated >= seconds:
            base = not run.base and session.simulated >= seconds / 3
            if base and tracemalloc.is_tracing():
                snapshot = tracemalloc.take_snapshot()  # before the sample: the RSS it takes is in the base
            run.samples.append(sample(session, run.samples[-1]))
            if report is not None:
                report(run.samples[-1])
            if base:
                run.base = len(run.samples) - 1
    if snapshot is not None:
        gc.collect()
        grown = [d for d in tracemalloc.take_snapshot().compare_to(snapshot, "lineno") if d.size_diff > 0]
        run.growth = [str(d) for d in grown[:8]]
    return run


@dataclass(frozen=True)
class Verdict:
    flat: bool
    lines: list[str]


def verdict(run: Run) -> Verdict:
    """Flat when the growth from the sample at a third of the run to the last stays
    within the thresholds of the module's docstring."""
    base, end = run.samples[run.base], run.samples[-1]
    frames, edits = max(end.frames - base.frames, 1), max(end.edits - base.edits, 1)
    hours = (end.sim - base.sim) / 3600
    tracing = base.traced > 0
    traced_limit, rss_limit = TRACED_SHARE * base.traced + TRACED_FLOOR, RSS_SHARE * base.rss + RSS_FLOOR
    flat = (not tracing or end.traced - base.traced <= traced_limit) and end.rss - base.rss <= rss_limit

    def growth(what: str, a: float, b: float, limit: float, share: float, floor: float) -> str:
        return f"  {what:11s} {a:7.1f} → {b:7.1f} MB: {b - a:+6.2f} MB (flat: ≤ {limit:.1f} MB, {share:.0%} + {floor:g} MB)"

    lines = [f"memory from t = {base.sim:.0f} s (a third of the run) to t = {end.sim:.0f} s, {frames} frames and {end.edits - base.edits} edits later:"]
    if tracing:
        lines.append(growth("traced heap", base.traced, end.traced, traced_limit, TRACED_SHARE, TRACED_FLOOR))
    lines.append(growth("RSS", base.rss, end.rss, rss_limit, RSS_SHARE, RSS_FLOOR))
    limit, what = (traced_limit, "heap") if tracing else (rss_limit, "RSS")
    per_hour = f", {limit / hours:,.0f} MB an hour of play" if hours > 0 else ""
    lines.append(f"  a leak this run would miss: under {limit * MB / frames:,.0f} B of {what} a frame or {limit * MB / edits:,.0f} B an edit{per_hour}")
    if run.growth:
        lines += ["  most heap growth by line since then:", *(f"    {g}" for g in run.growth)]
    lines.append(f"verdict: {'FLAT' if flat else 'GROWING'}")
    return Verdict(flat, lines)


# ---------------------------------------------------------------------- the run
def settle(bench: SandboxBench, lattice: Lattice, edits: int = UNDO_DEPTH + 2) -> None:
    """Pin and free a top corner of the lattice, `edits` edits in all (an even number
    leaves the design as it was), so that the undo history holds designs of the full size
    (the build's last snapshots are smaller ones) made after tracemalloc started."""
    corner = lattice.nodes[0, lattice.ny]
    for k in range(edits):
        bench.set_support(corner, ("x", "y") if k % 2 == 0 else None)


def prepare(members: int, seed: int, *, trace: bool = True, quiet: bool = True, **options) -> Session:
    """Build the lattice through a sandbox bench, settle its undo history (tracemalloc
    on from there, when `trace`) and open it in a play scene (`options` as for Session)."""
    bench = SandboxBench()
    shown = [-1]

    def progress(done: int, total: int) -> None:
        tenth = 10 * done // total
        if not quiet and tenth != shown[0]:
            shown[0] = tenth
            print(f"  building: {done} of {total} edits", flush=True)

    lattice = build_lattice(bench, members, progress)
    if trace:
        tracemalloc.start()
    if not quiet:
        print(f"  settling the undo history: {UNDO_DEPTH + 2} edits", flush=True)
    settle(bench, lattice)
    return Session(bench, lattice, seed, **options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Soak run: a large sandbox with random edits for many simulated minutes, memory measured (see the docstring).")
    parser.add_argument("--minutes", type=float, default=10.0, help="simulated minutes to run (default 10)")
    parser.add_argument("--members", type=int, default=1000, help="members of the lattice (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random player (default 1)")
    parser.add_argument("--no-trace", action="store_true", help="measure the RSS only, without tracemalloc (several times faster)")
    args = parser.parse_args(argv)
    if not (args.minutes > 0 and args.members >= 20):
        parser.error("--minutes must be positive and --members at least 20")
    with tempfile.TemporaryDirectory(prefix="equilibria-soak-") as home:
        os.environ["EQUILIBRIA_HOME"] = home  # saves go here, never to the player's folder
        nx, ny = lattice_shape(args.members)
        print(f"soak: {args.minutes:g} simulated minutes, seed {args.seed}, a lattice of {nx} × {ny} cells built by SandboxBench edits")
        start = time.perf_counter()
        session = prepare(args.members, args.seed, trace=not args.no_trace, quiet=False)
        model = session.scene.session.model
        print(
            f"built in {time.perf_counter() - start:.0f} s: {model.n_nodes} nodes, {len(model.member_ids)} members; "
            f"RK4 step {session.scene.session.sim.dt * 1e6:.0f} µs, frame 1/60 s; tracemalloc {'on' if tracemalloc.is_tracing() else 'off'}"
        )
        print(HEADER)
        try:
            run = soak(session, 60 * args.minutes, report=lambda s: print(row(s), flush=True))
        finally:
            session.close()
    t = session.tally
    print()
    print("actions (visibly done / made): " + ", ".join(f"{name} {t.effects[name]}/{n}" for name, n in t.actions.most_common()))
    print(f"edits accepted: {t.edits}; refused with a reason: {sum(t.refused.values())} ({', '.join(f'{k} {n}' for k, n in t.refused.items()) or 'none'})")
    print(f"unstable runs (paused, explained, reset): {t.unstable}")
    for problem in t.problems:
        print(f"  {problem}")
    print(f"exceptions: {len(t.errors)}")
    for name, text in t.errors[:5]:
        print(f"--- during {name}:\n{text}")
    result = verdict(run)
    print("\n".join(result.lines))
    return 0 if result.flat and not t.errors else 1


if __name__ == "__main__":
    sys.exit(main())
