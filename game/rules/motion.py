"""A mechanism's free motions in words a student reads, the same on every machine.

The engine finds the free motions as a basis of the stiffness matrix's null space, and
which basis depends on the machine's LAPACK. Nothing here reads that basis directly:

- The structure falls into parts, the connected pieces of its graph of elements. K has
  no term between parts, so the free motions are the sum of each part's own. A part's
  share is read through the orthogonal projector (the same for every basis): the
  singular values of the part's rows of an orthonormal basis are 1 (a motion of that
  part alone) or 0, so counting those over 0.5 counts the part's free motions with
  half the scale as margin.
- A part that no support touches floats: it is named so, whatever its motions.
- A part with one free motion has it up to its sign and size, and its words (slides
  along a line, turns about a node or a point) do not depend on either.
- A part with two free motions that are both rigid motions of the nodes that move
  (a body on one roller) slides along the one line left to it and turns about the
  node its turning centres pass through.
- Figures are rounded to what a student reads (centimetres), so a centre at 1e-15 m
  reads 0 m on every machine.

Several moving parts, or more motions than the words name, are counted: "2 free
motions: …; …".
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from equilibria.engine.linear import Mechanism
from equilibria.engine.model import Model
from equilibria.engine.results import member_ends
from equilibria.words.i18n import _, plain

MOTION_TOL = 1e-3  # a node moves in a free motion when its motion passes this fraction of the largest
RIGID_TOL = 1e-6  # a motion is rigid where a rigid motion fits it to this fraction of its size
NEAR_NODE = 0.02  # a turning centre this close to a node (a fraction of the structure's size) is at the node
TIE_TOL = 1e-6  # values this close (a fraction of the largest) are a tie, broken by node order, not by round-off


def describe_motion(model: Model, free: Mechanism) -> str:
    """Every free motion of `free` in words: which parts move and how."""
    pieces: list[tuple[int, str]] = []
    for nodes in _parts(model):
        dofs = (3 * nodes[:, None] + np.arange(3)).ravel()
        u, s, _vt = np.linalg.svd(free.orthonormal[dofs], full_matrices=False)
        basis = u[:, s > 0.5]  # this part's own free motions, orthonormal
        if basis.shape[1]:
            pieces.append((basis.shape[1], _part_words(model, nodes, basis.reshape(len(nodes), 3, -1))))
    if len(pieces) == 1:
        return pieces[0][1]
    total = sum(k for k, _ in pieces)
    return _("{n} free motions: {motions}").format(n=total, motions="; ".join(words for _k, words in pieces))


def _part_words(model: Model, nodes: np.ndarray, basis: np.ndarray) -> str:
    """One part's free motions in words; basis (n, 3, k) on the part's nodes."""
    reach = np.linalg.norm(basis, axis=2)  # (n, 3) how far each DOF moves in the space
    size = np.hypot(reach[:, 0], reach[:, 1])
    spin = size.max() < MOTION_TOL * reach.max()
    if spin:
        size = reach[:, 2]
    moving = nodes[size > MOTION_TOL * size.max()]
    names = [model.node_ids[q] for q in moving]
    whole = len(names) == model.n_nodes
    who = _("the whole structure") if whole else _listing(names)
    one = len(names) == 1 or whole
    k = basis.shape[2]
    if not model.arrays.fixed[nodes, :2].any():  # a rotation without a beam is locked, not held
        if one:
            return _("nothing holds {who}: no support touches it, so it can slide and turn freely").format(who=who)
        return _("nothing holds {who}: no support touches them, so they can slide and turn freely").format(who=who)
    if spin:
        if len(names) == 1:
            return _("{who} can spin freely (nothing stops its rotation)").format(who=who)
        return _("{who} can spin freely (nothing stops their rotation)").format(who=who)
    where = {q: r for r, q in enumerate(nodes)}
    if k == 1:
        return _one_motion(model, moving, basis[[where[q] for q in moving], :2, 0], who, not one)
    joined = _with_neighbours(model, moving)  # in the part: elements join only nodes of one part
    fits = [_rigid_fit(model.arrays.pos0[joined, :2], basis[[where[q] for q in joined], :2, c], float(np.abs(basis[:, :2, c]).max())) for c in range(k)]
    if k == 2 and all(f is not None for f in fits):
        found = _slide_and_turn(model, np.array(fits))
        if found:
            line, node = found
            if one:
                return _("{who} can slide {line} and turn about node {node}").format(who=who, line=line, node=node)
            return _("{who} can slide {line} and turn about node {node} together").format(who=who, line=line, node=node)
    return _("{who} can move in {k} independent ways without stretching any member").format(who=who, k=k)


def _one_motion(model: Model, moving: np.ndarray, u: np.ndarray, who: str, together: bool) -> str:
    """The words for a part's single free motion u (m, 2) at the nodes `moving`: a rigid
    motion first of those nodes and the nodes joined to them (a part turning about a
    support), then of those nodes alone (sliding, or turning about an instant centre)."""
    mode = np.zeros((model.n_nodes, 2))
    mode[moving] = u
    scale = float(np.abs(u).max())
    for nodes in (_with_neighbours(model, moving), moving):
        fit = _rigid_fit(model.arrays.pos0[nodes, :2], mode[nodes], scale)
        if fit is None:
            continue
        tx, ty, omega = fit
        if abs(omega) * model.char_length < 1e-3 * math.hypot(tx, ty):
            said = _("{who} can slide {line} together") if together else _("{who} can slide {line}")
            return said.format(who=who, line=_line(math.degrees(math.atan2(ty, tx))))
        said = _("{who} can turn together about {place}") if together else _("{who} can turn about {place}")
        return said.format(who=who, place=_place(model, np.array([-ty / omega, tx / omega])))
    q = first_largest(np.hypot(*u.T))
    said = _("{who} can move without stretching any member ({node} {line})")
    return said.format(who=who, node=model.node_ids[moving[q]], line=_line(math.degrees(math.atan2(u[q, 1], u[q, 0]))))


def _slide_and_turn(model: Model, fits: np.ndarray) -> tuple[str, str] | None:
    """Two rigid motions (2, 3) as (t_x, t_y, ω) spanning a plane of rigid motions: the
    one translation in it and the line its turning centres lie on, in words, when a
    held node lies on that line (a body on a roller slides along it and turns about
    the roller; the first such node, if several); None otherwise."""
    (t1x, t1y, w1), (t2x, t2y, w2) = fits
    tx, ty = w2 * t1x - w1 * t2x, w2 * t1y - w1 * t2y  # the combination without rotation
    if math.hypot(tx, ty) == 0.0 or max(abs(w1), abs(w2)) == 0.0:
        return None
    turn = fits[0] if abs(w1) >= abs(w2) else fits[1]  # either: the line is the same
    centre = np.array([-turn[1] / turn[2], turn[0] / turn[2]])  # one centre; the others lie along the slide's normal
    pos = model.arrays.pos0[:, :2]
    off_line = np.abs((pos - centre) @ np.array([tx, ty]) / math.hypot(tx, ty))
    held = np.flatnonzero(model.arrays.fixed[:, :2].any(axis=1) & (off_line < NEAR_NODE * model.char_length))
    if not held.size:
        return None
    return _line(math.degrees(math.atan2(ty, tx))), model.node_ids[held[0]]


def _place(model: Model, centre: np.ndarray) -> str:
    """A turning centre in words: the node there, or the point rounded to centimetres."""
    pos = model.arrays.pos0[:, :2]
    near = first_largest(-np.hypot(*(pos - centre).T), absolute=NEAR_NODE * model.char_length)
    if math.dist(pos[near], centre) < NEAR_NODE * model.char_length:
        return _("node {node}").format(node=model.node_ids[near])
    x, y = (round(float(c), 2) + 0.0 for c in centre)  # + 0.0: never "-0 m"
    return _("the point ({x} m, {y} m)").format(x=plain(x), y=plain(y))


def _line(angle: float) -> str:
    """A line of motion in words (either sense), for an angle in degrees."""
    a = angle % 180.0
    if min(a, 180.0 - a) < 10.0:
        return _("sideways")
    if abs(a - 90.0) < 10.0:
        return _("up and down")
    return _("along a line at {angle}° to the horizontal").format(angle=f"{a:.0f}")


def _pairs(model: Model) -> np.ndarray:
    """(P, 2) the node pairs the elements join."""
    tri = model.arrays.tri_ijk.astype(np.int64)
    return np.concatenate([member_ends(model), tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [2, 0]]])


def _parts(model: Model) -> list[np.ndarray]:
    """The connected parts of the structure, each as its node indices in order, the
    parts in the order of their first node."""
    pairs = _pairs(model)
    n = model.n_nodes
    graph = sp.coo_matrix((np.ones(len(pairs)), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
    _count, part = connected_components(graph, directed=False)
    order = list(dict.fromkeys(part))  # labels by first appearance
    return [np.flatnonzero(part == label) for label in order]


def _with_neighbours(model: Model, nodes: np.ndarray) -> np.ndarray:
    pairs = _pairs(model)
    touching = np.isin(pairs, nodes).any(axis=1)
    return np.union1d(nodes, pairs[touching].ravel())


def _rigid_fit(r: np.ndarray, u: np.ndarray, scale: float) -> tuple[float, float, float] | None:
    """(t_x, t_y, ω) of the rigid motion u = t + ω ẑ × r that gives translations u at
    points r, or None if u is not rigid there or the points (fewer than two apart)
    cannot tell."""
    if len(r) < 2 or np.ptp(r, axis=0).max() == 0.0:
        return None
    rows = np.zeros((2 * len(r), 3))
    rows[0::2, 0] = 1.0
    rows[1::2, 1] = 1.0
    rows[0::2, 2] = -r[:, 1]
    rows[1::2, 2] = r[:, 0]
    fit, *_ = np.linalg.lstsq(rows, u.ravel(), rcond=None)
    if np.abs(rows @ fit - u.ravel()).max() > RIGID_TOL * scale:
        return None
    return float(fit[0]), float(fit[1]), float(fit[2])


def first_largest(values: np.ndarray, absolute: float = 0.0) -> int:
    """The index of the largest of `values`, ties going to the first: every value within
    TIE_TOL of the largest's size (or `absolute`, if more) counts as the largest, so that
    two nodes that move alike (a symmetric mechanism) are told apart by their order in
    the level, never by the last bits of another machine's BLAS."""
    top = float(values.max())
    slack = max(TIE_TOL * abs(top), absolute * TIE_TOL)
    return int(np.flatnonzero(values >= top - slack)[0])


def _listing(names: list[str]) -> str:
    if len(names) == 1:
        return _("node {node}").format(node=names[0])
    return _("nodes {nodes} and {last}").format(nodes=", ".join(names[:-1]), last=names[-1])
