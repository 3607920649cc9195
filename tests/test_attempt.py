"""Scoring by tries and "try again": the check's simulation is shown and then discarded,
the structure goes back to how the player built it, the moves stay."""

from pathlib import Path

import numpy as np
from test_construction import BRIDGE, PRATT

from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import MarkZero, RemoveMember, load_solution
from equilibria.work.attempt import Attempt

LEVELS = Path(__file__).resolve().parents[1] / "levels"


def level(name: str):
    return load_level(read_json(LEVELS / f"{name}.json"))


def test_a_failed_check_then_try_again_keeps_the_moves_and_restores_the_structure():
    """zero-force-02, remove mode: removing BC (the bottom chord, 15 kN of tension)
    collapses the truss; try again shows the truss as built, moves kept."""
    attempt = Attempt(level("zero-force-02"), [RemoveMember(type="remove_member", member="BC")])
    before = attempt.structure()
    verdict = attempt.check()
    assert not verdict.passed and "BC carried 15 kN of tension" in verdict.reason
    moved = verdict.sim.state.pos[:, :2] - verdict.sim.model.arrays.pos0[:, :2]
    assert np.abs(moved).max() > verdict.figures["limit"]  # what the game shows: it fell
    after = attempt.try_again()
    assert attempt.verdict is None and after == before
    assert [m.member for m in attempt.moves] == ["BC"] and attempt.tries == 1 and not attempt.won


def test_marks_go_by_the_check_that_first_passes():
    attempt = Attempt(level("zero-force-01"))
    assert not attempt.check().passed
    attempt.try_again()
    reference = read_json(LEVELS / "solutions" / "zero-force-01.json")["moves"]
    attempt.moves = [MarkZero(**m) for m in reference]
    assert attempt.check().passed and attempt.marks == 80 and attempt.won
    attempt.check()
    assert attempt.tries == 3 and attempt.marks == 80  # checking again does not change it


def test_first_time_right_is_full_marks():
    attempt = Attempt(level("balance-01"), load_solution(read_json(LEVELS / "solutions" / "balance-01.json")).moves)
    assert attempt.check().passed and attempt.marks == 100


def test_a_level_that_draws_its_loads_draws_once_per_attempt():
    drawn = level("zero-force-03")
    n = len(drawn.load_choices())
    draws = {Attempt(drawn, rng=np.random.default_rng(seed)).draw for seed in range(40)}
    assert draws == set(range(n))
    attempt = Attempt(drawn, draw=1)
    attempt.check()
    attempt.try_again()
    assert attempt.draw == 1 and attempt.solution().draw == 1
    assert attempt.structure()["loads"] == [ld.model_dump(exclude_none=True) for ld in drawn.load_choices()[1]]


def test_a_build_attempt_shows_what_was_built():
    attempt = Attempt(load_level(BRIDGE), load_solution({"format": 1, "level": BRIDGE["id"], "moves": PRATT}).moves)
    built = attempt.structure()
    assert {n["id"] for n in built["nodes"]} == set("ABCDEFGH")
    assert len(built["members"]) == 4 + 9
    assert attempt.check().passed and attempt.try_again() == built
