"""The menu, the level select: the levels in course order (`levels/course.json`), by
topic, or every level file in `levels/` when there is no course, then the teacher's
levels (game/course/teacher.py) under a heading of their own, and an empty sandbox.
Each level that can be won has a box, ticked once it is won, and its best marks; each
topic says how many of its levels are won. The level opened last is chosen at the start
and again on the way back from a level (after N it is the level left, not the one
opened from here).

One column that scrolls: Up/Down, Page Up/Down, Home/End, the wheel and the scrollbar
(a click on its track pages, its thumb drags) move through it,
the cursor's row always in view (with its topic's heading when it is the topic's first
level); a scrollbar and "21–40 of 52" say where the view is. The mouse chooses the row
under it once it moves while the menu is on top: the pointer left where a level's last
click was does not move the cursor. Enter or a click plays, Esc asks before it quits. A level file that
cannot be opened is named, with the field at fault, in a box over the menu that stays
until the next key or click (which only closes it); the menu runs on behind it."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import ALERT, INK, MUTED, PANEL, REACTION, RULE, TENSION
from equilibria.app.scenes.loading import when_ready
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.widgets import overlay
from equilibria.app.widgets.studentbox import StudentBox, student_line
from equilibria.app.window.app import App, Scene
from equilibria.course.progress import Progress, data_folder
from equilibria.course.syllabus import COURSE_PATH, LEVELS_DIR, level_files, load_course
from equilibria.course.teacher import HEADING, teacher_levels
from equilibria.engine.warm import PLAY_STEPS
from equilibria.files.store import BadInput, SaveError, read_json
from equilibria.format.schema import raw_text
from equilibria.rules.kinds import kind_of
from equilibria.words.figures import percent
from equilibria.words.i18n import LANGUAGES, N_, SOURCE, _, language, ngettext, set_language

ROW = 26  # [px] height of a row
LEFT = 60  # [px] left edge of the list
TOP = 110  # [px] top of the list
FOOT = 60  # [px] below the list, for the help line (and above it the progress problem)
BOX = 14  # [px] side of a level's won box
TEXT_INSET = 40  # [px] from a row's left edge to its text
LIST_WIDTH = 820  # [px] widest the list gets (a wide window leaves room on the right)
BAR = 6  # [px] width of the scrollbar
BAR_GAP = 28  # [px] from the list's right edge to past the scrollbar
WHEEL_ROWS = 3  # rows scrolled per notch of the wheel
HELP_LINES = (  # the keys, in the longest words the window has room for
    N_("Up/Down, Page Up/Down, Home/End, the wheel or the mouse: choose   ·   Enter or click: play   ·   L: language   ·   Esc: leave (asks first)"),
    N_("Up/Down, Page Up/Down, the wheel or the mouse: choose   ·   Enter or click: play   ·   L: language   ·   Esc: leave (asks)"),
    N_("Up/Down, wheel: choose  ·  Enter: play  ·  L: language  ·  Esc: leave"),
)


@dataclass(frozen=True)
class Row:
    """A topic heading (path None, not chosen) or a level; `sandbox` opens an empty one.
    `kind` and `level` are the level's kind and id as its file gives them (None: unknown);
    `problem` is "" or the one line that says why the level cannot be opened."""

    text: str
    path: Path | None = None
    sandbox: bool = False
    kind: str | None = field(default=None, compare=False)
    level: str | None = field(default=None, compare=False)
    problem: str = field(default="", compare=False)

    @property
    def choosable(self) -> bool:
        return self.path is not None or self.sandbox

    @property
    def level_id(self) -> str | None:
        """The level's id, as the progress knows it: the file's, else the file's name."""
        if self.path is None:
            return None
        return self.level or self.path.stem

    @property
    def winnable(self) -> bool:
        """A judged level (not a demo or a sandbox): one that can be won."""
        kind = kind_of(self.kind)
        return kind is not None and kind.judged


def level_rows(levels_dir: Path = LEVELS_DIR, course_path: Path = COURSE_PATH, teacher_dir: Path | None = None) -> list[Row]:
    """Headings and levels in course order; without a readable course, every level
    file in the folder by name. Levels the course names but the folder lacks are left out.
    Then the teacher's levels in `teacher_dir` (default: the data folder's), if any."""
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
                rows += [_level_row(p) for p in found]
    else:
        rows.append(Row(_("Levels")))
        rows += [_level_row(p) for p in level_files([str(levels_dir)])]
    rows += _teacher_rows(teacher_dir)
    rows += [Row(_("Free play")), Row(_("Empty sandbox"), sandbox=True)]
    rows += [Row(_("Sandbox: {title}").format(title=p.stem), p, sandbox=True) for p in saved_designs()]
    return rows


SHOWN_DESIGNS = 6  # saved sandbox designs listed, newest first


def saved_designs() -> list[Path]:
    """The sandbox designs in the user's data folder (each design keeps its own file),
    the newest first."""
    folder = data_folder() / "designs"
    try:
        files = sorted(folder.glob("*.json"), key=lambda p: -p.stat().st_mtime)
    except OSError:
        return []
    return files[:SHOWN_DESIGNS]


def _level_row(path: Path) -> Row:
    try:
        data = read_json(path)
    except BadInput:
        return Row(_("{name} (cannot be read)").format(name=path.stem), path)
    data = data if isinstance(data, dict) else {}
    title, kind, level = raw_text(data.get("title")), data.get("kind"), data.get("id")
    text = f"{path.stem}: {title}" if title else path.stem
    return Row(text, path, kind=kind if isinstance(kind, str) else None, level=level if isinstance(level, str) and level else None)


def _teacher_rows(folder: Path | None) -> list[Row]:
    """The teacher's levels under their heading (none: no heading); one that cannot be
    played is listed by its file name, with its problem."""
    found = teacher_levels(folder)
    rows = [Row(HEADING)] if found else []
    for t in found:
        if t.problem:
            rows.append(Row(_("{name} (cannot be opened)").format(name=t.path.name), t.path, problem=t.problem))
        else:
            rows.append(Row(f"{t.id}: {t.title}", t.path, kind=t.kind, level=t.id))
    return rows


def topic_counts(rows: list[Row], progress: Progress) -> dict[int, tuple[int, int]]:
    """For each heading (by row index) that has levels to win: (won, winnable) among
    the levels under it."""
    counts: dict[int, tuple[int, int]] = {}
    heading = None
    for k, row in enumerate(rows):
        if not row.choosable:
            heading = k
        elif heading is not None and row.winnable:
            won, total = counts.get(heading, (0, 0))
            counts[heading] = (won + progress.won(row.level_id), total + 1)
    return counts


def check_mark(surface: pygame.Surface, box: pygame.Rect, colour) -> None:
    """A tick in `box`, drawn with lines (no font need have the glyph)."""
    x, y, w, h = box
    points = [(x + 0.2 * w, y + 0.52 * h), (x + 0.42 * w, y + 0.75 * h), (x + 0.82 * w, y + 0.22 * h)]
    pygame.draw.lines(surface, colour, False, points, 3)


class MenuScene(Scene):
    """One column of rows that scrolls; `top` is the first row in view."""

    def __init__(self, app: App, rows: list[Row] | None = None, progress: Progress | None = None):
        super().__init__(app)
        self.rows = rows if rows is not None else level_rows()
        self.listed = rows is None  # rows of its own finding, found again on return
        self.progress = progress if progress is not None else Progress.load()
        choosable = [k for k, r in enumerate(self.rows) if r.choosable]
        self.selected = self._last_opened() if self._last_opened() is not None else (choosable[0] if choosable else 0)
        self.top = 0  # the first row in view
        self.pointer_live = False  # whether a frame was shown since the menu came on top (the mouse chooses after that)
        self.dragging: int | None = None  # [px] where the scrollbar's thumb was taken, below its top (None: not dragged)
        self.error = ""  # why the level chosen last cannot be opened (file: field: problem), shown in a box
        self.asking = False  # Esc asked whether to leave the game: Enter or Esc again leaves, anything else stays
        self.error_title = ""
        self.student_box: StudentBox | None = None  # the student id asked (the I key, or before the first level that varies)
        self.asked_student = False  # asked once this session: "not now" is not asked again

    def _last_opened(self) -> int | None:
        """The row of the level opened last (None: none, or not listed)."""
        last = self.progress.last_level
        return next((k for k, r in enumerate(self.rows) if r.choosable and not r.sandbox and last is not None and r.level_id == last), None)

    def resumed(self) -> None:
        """Back from a level: the designs saved meanwhile are listed at once, the level
        left is chosen (it may be the next one, opened with N), and the level opened last
        is kept in the progress file even if the level was left unchanged (the play
        scene then writes nothing, and the next start would choose the first row)."""
        self.pointer_live = False  # the pointer is where the level's last click left it
        self._keep_last_level()
        if not self.listed:
            return
        chosen = self.rows[self.selected] if self.rows else None
        self.rows = level_rows()
        same = [k for k, r in enumerate(self.rows) if chosen is not None and r.choosable and (r.path, r.text) == (chosen.path, chosen.text)]
        last = self._last_opened() if chosen is not None and not chosen.sandbox else None
        self.selected = last if last is not None else same[0] if same else self._nearest(min(self.selected, len(self.rows) - 1), 1)
        self._follow(self.app.screen.get_size(), heading=True)

    def closing(self) -> None:
        self._keep_last_level()

    def _keep_last_level(self) -> None:
        if self.progress.last_level_unsaved:
            with contextlib.suppress(SaveError):  # the play scene has said why its saves fail; the menu has nothing to add
                self.progress.save()

    # ------------------------------------------------------------------ moving and scrolling
    def _nearest(self, k: int, step: int) -> int:
        """The choosable row at `k`, else the nearest one past it in the direction of
        `step`, else the nearest before it (k itself when there is none)."""
        for direction in (step, -step):
            q = k
            while 0 <= q < len(self.rows):
                if self.rows[q].choosable:
                    return q
                q += direction
        return k

    def _move(self, step: int) -> None:
        k = self.selected + step
        while 0 <= k < len(self.rows) and not self.rows[k].choosable:
            k += step
        if 0 <= k < len(self.rows):
            self.selected = k
        self._follow(self.app.screen.get_size(), heading=True)

    def _jump(self, k: int, step: int) -> None:
        """Put the cursor on the choosable row at or past `k` (clamped to the list)."""
        if self.rows:
            self.selected = self._nearest(max(0, min(k, len(self.rows) - 1)), step)
        self._follow(self.app.screen.get_size(), heading=True)

    def _scroll(self, rows: int) -> None:
        """Scroll the view by `rows` (down positive); the cursor is pulled along to stay
        in view."""
        size = self.app.screen.get_size()
        page = self.page(size)
        self.top = max(0, min(self.top + rows, len(self.rows) - page))
        if self.selected < self.top:
            self.selected = self._nearest(self.top, 1)
        elif self.selected >= self.top + page:
            self.selected = self._nearest(self.top + page - 1, -1)

    def _follow(self, size: tuple[int, int], *, heading: bool = False) -> None:
        """Scroll as little as keeps the cursor's row in view (and, with `heading`, the
        heading just above it: the topic's name comes into view with its first level)."""
        page = self.page(size)
        first = self.selected - 1 if heading and self.selected > 0 and not self.rows[self.selected - 1].choosable else self.selected
        if first < self.top:
            self.top = first
        elif self.selected >= self.top + page:
            self.top = self.selected - page + 1
        self.top = max(0, min(self.top, len(self.rows) - page))

    def update(self, frame_seconds: float) -> None:
        self._follow(self.app.screen.get_size())  # the window may have changed size
        self.pointer_live = True

    def open(self, row: Row) -> None:
        """Play the row's level (or the empty sandbox); a bad file is shown, not raised."""
        if row.problem:
            self._cannot_open(row, row.problem)
            return
        try:
            stage = Stage.empty_sandbox() if row.sandbox and row.path is None else load_stage(row.path, sandbox=row.sandbox)
        except BadInput as exc:
            self._cannot_open(row, str(exc))
            return
        except ValueError as exc:
            self._cannot_open(row, f"{row.path}: {str(exc).splitlines()[0]}")
            return
        self.error = ""
        if stage.varies and self.progress.student is None and not self.asked_student:  # its numbers come from the student id: ask it first
            self._ask_student(lambda kept: self._play(row, stage))
            return
        self._play(row, stage)

    def _play(self, row: Row, stage: Stage) -> None:
        if row.level_id is not None and not row.sandbox:
            self.progress.opened(row.level_id)  # written with the play scene's next save, or on the way back here
        self.app.push(when_ready(self.app, lambda app: PlayScene(app, stage, progress=self.progress)))

    def _ask_student(self, then=None) -> None:
        def done(kept: bool) -> None:
            self.student_box, self.asked_student = None, True
            if then is not None:
                then(kept)

        self.student_box = StudentBox(self.progress, done)

    def _cannot_open(self, row: Row, message: str) -> None:
        """Show why `row` cannot be opened: `message` names the file and the field."""
        self.error_title = _("{name} cannot be opened").format(name=row.path.name if row.path is not None else row.text)
        self.error = message

    def handle_event(self, event: pygame.event.Event) -> None:
        if self.student_box is not None:
            self.student_box.handle_event(event)
            return
        if self.error and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.error = ""  # the key or click that closes the box does nothing else
            return
        if self.asking and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.asking = False  # answered: Enter or Esc leaves, any other key or a click stays
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.app.quit()
            return
        page = self.page(self.app.screen.get_size())
        if event.type == pygame.KEYDOWN:
            moves = {
                pygame.K_i: self._ask_student,
                pygame.K_l: self.next_language,
                pygame.K_UP: lambda: self._move(-1),
                pygame.K_DOWN: lambda: self._move(1),
                pygame.K_PAGEUP: lambda: self._jump(self.selected - page, -1),
                pygame.K_PAGEDOWN: lambda: self._jump(self.selected + page, 1),
                pygame.K_HOME: lambda: self._jump(0, 1),
                pygame.K_END: lambda: self._jump(len(self.rows) - 1, -1),
                pygame.K_RETURN: lambda: self.open(self.rows[self.selected]),
                pygame.K_KP_ENTER: lambda: self.open(self.rows[self.selected]),
                pygame.K_ESCAPE: self.ask_to_leave,
            }
            if event.key in moves:
                moves[event.key]()
        elif event.type == pygame.MOUSEWHEEL:
            self._scroll(-WHEEL_ROWS * event.y)
        elif self._on_scrollbar(event):
            pass
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self._language_rect(self.app.screen.get_size()).collidepoint(event.pos):
            self.next_language()
        elif event.type == pygame.MOUSEMOTION and (not self.pointer_live or tuple(getattr(event, "rel", (1, 1))) == (0, 0)):
            pass  # queued with the click that left a level, or made up by the window: the pointer did not move here
        elif event.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN):
            k = self._row_at(event.pos)
            if k is not None and self.rows[k].choosable:
                self.selected = k
                if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                    self.open(self.rows[k])

    def next_language(self) -> None:
        """L (or a click on the language line): the next language, at once (every text is
        translated where it is drawn), kept in the progress for the next start."""
        codes = list(LANGUAGES)
        now = language() if language() in codes else SOURCE
        code = set_language(codes[(codes.index(now) + 1) % len(codes)])
        self.progress.set_language(code)
        with contextlib.suppress(SaveError):  # chosen for this session all the same; the menu shows the progress problem
            self.progress.save()
        if self.listed:  # the rows' own words ("Free play") and the levels' titles in the new language
            chosen = self.selected
            self.rows = level_rows()
            self.selected = self._nearest(min(chosen, len(self.rows) - 1), 1) if self.rows else 0

    def language_line(self) -> str:
        """The line that names the language and how to change it."""
        # TRANSLATORS: the language line of the menu; {language} is the language's own name (English, Deutsch)
        return _("Language: {language}   (L: change it)").format(language=LANGUAGES.get(language(), LANGUAGES[SOURCE]))

    def _language_rect(self, size: tuple[int, int]) -> pygame.Rect:
        font = self.app.fonts.small
        w, h = font.size(self.language_line())
        return pygame.Rect(size[0] - LEFT - w, size[1] - 44 - h // 2, w, h)

    def ask_to_leave(self) -> None:
        """Esc: ask before leaving the game (the README says it asks)."""
        self.asking = True

    def _on_scrollbar(self, event: pygame.event.Event) -> bool:
        """A click on the scrollbar's track pages towards it; the thumb drags the view.
        Whether the event was the scrollbar's."""
        size = self.app.screen.get_size()
        bar = self.scrollbar(size)
        if event.type == pygame.MOUSEBUTTONUP:
            self.dragging = None
        if bar is None:
            return False
        track, thumb = bar
        if event.type == pygame.MOUSEMOTION and self.dragging is not None:
            room = max(1, track.height - thumb.height)
            self._scroll(round((event.pos[1] - self.dragging - track.top) / room * (len(self.rows) - self.page(size))) - self.top)
            return True
        if event.type != pygame.MOUSEBUTTONDOWN or event.button != 1 or not track.inflate(BAR_GAP - BAR, 0).collidepoint(event.pos):
            return False
        if thumb.top <= event.pos[1] < thumb.bottom:
            self.dragging = event.pos[1] - thumb.top
        else:
            self._scroll(self.page(size) if event.pos[1] >= thumb.bottom else -self.page(size))
        return True

    def list_box(self, size: tuple[int, int]) -> pygame.Rect:
        """The rectangle the rows scroll in (whole rows), the scrollbar to its right."""
        w, h = size
        foot = FOOT + len(self.problem_lines(w)) * self.app.fonts.small.get_linesize()
        rows = max(2, (h - TOP - foot) // ROW)
        return pygame.Rect(LEFT, TOP, max(200, min(LIST_WIDTH, w - 2 * LEFT - BAR_GAP)), rows * ROW)

    def page(self, size: tuple[int, int]) -> int:
        """How many rows are in view at once."""
        return self.list_box(size).height // ROW

    def shown(self, size: tuple[int, int]) -> range:
        """The rows in view."""
        return range(self.top, min(len(self.rows), self.top + self.page(size)))

    def places(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """Where each row goes on a screen of `size`, as scrolled: the rows out of view
        (not in `shown`) lie above or below the list box and are not drawn."""
        box = self.list_box(size)
        return [pygame.Rect(box.left, box.top + (k - self.top) * ROW, box.width, ROW) for k in range(len(self.rows))]

    def _row_at(self, pos: tuple[int, int]) -> int | None:
        size = self.app.screen.get_size()
        places = self.places(size)
        return next((k for k in self.shown(size) if places[k].collidepoint(pos)), None)

    def header(self, counts: dict[int, tuple[int, int]]) -> str:
        """The line under the title, with how many of the graded levels (those that can be
        won: not the demos and sandboxes, which `where` counts too) are won."""
        intro = _("Structures that are not in equilibrium move. Choose a level:")
        won, total = (sum(c[i] for c in counts.values()) for i in (0, 1))
        if not total:
            return intro
        return intro + "   " + ngettext("({won} of {total} graded level won)", "({won} of {total} graded levels won)", total).format(won=won, total=total)

    def header_line(self, counts: dict[int, tuple[int, int]], width: int) -> str:
        """The header, or where it is wider than `width` px (German in a narrow window)
        the tally after a shorter invitation."""
        whole = self.header(counts)
        if self.app.fonts.body.size(whole)[0] <= width:
            return whole
        won, total = (sum(c[i] for c in counts.values()) for i in (0, 1))
        return ngettext("Choose a level:   {won} of {total} graded level won", "Choose a level:   {won} of {total} graded levels won", total).format(
            won=won, total=total
        )

    def where(self, size: tuple[int, int]) -> str:
        """Which of the choosable rows (levels, demos and sandboxes) are in view, as
        "levels 21–40 of 52" ("" when all are)."""
        choosable = [k for k, r in enumerate(self.rows) if r.choosable]
        shown = self.shown(size)
        seen = [n for n, k in enumerate(choosable, 1) if k in shown]
        if not seen or len(seen) == len(choosable):
            return ""
        return _("levels {first}–{last} of {n}").format(first=seen[0], last=seen[-1], n=len(choosable))

    def scrollbar(self, size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect] | None:
        """The scrollbar's track and thumb (None when every row is in view)."""
        box, page, n = self.list_box(size), self.page(size), len(self.rows)
        if n <= page:
            return None
        track = pygame.Rect(box.right + BAR_GAP // 2 - BAR // 2, box.top, BAR, box.height)
        length = max(BAR * 3, round(track.height * page / n))
        top = track.top + round((track.height - length) * self.top / max(1, n - page))
        return track, pygame.Rect(track.left, top, BAR, length)

    def box(self, rect: pygame.Rect) -> pygame.Rect:
        """The won box of the level row at `rect`."""
        return pygame.Rect(rect.left + 16, rect.centery - BOX // 2, BOX, BOX)

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        w, h = surface.get_size()
        counts = topic_counts(self.rows, self.progress)
        draw.label(surface, fonts.big, "Equilibria", (LEFT, 30), INK, "topleft", None)
        draw.label(surface, fonts.body, self.header_line(counts, w - 2 * LEFT), (LEFT, 68), MUTED, "topleft", None)
        warmup = self.app.warmup
        if warmup is not None and not warmup.ready():
            share, doing = warmup.progress(PLAY_STEPS)
            draw.label(
                surface,
                fonts.small,
                _("Preparing the engine: {what}, {share}").format(what=_(doing), share=percent(share)),
                (w - LEFT, 36),
                MUTED,
                "topright",
                None,
            )
        places = self.places((w, h))
        for k in self.shown((w, h)):
            row, rect = self.rows[k], places[k]
            if not row.choosable:
                title = draw.label(surface, fonts.bold, row.text, (rect.left, rect.bottom - 4), INK, "bottomleft", None)
                if k in counts:
                    tally = _("{won} of {total} won").format(won=counts[k][0], total=counts[k][1])
                    if fonts.body.size(tally)[0] > rect.right - title.right - 12:
                        tally = "{}/{}".format(*counts[k])  # a narrow column
                    draw.label(surface, fonts.body, tally, (rect.right, rect.bottom - 4), MUTED, "bottomright", None)
                pygame.draw.line(surface, RULE, (rect.left, rect.bottom - 2), (rect.right, rect.bottom - 2))
                continue
            if k == self.selected:
                pygame.draw.rect(surface, PANEL, rect.inflate(0, -2), border_radius=4)
                pygame.draw.rect(surface, TENSION, (rect.left, rect.top + 1, 4, rect.height - 2))
            right = self._draw_standing(surface, row, rect)
            room = max(0, right - 8 - rect.left - TEXT_INSET)  # cut short with "…" where it would run into the marks
            draw.label(surface, fonts.body, draw.elided(fonts.body, row.text, room), (rect.left + TEXT_INSET, rect.centery), INK, "midleft", None)
        self._draw_where(surface, (w, h))
        help_line = next((_(line) for line in HELP_LINES if fonts.body.size(_(line))[0] <= w - 2 * LEFT), _(HELP_LINES[-1]))
        draw.label(surface, fonts.body, help_line, (LEFT, h - 24), MUTED, "midleft", None)
        chooser = self._language_rect((w, h))
        draw.label(surface, fonts.small, self.language_line(), chooser.midleft, MUTED, "midleft", None)
        words, colour = student_line(self.progress, lambda text: fonts.small.size(text)[0] <= chooser.left - 24 - LEFT)
        draw.label(surface, fonts.small, words, (LEFT, h - 44), colour, "midleft", None)
        if self.student_box is not None:
            self.student_box.draw(surface, fonts, pygame.Rect(0, 0, w, h - FOOT))
        problem = self.problem_lines(w)
        draw.text_block(surface, fonts.small, problem, (LEFT, h - FOOT + 8 - len(problem) * fonts.small.get_linesize()), ALERT, spacing=0)
        if self.error:
            above_foot = pygame.Rect(0, 0, w, h - FOOT)
            overlay.message(surface, fonts, above_foot, self.error_title, self.error, _("Any key or click: close this box"))
        elif self.asking:
            text, foot = _("Your progress is kept: it is here when you come back."), _("Enter or Esc: leave   ·   any other key or a click: stay")
            overlay.message(surface, fonts, pygame.Rect(0, 0, w, h - FOOT), _("Leave the game?"), text, foot, colour=TENSION)

    def _draw_where(self, surface: pygame.Surface, size: tuple[int, int]) -> None:
        """The scrollbar, and above the list's right end which rows are in view."""
        bar = self.scrollbar(size)
        if bar is None:
            return
        track, thumb = bar
        pygame.draw.rect(surface, PANEL, track, border_radius=BAR // 2)
        pygame.draw.rect(surface, MUTED, thumb, border_radius=BAR // 2)
        box = self.list_box(size)
        draw.label(surface, self.app.fonts.small, self.where(size), (box.right, box.top - 4), MUTED, "bottomright", None)

    def problem_lines(self, width: int) -> list[str]:
        """The progress problem (if any) as lines that fit the footer."""
        return draw.wrap(self.app.fonts.small, self.progress.problem, width - 2 * LEFT) if self.progress.problem else []

    def _draw_standing(self, surface: pygame.Surface, row: Row, rect: pygame.Rect) -> int:
        """A level's box (ticked once won) and, on the right, its best marks, "answer
        shown: 0 marks" where the player gave it up, or "in progress" where work is kept
        but the level is not won yet. Returns the x left free for the level's name."""
        if not row.winnable:
            return rect.right
        box = self.box(rect)
        level_id = row.level_id
        won = self.progress.won(level_id)
        pygame.draw.rect(surface, REACTION if won else RULE, box, 2, border_radius=3)
        marks = self.progress.marks(level_id)
        if won:
            check_mark(surface, box, REACTION)
        if marks is not None:
            return draw.label(
                surface,
                self.app.fonts.bold,
                ngettext("{n} mark", "{n} marks", marks).format(n=marks),
                (rect.right - 8, rect.centery),
                REACTION,
                "midright",
                None,
            ).left
        if not won and self.progress.shown(level_id):  # given up with Ctrl+A: not work under way
            return draw.label(surface, self.app.fonts.small, _("answer shown: 0 marks"), (rect.right - 8, rect.centery), MUTED, "midright", None).left
        if not won and self.progress.work(level_id) is not None:
            return draw.label(surface, self.app.fonts.small, _("in progress"), (rect.right - 8, rect.centery), MUTED, "midright", None).left
        return rect.right
