"""Contact supports as the player sees them: the surface under the node, hatched on
its far side, with μ written beside it; and the surface's force on the body as its two
components, the normal force N (square to the surface) and the friction F (along it),
each with its value, as drawing records (game/app/draw/drawlist.py) added to the
structure's picture. Reads the simulation, never writes it."""

from __future__ import annotations

import numpy as np

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.drawlist import Arrow, Line, Sketch
from equilibria.app.draw.palette import INK, REACTION
from equilibria.engine.simulation import Simulation
from equilibria.words.figures import kn
from equilibria.words.i18n import _, decimal_mark

SURFACE_HALF = 40.0  # [px] half the length of the surface drawn under a contact
HATCH = 6.0  # [px] depth of its hatching


def contact_rows(sim: Simulation) -> range:
    """The rows of sim's tethers that are the model's contact supports (they come first)."""
    return range(len(sim.model.contacts))


def contact_surfaces(sketch: Sketch, view, sim: Simulation, seen: np.ndarray, text) -> None:
    """Each contact's surface, through the node's starting point, as a line across its
    normal with hatching on the far side, and "μ = …" beside it. `text(sketch, words,
    at, colour, anchor)` places a label (the painter's, so labels never overlap)."""
    for q, nx, ny, mu in sim.model.contacts:
        if not seen[q]:
            continue
        sx, sy = -nx, ny  # screen: from the node into the surface (y down)
        tx, ty = -sy, sx
        x0, y0 = view.point(*sim.model.arrays.pos0[q, :2])
        x0, y0 = x0 + sx * 3, y0 + sy * 3  # just under the body's edge
        a = (x0 - tx * SURFACE_HALF, y0 - ty * SURFACE_HALF)
        b = (x0 + tx * SURFACE_HALF, y0 + ty * SURFACE_HALF)
        sketch.add(Line(a, b, INK, 3))
        for k in range(7):
            u = -SURFACE_HALF + 2 * SURFACE_HALF * (k + 0.5) / 7
            p = (x0 + tx * u, y0 + ty * u)
            sketch.add(Line(p, (p[0] + sx * HATCH - tx * HATCH * 0.8, p[1] + sy * HATCH - ty * HATCH * 0.8), INK, 1))
        words = _("smooth (μ = 0)") if mu == 0 else f"μ = {mu:g}".replace(".", decimal_mark())
        ends = (a, (-tx, -ty)) if (-tx, -ty) > (tx, ty) else (b, (tx, ty))  # the end to the right (or lower)
        (ex, ey), (ux, uy) = ends
        text(sketch, words, (ex + ux * 4 + sx * HATCH, ey + uy * 4 + sy * HATCH), INK, draw.anchor_away((ux, uy)))


def contact_forces(sketch: Sketch, sim: Simulation, pts: np.ndarray, seen: np.ndarray, arrows, text, tiny: float) -> None:
    """The force each contact applies to its node, split into N along the normal and F
    along the surface, as reaction arrows on the node labelled "N 8.66 kN" and
    "F 1.5 kN": N pushing out of the surface into the node, F along the surface just
    beyond the hatching; a component under `tiny` [N] is left out. `arrows`: (arrow_px,
    arrow_head), the scene's arrow length and head for a force (render.py)."""
    arrow_px, arrow_head = arrows
    forces = sim.tether_forces()
    for r in contact_rows(sim):
        q, nx, ny, _mu = sim.model.contacts[r]
        if not seen[q] or r >= len(forces):
            continue
        fx, fy = forces[r]
        normal = fx * nx + fy * ny
        friction = fx * ny - fy * nx
        x, y = pts[q]
        below = HATCH + 10.0  # [px] the friction arrow's offset into the surface side
        for name, value, (ux, uy), (ox, oy) in (
            ("N", normal, (nx, -ny), (0.0, 0.0)),
            ("F", friction, (ny, nx), (-nx * below, ny * below)),  # t = (ny, −nx), on screen (ny, nx)
        ):
            if abs(value) <= tiny:
                continue
            dx, dy = (ux, uy) if value > 0 else (-ux, -uy)  # screen direction of the component
            length = arrow_px(value)
            head = (x + ox - dx * 6, y + oy - dy * 6)
            tail = (head[0] - dx * length, head[1] - dy * length)
            sketch.add(Arrow(tail, head, REACTION, 3, *arrow_head(length)))
            text(sketch, f"{name} {kn(abs(value))}", (tail[0] - dx * 4, tail[1] - dy * 4), REACTION, draw.anchor_away((-dx, -dy)))
