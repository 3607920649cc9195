"""Where the parts of a screen go, for any window of at least MIN_SIZE. On the play screen
`Layout.of` gives every docked part its rectangle, so no two of them can overlap, and
`arrange` places the parts over the world so that none covers another; `MenuLayout.of`
does the same for the level select (drawn at the end).

    ┌──────────────────────────────────────────────┐
    │ top: the title and the brief's lines          │
    │ toolbar: the tools, the section, the tip      │
    ├───────────────────────────────┬──────────────┤
    │ world: the structure           │ legend       │
    │ (the boxes, the graph and the  │ (scrolls)    │
    │  badges float over it)         ├──────────────┤
    │                                │ readout      │
    ├───────────────────────────────┴──────────────┤
    │ status line                                   │
    └──────────────────────────────────────────────┘
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

MIN_SIZE = (800, 600)  # [px] the smallest window: every part still fits
LEGEND_WIDTH = 236  # [px] the side column
TOOLBAR_HEIGHT = 44
STATUS_HEIGHT = 28
LEGEND_LEAST = 120  # [px] the legend keeps at least this much of the side column (it scrolls)
GRAPH_LEAST = 120  # [px] the graph's least height
PAD = 12  # [px] the margin inside and between the parts


@dataclass(frozen=True)
class Layout:
    """The docked parts' rectangles: the title and brief (`top`), the toolbar, the
    world, the legend, the net-force readout under it, the status line."""

    top: pygame.Rect
    toolbar: pygame.Rect
    world: pygame.Rect
    legend: pygame.Rect
    readout: pygame.Rect
    status: pygame.Rect

    @classmethod
    def of(cls, size: tuple[int, int], top_height: int, readout_height: int = 0, scale: float = 1.0) -> Layout:
        """A screen of `size` [px] with a title bar `top_height` tall and a readout that
        asks for `readout_height` (it gets at most what leaves the legend LEGEND_LEAST),
        its bars and side column grown with the text's `scale` (palette.Fonts)."""
        w, h = size
        legend_width = round(LEGEND_WIDTH * scale)
        top = pygame.Rect(0, 0, w, top_height)
        toolbar = pygame.Rect(0, top.bottom, w, round(TOOLBAR_HEIGHT * scale))
        status = pygame.Rect(0, h - round(STATUS_HEIGHT * scale), w, round(STATUS_HEIGHT * scale))
        side = pygame.Rect(w - legend_width, toolbar.bottom, legend_width, status.top - toolbar.bottom)
        readout_h = max(0, min(readout_height, side.height - round(LEGEND_LEAST * scale)))
        legend = pygame.Rect(side.left, side.top, side.width, side.height - readout_h)
        readout = pygame.Rect(side.left, legend.bottom, side.width, readout_h)
        world = pygame.Rect(0, toolbar.bottom, side.left, status.top - toolbar.bottom)
        return cls(top, toolbar, world, legend, readout, status)

    @property
    def stage(self) -> pygame.Rect:
        """The world and the side column: where a long box (the help) may spread."""
        return self.world.union(self.legend).union(self.readout)


def arrange(part: Callable[[str], Any], layout: Layout, structure: pygame.Rect | None) -> None:
    """Give the play screen's parts (`part(name)`: game/app/scenes/parts.py, boxes.py)
    their rectangles for this frame: the docked ones from `layout`; over the world the
    badges at its upper right, the HUD and under it the graph at its upper left, and the
    verdict below them where it hides least of the structure (drawn in `structure`),
    none over another (the graph shrinks, and at the last the HUD gives way, so that the
    verdict keeps its least height); the open boxes over the world, the help and the
    member table over the side column too."""
    for name in ("title", "toolbar", "world", "legend", "readout", "status"):
        part(name).rect = getattr(layout, "top" if name == "title" else name)
    part("tip").world = layout.world  # the tip places itself beside the pointer, within the world
    world, band, right = layout.world, layout.world.top, layout.world.right - 10
    badges, hud, graph, verdict = part("badges"), part("hud"), part("graph"), part("verdict")
    if badges.shown:
        badges.rect = badges.place(world)
        right, band = badges.rect.left - PAD, badges.rect.bottom
    room = verdict.least(world) if verdict.shown and verdict.what() != "folded" else 0  # what the verdict needs under the others
    hud.crowded = False
    if hud.shown and graph.shown and room:
        hud.crowded = hud.place(world).bottom + 6 + GRAPH_LEAST > world.bottom - room
    top = world.top + 10
    if hud.shown:
        hud.rect = hud.place(world)
        top = hud.rect.bottom + 6
    if graph.shown:
        graph.rect = graph.place(world, top, right, room)
        top = graph.rect.bottom
    band = max(band, top if hud.shown or graph.shown else world.top)
    if verdict.shown:
        verdict.rect = verdict.place(pygame.Rect(world.left, band, world.width, world.bottom - band), structure)
    for name in ("brief", "entry", "leave"):
        if part(name).shown:
            part(name).rect = part(name).place(world)
    for name in ("help", "table", "method"):  # the widest boxes spread over the side column too
        if part(name).shown:
            part(name).rect = part(name).place(layout.stage)


# ---------------------------------------------------------------------- the level select
#   ┌──────────────────────────────────────────────┐
#   │ header: the name, the tally, the warm-up       │
#   │   levels: which rows are in view (▲ right)     │
#   │   the rows, whole ones                     ▐   │  ▐ the scrollbar
#   │   …                                            │
#   │ problem: the progress problem, if any          │
#   │ student: the student id's line     language    │
#   │ keys: what the keys do                         │
#   └──────────────────────────────────────────────┘
MENU_LEFT = 60  # [px] left edge of the list (and the margin of the lines under it)
MENU_TOP = 110  # [px] top of the list's rows
MENU_HEADER = 88  # [px] height of the header: the name and the line under it
MENU_FOOT = 60  # [px] below the list, for the foot's lines (and above them the progress problem)
MENU_FOOT_LINE = 44  # [px] from the bottom to the middle of the foot's first line (the student id, the language)
MENU_ROW = 26  # [px] height of a row
MENU_LIST_WIDTH = 820  # [px] widest the list gets (a wide window leaves room on the right)
MENU_BAR_GAP = 28  # [px] from the list's right edge to past the scrollbar


@dataclass(frozen=True)
class MenuLayout:
    """The level select's parts' rectangles (none over another): the header, the list
    (`levels`: the line above the rows, the rows, the scrollbar beside them; `rows`: the
    rows alone, whole ones), the progress problem under it, the student id's line and
    the language line beside it, the keys' line, and `boxes`, above the foot, where a
    box over the menu goes."""

    header: pygame.Rect
    levels: pygame.Rect
    rows: pygame.Rect
    problem: pygame.Rect
    student: pygame.Rect
    language: pygame.Rect
    keys: pygame.Rect
    boxes: pygame.Rect

    @classmethod
    def of(cls, size: tuple[int, int], problem_height: int, language: tuple[int, int], scale: float = 1.0) -> MenuLayout:
        """A screen of `size` [px], a progress problem `problem_height` px tall (0: none)
        and a language line of `language` (width, height) [px], at the text's `scale`."""
        w, h = size
        top, foot, row, gap = (round(n * scale) for n in (MENU_TOP, MENU_FOOT, MENU_ROW, MENU_BAR_GAP))
        count = max(2, (h - top - foot - problem_height) // row)
        rows = pygame.Rect(MENU_LEFT, top, max(200, min(round(MENU_LIST_WIDTH * scale), w - 2 * MENU_LEFT - gap)), count * row)
        header = pygame.Rect(0, 0, w, round(MENU_HEADER * scale))
        levels = pygame.Rect(rows.left, header.bottom, rows.width + gap, rows.bottom - header.bottom)
        lw, lh = language
        chooser = pygame.Rect(w - MENU_LEFT - lw, h - round(MENU_FOOT_LINE * scale) - lh // 2, lw, lh)
        student = pygame.Rect(0, chooser.top, chooser.left, lh)
        problem = pygame.Rect(0, rows.bottom, w, chooser.top - rows.bottom)
        keys = pygame.Rect(0, chooser.bottom, w, h - chooser.bottom)
        return cls(header, levels, rows, problem, student, chooser, keys, pygame.Rect(0, 0, w, h - foot))


def at_least_minimum(size: tuple[int, int]) -> tuple[int, int]:
    return max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])
