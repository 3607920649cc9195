"""Co-rotational element kernels and the assembly of nodal forces (seed 000, box B).

Every element computes its forces from deformations measured in the current geometry,
so rigid motions of any size give zero force. End forces are the exact gradient of the
element's strain energy (plus its damping), which makes each element conserve energy,
linear and angular momentum.

Glossary: EA axial rigidity [N], EI flexural rigidity [N m²], L0 rest length [m],
L current length [m], N axial force [N] (tension positive), M1, M2 end moments [N m],
V end shear [N], E Young's modulus [Pa], ν Poisson's ratio, t thickness [m],
λ, μ Lamé parameters [Pa], β stiffness-proportional (element) damping [s].

Kernels use numba's numpy error model: a division by zero (two nodes of an element
brought together) gives inf or NaN instead of raising, and the blow-up check of the
caller catches it and rolls back.
"""

from __future__ import annotations

import math

from numba import njit

from engine.beam_stability import stability_forces
from engine.kernel_options import INNER, KERNEL

TWO_PI = 2.0 * math.pi


@njit(**KERNEL)
def wrap_angle(a):
    """The angle a brought into (-π, π]."""
    return a - TWO_PI * math.floor((a + math.pi) / TWO_PI)


@njit(**KERNEL)
def history_value(hist_start, hist_t, hist_v, h, t):
    """Piecewise-linear history h at time t; held at its first and last values."""
    a = hist_start[h]
    b = hist_start[h + 1]
    if t <= hist_t[a]:
        return hist_v[a]
    for q in range(a + 1, b):
        if t <= hist_t[q]:
            s = (t - hist_t[q - 1]) / (hist_t[q] - hist_t[q - 1])
            return hist_v[q - 1] + s * (hist_v[q] - hist_v[q - 1])
    return hist_v[b - 1]


@njit(**KERNEL)
def history_rate(hist_start, hist_t, hist_v, h, t):
    """Time derivative of history h at t (the slope of its segment, 0 outside)."""
    a = hist_start[h]
    b = hist_start[h + 1]
    for q in range(a + 1, b):
        if hist_t[q - 1] <= t < hist_t[q]:
            return (hist_v[q] - hist_v[q - 1]) / (hist_t[q] - hist_t[q - 1])
    return 0.0


# --------------------------------------------------------------------- beam-column


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
def beam_end_forces(r1, r2, r3, EA, EI, L0, L):
    """Seed 000 eq. (1): M1 = 4EI/L r1 + 2EI/L r2, M2 = 2EI/L r1 + 4EI/L r2, N = EA/L r3.

    Returns (N, V, M1, M2) with V = (M1 + M2)/L the end shear by statics.
    """
    k = EI / L0
    M1 = 4.0 * k * r1 + 2.0 * k * r2
    M2 = 2.0 * k * r1 + 4.0 * k * r2
    N = EA / L0 * r3
    return N, (M1 + M2) / L, M1, M2


# ------------------------------------------------------------------------ triangle


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


# ------------------------------------------------------------------------ assembly


@njit(**KERNEL)
def eval_forces(m, pos, vel, t, chord, bar_on, beam_on, tri_on, force, bar_N, beam_out, tri_out):
    """Total force on every DOF at time t (seed 000 Fig. 1, box B); returns the power
    of the external loads (loads, gravity, ground motion) [W].

    Inputs: m ModelArrays; pos, vel (N, 3) [m, rad], [m/s, rad/s]; t [s];
    chord (Bm,) [rad] running chord angles; bar_on (B,), beam_on (Bm,), tri_on (T,) bool.
    Outputs, written in place: force (N, 3) [N, N, N m]; bar_N (B,) [N];
    beam_out (Bm, 4) [N, V, M1, M2]; tri_out (T, 4) [σx, σy, τxy (global axes) Pa,
    strain energy J].
    """
    n = pos.shape[0]
    g = m.gravity
    alpha = m.mass_damping
    ax = 0.0
    ay = 0.0
    if m.ground_ax_hist >= 0:
        ax = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ax_hist, t)
    if m.ground_ay_hist >= 0:
        ay = history_value(m.hist_start, m.hist_t, m.hist_v, m.ground_ay_hist, t)
    power = 0.0
    # Gravity and ground acceleration act on the translational mass; the structure is
    # seen from the ground, so the ground's acceleration a_g appears as −m a_g.
    gy = g + ay
    if alpha == 0.0 and ax == 0.0:  # the common case, kept lean: weight only
        for q in range(n):
            fy = -m.mass[q, 1] * gy
            power += fy * vel[q, 1]
            force[q, 0] = 0.0
            force[q, 1] = fy
            force[q, 2] = 0.0
    else:
        for q in range(n):
            fx = -m.mass[q, 0] * ax
            fy = -m.mass[q, 1] * gy
            power += fx * vel[q, 0] + fy * vel[q, 1]
            force[q, 0] = fx - alpha * m.mass[q, 0] * vel[q, 0]
            force[q, 1] = fy - alpha * m.mass[q, 1] * vel[q, 1]
            force[q, 2] = -alpha * m.mass[q, 2] * vel[q, 2]
    for e in range(m.load_node.shape[0]):
        s = 1.0
        if m.load_hist[e] >= 0:
            s = history_value(m.hist_start, m.hist_t, m.hist_v, m.load_hist[e], t)
        q = m.load_node[e]
        for d in range(3):
            f = s * m.load_f[e, d]
            force[q, d] += f
            power += f * vel[q, d]

    # Bars and cables: N = EA/L0 (L − L0) + c L̇, along the current chord.
    for e in range(m.bar_ij.shape[0]):
        if not bar_on[e]:
            bar_N[e] = 0.0
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
        bar_N[e] = N

    # Beams: U = ½ rᵀ K r. With e the chord direction and n its normal, ∂r3/∂x_j = e,
    # ∂β/∂x_j = n/L, ∂r1/∂β = ∂r2/∂β = −1, so −∂U/∂x_i = N e − V n, −∂U/∂x_j = −N e + V n,
    # and the end moments on the nodes are −M1 and −M2.
    for e in range(m.beam_ij.shape[0]):
        if not beam_on[e]:
            for c4 in range(4):
                beam_out[e, c4] = 0.0
            continue
        i = m.beam_ij[e, 0]
        j = m.beam_ij[e, 1]
        dx = pos[j, 0] - pos[i, 0]
        dy = pos[j, 1] - pos[i, 1]
        r1, r2, r3, L, _ = beam_deformation(
            dx,
            dy,
            pos[i, 2] - m.pos0[i, 2],
            pos[j, 2] - m.pos0[j, 2],
            chord[e],
            m.beam_chord0[e],
            m.beam_L0[e],
        )
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
            # Stability functions (engine/beam_stability.py); damping with the seed's
            # stiffness at rest, K0 β ṙ, which dissipates whatever the axial force.
            N, M1, M2, _ = stability_forces(r1, r2, r3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e])
            Nd, _, M1d, M2d = beam_end_forces(d1, d2, d3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e], L)
            N += Nd
            M1 += M1d
            M2 += M2d
            V = (M1 + M2) / L
        else:
            N, V, M1, M2 = beam_end_forces(r1 + d1, r2 + d2, r3 + d3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e], L)
        fx = N * ex + V * ey  # N e − V n with n = (−ey, ex)
        fy = N * ey - V * ex
        force[i, 0] += fx
        force[i, 1] += fy
        force[j, 0] -= fx
        force[j, 1] -= fy
        force[i, 2] -= M1
        force[j, 2] -= M2
        beam_out[e, 0] = N
        beam_out[e, 1] = V
        beam_out[e, 2] = M1
        beam_out[e, 3] = M2

    for e in range(m.tri_ijk.shape[0]):
        if not tri_on[e]:
            for c4 in range(4):
                tri_out[e, c4] = 0.0
            continue
        if m.tri_neo[e]:
            _neo_triangle(m, e, pos, vel, force, tri_out)
        else:
            _cst_triangle(m, e, pos, vel, force, tri_out)
    return power


@njit(**INNER, inline="always")
def _cst_triangle(m, e, pos, vel, force, tri_out):
    """Seed 000 constant-strain triangle. R = K r; the remaining forces by statics in
    the current geometry, which is also the exact gradient of ½ rᵀ K r:
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


@njit(**INNER, inline="always")
def _neo_triangle(m, e, pos, vel, force, tri_out):
    """Seed 003 compressible Neo-Hookean triangle, plane stress Lamé parameters
    λ = Eν/(1−ν²), μ = E/(2(1+ν)) so that it matches the linear triangle at small strain.
    F = D_s D_m⁻¹ with D_s = [x_j − x_i, x_k − x_i]; nodal forces −A0 t P D_m⁻ᵀ on (j, k).
    Element damping adds the Kelvin–Voigt stress β (λ tr Ė I + 2μ Ė), Ė = sym(Fᵀ Ḟ)."""
    i = m.tri_ijk[e, 0]
    j = m.tri_ijk[e, 1]
    k = m.tri_ijk[e, 2]
    E = m.tri_E[e]
    nu = m.tri_nu[e]
    lam = E * nu / (1.0 - nu * nu)
    mu = E / (2.0 * (1.0 + nu))
    a00 = m.tri_dm_inv[e, 0, 0]
    a01 = m.tri_dm_inv[e, 0, 1]
    a10 = m.tri_dm_inv[e, 1, 0]
    a11 = m.tri_dm_inv[e, 1, 1]
    s00 = pos[j, 0] - pos[i, 0]
    s10 = pos[j, 1] - pos[i, 1]
    s01 = pos[k, 0] - pos[i, 0]
    s11 = pos[k, 1] - pos[i, 1]
    f11 = s00 * a00 + s01 * a10
    f12 = s00 * a01 + s01 * a11
    f21 = s10 * a00 + s11 * a10
    f22 = s10 * a01 + s11 * a11
    p11, p12, p21, p22, W, J = neo_hookean_pk1(f11, f12, f21, f22, lam, mu)
    b = m.tri_beta[e]
    if b != 0.0:
        v00 = vel[j, 0] - vel[i, 0]
        v10 = vel[j, 1] - vel[i, 1]
        v01 = vel[k, 0] - vel[i, 0]
        v11 = vel[k, 1] - vel[i, 1]
        d11 = v00 * a00 + v01 * a10
        d12 = v00 * a01 + v01 * a11
        d21 = v10 * a00 + v11 * a10
        d22 = v10 * a01 + v11 * a11
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


def strain_energy(m, pos, chord, bar_on, beam_on, tri_out) -> float:
    """Elastic strain energy [J] of all active elements at pos (tri_out from eval_forces)."""
    return float(_strain_energy(m, pos, chord, bar_on, beam_on) + tri_out[:, 3].sum())


@njit(**KERNEL)
def _strain_energy(m, pos, chord, bar_on, beam_on):
    u = 0.0
    for e in range(m.bar_ij.shape[0]):
        if bar_on[e]:
            i = m.bar_ij[e, 0]
            j = m.bar_ij[e, 1]
            L = math.hypot(pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1])
            d = L - m.bar_L0[e]
            if not (m.bar_cable[e] and d < 0.0):
                u += 0.5 * m.bar_EA[e] / m.bar_L0[e] * d * d
    for e in range(m.beam_ij.shape[0]):
        if beam_on[e]:
            i = m.beam_ij[e, 0]
            j = m.beam_ij[e, 1]
            r1, r2, r3, L, _ = beam_deformation(
                pos[j, 0] - pos[i, 0],
                pos[j, 1] - pos[i, 1],
                pos[i, 2] - m.pos0[i, 2],
                pos[j, 2] - m.pos0[j, 2],
                chord[e],
                m.beam_chord0[e],
                m.beam_L0[e],
            )
            if m.beam_stability[e]:
                u += stability_forces(r1, r2, r3, m.beam_EA[e], m.beam_EI[e], m.beam_L0[e])[3]
            else:
                k = m.beam_EI[e] / m.beam_L0[e]
                u += 0.5 * (4.0 * k * (r1 * r1 + r1 * r2 + r2 * r2)) + 0.5 * m.beam_EA[e] / m.beam_L0[e] * r3 * r3
    return u
