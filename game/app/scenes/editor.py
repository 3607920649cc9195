"""The level editor: a teacher makes a level of their own from the structure on the screen
(Ctrl+L in the sandbox or any level; E on a row of the level select). The draft and
every edit are game/course/authoring.py; this scene draws the draft (game/app/draw/draft.py),
a panel of its fields, and turns clicks and keys into edits.

On the picture: a click on a support of a free-body level cuts it away (its forces are
what the student gives) or puts it back, a click on another joint leaves that joint alone
(the method of joints: game/rules/part_body.py), a line dragged across members is a
section (the method of sections: the part on one side kept, its row turns it round), a
click on a member of a frame takes the frame apart at its pins, that member's body alone
(game/rules/frame_body.py), and a click on a member cut (a body's: on a node cut) asks its
force or gives it; a click on a member of a section level asks its
force (again: not); a click on a load's arrow makes its size a
number of each student's own (again: the same for all); Shift+click on a node its height
above the lowest support, Ctrl+click its distance from the leftmost (what the student
sees); in a build level a drag outlines the zone. In the panel, each row is a
field: a click (or Tab to it and Enter) edits it, Enter keeps the text, Esc drops it. K
changes the kind, Ctrl+Z and Ctrl+Y undo and redo every edit, P plays the level as the
student whose id is typed (the level select's own play screen, nothing saved), Ctrl+S saves
it to the teacher's levels folder, Esc leaves (twice when it is not saved). The panel
shows, as the draft changes, every problem `equilibria validate` would find (named as
its rows name them: game/app/scenes/editor_panel.py), the answer the judge computes and
the student's version as the teacher's key prints it, worked out in a thread beside the
frame (game/app/session/draft_checks.py: "Checking the change…" meanwhile, the editor
never frozen); Page Up/Down and the wheel scroll them where they do not fit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.draft import bounds, draw_draft, load_at, member_at, node_at, varied_loads
from equilibria.app.draw.palette import ALERT, BACKGROUND, INK, MARK, MUTED, PANEL, REACTION, RULE
from equilibria.app.scenes.editor_panel import Field, Findings, find, in_panel_words, panel_fields, picture_help
from equilibria.app.scenes.loading import when_ready
from equilibria.app.session.draft_checks import DraftChecks, Pending
from equilibria.app.session.stage import Stage
from equilibria.app.session.view import View
from equilibria.app.widgets.entry import TextLine, edit_key
from equilibria.app.window.app import App, Scene
from equilibria.course import authoring as a
from equilibria.course.withheld import withheld
from equilibria.rules.kinds import KINDS
from equilibria.words.i18n import LANGUAGES, N_, _, language

PANEL_W = 460  # [px] the panel's width at 100 %
PAD = 10
DRAG_PX = 6  # [px] a press and release nearer than this is a click, not a zone or a section drawn
NODE_PX_TOUCHING = 6  # [px] a section line this near a joint passes through it (on which side is it?)
CURSOR = "│"  # where the typed text goes in the row being edited
EDITED_LINES = 6  # the row being edited shows this many lines, about the cursor
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
        self.drag: tuple[tuple[float, float], tuple[float, float]] | None = None  # a zone or a section line being dragged out [m]
        self.pressed_member: str | None = None  # the member the drag started on (let go there: a click on it)
        self.checks = DraftChecks(self._find)  # validate, the answer and the preview, worked out beside the frame
        self.pending = Pending()  # a slow edit (K to a large build) worked out beside the frame
        self.view = View(1.0, 0.0, 0.0)
        self._fitted_for: tuple | None = None
        self.below_top = 0  # lines of what validate says and the rest scrolled past (Page Down, the wheel)
        self.below_y = 1 << 30  # [px] where those lines start on the screen (the wheel below it scrolls them)

    # ------------------------------------------------------------------ what is shown
    @property
    def doc(self) -> dict:
        return self.authoring.doc

    def _key_now(self) -> str:
        """What the findings depend on: the draft, the preview's student, the language."""
        return "\0".join((self.authoring.history[self.authoring.at], self.student, language()))

    def findings(self) -> Findings:
        """The findings of the draft as it is now, waited for (saving and playing act on them)."""
        return self.checks.result(self._key_now())

    def shown_findings(self) -> tuple[Findings | None, bool]:
        """What the panel shows: the last finished findings, and whether the draft has
        changed since (checking); headless runs that repeat exactly wait for them."""
        return self.checks.latest(self._key_now(), wait=self.app.fixed_frame is not None)

    def _find(self, key: str) -> Findings:
        """The findings of `key`'s draft, in the language the game speaks (a change of it is a
        new key; the thread never sets it: the language is the window's)."""
        draft, student, _lang = key.split("\0")
        return find(json.loads(draft), student)

    def fields(self) -> list[Field]:
        return panel_fields(self.doc, self.lang, self.student)

    # ------------------------------------------------------------------ input
    def handle_event(self, event: pygame.event.Event) -> None:
        if self.pending.busy:  # a slow edit on its way: nothing lands on the draft it is about to change
            return
        if self.line is not None:
            self._type(event)
        elif event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._press(event.pos, getattr(event, "mod", None) or pygame.key.get_mods())
        elif event.type == pygame.MOUSEWHEEL and pygame.mouse.get_pos()[1] >= self.below_y:  # what validate says and the rest: three lines a notch
            self.below_top = max(self.below_top - 3 * event.y, 0)
        elif event.type == pygame.MOUSEWHEEL:  # the panel's rows: the focus goes three rows a notch, the rows follow it
            self.focus = min(max(self.focus - 3 * event.y, 0), len(self.fields()) - 1)
        elif event.type == pygame.MOUSEMOTION and self.drag is not None:
            self.drag = (self.drag[0], self._world(event.pos))
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self.drag is not None:
            corners, self.drag = self.drag, None
            pressed, self.pressed_member = self.pressed_member, None
            if math.dist(*corners) * self.view.scale < DRAG_PX:  # a click, not a drag: on a frame's member, its body taken apart
                if pressed is not None:
                    self.authoring.edit(lambda d: a.take_apart(d, pressed))
                return
            if KINDS[self.doc["kind"]].cuts:
                self.authoring.edit(lambda d: a.cut_section(d, *corners, touching=NODE_PX_TOUCHING / self.view.scale))
            else:
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
            self.save()
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
        elif event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):  # what validate says and the rest, when longer than its room
            self.below_top = max(self.below_top + (5 if event.key == pygame.K_PAGEDOWN else -5), 0)
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
        doc = self.doc
        node, load = node_at(doc, self._px, pos), load_at(doc, self._px, pos)
        if node is not None and mod & (pygame.KMOD_SHIFT | pygame.KMOD_CTRL):
            self.vary_node(node, "x" if mod & pygame.KMOD_CTRL else "y")
        elif node is not None and a.cut_part(doc) == "body" and node in doc.get("_cuts", []):
            self.authoring.edit(lambda d: a.toggle_body_cut(d, node))
        elif node is not None and "max_force" in KINDS[doc["kind"]].player_fields:  # a balance: where the forces may act
            self.authoring.edit(lambda d: a.toggle_place(d, node))
        elif node is not None and a.takes_members(doc) and node in a.supported(doc) | {s["node"] for s in a.taken_supports(doc)}:
            self.authoring.edit(lambda d: a.toggle_taken_support(d, node))
        elif node is not None and KINDS[doc["kind"]].cuts and node in a.supported(doc):
            self.authoring.edit(lambda d: a.toggle_cut(d, node))
        elif node is not None and KINDS[doc["kind"]].cuts and "_joint" not in doc:  # a joint: the method of joints' free body
            self.authoring.edit(lambda d: a.isolate_joint(d, node))
        elif load is not None:
            name = varied_loads(doc).get(load)
            if name is not None:
                self.authoring.edit(lambda d: a.unvary(d, name))
            else:
                self.vary_load(load)
        elif a.takes_members(doc) and (member := member_at(doc, self._px, pos)) is not None:
            self.authoring.edit(lambda d: a.toggle_taken(d, member))
        elif node is None and a.cut_part(doc) in ("joint", "section") and (member := member_at(doc, self._px, pos)) is not None:
            self.authoring.edit(lambda d: a.toggle_part_member(d, member))
        elif "zone" in KINDS[doc["kind"]].player_fields or (node is None and KINDS[doc["kind"]].cuts):  # a zone, or a section line
            corner = self._world(pos)
            self.drag = (corner, corner)
            self.pressed_member = member_at(doc, self._px, pos) if KINDS[doc["kind"]].cuts else None
        elif node is None and a.asked_of(doc) is not None and (member := member_at(doc, self._px, pos)) is not None:
            self.authoring.edit(lambda d: a.toggle_asked(d, member))

    def vary_node(self, node: str, axis: str) -> None:
        """Node `node`'s distance from the leftmost support (axis "x") or height above the
        lowest ("y") a number of each student's own, in the range a teacher starts from."""
        _origin, value = a.measured_from(self.doc, node, axis)
        self.authoring.edit(lambda d: a.vary_node(d, node, axis, a.suggested_range(value, a.LENGTH_UNIT)))

    def vary_typed(self, text: str) -> None:
        """A dimension typed on its row ("D y"): as Shift+click (y) or Ctrl+click (x) on the node."""
        parts = text.split()
        nodes = {n["id"] for n in self.doc.get("nodes", [])}
        if len(parts) != 2 or parts[0] not in nodes or parts[1].lower() not in ("x", "y"):
            said = _("Type a node's name and x or y, such as {example}: the nodes are {nodes}.")
            self.authoring.said = said.format(example=f"{min(nodes, default='A')} y", nodes=", ".join(sorted(nodes)))
            return
        self.vary_node(parts[0], parts[1].lower())

    def vary_load(self, load: int) -> None:
        """Load `load`'s size a number of each student's own, in the range a teacher starts from."""
        entry = self.doc["loads"][load]
        size = math.hypot(entry.get("fx", 0.0), entry.get("fy", 0.0))
        self.authoring.edit(lambda d: a.vary_load(d, load, a.suggested_range(size, a.FORCE_UNIT)))

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
        elif field.name.startswith("taken:"):
            node = field.name.split(":", 1)[1]
            self.authoring.edit(lambda d: a.toggle_taken_support(d, node))
        elif field.name == "side":
            self.authoring.edit(a.other_side)
        elif field.name.startswith("cut:"):
            node = field.name.split(":", 1)[1]
            self.authoring.edit(lambda d: a.toggle_body_cut(d, node) if a.cut_part(d) == "body" else a.toggle_cut(d, node))
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
            self.save()

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
        elif name.startswith("player:"):
            self.authoring.edit(lambda d: a.set_player(d, name.split(":", 1)[1], _number(text)))
        elif name.startswith("price:"):
            self.authoring.edit(lambda d: a.set_price(d, name.split(":", 1)[1], _number(text)))
        elif name == "dimension":
            self.vary_typed(text)
        elif name == "part":
            self.authoring.edit(lambda d: a.cut_out(d, text))
        elif name.startswith("number:"):
            self.authoring.edit(lambda d: a.set_range(d, name.split(":", 1)[1], text))

    def save(self) -> None:
        """Ctrl+S: the draft saved, or the first problem that keeps it from it, said as the panel says it."""
        problems = self.findings().problems  # validate's problems, not its warnings: those let it save
        if problems:
            self.authoring.said = _("Not saved: {problem}").format(problem=in_panel_words(problems[0]))
        else:
            self.authoring.save()

    def next_kind(self) -> None:
        """K: the next kind, drafted beside the frame (a build of thousands of members judges its design: seconds)."""
        kinds = a.KINDS_MADE
        kind = kinds[(kinds.index(self.doc["kind"]) + 1) % len(kinds)] if self.doc["kind"] in kinds else kinds[0]
        self.pending.start(lambda: self.authoring.edit(lambda d: a.set_kind(d, kind)))
        if self.app.fixed_frame is not None:  # headless runs repeat exactly
            self.pending.wait()

    def play(self) -> None:
        """The draft as the typed student plays it: the play screen of the level select, nothing saved."""
        found = self.findings()
        level = found.level
        if level is None:
            self.authoring.said = _("It cannot be played yet: {problem}").format(problem=(found.said or ["?"])[0])
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
        self.pending.poll()
        if self.drag is None and not self.pending.busy:
            self._fit()

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        surface.fill(BACKGROUND)
        area = self.picture_rect()
        surface.set_clip(area)
        sectioned = KINDS[self.doc["kind"]].cuts
        draw_draft(surface, fonts, self.doc, self.view, None if sectioned else self.drag, a.asked_of(self.doc), self.drag if sectioned else None)
        lines = draw.wrap(fonts.small, picture_help(self.doc), area.width - 2 * PAD)
        draw.text_block(surface, fonts.small, lines, (area.x + PAD, area.bottom - PAD - len(lines) * (fonts.small.get_linesize() + 2)), MUTED)
        surface.set_clip(None)
        self._draw_panel(surface, pygame.Rect(area.right, 0, surface.get_width() - area.right, surface.get_height()))

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
            font = fonts.bold if field.editable is None and field.name in ("play", "save") else fonts.body
            lines = edited_lines(font, field, self.line, width - 8) if self.editing == field.name else _cut_to(draw.wrap(font, field.shown, width - 8), 2)
            laid.append((field, lines, font, len(lines) * (font.get_linesize() + 2) + 7))  # text_block's lines, 2 px apart
        room = rect.bottom - y - int(ROWS_SHARE_LEFT * rect.height)  # the rest: what validate says, the answer, the preview
        tops = [sum(h for *_x, h in laid[:k]) for k in range(len(laid) + 1)]
        if tops[-1] > room:  # more rows than room: the focused one kept in view, the first shown a whole row
            self.panel_top = min(max(self.panel_top, tops[self.focus + 1] - room), tops[self.focus], tops[-1] - room)
            self.panel_top = next(t for t in tops if t >= self.panel_top)
        else:
            self.panel_top = 0
        shown = [k for k in range(len(laid)) if tops[k] >= self.panel_top and tops[k + 1] - self.panel_top <= room]  # whole rows only
        self.rects = []
        for k in shown:
            field, lines, font, h = laid[k]
            row = pygame.Rect(rect.x + PAD, y + tops[k] - self.panel_top, width, h - 3)
            if k == self.focus or self.editing == field.name:
                pygame.draw.rect(surface, BACKGROUND, row, border_radius=4)
                pygame.draw.rect(surface, MARK if self.editing == field.name else MUTED, row, 2, border_radius=4)
            draw.text_block(surface, font, lines, (row.x + 4, row.y + 3), INK)
            self.rects.append((row, field))
        seen = tops[shown[-1] + 1] - self.panel_top if shown else 0  # [px] of rows in view
        if shown and shown[0] > 0:  # rows above, and below: Tab, the arrows or the wheel reach them
            draw.label(surface, fonts.small, "▲", (rect.right - PAD, y), MUTED, "topright", None)
        if shown and shown[-1] < len(laid) - 1:
            draw.label(surface, fonts.small, "▼", (rect.right - PAD, y + seen), MUTED, "bottomright", None)
        y += seen
        y += 6
        found, checking = self.shown_findings()
        said = self.authoring.said
        blocks = []
        if said:
            blocks.append((fonts.bold, [said], REACTION if said.startswith(_("Saved")) else ALERT))
        if self.pending.busy:
            blocks.append((fonts.bold, [_("Making the level…")], MUTED))
        elif checking:
            blocks.append((fonts.bold, [_("Checking the change…")], MUTED))
        if found is None:
            pass
        elif found.said:
            blocks.append((fonts.bold, [_("What validate says:")], ALERT))
            blocks.append((fonts.small, found.said, ALERT))
        else:
            blocks.append((fonts.bold, [_("No problems: it validates and plays.")], REACTION))
        if found is not None and found.answer:
            blocks.append((fonts.bold, [_("The answer (the teacher's only):")], INK))
            blocks.append((fonts.small, found.answer, INK))
        if found is not None and found.preview:
            blocks.append((fonts.bold, [_("As the teacher's key shows student {id}'s version:").format(id=self.student or "—")], INK))
            blocks.append((fonts.small, found.preview, MUTED))
        self.below_y = y  # the wheel below it scrolls these lines
        self.below_top = draw_below(surface, fonts, blocks, pygame.Rect(rect.x + PAD, y, width, rect.bottom - PAD - y), self.below_top)


def draw_below(surface: pygame.Surface, fonts, blocks, area: pygame.Rect, top: int) -> int:
    """What validate says, the answer and the preview, from line `top` on, as many lines
    as `area` holds; ▲/▼ where there are more (Page Up/Down, the wheel). The first line
    drawn (`top`, no further than the last)."""
    lines = [(font, w, colour) for font, texts, colour in blocks for t in texts for w in (draw.wrap(font, t, area.width) or [""])]
    top = min(top, max(len(lines) - 1, 0))
    y = area.y
    for k, (font, line, colour) in enumerate(lines[top:], top):
        if y + font.get_linesize() > area.bottom:
            draw.label(surface, fonts.small, _("▼ more: Page Down"), (area.right, area.bottom), MUTED, "bottomright", PANEL)
            break
        draw.text_block(surface, font, [line], (area.x, y), colour)
        y += font.get_linesize() + 2 + (4 if k + 1 < len(lines) and lines[k + 1][0] is not font else 0)
    if top > 0:
        draw.label(surface, fonts.small, _("▲ more: Page Up"), (area.right, area.y), MUTED, "topright", PANEL)
    return top


def edited_lines(font, field: Field, line: TextLine, width: int) -> list[str]:
    """The row being edited: its label and text with the cursor (│) in it, the six
    lines about the cursor (a long brief scrolls with it)."""
    label = field.label or field.shown.split(": ", 1)[0] + ": "
    text = label + line.text[: line.cursor] + line.composing + CURSOR + line.text[line.cursor :]
    lines = draw.wrap(font, text, width)
    at = next((k for k, w in enumerate(lines) if CURSOR in w), 0)
    first = max(0, min(at - 2, len(lines) - EDITED_LINES))
    return lines[first : first + EDITED_LINES]


def _cut_to(lines: list[str], most: int) -> list[str]:
    """The first `most` lines, the last ending in … where there were more."""
    return lines if len(lines) <= most else [*lines[: most - 1], lines[most - 1] + " …"]


def _number(text: str) -> float:
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError as exc:
        raise a.Refused(_("Type a number, such as 2500.")) from exc
    return value


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


STRUCTURE = ("nodes", "members", "triangles", "supports", "loads", "member_loads")  # what a sandbox's design holds of the file it opened


def design_of(stage, bench) -> dict:
    """The document the editor starts from: the level's file as written (its own numbers
    and texts, not a version's: the brief without the line of numbers, the numbers of each
    student's own kept) where the sandbox's design is still the structure it opened, else
    the sandbox's design as it stands, its brief without that line."""
    if bench is not None and hasattr(bench, "design"):
        design = bench.design()
        opened = json.loads(stage.level.model_dump_json(by_alias=True, exclude_none=True)) if stage.level is not None else {}
        if stage.source is not None and all(design.get(k) == opened.get(k) for k in STRUCTURE):
            return _file(stage.source)
        if stage.varies:
            design["brief"] = _without_first_line(design.get("brief", ""))  # the version's line of numbers
        return design
    if stage.source is not None:
        return _file(stage.source)
    return json.loads(stage.level.model_dump_json(by_alias=True, exclude_none=True))


def _file(path) -> dict:
    from equilibria.files.store import read_json

    return read_json(path)


def _without_first_line(text):
    """A brief (a text, or one per language) without its first line."""
    if isinstance(text, dict):
        return {lang: _without_first_line(t) for lang, t in text.items()}
    return text.split("\n", 1)[1] if "\n" in text else ""
