"""What the student may not see yet. A level whose kind hides its forces or its sums before
a pass (a zero-force or determinacy puzzle, a free body, a section, a balance: the forces
are the answer or its first step) keeps them hidden until the student passed it or had its
answer shown, which gave its marks up. One gate for everything that would show them:
`simulate` on the level's file, the sandbox made of a level, the level editor opened on one
(it shows the judge's answer), and, for every graded kind, the tutor's method."""

from __future__ import annotations

from equilibria.rules.kinds import KINDS


def answer_open(level_id: str, progress) -> bool:
    """Whether the student whose progress is `progress` (None: nobody's) passed the level or
    had its answer shown."""
    return progress is not None and (progress.won(level_id) or progress.shown(level_id))


def hides_answer(kind: str | None) -> bool:
    """Whether a level of `kind` (a kind's name; anything else: not a level) hides its forces
    or its sums until a pass."""
    found = KINDS.get(kind) if isinstance(kind, str) else None
    return found is not None and (found.hides_forces_until_checked or found.hides_sums_until_passed)


def withheld(kind: str | None, level_id: str | None, progress) -> bool:
    """Whether a level of `kind` with this id must not show its forces to the student yet."""
    return hides_answer(kind) and not (level_id and answer_open(level_id, progress))


def withheld_file(data, progress, name: str) -> str | None:
    """The level's id when the document `data` (read from a file named `name`, its stem) is
    a level whose forces are withheld (its id as the file says, else `name`: a copy under
    another id has no pass of its own either); None otherwise (a model file, a design, a
    build level, a level passed)."""
    if not isinstance(data, dict):
        return None
    level_id = data.get("id") if isinstance(data.get("id"), str) and data.get("id") else name
    return level_id if withheld(data.get("kind"), level_id, progress) else None
