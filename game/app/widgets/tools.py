"""The tools a player holds, and the toolbar that shows them.

A tool is one small class that turns clicks in the world into edits of the work (through
the session's workbench, game/work/workbench.py) or into actions on the running simulation
(drag, nail, bomb). Which tools a level has is the workbench's business (game/work/workbench.py `tools_for`);
this module says what each is called, what it does, and draws the bar. Sizes in pixels;
world positions in metres, y up.
"""

from __future__ import annotations

import math

import pygame

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import ALERT, INK, MUTED, OWN_FORCE, PANEL, RULE, TENSION, Fonts
from equilibria.app.draw.render import ARROW_PX, LONGEST_PX
from equilibria.app.session.cursor import Target
from equilibria.format.schema import support_words
from equilibria.rules.construction import money
from equilibria.rules.kind import TOOL_KEYS
from equilibria.words.figures import figure, kn, signed
from equilibria.words.i18n import N_, _, decimal


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
    picks: tuple[str, ...] = ("node", "member", "triangle")  # what a click of it acts on: what the keys step through

    def targets(self, scene) -> list[Target]:
        """What the keys step through with this tool in hand (game/app/session/cursor.py)."""
        return scene.picture.targets(self.picks)

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
        return _(self.tip)


def nearest_node(scene, pos: tuple[float, float]) -> tuple[str, float] | None:
    """The node drawn nearest the screen point `pos`, and how far [px]; None: no nodes."""
    s = scene.session
    if s.sim is None or not s.model.n_nodes:
        return None
    shown = scene.picture.positions()
    pts = scene.view.points(shown if shown is not None else s.sim.state.pos[:, :2])
    d = (pts[:, 0] - pos[0]) ** 2 + (pts[:, 1] - pos[1]) ** 2
    q = int(d.argmin())
    return s.model.node_ids[q], math.sqrt(d[q])


def missed(scene, pos: tuple[int, int]) -> str:
    """Why a click meant for a node did nothing: the nearest node and how far it is."""
    near = nearest_node(scene, pos)
    if near is None:
        return _("There is no node here to click.")
    reach = scene.picture.reach() * scene.view.scale
    return _("No node under the click: the nearest, {node}, is {far} px away (click within {reach} px of it).").format(
        node=near[0], far=decimal(near[1], 0), reach=decimal(reach, 0)
    )


class Inspect(Tool):
    name, label = "inspect", N_("Inspect")
    tip = N_("hover for values; click a node or member to follow it (A: add it to the graph)")

    def press(self, scene, pos, *, shift):
        scene.selected = scene.picture.pick(pos)


class NodeTool(Tool):
    name, label, edits = "node", N_("Node"), True
    picks = ("node",)
    tip = N_("click to place a node (on the grid; Shift: off it); drag one of your nodes to move it")

    def __init__(self) -> None:
        self.moving: str | None = None  # the node pressed on: dragged, it moves; clicked, it is there already
        self.pressed: tuple[int, int] = (0, 0)

    def cancel(self) -> bool:
        had, self.moving = self.moving is not None, None
        return had

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("node",))
        at = scene.picture.place(pos, shift)
        there = hit.id if hit is not None else scene.session.bench.node_near(*at, scene.picture.reach())
        if there is not None:
            self.moving, self.pressed = there, (pos[0], pos[1])
            return
        scene.session.edit(scene.session.bench.add_node, *at)

    def release(self, scene, pos, *, fine):
        node, self.moving = self.moving, None
        if node is None:
            return
        if not dragged(self.pressed, pos):
            if "member" in scene.toolbar.names:
                words = _("Node {node} is already there: click elsewhere for a new node, or drag it to move it; the Member tool joins nodes.")
            else:
                words = _("Node {node} is already there: click elsewhere for a new node, or drag it to move it.")
            scene.session.notice = words.format(node=node)
            return
        if not scene.layout.world.collidepoint(pos):
            return  # let go off the picture: the move is dropped
        x, y = scene.picture.place(pos, fine)
        before = scene.session.bench.revision
        scene.session.edit(scene.session.bench.move_node, node, x, y)
        if scene.session.bench.revision != before:
            bench = scene.session.level_bench
            cost = bench.cost() if bench is not None else None
            if cost is not None:
                words = _("Moved node {node} to ({x} m, {y} m): its members follow, the cost now {cost} (Ctrl+Z takes it back).")
            else:
                words = _("Moved node {node} to ({x} m, {y} m): its members follow (Ctrl+Z takes it back).")
            scene.session.notice = words.format(node=node, x=figure(x), y=figure(y), cost=money(cost) if cost is not None else "")

    def marks(self, scene, surface):
        """While a node is dragged: where it goes, and its members following it, dashed
        (in the alert colour outside the build zone, where it cannot go)."""
        model = scene.session.model
        if self.moving is None or self.moving not in model.node_ids or not dragged(self.pressed, scene.mouse):
            return
        x, y = scene.picture.place(scene.mouse, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
        to = scene.view.point(x, y)
        bench = scene.session.bench
        mine, fits = bench.movable(self.moving), bench.in_zone(x, y)
        colour = TENSION if mine and fits else ALERT
        for member in scene.picture.members.values() if mine else ():  # the level's joint takes no members along
            if self.moving in (member["i"], member["j"]):
                other = member["j"] if member["i"] == self.moving else member["i"]
                draw.dashed(surface, colour, to, scene.picture.point_of(model.node_index(other)), 2)
        pygame.draw.circle(surface, colour, to, 7, 3)
        if mine:
            where = f"({figure(x)} m, {figure(y)} m)" if fits else _("outside the build zone")
        else:
            where = _("{node} is the level's joint: it stays").format(node=self.moving)
        draw.label(surface, scene.app.fonts.bold, where, (to[0] + 12, to[1] - 12), colour, "bottomleft")


class Joining(Tool):
    """Click nodes in turn; every `count` of them make an element."""

    edits = True
    count = 2
    picks = ("node",)

    def __init__(self) -> None:
        self.pending: list[str] = []

    def cancel(self) -> bool:
        had, self.pending = bool(self.pending), []
        return had

    def node_at(self, scene, pos, shift: bool) -> str | None:
        """The node the click means: one within reach, else (continuing a member, where
        nodes may be added) one the grid puts within reach."""
        hit = scene.picture.pick(pos, ("node",))
        if hit is not None:
            return hit.id
        if self.count != 2 or "node" not in scene.session.bench.tools or not self.pending:
            return None
        return scene.session.bench.node_near(*scene.picture.place(pos, shift), scene.picture.reach())

    def press(self, scene, pos, *, shift):
        node = self.node_at(scene, pos, shift)
        if node is None and not self.pending:  # a member starts at a node: say so, never ignore the click
            scene.session.notice = missed(scene, pos) + " " + _("A member starts at a node; after it, a click on empty ground adds one.")
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
    """Click node after node (a chain; a click on empty ground makes a new joint there
    and the member to it, in one edit), or drag from a node to a node or to empty
    ground (one member). A click on a member, with no chain begun, builds it anew of
    the section chosen, in one edit. The rubber band says how long the member being
    drawn is and what it costs."""

    name, label = "member", N_("Member")
    tip = N_("click or drag node to node (S: next section); click a member to rebuild it in this section")
    picks = ("node", "member")

    def __init__(self) -> None:
        super().__init__()
        self.dragging: tuple[str, tuple[int, int]] | None = None  # (node, where pressed) of a press on a node

    def cancel(self) -> bool:
        self.dragging = None
        return super().cancel()

    def press(self, scene, pos, *, shift):
        self.dragging = None
        hit = scene.picture.pick(pos, ("node",))
        if hit is None and not self.pending:
            member = scene.picture.pick(pos, ("member",))
            if member is not None:
                self.rebuild(scene, member.id)
            else:
                scene.session.notice = _("A member starts at a node: click one, or press on it and drag to where the member ends.")
            return
        if hit is None and self.ground(scene, pos, shift) is not None:
            return  # a new joint and the member to it (or refused, in words)
        super().press(scene, pos, shift=shift)
        if hit is not None and self.pending and self.pending[-1] == hit.id:
            self.dragging = (hit.id, (pos[0], pos[1]))

    def ground(self, scene, pos, shift: bool) -> str | None:
        """A click (or a drag's end) on empty ground, going on from the last node: a new
        joint there and the member to it, in one edit. None where it means a node (one
        is within reach of where the grid puts it) or nodes cannot be added; the new
        joint's id, or "" when the edit was refused (the notice says why)."""
        session = scene.session
        bench = session.bench
        if "node" not in bench.tools:
            return None
        at = scene.picture.place(pos, shift)
        if bench.node_near(*at, scene.picture.reach()) is not None:
            return None
        if session.section is None:
            session.notice, self.pending = _("This level offers no members to build."), []
            return ""
        near = nearest_node(scene, pos)  # before the new joint: the node the click may have meant
        made = session.edit(bench.add_member_to, self.pending[-1], *at, session.section)
        if made is None:
            return ""
        self.pending = [made[0]]
        reach = scene.picture.reach() * scene.view.scale
        if near is not None and near[1] <= NEAR_MISS * reach:  # a click just beside a node: a new joint there, said
            session.notice = _(
                "A new joint {new}, {far} px beside {node}: a click within {reach} px of a node uses it (Ctrl+Z takes the new one back)."
            ).format(new=made[0], far=decimal(near[1], 0), node=near[0], reach=decimal(reach, 0))
        return made[0]

    def release(self, scene, pos, *, fine):
        drag, self.dragging = self.dragging, None
        if drag is None or not dragged(drag[1], pos):
            return  # a click: the chain goes on from the node clicked
        if not scene.layout.world.collidepoint(pos):
            self.pending = []  # let go off the picture: nothing is made
            return
        hit = scene.picture.pick(pos, ("node",))
        end = hit.id if hit is not None else scene.session.bench.node_near(*scene.picture.place(pos, fine), scene.picture.reach())
        if end == drag[0]:
            return  # let go on the node pressed (a hand that shook): a click, and the chain goes on
        self.pending = [drag[0]]
        if end is None:
            self.ground(scene, pos, fine)
        else:
            self.pending.append(end)
            self.join(scene)
        self.pending = []  # a drag makes one member: no chain goes on from it

    def rebuild(self, scene, member: str) -> None:
        """Member `member` of the section chosen, in one edit; the notice says what that
        changed the cost by."""
        session = scene.session
        if session.section is None:
            session.notice = _("This level offers no members to build.")
            return
        change = session.edit(session.bench.set_section, member, session.section)
        if change is None:
            return
        bench = session.level_bench
        cost = bench.cost() if bench is not None else None
        budget = bench.level.player.budget if cost is not None else None
        if cost is None:
            words = _("Member {member} is now {section} (Ctrl+Z takes it back).")
        elif change > 0:
            words = (
                _("Member {member} is now {section}: the cost rises by {change} to {cost} of {budget} (Ctrl+Z takes it back).")
                if budget
                else _("Member {member} is now {section}: the cost rises by {change} to {cost} (Ctrl+Z takes it back).")
            )
        else:
            words = (
                _("Member {member} is now {section}: the cost falls by {change} to {cost} of {budget} (Ctrl+Z takes it back).")
                if budget
                else _("Member {member} is now {section}: the cost falls by {change} to {cost} (Ctrl+Z takes it back).")
            )
        money_of = {"change": money(abs(change)), "cost": money(cost), "budget": money(budget)} if cost is not None else {}
        session.notice = words.format(member=member, section=session.bench.section_name(session.section), **money_of)

    def join(self, scene):
        if scene.session.section is None:
            scene.session.notice, self.pending = _("This level offers no members to build."), []
            return
        scene.session.edit(scene.session.bench.add_member, *self.pending, scene.session.section)
        self.pending = [self.pending[1]]  # go on from the last node: a chain

    def marks(self, scene, surface):
        """The chain's start, and the rubber band to where the member would end: a node
        within reach, else a new joint on the grid (in the alert colour outside the build
        zone), with its length and cost beside the cursor. With no chain begun, over a
        member: what a click would make of it."""
        model = scene.session.model
        if not self.pending:
            words = self.rebuilt(scene)
            if words:
                draw.label(surface, scene.app.fonts.bold, words, (scene.mouse[0] + 14, scene.mouse[1] - 14), TENSION, "bottomleft")
            return
        if self.pending[-1] not in model.node_ids:
            return
        start = scene.picture.point_of(model.node_index(self.pending[-1]))
        pygame.draw.circle(surface, TENSION, start, 9, 3)
        if not scene.layout.world.collidepoint(scene.mouse):
            return
        band = self.band(scene)
        if band is None:
            draw.dashed(surface, TENSION, start, scene.mouse, 2)
            return
        end, words, fits = band
        colour = TENSION if fits else ALERT
        draw.dashed(surface, colour, start, end, 2)
        pygame.draw.circle(surface, colour, end, 5, 2)
        draw.label(surface, scene.app.fonts.bold, words, (scene.mouse[0] + 14, scene.mouse[1] - 14), colour, "bottomleft")  # the tool tip goes below

    def rebuilt(self, scene) -> str:
        """What a click on the member under the cursor would do, in words ("AE: light →
        heavy, +$339"); "" over no member of the player's, or one of the section chosen."""
        session, picture = scene.session, scene.picture
        if session.section is None or not scene.layout.world.collidepoint(scene.mouse) or picture.pick(scene.mouse, ("node",)) is not None:
            return ""
        hit = picture.pick(scene.mouse, ("member",))
        now = session.bench.section_now(hit.id) if hit is not None else None
        if now is None or now == session.section:
            return ""
        ends = picture.members.get(hit.id)
        model = session.model
        if ends is None or ends["i"] not in model.node_ids or ends["j"] not in model.node_ids:
            return ""
        a, b = (model.arrays.pos0[model.node_index(ends[k]), :2].tolist() for k in ("i", "j"))
        length = math.dist(a, b)
        old, new = session.bench.price(now, length), session.bench.price(session.section, length)
        change = "" if old is None or new is None else f", {'+' if new >= old else '−'}{money(abs(new - old))}"
        return f"{hit.id}: {session.bench.section_name(now)} → {session.bench.section_name(session.section)}{change}"

    def band(self, scene) -> tuple[tuple[float, float], str, bool] | None:
        """Where the rubber band ends on the screen [px], its words ("3.20 m · $410": the
        member's length, and its cost with its new joint's by the level's rules), and
        whether a member may end there; None where the cursor means nothing."""
        session, model, picture = scene.session, scene.session.model, scene.picture
        a = model.arrays.pos0[model.node_index(self.pending[-1]), :2]
        hit = picture.pick(scene.mouse, ("node",))
        joints = 0
        if hit is not None:
            b = tuple(model.arrays.pos0[hit.index, :2].tolist())
        elif "node" in session.bench.tools:
            b = picture.place(scene.mouse, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT))
            near = session.bench.node_near(*b, picture.reach())
            if near is not None and near in model.node_ids:
                b = tuple(model.arrays.pos0[model.node_index(near), :2].tolist())
            else:
                joints = 1
        else:
            return None
        length = math.dist(a.tolist(), b)
        price = session.bench.price(session.section, length, joints) if session.section is not None else None
        fits = not joints or session.bench.in_zone(*b)
        words = f"{decimal(length, 2)} m" + (f" · {money(price)}" if price is not None else "") + ("" if fits else " · " + _("outside the build zone"))
        return scene.view.point(*b), words, fits


class PlateTool(Joining):
    name, label, count = "triangle", N_("Plate"), 3
    tip = N_("click three nodes for a triangular steel plate")

    def join(self, scene):
        scene.session.edit(scene.session.bench.add_triangle, *self.pending)
        self.pending = []


class OnNode(Tool):
    """Acts on the node clicked (within reach)."""

    picks = ("node",)

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("node",))
        if hit is not None:
            self.on_node(scene, hit, pos)
        else:
            scene.session.notice = missed(scene, pos)

    def on_node(self, scene, hit, pos) -> None:
        raise NotImplementedError


class SupportTool(OnNode):
    name, label, edits = "support", N_("Support"), True
    tip = N_("click a node: pin → roller → wall roller → fixed → none")

    def on_node(self, scene, hit, pos):
        scene.session.cycle_support(hit.id)

    def tip_for(self, session) -> str:
        """The supports this level offers, in the order clicks go through them."""
        bench = session.level_bench
        if bench is not None and not bench.level.player.supports:
            return _(self.tip)
        cycle = [support_words(key) if key else _("no support") for key in session.bench.support_cycle()]
        return _("click a node: {cycle}").format(cycle=" → ".join(cycle))


class ForceTool(OnNode):
    name, label, edits = "force", N_("Force"), True
    tip = N_("drag a force out of a node (Shift: finer), or click the node to type it")

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
        draw.arrow(surface, OWN_FORCE, tail, (tail[0] + cut * dx, tail[1] + cut * dy), 3, hollow=True)  # drawn as it will land
        text = f"Fx {signed(fx / 1e3, 'kN')}, Fy {signed(fy / 1e3, 'kN')}"
        draw.label(surface, scene.app.fonts.bold, text, (scene.mouse[0] + 12, scene.mouse[1]), INK, "midleft")


class MomentTool(OnNode):
    name, label, edits = "moment", N_("Moment"), True
    tip = N_("click a node to type a moment there (kN·m, counter-clockwise positive)")

    def on_node(self, scene, hit, pos):
        scene.type_force(hit.id, moment=True)


class EraseTool(Tool):
    name, label, edits = "erase", N_("Erase"), True
    tip = N_("click something you added to take it away")

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos)
        if hit is not None:
            scene.session.edit(scene.session.bench.erase, hit.kind, hit.id)


class ToggleMember(Tool):
    edits = True
    picks = ("member",)

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("member",))
        if hit is not None:
            scene.session.edit(scene.session.bench.toggle_member, hit.id)


class CutTool(Tool):
    name, label, edits = "cut", N_("Cut"), True
    tip = N_("click a member your section cuts and type its force (kN, tension positive); Erase takes a cut back")
    picks = ("member",)

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("member",))
        if hit is not None:
            scene.type_member_force(hit.id)


class MarkTool(ToggleMember):
    name, label = "mark", N_("Mark zero")
    tip = N_("click a member you think carries nothing; click again to unmark")


class RemoveTool(ToggleMember):
    name, label = "remove", N_("Remove")
    tip = N_("click a member to take it out of the truss; click it again (dashed) to put it back")

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("member",))
        if hit is None:  # a member taken out is no longer in the model: find it where it was drawn
            near = [(segment_distance(pos, a, b), mid) for mid, (a, b) in removed_members(scene).items()]
            near = [d for d in near if d[0] <= PICK_PX]
            if near:
                scene.session.edit(scene.session.bench.toggle_member, min(near)[1])
            return
        scene.session.edit(scene.session.bench.toggle_member, hit.id)

    def targets(self, scene) -> list[Target]:
        """The members standing, and those taken out where they stood (a click there puts one back)."""
        out = super().targets(scene)
        for mid, (a, b) in removed_members(scene).items():
            x, y = scene.view.world(0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]))
            out.append(Target("member", mid, -1, x, y))
        return out


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
    name, label = "drag", N_("Drag")
    tip = N_("press on a node and pull: a spring joins it to your hand")

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
        text = _("hand: {force}").format(force=kn(math.hypot(*session.hand_force())))
        draw.label(surface, scene.app.fonts.bold, text, (h[0] + 10, h[1] - 10), INK, "bottomleft")


class NailTool(OnNode):
    name, label = "nail", N_("Nail")
    tip = N_("click a node to nail it where it is; click again to pull the nail")

    def on_node(self, scene, hit, pos):
        if scene.session.sim is not None:
            scene.session.nail(hit.index)


class BombTool(Tool):
    name, label = "bomb", N_("Bomb")
    tip = N_("click a member or plate to blow it up while it runs (R brings it back)")
    picks = ("member", "triangle")

    def press(self, scene, pos, *, shift):
        hit = scene.picture.pick(pos, ("member", "triangle"))
        if hit is not None and scene.session.sim is not None:
            scene.session.bomb(hit.kind, hit.id)


TOOL_CLASSES = (
    Inspect,
    NodeTool,
    MemberTool,
    PlateTool,
    SupportTool,
    ForceTool,
    MomentTool,
    EraseTool,
    CutTool,
    MarkTool,
    RemoveTool,
    DragTool,
    NailTool,
    BombTool,
)
TOOLS = {t.name: t for t in TOOL_CLASSES}  # name → class (label, tip) of every tool

PICK_PX = 9  # [px] how near a click must be to a member taken out to put it back
NEAR_MISS = 2.5  # a new joint this many node reaches from a node is said to be beside it (the click may have meant the node)
BUTTON_H = 30
GAP = 6


class Toolbar:
    """A row of buttons, one per tool, numbered 1, 2, … for the keyboard; each tool is
    made once and keeps what it has half done until it is cancelled."""

    def __init__(self, names: tuple[str, ...]):
        if len(names) > len(TOOL_KEYS):  # a tool past the keys would share a number with another, and have no key
            raise ValueError(f"a toolbar of {len(names)} tools has only {len(TOOL_KEYS)} keys ({TOOL_KEYS}) to choose them: {', '.join(names)}")
        self.names = names
        self.tools = {name: TOOLS[name]() for name in names}
        self.current = names[0]
        self.rects: list[pygame.Rect] = []
        self.compact = False  # the names in the small type (set by layout)

    @property
    def tool(self) -> Tool:
        return self.tools[self.current]

    def choose(self, name: str) -> None:
        if name in self.names:
            self.tool.cancel()
            self.current = name

    def keyed(self, k: int) -> str | None:
        """The tool chosen by the k-th key of TOOL_KEYS (0-based), if there is one."""
        return self.names[k] if 0 <= k < len(self.names) else None

    @staticmethod
    def number(k: int) -> str:
        """The key of tool k (0-based): 1 … 9, then 0 (TOOL_KEYS)."""
        return TOOL_KEYS[k]

    def layout(self, fonts: Fonts, topleft: tuple[int, int], right: int | None = None) -> pygame.Rect:
        """The buttons from `topleft`; where they would pass `right` (German's longer
        names in a narrow window) their names are set in the small type, closer."""
        for compact in (False, True):
            x, y = topleft
            self.rects, self.compact = [], compact
            font, pad, gap = (fonts.small, 16, GAP - 2) if compact else (fonts.body, 22, GAP)
            for k, name in enumerate(self.names):
                w = fonts.small.size(self.number(k))[0] + font.size(_(TOOLS[name].label))[0] + pad
                self.rects.append(pygame.Rect(x, y, w, fonts.px(BUTTON_H)))
                x += w + gap
            if right is None or x - gap <= right:
                break
        return pygame.Rect(topleft, (x - topleft[0], fonts.px(BUTTON_H))) if self.rects else pygame.Rect(topleft, (0, 0))

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
            font, gap = (fonts.small, 4) if self.compact else (fonts.body, 6)
            draw.label(surface, font, _(TOOLS[name].label), (number.right + gap, rect.centery), colour, "midleft", None)


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


def dragged(pressed: tuple[int, int], released: tuple[int, int]) -> bool:
    """Whether the mouse moved between press and release: a drag, not a click."""
    return math.hypot(released[0] - pressed[0], released[1] - pressed[1]) > CLICK_PX


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


def pin_nearest_end(scene) -> None:
    """P: the end, nearest the pointer, of the member under it pinned to its node (a
    hinge), or the pin taken away; what to do, on the notice line, when no member is there."""
    hit = scene.picture.pick(scene.mouse, ("member",)) if scene.layout.world.collidepoint(scene.mouse) else None
    member = scene.picture.members.get(hit.id) if hit is not None else None
    model = scene.session.model
    if member is None or model is None or member["i"] not in model.node_ids or member["j"] not in model.node_ids:
        scene.session.notice = _("Point at a beam, near the end to pin to its node, and press P.")
        return
    far = {end: math.dist(scene.mouse, scene.picture.point_of(model.node_index(member[end]))) for end in ("i", "j")}
    end, session = min(far, key=far.get), scene.session
    pinned = session.edit(session.bench.toggle_pin, hit.id, end) if session.bench is not None else None
    if pinned is not None:
        session.notice = pin_words(hit.id, member[end], pinned, bool(session.bench.pinned_ends(hit.id)))


def pin_words(member: str, node: str, pinned: bool, any_pinned: bool) -> str:
    """The notice after P: what pinning (or unpinning) the member's end at `node` did."""
    if pinned:
        said = _("Member {member} is pinned to node {node}: it passes no moment there, its end turns freely (P again takes the pin away).")
    elif any_pinned:
        said = _("Member {member} is held from turning at node {node} again (its other end stays pinned).")
    else:
        said = _("Member {member} is held from turning at node {node} again.")
    return said.format(member=member, node=node)
