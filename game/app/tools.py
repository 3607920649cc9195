"""The tools a player holds, and the toolbar that shows them.

A tool is one small class that turns clicks in the world into edits of the work (through
the session's workbench, game/workbench.py) or into actions on the running simulation
(drag, nail, bomb). Which tools a level has is the workbench's business (`tools_for`);
this module says what each is called, what it does, and draws the bar. Sizes in pixels;
world positions in metres, y up.
"""

from __future__ import annotations

import math

import pygame

from game.app import draw
from game.app.palette import INK, MUTED, PANEL, RULE, TENSION, Fonts
from game.app.render import ARROW_PX, LONGEST_PX


class Tool:
    """One tool: its name, label and tip (what a click does), and what it does with the
    mouse. `edits`: it changes the work, so the structure is shown and picked as built
    while it is in hand. The scene (`scene`) gives a tool what it may use: the session,
    `pick`, `place`, `world`, `point_of`, `section` and `force_reference`; a tool never
    writes engine arrays: edits go through the session's workbench, actions on the run
    through the session."""

    name = ""
    label = ""
    tip = ""
    edits = False

    def press(self, scene, pos: tuple[int, int], *, shift: bool) -> None:
        """The left button went down at `pos` in the world area."""

    def release(self, scene, pos: tuple[int, int], *, fine: bool) -> None:
        """The left button came up."""

    def cancel(self) -> bool:
        """Drop what is half done (Esc, the right button); whether there was anything."""
        return False

    def marks(self, scene, surface: pygame.Surface) -> None:
        """Draw what the tool is doing (nodes picked so far, a force being dragged out)."""

    def tip_for(self, session) -> str:
        """What a click does, for the line beside the toolbar (the level may narrow it)."""
        return self.tip


def missed(scene, pos: tuple[int, int]) -> str:
    """Why a click meant for a node did nothing: the nearest node and how far it is."""
    s = scene.session
    if s.sim is None or not s.model.n_nodes:
        return "There is no node here to click."
    shown = scene.picture.positions()
    pts = scene.view.points(shown if shown is not None else s.sim.state.pos[:, :2])
    d = (pts[:, 0] - pos[0]) ** 2 + (pts[:, 1] - pos[1]) ** 2
    q = int(d.argmin())
    reach = scene.picture.reach() * scene.view.scale
    return f"No node under the click: the nearest, {s.model.node_ids[q]}, is {math.sqrt(d[q]):.0f} px away (click within {reach:.0f} px of it)."


class Inspect(Tool):
    name, label = "inspect", "Inspect"
    tip = "hover for values; click a node or member to follow it (A: add it to the graph)"

    def press(self, scene, pos, *, shift):
        scene.selected = scene.picture.pick(pos)


class NodeTool(Tool):
    name, label, edits = "node", "Node", True
    tip = "click to place a node (on the grid; hold Shift for off-grid)"

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("node",))
        at = scene.picture.place(pos, shift)
        there = hit.id if hit is not None else scene.session.bench.node_near(*at, scene.picture.reach())
        if there is not None:
            member = "; the Member tool joins nodes" if "member" in scene.toolbar.names else ""
            scene.session.notice = f"Node {there} is already there: click elsewhere for a new node{member}."
            return
        scene.session.edit(scene.session.bench.add_node, *at)


class Joining(Tool):
    """Click nodes in turn; every `count` of them make an element."""

    edits = True
    count = 2

    def __init__(self) -> None:
        self.pending: list[str] = []

    def cancel(self) -> bool:
        had, self.pending = bool(self.pending), []
        return had

    def node_at(self, scene, pos, shift: bool) -> str | None:
        """The node the click means: one within reach, else (continuing a member, where
        nodes may be added) a new one where the grid puts it, unless a node is there."""
        hit = scene.picture.pick(pos, ("node",))
        if hit is not None:
            return hit.id
        bench = scene.session.bench
        if self.count != 2 or "node" not in bench.tools or not self.pending:
            return None
        at = scene.picture.place(pos, shift)
        return bench.node_near(*at, scene.picture.reach()) or scene.session.edit(bench.add_node, *at)

    def press(self, scene, pos, *, shift):
        node = self.node_at(scene, pos, shift)
        if node is None and not self.pending:  # a member starts at a node: say so, never ignore the click
            scene.session.notice = missed(scene, pos) + " A member starts at a node; after it, a click on empty ground adds one."
        if node is None or node in self.pending:
            return
        self.pending.append(node)
        if len(self.pending) == self.count:
            self.join(scene)

    def join(self, scene) -> None:
        raise NotImplementedError

    def marks(self, scene, surface):
        for nid in self.pending:
            if nid not in scene.session.model.node_ids:
                continue
            p = scene.picture.point_of(scene.session.model.node_index(nid))
            pygame.draw.circle(surface, TENSION, p, 9, 3)
            if scene.layout.world.collidepoint(scene.mouse):
                draw.dashed(surface, TENSION, p, scene.mouse, 2)


class MemberTool(Joining):
    name, label = "member", "Member"
    tip = "click two nodes to join them (Tab: next section); click empty ground for a new node"

    def join(self, scene):
        if scene.session.section is None:
            scene.session.notice, self.pending = "This level offers no members to build.", []
            return
        scene.session.edit(scene.session.bench.add_member, *self.pending, scene.session.section)
        self.pending = [self.pending[1]]  # go on from the last node: a chain


class PlateTool(Joining):
    name, label, count = "triangle", "Plate", 3
    tip = "click three nodes for a triangular steel plate"

    def join(self, scene):
        scene.session.edit(scene.session.bench.add_triangle, *self.pending)
        self.pending = []


class OnNode(Tool):
    """Acts on the node clicked (within reach)."""

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("node",))
        if hit is not None:
            self.on_node(scene, hit, pos)
        else:
            scene.session.notice = missed(scene, pos)

    def on_node(self, scene, hit, pos) -> None:
        raise NotImplementedError


class SupportTool(OnNode):
    name, label, edits = "support", "Support", True
    tip = "click a node: pin → roller → wall roller → fixed → none"

    def on_node(self, scene, hit, pos):
        scene.session.cycle_support(hit.id)

    def tip_for(self, session) -> str:
        """The supports this level offers, in the order clicks go through them."""
        bench = session.level_bench
        if bench is None or not bench.level.player.supports:
            return self.tip
        words = {frozenset(("x", "y")): "pin", frozenset(("y",)): "roller", frozenset(("x",)): "wall roller", frozenset(("x", "y", "rot")): "fixed"}
        cycle = [words.get(frozenset(fix), "+".join(fix)) for fix in bench.level.player.supports]
        return "click a node: " + " → ".join([*cycle, "none"])


class ForceTool(OnNode):
    name, label, edits = "force", "Force", True
    tip = "drag a force out of a node (Shift: finer), or click the node to type it"

    def __init__(self) -> None:
        self.node: str | None = None
        self.pressed: tuple[int, int] = (0, 0)

    def on_node(self, scene, hit, pos):
        self.node, self.pressed = hit.id, (pos[0], pos[1])

    def cancel(self) -> bool:
        had, self.node = self.node is not None, None
        return had

    def force(self, scene, pos, fine: bool) -> tuple[float, float]:
        x, y = scene.view.point(*scene.session.bench.position(self.node))
        return dragged_force(pos[0] - x, pos[1] - y, scene.picture.force_reference(), fine=fine)

    def release(self, scene, pos, *, fine):
        if self.node is None:
            return
        fx, fy = self.force(scene, pos, fine)
        node, self.node = self.node, None
        moved = math.hypot(pos[0] - self.pressed[0], pos[1] - self.pressed[1])
        if moved > CLICK_PX and (fx or fy):
            scene.session.edit(scene.session.bench.add_force, node, fx, fy)
        else:  # a click, not a drag (a click a few pixels off the node's centre too): type it
            scene.type_force(node)

    def marks(self, scene, surface):
        if self.node is None or self.node not in scene.session.model.node_ids:
            return
        tail = scene.picture.point_of(scene.session.model.node_index(self.node))
        fx, fy = self.force(scene, scene.mouse, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
        dx, dy = scene.mouse[0] - tail[0], scene.mouse[1] - tail[1]
        cut = min(1.0, LONGEST_PX / max(math.hypot(dx, dy), 1e-9))  # as long as the force will land
        draw.arrow(surface, INK, tail, (tail[0] + cut * dx, tail[1] + cut * dy), 3)
        text = f"Fx {fx / 1e3:+.3g} kN, Fy {fy / 1e3:+.3g} kN"
        draw.label(surface, scene.app.fonts.bold, text, (scene.mouse[0] + 12, scene.mouse[1]), INK, "midleft")


class MomentTool(OnNode):
    name, label, edits = "moment", "Moment", True
    tip = "click a node to type a moment there (kN·m, counter-clockwise positive)"

    def on_node(self, scene, hit, pos):
        scene.type_force(hit.id, moment=True)


class EraseTool(Tool):
    name, label, edits = "erase", "Erase", True
    tip = "click something you added to take it away"

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos)
        if hit is not None:
            scene.session.edit(scene.session.bench.erase, hit.kind, hit.id)


class ToggleMember(Tool):
    edits = True

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("member",))
        if hit is not None:
            scene.session.edit(scene.session.bench.toggle_member, hit.id)


class MarkTool(ToggleMember):
    name, label = "mark", "Mark zero"
    tip = "click a member you think carries nothing; click again to unmark"


class RemoveTool(ToggleMember):
    name, label = "remove", "Remove"
    tip = "click a member to take it out of the truss; click it again (dashed) to put it back"

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("member",))
        if hit is None:  # a member taken out is no longer in the model: find it where it was drawn
            near = [(segment_distance(pos, a, b), mid) for mid, (a, b) in removed_members(scene).items()]
            near = [d for d in near if d[0] <= PICK_PX]
            if near:
                scene.session.edit(scene.session.bench.toggle_member, min(near)[1])
            return
        scene.session.edit(scene.session.bench.toggle_member, hit.id)


def removed_members(scene) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    """The members the player took out of a zero-force truss (remove mode), with their
    ends on the screen [px], where they stood as built."""
    bench = scene.session.level_bench
    if bench is None or "remove" not in bench.tools:  # only a level that lets members be taken out
        return {}
    ends = {m.id: (m.i, m.j) for m in bench.level.members}
    view = scene.view
    return {mid: (view.point(*bench.position(ends[mid][0])), view.point(*bench.position(ends[mid][1]))) for mid in sorted(bench.marked()) if mid in ends}


def segment_distance(p, a, b) -> float:
    """Distance [px] from point p to the segment a–b."""
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / max(dx * dx + dy * dy, 1e-12)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


class DragTool(OnNode):
    name, label = "drag", "Drag"
    tip = "press on a node and pull: a spring joins it to your hand"

    def on_node(self, scene, hit, pos):
        if scene.session.sim is not None:
            scene.session.grab(hit.index, scene.picture.world(pos))

    def release(self, scene, pos, *, fine):
        scene.session.hand = None

    def marks(self, scene, surface):
        session = scene.session
        if session.hand is None:
            return
        p, h = scene.picture.point_of(session.hand), scene.view.point(*session.hand_at)
        draw.dashed(surface, INK, p, h, 2, 4, 3)
        pygame.draw.circle(surface, INK, h, 6, 2)
        text = f"hand: {math.hypot(*session.hand_force()) / 1e3:.3g} kN"
        draw.label(surface, scene.app.fonts.bold, text, (h[0] + 10, h[1] - 10), INK, "bottomleft")


class NailTool(OnNode):
    name, label = "nail", "Nail"
    tip = "click a node to nail it where it is; click again to pull the nail"

    def on_node(self, scene, hit, pos):
        if scene.session.sim is not None:
            scene.session.nail(hit.index)


class BombTool(Tool):
    name, label = "bomb", "Bomb"
    tip = "click a member or plate to blow it up while it runs (R brings it back)"

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("member", "triangle"))
        if hit is not None and scene.session.sim is not None:
            scene.session.bomb(hit.kind, hit.id)


TOOL_CLASSES = (Inspect, NodeTool, MemberTool, PlateTool, SupportTool, ForceTool, MomentTool, EraseTool, MarkTool, RemoveTool, DragTool, NailTool, BombTool)
TOOLS = {t.name: t for t in TOOL_CLASSES}  # name → class (label, tip) of every tool

PICK_PX = 9  # [px] how near a click must be to a member taken out to put it back
BUTTON_H = 30
GAP = 6


class Toolbar:
    """A row of buttons, one per tool, numbered 1, 2, … for the keyboard; each tool is
    made once and keeps what it has half done until it is cancelled."""

    def __init__(self, names: tuple[str, ...]):
        self.names = names
        self.tools = {name: TOOLS[name]() for name in names}
        self.current = names[0]
        self.rects: list[pygame.Rect] = []

    @property
    def tool(self) -> Tool:
        return self.tools[self.current]

    def choose(self, name: str) -> None:
        if name in self.names:
            self.tool.cancel()
            self.current = name

    def key(self, number: int) -> bool:
        """Choose tool `number` (1-based); whether there is one."""
        if 1 <= number <= len(self.names):
            self.choose(self.names[number - 1])
            return True
        return False

    @staticmethod
    def number(k: int) -> str:
        """The key of tool k (0-based): 1 … 9, then 0."""
        return str((k + 1) % 10)

    def layout(self, fonts: Fonts, topleft: tuple[int, int]) -> pygame.Rect:
        x, y = topleft
        self.rects = []
        for k, name in enumerate(self.names):
            w = fonts.small.size(self.number(k))[0] + fonts.body.size(TOOLS[name].label)[0] + 22
            self.rects.append(pygame.Rect(x, y, w, BUTTON_H))
            x += w + GAP
        return pygame.Rect(topleft, (x - topleft[0], BUTTON_H)) if self.rects else pygame.Rect(topleft, (0, 0))

    def at(self, pos: tuple[int, int]) -> str | None:
        for name, rect in zip(self.names, self.rects, strict=False):
            if rect.collidepoint(pos):
                return name
        return None

    def draw(self, surface: pygame.Surface, fonts: Fonts) -> None:
        for k, (name, rect) in enumerate(zip(self.names, self.rects, strict=False)):
            on = name == self.current
            pygame.draw.rect(surface, TENSION if on else PANEL, rect, border_radius=5)
            pygame.draw.rect(surface, TENSION if on else RULE, rect, 1, border_radius=5)
            colour = (255, 255, 255) if on else INK
            number = draw.label(surface, fonts.small, self.number(k), (rect.left + 7, rect.centery), colour if on else MUTED, "midleft", None)
            draw.label(surface, fonts.body, TOOLS[name].label, (number.right + 6, rect.centery), colour, "midleft", None)


def nice_step(x: float) -> float:
    """The number of the form 1, 2 or 5 × 10^n nearest below x (x > 0)."""
    e = math.floor(math.log10(x))
    for m in (5, 2, 1):
        if m * 10**e <= x * (1 + 1e-9):
            return m * 10**e
    return 10**e


def snap(value: float, step: float) -> float:
    return round(value / step) * step


def grid_step(span: float) -> float:
    """A grid of about 40 cells across a world `span` [m] wide: 0.1, 0.2, 0.5, 1 m…"""
    return nice_step(max(span, 1e-3) / 40)


FORCE_PX = ARROW_PX  # [px] a drag this long makes the scene's reference force: a force lands as long as it was dragged
CLICK_PX = 4.0  # [px] a press and release closer than this is a click (type the force), not a drag


def dragged_force(dx_px: float, dy_px: float, reference: float, *, fine: bool = False) -> tuple[float, float]:
    """The force [N] (fx, fy; y up) of a drag of (dx, dy) screen pixels: FORCE_PX
    pixels make `reference` newtons, up to LONGEST_PX; components snap to a fortieth of it, rounded to
    1, 2 or 5 × 10^n (a tenth as much with `fine`)."""
    per_px = reference / FORCE_PX
    reach = math.hypot(dx_px, dy_px)
    if reach > LONGEST_PX:  # the longest arrow drawn: a longer drag would land shorter than it was
        dx_px, dy_px = dx_px * LONGEST_PX / reach, dy_px * LONGEST_PX / reach
    step = nice_step(reference / (400 if fine else 40))
    return snap(dx_px * per_px, step) + 0.0, snap(-dy_px * per_px, step) + 0.0
