"""The unique answer of a free-body level, from the level's own numbers, and what each cut
carries (`carried`, `cut_words`: the one home of a cut's unknowns, which the judge in
game/rules/free_body.py and the picture of the cuts read).

Each cut gives the unknowns it carries (`unknowns`):

    a cut bar (a two-force member)        N, its force along the member, tension positive
                                          (at the cut it pulls away from the body kept)
    a cut with `along` (a roller on an    R, its force along `along` (positive the way
    incline, a pin of a two-force member) `along` points: toward the body)
    any other cut                         Fx and Fy where it carries x and y, and M
                                          (counter-clockwise positive) where it carries rot

and the freed body's equilibrium gives three equations, with the loads as the engine
applies them (equilibria.engine.linear.load_vector, as the judge takes them; a distributed load's
equivalent nodal forces and end moments included):

    ΣFx = 0,   ΣFy = 0,   ΣM_P = Σ (x − x_P)·fy − (y − y_P)·fx + Σ m = 0

Written A·u = −b (A: 3 × n, each column an unknown's unit contribution; b: the loads'
resultant), the answer is unique when A has rank n (the cuts are statically determinate:
n ≤ 3 and no unknown is a combination of the others) and the loads can be balanced
(the residual of the least-squares solution vanishes). Otherwise there is no unique
answer and `solve_cuts` says None. No pygame here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from equilibria.engine.determinacy import hinge_parts
from equilibria.engine.linear import load_vector
from equilibria.engine.model import Model, build_model
from equilibria.engine.words import Words
from equilibria.format.schema import BaseLevel as Level
from equilibria.format.schema import Cut
from equilibria.format.solution import AddForce, AddMoment
from equilibria.words.i18n import N_, _

CONSISTENT = 1e-9  # a least-squares residual below this fraction of the loads is round-off


CARRIES = {"pin": ("x", "y"), "beam": ("x", "y", "rot"), "bar": ("x", "y")}  # a bar's force: along it


def carried(cut: Cut) -> tuple[str, ...]:
    """What a cut transmits: "x", "y" (force components) and "rot" (a moment)."""
    return tuple(cut.carries) if cut.carries else CARRIES.get(cut.what, ())


def cut_phrase(cut: Cut) -> Words:
    """The cut in a student's words, translatable: 'the roller at B', 'the cut bar CD at S1'."""
    if cut.what == "support":
        fix = set(carried(cut))
        if "rot" in fix:
            return Words(N_("the fixed support at {node}"), {"node": cut.node})
        if fix == {"x", "y"} and cut.along is None:  # a pin support: "the pin", as the cut pin of a frame (one text)
            return Words(N_("the pin at {node}"), {"node": cut.node})
        return Words(N_("the roller at {node}"), {"node": cut.node})
    if cut.what == "bar":
        return Words(N_("the cut bar {member} at {node}"), {"member": cut.member, "node": cut.node})
    if cut.what == "beam":
        return Words(N_("the beam cut at {node}"), {"node": cut.node})
    return Words(N_("the pin at {node}"), {"node": cut.node})


def cut_words(cut: Cut, *, capital: bool = False) -> str:
    """The cut in the student's language ('the roller at B'); `capital`: to begin a sentence."""
    words = cut_phrase(cut).said(_)
    return words[:1].upper() + words[1:] if capital else words


@dataclass(frozen=True)
class Unknown:
    """One unknown of a cut: at `node`, a force along the unit vector `direction`
    (`moment` False), or a moment (`moment` True, direction unused); `phrase` names it for
    a student ("the x part of the force at A", "the force in bar CD at S1"): `words` in
    English (the figures of `check --json`), `said()` in the student's language."""

    node: str
    direction: tuple[float, float]
    moment: bool
    phrase: Words

    @property
    def words(self) -> str:
        return self.phrase.said()

    def said(self) -> str:
        return self.phrase.said(_)

    def value(self, fx: float, fy: float, m: float) -> float:
        """This unknown's value in a force (fx, fy) [N] and a moment m [N m] at its node."""
        return m if self.moment else fx * self.direction[0] + fy * self.direction[1]


def unit(v) -> tuple[float, float]:
    n = math.hypot(v[0], v[1])
    return (float(v[0]) / n, float(v[1]) / n)


def unknowns(level: Level) -> list[Unknown]:
    """The unknowns of every cut of `level`, in the order of its cuts (see the module)."""
    where = {n.id: (n.x, n.y) for n in level.nodes}
    out: list[Unknown] = []
    for cut in level.cut or []:
        out += _cut_unknowns(level, cut, where, carried(cut), cut_phrase(cut))
    return out


def _cut_unknowns(level: Level, cut: Cut, where: dict, carries: tuple[str, ...], words: Words) -> list[Unknown]:
    if cut.what == "bar":
        member = next(m for m in level.members if m.id == cut.member)
        other = member.j if member.i == cut.node else member.i
        u = unit(np.subtract(where[cut.node], where[other]))
        said = (
            N_("the force in cable {member} at {node}") if member.kind == "cable" else N_("the force in bar {member} at {node}")
        )  # a cable is no bar to the student
        return [Unknown(cut.node, u, False, Words(said, {"member": cut.member, "node": cut.node}))]
    if cut.along is not None:
        return [Unknown(cut.node, unit(cut.along), False, Words(N_("the force of {cut}"), {"cut": words}))]
    out = []
    if "x" in carries:
        out.append(Unknown(cut.node, (1.0, 0.0), False, Words(N_("the x part of the force of {cut}"), {"cut": words})))
    if "y" in carries:
        out.append(Unknown(cut.node, (0.0, 1.0), False, Words(N_("the y part of the force of {cut}"), {"cut": words})))
    if "rot" in carries:
        out.append(Unknown(cut.node, (0.0, 0.0), True, Words(N_("the moment of {cut}"), {"cut": words})))
    return out


def columns(model: Model, items: list[Unknown], p: int) -> np.ndarray:
    """A (3, n): unknown k's unit contribution to (ΣFx, ΣFy, ΣM about node p)."""
    pos = model.arrays.pos0[:, :2]
    a = np.zeros((3, len(items)))
    for k, u in enumerate(items):
        if u.moment:
            a[2, k] = 1.0
            continue
        dx, dy = pos[model.node_index(u.node)] - pos[p]
        a[0, k], a[1, k] = u.direction
        a[2, k] = dx * u.direction[1] - dy * u.direction[0]
    return a


def resultant(model: Model, p: int, part: np.ndarray | None = None) -> np.ndarray:
    """(ΣFx, ΣFy, ΣM about node p) [N, N, N m] of the model's loads as the engine applies
    them (on the nodes `part` (N,) bool only, if given)."""
    f = load_vector(model, model.load_end_time)
    if part is not None:
        f = np.where(part[:, None], f, 0.0)
    d = model.arrays.pos0[:, :2] - model.arrays.pos0[p, :2]
    return np.array([f[:, 0].sum(), f[:, 1].sum(), (d[:, 0] * f[:, 1] - d[:, 1] * f[:, 0]).sum() + f[:, 2].sum()])


def solve_values(level: Level) -> list[tuple[Unknown, float]] | None:
    """Each unknown of the level's cuts with its value [N or N m], or None when the cuts are
    not statically determinate or the loads cannot be balanced by them."""
    items = unknowns(level)
    model = build_model(level.model_data(), statics_only=True) if items else None
    hinges = hinge_parts(model) if model is not None else []  # a hinge inside the body: one more equation per part
    if not items or len(items) > 3 + len(hinges):
        return None
    p = 0
    a, b = columns(model, items, p), resultant(model, p)
    for h, part in hinges:  # the moment about h of the forces on the part is zero
        inside = np.array([part[model.node_index(u.node)] for u in items])
        a = np.vstack((a, columns(model, items, h)[2] * inside))
        b = np.append(b, resultant(model, h, part)[2])
    if np.linalg.matrix_rank(a) < len(items):
        return None
    u, *_ = np.linalg.lstsq(a, -b, rcond=None)
    scale = max(float(np.abs(b).max()), 1.0)
    if float(np.abs(a @ u + b).max()) > CONSISTENT * scale * max(1.0, model.char_length):
        return None
    return [(item, float(v)) for item, v in zip(items, u, strict=True)]


def solve_cuts(level: Level) -> list[AddForce | AddMoment] | None:
    """The level's unique answer as moves: one force at each cut's node (its components
    summed), and a moment where a cut carries one; None when there is no unique answer
    (see the module's docstring)."""
    solved = solve_values(level)
    if solved is None:
        return None
    return moves_giving(level, solved, [v for _u, v in solved])


def moves_giving(level: Level, solved: list[tuple[Unknown, float]], values: list[float]) -> list[AddForce | AddMoment]:
    """The moves that give each unknown of `solved` its value in `values` [N or N m]:
    one force at each cut's node (its components summed), in the order of the cuts, and a
    moment where a cut carries one."""
    forces: dict[str, list[float]] = {}
    moments: dict[str, float] = {}
    for (item, _answer), v in zip(solved, values, strict=True):
        if item.moment:
            moments[item.node] = moments.get(item.node, 0.0) + v
        else:
            f = forces.setdefault(item.node, [0.0, 0.0])
            f[0] += v * item.direction[0]
            f[1] += v * item.direction[1]
    moves: list[AddForce | AddMoment] = []
    for cut in level.cut or []:
        if cut.node in forces:
            fx, fy = forces.pop(cut.node)
            moves.append(AddForce(type="add_force", node=cut.node, fx=_clean(fx), fy=_clean(fy)))
    moves += [AddMoment(type="add_moment", node=n, m=_clean(m)) for n, m in moments.items()]
    return moves


def _clean(x: float) -> float:
    """Round-off below a micro-newton shown as 0, not −1e-13."""
    return 0.0 if abs(x) < 1e-6 else x
