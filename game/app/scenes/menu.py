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
until the next key or click (which only closes it); the menu runs on behind it.

The screen's parts are sections (game/app/scenes/menuparts.py), laid out by one layout
(`MenuLayout`, game/app/window/layout.py): the scene finds the rows, opens what is chosen,
and hands each key and click to the part it belongs to."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pygame

from equilibria.app.scenes.loading import when_ready
from equilibria.app.scenes.menuparts import (
    CannotOpenPart,
    CourseOpenPart,
    HeaderPart,
    KeysPart,
    LanguagePart,
    LevelList,
    ProblemPart,
    QuitPart,
    Row,
    StudentIdPart,
    StudentLinePart,
    language_line,
)
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.window import scale
from equilibria.app.window.app import App, Scene
from equilibria.app.window.layout import MenuLayout
from equilibria.app.window.sections import SectionManager
from equilibria.course.homework import CourseFile
from equilibria.course.progress import Progress, data_folder
from equilibria.course.syllabus import COURSE_PATH, LEVELS_DIR, level_files, load_course
from equilibria.course.teacher import HEADING, teacher_levels
from equilibria.course.withheld import withheld_file
from equilibria.files.store import BadInput, SaveError, read_json
from equilibria.format.schema import raw_text
from equilibria.words.i18n import LANGUAGES, N_, SOURCE, _, language, set_language


def level_rows(
    levels_dir: Path = LEVELS_DIR, course_path: Path = COURSE_PATH, teacher_dir: Path | None = None, homework: CourseFile | None = None
) -> list[Row]:
    """The homework of the teacher's course the student opened (game/course/homework.py),
    if any, in its order; then headings and levels in course order; without a readable
    course, every level file in the folder by name. Levels the course names but the
    folder lacks are left out. Then the teacher's levels in `teacher_dir` (default: the
    data folder's), if any."""
    rows: list[Row] = _homework_rows(homework, levels_dir, teacher_dir)
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


SANDBOX_WITHHELD = N_(
    'This file is a level whose forces are its answer: a sandbox made of it opens after a pass, or after "show the answer" (Ctrl+A), which gives its marks up.'
)
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


def _homework_rows(homework: CourseFile | None, levels_dir: Path, teacher_dir: Path | None) -> list[Row]:
    """The open course's levels under its name (a level this copy lacks left out)."""
    if homework is None:
        return []
    teachers = {t.id: t.path for t in teacher_levels(teacher_dir) if not t.problem}
    found = [levels_dir / f"{lid}.json" if (levels_dir / f"{lid}.json").is_file() else teachers.get(lid) for lid in homework.levels]
    return [Row(_("Homework: {course}").format(course=homework.course)), *(_level_row(p) for p in found if p is not None)]


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


def last_opened(rows: list[Row], progress: Progress) -> int | None:
    """The row of the level opened last (None: none, or not listed)."""
    last = progress.last_level
    return next((k for k, r in enumerate(rows) if r.choosable and not r.sandbox and last is not None and r.level_id == last), None)


class MenuScene(Scene):
    """The level select: `rows` to list (None: the course's, found again on the way back
    from a level) and the student's `progress`."""

    def __init__(self, app: App, rows: list[Row] | None = None, progress: Progress | None = None):
        super().__init__(app)
        self.listed = rows is None  # rows of its own finding, found again on return
        self.progress = progress = progress if progress is not None else Progress.load()
        rows = rows if rows is not None else level_rows(homework=progress.course)
        fonts = app.fonts
        self.levels = LevelList(fonts, progress, self.open)
        last, choosable = last_opened(rows, progress), [k for k, r in enumerate(rows) if r.choosable]
        self.levels.fill(rows, last if last is not None else (choosable[0] if choosable else 0))
        self.header = HeaderPart(fonts, self.levels.counts, lambda: app.warmup)
        self.problem = ProblemPart(fonts, progress)
        self.leaving = QuitPart(fonts, app.quit)
        self.cannot_open = CannotOpenPart(fonts)
        self.student = StudentIdPart(fonts, progress)
        self.course_file = CourseOpenPart(fonts, progress)
        parts = (StudentLinePart(fonts, progress), LanguagePart(fonts, self.next_language), KeysPart(fonts))
        self.parts = SectionManager([self.header, self.levels, self.problem, *parts, self.leaving, self.cannot_open, self.student, self.course_file])
        self.mouse = (0, 0)  # where the pointer's last move left it (the wheel goes to the part under it)

    def resumed(self) -> None:
        """Back from a level: the designs saved meanwhile are listed at once, the level
        left is chosen (it may be the next one, opened with N), and the level opened last
        is kept in the progress file even if the level was left unchanged (the play
        scene then writes nothing, and the next start would choose the first row)."""
        self.levels.hold_pointer()  # the pointer is where the level's last click left it
        self._keep_last_level()
        if not self.listed:
            return
        chosen, rows = self.levels.chosen, level_rows(homework=self.progress.course)
        same = [k for k, r in enumerate(rows) if chosen is not None and r.choosable and (r.path, r.text) == (chosen.path, chosen.text)]
        last = last_opened(rows, self.progress) if chosen is not None and not chosen.sandbox else None
        self.levels.fill(rows, last if last is not None else same[0] if same else None)
        self.arrange(self.app.screen.get_size())
        self.levels.follow(heading=True)

    def closing(self) -> None:
        self._keep_last_level()

    def _keep_last_level(self) -> None:
        if self.progress.last_level_unsaved:
            with contextlib.suppress(SaveError):  # the play scene has said why its saves fail; the menu has nothing to add
                self.progress.save()

    def update(self, frame_seconds: float) -> None:
        self.arrange(self.app.screen.get_size())  # the window may have changed size
        self.levels.update()

    # ------------------------------------------------------------------ opening a level
    def open(self, row: Row) -> None:
        """Play the row's level (or the empty sandbox); a bad file is shown, not raised."""
        if row.problem:
            self._cannot_open(row, row.problem)
            return
        try:
            if row.sandbox and row.path is not None and withheld_file(read_json(row.path), self.progress, row.path.stem):
                self._cannot_open(row, _(SANDBOX_WITHHELD))  # a level copied among the designs: its forces are its answer
                return
            stage = Stage.empty_sandbox() if row.sandbox and row.path is None else load_stage(row.path, sandbox=row.sandbox)
        except BadInput as exc:
            self._cannot_open(row, str(exc))
            return
        except ValueError as exc:
            self._cannot_open(row, f"{row.path}: {str(exc).splitlines()[0]}")
            return
        self.cannot_open.close()
        if stage.varies and self.progress.student is None and not self.student.asked:  # its numbers come from the student id: ask it first
            self.student.open(lambda kept: self._play(row, stage))
            return
        self._play(row, stage)

    def _play(self, row: Row, stage: Stage) -> None:
        try:  # the student's own numbers, drawn here: numbers that make no level are the level's, said in the box
            stage = stage.drawn_for(self.progress.student, self.progress.course_code)
        except BadInput as exc:
            self._cannot_open(row, str(exc))
            return
        if row.level_id is not None and not row.sandbox:
            self.progress.opened(row.level_id)  # written with the play scene's next save, or on the way back here
        self.app.push(when_ready(self.app, lambda app: PlayScene(app, stage, progress=self.progress)))

    def _cannot_open(self, row: Row, message: str) -> None:
        """Show why `row` cannot be opened: `message` names the file and the field."""
        self.cannot_open.open(_("{name} cannot be opened").format(name=row.path.name if row.path is not None else row.text), message)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        """An open box first, then a press or the wheel to the part under the pointer;
        I, O, L and Esc are the menu's, the other keys the list's, and so are the wheel
        wherever the pointer is and the pointer's moves (the scrollbar's thumb drags from
        anywhere)."""
        self.arrange(self.app.screen.get_size())
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.parts.dispatch(event, self.mouse):
            return
        keys = {
            pygame.K_i: self.student.open,
            pygame.K_o: self.open_course,
            pygame.K_l: self.next_language,
            pygame.K_e: self.make_level,
            pygame.K_ESCAPE: self.leaving.open,
        }
        if event.type == pygame.KEYDOWN and event.mod & pygame.KMOD_CTRL and event.key in scale.KEYS:  # Ctrl+=, Ctrl+−, Ctrl+0: the text's size
            scale.rescale(self.app, self.progress, scale.KEYS[event.key])
            self.arrange(self.app.screen.get_size())
        elif event.type == pygame.KEYDOWN and event.key in keys:
            keys[event.key]()
        else:
            self.levels.handle_event(event)

    def make_level(self) -> None:
        """E: the level editor (game/app/scenes/editor.py) on the chosen row's level, as its file
        is written; not on a level whose answer the student has still to find."""
        from equilibria.app.scenes.editor import WITHHELD, EditorScene

        row = self.levels.chosen
        if row is None or row.path is None or row.problem:
            self.cannot_open.open(_("The level editor"), _("Choose a level or a saved design: the editor makes a level of your own from its structure."))
            return
        try:
            design = read_json(row.path)
        except BadInput as exc:
            self._cannot_open(row, str(exc))
            return
        if withheld_file(design, self.progress, row.path.stem):
            self.cannot_open.open(_("The level editor"), _(WITHHELD))
            return
        self.app.push(EditorScene(self.app, design, player=lambda app, stage: PlayScene(app, stage, progress=None)))

    def open_course(self) -> None:
        """O: open a teacher's course file; opened, its levels are listed first, the first chosen."""

        def opened(done: bool) -> None:
            if done and self.listed:
                self.levels.fill(level_rows(homework=self.progress.course), 1)
                self.arrange(self.app.screen.get_size())
                self.levels.follow(heading=True)

        self.course_file.open(opened)

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
            self.levels.fill(level_rows(homework=self.progress.course))

    # ------------------------------------------------------------------ drawing
    def arrange(self, size: tuple[int, int]) -> None:
        """Every part's rectangle for a screen of `size` (the list as tall as leaves room
        for the progress problem under it)."""
        self.app.hold_scale(size)
        layout = MenuLayout.of(size, self.problem.height(size[0]), self.app.fonts.small.size(language_line()), self.app.fonts.scale)
        for part in self.parts.sections:
            part.rect = layout.boxes if part.modal else getattr(layout, part.name)
        self.levels.box = layout.rows

    def draw(self, surface: pygame.Surface) -> None:
        self.arrange(surface.get_size())
        self.parts.draw(surface)
