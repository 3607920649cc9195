"""A course file and a teacher's key (issue 32, point 3; game/course/homework.py).

- `course new NAME --levels …` writes NAME.course.json (name, code, levels in order, the
  key's SHA-256 digest; never the secret) and NAME.key.json (the secret); the key is never
  written over without --force; bad names and unknown levels are one line, exit 2.
- The draw hashes the course code (its own tag first); without a course the numbers are
  exactly today's (tests/test_variants.py pins them); two courses give a class different numbers.
- A course or key file that is broken, changed (a code that is not its key's) or the other
  one of the pair is refused in one line naming the file and the field, exit 2.
- `show --answers` needs the key of the course given or opened; the answer it prints is
  that student's, in that course, checked here against hand statics, and passes `check`.
- `course open` keeps the course in the progress: show, levels, the game's draw, the work
  and the hand-in stamp use its code; the menu lists its levels first, and O opens a file.
- `grade --course` grades the course's levels with its numbers and refuses the work of
  another course.

Glossary (reactions-02): P the load at C [N], a the distance A to C [m], L the span A to
B [m]; the roller's surface rises 3 in 4, its normal (−3, 4)/5.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import os
from decimal import Decimal

import pygame
import pytest
from judging import LEVELS

from equilibria.cli.main import main
from equilibria.course import homework
from equilibria.course.level import load_level
from equilibria.course.progress import Progress
from equilibria.files.store import read_json
from equilibria.rules.variants import version

ONE, OTHER = "s1001", "s1002"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def made(tmp_path):
    """A course of three levels: (course file, key file)."""
    code, _out, err = run("course", "new", "Statics 1", "--levels", "particle-01,reactions-02,two-force-01", "-o", tmp_path)
    assert code == 0, err
    return tmp_path / "Statics 1.course.json", tmp_path / "Statics 1.key.json"


def level(level_id: str):
    return load_level(read_json(LEVELS / f"{level_id}.json"))


def spec_numbers(level_id: str, student: str, course: str) -> dict[str, float]:
    """The draw in a course as docs/level-format.md states it, written again here: SHA-256
    of "Equilibria vary 1 course", the code, the level id, the student id (trimmed,
    case-folded) and the number's name, one per line, modulo the count of values."""
    out = {}
    for name, n in read_json(LEVELS / f"{level_id}.json")["vary"]["numbers"].items():
        count = round((n["max"] - n["min"]) / n["step"]) + 1
        text = f"Equilibria vary 1 course\n{course}\n{level_id}\n{student.strip().casefold()}\n{name}"
        k = int.from_bytes(hashlib.sha256(text.encode()).digest(), "big") % count
        out[name] = float(Decimal(str(n["min"])) + k * Decimal(str(n["step"])))
    return out


def reactions_02_by_hand(x: dict[str, float]) -> dict[str, tuple[float, float]]:
    """ΣM_A: B_y·L = P·a; along the roller's normal B_x = −3/4·B_y; ΣFx: A_x = −B_x; ΣFy: A_y = P − B_y."""
    by = x["P"] * x["a"] / x["L"]
    bx = -0.75 * by
    return {"A": (-bx, x["P"] - by), "B": (bx, by)}


# ---------------------------------------------------------------------------- the two files
def test_course_new_writes_a_course_without_its_secret_and_a_key(made):
    course_path, key_path = made
    course, key = read_json(course_path), read_json(key_path)
    assert course["levels"] == ["particle-01", "reactions-02", "two-force-01"] and course["course"] == "Statics 1"
    assert "secret" not in course and key["secret"] not in course_path.read_text(encoding="utf-8")
    assert course["key_sha256"] == hashlib.sha256(key["secret"].encode()).hexdigest()
    assert course["code"] == key["code"] == homework.code_of(course["key_sha256"])
    assert len(bytes.fromhex(key["secret"])) == 32
    if os.name == "posix":
        assert key_path.stat().st_mode & 0o077 == 0, "the key is the teacher's alone"


def test_two_courses_get_two_codes_and_the_key_is_not_written_over(made, tmp_path):
    course_path, key_path = made
    secret = read_json(key_path)["secret"]
    code, out, err = run("course", "new", "Statics 1", "--levels", "particle-01", "-o", tmp_path)
    assert code == 2 and not out and err.count("\n") == 1 and str(key_path) in err and "--force" in err
    assert read_json(key_path)["secret"] == secret
    assert run("course", "new", "Statics 1", "--levels", "particle-01", "-o", tmp_path, "--force")[0] == 0
    assert read_json(key_path)["secret"] != secret and read_json(course_path)["code"] != homework.code_of(hashlib.sha256(secret.encode()).hexdigest())


@pytest.mark.parametrize(
    ("name", "levels", "said"),
    [
        ("Statics 1", "particle-1", "--levels: no level 'particle-1'"),
        ("Statics 1", "particle-01,particle-01", "--levels: 'particle-01' is given twice"),
        ("Statics 1", ",", "--levels: give the homework's level ids"),
        ("a/b", "particle-01", "NAME: a course's name is part of its files' names"),
        (" x", "particle-01", "NAME: a course's name has letters or digits"),
    ],
)
def test_course_new_refuses_bad_input_in_one_line(tmp_path, name, levels, said):
    code, out, err = run("course", "new", name, "--levels", levels, "-o", tmp_path)
    assert code == 2 and not out and err.startswith(said) and err.count("\n") == 1
    assert not list(tmp_path.iterdir()), "nothing written"


# ---------------------------------------------------------------------------- the draw
def test_without_a_course_the_numbers_are_todays_and_a_course_draws_its_own(made):
    code = read_json(made[0])["code"]
    lv = level("reactions-02")
    assert version(lv, ONE).numbers == {"P": 9000.0, "a": 1.5, "L": 5.25}  # the golden draw of test_variants.py
    assert version(lv, ONE, code).numbers == spec_numbers("reactions-02", ONE, code)
    assert version(lv, ONE, code).course == code and version(lv, ONE).course is None


def test_two_courses_give_a_class_different_numbers():
    lv = level("reactions-02")
    one, other = homework.code_of("0" * 64), homework.code_of("1" * 64)
    class_ = [f"s{k}" for k in range(30)]
    same = sum(version(lv, s, one).numbers == version(lv, s, other).numbers for s in class_)
    assert same <= 3, f"{same} of 30 students drew the same numbers in two courses"


# ---------------------------------------------------------------------------- bad files
def changed(path, tmp_path, **fields):
    data = read_json(path)
    data.update(fields)
    for k, v in fields.items():
        if v is None:
            del data[k]
    out = tmp_path / "changed.course.json"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"code": "AAAAA-BBBBB-CCCCC-DDDDD"}, "code: not the code of this course's key"),
        ({"code": "abc"}, "code: a course code has the form ABCDE-FGHIJ-KLMNO-PQRST"),
        ({"key_sha256": "zz"}, "key_sha256: 64 hexadecimal digits"),
        ({"levels": ["particle-01", "nope"]}, "levels[1]: no level 'nope'"),
        ({"levels": []}, "levels: "),
        ({"levels": None}, "levels: "),
        ({"course": "a/b"}, "course: a course's name is part of its files' names"),
        ({"secret": "0" * 64}, "secret: this is the teacher's key, not a course file"),
        ({"extra": 1}, "extra: "),
    ],
)
def test_a_bad_course_file_is_one_line_naming_the_file_and_the_field(made, tmp_path, fields, said):
    bad = changed(made[0], tmp_path, **fields)
    for argv in (("course", "open", bad), ("show", "reactions-02", "--course", bad), ("grade", "--course", bad, tmp_path, "--csv", "-")):
        code, out, err = run(*argv)
        assert code == 2 and not out and err.startswith(f"{bad}: {said}") and err.count("\n") == 1, (argv, err)


def test_a_student_s_own_key_opens_no_course_of_the_class(made, tmp_path):
    """A course file made with a key of the student's own gets another code: its numbers
    are not the class's, and the class's course refuses that key."""
    course_path, _key = made
    assert run("course", "new", "Mine", "--levels", "reactions-02", "-o", tmp_path)[0] == 0
    mine = read_json(tmp_path / "Mine.key.json")
    forged = changed(course_path, tmp_path, key_sha256=hashlib.sha256(mine["secret"].encode()).hexdigest())  # the class's code, the student's digest
    code, _out, err = run("show", "reactions-02", "--course", forged, "--answers", "--key", tmp_path / "Mine.key.json")
    assert code == 2 and "code: not the code of this course's key" in err
    code, out, err = run("show", "reactions-02", "--course", course_path, "--answers", "--key", tmp_path / "Mine.key.json")
    assert code == 2 and not out and err.startswith(f"{tmp_path / 'Mine.key.json'}: not the key of the course Statics 1")


def test_a_bad_key_file_is_one_line(made, tmp_path):
    course_path, key_path = made
    key = read_json(key_path)
    for fields, said in (({"secret": "1" * 64}, "code: not the code of this key's secret"), ({"secret": "xy"}, "secret: 64 hexadecimal digits")):
        bad = tmp_path / "bad.key.json"
        bad.write_text(json.dumps({**key, **fields}), encoding="utf-8")
        code, out, err = run("show", "reactions-02", "--answers", "--key", bad)
        assert code == 2 and not out and err.startswith(f"{bad}: {said}") and err.count("\n") == 1, err
    code, out, err = run("show", "reactions-02", "--answers", "--key", course_path)
    assert code == 2 and err.startswith(f"{course_path}: secret: this is a course file, not the teacher's key")


# ---------------------------------------------------------------------------- the answers
def test_show_answers_needs_the_key_and_gives_the_students_answer_in_the_course(made, tmp_path):
    course_path, key_path = made
    code = read_json(course_path)["code"]
    refused = run("show", "reactions-02", "--student", ONE, "--course", course_path, "--answers")
    assert refused[0] == 2 and not refused[1] and refused[2].startswith("--answers: ")
    ok, out, err = run("show", "reactions-02", "--student", ONE, "--course", course_path, "--answers", "--key", key_path, "--json")
    assert ok == 0, err
    shown = json.loads(out)
    numbers = spec_numbers("reactions-02", ONE, code)
    assert shown["course"] == code and shown["numbers"] == numbers
    assert shown["answer"]["course"] == code and shown["answer"]["student"] == ONE
    hand = reactions_02_by_hand(numbers)
    for move in shown["answer"]["moves"]:
        assert move["fx"] == pytest.approx(hand[move["node"]][0], abs=1e-3) and move["fy"] == pytest.approx(hand[move["node"]][1], abs=1e-3)
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(shown["answer"]), encoding="utf-8")
    assert run("check", "reactions-02", "--solution", answer)[0] == 0  # judged in its course: the stamp says which
    unstamped = tmp_path / "plain.json"
    unstamped.write_text(json.dumps({k: v for k, v in shown["answer"].items() if k not in ("course", "numbers")}), encoding="utf-8")
    assert run("check", "reactions-02", "--solution", unstamped)[0] == 1, "the course's answer is not the answer without the course"
    text = run("show", "reactions-02", "--student", ONE, "--answers", "--key", key_path)[1]  # no course given: the key's own
    assert text.startswith(f"Course Statics 1 (code {code})") and "Answer:" in text and "force at B: Fx = " in text


# ---------------------------------------------------------------------------- opening it
def test_course_open_keeps_the_course_and_everything_draws_in_it(made, tmp_path):
    from equilibria.app.session.play import PlaySession
    from equilibria.app.session.stage import load_stage
    from equilibria.classroom.handin import hand_in

    course_path, _key = made
    code = read_json(course_path)["code"]
    said, out, err = run("course", "open", course_path)
    assert said == 0 and "Course Statics 1 opened" in out and "particle-01, reactions-02, two-force-01" in out, err
    progress = Progress.load()
    assert progress.course.code == code and progress.course.levels == ["particle-01", "reactions-02", "two-force-01"]
    numbers = spec_numbers("reactions-02", ONE, code)
    assert json.loads(run("show", "reactions-02", "--student", ONE, "--json")[1])["numbers"] == numbers
    assert "[the load at C = " in run("levels", "--student", ONE)[1]
    progress.set_student(ONE)
    progress.save()
    session = PlaySession(load_stage(LEVELS / "reactions-02.json"), progress=Progress.load(), fixed=True)
    assert session.stage.level.numbers == numbers and session.stage.level.course == code
    work = session.bench.attempt.solution()  # what the progress keeps and Ctrl+E hands in
    assert work.course == code and work.student == ONE
    hand_in(work, ONE, tmp_path / "hand-in.json")
    assert read_json(tmp_path / "hand-in.json")["course"] == code


def test_check_student_on_an_unstamped_solution_draws_in_the_course_opened(made, tmp_path):
    """`check --student` on an unstamped solution judged it with the numbers of no course,
    though the student had opened one (show and levels drew in it): the answer worked for
    the student's own numbers failed, the one for numbers they never saw passed."""
    course_path, _key = made
    code = read_json(course_path)["code"]
    assert run("course", "open", course_path)[0] == 0
    lv = level("reactions-02")
    for whose, passes in ((version(lv, ONE, code), 0), (version(lv, ONE), 1)):
        moves = [{"type": "add_force", "node": n, "fx": fx, "fy": fy} for n, (fx, fy) in reactions_02_by_hand(whose.numbers).items()]
        path = tmp_path / f"unstamped-{passes}.json"
        path.write_text(json.dumps({"format": 1, "level": "reactions-02", "moves": moves}))
        said, out, err = run("check", "reactions-02", "--solution", path, "--student", ONE)
        assert said == passes, (whose.numbers, out, err)


# ---------------------------------------------------------------------------- grading
def test_grade_course_grades_its_levels_with_its_numbers_and_refuses_another_course(made, tmp_path):
    course_path, key_path = made
    assert run("course", "new", "Other", "--levels", "reactions-02", "-o", tmp_path)[0] == 0
    folder = tmp_path / "class"
    for student, course, key in ((ONE, course_path, key_path), (OTHER, tmp_path / "Other.course.json", tmp_path / "Other.key.json")):
        out = run("show", "reactions-02", "--student", student, "--course", course, "--answers", "--key", key, "--json")[1]
        (folder / student).mkdir(parents=True)
        (folder / student / "reactions-02.json").write_text(json.dumps(json.loads(out)["answer"]), encoding="utf-8")
    code, out, err = run("grade", "--course", course_path, folder, "--csv", tmp_path / "out.csv", "--workers", "1")
    assert code == 0, err
    rows = {(r["student"], r["level"]): r for r in csv.DictReader(io.StringIO((tmp_path / "out.csv").read_text(encoding="utf-8-sig")))}
    assert [lv for s, lv in rows if s == ONE] == ["particle-01", "reactions-02", "two-force-01"]  # the course's levels, in its order
    assert rows[ONE, "reactions-02"]["passed"] == "true"
    other = rows[OTHER, "reactions-02"]
    assert other["passed"] == "false" and "this work was done in another course" in other["reason"]
    assert run("grade", "reactions-02", folder, "--course", course_path, "--csv", "-")[0] == 2
    code, _out, err = run("grade", folder, "--csv", "-")
    assert code == 2 and err.startswith("grade: no level to grade: ")


# ---------------------------------------------------------------------------- the menu
def test_the_menu_lists_the_homework_first_and_o_opens_a_course_file(made, tmp_path, monkeypatch):
    from equilibria.app.scenes.menu import MenuScene
    from equilibria.app.session.pacing import FRAME
    from equilibria.app.widgets import coursebox
    from equilibria.app.window.app import App

    course_path, _key = made
    monkeypatch.setattr(coursebox, "course_files_found", lambda places=None: [course_path])  # as if saved in Downloads
    progress = Progress.load()
    with App(fixed_frame=FRAME) as app:
        scene = MenuScene(app, progress=progress)
        app.push(scene)
        app.frame()
        assert not scene.levels.rows[0].text.startswith("Homework")
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_o, mod=0, unicode="o"))
        app.frame()
        assert scene.course_file.shown and scene.course_file.box.text == str(course_path)
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        app.frame()
        assert not scene.course_file.shown
        rows = scene.levels.rows
        assert rows[0].text == "Homework: Statics 1" and [r.level_id for r in rows[1:4]] == ["particle-01", "reactions-02", "two-force-01"]
        assert scene.levels.selected == 1
    assert Progress.load().course.course == "Statics 1"


def test_the_course_box_names_a_bad_file_and_esc_leaves_the_course(made, tmp_path):
    from equilibria.app.widgets.coursebox import CourseBox

    closed = []
    progress = Progress.load()
    box = CourseBox(progress, closed.append, found=[])
    for ch in str(made[1]):  # the key, by mistake
        box.handle_event(pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=ch))
    box.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    assert not closed and box.problem.startswith(f"{made[1]}: secret: this is the teacher's key")
    box.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
    assert closed == [False] and progress.course is None
