"""What a play scene shows and runs: a level, or an empty sandbox. No pygame here.

A Stage is read once from a level file (`load_stage`) and never changes; the scene
builds the engine model from `model_data` and resets to it. World coordinates: metres,
y up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from equilibria.course.level import Level, drawn_version, load_level
from equilibria.files.store import BadInput, read_json
from equilibria.rules.judge import briefed
from equilibria.rules.variants import template, version
from equilibria.words.i18n import _
from equilibria.work.workbench import EMPTY_GROUND

EMPTY_BOUNDS = (-10.0, -1.0, 10.0, 8.0)  # what an empty sandbox shows [m]


@dataclass(frozen=True)
class Stage:
    """title, kind and brief as the level gives them; `level` is None for an empty
    sandbox, which has ground and nothing built on it."""

    title: str
    kind: str
    brief: str
    level: Level | None
    ground: tuple[tuple[float, float], ...]
    source: Path | None = None  # the file it was read from

    @classmethod
    def from_level(cls, level: Level, *, sandbox: bool = False, source: Path | None = None) -> Stage:
        level = version(level)  # a level that varies: its own numbers, until drawn_for gives a student's
        ground = tuple((float(x), float(y)) for x, y in level.world.ground or ())
        if sandbox and level.kind != "sandbox":
            brief = _(
                "The structure and loads of “{title}” to play with freely: no goal, no budget. Build, load, run, drag, nail and bomb it."
                " Gravity and loads come on over the first second of a run."
            ).format(title=level.title)
            return cls(_("Sandbox: {title}").format(title=level.title), "sandbox", brief, level.as_sandbox(), ground, source)
        plain = sandbox and not level.title.startswith(("Sandbox", _("Sandbox")))  # not "Sandbox: Sandbox"
        title = _("Sandbox: {title}").format(title=level.title) if plain else level.title
        brief = level.brief if sandbox else briefed(level)  # the level's words, then its assumptions
        return cls(title, "sandbox" if sandbox else level.kind, brief, level, ground, source)

    @property
    def varies(self) -> bool:
        """Whether the level draws numbers of its own for every student (game/rules/variants.py)."""
        return self.level is not None and template(self.level).vary is not None  # a sandbox made of a level has no vary

    def drawn_for(self, student: str | None, course: str | None = None) -> Stage:
        """This stage with `student`'s numbers in `course` (its code; None: no course),
        unless it holds one student's already (a solution shown with its own) or does not vary."""
        if not self.varies or student is None or self.level.student is not None:
            return self
        drawn = drawn_version(self.level, student, course, self.source or self.title)  # BadInput: these numbers make no level (the level's problem)
        return Stage.from_level(drawn, source=self.source)

    def drawn_for_solution(self, path: str) -> Stage:
        """This stage with the numbers of the student a solution file is stamped with (a
        teacher showing a student's work); as it is when the file has no stamp, or cannot
        be read or fitted (reading it for its moves then says why, in one line)."""
        try:
            data = read_json(path)
            student = data.get("student") if isinstance(data, dict) else None
            course = data.get("course") if isinstance(data, dict) else None
            return self.drawn_for(student if isinstance(student, str) else None, course if isinstance(course, str) else None)
        except (BadInput, ValueError):
            return self

    @classmethod
    def empty_sandbox(cls) -> Stage:
        brief = _(
            "An empty world with ground: build with the tools above (F1 lists them), load it, run it with Space, drag, nail and bomb it."
            " Gravity and loads come on over the first second of a run. Ctrl+S saves."
        )
        return cls(_("Sandbox"), "sandbox", brief, None, EMPTY_GROUND)

    def model_data(self) -> dict | None:
        """The engine's model (the level without goal and player), or None when there
        is nothing to simulate. A level that draws its loads at random shows draw 0."""
        if self.level is None:
            return None
        level = self.level.drawn(0) if self.level.load_choices() else self.level
        return level.model_data()

    @cached_property
    def named_parts(self) -> frozenset[str]:
        """The ids of the nodes and members the brief names, so that the scene labels
        those. Only the brief's: the explanation and the hints may name the answer (the
        members that carry nothing), and are shown, with their names, when they are said."""
        level = self.level
        if level is None:
            return frozenset()
        text = self.brief
        return named_in(text, [n.id for n in level.nodes] + [m.id for m in level.members])

    def supports(self) -> list[tuple[str, frozenset[str]]]:
        """(node id, locked DOFs) of every support, as the level states them."""
        if self.level is None:
            return []
        return [(s.node, frozenset(s.fix)) for s in self.level.supports if s.fix]  # a contact is drawn as its surface

    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) [m] of the nodes as built and the ground."""
        if self.level is None:
            return EMPTY_BOUNDS
        xs = [n.x for n in self.level.nodes] + [x for x, _ in self.ground]
        ys = [n.y for n in self.level.nodes] + [y for _, y in self.ground]
        return min(xs), min(ys), max(xs), max(ys)


WORD = re.compile(r"[\w-]+")  # what can stand beside an id without ending it: an id is a whole such run


def named_in(text: str, ids) -> frozenset[str]:
    """The ids that `text` names: an id as a word ("BD", "M1", "node B"), except the
    article "A" or "a" (a capital A starting a sentence before a word, "A truss is").

    One scan of the text, whatever the number of ids: each run of word characters and
    hyphens is looked up among the ids (an id is named only as such a whole run). An id
    with other characters in it (a space, a dot) is looked for on its own."""
    wanted = set(ids)
    plain = {i for i in wanted if WORD.fullmatch(i)}
    named = set()
    for found in WORD.finditer(text):
        word = found.group()
        if word in plain and word not in named and not _article(text, word, found.start(), found.end()):
            named.add(word)
    for ident in wanted - plain:  # rare: ids the scan cannot see as one word
        for found in re.finditer(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", text):
            if not _article(text, ident, found.start(), found.end()):
                named.add(ident)
                break
    return frozenset(named)


def _article(text: str, word: str, start: int, end: int) -> bool:
    """Whether `word` at text[start:end] is the article: "a", or "A" starting a sentence
    (after nothing, or after . ! ? : or a quote) before a lower-case word."""
    if word == "a":
        return True
    if word != "A":
        return False
    before = text[:start].rstrip()[-1:]  # the last character before it ("" at the start)
    opens = before == "" or before in '.!?:"'
    return opens and re.match(r"\s+[a-z]", text[end : end + 40]) is not None


def load_stage(path: str | Path, *, sandbox: bool = False) -> Stage:
    """The stage of a level file, or BadInput with one line: `file: field: problem`."""
    try:
        level = load_level(read_json(path))
    except ValueError as exc:
        raise BadInput(f"{path}: {str(exc).splitlines()[0]}") from None
    return Stage.from_level(level, sandbox=sandbox, source=Path(path))
