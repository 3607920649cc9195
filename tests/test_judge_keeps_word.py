"""The judge keeps its word (issue 32 point 6): no unknown passes more than τ = 2 % off
its own value unless it is smaller than φᵤ/τ = 5 % of the largest load (a zero above
all), and the brief states that rule with the judge's own constants.

The sweep goes over every unknown of every free-body level with a unique answer (the
answer from the level's own numbers, game/rules/answer.py) and over every member of
every section level's reference cut: each is moved 2.2 % of itself away from its answer
(just past τ: fails) and 1.8 % (just inside: passes). The four the issue found passing
2.3 to 4.8 % off under the old floor of 1 % of the largest load (the cut forces of
sections-02, hinge-01's thrust, BF of joints-01 and of truss-04) go through the real
check, simulation and all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from equilibria.course.level import load_level
from equilibria.engine.model import build_model
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.answer import moves_giving, solve_values
from equilibria.rules.equilibrium import DEFAULT_TOLERANCE, UNKNOWN_FLOOR, largest_load, shortest_arm
from equilibria.rules.free_body import _judged_unknowns
from equilibria.rules.judge import check, judged_words
from equilibria.rules.zero_force import member_forces_at_equilibrium
from equilibria.words.i18n import speaking

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ROOT / "levels"
SOLUTIONS = LEVELS / "solutions"
PAST, INSIDE = 0.022, 0.018  # just past τ = 2 % and just inside it
SMALL = 0.05  # of the largest load: the answers the floor may decide are smaller (the test's own figure, not the judge's)


def kind_of(path: Path) -> str:
    return json.loads(path.read_text(encoding="utf-8")).get("kind", "")


FREE_BODY = sorted(p.stem for p in LEVELS.glob("*.json") if p.stem != "level.schema" and kind_of(p) == "free_body")
SECTION = sorted(p.stem for p in LEVELS.glob("*.json") if p.stem != "level.schema" and kind_of(p) == "section")


def level(level_id: str):
    return load_level(read_json(LEVELS / f"{level_id}.json"))


def rows_with(lv, solved, k: int, value: float) -> list[dict]:
    """The judge's rows when unknown k is `value` and every other unknown is right."""
    data = lv.model_data()
    model = build_model(data, statics_only=True)
    values = [v for _, v in solved]
    values[k] = value
    solution = load_solution({"format": 1, "level": lv.id, "moves": [m.model_dump(mode="json") for m in moves_giving(lv, solved, values)]})
    small = UNKNOWN_FLOOR * largest_load(lv, model)
    return _judged_unknowns(solution, solved, DEFAULT_TOLERANCE, small, small * shortest_arm(model))


def large(lv, answer: float, moment: bool) -> bool:
    """Whether the answer is at least SMALL of the largest load (times the shortest arm
    for a moment): one the rule judges within τ of itself."""
    model = build_model(lv.model_data(), statics_only=True)
    return abs(answer) >= SMALL * largest_load(lv, model) * (shortest_arm(model) if moment else 1.0)


@pytest.mark.parametrize("level_id", FREE_BODY)
def test_no_free_body_unknown_passes_more_than_two_percent_off(level_id):
    lv = level(level_id)
    solved = solve_values(lv)
    if solved is None:
        pytest.skip("no unique answer: the sums judge (tests/test_feedback.py)")
    judged = 0
    for k, (u, answer) in enumerate(solved):
        if not large(lv, answer, u.moment):
            floor_rows = rows_with(lv, solved, k, answer)  # a zero or a very small answer: the floor decides
            assert floor_rows[k]["right"]
            continue
        judged += 1
        for sign in (1.0, -1.0):
            past = rows_with(lv, solved, k, answer * (1 + sign * PAST))
            inside = rows_with(lv, solved, k, answer * (1 + sign * INSIDE))
            assert not past[k]["right"], (level_id, u.words, answer)
            assert inside[k]["right"], (level_id, u.words, answer)
            assert all(r["right"] for i, r in enumerate(past) if i != k)
    assert judged, "every free-body level asks for at least one unknown larger than the floor"


def test_the_four_the_issue_found_fail_2_3_percent_off_in_the_real_check():
    """hinge-01's thrust (the x reaction at A), BF of joints-01 and of truss-04: each 2.3 %
    off its answer, the rest right, fails the real check (it passed under the old floor);
    the answer itself passes."""
    for level_id, node, want in (("hinge-01", "A", "x part"), ("joints-01", "F1", "BF"), ("truss-04", "S2", "BF")):
        lv = level(level_id)
        solved = solve_values(lv)
        k = next(i for i, (u, _) in enumerate(solved) if u.node == node and want in u.words)
        values = [v for _, v in solved]
        right = load_solution({"format": 1, "level": level_id, "moves": [m.model_dump(mode="json") for m in moves_giving(lv, solved, values)]})
        assert check(lv, right).passed, level_id
        values[k] *= 1.023
        off = load_solution({"format": 1, "level": level_id, "moves": [m.model_dump(mode="json") for m in moves_giving(lv, solved, values)]})
        verdict = check(lv, off)
        assert not verdict.passed, (level_id, solved[k][0].words)
        assert [r["right"] for r in verdict.figures["unknowns"]].count(False) == 1


@pytest.mark.parametrize("level_id", SECTION)
def test_no_section_force_passes_more_than_two_percent_off(level_id):
    lv = level(level_id)
    reference = read_json(SOLUTIONS / f"{level_id}.json")
    forces = member_forces_at_equilibrium(lv)
    cut = [m for m in reference["moves"] if m["type"] == "cut_member"]
    for k, move in enumerate(cut):
        answer = forces[move["member"]]
        if not large(lv, answer, False):
            continue
        for scale, passes in ((1 + PAST, False), (1 - PAST, False), (1 + INSIDE, True)):
            moves = [dict(m, force=forces[m["member"]] * (scale if i == k else 1.0)) for i, m in enumerate(cut)]
            verdict = check(lv, load_solution({**reference, "moves": moves}))
            assert verdict.passed is passes, (level_id, move["member"], scale)


def test_the_brief_states_the_rule_with_the_judge_s_own_constants():
    lv = level("joints-01")
    with speaking("en"):
        words = judged_words(lv, True)
    assert "within 2% of its own value" in words
    assert UNKNOWN_FLOOR / DEFAULT_TOLERANCE <= SMALL
    assert f"smaller than {round(UNKNOWN_FLOOR / DEFAULT_TOLERANCE * 100)}% of the largest load" in words
    assert f"within {UNKNOWN_FLOOR * 100:.1f}% of that load" in words
