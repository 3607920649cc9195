"""Drawing primitives on a pygame surface, in screen pixels: thick segments, dashes,
arrows, curved arrows for moments, hatching, text labels and wrapped text."""

from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence

import numpy as np
import pygame

from equilibria.app.draw.palette import BACKGROUND, Colour
from equilibria.files.store import write_bytes_atomic
from equilibria.words.text import plain_text


def save_png(surface: pygame.Surface, path: str | os.PathLike) -> None:
    """`surface` as a PNG file, written atomically: encoded in memory, then written,
    synced and renamed (game/files/store.py), so a full disk raises SaveError naming the file
    and leaves no empty file behind (pygame writing straight to disk does not say)."""
    png = io.BytesIO()
    pygame.image.save(surface, png, "png")
    write_bytes_atomic(path, png.getvalue())


Point = tuple[float, float]


def _along(a: Point, b: Point) -> tuple[float, float, float] | None:
    """Unit vector from a to b and the length, or None when they coincide."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (dx / length, dy / length, length) if length >= 1e-9 else None


def segment(surface: pygame.Surface, colour: Colour, a: Point, b: Point, width: float) -> None:
    """A straight band `width` px wide from a to b (square ends; joints cover them)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return
    if width <= 2.5:
        pygame.draw.line(surface, colour, a, b, max(1, round(width)))
        return
    nx, ny = -dy / length * width / 2, dx / length * width / 2
    quad = [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (b[0] - nx, b[1] - ny), (a[0] - nx, a[1] - ny)]
    pygame.draw.polygon(surface, colour, quad)
    pygame.draw.aalines(surface, colour, True, quad)


def clip_segment(a: Point, b: Point, area: pygame.Rect | tuple[float, float, float, float]) -> tuple[Point, Point, float, float] | None:
    """The part of the segment a–b inside `area` (x, y, w, h) [px], as its ends and
    their parameters t0 ≤ t1 along a → b (0 at a, 1 at b); None when none of it is
    inside. Liang–Barsky: each side of the box bounds t from one side."""
    x, y, w, h = area
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, a[0] - x), (dx, x + w - a[0]), (-dy, a[1] - y), (dy, y + h - a[1])):
        if p == 0.0:
            if q < 0.0:
                return None  # parallel to this side and outside it
            continue
        t = q / p
        if p < 0.0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (a[0] + t0 * dx, a[1] + t0 * dy), (a[0] + t1 * dx, a[1] + t1 * dy), t0, t1


def clip_segments(a: np.ndarray, b: np.ndarray, area: pygame.Rect | tuple[float, float, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`clip_segment` for many segments at once: a, b (K, 2) [px] → the clipped ends
    (K, 2) and a mask (K,) of those with some part inside `area` (and finite ends)."""
    x, y, w, h = area
    d = b - a
    t0, t1 = np.zeros(len(a)), np.ones(len(a))
    seen = np.isfinite(a).all(axis=1) & np.isfinite(b).all(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-d[:, 0], a[:, 0] - x), (d[:, 0], x + w - a[:, 0]), (-d[:, 1], a[:, 1] - y), (d[:, 1], y + h - a[:, 1])):
            t = q / p
            t0 = np.where(p < 0, np.maximum(t0, t), t0)
            t1 = np.where(p > 0, np.minimum(t1, t), t1)
            seen &= ~((p == 0) & (q < 0))
    seen &= t0 <= t1
    return a + t0[:, None] * d, a + t1[:, None] * d, seen


def clip_polygon(points: Sequence[Point], area: pygame.Rect | tuple[float, float, float, float]) -> list[Point]:
    """The polygon cut to the box `area` (x, y, w, h) [px] (Sutherland–Hodgman: cut by
    each side in turn), so that a polygon far larger than the screen is drawn from
    coordinates near it; [] when nothing of it is inside."""
    x, y, w, h = area
    out = list(points)
    for inside, cross in (
        (lambda p: p[0] >= x, lambda p, q: (x, p[1] + (q[1] - p[1]) * (x - p[0]) / (q[0] - p[0]))),
        (lambda p: p[0] <= x + w, lambda p, q: (x + w, p[1] + (q[1] - p[1]) * (x + w - p[0]) / (q[0] - p[0]))),
        (lambda p: p[1] >= y, lambda p, q: (p[0] + (q[0] - p[0]) * (y - p[1]) / (q[1] - p[1]), y)),
        (lambda p: p[1] <= y + h, lambda p, q: (p[0] + (q[0] - p[0]) * (y + h - p[1]) / (q[1] - p[1]), y + h)),
    ):
        pts, out = out, []
        for k, q in enumerate(pts):
            p = pts[k - 1]
            if inside(q):
                if not inside(p):
                    out.append(cross(p, q))
                out.append(q)
            elif inside(p):
                out.append(cross(p, q))
    return out


def dashed(surface: pygame.Surface, colour: Colour, a: Point, b: Point, width: int = 2, dash: float = 8.0, gap: float = 6.0) -> None:
    """Dashes from a to b, only those on the surface's clip area: a line far longer
    than the screen (zoomed far in) costs what the screen holds. The pattern starts at a
    wherever the line enters the screen, so dashes do not crawl as it is clipped."""
    along = _along(a, b)
    if along is None:
        return
    ux, uy, length = along
    seen = clip_segment(a, b, (surface.get_clip() or surface.get_rect()).inflate(2 * width + 2, 2 * width + 2))
    if seen is None:
        return
    _, _, t0, t1 = seen
    period = dash + gap
    s = math.floor(t0 * length / period) * period  # the dash at or before the entry
    end = t1 * length
    while s < end:
        e = min(s + dash, length)
        pygame.draw.line(surface, colour, (a[0] + ux * s, a[1] + uy * s), (a[0] + ux * e, a[1] + uy * e), width)
        s += period


def arrow(
    surface: pygame.Surface,
    colour: Colour,
    tail: Point,
    head: Point,
    width: int = 3,
    head_length: float = 13.0,
    head_width: float = 10.0,
    *,
    hollow: bool = False,
    dashed_shaft: bool = False,
) -> None:
    """A straight arrow whose point is at `head`; `hollow`: the head an outline on the
    background (a shape that tells the player's forces from the given loads in any
    colour vision), `dashed_shaft`: the shaft in dashes (a load still to come)."""
    along = _along(tail, head)
    if along is None:
        return
    ux, uy, length = along
    hl = min(head_length, 0.6 * length)
    base = (head[0] - ux * hl, head[1] - uy * hl)
    if dashed_shaft:
        dashed(surface, colour, tail, base, width, 6.0, 4.0)
    else:
        pygame.draw.line(surface, colour, tail, base, width)
    hw = head_width / 2
    tip = [head, (base[0] - uy * hw, base[1] + ux * hw), (base[0] + uy * hw, base[1] - ux * hw)]
    if hollow:
        pygame.draw.polygon(surface, BACKGROUND, tip)
        pygame.draw.polygon(surface, colour, tip, max(2, width - 1))
    else:
        pygame.draw.polygon(surface, colour, tip)
    pygame.draw.aalines(surface, colour, True, tip)


def moment_arrow(
    surface: pygame.Surface, colour: Colour, centre: Point, radius: float, counter_clockwise: bool, width: int = 3, *, hollow: bool = False
) -> None:
    """Three quarters of a circle around `centre`, open at the upper right, with a head
    at the end that shows the sense of turning. A turn counter-clockwise in the world
    looks counter-clockwise on screen too (the view flips y, and so does sin below).
    Its label goes in the opening (drawlist.curl_label_at)."""
    cx, cy = centre
    a0, a1 = (90.0, 360.0) if counter_clockwise else (360.0, 90.0)  # degrees, y up
    pts = [(cx + radius * math.cos(math.radians(a)), cy - radius * math.sin(math.radians(a))) for a in (a0 + (a1 - a0) * k / 24 for k in range(25))]
    pygame.draw.lines(surface, colour, False, pts[:-2], width)
    arrow(surface, colour, pts[-4], pts[-1], width, 11.0, 10.0, hollow=hollow)


def hatch(surface: pygame.Surface, colour: Colour, rect: pygame.Rect, spacing: int = 6) -> None:
    """Diagonal hatching inside rect (the mark of a rigid support or wall)."""
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip) if clip else rect)
    for k in range(-rect.height, rect.width + rect.height, spacing):
        pygame.draw.line(surface, colour, (rect.left + k, rect.bottom), (rect.left + k + rect.height, rect.top), 1)
    surface.set_clip(clip)


def label(
    surface: pygame.Surface,
    font: pygame.font.Font,
    text: str,
    at: Point,
    colour: Colour,
    anchor: str = "center",
    background: Colour | None = BACKGROUND,
) -> pygame.Rect:
    """Text with `anchor` (a pygame.Rect attribute: center, midleft, topright…) at `at`,
    on a small plate of `background` so that lines under it do not hide it. Text cut by
    the edge of the clip area is moved inside it."""
    return place(surface, font.render(plain_text(text), True, colour), at, anchor, background)


def place(surface: pygame.Surface, image: pygame.Surface, at: Point, anchor: str = "center", background: Colour | None = BACKGROUND) -> pygame.Rect:
    """`label` for text rendered already (a cached image): where it goes and its plate."""
    rect = image.get_rect(**{anchor: (round(at[0]), round(at[1]))})
    area = surface.get_clip()
    if area.colliderect(rect) and not area.contains(rect):
        rect.clamp_ip(area.inflate(-6, -4))
    if background is not None:
        pygame.draw.rect(surface, background, rect.inflate(6, 2), border_radius=3)
    surface.blit(image, rect)
    return rect


def anchor_away(direction: Point) -> str:
    """The label anchor that puts text beyond a point, in `direction` (screen)."""
    dx, dy = direction
    if abs(dx) >= abs(dy):
        return "midleft" if dx > 0 else "midright"
    return "midtop" if dy > 0 else "midbottom"


def fitting(font: pygame.font.Font, text: str, width: float, tail: str = "") -> int:
    """How many leading characters of `text`, with `tail` after them, fit in `width` px:
    the most k with font.size(text[:k] + tail) within it (0: not even one). Found by
    doubling k and then halving the step, so that only prefixes up to twice what fits
    are measured: the work grows with what fits on a line, never with the length of
    `text` (a 9 MB name)."""
    if not text:
        return 0

    def fits(k: int) -> bool:
        return font.size(text[:k] + tail)[0] <= width

    if not fits(1):
        return 0
    lo = 1  # fits
    hi = 2
    while hi < len(text) and fits(hi):
        lo, hi = hi, 2 * hi
    if hi >= len(text):
        if fits(len(text)):
            return len(text)
        hi = len(text)
    hi -= 1  # the most that fit lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def elided(font: pygame.font.Font, text: str, width: int) -> str:
    """`text` cut at a word (else a letter) with "…" so that it is at most `width` px wide
    in `font` (a long title in a narrow window); `text` itself where it fits. The work
    grows with what fits, not with the length of `text` (`fitting`)."""
    if len(text) <= width and font.size(text)[0] <= width:  # (a text longer than `width` characters is measured in parts)
        return text
    k = fitting(font, text, width, "…")
    cut = text[:k]
    if text[k : k + 1] != " " and " " in cut.strip(" "):  # a word cut in its middle goes whole, if it is not the first
        cut = cut[: cut.rstrip(" ").rfind(" ")]
    return cut.rstrip(" ,;:") + "…"


def wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """Lines of `text` that each fit in `width` px. Words are kept whole where they fit
    on a line; a word wider than a whole line (a long file path) starts a line of its
    own and is broken across lines, after a path separator or a punctuation mark when
    one falls in the latter half of a line, else between characters. Only a line of a
    single character can be wider than `width`. The work grows linearly with the
    length of `text` (each line measured a bounded number of times: `fitting`)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}" if line else word
            if len(trial) <= width and font.size(trial)[0] <= width:  # (no font draws a character in under a pixel: a longer one is measured in parts)
                line = trial
                continue
            if line:
                lines.append(line)
            start = 0  # the word is broken from here on: an index, never the rest copied (a 9 MB word)
            while len(word) - start > 1:
                piece = word[start : start + max(1, width) + 1]  # what fits on a line is in here (no character is under a pixel wide)
                cut = _cut(font, piece, width)
                if cut >= len(word) - start:
                    break
                lines.append(piece[:cut])
                start += cut
            line = word[start:]
        lines.append(line)
    return lines


BREAK_AFTER = frozenset("/\\-_.,;:")  # where an over-long word is best broken


def _cut(font: pygame.font.Font, word: str, width: int) -> int:
    """How many leading characters of `word` go on one line: all of them where they fit,
    else the most that fit, ending after a mark of BREAK_AFTER if one falls in their
    latter half; at least one, so that the text always moves on."""
    lo = max(1, fitting(font, word, width))
    if lo >= len(word):
        return len(word)
    mark = next((k for k in range(lo, lo // 2, -1) if word[k - 1] in BREAK_AFTER), None)
    return mark or lo


def text_block(surface: pygame.Surface, font: pygame.font.Font, lines: Sequence[str], topleft: Point, colour: Colour, spacing: int = 2) -> int:
    """Lines one under the other; returns the y below the last."""
    x, y = topleft
    for line in lines:
        surface.blit(font.render(plain_text(line), True, colour), (x, y))
        y += font.get_linesize() + spacing
    return round(y)
