"""The constant-strain triangle of seed 000 (eq. 2–4, Fig. 6), co-rotational: its
internal forces, its tangent and its small-displacement block, derived once.

Glossary: E Young's modulus [Pa], ν Poisson's ratio, t thickness [m], β element
damping [s]; the local frame has its origin at node i and its x axis e_x = b̂ toward
node k, e_y = n̂ = (−b̂_y, b̂_x); a = x_j − x_i, b = x_k − x_i; (x_j, y_j, x_k) the local
coordinates of j and k, (x_j0, y_j0, x_k0) at the start; r = (x_j − x_j0, y_j − y_j0,
x_k − x_k0) the deformations, R = K r their forces (K the 3×3 of eq. 2);
DOFs of a triangle (x_i, y_i, x_j, y_j, x_k, y_k).

Internal force: f = Gᵀ R with G = ∂r/∂(a, b) (and ∂/∂x_i = −∂/∂a − ∂/∂b):
    ∂x_j = (b̂ᵀ, y_j n̂ᵀ/x_k),  ∂y_j = (n̂ᵀ, −x_j n̂ᵀ/x_k),  ∂x_k = (0, b̂ᵀ),
(from ∂b̂/∂b = n̂n̂ᵀ/x_k, ∂n̂/∂b = −b̂n̂ᵀ/x_k), which is what `cst_forces` writes as
g_j = R1 e_x + R2 e_y, g_k = R3 e_x + h e_y, h = (R1 y_j − R2 x_j)/x_k.
Tangent: Gᵀ K G plus the derivative of (g_j, g_k) at fixed R:
    ∂g_j/∂b = (R1 n̂ − R2 b̂) n̂ᵀ/x_k  (and its transpose for ∂g_k/∂a; ∂g_j/∂a = 0),
    ∂g_k/∂b = [R3/x_k − (R1 x_j + R2 y_j)/x_k²] n̂n̂ᵀ − h (n̂b̂ᵀ + b̂n̂ᵀ)/x_k.
At rest (R = 0) it is Gᵀ K G, the textbook A t Bᵀ D B (cst_blocks, in numpy: the model
builder needs it, and a first start should compile nothing for it).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from equilibria.engine.compiled.options import ALLOCATING, INNER, KERNEL


@njit(**KERNEL)
def tri_frame(xi, yi, xj, yj, xk, yk):
    """Local frame of seed 000 Fig. 6: origin at i, x toward k, y by the right hand.

    Returns (cx, cy, lxj, lyj, lxk): the frame's x axis (cx, cy) and the local
    coordinates of j and k (k lies on the x axis).
    """
    ax = xk - xi
    ay = yk - yi
    lxk = math.sqrt(ax * ax + ay * ay)
    cx = ax / lxk
    cy = ay / lxk
    rx = xj - xi
    ry = yj - yi
    return cx, cy, rx * cx + ry * cy, -rx * cy + ry * cx, lxk


@njit(**KERNEL)
def cst_stiffness(xj0, yj0, xk0, E, nu, t):
    """Seed 000 eq. (2)–(3): the 3×3 stiffness of the deformation DOFs.

    The seed's text lists x⁰ = [x_k, x_j, y_j], but its matrices (2) and (4) are written
    for r = [Δx_j, Δy_j, Δx_k]; we follow the matrices. Derivation: with node i at the
    origin, k on the x axis and Δ = −y_j x_k / 2 (eq. 3), linear interpolation gives
        ε_x = −y_j r3 / (2Δ),   ε_y = r2 / y_j,   γ = r1 / y_j + x_j r3 / (2Δ),
    and K = |Δ| t Bᵀ D B with plane-stress D reproduces eq. (2) entry by entry.
    """
    d = -yj0 * xk0 / 2.0
    c = E * abs(d) * t / (1.0 - nu * nu)
    k11 = c * (1.0 - nu) / (2.0 * yj0 * yj0)
    k13 = c * (1.0 - nu) * xj0 / (4.0 * d * yj0)
    k22 = c / (yj0 * yj0)
    k23 = c * (-nu) / (2.0 * d)
    k33 = c * ((1.0 - nu) * xj0 * xj0 + 2.0 * yj0 * yj0) / (8.0 * d * d)
    return k11, k13, k22, k23, k33


@njit(**KERNEL)
def cst_local_stress(r1, r2, r3, xj0, yj0, xk0, E, nu):
    """Seed 000 eq. (4): (σx, σy, τxy) in the element's local axes."""
    d = -yj0 * xk0 / 2.0
    c = E / (1.0 - nu * nu)
    sx = c * (nu / yj0 * r2 - yj0 / (2.0 * d) * r3)
    sy = c * (1.0 / yj0 * r2 - nu * yj0 / (2.0 * d) * r3)
    txy = c * ((1.0 - nu) / (2.0 * yj0) * r1 + (1.0 - nu) * xj0 / (4.0 * d) * r3)
    return sx, sy, txy


@njit(**KERNEL)
def rotate_stress(sx, sy, txy, cx, cy):
    """Stress from axes rotated by (cx, cy) = (cos φ, sin φ) to global axes: Q σ Qᵀ."""
    cc = cx * cx
    ss = cy * cy
    cs = cx * cy
    return (
        cc * sx + ss * sy - 2.0 * cs * txy,
        ss * sx + cc * sy + 2.0 * cs * txy,
        cs * (sx - sy) + (cc - ss) * txy,
    )


@njit(**INNER, inline="always")
def cst_forces(m, e, pos, vel, force, tri_out):
    """Seed 000 constant-strain triangle e. R = K r; the remaining forces by statics in
    the current geometry, which is also the exact gradient of ½ rᵀ K r (module note):
        ∂U/∂x_j = R1 e_x + R2 e_y,  ∂U/∂x_k = R3 e_x + (R1 y_j − R2 x_j)/x_k e_y,
        ∂U/∂x_i = −(∂U/∂x_j + ∂U/∂x_k)."""
    i = m.tri_ijk[e, 0]
    j = m.tri_ijk[e, 1]
    k = m.tri_ijk[e, 2]
    xj0 = m.tri_x0[e, 0]
    yj0 = m.tri_x0[e, 1]
    xk0 = m.tri_x0[e, 2]
    E = m.tri_E[e]
    nu = m.tri_nu[e]
    cx, cy, xj, yj, xk = tri_frame(pos[i, 0], pos[i, 1], pos[j, 0], pos[j, 1], pos[k, 0], pos[k, 1])
    r1 = xj - xj0
    r2 = yj - yj0
    r3 = xk - xk0
    k11, k13, k22, k23, k33 = cst_stiffness(xj0, yj0, xk0, E, nu, m.tri_t[e])
    R1 = k11 * r1 + k13 * r3
    R2 = k22 * r2 + k23 * r3
    R3 = k13 * r1 + k23 * r2 + k33 * r3
    energy = 0.5 * (r1 * R1 + r2 * R2 + r3 * R3)
    b = m.tri_beta[e]
    if b != 0.0:
        # ṙ from the velocities: d(e_x)/dt = e_y (e_y·Δv_k)/x_k and d(e_y)/dt = −e_x (…).
        wkx = vel[k, 0] - vel[i, 0]
        wky = vel[k, 1] - vel[i, 1]
        wjx = vel[j, 0] - vel[i, 0]
        wjy = vel[j, 1] - vel[i, 1]
        spin = (-cy * wkx + cx * wky) / xk
        d1 = wjx * cx + wjy * cy + yj * spin
        d2 = -wjx * cy + wjy * cx - xj * spin
        d3 = wkx * cx + wky * cy
        R1 += b * (k11 * d1 + k13 * d3)
        R2 += b * (k22 * d2 + k23 * d3)
        R3 += b * (k13 * d1 + k23 * d2 + k33 * d3)
    gjx = R1 * cx - R2 * cy  # ∂U/∂x_j in global axes (e_y = (−cy, cx))
    gjy = R1 * cy + R2 * cx
    h = (R1 * yj - R2 * xj) / xk
    gkx = R3 * cx - h * cy
    gky = R3 * cy + h * cx
    force[j, 0] -= gjx
    force[j, 1] -= gjy
    force[k, 0] -= gkx
    force[k, 1] -= gky
    force[i, 0] += gjx + gkx
    force[i, 1] += gjy + gky
    sx, sy, txy = cst_local_stress(r1, r2, r3, xj0, yj0, xk0, E, nu)
    sx, sy, txy = rotate_stress(sx, sy, txy, cx, cy)
    tri_out[e, 0] = sx
    tri_out[e, 1] = sy
    tri_out[e, 2] = txy
    tri_out[e, 3] = energy


@njit(**KERNEL)
def expand_ab(h4, out, e):
    """out[e] (6, 6) += Tᵀ h4 T, T the map from (x_i, x_j, x_k) to (a, b) = (x_j − x_i,
    x_k − x_i): a 4×4 on (a_x, a_y, b_x, b_y) onto a triangle's six DOFs."""
    for p in range(6):
        for q in range(6):
            s = 0.0
            for a in range(4):
                tp = _t(a, p)
                if tp == 0.0:
                    continue
                for b in range(4):
                    s += tp * h4[a, b] * _t(b, q)
            out[e, p, q] += s


@njit(**INNER)
def _t(row, col):
    """T[row, col]: row (a_x, a_y, b_x, b_y), col (x_i, y_i, x_j, y_j, x_k, y_k)."""
    axis = row % 2
    if col % 2 != axis:
        return 0.0
    node = col // 2
    if node == 0:
        return -1.0
    return 1.0 if node == 1 + row // 2 else 0.0


@njit(**ALLOCATING)
def cst_tangents(m, pos, ke):
    """Each linear triangle's tangent (T, 6, 6) at pos, written to its rows of ke (the
    Neo-Hookean triangles' rows are left alone), on (x_i, y_i, x_j, y_j, x_k, y_k)."""
    G = np.zeros((3, 4))
    h4 = np.zeros((4, 4))
    for e in range(m.tri_ijk.shape[0]):
        if m.tri_neo[e]:
            continue
        i = m.tri_ijk[e, 0]
        j = m.tri_ijk[e, 1]
        k = m.tri_ijk[e, 2]
        xj0 = m.tri_x0[e, 0]
        yj0 = m.tri_x0[e, 1]
        xk0 = m.tri_x0[e, 2]
        cx, cy, xj, yj, xk = tri_frame(pos[i, 0], pos[i, 1], pos[j, 0], pos[j, 1], pos[k, 0], pos[k, 1])
        nx = -cy
        ny = cx
        k11, k13, k22, k23, k33 = cst_stiffness(xj0, yj0, xk0, m.tri_E[e], m.tri_nu[e], m.tri_t[e])
        G[0, 0] = cx
        G[0, 1] = cy
        G[0, 2] = yj * nx / xk
        G[0, 3] = yj * ny / xk
        G[1, 0] = nx
        G[1, 1] = ny
        G[1, 2] = -xj * nx / xk
        G[1, 3] = -xj * ny / xk
        G[2, 0] = 0.0
        G[2, 1] = 0.0
        G[2, 2] = cx
        G[2, 3] = cy
        for p in range(4):
            for q in range(4):
                g0 = G[0, q]
                g1 = G[1, q]
                g2 = G[2, q]
                kg0 = k11 * g0 + k13 * g2
                kg1 = k22 * g1 + k23 * g2
                kg2 = k13 * g0 + k23 * g1 + k33 * g2
                h4[p, q] = G[0, p] * kg0 + G[1, p] * kg1 + G[2, p] * kg2
        r1 = xj - xj0
        r2 = yj - yj0
        r3 = xk - xk0
        R1 = k11 * r1 + k13 * r3
        R2 = k22 * r2 + k23 * r3
        R3 = k13 * r1 + k23 * r2 + k33 * r3
        h = (R1 * yj - R2 * xj) / xk
        vx = (R1 * nx - R2 * cx) / xk  # ∂g_j/∂b = v n̂ᵀ
        vy = (R1 * ny - R2 * cy) / xk
        c = R3 / xk - (R1 * xj + R2 * yj) / (xk * xk)
        d = h / xk
        nn = ((nx * nx, nx * ny), (ny * nx, ny * ny))
        nb = ((nx * cx, nx * cy), (ny * cx, ny * cy))
        for p in range(2):
            vp = vx if p == 0 else vy
            for q in range(2):
                nq = nx if q == 0 else ny
                h4[p, 2 + q] += vp * nq
                h4[2 + q, p] += vp * nq
                h4[2 + p, 2 + q] += c * nn[p][q] - d * (nb[p][q] + nb[q][p])
        for p in range(6):
            for q in range(6):
                ke[e, p, q] = 0.0
        expand_ab(h4, ke, e)


def cst_blocks(m, pos: np.ndarray) -> np.ndarray:
    """Each triangle's small-displacement block (T, 6, 6) at the geometry pos, Gᵀ K G on
    (x_i, y_i, x_j, y_j, x_k, y_k) with G at pos (module note), Neo-Hookean ones too (at
    rest their tangent is this one, engine/elements/neo_hookean.py). numpy, so that building a
    model compiles nothing."""
    idx = m.tri_ijk.astype(np.int64)
    p = pos[idx, :2]  # (T, 3, 2)
    a = p[:, 1] - p[:, 0]
    b = p[:, 2] - p[:, 0]
    xk = np.hypot(b[:, 0], b[:, 1])
    bh = b / xk[:, None]
    nh = np.stack((-bh[:, 1], bh[:, 0]), axis=1)
    xj = (a * bh).sum(axis=1)
    yj = (a * nh).sum(axis=1)
    nt = len(xk)
    G = np.zeros((nt, 3, 4))  # rows r1, r2, r3 on (a_x, a_y, b_x, b_y)
    G[:, 0, :2], G[:, 0, 2:] = bh, (yj / xk)[:, None] * nh
    G[:, 1, :2], G[:, 1, 2:] = nh, (-xj / xk)[:, None] * nh
    G[:, 2, 2:] = bh
    K = np.zeros((nt, 3, 3))
    x0 = m.tri_x0
    # The kernel's own Python (elementwise arithmetic, so it takes the arrays whole).
    k11, k13, k22, k23, k33 = cst_stiffness.py_func(x0[:, 0], x0[:, 1], x0[:, 2], m.tri_E, m.tri_nu, m.tri_t)
    K[:, 0, 0], K[:, 1, 1], K[:, 2, 2] = k11, k22, k33
    K[:, 0, 2] = K[:, 2, 0] = k13
    K[:, 1, 2] = K[:, 2, 1] = k23
    T = np.zeros((4, 6))  # (a, b) = (x_j − x_i, x_k − x_i)
    for axis in range(2):
        T[axis, axis], T[axis, 2 + axis] = -1.0, 1.0
        T[2 + axis, axis], T[2 + axis, 4 + axis] = -1.0, 1.0
    return np.einsum("ap,eia,eij,ejb,bq->epq", T, G, K, G, T)


def tri_dofs(m) -> np.ndarray:
    """(T, 6) int64 global DOFs of each triangle's (x_i, y_i, x_j, y_j, x_k, y_k)."""
    idx = m.tri_ijk.astype(np.int64)
    return np.stack([3 * idx[:, 0], 3 * idx[:, 0] + 1, 3 * idx[:, 1], 3 * idx[:, 1] + 1, 3 * idx[:, 2], 3 * idx[:, 2] + 1], axis=1)


def plane_stress_d(E, nu):
    """Plane-stress constitutive matrices (T, 3, 3) [Pa]."""
    D = np.zeros((len(E), 3, 3))
    c = E / (1 - nu**2)
    D[:, 0, 0] = D[:, 1, 1] = c
    D[:, 0, 1] = D[:, 1, 0] = c * nu
    D[:, 2, 2] = c * (1 - nu) / 2
    return D


def tri_stress_small(m, u: np.ndarray) -> np.ndarray:
    """(T, 3) [σx, σy, τxy] in global axes [Pa] for small displacements u (N, 3) from
    the start: σ = D B u with ε = B u the constant strain of the linear interpolation."""
    if not len(m.tri_E):
        return np.zeros((0, 3))
    idx = m.tri_ijk.astype(np.int64)
    x = m.pos0[idx, 0]
    y = m.pos0[idx, 1]
    b = np.stack([y[:, 1] - y[:, 2], y[:, 2] - y[:, 0], y[:, 0] - y[:, 1]], axis=1)
    c = np.stack([x[:, 2] - x[:, 1], x[:, 0] - x[:, 2], x[:, 1] - x[:, 0]], axis=1)
    two_a = x[:, 0] * b[:, 0] + x[:, 1] * b[:, 1] + x[:, 2] * b[:, 2]  # signed 2A
    B = np.zeros((len(idx), 3, 6))
    B[:, 0, 0::2] = b
    B[:, 1, 1::2] = c
    B[:, 2, 0::2] = c
    B[:, 2, 1::2] = b
    B /= two_a[:, None, None]
    ue = u[idx, :2].reshape(-1, 6)
    return np.einsum("eij,ejk,ek->ei", plane_stress_d(m.tri_E, m.tri_nu), B, ue)
