"""What `validate` accepts, `check` and the game finish (issue 26 point 2): a check counts
its steps before it runs and refuses past its budget, even for a level that skipped
`validate`'s count (a student's design of very short or very stiff members is judged
on a level that passed); texts reach no terminal or font with a control character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from equilibria.course.level import Level
from equilibria.engine.simulation import Simulation
from equilibria.format.solution import load_solution
from equilibria.rules.common import MAX_JUDGE_STEPS, within_budget
from equilibria.rules.judge import check
from equilibria.words.text import plain_text

ROOT = Path(__file__).resolve().parents[1]


def test_the_step_count_is_the_run_over_the_step_and_refused_past_the_budget():
    assert within_budget(1e-4, 3.0) == 30_000
    assert within_budget(1.5e-6, 3.0) == MAX_JUDGE_STEPS
    for dt in (1e-6, 0.0, 1e-300):  # 3,000,000 steps; a step of nothing; an overflowing count
        with pytest.raises(ValueError, match=r"^checking this structure for 3 s would take") as exc:
            within_budget(dt, 3.0)
        assert "\n" not in str(exc.value)


def test_a_check_past_the_budget_is_refused_before_a_single_step(monkeypatch):
    """tutorial-01 made of a stiff massless material, held for 60 s: 34 million steps.
    Read by the schema alone (as if `validate`'s own count were skipped), the judge
    still refuses it, and the engine never takes a step."""
    data = json.loads((ROOT / "tests" / "corpus" / "teacher" / "beyond-the-budget.json").read_text(encoding="utf-8"))
    level = Level.model_validate(data)
    solution = load_solution({"format": 1, "level": level.id, "moves": [{"type": "add_force", "node": "B", "fx": -3000}]})
    steps = []
    monkeypatch.setattr(Simulation, "advance", lambda self, *a, **k: steps.append(a))
    with pytest.raises(ValueError, match=r"^checking this structure for 60 s would take [\d,]+ steps, more than the 2,000,000"):
        check(level, solution)
    assert steps == []


def test_controls_are_shown_and_do_nothing_and_newlines_stay():
    assert plain_text("a\x1b[2Jb\x07\x00c\td\x9be") == "a\ufffd[2Jb\ufffd\ufffdc\ufffdd\ufffde"
    assert plain_text("one\r\ntwo\nthree\rfour") == "one\ntwo\nthree\ufffdfour"
    assert plain_text("Zürich 45° ΣM") == "Zürich 45° ΣM"


def test_a_level_s_texts_are_read_clean_and_its_ids_refuse_controls():
    data = json.loads((ROOT / "tests" / "corpus" / "teacher" / "control-title.json").read_text(encoding="utf-8"))
    level = Level.model_validate(data)
    for text in (level.title, level.brief, *level.hints):
        assert plain_text(text) == text
    assert level.title.startswith("Clear \ufffd[2J") and "\n" in level.brief
    data["nodes"][0]["id"] = "A\nB"
    with pytest.raises(ValueError, match="an id holds no control characters"):
        Level.model_validate(data)


def test_the_game_draws_a_text_holding_a_nul(monkeypatch):
    """pygame's font refuses a NUL ('embedded null character'); drawn through the one
    helper it is a U+FFFD box."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame

    from equilibria.app.draw.primitives import label, text_block

    pygame.init()
    surface = pygame.Surface((200, 100))
    font = pygame.font.Font(None, 18)
    label(surface, font, "a\x00b\x1b[2J", (50, 20), (0, 0, 0))
    text_block(surface, font, ["x\x00y"], (0, 40), (0, 0, 0))


def test_a_force_typed_past_the_bounds_is_refused_in_words_not_a_crash():
    """The game's typed force takes up to 32 characters: "1e10" kN is 1e13 N, past the
    1e12 N a solution holds; the workbench refuses it in the player's words."""
    from equilibria.course.level import load_level
    from equilibria.course.syllabus import shipped_level
    from equilibria.files.store import read_json
    from equilibria.work.workbench import LevelBench, Refused, SandboxBench

    bench = LevelBench(load_level(read_json(shipped_level("tutorial-01"))))
    with pytest.raises(Refused, match=r"^The game takes forces of at most 1,000,000,000 kN\.$"):
        bench.add_force("B", -1e13, 0.0)
    bench.add_force("B", -3000.0, 0.0)  # within the bounds: taken
    assert bench.own_force("B") == (-3000.0, 0.0)
    sandbox = SandboxBench()
    node = sandbox.add_node(0.0, 1.0)
    with pytest.raises(Refused, match=r"^Not possible: must be at most 1,000,000,000"):
        sandbox.add_force(node, 1e12, 0.0)
