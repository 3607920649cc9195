"""The method, step by step (K): the textbook's way to the answer worked on what is on the
screen (game/tutor/), one step at a time, forward with → and back with ←.

On a graded level it opens after a pass or after "show the answer" (which gave the marks
up), never before: K before then says so. In the sandbox and on a build level it works the
student's own structure as it stands; on a free-body or section level, the level's body.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import INK, MARK
from equilibria.app.scenes.boxes import PAD, Modal
from equilibria.app.session.play import data_place
from equilibria.app.window.sections import text_rows
from equilibria.engine.results import member_ends
from equilibria.files.store import BadInput, write_bytes_atomic
from equilibria.rules.kinds import kind_of
from equilibria.tutor.page import svg_page
from equilibria.tutor.worked import Worked, member_lines, step_lines, work_level, work_model
from equilibria.words.i18n import _

STEP_KEYS = {pygame.K_RIGHT: 1, pygame.K_LEFT: -1}


class MethodPart(Modal):
    """The worked method in a box over the world, a step a page."""

    name = "method"
    widest, frame = 900, 2
    keys = (pygame.K_ESCAPE, pygame.K_k)

    def __init__(self, fonts, session, picture, open_help: Callable[[], None]):
        super().__init__(fonts, open_help=open_help)
        self.session, self.picture = session, picture  # the picture: where the step's joints are drawn
        self.worked: Worked | None = None
        self.page = 0

    def allowed(self) -> bool:
        """After a pass or a shown answer on a graded level; always where nothing is graded."""
        s = self.session
        bench = s.level_bench
        if bench is None or not kind_of(s.stage.kind).judged:
            return True
        return s.passed or bench.attempt.won or bench.attempt.shown

    def toggle(self) -> None:
        if self.is_open:
            self.close()
            return
        if not self.allowed():
            self.session.notice = _('The method shows after a pass, or after "show the answer" (Ctrl+A), which gives the marks up.')
            return
        self.worked = self._work()
        self.page = 0
        self.open()

    def _work(self) -> Worked:
        s = self.session
        level, data = s.stage.level, s.data()
        if level is not None:
            return work_level(level, data)  # a free body as posed, in the student's numbers; else the student's own structure
        return work_model(data) if data else Worked([], {}, _("nothing is built yet"))

    def content(self, width: int):
        worked = self.worked or Worked([], {})
        steps = worked.steps
        if not steps:
            rows = text_rows(self.fonts.body, _("Statics alone stops here: {why}").format(why=worked.limit), width, INK)
            return _("The method"), INK, rows, _("K or Esc: close"), ()
        k = min(self.page, len(steps) - 1)
        step = steps[k]
        lines = step_lines(step)
        last = k == len(steps) - 1
        if last and worked.limit:
            lines.append(_("Statics alone stops here: {why}").format(why=worked.limit))
        if last and (members := member_lines(worked)):
            lines += ["", _("Member forces (tension positive):"), *members]
        title = _("The method, step {k} of {n}: {title}").format(k=k + 1, n=len(steps), title=step.title)
        rows = text_rows(self.fonts.body, "\n".join(lines), width, INK)
        return title, INK, rows, _("→ the next step, ← the one before · E: save it as a page to print · K or Esc: close"), ()

    def save_page(self) -> None:
        """E: the worked method as a page (SVG) in the data folder's methods/; the notice says where."""
        try:
            path = data_place("methods") / time.strftime("method-%Y%m%d-%H%M%S.svg")
            write_bytes_atomic(path, svg_page(self.session.stage.title, self.worked).encode("utf-8"))
        except (BadInput, OSError) as exc:
            self.session.notice = _("Could not save the page: {problem}").format(problem=exc)
            return
        self.session.notice = _("The worked method is saved as a page to print: {path}").format(path=path)

    def draw(self, surface: pygame.Surface) -> None:
        """The step's free body marked on the picture (its joints ringed, the members it is
        about drawn over dashed), then the box."""
        step = self.current()
        model = self.session.model
        if step is not None and model is not None and self.picture.current:
            for node in step.joints:
                if node in model.node_ids:
                    pygame.draw.circle(surface, MARK, self.picture.point_of(model.node_index(node)), 16, 4)
            ends = member_ends(model)
            for mid in step.members:
                if mid in model.member_ids:
                    i, j = ends[model.member_index(mid)]
                    draw.dashed(surface, MARK, self.picture.point_of(int(i)), self.picture.point_of(int(j)), 5)
        super().draw(surface)

    def current(self):
        """The step shown, or None."""
        steps = self.worked.steps if self.worked is not None else []
        return steps[min(self.page, len(steps) - 1)] if steps else None

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_e and self.worked is not None:
            self.save_page()
            return True
        if event.type == pygame.KEYDOWN and event.key in STEP_KEYS and self.worked is not None and self.worked.steps:
            self.page = max(0, min(len(self.worked.steps) - 1, self.page + STEP_KEYS[event.key]))
            self.scroll.home()
            return True
        return super().handle_event(event)

    def place(self, area: pygame.Rect) -> pygame.Rect:
        box = pygame.Rect((0, 0), self.size(area))
        box.midtop = (area.centerx, area.top + PAD)
        return box
