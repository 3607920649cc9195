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
