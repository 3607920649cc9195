"""The free-body kind (issue 16, point 1): a body cut free from what held it, the cuts
replaced by the student's forces and moments, judged by the engine's statics.

The right answers are worked out by hand, not read from the engine:

free-body-01  beam A(0)–B(4 m)–C(6 m), pin A, roller B, the last 2 m an overhang; load at
              its free end C: 3 kN right, 9 kN down. ΣM_A: B·4 = 9·6 → B = 13.5 kN up;
              ΣFy: A_y = 9 − 13.5 = −4.5 kN (the pin pulls down); ΣFx: A_x = −3 kN.
free-body-02  cantilever A(0)–B(3 m) built in at A, load at B: 2 kN right, 4 kN down.
              A = (−2, +4) kN; M_A = +4 kN · 3 m = +12 kN·m (counter-clockwise).
free-body-03  joint C, CA toward (−3, −4)/5, CB toward (1, 0), load 8 kN down at C.
              ΣFy: −0.8·N_CA = 8 → N_CA = −10 kN; ΣFx: −0.6·N_CA + N_CB = 0 → N_CB = −6 kN
              (both compression); at the cut ends: A1 (6, 8) kN, B1 (−6, 0) kN.
free-body-04  left part of a symmetric roof truss: A(0,0) with its reaction 24 kN up, B(4,0)
              12 kN down, E(4,3) 6 kN down; cut EF toward (4, 3)/5 (the top chord, whose
              line passes through A), EC toward (4, −3)/5, BC along x. ΣM_A (the chords meet
              at A): −12·4 − 6·4 + N_EC·(−0.8·3 − 0.6·4) = 0 → N_EC = −72/4.8 = −15 kN;
              ΣM_E: 3·N_BC = 24·4 → N_BC = 32 kN; ΣM_C: −24·8 + 12·4 + 6·4 − 4.8·N_EF = 0
              → N_EF = −25 kN.

Tolerance (the level's default): 2 % of the largest given load per force component, and
that times the largest distance from the moment point to the body for ΣM.
"""

import json
from pathlib import Path

import pytest
from builders import own_numbers
from judging import F, M, fails, passes

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.work.workbench import LevelBench, Refused

LEVELS = Path(__file__).resolve().parents[1] / "levels"
FREE_BODY = ["free-body-01", "free-body-02", "free-body-03", "free-body-04"]


@pytest.mark.parametrize("level_id", FREE_BODY)
def test_the_reference_solution_passes_on_the_command_line_and_the_body_stands(level_id, capsys):
    code = main(["check", str(LEVELS / f"{level_id}.json"), "--solution", str(LEVELS / "solutions" / f"{level_id}.json"), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["passed"], out["reason"]
    assert out["net_force"] == {"fx": 0.0, "fy": 0.0} and out["net_moment"] == 0.0  # the hand answers balance exactly
    assert out["max_displacement"] < 0.02  # put back at the cuts, it stands (elastic sag only)
    assert main(["validate", str(LEVELS / f"{level_id}.json")]) == 0


def test_beam_reactions_closed_form_and_the_mistakes_students_make():
    b_y = 9 * 6 / 4  # ΣM_A
    a_y = 9 - b_y  # ΣFy: negative, the pin pulls down
    assert (b_y, a_y) == (13.5, -4.5)
    passes("free-body-01", [F("A", -3000, a_y * 1000), F("B", 0, b_y * 1000)])
    # the pin's reaction taken upward, as on a beam without an overhang: ΣFy off by 9 kN
    fails("free-body-01", [F("A", -3000, 4500), F("B", 0, 13500)])
    # the reactions swapped (the far support given the roller's share)
    fails("free-body-01", [F("A", -3000, 13500), F("B", 0, -4500)])
    # the lever arm of the load taken as the overhang's 2 m: B = 9 × 2 / 4
    fails("free-body-01", [F("A", -3000, 4500), F("B", 0, 4500)])
    # forgot the pin's x reaction
    fails("free-body-01", [F("A", 0, -4500), F("B", 0, 13500)])
    # a roller that pushes sideways
    fails("free-body-01", [F("A", 0, -4500), F("B", -3000, 13500)], "The roller at B gives no force along x")
    # one force too few
    fails("free-body-01", [F("A", -3000, -4500)], "exactly 2 forces")


def test_each_unknown_is_judged_within_two_percent_of_its_own_answer():
    """Answers A = (−3, −4.5) kN, B = 13.5 kN: each component within 2 % of itself (60 N for
    Ax, 90 N for Ay, 270 N for B), not of the largest load."""
    passes("free-body-01", [F("A", -3000, -4550), F("B", 0, 13550)])  # 1.1 % and 0.4 % off
    fails("free-body-01", [F("A", -3000, -5850), F("B", 0, 14850)], "ΣM about A")  # B 10 % off, Ay balancing ΣFy
    passes("free-body-01", [F("A", -3050, -4500), F("B", 0, 13500)])  # Ax 1.7 % off
    reason = fails("free-body-01", [F("A", -3150, -4500), F("B", 0, 13500)], "ΣFx", "move left", "the x part of the force of the pin at A")
    assert "150" not in reason and "0.15" not in reason  # 5 % off: failed, and the remainder is not given


def test_a_fixed_support_gives_a_force_and_a_moment():
    passes("free-body-02", [F("A", -2000, 4000), M("A", 12000)])
    fails("free-body-02", [F("A", -2000, 4000), M("A", -12000)], "ΣM about A", "turn clockwise")
    fails("free-body-02", [F("A", -2000, 4000)], "1 force and 1 moment", "0 moments")


def test_method_of_joints():
    passes("free-body-03", [F("A1", 6000, 8000), F("B1", -6000, 0)])
    fails("free-body-03", [F("A1", 6000, 8000), F("B1", 6000, 0)], "ΣFx", "move right")  # CB taken as tension
    # balances the load but not along the bar: a bar carries only an axial force
    fails("free-body-03", [F("A1", 0, 8000), F("B1", 0, 0)], "two-force member", "along CA")


def test_method_of_sections_with_chords_that_meet_at_the_support():
    n_ec = -(12 * 4 + 6 * 4) / (0.8 * 3 + 0.6 * 4)  # ΣM_A: only EC is left
    n_bc = 24 * 4 / 3  # ΣM_E
    n_ef = (-24 * 8 + 12 * 4 + 6 * 4) / 4.8  # ΣM_C
    assert (n_ec, n_bc, n_ef) == pytest.approx((-15, 32, -25))
    right = [F("S1", 800 * n_ef, 600 * n_ef), F("S2", 800 * n_ec, -600 * n_ec), F("S3", 1000 * n_bc)]
    passes("free-body-04", right)
    fails("free-body-04", [F("S1", -800 * n_ef, -600 * n_ef), *right[1:]])  # the top chord in tension
    fails("free-body-04", [right[0], F("S2", -800 * n_ec, 600 * n_ec), right[2]])  # the diagonal's sense
    # EC's moment about A from its x part alone (lever arm 3 m): 72 / (0.8 × 3) = 30 kN
    fails("free-body-04", [right[0], F("S2", -24000, 18000), right[2]])
    # the chords taken as parallel, EF from moments about C with the lever arm 3 m: 120 / 3 = 40 kN
    fails("free-body-04", [F("S1", -32000, -24000), right[1], F("S3", 44000)])


def test_the_workbench_places_forces_and_moments_at_the_cuts_only():
    bench = LevelBench(load_level(read_json(LEVELS / "free-body-02.json")))
    assert bench.tools == ("inspect", "force", "moment", "erase", "drag")
    with pytest.raises(Refused, match="at A, not at B"):
        bench.add_force("B", 0, 1000)
    bench.add_force("A", 0, 1)
    bench.add_force("A", -2000, 4000)  # a second force at A takes the first one's place: one force per cut
    assert [(m.node, m.fx, m.fy) for m in bench.moves] == [("A", -2000, 4000)]
    with pytest.raises(Refused, match="only at A, not at B"):
        bench.add_moment("B", 1)
    bench.add_moment("A", 1)
    bench.add_moment("A", 12000)  # a second moment at A takes the first one's place, as a force does (issue 32 point 7)
    assert [(m.node, m.m) for m in bench.moves if m.type == "add_moment"] == [("A", 12000)]
    assert bench.check().passed
    bench.attempt.verdict = None
    bench.erase("node", "A")  # the force and the moment at A go together
    assert bench.moves == []
    roller = LevelBench(load_level(read_json(LEVELS / "free-body-01.json")))
    with pytest.raises(Refused, match="No cut here carries a moment"):
        roller.add_moment("A", 1)
    assert {m["node"] for m in roller.attempt.structure([*map(load_solution_move, [F("A", 1, 2)])])["loads"]} == {"A", "C"}


def load_solution_move(move: dict):
    return load_solution({"format": 1, "level": "x", "moves": [move]}).moves[0]


def good_level() -> dict:
    return own_numbers(read_json(LEVELS / "free-body-01.json"))  # the cuts changed below leave its explanation's answer unfillable


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.pop("cut"), "cut: a free_body level says where its body was cut free"),
        (lambda d: d["cut"].__setitem__(0, {"node": "Q", "what": "pin"}), "cut[0].node: unknown node 'Q'"),
        (lambda d: d["cut"][1].update(node="A"), "cut[1].node: node 'A' is cut twice"),
        (lambda d: d["cut"][0].pop("carries"), "cut[0].carries: say what the removed support fixed"),
        (lambda d: d["cut"].__setitem__(0, {"node": "A", "what": "bar"}), "cut[0].member: a cut bar names the body's member"),
        (lambda d: d["cut"].__setitem__(0, {"node": "A", "what": "bar", "member": "BC"}), "cut[0].member: member BC does not end at A"),
        (lambda d: d["cut"][0].update(what="hinge"), "cut[0].what: must be one of"),
        (lambda d: d["world"].update(gravity=9.81), "world.gravity: a free-body level neglects weight"),
        (lambda d: d.update(loads=[]), "loads: a free body without loads"),
        (lambda d: d.update(player={"nodes": ["C"]}), "player.nodes[0]: forces replace cuts, and C is not cut"),
        (lambda d: d["goal"].update(moment_about="Z"), "goal.moment_about: unknown node 'Z'"),
        (lambda d: d["goal"].update(tolerance=0.5), "goal.tolerance: must be at most 0.2"),
        (lambda d: d["goal"].update(max_displacement=0.1), "goal: max_displacement is not used by a free_body level"),
        (lambda d: d.update(player={"max_force": 1000}), "player: max_force is not used by a free_body level"),
    ],
)
def test_a_bad_free_body_level_gets_one_line_naming_the_file_and_the_field(change, words, tmp_path, capsys):
    doc = good_level()
    change(doc)
    path = tmp_path / "free-body-01.json"
    path.write_text(json.dumps(doc))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: {words}"), err
    assert err.count("\n") == 1


def test_only_a_free_body_level_has_a_cut(tmp_path, capsys):
    doc = read_json(LEVELS / "balance-02.json")
    doc["cut"] = [{"node": "A", "what": "pin"}]
    path = tmp_path / "balance-02.json"
    path.write_text(json.dumps(doc))
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: cut: a balance level has no cut (only a free-body level is cut from what held it)\n"


def test_add_moment_is_refused_where_the_kind_takes_none(tmp_path, capsys):
    solution = {"format": 1, "level": "balance-02", "moves": [M("A", 1000)]}
    (tmp_path / "s.json").write_text(json.dumps(solution))
    assert main(["check", str(LEVELS / "balance-02.json"), "--solution", str(tmp_path / "s.json")]) == 2
    assert "moves[0].type: a balance level does not allow add_moment" in capsys.readouterr().err
