"""The level editor: a teacher makes a level of their own from the structure on the screen
(Ctrl+L in the sandbox or any level; E on a row of the level select). The draft and
every edit are game/course/authoring.py; this scene draws the draft (game/app/draw/draft.py),
a panel of its fields, and turns clicks and keys into edits.

On the picture: a click on a support of a free-body level cuts it away (its forces are
what the student gives) or puts it back; a click on a member of a section level asks its
force (again: not); a click on a load's arrow makes its size a
number of each student's own (again: the same for all); Shift+click on a node its height,
Ctrl+click its x; in a build level a drag outlines the zone. In the panel, each row is a
field: a click (or Tab to it and Enter) edits it, Enter keeps the text, Esc drops it. K
changes the kind, Ctrl+Z and Ctrl+Y undo and redo every edit, P plays the level as the
student whose id is typed (the level select's own play screen, nothing saved), Ctrl+S saves
it to the teacher's levels folder, Esc leaves (twice when it is not saved). The panel
shows, as the draft changes, every problem `equilibria validate` would find, the answer
the judge computes and the student's version as the teacher's key prints it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.draft import LOAD_PX, bounds, draw_draft, varied_loads, where
from equilibria.app.draw.palette import ALERT, BACKGROUND, INK, MARK, MUTED, PANEL, REACTION, RULE
from equilibria.app.scenes.editor_panel import Field, panel_fields
from equilibria.app.scenes.loading import when_ready
from equilibria.app.session.stage import Stage
from equilibria.app.session.view import View
from equilibria.app.widgets.entry import TextLine, edit_key
from equilibria.app.window.app import App, Scene
from equilibria.course import authoring as a
from equilibria.course.withheld import withheld
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import show_text, version, versions_warning
from equilibria.words.i18n import LANGUAGES, N_, _

PANEL_W = 460  # [px] the panel's width at 100 %
PAD = 10
PICK_PX = 12  # [px] a click this near a node or a load's arrow picks it
ROWS_SHARE_LEFT = 0.3  # the share of the panel's height left below its rows (they scroll past it) for what validate says and the answer


class EditorScene(Scene):
    """The editor on `design` (a level document); `folder`: where it saves (None: the
    teacher's levels folder); `player`: the scene that plays a stage (the play screen, which
    opens the editor: handed in, not imported, so neither imports the other)."""

    def __init__(self, app: App, design: dict, folder: Path | None = None, *, player: Callable[[App, Stage], Scene] | None = None):
        super().__init__(app)
        self.player = player
        self.authoring = a.Authoring(design, folder)
        self.lang = "en"
        self.student = "s1001"
        self.focus = 0
        self.line: TextLine | None = None  # the field being edited, and its text
        self.editing: str | None = None
        self.leave_asked = False
        self.panel_top = 0  # [px] how far the panel's rows are scrolled (the focused row in view)
        self.rects: list[tuple[pygame.Rect, Field]] = []
        self.drag: tuple[tuple[float, float], tuple[float, float]] | None = None  # a zone being dragged out [m]
        self._found: tuple | None = None  # (the draft as JSON and the student, problems, answer, preview, the level)
        self.view = View(1.0, 0.0, 0.0)
        self._fitted_for: tuple | None = None

    # ------------------------------------------------------------------ what is shown
    @property
    def doc(self) -> dict:
        return self.authoring.doc

    def findings(self) -> tuple[list[str], list[str], list[str]]:
        """(every problem validate would say, the answer the judge computes, the student's
        version as the teacher's key prints it), worked out once per draft."""
        text = self.authoring.history[self.authoring.at] + "\0" + self.student
        if self._found is None or self._found[0] != text:
            doc = self.doc
            problems, level = a.checked(doc)
            warning = versions_warning(level) if level is not None else ""
            answer = a.reference(doc, level) if level is not None else []
            preview: list[str] = []
            if level is not None:
                try:
                    drawn = version(level, self.student or None)
                    preview = [*show_text(drawn).splitlines(), "", _("Answer:"), *a.reference(doc, drawn)]
                except ValueError as exc:
                    problems = [str(exc)]
            self._found = (text, problems + ([warning] if warning else []), answer, preview, level)
        return self._found[1], self._found[2], self._found[3]

    def findings_level(self):
        """The draft's level as the findings checked it (None while it has problems)."""
        self.findings()
        return self._found[4]

    def fields(self) -> list[Field]:
        return panel_fields(self.doc, self.lang, self.student)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if self.line is not None:
            self._type(event)
        elif event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press(event.pos, getattr(event, "mod", None) or pygame.key.get_mods())
        elif event.type == pygame.MOUSEWHEEL:  # the panel's rows: the focus goes three rows a notch, the rows follow it
            self.focus = min(max(self.focus - 3 * event.y, 0), len(self.fields()) - 1)
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag = (self.drag[0], self._world(event.pos))
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag is not None:
            corners, self.drag = self.drag, None
            if math.dist(*corners) > 0:
                self.authoring.edit(lambda d: a.set_zone(d, *corners))

    def _key(self, event: pygame.event.Event) -> None:
        ctrl, shift = bool(event.mod & pygame.KMOD_CTRL), bool(event.mod & pygame.KMOD_SHIFT)
        fields = self.fields()
        self.focus = min(self.focus, len(fields) - 1)  # an edit may have taken a row away
        if event.key == pygame.K_ESCAPE:
            self.leave()
        elif ctrl and event.key == pygame.K_z:
            self.authoring.redo() if shift else self.authoring.undo()
        elif ctrl and event.key == pygame.K_y:
            self.authoring.redo()
        elif ctrl and event.key == pygame.K_s:
            self.authoring.save()
        elif event.key == pygame.K_k and not ctrl:
            self.next_kind()
        elif event.key == pygame.K_p and not ctrl:
            self.play()
        elif event.key == pygame.K_TAB:
            self.focus = (self.focus + (-1 if shift else 1)) % len(fields)
        elif event.key in (pygame.K_DOWN, pygame.K_UP):
            self.focus = (self.focus + (1 if event.key == pygame.K_DOWN else -1)) % len(fields)
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.activate(fields[self.focus])
        elif event.key == pygame.K_DELETE and fields[self.focus].name.startswith("number:"):
            name = fields[self.focus].name.split(":", 1)[1]
            self.authoring.edit(lambda d: a.unvary(d, name))
        self.leave_asked = self.leave_asked and event.key == pygame.K_ESCAPE

    def _type(self, event: pygame.event.Event) -> None:
        line = self.line
        if event.type == pygame.TEXTINPUT:
            line.insert(event.text)
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.line = self.editing = None
            pygame.key.stop_text_input()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            name, text = self.editing, line.text
            self.line = self.editing = None
            pygame.key.stop_text_input()
            self.keep(name, text)
        elif event.type == pygame.KEYDOWN:
            edit_key(line, event.key, bool(event.mod & pygame.KMOD_SHIFT), bool(event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)))

    def _press(self, pos: tuple[int, int], mod: int) -> None:
        for rect, field in self.rects:
            if rect.collidepoint(pos):
                self.focus = next((k for k, f in enumerate(self.fields()) if f.name == field.name), self.focus)
                self.activate(field)
                return
        if pos[0] >= self.picture_rect().right:
            return
        self.pick(pos, mod)

    def pick(self, pos: tuple[int, int], mod: int = 0) -> None:
        """A click on the picture at `pos` (see the module)."""
        doc, at = self.doc, where(self.doc)
        node = self._node_at(pos, at)
        load = self._load_at(pos, at)
        if node is not None and mod & (pygame.KMOD_SHIFT | pygame.KMOD_CTRL):
            axis = "x" if mod & pygame.KMOD_CTRL else "y"
            value = at[node][0 if axis == "x" else 1]
            self.authoring.edit(lambda d: a.vary_node(d, node, axis, a.suggested_range(value, a.LENGTH_UNIT)))
        elif node is not None and KINDS[doc["kind"]].cuts and any(x["node"] == node for x in doc.get("supports", []) + doc.get("cut", [])):
            self.authoring.edit(lambda d: a.toggle_cut(d, node))
        elif load is not None:
            name = varied_loads(doc).get(load)
            if name is not None:
                self.authoring.edit(lambda d: a.unvary(d, name))
            else:
                self.vary_load(load)
        elif KINDS[doc["kind"]].builds:
            corner = self._world(pos)
            self.drag = (corner, corner)
        elif node is None and a.asked_of(doc) is not None and (member := self._member_at(pos, at)) is not None:
            self.authoring.edit(lambda d: a.toggle_asked(d, member))

    def vary_load(self, load: int) -> None:
        """Load `load`'s size a number of each student's own, in the range a teacher starts from."""
        entry = self.doc["loads"][load]
        size = math.hypot(entry.get("fx", 0.0), entry.get("fy", 0.0))
        self.authoring.edit(lambda d: a.vary_load(d, load, a.suggested_range(size, a.FORCE_UNIT)))

    def _node_at(self, pos, at) -> str | None:
        ids = [n["id"] for n in self.doc.get("nodes", [])]
        near = [(math.dist(pos, self._px(at[k])), k) for k in ids]
        best = min(near, default=(math.inf, None))
        return best[1] if best[0] <= PICK_PX else None

    def _member_at(self, pos, at) -> str | None:
        near = [(_to_segment(pos, self._px(at[m["i"]]), self._px(at[m["j"]])), m["id"]) for m in self.doc.get("members", [])]
        best = min(near, default=(math.inf, None))
        return best[1] if best[0] <= PICK_PX else None

    def _load_at(self, pos, at) -> int | None:
        for k, load in enumerate(self.doc.get("loads", [])):
            fx, fy = load.get("fx", 0.0), load.get("fy", 0.0)
            size = math.hypot(fx, fy)
            if size == 0 or load["node"] not in at:
                continue
            head = self._px(at[load["node"]])
            tail = (head[0] - LOAD_PX * fx / size, head[1] + LOAD_PX * fy / size)
            if _to_segment(pos, tail, head) <= PICK_PX and math.dist(pos, head) > PICK_PX / 2:
                return k
        return None

    def activate(self, field: Field) -> None:
        """What a click on `field` (or Enter on it) does."""
        if field.editable is not None:
            self.line, self.editing = TextLine(limit=2000), field.name
            self.line.insert(field.editable)
            pygame.key.start_text_input()
        elif field.name == "kind":
            self.next_kind()
        elif field.name == "mode":
            self.authoring.edit(a.next_mode)
        elif field.name.startswith("cut:"):
            node = field.name.split(":", 1)[1]
            self.authoring.edit(lambda d: a.toggle_cut(d, node))
        elif field.name.startswith("load:"):
            load = int(field.name.split(":", 1)[1])
            self.vary_load(load)
            self.focus_on(f"number:{varied_loads(self.doc).get(load)}")  # the focus goes with the load to its number's row
        elif field.name == "lang":
            codes = list(LANGUAGES)
            self.lang = codes[(codes.index(self.lang) + 1) % len(codes)]
        elif field.name == "play":
            self.play()
        elif field.name == "save":
            self.authoring.save()

    def focus_on(self, name: str) -> None:
        """The focus on the row named `name`, where there is one (else where it was)."""
        self.focus = next((k for k, f in enumerate(self.fields()) if f.name == name), self.focus)

    def keep(self, name: str, text: str) -> None:
        """The text typed into field `name`, kept as the draft's (or refused, said why)."""
        if name == "student":
            self.student = text.strip()
        elif name == "id":
            self.authoring.edit(lambda d: a.set_id(d, text.strip(), self.authoring.folder))
        elif name.startswith("text:"):
            self.authoring.edit(lambda d: a.set_text(d, name.split(":", 1)[1], self.lang, text))
        elif name == "asked":
            self.authoring.edit(lambda d: a.set_asked(d, text))
        elif name == "budget":
            self.authoring.edit(lambda d: a.set_budget(d, _number(text)))
        elif name.startswith("goal:"):
            self.authoring.edit(lambda d: a.set_goal(d, name.split(":", 1)[1], _number(text)))
        elif name.startswith("price:"):
            self.authoring.edit(lambda d: a.set_price(d, name.split(":", 1)[1], _number(text)))
        elif name.startswith("number:"):
            self.authoring.edit(lambda d: a.set_range(d, name.split(":", 1)[1], text))

    def next_kind(self) -> None:
        kinds = a.KINDS_MADE
        kind = kinds[(kinds.index(self.doc["kind"]) + 1) % len(kinds)] if self.doc["kind"] in kinds else kinds[0]
        self.authoring.edit(lambda d: a.set_kind(d, kind))

    def play(self) -> None:
        """The draft as the typed student plays it: the play screen of the level select, nothing saved."""
        level = self.findings_level()
        if level is None:
            self.authoring.said = _("It cannot be played yet: {problem}").format(problem=(self.findings()[0] or ["?"])[0])
            return
        try:
            stage = Stage.from_level(level).drawn_for(self.student or None)
        except ValueError as exc:
            self.authoring.said = str(exc)
            return
        if self.player is not None:
            self.app.push(when_ready(self.app, lambda app: self.player(app, stage)))

    def leave(self) -> None:
        """Back where the editor was opened; asked twice when the draft is not saved."""
        saved = self.authoring.saved_to is not None and self.authoring.saved_doc == self.authoring.history[self.authoring.at]
        if saved or self.leave_asked or self.authoring.at == 0:
            self.app.pop()
            return
        self.leave_asked = True
        self.authoring.said = _("Not saved: Ctrl+S saves it to your levels; Esc again leaves without saving.")

    # ------------------------------------------------------------------ drawing
    def picture_rect(self) -> pygame.Rect:
        w, h = self.app.screen.get_size()
        return pygame.Rect(0, 0, max(w - self.app.fonts.px(PANEL_W), 200), h)

    def _fit(self) -> None:
        key = (self.picture_rect().size, bounds(self.doc))
        if key != self._fitted_for:
            self.view = View.fit(bounds(self.doc), tuple(self.picture_rect()), 90.0)
            self._fitted_for = key

    def _px(self, p) -> tuple[float, float]:
        return self.view.ox + self.view.scale * p[0], self.view.oy - self.view.scale * p[1]

    def _world(self, pos) -> tuple[float, float]:
        return ((pos[0] - self.view.ox) / self.view.scale, (self.view.oy - pos[1]) / self.view.scale)

    def update(self, frame_seconds: float) -> None:
        if self.drag is None:
            self._fit()

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        surface.fill(BACKGROUND)
        area = self.picture_rect()
        surface.set_clip(area)
        draw_draft(surface, fonts, self.doc, self.view, self.drag, a.asked_of(self.doc))
        lines = draw.wrap(fonts.small, self._picture_help(), area.width - 2 * PAD)
        draw.text_block(surface, fonts.small, lines, (area.x + PAD, area.bottom - PAD - len(lines) * (fonts.small.get_linesize() + 2)), MUTED)
        surface.set_clip(None)
        self._draw_panel(surface, pygame.Rect(area.right, 0, surface.get_width() - area.right, surface.get_height()))

    def _picture_help(self) -> str:
        kind = KINDS[self.doc["kind"]]
        said = (
            _("Click a support to cut it away (or back).")
            if kind.cuts
            else _("Drag out the zone the student builds in.")
            if kind.builds
            else _("Click a member: the level asks its force (again: not).")
            if kind.asks_members
            else ""
        )
        return " ".join(x for x in (said, _("Click a load: the student's own number (again: the same for all). Shift/Ctrl+click a node: its height / x.")) if x)

    def _draw_panel(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        fonts = self.app.fonts
        pygame.draw.rect(surface, PANEL, rect)
        pygame.draw.line(surface, RULE, rect.topleft, rect.bottomleft, 2)
        width = rect.width - 2 * PAD
        y = rect.y + PAD
        y = draw.text_block(surface, fonts.title, [_("Make a level")], (rect.x + PAD, y), INK) + 4
        fields = self.fields()
        self.focus = min(self.focus, len(fields) - 1)
        laid = []  # (field, its lines, font, height), then placed in the room the rows have
        for field in fields:
            editing = self.editing == field.name
            text = (field.label or field.shown.split(": ", 1)[0] + ": ") + self.line.text if editing else field.shown
            font = fonts.bold if field.editable is None and field.name in ("play", "save") else fonts.body
            lines = draw.wrap(font, text, width - 8)[: 6 if editing else 2]
            laid.append((field, lines, font, len(lines) * font.get_linesize() + 9))
        room = rect.bottom - y - int(ROWS_SHARE_LEFT * rect.height)  # the rest: what validate says, the answer, the preview
        tops = [sum(h for *_x, h in laid[:k]) for k in range(len(laid) + 1)]
        if tops[-1] > room:  # more rows than room: the focused one kept in view
            self.panel_top = min(max(self.panel_top, tops[self.focus + 1] - room), tops[self.focus], tops[-1] - room)
        else:
            self.panel_top = 0
        self.rects = []
        surface.set_clip(pygame.Rect(rect.x, y, rect.width, min(room, tops[-1])))
        for k, (field, lines, font, h) in enumerate(laid):
            row = pygame.Rect(rect.x + PAD, y + tops[k] - self.panel_top, width, h - 3)
            if k == self.focus or self.editing == field.name:
                pygame.draw.rect(surface, BACKGROUND, row, border_radius=4)
                pygame.draw.rect(surface, MARK if self.editing == field.name else MUTED, row, 2, border_radius=4)
            draw.text_block(surface, font, lines, (row.x + 4, row.y + 3), INK)
            if 0 <= tops[k] - self.panel_top and tops[k + 1] - self.panel_top <= room:  # wholly in view: it takes clicks
                self.rects.append((row, field))
        surface.set_clip(None)
        y += min(room, tops[-1])
        y += 6
        problems, answer, preview = self.findings()
        said = self.authoring.said
        blocks = []
        if said:
            blocks.append((fonts.bold, [said], REACTION if said.startswith(_("Saved")) else ALERT))
        if problems:
            blocks.append((fonts.bold, [_("What validate says:")], ALERT))
            blocks.append((fonts.small, problems, ALERT))
        else:
            blocks.append((fonts.bold, [_("No problems: it validates and plays.")], REACTION))
        if answer:
            blocks.append((fonts.bold, [_("The answer (the teacher's only):")], INK))
            blocks.append((fonts.small, answer, INK))
        if preview:
            blocks.append((fonts.bold, [_("As the teacher's key shows student {id}'s version:").format(id=self.student or "—")], INK))
            blocks.append((fonts.small, preview, MUTED))
        for font, texts, colour in blocks:
            lines = [w for t in texts for w in (draw.wrap(font, t, width) or [""])]
            room = (rect.bottom - PAD - y) // font.get_linesize()
            if room <= 0:
                break
            y = draw.text_block(surface, font, lines[:room], (rect.x + PAD, y), colour) + 4


def _number(text: str) -> float:
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError as exc:
        raise a.Refused(_("Type a number, such as 2500.")) from exc
    return value


def _to_segment(p, a0, b0) -> float:
    dx, dy = b0[0] - a0[0], b0[1] - a0[1]
    t = max(0.0, min(1.0, ((p[0] - a0[0]) * dx + (p[1] - a0[1]) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.dist(p, (a0[0] + t * dx, a0[1] + t * dy))


WITHHELD = N_('The editor would show this level\'s answer: it opens on it after a pass, or after "show the answer" (Ctrl+A), which gives its marks up.')


def open_editor(scene) -> None:
    """Ctrl+L in the play screen `scene`: the editor on what it shows, played back in a play
    screen of the same class (nothing saved); not on a level whose answer is still to find."""
    stage, session = scene.stage, scene.session
    if stage.level is not None and withheld(stage.level.kind, stage.level.id, session.progress):
        session.notice = _(WITHHELD)
        return
    design = design_of(stage, session.bench)
    if not design.get("nodes"):
        session.notice = _("Build a structure first: the editor makes a level of what is on the screen.")
        return
    scene.app.push(EditorScene(scene.app, design, player=lambda app, shown: type(scene)(app, shown, progress=None)))


def design_of(stage, bench) -> dict:
    """The document the editor starts from: the sandbox's design as it stands, else the
    level's file as written (its own numbers, not a student's)."""
    if bench is not None and hasattr(bench, "design"):
        return bench.design()
    if stage.source is not None:
        from equilibria.files.store import read_json

        return read_json(stage.source)
    return json.loads(stage.level.model_dump_json(by_alias=True, exclude_none=True))
