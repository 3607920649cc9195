"""The model file's words have one home (engine/vocabulary.py): the engine's model
builder (engine/model.py) and the level format (game/format/schema.py) read them there, so that
the two accept and refuse the same words. Checked on hostile entries, each given to both:
the engine's build_model and the format's pydantic model of that entry."""

from __future__ import annotations

import subprocess
import sys
import typing

import pytest
from builders import STEEL, model
from pydantic import ValidationError

from equilibria.engine import vocabulary as words
from equilibria.engine.model import ModelError, build_model
from equilibria.format import schema as level_format

NODES = [("A", 0.0, 0.0), ("B", 2.0, 0.0), ("C", 1.0, 1.0)]
BEAM = {"id": "AB", "i": "A", "j": "B", "kind": "beam", "material": "steel", "A": 1e-3, "I": 1e-6}
TRIANGLE = {"id": "T", "nodes": ["A", "B", "C"], "material": "steel", "t": 0.01}

# (what, the part of the model file, the entry): entries the two must judge alike.
ENTRIES = [
    ("a cable", "members", {**BEAM, "kind": "cable"}),
    ("a stability beam pinned at both ends", "members", {**BEAM, "formulation": "stability", "release": ["i", "j"]}),
    ("a kind no engine has", "members", {**BEAM, "kind": "no-such-kind"}),  # no word a new kind could take (a spring, say)
    ("a kind in capitals", "members", {**BEAM, "kind": "BEAM"}),
    ("a formulation no engine has", "members", {**BEAM, "formulation": "elastica"}),
    ("a released end that is no end", "members", {**BEAM, "release": ["k"]}),
    ("a Neo-Hookean plate", "triangles", {**TRIANGLE, "model": "neo_hookean"}),
    ("a plate law no engine has", "triangles", {**TRIANGLE, "model": "hyperelastic"}),
    ("a support fixing a z", "supports", {"node": "A", "fix": ["x", "z"]}),
    ("a support fixing the rotation", "supports", {"node": "A", "fix": ["x", "y", "rot"]}),
    ("a member load along the normal", "member_loads", {"member": "AB", "w": -1e3, "direction": "normal"}),
    ("a member load along a tangent", "member_loads", {"member": "AB", "w": -1e3, "direction": "tangent"}),
    ("a member load with a field of its own", "member_loads", {"member": "AB", "w": -1e3, "q": 2.0}),
    ("a roller on a slope", "supports", {"node": "A", "fix": ["rot"], "roller": {"angle": 30.0}}),
    ("a roller with a field of its own", "supports", {"node": "A", "fix": ["rot"], "roller": {"angle": 30.0, "mu": 0.1}}),
    ("a contact with friction", "supports", {"node": "A", "contact": {"normal": [0.0, 1.0], "mu": 0.3}}),
    ("a contact with a field of its own", "supports", {"node": "A", "contact": {"normal": [0.0, 1.0], "mu": 0.3, "angle": 5.0}}),
]
FORMAT = {"members": level_format.Member, "triangles": level_format.Triangle, "supports": level_format.Support, "member_loads": level_format.MemberLoad}
# Poisson's ratio at, below and past its limit, and below its floor.
RATIOS = [0.0, 0.3, 0.4999, words.POISSON_LIMIT, 0.6, -0.1]


def engine_refuses(data: dict) -> str | None:
    """The field the engine names in refusing `data`, or None when it builds it."""
    try:
        build_model(data, statics_only=True)
    except ModelError as exc:
        return exc.field
    return None


def engine_accepts(data: dict) -> bool:
    return engine_refuses(data) is None


def format_accepts(cls, entry: dict) -> bool:
    try:
        cls.model_validate(entry)
    except ValidationError:
        return False
    return True


def whole(part: str, entry: dict) -> dict:
    """A model of a beam AB and the nodes A, B, C with `entry` in `part`."""
    data = model(NODES, [BEAM] if part != "members" else [entry], supports=[{"node": "A", "fix": ["x", "y", "rot"]}])
    if part == "supports":
        data["supports"] = [entry]
    elif part != "members":
        data[part] = [entry]
    return data


@pytest.mark.parametrize(("what", "part", "entry"), ENTRIES, ids=[e[0] for e in ENTRIES])
def test_the_engine_and_the_level_format_judge_an_entry_alike(what, part, entry):
    refused = engine_refuses(whole(part, entry))
    assert (refused is None) == format_accepts(FORMAT[part], entry), what
    assert refused is None or refused.startswith(f"{part}[0]."), f"{what}: refused for {refused}, not for the entry"


def test_both_judge_good_and_hostile_entries_not_all_alike_by_accident():
    """The cases above hold both verdicts: the test fails if one side accepts all."""
    verdicts = {engine_accepts(whole(part, entry)) for _, part, entry in ENTRIES}
    assert verdicts == {True, False}


@pytest.mark.parametrize("nu", RATIOS)
def test_poissons_ratio_has_one_limit(nu):
    material = {**STEEL, "nu": nu}
    data = model(NODES, [BEAM], supports=[{"node": "A", "fix": ["x", "y", "rot"]}], materials={"steel": material})
    assert engine_accepts(data) == format_accepts(level_format.Material, material)
    assert engine_accepts(data) == (0.0 <= nu < 0.5)  # the closed range, written out here on its own


def test_the_level_format_offers_the_engines_words():
    """The schema's choices are the engine's (what `equilibria validate` and the schema
    file list), in the engine's order."""
    fields = level_format.Member.model_fields
    assert typing.get_args(fields["kind"].annotation) == words.MEMBER_KINDS
    assert typing.get_args(level_format.Section.model_fields["kind"].annotation) == words.MEMBER_KINDS
    assert typing.get_args(level_format.BeamFormulation) == words.BEAM_FORMULATIONS
    assert typing.get_args(level_format.Dof) == words.DOF_NAMES
    assert typing.get_args(level_format.Triangle.model_fields["model"].annotation) == words.TRIANGLE_MODELS


@pytest.mark.parametrize(
    ("cls", "fields"),
    [
        (level_format.Roller, words.ROLLER_FIELDS),
        (level_format.Contact, words.CONTACT_FIELDS),
        (level_format.MemberLoad, words.MEMBER_LOAD_FIELDS),
        (level_format.GroundMotion, words.GROUND_MOTION_FIELDS),
    ],
    ids=["roller", "contact", "member load", "ground motion"],
)
def test_the_level_format_has_the_fields_the_engine_allows(cls, fields):
    assert set(cls.model_fields) == set(fields)


def test_reading_the_words_loads_neither_numba_nor_the_kernels():
    """The level format is read at the game's start, before the engine warms up."""
    code = "import sys, equilibria.format.schema; print(sorted(m for m in ('numba', 'equilibria.engine.model') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]"
