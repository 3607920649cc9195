"""A running structure as the player sees it: ground, plates, members, joints, supports,
loads and reactions, with forces shown by colour and width.

Reads the engine's public Simulation (state arrays, reactions) and Model (ids, element
arrays, loads) and never writes them. Glossary: N axial force [N], positive in tension;
σm = (σx + σy)/2 a plate's mean stress [Pa], positive in tension.
"""

from __future__ import annotations

import math

import numpy as np
import pygame

from engine import Model, Simulation
from engine.linear import nodal_loads
from game.app import draw, symbols
from game.app.palette import (
    BROKEN,
    GROUND,
    GROUND_LINE,
    INK,
    JOINT,
    LOAD,
    MARK,
    MEMBER_MAX_PX,
    MEMBER_MIN_PX,
    MUTED,
    PLATE,
    REACTION,
    SIGN_COLOUR,
    ZERO_SHARE,
    Fonts,
    mix,
)
from game.app.stage import Stage
from game.app.view import View

JOINT_PX = 4.5  # radius of a pin joint [px]
SMOOTH_UP_TO = 400  # members; more are drawn without anti-aliased edges, to stay fast


class Scale:
    """A reference magnitude that follows a new peak at once and falls back slowly
    (so that widths do not flicker as a structure vibrates), never below `floor`."""

    def __init__(self, floor: float, decay: float = 0.97):
        self.floor = floor
        self.decay = decay
        self.peak = 0.0

    @property
    def value(self) -> float:
        return max(self.peak, self.floor)

    def update(self, value: float) -> float:
        """Take this frame's largest magnitude; return the reference."""
        self.peak = max(value, self.peak * self.decay)
        return self.value


def full_loads(model: Model) -> tuple[np.ndarray, np.ndarray]:
    """Per node: the load at its fullest (N, 3) [N, N, N m], each load at the history
    value of largest size, and the time its last history ends (N,) [s] (0: constant)."""
    m = model.arrays
    full = np.zeros((model.n_nodes, 3))
    ends = np.zeros(model.n_nodes)
    for k, node in enumerate(m.load_node.astype(np.int64)):
        h = int(m.load_hist[k])
        if h < 0:
            full[node] += m.load_f[k]
            continue
        values = m.hist_v[m.hist_start[h] : m.hist_start[h + 1]]
        full[node] += values[np.argmax(np.abs(values))] * m.load_f[k]
        ends[node] = max(ends[node], float(m.hist_t[m.hist_start[h + 1] - 1]))
    return full, ends


def kn(force: float) -> str:
    return f"{abs(force) / 1e3:.3g} kN"


class Vehicle:
    """A goal's moving load (game/level.py MovingLoad) drawn as a truck on the deck.

    The level turns it into nodal loads with hat-shaped histories; here the same
    shares say where it is: at arc length s = speed (t − start) along the path (negative:
    still to come, past the end: gone)."""

    def __init__(self, moving, model: Model):
        self.moving = moving
        self.path = np.array([model.node_index(n) for n in moving.path], dtype=np.int64)
        self.force = np.array([moving.fx, moving.fy])
        where = {n: tuple(model.arrays.pos0[model.node_index(n), :2]) for n in moving.path}
        self.hats = [load["history"] for load in moving.loads(where)]
        steps = np.diff(model.arrays.pos0[self.path, :2], axis=0)
        self.stations = np.concatenate(([0.0], np.cumsum(np.hypot(steps[:, 0], steps[:, 1]))))  # [m] along the path

    def shares(self, t: float) -> np.ndarray:
        """The share of the load each path node carries at time t (the hat functions)."""
        return np.array([np.interp(t, [h[0][0], h[1][0], h[2][0]], [0.0, 1.0, 0.0]) for h in self.hats])

    def where(self, t: float, pts: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
        """The point on screen under the vehicle and the unit direction it drives in:
        its distance along the path as built, laid on the path where it is now (carried
        on straight before the first node and after the last)."""
        s = self.moving.speed * (t - self.moving.start)
        k = int(np.clip(np.searchsorted(self.stations, s, side="right") - 1, 0, len(self.path) - 2))
        a, b = pts[self.path[k]], pts[self.path[k + 1]]
        f = (s - self.stations[k]) / max(self.stations[k + 1] - self.stations[k], 1e-12)
        at = a + f * (b - a)
        u = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
        return (float(at[0]), float(at[1])), (float(u[0]), float(u[1]))

    def draw(self, surface: pygame.Surface, fonts: Fonts, t: float, pts: np.ndarray) -> None:
        """A truck standing on the deck where the load is (half see-through, so the
        members behind it show), its weight written over it; grey before it comes on
        and after it has left."""
        on = float(self.shares(t).sum()) > 1e-9
        colour = LOAD if on else MUTED
        (x, y), (ux, _) = self.where(t, pts)
        truck = pygame.Surface((76, 36), pygame.SRCALPHA)
        body = pygame.Rect(2, 2, 52, 24) if ux >= 0 else pygame.Rect(22, 2, 52, 24)
        cab = pygame.Rect(body.right + 2, 10, 18, 16) if ux >= 0 else pygame.Rect(body.left - 20, 10, 18, 16)
        pygame.draw.rect(truck, (*colour, 170), body, border_radius=3)
        pygame.draw.rect(truck, (*colour, 200), cab, border_top_left_radius=6, border_top_right_radius=6)
        for wx in (body.left + 10, body.right - 8, cab.centerx):
            pygame.draw.circle(truck, (*INK, 230), (wx, 30), 5)
        at = truck.get_rect(midbottom=(round(x), round(y - JOINT_PX)))
        surface.blit(truck, at)
        draw.label(surface, fonts.bold, kn(float(np.hypot(*self.force))), (at.centerx, at.top - 2), colour, "midbottom")


class StructurePainter:
    """Draws one stage's structure; keeps only its own scales between frames."""

    def __init__(self, fonts: Fonts, stage: Stage, model: Model | None, supports: list[tuple[str, frozenset[str]]] | None = None):
        """supports: (node id, locked DOFs) of each support drawn (default: the stage's)."""
        self.fonts = fonts
        self.stage = stage
        self.model = model
        self.full, self.load_ends = full_loads(model) if model else (np.zeros((0, 3)), np.zeros(0))
        goal = stage.level.goal if stage.level is not None else None
        self.vehicle = Vehicle(goal.moving_load, model) if model is not None and goal and goal.moving_load else None
        if self.vehicle is not None:  # drawn as one vehicle, not as a load at every deck node
            self.full[self.vehicle.path, :2] -= self.vehicle.force
            self.full[np.abs(self.full) < 1e-9 * max(1.0, float(np.abs(self.vehicle.force).max()))] = 0.0
        self.load_ref = float(np.hypot(self.full[:, 0], self.full[:, 1]).max(initial=0.0))
        if self.vehicle is not None:
            self.load_ref = max(self.load_ref, float(np.hypot(*self.vehicle.force)))
        self.member_scale = Scale(max(self.load_ref, 1.0))
        self.plate_scale = Scale(1.0)
        self.supports: list[tuple[int, str, tuple[float, float]]] = []
        self.rigid = np.zeros(0, dtype=bool)
        empty = np.zeros((0, 2), dtype=np.int64)
        self.bar_ij = model.arrays.bar_ij.astype(np.int64) if model else empty
        self.beam_ij = model.arrays.beam_ij.astype(np.int64) if model else empty
        self.member_ij = np.concatenate((self.bar_ij, self.beam_ij))
        if model is not None:
            self.rigid = np.zeros(model.n_nodes, dtype=bool)
            self.rigid[self.beam_ij.ravel()] = True
            placed = [(model.node_index(node), symbols.support_type(fix)) for node, fix in (stage.supports() if supports is None else supports)]
            for q, kind in placed:
                self.supports.append((q, kind, self._side(q, kind, walled=self._on_wall(q, [p for p, _ in placed]))))

    @property
    def loads_to_come(self) -> bool:
        """Whether some load follows a history (and may be drawn as still to come)."""
        return bool((self.load_ends > 0).any())

    # ------------------------------------------------------------------ layout
    def _on_wall(self, q: int, supported: list[int]) -> bool:
        """Whether another support sits straight above or below this one (a wall)."""
        pos = self.model.arrays.pos0
        tol = 1e-6 * self.model.char_length
        return any(p != q and abs(pos[p, 0] - pos[q, 0]) <= tol and abs(pos[p, 1] - pos[q, 1]) > tol for p in supported)

    def _side(self, q: int, kind: str, *, walled: bool) -> tuple[float, float]:
        """Where a support's symbol goes (a unit vector on screen), away from the
        members at the node: pins and rollers on x sit below (above if the members
        hang down), or on a wall beside when supports line up one above another; a
        roller locking x sits beside; a fixed block on the side nearest the opposite
        of the members."""
        m = self.model.arrays
        pos = m.pos0[:, :2]
        out = np.zeros(2)
        for ij in (self.bar_ij, self.beam_ij, m.tri_ijk.astype(np.int64)):
            others = ij[(ij == q).any(axis=1)].ravel()
            d = pos[others[others != q]] - pos[q]
            out += (d / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-12)[:, None]).sum(axis=0)
        away = (-out[0], out[1])  # screen: y down
        beside = (1.0, 0.0) if away[0] > 0 else (-1.0, 0.0)
        if kind == "roller_x" or (kind == "pin" and walled):
            return beside
        if kind in ("pin", "roller"):
            return (0.0, -1.0) if away[1] < 0 and abs(out[1]) > abs(out[0]) else (0.0, 1.0)
        if abs(away[0]) > abs(away[1]):
            return beside
        return (0.0, -1.0) if away[1] < 0 else (0.0, 1.0)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, view: View, sim: Simulation | None, *, values: bool, forces: bool = True, pos: np.ndarray | None = None) -> None:
        """Everything, in the order that keeps the important things on top. forces
        False draws every member alike (a puzzle that asks which carry nothing); `pos`
        (N, 2) [m] draws the structure there instead of where it is (a magnified
        deflection, a mechanism's motion)."""
        self._ground(surface, view)
        if sim is None:
            return
        pts = view.points(sim.state.pos[:, :2] if pos is None else pos[:, :2])
        self._plates(surface, sim, pts)
        labels, first = self._members(surface, sim, pts, values=values and forces, forces=forces)
        self._joints(surface, pts)
        for q, kind, side in self.supports:
            symbols.support(surface, kind, tuple(pts[q]), side)
        self._reactions(surface, sim, pts)
        self._loads(surface, sim, pts)
        if values:
            for text, at, colour, anchor in labels:
                draw.label(surface, self.fonts.small, text, at, colour, anchor)
        if first is not None:
            self._mark_first(surface, *first)

    def _ground(self, surface: pygame.Surface, view: View) -> None:
        """The ground polyline, carried on level to the screen's edges, earth below it."""
        ground = self.stage.ground
        if len(ground) < 2:
            return
        area = surface.get_clip() or surface.get_rect()
        line = [view.point(x, y) for x, y in ground]
        line = [(min(area.left, line[0][0]), line[0][1]), *line, (max(area.right, line[-1][0]), line[-1][1])]
        pygame.draw.polygon(surface, GROUND, [*line, (line[-1][0], area.bottom), (line[0][0], area.bottom)])
        pygame.draw.lines(surface, GROUND_LINE, False, line, 3)

    def _plates(self, surface: pygame.Surface, sim: Simulation, pts: np.ndarray) -> None:
        s = sim.state
        if not len(s.tri_out):
            return
        mean = 0.5 * (s.tri_out[:, 0] + s.tri_out[:, 1])
        on = s.tri_on
        ref = self.plate_scale.update(float(np.abs(mean[on]).max(initial=0.0)))
        for k, (i, j, l) in enumerate(self.model.arrays.tri_ijk.astype(np.int64)):
            if not on[k]:
                continue
            share = abs(mean[k]) / ref
            colour = mix(PLATE, SIGN_COLOUR[1 if mean[k] > 0 else -1], 0.2 + 0.8 * share) if share > ZERO_SHARE else PLATE
            tri = [tuple(pts[i]), tuple(pts[j]), tuple(pts[l])]
            pygame.draw.polygon(surface, colour, tri)
            pygame.draw.aalines(surface, mix(colour, INK, 0.35), True, tri)

    def _members(self, surface: pygame.Surface, sim: Simulation, pts: np.ndarray, *, values: bool, forces: bool) -> tuple[list, tuple | None]:
        """Draw the members (geometry worked out for all at once: thousands stay
        cheap); return their value labels (text, where, colour, anchor) if `values`,
        and the first to break (its ends on screen and when it broke), or None."""
        s = sim.state
        rows = [("bar", self.bar_ij, s.bar_N, s.bar_on, s.bar_broke), ("beam", self.beam_ij, s.beam_out[:, 0], s.beam_on, s.beam_broke)]
        if not forces:  # every member alike, middling width, grey
            rows = [(kind, ij, np.full(len(ij), 0.3 * self.member_scale.value), on, broke) for kind, ij, _, on, broke in rows]
        ref = self.member_scale.update(max(float(np.abs(axial[on]).max(initial=0.0)) for _, _, axial, on, _ in rows))
        zero = ZERO_SHARE * ref
        smooth = len(self.model.member_ids) <= SMOOTH_UP_TO
        labels: list = []
        first, first_seen = self._first_broken(s), None
        for kind, ij, axial, on, broke in rows:
            if not len(ij):
                continue
            a, b = pts[ij[:, 0]], pts[ij[:, 1]]
            width = MEMBER_MIN_PX + (MEMBER_MAX_PX - MEMBER_MIN_PX) * np.minimum(np.abs(axial) / ref, 1.0)
            d = b - a
            normal = np.stack((-d[:, 1], d[:, 0]), axis=1) / np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
            half = normal * (width / 2)[:, None]
            quads = np.stack((a + half, b + half, b - half, a - half), axis=1).tolist()
            sign = np.where(axial > zero, 1, np.where(axial < -zero, -1, 0)) if forces else np.zeros(len(ij), dtype=np.int64)
            ends_a, ends_b = a.tolist(), b.tolist()
            for r in np.flatnonzero(on):
                colour = SIGN_COLOUR[sign[r]]
                if width[r] <= 2.5:
                    pygame.draw.line(surface, colour, ends_a[r], ends_b[r], 2)
                else:
                    pygame.draw.polygon(surface, colour, quads[r])
                    if smooth:
                        pygame.draw.aalines(surface, colour, True, quads[r])
            for r in np.flatnonzero(~on):
                draw.dashed(surface, BROKEN, ends_a[r], ends_b[r], 2)
                if (kind, r) == first:
                    first_seen = (ends_a[r], ends_b[r], float(broke[r]))
            if values:
                for r in np.flatnonzero(on & (sign != 0)):
                    n = float(axial[r])
                    up = -normal[r] if normal[r, 1] > 0 or (normal[r, 1] == 0 and normal[r, 0] > 0) else normal[r]
                    at = (a[r] + b[r]) / 2 + up * (width[r] / 2 + 4)
                    labels.append((f"{'+' if n > 0 else '−'}{abs(n) / 1e3:.3g}", tuple(at), SIGN_COLOUR[sign[r]], draw.anchor_away(tuple(up))))
        return labels, first_seen

    @staticmethod
    def _first_broken(s) -> tuple[str, int] | None:
        times = [(float(t), kind, r) for kind, arr in (("bar", s.bar_broke), ("beam", s.beam_broke)) for r, t in enumerate(arr) if t >= 0]
        return min(times)[1:] if times else None

    def _mark_first(self, surface: pygame.Surface, a, b, t: float) -> None:
        """A cross on the first member to break, in the middle of its part on screen."""
        area = surface.get_clip() or surface.get_rect()
        seen = area.inflate(-40, -40).clipline(a, b)
        if not seen:
            return
        (x0, y0), (x1, y1) = seen
        cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
        for dx, dy in ((1, 1), (1, -1)):
            pygame.draw.line(surface, MARK, (cx - 8 * dx, cy - 8 * dy), (cx + 8 * dx, cy + 8 * dy), 4)
        draw.label(surface, self.fonts.small, f"broke first, t = {t:.2f} s", (cx + 12, cy), INK, "midleft")

    def _joints(self, surface: pygame.Surface, pts: np.ndarray) -> None:
        """Pins as rings, rigid (beam) joints as dots; none where members are too short
        on screen for rings to help (a dense lattice)."""
        if self.member_ij.size:
            d = pts[self.member_ij[:, 1]] - pts[self.member_ij[:, 0]]
            if float(np.median(np.hypot(d[:, 0], d[:, 1]))) < 6 * JOINT_PX:
                return
        for q, (x, y) in enumerate(pts.tolist()):
            if self.rigid[q]:
                pygame.draw.circle(surface, INK, (x, y), JOINT_PX - 1)
            else:
                pygame.draw.circle(surface, JOINT, (x, y), JOINT_PX)
                pygame.draw.circle(surface, INK, (x, y), JOINT_PX, 2)

    def _arrow_px(self, force: float, ref: float) -> float:
        return 40.0 + 36.0 * min(abs(force) / ref, 1.0)

    def _loads(self, surface: pygame.Surface, sim: Simulation, pts: np.ndarray) -> None:
        """A moving load as a vehicle where it is; the other loads as they act now, in black with their value; a load still to come (zero
        now, growing later) in grey, with the value it will reach."""
        if self.load_ref <= 0.0:
            return
        now = nodal_loads(self.model, sim.time)
        if self.vehicle is not None:
            now[self.vehicle.path, :2] -= self.vehicle.shares(sim.time)[:, None] * self.vehicle.force
            self.vehicle.draw(surface, self.fonts, sim.time, pts)
        tiny = 1e-4 * self.load_ref
        for q in np.flatnonzero(np.abs(self.full).max(axis=1) > 0):
            f, colour = now[q], LOAD
            if math.hypot(f[0], f[1]) <= tiny and abs(f[2]) <= tiny * self.model.char_length:
                if sim.time >= self.load_ends[q]:
                    continue
                f, colour = self.full[q], MUTED
            x, y = pts[q]
            size = math.hypot(f[0], f[1])
            if size > tiny:
                ux, uy = f[0] / size, -f[1] / size  # screen direction of the force
                head = (x - ux * (JOINT_PX + 2), y - uy * (JOINT_PX + 2))
                length = self._arrow_px(size, self.load_ref)
                tail = (head[0] - ux * length, head[1] - uy * length)
                draw.arrow(surface, colour, tail, head, 3)
                draw.label(surface, self.fonts.bold, kn(size), (tail[0] - ux * 4, tail[1] - uy * 4), colour, draw.anchor_away((-ux, -uy)))
            if abs(f[2]) > tiny * self.model.char_length:
                at = draw.moment_arrow(surface, colour, (x, y), 22.0, f[2] > 0)
                draw.label(surface, self.fonts.bold, f"{abs(f[2]) / 1e3:.3g} kN·m", at, colour, "bottomleft")

    def _reactions(self, surface: pygame.Surface, sim: Simulation, pts: np.ndarray) -> None:
        """Each support's reaction by components, drawn beyond its symbol: along the
        symbol's axis, and across it beside the symbol's foot; a moment as a curl."""
        if not self.supports:
            return
        r = sim.reactions()
        rows = [q for q, _, _ in self.supports]
        ref = max(self.load_ref, float(np.abs(r[rows, :2]).max(initial=0.0)), 1e-9)
        tiny = 5e-3 * ref
        for q, kind, (nx, ny) in self.supports:
            x, y = pts[q]
            reach, half = symbols.extent(kind)
            for value, ax, ay in ((r[q, 0], 1.0, 0.0), (r[q, 1], 0.0, -1.0)):
                if abs(value) <= tiny:
                    continue
                dx, dy = ax * math.copysign(1, value), ay * math.copysign(1, value)  # screen direction
                length = self._arrow_px(value, ref)
                if abs(ax * nx + ay * ny) > 0.5:  # along the symbol's axis, beyond it
                    near = (x + nx * (reach + 4), y + ny * (reach + 4))
                    toward = dx * nx + dy * ny < 0
                    far = (near[0] + nx * length, near[1] + ny * length)
                    tail, head = (far, near) if toward else (near, far)
                    out = (nx, ny)
                else:  # across the axis, beside the symbol's foot
                    foot = (x + nx * 0.7 * reach, y + ny * 0.7 * reach)
                    head = (foot[0] - dx * (half + 4), foot[1] - dy * (half + 4))
                    tail = (head[0] - dx * length, head[1] - dy * length)
                    far, out = tail, (-dx, -dy)
                draw.arrow(surface, REACTION, tail, head, 3)
                draw.label(surface, self.fonts.bold, kn(value), (far[0] + out[0] * 4, far[1] + out[1] * 4), REACTION, draw.anchor_away(out))
            if kind == "fixed" and abs(r[q, 2]) > tiny * self.model.char_length:
                at = draw.moment_arrow(surface, REACTION, (x, y), 30.0, r[q, 2] > 0)
                draw.label(surface, self.fonts.bold, f"{abs(r[q, 2]) / 1e3:.3g} kN·m", at, REACTION, "bottomleft")
