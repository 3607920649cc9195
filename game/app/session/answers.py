"""One answer typed in, the same way for the three things a student types: a force at a
node (Fx, Fy or size @ angle, kN), a moment at a node (kN·m) and the force in a member a
section cuts (kN). `Asked` is what the box asks for: where, what is given there already
(which the new answer replaces: Enter replaces it, Esc keeps it), whether 0 is an answer
there (a cut that carries nothing: the kind says, `Kind.zero_answers`) and how large a
value is a slip of units (1,000 typed in kN for 1,000 N: `loads_in_all`); how the text
typed reads (the one grammar, game/words/figures.py); and `give`, which hands the answer to
the bench and returns its refusal, said in the box, which stays open. No pygame: the box
that takes the keys is game/app/widgets/entry.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from equilibria.app.session.play import TRY_FIRST
from equilibria.rules.equilibrium import TYPED_PAST, loads_in_all
from equilibria.rules.kinds import kind_of
from equilibria.words.figures import figure, signed, typed_force, typed_member_force, typed_moment
from equilibria.words.i18n import _
from equilibria.work.workbench import Refused

FORCE, MOMENT, MEMBER = "force", "moment", "member"

Value = tuple[float, float] | float | None  # (fx, fy) [N]; m [N m]; a member's N [N] (None: cut, its force given later)


@dataclass(frozen=True)
class Asked:
    """what   FORCE, MOMENT or MEMBER
    at        the node (a force, a moment) or the member (its force)
    now       what the student gave there already (None: nothing, or a member cut without its force)
    zero      a force or a moment of nothing is an answer here (a member's force of 0 always is)
    most      [N, or N m for a moment]: a value larger is a slip of units, said before it is kept
    """

    what: str
    at: str
    now: Value = None
    zero: bool = False
    most: float | None = None

    def read(self, text: str) -> Value:
        """What `text` gives; ValueError with a sentence when it is none."""
        if self.what == MOMENT:
            return typed_moment(text, zero=self.zero)
        if self.what == MEMBER:
            value = typed_member_force(text)
            if value is None and self.now is not None:
                raise ValueError(_("Type the new force in kN, or Esc to keep yours."))
            return value
        return typed_force(text, zero=self.zero)

    def same(self, value: Value) -> bool:
        """Whether `value` is what is given already (Enter then changes nothing)."""
        return self.now is not None and value == self.now

    def too_large(self, value: Value) -> bool:
        """Whether `value` is past `most`: kN typed for N, most likely."""
        if self.most is None or value is None:
            return False
        size = abs(complex(*value)) if isinstance(value, tuple) else abs(value)
        return size > self.most

    def unit_words(self) -> str:
        """What the box says of a value past `most`, before a second Enter keeps it. It
        names no load: a total load can be what a level asks for (beam-01)."""
        if self.what == MOMENT:
            return _("That is far more than this level's loads could need: moments are in kN·m (1 kN·m = 1000 N·m). Enter again keeps it.")
        return _("That is far more than this level's loads could need: forces are in kN (1 kN = 1000 N). Enter again keeps it.")

    def head(self) -> str:
        if self.what == MOMENT:
            return _("Moment at {node} (kN·m):").format(node=self.at)
        if self.what == MEMBER:
            return _("Force in member {member} (kN):").format(member=self.at)
        return _("Force at {node} (kN):").format(node=self.at)

    def prompt(self) -> str:
        """How to type it, while what is typed reads as nothing."""
        if self.what == MOMENT:
            return _("counter-clockwise positive, like 12 or -4.5")
        if self.what == MEMBER:
            return _("tension positive, like 12.5 or -40; nothing: cut it now, give its force later")
        return _("Fx, Fy (0, -10) or size @ angle (10 @ 270); + is right and up, angles anticlockwise from →")

    def zero_words(self) -> str:
        """Where 0 is an answer, a line that says so ("" elsewhere)."""
        if not self.zero:
            return ""
        if self.what == MOMENT:
            return _("0: no moment here (a cut that carries none)")
        return _("0: no force here (a cut that carries none)")

    def replaces(self) -> str:
        """What the answer replaces, in words ("" where nothing is given yet)."""
        if self.now is None:
            return ""
        if self.what == FORCE:
            fx, fy = self.now
            return _("replaces your Fx {fx}, Fy {fy} here").format(fx=signed(fx / 1e3, "kN"), fy=signed(fy / 1e3, "kN"))
        return _("replaces your {answer} here").format(answer=self.words(self.now).removeprefix("= "))

    def reads(self, text: str) -> str:
        """What `text` reads as, in the game's figures ("−" for minus), or "" while it
        reads as nothing."""
        try:
            value = self.read(text)
        except ValueError:
            return ""
        return "" if value is None else self.words(value)

    def words(self, value: Value) -> str:
        if self.what == MEMBER:
            n = value
            words = _("= {force} kN of tension") if n > 0 else _("= {force} kN of compression") if n < 0 else _("= {force} kN of nothing")
            return words.format(force=figure(abs(n) / 1e3))
        if self.what == MOMENT:
            m = value
            if m == 0:
                return _("= 0 kN·m: no moment")
            words = _("= {moment} kN·m counter-clockwise") if m > 0 else _("= {moment} kN·m clockwise")
            return words.format(moment=figure(abs(m) / 1e3))
        fx, fy = value
        if fx == 0 and fy == 0:
            return _("= 0 kN: no force")
        angle = f"{round(math.degrees(math.atan2(fy, fx))) % 360}°"  # rounded first: 359.7° is 0°, not 360°
        return _("= Fx {fx}, Fy {fy}: {size} kN at {angle}").format(
            fx=signed(fx / 1e3, "kN"), fy=signed(fy / 1e3, "kN"), size=figure(math.hypot(fx, fy) / 1e3), angle=angle
        )


def asked(session, what: str, at: str) -> Asked:
    """The answer `session`'s student types at `at` (a node, or a member for MEMBER)."""
    bench = session.level_bench
    if bench is None:  # the sandbox: a load of the player's design, nothing to replace or to judge
        return Asked(what, at)
    now = bench.own_moment(at) if what == MOMENT else bench.cuts().get(at) if what == MEMBER else bench.own_force(at)
    force, moment = loads_in_all(bench.level)
    about = kind_of(bench.level.kind)
    zero = about is not None and about.zero_answers
    return Asked(what, at, now, zero, TYPED_PAST * (moment if what == MOMENT else force))


def give(session, answer: Asked, value: Value) -> str:
    """Hand `value` to the session's bench as `answer` asks it: "" when it was taken, else
    why not (the box says it and stays open)."""
    if answer.same(value):
        return ""  # as it was: no edit to undo
    if session.verdict is not None:
        return _(TRY_FIRST)
    bench = session.bench
    try:
        if answer.what == MEMBER:
            bench.cut_member(answer.at, value)
        elif answer.what == MOMENT:
            bench.add_moment(answer.at, value)
        else:
            bench.add_force(answer.at, *value)
    except Refused as exc:
        return str(exc)
    session.notice = ""
    return ""
