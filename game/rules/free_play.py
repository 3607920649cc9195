"""The kinds without a goal: a demo to watch and poke at, and the sandbox to build in
freely. Neither takes a solution; nothing is judged."""

from __future__ import annotations

from equilibria.rules.kind import Kind
from equilibria.words.i18n import N_

SANDBOX = Kind(
    name="sandbox",
    title_word=N_("sandbox"),
    summary=N_("no goal: free building"),
    tools=("inspect", "node", "member", "triangle", "support", "force", "erase", "drag", "nail", "bomb"),
    player_fields=frozenset({"sections", "zone"}),
    designs=True,
    drafted=lambda doc: doc,  # the structure as drawn, no goal
)

DEMO = Kind(
    name="demo",
    title_word=N_("demo"),
    summary="no goal: a structure to watch and poke at",
    tools=("inspect", "drag", "nail", "bomb"),
    seeks_mechanism=False,
    magnify_motion=True,
)
