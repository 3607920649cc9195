"""The rest of the syllabus (issue 22, point 6): a whole truss (reactions, joints, a section),
a pulley, a two-member frame taken apart at its pin, pliers, a composite centroid, an
overhang's shear and moment at two cuts, a smooth slope, and tipping versus slipping.

Every right answer is worked here by hand statics, independently of the engine and of
game/rules/answer.py; the levels' reference solutions and the figures their explanations
state are checked against these numbers, and then judged. Signs: x to the right, y up,
moments counter-clockwise positive, N tension positive.

particle-02  crate C, 12 kN, on a smooth slope of normal n = (−3, 4)/5, a rope along +x.
             ΣFy: 0.8 N = 12 → N = 15 kN; ΣFx: T − 0.6 N = 0 → T = 9 kN.
truss-01     A(0,0) B(4,0) C(8,0) D(12,0), E(4,3) F(8,3); 12 kN down at B, 9 kN down at C,
             8 kN right at F (3 m up). ΣM_A: 12 D = 12·4 + 9·8 + 8·3 → D = 12 kN;
             A = (−8, 21 − 12) kN.
truss-02     joint A, reaction (−8, 9) kN; AE along (4, 3)/5, AB along x.
             ΣFy: 9 + 0.6 N_AE = 0 → N_AE = −15; ΣFx: −8 + N_AB + 0.8 N_AE = 0 → N_AB = 20 kN.
truss-03     joint E, AE's push (12, 9) kN; EB down, EF along x. ΣFy: 9 − N_EB = 0 → 9 kN;
             ΣFx: 12 + N_EF = 0 → −12 kN.
truss-04     left part A, B, E; cut EF (along x at y = 3), BF along (4, 3)/5 from B, BC along
             x. ΣM_B: −9·4 − 3 N_EF = 0 → −12 kN; ΣM_F: −(9·8 + 8·3) + 12·4 + 3 N_BC = 0 →
             16 kN; ΣFy: 9 − 12 + 0.6 N_BF = 0 → 5 kN (the joints' answers again).
truss-05     right part C, D, F with D's 12 kN up, 9 kN down at C, 8 kN right at F; cuts
             along −x (EF, BC) and (−4, −3)/5 (BF). ΣM_F: 12·4 − 3 N_BC = 0 → 16 kN;
             ΣFy: 12 − 9 − 0.6 N_BF = 0 → 5 kN; ΣFx: 8 − N_EF − 0.8·5 − 16 = 0 → −12 kN.
pulley-01    wheel radius r = 0.5 m about O; 6 kN down at L (−r, 0); the rope leaves T (0, r)
             along +x. ΣM_O: 6 r − T r = 0 → T = 6 kN; O = (−T, 6) kN.
frame-01     beam C(0,4)–D(2,4)–B(6,4), pin C, roller B; (3, −12) kN at D.
             ΣM_C: 6 B = 2·12 → B = 4 kN; C = (−3, 12 − 4) kN.
frame-02     post A(0,0)–M(0,2)–C(0,4), fixed at A; 2 kN right at M, the pin force on the
             beam reversed at C: (3, −8) kN. A = (−5, 8) kN; M_A = 3·4 + 2·2 = 16 kN·m.
machines-02  half pliers J(−0.05, 0), O(0, 0), H(0.25, 0); 200 N up at H; the wire's push along
             the strut at J (vertical). ΣM_O: 0.25·200 − 0.05 Q = 0 → Q = 1000 N (MA = 5);
             O = (0, −1200) N.
beam-05      6 m, pin A, roller B, load 2 → 5 kN/m: a rectangle 12 kN at 3 m and a triangle
             9 kN at 4 m; x̄ = 72/21 = 3.43 m; B = 72/6 = 12 kN, A = 9 kN.
beam-06      overhang B(6)–D(8) of the beam pin A(0), roller B(6): 2 kN/m and 4 kN at D.
             Reactions: ΣM_A: 6 B = 16·4 + 4·8 → B = 16, A = 4 kN. Cut just right of B,
             part B–D: Fy = 2·2 + 4 = 8 kN up; M = 4·1 + 4·2 = +12 kN·m (hogging −12).
beam-07      the same beam cut at C(4), part A–C with A's 4 kN: Fy = 2·4 − 4 = 4 kN up;
             ΣM_C: −4·4 + 8·2 + M = 0 → M = 0 (sagging turns to hogging).
tipping-01   cabinet 1 m × 2 m, W = 10 kN at its centre, μ = 0.5, pushed 3 kN at its top.
             Slides at P = μW = 5 kN; tips over B at P = W·0.5/2 = 2.5 kN: it tips. A force
             holds it if its moment about B adds ≥ 3·2 − 10·0.5 = 1 kN·m against tipping.
tipping-02   the same cabinet pushed 6.5 kN at 0.4 m: tips at 10·0.5/0.4 = 12.5 kN, slides
             at 5 kN: it slides. Pressing down by F ≤ 2 kN raises μN only to 0.5·12 = 6 kN;
             a pull to the left of ≥ 6.5 − 5 = 1.5 kN holds it.

Tolerance: a right answer typed to three significant figures (every unknown within 0.5 %)
passes; the wrong answers below, the ones students give, are off by tens of per cent in at
least one unknown and in at least one equilibrium sum, so every judge rule rejects them.
"""

import json
import math
from pathlib import Path

import pytest
from builders import english, own_numbers
from judging import F, M, fails, passes, verdict

from equilibria.cli.main import main
from equilibria.files.store import read_json

LEVELS = Path(__file__).resolve().parents[1] / "levels"
KN = 1e3


def along(size: float, dx: float, dy: float) -> tuple[float, float]:
    """A force of `size` [kN] along (dx, dy), in N."""
    d = math.hypot(dx, dy)
    return size * KN * dx / d, size * KN * dy / d


def hand() -> dict[str, tuple[list[dict], list[float]]]:
    """Each level's right answer as moves, and the figures its explanation must state [kN, kN·m]."""
    n = 12 / 0.8  # particle-02
    t = 0.6 * n
    d_y = (12 * 4 + 9 * 8 + 8 * 3) / 12  # truss-01
    a_y, a_x = 21 - d_y, -8
    n_ae = -a_y / 0.6  # truss-02
    n_ab = -a_x - 0.8 * n_ae
    n_eb, n_ef = -0.6 * n_ae, 0.8 * n_ae  # truss-03: AE's push on E is −N_AE·(0.8, 0.6)
    s_ef = -(a_y * 4) / 3  # truss-04, ΣM_B
    s_bc = ((a_y * 8 - a_x * 3) - 12 * 4) / 3  # ΣM_F: the reaction turns clockwise, the load at B back
    s_bf = (12 - a_y) / 0.6  # ΣFy
    r_bc = 12 * 4 / 3  # truss-05, ΣM_F
    r_bf = (12 - 9) / 0.6  # ΣFy
    r_ef = 8 - 0.8 * r_bf - r_bc  # ΣFx: −N_EF = −8 + 0.8 N_BF + N_BC
    rope = 6 * 0.5 / 0.5  # pulley-01
    b_frame = 12 * 2 / 6  # frame-01
    c_frame = (-3, 12 - b_frame)
    m_post = -c_frame[0] * 4 + 2 * 2  # frame-02: the reversed pin force (3, −8) at 4 m, the wind at 2 m
    q = 200 * 0.25 / 0.05  # machines-02 [N]
    rect, tri = 2 * 6, 0.5 * 3 * 6  # beam-05
    x_bar = (rect * 3 + tri * 4) / (rect + tri)
    b_trap = (rect + tri) * x_bar / 6
    v_over, m_over = 2 * 2 + 4, 2 * 2 * 1 + 4 * 2  # beam-06
    v_c, m_c = 2 * 4 - 4, 4 * 4 - 2 * 4 * 2  # beam-07
    return {
        "particle-02": ([F("C", *along(n, -3, 4)), F("R1", t * KN)], [n, t]),
        "truss-01": ([F("A", a_x * KN, a_y * KN), F("D", 0, d_y * KN)], [d_y, a_y, -a_x]),
        "truss-02": ([F("B1", n_ab * KN), F("E1", *along(n_ae, 4, 3))], [-n_ae, n_ab]),
        "truss-03": ([F("B1", 0, -n_eb * KN), F("F1", n_ef * KN)], [n_eb, -n_ef]),
        "joints-01": ([F("F1", *along(5, 4, 3)), F("C1", 16 * KN)], [5, 16]),
        "truss-04": ([F("S1", s_ef * KN), F("S2", *along(s_bf, 4, 3)), F("S3", s_bc * KN)], [-s_ef, s_bc, s_bf]),
        "truss-05": ([F("S1", -r_ef * KN), F("S2", *along(r_bf, -4, -3)), F("S3", -r_bc * KN)], [r_bc, r_bf, -r_ef]),
        "pulley-01": ([F("O", -rope * KN, 6 * KN), F("T1", rope * KN)], [rope, 6]),
        "frame-01": ([F("C", c_frame[0] * KN, c_frame[1] * KN), F("B", 0, b_frame * KN)], [b_frame, c_frame[1], -c_frame[0]]),
        "frame-02": ([F("A", -5 * KN, 8 * KN), M("A", m_post * KN)], [m_post]),
        "machines-02": ([F("W1", 0, q), F("O", 0, -(200 + q))], [q, 200 + q, q / 200]),
        "beam-05": ([F("A", 0, (rect + tri - b_trap) * KN), F("B", 0, b_trap * KN)], [rect, tri, b_trap, rect + tri - b_trap, round(x_bar, 2)]),
        "beam-06": ([F("B", 0, v_over * KN), M("B", m_over * KN)], [v_over, m_over]),
        "beam-07": ([F("C", 0, v_c * KN), M("C", m_c * KN)], [v_c, m_c]),
    }


FREE_BODIES = sorted(hand())
NEW = [
    "particle-02",
    "truss-01",
    "truss-02",
    "truss-03",
    "truss-04",
    "truss-05",
    "pulley-01",
    "frame-01",
    "frame-02",
    "machines-02",
    "beam-05",
    "beam-06",
    "beam-07",
    "tipping-01",
    "tipping-02",
]


def test_the_figures_are_clean():
    """Every hand answer is a whole or half number of kN (of 100 N for the pliers): clean to
    two or three figures."""
    for level_id, (moves, _) in hand().items():
        step = 100 if level_id == "machines-02" else 500
        for m in moves:
            for key in ("fx", "fy", "m"):
                assert abs(m.get(key, 0) / step - round(m.get(key, 0) / step)) < 1e-6, m


@pytest.mark.parametrize("level_id", FREE_BODIES)
def test_the_reference_solution_is_the_hand_answer_and_the_texts_state_it(level_id):
    moves, figures = hand()[level_id]
    shipped = read_json(LEVELS / "solutions" / f"{level_id}.json")["moves"]
    assert [(m["type"], m["node"]) for m in shipped] == [(m["type"], m["node"]) for m in moves]
    for got, want in zip(shipped, moves, strict=True):
        for key in ("fx", "fy", "m"):
            assert abs(got.get(key, 0.0) - want.get(key, 0.0)) < 1.0, (level_id, got, want)
    level = english(own_numbers(read_json(LEVELS / f"{level_id}.json")))  # the texts as read without a student id
    text = level["explanation"]
    for x in figures:  # each figure of the hand answer, as the explanation writes it
        assert f"{x:g}" in text, (level_id, x)
    assert level["kind"] == "free_body" and len(level["hints"]) == 3 and "seed" not in json.dumps(level).lower()


@pytest.mark.parametrize("level_id", NEW)
def test_the_level_validates_and_its_reference_solution_passes(level_id, capsys):
    assert main(["validate", str(LEVELS / f"{level_id}.json")]) == 0
    capsys.readouterr()
    code = main(["check", str(LEVELS / f"{level_id}.json"), "--solution", str(LEVELS / "solutions" / f"{level_id}.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["passed"], out["reason"]
    assert out["max_displacement"] < 0.05  # put back at its cuts (or held on its contacts), it stands


@pytest.mark.parametrize("level_id", FREE_BODIES)
def test_an_answer_typed_to_three_figures_passes(level_id):
    moves, _ = hand()[level_id]
    typed = [{k: (float(f"{v:.3g}") * 1.003 if isinstance(v, float | int) and k in ("fx", "fy", "m") else v) for k, v in m.items()} for m in moves]
    passes(level_id, typed)


WRONG = {
    "particle-02": [
        ("the slope's push taken as W cos θ and the rope as W sin θ, as if the rope ran along the slope", [F("C", *along(9.6, -3, 4)), F("R1", 7.2 * KN)]),
        ("the normal's parts swapped (not square to the slope)", [F("C", -12 * KN, 9 * KN), F("R1", 9 * KN)]),
        ("the rope pushing", [F("C", *along(15, -3, 4)), F("R1", -9 * KN)]),
    ],
    "truss-01": [
        ("the wind forgotten in the moments", [F("A", -8 * KN, 11 * KN), F("D", 0, 10 * KN)]),
        ("the pin's x part with the wind", [F("A", 8 * KN, 9 * KN), F("D", 0, 12 * KN)]),
        ("the reactions swapped", [F("A", -8 * KN, 12 * KN), F("D", 0, 9 * KN)]),
    ],
    "truss-02": [
        ("AE taken in tension", [F("B1", 20 * KN), F("E1", *along(15, 4, 3))]),
        ("the reaction's x part forgotten in ΣFx", [F("B1", 12 * KN), F("E1", *along(-15, 4, 3))]),
        ("AE's parts swapped", [F("B1", 20 * KN), F("E1", -9 * KN, -12 * KN)]),
    ],
    "truss-03": [
        ("EB taken in compression", [F("B1", 0, 9 * KN), F("F1", -12 * KN)]),
        ("EF with the sense slipped", [F("B1", 0, -9 * KN), F("F1", 12 * KN)]),
        ("AE's push read as 15 kN across", [F("B1", 0, -9 * KN), F("F1", -15 * KN)]),
    ],
    "truss-04": [
        ("the reaction's x part forgotten about F: BC = (72 − 48) / 3", [F("S1", -12 * KN), F("S2", *along(5, 4, 3)), F("S3", 8 * KN)]),
        ("the chords' senses swapped", [F("S1", 12 * KN), F("S2", *along(5, 4, 3)), F("S3", -16 * KN)]),
        ("BF in compression", [F("S1", -12 * KN), F("S2", *along(-5, 4, 3)), F("S3", 16 * KN)]),
    ],
    "truss-05": [
        ("the left part's forces at the cuts copied, not reversed", [F("S1", -12 * KN), F("S2", *along(5, 4, 3)), F("S3", 16 * KN)]),
        ("the wind at F forgotten in ΣFx: EF = 4 kN", [F("S1", 4 * KN), F("S2", *along(5, -4, -3)), F("S3", -16 * KN)]),
        ("BF's angle, sin for cos (its y part as 4/5 of it): 3.75 kN, EF 11 kN", [F("S1", 11 * KN), F("S2", *along(3.75, -4, -3)), F("S3", -16 * KN)]),
    ],
    "pulley-01": [
        ("the axle taken to hold the weight only", [F("O", 0, 6 * KN), F("T1", 6 * KN)]),
        ("the rope's tension halved, as on a hanging pulley", [F("O", -3 * KN, 6 * KN), F("T1", 3 * KN)]),
        ("the axle's x part with the rope", [F("O", 6 * KN, 6 * KN), F("T1", 6 * KN)]),
    ],
    "frame-01": [
        ("the cable's x part forgotten at the pin", [F("C", 0, 8 * KN), F("B", 0, 4 * KN)]),
        ("the shares swapped (the far support given the bigger one)", [F("C", -3 * KN, 4 * KN), F("B", 0, 8 * KN)]),
        ("the pin pushing with the cable", [F("C", 3 * KN, 8 * KN), F("B", 0, 4 * KN)]),
    ],
    "frame-02": [
        ("the wind's moment forgotten", [F("A", -5 * KN, 8 * KN), M("A", 12 * KN)]),
        ("the moment's sense wrong", [F("A", -5 * KN, 8 * KN), M("A", -16 * KN)]),
        ("the beam's push at C forgotten in ΣFx", [F("A", -2 * KN, 8 * KN), M("A", 16 * KN)]),
    ],
    "machines-02": [
        ("the lever arms swapped: the wire gets a fifth of the grip", [F("W1", 0, 40), F("O", 0, -240)]),
        ("the pivot holding the hand's force only", [F("W1", 0, 1000), F("O", 0, -200)]),
        ("the wire pulling the jaw", [F("W1", 0, -1000), F("O", 0, 800)]),
    ],
    "beam-05": [
        ("the resultant at mid-span", [F("A", 0, 10.5 * KN), F("B", 0, 10.5 * KN)]),
        ("the whole trapezoid placed like a triangle, at 4 m", [F("A", 0, 7 * KN), F("B", 0, 14 * KN)]),
        ("the rectangle under the triangle forgotten", [F("A", 0, 3 * KN), F("B", 0, 6 * KN)]),
    ],
    "beam-06": [
        ("the moment's sense taken as sagging", [F("B", 0, 8 * KN), M("B", -12 * KN)]),
        ("the distributed load's lever arm taken as the overhang's length", [F("B", 0, 8 * KN), M("B", 16 * KN)]),
        ("the distributed load forgotten", [F("B", 0, 4 * KN), M("B", 8 * KN)]),
    ],
    "beam-07": [
        ("the pin's moment alone, the load forgotten", [F("C", 0, 4 * KN), M("C", 16 * KN)]),
        ("the shear's sense slipped", [F("C", 0, -4 * KN), M("C", 0)]),
        ("the load's resultant taken at C", [F("C", 0, 4 * KN), M("C", 16 * KN)]),
    ],
}


@pytest.mark.parametrize(("level_id", "why", "moves"), [(lid, why, moves) for lid, cases in WRONG.items() for why, moves in cases])
def test_a_wrong_answer_students_give_fails(level_id, why, moves):
    fails(level_id, moves)


def test_each_wrong_answer_is_off_by_tens_of_per_cent_in_some_unknown():
    """The wrong answers above are real mistakes, not near misses: one of their numbers is
    at least 10 % away from the hand answer's (of 5 kN, for an answer near zero)."""
    for level_id, cases in WRONG.items():
        right = hand()[level_id][0]
        for why, moves in cases:
            gaps = [
                abs(w.get(k, 0) - r.get(k, 0)) / max(abs(r.get(k, 0)), 5 * KN if level_id != "machines-02" else 50)
                for w, r in zip(moves, right, strict=True)
                for k in ("fx", "fy", "m")
            ]
            assert max(gaps) >= 0.1, (level_id, why)


def test_tipping_versus_slipping_needs_the_comparison():
    """tipping-01: it tips (2.5 kN < 3 kN) before it slides (5 kN). A force along the floor,
    what a student who expects sliding adds, does nothing against tipping; a force with a
    moment of at least 1 kN·m about B holds it."""
    w, mu, width, height, push = 10, 0.5, 1, 2, 3
    slide, tip = mu * w, w * width / 2 / height
    assert (slide, tip) == (5, 2.5) and tip < push < slide
    need = push * height - w * width / 2  # kN·m about B
    assert need == 1
    passes("tipping-01", [F("E", -1.5 * KN)])  # 1.5 kN back at 1 m above B: 1.5 kN·m
    passes("tipping-01", [F("A", 0, -1.5 * KN)])  # 1.5 kN down at 1 m behind B
    fails("tipping-01", [F("A", -2 * KN)])  # along the floor: no moment about B
    fails("tipping-01", [F("B", -2 * KN)])
    fails("tipping-01", [F("E", -0.5 * KN)])  # 0.5 kN·m: too little
    fails("tipping-01", [F("B", 0, -2 * KN)])  # pressed down on the pivot itself
    assert not verdict("tipping-01", [F("A", 0, -0.5 * KN)]).passed
    level = english(own_numbers(read_json(LEVELS / "tipping-01.json")))  # as written: its own numbers
    assert "2.5 kN" in level["explanation"] and "5 kN" in level["explanation"] and "1 kN·m" in level["explanation"]
    assert level["player"]["max_force"] < push * KN  # the push cannot simply be cancelled


def test_the_same_cabinet_pushed_low_slides_first():
    """tipping-02: 6.5 kN at 0.4 m. It slides (5 kN < 6.5 kN < 12.5 kN): a press down, what
    a student who expects tipping adds, gives too little friction; a pull to the left holds it."""
    w, mu, width, height, push, most = 10, 0.5, 1, 0.4, 6.5, 2
    slide, tip = mu * w, w * width / 2 / height
    assert (slide, tip) == (5, 12.5) and slide < push < tip
    assert mu * (w + most) < push  # the hardest press down allowed is not enough
    assert push - slide == 1.5 <= most  # a pull to the left of 1.5 kN is
    for node in ("A", "B", "D", "E"):
        passes("tipping-02", [F(node, -2 * KN)])
    fails("tipping-02", [F("A", 0, -2 * KN)])  # pressed down at the back corner, as against tipping
    fails("tipping-02", [F("E", 0, -2 * KN)])
    fails("tipping-02", [F("E", -1 * KN)])  # too little: 5.5 kN of friction needed
    level = english(own_numbers(read_json(LEVELS / "tipping-02.json")))  # as written: its own numbers
    for figure in ("12.5 kN", "5 kN", "6 kN", "1.5 kN"):
        assert figure in level["explanation"], figure


def slips(moves: list[dict]):
    """Each one-force mistake of a right answer: that force's sense reversed, that force (or
    moment) forgotten, its x and y parts swapped; a mistake that changes nothing (a zero
    reversed, equal parts swapped) is left out."""
    for k, m in enumerate(moves):
        values = {key: m.get(key, 0.0) for key in (("fx", "fy") if m["type"] == "add_force" else ("m",))}
        if any(values.values()):
            yield f"{m['node']} reversed", [*moves[:k], {**m, **{key: -v for key, v in values.items()}}, *moves[k + 1 :]]
            yield f"{m['node']} forgotten", [*moves[:k], {**m, **dict.fromkeys(values, 0.0)}, *moves[k + 1 :]]
        if m["type"] == "add_force" and values["fx"] != values["fy"]:
            yield f"{m['node']} parts swapped", [*moves[:k], {**m, "fx": values["fy"], "fy": values["fx"]}, *moves[k + 1 :]]


@pytest.mark.parametrize("level_id", FREE_BODIES)
def test_every_sign_slip_forgotten_force_and_swapped_pair_fails(level_id):
    right, _ = hand()[level_id]
    tried = 0
    for why, moves in slips(right):
        assert not verdict(level_id, moves).passed, (level_id, why)
        tried += 1
    assert tried >= 3
