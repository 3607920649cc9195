"""Numbers of their own on every level that asks for numbers (issue 32, point 2), and
chains of levels that carry one student's numbers along.

For every shipped level whose answer is numbers (kinds balance, free_body, section): at
least 1,000 versions; for a sample of 20 student ids (a fixed seed), the answer worked
by hand for that student's numbers (the closed forms below: the statics of each level,
written out as on paper) passes the real judge, the rules' own solve gives the same
answer (free bodies), the brief shows the drawn numbers, a classmate's answer (the
level's own numbers) is refused, and so is each sign a student flips (two students).
Chains (vary.follows): the later level draws the first level's numbers for the same
student, in a course too, and its brief and hints do not print an answer of an earlier
level of the chain.

Glossary (SI, N and m): P a load, Q a wind or a pull across, W a weight, w a load per
metre, a, b, c, d, e, h, L lengths, th an angle [°]; Ay, Dy reactions; RA a support's
reaction given as a load. "4/3 Ay" is a 3-4-5 member's x part when its y part is Ay.
"""

from __future__ import annotations

import math
import random

import pytest
from judging import LEVELS

from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import (
    LEAST_VERSIONS,
    NUMERIC_KINDS,
    chain_problem,
    decimals_of,
    draw,
    evaluate,
    parse,
    shown,
    values,
    version,
    versions_warning,
)
from equilibria.words.i18n import speaking

SAMPLE = [f"t{random.Random(32).randrange(10**6) + k:06d}" for k in range(20)]  # 20 students, the same on every run


def level(level_id: str):
    return load_level(read_json(LEVELS / f"{level_id}.json"))


NUMERIC = sorted(p.stem for p in LEVELS.glob("*.json") if p.stem not in ("level.schema", "course") and read_json(p).get("kind") in NUMERIC_KINDS)


def F(node: str, fx: float = 0.0, fy: float = 0.0) -> dict:
    return {"type": "add_force", "node": node, "fx": fx, "fy": fy}


def M(node: str, m: float) -> dict:
    return {"type": "add_moment", "node": node, "m": m}


def cut(member: str, force: float) -> dict:
    return {"type": "cut_member", "member": member, "force": force}


def sind(a: float) -> float:
    return math.sin(math.radians(a))


def cosd(a: float) -> float:
    return math.cos(math.radians(a))


def truss(x):
    """The truss of truss-01 (3 panels of 4 m, 3 m high; PB at B, PC at C, the wind Q at F):
    ΣM_A: Dy·12 = 4 PB + 8 PC + 3 Q; ΣFy: Ay = PB + PC − Dy; the middle panel's shear PB − Ay."""
    dy = (4 * x["PB"] + 8 * x["PC"] + 3 * x["Q"]) / 12
    ay = x["PB"] + x["PC"] - dy
    return ay, dy, x["PB"] - ay


def beam(x):
    """beam-06/07's beam: span a on A and B, overhang c to D, w all along, P at D; ΣM_B for A."""
    a, c, w, p = x["a"], x["c"], x["w"], x["P"]
    return (w * (a + c) * (a - c) / 2 - p * c) / a


# ---------------------------------------------------------------------------- closed forms
def hand(level_id: str, x: dict[str, float]) -> list[dict]:
    """Each level's answer for the numbers x, by hand statics (a balance level: one of its answers)."""
    if level_id == "tutorial-01":  # one force on the rope's line, equal and opposite
        return [F("B", -x["P"])]
    if level_id == "balance-02":  # the lever rule about D: A is a from D, B 2a: A takes 2/3, B 1/3
        return [F("A", 0, 2 * x["P"] / 3), F("B", 0, x["P"] / 3)]
    if level_id == "balance-03":  # about F only G turns: G·b = W·2b → G = 2W up, F = W down; the wind shared
        return [F("F", -x["Q"] / 2, -x["W"]), F("G", -x["Q"] / 2, 2 * x["W"])]
    if level_id == "friction-01":  # a push up the slope between W(sin − μ cos) and the limit 0.4 W
        p = (x["W"] * (sind(x["th"]) - 0.25 * cosd(x["th"])) + 0.4 * x["W"]) / 2
        return [F("E", p * cosd(x["th"]), p * sind(x["th"]))]
    if level_id == "friction-03":  # the wall pushes W/(2 tan θ); friction gives 0.3 W; a push between the rest and 0.375 W
        p = (x["W"] / (2 * math.tan(math.radians(x["th"]))) - 0.3 * x["W"] + 0.375 * x["W"]) / 2
        return [F("A", -p, 0)]
    if level_id == "tipping-01":  # about B: ΔM = P·H − W·b/2 must be made up: a pull back at E (H/2 up) of ΔM/(H/2)
        dm = x["P"] * x["H"] - 10000 * x["b"] / 2  # or a press at A (b behind B) of ΔM/b; the limit is the sum of the two
        least, limit = dm / (x["H"] / 2), dm / (x["H"] / 2) + dm / x["b"]
        return [F("E", -(least + limit) / 2, 0)]
    if level_id == "tipping-02":  # it slides: a pull back must make up Q − μW; the limit is 4/3 of that (a press alone falls short)
        return [F("E", -0.999 * 4 / 3 * (x["Q"] - 10000 * x["mu"]), 0)]
    if level_id == "pulley-01":  # about O: T·r = W·r, so T = W along the rope (at α above the level); ΣF: O = −(T + the weight)
        t = (x["W"] * cosd(x["alpha"]), x["W"] * sind(x["alpha"]))
        return [F("O", -t[0], x["W"] - t[1]), F("T1", *t)]
    if level_id == "particle-02":  # ΣFy: N·4/l = W; ΣFx: T = N·r/l = W r/4
        return [F("C", -x["W"] * x["r"] / 4, x["W"]), F("R1", x["W"] * x["r"] / 4, 0)]
    if level_id == "free-body-03":  # CA (c across, 4 down) holds P: compression P·l/4, its x part P c/4 = CB
        return [F("A1", x["P"] * x["c"] / 4, x["P"]), F("B1", -x["P"] * x["c"] / 4, 0)]
    if level_id == "free-body-04":  # A = PB + PE + PF/2; about A: EC·4.8 = 4(PB + PE); about E: BC·3 = 4A; about C: EF·4.8 = 8A − 4PB − 4PE
        a = x["PB"] + x["PE"] + x["PF"] / 2
        ec, bc, ef = 4 * (x["PB"] + x["PE"]) / 4.8, 4 * a / 3, (8 * a - 4 * x["PB"] - 4 * x["PE"]) / 4.8
        return [F("S1", -0.8 * ef, -0.6 * ef), F("S2", -0.8 * ec, 0.6 * ec), F("S3", bc, 0)]
    if level_id == "truss-01":
        ay, dy, _v = truss(x)
        return [F("A", -x["Q"], ay), F("D", 0, dy)]
    if level_id == "truss-02":  # joint A: AE pushes 5/3 Ay; AB pulls Q + 4/3 Ay
        ay, _dy, _v = truss(x)
        return [F("B1", x["Q"] + 4 * ay / 3), F("E1", -4 * ay / 3, -ay)]
    if level_id == "truss-03":  # joint E: EB pulls Ay, EF pushes 4/3 Ay
        ay, _dy, _v = truss(x)
        return [F("B1", 0, -ay), F("F1", -4 * ay / 3, 0)]
    if level_id == "joints-01":  # joint B: BF's y part is the shear PB − Ay; BC = AB − BF's x part = 4/3 Dy
        _ay, dy, v = truss(x)
        return [F("F1", 4 * v / 3, v), F("C1", 4 * dy / 3, 0)]
    if level_id == "truss-04":  # about B: EF·3 = Ay·4; about F: BC·3 = Dy·4 (the right part's view); ΣFy: BF's y part v
        ay, dy, v = truss(x)
        return [F("S1", -4 * ay / 3, 0), F("S2", 4 * v / 3, v), F("S3", 4 * dy / 3, 0)]
    if level_id == "truss-05":  # the same members seen from the right part: each force reversed
        ay, dy, v = truss(x)
        return [F("S1", 4 * ay / 3, 0), F("S2", -4 * v / 3, -v), F("S3", -4 * dy / 3, 0)]
    if level_id == "frame-01":  # the beam: ΣM_C: B·L = Py·d; ΣFy: Cy = Py − B; ΣFx: Cx = −Px
        b = x["Py"] * x["d"] / x["L"]
        return [F("C", -x["Px"], x["Py"] - b), F("B", 0, b)]
    if level_id == "frame-02":  # the post: C gets (Px, −Cy); ΣFx, ΣFy; ΣM_A = Px·h + Q·h/2
        cy = x["Py"] * (1 - x["d"] / x["L"])
        return [F("A", -(x["Px"] + x["Q"]), cy), M("A", x["Px"] * x["h"] + x["Q"] * x["h"] / 2)]
    if level_id == "machines-03":  # about C: F·a = N·2ae/l; AB's parts F a/(2e) across, F/2 up; the guide F/2
        across = x["F"] * x["a"] / (2 * x["e"])
        return [F("B", across, x["F"] / 2), F("C", 0, x["F"] / 2), F("K", -across, 0)]
    if level_id == "sections-01":  # RA = 1.5 P; about F: BC·h = RA·b; about C: FG·h = RA·2b − P·b; ΣFy: FC's y part P/2
        p, b, h = x["P"], x["b"], x["h"]
        return [F("S1", -2 * p * b / h, 0), F("S2", p * b / (2 * h), -p / 2), F("S3", 1.5 * p * b / h, 0)]
    if level_id == "sections-02":  # RA from ΣM_E; the section FG, BG, BC kept left: about G for BC, about B for FG, ΣFy for BG
        ra = (18 * x["PB"] + 12 * x["PC"] + 6 * x["PD"]) / 24
        return [cut("BC", (9 * ra - 3 * x["PB"]) / 4), cut("BG", -1.25 * (ra - x["PB"])), cut("FG", -1.5 * ra)]
    if level_id == "beam-05":  # rectangle wa·L at L/2, triangle (wb − wa)L/2 at 2L/3; ΣM_A for B
        by = x["wa"] * x["L"] / 2 + (x["wb"] - x["wa"]) * x["L"] / 3
        return [F("A", 0, (x["wa"] + x["wb"]) * x["L"] / 2 - by), F("B", 0, by)]
    if level_id == "beam-06":  # the overhang: V = w c + P, M = w c²/2 + P c (hogging)
        return [F("B", 0, x["w"] * x["c"] + x["P"]), M("B", x["w"] * x["c"] ** 2 / 2 + x["P"] * x["c"])]
    if level_id == "beam-07":  # cut where M = 0, at 2 RA/w: the load there is 2 RA, so the cut holds RA up
        return [F("C", 0, beam(x)), M("C", 0)]
    if level_id == "friction-02":  # about A: P·L sin θ = W·(L/2) cos θ; N = W; friction = −P
        p = x["W"] / (2 * math.tan(math.radians(x["th"])))
        return [F("A", -p, x["W"]), F("B", p, 0)]
    raise KeyError(level_id)


VARIED_HERE = [
    "tutorial-01",
    "balance-02",
    "balance-03",
    "particle-02",
    "free-body-03",
    "free-body-04",
    "truss-01",
    "truss-02",
    "truss-03",
    "joints-01",
    "truss-04",
    "truss-05",
    "frame-01",
    "frame-02",
    "machines-03",
    "sections-01",
    "sections-02",
    "beam-05",
    "beam-06",
    "beam-07",
    "friction-01",
    "friction-02",
    "friction-03",
    "tipping-01",
    "tipping-02",
    "pulley-01",
]
NOT_YET: dict[str, str] = {}  # numeric levels still without numbers of their own, with why (none now)
RANGE_OF_ANSWERS = ("friction-01", "friction-03", "tipping-01", "tipping-02")  # any push between two limits holds: a classmate's may fall inside yours


def judged(level_id: str, student: str, moves: list):
    return check(level(level_id), load_solution({"format": 1, "level": level_id, "student": student, "moves": moves}))


def named(moves: list) -> dict[str, float]:
    out = {}
    for m in moves:
        if m["type"] == "add_force":
            out[f"{m['node']}.fx"], out[f"{m['node']}.fy"] = m.get("fx", 0.0), m.get("fy", 0.0)
        elif m["type"] == "add_moment":
            out[f"{m['node']}.m"] = m["m"]
        else:
            out[m["member"]] = m["force"]
    return out


# ---------------------------------------------------------------------------- every numeric level
def test_every_numeric_level_varies_with_1000_versions():
    """Every level whose answer is numbers gives a class of 200 numbers of their own: at
    least 1,000 versions (the product of its numbers' counts of values); a level that
    does not would have to be named in NOT_YET, with why, so that none slips by."""
    plain = {lid for lid in NUMERIC if level(lid).vary is None}
    assert plain == set(NOT_YET), sorted(plain)
    for lid in set(NUMERIC) - plain:
        lv = level(lid)
        count = math.prod(values(n) for n in lv.vary.numbers.values())
        assert count >= LEAST_VERSIONS, (lid, count)
        assert versions_warning(lv) == "", lid
    assert set(VARIED_HERE) <= set(NUMERIC) - plain


@pytest.mark.parametrize("level_id", VARIED_HERE)
def test_each_students_hand_answer_passes_and_the_brief_shows_the_numbers(level_id):
    """20 students: the hand answer for their numbers passes the judge; for a free body it
    is also what the rules solve (the explanation's numbers come from that solve); the
    brief opens with the student's numbers and, in its text, shows each number it uses;
    and the level's own answer, a classmate's without numbers of their own, is refused."""
    lv = level(level_id)
    own = hand(level_id, draw(lv, None))
    kind = KINDS[lv.kind]
    with speaking("en"):
        template = lv.brief
    seen = set()
    for k, student in enumerate(SAMPLE):
        drawn = version(lv, student)
        seen.add(tuple(drawn.numbers.values()))
        right = hand(level_id, drawn.numbers)
        verdict = judged(level_id, student, right)
        assert verdict.passed, (student, drawn.numbers, verdict.reason)
        if lv.kind == "free_body":
            solved = named([m.model_dump(mode="json") for m in kind.answer(drawn)])
            for name, value in named(right).items():
                assert solved.get(name, 0.0) == pytest.approx(value, rel=1e-6, abs=1e-3), (student, name)
        with speaking("en"):
            brief = version(lv, student).brief
        first, text = brief.split("\n", 1)
        assert first.startswith(f"Your numbers (student {student}): "), first
        for name, value in drawn.numbers.items():
            n = lv.vary.numbers[name]
            with speaking("en"):
                said = shown(value, n.unit, decimals_of(n))
            assert said in first, (name, said, first)
            if "{" + name in template:  # the brief's own text shows it where it names it (some leave a size to the picture)
                assert said in text, (student, name, said, text)
        if k < 3 and level_id not in RANGE_OF_ANSWERS and drawn.numbers != draw(lv, None) and named(own) != pytest.approx(named(right), rel=0.02):
            assert not judged(level_id, student, own).passed, ("the level's own answer is not this student's", student)
    assert len(seen) >= 18, "20 students draw (almost) all different numbers"


@pytest.mark.parametrize("level_id", [lid for lid in VARIED_HERE if lid not in RANGE_OF_ANSWERS and not lid.startswith(("tutorial", "balance"))])
def test_a_sign_a_student_flips_is_refused_for_two_students(level_id):
    """The commonest slip, a sense taken the wrong way (a push for a pull, a reaction down
    for up): each part of the answer flipped alone, for two students' numbers, is refused."""
    for student in SAMPLE[:2]:
        right = hand(level_id, version(level(level_id), student).numbers)
        for k, move in enumerate(right):
            for part in ("fx", "fy", "m", "force"):
                if abs(move.get(part, 0.0)) > 1.0:
                    wrong = [dict(m) for m in right]
                    wrong[k][part] = -move[part]
                    assert not judged(level_id, student, wrong).passed, (student, move, part)


@pytest.mark.parametrize("level_id", ["friction-01", "friction-03"])
def test_a_friction_level_keeps_needing_a_force_and_friction(level_id):
    """The regime: left alone the body slides, for every student of the sample; and the
    force limit is below what the body needs without friction, so friction does its share."""
    lv = level(level_id)
    for student in SAMPLE[:5]:
        node = "E" if level_id == "friction-01" else "A"  # a newton where the force goes: as good as none
        assert not judged(level_id, student, [F(node, 0, -1.0)]).passed, student
        x = version(lv, student).numbers
        limit = version(lv, student).player.max_force
        needed_alone = x["W"] * sind(x["th"]) if level_id == "friction-01" else x["W"] / (2 * math.tan(math.radians(x["th"])))
        assert limit < needed_alone, student


def test_the_cabinet_keeps_tipping_for_every_student():
    """tipping-01's regime for each draw: the push beats the weight's moment about B but not
    μN, so left alone it tips over B, a force along the floor (friction's help) does not
    hold it, and a press down at A inside the limit does."""
    lv = level("tipping-01")
    for student in SAMPLE[:5]:
        x = version(lv, student).numbers
        assert 10000 * x["b"] / (2 * x["H"]) + 250 < x["P"] < x["mu"] * 10000 - 250, student
        alone = judged("tipping-01", student, [F("B", -1.0, 0)])  # the one force the level asks for, a newton: as good as none
        assert not alone.passed and "tips over B" in alone.reason, student
        limit = version(lv, student).player.max_force
        assert not judged("tipping-01", student, [F("B", -limit, 0)]).passed, student
        dm = x["P"] * x["H"] - 10000 * x["b"] / 2
        assert judged("tipping-01", student, [F("A", 0, -(dm / x["b"] + limit) / 2)]).passed, student


def test_the_low_push_keeps_sliding_for_every_student():
    """tipping-02's regime for each draw: the low push needs more friction than μW but its
    moment about B is less than the weight's, so it slides and does not tip; a press alone
    at the limit is not enough, the worked example of the explanation (a pull with a press)
    is, and so is a pull at the limit."""
    lv = level("tipping-02")
    for student in SAMPLE[:5]:
        x = version(lv, student).numbers
        need = x["Q"] - 10000 * x["mu"]
        assert need >= 900 and x["Q"] * x["p"] < 0.9 * 10000 * x["b"] / 2, student
        limit = version(lv, student).player.max_force
        assert not judged("tipping-02", student, [F("B", -1.0, 0)]).passed, student
        assert not judged("tipping-02", student, [F("D", 0, -0.999 * limit)]).passed, ("a press alone", student)
        assert judged("tipping-02", student, [F("E", -0.55 * limit, -0.8 * limit)]).passed, ("the explanation's example", student)


# ---------------------------------------------------------------------------- chains
CHAINS = {
    "truss-01": ["truss-02", "truss-03", "joints-01", "truss-04", "truss-05"],
    "frame-01": ["frame-02"],
    "beam-06": ["beam-07"],
    "tipping-01": ["tipping-02"],
}


def test_the_chains_are_the_shipped_ones_and_validate():
    found: dict[str, list[str]] = {}
    for lid in NUMERIC:
        lv = level(lid)
        if lv.vary is not None and lv.vary.follows:
            found.setdefault(lv.vary.follows, []).append(lid)
            assert chain_problem(lv) is None, lid
    assert {k: sorted(v) for k, v in found.items()} == {k: sorted(v) for k, v in CHAINS.items()}


@pytest.mark.parametrize("first", list(CHAINS))
@pytest.mark.parametrize("course", [None, "CE101-2026"])
def test_a_chain_carries_the_students_numbers(first, course):
    """The same student gets the first level's numbers on every later level of its chain,
    without a course and in one; two students still differ."""
    head = level(first)
    for student in SAMPLE:
        mine = version(head, student, course).numbers
        for later in CHAINS[first]:
            theirs = version(level(later), student, course).numbers
            shared = set(mine) & set(theirs)
            assert shared, later
            assert {n: theirs[n] for n in shared} == {n: mine[n] for n in shared}, (later, student)
    assert len({tuple(version(head, s, course).numbers.values()) for s in SAMPLE}) >= 18


@pytest.mark.parametrize("first", list(CHAINS))
def test_a_later_brief_does_not_print_an_earlier_levels_answer(first):
    """A chained level restates the structure (its loads and sizes), never the answer of a
    level before it: none of those answers' sizes, as a text shows them, is in the later
    brief or hints, unless it is also one of the numbers given (a reaction equal to a load)."""
    chain = [first, *CHAINS[first]]
    for student in SAMPLE[:5]:
        with speaking("en"):
            for k, later in enumerate(chain[1:], 1):
                drawn = version(level(later), student)
                texts = " ".join([drawn.brief.split("\n", 1)[1], *drawn.hints])
                given = {shown(abs(v), "kN") for v in drawn.numbers.values()}
                for earlier in chain[:k]:
                    for name, value in named(hand(earlier, version(level(earlier), student).numbers)).items():
                        said = shown(abs(value), "kN")
                        if abs(value) > 1.0 and said not in given:
                            assert said not in texts, (later, "prints", earlier, name, said)


def test_validate_refuses_a_chain_that_cannot_carry_the_numbers():
    """A shared number drawn over other values, a level following itself or a level that
    itself follows: each refused by the level's checks, in one line naming the field."""
    data = read_json(LEVELS / "truss-02.json")
    data["vary"]["numbers"]["Q"]["max"] = 11000
    with pytest.raises(ValueError, match=r"vary.numbers.Q: truss-01 draws Q from 4000 to 12000 in steps of 500"):
        load_level(data, build=False)
    for follows, said in (("truss-02", "cannot follow itself"), ("truss-03", "not a chain's first level")):
        data = read_json(LEVELS / "truss-02.json")
        data["vary"]["follows"] = follows
        with pytest.raises(ValueError, match=said):
            load_level(data, build=False)


# ---------------------------------------------------------------------------- the expression parser
def test_the_parser_has_trigonometry_in_degrees_and_still_runs_nothing():
    assert evaluate(parse("sin(30)"), {}, "x") == pytest.approx(0.5)
    assert evaluate(parse("cos(60) + tan(45)"), {}, "x") == pytest.approx(1.5)
    assert evaluate(parse("atan2(3, 4)"), {}, "x") == pytest.approx(36.8699, abs=1e-4)
    assert evaluate(parse("atan(1) + asin(0.5) + acos(0.5)"), {}, "x") == pytest.approx(135.0)
    assert evaluate(parse("5 * cos(th)"), {"th": 65}, "x") == pytest.approx(2.11309, abs=1e-5)
    for bad in ("math.sin(1)", "sin(1, 2)", "__import__('os')", "sin(x=1)", "(lambda: 1)()"):
        with pytest.raises(ValueError):
            parse(bad)
    with pytest.raises(ValueError, match="cannot be worked out"):
        evaluate(parse("asin(2)"), {}, "f")
