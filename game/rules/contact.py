"""Friction at contact supports, by hand statics: the normal force and the friction a
body resting on surfaces needs to stay put, against the most friction can give, F ≤ μN.
The engine judges (its contacts stick below μN and slide at it, engine/tethers.py);
these figures say why, in the words of a free-body diagram."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from equilibria.engine.linear import load_vector
from equilibria.engine.model import Model
from equilibria.format.schema import BaseLevel as Level
from equilibria.rules.common import Verdict, hold_time, limit, listing, run
from equilibria.words.figures import kn
from equilibria.words.i18n import _, plain


@dataclass(frozen=True)
class Surface:
    """One surface the body rests on: its contact nodes (ids), unit normal n, μ, and
    what statics asks of it: the normal force N [N] (positive: pushing) and the
    friction T [N] along the tangent t = (ny, −nx) (n turned clockwise)."""

    nodes: tuple[str, ...]
    normal: tuple[float, float]
    mu: float
    N: float
    T: float
    tips_over: str | None = None  # the contact node the body turns about, where the surface would have to pull beyond it

    @property
    def slips(self) -> bool:
        return self.N > 0.0 and abs(self.T) > self.mu * self.N * (1.0 + 1e-9)

    @property
    def lifts(self) -> bool:
        return self.N < 0.0

    def figures(self) -> dict:
        out = {"nodes": list(self.nodes), "normal_force": self.N, "friction": abs(self.T), "friction_limit": self.mu * max(self.N, 0.0), "mu": self.mu}
        return {**out, "tips_over": self.tips_over} if self.tips_over else out

    def slide_words(self) -> str:
        """Which way the body slides on this surface: against the friction it needs."""
        nx, ny = self.normal
        sx, sy = (-ny, nx) if self.T > 0 else (ny, -nx)  # −sign(T) t
        if abs(sy) < 1e-6:
            return _("to the right") if sx > 0 else _("to the left")
        if abs(sx) < 1e-6:
            return _("up") if sy > 0 else _("down")
        return _("up the slope") if sy > 0 else _("down the slope")


def surfaces(model: Model) -> list[Surface]:
    """The contact supports grouped by surface (the same normal and μ), each with the
    normal force and friction that hold the whole structure, as one rigid body, in
    equilibrium under its loads (weight included) at their final values: ΣFx = ΣFy = 0,
    and ΣM = 0 about the origin when every surface touches at one node (a ladder: three
    unknowns, three equations); a surface touching at several nodes can shift its normal
    force among them, so then only the forces are balanced (a block on a slope). A
    smooth surface (μ = 0) carries no friction. Least squares where the unknowns are
    not determined. Empty without contacts."""
    groups: dict[tuple[float, float, float], list[int]] = {}
    for q, nx, ny, mu in model.contacts:
        groups.setdefault((round(nx, 9), round(ny, 9), mu), []).append(q)
    if not groups:
        return []
    f = load_vector(model, model.load_end_time)
    pos = model.arrays.pos0[:, :2]
    moments = all(len(qs) == 1 for qs in groups.values())
    columns, owner = [], []
    for g, ((nx, ny, mu), qs) in enumerate(groups.items()):
        x, y = pos[qs].mean(axis=0)
        for k, (dx, dy) in enumerate(((nx, ny), (ny, -nx))):
            if k == 1 and mu == 0.0:
                continue
            columns.append((dx, dy, x * dy - y * dx))
            owner.append((g, k))
    a = np.array(columns).T
    b = -np.array([f[:, 0].sum(), f[:, 1].sum(), (pos[:, 0] * f[:, 1] - pos[:, 1] * f[:, 0]).sum() + f[:, 2].sum()])
    if not moments:
        a, b = a[:2], b[:2]
    z = np.linalg.lstsq(a, b, rcond=None)[0]
    values = [[0.0, 0.0] for _ in groups]
    for (g, k), v in zip(owner, z, strict=True):
        values[g][k] = float(v)
    found = [Surface(tuple(model.node_ids[q] for q in qs), (nx, ny), mu, *values[g]) for g, ((nx, ny, mu), qs) in enumerate(groups.items())]
    if len(found) == 1 and len(found[0].nodes) > 1:
        found[0] = _tipping(found[0], [pos[q] for q in next(iter(groups.values()))], f, pos)
    return found


def _tipping(s: Surface, at: list[np.ndarray], f: np.ndarray, pos: np.ndarray) -> Surface:
    """`s`, the one surface a body rests on at several nodes, with the node it tips over
    when the surface's push would have to act beyond its outermost contact.

    Where the push acts: the surface's resultant R = N n + T t acts at p = p0 + s·t on the
    surface's line (p0 the contacts' mean, t = (ny, −nx)); its moment about the origin is
    p0 × R + s·N (t × n = 1), so ΣM = 0 puts it at s = −(M_loads + p0 × R) / N. A surface
    can only push: when s lies at or beyond the last contact (within 1e-6 of their span),
    the body turns about that contact (at it, with nothing to spare) and the others lift off."""
    if s.N <= 0.0:
        return s
    nx, ny = s.normal
    t = np.array([ny, -nx])
    p0 = np.mean(at, axis=0)
    r = s.N * np.array([nx, ny]) + s.T * t
    m_loads = float((pos[:, 0] * f[:, 1] - pos[:, 1] * f[:, 0]).sum() + f[:, 2].sum())
    where = -(m_loads + float(p0[0] * r[1] - p0[1] * r[0])) / s.N
    along = [float((p - p0) @ t) for p in at]
    span = max(along) - min(along)
    if where >= max(along) - 1e-6 * span:  # at the last contact itself: nothing holds it down to spare
        return replace(s, tips_over=s.nodes[along.index(max(along))])
    if where <= min(along) + 1e-6 * span:
        return replace(s, tips_over=s.nodes[along.index(min(along))])
    return s


def why_it_moves(found: list[Surface]) -> str | None:
    """The reason a body on these surfaces cannot stay put, in a free-body diagram's
    words (F ≤ μN), or None when statics finds the friction enough: never by how much
    (the friction needed less μN is the push missing)."""
    for s in found:
        if s.lifts:
            return _("at {nodes} the surface would have to pull, and a surface can only push: the body lifts off there.").format(nodes=listing(list(s.nodes)))
    for s in found:
        if s.tips_over:
            others = [n for n in s.nodes if n != s.tips_over]
            said = _(
                "about {node} the forces that turn the body over outweigh those that hold it down, and a surface can only push:"
                " it tips over {node}, lifting off at {others}."
            )
            return said.format(node=s.tips_over, others=listing(others))
    for s in found:
        if s.slips:
            said = _("the friction needed at {nodes} is more than μN (μ = {mu}), the most the surface there can give: it slides {way}.")
            return said.format(nodes=listing(list(s.nodes)), mu=plain(s.mu), way=s.slide_words())
    return None


def held_words(found: list[Surface]) -> str:
    """What the friction does when the body stays put: F against μN, per surface."""
    rubbing = [s for s in found if s.mu > 0.0 and s.N > 0.0 and abs(s.T) > 1e-3 * s.N]
    parts = [
        _("at {nodes} the friction needed, {force}, is within μN = {most}").format(nodes=listing(list(s.nodes)), force=kn(abs(s.T)), most=kn(s.mu * s.N))
        for s in rubbing
    ]
    return "; ".join(parts)


def judge_on_contacts(level: Level, data: dict, model: Model) -> Verdict:
    """A body on contact supports with the player's forces (`data`, its Model `model`):
    passed when the engine's run keeps every node within the goal's displacement for
    `goal.hold`, the contacts sticking and sliding as they do (engine/tethers.py); the
    reason from hand statics (surfaces): the friction needed against μN."""
    hold = hold_time(level)
    sim, worst, start = run(data, hold)
    allowed = limit(level, model.char_length)
    found = surfaces(model)
    figures = {"contacts": [s.figures() for s in found], "max_displacement": worst, "limit": allowed, "hold": hold}
    if worst <= allowed:
        held = held_words(found)
        if held:
            words = _("The body stays put for {hold} s: the forces and their moments balance, and {friction}.").format(hold=plain(hold), friction=held)
        else:
            words = _("The body stays put for {hold} s: the forces and their moments balance.").format(hold=plain(hold))
        return Verdict(True, words, figures, sim, start)
    why = why_it_moves(found) or _("the contact forces cannot hold it.")
    if math.isfinite(worst):
        return Verdict(False, _("The body moves within {hold} s: {why}").format(hold=plain(hold), why=why), figures, sim, start)
    return Verdict(False, _("The body flies off: {why}").format(why=why), figures, sim, start)
