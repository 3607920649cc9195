"""Play by keys alone: the keyboard's pointer in the play scene.

The keys move a selection (game/app/session/cursor.py) over what the tool in hand acts on;
Enter does at it what a click of the tool does there, Delete erases it, and each move is
read out in the status line: what is chosen, where, and what Enter will do. While the keys
hold the pointer the scene's `mouse` is the selection's point on the screen, so the tools'
marks (a member's rubber band, a force being typed) and the readout under the pointer
follow it as they follow the mouse; the mouse moving takes the pointer back.
"""

from __future__ import annotations

import math

import pygame

from equilibria.app.draw.palette import BACKGROUND, INK
from equilibria.app.session.camera import PAN_PX
from equilibria.app.session.cursor import KeyCursor, Target
from equilibria.engine.results import member_ends
from equilibria.words.figures import figure
from equilibria.words.i18n import _

ARROWS = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up", pygame.K_DOWN: "down"}
PAN = {pygame.K_LEFT: (1, 0), pygame.K_RIGHT: (-1, 0), pygame.K_UP: (0, 1), pygame.K_DOWN: (0, -1)}
LONG_STEP = 10  # grid steps a Ctrl+Shift+arrow moves the free point
EDGE_PX = 40  # [px] the view pans to keep the selection this far inside the world
RING_PX = 14  # [px] the ring round a chosen node
SPOTS = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.45, 0.55, 0.35, 0.65)  # where along a member Enter clicks it, the middle first


class KeyPointer:
    """The keys' pointer of one play scene (its tools, picture, session and notice)."""

    def __init__(self, scene):
        self.scene = scene
        self.cursor = KeyCursor()

    @property
    def active(self) -> bool:
        return self.cursor.active

    # ------------------------------------------------------------------ the keys
    def next(self) -> None:
        self._step(True)

    def previous(self) -> None:
        self._step(False)

    def _step(self, forward: bool) -> None:
        scene = self.scene
        targets = scene.toolbar.tool.targets(scene)
        if not targets:
            self.cursor.start(self._home())
            self._say(None)
            return
        box = scene.picture.box() or scene.stage.bounds()
        self._say(self.cursor.step(targets, max(box[2] - box[0], box[3] - box[1]), forward))

    def arrow(self, event: pygame.event.Event) -> None:
        """An arrow: the nearest target that way; with Shift, the free point a grid step
        that way (with Ctrl as well, ten; with Alt, a tenth of one). With nothing chosen
        yet, the arrows pan the view as they always did."""
        key, mod = event.key, event.mod
        scene, direction = self.scene, ARROWS[key]
        if not self.cursor.active:
            self._pan(key)
            return
        if mod & pygame.KMOD_SHIFT:
            for _ in range(LONG_STEP if mod & pygame.KMOD_CTRL else 1):
                self.cursor.nudge(direction, scene.picture.grid_step(), fine=bool(mod & pygame.KMOD_ALT))
            self._say(None)
            return
        found = self.cursor.toward(scene.toolbar.tool.targets(scene), direction)
        if found is None:
            scene.session.notice = _("Nothing further that way for this tool: Tab goes through all of it; Shift+arrow moves a free point.")
            return
        self._say(found)

    def pan(self, event: pygame.event.Event) -> None:
        """Ctrl+arrow: the view moves, the structure the other way."""
        self._pan(event.key)

    def _pan(self, key: int) -> None:
        """An arrow with nothing chosen, or Ctrl+arrow."""
        dx, dy = PAN[key]
        self.scene.picture.camera.pan(PAN_PX * dx, PAN_PX * dy, self.scene.picture.box())

    def click(self) -> None:
        """Enter: what a click of the tool in hand does at the selection (nothing chosen:
        the first target is)."""
        if not self.cursor.active:
            self.next()
            return
        scene = self.scene
        pos = self.point()
        if pos is None:
            return
        scene.parts.by_name("world").press(pos, shift=self.cursor.fine)
        scene.toolbar.tool.release(scene, pos, fine=self.cursor.fine)

    def erase(self) -> None:
        """Delete: erase what is chosen, as the Erase tool's click would."""
        scene, target = self.scene, self.cursor.target
        bench = scene.session.bench
        if not self.cursor.active or target is None or bench is None or "erase" not in bench.tools:
            scene.session.notice = _("Delete erases what you chose with Tab or the arrows, where the level has the Erase tool.")
            return
        if scene.session.started and scene.session.verdict is None:
            scene.session.reset()
        scene.session.edit(bench.erase, target.kind, target.id)

    def clear(self) -> bool:
        """Esc, after the tool's half-done work: the keys let the pointer go."""
        return self.cursor.clear()

    # ------------------------------------------------------------------ each frame
    def lend(self) -> None:
        """While the keys hold the pointer, the scene's pointer is their selection (the
        tools' marks and the readout under the pointer follow it)."""
        if self.cursor.active:
            at = self.point()
            if at is not None:
                self.scene.mouse = (round(at[0]), round(at[1]))

    def point(self) -> tuple[float, float] | None:
        """[px] the selection on the screen now (the view kept on it); None: nothing."""
        self._follow()
        if self.cursor.at is None:
            return None
        scene = self.scene
        x, y = scene.view.point(*self.cursor.at)
        world = scene.layout.world
        dx = max(0.0, world.left + EDGE_PX - x) - max(0.0, x - (world.right - EDGE_PX))
        dy = max(0.0, world.top + EDGE_PX - y) - max(0.0, y - (world.bottom - EDGE_PX))
        if dx or dy:
            scene.picture.camera.pan(dx, dy, scene.picture.box())
            x, y = scene.view.point(*self.cursor.at)
        return x, y

    def _follow(self) -> None:
        """The selection's point where its target is drawn now (a moving node, a model
        built anew after an edit); a target that is gone leaves its point chosen."""
        target = self.cursor.target
        if target is None or target.index < 0:  # a free point, or a member taken out (it stays where it stood)
            return
        picture = self.scene.picture
        at = target_point(picture, target.kind, target.id)
        if at is None:
            self.cursor.target = None
            return
        if target.kind == "member":
            at = self._clear_point(target.id, at)
        self.cursor.at = at

    def _clear_point(self, member: str, middle: tuple[float, float]) -> tuple[float, float]:
        """[m] a point on `member` where a click means it and nothing else (the middle,
        unless another member crosses there, as in an X-brace, or a node is within reach)."""
        scene, picture = self.scene, self.scene.picture
        model = scene.session.model
        i, j = member_ends(model)[model.member_index(member)]
        a, b = picture.point_of(int(i)), picture.point_of(int(j))
        for t in SPOTS:
            pos = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
            hit = picture.pick(pos)
            if hit is not None and (hit.kind, hit.id) == ("member", member):
                return picture.world(pos)
        return middle

    def _home(self) -> tuple[float, float]:
        """Where a free point starts with nothing to choose: the middle of the stage, on the grid."""
        xmin, ymin, xmax, ymax = self.scene.stage.bounds()
        g = self.scene.picture.grid_step()
        return round(0.5 * (xmin + xmax) / g) * g, round(0.5 * (ymin + ymax) / g) * g

    # ------------------------------------------------------------------ the words
    def _say(self, target: Target | None) -> None:
        scene = self.scene
        self.lend()
        what = self.words(target)
        scene.session.notice = _("{what}. Enter: {does}").format(what=what, does=scene.toolbar.tool.tip_for(scene.session))

    def words(self, target: Target | None) -> str:
        """What is chosen, in the status line's words: its name and where it is."""
        at = self.cursor.at
        if target is None:
            where = f"({figure(at[0])} m, {figure(at[1])} m)" if at is not None else ""
            return _("A free point at {where}").format(where=where)
        if target.kind == "node":
            return _("Node {node} at ({x} m, {y} m)").format(node=target.id, x=figure(target.x), y=figure(target.y))
        if target.kind == "triangle":
            return _("Plate {plate}").format(plate=target.id)
        model = self.scene.session.model
        ends = self.scene.picture.members.get(target.id)
        if ends is None or target.id not in model.member_ids:
            return _("Member {member} (taken out)").format(member=target.id)
        i, j = member_ends(model)[model.member_index(target.id)]
        (ax, ay), (bx, by) = (model.arrays.pos0[int(q), :2] for q in (i, j))
        return _("Member {member}, {a}–{b}, {length} m long").format(member=target.id, a=ends["i"], b=ends["j"], length=figure(math.hypot(bx - ax, by - ay)))

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        """The selection, drawn so that it is seen on any part of the picture: dark on a
        light halo (a ring round a node, a frame along a member, a cross at a free point)."""
        if not self.cursor.active or self.cursor.at is None:
            return
        scene, target = self.scene, self.cursor.target
        x, y = scene.view.point(*self.cursor.at)
        if target is not None and target.kind == "member" and target.index >= 0 and target.id in scene.session.model.member_ids:
            model = scene.session.model
            i, j = member_ends(model)[model.member_index(target.id)]
            a, b = scene.picture.point_of(int(i)), scene.picture.point_of(int(j))
            _frame(surface, a, b)
            return
        if target is None:
            for colour, width in ((BACKGROUND, 6), (INK, 2)):
                for ux, uy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    pygame.draw.line(surface, colour, (x + 5 * ux, y + 5 * uy), (x + 16 * ux, y + 16 * uy), width)
            return
        pygame.draw.circle(surface, BACKGROUND, (x, y), RING_PX + 2, 7)
        pygame.draw.circle(surface, INK, (x, y), RING_PX, 3)


def _frame(surface: pygame.Surface, a: tuple[float, float], b: tuple[float, float]) -> None:
    """A frame 10 px either side of the member a–b [px], round its ends."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    off, ext = 10.0, 8.0
    nx, ny = uy * off, -ux * off  # across the member
    a0, b0 = (a[0] - ux * ext, a[1] - uy * ext), (b[0] + ux * ext, b[1] + uy * ext)
    corners = [(a0[0] + nx, a0[1] + ny), (a0[0] - nx, a0[1] - ny), (b0[0] - nx, b0[1] - ny), (b0[0] + nx, b0[1] + ny)]
    for colour, width in ((BACKGROUND, 7), (INK, 3)):
        pygame.draw.lines(surface, colour, True, corners, width)


def target_point(picture, kind: str, ident: str) -> tuple[float, float] | None:
    """[m] where a click on the node, member (its middle) or plate (its centroid) `ident`
    is made, as the picture draws it now; None when the model has no such element."""
    session = picture.session
    model = session.model
    if model is None or session.sim is None or not picture.current:
        return None
    ids = {"node": model.node_ids, "member": model.member_ids, "triangle": model.triangle_ids}[kind]
    if ident not in ids:
        return None
    shown = picture.positions()
    pos = shown if shown is not None else session.sim.state.pos[:, :2]
    k = ids.index(ident)
    corners = {"node": lambda: [k], "member": lambda: list(member_ends(model)[k]), "triangle": lambda: list(model.arrays.tri_ijk.reshape(-1, 3)[k])}
    x, y = pos[[int(q) for q in corners[kind]()], :2].mean(axis=0)
    return float(x), float(y)
