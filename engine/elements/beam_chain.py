"""A 'stability' member past Euler's load: its law from a chain of hidden sub-elements.

One element with stability functions (engine/elements/beam_stability.py) buckles where Euler says,
but its bending is small-rotation theory: past the buckling load its bent shape has no
stiffness left to find (the post-buckling path of second-order theory is flat), so under
a load above P_cr it bends on until its chord folds through its own support. The
elastica does not: its load rises with the bending (P/P_cr ≈ 1 + θ0²/8 between pins).

A member bent enough from its chord is therefore carried by SUB co-rotational
sub-elements with stability functions, end to end along its chord, whose SUB − 1 inner
nodes are hidden: they have no mass and no place in the model, and stand where the
chain is in equilibrium for the member's end rotations and chord (static condensation).
The member's law is the chain's least energy over its inner nodes,
    U₄(r1, r2, r3) = min_q Σ U*_s(q; r),
and its forces R = (M1, M2, N) = ∂U₄/∂r are the chain's end forces there (envelope
theorem); its tangent is the Schur complement K_rr − K_rq K_qq⁻¹ K_qr. Each sub-element
turns through its own chord, so the chain follows large rotations as a many-element
column does (four: the elastica's end rotation to 1e-3 at 1.03–1.5 P_cr between pins);
with small rotations it is the one element's law (both solve the beam-column's own
equation; they differ by O(θ²)).

The chain costs 7–25 Newton passes, each of SUB sub-element evaluations and a 9 × 9
solve (it starts each time from the end rotations' cubic: nothing of it is kept between
steps), so a member uses it only where
its end rotations from its chord, ρ = √(r1² + r2²), are large enough for the one
element's small-rotation bending to matter: the energy is blended,
U = U₁ + w (U₄ − U₁), w = S((ρ − RHO0)/(RHO1 − RHO0)) with S the smoothstep, and the
forces are its exact gradient, R = R₁ + w (R₄ − R₁) + (U₄ − U₁) ∇w, so energy is still
conserved. Below RHO0 (3°) the member is exactly the one element, as before; past RHO1
(6°) it is the chain. A member past Euler's load gets there as it bends (at 1.001 P_cr
between pins the elastica's end rotation is 0.09 rad; just past P_cr, inside the blend,
the sway is part the one element's and a few % off the elastica's).

A member with a pinned end (`release`) has no moment there: its rotation at that end is
the member's own. The one element solves it for a zero moment (engine/elements/beam_stability.py,
stability_released), and the chain settles it with its inner nodes, starting from that
value; the blend then reads ρ = |r| of the held end alone (the pinned end's rotation
follows it), and the law is a function of the held end's rotation and the stretch, its
pinned row and column of the tangent zero. A member pinned at both ends has no bending
the one element can see (it is a bar); it stays on the one element.

Past 2.18 P_cr between pins the elastica's ends pass each other in a loop: a member
between a pin and a roller on their one line cannot follow it (its chord would turn
over through zero length), and nothing here claims it can. The blend is on ρ only: one on
the axial force as well (to keep the chain to compressed members) makes w as stiff as
EA/L0 along the chord, and relaxation with the fictitious masses of the straight
structure then no longer settles; a member in tension bent past 3° is carried by the
chain too, which follows its large rotation better.

Glossary: SUB sub-elements of length l0 = L0/SUB; chain nodes 0..SUB along the member's
chord frame (x from end i to end j), node 0 at (0, 0) turned r1, node SUB at (L0 + r3, 0)
turned r2; q the inner nodes' (x, y, θ) [m, m, rad]; the others as engine/elements/beam.py.

Scratch arrays live on the stack (`stack_array`, engine/compiled/slots.py): the force kernels run without numba's
runtime and may not allocate.
"""

from __future__ import annotations

import math

from numba import njit

from equilibria.engine.compiled.options import KERNEL
from equilibria.engine.compiled.slots import stack_array
from equilibria.engine.elements.beam_stability import RELEASE_I, RELEASE_J, stability_forces, stability_released, stability_tangent

SUB = 4  # sub-elements per member in the chain (module note; 2 are 3 % off the elastica)
NODES = SUB + 1
DOFS = 3 * NODES  # the chain's DOFs, node by node (x, y, θ)
INNER_DOFS = 3 * (SUB - 1)
FREE_MOST = INNER_DOFS + 2  # the DOFs the chain settles: its inner nodes', and each released end's rotation
WORK = FREE_MOST + 3  # a system on those with up to 3 right-hand sides
RHO0, RHO1 = 0.05, 0.1  # the blend in ρ [rad] (module note)
NEWTON_MAX = 100  # passes of the chain's Newton (a squeezed chain from a poor first guess takes 50–100)
# The member's DOFs in the chain: r1 = θ of node 0, r2 = θ of node SUB, r3 = x of node SUB.
ENDS = (2, 3 * SUB + 2, 3 * SUB)


@njit(**KERNEL)
def corotational_block(ex, ey, L, kr, N, M, out, a0, b0):
    """Add a co-rotational beam's tangent on its DOFs (x_i, y_i, θ_i, x_j, y_j, θ_j) to
    out, the rows and columns of end i from a0, of end j from b0 (engine/elements/beam.py's
    note): Gᵀ kr G + the chord's turning, H = N n nᵀ/L + M (e nᵀ + n eᵀ)/L² on
    d = x_j − x_i, with kr = ∂R/∂r (3, 3), N the axial force, M = M1 + M2."""
    nx = -ey
    ny = ex
    G = stack_array(3, 6)  # rows r1, r2, r3 (engine/elements/beam.py's note)
    for a in range(2):
        G[a, 0] = nx / L
        G[a, 1] = ny / L
        G[a, 2] = 1.0 - a
        G[a, 3] = -nx / L
        G[a, 4] = -ny / L
        G[a, 5] = a
    G[2, 0] = -ex
    G[2, 1] = -ey
    G[2, 2] = 0.0
    G[2, 3] = ex
    G[2, 4] = ey
    G[2, 5] = 0.0
    for p in range(6):
        rp = (a0 if p < 3 else b0 - 3) + p
        for q in range(6):
            s = 0.0
            for a in range(3):
                for b in range(3):
                    s += G[a, p] * kr[a, b] * G[b, q]
            out[rp, (a0 if q < 3 else b0 - 3) + q] += s
    hxx = N * nx * nx / L + M * 2.0 * ex * nx / (L * L)
    hxy = N * nx * ny / L + M * (ex * ny + nx * ey) / (L * L)
    hyy = N * ny * ny / L + M * 2.0 * ey * ny / (L * L)
    for a in (a0, b0):
        for b in (a0, b0):
            sign = 1.0 if a == b else -1.0
            out[a, b] += sign * hxx
            out[a, b + 1] += sign * hxy
            out[a + 1, b] += sign * hxy
            out[a + 1, b + 1] += sign * hyy


@njit(**KERNEL)
def _assemble(X, EA, EI, l0, g, K, kr):
    """The chain's energy [J] at node positions X (NODES, 3); its gradient to g
    (DOFS, 1) and its Hessian to K (DOFS, DOFS). kr: (3, 3) scratch."""
    for a in range(DOFS):
        g[a, 0] = 0.0
        for b in range(DOFS):
            K[a, b] = 0.0
    U = 0.0
    for s in range(SUB):
        dx = X[s + 1, 0] - X[s, 0]
        dy = X[s + 1, 1] - X[s, 1]
        L = math.sqrt(dx * dx + dy * dy)
        beta = math.atan2(dy, dx)
        r1 = X[s, 2] - beta
        r2 = X[s + 1, 2] - beta
        N, M1, M2, u = stability_tangent(r1, r2, L - l0, EA, EI, l0, kr)
        U += u
        ex = dx / L
        ey = dy / L
        V = (M1 + M2) / L
        a = 3 * s
        g[a, 0] += -N * ex - V * ey  # V n − N e, n = (−ey, ex)
        g[a + 1, 0] += -N * ey + V * ex
        g[a + 2, 0] += M1
        g[a + 3, 0] += N * ex + V * ey
        g[a + 4, 0] += N * ey - V * ex
        g[a + 5, 0] += M2
        corotational_block(ex, ey, L, kr, N, M1 + M2, K, a, a + 3)
    return U


@njit(**KERNEL)
def _solve(A, n, rhs):
    """Solve A[:n, :n] Y = A[:n, n:n + rhs] in place (Y left in those columns), by
    Gaussian elimination with partial pivoting. False if A is singular."""
    for c in range(n):
        p = c
        for r in range(c + 1, n):
            if abs(A[r, c]) > abs(A[p, c]):
                p = r
        if A[p, c] == 0.0:
            return False
        if p != c:
            for k in range(c, n + rhs):
                A[c, k], A[p, k] = A[p, k], A[c, k]
        for r in range(c + 1, n):
            f = A[r, c] / A[c, c]
            if f != 0.0:
                for k in range(c, n + rhs):
                    A[r, k] -= f * A[c, k]
    for c in range(n - 1, -1, -1):
        for k in range(n, n + rhs):
            s = A[c, k]
            for r in range(c + 1, n):
                s -= A[c, r] * A[r, k]
            A[c, k] = s / A[c, c]
    return True


@njit(**KERNEL)
def _start(X, r1, r2, L, l0):
    """A first guess of the chain: the end rotations' cubic (Hermite) slope θ(ξ), its
    sub-elements laid at their rest length along it, and the gap left at the far end
    spread along the chain so that node SUB lands on (L, 0)."""
    X[0, 0] = 0.0
    X[0, 1] = 0.0
    for s in range(SUB + 1):
        xi = s / SUB
        X[s, 2] = r1 * (1.0 - 4.0 * xi + 3.0 * xi * xi) + r2 * (3.0 * xi * xi - 2.0 * xi)
        if s < SUB:
            xm = (s + 0.5) / SUB
            phi = r1 * (1.0 - 4.0 * xm + 3.0 * xm * xm) + r2 * (3.0 * xm * xm - 2.0 * xm)
            X[s + 1, 0] = X[s, 0] + l0 * math.cos(phi)
            X[s + 1, 1] = X[s, 1] + l0 * math.sin(phi)
    gx = L - X[SUB, 0]
    gy = -X[SUB, 1]
    for s in range(1, SUB + 1):
        X[s, 0] += gx * s / SUB
        X[s, 1] += gy * s / SUB
    X[SUB, 1] = 0.0
    X[SUB, 0] = L


@njit(**KERNEL)
def _copy(src, dst):
    """dst[:, :] = src (2-D, same shape), without numba's runtime."""
    for a in range(src.shape[0]):
        for b in range(src.shape[1]):
            dst[a, b] = src[a, b]


@njit(**KERNEL)
def _free_dof(a, lead):
    """The chain DOF of the a-th DOF it settles: node 0's rotation first if end i is
    released (lead = 1), then the inner nodes', then node SUB's rotation if end j is."""
    if a < lead:
        return 2
    if a < lead + INNER_DOFS:
        return 3 + a - lead
    return 3 * SUB + 2


@njit(**KERNEL)
def _solved(g, lead, nf):
    """True if no DOF the chain settles has a force or moment out of balance at all."""
    unbalanced = 0
    for a in range(nf):
        unbalanced += g[_free_dof(a, lead), 0] != 0.0
    return unbalanced == 0


@njit(**KERNEL)
def chain_law(r1, r2, r3, EA, EI, L0, kr, X, release):
    """(N, M1, M2, U, ok) of the member carried by the chain (module note) at its
    deformations (r1, r2, r3); its tangent ∂R/∂r (3, 3) written to kr, and the chain's
    nodes (x, y, θ) [m, m, rad] in the member's chord frame to X (NODES, 3) (the forces
    along a bent member read them: engine/member_loads.py). A released end (`release`,
    engine/elements/beam_stability.py's bits) is a rotation the chain settles too, from the given
    r1 or r2: its moment is zero, and so are its row and column of kr. ok False if the
    chain found no equilibrium (then the values are the last iterate's)."""
    g = stack_array(DOFS, 1)
    K = stack_array(DOFS, DOFS)
    gX = stack_array(DOFS, 1)
    KX = stack_array(DOFS, DOFS)
    A = stack_array(FREE_MOST, WORK)
    Xt = stack_array(NODES, 3)
    k3 = stack_array(3, 3)
    lead = 1 if release & RELEASE_I else 0
    nf = lead + INNER_DOFS + (1 if release & RELEASE_J else 0)
    l0 = L0 / SUB
    _start(Xt, r1, r2, L0 + r3, l0)
    Xt[0, 2] = r1
    Xt[SUB, 2] = r2
    # Newton on the energy, kept a descent by Levenberg–Marquardt: (K + μ D) d = −g with
    # D = diag |K|, μ raised tenfold while the step does not lower U (far from the
    # answer, with the chain squeezed, K need not be positive), lowered as steps land.
    # Each pass evaluates the chain once, at the trial Xt (one call of _assemble: the
    # compiled kernel holds one copy of it); X, gX, KX are the last accepted.
    U = math.inf
    mu = 0.0
    ok = False
    last = math.inf
    step = math.inf
    for it in range(NEWTON_MAX):
        Ut = _assemble(Xt, EA, EI, l0, g, K, k3)
        if it > 0 and Ut > U + 1e-12 * abs(U) and mu < 1e12:  # (1e-12: U's round-off)
            mu = max(1e-6, 10.0 * mu)  # rejected: a shorter, more downhill step from X
        else:
            _copy(Xt, X)
            _copy(g, gX)
            _copy(K, KX)
            U = Ut
            # Converged once a step is at round-off of the chain's size and rotations
            # (μ ≤ 1: at most half a Newton step; quadratic convergence: the one before
            # was its square root), or Newton steps (μ = 0) stop shrinking there.
            if it > 0 and ((step <= 1e-13 and mu <= 1.0) or (mu == 0.0 and step <= 1e-9 and step >= 0.5 * last)):
                ok = True
                break
            if it > 0:
                last = step if mu == 0.0 else math.inf
                mu = 0.0 if mu <= 1e-6 else 0.1 * mu
        big = -1.0
        while big < 0.0:
            for a in range(nf):
                da = _free_dof(a, lead)
                for b in range(nf):
                    A[a, b] = KX[da, _free_dof(b, lead)]
                A[a, a] += mu * abs(KX[da, da])
                A[a, nf] = -gX[da, 0]
            slope = 0.0
            if _solve(A, nf, 1):
                for a in range(nf):
                    slope += gX[_free_dof(a, lead), 0] * A[a, nf]
            if slope < 0.0:
                big = 0.0
            elif mu == 0.0 and slope == 0.0 and _solved(gX, lead, nf):
                break  # in balance exactly
            elif mu >= 1e12:
                break
            else:  # singular, or not downhill: lean toward steepest descent
                mu = max(1e-6, 10.0 * mu)
        if big < 0.0:
            ok = mu < 1e12
            break
        # At most half a sub-element and 0.5 rad at once.
        for a in range(nf):
            big = max(big, abs(A[a, nf]) / (1.0 if _free_dof(a, lead) % 3 == 2 else l0))
        scale = 1.0 if big <= 0.5 else 0.5 / big
        step = big * scale
        _copy(X, Xt)
        for a in range(nf):
            da = _free_dof(a, lead)
            Xt[da // 3, da % 3] += scale * A[a, nf]
    # Forces and tangent at the last accepted iterate X: the Schur complement on the
    # member's DOFs (r1, r2, r3 = node 0's θ, node SUB's θ, node SUB's x).
    g = gX
    K = KX
    N = g[ENDS[2], 0]
    M1 = 0.0 if release & RELEASE_I else g[ENDS[0], 0]
    M2 = 0.0 if release & RELEASE_J else g[ENDS[1], 0]
    for a in range(nf):
        da = _free_dof(a, lead)
        for b in range(nf):
            A[a, b] = K[da, _free_dof(b, lead)]
        for c in range(3):
            A[a, nf + c] = K[da, ENDS[c]]
    if not _solve(A, nf, 3):
        return N, M1, M2, U, False
    for p in range(3):
        for q in range(3):
            s = K[ENDS[p], ENDS[q]]
            for a in range(nf):
                s -= K[ENDS[p], _free_dof(a, lead)] * A[a, nf + q]
            kr[p, q] = s
    for c in range(2):  # a released rotation is the chain's own: exactly nothing
        if release & (1 << c):
            for p in range(3):
                kr[p, c] = 0.0
                kr[c, p] = 0.0
    return N, M1, M2, U, ok


@njit(**KERNEL)
def _smooth(x):
    """The smoothstep S(x) = 3x² − 2x³ on [0, 1] (0 below, 1 above), S'(x) and S''(x)."""
    if x <= 0.0 or x >= 1.0:
        return (0.0 if x <= 0.0 else 1.0), 0.0, 0.0
    return x * x * (3.0 - 2.0 * x), 6.0 * x * (1.0 - x), 6.0 - 12.0 * x


@njit(**KERNEL)
def chain_start(r1, r2, r3, EA, EI, L0, release):
    """(r1, r2, ρ): the end rotations the chain starts from, a released end's solved on
    the one element for its zero moment (stability_released), and how far the member
    is bent, ρ, which the blend reads (module note): √(r1² + r2²), or with one end
    released the held end's |r| (the released one follows it), 0 with both."""
    if release:
        r1, r2 = stability_released(r1, r2, r3, EA, EI, L0, release)
    if release == RELEASE_I | RELEASE_J:
        return r1, r2, 0.0
    if release == RELEASE_I:
        return r1, r2, abs(r2)
    if release == RELEASE_J:
        return r1, r2, abs(r1)
    return r1, r2, math.sqrt(r1 * r1 + r2 * r2)


@njit(**KERNEL, inline="always")
def member_law(r1, r2, r3, EA, EI, L0, release, tangent, kr):
    """(N, M1, M2, U) of a 'stability' member at (r1, r2, r3): one element with
    stability functions, blended into the chain where it is bent past RHO0 (module
    note); with tangent, its tangent ∂R/∂r (3, 3), R = (M1, M2, N), written to kr.
    A released end (`release`) carries no moment, and its rotation, solved within the
    member, has no row or column in kr (static condensation: engine/elements/beam.py's note).
    The force kernels reach it through a slot (engine/elements/beam.py), so it is compiled once."""
    s1, s2, rho = chain_start(r1, r2, r3, EA, EI, L0, release)
    if tangent:
        N, M1, M2, U = stability_tangent(s1, s2, r3, EA, EI, L0, kr)
        for c in range(2):  # the released rotation condensed out: the Schur complement
            if release & (1 << c) and kr[c, c] != 0.0:
                piv = kr[c, c]
                for p in range(3):
                    for q in range(3):
                        if p != c and q != c:
                            kr[p, q] -= kr[p, c] * kr[c, q] / piv
                for p in range(3):
                    kr[p, c] = 0.0
                    kr[c, p] = 0.0
    else:
        N, M1, M2, U = stability_forces(s1, s2, r3, EA, EI, L0)
    M1 = 0.0 if release & RELEASE_I else M1  # zero to round-off by the solve: exactly
    M2 = 0.0 if release & RELEASE_J else M2
    if rho <= RHO0:
        return N, M1, M2, U
    k4 = stack_array(3, 3)
    X = stack_array(NODES, 3)
    N4, M14, M24, U4, _ = chain_law(s1, s2, r3, EA, EI, L0, k4, X, release)
    span = RHO1 - RHO0
    w, dw, ddw = _smooth((rho - RHO0) / span)
    # ∇ρ = u on (r1, r2): (r1, r2)/ρ, or ± the held end's unit vector (a released end's
    # rotation is no variable of the member's law); ∇²ρ = (I − u uᵀ)/ρ, or 0.
    if release:
        u1 = 0.0 if release & RELEASE_I else math.copysign(1.0, r1)
        u2 = 0.0 if release & RELEASE_J else math.copysign(1.0, r2)
        curved = 0.0
    else:
        u1 = r1 / rho
        u2 = r2 / rho
        curved = 1.0
    grad0 = dw / span * u1  # ∇w = S' ∇ρ / span
    grad1 = dw / span * u2
    dU = U4 - U
    d0 = M14 - M1
    d1 = M24 - M2
    d2 = N4 - N
    if tangent:
        # (1 − w) K₁ + w K₄ + ΔR ∇wᵀ + ∇w ΔRᵀ + ΔU ∇²w, on (r1, r2) with
        # ∇²w = S''/span² ∇ρ∇ρᵀ + S'/span ∇²ρ.
        dR = (d0, d1, d2)
        gw = (grad0, grad1, 0.0)
        uu = (u1, u2, 0.0)
        for p in range(3):
            for q in range(3):
                hess = 0.0
                if p < 2 and q < 2:
                    hess = (ddw / (span * span) - curved * dw / (span * rho)) * uu[p] * uu[q] + (curved * dw / (span * rho) if p == q else 0.0)
                kr[p, q] = (1.0 - w) * kr[p, q] + w * k4[p, q] + dR[p] * gw[q] + gw[p] * dR[q] + dU * hess
    # R = R₁ + w ΔR + ΔU ∇w (the blend's exact gradient)
    return N + w * d2, M1 + w * d0 + dU * grad0, M2 + w * d1 + dU * grad1, U + w * dU


@njit(**KERNEL)
def member_forces(r1, r2, r3, EA, EI, L0):
    """member_law without its tangent."""
    return member_law(r1, r2, r3, EA, EI, L0, 0, 0, stack_array(3, 3))


@njit(**KERNEL)
def member_tangent(r1, r2, r3, EA, EI, L0, kr):
    """member_law, and its tangent to kr (3, 3)."""
    return member_law(r1, r2, r3, EA, EI, L0, 0, 1, kr)
