"""The textbook's method, worked on a structure: which equation first and why, with the
numbers, as a teacher works it on the board (issue 35). No pygame, no engine call: the
problem (game/tutor/truss.py `Problem`) is points, forces and unknown forces in metres and newtons,
y up, counter-clockwise positive, tension positive.

A body in equilibrium gives three equations: ΣFx = 0, ΣFy = 0, ΣM = 0 about any point.
`solve_body` chooses them as a teacher does, one unknown at a time where it can:
1. moments about the point where the lines of all the other unknowns meet (a pin, where
   two reactions cross; the intersection of two cut members in a section) give the one
   whose line misses it;
2. a sum of forces along a direction that every other unknown is square to gives the one
   that is not (ΣFx at a joint whose other member is vertical);
3. what is left (two unknowns at a joint, neither square to the other) from ΣFx and ΣFy
   together.
A truss (game/tutor/truss.py `method_of_joints`) first takes its reactions from the whole body where three of
them can be found so, names the members that carry nothing by the two rules of
inspection, then goes from joint to joint, each with at most two unknowns. Every value
is checked against the engine's static answer in tests/test_tutor.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from equilibria.words.figures import figure
from equilibria.words.i18n import _

SQUARE = 1e-9  # |cos| under this: a line square to a direction (or through a point, in units of the span)


@dataclass(frozen=True)
class Force:
    """A force (fx, fy) [N] at (x, y) [m], or a couple m [N m] (`couple`); `name` as the
    textbook writes it (A_y, F_AB, 12 kN at B)."""

    name: str
    x: float
    y: float
    fx: float = 0.0
    fy: float = 0.0
    m: float = 0.0
    where: str = ""  # the joint it acts at, for a moment sum about it ("" where it is no joint)

    def moment_about(self, px: float, py: float) -> float:
        return (self.x - px) * self.fy - (self.y - py) * self.fx + self.m


@dataclass(frozen=True)
class Unknown:
    """An unknown force of size F along the unit vector (ux, uy) at (x, y) (a reaction's
    part, a member's pull on a joint, a cut member's pull on a section), or an unknown
    couple (`couple`). `key` says which it is to the caller (("member", "AB"),
    ("reaction", "A", 1))."""

    name: str
    x: float
    y: float
    ux: float = 0.0
    uy: float = 0.0
    couple: bool = False
    key: tuple = ()
    where: str = ""  # the joint it acts at (A for A_x), which names a moment sum about it

    def arm(self, px: float, py: float) -> float:
        """The moment about (px, py) of a unit value of this unknown [m]."""
        return 1.0 if self.couple else (self.x - px) * self.uy - (self.y - py) * self.ux


@dataclass
class Equation:
    """One equation written and solved: what is summed (`sum`: "ΣFx", "ΣFy", "ΣM about A",
    "ΣF along AB"), its terms in words, the unknowns it finds and their values [N, N m]."""

    sum: str
    terms: list[str]
    found: dict[str, float]
    why: str = ""


@dataclass
class Step:
    """One free body and the equations worked on it."""

    title: str
    equations: list[Equation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    table: list[tuple[float, float, float, float]] = field(default_factory=list)  # a beam's (s [m], V left, V right [N], M [N m]) at each point
    largest: tuple[float, float] | None = None  # a beam's largest moment [N m] and where [m]
    curve: list[tuple[float, float, float]] = field(default_factory=list)  # a beam's (s [m], V [N], M [N m]) densely, for its diagrams
    joints: list[str] = field(default_factory=list)  # the joints of the free body this step takes (none: the whole structure)
    members: list[str] = field(default_factory=list)  # the members it is about (cut by a section, found to carry nothing)


class NotStatics(ValueError):
    """Statics alone cannot find these unknowns (the reason in words)."""


def solve_body(title: str, unknowns: list[Unknown], loads: list[Force], span: float, known: dict[str, float] | None = None) -> Step:
    """The unknowns of one body in equilibrium under `loads` (and unknowns already found,
    `known`, by name), one equation at a time as the module says; NotStatics when three
    equations cannot find them (more than three, or all their lines through one point)."""
    known = dict(known or {})
    step = Step(title)
    todo = [u for u in unknowns if u.name not in known]
    done = [u for u in unknowns if u.name in known]
    tol = SQUARE * max(span, 1e-9)
    while todo:
        eq = _one_at_a_time(todo, done, loads, known, tol) or _two_together(todo, done, loads, known, tol)
        if eq is None and len(todo) > 3:
            said = _("{n} unknowns and three equations: {body} must be taken apart at its pins (not worked yet)")
            raise NotStatics(said.format(n=len(todo), body=title))
        if eq is None:
            names = ", ".join(u.name for u in todo)
            said = _("the three equations of {body} cannot tell {names} apart: they must come from a part of it, taken apart at a pin (not worked yet)")
            raise NotStatics(said.format(body=title, names=names))
        step.equations.append(eq)
        for name, value in eq.found.items():
            known[name] = value
        done += [u for u in todo if u.name in eq.found]
        todo = [u for u in todo if u.name not in eq.found]
    return step


def _points(todo: list[Unknown], loads: list[Force]) -> list[tuple[str, float, float]]:
    """Where a moment sum may be taken: the joints the unknowns and the loads act at."""
    seen, out = set(), []
    for x, y, name in [(u.x, u.y, u.where) for u in todo if not u.couple] + [(f.x, f.y, f.where) for f in loads]:
        key = (round(x, 9), round(y, 9))
        if name and key not in seen:
            seen.add(key)
            out.append((name, x, y))
    return out


def _one_at_a_time(todo, done, loads, known, tol) -> Equation | None:
    """An equation with one unknown in it: a force sum first (x, y, then along or square to
    an unknown: a couple never enters one), else moments about where the others meet."""
    for label, dx, dy in _directions(todo):
        along = [u for u in todo if not u.couple and abs(u.ux * dx + u.uy * dy) > 1e-9]
        if len(along) == 1:
            return _forces(along[0], done, loads, known, label, dx, dy)
    for label, px, py in _points(todo, loads) + _crossings(todo, tol):
        rest = [u for u in todo if abs(u.arm(px, py)) > tol]
        if len(rest) == 1:
            return _moments(rest[0], todo, done, loads, known, label, px, py)
    return None


def _crossings(todo: list[Unknown], tol: float) -> list[tuple[str, float, float]]:
    """Where the lines of two unknowns meet, off their own points (a section's cut members)."""
    out = []
    forces = [u for u in todo if not u.couple]
    for a in range(len(forces)):
        for b in range(a + 1, len(forces)):
            u, v = forces[a], forces[b]
            den = u.ux * v.uy - u.uy * v.ux
            if abs(den) < 1e-9:
                continue
            t = ((v.x - u.x) * v.uy - (v.y - u.y) * v.ux) / den
            out.append((_("where {a} and {b} meet").format(a=u.name, b=v.name), u.x + t * u.ux, u.y + t * u.uy))
    return out


def _directions(todo: list[Unknown]) -> list[tuple[str, float, float]]:
    out = [("ΣFx", 1.0, 0.0), ("ΣFy", 0.0, 1.0)]
    for u in todo:
        if not u.couple and abs(u.ux) > 1e-9 and abs(u.uy) > 1e-9:
            out.append((_("ΣF along {name}").format(name=u.name), u.ux, u.uy))
            out.append((_("ΣF square to {name}").format(name=u.name), -u.uy, u.ux))
    return out


def _terms_known(done, loads, known, value) -> tuple[float, list[str]]:
    """The sum of what is known (`value` of a load or a found unknown) and its terms in words."""
    total, terms = 0.0, []
    for f in loads:
        v = value(f)
        if abs(v) > 0:
            total += v
            terms.append(f"{'+' if v >= 0 else '−'} {figure(abs(v) / 1e3)} ({f.name})")
    for u in done:
        v = value(u) * known[u.name]
        if abs(v) > 0:
            total += v
            terms.append(f"{'+' if v >= 0 else '−'} {figure(abs(v) / 1e3)} ({u.name} = {figure(known[u.name] / 1e3)})")
    return total, terms


def _moments(target: Unknown, todo, done, loads, known, label, px, py) -> Equation:
    arm = target.arm(px, py)
    total, terms = _terms_known(done, loads, known, lambda f: f.moment_about(px, py) if isinstance(f, Force) else f.arm(px, py))
    value = -total / arm
    others = [u.name for u in todo if u is not target]
    if others:
        why = _("the lines of {others} pass through this point: they drop out, and {name} is the one unknown left").format(
            others=", ".join(others), name=target.name
        )
    else:
        why = _("{name} is the one unknown left").format(name=target.name)
    terms.append(f"{'+' if arm >= 0 else '−'} {figure(abs(arm))} m × {target.name}")
    return Equation(_("ΣM about {point}").format(point=label), terms, {target.name: value}, why)


def _forces(target: Unknown, done, loads, known, label, dx, dy) -> Equation:
    c = target.ux * dx + target.uy * dy
    total, terms = _terms_known(done, loads, known, lambda f: (f.fx * dx + f.fy * dy) if isinstance(f, Force) else (f.ux * dx + f.uy * dy))
    value = -total / c
    terms.append(f"{'+' if c >= 0 else '−'} {figure(abs(c))} × {target.name}")
    return Equation(label, terms, {target.name: value}, _("{name} is the only unknown with a part in this direction").format(name=target.name))


def _two_together(todo, done, loads, known, tol) -> Equation | None:
    """Two unknown forces at a point (a joint): ΣFx and ΣFy at once."""
    forces = [u for u in todo if not u.couple]
    if len(todo) != 2 or len(forces) != 2:
        return None
    a, b = forces
    det = a.ux * b.uy - a.uy * b.ux
    if abs(det) < 1e-9:
        return None
    sx, _tx = _terms_known(done, loads, known, lambda f: f.fx if isinstance(f, Force) else f.ux)
    sy, _ty = _terms_known(done, loads, known, lambda f: f.fy if isinstance(f, Force) else f.uy)
    va = (-sx * b.uy + sy * b.ux) / det
    vb = (-sy * a.ux + sx * a.uy) / det
    terms = [
        f"ΣFx: {figure(a.ux)} {a.name} + {figure(b.ux)} {b.name} {'+' if sx >= 0 else '−'} {figure(abs(sx) / 1e3)} = 0",
        f"ΣFy: {figure(a.uy)} {a.name} + {figure(b.uy)} {b.name} {'+' if sy >= 0 else '−'} {figure(abs(sy) / 1e3)} = 0",
    ]
    return Equation(_("ΣFx and ΣFy together"), terms, {a.name: va, b.name: vb}, _("two unknowns, neither alone in a direction"))


def pull(member_from: tuple[float, float], member_to: tuple[float, float]) -> tuple[float, float]:
    """The unit vector along which a member in tension pulls the joint at `member_from`."""
    d = np.subtract(member_to, member_from)
    n = math.hypot(*d)
    return float(d[0] / n), float(d[1] / n)
