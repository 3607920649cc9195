"""Tethers: forces the game applies to nodes at run time (seed 003: drag a node through
a spring; ground contact).

A tether is one row of a (K, 8) float64 array, [node, ax, ay, nx, ny, k, c, mu]:
    node     index of the node it acts on (an integer stored as a float)
    ax, ay   anchor a [m] (a contact's: where it stuck, moved by slide_anchors)
    nx, ny   (0, 0) for a spring, else the unit outward normal n of a ground contact
    k        stiffness [N/m]; c damping [N s/m]; mu friction coefficient [-]

Spring (the player's hand):  F = k (a − x) − c v.
Ground contact, the half-plane through a with outward normal n: gap g = (x − a)·n;
when g < 0 the normal force is Fn = max(0, −k g − c v·n) along n (a penalty spring and
damper that only push). Friction is stick–slip (Coulomb, elastic–plastic): a is also
the point of the surface where the node stuck. Along the tangent t = (ny, −nx) (n turned
clockwise: +x on level ground) the node is held to it by a spring and damper of the
same k and c,
    Ft = −k s − c v·t,  s = (x − a)·t,  capped at |Ft| ≤ mu Fn,
so below the cap the contact truly sticks (the node sits k s = Ft from a, no creep) and
at the cap it slides against mu Fn (kinetic μ = static μ). The anchor slides with the
node only between steps (slide_anchors, at the start of every step): where k |s| passed
mu Fn it is moved along t until k |s| = mu Fn, the return mapping of elastoplasticity;
a node off the ground (g ≥ 0, or Fn = 0) takes a to its foot, so it sticks where it
lands. Moving a along t keeps it on the surface. mu = 0: no friction at all. No force
when g ≥ 0. k_t = k makes the contact isotropic, so it is no stiffer than a spring
tether of the same k in any direction, and stable_stiffness holds for it as it is.

The damper acts on the node's absolute velocity: within one game frame the hand and
the ground stand still.

Tethers act inside every sub-step (every RK4 stage, every symplectic step). Newmark
(engine/newmark.py) slides the anchors after each converged step (within a step they
stand still, as in the explicit steps) and puts a stuck contact into its tangent as a
spring of k (and damper c) along n and along t; a sliding one along n only.

Energy. Within a step an anchor stands still, so a tether is an element to a fixed
point: its spring stores U = ½ k |a − x|² (a contact, ½ k (g² + s²) while g < 0, with
k |s| counted only up to mu k |g|, the most the surface can hold elastically) and its
damper and friction only take energy out; sliding an anchor only shortens s. The
blow-up check therefore counts U with the structure's energy (tether_energy) rather
than its power F·v as external work: the net work of a spring that holds a load is a
small difference of large terms (the load's work and the spring's), which a sum over
steps gets wrong by more than the kinetic energy left, and a quiet hand would be called
unstable. When the hand moves its
anchor between calls, U jumps, and the energy the check starts from includes it: a hand
pulling adds energy legitimately and is never called unstable.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from equilibria.engine.compiled.options import KERNEL

COLUMNS = ("node", "ax", "ay", "nx", "ny", "k", "c", "mu")
T_NODE, T_AX, T_AY, T_NX, T_NY, T_K, T_C, T_MU = range(8)

# Share of an integrator's stability limit a node may use with its tethers, the rest a
# margin for what the bound below leaves out (a contact normal at 45° adds up to 1.21 k
# to a Gershgorin row; RK4 with strong damping ζ ≳ 10 has a slightly smaller region).
SAFETY = 0.9
ROTATION_GROWTH = 1.21  # growth of a Gershgorin row as elements turn (see linear.stable_dt)


@njit(**KERNEL)
def eval_tethers(tether, pos, vel, force, tether_f, record):
    """Add the force of every tether to `force` (N, 3) [N].

    tether: (K, 8) rows (see the module doc); pos, vel: (N, 3) [m], [m/s];
    tether_f: (K, 2) [N], written with each tether's force when `record` is 1.0 (the
    first stage of a step, whose force is also the one kept in the state), not when 0.0.
    `record` is a float, not a bool: numba compiles a kernel afresh for each constant
    bool it is called with, and a float constant it does not tell apart."""
    for r in range(tether.shape[0]):
        q = np.int64(tether[r, T_NODE])
        x = pos[q, 0]
        y = pos[q, 1]
        vx = vel[q, 0]
        vy = vel[q, 1]
        k = tether[r, T_K]
        c = tether[r, T_C]
        nx = tether[r, T_NX]
        ny = tether[r, T_NY]
        fx = 0.0
        fy = 0.0
        if nx == 0.0 and ny == 0.0:
            fx = k * (tether[r, T_AX] - x) - c * vx
            fy = k * (tether[r, T_AY] - y) - c * vy
        else:
            g = (x - tether[r, T_AX]) * nx + (y - tether[r, T_AY]) * ny
            if g < 0.0:
                vn = vx * nx + vy * ny
                fn = -k * g - c * vn
                if fn > 0.0:
                    # tangent t = (ny, −nx); s the node's offset from where it stuck
                    s = (x - tether[r, T_AX]) * ny - (y - tether[r, T_AY]) * nx
                    ft = -k * s - c * (vx * ny - vy * nx)
                    cap = tether[r, T_MU] * fn
                    if ft > cap:
                        ft = cap
                    elif ft < -cap:
                        ft = -cap
                    fx = fn * nx + ft * ny
                    fy = fn * ny - ft * nx
        force[q, 0] += fx
        force[q, 1] += fy
        if record > 0.0:
            tether_f[r, 0] = fx
            tether_f[r, 1] = fy


@njit(**KERNEL)
def slide_anchors(tether, pos, vel):
    """Move each contact's anchor a along its surface (module doc): to the node's foot
    when the node is off the ground or not pressed (Fn = 0), else just enough that the
    tangential spring holds at most mu Fn, k |s| ≤ mu Fn (the return mapping). Called
    once at the start of every step, never inside one, so that within a step every
    tether is a fixed function of (x, v); repeated at one state it changes nothing."""
    for r in range(tether.shape[0]):
        nx = tether[r, T_NX]
        ny = tether[r, T_NY]
        if nx == 0.0 and ny == 0.0:
            continue
        q = np.int64(tether[r, T_NODE])
        dx = pos[q, 0] - tether[r, T_AX]
        dy = pos[q, 1] - tether[r, T_AY]
        k = tether[r, T_K]
        g = dx * nx + dy * ny
        s = dx * ny - dy * nx
        fn = -k * g - tether[r, T_C] * (vel[q, 0] * nx + vel[q, 1] * ny)
        if g >= 0.0 or fn <= 0.0 or k <= 0.0:
            move = s
        else:
            reach = tether[r, T_MU] * fn / k
            move = s - reach if s > reach else s + reach if s < -reach else 0.0
        if move != 0.0:
            tether[r, T_AX] += move * ny
            tether[r, T_AY] -= move * nx


def tether_energy(tether: np.ndarray, pos: np.ndarray) -> float:
    """Energy [J] stored in the tethers' springs at pos: ½ k |a − x|² for a spring,
    ½ k (g² + s²) for a contact pressed in (g < 0), with |s| counted up to mu |g|: past
    that the surface cannot hold the node elastically and the excess is slip, not stored
    energy (module doc)."""
    if not len(tether):
        return 0.0
    q = tether[:, T_NODE].astype(np.int64)
    d = tether[:, T_AX : T_AY + 1] - pos[q, :2]
    n = tether[:, T_NX : T_NY + 1]
    contact = (n != 0.0).any(axis=1)
    gap = np.minimum(-(d * n).sum(axis=1), 0.0)
    slip = np.minimum(np.abs(d[:, 0] * n[:, 1] - d[:, 1] * n[:, 0]), -tether[:, T_MU] * gap)
    stretch2 = np.where(contact, gap * gap + slip * slip, (d * d).sum(axis=1))
    return float(0.5 * (tether[:, T_K] * stretch2).sum())


def carry_anchors(old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """`new` rows with the anchors of `old` kept where a contact goes on: a contact row
    of new whose node had a contact in old on the same surface (the same normal, the
    anchor on the same line) takes that row's anchor, where the node stuck. The game
    finds its ground contacts afresh every frame with a at the node's foot; without this
    a contact would forget where it stuck and every frame would start it unstrained."""
    if not len(old) or not len(new):
        return new
    out = new.copy()
    contact = (old[:, T_NX] != 0.0) | (old[:, T_NY] != 0.0)
    was_at = {(row[T_NODE], row[T_NX], row[T_NY]): row for row in old[contact].tolist()}  # one per node and surface
    for r, row in enumerate(new.tolist()):
        was = was_at.get((row[T_NODE], row[T_NX], row[T_NY]))
        if was is None or (row[T_NX] == 0.0 and row[T_NY] == 0.0):
            continue
        if abs((was[T_AX] - row[T_AX]) * row[T_NX] + (was[T_AY] - row[T_AY]) * row[T_NY]) <= 1e-9 * (1.0 + abs(row[T_AX]) + abs(row[T_AY])):
            out[r, T_AX], out[r, T_AY] = was[T_AX], was[T_AY]
    return out


def checked_rows(rows, n_nodes: int) -> np.ndarray:
    """The tether rows as a fresh C-contiguous (K, 8) float64 array, normals made
    exactly unit; ValueError says what is wrong with a row."""
    a = np.array(rows, dtype=np.float64, copy=True)
    if a.size == 0:
        return np.zeros((0, len(COLUMNS)))
    if a.ndim != 2 or a.shape[1] != len(COLUMNS):
        raise ValueError(f"tethers: expected an array of shape (K, {len(COLUMNS)}) [{', '.join(COLUMNS)}], got shape {a.shape}")
    for r, row in enumerate(a):
        if not np.isfinite(row).all():
            raise ValueError(f"tethers[{r}]: every value must be finite, got {row.tolist()}")
        q = row[T_NODE]
        if q != math.floor(q) or not 0 <= q < n_nodes:
            raise ValueError(f"tethers[{r}]: node must be a node index 0..{n_nodes - 1}, got {q}")
        if min(row[T_K], row[T_C], row[T_MU]) < 0.0:
            raise ValueError(f"tethers[{r}]: k, c and mu must not be negative, got {row[T_K:].tolist()}")
        size = math.hypot(row[T_NX], row[T_NY])
        if size != 0.0:
            if abs(size - 1.0) > 1e-6:
                raise ValueError(f"tethers[{r}]: the normal (nx, ny) must be (0, 0) or a unit vector, got length {size:.9g}")
            a[r, T_NX : T_NY + 1] /= size
    return np.ascontiguousarray(a)


def stable_stiffness(
    mass: float, row_bound: float, damping_rate: float, dt: float, integrator: str, fraction: float, damping_ratio: float
) -> tuple[float, float]:
    """The stiffness k [N/m] and damping c [N s/m] one tether on a node can have.

    mass: the node's translational mass m [kg]; row_bound: its Gershgorin row of
    M^-½ K M^-½ [1/s²], a bound on ω² of its fastest mode; damping_rate: that mode's
    damping rate γ [1/s]; dt [s]; integrator "rk4" or "symplectic"; fraction: share of
    the room left that this tether takes; damping_ratio: ζ_t of the tether alone.

    A mode of angular frequency ω and damping rate γ (= 2ζω) is stable under a step dt
    when ω²dt² + L γ dt ≤ L², L the integrator's limit on the imaginary axis: 2 for
    symplectic Euler (exact: the Jury test of its characteristic polynomial), 2√2 for
    RK4 (checked on its stability polynomial for ζ up to ~10); this is the limit
    linear.stable_dt uses, L (√(1 + ξ²) − ξ), written for ω. The node's own fastest mode
    has ω² ≤ 1.21 row_bound (1.21: growth as elements turn); a tether of stiffness k and
    damping c adds k/m to ω² and c/m to γ. With the room
        R = fraction (SAFETY² L² − 1.21 row_bound dt² − L γ dt)
    and y = ω_t dt, ω_t = √(k/m), c = 2 ζ_t m ω_t, the tether may take y² + 2 L ζ_t y ≤ R:
        y = −L ζ_t + √(L² ζ_t² + R),  k = m (y/dt)²,  c = 2 ζ_t m y/dt.
    Symplectic Euler has one more bound: along a stable orbit at ω dt = x, the energy
    the blow-up check measures (½ m v² + U, with v half a step off x) swings by
    (1 + x/2)/(1 − x/2), which at x = 1 is the check's own factor 3. A tether holding a
    node of its own (a light node, a free one) puts the node's energy in its mode, so
    there y also keeps y² + 2 ζ_t y ≤ fraction SAFETY² (L = 1 in the rule above).
    Tethers on one node whose fractions add to at most 1 stay within the limits together
    (their k and c add). k is proportional to m: a node of very small mass gets a soft
    tether, never an unstable one; and when that node's elements set the step, the
    tether is still a fixed share of their stiffness at the node. No room left (a step
    at or past the stability limit): (0, 0)."""
    limit = 2.0 * math.sqrt(2.0) if integrator == "rk4" else 2.0
    room = fraction * (SAFETY**2 * limit**2 - ROTATION_GROWTH * row_bound * dt * dt - limit * damping_rate * dt)
    if room <= 0.0 or mass <= 0.0:
        return 0.0, 0.0
    y = _largest_y(limit, damping_ratio, room)
    if integrator != "rk4":
        y = min(y, _largest_y(1.0, damping_ratio, fraction * SAFETY**2))
    omega = y / dt
    return mass * omega * omega, 2.0 * damping_ratio * mass * omega


def _largest_y(limit: float, zeta: float, room: float) -> float:
    """The root y ≥ 0 of y² + 2 limit ζ y = room."""
    return -limit * zeta + math.sqrt((limit * zeta) ** 2 + room)
