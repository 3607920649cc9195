"""What the play scene graphs: the quantities the player follows (A), shown against time
or the later ones against the first (X), exported as CSV and PNG (E). Holds the
recorder (game/app/widgets/graphs.py) and its panel; says what it did in one line."""

from __future__ import annotations

import time

import pygame

from equilibria.app.session.play import data_place
from equilibria.app.widgets.graphs import GraphPanel, Recorder
from equilibria.files.store import SaveError
from equilibria.words.i18n import _


class GraphDesk:
    def __init__(self, fonts):
        self.recorder = Recorder()
        self.panel = GraphPanel(self.recorder, fonts)
        self.shown = False
        self.against = False  # plot the later quantities against the first followed one

    def toggle(self, sim) -> str:
        """G: the panel shut or open; opened with nothing graphed, it graphs the energies at
        once (an empty panel that says "no samples yet" teaches nothing). The line that says so ("": none)."""
        if not self.shown and len(self.recorder.specs) < 2:  # the time alone
            said = self.follow(sim, None)
            self.shown = True
            return said
        self.shown = not self.shown
        return ""

    def follow(self, sim, hit, *, forces: bool = True) -> str:
        """Add the followed node's or member's main quantity (or, with nothing followed,
        the energies) to the graph; the line that says so. `forces` False: no reaction
        or member force (before a pass, where they would give the answer away)."""
        if sim is None:
            return ""
        if hit is None:  # nothing followed: the energies, kinetic and strain
            for spec in ("energy.kinetic", "energy.strain"):
                self.recorder.add(spec)
            self._show()
            return _("Graphing the kinetic and strain energy (inspect a node or member and press A to graph it)")
        model = sim.model
        if hit.kind == "node":
            q = model.node_index(hit.id)
            spec = f"reaction.{hit.id}.fy" if model.arrays.fixed[q, 1] else f"node.{hit.id}.y"
        elif hit.kind == "member":
            spec = f"member.{hit.id}.axial"
        else:
            return ""
        if not forces and not spec.startswith("node."):
            return _("Graphs of forces show once you pass this level.")
        self.recorder.add(spec)
        self._show()
        words = _("Graphing {quantity}") if self.against else _("Graphing {quantity} (X: plot against the first)")
        return words.format(quantity=self.recorder.label(spec))

    def toggle_against(self) -> None:
        self.against = not self.against
        self._show()

    def _show(self) -> None:
        """Up to three quantities against time, or the later ones against the first.
        Only these stay recorded (the first followed and the last three): the others'
        buffers are freed."""
        self.shown = True
        followed = [s for s in self.recorder.specs if s != "time"]
        followed = list(dict.fromkeys([*followed[:1], *followed[-3:]]))
        self.recorder.keep(followed)
        if self.against and len(followed) > 1:
            self.panel.show(followed[1:][-3:], x=followed[0])
        else:
            self.panel.show(followed[-3:])

    def sample(self, sim) -> None:
        if len(self.recorder.specs) > 1:
            self.recorder.sample(sim)

    def export(self) -> str:
        """Write the graph as CSV and PNG into the data folder; the line that says so."""
        if len(self.recorder.specs) < 2:
            return _("Nothing is graphed yet: inspect a node or member and press A.")
        try:
            stem = data_place("graphs") / time.strftime("graph-%Y%m%d-%H%M%S")
            self.recorder.to_csv(stem.with_suffix(".csv"))
            self.panel.save_png(stem.with_suffix(".png"))
        except (SaveError, OSError, pygame.error) as exc:
            return _("Could not export the graph: {problem}").format(problem=exc)
        return _("Saved {path}.csv and .png").format(path=stem)

    def draw(self, surface: pygame.Surface, world: pygame.Rect) -> None:
        if self.shown:
            self.panel.draw(surface, pygame.Rect(world.left + 10, world.top + 10, min(520, world.width - 20), 240))
