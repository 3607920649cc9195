"""The free-body briefs in the title's lines (play-test): the sentence that asks for the
answer ("Give the force at A and the moment") is among the lines a window of 800 × 600
shows, and no brief states the sign conventions or how close counts twice (the level's
words said them, then the assumptions every free-body level gets from its kind)."""

from __future__ import annotations

import json
import re

import pytest

from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage
from equilibria.app.widgets.overlay import _sentences, title_lines
from equilibria.app.window.app import App
from equilibria.course.syllabus import LEVELS_DIR, shipped_level

ASKS = re.compile(r"\b(give|find|what)\b", re.IGNORECASE)


def free_body_levels() -> list[str]:
    return sorted(p.stem for p in LEVELS_DIR.glob("*.json") if p.stem != "level.schema" and json.loads(p.read_text()).get("kind") == "free_body")


def flat(text: str) -> str:
    return " ".join(text.split())


def test_there_are_free_body_levels_to_check():
    assert len(free_body_levels()) >= 8  # free-body-01…04, particle-01, two-force-01, sections-01, machines-01, …


@pytest.fixture(scope="module")
def fonts():
    with App(fixed_frame=FRAME) as app:
        yield app.fonts


@pytest.mark.parametrize("level_id", free_body_levels())
def test_the_visible_brief_lines_at_800_px_keep_the_sentence_that_asks_for_the_answer(level_id, fonts):
    brief = load_stage(shipped_level(level_id)).brief
    own = brief.split("\n")[-2]  # the level's words: after a varying level's numbers, before the kind's assumptions
    asks = [s for s in _sentences(own) if ASKS.search(s)]
    assert asks, f"{level_id}: no sentence asks for the answer"
    shown = flat(" ".join(title_lines(fonts, brief, 800)))
    assert any(flat(s) in shown for s in asks), f"{level_id} at 800 px shows: {shown}"


@pytest.mark.parametrize("level_id", free_body_levels())
def test_no_brief_states_the_conventions_twice(level_id):
    brief = load_stage(shipped_level(level_id)).brief
    assert brief.count("x to the right, y up") == 1, brief
    assert len(re.findall(r"within \d+ ?% of (its|their) own value", brief)) == 1, brief
    assert len(re.findall(r"[Ww]eight is neglected", brief)) <= 1, brief


def test_the_sentence_that_asks_is_kept_when_long_conditions_follow_it(fonts):
    """A brief whose last sentences (conditions, a long note) come after the task: the
    three lines keep the task, not only the last sentences."""
    own = (
        "A fixed support holds a beam 6 m long; a load of 4 kN pulls down at its free end B and a couple of 2 kN·m turns it"
        " counter-clockwise. The support is taken away: the beam is a free body, cut at A. Give the force at A and the moment"
        " at A that held it. The beam is drawn as built, before it bends under the load, and every length on the picture is"
        " to scale, so the lever arms can be read off it. Note that the couple turns the beam the same way wherever it acts."
    )
    shown = flat(" ".join(title_lines(fonts, own + "\nSelf-weight is neglected.", 800)))
    assert "Give the force at A and the moment at A that held it." in shown, shown


def test_no_shipped_brief_states_the_sign_conventions_twice():
    for path in sorted(LEVELS_DIR.glob("*.json")):
        if path.stem in ("level.schema", "course"):
            continue
        brief = load_stage(path).brief
        assert brief.count("x to the right, y up") <= 1, f"{path.stem}: {brief}"
