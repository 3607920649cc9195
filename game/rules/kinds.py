"""The level kinds: one table, read by the level loader (game/course/level.py: the kinds a file
may name, the player and goal fields each accepts, its sense checks), the judges
(equilibria.rules.judge.check), the workbench (moves and tools), the command line (what has a goal)
and the play scene (what it hides, looks for or magnifies).

To add a kind:

1. write its module here in game/rules/, holding what the kind is: its judge
   `(level, solution) → Verdict`, any sense check of its levels, and its description
   `KIND = Kind(name=..., summary=..., title_word=N_(...), moves=..., tools=..., judge=...)`
   (game/rules/kind.py says what each field means); a new move goes in game/format/solution.py,
   a new `player` or `goal` field in game/format/schema.py;
2. import its `KIND` below and list it in KINDS;
3. regenerate the schema (`python -m equilibria.course.level --write-schema`), describe the kind in
   docs/level-format.md and its moves in docs/solutions.md, and ship a level with a
   reference solution and tests.

Nothing else names a kind: the rest of the game asks the table.
"""

from __future__ import annotations

from equilibria.rules.balance import KIND as BALANCE
from equilibria.rules.construction import BUILD, STABILITY
from equilibria.rules.determinacy import KIND as DETERMINACY
from equilibria.rules.free_body import KIND as FREE_BODY
from equilibria.rules.free_play import DEMO, SANDBOX
from equilibria.rules.kind import Kind
from equilibria.rules.section import KIND as SECTION
from equilibria.rules.zero_force import KIND as ZERO_FORCE

KINDS: dict[str, Kind] = {k.name: k for k in (BALANCE, ZERO_FORCE, DETERMINACY, BUILD, STABILITY, FREE_BODY, SECTION, SANDBOX, DEMO)}
NAMES = tuple(KINDS)


def kind_of(name: str | None) -> Kind | None:
    """The kind called `name` (None: no such kind, as an unreadable file's may be)."""
    return KINDS.get(name) if isinstance(name, str) else None
