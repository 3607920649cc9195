"""What a new element kind touches is written down (docs/engine.md, "What a new element
kind touches") and held to the code here, so that the list cannot silently grow: the
engine's files that name more than one element kind are the ones the table lists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from equilibria.engine.elements.kernels import MEMBERS
from equilibria.engine.model import READ_BY
from equilibria.engine.vocabulary import MEMBER_KINDS
from equilibria.engine.warm import WARM_MODEL

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/engine.md"
# The member kinds (engine/elements/kernels.py MEMBERS) and the model format's words
# for them (a cable is a bar): a new kind is counted here the moment it is registered.
KIND_OF = {**{kind: kind for kind in MEMBERS}, **READ_BY}
PER_KIND = tuple(f"{kind}_" for kind in MEMBERS)  # the engine's arrays and kernels of each kind: bar_ij, beam_EI, bar_forces, ...
MOST = 4  # existing files the table may list: with the kind's own module and test, 6 in all (issue 24)


def knows_the_kinds(source: str) -> bool:
    """Whether code names more than one member kind: the per-kind names of two kinds
    (bar_… beside beam_…), or words of two kinds in one tuple, list, set or dict's keys
    ("bar" and "cable" are one kind's)."""
    prefixes = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.alias):
            names = [node.asname or node.name]
        else:
            names = []
        prefixes.update(p for n in names for p in PER_KIND if n.startswith(p))
        items = node.keys if isinstance(node, ast.Dict) else node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else []
        if len({KIND_OF[e.value] for e in items if isinstance(e, ast.Constant) and e.value in KIND_OF}) >= 2:
            return True
    return len(prefixes) > 1


def dispatching() -> set[str]:
    return {p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "engine").rglob("*.py")) if knows_the_kinds(p.read_text(encoding="utf-8"))}


def listed() -> set[str]:
    """The existing files of the docs' table (its first column)."""
    section = DOC.read_text(encoding="utf-8").split("## What a new element kind touches", 1)[1].split("\n## ", 1)[0]
    files = set(re.findall(r"^\| `([^`]+)` \|", section, flags=re.M))
    return {f for f in files if (ROOT / f).exists()}


def test_every_file_that_names_the_element_kinds_is_in_the_docs_table():
    missing = dispatching() - listed()
    assert not missing, f"{sorted(missing)} name more than one element kind: gather that in engine/results.py, or list it in docs/engine.md"


def test_the_docs_table_lists_no_file_that_no_longer_names_them():
    stale = listed() - dispatching()
    assert not stale, f"{sorted(stale)} no longer name the element kinds: take them off docs/engine.md's table"


def test_a_new_element_kind_touches_at_most_the_files_counted():
    assert len(listed()) <= MOST, sorted(listed())


def test_the_warm_up_model_has_a_member_of_every_kind():
    """engine/warm.py builds it from engine/vocabulary.py: a kind missing there would
    compile its kernels while a level runs."""
    assert {m.get("kind", "bar") for m in WARM_MODEL["members"]} == set(MEMBER_KINDS)


def test_the_count_sees_a_dispatch_and_passes_over_one_kinds_own_code():
    assert knows_the_kinds('n = s.bar_N[row] if kind == "bar" else s.beam_out[row, 0]')
    assert knows_the_kinds('readers = {"bar": _bars, "beam": _beams}')
    assert knows_the_kinds('KINDS = ("cable", "beam")')
    assert not knows_the_kinds('FORMATS = ("bar", "cable")')  # a cable is a bar: one kind
    assert not knows_the_kinds("def beam_forces(m, pos):\n    return m.beam_EI * pos")
    assert not knows_the_kinds('if kind == "beam":\n    pass')
