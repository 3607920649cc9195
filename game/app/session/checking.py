"""A check judged beside the frame, in a thread of its own. No pygame here.

A check runs the player's structure for up to the level's hold (seconds of simulated
time, some seconds of wall time on a large level). Judged in the window's own thread,
the window would draw nothing and answer nothing meanwhile. Here a thread judges the
question the attempt asks (game/work/attempt.py `Question`), while the window goes on
drawing and reads how far the judged run is (`said`: "Judging: 0.4 of 1.0 s held"); Esc
cancels it (`cancel`), and a cancelled check records nothing: the attempt is touched only
when the window's thread hands it the finished verdict (`Attempt.record`).

The judged runs build their own models and states from the level and the answer (they
share no array with the run the window shows), and the hook between two batches of a
judged run (game/rules/common.py BETWEEN_BATCHES) is set in the thread's own context, so
the window's thread never runs it.

Lock step, for headless runs that must repeat exactly (tests, `play --frames`): with
`batches`, each `step()` lets the thread judge that many batches and waits until it has,
so the same frames see the same progress whatever the machine's speed; free (None), the
thread runs on by itself and `step()` only looks. No thread outlives its check: `cancel`
and `close` join it.
"""

from __future__ import annotations

import contextvars
import threading

from equilibria.rules.common import BETWEEN_BATCHES, Verdict
from equilibria.words.i18n import _, decimal

ALL = 1 << 62  # lock step: every batch in one step (the check as good as judged in one frame)


class Cancelled(Exception):
    """Raised in the judging thread between two batches when the check is cancelled."""


class BackgroundCheck:
    """One check judged in its own thread. `judge` is called there and returns the
    verdict (or raises ValueError: the moves do not fit the level, said in `problem`)."""

    def __init__(self, judge, *, batches: int | None = None, question=None):
        self.judge = judge
        self.question = question  # what was asked (the attempt's Question), for the caller to record
        self.batches = batches  # lock step: batches per step (None: free)
        self.verdict: Verdict | None = None
        self.problem = ""  # the ValueError's first line, when the answer could not be judged
        self.time = self.held = self.hold = 0.0  # the judged run so far [s]: simulated, held, to hold
        self.cancelled = False
        self.finished = False  # judged, failed or cancelled: the thread is ending
        self._judged_batches = 0  # batches of the judged runs done so far
        self._granted = 0  # lock step: batches the steps so far let the thread judge
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="equilibria check", daemon=True)

    def start(self) -> BackgroundCheck:
        self._thread.start()
        return self

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        context = contextvars.copy_context()  # the hook below is this thread's alone
        try:
            verdict = context.run(self._judged)
        except Cancelled:
            verdict = None
        except ValueError as exc:
            verdict, self.problem = None, str(exc).splitlines()[0]
        with self._changed:
            self.verdict = verdict
            self.finished = True
            self._changed.notify_all()

    def _judged(self) -> Verdict:
        BETWEEN_BATCHES.set(self._between_batches)
        return self.judge()

    def _between_batches(self, time: float, held: float, hold: float) -> None:
        with self._changed:
            self.time, self.held, self.hold = time, held, hold
            self._judged_batches += 1
            self._changed.notify_all()
            self._changed.wait_for(lambda: self.batches is None or self._judged_batches < self._granted or self.cancelled)
            if self.cancelled:
                raise Cancelled

    # ------------------------------------------------------------------ what the window asks
    def step(self) -> bool:
        """One frame's look: in lock step, let the thread judge its batches and wait for
        them (after k steps, k times `batches` are judged, however fast the thread is);
        whether the check is finished (its thread then joined)."""
        if self.batches is not None and not self.finished:
            with self._changed:
                self._granted += self.batches
                self._changed.notify_all()
                self._changed.wait_for(lambda: self._judged_batches >= self._granted or self.finished)
        if self.finished:
            self._thread.join()
        return self.finished

    def wait(self) -> Verdict | None:
        """Judge to the end (the thread freed of any lock step); the verdict, None if the
        check was cancelled or could not be judged."""
        with self._changed:
            self.batches = None
            self._changed.notify_all()
        self._thread.join()
        return self.verdict

    def cancel(self) -> None:
        """Stop the judged run at its next batch, record nothing, and join the thread."""
        with self._changed:
            self.cancelled = True
            self._changed.notify_all()
        if self._thread.is_alive():
            self._thread.join()
        self.verdict = None

    def said(self) -> str:
        """How far judging is, for the player: the simulated time held of the hold (and
        the time run, when the structure has not held all of it)."""
        if self.hold <= 0.0:
            return _("Judging: starting the run…")
        held, hold = decimal(self.held, 1), decimal(self.hold, 1)
        if self.time - self.held < 1e-9:
            return _("Judging: {held} of {hold} s held").format(held=held, hold=hold)
        return _("Judging: {time} s run, held at rest {held} of {hold} s").format(time=decimal(self.time, 1), held=held, hold=hold)
