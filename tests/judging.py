"""Judging a shipped level's answer in-process, as the free-body tests write it: the moves
F (a force) and M (a moment), the verdict, and asserting that it passes or fails with a
reason that teaches (naming `words`) and never gives the answer away (none of `hidden`)."""

from __future__ import annotations

from pathlib import Path

from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check as judge

LEVELS = Path(__file__).resolve().parents[1] / "levels"


def F(node: str, fx: float = 0.0, fy: float = 0.0) -> dict:
    return {"type": "add_force", "node": node, "fx": fx, "fy": fy}


def M(node: str, m: float) -> dict:
    return {"type": "add_moment", "node": node, "m": m}


def verdict(level_id: str, moves: list):
    level = load_level(read_json(LEVELS / f"{level_id}.json"))
    return judge(level, load_solution({"format": 1, "level": level_id, "moves": moves}))


def passes(level_id: str, moves: list):
    v = verdict(level_id, moves)
    assert v.passed, v.reason
    return v


def fails(level_id: str, moves: list, *words: str, hidden: tuple[str, ...] = ()) -> str:
    v = verdict(level_id, moves)
    assert not v.passed, v.reason
    for w in words:
        assert w in v.reason, (w, v.reason)
    for h in hidden:
        assert h not in v.reason, (h, v.reason)
    return v.reason


def answer_for(level_id: str, student: str, course: str | None = None, stamped: bool = True) -> dict:
    """The answer to `student`'s own numbers of a free-body level (in `course`), as a solution
    file: what the student hands in when they did the statics. Stamped with the student and
    their numbers as the game writes it, or (stamped=False) the moves alone, as a student who
    typed the file by hand writes it."""
    from equilibria.rules.kinds import KINDS
    from equilibria.rules.variants import template, version

    drawn = version(load_level(read_json(LEVELS / f"{level_id}.json")), student, course)
    moves = KINDS[drawn.kind].answer(drawn)
    assert moves, f"{level_id} has no one answer"
    solution: dict = {"format": 1, "level": level_id}
    if stamped and template(drawn).vary is not None:
        solution |= {k: v for k, v in {"student": drawn.student, "course": drawn.course, "numbers": drawn.numbers}.items() if v is not None}
    solution["moves"] = [m.model_dump(mode="json", exclude_none=True) for m in moves]
    return solution
