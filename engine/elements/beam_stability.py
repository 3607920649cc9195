"""The beam-column with axial–flexural interaction: stability functions, so that one
element per member buckles where Euler says.

The seed's beam-column (seed 000 eq. 1) bends with the same 4EI/L, 2EI/L whatever its
axial force; only the turning of its chord carries the load's P-Δ. One element of it
between two pins never buckles, and n elements buckle (π/n)²/12 above Euler. This
element solves the beam-column's own equation EI w'''' − N w'' = 0 inside the element,
so its bending stiffness falls with compression and rises with tension exactly as the
member's does (P-δ as well as P-Δ).

Glossary (SI): r1, r2 end rotations from the chord [rad]; r3 = L − L0 [m]; EA [N],
EI [N m²], L0 [m]; N axial force [N], tension positive; M1, M2 end moments [N m];
a = (r1 − r2)/2 the single-curvature part of the rotations, b = (r1 + r2)/2 the
double-curvature part; z = −N L0²/(4EI) the load parameter (z = (φ/2)², φ = L√(P/EI),
P = −N the compression); t = √z cot √z (√−z coth √−z in tension); A, B the stiffnesses
of the two parts in units of EI/L0; U strain energy [J].

Derivation. With w(x) the deflection from the chord and N constant along the element,
the strain energy counts the axis's bowing in its mean axial strain:
    U = ½∫EI w''² dx + ½ EA L0 ε̄²,   ε̄ = (r3 + ½∫w'² dx) / L0,
and the element's energy U*(r1, r2, r3) is its least over the shapes w with the given
end rotations. Writing ½ EA L0 ε̄² = max_N [N L0 ε̄ − N² L0/(2EA)] (a Legendre transform)
and exchanging min and max,
    U*(r) = max_N [Φ(r1, r2, N) + N r3 − N² L0/(2EA)],
    Φ(r1, r2, N) = stationary_w [½∫EI w''² + ½ N ∫w'²],
whose Euler–Lagrange equation is the beam-column's. Its solution gives the stability
functions (Livesley & Chandler 1956; s(1 − c) = φ cot(φ/2), s(1 + c) = φ²/(2 − φ cot φ/2)):
    Φ = (EI/L0) (A a² + B b²),   A = 2t,   B = 2z/(1 − t);
at z = 0, A = 2 and B = 6, the seed's matrix (EI/L0)[[4, 2], [2, 4]]. The best N solves
    g(N) = r3 + Φ_N − N L0/EA = 0,    Φ_N = ½∫w'² dx (the chord's shortening by bowing),
and by the envelope theorem the forces are U*'s exact gradient, so energy is conserved:
    N = ∂U*/∂r3,   M1 = ∂Φ/∂r1 = (EI/L0)(A a + B b),   M2 = (EI/L0)(−A a + B b).
The tangent d²U*/dr² is the Schur complement of the stationarity in N (see
`stability_tangent`).

Buckling, exactly with one element: between pins (a free), A = 0 at √z = π/2, i.e.
P = π²EI/L²; a member whose ends are held from turning sways (r1 = r2 = −ψ, b = −ψ)
when its bending energy (EI/L0) B ψ² no longer pays for the work P L0 ψ²/2 of the load
as the chord turns, B = 2z, i.e. t = 0: the same load; a cantilever at P = π²EI/(4L²).
Its sway under a lateral load H at the tip grows as 3(tan φ − φ)/φ³ times the
first-order one, ≈ 1/(1 − P/P_cr).

Past z = π² (compression at the element's own clamped–clamped Euler load 4π²EI/L0²,
which it cannot show: the mode has no end motion) t has a pole. A member there has long
buckled; A and B are continued linearly from Z_CAP on, which keeps U* smooth (C¹) and
concave in N, so it stays an energy and the force solve stays unique.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from numba import njit

from equilibria.engine.compiled.options import KERNEL


def _cot_series(terms: int) -> np.ndarray:
    """Coefficients c_n of u cot u = Σ c_n z^n, z = u²: c_n = (−4)^n B_2n / (2n)!, from
    the Bernoulli numbers (the recurrence Σ_{k<m} C(m+1, k) B_k = −(m+1) B_m)."""
    bern = [Fraction(1)]
    for m in range(1, 2 * terms):
        bern.append(-sum(math.comb(m + 1, k) * bern[k] for k in range(m)) / (m + 1))
    return np.array([float((-4) ** n * bern[2 * n] / math.factorial(2 * n)) for n in range(terms)])


COT = _cot_series(24)  # |c_n| ≈ 2/π^2n: 24 terms hold 1e-17 for |z| ≤ SERIES_Z
SERIES_Z = 1.0  # |z| below which t, t', t'' come from the series (no cancellation)
Z_CAP = 0.95 * math.pi**2  # where A, B go on linearly (see the module's note)
NEWTON_MAX = 60


@njit(**KERNEL)
def _t_and_w(z):
    """t = √z cot √z and w = (1 − t)/z with their first two z-derivatives:
    (t, t', t'', w, w', w''). Series below SERIES_Z; above, the closed forms with
    t' = (t − t² − z)/(2z), t'' = −(t'(1 + 2t) + 1)/(2z) (from d/du (u cot u)),
    w' = −(t' + w)/z, w'' = −(t'' + 2w')/z (from w z = 1 − t)."""
    if abs(z) < SERIES_Z:
        t = 0.0
        t1 = 0.0
        t2 = 0.0
        w = 0.0
        w1 = 0.0
        w2 = 0.0
        # Terms up to c_top: w'' starts at c_3, and each series needs as many terms past
        # its first as |c_n z^n| ≈ 2 (|z|/π²)^n takes to fall below 1e-17: top = 7 for
        # a member at a few percent of its Euler load, 20 at |z| = 1.
        q = abs(z) / (math.pi * math.pi)
        top = 4
        power = q
        while power > 5e-18 and top < COT.shape[0] - 1:
            power *= q
            top += 1
        for n in range(top, -1, -1):  # Horner, highest power first
            c = COT[n]
            t = t * z + c
            if n >= 1:
                t1 = t1 * z + n * c
                w = w * z - c
            if n >= 2:
                t2 = t2 * z + n * (n - 1) * c
                w1 = w1 * z - (n - 1) * c
            if n >= 3:
                w2 = w2 * z - (n - 1) * (n - 2) * c
        return t, t1, t2, w, w1, w2
    if z > 0.0:
        u = math.sqrt(z)
        t = u * math.cos(u) / math.sin(u)
    else:
        u = math.sqrt(-z)
        t = u / math.tanh(u)
    t1 = (t - t * t - z) / (2.0 * z)
    t2 = -(t1 * (1.0 + 2.0 * t) + 1.0) / (2.0 * z)
    w = (1.0 - t) / z
    w1 = -(t1 + w) / z
    w2 = -(t2 + 2.0 * w1) / z
    return t, t1, t2, w, w1, w2


@njit(**KERNEL)
def stability_functions(z):
    """(A, A', A'', B, B', B'') at z, derivatives in z: A = 2t, B = 2/w (= 2z/(1 − t)),
    continued linearly past Z_CAP."""
    zz = min(z, Z_CAP)
    t, t1, t2, w, w1, w2 = _t_and_w(zz)
    A = 2.0 * t
    A1 = 2.0 * t1
    A2 = 2.0 * t2
    B = 2.0 / w
    B1 = -2.0 * w1 / (w * w)
    B2 = -2.0 * w2 / (w * w) + 4.0 * w1 * w1 / (w * w * w)
    if z > Z_CAP:
        A += A1 * (z - Z_CAP)
        B += B1 * (z - Z_CAP)
        A2 = 0.0
        B2 = 0.0
    return A, A1, A2, B, B1, B2


@njit(**KERNEL)
def stability_axial(r1, r2, r3, EA, EI, L0):
    """The axial force N [N] that makes U*'s Legendre form stationary, g(N) = 0 (see
    the module's note), and the stability functions there: (N, A, A', A'', B, B', B'').

    Bowing only shortens the chord (Φ_N ≥ 0), and Φ_N falls as N grows (Φ concave in N),
    so the root lies in [N0, N0 + EA/L0 Φ_N(N0)] with N0 = EA r3/L0 its value without
    bowing. Newton from N0, kept inside that bracket by bisection."""
    a = 0.5 * (r1 - r2)
    b = 0.5 * (r1 + r2)
    s = L0 * L0 / (4.0 * EI)  # z = −s N
    flex = L0 / EA
    N = r3 / flex
    A, A1, A2, B, B1, B2 = stability_functions(-s * N)
    bow = -0.25 * L0 * (A1 * a * a + B1 * b * b)  # Φ_N ≥ 0
    if bow <= 0.0:
        return N, A, A1, A2, B, B1, B2
    lo = N
    hi = N + bow / flex
    tol = 4e-15 * (abs(N) + bow / flex)  # above g's round-off, ~ε (|r3| + Φ_N)
    last = math.inf  # the first Newton step is always taken (if inside the bracket)
    for _ in range(NEWTON_MAX):
        g = r3 + bow - N * flex
        if g > 0.0:
            lo = N
        else:
            hi = N
        dg = L0 * L0 * L0 / (16.0 * EI) * (A2 * a * a + B2 * b * b) - flex  # Φ_NN − L0/EA < 0
        if abs(g) <= tol * flex:
            break  # |g'| ≥ L0/EA, so N is the root to tol: the functions at N stand
        nxt = N - g / dg
        # Newton, unless it leaves the bracket (the first step lands on hi itself where
        # Φ_NN ≈ 0, hence the margin) or would not halve the step before last (it can
        # cycle across the kink at Z_CAP): then bisection (rtsafe, Numerical Recipes 9.4).
        if not (lo - tol <= nxt <= hi + tol) or abs(2.0 * g) > abs(last * dg):
            nxt = 0.5 * (lo + hi)
        last = abs(nxt - N)
        N = nxt
        A, A1, A2, B, B1, B2 = stability_functions(-s * N)
        bow = -0.25 * L0 * (A1 * a * a + B1 * b * b)
        if hi - lo <= tol:
            break
    return N, A, A1, A2, B, B1, B2


@njit(**KERNEL)
def stability_forces(r1, r2, r3, EA, EI, L0):
    """(N, M1, M2, U): the axial force, end moments and strain energy at deformations
    (r1, r2, r3); N = ∂U/∂r3, M_i = ∂U/∂r_i exactly."""
    N, A, _, _, B, _, _ = stability_axial(r1, r2, r3, EA, EI, L0)
    a = 0.5 * (r1 - r2)
    b = 0.5 * (r1 + r2)
    k = EI / L0
    U = k * (A * a * a + B * b * b) + N * r3 - 0.5 * N * N * L0 / EA
    return N, k * (A * a + B * b), k * (B * b - A * a), U


@njit(**KERNEL)
def stability_tangent(r1, r2, r3, EA, EI, L0, out):
    """d²U*/dr² (3, 3) written to out, r = (r1, r2, r3); returns stability_forces's
    (N, M1, M2, U), which come with it. Implicitly differentiating
    g(N(r), r) = 0 gives dN/dr_i = Φ_Nr_i / D and dN/dr3 = 1/D with D = L0/EA − Φ_NN > 0,
    so the tangent is the Schur complement
        K_rr = Φ_rr + Φ_rN Φ_Nrᵀ / D,   K_r3 = Φ_rN / D,   K_33 = 1/D."""
    N, A, A1, A2, B, B1, B2 = stability_axial(r1, r2, r3, EA, EI, L0)
    a = 0.5 * (r1 - r2)
    b = 0.5 * (r1 + r2)
    k = EI / L0
    D = L0 / EA - L0 * L0 * L0 / (16.0 * EI) * (A2 * a * a + B2 * b * b)
    c1 = -0.25 * L0 * (A1 * a + B1 * b)  # ∂M1/∂N
    c2 = -0.25 * L0 * (B1 * b - A1 * a)  # ∂M2/∂N
    out[0, 0] = 0.5 * k * (A + B) + c1 * c1 / D
    out[1, 1] = 0.5 * k * (A + B) + c2 * c2 / D
    out[0, 1] = out[1, 0] = 0.5 * k * (B - A) + c1 * c2 / D
    out[0, 2] = out[2, 0] = c1 / D
    out[1, 2] = out[2, 1] = c2 / D
    out[2, 2] = 1.0 / D
    U = k * (A * a * a + B * b * b) + N * r3 - 0.5 * N * N * L0 / EA
    return N, k * (A * a + B * b), k * (B * b - A * a), U


@njit(**KERNEL)
def _w_excess(z, w):
    """v = (w − 1/3)/z, from the series of w (w = −Σ_{n≥1} c_n z^(n−1), so
    v = −Σ_{n≥2} c_n z^(n−2)) where |z| < SERIES_Z (the difference would cancel), else
    directly."""
    if abs(z) >= SERIES_Z:
        return (w - 1.0 / 3.0) / z
    v = 0.0
    for n in range(COT.shape[0] - 1, 1, -1):
        v = v * z - COT[n]
    return v


@njit(**KERNEL)
def span_loads(qi, qj, L, z):
    """The equivalent nodal loads (F_i, M_i, F_j, M_j) [N, N m] of a transverse load q_i
    → q_j [N/m] (across the member, i→j turned counter-clockwise) on a beam-column of
    length L [m] at load parameter z (module glossary): its fixed-end forces, so that
    with the element's exact stiffness the nodes move as the member's do.

    Derivation (the moment along a clamped beam-column, engine/member_loads.py's note:
    M'' + k²M = q, z = (kL/2)²). The uniform part q̄ = (q_i + q_j)/2 gives the end
    moments q̄L²/12 · 3(tan u − u)/(u² tan u) = q̄L² w/4 (u = √z, w = (1 − t)/z); the
    antisymmetric part Δ(x/L − ½), Δ = q_j − q_i, has M(L/2) = 0 and, from w'(0) = 0,
        M(0) = −M(L) = ΔL² (1/3 − w) / (8 z w) = −ΔL² v / (8w),   v = (w − 1/3)/z;
    at z = 0 (w = 1/3, v = 1/45) these are qL²/12 and −ΔL²/120, the Hermite loads. The
    shears follow by statics of the chord: F_i = −((c − a)/L + M_ss'(0)) and F_j =
    (c − a)/L + M_ss'(L), a = M(0), c = M(L), M_ss the simple span's moment. Past Z_CAP
    the values at Z_CAP are kept (the member has long buckled)."""
    zz = min(z, Z_CAP)
    _, _, _, w, _, _ = _t_and_w(zz)
    v = _w_excess(zz, w)
    sym = 0.125 * (qi + qj) * L * L * w
    anti = -(qj - qi) * L * L * v / (8.0 * w)
    a = sym + anti
    c = sym - anti
    turn = (c - a) / L
    delta = qj - qi
    return -(turn - 0.5 * qi * L - delta * L / 6.0), a, turn + 0.5 * qi * L + delta * L / 3.0, -c


RELEASE_I = 1  # bits of ModelArrays.beam_release: the moment at end i is released
RELEASE_J = 2  # … at end j


RELEASE_NEWTON = 30  # iterations at most for a pinned end's rotation in a 'stability' beam


@njit(**KERNEL)
def stability_released(r1, r2, r3, EA, EI, L0, release):
    """(r1, r2) of a 'stability' beam with its released ends' rotations solved for a zero
    moment there (module note: U*'s least over them; engine/elements/beam_stability.py). Both
    released: r1 = r2 = 0 (M1 = M2 = 0 gives a = b = 0). One: Newton on the free
    rotation from the seed's condensed value (−½ the other), with ∂M/∂r its diagonal
    term of the tangent, ½ k (A + B) + c²/D (stability_tangent); where that is not
    positive (past the pinned end's own buckling, long after the member's) it stops."""
    if release == 0:
        return r1, r2
    if release == RELEASE_I | RELEASE_J:
        return 0.0, 0.0
    if release == RELEASE_J:
        r2 = -0.5 * r1
    else:
        r1 = -0.5 * r2
    k = EI / L0
    for _ in range(RELEASE_NEWTON):
        _, A, A1, A2, B, B1, B2 = stability_axial(r1, r2, r3, EA, EI, L0)
        a = 0.5 * (r1 - r2)
        b = 0.5 * (r1 + r2)
        D = L0 / EA - L0 * L0 * L0 / (16.0 * EI) * (A2 * a * a + B2 * b * b)
        if release == RELEASE_J:
            M = k * (B * b - A * a)
            c = -0.25 * L0 * (B1 * b - A1 * a)
        else:
            M = k * (A * a + B * b)
            c = -0.25 * L0 * (A1 * a + B1 * b)
        d = 0.5 * k * (A + B) + c * c / D
        if not d > 0.0:
            break
        step = M / d
        if release == RELEASE_J:
            r2 -= step
        else:
            r1 -= step
        if abs(step) <= 1e-15 * (abs(r1) + abs(r2)):
            break
    return r1, r2
