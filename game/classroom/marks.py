"""The marks in the grade book: the game's rule applied to the grade book's own verdict,
and the attempt record a hand-in carries read as a witness, never as the marks. No pygame.

The rule is the game's (game/rules/judge.py `marks`): 100 at the first check, 20 fewer
after each failed one, never below 40 for a pass; 0 after "show the answer" and 0 for an
answer that does not pass. `grade` re-judges every answer, so the marks are:

- 0 when the re-judge fails it, or the record says the answer was shown;
- else the rule at the check that passed: the record's `passed_at` (the game's check that
  first passed), or, when the game saw no pass, the checks made plus this one (work fixed
  and handed in without a check is one more check); with no record, one check (100).

The record is written on the student's machine, so it is believed only as far as it is
consistent: each contradiction is a flag in the row (flags), beside marks computed as
above. What a student who edits their file can change is the record (the tries, the
hints, the times): docs/cli.md says so to the teacher; whether the answer is right for
their numbers is the re-judge's, and no edit changes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from equilibria.format.solution import AttemptRecord
from equilibria.rules.judge import marks as rule
from equilibria.words.i18n import _


@dataclass(frozen=True)
class Marked:
    """A row's marks and what the record said: `tries`, `hints` and `shown` None when
    there is no record; `flags` the contradictions found, each one line."""

    marks: int
    tries: int | None = None
    hints: int | None = None
    shown: bool | None = None
    first_check: str = ""
    last_check: str = ""
    flags: tuple[str, ...] = ()


def mark(passed: bool, record: AttemptRecord | None, *, has_moves: bool = True) -> Marked:
    """The marks for a verdict (`passed`, the re-judge's) with the hand-in's `record`;
    `has_moves`: the file holds work (a level given up is handed in without any)."""
    if record is None:
        said = _("no attempt record (not handed in by Ctrl+E or `equilibria export`): marked as one check")
        return Marked(rule(1) if passed else 0, flags=(said,))
    flags = record_flags(record)
    if not passed and record.passed_at is not None and not record.shown:
        flags.append(_("the record says the game passed it at check {n}, but the work handed in does not pass").format(n=record.passed_at))
    if passed and record.shown and has_moves:
        flags.append(_("the answer was shown, yet the file holds work that passes (a level given up is handed in without work)"))
    if not passed or record.shown:
        marks = 0
    elif record.passed_at is not None and record.passed_at <= record.tries:
        marks = rule(record.passed_at)
    else:
        marks = rule(record.tries + 1)
    times = {"first_check": record.first_check or "", "last_check": record.last_check or ""}
    return Marked(marks, record.tries, record.hints, record.shown, **times, flags=tuple(flags))


def record_flags(r: AttemptRecord) -> list[str]:
    """Where the record contradicts itself, one line each (none for a record the game
    writes)."""
    flags = []
    claims_pass = r.passed_at is not None or bool(r.marks)
    if r.tries == 0 and claims_pass:
        flags.append(_("the record says it passed, with no check made"))
    elif r.passed_at is not None and r.passed_at > r.tries:
        flags.append(_("the record says it passed at check {n}, yet gives tries = {tries}").format(n=r.passed_at, tries=r.tries))
    if r.shown and r.marks:
        flags.append(_("the record says the answer was shown, yet gives {marks} marks").format(marks=r.marks))
    elif not r.shown and r.passed_at is not None and r.marks is not None and r.marks != rule(r.passed_at):
        said = _("the record gives {marks} marks for a pass at check {n}, where the rule gives {rule}")
        flags.append(said.format(marks=r.marks, n=r.passed_at, rule=rule(r.passed_at)))
    elif not r.shown and (r.marks is None) != (r.passed_at is None):
        flags.append(_("the record gives marks without a check that passed, or a pass without marks"))
    if r.hints > r.tries:
        flags.append(
            _("the record has more hints ({hints}) than checks ({tries}); a hint comes only after a failed check").format(hints=r.hints, tries=r.tries)
        )
    flags += time_flags(r)
    return flags


def time_flags(r: AttemptRecord) -> list[str]:
    """The record's check times against each other and its checks."""
    times = {}
    for name, value in (("first_check", r.first_check), ("last_check", r.last_check)):
        if value is None:
            continue
        try:
            times[name] = datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            return [_("the record's time {time} is no date").format(time=value)]
    if times and r.tries == 0:
        return [_("the record has check times, with no check made")]
    if len(times) == 2 and times["last_check"] < times["first_check"]:
        return [_("the record's last check ({last}) is before its first ({first})").format(last=r.last_check, first=r.first_check)]
    return []
