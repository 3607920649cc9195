"""A student's go at a level: the moves made so far, the checks, the marks.

Marks go by tries (`rules.marks`): full marks at the first check, fewer after each failed
one; an unchanged answer checked again costs no try (the same verdict comes back). The
answer last checked, when that check failed, is remembered by its fingerprint
(`answer_key`: the moves, the draw and the student's numbers), which the progress file
keeps (game/course/progress.py), so a restart forgets nothing: the unchanged answer is judged
again for its verdict and still costs no try, and any change to it is a new try. After
a failed check the hint is the one for that failure (game/rules/hints.py: the level's
hints one by one). "Show the answer" (`show_answer`) gives up the level: marks 0,
recorded as shown, not won, and the worked solution is the level's explanation with the
answer the judge computes drawn. After a check the game shows the simulation the verdict ran (the truss collapsing,
the body drifting away); "try again" discards it and puts the structure back as it was
before the check, keeping every move, so the student sees what went wrong and fixes it.
A level that draws its loads at random draws once per attempt: a new attempt may get
other loads, and so another answer. No pygame here.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import numpy as np

from equilibria.course.level import Level
from equilibria.format.solution import Move, RemoveMember, Solution, player_loads
from equilibria.rules.common import Verdict
from equilibria.rules.construction import design
from equilibria.rules.judge import check, marks
from equilibria.rules.kinds import KINDS
from equilibria.words.i18n import _


def answer_key(solution: Solution) -> str:
    """The fingerprint of an answer: SHA-256 (hex) of the solution as its file holds it
    (level, draw, student, numbers and moves), its keys sorted. Equal only for the same
    answer to the same numbers: a move changed, added, removed or reordered, another draw
    or other numbers give another key."""
    text = json.dumps(solution.model_dump(mode="json", exclude_none=True), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Question:
    """A check asked of the judge: the level, the answer as its file holds it, its
    fingerprint (answer_key), the failures counted for the hint, and the verdict already
    known for it in this session (None: it must be judged)."""

    level: Level
    solution: Solution
    key: str
    failures: int
    known: Verdict | None = None

    def judge(self) -> Verdict:
        """The judge's verdict (rules.check): the runs build models and states of their own
        from the level and the answer, so a check may run in a thread of its own beside a
        simulation the window runs. ValueError as rules.check."""
        return check(self.level, self.solution, failures=self.failures)


class Attempt:
    def __init__(self, level: Level, moves: list[Move] | None = None, *, draw: int | None = None, rng: np.random.Generator | None = None):
        choices = level.load_choices()
        if choices and draw is None:
            draw = int((rng or np.random.default_rng()).integers(len(choices)))
        self.level = level
        self.draw = draw
        self.moves: list[Move] = list(moves or [])
        self.tries = 0
        self.hints = 0  # hints shown after failed checks (a failed check whose verdict holds one; an unchanged answer again shows none new)
        self.passed_at: int | None = None  # the check that first passed (not after the answer was shown)
        self.verdict: Verdict | None = None  # the last check's, until "try again"
        self.marks: int | None = None  # set by the first check that passes
        self.shown = False  # the answer was shown: the level is given up (marks 0)
        self.answer_asked = False  # "show the answer" asked once: the game asks before giving the level up
        self.failed_key: str | None = None  # answer_key of the answer last checked, when that check failed (kept in the progress)
        self._checked: tuple[str, Verdict] | None = None  # the key last checked and its verdict, in this session

    def solution(self, moves: list[Move] | None = None) -> Solution:
        """The attempt's moves (or `moves`) as a solution file holds them."""
        # a level that varies: whose numbers, drawn in which course (game/rules/variants.py)
        stamp = {"student": self.level.student, "course": self.level.course, "numbers": self.level.numbers or None}
        return Solution(format=1, level=self.level.id, draw=self.draw, **stamp, moves=list(self.moves if moves is None else moves))

    def structure(self, moves: list[Move] | None = None) -> dict:
        """The model as the player has built it (with the attempt's moves, or `moves`),
        at rest and undeformed: the level (its loads as drawn) with the forces added,
        the members removed, and the nodes, members and supports built. What the game
        shows before and after a check."""
        moves = self.moves if moves is None else moves
        level = self.level.drawn(self.draw)
        if KINDS[level.kind].builds:
            return design(level, self.solution(moves)).data
        data = level.model_data()
        data["loads"] = data.get("loads", []) + player_loads(moves)
        removed = {m.member for m in moves if isinstance(m, RemoveMember)}
        data["members"] = [m for m in data.get("members", []) if m["id"] not in removed]
        return data

    @property
    def won(self) -> bool:
        return self.marks is not None and not self.shown

    def check(self) -> Verdict:
        """Judge the moves as they are; the verdict (with its simulation) stays until
        try_again(). The same moves as at the last check, which failed, cost no try and
        get the same verdict, in this session or after a restart (`failed_key`).
        ValueError for moves the level does not allow, as rules.check."""
        question = self.question()
        return self.record(question, question.known if question.known is not None else question.judge())

    def question(self) -> Question:
        """What a check of the moves as they are asks the judge: `judge()` it (in any
        thread: it reads nothing of this attempt) and hand the verdict to `record`, which
        counts the try; a question never recorded (a check cancelled) leaves the attempt
        as it was."""
        solution = self.solution()
        key = answer_key(solution)
        if key == self.failed_key:  # unchanged since a failed check: no try
            same = self._checked is not None and self._checked[0] == key
            return Question(self.level, solution, key, max(self.tries, 1), self._checked[1] if same else None)  # checked before a restart: judged again
        return Question(self.level, solution, key, self.tries + 1)

    def record(self, question: Question, verdict: Verdict) -> Verdict:
        """Count the check `question` asked, judged `verdict`: a try (unless it is the
        answer last failed, failing again), the marks at a first pass. ValueError when
        the moves changed since the question was asked (its verdict is not theirs)."""
        if question.key != answer_key(self.solution()):
            raise ValueError(_("Your answer changed while it was judged: check it again."))
        key = question.key
        if key == self.failed_key and not verdict.passed:  # unchanged since a failed check: no try
            self._checked = (key, verdict)
            self.verdict = verdict
            return verdict
        self.tries += 1  # a new answer (or one a newer judge now passes): a try
        self.hints += 1 if not verdict.passed and verdict.figures.get("hint") else 0
        self.verdict = verdict
        self._checked = (key, verdict)
        self.failed_key = None if verdict.passed else key
        if verdict.passed and self.marks is None:
            self.marks = 0 if self.shown else marks(self.tries)
            self.passed_at = None if self.shown else self.tries
        return verdict

    def show_answer(self) -> list[Move] | None:
        """Give the level up: marks 0 (recorded as shown, not won), and the answer's moves
        to draw, worked out for the level as drawn (the student's numbers and draw) from
        what the judge computes (the kind's `answer`: a free body's cut forces, a truss's
        zero-force members, a section's forces, the forces that balance a body); None
        where the kind has no one answer (a design: its explanation says what passes).
        Never read from a file: the student's copy holds no reference solutions."""
        self.shown = True
        self.marks = 0
        level = self.level.drawn(self.draw)
        answer = KINDS[level.kind].answer
        moves = answer(level) if answer is not None else None
        return list(moves) if moves is not None else None

    def try_again(self) -> dict:
        """Back to before the check: the verdict and its simulation go, the moves stay.
        Returns the structure to show."""
        self.verdict = None
        return self.structure()
