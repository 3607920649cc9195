"""Where the play scene draws the structure and where a click finds it: the camera, the
painter, the picking shapes, and which positions are shown (as built while the player
edits or before a run; the run's, magnified on M, while it runs). Rendering reads the
session's state and never writes it."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pygame

from equilibria.app.draw import symbols
from equilibria.app.draw.beamdraw import MODES, Diagrams, legend_lines
from equilibria.app.draw.render import StructurePainter, reference_force, section_widths
from equilibria.app.session.camera import Camera
from equilibria.app.session.cursor import Target, targets_of
from equilibria.app.session.shapes import Hit, Shapes
from equilibria.app.session.stage import named_in
from equilibria.app.widgets.membertable import section_lines
from equilibria.app.widgets.tools import grid_step, snap
from equilibria.engine.results import member_results
from equilibria.format.solution import AddForce, AddMoment, AddNode, CutMember
from equilibria.rules.common import moment_point
from equilibria.rules.hints import hint as rules_hint
from equilibria.rules.kinds import kind_of
from equilibria.words.figures import figure
from equilibria.words.i18n import _

VALUES_UP_TO = 40  # members; more and the force values start hidden (V shows them)
MAGNIFY = (1, 10, 100, 1000)  # the deflection magnifier's steps (M)
SMALL_MOTION_PX = 8  # [px] a demo whose motion is smaller on the screen starts magnified…
SHOWN_MOTION_PX = 20  # […] …so that it shows at least this much
LARGE_MOTION_PX = 250  # [px] magnified motion past this (a collapse) is magnified less
PICK_PX = 9  # [px] how near the mouse must be to a member or plate to pick it
NODE_PICK_PX = 14  # [px] how near to a node: a click that near uses the node


class Picture:
    """session: the PlaySession; as_built(): whether the structure is shown as built
    (the player edits). magnify: the deflection magnifier's factor (M); values, labels:
    force values and names on the structure, automatic until the player chooses (V, L)."""

    def __init__(self, session, fonts, stage, as_built: Callable[[], bool]):
        self.session, self.fonts, self.stage = session, fonts, stage
        self.as_built = as_built
        self.magnify = 1
        self.chosen: dict[str, bool] = {}
        self.camera: Camera | None = None  # set when the screen is laid out
        self.model, self.built = None, -1  # nothing drawn yet: never current
        self.force_ref: float | None = None  # [N] the force drawn ARROW_PX long, fixed for the scene at its first model
        self._said_text, self._said_ids = "", []  # the ids the words on the screen name, worked out once per text
        self.diagrams = Diagrams()
        self.resultants = False  # the distributed loads' resultants (W)
        self.take_model()

    def take_model(self) -> None:
        """Painter and picking shapes for the session's model (after every build)."""
        s = self.session
        self.model, self.built = s.model, s.builds
        bench = s.level_bench
        own = sum(isinstance(m, AddForce | AddMoment) for m in bench.moves) if bench is not None else 0  # the loads added last
        self.members = {m["id"]: m for m in (s.data() or {}).get("members", [])}
        offered = s.bench.sections() if s.bench is not None else {}  # a level built of sections: drawn as wide as they are while built
        areas = {k: m["A"] for k, m in self.members.items()}  # the widest member drawn sets the scale
        by_section = section_widths(s.model, areas, max(areas.values())) if offered and areas and s.model else None
        self.section_words = section_lines(offered) if by_section is not None else []
        self.painter = StructurePainter(self.fonts, self.stage, s.model, s.supports(), own_loads=own, force_ref=self.force_ref, section_px=by_section)
        if self.force_ref is None and s.model is not None:  # one scale for the scene, from its first model
            most = bench.level.player.max_force if bench is not None and bench.level.player.max_force else 0.0
            kind = kind_of(self.stage.kind)
            designs = kind.designs  # a sandbox grows: its first bar's weight is no scale
            weight = 0.0 if designs else s.model.arrays.gravity * float(s.model.arrays.mass[:, 0].sum())
            if kind.resultants_before_pass:
                self.force_ref = reference_force(self.painter.load_ref, most, weight)
            else:  # the legend's "= F: one scale" must not be a total load (a resultant, the weight): a step of the answer
                self.force_ref = reference_force(self.painter.point_ref, most)
            self.painter.force_ref = self.force_ref
        self.shapes = Shapes(s.model) if s.model is not None else None
        if self.camera is not None and s.verdict is None:  # the check's run gave way to the work: the player's view back
            self.camera.restore()
        self._said_text = None

    @property
    def values(self) -> bool:
        auto = self.model is not None and len(self.model.member_ids) <= VALUES_UP_TO
        return self.chosen.get("values", auto)

    @values.setter
    def values(self, on: bool) -> None:
        self.chosen["values"] = on

    @property
    def labels(self) -> bool:
        """Names on every node and member (L); without, those the level's texts name."""
        return self.chosen.get("labels", False)

    @labels.setter
    def labels(self, on: bool) -> None:
        self.chosen["labels"] = on

    @property
    def diagram(self) -> str | None:
        """The diagram drawn on the beams: "shear", "moment" or None (I). After a pass on
        a freed beam (a beam cut, or a distributed load), the moment's, unless chosen."""
        if "diagram" in self.chosen:
            return self.chosen["diagram"]
        s = self.session
        level = getattr(s.level_bench, "level", None)
        cut_beam = any(c.what == "beam" for c in getattr(level, "cut", None) or [])
        passed = s.verdict is not None and s.verdict.passed
        return "moment" if passed and (cut_beam or (level is not None and level.member_loads)) else None

    def next_diagram(self) -> None:
        self.chosen["diagram"] = MODES[(MODES.index(self.diagram) + 1) % len(MODES)]

    def _diagram_waits(self) -> bool:
        """A freed body is in equilibrium only once an answer has passed: till then its
        internal forces mean nothing (and, from the student's forces, would give the
        answer away), and no diagram is drawn."""
        s = self.session
        level = getattr(s.level_bench, "level", None)
        return not s.sums_shown or (bool(getattr(level, "cut", None)) and not s.passed)

    def legend_notes(self) -> list[str]:
        """The legend's words on the members' widths by section, the diagrams and the distributed loads."""
        spread = self.model is not None and bool(self.model.member_loads)
        return (self.section_words if self.by_section else []) + legend_lines(self.diagram, spread, self._diagram_waits())

    @property
    def by_section(self) -> bool:
        """Members are drawn as wide as their sections (the player builds), not by force."""
        return self.painter.section_px is not None and self.as_built()

    def magnify_next(self) -> None:
        self.magnify = MAGNIFY[(MAGNIFY.index(self.magnify) + 1) % len(MAGNIFY)]

    def magnify_small_motion(self) -> str:
        """A demo whose motion would be under a few pixels starts magnified; the line
        that says so ("" when it needs none)."""
        worst = self.session.preview_motion()
        px = worst * self.camera.view.scale
        if not SMALL_MOTION_PX > px > 0:
            return ""
        self.magnify = next((m for m in MAGNIFY[1:] if px * m >= SHOWN_MOTION_PX), MAGNIFY[-1])
        return _("The motion is small ({motion} mm at most): deflections are drawn ×{factor} (M changes it).").format(
            motion=figure(worst * 1e3), factor=self.magnify
        )

    def tame_magnify(self) -> str:
        """When magnified motion grows past LARGE_MOTION_PX on the screen (a frame that
        collapses), the magnifier steps down to what keeps it there; the line that says
        so ("" when nothing changed)."""
        sim = self.session.sim
        if self.magnify == 1 or sim is None or self.camera is None:
            return ""
        worst = float(np.abs(sim.state.pos[:, :2] - sim.model.arrays.pos0[:, :2]).max(initial=0.0)) * self.camera.view.scale
        if worst * self.magnify <= LARGE_MOTION_PX:
            return ""
        self.magnify = max((m for m in MAGNIFY if worst * m <= LARGE_MOTION_PX), default=1)
        if self.magnify == 1:
            return _("The motion grew large: deflections are now drawn as they are (M changes it).")
        return _("The motion grew large: deflections are now drawn ×{factor} (M changes it).").format(factor=self.magnify)

    @property
    def current(self) -> bool:
        """The shapes and painter are those of the session's model as it was last set (a
        count, not the object: the same model set again after a check is drawn afresh)."""
        return self.built == self.session.builds

    @property
    def sim(self):
        """The simulation drawn: the static answer before the run starts, else the run."""
        s = self.session
        if not s.started and s.static is not None and s.static.sim is not None and not s.judged:
            return s.static.sim
        return s.sim

    def positions(self) -> np.ndarray | None:
        """Where to draw the nodes, (N, 2) [m] (None: where they are): as built while
        editing or before the run, magnified deflections on M."""
        s = self.session
        if s.sim is None:
            return None
        pos0 = s.model.arrays.pos0[:, :2]
        if self.as_built() or not s.started:
            return pos0
        if self.magnify > 1:
            return pos0 + self.magnify * (s.sim.state.pos[:, :2] - pos0)
        return None

    def free_motion(self) -> np.ndarray | None:
        """A mechanism's free motion, animated (drawn as a ghost over the structure)."""
        s = self.session
        if s.free is None or s.started:
            return None
        amplitude = 0.04 * s.model.char_length * math.sin(2 * math.pi * 0.6 * s.clock)
        size = np.abs(s.free.mode[:, :2]).max() or 1.0
        return s.model.arrays.pos0[:, :2] + amplitude * s.free.mode[:, :2] / size

    def point_of(self, q: int) -> tuple[float, float]:
        """Where node q is drawn [px]."""
        shown = self.positions()
        xy = shown[q] if shown is not None else self.session.sim.state.pos[q, :2]
        return self.camera.view.point(float(xy[0]), float(xy[1]))

    def world(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.camera.view.world(*pos)

    def reach(self) -> float:
        """How near [m] a click must be to a node to mean it."""
        return NODE_PICK_PX / self.camera.view.scale

    def pick(self, pos: tuple[int, int], kinds: tuple[str, ...] = ("node", "member", "triangle")) -> Hit | None:
        """What is drawn under the screen point `pos`: a node within NODE_PICK_PX before a
        member or plate within PICK_PX."""
        if not self._shapes_now():
            return None
        x, y = self.world(pos)
        if "node" in kinds:
            hit = self.shapes.pick(x, y, self.reach(), ("node",))
            if hit is not None:
                return hit
        rest = tuple(k for k in kinds if k != "node")
        return self.shapes.pick(x, y, PICK_PX / self.camera.view.scale, rest) if rest else None

    def _shapes_now(self) -> bool:
        """The shapes moved to where the structure is drawn now; False when there are none."""
        if self.shapes is None or not self.current or self.session.sim is None:
            return False
        s, shown = self.session.sim.state, self.positions()
        self.shapes.update(s.pos if shown is None else shown, member_results(self.session.sim.model, s).active, s.tri_on)
        return True

    def targets(self, kinds: tuple[str, ...]) -> list[Target]:
        """What the keys can select of `kinds`, where it is drawn now (game/app/session/cursor.py)."""
        return targets_of(self.shapes, kinds) if self._shapes_now() else []

    def grid_step(self) -> float:
        """The grid new nodes snap to [m]: about 40 cells across the stage."""
        xmin, ymin, xmax, ymax = self.stage.bounds()
        return grid_step(max(xmax - xmin, ymax - ymin))

    def place(self, pos: tuple[int, int], shift: bool) -> tuple[float, float]:
        """The world point [m] a click at `pos` puts a node at: on the grid, or (Shift)
        where it is."""
        x, y = self.world(pos)
        if shift:
            return x, y
        g = self.grid_step()
        return snap(x, g), snap(y, g)

    def force_reference(self) -> float:
        """The force [N] drawn ARROW_PX long in this scene: a drag that long makes it,
        so that a force lands as long as it was dragged (render.reference_force)."""
        return self.force_ref or self.painter.force_ref

    def box(self) -> tuple[float, float, float, float] | None:
        """(xmin, ymin, xmax, ymax) [m] of the nodes where they are drawn now (as built,
        magnified, or where the run has them; None: nothing built)."""
        sim = self.session.sim
        if sim is None:
            return None
        shown = self.positions()
        pos = shown if shown is not None else sim.state.pos[:, :2]
        return (*pos.min(axis=0), *pos.max(axis=0))

    def pads(self) -> tuple[float, float, float, float]:
        """How far [px] the force arrows and their values (loads, reactions, the
        student's forces, at the scene's one scale) reach beyond the nodes on each side,
        as the last frame drew them: left, top, right, bottom."""
        return self.painter.reach

    def fit(self) -> None:
        """Fit the view to the structure where it is drawn now and its force arrows
        (the stage when nothing is built)."""
        self.camera.fit(self.box(), self.pads())

    def built_box(self) -> tuple[float, float, float, float] | None:
        """(xmin, ymin, xmax, ymax) [m] of the nodes as built (None: nothing built)."""
        if self.session.model is None:
            return None
        pos = self.session.model.arrays.pos0[:, :2]
        return (*pos.min(axis=0), *pos.max(axis=0))

    def follow(self) -> None:
        """A frame: the structure and its force arrows kept in view while it runs
        (Camera.follow); standing, fitted again when an arrow or its value leaves the
        world while the view shows the whole structure (a force added far larger than the
        loads: its arrow, at the scene's one scale, ran off the picture with its value)."""
        if self.camera is None:
            return
        if self.session.started:
            self.camera.follow(self.box(), self.pads())
        elif self.camera.whole and self._reaches_out():
            self.fit()

    def _reaches_out(self) -> bool:
        """Whether the force arrows and their values drawn last frame leave the world."""
        drawn = self.drawn_rect()
        if drawn is None:
            return False
        left, top, right, bottom = self.pads()
        inner = drawn.inflate(-40, -40)  # the nodes' box (drawn_rect adds a margin)
        reach = pygame.Rect(inner.left - left, inner.top - top, inner.width + left + right, inner.height + top + bottom)
        return not pygame.Rect(self.camera.world).contains(reach)

    def back_in_view(self) -> None:
        """After R: the structure fitted in view again when no part of it is on the
        screen (a free run's view followed a body that flew off); else the view stays."""
        drawn = self.drawn_rect()
        if self.camera is not None and drawn is not None and not drawn.colliderect(pygame.Rect(self.camera.world)):
            self.fit()

    def clear_of(self, height: int, keep: bool = True) -> None:
        """At a check: keep the player's view (Try again brings it back, take_model;
        `keep` False: it is kept already, the window changed size, and the structure
        is fitted again); move the structure, where it is drawn now, above a box `height`
        px tall at the foot of the world, if the box would cover it."""
        if keep:
            self.camera.keep(below=height)
        self.camera.below = height
        drawn, world = self.drawn_rect(), pygame.Rect(self.camera.world)
        if drawn is not None and (not keep or drawn.bottom + self.pads()[3] > world.bottom - height - 12):
            self.camera.clear_of(self.box(), height, self.pads())

    def symbol_rect(self, hit) -> pygame.Rect | None:
        """Where the support symbol at the node `hit` is drawn [px] (None: `hit` is no
        supported node): a tool tip keeps off it."""
        if hit is None or hit.kind != "node" or self.camera is None or self.model is None or hit.id not in self.model.node_ids:
            return None
        node = self.model.node_index(hit.id)
        for q, kind, (nx, ny) in self.painter.supports:
            if q == node:
                x, y = self.point_of(q)
                reach, half = symbols.extent(kind)
                corners = [(x + a * nx * reach + b * -ny * half, y + a * ny * reach + b * nx * half) for a in (0, 1) for b in (-1, 1)]
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        return None

    def clear_of_mechanism(self, verdict, room: Callable[[], int]) -> None:
        """The structure moved above the mechanism's box (`verdict`: the verdict part;
        `room()`: the height it takes at the foot of the world), which cannot be folded,
        where the box covers it in a fitted view."""
        if verdict.what() == "mechanism" and self.covered_by(verdict.rect):
            self.clear_of(room(), keep=False)

    def covered_by(self, rect: pygame.Rect) -> bool:
        """Whether a box at `rect` [px] lies over the structure as drawn, its supports and
        arrows' feet too, while the view still shows the whole of it (a view the player
        zoomed or panned is theirs: nothing moves it)."""
        if self.camera is None or not self.camera.whole:  # no view yet (the first frame lays it out), or the player's own
            return False
        drawn = self.drawn_rect()
        return drawn is not None and drawn.colliderect(rect)

    def drawn_rect(self) -> pygame.Rect | None:
        """The structure's box on the screen [px] (None: nothing built)."""
        s = self.session
        if s.sim is None:
            return None
        shown = self.positions()
        pts = self.camera.view.points(shown if shown is not None else s.sim.state.pos[:, :2])
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        return pygame.Rect(int(x0), int(y0), int(x1 - x0) + 1, int(y1 - y0) + 1).inflate(40, 40)

    def names(self) -> list[str]:
        """The nodes and members named on the picture: all of them (L), or those the
        level's texts name and those the words on the screen name now (a notice, the
        verdict and its hint: "the most loaded member, FD")."""
        if self.model is None:
            return []
        if self.labels:
            return [*self.model.node_ids, *self.model.member_ids]
        said = self._said()
        if said != self._said_text:  # worked out once per text (and model: see take_model)
            ids = [*self.model.node_ids, *self.model.member_ids]
            named = self.stage.named_parts | self.acted_at() | named_in(said, ids) | self.summed_about()  # one scan of the words
            self._said_text, self._said_ids = said, [n for n in ids if n in named]
        return self._said_ids

    def summed_about(self) -> set[str]:
        """The node the net force's ΣM is taken about (the side panel's "ΣM about B"),
        so that the point it names is on the picture; none where the panel hides its
        sums until a pass (the point to take moments about is then the student's step)."""
        level = self.stage.level
        return {moment_point(level)} if level is not None and level.nodes and self.session.sums_shown else set()

    def acted_at(self) -> set[str]:
        """The nodes the student acts at: where the level lets forces be given, where the
        student's forces and moments are, and the joints the student built (the verdict
        and the member table name members by them: "FG", "EB"); and the members the
        student's section cuts."""
        bench = self.session.level_bench
        if bench is None:
            return set()
        kind = kind_of(bench.level.kind)
        places = kind.places(bench.level) if kind.places is not None else None
        own = {m.node for m in bench.moves if isinstance(m, AddForce | AddMoment)} | {m.id for m in bench.moves if isinstance(m, AddNode)}
        own |= {m.member for m in bench.moves if isinstance(m, CutMember)}
        return {*(places.nodes if places else ()), *(places.moment_nodes if places else ()), *own}

    def _said(self) -> str:
        """The words on the screen now: the notice, a mechanism's motion, the verdict and
        its hint, and after a pass the level's explanation (before it, that may name the
        answer)."""
        s = self.session
        words = [s.notice, s.free_words if s.free is not None and not s.started else ""]  # the mechanism's box names the joints that move
        if s.verdict is not None:
            bench = s.level_bench
            hint = s.verdict.figures.get("hint") or (rules_hint(bench.level, s.verdict) if bench is not None else "")
            explained = bench is not None and s.passed and bench.level.explanation
            words += [s.verdict.reason, hint, explained or ""]
        return " ".join(words)

    def draw(self, surface: pygame.Surface) -> None:
        s = self.session
        view, names = self.camera.view, self.names()
        known = s.started or (s.static is not None and s.static.sim is not None)  # a mechanism has no reactions to show before it runs
        known = known and s.sums_shown  # where the student gives the forces, the reactions would give the answer away
        mode, sim = self.diagram, self.sim
        drawn = mode is not None and sim is not None and self.current and not self._diagram_waits()
        area, backend = surface.get_clip() or surface.get_rect(), self.painter.backend
        if drawn:
            shown = self.positions()
            backend.draw(surface, self.diagrams.fill(area, sim.model, sim, view.points(sim.state.pos[:, :2] if shown is None else shown), mode))
        self.painter.spread.resultants = self.resultants and (kind_of(self.stage.kind).resultants_before_pass or s.passed)  # W: Kind says when
        values = self.values and not drawn  # the diagram's values instead of the axial forces
        how = {"pos": self.positions(), "names": names, "begin": False, "reactions": known, "built": self.by_section}
        self.painter.draw(surface, view, sim, values=values, forces=s.revealed, **how)
        if drawn:
            backend.draw(surface, self.diagrams.label(area, self.painter.labels))
