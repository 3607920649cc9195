"""What every judge shares: the verdict, running a model from rest, the words for
forces, directions and the free motion of a mechanism."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from engine import Model, Simulation, Unstable, build_model
from engine.linear import Mechanism
from game.level import Level

IMPERFECTION = 1e-5  # node jitter, as a fraction of the size, so that instability shows
MOTION_TOL = 1e-3  # a node moves in a mode when its motion passes this fraction of the largest


@dataclass(frozen=True)
class Verdict:
    """`passed`, a `reason` a student understands, and the figures behind it (JSON).
    `sim` is the simulation as the check left it, for the game to show what happened."""

    passed: bool
    reason: str
    figures: dict = field(default_factory=dict)
    sim: Simulation | None = field(default=None, compare=False, repr=False)

    def as_dict(self) -> dict:
        """For JSON: a non-finite figure (a run that blew up moved 'infinitely') is null."""
        return _finite({"passed": self.passed, "reason": self.reason, **self.figures})


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def kn(x: float) -> str:
    return f"{x / 1e3:.3g} kN"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def hold_time(level: Level) -> float:
    return level.goal.hold if level.goal else 3.0


def limit(level: Level, size: float) -> float:
    """Largest node displacement that still counts as staying put [m]."""
    goal = level.goal
    return goal.max_displacement if goal and goal.max_displacement else 0.01 * size


def jittered(sim: Simulation, amount: float) -> None:
    """Move the free nodes by a seeded random fraction `amount` of the size, so that an
    unstable equilibrium shows itself (the same jitter every run: verdicts repeat)."""
    model = sim.model
    rng = np.random.default_rng(12345)
    free = ~model.arrays.fixed[:, :2]
    sim.state.pos[:, :2] += np.where(free, rng.uniform(-1, 1, free.shape) * amount * model.char_length, 0.0)


def run(data: dict, seconds: float, *, jitter: float = 0.0, removed: tuple[str, ...] = ()) -> tuple[Simulation, float]:
    """Run a model for `seconds` from rest (RK4); returns the simulation and the
    largest node displacement seen [m] (infinite if it blew up)."""
    model = build_model(data)
    sim = Simulation(model, "rk4")
    for mid in removed:
        kind, row = model.member_slot[model.member_index(mid)]
        (sim.state.bar_on if kind == "bar" else sim.state.beam_on)[row] = False
    if jitter:
        jittered(sim, jitter)
    pos0 = model.arrays.pos0[:, :2]
    worst = 0.0
    try:
        for _ in range(max(1, round(seconds / 0.02))):
            sim.advance(0.02)
            worst = max(worst, float(np.hypot(*(sim.state.pos[:, :2] - pos0).T).max()))
    except Unstable:
        worst = math.inf
    return sim, worst


def direction(angle: float) -> str:
    """A direction in words for an angle in degrees, counter-clockwise from +x."""
    words = ("right", "up and right", "up", "up and left", "left", "down and left", "down", "down and right")
    return words[round(angle / 45.0) % 8]


def _line(angle: float) -> str:
    """A line of motion in words (either sense), for an angle in degrees."""
    a = angle % 180.0
    if min(a, 180.0 - a) < 10.0:
        return "sideways"
    if abs(a - 90.0) < 10.0:
        return "up and down"
    return f"along a line at {a:.0f}° to the horizontal"


def describe_motion(model: Model, free: Mechanism) -> str:
    """A mechanism's free motion in words: which nodes move and how (slide, turn about
    a point, or move on their own). The translations are fitted with a rigid motion
    u = t + ω ẑ × r, first over the moving nodes and the nodes they are joined to (a
    part turning about a support), then over the moving nodes alone (a part sliding or
    turning about its instant centre p = (−t_y/ω, t_x/ω))."""
    mode = free.mode
    moving = free.moving(MOTION_TOL)
    names = [model.node_ids[q] for q in moving]
    who = "the whole structure" if len(names) == model.n_nodes else _listing(names)
    together = "" if who == "the whole structure" or len(names) == 1 else " together"
    if _unheld(model, moving):
        one = len(names) == 1 or who == "the whole structure"
        return f"nothing holds {who}: no support touches {'it' if one else 'them'}, so {'it' if one else 'they'} can slide and turn freely"
    scale = float(np.abs(mode[moving, :2]).max())
    if scale < MOTION_TOL * float(np.abs(mode).max()):
        return f"{who} can spin freely (nothing stops {'its' if len(names) == 1 else 'their'} rotation)"
    for nodes in (_with_neighbours(model, moving), moving):
        fit = _rigid_fit(model.arrays.pos0[nodes, :2], mode[nodes, :2], scale)
        if fit is None:
            continue
        tx, ty, omega = fit
        if abs(omega) * model.char_length < 1e-3 * math.hypot(tx, ty):
            return f"{who} can slide {_line(math.degrees(math.atan2(ty, tx)))}{together}"
        centre = np.array([-ty / omega, tx / omega])
        pos = model.arrays.pos0[:, :2]
        near = int(np.argmin(np.hypot(*(pos - centre).T)))
        if math.dist(pos[near], centre) < 0.02 * model.char_length:
            return f"{who} can turn{together} about node {model.node_ids[near]}"
        return f"{who} can turn{together} about the point ({centre[0]:.3g} m, {centre[1]:.3g} m)"
    u = mode[moving, :2]
    q = int(np.argmax(np.hypot(*u.T)))
    return f"{who} can move without stretching any member ({names[q]} {_line(math.degrees(math.atan2(u[q, 1], u[q, 0])))})"


def _pairs(model: Model) -> np.ndarray:
    """(P, 2) the node pairs the elements join."""
    m = model.arrays
    return np.concatenate([m.bar_ij, m.beam_ij, m.tri_ijk[:, [0, 1]], m.tri_ijk[:, [1, 2]], m.tri_ijk[:, [2, 0]]]).astype(np.int64)


def _unheld(model: Model, nodes: np.ndarray) -> bool:
    """Whether the parts of the structure `nodes` belong to (all the nodes joined to
    them, however far) have no support at all: they float."""
    pairs = _pairs(model)
    n = model.n_nodes
    graph = sp.coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    _, part = connected_components(graph, directed=False)
    return not model.arrays.fixed[np.isin(part, part[nodes]), :2].any()  # a rotation without a beam is locked, not held


def _with_neighbours(model: Model, nodes: np.ndarray) -> np.ndarray:
    pairs = _pairs(model)
    touching = np.isin(pairs, nodes).any(axis=1)
    return np.union1d(nodes, pairs[touching].ravel())


def _rigid_fit(r: np.ndarray, u: np.ndarray, scale: float) -> tuple[float, float, float] | None:
    """(t_x, t_y, ω) of the rigid motion that gives translations u at points r, or None
    if u is not rigid there or the points (fewer than two apart) cannot tell."""
    if len(r) < 2 or np.ptp(r, axis=0).max() == 0.0:
        return None
    rows = np.zeros((2 * len(r), 3))
    rows[0::2, 0] = 1.0
    rows[1::2, 1] = 1.0
    rows[0::2, 2] = -r[:, 1]
    rows[1::2, 2] = r[:, 0]
    fit, *_ = np.linalg.lstsq(rows, u.ravel(), rcond=None)
    if np.abs(rows @ fit - u.ravel()).max() > 1e-6 * scale:
        return None
    return float(fit[0]), float(fit[1]), float(fit[2])


def _listing(names: list[str]) -> str:
    if len(names) == 1:
        return f"node {names[0]}"
    return "nodes " + ", ".join(names[:-1]) + f" and {names[-1]}"
