"""The structural model: level-format data in, struct-of-arrays out.

A `Model` holds what never changes during a run (`ModelArrays`, handed whole to the
compiled kernels) plus the ids that map array rows back to the level file. A `State`
(engine/elements/kernels.py) holds what changes in time.

Glossary (SI throughout, y up, angles counter-clockwise):
    N    number of nodes; every node has three DOFs (x, y, rot)
    B    number of bars (bar and cable members)
    Bm   number of beams (beam-column members)
    T    number of triangles
    EA   axial rigidity [N]; EI flexural rigidity [N m²]; L0 rest length [m]
    m̄    mass per unit length of a member [kg/m]

Mass is lumped (seed 000): each element gives its mass to its nodes in equal parts, and
a beam adds m̄L³/105 of rotational inertia to each end (seed 000 eq. 8). A node's
rotation is a DOF only where a beam meets it with an end that is not released (pinned,
`release`); elsewhere nothing resists or drives it and it is locked at zero, so bar-only
nodes never spin, and neither does a hinge where every beam meeting it is pinned (the
DOF is dropped, not given a small stiffness: the beams' own end rotations there are
condensed out, engine/elements/beam.py).

A roller on a line (`supports[].roller`, the line's angle) holds its node's motion along
the line's normal and nothing else (engine/rollers.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from equilibria.engine.elements.beam import STABILITY
from equilibria.engine.elements.kernels import MEMBERS
from equilibria.engine.member_loads import DIRECTIONS, MemberLoad, along_across, equivalent_global
from equilibria.engine.stiffness import lowest_frequency
from equilibria.engine.vocabulary import (
    BEAM_FORMULATIONS,
    CONTACT_FIELDS,
    DEFAULT_MEMBER_KIND,
    DEFAULT_TRIANGLE_MODEL,
    DOF_NAMES,
    GROUND_MOTION_FIELDS,
    MEMBER_KINDS,
    MEMBER_LOAD_FIELDS,
    POISSON_LIMIT,
    RELEASE_BITS,
    ROLLER_FIELDS,
    TRIANGLE_MODELS,
)
from equilibria.engine.words import N_, Words, short_path

# Node indices held by elements and loads are unsigned: compiled code then skips the
# handling of negative indices, which measured 15 % more bar evaluations per second.
INDEX = np.uint64
# The columns each member kind's reader collects (_MEMBER_ROWS), one list each, before
# they become arrays; every kind's has its end nodes (ij) and capacities (cap_t, cap_c:
# the member record's, engine/elements/kind.py).
FIELDS = {
    "bar": ("ij", "L0", "EA", "cable", "c", "cap_t", "cap_c"),
    "beam": ("ij", "L0", "EA", "EI", "chord0", "beta", "stability", "cap_t", "cap_c", "release"),
}
# The member kind (engine/elements/kernels.py MEMBERS) that reads each of the model
# format's member kinds (engine/vocabulary.py MEMBER_KINDS): a cable is a bar.
READ_BY = {fmt: kind.name for kind in MEMBERS.values() for fmt in kind.formats}
# The least positive mass and rotational inertia a node may be given: a milligram, and a
# milligram at a millimetre. Nothing in a structure weighs less, and the stable step goes
# as √m: a node of 1e-200 kg on a steel bar would need steps of ~1e-100 s (an overflow
# of the step count, or a run that never ends) and overflows the frequency bound.
# Zero means "no mass of its own" and is fine.
MIN_NODE_MASS = 1e-6  # [kg]
MIN_NODE_INERTIA = 1e-12  # [kg m²]
COINCIDENT = 1e-9  # two nodes closer than this × the model's size are one place


class ModelError(ValueError):
    """A model that cannot be built; `field` names the offending place (`members[2].i`),
    `template` (marked N_) with its named `fields` says what is wrong (engine/words.py):
    `message` in English, `said(_)` in the player's language."""

    def __init__(self, field: str, template: str, **fields: Any):
        self.field = short_path(field)
        self.words = Words(template, fields)
        self.template, self.fields = template, fields
        self.message = self.words.said()
        super().__init__(f"{field}: {self.message}")

    def said(self, translate: Callable[[str], str] | None = None) -> str:
        """`field: what is wrong`, the words through `translate` (game/words/i18n.py `_`)."""
        return f"{self.field}: {self.words.said(translate)}"


class ModelArrays(NamedTuple):
    """Everything the kernels read and never write. Shapes, dtypes and units:

    mass: (N, 3) float64 [kg, kg, kg m²] lumped mass per DOF
    inv_mass: (N, 3) float64 1/mass, and 0 on fixed DOFs (they never accelerate)
    fixed: (N, 3) bool, DOF held by a support (or a rotation nothing acts on)
    pos0: (N, 3) float64 [m, m, rad] initial positions
    motion_hist: (N, 3) int64 history of a prescribed support displacement, or -1
    moving_dofs: (M, 2) int64 (node, dof) of every support DOF with a motion history
    member_start: (K + 1,) uint64 offsets of each member kind's rows in the member record
        (engine/elements/kind.py), the kinds in engine/elements/kernels.py MEMBERS' order
    member_cap_t, member_cap_c: (M,) [N] tension / compression capacity of each row of
        the member record (inf: never breaks)
    bar_ij: (B, 2) uint64 end nodes; bar_L0, bar_EA: (B,) [m], [N]; bar_k = EA/L0 [N/m]
    bar_cable: (B,) bool, tension only; bar_c: (B,) [N s/m] element (axial) damping
    beam_ij: (Bm, 2) uint64; beam_L0 [m], beam_EA [N], beam_EI [N m²]: (Bm,)
    beam_chord0: (Bm,) [rad] initial chord angle; beam_beta: (Bm,) [s] element damping
    beam_stability: (Bm,) bool, stability functions (engine/elements/beam_stability.py) instead
        of seed 000 eq. (1)
    beam_release: (Bm,) int64 released (pinned) ends: bit 1 end i, bit 2 end j
    tri_ijk: (T, 3) uint64 nodes i, j, k
    tri_x0: (T, 3) [m] reference local coordinates (x_j, y_j, x_k), seed 000 Fig. 6
    tri_E [Pa], tri_nu [-], tri_t [m], tri_beta [s]: (T,)
    tri_neo: (T,) bool, compressible Neo-Hookean (seed 003) instead of linear
    tri_dm_inv: (T, 2, 2) [1/m] inverse reference edge matrix [X_j - X_i, X_k - X_i]
    load_node: (L,) uint64; load_f: (L, 3) [N, N, N m]; load_hist: (L,) int64 or -1
    hist_start: (H + 1,) int64 offsets into hist_t [s] and hist_v [-] (piecewise linear)
    gravity [m/s²]; mass_damping α [1/s]; ground_ax_hist, ground_ay_hist (-1: none),
    ground accelerations in [m/s²] as history values.
    span_beam: (S,) int64 the beam row of each distributed load on a 'stability' beam;
    span_q: (S, 2) [N/m] its transverse parts (q_i, q_j) as built; span_row: (S,) int64
    the row of its end-i equivalent load in load_f (whose history and scale it follows);
    span_f0: (S, 3) [N, N, N m] that row as built (engine/elements/kernels.py, span_shifts).
    roller_node: (R,) int64 nodes on a roller whose line is at any angle; roller_n:
    (R, 2) the unit normal of its line (engine/rollers.py); the node's x and y are
    not in `fixed`.
    """

    mass: np.ndarray
    inv_mass: np.ndarray
    fixed: np.ndarray
    pos0: np.ndarray
    motion_hist: np.ndarray
    moving_dofs: np.ndarray
    member_start: np.ndarray
    member_cap_t: np.ndarray
    member_cap_c: np.ndarray
    bar_ij: np.ndarray
    bar_L0: np.ndarray
    bar_EA: np.ndarray
    bar_k: np.ndarray
    bar_cable: np.ndarray
    bar_c: np.ndarray
    beam_ij: np.ndarray
    beam_L0: np.ndarray
    beam_EA: np.ndarray
    beam_EI: np.ndarray
    beam_chord0: np.ndarray
    beam_beta: np.ndarray
    beam_stability: np.ndarray
    tri_ijk: np.ndarray
    tri_x0: np.ndarray
    tri_E: np.ndarray
    tri_nu: np.ndarray
    tri_t: np.ndarray
    tri_beta: np.ndarray
    tri_neo: np.ndarray
    tri_dm_inv: np.ndarray
    load_node: np.ndarray
    load_f: np.ndarray
    load_hist: np.ndarray
    hist_start: np.ndarray
    hist_t: np.ndarray
    hist_v: np.ndarray
    gravity: float
    mass_damping: float
    ground_ax_hist: int
    ground_ay_hist: int
    span_beam: np.ndarray
    span_q: np.ndarray
    span_row: np.ndarray
    span_f0: np.ndarray
    beam_release: np.ndarray
    roller_node: np.ndarray
    roller_n: np.ndarray


@dataclass(frozen=True)
class Model:
    """A built model: the kernel arrays and the ids that name their rows."""

    arrays: ModelArrays
    node_ids: tuple[str, ...]
    member_ids: tuple[str, ...]
    member_slot: tuple[tuple[str, int], ...]  # (member kind, its row in the kind's arrays) per member
    triangle_ids: tuple[str, ...]
    support_nodes: tuple[int, ...]
    damping_ratio: float  # ζ asked for by world.damping; realised as mass_damping
    char_length: float  # [m] diagonal of the bounding box, the scale for tolerances
    load_end_time: float  # [s] when every history has reached its final value
    warnings: tuple[str, ...]
    vel0: np.ndarray | None = None  # (N, 3) [m/s, m/s, rad/s] initial velocities (nodes' vx, vy, vrot), None: at rest
    member_loads: tuple[MemberLoad, ...] = ()  # distributed loads (engine/member_loads.py)
    point_loads: int = 0  # the first rows of the load arrays; the member loads' equivalents follow
    contacts: tuple[tuple[int, float, float, float], ...] = ()  # (node, nx, ny, mu) per contact support
    rollers: tuple[tuple[int, float, float], ...] = ()  # (node, nx, ny) per roller on a line: its line's unit normal
    untuned: bool = False  # built statics_only where build_model would tune the damping: `damped` does it

    def __post_init__(self) -> None:
        if self.arrays.beam_stability.any():
            STABILITY.ensure()  # the kernels reach a 'stability' beam's law through a slot (engine/elements/beam.py)

    @property
    def n_nodes(self) -> int:
        return len(self.node_ids)

    def node_index(self, node_id: str) -> int:
        return self.node_ids.index(node_id)

    def member_index(self, member_id: str) -> int:
        return self.member_ids.index(member_id)

    @cached_property
    def members_by_kind(self) -> dict[str, np.ndarray]:
        """For each member kind (engine/elements/kernels.py MEMBERS: "bar" for bars and
        cables, "beam"), the members of that kind (int64 rows of member_ids) in the
        order of the kind's arrays, so that out[members_by_kind[kind]] = kind_array puts
        a kind's values in member order. Made once per Model."""
        found: dict[str, dict[int, int]] = {kind: {} for kind in MEMBERS}
        for k, (kind, row) in enumerate(self.member_slot):
            found[kind][row] = k
        return {kind: np.array([at[r] for r in range(len(at))], dtype=np.int64) for kind, at in found.items()}

    @cached_property
    def record_row(self) -> np.ndarray:
        """(M,) int64: each member's row of the member record (the State's member_on,
        member_out, member_broke; engine/elements/kind.py), in member order, so that
        record[record_row] puts the record in member order. Made once per Model."""
        rows = np.zeros(len(self.member_ids), dtype=np.int64)
        for k, members in enumerate(self.members_by_kind.values()):
            rows[members] = int(self.arrays.member_start[k]) + np.arange(len(members))
        return rows

    def with_arrays(self, **changes: Any) -> Model:
        """A copy with some kernel arrays or scalars replaced (e.g. mass_damping)."""
        return replace(self, arrays=self.arrays._replace(**changes))


class _Histories:
    """Packs piecewise-linear histories [[t, value], ...] into flat arrays."""

    def __init__(self) -> None:
        self.start = [0]
        self.t: list[float] = []
        self.v: list[float] = []
        self.end_time = 0.0

    def add(self, field: str, points: Any) -> int:
        if not isinstance(points, list) or not points:
            raise ModelError(field, N_("a history is a non-empty list of [time, value] pairs"))
        last = -math.inf
        for n, p in enumerate(points):
            if not (isinstance(p, list | tuple) and len(p) == 2):
                raise ModelError(f"{field}[{n}]", N_("each point is a pair [time, value]"))
            t, v = _number(f"{field}[{n}][0]", p[0]), _number(f"{field}[{n}][1]", p[1])
            if t <= last:
                raise ModelError(f"{field}[{n}]", N_("times must increase"))
            last = t
            self.t.append(t)
            self.v.append(v)
        self.start.append(len(self.t))
        self.end_time = max(self.end_time, last)
        return len(self.start) - 2


def _number(field: str, value: Any, *, positive: bool = False, min_value=None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ModelError(field, N_("expected a number, got {value}"), value=repr(value))
    x = float(value)
    if not math.isfinite(x):
        raise ModelError(field, N_("must be a finite number, got {value}"), value=repr(value))
    if positive and x <= 0:
        raise ModelError(field, N_("must be positive, got {value}"), value=repr(value))
    if min_value is not None and x < min_value:
        raise ModelError(field, N_("must be at least {least}, got {value}"), least=min_value, value=repr(value))
    return x


def _node_mass(field: str, value: Any, least: float, unit: str) -> float:
    """A node's own mass or inertia: zero (none) or at least `least` (see MIN_NODE_MASS)."""
    x = _number(field, value, min_value=0.0)
    if 0.0 < x < least:
        raise ModelError(
            field,
            N_("must be 0 (none) or at least {least} {unit}, got {value}: a smaller mass makes the stable time step vanish"),
            least=f"{least:g}",
            unit=unit,
            value=repr(value),
        )
    return x


def _refuse_coincident(nodes: list, xy: np.ndarray, tol: float) -> None:
    """ModelError naming a node closer than `tol` to another: the two would be drawn,
    picked and read as one node, yet move apart as two. Sorted cell keys find them
    without a loop in Python: on four grids of cells of side 2 tol, offset by half a
    cell in x, in y and in both, two nodes closer than tol on each axis share a cell in
    at least one grid (nodes up to 2√2 tol apart may be caught too)."""
    side = 2.0 * tol
    for offset in ((0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)):
        keys = np.floor(xy / side + offset)  # float: no overflow for coordinates far out
        order = np.lexsort((keys[:, 1], keys[:, 0]))
        same = np.flatnonzero((keys[order[1:]] == keys[order[:-1]]).all(axis=1))
        if same.size:
            a, b = sorted((int(order[same[0]]), int(order[same[0] + 1])))
            x, y = xy[b]
            raise ModelError(
                f"nodes[{b}]",
                N_("node {node} is at the same place as node {other} ({x}, {y}); two nodes there would look like one"),
                node=repr(nodes[b]["id"]),
                other=repr(nodes[a]["id"]),
                x=f"{x:g}",
                y=f"{y:g}",
            )


def _list(data: dict, key: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ModelError(key, N_("expected a list"))
    return value


def _obj(field: str, value: Any) -> dict:
    if not isinstance(value, dict):
        raise ModelError(field, N_("expected an object"))
    return value


def _id(field: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        raise ModelError(field, N_("expected an id (a non-empty string), got {value}"), value=repr(value))
    return str(value)


def _ref(field: str, value: Any, index: dict[str, int], what: str) -> int:
    key = _id(field, value)
    if key not in index:
        raise ModelError(field, N_("unknown member {id}") if what == "member" else N_("unknown node {id}"), id=repr(key))
    return index[key]


class _World(NamedTuple):
    gravity: float
    zeta: float  # ζ asked for by world.damping
    element_beta: float  # [s]
    breakable: bool
    raw: dict


class _Nodes(NamedTuple):
    raw: list
    index: dict[str, int]
    pos0: np.ndarray  # (N, 3) [m, m, rad]
    mass: np.ndarray  # (N, 3) [kg, kg, kg m²]; the elements add theirs as they are read
    char_length: float  # [m]


class _Members(NamedTuple):
    ids: list[str]
    slot: list[tuple[str, int]]
    rows: dict[str, dict[str, list]]  # each member kind's columns (FIELDS), one list each
    formats: list[str]  # each member's kind in the model format (engine/vocabulary.py MEMBER_KINDS)
    has_beam: np.ndarray  # (N,) bool: a beam meets the node with an end not released (its rotation is a DOF)


class _Supports(NamedTuple):
    fixed: np.ndarray  # (N, 3) bool
    motion_hist: np.ndarray  # (N, 3) int64
    nodes: list[int]
    contacts: list[tuple[int, float, float, float]]  # (node, nx, ny, mu), n a unit vector
    rollers: list[tuple[int, float, float]]  # (node, nx, ny): the normal of its line


def build_model(data: Any, *, statics_only: bool = False) -> Model:
    """Build a Model from a level or model object (docs/model.md, level format v1).

    statics_only: skip tuning the damping to the lowest mode (an eigen-solve), for
    callers that never integrate in time (the linear solve, relaxation, sense checks).

    Raises ModelError naming the field for anything that cannot make sense: unknown
    ids, duplicate ids, zero-length members, triangles of zero area, a non-positive
    modulus or area, a history whose times do not increase. The parts are read in the
    order below, so that of several faults the first in that order is the one named.
    """
    data = _obj("(top level)", data)
    world = _read_world(data)
    hist = _Histories()
    materials = _read_materials(data)
    nodes = _read_nodes(data)
    members = _read_members(data, world, materials, nodes)
    tris, triangle_ids = _read_triangles(data, world, materials, nodes)
    _refuse_coincident(nodes.raw, nodes.pos0[:, :2], COINCIDENT * nodes.char_length)  # after the members: one joining them is named first
    supports = _read_supports(data, nodes, members.has_beam, hist)
    loads = _read_loads(data, nodes, members.has_beam, hist)
    point_loads = len(loads[0])
    member_loads = _read_member_loads(data, nodes, members, hist)
    _add_equivalent_loads(loads, member_loads, nodes.pos0)
    ground = _read_ground_motion(world, hist)
    vel0 = _read_velocities(nodes, supports, members.has_beam)
    warnings = _give_missing_mass(nodes, members.has_beam)
    arrays = _pack(world, nodes, members, tris, supports, loads, ground, hist)
    arrays = arrays._replace(**_spans(member_loads, members, arrays, point_loads))
    model = Model(
        arrays=arrays,
        node_ids=tuple(nodes.index),
        member_ids=tuple(members.ids),
        member_slot=tuple(members.slot),
        triangle_ids=tuple(triangle_ids),
        support_nodes=tuple(supports.nodes),
        contacts=tuple(supports.contacts),
        rollers=tuple(supports.rollers),
        damping_ratio=world.zeta,
        char_length=nodes.char_length,
        load_end_time=hist.end_time,
        warnings=tuple(warnings),
        vel0=vel0,
        member_loads=tuple(member_loads),
        point_loads=point_loads,
    )
    if "mass_damping" not in world.raw and world.zeta > 0:
        model = replace(model, untuned=True)
        if not statics_only:
            model = damped(model)
    return model


def damped(model: Model) -> Model:
    """The model ready to integrate in time: one built statics_only with its damping
    tuned to its lowest mode as build_model would have (the same arrays otherwise, so
    the stiffness worked out for it is reused: engine/stiffness.py); else the model."""
    return replace(_tune_damping(model, model.damping_ratio), untuned=False) if model.untuned else model


def _read_world(data: dict) -> _World:
    world = _obj("world", data.get("world", {}))
    return _World(
        gravity=_number("world.gravity", world.get("gravity", 9.81)),
        zeta=_number("world.damping", world.get("damping", 0.05), min_value=0.0),
        element_beta=_number("world.element_damping", world.get("element_damping", 0.0), min_value=0.0),
        breakable=bool(world.get("breakable", False)),
        raw=world,
    )


def _read_materials(data: dict) -> dict[str, dict[str, float]]:
    materials: dict[str, dict[str, float]] = {}
    for name, mat in _obj("materials", data.get("materials", {})).items():
        f = f"materials.{name}"
        mat = _obj(f, mat)
        materials[name] = {
            "E": _number(f"{f}.E", mat.get("E"), positive=True),
            "density": _number(f"{f}.density", mat.get("density", 0.0), min_value=0.0),
            "nu": _number(f"{f}.nu", mat.get("nu", 0.3), min_value=0.0),
            "strength": _number(f"{f}.strength", mat.get("strength", math.inf), positive=True) if "strength" in mat else math.inf,
        }
        if materials[name]["nu"] >= POISSON_LIMIT:
            raise ModelError(f"{f}.nu", N_("Poisson's ratio must be below 0.5"))
    return materials


def _material(materials: dict, field: str, name: Any) -> dict[str, float]:
    key = _id(field, name)
    if key not in materials:
        raise ModelError(field, N_("unknown material {id}"), id=repr(key))
    return materials[key]


def _read_nodes(data: dict) -> _Nodes:
    nodes = _list(data, "nodes")
    if not nodes:
        raise ModelError("nodes", N_("a model needs at least one node"))
    node_index: dict[str, int] = {}
    n = len(nodes)
    pos0 = np.zeros((n, 3))
    mass = np.zeros((n, 3))
    for k, nd in enumerate(nodes):
        f = f"nodes[{k}]"
        nd = _obj(f, nd)
        nid = _id(f"{f}.id", nd.get("id"))
        if nid in node_index:
            raise ModelError(f"{f}.id", N_("duplicate node id {id}"), id=repr(nid))
        node_index[nid] = k
        pos0[k, 0] = _number(f"{f}.x", nd.get("x"))
        pos0[k, 1] = _number(f"{f}.y", nd.get("y"))
        pos0[k, 2] = _number(f"{f}.rot", nd.get("rot", 0.0))
        extra = _node_mass(f"{f}.mass", nd.get("mass", 0.0), MIN_NODE_MASS, "kg")
        mass[k, 0] += extra
        mass[k, 1] += extra
        mass[k, 2] += _node_mass(f"{f}.inertia", nd.get("inertia", 0.0), MIN_NODE_INERTIA, "kg m²")
    span = pos0[:, :2].max(axis=0) - pos0[:, :2].min(axis=0)
    return _Nodes(nodes, node_index, pos0, mass, float(max(math.hypot(*span), 1e-3)))


class _Entry(NamedTuple):
    """A member entry as read, what every kind's reader takes (_MEMBER_ROWS)."""

    field: str  # members[k]
    kind: str  # the model format's kind (engine/vocabulary.py MEMBER_KINDS)
    i: int
    j: int
    length: float  # L0 [m]
    angle: float  # the chord's angle [rad]
    E: float  # [Pa]
    area: float  # [m²]
    inertia: float  # I [m⁴], 0 where none is used
    m_bar: float  # mass per length [kg/m]
    cap_t: float  # [N]
    cap_c: float  # [N]
    release: int  # bits (engine/elements/beam.py)
    formulation: str


def _read_members(data: dict, world: _World, materials: dict, nodes: _Nodes) -> _Members:
    """Bars, cables and beams; each gives half its mass to each end node (a beam also
    m̄L³/105 of rotational inertia, seed 000 eq. 8), and its row to its kind's columns
    (its kind's reader in _MEMBER_ROWS, the member kind READ_BY names)."""
    out = _Members([], [], {kind: {k: [] for k in FIELDS[kind]} for kind in MEMBERS}, [], np.zeros(len(nodes.raw), dtype=bool))
    seen: set[str] = set()
    for k, mb in enumerate(_list(data, "members")):
        f = f"members[{k}]"
        mb = _obj(f, mb)
        mid = _id(f"{f}.id", mb.get("id"))
        if mid in seen:
            raise ModelError(f"{f}.id", N_("duplicate member id {id}"), id=repr(mid))
        seen.add(mid)
        entry = _read_entry(f, mid, mb, world, materials, nodes)
        nodes.mass[entry.i, :2] += 0.5 * entry.m_bar * entry.length
        nodes.mass[entry.j, :2] += 0.5 * entry.m_bar * entry.length
        kind = READ_BY[entry.kind]
        rows = out.rows[kind]
        for key, value in zip(FIELDS[kind], _MEMBER_ROWS[kind](entry, world, nodes, out.has_beam), strict=True):
            rows[key].append(value)
        out.ids.append(mid)
        out.formats.append(entry.kind)
        out.slot.append((kind, len(rows["ij"]) - 1))
    return out


def _read_entry(f: str, mid: str, mb: dict, world: _World, materials: dict, nodes: _Nodes) -> _Entry:
    """What every member entry gives, checked: its nodes, kind, material, area, length,
    capacities, release and formulation."""
    i = _ref(f"{f}.i", mb.get("i"), nodes.index, "node")
    j = _ref(f"{f}.j", mb.get("j"), nodes.index, "node")
    if i == j:
        raise ModelError(f"{f}.j", N_("a member joins two different nodes"))
    kind = mb.get("kind", DEFAULT_MEMBER_KIND)
    if kind not in MEMBER_KINDS:
        raise ModelError(f"{f}.kind", N_("must be one of {choices}, got {value}"), choices=", ".join(MEMBER_KINDS), value=repr(kind))
    mat = _material(materials, f"{f}.material", mb.get("material"))
    area = _number(f"{f}.A", mb.get("A"), positive=True)
    dx, dy = nodes.pos0[j, :2] - nodes.pos0[i, :2]
    length = math.hypot(dx, dy)
    if length <= COINCIDENT * nodes.char_length:
        raise ModelError(f, N_("member {id} has zero length (nodes coincide)"), id=repr(mid))
    # Capacities: yield in tension; the lesser of yield and Euler buckling
    # (pinned ends, π²EI/L²) in compression. Infinite unless the world breaks.
    # A cable never pushes; a bar or beam without I has no buckling load to check.
    inertia = _read_inertia(f, mb, kind, world.breakable and math.isfinite(mat["strength"]))
    cap_t = mat["strength"] * area if world.breakable else math.inf
    cap_c = min(cap_t, math.pi**2 * mat["E"] * inertia / length**2) if world.breakable and kind != "cable" else math.inf
    formulation = mb.get("formulation", "arcade")
    if "formulation" in mb and kind != "beam":
        raise ModelError(f"{f}.formulation", N_("only a beam has a formulation"))
    if formulation not in BEAM_FORMULATIONS:
        raise ModelError(f"{f}.formulation", N_("must be one of {choices}, got {value}"), choices=", ".join(BEAM_FORMULATIONS), value=repr(formulation))
    release = _read_release(f, mb, kind)
    return _Entry(f, kind, i, j, length, math.atan2(dy, dx), mat["E"], area, inertia, mat["density"] * area, cap_t, cap_c, release, formulation)


def _bar_row(e: _Entry, world: _World, nodes: _Nodes, has_beam: np.ndarray) -> tuple:
    """A bar's or cable's columns (FIELDS["bar"])."""
    ea = e.E * e.area
    return ((e.i, e.j), e.length, ea, e.kind == "cable", world.element_beta * ea / e.length, e.cap_t, e.cap_c)


def _beam_row(e: _Entry, world: _World, nodes: _Nodes, has_beam: np.ndarray) -> tuple:
    """A beam's columns (FIELDS["beam"]); it gives its ends m̄L³/105 of rotational inertia
    (seed 000 eq. 8) and makes the rotation of each end it holds a DOF (has_beam)."""
    rot_inertia = e.m_bar * e.length**3 / 105.0  # seed 000 eq. (8)
    nodes.mass[e.i, 2] += rot_inertia
    nodes.mass[e.j, 2] += rot_inertia
    has_beam[e.i] |= not (e.release & RELEASE_BITS["i"])
    has_beam[e.j] |= not (e.release & RELEASE_BITS["j"])
    ea, ei = e.E * e.area, e.E * e.inertia
    return ((e.i, e.j), e.length, ea, ei, e.angle, world.element_beta, e.formulation == "stability", e.cap_t, e.cap_c, e.release)


# Each member kind's reader: its columns (FIELDS) from a member entry.
_MEMBER_ROWS: dict[str, Callable[[_Entry, _World, _Nodes, np.ndarray], tuple]] = {"bar": _bar_row, "beam": _beam_row}


def _read_release(f: str, mb: dict, kind: str) -> int:
    """A member's released (pinned) ends, `release`: a list of "i" and "j", as bits."""
    if "release" not in mb:
        return 0
    ends = mb["release"]
    if not isinstance(ends, list) or any(e not in RELEASE_BITS for e in ends) or len(set(ends)) != len(ends):
        raise ModelError(f"{f}.release", N_('lists the member\'s pinned ends, any of "i" and "j"'))
    if ends and kind != "beam":
        raise ModelError(f"{f}.release", N_("only a beam carries moments at its ends to release; a bar or cable is pinned already"))
    return sum(RELEASE_BITS[e] for e in ends)


def _read_inertia(f: str, mb: dict, kind: str, buckles: bool) -> float:
    """A member's I [m⁴]. Where it is used (a beam's bending; a bar's buckling load in a
    breakable world, `buckles`) it must be positive; elsewhere 0 is accepted, as "none"
    (a bar or cable carries no moment, so its I is never read)."""
    if kind == "beam" and "I" not in mb:
        raise ModelError(f"{f}.I", N_("a beam needs its second moment of area I"))
    if kind == "bar" and buckles and "I" not in mb:
        raise ModelError(f"{f}.I", N_("in a breakable world a bar needs I for its buckling load π²EI/L²"))
    if "I" not in mb:
        return 0.0
    used = kind == "beam" or (kind == "bar" and buckles)
    return _number(f"{f}.I", mb["I"], positive=used, min_value=None if used else 0.0)


def _read_triangles(data: dict, world: _World, materials: dict, nodes: _Nodes) -> tuple[dict[str, list], list[str]]:
    """Triangles in the local frame of seed 000 Fig. 6; each gives a third of its mass to
    each node."""
    tris: dict[str, list] = {k: [] for k in ("ijk", "x0", "E", "nu", "t", "beta", "neo", "dm_inv")}
    triangle_ids: list[str] = []
    for k, tr in enumerate(_list(data, "triangles")):
        f = f"triangles[{k}]"
        tr = _obj(f, tr)
        tid = _id(f"{f}.id", tr.get("id"))
        if tid in triangle_ids:
            raise ModelError(f"{f}.id", N_("duplicate triangle id {id}"), id=repr(tid))
        ids = tr.get("nodes")
        if not isinstance(ids, list) or len(ids) != 3:
            raise ModelError(f"{f}.nodes", N_("a triangle lists exactly three nodes"))
        i, j, kk = (_ref(f"{f}.nodes[{q}]", ids[q], nodes.index, "node") for q in range(3))
        if len({i, j, kk}) < 3:
            raise ModelError(f"{f}.nodes", N_("a triangle needs three different nodes"))
        mat = _material(materials, f"{f}.material", tr.get("material"))
        thick = _number(f"{f}.t", tr.get("t"), positive=True)
        model_kind = tr.get("model", DEFAULT_TRIANGLE_MODEL)
        if model_kind not in TRIANGLE_MODELS:
            raise ModelError(f"{f}.model", N_("must be one of {choices}"), choices=", ".join(TRIANGLE_MODELS))
        # Local frame of seed 000 Fig. 6: origin at i, x toward k, y by the right hand.
        pi, pj, pk = nodes.pos0[i, :2], nodes.pos0[j, :2], nodes.pos0[kk, :2]
        ex = pk - pi
        xk = math.hypot(*ex)
        if xk == 0.0:
            raise ModelError(f"{f}.nodes", N_("triangle {id} has zero area (nodes coincide)"), id=repr(tid))
        ex = ex / xk
        rel = pj - pi
        xj = float(rel @ ex)
        yj = float(-rel[0] * ex[1] + rel[1] * ex[0])
        area = 0.5 * abs(yj * xk)
        if area <= 1e-9 * nodes.char_length**2:
            raise ModelError(f"{f}.nodes", N_("triangle {id} has zero area (nodes in a line)"), id=repr(tid))
        row = ((i, j, kk), (xj, yj, xk), mat["E"], mat["nu"], thick, world.element_beta, model_kind == "neo_hookean")
        for key, value in zip(("ijk", "x0", "E", "nu", "t", "beta", "neo"), row, strict=True):
            tris[key].append(value)
        tris["dm_inv"].append(np.linalg.inv(np.column_stack((pj - pi, pk - pi))))
        third = mat["density"] * area * thick / 3.0
        for q in (i, j, kk):
            nodes.mass[q, :2] += third
        triangle_ids.append(tid)
    return tris, triangle_ids


def _read_supports(data: dict, nodes: _Nodes, has_beam: np.ndarray, hist: _Histories) -> _Supports:
    n = len(nodes.raw)
    fixed = np.zeros((n, 3), dtype=bool)
    fixed[:, 2] = ~has_beam  # nothing turns a node no beam meets
    motion_hist = np.full((n, 3), -1, dtype=np.int64)
    support_nodes: list[int] = []
    contacts: list[tuple[int, float, float, float]] = []
    rollers: list[tuple[int, float, float]] = []
    for k, sp in enumerate(_list(data, "supports")):
        f = f"supports[{k}]"
        sp = _obj(f, sp)
        q = _ref(f"{f}.node", sp.get("node"), nodes.index, "node")
        fix = sp.get("fix", [])
        if not isinstance(fix, list) or any(d not in DOF_NAMES for d in fix):
            raise ModelError(f"{f}.fix", N_('lists any of "x", "y", "rot"'))
        for d in fix:
            fixed[q, DOF_NAMES.index(d)] = True
        motion = _obj(f"{f}.motion", sp.get("motion", {}))
        for d, points in motion.items():
            if d not in fix:
                raise ModelError(f"{f}.motion.{d}", N_("only a fixed DOF can be given a motion"))
            motion_hist[q, DOF_NAMES.index(d)] = hist.add(f"{f}.motion.{d}", points)
        if "contact" in sp:
            if set(fix) & {"x", "y"}:
                raise ModelError(f"{f}.contact", N_('a contact holds the node against a surface; it cannot also fix "x" or "y"'))
            if any(c[0] == q for c in contacts):
                raise ModelError(f"{f}.contact", N_("this node already has a contact"))
            contacts.append((q, *_read_contact(f"{f}.contact", sp["contact"])))
        if "roller" in sp:
            rollers.append((q, *_read_roller(f"{f}.roller", sp["roller"], fix, "contact" in sp)))
            if any(r[0] == q for r in rollers[:-1]):
                raise ModelError(f"{f}.roller", N_("this node already has a roller"))
        if q not in support_nodes:
            support_nodes.append(q)
    return _Supports(fixed, motion_hist, support_nodes, contacts, rollers)


def _read_roller(f: str, roller: Any, fix: list, contact: bool) -> tuple[float, float]:
    """(nx, ny): the unit normal of a roller's line, from `roller.angle`, the line's
    angle [degrees] from the x axis, counter-clockwise (0: a roller on level ground)."""
    roller = _obj(f, roller)
    for key in roller:
        if key not in ROLLER_FIELDS:
            raise ModelError(f"{f}.{key}", N_('unknown field (a roller has "angle", its line\'s angle in degrees)'))
    if set(fix) & {"x", "y"} or contact:
        raise ModelError(f, N_('a roller holds the node across its line; it cannot also fix "x" or "y" or have a contact'))
    if "angle" not in roller:
        raise ModelError(f"{f}.angle", N_("missing: the angle of the line the node rolls along, in degrees from the x axis"))
    a = math.radians(_number(f"{f}.angle", roller["angle"]))
    return -math.sin(a), math.cos(a)


def _read_contact(f: str, contact: Any) -> tuple[float, float, float]:
    """(nx, ny, mu) of a contact support: the surface through the node's starting point
    with outward unit normal n (toward the body), friction coefficient mu ≥ 0."""
    contact = _obj(f, contact)
    for key in contact:
        if key not in CONTACT_FIELDS:
            raise ModelError(f"{f}.{key}", N_('unknown field (a contact has "normal" and "mu")'))
    normal = contact.get("normal")
    if not isinstance(normal, list) or len(normal) != 2:
        raise ModelError(f"{f}.normal", N_("expected [nx, ny], the direction out of the surface toward the body"))
    nx, ny = (_number(f"{f}.normal", v) for v in normal)
    size = math.hypot(nx, ny)
    if size == 0.0:
        raise ModelError(f"{f}.normal", N_("must not be [0, 0]"))
    if "mu" not in contact:
        raise ModelError(f"{f}.mu", N_("missing: the friction coefficient (0 for a smooth surface)"))
    return nx / size, ny / size, _number(f"{f}.mu", contact["mu"], min_value=0.0)


def _read_loads(data: dict, nodes: _Nodes, has_beam: np.ndarray, hist: _Histories) -> tuple[list, list, list]:
    """(node rows, force vectors [fx, fy, m], history indices or -1). A moment at a node
    whose rotation is no DOF (no beam holds it) is refused: nothing would carry it."""
    load_node, load_f, load_hist = [], [], []
    for k, ld in enumerate(_list(data, "loads")):
        f = f"loads[{k}]"
        ld = _obj(f, ld)
        q = _ref(f"{f}.node", ld.get("node"), nodes.index, "node")
        load_node.append(q)
        load_f.append([_number(f"{f}.{c}", ld.get(c, 0.0)) for c in ("fx", "fy", "m")])
        if load_f[-1][2] != 0.0 and not has_beam[q]:
            raise ModelError(
                f"{f}.m",
                N_("nothing takes a moment at node {node}: no beam meets it (or each one meeting it is pinned there); put it on a beam's node"),
                node=nodes.raw[q]["id"],
            )
        load_hist.append(hist.add(f"{f}.history", ld["history"]) if "history" in ld else -1)
    return load_node, load_f, load_hist


def _read_member_loads(data: dict, nodes: _Nodes, members: _Members, hist: _Histories) -> list[MemberLoad]:
    """Distributed loads `{member, w | wi and wj [N/m], direction, history}` (see
    engine/member_loads.py): uniform w, or linear from wi at end i to wj at end j, along
    global "y" (the default) or "x", or the member's "normal"."""
    out: list[MemberLoad] = []
    index = {mid: k for k, mid in enumerate(members.ids)}
    for k, ld in enumerate(_list(data, "member_loads")):
        f = f"member_loads[{k}]"
        ld = _obj(f, ld)
        for key in ld:
            if key not in MEMBER_LOAD_FIELDS:
                raise ModelError(f"{f}.{key}", N_("a member load takes member, w (uniform) or wi and wj (linear), direction and history"))
        m = _ref(f"{f}.member", ld.get("member"), index, "member")
        if "w" in ld:
            if "wi" in ld or "wj" in ld:
                raise ModelError(f"{f}.w", N_("give w (a uniform load) or wi and wj (a linear one), not both"))
            wi = wj = _number(f"{f}.w", ld["w"])
        elif "wi" in ld and "wj" in ld:
            wi, wj = _number(f"{f}.wi", ld["wi"]), _number(f"{f}.wj", ld["wj"])
        else:
            missing = "wj" if "wi" in ld else "wi" if "wj" in ld else "w"
            raise ModelError(f"{f}.{missing}", N_("a member load needs w [N/m] (uniform), or wi and wj [N/m] at its ends i and j (linear)"))
        direction = ld.get("direction", "y")
        if direction not in DIRECTIONS:
            raise ModelError(f"{f}.direction", N_("must be one of {choices}, got {value}"), choices=", ".join(DIRECTIONS), value=repr(direction))
        if members.formats[m] == "cable":
            raise ModelError(
                f"{f}.member", N_("{id} is a cable, which carries loads only at its ends (a load along it would make it sag)"), id=repr(ld["member"])
            )
        kind, row = members.slot[m]
        columns = members.rows[kind]
        i, j = columns["ij"][row]
        history = hist.add(f"{f}.history", ld["history"]) if "history" in ld else -1
        beam = members.formats[m] == "beam"  # it bends under the load between its ends
        out.append(MemberLoad(m, i, j, wi, wj, direction, history, beam, columns["release"][row] if beam else 0))
    return out


def _add_equivalent_loads(loads: tuple[list, list, list], member_loads: list[MemberLoad], pos0: np.ndarray) -> None:
    """Each member load's work-equivalent nodal loads, appended to the point loads with
    its history (so every integrator and the reactions take them as they take those)."""
    load_node, load_f, load_hist = loads
    for ml in member_loads:
        ends = equivalent_global(ml, pos0)
        for q, f in zip((ml.i, ml.j), ends, strict=True):
            load_node.append(q)
            load_f.append(f.tolist())
            load_hist.append(ml.history)


def _spans(member_loads: list[MemberLoad], members: _Members, arrays: ModelArrays, point_loads: int) -> dict:
    """The distributed loads on 'stability' beams, whose equivalent loads follow the
    beam's axial force (ModelArrays: span_*)."""
    rows = [k for k, ml in enumerate(member_loads) if ml.beam and arrays.beam_stability[members.slot[ml.member][1]] and not ml.release]  # pinned: first order
    beam = np.array([members.slot[member_loads[k].member][1] for k in rows], dtype=np.int64)
    q = np.array([along_across(member_loads[k], arrays.pos0)[3:] for k in rows], dtype=float).reshape(-1, 2)
    row = np.array([point_loads + 2 * k for k in rows], dtype=np.int64)
    return {"span_beam": beam, "span_q": q, "span_row": row, "span_f0": arrays.load_f[row].copy().reshape(-1, 3)}


def _read_ground_motion(world: _World, hist: _Histories) -> tuple[int, int]:
    """The histories of the ground's acceleration in x and y (-1: none)."""
    ground = _obj("world.ground_motion", world.raw.get("ground_motion", {}))
    for key in ground:
        if key not in GROUND_MOTION_FIELDS:
            raise ModelError(f"world.ground_motion.{key}", N_('ground motion takes "ax" and "ay"'))
    g_ax = hist.add("world.ground_motion.ax", ground["ax"]) if "ax" in ground else -1
    g_ay = hist.add("world.ground_motion.ay", ground["ay"]) if "ay" in ground else -1
    return g_ax, g_ay


VELOCITY_FIELDS = ("vx", "vy", "vrot")  # a node's initial velocity [m/s, m/s, rad/s]


def _read_velocities(nodes: _Nodes, supports: _Supports, has_beam: np.ndarray) -> np.ndarray | None:
    """The nodes' initial velocities (N, 3), or None when every node starts at rest. A
    DOF a support holds, or a rotation no beam turns, cannot start moving, nor can a
    node on a roller across its line."""
    fixed = supports.fixed
    vel0 = np.zeros_like(nodes.pos0)
    for k, nd in enumerate(nodes.raw):
        for d, key in enumerate(VELOCITY_FIELDS):
            if key not in nd:
                continue
            f = f"nodes[{k}].{key}"
            vel0[k, d] = _number(f, nd[key])
            if vel0[k, d] != 0.0 and fixed[k, d]:
                if d == 2 and not has_beam[k]:
                    unturned = N_(
                        "cannot start moving: no beam meets the node (or each one meeting it is pinned there), so nothing turns it; leave it out or give 0"
                    )
                    raise ModelError(f, unturned)
                raise ModelError(f, N_("cannot start moving: a support holds its {dof}; leave it out or give 0"), dof=DOF_NAMES[d])
    for q, nx, ny in supports.rollers:
        if abs(vel0[q, 0] * nx + vel0[q, 1] * ny) > 1e-12 * math.hypot(vel0[q, 0], vel0[q, 1]):
            raise ModelError(f"nodes[{q}].vx", N_("cannot start moving across the line of its roller; give a velocity along the line"))
    return vel0 if vel0.any() else None


def _give_missing_mass(nodes: _Nodes, has_beam: np.ndarray) -> list[str]:
    """Nodes left without mass get a small one, and a warning (seed 000). A node whose
    elements give it less than MIN_NODE_MASS (a tiny density or section) counts as one
    without: its mass is negligible, and kept it would make the step vanish."""
    mass = nodes.mass
    ids = list(nodes.index)
    warnings: list[str] = []
    positive = mass[:, 0][mass[:, 0] >= MIN_NODE_MASS]
    small = 1e-3 * float(positive.mean()) if positive.size else 1.0
    for q in np.flatnonzero(mass[:, 0] < MIN_NODE_MASS):
        had = float(mass[q, 0])
        mass[q, :2] = max(small, had)
        warnings.append(f"node {ids[q]!r} has {_none_or(had, 'kg')} mass; given {mass[q, 0]:.3g} kg")
    for q in np.flatnonzero(has_beam & (mass[:, 2] < MIN_NODE_INERTIA)):
        had = float(mass[q, 2])
        mass[q, 2] = max(mass[q, 0] * (0.01 * nodes.char_length) ** 2, had)
        warnings.append(f"node {ids[q]!r} has {_none_or(had, 'kg m²')} rotational inertia; given {mass[q, 2]:.3g} kg m²")
    return warnings


def _arr(values: list, shape: tuple, dtype=np.float64) -> np.ndarray:
    return np.ascontiguousarray(np.array(values, dtype=dtype).reshape(shape))


def _pack(world: _World, nodes: _Nodes, members: _Members, tris: dict, supports: _Supports, loads: tuple, ground: tuple, hist: _Histories) -> ModelArrays:
    """The kernel arrays (ModelArrays documents each)."""
    bars, beams = members.rows["bar"], members.rows["beam"]
    record = [members.rows[kind] for kind in MEMBERS]  # the member record's rows, each kind in turn (engine/elements/kind.py)
    starts = np.cumsum([0] + [len(rows["ij"]) for rows in record])
    load_node, load_f, load_hist = loads
    nb, nbm, nt, nl = len(bars["L0"]), len(beams["L0"]), len(tris["E"]), len(load_node)
    mass, fixed = nodes.mass, supports.fixed
    return ModelArrays(
        mass=mass,
        inv_mass=np.divide(1.0, mass, out=np.zeros_like(mass), where=~fixed & (mass > 0)),
        fixed=fixed,
        pos0=nodes.pos0,
        motion_hist=supports.motion_hist,
        moving_dofs=np.ascontiguousarray(np.argwhere(supports.motion_hist >= 0).astype(np.int64).reshape(-1, 2)),
        member_start=starts.astype(INDEX),
        member_cap_t=_arr([c for rows in record for c in rows["cap_t"]], (int(starts[-1]),)),
        member_cap_c=_arr([c for rows in record for c in rows["cap_c"]], (int(starts[-1]),)),
        bar_ij=_arr(bars["ij"], (nb, 2), INDEX),
        bar_L0=_arr(bars["L0"], (nb,)),
        bar_EA=_arr(bars["EA"], (nb,)),
        bar_k=_arr(bars["EA"], (nb,)) / _arr(bars["L0"], (nb,)),
        bar_cable=_arr(bars["cable"], (nb,), np.bool_),
        bar_c=_arr(bars["c"], (nb,)),
        beam_ij=_arr(beams["ij"], (nbm, 2), INDEX),
        beam_L0=_arr(beams["L0"], (nbm,)),
        beam_EA=_arr(beams["EA"], (nbm,)),
        beam_EI=_arr(beams["EI"], (nbm,)),
        beam_chord0=_arr(beams["chord0"], (nbm,)),
        beam_beta=_arr(beams["beta"], (nbm,)),
        beam_stability=_arr(beams["stability"], (nbm,), np.bool_),
        tri_ijk=_arr(tris["ijk"], (nt, 3), INDEX),
        tri_x0=_arr(tris["x0"], (nt, 3)),
        tri_E=_arr(tris["E"], (nt,)),
        tri_nu=_arr(tris["nu"], (nt,)),
        tri_t=_arr(tris["t"], (nt,)),
        tri_beta=_arr(tris["beta"], (nt,)),
        tri_neo=_arr(tris["neo"], (nt,), np.bool_),
        tri_dm_inv=_arr(tris["dm_inv"], (nt, 2, 2)),
        load_node=_arr(load_node, (nl,), INDEX),
        load_f=_arr(load_f, (nl, 3)),
        load_hist=_arr(load_hist, (nl,), np.int64),
        hist_start=_arr(hist.start, (len(hist.start),), np.int64),
        hist_t=_arr(hist.t, (len(hist.t),)),
        hist_v=_arr(hist.v, (len(hist.v),)),
        gravity=world.gravity,
        mass_damping=_number("world.mass_damping", world.raw["mass_damping"], min_value=0.0) if "mass_damping" in world.raw else 0.0,
        ground_ax_hist=ground[0],
        ground_ay_hist=ground[1],
        span_beam=np.zeros(0, np.int64),
        span_q=np.zeros((0, 2)),
        span_row=np.zeros(0, np.int64),
        span_f0=np.zeros((0, 3)),
        beam_release=_arr(beams["release"], (nbm,), np.int64),
        roller_node=np.array([r[0] for r in supports.rollers], dtype=np.int64),
        roller_n=_arr([r[1:] for r in supports.rollers], (len(supports.rollers), 2)),
    )


def _tune_damping(model: Model, zeta: float) -> Model:
    """ζ of the lowest elastic mode as mass-proportional damping: α = 2ζω₁."""
    omega1 = lowest_frequency(model.arrays)
    if omega1 is None:
        omega1 = 2.0 * math.pi  # no elastic mode to tune to: damp as a 1 Hz mode
        model = _warn(model, "no elastic mode found; damping tuned to 1 Hz")
    # Rounded to 6 significant figures: ω₁ comes from LAPACK, whose last bits vary with
    # the machine's build; rounded, the runs (and every figure they give) do not.
    return model.with_arrays(mass_damping=float(f"{2.0 * zeta * omega1:.6g}"))


def _none_or(had: float, unit: str) -> str:
    return "no" if had <= 0 else f"a negligible ({had:.3g} {unit})"


def _warn(model: Model, text: str) -> Model:
    return replace(model, warnings=(*model.warnings, text))
