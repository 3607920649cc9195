"""Everything drawn over or around the structure: the screen's layout, the title bar,
the legend, the status line, badges, the HUD and message boxes. Screen pixels only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from game.app import draw, symbols
from game.app.palette import (
    ALERT,
    BROKEN,
    COMPRESSION,
    HIDDEN,
    HUD_BACK,
    HUD_TEXT,
    INK,
    LOAD,
    MARK,
    MEMBER_MIN_PX,
    MUTED,
    OWN_FORCE,
    PANEL,
    REACTION,
    RULE,
    TENSION,
    ZERO,
    Fonts,
)

LEGEND_WIDTH = 236
STATUS_HEIGHT = 28
PAD = 12


@dataclass(frozen=True)
class Layout:
    """Where things go on a screen: the title bar, the world, the legend, the status line."""

    top: pygame.Rect
    world: pygame.Rect
    legend: pygame.Rect
    status: pygame.Rect

    @classmethod
    def of(cls, size: tuple[int, int], top_height: int) -> Layout:
        w, h = size
        top = pygame.Rect(0, 0, w, top_height)
        status = pygame.Rect(0, h - STATUS_HEIGHT, w, STATUS_HEIGHT)
        legend = pygame.Rect(w - LEGEND_WIDTH, top.bottom, LEGEND_WIDTH, status.top - top.bottom)
        world = pygame.Rect(0, top.bottom, legend.left, status.top - top.bottom)
        return cls(top, world, legend, status)


def title_lines(fonts: Fonts, brief: str, width: int, most: int = 3) -> list[str]:
    """The brief, wrapped to the title bar (each paragraph on a line of its own), at most
    `most` lines; a longer one is cut, saying how to read it all (B opens it whole)."""
    more = " …  (B: read it all)"
    lines = [w for para in brief.split("\n") for w in draw.wrap(fonts.body, para, width - 2 * PAD)] if brief else []
    if len(lines) > most:
        last = lines[most - 1]
        while last and fonts.body.size(last + more)[0] > width - 2 * PAD:
            last = last[: last.rstrip().rfind(" ")] if " " in last.strip() else ""
        lines = [*lines[: most - 1], last.rstrip(" ,;:") + more]
    return lines


def top_height(fonts: Fonts, brief_lines: Sequence[str]) -> int:
    return PAD + fonts.title.get_linesize() + 4 + len(brief_lines) * (fonts.body.get_linesize() + 2) + PAD


def title_bar(surface: pygame.Surface, fonts: Fonts, rect: pygame.Rect, title: str, kind: str, brief_lines: Sequence[str]) -> None:
    pygame.draw.rect(surface, PANEL, rect)
    pygame.draw.line(surface, RULE, rect.bottomleft, rect.bottomright)
    head = draw.label(surface, fonts.title, title, (rect.left + PAD, rect.top + PAD), INK, "topleft", None)
    draw.label(surface, fonts.small, kind.replace("_", "-"), (head.right + 12, head.centery + 1), MUTED, "midleft", None)
    draw.text_block(surface, fonts.body, brief_lines, (rect.left + PAD, head.bottom + 4), INK)


def legend(
    surface: pygame.Surface,
    fonts: Fonts,
    rect: pygame.Rect,
    *,
    widest: float | None,
    plates: bool,
    breakable: bool,
    to_come: bool,
    supports: set[str],
    arrow: tuple[float, float] | None = None,
    own: bool = False,
    hidden: bool = False,
    beam_notes: Sequence[str] = (),
) -> None:
    """What colours, widths, arrows and symbols mean; `arrow`: (length [px], force [N])
    of the scene's arrow scale; `own`: the player added forces (drawn in their colour);
    `beam_notes`: lines on the distributed loads and the beams' diagrams."""
    pygame.draw.rect(surface, PANEL, rect)
    pygame.draw.line(surface, RULE, rect.topleft, rect.bottomleft)
    x, y = rect.left + PAD, rect.top + PAD
    sx = x + 44  # where an item's words start

    def heading(text: str) -> None:
        nonlocal y
        draw.label(surface, fonts.bold, text, (x, y), INK, "topleft", None)
        y += fonts.bold.get_linesize() + 6

    def item(text: str, paint) -> None:
        nonlocal y
        mid = y + fonts.body.get_linesize() // 2
        paint(mid)
        draw.label(surface, fonts.body, text, (sx, mid), INK, "midleft", None)
        y += fonts.body.get_linesize() + 7

    heading("Member forces")
    if hidden:
        item("hidden until you pass", lambda m: draw.segment(surface, HIDDEN, (x, m), (x + 34, m), 6))
    item("tension (pulls)", lambda m: draw.segment(surface, TENSION, (x, m), (x + 34, m), 10))
    item("compression (pushes)", lambda m: draw.segment(surface, COMPRESSION, (x, m), (x + 34, m), 10))
    item("about zero", lambda m: draw.segment(surface, ZERO, (x, m), (x + 34, m), MEMBER_MIN_PX))
    if breakable:
        item("broken", lambda m: draw.dashed(surface, BROKEN, (x, m), (x + 34, m), 2, 7, 5))
        item("broke first", lambda m: pygame.draw.line(surface, MARK, (x + 10, m - 7), (x + 24, m + 7), 4))
    if widest is not None:
        notes = ["width grows with |force|;", f"full width: {widest / 1e3:.3g} kN or more", "values: axial force in kN, + pulls"]
        y = draw.text_block(surface, fonts.small, notes, (x, y), MUTED) + 6
    if plates:
        item("plate in tension", lambda m: pygame.draw.rect(surface, TENSION, (x, m - 7, 34, 14)))
        item("plate in compression", lambda m: pygame.draw.rect(surface, COMPRESSION, (x, m - 7, 34, 14)))
        y = draw.text_block(surface, fonts.small, ["shade: mean stress (σx + σy)/2"], (x, y), MUTED) + 6
    heading("Forces on it")
    item("load", lambda m: draw.arrow(surface, LOAD, (x, m), (x + 34, m), 3))
    if to_come:
        item("load still to come", lambda m: draw.arrow(surface, MUTED, (x, m), (x + 34, m), 3))
    if own:
        item("your force", lambda m: draw.arrow(surface, OWN_FORCE, (x, m), (x + 34, m), 3))
    item("support reaction", lambda m: draw.arrow(surface, REACTION, (x, m), (x + 34, m), 3))
    if arrow is not None:
        px, newtons = arrow
        mid = y + fonts.small.get_linesize() // 2
        draw.arrow(surface, MUTED, (x, mid), (x + px, mid), 2)
        draw.label(surface, fonts.small, f"= {newtons / 1e3:.3g} kN: one scale", (x + px + 6, mid), MUTED, "midleft", None)
        y += fonts.small.get_linesize() + 8
    for note in beam_notes:
        y = draw.text_block(surface, fonts.small, draw.wrap(fonts.small, note, rect.width - 2 * PAD), (x, y), MUTED) + 4
    names = {"pin": "pin", "roller": "roller", "roller_x": "roller (on a wall)", "fixed": "fixed"}
    shown = [k for k in ("pin", "roller", "roller_x", "fixed") if k in supports]
    if shown:
        y += 4
        heading("Supports")
        for kind in shown:
            wall = kind == "roller_x"
            mid = y + fonts.body.get_linesize() // 2
            symbols.support(surface, kind, (x + 6, mid) if wall else (x + 17, y + 2), (1.0, 0.0) if wall else (0.0, 1.0))
            draw.label(surface, fonts.body, names[kind], (sx, mid), INK, "midleft", None)
            y += fonts.body.get_linesize() + (11 if wall else 21)


def status_line(surface: pygame.Surface, fonts: Fonts, rect: pygame.Rect, left: str, right: str) -> None:
    """The status line: `left` (what is happening, a notice) and, where there is room
    beside it, `right` (the main keys); a notice too long for the line is cut with "…"
    (the keys give way first, so the two never overlap)."""
    pygame.draw.rect(surface, PANEL, rect)
    pygame.draw.line(surface, RULE, rect.topleft, rect.topright)
    room = rect.width - 2 * PAD
    keys = fonts.small.size(right)[0] + 3 * PAD
    if fonts.body.size(left)[0] <= room - keys:
        draw.label(surface, fonts.small, right, (rect.right - PAD, rect.centery), MUTED, "midright", None)
    elif fonts.body.size(left)[0] > room:
        while left and fonts.body.size(left + " …")[0] > room:
            left = left[:-1]
        left = left.rstrip() + " …"
    draw.label(surface, fonts.body, left, (rect.left + PAD, rect.centery), INK, "midleft", None)


def badges(surface: pygame.Surface, fonts: Fonts, topright: tuple[int, int], texts: Sequence[tuple[str, tuple]]) -> None:
    """Big words at the world's upper right (PAUSED, SLOW MOTION ×¼), one under another."""
    x, y = topright
    for text, colour in texts:
        rect = draw.label(surface, fonts.big, text, (x - PAD, y + PAD), colour, "topright", None)
        y = rect.bottom - PAD + 4


def hud(surface: pygame.Surface, fonts: Fonts, topleft: tuple[int, int], lines: Sequence[str], within: pygame.Rect | None = None) -> pygame.Rect:
    """Figures on a dark, translucent box (the HUD, a tool tip); kept `within` a rect."""
    size = fonts.small.get_linesize() + 1
    width = max(fonts.small.size(line)[0] for line in lines) + 2 * PAD
    box = pygame.Surface((width, len(lines) * size + 2 * PAD - 4), pygame.SRCALPHA)
    box.fill(HUD_BACK)
    draw.text_block(box, fonts.small, lines, (PAD, PAD - 2), HUD_TEXT, 1)
    rect = box.get_rect(topleft=topleft)
    if within is not None:
        if rect.right > within.right:  # flip to the left of the mouse, then keep inside
            rect.right = topleft[0] - 2 * PAD
        rect.clamp_ip(within)
    return surface.blit(box, rect)


def place_box(area: pygame.Rect, size: tuple[int, int], avoid: pygame.Rect | None) -> pygame.Rect:
    """A box of `size` at the foot of `area`, or at its head, or at a side: the first of
    those that covers the least of `avoid` (the structure on the screen)."""
    box = pygame.Rect((0, 0), size)
    spots = ("midbottom", "midtop", "bottomleft", "bottomright", "topleft", "topright")
    inner = area.inflate(-2 * PAD, -2 * PAD)
    best, least = None, None
    for spot in spots:
        candidate = box.copy()
        setattr(candidate, spot, getattr(inner, spot))
        if not spot.startswith("mid") and candidate.width > inner.width // 2 + PAD:  # a corner only for a narrow box
            continue
        cover = candidate.clip(avoid) if avoid is not None else pygame.Rect(0, 0, 0, 0)
        covered = cover.width * cover.height
        if least is None or covered < least:
            best, least = candidate, covered
        if covered == 0:
            break
    return best


def message_size(fonts: Fonts, area: pygame.Rect, text: str) -> tuple[int, int]:
    """(width, height) [px] of the box `message` draws for `text` in `area`."""
    width = min(area.width - 2 * PAD, 760)
    lines = draw.wrap(fonts.body, text, width - 2 * PAD)
    height = PAD + fonts.bold.get_linesize() + 6 + len(lines) * (fonts.body.get_linesize() + 2) + 6 + fonts.small.get_linesize() + PAD
    return width, min(height, area.height - 2 * PAD)


def message(
    surface: pygame.Surface, fonts: Fonts, area: pygame.Rect, title: str, text: str, foot: str, colour: tuple = ALERT, *, avoid: pygame.Rect | None = None
) -> pygame.Rect:
    """A boxed message (a problem or a verdict the player should read), its frame and
    title in `colour`, at the foot of `area` or wherever it hides least of `avoid`."""
    width, height = message_size(fonts, area, text)
    lines = draw.wrap(fonts.body, text, width - 2 * PAD)
    box = place_box(area, (width, height), avoid)
    _boxed(surface, box, (fonts.bold, title, colour), fonts.body, lines, (fonts.small, foot), frame=3)
    return box


def _boxed(surface: pygame.Surface, box: pygame.Rect, head: tuple, font: pygame.font.Font, lines: Sequence[str], foot: tuple, frame: int) -> None:
    """A white box framed in the head's colour: head (font, title, colour), the lines of
    text, the foot (font, words) under them (kept inside the box), all clipped to it."""
    title_font, title, colour = head
    pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
    pygame.draw.rect(surface, colour, box, frame, border_radius=6)
    clip = surface.get_clip()
    surface.set_clip(box)
    y = draw.label(surface, title_font, title, (box.left + PAD, box.top + PAD), colour, "topleft", None).bottom + 6
    y = draw.text_block(surface, font, lines, (box.left + PAD, y), INK)
    foot_font, words = foot
    draw.label(surface, foot_font, words, (box.left + PAD, min(y + 4, box.bottom - PAD - foot_font.get_linesize())), MUTED, "topleft", None)
    surface.set_clip(clip)


def buttons(surface: pygame.Surface, fonts: Fonts, box: pygame.Rect, labels: Sequence[str], colour: tuple = TENSION) -> list[pygame.Rect]:
    """Buttons in a row at the lower right of `box`, last label rightmost; their rects."""
    out, right = [], box.right - PAD
    for text in reversed(labels):
        image = fonts.bold.render(text, True, (255, 255, 255))
        rect = image.get_rect().inflate(18, 8)
        rect.bottomright = (right, box.bottom - PAD + 2)
        pygame.draw.rect(surface, colour, rect, border_radius=5)
        surface.blit(image, image.get_rect(center=rect.center))
        out.append(rect)
        right = rect.left - 8
    return out[::-1]


def folded(surface: pygame.Surface, fonts: Fonts, area: pygame.Rect, text: str, colour: tuple) -> pygame.Rect:
    """A folded box: one line in a strip at the foot of `area`."""
    image = fonts.bold.render(text, True, colour)
    box = image.get_rect().inflate(2 * PAD, 10)
    box.midbottom = (area.centerx, area.bottom - 4)
    pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
    pygame.draw.rect(surface, colour, box, 2, border_radius=6)
    surface.blit(image, image.get_rect(center=box.center))
    return box


def text_box(surface: pygame.Surface, fonts: Fonts, area: pygame.Rect, title: str, text: str, foot: str) -> pygame.Rect:
    """A long text (the whole brief) in a box over the top of `area`, wrapped to fit."""
    width = min(area.width - 2 * PAD, 820)
    lines = [w for para in text.split("\n") for w in (draw.wrap(fonts.body, para, width - 2 * PAD) or [""])]
    line = fonts.body.get_linesize() + 2
    height = PAD + fonts.title.get_linesize() + 6 + len(lines) * line + 8 + fonts.small.get_linesize() + PAD
    box = pygame.Rect(0, 0, width, min(height, area.height - 2 * PAD))
    box.midtop = (area.centerx, area.top + PAD)
    _boxed(surface, box, (fonts.title, title, INK), fonts.body, lines, (fonts.small, foot), frame=2)
    return box


def rule(surface: pygame.Surface, panel: pygame.Rect, y: int) -> None:
    """A thin line across a panel at height y."""
    pygame.draw.line(surface, MUTED, (panel.left + PAD, y), (panel.right - PAD, y))


def tool_line(surface: pygame.Surface, fonts: Fonts, bar: pygame.Rect, tip: str, section: str | None) -> pygame.Rect | None:
    """What the tool in hand does, beside the toolbar; for members, the section as a
    button first (a click or Tab takes the next). The button's rect, if drawn."""
    x = bar.right + 14
    button = None
    if section:
        button = draw.label(surface, fonts.bold, f"{section} ▸", (x + 8, bar.centery), INK, "midleft", None).inflate(16, 10)
        pygame.draw.rect(surface, TENSION, button, 2, border_radius=5)
        x = button.right + 10
    room = surface.get_width() - x - PAD
    while tip and fonts.small.size(tip)[0] > room:  # cut to the room there is (F1 has it whole)
        tip = tip[: tip.rstrip(" …").rfind(" ")].rstrip(";,:") + " …" if " " in tip.rstrip(" …") else ""
    draw.label(surface, fonts.small, tip, (x, bar.centery), MUTED, "midleft", None)
    return button


def help_box(surface: pygame.Surface, fonts: Fonts, area: pygame.Rect, keys: Sequence[tuple[str, str]], tools: Sequence[str]) -> pygame.Rect:
    """The keys and the tools, in a box over the middle of `area`."""
    line = fonts.body.get_linesize() + 3
    key_w = max(fonts.bold.size(k)[0] for k, _ in keys) + 16
    width = min(area.width - 2 * PAD, 820)
    tool_lines = [w for t in tools for w in draw.wrap(fonts.small, t, width - 2 * PAD)]
    rows = sum(len(draw.wrap(fonts.body, what, width - 2 * PAD - key_w)) for _, what in keys)
    height = PAD + fonts.title.get_linesize() + 8 + rows * line + 10 + len(tool_lines) * (fonts.small.get_linesize() + 2) + PAD
    box = pygame.Rect(0, 0, width, min(height, area.height - 2 * PAD))
    box.center = area.center
    pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
    pygame.draw.rect(surface, INK, box, 2, border_radius=6)
    clip = surface.get_clip()
    surface.set_clip(box)
    y = draw.label(surface, fonts.title, "Keys and tools", (box.left + PAD, box.top + PAD), INK, "topleft", None).bottom + 8
    for k, what in keys:
        draw.label(surface, fonts.bold, k, (box.left + PAD, y), INK, "topleft", None)
        for part in draw.wrap(fonts.body, what, width - 2 * PAD - key_w):  # a long row wraps under itself
            draw.label(surface, fonts.body, part, (box.left + PAD + key_w, y), INK, "topleft", None)
            y += line
    draw.text_block(surface, fonts.small, tool_lines, (box.left + PAD, y + 10), MUTED)
    surface.set_clip(clip)
    return box
