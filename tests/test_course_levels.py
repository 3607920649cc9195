"""The course levels: tutorial-01/02, balance-02/03, zero-force-05/06.

Each ships a reference solution that passes; other right answers pass too; a student's
likely mistakes fail with a reason that says what is wrong. The answers below are worked
out by hand (method of joints, sums of forces and moments), not read from the engine."""

import json
from pathlib import Path

import pytest

from equilibria.cli.main import main
from equilibria.files.store import read_json

LEVELS = Path(__file__).resolve().parents[1] / "levels"
COURSE = ["tutorial-01", "tutorial-02", "balance-02", "balance-03", "zero-force-05", "zero-force-06"]


def check(capsys, tmp_path: Path, level: str | Path, moves: list, *, draw: int | None = None) -> tuple[int, dict]:
    path = Path(level) if isinstance(level, Path) else LEVELS / f"{level}.json"
    solution = {"format": 1, "level": read_json(path)["id"], "moves": moves}
    if draw is not None:
        solution["draw"] = draw
    (tmp_path / "s.json").write_text(json.dumps(solution))
    code = main(["check", str(path), "--solution", str(tmp_path / "s.json"), "--json"])
    return code, json.loads(capsys.readouterr().out)


def passes(capsys, tmp_path, level, moves, **kw) -> dict:
    code, verdict = check(capsys, tmp_path, level, moves, **kw)
    assert code == 0 and verdict["passed"], verdict["reason"]
    return verdict


def fails(capsys, tmp_path, level, moves, *words, **kw) -> str:
    code, verdict = check(capsys, tmp_path, level, moves, **kw)
    assert code == 1 and not verdict["passed"], verdict["reason"]
    for w in words:
        assert w in verdict["reason"], (w, verdict["reason"])
    return verdict["reason"]


def force(node: str, fx: float = 0.0, fy: float = 0.0) -> dict:
    return {"type": "add_force", "node": node, "fx": fx, "fy": fy}


def mark(*members: str) -> list[dict]:
    return [{"type": "mark_zero", "member": m} for m in members]


def remove(*members: str) -> list[dict]:
    return [{"type": "remove_member", "member": m} for m in members]


@pytest.mark.parametrize("name", COURSE)
def test_course_level_validates_and_its_reference_solution_passes(capsys, name):
    level = LEVELS / f"{name}.json"
    data = read_json(level)
    assert data["id"] == name and data["format"] == 1 and data["world"]["gravity"] == 0
    assert data["brief"] and data["explanation"] and 2 <= len(data["hints"]) <= 3
    assert level.read_text().startswith('{\n  "format": 1,')  # 2-space indentation
    assert main(["validate", str(level)]) == 0
    capsys.readouterr()
    code = main(["check", str(level), "--solution", str(LEVELS / "solutions" / f"{name}.json"), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == 0 and verdict["passed"], verdict["reason"]


# ------------------------------------------------------------------ tutorial-01
# A 2 m x 1 m frame, a 3 kN pull to the right at B(2, 0). One force balances it only if it
# is 3 kN, to the left, on the line y = 0: at B or at A.


def test_tutorial_01_the_force_may_slide_along_its_line(capsys, tmp_path):
    passes(capsys, tmp_path, "tutorial-01", [force("A", fx=-3000)])


def test_tutorial_01_mistakes(capsys, tmp_path):
    # right size and direction, wrong line: a couple of 3 kN x 1 m
    fails(capsys, tmp_path, "tutorial-01", [force("D", fx=-3000)], "ΣM about B is not zero", "turn counter-clockwise")
    # pushing the same way as the rope
    fails(capsys, tmp_path, "tutorial-01", [force("A", fx=3000)], "ΣFx is not zero", "move right")
    # on the line, too weak
    fails(capsys, tmp_path, "tutorial-01", [force("B", fx=-2000)], "ΣFx is not zero", "move right")
    fails(capsys, tmp_path, "tutorial-01", [force("B", fx=-1500), force("A", fx=-1500)], "exactly 1 force")


# ------------------------------------------------------------------ tutorial-02
# Joint B: AB and BC in line, no load, so BD = 0. D: AD = DC = -10/(2 sin 45°) = -7.07 kN;
# A: AB = +5 kN.


def test_tutorial_02_mistakes(capsys, tmp_path):
    # the reason counts, never names; the hint sends the student to joint B, where AB and BC lie in line
    reason = fails(capsys, tmp_path, "tutorial-02", mark("AB"), "1 member you marked carries a force", "1 zero-force member is not marked")
    assert "AB" not in reason and "BD" not in reason
    fails(capsys, tmp_path, "tutorial-02", mark("AD", "BD"), "Not quite: 1 member you marked carries a force.")
    code, verdict = check(capsys, tmp_path, "tutorial-02", [])
    assert code == 1 and verdict["reason"] == "Not quite: 1 zero-force member is not marked." and verdict["look_at"] == "B"


# ------------------------------------------------------------------ balance-02
# 12 kN down at D(1, 0); hooks at A(0, 1.5), B(3, 1.5), C(6, 1.5), at most 9 kN. Lever rule:
# A and B take 8 and 4 kN; A and C would need 10 and 2 kN; B and C, 20 and -8 kN. Equal and
# opposite pulls along AB may be added.


@pytest.mark.parametrize(
    "moves",
    [[force("A", -3000, 8000), force("B", 3000, 4000)], [force("B", -4000, 4000), force("A", 4000, 8000)]],
    ids=["pulled apart along AB", "squeezed along AB"],
)
def test_balance_02_other_right_answers(capsys, tmp_path, moves):
    verdict = passes(capsys, tmp_path, "balance-02", moves)
    assert verdict["max_displacement"] < 0.1 * verdict["limit"]  # no slow turning either


def test_balance_02_mistakes(capsys, tmp_path):
    fails(capsys, tmp_path, "balance-02", [force("A", fy=10000), force("C", fy=2000)], "The force at A is 10 kN; at most 9 kN")
    fails(capsys, tmp_path, "balance-02", [force("A", fy=6000), force("B", fy=6000)], "ΣM about D is not zero", "turn counter-clockwise")
    fails(capsys, tmp_path, "balance-02", [force("D", fy=12000), force("A")], "not at D")


# ------------------------------------------------------------------ balance-03
# L-bracket: 6 kN down at the toe E(2, 0), 2 kN right at F(0, 2). The two forces must add up
# to (-2, +6) kN and give +12 kN·m about F (+14 kN·m about C, +16 about A).


@pytest.mark.parametrize(
    "moves",
    [
        [force("C", -1000, -8000), force("D", -1000, 14000)],
        [force("F", -14000, 6000), force("C", 12000, 0)],
        [force("F", -2000, -6000), force("D", 0, 12000)],
    ],
    ids=["C and D", "F and C, a horizontal couple", "F and D"],
)
def test_balance_03_other_right_answers(capsys, tmp_path, moves):
    passes(capsys, tmp_path, "balance-03", moves)


def test_balance_03_mistakes(capsys, tmp_path):
    # the right resultant, split evenly: the weight's turning is not cancelled
    fails(capsys, tmp_path, "balance-03", [force("F", -1000, 3000), force("G", -1000, 3000)], "ΣM about F is not zero", "turn clockwise")
    # the right couple, the wind forgotten
    fails(capsys, tmp_path, "balance-03", [force("F", 0, -6000), force("G", 0, 12000)], "ΣFx is not zero", "move right")
    fails(capsys, tmp_path, "balance-03", [force("E", 0, 6000), force("F", -2000, 0)], "not at E")


# ------------------------------------------------------------------ zero-force-05
# Pratt bridge, 6 panels of 2 m. U1L1, U5L5 (at L1, L5) and U3L3 (at U3) meet a joint where a
# chord runs straight through: zero unless that joint is loaded. The diagonals carry shear.
PRATT_ZERO = {0: ("U1L1", "U3L3", "U5L5"), 1: ("U3L3",), 2: ("U1L1", "U5L5"), 3: ("U3L3", "U5L5")}


@pytest.mark.parametrize(("draw", "zero"), PRATT_ZERO.items(), ids=[f"draw {d}" for d in PRATT_ZERO])
def test_zero_force_05_each_draw_has_its_own_answer(capsys, tmp_path, draw, zero):
    assert len(read_json(LEVELS / "zero-force-05.json")["player"]["load_choices"]) == len(PRATT_ZERO)
    verdict = passes(capsys, tmp_path, "zero-force-05", mark(*zero), draw=draw)
    assert verdict["zero_force"] == sorted(zero)
    other = PRATT_ZERO[(draw + 1) % len(PRATT_ZERO)]
    fails(capsys, tmp_path, "zero-force-05", mark(*other), "Not quite", draw=draw)


def test_zero_force_05_mistakes(capsys, tmp_path):
    # full deck: the centre diagonals still carry the panel shear, 5 kN x sqrt 2
    fails(capsys, tmp_path, "zero-force-05", mark("U3L3", "U2L3", "U4L3"), "2 members you marked carry a force", draw=1)
    # load on the top joint U3: its vertical carries it down to L3
    fails(capsys, tmp_path, "zero-force-05", mark("U1L1", "U3L3", "U5L5"), "1 member you marked carries a force", draw=2)
    fails(capsys, tmp_path, "zero-force-05", mark("U1L1", "U5L5"), "1 zero-force member is not marked", draw=0)


# ------------------------------------------------------------------ zero-force-06
# Cantilever from a wall, 10 kN at the tip H(6, 0). H: CH = 0, GH = +10 kN. F: CF = 0.
# B: BE = 0. The bottom chord AB, BC is squeezed (-20 kN), the top chord stretched.


def test_zero_force_06_the_three_zero_force_members(capsys, tmp_path):
    data = read_json(LEVELS / "zero-force-06.json")
    data["player"]["mode"] = "mark"
    (tmp_path / "marking.json").write_text(json.dumps(data))
    verdict = passes(capsys, tmp_path, tmp_path / "marking.json", mark("BE", "CF", "CH"))
    assert verdict["forces"]["AB"] == pytest.approx(-20e3) and verdict["forces"]["BC"] == pytest.approx(-20e3)
    assert verdict["forces"]["EF"] == pytest.approx(10e3) and verdict["forces"]["FG"] == pytest.approx(10e3)


def test_zero_force_06_the_brace_of_the_squeezed_chord_must_stay(capsys, tmp_path):
    """Upside down from a bridge: in a cantilever the bottom chord is in compression."""
    for removed in (("BE",), ("BE", "CF"), ("BE", "CF", "CH")):
        words = ("collapses", "without BE", "joint B is held only by AB and BC", "compression in AB and BC (-20 kN)")
        fails(capsys, tmp_path, "zero-force-06", remove(*removed), *words)
    # CF holds F across the stretched top chord: without it F is pulled back only
    # marginally, a mechanism all the same; without CH the tip H swings on GH
    fails(capsys, tmp_path, "zero-force-06", remove("CF"), "does not stand", "joint F is held only by EF and FG", "only marginally")
    fails(capsys, tmp_path, "zero-force-06", remove("CH"), "does not stand", "joint H is held only by GH")
    passes(capsys, tmp_path, "zero-force-06", [])
