"""The worked method as a page to keep, print or hand in: one SVG (a browser prints it,
a word processor takes it), with the structure drawn (its members coloured by the forces
found: tension blue, compression vermillion, nothing grey; its loads and reactions as
arrows), a straight beam's shear and moment diagrams to scale, and every step's equations
as the text output writes them (game/tutor/worked.py). No library beyond the standard one:
the SVG is written as text, every text escaped.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from equilibria.tutor.truss import Worked
from equilibria.tutor.worked import member_lines, step_lines
from equilibria.words.figures import figure
from equilibria.words.i18n import _

WIDTH = 820  # [px] the page, about A4's width at 96 dpi
MARGIN = 30
PICTURE_H = 300  # [px] the structure's box
DIAGRAM_H = 140  # [px] each of a beam's diagrams
LINE_H = 17  # [px] a line of text
TENSION, COMPRESSION, NOTHING, INK, LOAD, REACTION = "#0072B2", "#D55E00", "#8a8a8a", "#1a1a1a", "#1a1a1a", "#009E73"  # Okabe–Ito


def svg_page(title: str, worked: Worked) -> str:
    """The page's SVG text."""
    parts: list[str] = []
    y = MARGIN + 10
    parts.append(_text(MARGIN, y, title, size=20, bold=True))
    y += 20
    p = worked.problem
    if p is not None and p.joints:
        parts += _structure(worked, MARGIN, y, WIDTH - 2 * MARGIN, PICTURE_H)
        y += PICTURE_H + 20
    beam = next((s for s in worked.steps if s.curve), None)
    if beam is not None:
        for label, column, unit in ((_("Shear V [kN]"), 1, 1e3), (_("Bending moment M [kN·m], sagging positive"), 2, 1e3)):
            parts += _diagram(beam.curve, column, unit, label, MARGIN, y, WIDTH - 2 * MARGIN, DIAGRAM_H)
            y += DIAGRAM_H + 30
    for k, step in enumerate(worked.steps, 1):
        y += 8
        parts.append(_text(MARGIN, y, f"{k}. {step.title}", size=15, bold=True))
        y += LINE_H + 2
        for line in step_lines(step):
            for piece in _wrapped(line, 110):
                parts.append(_text(MARGIN + 14, y, piece, size=12.5, mono=True))
                y += LINE_H
    if worked.limit:
        y += 8
        parts.append(_text(MARGIN, y, _("Statics alone stops here: {why}").format(why=worked.limit), size=13, bold=True))
        y += LINE_H
    if members := member_lines(worked):
        y += 8
        parts.append(_text(MARGIN, y, _("Member forces (tension positive):"), size=14, bold=True))
        y += LINE_H + 2
        for line in members:
            parts.append(_text(MARGIN + 14, y, line, size=12.5, mono=True))
            y += LINE_H
    height = y + MARGIN
    head = f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}">'
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', head, f'<rect width="{WIDTH}" height="{height}" fill="white"/>', *parts, "</svg>"]) + "\n"


def _text(x: float, y: float, text: str, *, size: float = 13, bold: bool = False, mono: bool = False, colour: str = INK, anchor: str = "start") -> str:
    family = "DejaVu Sans Mono, Menlo, Consolas, monospace" if mono else "DejaVu Sans, Helvetica, Arial, sans-serif"
    weight = ' font-weight="bold"' if bold else ""
    return f'<text x="{x:.1f}" y="{y:.1f}" font-family="{family}" font-size="{size}"{weight} fill="{colour}" text-anchor="{anchor}">{escape(text)}</text>'


def _wrapped(line: str, width: int) -> list[str]:
    """A long line cut at spaces into pieces of at most `width` characters (the rest indented)."""
    out, rest = [], line
    while len(rest) > width:
        cut = rest.rfind(" ", 0, width)
        cut = cut if cut > width // 3 else width
        out.append(rest[:cut])
        rest = "    " + rest[cut:].lstrip()
    return [*out, rest]


def _structure(worked: Worked, left: float, top: float, width: float, height: float) -> list[str]:
    """The structure to scale in the box, each member coloured by its force and labelled."""
    p = worked.problem
    xs = [x for x, _ in p.joints.values()]
    ys = [y for _, y in p.joints.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    scale = min((width - 80) / max(max(xs) - min(xs), span * 0.25), (height - 80) / max(max(ys) - min(ys), span * 0.25))
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return left + width / 2 + (x - cx) * scale, top + height / 2 - (y - cy) * scale

    out = [f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#d0d0d0"/>']
    for mid, (i, j) in p.members.items():
        (x1, y1), (x2, y2) = at(*p.joints[i]), at(*p.joints[j])
        force = worked.values.get(f"F_{mid}")
        colour = INK if force is None else NOTHING if abs(force) < 1e-6 else TENSION if force > 0 else COMPRESSION
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" stroke-width="{4 if force else 3}"/>')
        label = mid if force is None else f"{mid} {figure(force / 1e3)}"
        out.append(_text((x1 + x2) / 2, (y1 + y2) / 2 - 5, label, size=11, colour=colour, anchor="middle"))
    for node, xy in p.joints.items():
        x, y = at(*xy)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="white" stroke="{INK}" stroke-width="1.5"/>')
        out.append(_text(x - 6, y - 8, node, size=12, bold=True, anchor="end"))
    for f in p.loads:
        size = math.hypot(f.fx, f.fy)
        if size > 0:
            out += _arrow(at(f.x, f.y), (f.fx / size, f.fy / size), f"{figure(size / 1e3)} kN", LOAD)
    for u in p.reactions:
        value = worked.values.get(u.name)
        if value and not u.couple:
            sign = math.copysign(1, value)
            out += _arrow(at(u.x, u.y), (u.ux * sign, u.uy * sign), f"{u.name} = {figure(abs(value) / 1e3)} kN", REACTION)
    return out


def _arrow(tip: tuple[float, float], d: tuple[float, float], label: str, colour: str) -> list[str]:
    """An arrow 50 px long along the unit vector d, its head at the joint it acts on."""
    dx, dy = d[0], -d[1]  # the page's y runs down
    length = 50
    tail = (tip[0] - dx * length, tip[1] - dy * length)
    a, b = tail, tip
    ax, ay = b[0] - dx * 9 - dy * 5, b[1] - dy * 9 + dx * 5
    bx, by = b[0] - dx * 9 + dy * 5, b[1] - dy * 9 - dx * 5
    return [
        f'<line x1="{a[0]:.1f}" y1="{a[1]:.1f}" x2="{b[0]:.1f}" y2="{b[1]:.1f}" stroke="{colour}" stroke-width="2"/>',
        f'<polygon points="{b[0]:.1f},{b[1]:.1f} {ax:.1f},{ay:.1f} {bx:.1f},{by:.1f}" fill="{colour}"/>',
        _text(tail[0], tail[1] - 4, label, size=11, colour=colour, anchor="middle"),
    ]


def _diagram(curve, column: int, unit: float, label: str, left: float, top: float, width: float, height: float) -> list[str]:
    """A diagram along the beam: the values of `column` of `curve` [(s, V, M)] to scale, its axis, its ends' and peak's values."""
    s_max = max(row[0] for row in curve) or 1.0
    values = [row[column] / unit for row in curve]
    most = max(max(abs(v) for v in values), 1e-9)
    mid = top + height / 2

    def at(s: float, v: float) -> tuple[float, float]:
        return left + s / s_max * width, mid - v / most * (height / 2 - 12)

    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (at(row[0], v) for row, v in zip(curve, values, strict=True)))
    first, last = at(0.0, 0.0), at(s_max, 0.0)
    out = [
        _text(left, top - 4, label, size=12, bold=True),
        f'<line x1="{first[0]:.1f}" y1="{mid:.1f}" x2="{last[0]:.1f}" y2="{mid:.1f}" stroke="{INK}" stroke-width="1"/>',
        f'<polygon points="{first[0]:.1f},{mid:.1f} {points} {last[0]:.1f},{mid:.1f}" fill="#0072B222" stroke="{TENSION}" stroke-width="1.5"/>',
    ]
    k = max(range(len(values)), key=lambda n: abs(values[n]))
    x, y = at(curve[k][0], values[k])
    anchor = "start" if x < left + width / 4 else "end" if x > left + 3 * width / 4 else "middle"  # kept on the page near an end
    out.append(_text(x, y - 5 if values[k] >= 0 else y + 14, f"{figure(values[k])} (s = {figure(curve[k][0])} m)", size=11, anchor=anchor))
    return out
