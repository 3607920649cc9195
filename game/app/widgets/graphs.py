"""Graphs of a running simulation: a Recorder that keeps named quantities over time, and
a GraphPanel that plots them, one or more against time or against another quantity
(load against displacement, as in seed 000 Figures 4 and 5), with CSV and PNG export.

A quantity is named by the engine's record grammar (engine/records.py SPECS and WHOLE,
what `simulate --record` takes too): `time`, `node.ID.y`, `member.ID.axial`,
`reaction.ID.fy`, `load.ID.fy`, `triangle.ID.sx`, `energy.strain`, … This module only
says how to show each: in words, and in which unit.

Values are recorded in SI, as the engine gives them, and written to CSV in SI. Only the
display converts (DISPLAY, by the SI unit): positions become displacements from the
start position (the model's `pos0`) in mm, rotations degrees, forces kN, moments kN m,
stresses MPa.

The Recorder uses no pygame; the GraphPanel draws with it.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import BACKGROUND, COMPRESSION, INK, MUTED, PANEL, REACTION, RULE, TENSION, Colour, Fonts, mix
from equilibria.engine import records
from equilibria.engine.simulation import Simulation, make_probe
from equilibria.files.store import write_bytes_atomic
from equilibria.words.i18n import N_, _, decimal_mark

# Five minutes of one sample per 60 Hz frame. Each channel's buffer is a ring, allocated
# whole when the channel is added: once full, each new sample overwrites the oldest, so
# memory stays at CAPACITY × 8 bytes per channel (144 kB) however long the session runs,
# and a channel removed (or not kept) gives its buffer back.
CAPACITY = 18_000


@dataclass(frozen=True)
class Quantity:
    """What a spec's last part means: `shown = scale × (SI value − start)`, where start
    is the node's start position for quantities with `from_start`, else 0."""

    words: str
    si: str  # unit recorded and written to CSV
    unit: str  # unit shown
    scale: float
    from_start: bool = False


# How each SI unit of the grammar is shown: (unit shown, scale).
DISPLAY = {
    "m": ("mm", 1e3),
    "rad": ("°", 180.0 / math.pi),
    "m/s": ("m/s", 1.0),
    "rad/s": ("°/s", 180.0 / math.pi),
    "N": ("kN", 1e-3),
    "N m": ("kN m", 1e-3),
    "Pa": ("MPa", 1e-6),
    "J": ("J", 1.0),
    "s": ("s", 1.0),
}
# The words for each quantity of the grammar, by its part (a node's position is shown as
# its displacement from the start: FROM_START).
WORDS: dict[str, dict[str, str]] = {
    "node": {
        "x": N_("x displacement"),
        "y": N_("y displacement"),
        "rot": N_("rotation"),
        "dx": N_("x displacement"),
        "dy": N_("y displacement"),
        "drot": N_("rotation"),
        "vx": N_("x velocity"),
        "vy": N_("y velocity"),
        "vrot": N_("angular velocity"),
    },
    "member": {
        "axial": N_("axial force (+ pulls)"),
        "shear_i": N_("shear at end i"),
        "moment_i": N_("moment at end i"),
        "moment_j": N_("moment at end j"),
    },
    "reaction": {
        "fx": N_("x reaction"),
        "fy": N_("y reaction"),
        "m": N_("moment reaction"),
        "normal": N_("normal force"),
        "friction": N_("friction force"),
    },
    "load": {"fx": N_("x load"), "fy": N_("y load"), "m": N_("load moment")},
    "triangle": {"sx": "σx", "sy": "σy", "txy": "τxy"},
}
FROM_START = {("node", "x"), ("node", "y"), ("node", "rot")}
_WHOLE_WORDS = {"time": N_("time"), "energy.kinetic": N_("kinetic energy"), "energy.strain": N_("strain energy")}
_WHOSE = {"node": N_("node"), "member": N_("member"), "reaction": N_("support"), "load": N_("node"), "triangle": N_("triangle")}


def _shown(words: str, si: str, from_start: bool = False) -> Quantity:
    return Quantity(words, si, *DISPLAY[si], from_start)


# Every quantity the grammar names, with how it is shown.
QUANTITIES: dict[str, dict[str, Quantity]] = {
    part: {what: _shown(WORDS[part][what], si, (part, what) in FROM_START) for what, si in quantities.items()} for part, quantities in records.SPECS.items()
}
_WHOLE = {spec: _shown(_WHOLE_WORDS[spec], si) for spec, si in records.WHOLE.items()}


def parse(spec: str) -> tuple[str, str, Quantity]:
    """(part, id, quantity) of a spec; ValueError says what is wrong (the engine's
    grammar, engine/records.py). Ids are checked only against a model, when the Recorder
    first samples."""
    read = records.parse(spec)
    return read.part, read.ident, _WHOLE[spec] if spec in _WHOLE else QUANTITIES[read.part][read.what]


def label(spec: str) -> str:
    """A human label with the display unit: 'node B, y displacement [mm]'."""
    kind, ident, q = parse(spec)
    head = f"{_(_WHOSE[kind])} {ident}, {_(q.words)}" if ident else _(q.words)
    return f"{head} [{q.unit}]"


def unit(spec: str) -> str:
    """The display unit of a spec (mm, kN, …)."""
    return parse(spec)[2].unit


class _Channel:
    """One recorded quantity: its spec, how to show it, its probe into a simulation and
    its samples."""

    def __init__(self, spec: str, capacity: int):
        self.spec = spec
        self.kind, self.ident, self.quantity = parse(spec)
        self.values = np.full(capacity, math.nan)  # (capacity,) float64 [SI], a ring; NaN before the channel was added
        self.probe: Callable[[], float] = _nan
        self.start = 0.0  # [SI] subtracted for display
        self.problem: str | None = None

    def bind(self, sim: Simulation) -> None:
        """Point the probe at sim; a spec the model cannot answer records NaN."""
        self.problem, self.start = None, 0.0
        try:
            self.probe = make_probe(sim, self.spec)
        except ValueError as error:
            self.probe, self.problem = _nan, str(error)
            return
        if self.quantity.from_start:
            what = self.spec.rsplit(".", 1)[1]
            self.start = float(sim.model.arrays.pos0[sim.model.node_index(self.ident), ("x", "y", "rot").index(what)])


def _nan() -> float:
    return math.nan


class Recorder:
    """Named quantities of a Simulation over simulated time, in a ring buffer of
    `capacity` samples (CAPACITY by default). `time` is always the first channel.

    Call `sample(sim)` once per frame. A sample identical to the last (a paused
    simulation) is not stored; time that runs backwards (a restart) clears the record.
    """

    def __init__(self, specs: Sequence[str] = (), capacity: int = CAPACITY):
        if capacity < 2:
            raise ValueError("a recorder needs room for at least 2 samples")
        self.capacity = capacity
        self._channels: list[_Channel] = [_Channel("time", capacity)]
        self._next = 0  # ring index the next sample goes to, in every channel
        self._count = 0
        self._bound: tuple[object, object, object] | None = None  # (sim, state, model) the probes read
        for spec in specs:
            self.add(spec)

    # ------------------------------------------------------------------ channels
    @property
    def specs(self) -> tuple[str, ...]:
        return tuple(ch.spec for ch in self._channels)

    @property
    def problems(self) -> dict[str, str]:
        """Specs the simulation cannot answer (an unknown id), which record NaN, and why."""
        return {ch.spec: ch.problem for ch in self._channels if ch.problem}

    @property
    def nbytes(self) -> int:
        """Bytes the channels' buffers hold."""
        return sum(ch.values.nbytes for ch in self._channels)

    def add(self, spec: str) -> None:
        """Record `spec` from the next sample on (earlier samples hold NaN for it)."""
        if spec in self.specs:
            return
        channel = _Channel(spec, self.capacity)  # raises ValueError on a malformed spec
        if self._bound is not None:
            channel.bind(self._bound[0])
        self._channels.append(channel)

    def remove(self, spec: str) -> None:
        """Stop recording `spec` and free its buffer."""
        if spec == "time":
            raise ValueError("time is always recorded")
        del self._channels[self._column(spec)]

    def keep(self, specs: Iterable[str]) -> None:
        """Stop recording, and free, every channel not in `specs` (time is always kept);
        the others keep their samples and their order. Specs not recorded are ignored."""
        wanted = {"time", *specs}
        self._channels = [ch for ch in self._channels if ch.spec in wanted]

    def label(self, spec: str) -> str:
        return label(spec)

    def unit(self, spec: str) -> str:
        return unit(spec)

    # ------------------------------------------------------------------ recording
    def sample(self, sim: Simulation) -> bool:
        """Append the current values; False when nothing changed since the last sample."""
        if self._bound is None or any(a is not b for a, b in zip(self._bound, (sim, sim.state, sim.model), strict=True)):
            self._bound = (sim, sim.state, sim.model)
            for ch in self._channels:
                ch.bind(sim)
        row = np.array([ch.probe() for ch in self._channels])
        if self._count:
            last = np.array([ch.values[self._next - 1] for ch in self._channels])
            if row[0] < last[0]:
                self.clear()
            elif np.array_equal(row, last, equal_nan=True):
                return False
        for ch, value in zip(self._channels, row, strict=True):
            ch.values[self._next] = value
        self._next = (self._next + 1) % self.capacity
        self._count = min(self._count + 1, self.capacity)
        return True

    def clear(self) -> None:
        for ch in self._channels:
            ch.values[:] = math.nan
        self._next = self._count = 0

    def __len__(self) -> int:
        return self._count

    def series(self, spec: str) -> np.ndarray:
        """The recorded values of `spec`, oldest first, in SI (a copy)."""
        return self._oldest_first(self._channels[self._column(spec)].values)

    def shown(self, spec: str) -> np.ndarray:
        """The recorded values of `spec` in display units (see `label`)."""
        ch = self._channels[self._column(spec)]
        return (self.series(spec) - ch.start) * ch.quantity.scale

    def _column(self, spec: str) -> int:
        for k, ch in enumerate(self._channels):
            if ch.spec == spec:
                return k
        raise KeyError(f"{spec!r} is not recorded (recording: {', '.join(self.specs)})")

    def _oldest_first(self, ring: np.ndarray) -> np.ndarray:
        """The recorded part of a channel's ring, oldest first (a copy)."""
        if self._count < self.capacity:
            return ring[: self._count].copy()
        return np.concatenate((ring[self._next :], ring[: self._next]))

    def to_csv(self, path: str | os.PathLike) -> None:
        """A header row (spec and SI unit: `node.B.y [m]`), then one row per sample,
        oldest first; floats written exactly (repr), NaN as `nan`. Written atomically;
        SaveError names the file when that fails."""
        text = io.StringIO()
        out = csv.writer(text)
        out.writerow([f"{ch.spec} [{ch.quantity.si}]" for ch in self._channels])
        out.writerows(np.column_stack([self._oldest_first(ch.values) for ch in self._channels]).tolist())
        write_bytes_atomic(path, text.getvalue().encode("utf-8"))


# ---------------------------------------------------------------------- plotting
def nice_ticks(lo: float, hi: float, most: int = 5) -> list[float]:
    """Tick values 1, 2 or 5 × 10^n apart that cover [lo, hi] in at most about `most`
    steps; the first tick ≤ lo, the last ≥ hi. A range under 1e-5 of its values (round-off
    and leftover vibration on a structure at rest: not worth a scale of its own) counts as
    zero, and a zero range is widened around its value (by 10 % of it, or by 1 at zero);
    non-finite input gives []."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    lo, hi = min(lo, hi), max(lo, hi)
    if hi - lo <= 1e-5 * max(abs(lo), abs(hi)):
        half = 0.1 * abs(lo) or 1.0
        lo, hi = lo - half, hi + half
    raw = (hi - lo) / max(most, 1)
    magnitude = 10.0 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw * (1 - 1e-9))
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    digits = max(0, 1 - math.floor(math.log10(step)))
    return [round(k * step, digits) + 0.0 for k in range(first, last + 1)]  # + 0.0: no −0


def tick_text(value: float, step: float) -> str:
    """A tick value with as many decimals as its step needs, and a true minus sign."""
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step > 0 else 0
    if abs(value) >= 1e6 or decimals > 4:  # enough significant digits to tell ticks apart
        digits = max(3, math.ceil(math.log10(abs(value) / step)) + 1) if value and step > 0 else 3
        return f"{value:.{digits}g}".replace("-", "−").replace(".", decimal_mark())
    return f"{round(value, decimals) + 0.0:.{decimals}f}".replace("-", "−").replace(".", decimal_mark())  # + 0.0: no −0


SERIES: tuple[Colour, ...] = (TENSION, COMPRESSION, REACTION)  # blue, orange, green: apart for every eye (palette.SIDE_BY_SIDE)
GRID: Colour = mix(BACKGROUND, RULE, 0.55)
MARKERS = ("circle", "square", "triangle")  # the latest point, one shape per series


@dataclass(frozen=True)
class Plot:
    """Where a drawn plot put its data: the plot area and the axis ranges (display units)."""

    area: pygame.Rect
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    def to_px(self, x: np.ndarray | float, y: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
        (x0, x1), (y0, y1), a = self.x_range, self.y_range, self.area
        return a.left + (np.asarray(x) - x0) / (x1 - x0) * (a.width - 1), a.bottom - 1 - (np.asarray(y) - y0) / (y1 - y0) * (a.height - 1)


class GraphPanel:
    """Up to three recorded quantities against time or against another quantity.

    `show(["reaction.A.fy"], x="node.B.dy")` picks the axes (and records what is not yet
    recorded); `draw(surface, rect)` draws it; `save_png(path)` saves it alone.
    Several y quantities share one axis, so they read best in the same unit.
    """

    MAX_Y = 3

    def __init__(self, recorder: Recorder, fonts: Fonts, y: Sequence[str] = (), x: str = "time"):
        self.recorder, self.fonts = recorder, fonts
        self.x, self.y = "time", ()
        self.show(y, x)

    def show(self, y: Sequence[str], x: str = "time") -> None:
        if len(y) > self.MAX_Y:
            raise ValueError(f"a graph shows at most {self.MAX_Y} quantities against one axis")
        for spec in (x, *y):
            self.recorder.add(spec)
        self.x, self.y = x, tuple(y)

    def draw(self, surface: pygame.Surface, rect: pygame.Rect) -> Plot:
        """Draw into rect of surface; returns where the data went."""
        font = self.fonts.small
        line = max(font.get_linesize(), font.size("[Ag]")[1])  # a text's box is taller than the line's step at some sizes
        clip = surface.get_clip()
        surface.set_clip(rect.clip(clip))
        pygame.draw.rect(surface, PANEL, rect)
        xs = self.recorder.shown(self.x)
        ys = [self.recorder.shown(s) for s in self.y]
        keep = [np.isfinite(xs) & np.isfinite(v) for v in ys]

        # ranges and ticks; the y ticks first, since their width sets the left margin
        top = rect.top + 6 + len(self.y) * (line + 2)  # below the key
        bottom = rect.bottom - 6 - 2 * line - 4
        y_all = np.concatenate([v[ok] for v, ok in zip(ys, keep, strict=True)]) if ys else np.empty(0)
        x_all = np.concatenate([xs[ok] for ok in keep]) if keep else np.empty(0)
        empty = y_all.size == 0
        y_ticks = nice_ticks(*((y_all.min(), y_all.max()) if not empty else (0.0, 1.0)), most=max(2, (bottom - top - 8) // max(40, 2 * line)))
        y_step = y_ticks[1] - y_ticks[0]
        y_texts = [tick_text(t, y_step) for t in y_ticks]

        # key: one row per quantity, with its marker and latest value (a digit finer than the ticks)
        for k, (spec, v, ok) in enumerate(zip(self.y, ys, keep, strict=True)):
            mid = rect.top + 6 + k * (line + 2) + line // 2
            pygame.draw.line(surface, SERIES[k], (rect.left + 8, mid), (rect.left + 30, mid), 2)
            _marker(surface, k, (rect.left + 19, mid))
            now = f" = {tick_text(float(v[ok][-1]), y_step / 10)}" if ok.any() else ""
            draw.label(surface, font, label(spec) + now, (rect.left + 38, mid), INK, "midleft", None)

        left = rect.left + 6 + line + 4 + max(font.size(t)[0] for t in y_texts) + 6
        gap = max(8, line // 2 + 1)  # the top tick's label, centred on the frame, clear of the key
        area = pygame.Rect(left, top + gap, rect.right - 14 - left, bottom - top - gap)
        if area.width < 20 or area.height < 20:
            surface.set_clip(clip)
            return Plot(area, (0.0, 1.0), (0.0, 1.0))
        x_ticks = nice_ticks(*((x_all.min(), x_all.max()) if not empty else (0.0, 1.0)), most=max(2, area.width // self.fonts.px(90)))
        x_step = x_ticks[1] - x_ticks[0]
        plot = Plot(area, (x_ticks[0], x_ticks[-1]), (y_ticks[0], y_ticks[-1]))

        # axes: grid, zero lines, frame, tick labels, axis labels
        pygame.draw.rect(surface, BACKGROUND, area)
        written: list[pygame.Rect] = []
        for t, text in zip(y_ticks, y_texts, strict=True):
            py = round(float(plot.to_px(0.0, t)[1]))
            pygame.draw.line(surface, MUTED if t == 0 else GRID, (area.left, py), (area.right - 1, py))
            low = py >= area.bottom - font.get_linesize() // 2  # the lowest: kept above the x axis's labels
            box = pygame.Rect((0, 0), font.size(text))
            setattr(box, "bottomright" if low else "midright", (area.left - 5, area.bottom if low else py))
            if box.collidelist(written) < 0:  # a short plot in large text: a tick too close to the one below keeps its line, not its words
                written.append(draw.label(surface, font, text, (area.left - 5, area.bottom if low else py), MUTED, "bottomright" if low else "midright", None))
        for t in x_ticks:
            px = round(float(plot.to_px(t, 0.0)[0]))
            pygame.draw.line(surface, MUTED if t == 0 and self.x != "time" else GRID, (px, area.top), (px, area.bottom - 1))
            draw.label(surface, font, tick_text(t, x_step), (px, area.bottom + 3), MUTED, "midtop", None)
        pygame.draw.rect(surface, RULE, area, 1)
        draw.label(surface, font, label(self.x), (area.centerx, area.bottom + 3 + line), INK, "midtop", None)
        units = list(dict.fromkeys(unit(s) for s in self.y))
        if units:
            text = pygame.transform.rotate(font.render(f"[{', '.join(units)}]", True, INK), 90)
            surface.blit(text, text.get_rect(midleft=(rect.left + 6, area.centery)))
        if empty:
            why = next((p for spec, p in self.recorder.problems.items() if spec in (self.x, *self.y)), _("no samples yet"))
            draw.label(surface, font, why, area.center, MUTED, "center", None)

        # the data, and its latest point
        surface.set_clip(area.clip(clip))
        for k, (v, ok) in enumerate(zip(ys, keep, strict=True)):
            if not ok.any():
                continue
            px, py = plot.to_px(xs[ok], v[ok])
            points = np.column_stack((px, py))
            if len(points) > 1:
                pygame.draw.lines(surface, SERIES[k], False, _thin(points, area.width).tolist(), 2)
            _marker(surface, k, (float(px[-1]), float(py[-1])))
        surface.set_clip(clip)
        return plot

    def save_png(self, path: str | os.PathLike, size: tuple[int, int] = (800, 480)) -> Plot:
        """The plot alone, `size` px, saved as PNG (atomically; SaveError names the file
        when that fails); returns where the data went."""
        image = pygame.Surface(size)
        plot = self.draw(image, image.get_rect())
        draw.save_png(image, path)
        return plot


def _thin(points: np.ndarray, width: int) -> np.ndarray:
    """About 2 points per pixel column, so a long record draws fast: each run of `step`
    consecutive points keeps its lowest and highest on screen, in their order, so peaks
    survive (a plain stride would alias a fast oscillation into a slow one)."""
    step = len(points) // max(width, 1)
    if step < 3:
        return points
    n = len(points) // step * step
    y = points[:n, 1].reshape(-1, step)
    pick = np.sort(np.column_stack((y.argmax(axis=1), y.argmin(axis=1))), axis=1)
    rows = (np.arange(len(y))[:, None] * step + pick).ravel()
    return np.vstack((points[rows], points[n:]))


def _marker(surface: pygame.Surface, k: int, at: tuple[float, float]) -> None:
    """The latest point of series k: a circle, a square or a triangle, outlined in ink."""
    x, y = round(at[0]), round(at[1])
    shape = MARKERS[k]
    if shape == "circle":
        pygame.draw.circle(surface, SERIES[k], (x, y), 5)
        pygame.draw.circle(surface, INK, (x, y), 5, 1)
    elif shape == "square":
        pygame.draw.rect(surface, SERIES[k], (x - 4, y - 4, 9, 9))
        pygame.draw.rect(surface, INK, (x - 4, y - 4, 9, 9), 1)
    else:
        tip = [(x, y - 6), (x + 6, y + 4), (x - 6, y + 4)]
        pygame.draw.polygon(surface, SERIES[k], tip)
        pygame.draw.polygon(surface, INK, tip, 1)
