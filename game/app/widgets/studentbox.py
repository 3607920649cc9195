"""The box that asks for the student id, once: a level that varies its numbers draws the
student's own from it (game/rules/variants.py). The menu opens it before the first such level
and at the I key. Keys type (their characters); Backspace deletes, Enter keeps
the id in the progress (and saves it), Esc leaves it as it was. Drawing reads the box's
state and never changes it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pygame

from equilibria.app.draw.palette import INK, MUTED, TENSION
from equilibria.app.widgets import overlay
from equilibria.course.progress import Progress
from equilibria.files.store import SaveError
from equilibria.rules.variants import STUDENT_MAX
from equilibria.words.i18n import N_, _

QUESTION = N_(
    "Some levels give every student numbers of their own, drawn from your student id: the same id always gives the same numbers,"
    " and your teacher grades your answers with them. Type your student id (as your teacher gave it) and press Enter."
)


class StudentBox:
    """`done(kept)` is called once the box closes: kept True when an id was kept."""

    def __init__(self, progress: Progress, done: Callable[[bool], None]):
        self.progress = progress
        self.done = done
        self.text = progress.student or ""
        self.problem = ""  # why the text typed cannot be kept

    def handle_event(self, event: pygame.event.Event) -> None:
        """Keys as the force entry takes them (game/app/widgets/entry.py): a key's character, not
        the TEXTINPUT after it, so the I that opened the box types nothing."""
        if event.type != pygame.KEYDOWN:
            return
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._keep()
        elif event.key == pygame.K_ESCAPE:
            self.done(False)
        elif event.key == pygame.K_BACKSPACE:
            self.text, self.problem = self.text[:-1], ""
        elif event.unicode and event.unicode.isprintable() and len(self.text) < STUDENT_MAX:
            self.text, self.problem = self.text + event.unicode, ""

    def _keep(self) -> None:
        try:
            self.progress.set_student(self.text)
        except ValueError as exc:
            self.problem = str(exc)
            return
        with contextlib.suppress(SaveError):  # kept for this session all the same; the menu shows the progress problem
            self.progress.save()
        self.done(True)

    def draw(self, surface: pygame.Surface, fonts, area: pygame.Rect) -> pygame.Rect:
        text = _(QUESTION) + "\n\n" + _("Student id:  {id}").format(id=f"{self.text}_") + (f"\n{self.problem}." if self.problem else "")
        foot = _("Enter: keep it   ·   Esc: not now (the levels' own numbers)")
        return overlay.message(surface, fonts, area, _("Your student id"), text, foot, colour=TENSION)


def student_line(progress: Progress, fits=lambda text: True) -> tuple[str, tuple]:
    """The menu's line about the student id, and its colour; a long id (up to 64
    characters) cut with "…" until the line `fits`."""
    if progress.student:
        shown = progress.student
        line = _("Student id: {id}   (I: change it)")
        while len(shown) > 1 and not fits(line.format(id=shown)):
            shown = shown[: len(shown.rstrip("…")) - 1] + "…"
        return line.format(id=shown), MUTED
    long = _("No student id given: levels with numbers of their own use theirs   (I: give yours)")
    return (long if fits(long) else _("No student id given   (I: give yours)")), INK
