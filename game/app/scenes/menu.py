"""The menu: the levels in course order (`levels/course.json`), or every level file in
`levels/` when there is no course, and an empty sandbox. Up/Down or the mouse to
choose, Enter or a click to play, Esc to quit."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pygame

from game.app import draw
from game.app.app import App, Scene
from game.app.palette import INK, MUTED, PANEL, RULE, TENSION
from game.app.scenes.play import PlayScene
from game.app.stage import Stage, load_stage
from game.course import COURSE_PATH, LEVELS_DIR, load_course
from game.files import BadInput, read_json

ROW = 26  # [px] height of a row
LEFT = 60  # [px] left edge of the list
TOP = 110  # [px] top of the list


@dataclass(frozen=True)
class Row:
    """A topic heading (path None, not chosen) or a level; `sandbox` opens an empty one."""

    text: str
    path: Path | None = None
    sandbox: bool = False

    @property
    def choosable(self) -> bool:
        return self.path is not None or self.sandbox


def level_rows(levels_dir: Path = LEVELS_DIR, course_path: Path = COURSE_PATH) -> list[Row]:
    """Headings and levels in course order; without a readable course, every level
    file in the folder by name. Levels the course names but the folder lacks are left out."""
    rows: list[Row] = []
    try:
        course = load_course(course_path)
    except (BadInput, ValueError):
        course = None
    if course is not None:
        for topic in course.topics:
            found = [levels_dir / f"{lid}.json" for lid in topic.levels if (levels_dir / f"{lid}.json").is_file()]
            if found:
                rows.append(Row(topic.title))
                rows += [Row(_title(p), p) for p in found]
    else:
        from game.cli import level_files

        rows.append(Row("Levels"))
        rows += [Row(_title(p), p) for p in level_files([str(levels_dir)])]
    rows += [Row("Free play"), Row("Empty sandbox", sandbox=True)]
    return rows


def _title(path: Path) -> str:
    try:
        data = read_json(path)
    except BadInput:
        return f"{path.stem} (cannot be read)"
    title = data.get("title") if isinstance(data, dict) else None
    return f"{path.stem}: {title}" if isinstance(title, str) else path.stem


class MenuScene(Scene):
    """Rows flow down columns as wide as the window allows; a heading never ends one."""

    def __init__(self, app: App, rows: list[Row] | None = None):
        super().__init__(app)
        self.rows = rows if rows is not None else level_rows()
        self.selected = next((k for k, r in enumerate(self.rows) if r.choosable), 0)
        self.error = ""

    def _move(self, step: int) -> None:
        k = self.selected + step
        while 0 <= k < len(self.rows) and not self.rows[k].choosable:
            k += step
        if 0 <= k < len(self.rows):
            self.selected = k

    def open(self, row: Row) -> None:
        """Play the row's level (or the empty sandbox); a bad file is shown, not raised."""
        try:
            stage = Stage.empty_sandbox() if row.sandbox else load_stage(row.path)
            self.app.push(PlayScene(self.app, stage))
            self.error = ""
        except BadInput as exc:
            self.error = str(exc)
        except ValueError as exc:
            self.error = f"{row.path}: {str(exc).splitlines()[0]}"

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_UP:
                self._move(-1)
            elif event.key == pygame.K_DOWN:
                self._move(1)
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.open(self.rows[self.selected])
            elif event.key == pygame.K_ESCAPE:
                self.app.quit()
        elif event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            k = self._row_at(event.pos)
            if k is not None and self.rows[k].choosable:
                self.selected = k
                if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    self.open(self.rows[k])

    def places(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """Where each row goes on a screen of `size`."""
        w, h = size
        per_column = max(2, (h - TOP - 60) // ROW)
        slots: list[tuple[int, int]] = []  # (column, row in column)
        column = line = 0
        for k, row in enumerate(self.rows):
            last = line == per_column - 1
            if line >= per_column or (last and not row.choosable and k + 1 < len(self.rows)):
                column, line = column + 1, 0
            slots.append((column, line))
            line += 1
        width = (w - 2 * LEFT) // (column + 1)
        return [pygame.Rect(LEFT + c * width, TOP + r * ROW, width - 24, ROW) for c, r in slots]

    def _row_at(self, pos: tuple[int, int]) -> int | None:
        for k, rect in enumerate(self.places(self.app.screen.get_size())):
            if rect.collidepoint(pos):
                return k
        return None

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        w, h = surface.get_size()
        draw.label(surface, fonts.big, "Equilibria", (LEFT, 30), INK, "topleft", None)
        draw.label(surface, fonts.body, "Structures that are not in equilibrium move. Choose a level:", (LEFT, 68), MUTED, "topleft", None)
        for k, (row, rect) in enumerate(zip(self.rows, self.places((w, h)), strict=True)):
            if not row.choosable:
                draw.label(surface, fonts.bold, row.text, (rect.left, rect.bottom - 4), INK, "bottomleft", None)
                pygame.draw.line(surface, RULE, (rect.left, rect.bottom - 2), (rect.right, rect.bottom - 2))
                continue
            if k == self.selected:
                pygame.draw.rect(surface, PANEL, rect.inflate(0, -2), border_radius=4)
                pygame.draw.rect(surface, TENSION, (rect.left, rect.top + 1, 4, rect.height - 2))
            draw.label(surface, fonts.body, row.text, (rect.left + 16, rect.centery), INK, "midleft", None)
        foot = self.error or "Up/Down or the mouse: choose   ·   Enter or click: play   ·   Esc: quit (in a level: back here)"
        draw.label(surface, fonts.body, foot, (LEFT, h - 24), INK if self.error else MUTED, "midleft", None)
