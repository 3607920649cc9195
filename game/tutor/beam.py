"""A straight beam's shear and bending moment built cut by cut, as the textbook does after
the reactions (issue 35): from its left end, V and M at every point where the loading
changes (a support, a point load, the ends of a distributed load), how V runs between them
(flat, or sloping with the load: dV/dx = q) and the largest moment, at a point or where
V = 0 between two (dM/dx = V).

Sign convention (docs/model.md): s along the beam from its left end (its lower one if
upright), t across it (s turned 90° counter-clockwise); V is the sum of the forces across
the beam on the part left of the cut, positive along t; M positive where it sags, so a
force F_t at s_i left of the cut adds F_t (s − s_i) and a counter-clockwise couple C on
that part subtracts C.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from equilibria.tutor.method import Force, Step
from equilibria.words.figures import figure
from equilibria.words.i18n import _

SAME = 1e-9  # [share of the length] two points this close are one
CURVE = 200  # samples of the diagrams along the beam, besides each point where the loading changes


@dataclass(frozen=True)
class Spread:
    """A distributed load across the beam from s = a to s = b [m], q_a to q_b [N/m] along t."""

    a: float
    b: float
    qa: float
    qb: float

    def total(self, s: float) -> tuple[float, float]:
        """(force [N], its moment about the cut at s [N m]) of the part of this load left of s."""
        d = min(max(s - self.a, 0.0), self.b - self.a)
        length = self.b - self.a
        slope = (self.qb - self.qa) / length if length > 0 else 0.0
        force = self.qa * d + slope * d * d / 2
        lever = self.qa * d * d / 2 + slope * d**3 / 6  # about s = a + d
        return force, lever + force * (s - self.a - d)  # moved to the cut when it lies beyond the load

    def q(self, s: float) -> float:
        return self.qa + (self.qb - self.qa) * (s - self.a) / (self.b - self.a)


@dataclass(frozen=True)
class Line:
    """The beam's axis: its left end (x0, y0) [m] and unit direction (ux, uy)."""

    x0: float
    y0: float
    ux: float
    uy: float

    def s(self, x: float, y: float) -> float:
        return (x - self.x0) * self.ux + (y - self.y0) * self.uy

    def across(self, fx: float, fy: float) -> float:
        return -fx * self.uy + fy * self.ux


def straight_line(points: list[tuple[float, float]]) -> Line | None:
    """The line through all `points` from its left end, or None when they are not on one."""
    if len(points) < 2:
        return None
    start = min(points, key=lambda p: (p[0], p[1]))
    end = max(points, key=lambda p: math.hypot(p[0] - start[0], p[1] - start[1]))
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    if length == 0:
        return None
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    if abs(ux) < 1e-12 and uy < 0:
        ux, uy = -ux, -uy
    off = max(abs(-(x - start[0]) * uy + (y - start[1]) * ux) for x, y in points)
    return Line(start[0], start[1], ux, uy) if off <= 1e-9 * length else None


def shear_and_moment(line: Line, forces: list[Force], spreads: list[Spread], length: float) -> Step:
    """The step: V and M at every point where the loading changes, the largest moment."""
    points = sorted({round(line.s(f.x, f.y), 9) for f in forces} | {round(v, 9) for sp in spreads for v in (sp.a, sp.b)} | {0.0, round(length, 9)})
    step = Step(_("Shear and moment, cut by cut from the left end"))

    def at(s: float, *, before: bool) -> tuple[float, float]:
        """(V, M) at s, just left of it (`before`) or just right."""
        v = m = 0.0
        for f in forces:
            sf = line.s(f.x, f.y)
            if sf < s - SAME * length or (not before and abs(sf - s) <= SAME * length):
                t = line.across(f.fx, f.fy)
                v += t
                m += t * (s - sf) - f.m
        for sp in spreads:
            w, lever = sp.total(s)
            v += w
            m += lever
        return v, m

    best = (0.0, 0.0)  # (M, s)
    for k, s in enumerate(points):
        v_left, m_left = at(s, before=True)
        v_right, m_here = at(s, before=False)  # M just right of a point: a couple there (a clamp's) counts
        if k == 0:
            said = _("at s = {s} m: V = {v} kN just right of it, M = {m} kN·m").format(s=figure(s), v=figure(v_right / 1e3), m=figure(m_here / 1e3))
        elif abs(v_right - v_left) > 1e-9 * max(1.0, abs(v_left)):
            said = _("at s = {s} m: V jumps from {a} kN to {b} kN (a point force), M = {m} kN·m").format(
                s=figure(s), a=figure(v_left / 1e3), b=figure(v_right / 1e3), m=figure(m_here / 1e3)
            )
        else:
            said = _("at s = {s} m: V = {v} kN, M = {m} kN·m").format(s=figure(s), v=figure(v_left / 1e3), m=figure(m_here / 1e3))
        if k and abs(m_here - m_left) > 1e-9 * max(1.0, abs(m_left)):
            said += " " + _("(M jumps there from {m} kN·m: a couple)").format(m=figure(m_left / 1e3))
        step.notes.append(said)
        step.table.append((s, v_left, v_right, m_here))
        if abs(m_left) > abs(best[0]):
            best = (m_left, s)
        if abs(m_here) > abs(best[0]):
            best = (m_here, s)
        if k + 1 < len(points):
            zero = _shear_zero(s, points[k + 1], v_right, spreads)
            if zero is not None:
                m_zero = at(zero, before=True)[1]
                step.notes.append(
                    _("   between them V passes through 0 at s = {s} m: there M has a peak, {m} kN·m").format(s=figure(zero), m=figure(m_zero / 1e3))
                )
                if abs(m_zero) > abs(best[0]):
                    best = (m_zero, zero)
    step.largest = best
    for k in range(CURVE + 1):  # the diagrams, densely: each point where the loading changes, and between
        s = length * k / CURVE
        step.curve.append((s, *at(s, before=False)))
    for s in points:
        step.curve.append((s, *at(s, before=True)))
    step.curve.sort(key=lambda row: row[0])
    step.notes.append(
        _("The largest bending moment: {m} kN·m at s = {s} m ({how})").format(
            m=figure(best[0] / 1e3), s=figure(best[1]), how=_("sagging") if best[0] > 0 else _("hogging")
        )
    )
    return step


def _shear_zero(a: float, b: float, v_a: float, spreads: list[Spread]) -> float | None:
    """Where V (v_a just right of a) crosses 0 inside (a, b), under the loads spread there."""
    q0 = sum(sp.q(a) for sp in spreads if sp.a <= a < sp.b)
    q1 = sum(sp.q(b) for sp in spreads if sp.a < b <= sp.b)
    d = b - a
    slope = (q1 - q0) / d  # V(a + e) = v_a + q0 e + slope e²/2
    roots = [-v_a / q0] if abs(slope) < 1e-12 and abs(q0) > 1e-12 else []
    if abs(slope) >= 1e-12:
        disc = q0 * q0 - 2 * slope * v_a
        if disc >= 0:
            roots = [(-q0 + sign * math.sqrt(disc)) / slope for sign in (1, -1)]
    inside = [e for e in roots if 1e-9 * d < e < d * (1 - 1e-9)]
    return a + min(inside) if inside else None
