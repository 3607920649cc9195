"""The method worked on a level or a model file, and written out as a page of text.

A free-body level (its supports or members cut away, game/rules/answer.py) is one body
whose unknowns are the forces of its cuts: the whole body's three equations, the textbook's
way (moments about where two unknowns meet first), give the reactions of a truss or a
beam, or three members cut by a section. Any other structure with supports is worked as
a truss by joints (game/tutor/truss.py), or stopped with the reason where statics alone
does not apply (a mechanism, an indeterminate count, a frame's bending members).
"""

from __future__ import annotations

import math

from equilibria.course.level import Level
from equilibria.rules.answer import unknowns
from equilibria.tutor.beam import Line, Spread, shear_and_moment, straight_line
from equilibria.tutor.method import Force, NotStatics, Step, Unknown, solve_body
from equilibria.tutor.truss import Problem, Worked, method_of_joints
from equilibria.words.figures import figure
from equilibria.words.i18n import _

NOT_YET = ("balance",)  # kinds whose method (the forces that hold a free body, tipping, friction's cases) is not worked yet


def work_level(level: Level, work: dict | None = None) -> Worked:
    """The method on a level: a free-body or section level's body as posed (a level that
    draws its load at random: draw 0); any other the structure `work` (the student's, as
    the engine's model: a build level's members, a stability level's supports), else the
    level as posed."""
    if level.kind in NOT_YET:
        return Worked([], {}, _("the method of this kind of level (the forces that hold a free body: balance, friction, tipping) is not worked yet"))
    drawn = level.drawn(0) if level.load_choices() else level
    if level.cut:
        return work_free_body(drawn.model_data(), level)
    return work_model(work if work is not None else drawn.model_data())


def work_model(data: dict) -> Worked:
    """A structure with its supports: a straight beam by its reactions and then its shear
    and moment cut by cut, a truss by joints, or the reason it cannot be."""
    problem = Problem.of(data)
    line = straight_line(list(problem.joints.values())) if problem.beams else None
    try:
        if line is not None and len(problem.reactions) == 3:
            step = solve_body(_("The whole beam"), problem.reactions, problem.loads, problem.span)
            values = {name: v for eq in step.equations for name, v in eq.found.items()}
            return Worked([step, beam_step(problem, line, problem.reactions, values)], values, problem=problem)
        return method_of_joints(problem)
    except NotStatics as exc:
        return Worked([], {}, str(exc), problem)


def beam_step(problem: Problem, line: Line, found: list[Unknown], values: dict[str, float]) -> Step:
    """V and M along a straight beam under its loads and the forces `found` (reactions, or a
    free body's cut forces) with their `values`."""
    forces = [f for f in problem.loads if f.where]  # the point loads and weights; the spread loads as they are, below
    for u in found:
        v = values[u.name]
        forces.append(Force(u.name, u.x, u.y, 0.0 if u.couple else v * u.ux, 0.0 if u.couple else v * u.uy, v if u.couple else 0.0, where=u.where))
    spreads = []
    tx, ty = -line.uy, line.ux
    for i, j, wi, wj, direction in problem.spread:
        (xi, yi), (xj, yj) = problem.joints[i], problem.joints[j]
        length = math.hypot(xj - xi, yj - yi)
        mx, my = (xj - xi) / length, (yj - yi) / length
        dx, dy = {"x": (1.0, 0.0), "y": (0.0, 1.0), "normal": (-my, mx)}[direction]
        across = dx * tx + dy * ty
        a, b, qa, qb = line.s(xi, yi), line.s(xj, yj), wi * across, wj * across
        spreads.append(Spread(a, b, qa, qb) if a < b else Spread(b, a, qb, qa))
    length = max(line.s(x, y) for x, y in problem.joints.values())
    return shear_and_moment(line, forces, spreads, length)


def work_free_body(data: dict, level: Level) -> Worked:
    """A free body: the forces of its cuts from its three equations."""
    problem = Problem.of(data)
    cuts = []
    for k, u in enumerate(unknowns(level)):
        x, y = problem.joints[u.node]
        name = _cut_name(u, k)
        cuts.append(Unknown(name, x, y, *u.direction, couple=u.moment, key=("cut", k), where=u.node))
    try:
        step = solve_body(_("The free body"), cuts, problem.loads, problem.span)
    except NotStatics as exc:
        return Worked([], {}, str(exc), problem)
    values = {name: v for eq in step.equations for name, v in eq.found.items()}
    line = straight_line(list(problem.joints.values())) if problem.beams else None
    steps = [step] if line is None else [step, beam_step(problem, line, cuts, values)]
    return Worked(steps, values, problem=problem)


def _cut_name(u, k: int) -> str:
    """A cut's unknown as the textbook names it: A_x, A_y, M_A, F_CD (a cut member)."""
    member = u.phrase.fields.get("member")
    if member:
        return f"F_{member}"
    if u.moment:
        return f"M_{u.node}"
    ux, uy = u.direction
    return f"{u.node}_x" if (ux, uy) == (1.0, 0.0) else f"{u.node}_y" if (ux, uy) == (0.0, 1.0) else f"{u.node}_{k + 1}"


def step_lines(step: Step) -> list[str]:
    """One step's lines: its notes, then each equation with its numbers, what it finds and why."""
    lines = list(step.notes)
    for eq in step.equations:
        found = ", ".join(f"{name} = {_value(name, v)}" for name, v in eq.found.items())
        lines.append(f"{eq.sum} = 0:  {' '.join(eq.terms)} = 0   →   {found}")
        if eq.why:
            lines.append(f"   ({eq.why})")
    return lines


def as_text(worked: Worked) -> str:
    """The steps as a page: each free body, its equations with the numbers, what each finds."""
    lines: list[str] = []
    for k, step in enumerate(worked.steps, 1):
        lines.append(f"{k}. {step.title}")
        lines += [f"   {line}" for line in step_lines(step)]
    if worked.limit:
        lines.append(_("Statics alone stops here: {why}").format(why=worked.limit))
    if members := member_lines(worked):
        lines.append(_("Member forces (tension positive):"))
        lines += [f"   {line}" for line in members]
    return "\n".join(lines) + "\n"


def _value(name: str, value: float) -> str:
    if name.startswith("M_"):
        return f"{figure(value / 1e3)} kN·m"
    said = f"{figure(value / 1e3)} kN"
    if name.startswith("F_") and abs(value) > 1e-9:
        said += " " + (_("(tension)") if value > 0 else _("(compression)"))
    return said


def member_lines(worked: Worked) -> list[str]:
    """The member forces found, one a line (tension positive)."""
    members = {n: v for n, v in worked.values.items() if n.startswith("F_")}
    return [f"{n[2:]}: {_value(n, v)}" for n, v in sorted(members.items())]


__all__ = ["Step", "Worked", "as_text", "member_lines", "step_lines", "work_level", "work_model"]
