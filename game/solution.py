"""A player's work on a level: a versioned list of moves, kept apart from the level.

The level file is never rewritten by play; a solution names its level and lists moves:

    {"format": 1, "level": "balance-01", "moves": [
        {"type": "add_force", "node": "P3", "fx": 0, "fy": 5000},
        {"type": "mark_zero", "member": "BD"},
        {"type": "remove_member", "member": "CE"}]}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from game.level import Finite, Id, _Strict, field_path


class AddForce(_Strict):
    type: Literal["add_force"]
    node: Id = Field(description="point of application")
    fx: Finite = Field(0.0, description="[N]")
    fy: Finite = Field(0.0, description="[N]")


class MarkZero(_Strict):
    type: Literal["mark_zero"]
    member: Id


class RemoveMember(_Strict):
    type: Literal["remove_member"]
    member: Id


Move = Annotated[AddForce | MarkZero | RemoveMember, Field(discriminator="type")]


class Solution(_Strict):
    format: Literal[1]
    level: Id
    draw: int | None = Field(None, ge=0, description="which of the level's load choices this attempt drew")
    moves: list[Move] = Field(default_factory=list, max_length=10_000)


def load_solution(data: Any) -> Solution:
    """A validated Solution, or ValueError with one 'field: problem' line per problem."""
    try:
        return Solution.model_validate(data)
    except ValidationError as exc:
        raise ValueError("\n".join(f"{field_path(e['loc'])}: {e['msg']}" for e in exc.errors(include_url=False))) from None
