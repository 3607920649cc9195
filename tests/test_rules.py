"""Rules and `equilibria check`: reference solutions pass, other right answers pass too,
wrong ones fail with a reason a student understands, bad input exits 2."""

import json
from pathlib import Path

import pytest

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.course.syllabus import level_files
from equilibria.files.store import read_json
from equilibria.rules.kinds import KINDS

LEVELS = Path(__file__).resolve().parents[1] / "levels"
JUDGED = [p for p in level_files([str(LEVELS)]) if read_json(p)["kind"] not in ("demo", "sandbox")]


def check(capsys, level: str | Path, moves: list | None = None, *, level_id: str | None = None, tmp_path: Path | None = None) -> tuple[int, dict | None, str]:
    args = ["check", str(level), "--json"]
    if moves is not None:
        path = tmp_path / "solution.json"
        path.write_text(json.dumps({"format": 1, "level": level_id or Path(level).stem, "moves": moves}))
        args += ["--solution", str(path)]
    code = main(args)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err.strip()


def force(node: str, fx: float = 0.0, fy: float = 0.0) -> dict:
    return {"type": "add_force", "node": node, "fx": fx, "fy": fy}


def test_the_shipped_levels_cover_every_kind_with_a_goal():
    assert {read_json(p)["kind"] for p in JUDGED} == {name for name, kind in KINDS.items() if kind.judged}


@pytest.mark.parametrize("level", JUDGED, ids=lambda p: p.stem)
def test_every_judged_level_ships_a_reference_solution_that_passes(capsys, level):
    solution = LEVELS / "solutions" / level.name
    assert solution.exists(), f"levels/solutions/{level.name} is missing"
    code = main(["check", str(level), "--solution", str(solution), "--json"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == 0 and verdict["passed"], verdict["reason"]
    assert load_level(read_json(level)).explanation and load_level(read_json(level)).hints


BALANCE = LEVELS / "balance-01.json"


@pytest.mark.parametrize(
    "moves",
    [[force("C", fy=10e3), force("B", fy=-10e3)], [force("E", fx=-10e3), force("B", fx=10e3)], [force("F", fx=-10e3), force("C", fx=10e3)]],
    ids=["couple along the bottom", "horizontal couple", "couple at the right-hand side"],
)
def test_balance_passes_answers_the_author_never_wrote_down(capsys, tmp_path, moves):
    """Any couple of 20 kN·m counter-clockwise balances the body: C up and B down 10 kN,
    2 m apart; E left and B right 10 kN, 2 m apart; F left and C right, 2 m apart."""
    code, verdict, _ = check(capsys, BALANCE, moves, tmp_path=tmp_path)
    assert code == 0 and verdict["passed"], verdict["reason"]
    assert verdict["max_displacement"] < verdict["limit"]


def test_balance_failing_says_which_way_it_moves(capsys, tmp_path):
    # C up 9 kN, B down 10 kN: ΣFy = -1 kN; ΣM about D (0, 2), the first load's node:
    # the couple's -20 + (4·9 - 2·10) = -4 kN·m.
    code, verdict, _ = check(capsys, BALANCE, [force("C", fy=9e3), force("B", fy=-10e3)], tmp_path=tmp_path)
    assert code == 1 and not verdict["passed"]
    assert "ΣFy and ΣM about D are not zero" in verdict["reason"] and "move down and turn clockwise" in verdict["reason"]
    assert "1 kN" not in verdict["reason"] and "4 kN" not in verdict["reason"]  # which way, never by how much
    assert verdict["off"] == ["fy", "m"] or set(verdict["off"]) == {"fy", "m"}
    assert "net_force" not in verdict and "net_moment" not in verdict  # the student's copy prints no residual (issue 32)
    # F up and C down 10 kN, on one vertical line: ΣF = 0 and no moment: the couple is left.
    code, verdict, _ = check(capsys, BALANCE, [force("F", fy=10e3), force("C", fy=-10e3)], tmp_path=tmp_path)
    assert code == 1 and "ΣM about D is not zero, so the body would turn clockwise" in verdict["reason"]
    assert verdict["off"] == ["m"] and "net_moment" not in verdict


def test_balance_enforces_the_number_and_size_of_forces(capsys, tmp_path):
    code, verdict, _ = check(capsys, BALANCE, [force("B", fy=10e3)], tmp_path=tmp_path)
    assert code == 1 and "exactly 2 forces" in verdict["reason"]
    code, verdict, _ = check(capsys, BALANCE, [force("B", fy=100e3), force("C", fy=-100e3)], tmp_path=tmp_path)
    assert code == 1 and "at most 50 kN" in verdict["reason"]


def test_zero_force_marking_names_wrong_and_missed_members(capsys, tmp_path):
    level = LEVELS / "zero-force-01.json"
    moves = [{"type": "mark_zero", "member": m} for m in ("BF", "FC")]
    code, verdict, _ = check(capsys, level, moves, tmp_path=tmp_path)
    assert code == 1
    assert verdict["reason"] == "Not quite: 1 member you marked carries a force and 2 zero-force members are not marked."
    assert "zero_force" not in verdict and verdict["wrong"] == 1 and verdict["missed"] == 2
    code, verdict, _ = check(capsys, level)  # no solution: nothing marked
    assert code == 1 and "3 zero-force members are not marked" in verdict["reason"]


def test_removing_the_brace_of_a_compression_chord_collapses_the_truss(capsys, tmp_path):
    """CG and BF both carry nothing, but neither may go: CG keeps the squeezed top chord
    in line, and the stretched bottom chord holds B back only marginally."""
    level = LEVELS / "zero-force-02.json"
    code, verdict, _ = check(capsys, level, [{"type": "remove_member", "member": "CG"}], tmp_path=tmp_path)
    assert code == 1
    assert verdict["reason"] == (
        "The truss does not stand: without CG, joint G is held only by FG and GH, which lie in one line, so nothing holds G across"
        " that line; the compression in FG and GH (-20 kN) pushes G out of line and the truss collapses."
    )
    code, verdict, _ = check(capsys, level, [{"type": "remove_member", "member": "BF"}], tmp_path=tmp_path)
    assert code == 1 and "the truss is a mechanism" in verdict["reason"] and "only marginally" in verdict["reason"]
    code, verdict, _ = check(capsys, level, tmp_path=tmp_path)  # every member kept: the only answer
    assert code == 0 and verdict["reason"] == "The truss stands as it is, and no member can go: without any one of them it would no longer stand."


@pytest.mark.parametrize(
    ("level", "moves", "level_id", "words"),
    [
        ("zero-force-01", [{"type": "mark_zero", "member": "BF"}], "balance-01", "level: this solution is for level 'balance-01', not 'zero-force-01'"),
        ("zero-force-01", [force("B", fy=1.0)], None, "moves[0].type: a zero_force level does not allow add_force"),
        ("balance-01", [force("Q", fy=1.0), force("A")], None, "moves[0].node: unknown node 'Q'"),
        ("zero-force-01", [{"type": "mark_zero", "member": "XY"}], None, "moves[0].member: unknown member 'XY'"),
        ("zero-force-01", [{"type": "paint", "member": "BF"}], None, "moves[0]: Input tag 'paint' found using 'type' does not match"),
    ],
    ids=["other level", "move not allowed", "unknown node", "unknown member", "unknown move"],
)
def test_a_solution_that_does_not_fit_the_level_exits_2_with_the_reason(capsys, tmp_path, level, moves, level_id, words):
    code, verdict, err = check(capsys, LEVELS / f"{level}.json", moves, level_id=level_id, tmp_path=tmp_path)
    assert code == 2 and verdict is None
    assert len(err.splitlines()) == 1 and err.startswith(str(tmp_path / "solution.json")) and words in err


def test_bad_level_or_solution_files_exit_2(capsys, tmp_path):
    (tmp_path / "broken.json").write_text("{")
    assert main(["check", str(tmp_path / "broken.json")]) == 2
    assert main(["check", str(BALANCE), "--solution", str(tmp_path / "broken.json")]) == 2
    assert main(["check", str(BALANCE), "--solution", str(tmp_path / "missing.json")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all("broken.json" in e or "missing.json" in e for e in err)


# Hand-derived by the joint rules: the loaded joint's lonely member carries the load;
# an unloaded joint where a chord runs straight through leaves its third member idle.
DRAWN_ZERO_SETS = {0: ("BF", "DH"), 1: ("CG", "DH"), 2: ("BF", "CG", "DH"), 3: ("BF", "CG")}


@pytest.mark.parametrize(("draw", "zero"), DRAWN_ZERO_SETS.items(), ids=[f"draw {d}" for d in DRAWN_ZERO_SETS])
def test_each_load_draw_has_its_own_answer(capsys, tmp_path, draw, zero):
    level = LEVELS / "zero-force-03.json"
    assert len(read_json(level)["player"]["load_choices"]) == len(DRAWN_ZERO_SETS)

    def attempt(marks, d=draw):
        path = tmp_path / "s.json"
        path.write_text(json.dumps({"format": 1, "level": "zero-force-03", "draw": d, "moves": [{"type": "mark_zero", "member": m} for m in marks]}))
        code = main(["check", str(level), "--solution", str(path), "--json"])
        return code, json.loads(capsys.readouterr().out)

    code, verdict = attempt(zero)
    assert code == 0, verdict["reason"]
    other = DRAWN_ZERO_SETS[(draw + 1) % len(DRAWN_ZERO_SETS)]
    assert attempt(other)[0] == 1  # the answer to another draw is wrong here


def test_a_drawing_level_needs_a_valid_draw(capsys, tmp_path):
    level = LEVELS / "zero-force-03.json"
    code, _, err = check(capsys, level, [], tmp_path=tmp_path)
    assert code == 2 and "draws its loads; give a draw from 0 to 3" in err
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": 1, "level": "zero-force-01", "draw": 1, "moves": []}))
    assert main(["check", str(LEVELS / "zero-force-01.json"), "--solution", str(path)]) == 2
    assert "does not draw its loads" in capsys.readouterr().err


def test_a_right_answer_that_squeezes_the_body_passes_and_says_its_equilibrium_is_unstable(capsys, tmp_path):
    """An L of three 1 m squares, 6 kN down at H and 2 kN right at F. Forces at A and B,
    (−1, −10) and (−1, 16) kN, cancel both the net force and the net moment about any
    point, but they squeeze the body: dead loads whose Σ r·F < 0 make the equilibrium of a
    free body unstable (a small turn θ adds a moment −θ Σ r·F that turns it further), so
    round-off alone turns it away. Statics says equilibrium: the verdict passes and says
    why it moves anyway."""
    pairs = ["AB", "BD", "CD", "AC", "AD", "CF", "FG", "DG", "CG", "DE", "EH", "GH", "DH"]
    spots = {"A": (0, 0), "B": (1, 0), "C": (0, 1), "D": (1, 1), "E": (2, 1), "F": (0, 2), "G": (1, 2), "H": (2, 2)}
    level = {
        "format": 1,
        "id": "foot",
        "title": "Hold the bracket by its foot",
        "kind": "balance",
        "world": {"gravity": 0.0, "mass_damping": 0.2, "element_damping": 2e-05},
        "materials": {"steel": {"E": 200e9, "density": 7850}},
        "nodes": [{"id": n, "x": x, "y": y, "mass": 50} for n, (x, y) in spots.items()],
        "members": [{"id": p, "i": p[0], "j": p[1], "material": "steel", "A": 0.002} for p in pairs],
        "loads": [{"node": "H", "fy": -6000}, {"node": "F", "fx": 2000}],
        "goal": {"hold": 3.0},
        "player": {"forces": 2, "nodes": ["A", "B", "C", "D"]},
    }
    path = tmp_path / "foot.json"
    path.write_text(json.dumps(level))
    code, verdict, _ = check(capsys, path, [force("A", -1e3, -10e3), force("B", -1e3, 16e3)], tmp_path=tmp_path)
    assert code == 0 and verdict["stable_equilibrium"] is False
    assert verdict["max_displacement"] > verdict["limit"]  # it did turn away
    assert "unstable" in verdict["reason"] and "squeeze" in verdict["reason"]
    code, verdict, _ = check(capsys, path, [force("A", -1e3, -10e3), force("B", -1e3, 15e3)], tmp_path=tmp_path)
    assert code == 1 and "ΣFy" in verdict["reason"] and "move down" in verdict["reason"]  # 1 kN short is wrong
