"""The compressible Neo-Hookean triangle of seed 003, for large strain: its internal
forces and its tangent, derived once. Its small-displacement block is the linear
triangle's (engine/elements/cst.py): at F = I its tangent modulus is plane-stress Hooke's with the
λ, μ below.

Glossary: F deformation gradient, J = det F, C = FᵀF; λ = Eν/(1 − ν²), μ = E/(2(1 + ν))
the plane-stress Lamé parameters [Pa] (so that it matches the linear triangle at small
strain); P first Piola–Kirchhoff stress [Pa]; D_m = [X_j − X_i, X_k − X_i] the reference
edges, D_s the current ones, F = D_s D_m⁻¹; A0 t the reference volume [m³];
a = x_j − x_i, b = x_k − x_i.

Energy W = μ/2 (tr C − 2) − μ ln J + λ/2 (J − 1)², so P = ∂W/∂F = μ F + (λJ(J − 1) − μ) F⁻ᵀ.
Internal force on (j, k): A0 t P D_m⁻ᵀ (columns), on i minus their sum.
Tangent: with dF = dD_s D_m⁻¹, d(F⁻ᵀ) = −F⁻ᵀ dFᵀ F⁻ᵀ and dJ = J F⁻ᵀ : dF,
    dP = μ dF + (μ − λJ(J − 1)) F⁻ᵀ dFᵀ F⁻ᵀ + λ(2J − 1) J (F⁻ᵀ : dF) F⁻ᵀ,
and d(force) = A0 t dP D_m⁻ᵀ, taken for each of the four unit changes of (a, b).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from equilibria.engine.compiled.options import ALLOCATING, INNER, KERNEL
from equilibria.engine.elements.cst import cst_blocks, cst_tangents, expand_ab, tri_dofs, tri_stress_small
from equilibria.engine.elements.kind import ElementKind


@njit(**KERNEL)
def neo_hookean_pk1(f11, f12, f21, f22, lam, mu):
    """First Piola–Kirchhoff stress P = F S of seed 003's compressible Neo-Hookean law,
    S = λ J (J − 1) C⁻¹ + μ (I − C⁻¹), with strain energy W = μ/2 (tr C − 2) − μ ln J
    + λ/2 (J − 1)². Returns (P11, P12, P21, P22, W, J)."""
    J = f11 * f22 - f12 * f21
    c11 = f11 * f11 + f21 * f21
    c12 = f11 * f12 + f21 * f22
    c22 = f12 * f12 + f22 * f22
    detc = J * J
    i11 = c22 / detc
    i12 = -c12 / detc
    i22 = c11 / detc
    a = lam * J * (J - 1.0)
    s11 = a * i11 + mu * (1.0 - i11)
    s12 = a * i12 - mu * i12
    s22 = a * i22 + mu * (1.0 - i22)
    W = 0.5 * mu * (c11 + c22 - 2.0) - mu * math.log(J) + 0.5 * lam * (J - 1.0) ** 2
    return (
        f11 * s11 + f12 * s12,
        f11 * s12 + f12 * s22,
        f21 * s11 + f22 * s12,
        f21 * s12 + f22 * s22,
        W,
        J,
    )


@njit(**INNER, inline="always")
def lame(E, nu):
    """Plane-stress λ, μ [Pa] (module note)."""
    return E * nu / (1.0 - nu * nu), E / (2.0 * (1.0 + nu))


@njit(**INNER, inline="always")
def _edges_by_dm_inv(ax, ay, bx, by, a00, a01, a10, a11):
    """[a, b] D_m⁻¹ for the edge vectors a (node i to j) and b (i to k), as (11, 12, 21,
    22): the deformation gradient F from positions, Ḟ from velocities, H = F − I from
    displacements."""
    return ax * a00 + bx * a10, ax * a01 + bx * a11, ay * a00 + by * a10, ay * a01 + by * a11


@njit(**INNER, inline="always")
def neo_forces(m, e, pos, vel, force, tri_out):
    """Seed 003 compressible Neo-Hookean triangle e: nodal forces −A0 t P D_m⁻ᵀ on (j, k).
    Element damping adds the Kelvin–Voigt stress β (λ tr Ė I + 2μ Ė), Ė = sym(Fᵀ Ḟ)."""
    i = m.tri_ijk[e, 0]
    j = m.tri_ijk[e, 1]
    k = m.tri_ijk[e, 2]
    lam, mu = lame(m.tri_E[e], m.tri_nu[e])
    a00 = m.tri_dm_inv[e, 0, 0]
    a01 = m.tri_dm_inv[e, 0, 1]
    a10 = m.tri_dm_inv[e, 1, 0]
    a11 = m.tri_dm_inv[e, 1, 1]
    f11, f12, f21, f22 = _edges_by_dm_inv(pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1], pos[k, 0] - pos[i, 0], pos[k, 1] - pos[i, 1], a00, a01, a10, a11)
    p11, p12, p21, p22, _, J = neo_hookean_pk1(f11, f12, f21, f22, lam, mu)
    W = _energy_near_rest(m, e, i, j, k, pos, lam, mu)
    b = m.tri_beta[e]
    if b != 0.0:
        d11, d12, d21, d22 = _edges_by_dm_inv(vel[j, 0] - vel[i, 0], vel[j, 1] - vel[i, 1], vel[k, 0] - vel[i, 0], vel[k, 1] - vel[i, 1], a00, a01, a10, a11)
        e11 = f11 * d11 + f21 * d21
        e22 = f12 * d12 + f22 * d22
        e12 = 0.5 * (f11 * d12 + f21 * d22 + f12 * d11 + f22 * d21)
        tr = e11 + e22
        q11 = b * (lam * tr + 2.0 * mu * e11)
        q12 = b * 2.0 * mu * e12
        q22 = b * (lam * tr + 2.0 * mu * e22)
        p11 += f11 * q11 + f12 * q12
        p12 += f11 * q12 + f12 * q22
        p21 += f21 * q11 + f22 * q12
        p22 += f21 * q12 + f22 * q22
    det_dm_inv = a00 * a11 - a01 * a10
    vol = m.tri_t[e] * 0.5 / abs(det_dm_inv)  # A0 t
    # H = −A0 t P D_m⁻ᵀ: column 0 on node j, column 1 on node k.
    h00 = -vol * (p11 * a00 + p12 * a01)
    h10 = -vol * (p21 * a00 + p22 * a01)
    h01 = -vol * (p11 * a10 + p12 * a11)
    h11 = -vol * (p21 * a10 + p22 * a11)
    force[j, 0] += h00
    force[j, 1] += h10
    force[k, 0] += h01
    force[k, 1] += h11
    force[i, 0] -= h00 + h01
    force[i, 1] -= h10 + h11
    # Cauchy stress σ = P Fᵀ / J in global axes.
    tri_out[e, 0] = (p11 * f11 + p12 * f12) / J
    tri_out[e, 1] = (p21 * f21 + p22 * f22) / J
    tri_out[e, 2] = (p11 * f21 + p12 * f22) / J
    tri_out[e, 3] = W * vol


@njit(**INNER, inline="always")
def _energy_near_rest(m, e, i, j, k, pos, lam, mu):
    """W per unit reference volume, without the cancellation of its closed form near
    rest: tr C − 2 and 2 ln J are both 2 tr H to first order (H = F − I), so computed
    apart they leave round-off of ε μ (1e-8 J in a steel plate at rest, which the blow-up
    check read as energy). With H from the displacements u = x − X,
    H = [u_j − u_i, u_k − u_i] D_m⁻¹, and C − I, J − 1 written in H, the first-order
    terms cancel exactly and W keeps its relative precision at any strain."""
    a00 = m.tri_dm_inv[e, 0, 0]
    a01 = m.tri_dm_inv[e, 0, 1]
    a10 = m.tri_dm_inv[e, 1, 0]
    a11 = m.tri_dm_inv[e, 1, 1]
    ujx = (pos[j, 0] - m.pos0[j, 0]) - (pos[i, 0] - m.pos0[i, 0])
    ujy = (pos[j, 1] - m.pos0[j, 1]) - (pos[i, 1] - m.pos0[i, 1])
    ukx = (pos[k, 0] - m.pos0[k, 0]) - (pos[i, 0] - m.pos0[i, 0])
    uky = (pos[k, 1] - m.pos0[k, 1]) - (pos[i, 1] - m.pos0[i, 1])
    h11, h12, h21, h22 = _edges_by_dm_inv(ujx, ujy, ukx, uky, a00, a01, a10, a11)
    c11m1 = h11 * (2.0 + h11) + h21 * h21  # C11 − 1
    c22m1 = h22 * (2.0 + h22) + h12 * h12  # C22 − 1
    jm1 = h11 + h22 + h11 * h22 - h12 * h21  # J − 1
    return 0.5 * mu * (c11m1 + c22m1 - 2.0 * math.log1p(jm1)) + 0.5 * lam * jm1 * jm1


@njit(**ALLOCATING)
def neo_tangents(m, pos, ke):
    """Each Neo-Hookean triangle's tangent (T, 6, 6) at pos, written to its rows of ke
    (the others are left alone), on (x_i, y_i, x_j, y_j, x_k, y_k) (module note)."""
    dm = np.zeros((2, 2))
    F = np.zeros((2, 2))
    Fit = np.zeros((2, 2))
    dF = np.zeros((2, 2))
    dP = np.zeros((2, 2))
    h4 = np.zeros((4, 4))
    for e in range(m.tri_ijk.shape[0]):
        if not m.tri_neo[e]:
            continue
        i = m.tri_ijk[e, 0]
        j = m.tri_ijk[e, 1]
        k = m.tri_ijk[e, 2]
        lam, mu = lame(m.tri_E[e], m.tri_nu[e])
        dm[:, :] = m.tri_dm_inv[e]
        ax = pos[j, 0] - pos[i, 0]
        ay = pos[j, 1] - pos[i, 1]
        bx = pos[k, 0] - pos[i, 0]
        by = pos[k, 1] - pos[i, 1]
        F[0, 0], F[0, 1], F[1, 0], F[1, 1] = _edges_by_dm_inv(ax, ay, bx, by, dm[0, 0], dm[0, 1], dm[1, 0], dm[1, 1])
        J = F[0, 0] * F[1, 1] - F[0, 1] * F[1, 0]
        Fit[0, 0] = F[1, 1] / J
        Fit[0, 1] = -F[1, 0] / J
        Fit[1, 0] = -F[0, 1] / J
        Fit[1, 1] = F[0, 0] / J
        vol = m.tri_t[e] * 0.5 / abs(dm[0, 0] * dm[1, 1] - dm[0, 1] * dm[1, 0])
        c_swap = mu - lam * J * (J - 1.0)
        c_vol = lam * (2.0 * J - 1.0) * J
        for c in range(4):  # unit change of a_x, a_y, b_x, b_y: dD_s has one 1 in row c % 2, column c // 2
            row = c % 2
            col = c // 2
            for p in range(2):
                dF[row, p] = dm[col, p]
                dF[1 - row, p] = 0.0
            trace = Fit[0, 0] * dF[0, 0] + Fit[0, 1] * dF[0, 1] + Fit[1, 0] * dF[1, 0] + Fit[1, 1] * dF[1, 1]
            for p in range(2):
                for q in range(2):
                    swap = 0.0  # (F⁻ᵀ dFᵀ F⁻ᵀ)[p, q]
                    for r in range(2):
                        for s in range(2):
                            swap += Fit[p, r] * dF[s, r] * Fit[s, q]
                    dP[p, q] = mu * dF[p, q] + c_swap * swap + c_vol * trace * Fit[p, q]
            for node in range(2):  # d(internal force) on j (column 0) and k (column 1)
                for p in range(2):
                    h4[2 * node + p, c] = vol * (dP[p, 0] * dm[node, 0] + dP[p, 1] * dm[node, 1])
        for p in range(6):
            for q in range(6):
                ke[e, p, q] = 0.0
        expand_ab(h4, ke, e)


def _tangents(m, pos: np.ndarray, chord: np.ndarray, safe: bool) -> np.ndarray:
    """Every triangle's tangent (T, 6, 6) at pos, the linear ones' (cst.py) then the
    Neo-Hookean ones' over their rows, compiled only for a model with triangles; safe:
    the small-displacement blocks at pos instead (engine/newmark.py)."""
    ke = cst_blocks(m, pos)  # the Neo-Hookean rows until neo_tangents writes them
    if len(ke) and not safe:
        cst_tangents(m, pos, ke)
        neo_tangents(m, pos, ke)
    return ke


# The triangle, linear (engine/elements/cst.py) or Neo-Hookean, as the engine's Python
# side asks it (engine/elements/kind.py); here, where both are in reach. Not a member:
# its on-flags and outputs are the State's tri_on and tri_out.
TRIANGLE = ElementKind(
    name="triangle",
    count=lambda m: len(m.tri_E),
    dofs=tri_dofs,
    blocks=cst_blocks,
    tangents=_tangents,
    damping=lambda m: m.tri_beta,
    small=tri_stress_small,  # (T, 3) [σx, σy, τxy] [Pa]
)
