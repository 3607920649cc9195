"""A player's work on a level: a versioned list of moves, kept apart from the level.

The level file is never rewritten by play; a solution names its level and lists moves:

    {"format": 1, "level": "balance-01", "student": "s1234", "numbers": {"P": 8000}, "moves": [
        {"type": "add_force", "node": "P3", "fx": 0, "fy": 5000},
        {"type": "add_moment", "node": "A", "m": 12000},
        {"type": "mark_zero", "member": "BD"},
        {"type": "remove_member", "member": "CE"},
        {"type": "add_node", "id": "N1", "x": 2.0, "y": 1.5},
        {"type": "add_member", "id": "M1", "i": "A", "j": "N1", "section": "light"},
        {"type": "add_support", "node": "D", "fix": ["x", "y"]}]}

`student` and `numbers` are there when the level varies its numbers (game/variants.py):
the student whose numbers the work answers, and those numbers.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from game.files import format_problem
from game.format import Dof, Finite, Id, LevelId, _Strict, field_path


class AddForce(_Strict):
    type: Literal["add_force"]
    node: Id = Field(description="point of application")
    fx: Finite = Field(0.0, description="[N]")
    fy: Finite = Field(0.0, description="[N]")


class AddMoment(_Strict):
    type: Literal["add_moment"]
    node: Id = Field(description="where the moment acts")
    m: Finite = Field(0.0, description="[N m], counter-clockwise positive")


class MarkZero(_Strict):
    type: Literal["mark_zero"]
    member: Id


class RemoveMember(_Strict):
    type: Literal["remove_member"]
    member: Id


class AddNode(_Strict):
    type: Literal["add_node"]
    id: Id
    x: Finite = Field(description="[m]")
    y: Finite = Field(description="[m], y up")


class AddMember(_Strict):
    type: Literal["add_member"]
    id: Id
    i: Id
    j: Id
    section: Id = Field(description="one of the level's player.sections")


class AddSupport(_Strict):
    type: Literal["add_support"]
    node: Id
    fix: list[Dof] = Field(min_length=1, description='locked DOFs: any of "x", "y", "rot"')


MAX_MOVES = 10_000  # moves a solution may hold

Move = Annotated[AddForce | AddMoment | MarkZero | RemoveMember | AddNode | AddMember | AddSupport, Field(discriminator="type")]


class Solution(_Strict):
    format: Literal[1]
    level: LevelId
    numbers: dict[Annotated[str, Field(max_length=32)], Finite] | None = Field(
        None,
        max_length=20,
        description="a level that varies its numbers (game/variants.py): the numbers the work was done with (a record: the judge draws them again)",
    )
    draw: int | None = Field(None, ge=0, description="which of the level's load choices this attempt drew")
    student: str | None = Field(None, min_length=1, max_length=64, description="the student's id, stamped by `equilibria export` and the game's hand-in key")
    moves: list[Move] = Field(default_factory=list, max_length=MAX_MOVES)


def load_solution(data: Any) -> Solution:
    """A validated Solution, or ValueError with one 'field: problem' line per problem."""
    problem = format_problem(data) if isinstance(data, dict) else None
    if problem:
        raise ValueError(f"format: {problem}")
    try:
        return Solution.model_validate(data)
    except ValidationError as exc:
        raise ValueError("\n".join(f"{field_path(e['loc'])}: {e['msg'].removeprefix('Value error, ')}" for e in exc.errors(include_url=False))) from None


def player_loads(moves: list[Move]) -> list[dict]:
    """The forces and moments the player added, as a level's loads."""
    out = []
    for m in moves:
        if isinstance(m, AddForce):
            out.append({"node": m.node, "fx": m.fx, "fy": m.fy})
        elif isinstance(m, AddMoment):
            out.append({"node": m.node, "m": m.m})
    return out
