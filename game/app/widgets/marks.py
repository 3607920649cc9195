"""What the play scene draws on the structure besides the structure itself: the build
zone under it; members marked as zero-force, nails, a mechanism's free motion (a dashed
ghost over the structure as built, its moving nodes ringed), the selection and what is
under the mouse over it; the grid and the scale bar under it. Reads the scene; changes
nothing."""

from __future__ import annotations

import math

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.drawlist import Sketch
from equilibria.app.draw.palette import ALERT, BACKGROUND, INK, MARK, MUTED, TENSION, mix
from equilibria.app.draw.render import zone_items
from equilibria.app.widgets.tools import nice_step, removed_members
from equilibria.engine.results import member_ends
from equilibria.words.figures import figure
from equilibria.words.i18n import _, decimal, decimal_mark

ZONE = mix(BACKGROUND, TENSION, 0.09)  # the build zone's tint


GRID = mix(BACKGROUND, MUTED, 0.18)  # the building grid's lines
GRID_MIN_PX = 8  # [px] a grid finer than this on the screen is drawn 5 times coarser
CUT_PX = 14  # [px] half the stroke across a member the student's section cuts


def draw_marks(scene, surface: pygame.Surface, *, under: bool) -> None:
    s = scene.session
    if under:
        scene.picture.painter.labels.begin()  # the frame's labels: these first, then the structure's
        _zone(scene, surface)
        if "node" in scene.toolbar.names and scene.editing:  # the grid is for placing nodes: drawn while building
            _grid(scene, surface)
        _scale_bar(scene, surface)
        if s.sim is not None and s.model is scene.picture.model:
            _section_cuts(scene, surface, place=True)  # the student's answers first: room kept before the structure's labels
        return
    if s.sim is None or s.model is not scene.picture.model:
        return
    _zero_marks(scene, surface)
    _section_cuts(scene, surface)
    for q in s.sim.nails:
        x, y = scene.picture.point_of(q)
        pygame.draw.circle(surface, ALERT, (x, y), 7, 3)
        pygame.draw.line(surface, ALERT, (x - 5, y - 5), (x + 5, y + 5), 3)
    ghost = scene.picture.free_motion()
    if ghost is not None:
        _ghost(scene, surface, ghost)
        for q in s.free.moving():
            pygame.draw.circle(surface, MARK, scene.picture.point_of(int(q)), 10, 3)
    model = s.model
    for hit, colour in ((scene.selected, TENSION), (scene.hover, MUTED)):
        if hit is not None and hit.kind == "node" and hit.id in model.node_ids:
            pygame.draw.circle(surface, colour, scene.picture.point_of(model.node_index(hit.id)), 12, 2)


def _put(scene, surface: pygame.Surface, font: str, text: str, at: tuple[float, float], colour, anchor: str) -> None:
    """A label placed in the frame's label layer (the structure's labels then keep clear
    of it) and drawn now."""
    painter = scene.picture.painter
    sketch = Sketch(surface.get_clip() or surface.get_rect())
    painter.labels.put(sketch, font, text, at, colour, anchor)
    painter.backend.draw(surface, sketch.items)


def _grid(scene, surface: pygame.Surface) -> None:
    """The grid new nodes snap to, in pale lines, with its spacing at the corner."""
    view, world = scene.view, scene.layout.world
    fine = step = scene.picture.grid_step()
    while step * view.scale < GRID_MIN_PX:  # a grid too fine to see is drawn coarser (both spacings said)
        step *= 5
    (x0, y1), (x1, y0) = view.world(world.left, world.top), view.world(world.right, world.bottom)
    for k in range(math.ceil(x0 / step), math.floor(x1 / step) + 1):
        sx = round(view.point(k * step, 0)[0])
        pygame.draw.line(surface, GRID, (sx, world.top), (sx, world.bottom))
    for k in range(math.ceil(y0 / step), math.floor(y1 / step) + 1):
        sy = round(view.point(0, k * step)[1])
        pygame.draw.line(surface, GRID, (world.left, sy), (world.right, sy))
    if step > fine:
        words = _("grid {step}, nodes snap to {fine}").format(step=_length(step), fine=_length(fine))
    else:
        words = _("grid {step}").format(step=_length(step))
    _put(scene, surface, "small", words, (world.left + 8, world.top + 8), MUTED, "topleft")


def _length(metres: float) -> str:
    """A length to three significant figures in plain digits: 20 cm, 1.5 m, 9,770,000 m
    (never 9.77e+06 m)."""
    value, unit = (metres * 100, "cm") if metres < 1 else (metres, "m")
    if value < 1000:
        return f"{figure(value).replace('.', decimal_mark())} {unit}"  # under 1000: no group mark, one decimal mark
    return f"{decimal(round(value, 2 - math.floor(math.log10(value))), 0)} {unit}"


def _scale_bar(scene, surface: pygame.Surface) -> None:
    """A bar of a round length, about 100 px long, at the world's lower left."""
    view, world = scene.view, scene.layout.world
    length = nice_step(100 / view.scale)
    px = length * view.scale
    x, y = world.left + 14, world.bottom - 14
    pygame.draw.line(surface, INK, (x, y), (x + px, y), 2)
    for end in (x, x + px):
        pygame.draw.line(surface, INK, (end, y - 5), (end, y + 1), 2)
    _put(scene, surface, "small", _length(length), (x + px / 2, y - 6), INK, "midbottom")


def _zone(scene, surface: pygame.Surface) -> None:
    bench = scene.session.level_bench
    zone = bench.level.player.zone if bench is not None else None
    if not zone:
        return
    area = surface.get_clip() or surface.get_rect()
    scene.picture.painter.backend.draw(surface, zone_items(area, scene.view, zone, ZONE, TENSION))  # under the ground and the structure, drawn next


def _ends(model, mid: str) -> tuple[int, int]:
    i, j = member_ends(model)[model.member_index(mid)]
    return int(i), int(j)


def _zero_marks(scene, surface: pygame.Surface) -> None:
    s = scene.session
    bench = s.level_bench
    if bench is None:  # only a zero-force level has marks (or removals)
        return
    for mid in bench.marked():
        if mid in s.model.member_ids:
            i, j = _ends(s.model, mid)
            a, b = scene.picture.point_of(i), scene.picture.point_of(j)
            draw.dashed(surface, MARK, a, b, 6, 10, 6)
            _put(scene, surface, "bold", "0", ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 10), MARK, "midbottom")
    for mid, (a, b) in removed_members(scene).items():  # taken out of the truss: thin and dashed, to click back
        draw.dashed(surface, MARK, a, b, 2, 6, 6)
        _put(scene, surface, "small", f"{mid} out", ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 6), MARK, "midbottom")


def _section_cuts(scene, surface: pygame.Surface, *, place: bool = False) -> None:
    """The student's section: a stroke across each member cut, and the force they gave in
    it (their own answer, as given: "?" until they give one). `place`: only keep room
    for the labels, before the structure's own (beside the stroke, else further out);
    then, over the structure, the strokes and the labels where room was kept."""
    s = scene.session
    bench = s.level_bench
    if bench is None or not hasattr(bench, "cuts"):
        return
    labels, font = scene.picture.painter.labels, scene.app.fonts.bold
    area = surface.get_clip() or surface.get_rect()
    for mid, force in bench.cuts().items():
        if mid not in s.model.member_ids:
            continue
        i, j = _ends(s.model, mid)
        a, b = scene.picture.point_of(i), scene.picture.point_of(j)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        length = max(math.hypot(b[0] - a[0], b[1] - a[1]), 1e-9)
        nx, ny = -(b[1] - a[1]) / length * CUT_PX, (b[0] - a[0]) / length * CUT_PX  # across the member
        if ny > 0:
            nx, ny = -nx, -ny  # the label at the stroke's upper end first
        said = "?" if force is None else f"{force / 1e3:+.4g} kN".replace("-", "−").replace(".", decimal_mark())  # as typed, in the language's marks
        text = f"{mid} {said}"
        if place:
            _keep_room(area, labels, text, (mx, my), (nx, ny))
            continue
        pygame.draw.line(surface, MARK, (mx - nx, my - ny), (mx + nx, my + ny), 4)
        kept = labels.held.get(text)
        if kept is not None:
            draw.place(surface, scene.picture.painter.backend.image("bold", text, MARK), kept.center)
        else:  # no room anywhere near: the student's own answer is drawn all the same
            draw.label(surface, font, text, (mx + nx, my + ny - 4), MARK, "midbottom")


def _keep_room(area: pygame.Rect, labels, text: str, mid: tuple[float, float], across: tuple[float, float]) -> None:
    """Keep room for a cut's label beside its stroke (`across`: the stroke's half [px]),
    above it first, then below and to the sides, then further out."""
    (mx, my), (nx, ny) = mid, across
    places = [((nx, ny - 4), "midbottom"), ((-nx, -ny + 4), "midtop"), ((CUT_PX, 0), "midleft"), ((-CUT_PX, 0), "midright")]
    places += [((d * CUT_PX, -CUT_PX), "bottomleft" if d > 0 else "bottomright") for d in (1, -1)]
    places += [((d * CUT_PX, CUT_PX), "topleft" if d > 0 else "topright") for d in (1, -1)]
    for f in (1.0, 2.0, 3.0):
        for (dx, dy), anchor in places:
            if labels.keep(area, "bold", text, (mx + dx * f, my + dy * f), anchor):
                return


def _ghost(scene, surface: pygame.Surface, pos) -> None:
    """The structure moved along its free motion, thin and dashed."""
    model = scene.session.model
    pts = scene.view.points(pos)
    for mid in model.member_ids:
        i, j = _ends(model, mid)
        draw.dashed(surface, MARK, tuple(pts[i]), tuple(pts[j]), 2, 6, 5)
