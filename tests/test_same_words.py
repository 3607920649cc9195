"""The same words about a mechanism on every machine. Which basis of the null space a
solver returns depends on the machine's LAPACK; here the basis found is turned, flipped
and reordered at random (every basis of the same space is one of those), and the words,
the motion shown and the nodes that move must not change. The machine's own BLAS
settings are left alone."""

from __future__ import annotations

import re

import numpy as np
import pytest
from builders import member, model

from equilibria.course.level import load_level
from equilibria.course.syllabus import LEVELS_DIR, level_files
from equilibria.engine.linear import Mechanism, mechanism
from equilibria.engine.model import build_model
from equilibria.files.store import read_json
from equilibria.rules.motion import describe_motion

PIN, ROLLER_Y = ["x", "y"], ["y"]
TRIANGLE = [("A", 0, 0), ("B", 4, 0), ("C", 2, 2)]
TRIANGLE_BARS = [member("AB", "A", "B"), member("BC", "B", "C"), member("CA", "C", "A")]
BAY = [("A", 0, 0), ("B", 4, 0), ("C", 0, 3), ("D", 4, 3)]
BAY_BARS = [member("AC", "A", "C"), member("BD", "B", "D"), member("CD", "C", "D")]


def handmade() -> dict[str, dict]:
    return {
        "floating triangle": model(TRIANGLE, TRIANGLE_BARS),
        "triangle on one roller": model(TRIANGLE, TRIANGLE_BARS, [{"node": "A", "fix": ROLLER_Y}]),
        "triangle on a pin": model(TRIANGLE, TRIANGLE_BARS, [{"node": "A", "fix": PIN}]),
        "triangle and a loose bar": model([*TRIANGLE, ("D", 6, 0), ("E", 7, 1)], [*TRIANGLE_BARS, member("DE", "D", "E")]),
        "unbraced bay": model(BAY, BAY_BARS, [{"node": "A", "fix": PIN}, {"node": "B", "fix": PIN}]),
        "two unbraced bays": model(
            [*BAY, ("E", 8, 0), ("F", 8, 3)],
            [*BAY_BARS, member("EF", "E", "F"), member("DF", "D", "F")],
            [{"node": q, "fix": PIN} for q in "ABE"],
        ),
    }


def shipped() -> dict[str, dict]:
    """Every shipped level's structure as given (the empty solution), loads drawn as draw 0."""
    out = {}
    for path in level_files([LEVELS_DIR]):
        level = load_level(read_json(path))
        out[path.stem] = (level.drawn(0) if level.load_choices() else level).model_data()
    return out


CASES = {**handmade(), **shipped()}


def turned(free: Mechanism, rng: np.random.Generator) -> Mechanism:
    """The same space through another basis: turned by a random orthogonal matrix,
    columns flipped and reordered, and scaled."""
    k = free.count
    q, _ = np.linalg.qr(rng.standard_normal((k, k)))
    flips = rng.choice([-1.0, 1.0], size=k)
    order = rng.permutation(k)
    return Mechanism((free.basis @ q * flips)[:, order] * rng.uniform(0.1, 10.0, size=k), free.message)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_words_the_motion_and_the_moving_nodes_do_not_depend_on_the_basis(name):
    built = build_model(CASES[name], statics_only=True)
    free = mechanism(built)
    if free is None:
        pytest.skip("a structure: no free motion")
    words = describe_motion(built, free)
    assert not re.search(r"\de[-+]?\d", words), f"a figure in float notation: {words}"
    rng = np.random.default_rng(7)
    for _ in range(10):
        other = turned(free, rng)
        assert describe_motion(built, other) == words
        assert np.allclose(other.mode, free.mode, atol=1e-9)
        assert np.array_equal(other.moving(), free.moving())


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("floating triangle", "nothing holds the whole structure: no support touches it, so it can slide and turn freely"),
        ("triangle on one roller", "the whole structure can slide sideways and turn about node A"),
        ("triangle on a pin", "nodes B and C can turn together about node A"),
        ("unbraced bay", "nodes C and D can slide sideways together"),
        ("two unbraced bays", "nodes C, D and F can slide sideways together"),
    ],
)
def test_what_each_mechanism_is_called(name, words):
    built = build_model(CASES[name], statics_only=True)
    assert describe_motion(built, mechanism(built)) == words
