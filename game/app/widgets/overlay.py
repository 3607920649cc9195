"""Drawing helpers for what is around and over the structure: the brief's lines, the
legend's and the help's rows, the status line, the HUD, the tool's line and message boxes
with their buttons. The play screen's parts (game/app/scenes/parts.py, boxes.py) draw
with them in the rectangles the layout gives them. Screen pixels only."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw import symbols
from equilibria.app.draw.palette import (
    ALERT,
    BACKGROUND,
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
from equilibria.app.window.layout import PAD
from equilibria.app.window.sections import Piece, Row, side_by_side
from equilibria.words.figures import kn
from equilibria.words.i18n import _

ASKS = re.compile(
    r"\b(give|find|what|gib|finde|bestimme|ermittle|berechne|welche[rsn]?|wie groß)\b", re.IGNORECASE
)  # the sentence of a brief that asks for the answer (English, German)


def title_lines(fonts: Fonts, brief: str, width: int, most: int = 3) -> list[str]:
    """The brief, wrapped to `width` (each paragraph on a line of its own), in at most
    `most` lines. Where it is longer, the level's own words (the paragraph before the
    last, the kind's assumptions; before them a varying level's numbers, kept whole) come
    first: their head and their last sentences,
    where a level states what passes (the budget, the sag allowed, what must not break),
    with "…" between them; the sentence that asks for the answer ("Give the force at
    A…") among them, if the last ones leave it out. B opens the brief whole."""
    room = width - 2 * PAD
    paras = brief.split("\n") if brief else []
    lines = [w for para in paras for w in draw.wrap(fonts.body, para, room)]
    if len(lines) <= most:
        return lines
    if len(paras) >= 3:  # a level that varies: the student's numbers first, kept whole; the level's words after them
        numbers = [w for para in paras[:-2] for w in draw.wrap(fonts.body, para, room)]
        if most - len(numbers) < 2 and most >= 3:  # on one line then (the level's words say the numbers too)
            numbers = [_cut_line(fonts, numbers[0], room)]
        if most - len(numbers) >= 2:
            return [*numbers, *title_lines(fonts, "\n".join(paras[-2:]), width, most - len(numbers))]
    own = draw.wrap(fonts.body, paras[0], room)
    if len(own) < most:
        return [*lines[: most - 1], _cut_line(fonts, lines[most - 1], room)]
    if len(own) == most:  # the level's own words whole (a wide window): nothing to cut from them
        return own
    sentences = _sentences(paras[0])
    tail: list[str] = []
    for k in range(len(sentences) - 1, 0, -1):  # the most last sentences that fit in most - 1 lines
        trial = draw.wrap(fonts.body, "… " + " ".join(sentences[k:]), room)
        shown = len(" ".join(own[: most - len(trial)]))  # [characters] of the head kept before them
        if len(trial) > most - 1 or len(" ".join(sentences[:k])) < shown:  # never a sentence twice
            break
        tail = trial
    asking = [k for k in range(1, len(sentences)) if ASKS.search(sentences[k])]
    if asking and not ASKS.search(" ".join(tail)):  # the task left out: the words before it, it, "…" where more follows
        task = _task_lines(fonts, sentences, asking[-1], room, most)
        if task:
            return task
    head = own[: most - len(tail)]
    return [*head[:-1], _cut_line(fonts, head[-1], room), *tail]


def _task_lines(fonts: Fonts, sentences: list[str], k: int, room: int, most: int) -> list[str]:
    """At most `most` lines [of `room` px]: the sentences before the k-th (cut with "…"
    where they do not fit), the k-th (the task), and "…" where more follows; the task
    alone where it takes all the lines; none where it takes more."""
    before = draw.wrap(fonts.body, " ".join(sentences[:k]), room)
    task = " ".join([sentences[k], *(["…"] if k < len(sentences) - 1 else [])])
    whole = draw.wrap(fonts.body, task, room)
    if len(before) + len(whole) <= most:
        return [*before, *whole]
    trial = draw.wrap(fonts.body, "… " + task, room)
    n = most - len(trial)  # the lines left for the words before the task
    if n < 1:
        return trial if n == 0 else []
    return [*before[: n - 1], _cut_line(fonts, before[n - 1], room), *trial]


def _cut_line(fonts: Fonts, line: str, room: int) -> str:
    """`line` ending in " …" (words dropped from its end until that fits in `room` px)."""
    while line and fonts.body.size(line + " …")[0] > room:
        line = line[: line.rstrip().rfind(" ")] if " " in line.strip() else ""
    return line.rstrip(" ,;:") + " …"


def _sentences(text: str) -> list[str]:
    """`text` cut after each ". " (a full stop before a space); the pieces keep their stops."""
    out, start = [], 0
    for k in range(len(text) - 1):
        if text[k] in ".!?" and text[k + 1] == " ":
            out.append(text[start : k + 1])
            start = k + 2
    return [*out, text[start:]] if text[start:].strip() else out


def legend_rows(
    fonts: Fonts,
    width: int,
    *,
    widest: float | None,
    plates: bool,
    broke: bool,
    to_come: bool,
    supports: set[str],
    arrow: tuple[float, float] | None = None,
    own: bool = False,
    hidden: bool = False,
    beam_notes: Sequence[str] = (),
) -> list[Row]:
    """What colours, widths, arrows and symbols mean, as rows for the legend's part
    (game/app/window/sections.py `Scroll`), `width` px wide; `arrow`: (length [px], force [N])
    of the scene's arrow scale; `own`: the player added forces (drawn in their colour);
    `beam_notes`: lines on the distributed loads and the beams' diagrams."""
    rows: list[Row] = []
    sx = 44  # where an item's words start

    def heading(text: str, gap: int = 0) -> None:
        rows.append((gap + fonts.bold.get_linesize() + 6, (Piece(fonts.bold, text, INK, 0, gap),)))

    def item(text: str, paint) -> None:
        mid = fonts.body.get_linesize() // 2

        def swatch(surface, x, y) -> None:  # on the picture's background, as the picture draws it (palette.GRAPHICS)
            pygame.draw.rect(surface, BACKGROUND, (x - 4, y + mid - 10, 44, 20), border_radius=3)
            paint(surface, x, y + mid)

        rows.append((fonts.body.get_linesize() + 7, (swatch, Piece(fonts.body, text, INK, sx))))

    def notes(font, lines: Sequence[str], after: int = 0) -> None:
        for k, line in enumerate(lines):
            rows.append((font.get_linesize() + 2 + (after if k == len(lines) - 1 else 0), (Piece(font, line, MUTED),)))

    def bar(colour, px: float):
        return lambda surface, x, m: draw.segment(surface, colour, (x, m), (x + 34, m), px)

    def pointer(colour, **shape):
        return lambda surface, x, m: draw.arrow(surface, colour, (x, m), (x + 34, m), 3, **shape)

    heading(_("Member forces"))
    if hidden:
        item(_("hidden until you pass"), bar(HIDDEN, 6))
    item(_("tension (pulls)"), bar(TENSION, 10))
    item(_("compression (pushes)"), bar(COMPRESSION, 10))
    item(_("about zero"), bar(ZERO, MEMBER_MIN_PX))
    if broke:  # only once a member has broken: before, the words name nothing on the picture
        item(_("broken"), lambda surface, x, m: draw.dashed(surface, BROKEN, (x, m), (x + 34, m), 2, 7, 5))
        item(_("broke first"), lambda surface, x, m: pygame.draw.line(surface, MARK, (x + 10, m - 7), (x + 24, m + 7), 4))
    if widest is not None:
        notes(
            fonts.small, [_("width grows with |force|;"), _("full width: {force} or more").format(force=kn(widest)), _("values: axial force in kN, + pulls")], 6
        )
    if plates:
        item(_("plate in tension"), lambda surface, x, m: pygame.draw.rect(surface, TENSION, (x, m - 7, 34, 14)))
        item(_("plate in compression"), lambda surface, x, m: pygame.draw.rect(surface, COMPRESSION, (x, m - 7, 34, 14)))
        notes(fonts.small, [_("shade: mean stress (σx + σy)/2")], 6)
    heading(_("Forces on it"))
    item(_("load"), pointer(LOAD))
    if to_come:
        item(_("load still to come"), pointer(LOAD, dashed_shaft=True))
    if own:
        item(_("your force"), pointer(OWN_FORCE, hollow=True))
    item(_("support reaction"), pointer(REACTION))
    if arrow is not None:
        px, newtons = arrow
        mid = fonts.small.get_linesize() // 2
        rows.append(
            (
                fonts.small.get_linesize() + 8,
                (
                    lambda surface, x, y: draw.arrow(surface, MUTED, (x, y + mid), (x + px, y + mid), 2),
                    Piece(fonts.small, _("= {force}: one scale").format(force=kn(newtons)), MUTED, round(px) + 6),
                ),
            )
        )
    for note in beam_notes:
        notes(fonts.small, draw.wrap(fonts.small, note, width), 4)
    names = {"pin": _("pin"), "roller": _("roller"), "roller_x": _("roller (on a wall)"), symbols.ON_LINE: _("roller on a slope"), "fixed": _("fixed")}
    shown = [k for k in names if k in supports]
    if shown:
        heading(_("Supports"), 4)
        for kind in shown:
            wall = kind == "roller_x"
            mid = fonts.body.get_linesize() // 2

            def symbol(surface, x, y, kind=kind, wall=wall, mid=mid) -> None:
                symbols.support(surface, kind, (x + 6, y + mid) if wall else (x + 17, y + 2), (1.0, 0.0) if wall else (0.0, 1.0))

            rows.append((fonts.body.get_linesize() + (11 if wall else 21), (symbol, Piece(fonts.body, names[kind], INK, sx))))
    return rows


def status_line(surface: pygame.Surface, fonts: Fonts, rect: pygame.Rect, left: str, right: str) -> None:
    """The status line: `left` (what is happening, a notice) and, where there is room
    beside it, `right` (the main keys); a notice too long for the line is cut with "…"
    (the keys give way first, so the two never overlap)."""
    pygame.draw.rect(surface, PANEL, rect)
    pygame.draw.line(surface, RULE, rect.topleft, rect.topright)
    room = rect.width - 2 * PAD
    keys = fonts.small.size(right)[0] + 3 * PAD
    wide = fonts.body.size(left[: room + 1])[0]  # (no character is under a pixel wide: what is past `room` characters is past the room)
    if wide <= room - keys:
        draw.label(surface, fonts.small, right, (rect.right - PAD, rect.centery), MUTED, "midright", None)
    elif wide > room:
        left = left[: draw.fitting(fonts.body, left, room, " …")].rstrip() + " …"  # measured a line's worth, however long the notice
    draw.label(surface, fonts.body, left, (rect.left + PAD, rect.centery), INK, "midleft", None)


TIP_OFFSET = 16  # [px] from the pointer to its tip's corner


def hud(
    surface: pygame.Surface, fonts: Fonts, topleft: tuple[int, int], lines: Sequence[str], within: pygame.Rect | None = None, avoid: pygame.Rect | None = None
) -> pygame.Rect:
    """Figures on a dark, translucent box (the HUD, a tool tip); kept `within` a rect, and
    off `avoid` where a corner of the pointer leaves it clear (a tip beside a node keeps
    off the support drawn there: the choice the player just made)."""
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
    if avoid is not None and rect.colliderect(avoid):
        x, y = topleft[0] - TIP_OFFSET, topleft[1] - TIP_OFFSET  # the pointer
        d = TIP_OFFSET
        for corner, at in (("bottomleft", (x + d, y - d)), ("bottomright", (x - d, y - d)), ("topright", (x - d, y + d))):
            other = box.get_rect(**{corner: at})
            if within is not None:
                other.clamp_ip(within)
            if not other.colliderect(avoid):
                rect = other
                break
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


def rule(surface: pygame.Surface, panel: pygame.Rect, y: int) -> None:
    """A thin line across a panel at height y."""
    pygame.draw.line(surface, MUTED, (panel.left + PAD, y), (panel.right - PAD, y))


def tool_line(surface: pygame.Surface, fonts: Fonts, bar: pygame.Rect, tip: str, section: str | None, right: int) -> pygame.Rect | None:
    """What the tool in hand does, beside the toolbar; for members, the section as a
    button first (a click or Tab takes the next). The button's rect, if drawn."""
    x = bar.right + 14
    button = None
    if section:
        button = draw.label(surface, fonts.bold, f"{section} ▸", (x + 8, bar.centery), INK, "midleft", None).inflate(16, 10)
        pygame.draw.rect(surface, TENSION, button, 2, border_radius=5)
        x = button.right + 10
    room = right - x
    while tip and fonts.small.size(tip)[0] > room:  # cut to the room there is (F1 has it whole)
        tip = tip[: tip.rstrip(" …").rfind(" ")].rstrip(";,:") + " …" if " " in tip.rstrip(" …") else ""
    draw.label(surface, fonts.small, tip, (x, bar.centery), MUTED, "midleft", None)
    return button


def help_rows(fonts: Fonts, keys: Sequence[tuple[str, str]], tools: Sequence[str], width: int) -> list[Row]:
    """The keys and the tools as rows of a box `width` px wide: one row a key (its words
    wrapped under themselves), a gap, one row a tool; two to a line where the box is wide."""
    two = width >= 1000
    col = (width - 2 * PAD) // 2 if two else width
    line = fonts.body.get_linesize() + 3
    key_w = max(fonts.bold.size(k)[0] for k, _ in keys) + 16
    key_rows: list[Row] = []
    for k, what in keys:
        parts = draw.wrap(fonts.body, what, col - key_w)
        key_rows.append((len(parts) * line, (Piece(fonts.bold, k, INK), *(Piece(fonts.body, w, INK, key_w, n * line) for n, w in enumerate(parts)))))
    small = fonts.small.get_linesize() + 2
    tool_rows: list[Row] = []
    for tip in tools:
        parts = draw.wrap(fonts.small, tip, col)
        tool_rows.append((len(parts) * small + 2, tuple(Piece(fonts.small, w, MUTED, 0, n * small) for n, w in enumerate(parts))))
    if two:
        key_rows, tool_rows = side_by_side(key_rows, col, 2 * PAD), side_by_side(tool_rows, col, 2 * PAD)
    return [*key_rows, (10, ()), *tool_rows]
