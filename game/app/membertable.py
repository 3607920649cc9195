"""The member table after a build check, as Bridge Designer gives it: every member's
force (kN, tension or compression), its tension capacity, its compression capacity
(buckling π²EI/L² or yield, whichever is less), its use ratio, sorted by use ratio, and
the first member to fail named. The rows are the verdict's (game/rules/construction.py
`member_table`); the box opens with U or the verdict's button, scrolls with Page Up and
Page Down, and says how many rows lie above and below. It reads
the verdict and writes nothing but its own open flag and scroll position."""

from __future__ import annotations

import math

import pygame

from game.app import draw
from game.app.overlay import PAD, place_box
from game.app.palette import COMPRESSION, INK, MARK, MUTED, RULE, TENSION, ZERO, Fonts

COLUMNS = (("Member", 0.0), ("Force", 0.16), ("Tension cap.", 0.38), ("Compression cap.", 0.56), ("Use", 0.86))


def kn(x: float) -> str:
    """A force [N] in kN to three significant figures, in plain digits."""
    v = abs(x) / 1e3
    if v == 0.0:
        return "0 kN"
    digits = max(0, 2 - math.floor(math.log10(v)))
    return f"{v:,.{digits}f} kN"


def row_words(row: dict) -> tuple[str, str, str, str, str]:
    """One row of the table in words: member, force (T or C), tension capacity,
    compression capacity (and what sets it), use ratio."""
    n = row["force"]
    force = "0 kN" if not n else f"{kn(n)} {'T' if n > 0 else 'C'}"
    cap_t = kn(row["tension_capacity"]) if math.isfinite(row["tension_capacity"] or math.inf) else "no limit"
    cap_c = row["compression_capacity"]
    if row["compression_by"] == "a cable cannot push":
        comp = "none (a cable)"
    elif cap_c is None or not math.isfinite(cap_c):
        comp = "no limit"
    else:
        comp = f"{kn(cap_c)} ({row['compression_by']})"
    use = "–" if row["use"] is None else f"{row['use']:.0%}"
    return row["member"], force, cap_t, comp, use


class MemberTable:
    """The box's state: open or not, and the first row shown."""

    def __init__(self) -> None:
        self.shown = False
        self.top = 0
        self.rows_shown = 10  # how many rows the last drawing had room for

    def toggle(self) -> None:
        self.shown, self.top = not self.shown, 0

    def page_down(self) -> None:
        self.top += self.rows_shown

    def page_up(self) -> None:
        self.top = max(0, self.top - self.rows_shown)

    def draw(self, surface: pygame.Surface, fonts: Fonts, area: pygame.Rect, figures: dict) -> pygame.Rect | None:
        """The table of `figures["members"]` in a box over `area` (None: no table)."""
        rows = figures.get("members")
        if not self.shown or not rows:
            return None
        line = fonts.body.get_linesize() + 2
        width = min(area.width - 2 * PAD, 760)
        head = PAD + fonts.bold.get_linesize() + 4 + fonts.small.get_linesize() + 8 + line + 4
        foot = 6 + fonts.small.get_linesize() + PAD
        room = max(1, (area.height - 2 * PAD - head - foot) // line)
        self.rows_shown = min(room, len(rows))
        self.top = min(self.top, max(0, len(rows) - self.rows_shown))
        box = place_box(area, (width, head + self.rows_shown * line + foot), None)
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
        pygame.draw.rect(surface, INK, box, 2, border_radius=6)
        clip = surface.get_clip()
        surface.set_clip(box)
        x0, inner = box.left + PAD, box.width - 2 * PAD
        y = draw.label(surface, fonts.bold, "Members after the check", (x0, box.top + PAD), INK, "topleft", None).bottom + 4
        first = figures.get("first_to_fail") or {}
        said = f"First to fail: {first['member']} ({first['why']})." if first.get("member") else "No member has a limit here."
        y = draw.label(surface, fonts.small, said, (x0, y), MARK if first.get("member") else MUTED, "topleft", None).bottom + 8
        for title, at in COLUMNS:
            draw.label(surface, fonts.bold, title, (x0 + round(at * inner), y), INK, "topleft", None)
        y += line
        pygame.draw.line(surface, RULE, (x0, y), (box.right - PAD, y))
        y += 4
        for row in rows[self.top : self.top + self.rows_shown]:
            words = row_words(row)
            colour = TENSION if row["force"] > 0 else COMPRESSION if row["force"] < 0 else ZERO
            for k, (text, (_, at)) in enumerate(zip(words, COLUMNS, strict=True)):
                ink = MARK if k == 0 and row["member"] == first.get("member") else (colour if k == 1 else INK)
                draw.label(surface, fonts.body, text, (x0 + round(at * inner), y), ink, "topleft", None)
            y += line
        above, below = self.top, len(rows) - self.top - self.rows_shown
        more = "   ".join(w for w in (f"{above} above (Page Up)" if above else "", f"{below} more below (Page Down)" if below else "") if w)
        words = "Sorted by use ratio: force over the capacity of its sense.   U or Esc: close" + (f"   ·   {more}" if more else "")
        draw.label(surface, fonts.small, words, (x0, box.bottom - PAD - fonts.small.get_linesize()), MUTED, "topleft", None)
        surface.set_clip(clip)
        return box
