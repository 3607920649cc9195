"""Numbers of their own on the levels that ask for numbers (issue 32, point 2).

For each level varied here: enough versions that a class of 200 seldom shares one
(at least 1,000: the product of the counts of values of its numbers); the level keeps
its regime for every student (300 student ids, each draw's statics solved by the rules
and compared with the closed form and the default's senses); a hand computation for
two students, written out as on paper; and the wrong answers students write (a sign
flipped, a lever arm misread, a load forgotten) refused by the real judge for both.

Glossary (SI): H a horizontal pull [N], P a load down [N], Q the wind [N], T a cable's
pull [N] (4 down for every 3 across: Tx = 0.6 T, Ty = 0.8 T), w a load per metre [N/m];
a, d, L, h, b lengths [m] (A to the roller, the overhang, the span, a post's height, an
arm); Ax, Ay, By reactions [N], M_A a base's moment [N m], counter-clockwise positive.
"""

from __future__ import annotations

import math

import pytest
from judging import LEVELS

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check
from equilibria.rules.variants import LEAST_VERSIONS, answer_solution, values, version, versions_warning

ONE, OTHER = "s1001", "s1002"
CLASS = [f"s{k:04d}" for k in range(300)]  # a class and a half: every draw's regime


def level(level_id: str):
    return load_level(read_json(LEVELS / f"{level_id}.json"))


def F(node: str, fx: float = 0.0, fy: float = 0.0) -> dict:
    return {"type": "add_force", "node": node, "fx": fx, "fy": fy}


def M(node: str, m: float) -> dict:
    return {"type": "add_moment", "node": node, "m": m}


# ---------------------------------------------------------------------------- closed forms
def closed_form(level_id: str, x: dict[str, float]) -> dict[str, float]:
    """Each level's answer by hand statics, as named values ("A.fx", "B.fy", "A.m")."""
    if level_id == "free-body-01":  # ΣM_A: By·a − P·(a + d) = 0; ΣFy: Ay + By − P = 0; ΣFx: Ax + H = 0
        by = x["P"] * (x["a"] + x["d"]) / x["a"]
        return {"A.fx": -x["H"], "A.fy": x["P"] - by, "B.fy": by}
    if level_id == "free-body-02":  # ΣFx: Ax + H = 0; ΣFy: Ay − P = 0; ΣM_A: M_A − P·L = 0 (H acts on the line through A)
        return {"A.fx": -x["H"], "A.fy": x["P"], "A.m": x["P"] * x["L"]}
    if level_id == "beam-01":  # resultant wL at L/2: ΣM_A: By·L − wL·L/2 = 0; ΣFy: Ay = wL − By
        return {"A.fx": 0.0, "A.fy": x["w"] * x["L"] / 2, "B.fy": x["w"] * x["L"] / 2}
    if level_id == "beam-02":  # the triangle's resultant wL/2 at 2L/3 from A: ΣM_A: By·L − (wL/2)·(2L/3) = 0 → By = wL/3; Ay = wL/6
        return {"A.fx": 0.0, "A.fy": x["w"] * x["L"] / 6, "B.fy": x["w"] * x["L"] / 3}
    if level_id == "beam-04":  # whole beam (8 m), ΣM_B: RA·8 = w·8·4 + P·(8 − c); the cut at zero shear: RA − P − w·x = 0
        ra = x["w"] * 4 + x["P"] * (8 - x["c"]) / 8
        at = (ra - x["P"]) / x["w"]  # on A–D: ΣFy gives V = 0 there, ΣM_D: M = RA·x − P·(x − c) − w·x²/2
        return {"D.fx": 0.0, "D.fy": 0.0, "D.m": ra * at - x["P"] * (at - x["c"]) - x["w"] * at**2 / 2}
    if level_id == "machines-01":  # BC a two-force member: F along (−3, 4)/5 at C (3, 4); ΣM_A: P·0.6a = 0.8F·3 + 0.6F·4 = 4.8F
        f = x["P"] * 0.6 * x["a"] / 4.8  # then ΣFx: Ax = 0.6F; ΣFy: Ay = P − 0.8F
        return {"A.fx": 0.6 * f, "A.fy": x["P"] - 0.8 * f, "C.fx": -0.6 * f, "C.fy": 0.8 * f}
    if level_id == "hinge-01":  # span 2a, load at a/2: ΣM_A: By·2a = P·a/2 → By = P/4; ΣFy: Ay = 3P/4;
        thrust = x["P"] / 4 * x["a"] / x["h"]  # the unloaded half about the hinge C: By·a = Bx·h; ΣFx: Ax = −Bx
        return {"A.fx": thrust, "A.fy": 3 * x["P"] / 4, "B.fx": -thrust, "B.fy": x["P"] / 4}
    if level_id == "machines-02":  # a lever on its pivot O: ΣM_O: Q·j = F·h; ΣFy: O + F + Q = 0
        q = x["F"] * x["h"] / x["j"]
        return {"W1.fy": q, "O.fx": 0.0, "O.fy": -(x["F"] + q)}
    if level_id == "reactions-01":  # ΣFx: Ax + Q + 0.6T = 0; ΣFy: Ay − 0.8T = 0; ΣM_A: M_A − Q·h − 0.8T·b − 0.6T·h = 0
        t = x["T"]
        return {"A.fx": -(x["Q"] + 0.6 * t), "A.fy": 0.8 * t, "A.m": x["Q"] * x["h"] + 0.8 * t * x["b"] + 0.6 * t * x["h"]}
    raise KeyError(level_id)


# the senses every draw keeps: the regime the level teaches (a pin that pulls down, a base that turns back)
SENSES = {
    "free-body-01": {"A.fx": -1, "A.fy": -1, "B.fy": +1},  # the overhang lifts A: the pin pulls down, B pushes more than the load
    "free-body-02": {"A.fx": -1, "A.fy": +1, "A.m": +1},
    "beam-01": {"A.fy": +1, "B.fy": +1},
    "beam-02": {"A.fy": +1, "B.fy": +1},  # and B, nearer the heavy end, takes twice A's (the closed form)
    "reactions-01": {"A.fx": -1, "A.fy": +1, "A.m": +1},
    "beam-04": {"D.m": +1},  # sagging; and the cut stays where the shear is zero, past C (checked below)
    "hinge-01": {"A.fx": +1, "A.fy": +1, "B.fx": -1, "B.fy": +1},  # the thrust pushes both feet inward
    "machines-02": {"W1.fy": +1, "O.fy": -1},  # the wire pushes up, the pivot pulls down with the sum
    "machines-01": {"A.fx": +1, "A.fy": +1, "C.fx": -1, "C.fy": +1},  # and A's force off AC's line (checked below)
}
VARIED = tuple(SENSES)


def solved(drawn) -> dict[str, float]:
    """The rules' own solve of a version (game/rules/answer.py), as named values."""
    out = {}
    for m in answer_solution(drawn)["moves"]:
        if m["type"] == "add_force":
            out[f"{m['node']}.fx"], out[f"{m['node']}.fy"] = m.get("fx", 0.0), m.get("fy", 0.0)
        else:
            out[f"{m['node']}.m"] = m["m"]
    return out


def largest_load(drawn) -> float:
    """The largest load given on a version [N]: a point load's size, a distributed load's resultant."""
    lengths = {m.id: math.dist(*((n.x, n.y) for n in drawn.nodes if n.id in (m.i, m.j))) for m in drawn.members}
    points = [math.hypot(load.fx, load.fy) for load in drawn.loads]
    spread = [(abs(q.w) if q.w is not None else (abs(q.wi) + abs(q.wj)) / 2) * lengths[q.member] for q in drawn.member_loads]
    return max(points + spread)


@pytest.mark.parametrize("level_id", VARIED)
def test_a_class_of_200_seldom_shares_a_version(level_id):
    lv = level(level_id)
    count = math.prod(values(n) for n in lv.vary.numbers.values())
    assert count >= LEAST_VERSIONS, count
    assert versions_warning(lv) == ""


@pytest.mark.parametrize("level_id", VARIED)
def test_every_draw_keeps_the_levels_regime_and_its_closed_form(level_id):
    """300 students: the statics of each draw solved by the rules, against the closed form
    (1e-6 relative: a small solve in floating point) and the senses of the level."""
    lv = level(level_id)
    seen = set()
    for student in CLASS:
        drawn = version(lv, student)
        seen.add(tuple(sorted(drawn.numbers.items())))
        answer, hand = solved(drawn), closed_form(level_id, drawn.numbers)
        for name, value in hand.items():
            assert answer.get(name, 0.0) == pytest.approx(value, rel=1e-6, abs=1e-6), (student, name)
        for name, sense in SENSES[level_id].items():
            assert math.copysign(1, hand[name]) == sense, (student, name)
            assert abs(hand[name]) > 0.05 * largest_load(drawn), ("no unknown of the regime shrinks to nothing", student, name)
        if level_id == "beam-04":  # the lesson: the largest moment is where the shear is zero, between C and B
            cut = next(n.x for n in drawn.nodes if n.id == "D")
            assert drawn.numbers["c"] < cut < 8, student
        if level_id == "machines-01":  # the lesson: AC is loaded between its pins, so A's force is not along AC (4 up for 3 across)
            assert abs(hand["A.fy"] / hand["A.fx"] - 4 / 3) > 0.5, student
        if level_id == "reactions-01":  # the lesson: T times AC is not the cable's moment; never within the judge's 2 %
            x = drawn.numbers
            misread = x["Q"] * x["h"] + x["T"] * math.hypot(x["h"], x["b"])
            assert abs(misread - hand["A.m"]) > 0.025 * hand["A.m"], student
    assert len(seen) > 250, "300 students draw (almost) all different numbers"


# ---------------------------------------------------------------------------- by hand, two students
# Each entry: the student's numbers (pinned: the draw of docs/level-format.md), the answer
# worked on paper, and the wrong answers students write, each refused by the judge.
HAND = {
    ("free-body-01", ONE): (
        # H = 3 kN, P = 7 kN, a = 3 m, d = 1 m: the load 4 m from A.
        # ΣM_A = 0: By·3 − 7·4 = 0 → By = 28/3 = 9.333 kN up; ΣFy: Ay = 7 − 9.333 = −2.333 kN (down); ΣFx: Ax = −3 kN.
        {"H": 3000.0, "P": 7000.0, "a": 3.0, "d": 1.0},
        [F("A", -3000, -2333.3), F("B", 0, 9333.3)],
        {
            "Ay's sign flipped (the pin pushing up)": [F("A", -3000, 2333.3), F("B", 0, 9333.3)],
            "lever arms swapped (By = 7·3/4)": [F("A", -3000, 1750), F("B", 0, 5250)],
            "the pull H forgotten": [F("A", 0, -2333.3), F("B", 0, 9333.3)],
        },
    ),
    ("free-body-01", OTHER): (
        # H = 3 kN, P = 8 kN, a = 3.5 m, d = 2.5 m: the load 6 m from A.
        # ΣM_A: By·3.5 = 8·6 = 48 → By = 13.714 kN; Ay = 8 − 13.714 = −5.714 kN; Ax = −3 kN.
        {"H": 3000.0, "P": 8000.0, "a": 3.5, "d": 2.5},
        [F("A", -3000, -5714.3), F("B", 0, 13714.3)],
        {
            "Ax's sign flipped": [F("A", 3000, -5714.3), F("B", 0, 13714.3)],
            "the overhang taken as the lever arm (By·3.5 = 8·2.5)": [F("A", -3000, 2285.7), F("B", 0, 5714.3)],
            "the load shared as if between the supports (4 kN each)": [F("A", -3000, 4000), F("B", 0, 4000)],
        },
    ),
    ("free-body-02", ONE): (
        # H = 2 kN, P = 3 kN, L = 4.5 m. ΣFx: Ax = −2 kN; ΣFy: Ay = +3 kN; ΣM_A: M_A − 3·4.5 = 0 → M_A = +13.5 kN·m.
        {"H": 2000.0, "P": 3000.0, "L": 4.5},
        [F("A", -2000, 3000), M("A", 13500)],
        {
            "the moment's sense flipped": [F("A", -2000, 3000), M("A", -13500)],
            "the moment as the whole load times L (hypot(2, 3)·4.5)": [F("A", -2000, 3000), M("A", 16225)],
            "the moment forgotten": [F("A", -2000, 3000), M("A", 0)],
        },
    ),
    ("free-body-02", OTHER): (
        # H = 2 kN, P = 9.5 kN, L = 3.25 m. Ax = −2 kN; Ay = +9.5 kN; M_A = 9.5·3.25 = +30.875 kN·m.
        {"H": 2000.0, "P": 9500.0, "L": 3.25},
        [F("A", -2000, 9500), M("A", 30875)],
        {
            "Ay's sign flipped": [F("A", -2000, -9500), M("A", 30875)],
            "the lever arm halved (3.25/2)": [F("A", -2000, 9500), M("A", 15437.5)],
            "the pull H forgotten": [F("A", 0, 9500), M("A", 30875)],
        },
    ),
    ("beam-01", ONE): (
        # w = 1.1 kN/m, L = 11.75 m: resultant 1.1·11.75 = 12.925 kN at 5.875 m.
        # ΣM_A: By·11.75 = 12.925·5.875 → By = 6.4625 kN; ΣFy: Ay = 12.925 − 6.4625 = 6.4625 kN; Ax = 0.
        {"w": 1100.0, "L": 11.75},
        [F("A", 0, 6462.5), F("B", 0, 6462.5)],
        {
            "both reactions down": [F("A", 0, -6462.5), F("B", 0, -6462.5)],
            "the resultant at the far end (By = wL)": [F("A", 0, 0), F("B", 0, 12925)],
            "the load per metre taken as the load (1.1 kN shared)": [F("A", 0, 550), F("B", 0, 550)],
        },
    ),
    ("beam-01", OTHER): (
        # w = 1.1 kN/m, L = 11.25 m: resultant 12.375 kN at 5.625 m; By = 12.375·5.625/11.25 = 6.1875 kN = Ay.
        {"w": 1100.0, "L": 11.25},
        [F("A", 0, 6187.5), F("B", 0, 6187.5)],
        {
            "By's sign flipped": [F("A", 0, 6187.5), F("B", 0, -6187.5)],
            "the moment arm taken as L (By = wL)": [F("A", 0, 0), F("B", 0, 12375)],
            "the span taken as another student's 11.75 m": [F("A", 0, 6462.5), F("B", 0, 6462.5)],
        },
    ),
    ("beam-02", ONE): (
        # w = 3.4 kN/m at B, L = 6.25 m: resultant ½·3.4·6.25 = 10.625 kN at 2·6.25/3 = 4.167 m from A.
        # ΣM_A: By·6.25 = 10.625·4.167 → By = 7.083 kN up; ΣFy: Ay = 10.625 − 7.083 = 3.542 kN up.
        {"w": 3400.0, "L": 6.25},
        [F("A", 0, 3541.7), F("B", 0, 7083.3)],
        {
            "the resultant at mid-span (5.31 kN each)": [F("A", 0, 5312.5), F("B", 0, 5312.5)],
            "the centroid taken from the wrong end (L/3 from A)": [F("A", 0, 7083.3), F("B", 0, 3541.7)],
            "the ½ of the triangle forgotten (W = 21.25 kN)": [F("A", 0, 7083.3), F("B", 0, 14166.7)],
        },
    ),
    ("beam-02", OTHER): (
        # w = 4.2 kN/m at B, L = 6.25 m: resultant ½·4.2·6.25 = 13.125 kN at 4.167 m; By = 13.125·4.167/6.25 = 8.75 kN; Ay = 4.375 kN.
        {"w": 4200.0, "L": 6.25},
        [F("A", 0, 4375), F("B", 0, 8750)],
        {
            "both reactions down": [F("A", 0, -4375), F("B", 0, -8750)],
            "the centroid taken from the wrong end (L/3 from A)": [F("A", 0, 8750), F("B", 0, 4375)],
            "the load taken as a rectangle (W = w·L)": [F("A", 0, 8750), F("B", 0, 17500)],
        },
    ),
    ("beam-04", ONE): (
        # w = 2.5 kN/m, P = 5 kN, c = 1.75 m, span 8 m. Whole beam, ΣM_B: RA·8 = 2.5·8·4 + 5·6.25 = 111.25 → RA = 13.906 kN.
        # Zero shear: 13.906 − 5 − 2.5·x = 0 → x = 3.5625 m (the cut D). On A–D: ΣFx: N = 0; ΣFy: Fy = 0;
        # ΣM_D: M = 13.906·3.5625 − 5·1.8125 − 2.5·3.5625²/2 = 49.541 − 9.063 − 15.864 = +24.614 kN·m.
        {"w": 2500.0, "P": 5000.0, "c": 1.75},
        [F("D", 0, 0), M("D", 24614)],
        {
            "M's sense flipped": [F("D", 0, 0), M("D", -24614)],
            "the distributed load left out of ΣM_D": [F("D", 0, 0), M("D", 40479)],
            "the resultant at D's distance, not half of it": [F("D", 0, 0), M("D", 8750)],
            "the distributed load left out of ΣFy": [F("D", 0, -8906), M("D", 24614)],
        },
    ),
    ("beam-04", OTHER): (
        # w = 2.1 kN/m, P = 4.5 kN, c = 1.75 m. ΣM_B: RA·8 = 2.1·8·4 + 4.5·6.25 = 95.325 → RA = 11.916 kN.
        # x = (11.916 − 4.5)/2.1 = 3.53125 m; M = 11.916·3.53125 − 4.5·1.78125 − 2.1·3.53125²/2 = 42.077 − 8.016 − 13.093 = +20.968 kN·m.
        {"w": 2100.0, "P": 4500.0, "c": 1.75},
        [F("D", 0, 0), M("D", 20968)],
        {
            "the point load forgotten": [F("D", 0, 0), M("D", 28984)],
            "wL²/8 of a beam without the point load": [F("D", 0, 0), M("D", 16800)],
            "the shear taken as the reaction": [F("D", 0, -11916), M("D", 20968)],
        },
    ),
    ("machines-01", ONE): (
        # P = 20 kN, D 1.25 m from A along AC: 0.6·1.25 = 0.75 m across. ΣM_A: 20·0.75 = 15 = 4.8·F → F = 3.125 kN along BC;
        # at C: (−0.6, 0.8)·3.125 = (−1.875, 2.5) kN; ΣFx: Ax = 1.875 kN; ΣFy: Ay = 20 − 2.5 = 17.5 kN.
        {"P": 20000.0, "a": 1.25},
        [F("A", 1875, 17500), F("C", -1875, 2500)],
        {
            "AC taken as a two-force member too (the load shared along both legs)": [F("A", 7500, 10000), F("C", -7500, 10000)],
            "the load's lever arm taken along the leg (1.25 m)": [F("A", 3125, 15833), F("C", -3125, 4167)],
            "C's x part flipped": [F("A", 1875, 17500), F("C", 1875, 2500)],
        },
    ),
    ("machines-01", OTHER): (
        # P = 18.2 kN, D 3.75 m along AC: 2.25 m across. ΣM_A: 18.2·2.25 = 40.95 = 4.8·F → F = 8.531 kN;
        # C = (−5.119, 6.825) kN; A = (5.119, 18.2 − 6.825) = (5.119, 11.375) kN.
        {"P": 18200.0, "a": 3.75},
        [F("A", 5118.8, 11375), F("C", -5118.8, 6825)],
        {
            "the load's lever arm taken along the leg (3.75 m)": [F("A", 8531.3, 6825), F("C", -8531.3, 11375)],
            "the load put at the leg's middle": [F("A", 3412.5, 13650), F("C", -3412.5, 4550)],
            "the y parts at A and C swapped": [F("A", 5118.8, 6825), F("C", -5118.8, 11375)],
        },
    ),
    ("hinge-01", ONE): (
        # P = 29 kN, half-span a = 3.5 m (span 7 m, D 1.75 m right of A), rise h = 3.25 m.
        # ΣM_A: By·7 = 29·1.75 = 50.75 → By = 7.25 kN up; ΣFy: Ay = 29 − 7.25 = 21.75 kN up.
        # Half CB about C: By·3.5 = Bx·3.25 → the thrust 7.25·3.5/3.25 = 7.808 kN: Bx = −7.808 kN, ΣFx: Ax = +7.808 kN.
        {"P": 29000.0, "a": 3.5, "h": 3.25},
        [F("A", 7807.7, 21750), F("B", -7807.7, 7250)],
        {
            "the thrust forgotten (pins as rollers)": [F("A", 0, 21750), F("B", 0, 7250)],
            "the thrust's lever arms swapped (7.25·3.25/3.5)": [F("A", 6732.1, 21750), F("B", -6732.1, 7250)],
            "the thrust pulling the feet outward": [F("A", -7807.7, 21750), F("B", 7807.7, 7250)],
        },
    ),
    ("hinge-01", OTHER): (
        # P = 30 kN, a = 4 m (span 8 m, D 2 m right of A), h = 3.75 m. ΣM_A: By·8 = 30·2 → By = 7.5 kN; Ay = 22.5 kN;
        # about C: 7.5·4 = Bx·3.75 → thrust 8 kN: Bx = −8 kN, Ax = +8 kN.
        {"P": 30000.0, "a": 4.0, "h": 3.75},
        [F("A", 8000, 22500), F("B", -8000, 7500)],
        {
            "the load shared half and half": [F("A", 8000, 15000), F("B", -8000, 15000)],
            "the thrust's lever arms swapped (7.5·3.75/4)": [F("A", 7031.3, 22500), F("B", -7031.3, 7500)],
            "the thrust forgotten at A only": [F("A", 0, 22500), F("B", -8000, 7500)],
        },
    ),
    ("machines-02", ONE): (
        # F = 130 N, jaw arm j = 40 mm, handle arm h = 300 mm. ΣM_O: Q·0.04 = 130·0.3 = 39 N·m → Q = 975 N up at W1;
        # ΣFy: O = −(130 + 975) = −1105 N (the pivot pulls down).
        {"F": 130.0, "j": 0.04, "h": 0.3},
        [F("W1", 0, 975), F("O", 0, -1105)],
        {
            "the lever arms swapped (Q = 130·40/300)": [F("W1", 0, 17.3), F("O", 0, -147.3)],
            "the pivot holding the difference": [F("W1", 0, 975), F("O", 0, -845)],
            "the wire's force pointing down": [F("W1", 0, -975), F("O", 0, 845)],
        },
    ),
    ("machines-02", OTHER): (
        # F = 150 N, j = 50 mm, h = 190 mm. ΣM_O: Q·0.05 = 150·0.19 = 28.5 N·m → Q = 570 N; O = −(150 + 570) = −720 N.
        {"F": 150.0, "j": 0.05, "h": 0.19},
        [F("W1", 0, 570), F("O", 0, -720)],
        {
            "the handle measured from J (240 mm)": [F("W1", 0, 720), F("O", 0, -870)],
            "the pivot's force pointing up": [F("W1", 0, 570), F("O", 0, 720)],
            "the hand's force left out of ΣFy": [F("W1", 0, 570), F("O", 0, -570)],
        },
    ),
    ("reactions-01", ONE): (
        # Q = 2.5 kN, T = 7 kN (Tx = 4.2 kN, Ty = 5.6 kN), h = 4.5 m, b = 2.5 m.
        # ΣFx: Ax = −(2.5 + 4.2) = −6.7 kN; ΣFy: Ay = +5.6 kN;
        # ΣM_A: M_A = 2.5·4.5 + 5.6·2.5 + 4.2·4.5 = 11.25 + 14 + 18.9 = +44.15 kN·m.
        {"Q": 2500.0, "T": 7000.0, "h": 4.5, "b": 2.5},
        [F("A", -6700, 5600), M("A", 44150)],
        {
            "M_A's sense flipped": [F("A", -6700, 5600), M("A", -44150)],
            "the cable's moment as T·AC (7·hypot(4.5, 2.5) + 11.25)": [F("A", -6700, 5600), M("A", 47285)],
            "the wind forgotten": [F("A", -4200, 5600), M("A", 32900)],
        },
    ),
    ("reactions-01", OTHER): (
        # Q = 3 kN, T = 12 kN (Tx = 7.2 kN, Ty = 9.6 kN), h = 6 m, b = 2 m.
        # Ax = −(3 + 7.2) = −10.2 kN; Ay = +9.6 kN; M_A = 3·6 + 9.6·2 + 7.2·6 = 18 + 19.2 + 43.2 = +80.4 kN·m.
        {"Q": 3000.0, "T": 12000.0, "h": 6.0, "b": 2.0},
        [F("A", -10200, 9600), M("A", 80400)],
        {
            "Ay's sign flipped": [F("A", -10200, -9600), M("A", 80400)],
            "Tx's lever arm forgotten (only Q·h and Ty·b)": [F("A", -10200, 9600), M("A", 37200)],
            "the cable's x part forgotten": [F("A", -3000, 9600), M("A", 80400)],
        },
    ),
}


def judged(level_id: str, student: str, moves: list):
    return check(level(level_id), load_solution({"format": 1, "level": level_id, "student": student, "moves": moves}))


@pytest.mark.parametrize(("level_id", "student"), list(HAND))
def test_the_hand_answer_passes_for_the_students_numbers(level_id, student):
    numbers, right, _wrong = HAND[(level_id, student)]
    assert version(level(level_id), student).numbers == numbers, "the draw of docs/level-format.md"
    verdict = judged(level_id, student, right)
    assert verdict.passed, verdict.reason


@pytest.mark.parametrize(("level_id", "student", "mistake"), [(lv, s, w) for (lv, s), (_n, _r, wrong) in HAND.items() for w in wrong])
def test_a_wrong_answer_a_student_writes_is_refused(level_id, student, mistake):
    _numbers, _right, wrong = HAND[(level_id, student)]
    verdict = judged(level_id, student, wrong[mistake])
    assert not verdict.passed, (mistake, verdict.reason)


def test_every_varied_level_has_two_hand_computations():
    assert {lv for lv, _s in HAND} == set(VARIED)
    assert all((lv, s) in HAND for lv in VARIED for s in (ONE, OTHER))


# ---------------------------------------------------------------------------- validate's warning
def test_validate_warns_when_a_class_of_200_would_share_versions(tmp_path, capsys):
    few = read_json(LEVELS / "free-body-01.json")
    for n in few["vary"]["numbers"].values():  # 3 · 3 · 4 · 4 = 144 versions
        n["max"] = min(n["max"], n["min"] + 3 * n["step"])
        n["default"] = n["min"]
    few["vary"]["numbers"]["H"]["max"] = few["vary"]["numbers"]["H"]["min"] + 2 * few["vary"]["numbers"]["H"]["step"]
    few["vary"]["numbers"]["P"]["max"] = few["vary"]["numbers"]["P"]["min"] + 2 * few["vary"]["numbers"]["P"]["step"]
    few["loads"][0].update(fx=1000, fy=-5000)
    few["nodes"][1]["x"], few["nodes"][2]["x"] = 3, 4
    path = tmp_path / "free-body-01.json"
    path.write_text(__import__("json").dumps(few))
    assert main(["validate", str(path)]) == 0, "a warning, not a problem: the level plays"
    lines = [line for line in capsys.readouterr().out.splitlines() if "warning" in line]
    assert lines == [
        f"{path}: warning: vary: only 144 versions (H 3 × P 3 × a 4 × d 4): in a class of 200, "
        "about 150 would share theirs with another; give its numbers more values (at least 1,000 versions)"
    ]


def test_validate_warns_on_a_numeric_level_that_does_not_vary(capsys, tmp_path):
    plain = read_json(LEVELS / "free-body-03.json")  # every shipped numeric level varies: one with its vary block taken out
    plain.pop("vary")
    for field in ("brief", "explanation", "hints"):  # and its texts' placeholders filled with the level's own numbers
        plain[field] = version(load_level(read_json(LEVELS / "free-body-03.json"))).model_dump(mode="json", by_alias=True)[field]
    path = tmp_path / "free-body-03.json"
    path.write_text(__import__("json").dumps(plain))
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "free-body-03.json: warning: vary: none, so every student gets the same numbers" in out
    assert main(["validate", str(LEVELS / "zero-force-01.json")]) == 0, "a level that asks no number"
    assert "warning" not in capsys.readouterr().out


@pytest.mark.parametrize("level_id", VARIED)
def test_the_varied_levels_validate_without_a_warning(level_id, capsys):
    assert main(["validate", str(LEVELS / f"{level_id}.json")]) == 0
    assert "warning" not in capsys.readouterr().out


SHIPPED_VARIED = sorted(p.stem for p in LEVELS.glob("*.json") if p.stem != "level.schema" and "vary" in read_json(p))


@pytest.mark.parametrize("level_id", SHIPPED_VARIED)
def test_every_shipped_level_that_varies_has_1000_versions(level_id):
    """The five levels varied first (balance-01, particle-01, reactions-02, two-force-01,
    beam-03) included: each of them had 105-441 versions, shared in a class of 200 by 73-170."""
    lv = level(level_id)
    assert math.prod(values(n) for n in lv.vary.numbers.values()) >= LEAST_VERSIONS
    assert versions_warning(lv) == ""


def test_the_levels_varied_here_are_among_the_shipped_ones():
    assert set(VARIED) <= set(SHIPPED_VARIED) and len(SHIPPED_VARIED) >= 10
