"""The co-rotational beam-column: seed 000's element (eq. 1, box B), and the chord
geometry it shares with the element with stability functions (engine/elements/beam_stability.py).
Internal forces, tangent and small-displacement block of both, derived once.

Glossary: EA [N], EI [N m²], L0 rest length [m], L current chord length [m];
r1, r2 end rotations from the chord [rad], r3 = L − L0 [m] (seed 000 Fig. 2);
N axial force [N] (tension positive), M1, M2 end moments [N m], V = (M1 + M2)/L end
shear [N]; β the chord angle [rad], e = (cos β, sin β), n = (−sin β, cos β);
DOFs of a beam (x_i, y_i, θ_i, x_j, y_j, θ_j).

The element's energy U(r) gives its internal force f = Gᵀ R, R = (M1, M2, N) = ∂U/∂r,
G = ∂r/∂u. With d = x_j − x_i: ∂L/∂d = e, ∂β/∂d = n/L, r1 = θ_i − (β − β0),
r2 = θ_j − (β − β0), so
    G = [[ n/L, 1, −n/L, 0],      (r1; n/L stands for its two entries)
         [ n/L, 0, −n/L, 1],      (r2)
         [  −e, 0,    e, 0]]      (r3).
Tangent: K = Gᵀ (∂R/∂r) G + (M1 + M2) ∂²(−β)/∂u² + N ∂²L/∂u², with, on d,
∂²L/∂d² = n nᵀ/L and ∂²β/∂d² = −(e nᵀ + n eᵀ)/L² (and the signs of d = x_j − x_i).
∂R/∂r is seed 000's EI/L0 [[4, 2], [2, 4]] and EA/L0, or the stability functions'.

Released ends (a pin inside the member, `release`: bit 1 end i, bit 2 end j). The end
rotation of a released end is an internal DOF of the element, condensed out (static
condensation, as anaStruct does): with M2 = 0, 2k r1 + 4k r2 = 0 gives r2 = −r1/2 and
M1 = 3k r1 (k = EI/L0); with M1 = 0, M2 = 3k r2; with both, no moment. So ∂R/∂r is
EI/L0 [[3, 0], [0, 0]] (end j released), [[0, 0], [0, 3]] (end i), 0 (both), and U =
½ (M1 r1 + M2 r2); the node's rotation there gets nothing from the beam, neither
moment nor stiffness (engine/model.py drops it where no beam holds it). A 'stability'
beam is condensed the same way, exactly: its released rotation is the one that makes
U* least (M = 0 there, stability_released), so by the envelope theorem its forces are
U*'s gradient at that rotation with the released moment zero, and its tangent is the
Schur complement of U*'s Hessian on the released rotation.
At rest (R = 0, r = 0) both give the small-displacement frame block Gᵀ k G (beam_blocks,
in numpy: the model builder needs it, and a first start should compile nothing for it).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from equilibria.engine.compiled.options import ALLOCATING, INNER, KERNEL
from equilibria.engine.compiled.slots import POINTER, Slot, pointer_array, stack_array
from equilibria.engine.elements.beam_chain import corotational_block, member_law
from equilibria.engine.elements.beam_stability import RELEASE_I, RELEASE_J
from equilibria.engine.elements.kind import MemberKind

TWO_PI = 2.0 * math.pi


@njit(**KERNEL)
def wrap_angle(a):
    """The angle a brought into (-π, π]."""
    return a - TWO_PI * math.floor((a + math.pi) / TWO_PI)


@njit(**KERNEL)
def beam_deformation(dx, dy, rot_i, rot_j, chord_ref, chord0, L0):
    """Deformations (r1, r2, r3) of seed 000 Fig. 2 and the chord angle β.

    The chord angle is tracked as a running total: `chord_ref` is its value at the end
    of the previous step and β = ref + wrap(atan2 − ref), so chord rotations past 360°
    are followed. rot_i and rot_j are the node rotations since the start.
    r1, r2: end rotations relative to the chord; r3 = L − L0.
    """
    L = math.sqrt(dx * dx + dy * dy)
    beta = chord_ref + wrap_angle(math.atan2(dy, dx) - chord_ref)
    rigid = beta - chord0
    return rot_i - rigid, rot_j - rigid, L - L0, L, beta


@njit(**KERNEL)
def end_moments(r1, r2, k, release):
    """(M1, M2) [N m] of seed 000 eq. (1) with k = EI/L0, its released ends condensed
    out (module note): a pinned end carries no moment."""
    if release == 0:
        return 4.0 * k * r1 + 2.0 * k * r2, 2.0 * k * r1 + 4.0 * k * r2
    if release == RELEASE_I:
        return 0.0, 3.0 * k * r2
    if release == RELEASE_J:
        return 3.0 * k * r1, 0.0
    return 0.0, 0.0


def _stability_entry(r1, r2, r3, EA, EI, L0, release, tangent, kr_p, out_p):
    """A 'stability' beam's law (engine/elements/beam_chain.py's member_law: the one element,
    or past Euler's load the chain; a released end's rotation solved within it) as a C
    function (engine/compiled/slots.py): kr (3, 3), out (N, M1, M2, U)."""
    out = pointer_array(out_p, 1, 4)
    N, M1, M2, U = member_law(r1, r2, r3, EA, EI, L0, release, tangent, pointer_array(kr_p, 3, 3))
    out[0, 0] = N
    out[0, 1] = M1
    out[0, 2] = M2
    out[0, 3] = U
    return 0


# The kernels reach the 'stability' beam's law through a slot, compiled once rather than
# within each of them (the chain's Newton among it; engine/compiled/slots.py). Filled when a model
# with a 'stability' beam is made (engine/model.py) and by the warm-up.
STABILITY = Slot("equilibria_stability_beam_law", types.int64(*(types.float64,) * 6, types.int64, types.int64, POINTER, POINTER), _stability_entry)
_law_ready = STABILITY.ready
_law_call = STABILITY.call


@njit(**INNER, inline="always")
def stability_member(r1, r2, r3, EA, EI, L0, release, tangent, kr):
    """The 'stability' beam's law (member_law) through its slot; NaN if the slot is
    empty (a model not made by build_model), which the caller's blow-up check catches
    rather than going on with another law."""
    out = stack_array(1, 4)
    if not _law_ready():
        return math.nan, math.nan, math.nan, math.nan
    _law_call((r1, r2, r3, EA, EI, L0, release, tangent), (kr, out))
    return out[0, 0], out[0, 1], out[0, 2], out[0, 3]


@njit(**KERNEL)
def beam_end_forces(r1, r2, r3, EA, EI, L0, L, release=0):
    """Seed 000 eq. (1): M1 = 4EI/L r1 + 2EI/L r2, M2 = 2EI/L r1 + 4EI/L r2, N = EA/L r3,
    with the released ends condensed out (end_moments).

    Returns (N, V, M1, M2) with V = (M1 + M2)/L the end shear by statics.
    """
    M1, M2 = end_moments(r1, r2, EI / L0, release)
    N = EA / L0 * r3
    return N, (M1 + M2) / L, M1, M2


@njit(**INNER, inline="always")
def _deformation_of(m, e, pos, chord):
    i = m.beam_ij[e, 0]
    j = m.beam_ij[e, 1]
    return beam_deformation(
        pos[j, 0] - pos[i, 0],
        pos[j, 1] - pos[i, 1],
        pos[i, 2] - m.pos0[i, 2],
        pos[j, 2] - m.pos0[j, 2],
        chord[e],
        m.beam_chord0[e],
        m.beam_L0[e],
    )


@njit(**INNER, inline="always")
def beam_forces(m, pos, vel, chord, on, force, out, lo):
    """Add every active beam's force to force (N, 3). The beams are rows lo to lo + Bm
    of the member record (engine/elements/kind.py): on (M,) bool their on-flags, out
    (4, M) where each writes its [N, V, M1, M2].

    Internal force Gᵀ R (module note): on node i N e − V n and −M1, on node j the
    opposite and −M2 (the forces on the nodes are minus the internal force)."""
    scratch = stack_array(3, 3)  # the tangent a 'stability' beam's law does not write here
    for e in range(m.beam_ij.shape[0]):
        r = lo + np.uint64(e)  # unsigned: no handling of negative indices (engine/model.py INDEX)
        if not on[r]:
            for c4 in range(4):
                out[c4, r] = 0.0
            continue
        i = m.beam_ij[e, 0]
        j = m.beam_ij[e, 1]
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        r1, r2, r3, L, _ = _deformation_of(m, e, pos, chord)
        ex = dx / L
        ey = dy / L
        b = m.beam_beta[e]
        d1 = 0.0
        d2 = 0.0
        d3 = 0.0
        if b != 0.0:
            # Element damping β K ṙ: ṙ3 = e·Δv, β̇ = n·Δv / L, ṙ1 = ω_i − β̇, ṙ2 = ω_j − β̇.
            dvx = vel[j, 0] - vel[i, 0]
            dvy = vel[j, 1] - vel[i, 1]
            chord_rate = (-ey * dvx + ex * dvy) / L
            d1 = b * (vel[i, 2] - chord_rate)
            d2 = b * (vel[j, 2] - chord_rate)
            d3 = b * (ex * dvx + ey * dvy)
        if m.beam_stability[e]:
            # Stability functions (engine/elements/beam_stability.py; past Euler's load the chain of
            # engine/elements/beam_chain.py; a pinned end's rotation solved within the member for
            # its zero moment); damping with the seed's stiffness at rest, K0 β ṙ, which
            # dissipates whatever the axial force.
            rel = m.beam_release[e]
            N, M1, M2, _ = stability_member(r1, r2, r3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e], rel, 0, scratch)
            Nd, _, M1d, M2d = beam_end_forces(d1, d2, d3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e], L, rel)
            N += Nd
            M1 += M1d
            M2 += M2d
            V = (M1 + M2) / L
        else:
            N, V, M1, M2 = beam_end_forces(r1 + d1, r2 + d2, r3 + d3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e], L, m.beam_release[e])
        fx = N * ex + V * ey  # N e − V n with n = (−ey, ex)
        fy = N * ey - V * ex
        force[i, 0] += fx
        force[i, 1] += fy
        force[j, 0] -= fx
        force[j, 1] -= fy
        force[i, 2] -= M1
        force[j, 2] -= M2
        out[0, r] = N
        out[1, r] = V
        out[2, r] = M1
        out[3, r] = M2


@njit(**INNER, inline="always")
def beam_energy(m, pos, chord, on, lo):
    """Strain energy [J] of the active beams: ½ rᵀ K r (seed), U* (stability) (on: the
    member record's on-flags, the beams from row lo)."""
    scratch = stack_array(3, 3)
    u = 0.0
    for e in range(m.beam_ij.shape[0]):
        if on[lo + np.uint64(e)]:
            r1, r2, r3, _, _ = _deformation_of(m, e, pos, chord)
            if m.beam_stability[e]:
                u += stability_member(r1, r2, r3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e], m.beam_release[e], 0, scratch)[3]
            else:
                M1, M2 = end_moments(r1, r2, m.beam_EI[e] / m.beam_L0[e], m.beam_release[e])
                u += 0.5 * (M1 * r1 + M2 * r2) + 0.5 * m.beam_EA[e] / m.beam_L0[e] * r3 * r3
    return u


@njit(**ALLOCATING)
def beam_tangents(m, pos, chord, ke):
    """Each beam's tangent (Bm, 6, 6) at pos (chord: the running chord angles), written
    to ke, on its DOFs (x_i, y_i, θ_i, x_j, y_j, θ_j) (module note)."""
    kr = np.zeros((3, 3))
    for e in range(m.beam_ij.shape[0]):
        i = m.beam_ij[e, 0]
        j = m.beam_ij[e, 1]
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        r1, r2, r3, L, _ = _deformation_of(m, e, pos, chord)
        EA = m.beam_EA[e]
        EI = m.beam_EI[e]
        L0 = m.beam_L0[e]
        N = 0.0
        M = 0.0  # M1 + M2
        if m.beam_stability[e]:
            N, M1, M2, _ = stability_member(r1, r2, r3, EA, EI, L0, m.beam_release[e], 1, kr)  # released rotations condensed out
            M = M1 + M2
        else:
            k = EI / L0
            kr[0, 0], kr[1, 0] = end_moments(1.0, 0.0, k, m.beam_release[e])  # ∂(M1, M2)/∂r1
            kr[0, 1], kr[1, 1] = end_moments(0.0, 1.0, k, m.beam_release[e])  # ∂(M1, M2)/∂r2
            kr[0, 2] = kr[2, 0] = kr[1, 2] = kr[2, 1] = 0.0
            kr[2, 2] = EA / L0
            N = EA / L0 * r3
            M1, M2 = end_moments(r1, r2, k, m.beam_release[e])
            M = M1 + M2
        block = ke[e]
        block[:, :] = 0.0
        corotational_block(dx / L, dy / L, L, kr, N, M, block, 0, 3)


def beam_blocks(m, pos: np.ndarray) -> np.ndarray:
    """Each beam's small-displacement block (Bm, 6, 6) at the geometry pos: Gᵀ k G with
    k seed 000's at rest (both formulations agree there), G at pos (module note).
    numpy, so that building a model compiles nothing."""
    i, j = m.beam_ij[:, 0].astype(np.int64), m.beam_ij[:, 1].astype(np.int64)
    d = pos[j, :2] - pos[i, :2]
    L = np.hypot(d[:, 0], d[:, 1])
    e = d / L[:, None]
    n = np.stack((-e[:, 1], e[:, 0]), axis=1) / L[:, None]
    nb = len(L)
    G = np.zeros((nb, 3, 6))
    for a in range(2):
        G[:, a, 0:2] = n
        G[:, a, 3:5] = -n
        G[:, a, 2 + 3 * a] = 1.0
    G[:, 2, 0:2] = -e
    G[:, 2, 3:5] = e
    k = m.beam_EI / m.beam_L0
    kr = np.zeros((nb, 3, 3))
    kr[:, :2, :2] = k[:, None, None] * released_stiffness(m.beam_release)
    kr[:, 2, 2] = m.beam_EA / m.beam_L0
    return np.einsum("eap,eab,ebq->epq", G, kr, G)


def released_stiffness(release: np.ndarray) -> np.ndarray:
    """(Bm, 2, 2) ∂(M1, M2)/∂(r1, r2) over EI/L0 for each beam's release bits (module
    note): [[4, 2], [2, 4]], [[0, 0], [0, 3]] (end i), [[3, 0], [0, 0]] (end j), 0."""
    table = np.array([[[4.0, 2.0], [2.0, 4.0]], [[0.0, 0.0], [0.0, 3.0]], [[3.0, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]]])
    return table[np.asarray(release, dtype=np.int64)]


def beam_dofs(m) -> np.ndarray:
    """(Bm, 6) int64 global DOFs of each beam's (x_i, y_i, θ_i, x_j, y_j, θ_j)."""
    i, j = m.beam_ij[:, 0].astype(np.int64), m.beam_ij[:, 1].astype(np.int64)
    return np.stack([3 * i, 3 * i + 1, 3 * i + 2, 3 * j, 3 * j + 1, 3 * j + 2], axis=1)


def beam_forces_small(m, u: np.ndarray) -> np.ndarray:
    """(Bm, 4) [N, V, M1, M2] for small displacements u (N, 3) from the start: the rows
    of G at rest applied to u, r1 = θ_i − ψ, r2 = θ_j − ψ, r3 = e·Δu, ψ = n·Δu/L0, and
    seed 000 eq. (1) (both formulations agree at rest)."""
    out = np.zeros((len(m.beam_L0), 4))
    for e, (i, j) in enumerate(m.beam_ij.astype(np.int64)):
        d = m.pos0[j, :2] - m.pos0[i, :2]
        L = float(np.hypot(*d))
        ex, ey = d / L
        du = u[j, :2] - u[i, :2]
        psi = (-ey * du[0] + ex * du[1]) / L
        out[e] = beam_end_forces(u[i, 2] - psi, u[j, 2] - psi, ex * du[0] + ey * du[1], m.beam_EA[e], m.beam_EI[e], m.beam_L0[e], L, int(m.beam_release[e]))
    return out


def _tangents(m, pos: np.ndarray, chord: np.ndarray, safe: bool) -> np.ndarray:
    """beam_tangents at (pos, chord; None: the chords as built) into a new (Bm, 6, 6),
    compiled only for a model with beams; safe: the small-displacement blocks at pos instead (positive
    semi-definite: engine/newmark.py)."""
    if safe:
        return beam_blocks(m, pos)
    ke = np.zeros((len(m.beam_L0), 6, 6))
    if len(ke):
        beam_tangents(m, pos, m.beam_chord0 if chord is None else chord, ke)
    return ke


def _traits(m) -> dict[str, np.ndarray]:
    n = len(m.beam_L0)
    pinned = (m.beam_release[:, None] & np.array([1, 2])) > 0  # bits i, j (module note)
    return {"format": np.zeros(n, np.int8), "bending": np.ones(n, bool), "pinned": pinned, "pushes": np.ones(n, bool)}


# The beam-column as the engine's Python side asks it (engine/elements/kind.py).
BEAM = MemberKind(
    name="beam",
    formats=("beam",),
    count=lambda m: len(m.beam_L0),
    dofs=beam_dofs,
    blocks=beam_blocks,
    tangents=_tangents,
    damping=lambda m: m.beam_beta,
    small=beam_forces_small,
    ends=lambda m: m.beam_ij,
    traits=_traits,
)
