"""What a new element kind touches is written down (docs/engine.md, "What a new element
kind touches", measured by adding a spring in a throw-away branch) and held to the code
here, so that the list cannot silently grow: the engine's files that name more than one
member kind are the ones the table lists, with the kind's own two at most 6; each file
the table lists outside the engine is held to what makes a new kind touch it; and the map
of the kinds (engine/elements/kernels.py KINDS) holds together."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pytest

from equilibria.engine.elements.kernels import KINDS, MEMBERS
from equilibria.engine.model import READ_BY
from equilibria.engine.vocabulary import EXAMPLES, MEMBER_KINDS, MEMBER_WORDS
from equilibria.engine.warm import WARM_MODEL

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs/engine.md"
# The member kinds (engine/elements/kernels.py MEMBERS) and the model format's words
# for them (a cable is a bar): a new kind is counted here the moment it is registered.
KIND_OF = {**{kind: kind for kind in MEMBERS}, **READ_BY}
PER_KIND = tuple(f"{kind}_" for kind in MEMBERS)  # the engine's arrays and kernels of each kind: bar_ij, beam_EI, bar_forces, ...
MOST = 6  # the engine's files a new kind touches, its own module and test among them (issue 24, issue 31)
NEW = 2  # the table's rows for the kind's own module and test (engine/elements/<kind>.py, tests/test_<kind>.py)
SCHEMA = "levels/level.schema.json"


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


def rows() -> list[str]:
    """The files of the docs' table (its first column), in order."""
    return re.findall(r"^\| `([^`]+)` ", section(), flags=re.M)


def section() -> str:
    return DOC.read_text(encoding="utf-8").split("## What a new element kind touches", 1)[1].split("\n## ", 1)[0]


def listed() -> set[str]:
    """The existing engine files of the docs' table."""
    return {f for f in rows() if f.startswith("engine/") and (ROOT / f).exists()}


def test_every_file_that_names_the_element_kinds_is_in_the_docs_table():
    missing = dispatching() - listed()
    assert not missing, f"{sorted(missing)} name more than one member kind: ask the map (engine/elements/kernels.py KINDS), or list it in docs/engine.md"


def test_the_docs_table_lists_no_file_that_no_longer_names_them():
    stale = listed() - dispatching()
    assert not stale, f"{sorted(stale)} no longer name the member kinds: take them off docs/engine.md's table"


def test_a_new_element_kind_touches_at_most_the_files_counted():
    """Of the engine, the kind's own module and test and the existing files that name
    the kinds; the table's count is its rows."""
    assert len(listed()) + NEW <= MOST, sorted(listed())
    new = [f for f in rows() if not (ROOT / f).exists()]
    assert len(new) == NEW and all("<kind>" in f for f in new), new
    said = re.search(r"That is (\d+) files: (\d+) new and (\d+) existing", section())
    assert said and [int(n) for n in said.groups()] == [len(rows()), NEW, len(rows()) - NEW], said


def test_the_files_outside_the_engine_are_the_ones_a_kind_makes_needed():
    """The one file outside the engine holds what a new kind brings: the schema its name."""
    assert {f for f in rows() if not f.startswith(("engine/", "tests/"))} == {SCHEMA}
    schema = json.loads((ROOT / SCHEMA).read_text(encoding="utf-8"))
    assert list(MEMBER_KINDS) in [d.get("enum") for d in _walk(schema)]


def test_the_vocabulary_holds_what_the_game_reads_of_a_kind():
    """Every kind's word in every language the game speaks, every kind's example a valid
    entry of the level format, and a kind's own number (KIND_NUMBERS) a field of the
    entry that the level format bounds and refuses on any other kind."""
    from equilibria.app.session.terms import element_name
    from equilibria.engine.results import element_word
    from equilibria.format.schema import Member, member_model
    from equilibria.words.i18n import LANGUAGES, speaking

    for kind in MEMBER_KINDS:
        assert set(MEMBER_WORDS[kind]) == set(LANGUAGES) and all(MEMBER_WORDS[kind].values())
        Member.model_validate({"id": "AB", "i": "A", "j": "B", "kind": kind, "material": "steel", **EXAMPLES[kind]})
        for code in LANGUAGES:
            with speaking(code):
                assert element_name(element_word(kind)) == MEMBER_WORDS[kind][code]
    trial = member_model({"k": (("cable",), 1e9, "axial stiffness [N/m]")})  # as a spring's k would be
    entry = {"id": "AB", "i": "A", "j": "B", "material": "steel", "A": 1e-4}
    assert trial.model_validate({**entry, "kind": "cable", "k": 1e4}).k == 1e4
    for bad in ({"kind": "bar", "k": 1e4}, {"kind": "cable", "k": 0.0}, {"kind": "cable", "k": 2e9}):
        with pytest.raises(ValueError):
            trial.model_validate({**entry, **bad})
    assert "k" in trial.model_json_schema()["properties"]


def _walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


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


# ------------------------------------------------ the map of the kinds holds together
# (engine/elements/kernels.py KINDS): each kind answers for itself, by its name, and a
# name the map does not hold is an error, never another kind's arrays.


def mixed_model():
    """Members of every kind, in an order that mixes their rows (a beam between bars),
    and a triangle."""
    from builders import member, model

    from equilibria.engine.model import build_model

    data = model(
        [("A", 0.0, 0.0), ("B", 2.0, 0.0), ("C", 1.0, 1.5), ("D", 3.0, 1.5)],
        [member("AB", "A", "B"), member("BC", "B", "C", "beam", I=1e-6), member("AC", "A", "C", "cable", A=1e-4), member("CD", "C", "D", I=1e-7)],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],
        triangles=[{"id": "T", "nodes": ["B", "D", "C"], "material": "steel", "t": 0.01}],
    )
    return build_model(data, statics_only=True)


def test_every_format_kind_is_read_by_one_member_kind_with_its_own_columns():
    """Each of the model format's member kinds (engine/vocabulary.py) is read by exactly
    one registered member kind, which has its reader and columns in engine/model.py and
    its word for the student; nothing falls through to another kind's reader."""
    from equilibria.engine.model import _MEMBER_ROWS, FIELDS
    from equilibria.engine.vocabulary import MEMBER_WORDS

    formats = [f for kind in MEMBERS.values() for f in kind.formats]
    assert sorted(formats) == sorted(MEMBER_KINDS) and len(formats) == len(set(formats))
    assert set(READ_BY) == set(MEMBER_KINDS) == set(MEMBER_WORDS)
    assert set(_MEMBER_ROWS) == set(FIELDS) == set(MEMBERS)
    assert all({"ij", "cap_t", "cap_c"} <= set(FIELDS[kind]) for kind in MEMBERS)  # what the member record takes of every kind


def test_the_member_record_holds_each_kind_in_its_slice():
    """Every member has one row of the record, each kind its slice in the map's order;
    the record read through record_row is in member order."""
    from equilibria.engine.elements.kernels import kind_rows

    model = mixed_model()
    m = model.arrays
    assert sorted(model.record_row.tolist()) == list(range(len(model.member_ids)))
    for name, kind in MEMBERS.items():
        rows = kind_rows(m, name)
        assert rows.stop - rows.start == kind.count(m)
        assert sorted(model.record_row[model.members_by_kind[name]].tolist()) == list(range(rows.start, rows.stop))
    assert [model.member_slot[k][0] for k in np.argsort(model.record_row)] == ["bar", "bar", "bar", "beam"]


def test_the_on_flags_pair_with_the_blocks_by_name_not_by_position():
    """The stiffness takes each kind's on-flags by its name: the same flags handed in any
    order give the same matrix; flags for a kind the map does not hold, or missing one it
    does, are refused (two tests broke when a spring appended to a positional tuple
    shifted the triangles' flags onto it). The kind that is none is no word a kind could
    take."""
    from equilibria.engine.elements.kernels import kind_rows
    from equilibria.engine.linear import stiffness
    from equilibria.engine.results import all_on, element_blocks

    model = mixed_model()
    m = model.arrays
    on = all_on(m)
    assert list(on) == list(element_blocks(m, m.pos0)) == list(KINDS)
    on["bar"][1] = False  # the cable AC
    reversed_order = dict(reversed(list(on.items())))
    assert (stiffness(model, active=on) != stiffness(model, active=reversed_order)).nnz == 0
    assert (stiffness(model, active=on) != stiffness(model)).nnz > 0
    with pytest.raises(KeyError, match="no-such-kind"):
        stiffness(model, active={**on, "no-such-kind": np.ones(1, bool)})
    with pytest.raises(KeyError, match="triangle"):
        stiffness(model, active={k: v for k, v in on.items() if k != "triangle"})
    with pytest.raises(KeyError, match="no-such-kind"):
        kind_rows(m, "no-such-kind")


def test_a_member_reads_its_own_row_whatever_its_kind():
    """A record of any member reads that member's row of the record (no branch that
    reads the bars' arrays for whatever is not a beam); what a member does not record is
    refused."""
    from equilibria.engine.results import RECORDED, end_forces, member_reader, member_results
    from equilibria.engine.simulation import Simulation

    sim = Simulation(mixed_model(), "linear")
    sim.solve_linear()
    sim.state.member_out[1:] += np.arange(len(sim.model.member_ids))  # every record row its own shear and moments
    r = member_results(sim.model, sim.state)
    for k in range(len(sim.model.member_ids)):
        got = [member_reader(sim.model, sim.state, k, what)() for what in RECORDED]
        assert got == [r.axial[k], r.shear_i[k], r.moment_i[k], r.moment_j[k]]
    ij, end, end_j = end_forces(sim.model, sim.state, np.arange(len(sim.model.member_ids)))
    assert ij.tolist() == r.ends.tolist() and end_j.tolist() == r.moment_j.tolist()
    assert end.tolist() == np.column_stack((-r.axial, r.shear_i, r.moment_i)).tolist()
    with pytest.raises(ValueError, match="shear_j"):
        member_reader(sim.model, sim.state, 0, "shear_j")
