"""The game's actions on a running structure, against closed forms: tethers (the hand's
spring, ground contact with friction), nails, and the bomb (seeds 003 and 000).

Glossary: m mass [kg]; g = 9.81 m/s²; P, F applied force [N]; k tether stiffness
[N/m]; c tether damping [N s/m]; μ friction coefficient; N normal force [N];
EA axial rigidity [N]; ℓ length [m]; θ0 release angle [rad]; δ displacement [m].

Tolerances, with their reasons:
- A run to rest stops when the largest out-of-balance force is under 1e-3 of the largest
  applied (or tether, or support) force, so a force balanced at rest is within 1e-3 of
  its closed form, and so is a spring's stretch δ = F/k: 1e-3 relative.
- Motion under constant forces (a block sliding against μN, a node sliding down a
  frictionless slope, a centre of mass falling) is integrated exactly by both RK4 and
  symplectic Euler, up to round-off: 1e-9 relative.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.special
from builders import bridge_truss, cantilever, member, model

from equilibria.engine.model import build_model
from equilibria.engine.simulation import Simulation, Unstable

G = 9.81
FRAME = 1.0 / 60.0  # [s] the game's frame: it sets the tethers once a frame
INTEGRATORS = ("rk4", "symplectic")


def spring(q: int, anchor, k: float, c: float) -> list[float]:
    return [q, anchor[0], anchor[1], 0.0, 0.0, k, c, 0.0]


def contact(q: int, anchor, normal, k: float, c: float, mu: float) -> list[float]:
    return [q, anchor[0], anchor[1], normal[0], normal[1], k, c, mu]


def one_node(mass: float, *, gravity: float = 0.0, loads=()) -> dict:
    """A model of one free node A of mass m at the origin."""
    return model([("A", 0.0, 0.0, {"mass": mass})], loads=list(loads), gravity=gravity)


# ------------------------------------------------------------------------ the hand


@pytest.mark.parametrize("integrator", (*INTEGRATORS, "relax"))
def test_a_node_held_by_the_hand_settles_at_P_over_k(integrator):
    """A free node of m = 2 kg under P = (30, −40) N, held by a spring of k = 1e4 N/m
    anchored where it starts: at rest it is δ = P/k from the anchor and the spring pulls
    with −P. (A node held by the hand counts as at rest.)"""
    m, k, P = 2.0, 1e4, np.array([30.0, -40.0])
    sim = Simulation(build_model(one_node(m, loads=[{"node": "A", "fx": P[0], "fy": P[1]}])), integrator)
    sim.set_tethers([spring(0, (0.0, 0.0), k, 2 * 0.7 * math.sqrt(k * m))])
    outcome = sim.relax() if integrator == "relax" else sim.advance(10.0, until_rest=True)
    assert outcome.at_rest
    assert sim.state.pos[0, :2] == pytest.approx(P / k, rel=1e-3)
    assert sim.tether_forces()[0] == pytest.approx(-P, rel=1e-3)


@pytest.mark.parametrize("integrator", (*INTEGRATORS, "relax"))
def test_a_bar_in_series_with_the_hand_stretches_by_P_over_k_series(integrator):
    """The hand holds node B; a bar B–C (EA/ℓ = 2e4 N/m, massless) carries P = 50 N
    pulling C along it. The spring and the bar are in series: C moves by
    P/k_series = P (1/k + ℓ/EA) = 7.5 mm, B by P/k = 5 mm."""
    k, kb, P = 1e4, 2e4, 50.0
    data = model(
        [("B", 0.0, 0.0, {"mass": 1.0}), ("C", 1.0, 0.0, {"mass": 1.0})],
        [member("BC", "B", "C", A=1e-3, material="soft")],
        loads=[{"node": "C", "fx": P}],
        materials={"soft": {"E": kb / 1e-3, "density": 0.0}},
    )
    sim = Simulation(build_model(data), integrator)
    sim.set_tethers([spring(0, (0.0, 0.0), k, 2 * 0.7 * math.sqrt(k * 1.0))])
    outcome = sim.relax() if integrator == "relax" else sim.advance(20.0, until_rest=True)
    assert outcome.at_rest
    assert sim.state.pos[1, 0] - 1.0 == pytest.approx(P * (1 / k + 1 / kb), rel=1e-3)
    assert sim.state.pos[0, 0] == pytest.approx(P / k, rel=1e-3)
    assert sim.results()["members"]["BC"]["axial"] == pytest.approx(P, rel=1e-3)


def rigid_place(p: np.ndarray, angle: float, shift) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    out = p.copy()
    out[:, 0] = c * p[:, 0] - s * p[:, 1] + shift[0]
    out[:, 1] = s * p[:, 0] + c * p[:, 1] + shift[1]
    out[:, 2] = p[:, 2] + angle
    return out


@pytest.mark.parametrize("angle", (0.0, 0.7, -2.5, 7.0))
def test_a_rigid_motion_with_the_anchors_gives_no_tether_force(angle):
    """An unloaded truss turned by `angle` and moved 100 m, every tether moved with it:
    springs anchored at their nodes pull with exactly nothing, ground contacts whose
    plane lies 1 cm under their node push with nothing, and a contact whose node is
    d = 1 cm into the ground pushes with k d along its turned normal, whatever the turn."""
    sim = Simulation(build_model(bridge_truss(0.0)), "rk4")
    k, c, d = 1e6, 1e3, 0.01
    sim.state.pos[:] = rigid_place(sim.model.arrays.pos0, angle, (100.0, -40.0))
    p = sim.state.pos
    n = np.array([-math.sin(angle), math.cos(angle)])  # "up", turned with the truss
    rows = [spring(q, p[q, :2], k, c) for q in range(5)]
    rows += [contact(q, p[q, :2] - d * n, n, k, c, 0.5) for q in range(5)]
    rows += [contact(2, p[2, :2] + d * n, n, k, c, 0.5)]
    sim.set_tethers(rows)
    f = sim.tether_forces()
    assert np.all(f[:10] == 0.0)
    assert f[10] == pytest.approx(k * d * n, rel=1e-9)
    # The truss itself is co-rotational: its bar forces are round-off, ε EA |x| / L.
    assert np.abs(sim.state.member_out[0]).max() <= 10 * np.finfo(float).eps * 2e8 * 110.0


# ------------------------------------------------------------------------ the ground


@pytest.mark.parametrize("integrator", (*INTEGRATORS, "relax"))
def test_a_body_on_frictionless_ground_rests_on_its_weight(integrator):
    """A bar of m = 12 kg (6 kg at each end) lies on flat ground, one contact at each
    end, stiffness and damping from tether_stiffness: at rest the ground pushes up with
    m g in all, m g / 2 at each end, each end pressed in by m g / (2 k)."""
    m = 12.0
    data = model(
        [("A", 0.0, 0.0, {"mass": m / 2}), ("B", 1.0, 0.0, {"mass": m / 2})],
        [member("AB", "A", "B", A=1e-3, material="light")],
        gravity=G,
        materials={"light": {"E": 1e9, "density": 0.0}},
    )
    sim = Simulation(build_model(data), "rk4" if integrator == "relax" else integrator)
    stiff = [sim.tether_stiffness(q) for q in range(2)]
    sim.set_tethers([contact(q, (float(q), 0.0), (0.0, 1.0), *stiff[q], 0.0) for q in range(2)])
    outcome = sim.relax() if integrator == "relax" else sim.advance(20.0, until_rest=True)
    assert outcome.at_rest
    f = sim.tether_forces()
    assert f[:, 1].sum() == pytest.approx(m * G, rel=1e-3)
    for q in range(2):
        assert f[q, 1] == pytest.approx(m * G / 2, rel=1e-3)
        assert -sim.state.pos[q, 1] == pytest.approx(m * G / 2 / stiff[q][0], rel=1e-3)


def on_the_ground(m: float, k: float, normal, *, loads=(), integrator="rk4") -> Simulation:
    """A node of mass m pressed into ground of normal n through the origin by exactly
    its weight's normal part (g = −m g n_y / k), at rest: the start of a steady slide."""
    sim = Simulation(build_model(one_node(m, gravity=G, loads=loads)), integrator)
    n = np.asarray(normal, dtype=float)
    sim.state.pos[0, :2] = -(m * G * n[1] / k) * n
    return sim


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_node_slides_down_a_frictionless_slope_at_g_sin_theta(integrator):
    """A frictionless slope of θ = 30°: the node slides with a = g sin θ along it and the
    ground pushes with m g cos θ; after t ≈ 0.5 s its speed is g sin θ t and it has moved
    ½ g sin θ t² (RK4: exact; symplectic Euler moves by ½ a t (t + dt) under a constant
    force, hence rel = dt/t there)."""
    m, k, theta = 3.0, 1e5, math.radians(30.0)
    n = (math.sin(theta), math.cos(theta))  # the slope falls toward +x
    sim = on_the_ground(m, k, n, integrator=integrator)
    start = sim.state.pos[0, :2].copy()
    sim.set_tethers([contact(0, (0.0, 0.0), n, k, 2 * 0.7 * math.sqrt(k * m), 0.0)])
    sim.advance(0.5)
    t = sim.time
    down = np.array([math.cos(theta), -math.sin(theta)])
    rel = 1e-9 if integrator == "rk4" else 1.01 * sim.dt / t
    assert (sim.state.pos[0, :2] - start) @ down == pytest.approx(0.5 * G * math.sin(theta) * t * t, rel=rel)
    assert sim.state.vel[0, :2] @ down == pytest.approx(G * math.sin(theta) * t, rel=1e-9)
    assert np.hypot(*sim.tether_forces()[0]) == pytest.approx(m * G * math.cos(theta), rel=1e-9)


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_block_pushed_below_mu_N_sticks_and_above_it_slides_at_F_minus_mu_N_over_m(integrator):
    """A block of m = 1 kg on flat ground, μ = 0.5, N = m g, pushed sideways by F.
    F = 0.5 μN: the contact sticks (engine/tethers.py): the block sits F/k from where
    it stuck, still (no creep, which the old viscous law had at F/c), friction = F.
    F = 2 μN: the friction is μN and the block slides with a = (F − μN)/m, measured
    between 0.1 s and 0.5 s (after the ~ms in which its stick spring reaches μN)."""
    m, mu = 1.0, 0.5
    N = m * G
    for F in (0.5 * mu * N, 2.0 * mu * N):
        probe = Simulation(build_model(one_node(m, gravity=G)), integrator)
        k, c = probe.tether_stiffness(0)
        sim = on_the_ground(m, k, (0.0, 1.0), loads=[{"node": "A", "fx": F}], integrator=integrator)
        sim.set_tethers([contact(0, (0.0, 0.0), (0.0, 1.0), k, c, mu)])
        sim.advance(0.1)
        v1, x1, t1 = sim.state.vel[0, 0], sim.state.pos[0, 0], sim.time
        sim.advance(0.4)
        v2, x2, t2 = sim.state.vel[0, 0], sim.state.pos[0, 0], sim.time
        if F < mu * N:
            assert abs(v1) < 1e-9 and abs(x2 - x1) < 1e-12  # stuck: round-off only
            assert x2 == pytest.approx(F / k, rel=1e-6)
            assert sim.tether_forces()[0, 0] == pytest.approx(-F, rel=1e-9)
        else:
            assert (v2 - v1) / (t2 - t1) == pytest.approx((F - mu * N) / m, rel=1e-9)
            assert sim.tether_forces()[0, 0] == pytest.approx(-mu * N, rel=1e-9)


# ------------------------------------------------------------------------ stable stiffness


@pytest.mark.parametrize(("integrator", "budget", "limit"), [("symplectic", 1.0, 2.0), ("rk4", 2.0 * math.sqrt(2.0), 2.0 * math.sqrt(2.0))])
def test_tether_stiffness_of_a_lone_node_is_the_stability_limit_with_a_margin(integrator, budget, limit):
    """A lone node of m = 3 kg on an undamped spring: the whole room (fraction 1, ζ 0)
    is ω dt = 0.9 B, B = 2√2 for RK4 (its stability limit) and 1 for symplectic Euler
    (half its limit of 2: beyond 1 the energy the blow-up check sees swings more than 3×
    along a stable orbit), so k = m (0.9 B / dt)²; such a spring runs and is never
    called unstable. 5 % past the true limit L (ω dt = 1.05 L) the run blows up and is
    rolled back."""
    m = 3.0
    sim = Simulation(build_model(one_node(m)), integrator)
    k, c = sim.tether_stiffness(0, fraction=1.0, damping_ratio=0.0)
    assert c == 0.0
    assert k == pytest.approx(m * (0.9 * budget / sim.dt) ** 2, rel=1e-12)
    sim.set_tethers([spring(0, (0.1, 0.0), k, 0.0)])
    for _ in range(20):  # an undamped oscillation of amplitude 0.1 m: bounded, no growth
        sim.advance(0.05)
        assert abs(sim.state.pos[0, 0] - 0.1) <= 0.25
    past = Simulation(build_model(one_node(m)), integrator)
    past.set_tethers([spring(0, (0.1, 0.0), m * (1.05 * limit / past.dt) ** 2, 0.0)])
    with pytest.raises(Unstable, match="rolled back"):
        past.advance(1.0)


def shaken(sim: Simulation, q: int, anchors, frames: int) -> float:
    """Drag node q by the hand to anchors[f % len(anchors)] in frame f, with the default
    stiffness, each frame's tethers set before its step, as the game does; returns the
    largest hand force [N]."""
    biggest = 0.0
    for f in range(frames):
        k, c = sim.tether_stiffness(q)
        sim.set_tethers([spring(q, anchors[f % len(anchors)], k, c)])
        sim.advance(FRAME)
        biggest = max(biggest, float(np.hypot(*sim.tether_forces()[0])))
    return biggest


HEAVY_HANDS = [
    ("steel truss", lambda: bridge_truss(0.0), "D"),
    ("cantilever tip", lambda: cantilever(4, 2.0, 0.0, damping=0.0), "N4"),
    ("massless node", lambda: {**bridge_truss(0.0), "materials": {"steel": {"E": 200e9, "density": 7850.0}, "light": {"E": 200e9, "density": 0.0}}}, "E"),
]


@pytest.mark.parametrize("integrator", INTEGRATORS)
@pytest.mark.parametrize(("what", "make", "node"), HEAVY_HANDS, ids=[h[0] for h in HEAVY_HANDS])
def test_a_hard_drag_back_and_forth_stays_stable(integrator, what, make, node):
    """The hand jerks a node 3 m one way and the other every frame (1/60 s) for 1.5 s at
    the default stiffness: the energy it puts in (its spring's energy, counted with the
    structure's when the anchor moves) never makes the blow-up check call it unstable,
    and the run stays finite. On the massless-node truss the two members at
    E weigh nothing, so E has only the small mass build_model gives it."""
    data = make()
    if what == "massless node":
        for mb in data["members"]:
            if "E" in (mb["i"], mb["j"]):
                mb["material"] = "light"
    built = build_model(data)
    sim = Simulation(built, integrator)
    q = built.node_index(node)
    x, y = built.arrays.pos0[q, :2]
    force = shaken(sim, q, [(x + 3.0, y + 1.0), (x - 3.0, y - 1.0)], 90)
    assert force > 0.0
    assert np.isfinite(sim.state.pos).all() and np.isfinite(sim.strain_energy())


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_dragging_far_every_frame_stays_stable(integrator):
    """The hand runs round a circle of 5 m radius, 1.2 m a frame, dragging the top node
    of a steel truss (gravity on) for 2 s at the default stiffness, then lets go."""
    built = build_model({**bridge_truss(0.0), "world": {"gravity": G, "damping": 0.02}})
    sim = Simulation(built, integrator)
    q = built.node_index("E")
    x, y = built.arrays.pos0[q, :2]
    circle = [(x + 5.0 * math.cos(0.24 * f), y + 5.0 * math.sin(0.24 * f)) for f in range(27)]
    shaken(sim, q, circle, 120)
    sim.set_tethers(np.zeros((0, 8)))
    sim.advance(0.5)
    assert np.isfinite(sim.state.pos).all()


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_truss_on_the_ground_dragged_by_a_node_that_touches_it_stays_stable(integrator):
    """The game's case: a free steel truss (gravity on) stands on the ground on its three
    bottom nodes (contacts with μ = 0.6, default stiffness each), and the hand drags
    bottom node A, which also touches the ground, up, down into the ground and sideways
    by 2 m in turn each frame for 1.5 s. Two tethers on A at the default fraction 0.5
    each use the whole room together and stay stable."""
    data = bridge_truss(0.0)
    data["supports"], data["world"]["gravity"] = [], G
    sim = Simulation(build_model(data), integrator)
    hand = [(0.0, 2.0), (2.0, -0.5), (-2.0, 0.5)]
    for f in range(90):
        rows = [contact(q, (0.0, 0.0), (0.0, 1.0), *sim.tether_stiffness(q), 0.6) for q in (0, 1, 2)]
        rows.append(spring(0, hand[f % 3], *sim.tether_stiffness(0)))
        sim.set_tethers(rows)
        sim.advance(FRAME)
    assert np.isfinite(sim.state.pos).all() and np.isfinite(sim.tether_forces()).all()


# ------------------------------------------------------------------------ nails


def hanging_pair(m: float) -> dict:
    """A (1 kg) over B (mass m) on a massless steel bar 1 m long, free."""
    return model(
        [("A", 0.0, 0.0, {"mass": 1.0}), ("B", 0.0, -1.0, {"mass": m})],
        [member("AB", "A", "B", material="light")],
        gravity=G,
        element_damping=1e-5,
        materials={"light": {"E": 200e9, "density": 0.0}},
    )


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_nail_holds_a_hanging_mass_where_it_was_and_unnailed_it_falls_at_g(integrator):
    """The pair falls for 0.1 s; A is nailed where it has got to (not where it started):
    it stays exactly there and, at rest, the nail holds the weight of everything, its
    reaction (0, Σm g) (1e-3, the rest test). The reference geometry is untouched. Pulled
    out, the pair falls freely: its centre of mass accelerates at exactly −g (the bar's
    forces are internal; no mass damping)."""
    m = 5.0
    built = build_model(hanging_pair(m))
    sim = Simulation(built, integrator)
    sim.advance(0.1)
    sim.nail(0)
    held = sim.state.pos[0, :2].copy()
    assert held[1] < -0.04  # it did fall before the nail
    assert sim.nails == {0}
    assert sim.advance(30.0, until_rest=True).at_rest
    assert np.array_equal(sim.state.pos[0, :2], held)
    total = float(built.arrays.mass[:, 1].sum())
    assert sim.reactions()[0, :2] == pytest.approx([0.0, total * G], rel=1e-3, abs=1e-3 * total * G)
    assert sim.results()["reactions"]["A"]["fy"] == pytest.approx(total * G, rel=1e-3)
    assert np.array_equal(sim.model.arrays.pos0, built.arrays.pos0)

    sim.unnail(0)
    assert sim.nails == frozenset()
    mass = sim.model.arrays.mass[:, 1]
    v0, t0 = mass @ sim.state.vel[:, 1] / mass.sum(), sim.time
    sim.advance(0.2)
    v1 = mass @ sim.state.vel[:, 1] / mass.sum()
    assert v1 - v0 == pytest.approx(-G * (sim.time - t0), rel=1e-9)


def test_nails_refuse_what_they_cannot_do():
    """A level's support is not a nail: it cannot be pulled out, and a node whose x and
    y are held needs no nail; a roller's node can be nailed (its x too) and unnailed
    (back to the roller)."""
    sim = Simulation(build_model(bridge_truss(100.0)), "rk4")  # A pinned, C on a roller
    with pytest.raises(ValueError, match="support of the level"):
        sim.unnail(0)
    with pytest.raises(ValueError, match="support of the level"):
        sim.nail(0)
    with pytest.raises(ValueError, match="not nailed"):
        sim.unnail(1)
    with pytest.raises(ValueError, match="node index"):
        sim.nail(5)
    sim.nail(2)
    assert sim.model.arrays.fixed[2, 0] and sim.model.arrays.inv_mass[2, 0] == 0.0
    sim.unnail(2)
    assert not sim.model.arrays.fixed[2, 0] and sim.model.arrays.fixed[2, 1]
    assert sim.nails == frozenset()


# ------------------------------------------------------------------------ the bomb


def two_bar_hanger(m: float) -> dict:
    """B (mass m) hangs from A (0, 0) and C (2, 0), both pinned, by massless steel bars
    AB and CB at 45°."""
    return model(
        [("A", 0.0, 0.0), ("C", 2.0, 0.0), ("B", 1.0, -1.0, {"mass": m})],
        [member("AB", "A", "B", material="light"), member("CB", "C", "B", material="light")],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["x", "y"]}],
        gravity=G,
        element_damping=1e-5,
        materials={"light": {"E": 200e9, "density": 0.0}},
    )


@pytest.mark.parametrize("integrator", INTEGRATORS)
def test_a_removed_member_carries_nothing_and_the_mass_swings(integrator):
    """At rest each bar carries m g / √2. CB blown up: it carries nothing, is removed but
    not broken, and B swings on AB as a pendulum of ℓ = √2 m released at θ0 = 45°. It
    passes under A after a quarter period T/4 = √(ℓ/g) K(sin²(θ0/2)) (K the complete
    elliptic integral of the first kind, parameter m = k²). Tolerance for RK4 1e-4: the
    crossing is found by linear interpolation between steps (error ~ 1e-7 s), AB
    stretches by ~1e-6 under m g (period change 1e-6), and RK4's truncation error is far
    smaller. Symplectic Euler is first order, and its positions run about half a step
    ahead of the exact motion: one step (0.4 ms, 6e-4 relative) for it."""
    m = 10.0
    sim = Simulation(build_model(two_bar_hanger(m)), integrator)
    assert sim.advance(30.0, until_rest=True).at_rest
    for bar in ("AB", "CB"):
        assert sim.value(f"member.{bar}.axial") == pytest.approx(m * G / math.sqrt(2), rel=1e-3)
    sim.remove_member("CB")
    start = sim.time
    assert sim.value("member.CB.axial") == 0.0
    assert sim.results()["members"]["CB"]["broken"] is False
    q = sim.model.node_index("B")
    x_prev, t_prev = sim.state.pos[q, 0], sim.time
    while sim.state.pos[q, 0] > 0.0:
        x_prev, t_prev = sim.state.pos[q, 0], sim.time
        sim.advance(sim.dt)
        assert sim.value("member.CB.axial") == 0.0
    x_now = sim.state.pos[q, 0]
    crossing = t_prev + (sim.time - t_prev) * x_prev / (x_prev - x_now)
    ell, theta0 = math.sqrt(2.0), math.pi / 4
    quarter = math.sqrt(ell / G) * scipy.special.ellipk(math.sin(theta0 / 2) ** 2)
    expected = pytest.approx(quarter, rel=1e-4) if integrator == "rk4" else pytest.approx(quarter, abs=sim.dt)
    assert crossing - start == expected
    assert sim.state.member_broke.max() == -1.0


def test_a_removed_triangle_carries_nothing_and_unknown_ids_are_refused():
    data = model(
        [("A", 0.0, 0.0), ("B", 1.0, 0.0), ("C", 0.0, 1.0)],
        [member("AB", "A", "B")],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["x"]}],
        [{"node": "B", "fy": -1e3}],
        triangles=[{"id": "T", "nodes": ["A", "B", "C"], "material": "steel", "t": 0.01}],
    )
    sim = Simulation(build_model(data), "rk4")
    sim.advance(0.01)
    assert np.abs(sim.state.tri_out[0]).max() > 0.0
    sim.remove_triangle("T")
    assert not sim.state.tri_on[0]
    sim.advance(0.01)
    assert np.all(sim.state.tri_out[0] == 0.0)
    with pytest.raises(ValueError, match="unknown triangle 'Q'"):
        sim.remove_triangle("Q")
    with pytest.raises(ValueError, match="unknown member 'Q'"):
        sim.remove_member("Q")


# ------------------------------------------------------------------------ the interface


def test_set_tethers_checks_its_rows_and_keeps_the_last_good_ones():
    sim = Simulation(build_model(bridge_truss(100.0)), "rk4")
    assert sim.tether_forces().shape == (0, 2)
    sim.set_tethers([spring(1, (2.0, 0.1), 1e4, 0.0)])
    assert sim.tether_forces()[0] == pytest.approx([0.0, 1e3])  # evaluated at once
    bad = [
        ([[1, 0, 0, 0, 0, 1e4, 0]], "shape"),
        ([spring(7, (0, 0), 1e4, 0.0)], "node index"),
        ([spring(1.5, (0, 0), 1e4, 0.0)], "node index"),
        ([spring(1, (0, 0), -1.0, 0.0)], "negative"),
        ([contact(1, (0, 0), (0.0, 2.0), 1e4, 0.0, 0.5)], "unit vector"),
        ([spring(1, (math.nan, 0), 1e4, 0.0)], "finite"),
    ]
    for rows, words in bad:
        with pytest.raises(ValueError, match=words):
            sim.set_tethers(rows)
    assert sim.tethers.shape == (1, 8) and sim.tethers[0, 0] == 1.0
    sim.set_tethers(np.zeros((0, 8)))
    assert sim.tether_forces().shape == (0, 2)
