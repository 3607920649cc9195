"""The level editor's picture of a draft (game/course/authoring.py): its members and nodes,
the supports left, the cuts marked (a ring and the forces they carry, dashed), the loads
with their sizes or the student's number that replaces each, a build level's zone and the
teacher's reference design, faint, and the nodes where the student's forces or supports
may go, ringed. It reads the draft and draws; it never changes it."""

from __future__ import annotations

import math

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw import symbols
from equilibria.app.draw.palette import INK, LOAD, MARK, MUTED, RULE, ZERO
from equilibria.app.session.view import View
from equilibria.course.authoring import named_number
from equilibria.words.figures import GIVEN_FIGURES, figure

NODE_PX = 5
LOAD_PX = 60  # [px] a load's arrow
CUT_PX = 44  # [px] the arrow of a force a cut carries


def where(doc: dict) -> dict[str, tuple[float, float]]:
    """Each node's place [m], the build's reference design's nodes too."""
    nodes = list(doc.get("nodes", [])) + list((doc.get("_design") or {}).get("nodes", []))
    return {n["id"]: (float(n["x"]), float(n["y"])) for n in nodes}


def whole_at(doc: dict) -> dict[str, tuple[float, float]]:
    """Each node's place [m] in the whole structure a joint or a section was cut from (none: not cut)."""
    return {n["id"]: (float(n["x"]), float(n["y"])) for n in (doc.get("_whole") or {}).get("nodes", [])}


def bounds(doc: dict) -> tuple[float, float, float, float]:
    """The draft's extent [m]: the whole structure's where a part is cut out of it (the view stays put)."""
    points = list(where(doc).values()) + list(whole_at(doc).values()) + [tuple(p) for p in (doc.get("player") or {}).get("zone", [])]
    if not points:
        return (-5.0, -1.0, 5.0, 5.0)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def varied_loads(doc: dict) -> dict[int, str]:
    """The loads a number of the student's own sets: index → the number's name."""
    out = {}
    for field, expression in ((doc.get("vary") or {}).get("set") or {}).items():
        if field.startswith("loads["):
            out[int(field[len("loads[") : field.index("]")])] = named_number(expression)
    return out


def draw_draft(
    surface: pygame.Surface, fonts, doc: dict, view: View, zone_drag: tuple | None = None, asked: list[str] | None = None, section_drag: tuple | None = None
) -> None:
    """The draft in `view`; `zone_drag`: a zone being dragged out, two world corners;
    `asked`: the members the level asks about, marked (None: a kind that asks about none,
    and the members are not named either); `section_drag`: a section line being drawn, its
    two ends [m]. A joint or a section cut out shows the rest of its structure faint."""
    at = where(doc)

    def px(p) -> tuple[float, float]:
        return view.ox + view.scale * p[0], view.oy - view.scale * p[1]

    zone = (doc.get("player") or {}).get("zone")
    if zone_drag is not None:
        (x0, y0), (x1, y1) = zone_drag
        zone = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if zone:
        corners = [px(p) for p in zone]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            draw.dashed(surface, MUTED, a, b, 2)
    whole = whole_at(doc)
    for m in (doc.get("_whole") or {}).get("members", []):  # the structure the part was cut from: the rest of it, faint
        if m["i"] in whole and m["j"] in whole:
            draw.dashed(surface, RULE, px(whole[m["i"]]), px(whole[m["j"]]), 2)
    if section_drag is not None:
        draw.dashed(surface, MARK, px(section_drag[0]), px(section_drag[1]), 3)
    given = {m["id"] for m in doc.get("members", [])}
    for m in (doc.get("_design") or {}).get("members", []):  # the teacher's design: what the student builds, dashed
        if m["id"] not in given:
            draw.dashed(surface, ZERO, px(at[m["i"]]), px(at[m["j"]]), 2)
    for m in doc.get("members", []):
        marked = asked is not None and m["id"] in asked
        draw.segment(surface, MARK if marked else INK, px(at[m["i"]]), px(at[m["j"]]), 6 if marked else 3)
    if asked is not None:  # each member named, where a click (or its name typed) asks about it
        for m in doc.get("members", []):
            (xi, yi), (xj, yj) = px(at[m["i"]]), px(at[m["j"]])
            colour = MARK if m["id"] in asked else MUTED
            draw.label(surface, fonts.bold if m["id"] in asked else fonts.small, m["id"], ((xi + xj) / 2, (yi + yj) / 2), colour, "center")
    for support in doc.get("supports", []):
        node = px(at[support["node"]])
        if support.get("roller") is not None:
            a = math.radians(support["roller"]["angle"])
            symbols.support(surface, "roller", node, (math.sin(a), math.cos(a)))
        elif support.get("fix"):
            symbols.support(surface, symbols.support_type(frozenset(support["fix"])), node, (0.0, 1.0))
    members = {m["id"]: m for m in doc.get("members", [])}
    for cut in doc.get("cut", []):
        bar = members.get(cut.get("member") or "")
        if bar is not None and cut.get("what") == "bar" and bar["i"] in at and bar["j"] in at:  # a cut bar: its force along it
            (xi, yi), (xj, yj) = (at[bar["j"]], at[bar["i"]]) if bar["i"] == cut["node"] else (at[bar["i"]], at[bar["j"]])
            length = math.hypot(xj - xi, yj - yi) or 1.0
            cut = {**cut, "along": [(xj - xi) / length, (yj - yi) / length]}
        _cut(surface, fonts, px(at[cut["node"]]), cut)
    named = varied_loads(doc)
    numbers = (doc.get("vary") or {}).get("numbers", {})
    for k, load in enumerate(doc.get("loads", [])):
        fx, fy = float(load.get("fx", 0.0)), float(load.get("fy", 0.0))
        size = math.hypot(fx, fy)
        if size == 0 or load["node"] not in at:
            continue
        head = px(at[load["node"]])
        tail = (head[0] - LOAD_PX * fx / size, head[1] + LOAD_PX * fy / size)
        draw.arrow(surface, LOAD, tail, head, 3)
        name = named.get(k)
        text = f"{name}: {_kn(numbers[name]['min'])} … {_kn(numbers[name]['max'])} kN" if name in numbers else f"{_kn(size)} kN"
        draw.label(surface, fonts.small, text, tail, MARK if name in numbers else INK, draw.anchor_away((tail[0] - head[0], tail[1] - head[1])))
    for node in (doc.get("player") or {}).get("nodes") or []:  # where the student's forces or supports may go: ringed
        if node in at:
            pygame.draw.circle(surface, MARK, px(at[node]), 11, 2)
    for node, p in at.items():
        if node in {n["id"] for n in doc.get("nodes", [])}:
            q = px(p)
            pygame.draw.circle(surface, (255, 255, 255), q, NODE_PX)
            pygame.draw.circle(surface, INK, q, NODE_PX, 2)
            draw.label(surface, fonts.small, node, (q[0] + 8, q[1] - 8), MUTED, "bottomleft", None)


def _cut(surface: pygame.Surface, fonts, at: tuple[float, float], cut: dict) -> None:
    pygame.draw.circle(surface, MARK, at, 14, 3)
    along = cut.get("along")
    directions = [(along[0], along[1])] if along else [({"x": 1.0, "y": 0.0}[d], {"x": 0.0, "y": 1.0}[d]) for d in cut.get("carries", []) if d in "xy"]
    for dx, dy in directions:  # the force the cut carries, dashed: the student's to give
        head = (at[0] - 16 * dx, at[1] + 16 * dy)
        draw.arrow(surface, MARK, (head[0] - CUT_PX * dx, head[1] + CUT_PX * dy), head, 2, hollow=True, dashed_shaft=True)
    if "rot" in (cut.get("carries") or []):
        pygame.draw.arc(surface, MARK, pygame.Rect(at[0] - 22, at[1] - 22, 44, 44), 0.3, 2.6, 2)
    pygame.draw.circle(surface, RULE, at, 16, 1)


def _kn(newtons: float) -> str:
    return figure(newtons / 1000, GIVEN_FIGURES)  # as the play screen labels a load, and the panel's row


# ---------------------------------------------------------------------------- what a click picks
PICK_PX = 12  # [px] a click this near a node, a member or a load's arrow picks it


def node_at(doc: dict, px, pos) -> str | None:
    """The node drawn within PICK_PX of the screen point `pos` (`px`: metres to the screen), nearest first."""
    at = where(doc)
    near = [(math.dist(pos, px(at[n["id"]])), n["id"]) for n in doc.get("nodes", [])]
    best = min(near, default=(math.inf, None))
    return best[1] if best[0] <= PICK_PX else None


def member_at(doc: dict, px, pos) -> str | None:
    """The member drawn within PICK_PX of `pos`, one of the teacher's design taken away (dashed) too."""
    at = where(doc)
    given = doc.get("members", [])
    members = given + [m for m in (doc.get("_design") or {}).get("members", []) if m["id"] not in {g["id"] for g in given}]
    near = [(_to_segment(pos, px(at[m["i"]]), px(at[m["j"]])), m["id"]) for m in members if m["i"] in at and m["j"] in at]
    best = min(near, default=(math.inf, None))
    return best[1] if best[0] <= PICK_PX else None


def load_at(doc: dict, px, pos) -> int | None:
    """The load whose arrow (as draw_draft draws it) passes within PICK_PX of `pos`, its head aside (the node's)."""
    at = where(doc)
    for k, load in enumerate(doc.get("loads", [])):
        fx, fy = load.get("fx", 0.0), load.get("fy", 0.0)
        size = math.hypot(fx, fy)
        if size == 0 or load["node"] not in at:
            continue
        head = px(at[load["node"]])
        tail = (head[0] - LOAD_PX * fx / size, head[1] + LOAD_PX * fy / size)
        if _to_segment(pos, tail, head) <= PICK_PX and math.dist(pos, head) > PICK_PX / 2:
            return k
    return None


def _to_segment(p, a0, b0) -> float:
    dx, dy = b0[0] - a0[0], b0[1] - a0[1]
    t = max(0.0, min(1.0, ((p[0] - a0[0]) * dx + (p[1] - a0[1]) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.dist(p, (a0[0] + t * dx, a0[1] + t * dy))
