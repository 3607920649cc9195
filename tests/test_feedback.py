"""Feedback after a check (issue 22 point 3): the same answer checked again costs no try;
the hint after failure n is the one chosen from the mistake and then the level's own
hints one by one; `check --attempt N` gives the hint after failure N and, without it,
all of the level's hints; a determinacy hint names the actual mistake; "show the answer"
gives the level up at 0 marks, recorded as shown and never won, with the worked answer
drawn."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from judging import F, verdict
from test_play_session import key, start

from equilibria.app.launch import bench_of_solution
from equilibria.app.session.stage import load_stage
from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.course.progress import Progress
from equilibria.course.syllabus import reference_solution, shipped_level
from equilibria.files.store import read_json
from equilibria.format.solution import AddForce
from equilibria.rules.hints import hint
from equilibria.rules.judge import check as rules_check
from equilibria.rules.variants import version
from equilibria.work.attempt import Attempt

LEVELS = Path(__file__).resolve().parents[1] / "levels"


def level(name: str):
    return load_level(read_json(LEVELS / f"{name}.json"))


def forces(*triples) -> list[AddForce]:
    return [AddForce(type="add_force", node=n, fx=fx, fy=fy) for n, fx, fy in triples]


def test_the_same_answer_checked_again_costs_no_try():
    attempt = Attempt(level("free-body-01"), forces(("A", 0, -4500), ("B", 0, 13500)))
    first = attempt.check()
    assert not first.passed and attempt.tries == 1
    attempt.try_again()
    again = attempt.check()
    assert attempt.tries == 1 and again.reason == first.reason  # unchanged: no try, the same verdict
    attempt.try_again()
    attempt.moves = forces(("A", -3000, -4500), ("B", 0, 13500))
    assert attempt.check().passed and attempt.tries == 2 and attempt.marks == 80


def test_the_level_s_hints_come_one_by_one_after_the_hint_from_the_mistake():
    lv = version(level("free-body-01"))  # its hints as the student reads them, the level's own numbers in them
    own = lv.hints
    assert len(own) == 3
    wrong = [(("A", 0, -4500 - 100 * k), ("B", 0, 13500)) for k in range(5)]  # five different wrong answers
    attempt = Attempt(lv)
    said = []
    for moves in wrong:
        attempt.moves = forces(*moves)
        v = attempt.check()
        said.append(v.figures["hint"])
        attempt.try_again()
    assert attempt.tries == 5
    mistake = "Draw the free-body diagram and write ΣFx = 0"
    assert said[0].startswith(mistake) and not any(h in said[0] for h in own)
    assert said[1].endswith(own[0]) and said[2].endswith(own[1]) and said[3].endswith(own[2]) and said[4].endswith(own[2])
    assert all(s.startswith(mistake) for s in said)


def test_where_the_mistake_says_nothing_the_level_s_hint_n_stands_alone():
    lv = level("free-body-01")
    v = verdict("free-body-01", [F("A", -3000, -4500)])  # one force too few
    assert not v.passed and "exactly 2 forces" in v.reason
    assert [hint(lv, v, n) for n in (1, 2, 3, 4)] == [lv.hints[0], lv.hints[1], lv.hints[2], lv.hints[2]]


def test_check_attempt_n_gives_the_hint_after_failure_n_and_without_it_all(tmp_path, capsys):
    lv = version(level("free-body-01"))  # its hints as `check` prints them, the level's own numbers in them
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": 1, "level": "free-body-01", "moves": [F("A", 0, -4500), F("B", 0, 13500)]}))
    assert main(["check", "free-body-01", "--solution", str(path), "--json", "--attempt", "3"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["hint"].endswith(lv.hints[1]) and "hints" not in out
    assert main(["check", "free-body-01", "--solution", str(path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["hints"] == lv.hints and not any(h in out["hint"] for h in lv.hints)
    with pytest.raises(SystemExit) as exited:  # a failure number is 1 or more: one line, exit 2
        main(["check", "free-body-01", "--solution", str(path), "--attempt", "0"])
    assert exited.value.code == 2


def test_determinacy_hints_come_from_the_actual_mistake():
    remove = [{"type": "remove_member", "member": m} for m in ("BF",)]
    assert "Three hinges in line" in verdict("determinacy-02", remove).figures["hint"]  # B between AB and BC, in line
    two = [{"type": "remove_member", "member": m} for m in ("BG", "FC")]
    assert verdict("determinacy-01", two).figures["hint"].startswith("Too many taken out")
    assert "one member too many" in verdict("determinacy-01", []).figures["hint"].lower()


def test_show_the_answer_gives_the_level_up_and_draws_the_worked_answer():
    attempt = Attempt(level("free-body-01"), forces(("A", 0, -4500), ("B", 0, 13500)))
    assert not attempt.check().passed
    attempt.try_again()
    answer = attempt.show_answer()
    table = {(m.node, m.type): (getattr(m, "fx", 0.0), getattr(m, "fy", 0.0)) for m in answer}
    want = {("A", "add_force"): (-3000.0, -4500.0), ("B", "add_force"): (0.0, 13500.0)}  # hand statics (tests/test_answer.py)
    assert table.keys() == want.keys() and all(table[k] == pytest.approx(want[k], abs=1e-6) for k in want)
    assert attempt.shown and attempt.marks == 0 and not attempt.won
    attempt.moves = list(answer)
    assert attempt.check().passed and attempt.marks == 0 and not attempt.won
    balance = Attempt(level("balance-01"))  # worked out from the judge's sums, not read from the shipped file (issue 32)
    assert rules_check(level("balance-01"), balance.solution(balance.show_answer())).passed


def test_a_shown_level_is_recorded_as_shown_and_never_won(tmp_path):
    progress = Progress.load(tmp_path)
    progress.record_check("free-body-01", False, None, 1, shown=True)
    progress.record_check("free-body-01", True, 0, 2, shown=True)
    assert not progress.won("free-body-01")
    progress.save()
    again = Progress.load(tmp_path)
    assert not again.won("free-body-01") and again.to_json()["levels"]["free-body-01"]["shown"] is True


def test_in_the_game_ctrl_a_twice_shows_the_answer_and_the_explanation(tmp_path):
    stage = load_stage(shipped_level("free-body-01"))
    wrong = tmp_path / "w.json"
    wrong.write_text(json.dumps({"format": 1, "level": "free-body-01", "moves": [F("A", 0, -4500), F("B", 0, 13500)]}))
    app, scene = start(stage, progress=Progress.load(tmp_path), bench=bench_of_solution(stage, str(wrong)))
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    assert "gives up this level" in scene.session.notice and scene.session.verdict is None  # asked first
    key(app, pygame.K_a, pygame.KMOD_CTRL)
    app.frame()
    s = scene.session
    assert s.verdict is not None and s.verdict.passed and s.level_bench.attempt.shown
    from equilibria.app.widgets.panels import verdict_texts

    title, text, _, _ = verdict_texts(s)
    assert title == "Answer shown: 0 marks" and stage.level.explanation in text
    assert not Progress.load(tmp_path).won("free-body-01")
    app.close()
    assert reference_solution("free-body-01") is not None


def test_a_stability_hint_says_whether_the_count_or_the_placing_is_wrong():
    """determinacy-03: 12 + 3 = 15 < 2j = 16 with nothing added (the count); a bar B–E makes
    16 = 2j but leaves the middle panel without a diagonal (the placing)."""
    added = [{"type": "add_member", "id": "M1", "i": "B", "j": "E", "section": "bar"}]
    assert "The count is right" in verdict("determinacy-03", added).figures["hint"]
    assert "m + r ≥ 2j" in verdict("determinacy-03", []).figures["hint"] and "count is right" not in verdict("determinacy-03", []).figures["hint"]


def test_the_largest_imbalance_against_its_bound_comes_first():
    """balance-02 (12 kN down at D; hooks A 1 m left, B 2 m right, 1.5 m up). A 8, B 3 kN:
    ΣFy = −1 kN against 2 % of ½(23 kN) = 0.23 kN (4.3 bounds), ΣM_D = 2·3 − 8 = −2 kN·m
    against the floor 1 % × 12 kN × 1.80 m = 0.216 kN·m (9.2 bounds): ΣM first, though ΣFy is
    the first equation in the usual order. A 9, B 4.5 kN: ΣFy = +1.5 kN, ΣM_D = 0: ΣFy alone."""
    first = verdict("balance-02", [F("A", 0, 8000), F("B", 0, 3000)]).reason
    assert "ΣM about D and ΣFy are not zero (the largest imbalance first)" in first
    alone = verdict("balance-02", [F("A", 0, 9000), F("B", 0, 4500)]).reason
    assert "ΣFy is not zero, so the body would move up" in alone
