"""A player's work on a level: a versioned list of moves, kept apart from the level.

The level file is never rewritten by play; a solution names its level and lists moves:

    {"format": 1, "level": "balance-01", "student": "s1234", "numbers": {"P": 8000}, "moves": [
        {"type": "add_force", "node": "P3", "fx": 0, "fy": 5000},
        {"type": "add_moment", "node": "A", "m": 12000},
        {"type": "mark_zero", "member": "BD"},
        {"type": "remove_member", "member": "CE"},
        {"type": "cut_member", "member": "BC", "force": 56250},
        {"type": "add_node", "id": "N1", "x": 2.0, "y": 1.5},
        {"type": "add_member", "id": "M1", "i": "A", "j": "N1", "section": "light", "release": ["j"]},
        {"type": "add_support", "node": "D", "fix": ["x", "y"]}]}

`student` and `numbers` are there when the level varies its numbers (game/rules/variants.py):
the student whose numbers the work answers, and those numbers; `course` (its code) when
the student opened a teacher's course file (game/course/homework.py), whose code the
numbers were drawn with. A hand-in (game/classroom/handin.py) also carries the attempt's
`record` (AttemptRecord): what the game counted, for the grade book, which re-judges the
moves and only reads the record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import Field, ValidationError, model_validator

from equilibria.files.store import BadInput, format_problem, read_json
from equilibria.format.schema import (
    AnswerForce,
    AnswerMoment,
    Coord,
    CourseCode,
    Dof,
    Finite,
    Id,
    LevelId,
    Roller,
    _Strict,
    error_said,
    field_path,
    support_key,
)
from equilibria.words.i18n import N_, _, decimal

STAMP = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"  # a moment in UTC, to the second: 2026-03-02T14:05:09Z


class AddForce(_Strict):
    type: Literal["add_force"]
    node: Id = Field(description="point of application")
    fx: AnswerForce = Field(0.0, description="[N]")
    fy: AnswerForce = Field(0.0, description="[N]")


class AddMoment(_Strict):
    type: Literal["add_moment"]
    node: Id = Field(description="where the moment acts")
    m: AnswerMoment = Field(0.0, description="[N m], counter-clockwise positive")


class MarkZero(_Strict):
    type: Literal["mark_zero"]
    member: Id


class RemoveMember(_Strict):
    type: Literal["remove_member"]
    member: Id


class CutMember(_Strict):
    type: Literal["cut_member"]
    member: Id = Field(description="a member the student's section passes through")
    force: AnswerForce | None = Field(None, description="[N] the force in it, tension positive (absent: not given yet)")


class AddNode(_Strict):
    type: Literal["add_node"]
    id: Id
    x: Coord = Field(description="[m]")
    y: Coord = Field(description="[m], y up")


class AddMember(_Strict):
    type: Literal["add_member"]
    id: Id
    i: Id
    j: Id
    section: Id = Field(description="one of the level's player.sections")
    release: list[Literal["i", "j"]] | None = Field(None, description='a beam\'s ends pinned to their nodes (a hinge), any of "i" and "j"')


class AddSupport(_Strict):
    type: Literal["add_support"]
    node: Id
    fix: list[Dof] = Field([], description='locked DOFs: any of "x", "y", "rot"')
    roller: Roller | None = Field(None, description="a roller on a line at the angle the level offers")

    @model_validator(mode="after")
    def _holds_something(self) -> Self:
        if not self.fix and self.roller is None:
            raise ValueError(_('a support fixes some of "x", "y", "rot", or is a roller on a line'))
        return self

    @property
    def key(self) -> tuple:
        """The kind of support (game/format/schema.py support_key)."""
        return support_key(self.model_dump(exclude_none=True))


class AttemptRecord(_Strict):
    """What the game counted on a level, as a hand-in carries it (game/course/progress.py
    keeps it): a record written on the student's machine, so `grade` cross-checks it and
    computes the marks from its own verdict (game/classroom/marks.py)."""

    tries: int = Field(ge=0, le=1_000_000, description="checks made (an unchanged answer checked again is no try)")
    hints: int = Field(0, ge=0, le=1_000_000, description="hints shown after failed checks")
    shown: bool = Field(False, description="the answer was shown: the level given up, marks 0")
    passed_at: int | None = Field(None, ge=1, le=1_000_000, description="the check that first passed (absent: none passed)")
    marks: int | None = Field(None, ge=0, le=100, description="the marks the game gave (absent: none yet)")
    first_check: Annotated[str, Field(pattern=STAMP)] | None = Field(None, description="when the first check was made, UTC (ISO 8601)")
    last_check: Annotated[str, Field(pattern=STAMP)] | None = Field(None, description="when the last check was made, UTC (ISO 8601)")


MAX_MOVES = 10_000  # moves a solution may hold (its format; the judge takes far fewer: BUDGET)

Move = Annotated[AddForce | AddMoment | MarkZero | RemoveMember | CutMember | AddNode | AddMember | AddSupport, Field(discriminator="type")]


class Solution(_Strict):
    format: Literal[1]
    level: LevelId
    numbers: dict[Annotated[str, Field(max_length=32)], Finite] | None = Field(
        None,
        max_length=20,
        description="a level that varies its numbers (game/rules/variants.py): the numbers the work was done with (a record: the judge draws them again)",
    )
    draw: int | None = Field(None, ge=0, description="which of the level's load choices this attempt drew")
    student: str | None = Field(None, min_length=1, max_length=64, description="the student's id, stamped by `equilibria export` and the game's hand-in key")
    course: CourseCode | None = Field(None, description="the code of the course the numbers were drawn in (a teacher's course file), stamped with the student")
    moves: list[Move] = Field(default_factory=list, max_length=MAX_MOVES)
    record: AttemptRecord | None = Field(None, description="a hand-in's attempt record: what the game counted (AttemptRecord)")


def load_solution(data: Any) -> Solution:
    """A validated Solution, or ValueError with one 'field: problem' line per problem."""
    problem = format_problem(data) if isinstance(data, dict) else None
    if problem:
        raise ValueError(f"format: {problem}")
    try:
        return Solution.model_validate(data)
    except ValidationError as exc:
        raise ValueError("\n".join(f"{field_path(e['loc'])}: {error_said(e)}" for e in exc.errors(include_url=False))) from None


@dataclass(frozen=True)
class Budget:
    """The most a solution may ask of the judge, checked before any solve (one file must
    cost a class seconds, not the minutes and gigabytes a dense solve of thousands of
    nodes takes). Chosen from the course: its biggest reference solution (bridge-06)
    has 36 moves, 9 new nodes, 27 new members and 4 kB; a design of 200 new nodes and
    800 members on bridge-06 is judged in about a second, and 400 loose nodes on
    tutorial-04 in under one, where 800 take about ten (the mechanism search grows as
    the cube of the nodes). So about twenty times what the course needs."""

    nodes: int = 200  # add_node moves
    members: int = 800  # add_member moves
    moves: int = 1_500  # moves of every kind
    bytes: int = 500_000  # the file's size


BUDGET = Budget()


def over_budget(solution: Solution, size: int = 0) -> str:
    """Why a solution is too big to judge ("" when it is not): one line naming the field
    and the limit. `size` is its file's size in bytes (0: not from a file)."""
    if size > BUDGET.bytes:
        return _too_big(size)
    added = Counter(m.type for m in solution.moves)
    for count, most, said in (
        (
            len(solution.moves),
            BUDGET.moves,
            N_("{count} moves; a solution may have at most {most} (twenty times what any level of the course needs), so it is not judged"),
        ),
        (
            added["add_node"],
            BUDGET.nodes,
            N_("{count} new nodes; a solution may add at most {most} (twenty times what any level of the course needs), so it is not judged"),
        ),
        (
            added["add_member"],
            BUDGET.members,
            N_("{count} new members; a solution may add at most {most} (twenty times what any level of the course needs), so it is not judged"),
        ),
    ):
        if count > most:
            return "moves: " + _(said).format(count=decimal(count, 0), most=decimal(most, 0))
    return ""


def _too_big(size: int) -> str:
    said = _("{size} kB; a solution may be at most {most} kB, so it is not judged")
    return "(file): " + said.format(size=decimal(size / 1000, 0), most=decimal(BUDGET.bytes / 1000, 0))


def read_solution(path: str | Path) -> Solution:
    """The solution in the file `path`, within BUDGET: BadInput (one line naming the file
    and the field) when it cannot be read, is not a solution or is over the budget."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        size = 0  # read_json says why
    if size > BUDGET.bytes:  # refused unread
        raise BadInput(f"{path}: {_too_big(size)}")
    data = read_json(path)
    try:
        solution = load_solution(data)
    except ValueError as exc:
        raise BadInput(f"{path}: {str(exc).splitlines()[0]}") from None
    problem = over_budget(solution)
    if problem:
        raise BadInput(f"{path}: {problem}")
    return solution


def player_loads(moves: list[Move]) -> list[dict]:
    """The forces and moments the player added, as a level's loads."""
    out = []
    for m in moves:
        if isinstance(m, AddForce):
            out.append({"node": m.node, "fx": m.fx, "fy": m.fy})
        elif isinstance(m, AddMoment):
            out.append({"node": m.node, "m": m.m})
    return out
