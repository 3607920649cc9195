"""The syllabus levels (issue 16, point 2): free bodies for particle equilibrium, reactions
of frames (a fixed base, a roller on an incline), two-force members, the method of joints,
the method of sections, and frames taken apart at their pins.

Every right answer is worked here by hand statics, independently of the engine; the
levels' reference solutions are checked against these numbers, and then judged. Sign
conventions: x to the right, y up, moments counter-clockwise positive, N tension positive.

particle-01   ring R, weight 10 kN; cables toward u_A = (−4, 3)/5 and u_B = (3, 4)/5.
              ΣFx: −0.8 T_A + 0.6 T_B = 0; ΣFy: 0.6 T_A + 0.8 T_B = 10 → T_A = 6, T_B = 8 kN.
reactions-01  L-frame A(0,0)–B(0,4)–C(3,4), fixed at A; 2 kN right at B, a 10 kN pull at C
              along (3, −4)/5: (6, −8) kN. A = (−8, 8) kN; ΣM_A by parts (Varignon):
              M_A − 4·2 − 3·8 − 4·6 = 0 → M_A = +56 kN·m (10 kN × |AC| = 50: wrong).
reactions-02  beam A(0)–C(3)–B(6 m), 8 kN down at C; pin A; roller B on an incline whose
              normal is n = (−3, 4)/5. ΣM_A: 6·(0.8 N_B) = 3·8 → N_B = 5 kN, B = (−3, 4) kN;
              A = (3, 4) kN.
two-force-01  beam A(0)–D(3)–B(4 m), 6 kN down at B; strut CD from C(0, −4) to D, along
              (3, 4)/5. ΣM_A: 3·(0.8 F) = 4·6 → F = 10 kN (compression) → (6, 8) kN at its
              cut; A = (−6, −2) kN.
joints-01     joint B of the truss of truss-01: 12 kN down; AB pulls 20 kN to the left, BE
              9 kN up (found at joints A and E); BF toward (4, 3)/5, BC along x.
              ΣFy: 9 − 12 + 0.6 N_BF = 0 → N_BF = 5 kN; ΣFx: −20 + 0.8·5 + N_BC = 0 → 16 kN.
sections-01   Pratt truss, 4 panels 3 m × 4 m, 12 kN at B, C, D → reactions 18 kN. Left part
              A(0,0), B(3,0), F(3,4). ΣM_F: 4 N_BC = 3·18 → 13.5 kN; ΣM_C: −4 N_FG = 6·18 − 3·12
              → N_FG = −18 kN; ΣFy: 18 − 12 − 0.8 N_FC = 0 → N_FC = 7.5 kN along (3, −4)/5.
machines-01   A-frame A(0,0), C(3,4), B(6,0); 16 kN down at D(1.5, 2). BC is a two-force
              member: F along (−3, 4)/5 at C. ΣM_A on AC: 3·0.8F + 4·0.6F = 1.5·16 →
              F = 5 kN, C = (−3, 4) kN; A = (3, 12) kN.

Tolerance (the levels' default, game/rules/free_body.py): 2 % of the largest given load
per force component, that times the largest distance from the moment point for ΣM. The
"rounded" right answers below are off by less than that; every wrong one is off by tens of
per cent, as the mistakes students make are.
"""

import json
import math
from pathlib import Path

import pytest
from builders import english
from judging import F, M, fails, passes

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.course.syllabus import load_course
from equilibria.files.store import read_json
from equilibria.rules.judge import briefed

LEVELS = Path(__file__).resolve().parents[1] / "levels"
SYLLABUS = ["particle-01", "reactions-01", "reactions-02", "two-force-01", "joints-01", "sections-01", "machines-01"]
TOPICS = {  # in this order, each a ramp from one step to a chain of steps
    "Particles": ["free-body-03", "particle-02", "particle-01"],
    "Free-body diagrams": ["free-body-02", "free-body-01", "reactions-02", "reactions-01"],
    "Trusses: joints and sections": ["truss-01", "truss-02", "truss-03", "joints-01", "truss-04", "truss-05", "sections-01", "free-body-04", "sections-02"],
    "Frames and machines": ["pulley-01", "two-force-01", "machines-02", "machines-03", "machines-01", "frame-01", "frame-02", "hinge-01"],
}
KN = 1e3


def along(size: float, dx: float, dy: float) -> tuple[float, float]:
    """A force of `size` [kN] along (dx, dy), in N."""
    d = math.hypot(dx, dy)
    return size * KN * dx / d, size * KN * dy / d


def hand_answers() -> dict[str, list[dict]]:
    """The right answers worked by hand (the module's docstring), as moves."""
    t_a = 10 / (0.6 + 0.8 * 0.8 / 0.6)  # particle-01: ΣFx gives T_B = (0.8 / 0.6)·T_A, put into ΣFy
    t_b = 0.8 / 0.6 * t_a
    n_b = 3 * 8 / (6 * 0.8)  # reactions-02: ΣM_A
    f_strut = 4 * 6 / (3 * 0.8)  # two-force-01: ΣM_A
    n_bf = (12 - 9) / 0.6  # joints-01: ΣFy
    n_bc = 20 - 0.8 * n_bf  # ΣFx
    n_bottom, n_top = 3 * 18 / 4, -(6 * 18 - 3 * 12) / 4  # sections-01: ΣM_F, ΣM_C
    n_diag = (18 - 12) / 0.8
    f_c = 1.5 * 16 / (3 * 0.8 + 4 * 0.6)  # machines-01: ΣM_A on leg AC
    c = along(f_c, -3, 4)
    return {
        "particle-01": [F("A1", *along(t_a, -4, 3)), F("B1", *along(t_b, 3, 4))],
        "reactions-01": [F("A", -8 * KN, 8 * KN), M("A", (4 * 2 + 3 * 8 + 4 * 6) * KN)],
        "reactions-02": [F("A", 0.6 * n_b * KN, (8 - 0.8 * n_b) * KN), F("B", *along(n_b, -3, 4))],
        "two-force-01": [F("A", -0.6 * f_strut * KN, (6 - 0.8 * f_strut) * KN), F("D1", *along(f_strut, 3, 4))],
        "joints-01": [F("F1", *along(n_bf, 4, 3)), F("C1", n_bc * KN)],
        "sections-01": [F("S1", n_top * KN), F("S2", *along(n_diag, 3, -4)), F("S3", n_bottom * KN)],
        "machines-01": [F("A", -c[0], 16 * KN - c[1]), F("C", *c)],
    }


def test_particles_come_before_rigid_bodies_and_joints_before_sections():
    course = load_course()
    titles = [t.title for t in course.topics]
    places = [titles.index(t) for t in TOPICS]
    assert places == sorted(places)  # particles, rigid bodies, trusses, frames: in that order
    assert places[0] == titles.index("Getting started") + 1  # particles first, before any rigid body
    assert titles.index("Balance with two forces") > places[0]
    for topic in course.topics:
        if topic.title in TOPICS:
            assert list(topic.levels) == TOPICS[topic.title]
    trusses = TOPICS["Trusses: joints and sections"]
    assert trusses.index("joints-01") < trusses.index("sections-01")
    frames = next(t for t in course.topics if t.title == "Frames and machines").levels
    needs = [lid for lid in frames if "two-force" in json.dumps([h["en"] for h in read_json(course.path(lid)).get("hints", [])])]
    assert needs[0] == "two-force-01", needs  # the level that teaches a frame's two-force link comes before any that needs one
    assert len(course.level_ids()) >= 60
    readme = (LEVELS.parent / "README.md").read_text()
    numeric = sum(read_json(course.path(lid))["kind"] in ("free_body", "balance", "section") for lid in course.level_ids())
    assert f"{numeric} of them ask for numbers" in readme


@pytest.mark.parametrize("level_id", SYLLABUS)
def test_the_reference_solution_is_the_hand_answer(level_id):
    """The shipped solution is the hand statics of the module's docstring, to 1 N."""
    shipped = read_json(LEVELS / "solutions" / f"{level_id}.json")["moves"]
    hand = hand_answers()[level_id]
    assert len(shipped) == len(hand)
    for got, want in zip(shipped, hand, strict=True):
        assert got["type"] == want["type"] and got["node"] == want["node"]
        for key in ("fx", "fy", "m"):
            assert abs(got.get(key, 0.0) - want.get(key, 0.0)) < 1.0, (level_id, got, want)


@pytest.mark.parametrize("level_id", SYLLABUS)
def test_the_reference_solution_passes_on_the_command_line_and_the_body_stands(level_id, capsys):
    assert main(["validate", str(LEVELS / f"{level_id}.json")]) == 0
    capsys.readouterr()
    code = main(["check", str(LEVELS / f"{level_id}.json"), "--solution", str(LEVELS / "solutions" / f"{level_id}.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["passed"], out["reason"]
    assert out["net_force"] == {"fx": 0.0, "fy": 0.0} and abs(out["net_moment"]) < 1e-6  # the hand answers balance exactly
    assert out["max_displacement"] < 0.05  # put back at the cuts, it stands: elastic sag only (the L-frame's tip, 2.7 cm, the most)


@pytest.mark.parametrize("level_id", SYLLABUS)
def test_the_brief_states_its_assumptions_and_the_explanation_its_numbers(level_id):
    level = english(read_json(LEVELS / f"{level_id}.json"))
    brief = briefed(load_level(level))  # the brief as the student reads it, its assumptions after it
    for words in ("neglected", "x to the right, y up", "counter-clockwise positive", "2%"):
        assert words in brief.replace("2 %", "2%"), (level_id, words)
    assert len(level["hints"]) == 3
    assert any(w in " ".join(level["hints"]) for w in ("free-body diagram", "ΣF", "moments about", "two-force member", "ΣM"))
    assert "seed" not in json.dumps(level).lower()


def test_particle_equilibrium_a_ring_on_two_cables():
    # rounded to two figures, as a student reads a slide rule: T_A = 6.0, T_B = 8.1 kN (ΣFy off 80 N ≤ 200 N)
    passes("particle-01", [F("A1", *along(6.0, -4, 3)), F("B1", *along(8.1, 3, 4))])
    hidden = (" 6 kN", " 8 kN", "4.8", "3.6", "6.4")
    # the two tensions swapped (the shallower cable given the bigger share)
    fails("particle-01", [F("A1", *along(8, -4, 3)), F("B1", *along(6, 3, 4))], "ΣFx", "move left", hidden=hidden)
    # each cable given half the weight, straight up: a cable pulls only along itself
    fails("particle-01", [F("A1", 0, 5 * KN), F("B1", 0, 5 * KN)], "Cable RA pulls only along itself", hidden=hidden)
    # the cables pushing on the ring (a sign slip): ΣFy = −20 kN
    fails("particle-01", [F("A1", *along(6, 4, -3)), F("B1", *along(8, -3, -4))], "ΣFy", "move down", hidden=hidden)


def test_reactions_of_a_frame_pulled_at_an_angle():
    # M_A typed to three figures, 56.2 kN·m: 0.4 % off
    passes("reactions-01", [F("A", -8 * KN, 8 * KN), M("A", 56.2 * KN)])
    # the inclined pull's moment as 10 kN × |AC| = 5 m, plus the wind's 8: 58 kN·m
    fails("reactions-01", [F("A", -8 * KN, 8 * KN), M("A", 58 * KN)])
    # only the pull's y part has a lever arm (3 m): 24 + 8 = 32 kN·m
    fails("reactions-01", [F("A", -8 * KN, 8 * KN), M("A", 32 * KN)])
    # the wind's moment forgotten: 48 kN·m
    fails("reactions-01", [F("A", -8 * KN, 8 * KN), M("A", 48 * KN)])
    # the moment's sense wrong
    fails("reactions-01", [F("A", -8 * KN, 8 * KN), M("A", -56 * KN)])
    # the pull's x part forgotten in ΣFx (only the wind held)
    fails("reactions-01", [F("A", -2 * KN, 8 * KN), M("A", 56 * KN)])
    # the moment left out: a fixed support holds one
    fails("reactions-01", [F("A", -8 * KN, 8 * KN)], "1 force and 1 moment")


def test_reactions_with_a_roller_on_an_incline():
    # A's x part within 2 % of its own 3 kN (60 N) passes; 3.1 kN (3.3 % off) does not
    passes("reactions-02", [F("A", 3.05 * KN, 4 * KN), F("B", -3 * KN, 4 * KN)])
    fails("reactions-02", [F("A", 3.1 * KN, 4 * KN), F("B", -3 * KN, 4 * KN)], "the x part of the force of the pin at A")
    hidden = (" 5 kN", " 3 kN", " 4 kN")
    # the roller's reaction taken as vertical, as on level ground: its part along the incline, 4 kN × 3/5, is 2.4 kN
    fails("reactions-02", [F("A", 0, 4 * KN), F("B", 0, 4 * KN)], "The roller at B pushes only at right angles", "a part along that surface", hidden=hidden)
    # the normal taken the wrong way (down the incline's other side): (3, 4) is not normal to it
    fails("reactions-02", [F("A", -3 * KN, 4 * KN), F("B", 3 * KN, 4 * KN)], "The roller at B pushes only at right angles", hidden=hidden)
    # the pin's x part forgotten: the roller's push to the left is not held
    fails("reactions-02", [F("A", 0, 4 * KN), F("B", -3 * KN, 4 * KN)], "ΣFx", "move left")
    # B's size taken as the load's share straight from a level beam (4 kN along the normal): ΣM_A = 6 × 3.2 − 24 = −4.8 kN·m
    fails("reactions-02", [F("A", 2.4 * KN, 4.8 * KN), F("B", *along(4, -3, 4))], "ΣM about A", "clockwise")


def test_two_force_members_a_bracket_on_a_strut():
    # the strut's force rounded to 10.1 kN: off 60 N and 80 N ≤ 120 N; ΣM_A off 0.24 ≤ 0.48 kN·m
    passes("two-force-01", [F("A", -6 * KN, -2 * KN), F("D1", *along(10.1, 3, 4))])
    hidden = (" 10 kN", " 6 kN", " 8 kN", " 2 kN")
    # the strut's force not along the strut: straight up, sized to hold the load with the pin
    fails("two-force-01", [F("A", 0, -2 * KN), F("D1", 0, 8 * KN)], "two-force member", "along CD", hidden=hidden)
    # the pin's y part taken upward (a sign slip): ΣFy = +4 kN
    fails("two-force-01", [F("A", -6 * KN, 2 * KN), F("D1", 6 * KN, 8 * KN)], "ΣFy", "move up")
    # the strut taken in tension, pulling the beam toward C
    fails("two-force-01", [F("A", 6 * KN, 14 * KN), F("D1", -6 * KN, -8 * KN)], "ΣM about A")


def test_method_of_joints_a_joint_with_two_forces_found_before():
    # typed to three figures: BF 5.01, BC 16.0 kN
    passes("joints-01", [F("F1", *along(5.01, 4, 3)), F("C1", 16 * KN)])
    # BE's pull forgotten: BF holds all 12 kN, 20 kN, and BC = 20 − 16 = 4 kN
    fails("joints-01", [F("F1", *along(20, 4, 3)), F("C1", 4 * KN)])
    # BF's x part forgotten in ΣFx: BC = 20 kN
    fails("joints-01", [F("F1", *along(5, 4, 3)), F("C1", 20 * KN)])
    # BF taken in compression (the sense slipped)
    fails("joints-01", [F("F1", *along(-5, 4, 3)), F("C1", 24 * KN)])
    # BF's components swapped: (3, 4) is not along BF
    fails("joints-01", [F("F1", 3 * KN, 4 * KN), F("C1", 16 * KN)], "two-force member")


def test_method_of_sections_a_pratt_truss():
    # the bottom chord rounded to 13.4 kN: ΣFx off 100 N ≤ 360 N; ΣM_F off 0.4 ≤ 2 % × 18 × 5 = 1.8 kN·m
    passes("sections-01", [F("S1", -18 * KN), F("S2", *along(7.5, 3, -4)), F("S3", 13.4 * KN)])
    hidden = ("13.5", "7.5")
    # the diagonal taken in compression (as in a Howe truss): ΣFx = −9, ΣFy = +12 kN
    fails("sections-01", [F("S1", -18 * KN), F("S2", *along(-7.5, 3, -4)), F("S3", 13.5 * KN)], "ΣFx", "ΣFy", hidden=hidden)
    # the load at B forgotten in the moments about C: top chord 18 × 6 / 4 = 27 kN
    fails("sections-01", [F("S1", -27 * KN), F("S2", *along(7.5, 3, -4)), F("S3", 13.5 * KN)], "ΣFx", hidden=hidden)
    # the chords' senses swapped (top in tension, bottom in compression)
    fails("sections-01", [F("S1", 18 * KN), F("S2", *along(7.5, 3, -4)), F("S3", -13.5 * KN)], "ΣM about F", hidden=hidden)


def test_frames_and_machines_an_a_frame_taken_apart():
    # rounded: A (3.0, 12.1) kN; ΣFy off 100 N ≤ 320 N
    passes("machines-01", [F("A", 3 * KN, 12.1 * KN), F("C", -3 * KN, 4 * KN)])
    hidden = (" 12 kN", " 5 kN", " 3 kN", " 4 kN")
    # the load shared between the pins, straight up, as if on a level beam: C's force is not along BC
    fails("machines-01", [F("A", 0, 8 * KN), F("C", 0, 8 * KN)], "The pin at C joined the two-force member BC", "across it", hidden=hidden)
    # the loaded leg taken as a two-force member too: A's force along AC (3, 4)/5 cannot balance a load between the pins
    fails("machines-01", [F("A", *along(10, 3, 4)), F("C", -3 * KN, 4 * KN)], "Not in equilibrium", hidden=hidden)
    # A's x part with the wrong sense: ΣFx = −6 kN
    fails("machines-01", [F("A", -3 * KN, 12 * KN), F("C", -3 * KN, 4 * KN)], "ΣFx", "move left")
    # BC taken in tension, pulling C toward B: ΣM_A = −48 kN·m
    fails("machines-01", [F("A", -3 * KN, 20 * KN), F("C", 3 * KN, -4 * KN)], "ΣM about A", "turn clockwise")


def test_a_line_of_force_is_only_for_a_roller_or_a_pin(tmp_path, capsys):
    """`along` (a cut's line of force) on a bar, with a moment, or of zero length: one
    line naming the file and the field."""
    for change in (
        lambda d: d["cut"][1].update(along=[0, 0]),
        lambda d: d["cut"][1].update(carries=["x", "y", "rot"]),
        lambda d: d["cut"].__setitem__(1, {"node": "D1", "what": "bar", "member": "CD", "along": [1, 1]}),
    ):
        doc = read_json(LEVELS / "two-force-01.json")
        doc["cut"][1] = {"node": "D1", "what": "pin", "along": [3, 4]}
        change(doc)
        path = tmp_path / "two-force-01.json"
        path.write_text(json.dumps(doc))
        assert main(["validate", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"{path}: cut[1].along: "), err
        assert err.count("\n") == 1


def test_the_readme_lists_the_course_as_it_is():
    """The README's Levels table names every topic's levels in the course's order."""
    import re

    readme = (LEVELS.parent / "README.md").read_text()
    for topic in load_course().topics:
        row = next(line for line in readme.splitlines() if line.startswith(f"| {topic.title} |"))
        assert re.findall(r"`([a-z0-9-]+)`", row) == list(topic.levels), topic.title
