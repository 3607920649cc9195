"""What a level kind is, in one description (`Kind`), written in that kind's own rules
module and listed in the registry (game/rules/kinds.py) that the level loader, the
workbench, the judges, the command line and the play scene read.

Nothing here names a kind: a kind that needs a new flag adds it here, with a default
that keeps every other kind as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from equilibria.engine.model import Model
from equilibria.format.schema import BaseLevel
from equilibria.format.solution import Move, Solution
from equilibria.rules.common import Verdict

GOAL_FIELDS = frozenset({"hold", "max_displacement", "moving_load"})  # the goal fields of the kinds that came first
TOOL_KEYS = "1234567890"  # the keys that choose a tool, in toolbar order: a toolbar holds at most this many tools


@dataclass(frozen=True)
class Places:
    """How many forces and moments the player gives, and where."""

    forces: int
    moments: int = 0
    nodes: tuple[str, ...] = ()  # where forces may act (empty: at any node)
    moment_nodes: tuple[str, ...] = ()  # where moments may act
    one_per_node: bool = False  # one force (and one moment) at a node: it replaces one cut


@dataclass(frozen=True)
class Kind:
    """One level kind.

    name                 as a level file's `kind` says it
    summary              what the student is asked, in a line (the schema's description)
    title_word           the kind as the play screen's title line names it ("free-body"),
                         marked for translation (N_) and translated where it is shown
    moves                the move classes a solution may hold (game/format/solution.py); empty:
                         the kind has no goal and takes no solution
    tools                the play scene's tools in toolbar order (`inspect` and `drag`
                         look and pull without changing the answer: every kind has them),
                         no more than there are keys to choose them (TOOL_KEYS)
    mode_tools           tools that replace `tools` in a `player.mode` (zero_force: remove),
                         as many at most
    player_fields        the `player` fields a level of this kind may set; another is an error
    goal_fields          the `goal` fields it may set
    judge                (level, solution) → Verdict, run by equilibria.rules.judge.check; None: no goal
    sense                (level, model) → problems ('field: what is wrong') a level of this
                         kind must not have, beyond the format's; run by `equilibria validate`
    builds               the moves build (nodes, members, supports): the work is a design
                         with a cost and the level's build rules (game/rules/construction.py)
    designs              the player edits the level's structure itself and saves it as a
                         design (the sandbox), not a list of moves
    hides_forces_until_checked   member forces would give the answer away: the scene
                         shows them only after a passed check
    hides_sums_until_passed      the student gives the forces on a body: the net force and
                         moment on it, its reactions, its member forces and every other
                         figure that follows from the student's forces would give the
                         answer away, so the scene shows none of them before a pass (the
                         student's own forces, as given, are shown)
    seeks_mechanism      the scene looks for a free motion of the structure as built and
                         shows it (off where the body is meant to be free, or nothing changes)
    magnify_motion       the scene magnifies a small motion so it shows (a demo to watch)
    cuts                 the level says where its body was cut free (`cut`, game/format/schema.py)
    judges_each_answer   each number the student gives is judged against its own answer
                         (the brief says how close counts), as a free body's cuts are
    judges_standing      the verdict asks whether the structure stands (common.STANDS), so
                         the brief says what that means (as for a build or a removal)
    places               (level) → Places: how many forces and moments the player gives
                         and where (None: the kind takes no forces)
    zero_answers         a force or a moment of nothing is an answer (a cut that carries
                         none): the answer box takes 0 for one (game/app/session/answers.py)
    answer               (level) → the moves of the level's answer, worked out from what the
                         judge computes (never read from a file: the student's copy holds
                         none), or None where there is no one answer to show ("show the
                         answer" then shows the explanation alone); None: the kind has none
    figures_before_pass  the figures of a failed verdict a student's copy may print
                         (`check --json`, the grade CSV without the teacher's key): what the
                         verdict says (which equations are off, which way, which unknowns
                         are not right), never a residual's size or a figure that follows
                         from the unknowns; None: every figure (a design's members and cost)
    drafted              (document) → document: the level editor (game/course/authoring.py)
                         makes a structure a level of this kind, the fields the kind needs set
                         to what a teacher starts from (the document's structure as drawn:
                         supports, no cuts, no goal, no player); None: the editor does not
                         make levels of this kind
    asks_members         the `player` field that names the members the level asks about (a
                         section's `asked`): the editor marks them with a click on a member,
                         or typed; None: the kind asks about no member by name
    resultants_before_pass   a distributed load's resultant and where it acts (W), and an
                         arrow scale taken from it, may be shown before a pass (not where
                         finding the resultant is part of the level's work)
    """

    name: str
    summary: str
    title_word: str
    moves: tuple[type, ...] = ()
    tools: tuple[str, ...] = ("inspect", "drag")
    mode_tools: dict[str, tuple[str, ...]] = field(default_factory=dict)
    player_fields: frozenset[str] = frozenset()
    goal_fields: frozenset[str] = GOAL_FIELDS
    judge: Callable[[BaseLevel, Solution], Verdict] | None = None
    sense: Callable[[BaseLevel, Model], list[str]] | None = None
    builds: bool = False
    designs: bool = False
    hides_forces_until_checked: bool = False
    hides_sums_until_passed: bool = False
    seeks_mechanism: bool = True
    magnify_motion: bool = False
    cuts: bool = False
    judges_each_answer: bool = False
    judges_standing: bool = False
    places: Callable[[BaseLevel], Places] | None = None
    zero_answers: bool = False
    answer: Callable[[BaseLevel], list[Move] | None] | None = None
    figures_before_pass: frozenset[str] | None = None
    resultants_before_pass: bool = True
    drafted: Callable[[dict], dict] | None = None
    asks_members: str | None = None

    def __post_init__(self) -> None:
        """A kind that could not be played as described is refused where it is written."""
        for mode, tools in {"": self.tools, **self.mode_tools}.items():
            if len(tools) > len(TOOL_KEYS):
                where = f" in mode {mode!r}" if mode else ""
                raise ValueError(f"the {self.name} kind has {len(tools)} tools{where}, more than the {len(TOOL_KEYS)} keys that choose them ({TOOL_KEYS})")

    @property
    def judged(self) -> bool:
        """Whether a level of this kind has a goal (a solution to check and grade)."""
        return self.judge is not None

    def toolbar(self, mode: str | None = None) -> tuple[str, ...]:
        """The tools of a level of this kind (in `player.mode`, if it has one)."""
        return self.mode_tools.get(mode or "", self.tools)

    def student_figures(self, figures: dict, passed: bool) -> dict:
        """The figures of a verdict as a student's copy prints them (figures_before_pass):
        all of them after a pass; before one, only those the kind allows, and of a
        tolerance only its fraction and floors (its bounds follow from the sums' sizes)."""
        if passed or self.figures_before_pass is None:
            return dict(figures)
        out = {k: v for k, v in figures.items() if k in self.figures_before_pass}
        if isinstance(out.get("tolerance"), dict):
            out["tolerance"] = {k: v for k, v in out["tolerance"].items() if k in ("fraction", "floor", "unknown_floor")}
        return out

    def takes(self, move: type[Move]) -> bool:
        """Whether a solution of this kind may hold moves of class `move`."""
        return issubclass(move, self.moves)
