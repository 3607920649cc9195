"""The level editor's checks of a draft, worked out beside the frame in a thread of their
own. No pygame here.

What `equilibria validate` says of a draft builds the model and tries the ends of every
number's range; on a truss of 2,000 members that is about a second. Worked out in the
window's thread after each edit, the editor would draw nothing and answer nothing
meanwhile. Here the window asks for the checks of the draft as it is (`ask`, a key: the
draft as JSON, the student, the language), goes on drawing what the last finished
checks said with "checking…" beside it (`latest`), and a thread works out the newest
draft asked for, skipping any asked and overtaken meanwhile. Saving and playing wait for
the checks of the draft they act on (`result`); so do headless runs that must repeat
exactly (tests, recorded frames: `latest(…, wait=True)`).

An exception in the checks is raised again in the window's thread, where it would have
been raised without the thread: a bug is not turned into a silent "checking…".

An edit that takes seconds (K to a build level of thousands of members judges the drawn
design for its sag) is worked out in a thread too (`Pending`): the window draws "Making
the level…" meanwhile and takes no input, so no edit lands on a draft about to change.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class DraftChecks(Generic[T]):
    """`work(key)` worked out in a thread for the newest key asked."""

    def __init__(self, work: Callable[[str], T]):
        self.work = work
        self._asked: str | None = None
        self._done: tuple[str, T | None, BaseException | None] | None = None  # (key, what work gave, what it raised)
        self._running = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def ask(self, key: str) -> None:
        """The checks of `key` wanted: the thread starts on it (or takes it next)."""
        with self._changed:
            if key == self._asked:
                return
            self._asked = key
            if self._running:
                return
            self._running = True
        self._thread = threading.Thread(target=self._run, name="equilibria editor checks", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            with self._changed:
                key = self._asked
                if self._done is not None and self._done[0] == key:
                    self._running = False
                    self._changed.notify_all()
                    return
            try:
                done = (key, self.work(key), None)
            except Exception as exc:  # raised again in the window's thread (`_value`)
                done = (key, None, exc)
            with self._changed:
                self._done = done
                self._changed.notify_all()

    def latest(self, key: str, *, wait: bool = False) -> tuple[T | None, bool]:
        """(What the last finished checks gave, whether they are of an older key than
        `key`: still checking). None before any has finished. `wait`: until `key`'s are."""
        if wait:
            return self.result(key), False
        self.ask(key)
        with self._changed:
            done = self._done
        if done is None:
            return None, True
        return self._value(done), done[0] != key

    def result(self, key: str) -> T:
        """The checks of `key`, waited for."""
        self.ask(key)
        with self._changed:
            self._changed.wait_for(lambda: self._done is not None and self._done[0] == key)
            done = self._done
        return self._value(done)

    @staticmethod
    def _value(done):
        if done[2] is not None:
            raise done[2]
        return done[1]


class Pending:
    """One slow edit worked out in a thread of its own; `busy` while it runs. What it raises
    is raised again in the window's thread (`poll`, `wait`)."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def start(self, work: Callable[[], object]) -> None:
        self._thread = threading.Thread(target=self._run, args=(work,), name="equilibria editor edit", daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], object]) -> None:
        try:
            work()
        except Exception as exc:  # raised again in the window's thread
            self._error = exc

    @property
    def busy(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wait(self) -> None:
        """Until the edit is done (headless runs that must repeat exactly)."""
        if self._thread is not None:
            self._thread.join()
        self.poll()

    def poll(self) -> None:
        """What the finished edit raised, raised here."""
        if not self.busy and self._error is not None:
            error, self._error = self._error, None
            raise error
