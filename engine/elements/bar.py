"""The bar and the cable: pin-ended, axial only; a cable is a bar that carries tension
only. Its internal forces, its tangent and its small-displacement block, derived once.

Glossary: EA axial rigidity [N]; L0 rest length [m]; L current length [m];
k = EA/L0 [N/m]; c axial damping [N s/m]; N axial force [N], tension positive;
e = (x_j − x_i)/L the unit chord; DOFs of a bar (x_i, y_i, x_j, y_j).

Force: N = k (L − L0) + c L̇ along the chord, zero for a slack cable (L < L0 or N < 0).
The internal force (the gradient of ½ k (L − L0)²) is N (−e, e).
Tangent: d(N e)/dx_j = k e eᵀ + (N/L)(I − e eᵀ), the material and the geometric
stiffness (the chord turns under N); a slack cable has none. At rest (N = 0) it is the
small-displacement block k e eᵀ (bar_blocks, in numpy: the model builder needs it, and
a first start should compile nothing for that).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from equilibria.engine.compiled.options import INNER, KERNEL
from equilibria.engine.elements.kind import MemberKind


@njit(**INNER, inline="always")
def bar_forces(m, pos, vel, on, force, out, lo):
    """Add every active bar's and cable's force to force (N, 3) [N]. The bars are rows lo
    to lo + B of the member record (engine/elements/kind.py): on (M,) bool their
    on-flags, out (4, M) where each writes its N [N] (out[0]; a bar's V and moments stay
    0)."""
    for e in range(m.bar_ij.shape[0]):
        r = lo + np.uint64(e)  # unsigned: no handling of negative indices (engine/model.py INDEX)
        if not on[r]:
            out[0, r] = 0.0
            continue
        i = m.bar_ij[e, 0]
        j = m.bar_ij[e, 1]
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        L = math.sqrt(dx * dx + dy * dy)
        inv_L = 1.0 / L
        N = m.bar_k[e] * (L - m.bar_L0[e])
        c = m.bar_c[e]
        # Damping and cable slack behind one test that a plain bar fails: on its own, the
        # cable test is compiled into a branchless select on the way from L to the forces,
        # which made this loop 20 % slower on a truss of plain bars.
        if c != 0.0 or m.bar_cable[e]:
            if c != 0.0:
                N += c * ((vel[j, 0] - vel[i, 0]) * dx + (vel[j, 1] - vel[i, 1]) * dy) * inv_L
            if m.bar_cable[e] and (L < m.bar_L0[e] or N < 0.0):
                N = 0.0  # a slack cable carries nothing
        fx = N * dx * inv_L
        fy = N * dy * inv_L
        force[i, 0] += fx
        force[i, 1] += fy
        force[j, 0] -= fx
        force[j, 1] -= fy
        out[0, r] = N


@njit(**INNER, inline="always")
def bar_energy(m, pos, on, lo):
    """Strain energy [J] of the active bars and taut cables: ½ k (L − L0)² (on: the
    member record's on-flags, the bars from row lo)."""
    u = 0.0
    for e in range(m.bar_ij.shape[0]):
        if on[lo + np.uint64(e)]:
            i = m.bar_ij[e, 0]
            j = m.bar_ij[e, 1]
            L = math.hypot(pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1])
            d = L - m.bar_L0[e]
            if not (m.bar_cable[e] and d < 0.0):
                u += 0.5 * m.bar_EA[e] / m.bar_L0[e] * d * d
    return u


@njit(**KERNEL)
def bar_tangents(m, pos, tension_only, ke):
    """Each bar's tangent (B, 4, 4) [N/m] at pos, written to ke, on its DOFs (x_i, y_i,
    x_j, y_j) (see bar_dofs); a slack cable's is zero. tension_only: leave out the
    geometric stiffness of compression (what is left is positive semi-definite: a
    matrix Newton can always iterate with, see engine/newmark.py)."""
    for e in range(m.bar_ij.shape[0]):
        i = m.bar_ij[e, 0]
        j = m.bar_ij[e, 1]
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        L = math.sqrt(dx * dx + dy * dy)
        ex = dx / L
        ey = dy / L
        k = m.bar_k[e]
        N = k * (L - m.bar_L0[e])
        if m.bar_cable[e] and N < 0.0:
            k = 0.0
            N = 0.0
        g = N / L if (N > 0.0 or not tension_only) else 0.0
        kxx = k * ex * ex + g * (1.0 - ex * ex)
        kxy = k * ex * ey - g * ex * ey
        kyy = k * ey * ey + g * (1.0 - ey * ey)
        for a in range(2):
            for b in range(2):
                sign = 1.0 if a == b else -1.0
                ke[e, 2 * a, 2 * b] = sign * kxx
                ke[e, 2 * a, 2 * b + 1] = sign * kxy
                ke[e, 2 * a + 1, 2 * b] = sign * kxy
                ke[e, 2 * a + 1, 2 * b + 1] = sign * kyy


def bar_blocks(m, pos: np.ndarray) -> np.ndarray:
    """Each bar's small-displacement block (B, 4, 4) [N/m] at the geometry pos: k e eᵀ
    on (x_i, y_i, x_j, y_j) with signs [[+, −], [−, +]] (the tangent at rest). numpy,
    so that building a model compiles nothing."""
    i, j = m.bar_ij[:, 0].astype(np.int64), m.bar_ij[:, 1].astype(np.int64)
    d = pos[j, :2] - pos[i, :2]
    e = d / np.hypot(d[:, 0], d[:, 1])[:, None]
    g = np.concatenate((-e, e), axis=1)  # dL/d(x_i, y_i, x_j, y_j)
    return m.bar_k[:, None, None] * g[:, :, None] * g[:, None, :]


def bar_dofs(m) -> np.ndarray:
    """(B, 4) int64 global DOFs (3q + d) of each bar's (x_i, y_i, x_j, y_j)."""
    i, j = m.bar_ij[:, 0].astype(np.int64), m.bar_ij[:, 1].astype(np.int64)
    return np.stack([3 * i, 3 * i + 1, 3 * j, 3 * j + 1], axis=1)


def bar_axial_small(m, u: np.ndarray) -> np.ndarray:
    """Axial forces (B,) [N] for small displacements u (N, 3) from the start:
    N = k e·(u_j − u_i), the block's own law (cables not switched off here)."""
    i, j = m.bar_ij[:, 0].astype(np.int64), m.bar_ij[:, 1].astype(np.int64)
    d = m.pos0[j, :2] - m.pos0[i, :2]
    e = d / np.hypot(d[:, 0], d[:, 1])[:, None]
    return m.bar_k * np.einsum("ek,ek->e", e, u[j, :2] - u[i, :2])


def bar_small(m, u: np.ndarray) -> np.ndarray:
    """(B, 4) [N, V, M_i, M_j] for small displacements u (N, 3): the axial force of
    bar_axial_small, no shear or moment."""
    out = np.zeros((len(m.bar_L0), 4))
    out[:, 0] = bar_axial_small(m, u)
    return out


def _tangents(m, pos: np.ndarray, chord: np.ndarray, safe: bool) -> np.ndarray:
    """bar_tangents into a new (B, 4, 4), compiled only for a model with bars; safe: the
    geometric stiffness of tension only."""
    ke = np.zeros((len(m.bar_L0), 4, 4))
    if len(ke):
        bar_tangents(m, pos, safe, ke)
    return ke


def _traits(m) -> dict[str, np.ndarray]:
    n = len(m.bar_L0)
    cable = m.bar_cable.astype(bool)
    return {"format": cable.astype(np.int8), "bending": np.zeros(n, bool), "pinned": np.zeros((n, 2), bool), "pushes": ~cable}


# The bar and the cable as the engine's Python side asks them (engine/elements/kind.py).
BAR = MemberKind(
    name="bar",
    formats=("bar", "cable"),  # a cable is a bar whose bar_cable is set: format row 1
    count=lambda m: len(m.bar_L0),
    dofs=bar_dofs,
    blocks=bar_blocks,
    tangents=_tangents,
    damping=lambda m: m.bar_c * m.bar_L0 / m.bar_EA if len(m.bar_L0) else m.bar_c,  # β = c L0 / EA
    small=bar_small,
    ends=lambda m: m.bar_ij,
    traits=_traits,
)
