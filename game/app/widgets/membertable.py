"""The member table, as Bridge Designer gives it. While the player builds: every member's
section, length and cost, and the cost in parts (the members of each section, the new
joints, the supports) with the total against the budget, by the level's cost rules
(game/rules/construction.py `bill`). After a build check, each row also gives the
member's force (kN, tension or compression), its tension capacity, its compression
capacity (buckling π²EI/L² or yield, whichever is less) and its use ratio, sorted by use
ratio, and the first member to fail is named (the verdict's `member_table`).

`contents` turns the session into words (a `Table`: title, columns, rows, the cost's
lines); `MemberTable.draw` sets them in a box in the rectangle it is given. The box opens
with U (or the verdict's button), scrolls with Page Up and Page Down, and says how many
rows lie above and below. It reads the session and writes nothing but its own open flag
and scroll position."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import INK, MARK, MUTED, RULE, SIGN_TEXT, Colour, Fonts
from equilibria.app.widgets.overlay import PAD, place_box
from equilibria.format.schema import Section
from equilibria.rules.construction import Bill, money
from equilibria.words.figures import figure, kn, percent
from equilibria.words.i18n import N_, _, decimal, language

GAP = 18  # [px] between columns
LEVELS_OWN = N_("the level's")  # the section column of a member the level gives (not the player's to price)
LIMITED_BY = {"buckling": N_("buckling"), "yield": N_("yield")}  # what sets a compression capacity (the verdict's rows)
COLUMNS = (
    N_("Member"),
    N_("Section"),
    N_("Length"),
    N_("Cost"),
    N_("Force"),
    N_("Tension cap."),
    N_("Compression cap."),
    N_("Use"),
)  # kept in English, shown translated


def row_words(row: dict) -> tuple[str, str, str, str, str]:
    """One row of the table after a check, in words: member, force (T or C), tension
    capacity, compression capacity (and what sets it), use ratio."""
    n = row["force"]
    # TRANSLATORS: a member's force in the member table: T tension, C compression
    force = "0 kN" if not n else (_("{force} T") if n > 0 else _("{force} C")).format(force=kn(abs(n)))
    cap_t = kn(row["tension_capacity"]) if math.isfinite(row["tension_capacity"] or math.inf) else _("no limit")
    cap_c = row["compression_capacity"]
    by = row["compression_by"]
    if by == "a cable cannot push":
        comp = _("none (a cable)")
    elif cap_c is None or not math.isfinite(cap_c):
        comp = _("no limit")
    else:
        comp = f"{kn(cap_c)} ({_(LIMITED_BY[by]) if by in LIMITED_BY else by})"
    use = "–" if row["use"] is None else percent(row["use"])  # "51 %" in German, as the verdict writes it
    return row["member"], force, cap_t, comp, use


def section_lines(sections: dict[str, Section]) -> list[str]:
    """The legend's words while members are drawn as wide as their sections."""
    sizes = ", ".join(f"{s.shown(name)} {figure(s.A * 1e4)} cm²" for name, s in sections.items())
    return [_("While you build, a member is as wide as its section: width grows with √(area) ({sizes}). U: the member table.").format(sizes=sizes)]


@dataclass
class Table:
    """The table in words: `rows` of cells under `columns`, each row with the colour of
    each cell; `said` the line under the title (in `said_colour`); `totals` (words,
    amount) under the rows: the cost in parts, then the total; `foot` how it is sorted."""

    title: str
    said: str
    columns: list[str]
    rows: list[tuple[list[str], list[Colour]]] = field(default_factory=list)
    totals: list[tuple[str, str]] = field(default_factory=list)
    foot: str = ""
    said_colour: Colour = MUTED
    spare: tuple[str, ...] = ()  # the columns left out, in this order, when the box is too narrow for them all


def bill_cells(bill: Bill, named=lambda key: key) -> dict[str, list[str]]:
    """Member id → [section, length, cost] in words, from the bill; `named`: a section's
    key → its name as the student reads it (Bench.section_name)."""
    priced = bill.total is not None
    cells = {}
    for r in bill.rows:
        row = [named(r.section) if r.section else _(LEVELS_OWN), f"{decimal(r.length, 2)} m"]
        cells[r.member] = [*row, money(r.shown) if r.shown is not None else "–"] if priced else row
    return cells


def totals(bill: Bill) -> list[tuple[str, str]]:
    """The cost in parts and the total against the budget, as (words, amount)."""
    if bill.total is None:
        return []
    lines = [(words, money(amount)) for (words, _), amount in zip(bill.parts, bill.shown, strict=True)]  # the shown rows' sums
    total = bill.shown_total
    if bill.budget is None:
        return [*lines, (_("Total"), money(total))]
    left = bill.budget - total
    if left >= 0:
        said = _("Total, of the {budget} budget ({left} left)").format(budget=money(bill.budget), left=money(left))
    else:
        said = _("Total, of the {budget} budget ({over} over the budget)").format(budget=money(bill.budget), over=money(-left))
    return [*lines, (said, money(total))]


def contents(session) -> Table | None:
    """The table of the session's work (None: there is none: no bench, or nothing built
    of sections): after a build check, its verdict's rows with the bill's beside them."""
    bench = session.bench
    bill = bench.bill() if bench is not None and hasattr(bench, "bill") else None
    if bill is None or not (bill.rows or bill.parts):
        return None
    cells = bill_cells(bill, bench.section_name)
    head = ["Member", "Section", "Length", *(["Cost"] if bill.total is not None else [])]
    figures = session.verdict.figures if session.verdict is not None else {}
    checked = figures.get("members")
    if not checked:
        rows = [([r.member, *cells[r.member]], [INK] * (len(head))) for r in bill.rows]
        said = (
            _("Every member of the structure as built.")
            if bill.total is None
            else _("Every member of the structure as built. Cost: length × the section's price per metre.")
        )
        return Table(_("Members"), said, head, rows, totals(bill), _("In the order built.   U or Esc: close"))
    first = figures.get("first_to_fail") or {}
    rows = []
    for row in checked:
        member, force, cap_t, cap_c, use = row_words(row)
        sign = SIGN_TEXT[1 if row["force"] > 0 else -1 if row["force"] < 0 else 0]  # the sign's colour, in its shade for text
        words = [member, *cells.get(member, ["", ""] + [""] * (bill.total is not None)), force, cap_t, cap_c, use]
        colours = [MARK if member == first.get("member") else INK] + [INK] * (len(head) - 1) + [sign, INK, INK, INK]
        rows.append((words, colours))
    said = _("First to fail: {member} ({why}).").format(member=first["member"], why=first["why"]) if first.get("member") else _("No member has a limit here.")
    foot = _("Sorted by use ratio: force over the capacity of its sense.   U or Esc: close")
    columns = [*head, "Force", "Tension cap.", "Compression cap.", "Use"]
    spare = ("Tension cap.", "Length", "Section", "Cost")
    return Table(_("Members after the check"), said, columns, rows, totals(bill), foot, MARK if first.get("member") else MUTED, spare)


class MemberTable:
    """The box's state: open or not, and the first row shown; the words of the work it
    showed last, kept until the work or the verdict changes."""

    def __init__(self) -> None:
        self.shown = False
        self.top = 0
        self.rows_shown = 10  # how many rows the last drawing had room for
        self._kept: tuple[object, Table | None] = (None, None)
        self._widths: tuple[tuple | None, list[int]] = (None, [])  # each column's width [px], for the table last drawn and its fonts' scale

    def toggle(self) -> None:
        self.shown, self.top = not self.shown, 0

    def page_down(self) -> None:
        self.top += self.rows_shown

    def page_up(self) -> None:
        self.top = max(0, self.top - self.rows_shown)

    def contents(self, session) -> Table | None:
        """`contents(session)`, worked out once per edit and verdict (the box asks every frame)."""
        key = (id(session.bench), getattr(session.bench, "revision", None), id(session.verdict), language())  # the words change with the language
        if self._kept[0] != key:
            self._kept = (key, contents(session))
        return self._kept[1]

    def _columns(self, table: Table, fonts: Fonts, room: int) -> tuple[list[int], list[int], list[int]]:
        """The columns there is room for in `room` px (leaving out `table.spare` in turn),
        each one's width and left edge [px] from the box's inner left."""
        kept = self._widths[0]
        if kept is None or kept[0] is not table or kept[1] != fonts.scale:  # measured once per table and size of text: every row's every cell
            cells = [[fonts.body.size(words[k])[0] for words, _ in table.rows] for k in range(len(table.columns))]
            widths = [max([fonts.bold.size(_(title))[0], *cells[k]]) for k, title in enumerate(table.columns)]  # no rows: the title alone
            self._widths = ((table, fonts.scale), widths)
        keep = list(range(len(table.columns)))
        for title in table.spare:
            if sum(self._widths[1][k] for k in keep) + GAP * (len(keep) - 1) <= room:
                break
            keep.remove(table.columns.index(title))
        widths = [self._widths[1][k] for k in keep]
        return keep, widths, [sum(widths[:k]) + GAP * k for k in range(len(widths))]

    def draw(self, surface: pygame.Surface, fonts: Fonts, area: pygame.Rect, table: Table | None, avoid: pygame.Rect | None = None) -> pygame.Rect | None:
        """`table` in a box over `area`, where it hides the least of `avoid` (the
        structure on the screen); None: no box."""
        if not self.shown or table is None:
            return None
        line = fonts.body.get_linesize() + 2
        keep, widths, xs = self._columns(table, fonts, area.width - 4 * PAD)
        names = [table.columns[k] for k in keep]
        said_w = max((fonts.body.size(words)[0] for words, _ in table.totals), default=0)
        amount_w = max((fonts.bold.size(amount)[0] for _, amount in table.totals), default=0)
        cost = names.index("Cost") if "Cost" in names else None
        cost_right = xs[cost] + widths[cost] if cost is not None else 0  # the amounts line up under the cost column, if there is room
        amounts = max(cost_right, said_w + GAP + amount_w)
        width = min(area.width - 2 * PAD, max(xs[-1] + widths[-1], amounts, fonts.small.size(table.foot)[0], fonts.small.size(table.said)[0]) + 2 * PAD)
        head = PAD + fonts.bold.get_linesize() + 4 + fonts.small.get_linesize() + 8 + line + 4
        small = fonts.small.get_linesize()
        notes = draw.wrap(
            fonts.small, table.foot + ("   " + _("(a wider window shows every column)") if len(keep) < len(table.columns) else ""), width - 2 * PAD
        )
        foot = 6 + len(table.totals) * line + (4 if table.totals else 0) + len(notes) * small + PAD
        room = max(1, (area.height - 2 * PAD - head - foot) // line)
        if room < len(table.rows):  # a line more, to say how many rows lie above and below
            foot += small
            room = max(1, (area.height - 2 * PAD - head - foot) // line)
        self.rows_shown = min(room, len(table.rows)) or 1
        self.top = min(self.top, max(0, len(table.rows) - self.rows_shown))
        box = place_box(area, (width, head + self.rows_shown * line + foot), avoid)
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
        pygame.draw.rect(surface, INK, box, 2, border_radius=6)
        clip = surface.get_clip()
        surface.set_clip(box)
        x0 = box.left + PAD
        y = draw.label(surface, fonts.bold, table.title, (x0, box.top + PAD), INK, "topleft", None).bottom + 4
        y = draw.label(surface, fonts.small, table.said, (x0, y), table.said_colour, "topleft", None).bottom + 8
        for title, x in zip(names, xs, strict=True):
            draw.label(surface, fonts.bold, _(title), (x0 + x, y), INK, "topleft", None)
        y += line
        pygame.draw.line(surface, RULE, (x0, y), (box.right - PAD, y))
        y += 4
        for words, colours in table.rows[self.top : self.top + self.rows_shown]:
            for k, x in zip(keep, xs, strict=True):
                text, colour = words[k], colours[k]
                draw.label(surface, fonts.body, text, (x0 + x, y), colour, "topleft", None)
            y += line
        if table.totals:
            pygame.draw.line(surface, RULE, (x0, y + 2), (box.right - PAD, y + 2))
            y += 6
            for words, amount in table.totals:
                draw.label(surface, fonts.body, words, (x0, y), INK, "topleft", None)
                draw.label(surface, fonts.bold, amount, (x0 + amounts, y), INK, "topright", None)
                y += line
        above, below = self.top, len(table.rows) - self.top - self.rows_shown
        more = "   ".join(
            w for w in (_("{n} above (Page Up)").format(n=above) if above else "", _("{n} more below (Page Down)").format(n=below) if below else "") if w
        )
        said = [*notes, *([more] if more else [])]
        draw.text_block(surface, fonts.small, said, (x0, box.bottom - PAD - len(said) * small), MUTED, 0)
        surface.set_clip(clip)
        return box
