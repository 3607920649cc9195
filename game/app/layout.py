"""Where the parts of the play screen go, for any window of at least MIN_SIZE: one
function gives every docked part its rectangle, so no two of them can overlap.

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

from dataclasses import dataclass

import pygame

MIN_SIZE = (800, 600)  # [px] the smallest window: every part still fits
LEGEND_WIDTH = 236  # [px] the side column
TOOLBAR_HEIGHT = 44
STATUS_HEIGHT = 28
LEGEND_LEAST = 120  # [px] the legend keeps at least this much of the side column (it scrolls)


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
    def of(cls, size: tuple[int, int], top_height: int, readout_height: int = 0) -> Layout:
        """A screen of `size` [px] with a title bar `top_height` tall and a readout that
        asks for `readout_height` (it gets at most what leaves the legend LEGEND_LEAST)."""
        w, h = size
        top = pygame.Rect(0, 0, w, top_height)
        toolbar = pygame.Rect(0, top.bottom, w, TOOLBAR_HEIGHT)
        status = pygame.Rect(0, h - STATUS_HEIGHT, w, STATUS_HEIGHT)
        side = pygame.Rect(w - LEGEND_WIDTH, toolbar.bottom, LEGEND_WIDTH, status.top - toolbar.bottom)
        readout_h = max(0, min(readout_height, side.height - LEGEND_LEAST))
        legend = pygame.Rect(side.left, side.top, side.width, side.height - readout_h)
        readout = pygame.Rect(side.left, legend.bottom, side.width, readout_h)
        world = pygame.Rect(0, toolbar.bottom, side.left, status.top - toolbar.bottom)
        return cls(top, toolbar, world, legend, readout, status)

    @property
    def stage(self) -> pygame.Rect:
        """The world and the side column: where a long box (the help) may spread."""
        return self.world.union(self.legend).union(self.readout)


def at_least_minimum(size: tuple[int, int]) -> tuple[int, int]:
    return max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1])
