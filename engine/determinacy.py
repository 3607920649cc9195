"""Counting a plane truss: m + r against 2j (a pure function of the model's data); the
conditions a structure's hinges add to its equations of equilibrium (hinge_parts).

Glossary
    m   members (bars and cables), each one unknown force
    r   reaction components: the x and y the supports lock (a truss joint is a pin,
        so a locked "rot" adds nothing), one for a roller on a line at any angle
    j   joints (every node), each giving two equations of equilibrium, ΣFx = ΣFy = 0

Method of joints: 2j equations in m + r unknowns. So
    m + r = 2j   as many unknowns as equations: statically determinate;
    m + r > 2j   more unknowns than equations: indeterminate to degree m + r − 2j
                 (that many redundant members or reaction components);
    m + r < 2j   fewer unknowns than equations: a mechanism (2j − m − r free motions
                 at least).
The count is necessary, not sufficient: members badly placed (a panel with two
diagonals next to one with none, three members meeting in line) make a mechanism
whatever the count says. Only the stiffness (engine/linear.py, `mechanism`) tells.

Only a truss is counted. A structure with beam-columns or plates gets no count: a
frame's count (3m + r against 3j) needs its hinges counted too, and the game's frames
mix rigid joints with pins at bars, so a count without them would mislead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from equilibria.engine.results import member_results
from equilibria.engine.vocabulary import AXIAL_KINDS, DEFAULT_MEMBER_KIND
from equilibria.engine.words import N_, Words

TRUSS_MEMBERS = AXIAL_KINDS  # member kinds that carry an axial force only
TRUSS_DOFS = ("x", "y")  # the support components a truss joint can have


@dataclass(frozen=True)
class TrussCount:
    """m members, r reaction components, j joints of a plane truss."""

    m: int
    r: int
    j: int

    @property
    def excess(self) -> int:
        """m + r − 2j: the degree of indeterminacy (> 0), or minus the free motions the
        count leaves (< 0)."""
        return self.m + self.r - 2 * self.j

    @property
    def verdict(self) -> str:
        """What the count says, in words."""
        return str(self.verdict_words)

    @property
    def verdict_words(self) -> Words:
        """What the count says, translatable where shown (engine/words.py)."""
        n = self.excess
        if n == 0:
            return Words(N_("statically determinate"))
        if n > 0:
            return Words(N_("indeterminate to degree {n} ({count} redundant)"), {"n": n, "count": _number(n)})
        if n == -1:
            return Words(N_("a mechanism (one member or support too few)"))
        return Words(N_("a mechanism ({count} members or supports too few)"), {"count": _number(-n)})

    @property
    def short(self) -> str:
        """What the count says, in a narrow panel's words."""
        return str(self.short_words)

    @property
    def short_words(self) -> Words:
        n = self.excess
        if n == 0:
            return Words(N_("statically determinate"))
        return Words(N_("indeterminate to degree {n}"), {"n": n}) if n > 0 else Words(N_("a mechanism by the count"))

    def equation(self) -> str:
        """`m + r = 13 + 3 = 16 = 2j`, or with > or < where the two sides differ:
        `m + r = 14 + 3 = 17 > 2j = 16`."""
        total, twice = self.m + self.r, 2 * self.j
        sides = f"{total} = 2j" if total == twice else f"{total} {'>' if total > twice else '<'} 2j = {twice}"
        return f"m + r = {self.m} + {self.r} = {sides}"

    def line(self, translate: Callable[[str], str] | None = None) -> str:
        """The equation and what it says: `m + r = 13 + 3 = 16 = 2j: statically determinate`
        (the words through `translate`, game/words/i18n.py `_`)."""
        return f"{self.equation()}: {self.verdict_words.said(translate)}"


def truss_count(data: dict) -> TrussCount | None:
    """The count of the structure in `data` (the model's dict, as build_model takes it),
    or None when it is not a truss: no members, or a beam-column or a plate in it."""
    members = data.get("members") or []
    if not members or data.get("triangles") or any(m.get("kind", DEFAULT_MEMBER_KIND) not in TRUSS_MEMBERS for m in members):
        return None
    r = sum(sum(1 for d in set(s.get("fix", [])) if d in TRUSS_DOFS) + ("roller" in s) for s in data.get("supports") or [])  # a roller on a line: one
    return TrussCount(m=len(members), r=r, j=len(data.get("nodes") or []))


def _number(n: int) -> Words | int:
    return Words((N_("one"), N_("two"), N_("three"), N_("four"), N_("five"))[n - 1]) if 1 <= n <= 5 else n


def hinge_parts(model) -> list[tuple[int, np.ndarray]]:
    """The conditions a structure's hinges add to its three equations of equilibrium:
    (h, part) for each hinge h and each part of the structure that hangs from it but
    one, `part` (N,) bool its nodes (h not among them). A hinge is a node no member
    holds from turning: only bars, cables, triangles, and beams pinned there
    (`release`) meet it (a support's moment there reaches no member). Cut through at h,
    each part is a body the pin at h pushes through h alone, so the moment about h of
    every other force on it (loads, and the forces at its cuts) is zero: a three-hinged
    arch's crown gives the fourth equation for its two pins' four reaction components.
    A truss joint is a hinge too; its parts give true but (for a stiff truss) no new
    conditions.

    Parts: the nodes but h, joined by the elements that do not touch h (a triangle at
    h joins its other two); the parts that touch h are those that hang from it."""
    n = len(model.node_ids)
    members = member_results(model)
    held = np.zeros(n, dtype=bool)
    for end in (0, 1):
        held[members.ends[members.bending & ~members.pinned[:, end], end]] = True
    tri = model.arrays.tri_ijk.astype(np.int64).reshape(-1, 3)
    edges = np.concatenate((members.ends, tri[:, [0, 1]], tri[:, [1, 2]], tri[:, [0, 2]]))
    out: list[tuple[int, np.ndarray]] = []
    for h in np.flatnonzero(~held).tolist():
        at_h = (edges == h).any(axis=1)
        touching = edges[at_h][edges[at_h] != h]
        if len(np.unique(touching)) < 2:
            continue
        rest = edges[~at_h]
        graph = sp.coo_matrix((np.ones(len(rest)), (rest[:, 0], rest[:, 1])), shape=(n, n))
        _, label = connected_components(graph, directed=False)
        for r in np.unique(label[touching])[1:].tolist():
            part = label == r
            part[h] = False
            out.append((h, part))
    return out
