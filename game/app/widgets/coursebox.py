"""The box that opens a teacher's course file (game/course/homework.py), at the menu's O
key: it starts with the newest `*.course.json` found in the Downloads folder, the
current folder or the data folder (what a student saves from the class's page), which
Enter opens; the path can be typed instead (Backspace deletes), Esc leaves the course as
it was. Opened, the progress keeps the course: the menu lists its levels first and the
numbers are drawn in it. A file that is not a course file is named in the box, with
the field at fault. Drawing reads the box's state and never changes it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import platformdirs
import pygame

from equilibria.app.draw.palette import TENSION
from equilibria.app.widgets import overlay
from equilibria.course.homework import COURSE_SUFFIX, read_course
from equilibria.course.progress import Progress, data_folder
from equilibria.course.syllabus import known_level_ids
from equilibria.files.store import BadInput, SaveError
from equilibria.words.i18n import _

LONGEST = 1000  # characters of a typed path


def course_files_found(places: list[Path] | None = None) -> list[Path]:
    """The course files in `places` (default: Downloads, the current folder, the data
    folder), the newest first."""
    if places is None:
        places = [Path(platformdirs.user_downloads_dir()), Path.cwd(), data_folder()]
    found: list[tuple[float, Path]] = []
    for place in places:
        with contextlib.suppress(OSError):
            found += [(p.stat().st_mtime, p) for p in place.glob(f"*{COURSE_SUFFIX}") if p.is_file()]
    return [p for _t, p in sorted(found, key=lambda f: -f[0])]


class CourseBox:
    """`done(opened)` is called once the box closes: opened True when a course was opened."""

    def __init__(self, progress: Progress, done: Callable[[bool], None], found: list[Path] | None = None):
        self.progress = progress
        self.done = done
        found = course_files_found() if found is None else found
        self.text = str(found[0]) if found else ""
        self.problem = ""  # why the file named cannot be opened

    def handle_event(self, event: pygame.event.Event) -> None:
        """Keys as the student id box takes them (game/app/widgets/studentbox.py)."""
        if event.type != pygame.KEYDOWN:
            return
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._open()
        elif event.key == pygame.K_ESCAPE:
            self.done(False)
        elif event.key == pygame.K_BACKSPACE:
            self.text, self.problem = self.text[:-1], ""
        elif event.unicode and event.unicode.isprintable() and len(self.text) < LONGEST:
            self.text, self.problem = self.text + event.unicode, ""

    def _open(self) -> None:
        try:
            course = read_course(Path(self.text.strip()).expanduser(), known_level_ids())
        except BadInput as exc:
            self.problem = str(exc)
            return
        self.progress.set_course(course)
        with contextlib.suppress(SaveError):  # opened for this session all the same; the menu shows the progress problem
            self.progress.save()
        self.done(True)

    def draw(self, surface: pygame.Surface, fonts, area: pygame.Rect) -> pygame.Rect:
        now = self.progress.course
        said = _("Open the course file your teacher gave you (NAME.course.json): the menu then lists its levels first, and your numbers are drawn in it.")
        if now is not None:
            said += "\n" + _("Open now: {course}.").format(course=now.course)
        text = said + "\n\n" + _("File:  {path}").format(path=f"{self.text}_") + (f"\n{self.problem}" if self.problem else "")
        foot = _("Enter: open it   ·   Esc: leave it as it is")
        return overlay.message(surface, fonts, area, _("A course file"), text, foot, colour=TENSION)
