"""The equilibrium sums of a body, how close to zero counts, and the words for what is off:
one home for the balance and free-body judges (balance.py, free_body.py).

The sums. The loads and the student's forces as the engine applies them
(equilibria.engine.linear.load_vector), about a node P of the body:

    ΣFx = Σ fx,   ΣFy = Σ fy,   ΣM_P = Σ (x − x_P)·fy − (y − y_P)·fx + Σ m

How close to zero counts (where the answer is not unique: a balance level, a free body
whose cuts are not statically determinate). Each sum is judged against the forces that
make it up, not against the body's size: with τ = `goal.tolerance` (default 2 %),

    |ΣFx| ≤ max(τ · ½ Σ|fx|,  φ·F)
    |ΣFy| ≤ max(τ · ½ Σ|fy|,  φ·F)
    |ΣM_P| ≤ max(τ · ½ Σ(|x − x_P|·|fy| + |y − y_P|·|fx| + |m|),  φ·F·ℓ)

½ Σ|fx| is, for a balanced body, the force pushing each way (to the right as much as to
the left), and ½ Σ(...) the moment turning each way, counted component by component: so
a force off by 2 % of itself, or a lever arm off by 2 % of itself, is at the edge, and a
lever arm misread (a ladder's length for its height: 10 % off) or a moment taken as force ×
distance for an inclined force is far outside, however big the body is. The floor φ·F
(φ = 1 %, F the largest given load) is for a sum with nothing in it (all forces vertical:
Σ|fx| = 0); ℓ, its lever arm, is the shortest distance between two nodes of the body (the
smallest lever arm the body offers), so the floor never scales with the body's size.

Significant figures: a force typed to three significant figures is off by at most 0.5 % of
each component, so each sum by at most 0.5 % of Σ|…| = 1 % of ½ Σ|…|: within τ = 2 %,
always. Two significant figures (up to 5 % off) pass only where the rounding happens to be
small.
"""

from __future__ import annotations

import math

import numpy as np

from equilibria.engine import histories
from equilibria.engine.linear import load_vector, nodal_loads
from equilibria.engine.model import Model, build_model
from equilibria.format.schema import BaseLevel as Level
from equilibria.rules.common import direction, listing
from equilibria.words.i18n import _

DEFAULT_TOLERANCE = 0.02  # τ: of each sum's own forces, or of each unknown (free_body.py)
FLOOR = 0.01  # φ: of the largest given load, for a sum with nothing in it (and a force its cut cannot give)
# φᵤ: of the largest given load, for an unknown near zero (free_body.py, section.py). An
# unknown passes within max(τ·|answer|, φᵤ·F): so every unknown of at least φᵤ/τ = 5 % of
# the largest load is judged within τ of its own value exactly, and only a smaller one
# (an answer of zero above all: a vertical load's x reaction) within φᵤ·F, which is 0.1 %
# of F: finer than F typed to three significant figures, so it is never a way to pass a
# real unknown loosely (at φ = 1 % a 3 kN unknown beside a 10 kN load passed 3.3 % off).
UNKNOWN_FLOOR = 0.001
SUMS = ("fx", "fy", "m")
SUM_NAMES = {"fx": "ΣFx", "fy": "ΣFy", "m": "ΣM"}


# What a failed check of a body held by the student's forces (or of a section's forces)
# may print for a student (Kind.figures_before_pass): the words' facts, not one figure
# that follows from the unknowns (no residual ΣF or ΣM, no tolerance bound made of the
# sums' sizes, no drift of the body, no force a contact or a member carries).
SHOWN_BEFORE_PASS = frozenset(
    {"moment_about", "judged", "unknowns", "off", "hinges", "hold", "limit", "tolerance", "forces", "too_big", "hint"}
    | {"cut", "section", "parts", "look_about", "look_for"}  # a section's
)


def tolerance_of(level: Level) -> float:
    """τ: `goal.tolerance`, else DEFAULT_TOLERANCE."""
    return level.goal.tolerance if level.goal and level.goal.tolerance else DEFAULT_TOLERANCE


def largest_load(level: Level, model: Model) -> float:
    """F [N]: the largest given load, |(fx, fy)| of a point load, a pure moment |m| over the
    largest distance between two nodes of the body, a distributed load as its size
    ½(|w_i| + |w_j|)·L."""
    pos = model.arrays.pos0[:, :2]
    span = max(float(_gaps(pos).max(initial=0.0)), 1e-3 * model.char_length)
    f = max((max(math.hypot(ld.fx, ld.fy), abs(ld.m) / span) for ld in level.loads), default=0.0)
    for ml in model.member_loads:
        f = max(f, 0.5 * (abs(ml.wi) + abs(ml.wj)) * math.dist(pos[ml.i], pos[ml.j]))
    return f or 1.0


TYPED_PAST = 100.0  # an answer typed this many times the sizes of all the given loads is a slip of units


def loads_in_all(level: Level) -> tuple[float, float]:
    """(F [N], M [N m]): the sizes of every given force on the body added up (its weights,
    its point and distributed loads; a pure moment as its size over the body's largest
    span), and F times that span. No force or moment that holds the body comes near
    TYPED_PAST times them, so an answer past that is 1,000 typed in kN for 1,000 N (the
    answer box says "forces are in kN"). Of the given loads alone: no unknown's size."""
    model = build_model(level.model_data(), statics_only=True)
    pos = model.arrays.pos0[:, :2]
    span = max(float(_gaps(pos).max(initial=0.0)), 1e-3 * model.char_length)
    _q, f = terms(model)
    force = float(np.hypot(f[:, 0], f[:, 1]).sum() + np.abs(f[:, 2]).sum() / span)
    force = force or largest_load(level, model)
    return force, force * span


def _gaps(pos: np.ndarray) -> np.ndarray:
    """(N, N) [m]: the distance between every two nodes."""
    return np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))


def shortest_arm(model: Model) -> float:
    """ℓ [m]: the shortest distance between two nodes of the body."""
    pos = model.arrays.pos0[:, :2]
    if len(pos) < 2:
        return model.char_length
    gaps = _gaps(pos)
    gaps[np.diag_indices(len(pos))] = np.inf
    return float(gaps.min())


def terms(model: Model) -> tuple[np.ndarray, np.ndarray]:
    """Every force on the body one by one, as the engine applies it at the end of its load
    histories: (nodes (K,) int, forces (K, 3) [N, N, N m]). Each load entry is its own
    term, so that two forces at one node are two terms (their sizes both count), and
    a distributed load gives its equivalent nodal forces and end moments; the weight and
    ground acceleration on the lumped masses (load_vector less the nodal loads) are one
    term per node."""
    m, t = model.arrays, model.load_end_time
    scale = histories.scales(m, m.load_hist, t)
    nodes = [np.asarray(m.load_node, dtype=int)]
    forces = [np.asarray(m.load_f, dtype=float).reshape(-1, 3) * scale.reshape(-1, 1)]
    mass = load_vector(model, t) - nodal_loads(model, t)
    carried = np.flatnonzero(np.abs(mass).sum(axis=1) > 0)
    return np.concatenate([*nodes, carried]), np.concatenate([*forces, mass[carried]])


def sums(model: Model, p: int) -> tuple[dict[str, float], dict[str, float]]:
    """(ΣFx, ΣFy, ΣM_P) [N, N, N m] of the model's loads about node p, and the size of each
    (½ Σ|…| of its terms, see the module)."""
    q, f = terms(model)
    d = model.arrays.pos0[q, :2] - model.arrays.pos0[p, :2]
    net = {"fx": float(f[:, 0].sum()), "fy": float(f[:, 1].sum()), "m": float((d[:, 0] * f[:, 1] - d[:, 1] * f[:, 0]).sum() + f[:, 2].sum())}
    size = {
        "fx": 0.5 * float(np.abs(f[:, 0]).sum()),
        "fy": 0.5 * float(np.abs(f[:, 1]).sum()),
        "m": 0.5 * float((np.abs(d[:, 0] * f[:, 1]) + np.abs(d[:, 1] * f[:, 0]) + np.abs(f[:, 2])).sum()),
    }
    return net, size


def bounds(level: Level, model: Model, size: dict[str, float]) -> dict[str, float]:
    """How far from zero each sum may be [N, N, N m] (see the module's docstring)."""
    tol, floor = tolerance_of(level), FLOOR * largest_load(level, model)
    return {"fx": max(tol * size["fx"], floor), "fy": max(tol * size["fy"], floor), "m": max(tol * size["m"], floor * shortest_arm(model))}


def ranked_off(net: dict[str, float], bound: dict[str, float]) -> list[str]:
    """The sums beyond their bounds, the largest relative to its bound first."""
    off = [k for k in SUMS if abs(net[k]) > bound[k]]
    return sorted(off, key=lambda k: -abs(net[k]) / bound[k])


def off_words(net: dict[str, float], off: list[str], about: str) -> str:
    """Which equations are off, the largest imbalance first, and which way the body would
    go: never by how much (adding the remainder to one force is no statics)."""
    names = [_("ΣM about {node}").format(node=about) if k == "m" else SUM_NAMES[k] for k in off]
    turn = move = ""
    for k in off:
        if k == "m":
            turn = _("counter-clockwise") if net["m"] > 0 else _("clockwise")
        elif not move:
            fx = net["fx"] if "fx" in off else 0.0
            fy = net["fy"] if "fy" in off else 0.0
            move = direction(math.degrees(math.atan2(fy, fx)))
    if turn and move:
        ways = (_("move {way} and turn {sense}") if off.index("m") > 0 else _("turn {sense} and move {way}")).format(way=move, sense=turn)
    else:
        ways = _("turn {sense}").format(sense=turn) if turn else _("move {way}").format(way=move)
    if len(off) == 1:
        return _("{sum} is not zero, so the body would {go}").format(sum=names[0], go=ways)
    return _("{sums} are not zero (the largest imbalance first), so the body would {go}").format(sums=listing(names), go=ways)
