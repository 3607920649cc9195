"""Numbers of its own for every student (issue 22, point 5): a level's `vary` block drawn
by the student id (game/rules/variants.py).

The levels that vary: balance-01 (P, h), particle-01 (W), reactions-02 (P, a, L),
two-force-01 (P, b) and beam-03 (w, c, H). For each: two students get different numbers, one student the same
numbers in another process (another PYTHONHASHSEED), the brief shows them, and the answer
for a student's numbers, checked against hand statics, passes `check` under that
student's numbers and fails under another's.

Glossary: P a load [N], W a weight [N], a and b distances from A [m], L the span [m],
h the plate's height [m]; T a cable's pull [N]; F the strut's force [N]; w a load per
metre [N/m], c the distance from A to a cut [m], H a pull [N]; M a moment [N m].
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from judging import LEVELS

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check
from equilibria.rules.variants import answer_solution, decimals_of, evaluate, numbers_line, parse, shown, version

VARIED = ("balance-01", "particle-01", "reactions-02", "two-force-01", "beam-03")
SOLVED = ("particle-01", "reactions-02", "two-force-01", "beam-03")  # one answer each
ONE, OTHER = "s1001", "s1002"  # two students whose numbers differ on every level above
ROOT = Path(__file__).resolve().parents[1]


def level(level_id: str):
    return load_level(read_json(LEVELS / f"{level_id}.json"))


def spec_numbers(level_id: str, student: str) -> dict[str, float]:
    """The draw as docs/level-format.md states it, written again here: SHA-256 of
    "Equilibria vary 1", the level id, the student id (trimmed, case-folded) and the
    number's name, one per line, as a big-endian integer modulo the count of values."""
    out = {}
    for name, n in read_json(LEVELS / f"{level_id}.json")["vary"]["numbers"].items():
        count = round((n["max"] - n["min"]) / n["step"]) + 1
        text = f"Equilibria vary 1\n{level_id}\n{student.strip().casefold()}\n{name}"
        k = int.from_bytes(hashlib.sha256(text.encode()).digest(), "big") % count
        out[name] = float(Decimal(str(n["min"])) + k * Decimal(str(n["step"])))
    return out


def solution(level_id: str, moves: list, **stamp) -> object:
    return load_solution({"format": 1, "level": level_id, **stamp, "moves": moves})


# ---------------------------------------------------------------------------- drawing
@pytest.mark.parametrize("level_id", VARIED)
def test_two_students_get_different_numbers_and_one_student_the_same(level_id):
    lv = level(level_id)
    one, other = version(lv, ONE).numbers, version(lv, OTHER).numbers
    assert one != other
    assert version(lv, ONE).numbers == one == spec_numbers(level_id, ONE)
    assert version(lv, " S1001 ").numbers == one, "spaces at the ends and the case do not make another student"
    many = {tuple(version(lv, f"student-{k}").numbers.items()) for k in range(12)}
    assert len(many) >= 6, "a class of 12 shares few versions"


def test_the_same_student_gets_the_same_numbers_in_another_process():
    """Python's hash() is salted per process (PYTHONHASHSEED): the draw must not use it."""
    code = "import json; from equilibria.files.store import read_json; from equilibria.course.level import load_level\n"
    code += "from equilibria.rules.variants import version\n"
    code += f"ids = {VARIED!r}\n"
    code += "print(json.dumps({i: version(load_level(read_json(f'levels/{i}.json')), 's1001').numbers for i in ids}))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == {i: version(level(i), ONE).numbers for i in VARIED}


def test_pinned_draws_stay_the_same_on_every_machine():
    """A golden draw: changing the way numbers are drawn would give every student of a
    running course new numbers, and this test says so."""
    assert version(level("reactions-02"), ONE).numbers == {"P": 9000.0, "a": 1.5, "L": 5.25}
    assert version(level("particle-01"), OTHER).numbers == {"W": 19990.0}


@pytest.mark.parametrize("level_id", VARIED)
def test_every_value_is_on_its_step_and_texts_show_clean_numbers(level_id):
    lv = level(level_id)
    for k in range(30):
        drawn = version(lv, f"x{k}")
        for name, value in drawn.numbers.items():
            n = lv.vary.numbers[name]
            steps = (value - n.min) / n.step
            assert n.min <= value <= n.max and abs(steps - round(steps)) < 1e-12
            assert len(repr(value)) <= 8, value  # 0.30000000000000004 would not be
        for text in (drawn.brief, drawn.explanation, *drawn.hints):
            assert "{" not in text and "}" not in text and "e+" not in text and "e-0" not in text, text


@pytest.mark.parametrize("level_id", VARIED)
def test_the_brief_shows_the_students_numbers(level_id):
    drawn = version(level(level_id), ONE)
    first = drawn.brief.splitlines()[0]
    assert first.startswith(f"Your numbers (student {ONE}): ") and numbers_line(drawn) in first
    for name, value in drawn.numbers.items():
        n = drawn._template.vary.numbers[name]
        assert shown(value, n.unit, decimals_of(n)) in drawn.brief.split("\n", 1)[1] or name == "h", (name, drawn.brief)
    assert version(level(level_id)).brief.startswith("The level's own numbers")


def test_the_brief_says_the_numbers_in_words():
    brief = version(level("reactions-02"), ONE).brief
    assert "A beam 5.25 m long" in brief and "A load of 9 kN hangs at C, 1.5 m from A" in brief


# ---------------------------------------------------------------------------- answers
def hand_answer(level_id: str, x: dict[str, float]) -> dict[str, tuple[float, float] | float]:
    """Each cut node's force (fx, fy) [N], and "NODE.m" its moment [N m], by hand statics, for numbers x."""
    if level_id == "particle-01":
        # RA along (−4, 3)/5, RB along (3, 4)/5: they meet at a right angle, so T_A = W·3/5, T_B = W·4/5
        ta, tb = 0.6 * x["W"], 0.8 * x["W"]
        return {"A1": (-0.8 * ta, 0.6 * ta), "B1": (0.6 * tb, 0.8 * tb)}
    if level_id == "reactions-02":
        # ΣM_A: B_y·L = P·a; the roller's normal (−3, 4)/5: B_x = −3/4·B_y; ΣFx, ΣFy give A
        by = x["P"] * x["a"] / x["L"]
        return {"A": (0.75 * by, x["P"] - by), "B": (-0.75 * by, by)}
    if level_id == "two-force-01":
        # the strut along D1→D, (3, 4)/5; ΣM_A: (4/5)·F·3 m = P·b, so F = 5·P·b/12
        f = 5 * x["P"] * x["b"] / 12
        return {"D1": (0.6 * f, 0.8 * f), "A": (-0.6 * f, x["P"] - 0.8 * f)}
    if level_id == "beam-03":
        # the part A–C of a 6 m beam: at A the whole beam's pin, (−H, 3w); w·c down at c/2 from A.
        # ΣFx: N = H; ΣFy: 3w − w·c + Fy = 0; ΣM_C: 3w·(−c) + w·c·(c/2) + M = 0, so M = 3w·c − w·c²/2
        w, c, h = x["w"], x["c"], x["H"]
        return {"C": (h, w * c - 3 * w), "C.m": 3 * w * c - w * c * c / 2}
    raise KeyError(level_id)


def moves_of(answer: dict) -> list[dict]:
    forces = [{"type": "add_force", "node": n, "fx": v[0], "fy": v[1]} for n, v in answer.items() if not n.endswith(".m")]
    return forces + [{"type": "add_moment", "node": n[:-2], "m": v} for n, v in answer.items() if n.endswith(".m")]


def printed(drawn) -> dict:
    """The answer `show` prints for a version, in hand_answer's shape."""
    moves = answer_solution(drawn)["moves"]
    return {m["node"]: (m["fx"], m["fy"]) for m in moves if m["type"] == "add_force"} | {f"{m['node']}.m": m["m"] for m in moves if m["type"] == "add_moment"}


@pytest.mark.parametrize("level_id", SOLVED)
def test_the_answer_for_a_students_numbers_is_hand_statics(level_id):
    """The printed answer (rules/answer.py on the student's version) against closed
    forms; 1e-6 N: a 3 × 3 solve in floating point, far below any judging tolerance."""
    for student in (ONE, OTHER, None):
        drawn = version(level(level_id), student)
        solved, hand = printed(drawn), hand_answer(level_id, drawn.numbers)
        assert solved.keys() == hand.keys()
        for node, value in hand.items():
            assert solved[node] == pytest.approx(value, abs=1e-6)


@pytest.mark.parametrize("level_id", SOLVED)
def test_a_students_answer_passes_with_their_numbers_and_fails_with_anothers(level_id):
    lv = level(level_id)
    right = moves_of(hand_answer(level_id, version(lv, ONE).numbers))
    assert check(lv, solution(level_id, right, student=ONE)).passed
    assert not check(lv, solution(level_id, right, student=OTHER)).passed, "another student's numbers need another answer"
    assert not check(lv, solution(level_id, right)).passed, "nor is it the level's own answer"


def test_balance_01_a_couple_for_the_students_numbers_passes_and_not_for_anothers():
    """balance-01 has many answers; one: C up and B down by P·h / 2 m (B and C are 2 m apart)."""
    lv = level("balance-01")
    x = version(lv, ONE).numbers
    q = x["P"] * x["h"] / 2
    couple = [{"type": "add_force", "node": "C", "fy": q}, {"type": "add_force", "node": "B", "fy": -q}]
    assert check(lv, solution("balance-01", couple, student=ONE)).passed
    assert not check(lv, solution("balance-01", couple, student=OTHER)).passed


def test_a_cut_beams_moment_is_in_the_explanation():
    drawn = version(level("beam-03"), OTHER)  # w = 2.6 kN/m, c = 1.5 m: M = 3·2.6·1.5 − 2.6·1.5²/2 = 11.7 − 2.925 = 8.775 kN·m
    assert drawn.numbers == {"w": 2600.0, "c": 1.5, "H": 5000.0}
    assert "so M = +8.78 kN·m" in drawn.explanation and "−7.8 kN × 1.5 m + 3.9 kN × 0.75 m + M = 0" in drawn.explanation
    assert "carries 2.6 kN/m down" in drawn.brief


def test_the_explanation_states_the_students_answer():
    drawn = version(level("two-force-01"), ONE)  # P = 9.1 kN, b = 3.8 m: F = 5·9.1·3.8/12 = 14.408 kN
    assert drawn.numbers == {"P": 9100.0, "b": 3.8}
    assert "The strut pushes with 14.4 kN" in drawn.explanation and "2.4 m·F = 34.6 kN·m" in drawn.explanation
    assert "A pulls 2.43 kN down" in drawn.explanation  # 0.8·14.408 − 9.1 = 2.427 kN


def test_work_stamped_with_other_numbers_is_refused_in_one_line():
    lv = level("reactions-02")
    other = version(lv, OTHER).numbers
    with pytest.raises(ValueError, match=r"^numbers: this work was done with other numbers than student s1001"):
        check(lv, solution("reactions-02", [], student=ONE, numbers=other))


def test_an_attempt_stamps_its_solution_with_the_student_and_the_numbers():
    from equilibria.work.attempt import Attempt

    drawn = version(level("particle-01"), ONE)
    stamped = Attempt(drawn).solution()
    assert stamped.student == ONE and stamped.numbers == drawn.numbers
    assert Attempt(level("free-body-02")).solution().student is None  # a level that does not vary: no stamp


# ---------------------------------------------------------------------------- expressions
def test_numbers_are_shown_as_by_hand():
    """Half up, as a student rounds (7.125 is 7.13, where Python's format gives 7.12), the
    round-off of a solve gone first (9.3749999999 is 9.375), no −0, no e-notation."""
    assert shown(7125, "kN") == "7.13 kN" and shown(9374.9999999, "kN") == "9.38 kN"
    assert shown(-0.0001, "kN") == "0 kN" and shown(-2500, "kN", 1) == "−2.5 kN"
    assert shown(123456, "kN") == "123 kN" and shown(0.625, "m") == "0.625 m" and shown(95.6, "kN") == "0.0956 kN" and shown(30, "°", 0) == "30°"


def test_expressions_are_read_by_a_parser_not_eval():
    env = {"P": 8000.0, "a": 2.0, "L": 6.0}
    assert evaluate(parse("-P * a / L"), env, "f") == pytest.approx(-8000 * 2 / 6)
    assert evaluate(parse("hypot(3, 4) + 2^3 - (1 - a)"), env, "f") == pytest.approx(5 + 8 + 1)
    assert evaluate(parse("−P × 2"), env, "f") == -16000
    deep = "(" * 5000 + "1" + ")" * 5000  # past the parser's depth
    for bad in ("__import__('os')", "P.x", "P ;", "a[0]", "lambda: 1", "P P", "1j", "P // 2", "not P", "P if a else L", deep, "sqrt(P, a)"):
        with pytest.raises(ValueError):
            evaluate(parse(bad), env, "f")
    with pytest.raises(ValueError, match="f: cannot be worked out"):
        evaluate(parse("P / (a - 2)"), env, "f")


# ---------------------------------------------------------------------------- validate
def varied_level(**vary_changes) -> dict:
    data = read_json(LEVELS / "reactions-02.json")
    data["vary"].update(vary_changes)
    return data


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda d: d.update(brief=d["brief"]["en"] + " {Q}"), "brief: {Q}: no number named 'Q' in vary"),  # English only
        (lambda d: d.update(hints=[*d["hints"], "{B.fx}"]), "hints[3]: {B.fx}: the answer may be shown in the explanation only"),
        (lambda d: d.update(explanation="{B.q}"), "explanation: {B.q}: an answer is NODE.fx, NODE.fy, NODE.F or NODE.m"),
        (lambda d: d.update(explanation="{Z.fx}"), "the level's answer has no fx at node 'Z'"),
        (lambda d: d.update(explanation="{P|loud}"), "explanation: {P|loud}: unknown form 'loud'"),
        (lambda d: d.update(title="Load {P}"), "title: the title names the level for everyone"),
        (lambda d: d["vary"]["set"].update({"nodes.Q.x": "L"}), "vary.set.nodes.Q.x: no nodes with id 'Q'"),
        (lambda d: d["vary"]["set"].update({"loads[0].fy": "-Q"}), "vary.set.loads[0].fy: no number named 'Q' in vary"),
        (lambda d: d["vary"]["set"].update({"loads[3].fy": "-P"}), "vary.set.loads[3].fy: there is no item 3"),
        (lambda d: d["vary"]["set"].update({"loads[0].fy": "-P * (a"}), "vary.set.loads[0].fy: a ')' is missing"),
        (lambda d: d["vary"]["set"].update({"title": "P"}), "vary.set.title: only the level's numbers are set from vary"),
        (lambda d: d["vary"]["numbers"]["P"].update(max=12500), "vary.numbers.P: max − min (8500) is not a whole number of steps of 1000"),
        (lambda d: d["vary"]["numbers"]["P"].update(default=8500), "vary.numbers.P: default 8500 is not one of min, min + step"),
        (lambda d: d["vary"]["numbers"]["P"].update(default=9000), "vary.set.loads[0].fy: the file holds -8000, the default numbers give -9000"),
        (lambda d: d["vary"]["numbers"]["a"].update(max=8), "vary: with the numbers"),  # C on B at a = 8 m = L: a zero-length member
        (lambda d: d.update(vary=None) or d.update(brief="{P}"), "brief: {P}: the level has no numbers of each student's own (no vary block)"),
        (
            lambda d: d["vary"]["set"].update({"materials.steel.E": "(P - 4000) * 5e7"}),  # 2e11 at P = 8 kN, 0 at P = 4 kN
            "A to B = 5 m make a level the format refuses (materials.steel.E: must be at least 1000)",
        ),
    ],
)
def test_validate_names_the_file_and_the_field_of_a_bad_vary(tmp_path, capsys, change, line):
    data = read_json(LEVELS / "reactions-02.json")
    change(data)
    if data.get("vary") is None:
        data.pop("vary")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    # one mistake, one line; without a vary block, one for each placeholder the texts show (each where it is first)
    assert err[0].startswith(f"{path}: ") and line in err[0], err
    if "vary" in data:
        assert len(err) == 1, err
    else:
        assert len(err) == len(set(err)) > 1 and all("(no vary block)" in e for e in err), err


def test_the_shipped_levels_that_vary_validate(capsys):
    assert main(["validate", *(str(LEVELS / f"{i}.json") for i in VARIED)]) == 0


# ---------------------------------------------------------------------------- commands
def test_check_judges_with_the_students_numbers(tmp_path, capsys):
    right = moves_of(hand_answer("reactions-02", version(level("reactions-02"), ONE).numbers))
    unstamped = tmp_path / "work.json"
    unstamped.write_text(json.dumps({"format": 1, "level": "reactions-02", "moves": right}))
    assert main(["check", "reactions-02", "--solution", str(unstamped), "--student", ONE]) == 0
    assert main(["check", "reactions-02", "--solution", str(unstamped), "--student", OTHER]) == 1
    assert main(["check", "reactions-02", "--solution", str(unstamped)]) == 1  # the level's own numbers
    stamped = tmp_path / "stamped.json"
    stamped.write_text(json.dumps({"format": 1, "level": "reactions-02", "student": ONE, "moves": right}))
    assert main(["check", "reactions-02", "--solution", str(stamped), "--student", OTHER]) == 0, "the solution's own stamp comes first"


def test_show_prints_a_students_version_without_its_answer(tmp_path, capsys):
    """The student's copy prints their version, never its answer or explanation: --answers
    is refused without the teacher's key (tests/test_course_key.py gives it one)."""
    assert main(["show", "two-force-01", "--student", ONE]) == 0
    text = capsys.readouterr().out
    assert f"Numbers for student {ONE}: the load at B = 9.1 kN, A to B = 3.8 m" in text
    assert "force at D1" not in text and "Explanation" not in text and "14.4 kN" not in text
    assert main(["show", "two-force-01", "--student", ONE, "--json"]) == 0
    assert not {"answer", "explanation"} & set(json.loads(capsys.readouterr().out))
    assert main(["show", "two-force-01", "--answers"]) == 2  # no key: one line, exit 2, nothing printed
    refused = capsys.readouterr()
    assert not refused.out and refused.err.startswith("--answers: ") and "--key" in refused.err and len(refused.err.splitlines()) == 1
    assert main(["show", "two-force-01", "--student", "  "]) == 2
    assert capsys.readouterr().err.strip() == "--student: student: a student id has at least one letter or digit"


def test_levels_lists_a_students_numbers(capsys):
    assert main(["levels", "--student", ONE]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert "[the load at C = 9 kN, A to C = 1.5 m, A to B = 5.25 m]" in lines["reactions-02"]
    assert "[" not in lines["zero-force-01"], "a level that does not vary lists no numbers"
    assert "[the load at B = " in lines["truss-01"] and lines["truss-01"].split("[")[1] == lines["truss-02"].split("[")[1], "a chain: the same numbers"


def test_grade_judges_each_student_with_their_own_numbers(tmp_path):
    """Each student's answer, worked for their own numbers, unstamped: the grade book
    takes the folder's name as the student id. Swapped, both fail."""
    import csv
    import io

    levels = tmp_path / "levels"
    levels.mkdir()
    (levels / "reactions-02.json").write_text((LEVELS / "reactions-02.json").read_text(encoding="utf-8"), encoding="utf-8")
    lv = level("reactions-02")
    for folder, student, whose in (("class", ONE, ONE), ("class", OTHER, OTHER), ("swapped", ONE, OTHER), ("swapped", OTHER, ONE)):
        moves = moves_of(hand_answer("reactions-02", version(lv, whose).numbers))
        path = tmp_path / folder / student / "reactions-02.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"format": 1, "level": "reactions-02", "moves": moves}))
    for folder, passed in (("class", "true"), ("swapped", "false")):
        out = tmp_path / f"{folder}.csv"
        assert main(["grade", str(levels), str(tmp_path / folder), "--csv", str(out), "--workers", "1"]) == 0
        rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig"))))
        assert [(r["student"], r["student id"], r["passed"]) for r in rows] == [(ONE, ONE, passed), (OTHER, OTHER, passed)]
        assert rows[0]["numbers"] == "the load at C = 9 kN, A to C = 1.5 m, A to B = 5.25 m"


def test_grade_refuses_work_stamped_for_a_classmate(tmp_path):
    """Work copied whole from a classmate carries the classmate's stamp and numbers: the
    grade book judges a student by the numbers of the folder it was handed in as, so the
    copy is refused in its row, the stamp named, never passed as the copier's."""
    import csv
    import io

    levels = tmp_path / "levels"
    levels.mkdir()
    (levels / "reactions-02.json").write_text((LEVELS / "reactions-02.json").read_text(encoding="utf-8"), encoding="utf-8")
    lv = level("reactions-02")
    moves = moves_of(hand_answer("reactions-02", version(lv, ONE).numbers))
    for student in (ONE, OTHER):  # OTHER hands in ONE's stamped work
        path = tmp_path / "class" / student / "reactions-02.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps({"format": 1, "level": "reactions-02", "student": ONE, "moves": moves}))
    out = tmp_path / "out.csv"
    assert main(["grade", str(levels), str(tmp_path / "class"), "--csv", str(out), "--workers", "1"]) == 0
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig")))}
    assert rows[ONE]["passed"] == "true"
    assert rows[OTHER]["passed"] == "false"
    assert f"stamped for student {ONE!r}" in rows[OTHER]["reason"]


def test_show_the_answer_gives_the_students_answer_never_the_level_own():
    from equilibria.work.attempt import Attempt

    drawn = version(level("reactions-02"), ONE)
    shown_moves = {m.node: (m.fx, m.fy) for m in Attempt(drawn).show_answer()}
    for node, force in hand_answer("reactions-02", drawn.numbers).items():
        assert shown_moves[node] == pytest.approx(force, abs=1e-6)
    mine = Attempt(version(level("balance-01"), ONE))  # worked out by the judge's sums for the student's numbers (issue 32): no shipped file
    assert check(level("balance-01"), mine.solution(mine.show_answer())).passed
    assert Attempt(version(level("balance-01"))).show_answer() is not None
