"""Every element kind's tangent against central differences of its own forces, at random
deformed states, and its small-displacement block against the tangent at rest and the
textbook matrices.

Glossary: K the stiffness d(internal force)/d(position) [N/m, N, N m per m or rad];
h the finite-difference step [m or rad]; the internal force is minus the force the
element puts on its nodes (eval_forces with no load, no gravity, no damping).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from builders import member, model

from equilibria.engine.dynamics import new_state
from equilibria.engine.elements.kernels import eval_forces
from equilibria.engine.model import build_model
from equilibria.engine.results import element_blocks

STEEL = {"E": 200e9, "density": 7850.0, "nu": 0.3}
RUBBER = {"E": 1e7, "density": 1000.0, "nu": 0.3}
TRIANGLE = [("A", 0.0, 0.0), ("B", 1.3, 0.2), ("C", 0.4, 0.9)]


def one(kind: str) -> dict:
    """A model of one element of `kind`, free in the plane."""
    if kind in ("bar", "cable"):
        return model([("A", 0.0, 0.0), ("B", 1.2, 0.5)], [member("E", "A", "B", kind)])
    if kind.startswith("beam"):
        beam = member("E", "A", "B", "beam", A=2e-3, I=3e-6)
        if kind.startswith("beam stability"):
            beam["formulation"] = "stability"
        if "pinned" in kind:
            beam["release"] = list(kind.split()[-1])  # "i", "j" or both
            beam["formulation"] = "stability" if "stability" in kind else "arcade"
        return model([("A", 0.0, 0.0), ("B", 2.0, 0.7)], [beam])
    tri = {"id": "E", "nodes": ["A", "B", "C"], "material": "m", "t": 0.01, "model": "linear" if kind == "triangle" else "neo_hookean"}
    return model(TRIANGLE, triangles=[tri], materials={"m": STEEL if kind == "triangle" else RUBBER})


PINNED = [f"beam {form}pinned {ends}" for form in ("", "stability ") for ends in ("i", "j", "ij")]  # released ends (engine/elements/beam.py)
KINDS = ["bar", "cable", "beam", "beam stability", *PINNED, "triangle", "neo_hookean"]
# Deformation sizes: a strain of up to ~1 % for the stiff elements (steel), 20 % for
# rubber, where the Neo-Hookean law is far from linear; for the beam with stability
# functions up to ~0.4 %, an axial force from 1.2 × its pinned Euler load in compression
# to as much in tension (AL²/I = 3000); beam end rotations up to 0.05 rad. All in a frame
# turned by any angle up to 7 rad, past a full turn.
STRAIN = {"bar": 0.01, "cable": 0.01, "beam": 0.01, "beam stability": 2e-3, "triangle": 0.01, "neo_hookean": 0.2}
STRAIN.update({kind: STRAIN["beam stability" if "stability" in kind else "beam"] for kind in PINNED})


def internal(m, pos, chord):
    force = np.zeros_like(pos)
    s = new_state(m)._replace(chord=chord)  # every element on
    eval_forces(m, s, pos, np.zeros_like(pos), 0.0, force)
    return -force.ravel()


def deformed(m, kind, rng):
    """A random state: every node moved by up to STRAIN × the element's size (cables
    stretched, so that they are taut; the slack case is its own test), rotations by up to
    0.05 rad, then the whole turned by a random angle up to 7 rad about the origin."""
    pos = m.pos0.copy()
    size = float(np.ptp(pos[:, :2]))
    pos[:, :2] += rng.uniform(-1, 1, size=(len(pos), 2)) * STRAIN[kind] * size
    if kind == "cable":
        pos[1, :2] = pos[0, :2] + (1.0 + STRAIN[kind] * rng.uniform(0.1, 1.0)) * (m.pos0[1, :2] - m.pos0[0, :2])
    pos[:, 2] = rng.uniform(-0.05, 0.05, size=len(pos)) if len(m.beam_L0) else 0.0
    angle = rng.uniform(-7.0, 7.0)
    c, s = math.cos(angle), math.sin(angle)
    x, y = pos[:, 0].copy(), pos[:, 1].copy()
    pos[:, 0], pos[:, 1] = c * x - s * y, s * x + c * y
    pos[:, 2] += angle if len(m.beam_L0) else 0.0
    chord = m.beam_chord0 + angle
    return pos, chord


def global_tangent(m, pos, chord, *, tangent=True):
    K = np.zeros((pos.size, pos.size))
    for ke, dofs in element_blocks(m, pos, chord, tangent=tangent).values():
        for e in range(len(ke)):
            K[np.ix_(dofs[e], dofs[e])] += ke[e]
    return K


def differences(m, pos, chord, h):
    K = np.zeros((pos.size, pos.size))
    for c in range(pos.size):
        up, down = pos.copy(), pos.copy()
        up.ravel()[c] += h
        down.ravel()[c] -= h
        K[:, c] = (internal(m, up, chord) - internal(m, down, chord)) / (2.0 * h)
    return K


@pytest.mark.parametrize("kind", KINDS)
def test_every_tangent_is_the_derivative_of_its_forces(kind):
    """At 20 random deformed states per kind. Central differences err by h²/6 · f''' and
    by round-off ε|f|/h; with h = 1e-6 of the element's size both are ~1e-10 of the
    largest entry (measured 0.9–2.2e-10 for every kind), so 1e-6 of it separates a right
    tangent from a wrong one: leaving out the geometric stiffness errs by 0.9–38e-3 of it
    at these states."""
    m = build_model(one(kind), statics_only=True).arrays
    rng = np.random.default_rng(17)
    size = float(np.ptp(m.pos0[:, :2]))
    for _ in range(20):
        pos, chord = deformed(m, kind, rng)
        K = global_tangent(m, pos, chord)
        fd = differences(m, pos, chord, 1e-6 * size)
        scale = np.abs(K).max()
        assert np.abs(K - K.T).max() <= 1e-9 * scale, "not symmetric"
        assert np.abs(fd - K).max() <= 1e-6 * scale, f"worst {np.abs(fd - K).max() / scale:.2e} of the largest entry"


def test_a_slack_cable_has_no_stiffness():
    m = build_model(one("cable"), statics_only=True).arrays
    pos = m.pos0.copy()
    pos[1, :2] = 0.99 * pos[1, :2]
    assert not global_tangent(m, pos, m.beam_chord0).any()


@pytest.mark.parametrize("kind", KINDS)
def test_the_small_displacement_block_is_the_tangent_at_rest(kind):
    """At the start (no stress) both are the same matrix, to round-off."""
    m = build_model(one(kind), statics_only=True).arrays
    small = global_tangent(m, m.pos0, m.beam_chord0, tangent=False)
    rest = global_tangent(m, m.pos0, m.beam_chord0)
    assert np.abs(small - rest).max() <= 1e-12 * np.abs(rest).max()


def test_the_small_displacement_blocks_are_the_textbook_ones():
    """The frame element Tᵀ k T (EA/L; 12EI/L³, 6EI/L², 4EI/L, 2EI/L) and the
    constant-strain triangle A t Bᵀ D B (plane stress), written out here independently."""
    m = build_model(one("beam"), statics_only=True).arrays
    (L,), (EA,), (EI,) = m.beam_L0, m.beam_EA, m.beam_EI
    a, b12, b6, b4, b2 = EA / L, 12 * EI / L**3, 6 * EI / L**2, 4 * EI / L, 2 * EI / L
    k = np.array(
        [
            [a, 0, 0, -a, 0, 0],
            [0, b12, b6, 0, -b12, b6],
            [0, b6, b4, 0, -b6, b2],
            [-a, 0, 0, a, 0, 0],
            [0, -b12, -b6, 0, b12, -b6],
            [0, b6, b2, 0, -b6, b4],
        ]
    )
    c, s = math.cos(m.beam_chord0[0]), math.sin(m.beam_chord0[0])
    T = np.kron(np.eye(2), np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]]))
    assert global_tangent(m, m.pos0, m.beam_chord0, tangent=False) == pytest.approx(T.T @ k @ T, rel=1e-12, abs=1e-12 * b4)

    m = build_model(one("triangle"), statics_only=True).arrays
    (x1, y1), (x2, y2), (x3, y3) = (p[:2] for p in m.pos0)
    area = 0.5 * ((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))
    bb, cc = [y2 - y3, y3 - y1, y1 - y2], [x3 - x2, x1 - x3, x2 - x1]
    B = np.zeros((3, 6))
    B[0, 0::2], B[1, 1::2], B[2, 0::2], B[2, 1::2] = bb, cc, cc, bb
    B /= 2 * area
    E, nu = STEEL["E"], STEEL["nu"]
    D = E / (1 - nu**2) * np.array([[1, nu, 0], [nu, 1, 0], [0, 0, (1 - nu) / 2]])
    K = np.zeros((9, 9))
    dofs = [0, 1, 3, 4, 6, 7]
    K[np.ix_(dofs, dofs)] = area * 0.01 * B.T @ D @ B
    assert global_tangent(m, m.pos0, m.beam_chord0, tangent=False) == pytest.approx(K, rel=1e-12, abs=1e-12 * np.abs(K).max())
