"""The student's copy holds no answers (issue 32, point 1).

- The wheel ships no reference solution (pyproject.toml: levels/solutions/ stays in the
  repository and the sdist; .ci/installed checks the built wheel), and `levels --json`
  names none.
- Every graded level is opened with a wrong answer (every force and moment the student
  gives 37 % too large; nothing marked; half a design), in the play scene (hovered,
  run, the diagrams and W's resultants asked for) and in the commands a student runs
  (`check`, `check --json`, `show`, `levels --json`; `show --answers` without the
  teacher's key is refused); none of the quantities the level
  asks for (each unknown of a free body, each force a section cuts, the forces that
  balance a body) nor a distributed load's resultant appears in what is drawn or
  printed, and a failed `check --json` holds only the figures the level's kind allows
  (Kind.figures_before_pass).
- "Show the answer" still draws an answer that passes, worked out from the judge's own
  figures: it reads no reference file.

A quantity is found in a text as a number followed by a force's unit (kN, N, kN·m, N·m),
within 0.5 % of the quantity in that unit; a number the brief itself gives (a load, the
level's own statement of a step) or a given point load's part or size does not count.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from equilibria.cli.main import main
from equilibria.course.level import load_level
from equilibria.course.syllabus import shipped_level
from equilibria.engine.member_loads import frame, resultant
from equilibria.engine.model import build_model
from equilibria.files.store import read_json
from equilibria.format.solution import AddForce, AddMoment, CutMember, RemoveMember, Solution
from equilibria.rules.answer import solve_values
from equilibria.rules.judge import check
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import version
from equilibria.rules.zero_force import member_forces_at_equilibrium
from equilibria.work.attempt import Attempt
from tests.test_no_answer_on_screen import graded, look_everywhere, recording_app, wrong_moves

TOP = Path(__file__).resolve().parents[1]
QUANTITY = re.compile(r"([−+-]?\d+(?:[.,]\d+)*)\s*(kN·m|N·m|kN|N)(?![a-zA-Z])")


def level_of(level_id: str):
    return load_level(read_json(shipped_level(level_id)))


def asked(level) -> list[float]:
    """What the level asks for and its work's first step, in newtons (and N m): each
    unknown of the cuts, each member force (a section), the balancing forces' parts and
    sizes, and each distributed load's resultant."""
    kind = KINDS[level.kind]
    out: list[float] = []
    if level.cut:
        out += [v for _u, v in solve_values(level) or []]
    if kind.name == "section":
        out += list(member_forces_at_equilibrium(level).values())
    if kind.answer is not None and kind.hides_sums_until_passed:
        for m in kind.answer(level) or []:
            if isinstance(m, AddForce):
                out += [m.fx, m.fy, float(np.hypot(m.fx, m.fy))]
    model = build_model(level.model_data(), statics_only=True)
    pos = model.arrays.pos0[:, :2]
    for ml in getattr(model, "member_loads", []) or []:
        out.append(resultant(ml.wi, ml.wj, frame(pos[ml.i], pos[ml.j])[0])[0])
    return [abs(v) for v in out if abs(v) > 1e-6]


def numbers_said(text: str) -> list[float]:
    """Every force or moment a text states, in N (and N m)."""
    found = []
    for number, unit in QUANTITY.findall(text):
        plain = number.replace("−", "-").replace(",", "") if "." in number else number.replace("−", "-").replace(",", ".")
        try:
            value = float(plain)
        except ValueError:
            continue
        found.append(abs(value) * (1e3 if unit.startswith("k") else 1.0))
    return found


def given(level) -> list[float]:
    """The numbers the brief gives and the given point loads' parts and sizes (drawn as
    arrows; the legend's scale may be the largest): a student reads them anyway."""
    loads = [abs(v) for load in level.loads for v in (load.fx, load.fy, load.m, float(np.hypot(load.fx, load.fy)))]
    return numbers_said(level.brief) + loads


def found_in(texts: list[str], level) -> list[str]:
    """The texts that state an asked-for quantity the brief does not give."""
    wanted = [q for q in asked(level) if not any(abs(q - g) <= 5e-3 * q for g in given(level))]
    return [t for t in texts for v in numbers_said(t) if any(abs(v - q) <= 5e-3 * q for q in wanted)]


def bigger(moves: list) -> list:
    """Every force, moment and member force the student gives 37 % too large: wrong, and
    never the answer itself (what a student types is theirs to see)."""
    out = []
    for m in moves:
        if isinstance(m, AddForce):
            m = m.model_copy(update={"fx": m.fx * 1.37 + 1.0, "fy": m.fy * 1.37 + 1.0})
        elif isinstance(m, AddMoment):
            m = m.model_copy(update={"m": m.m * 1.37 + 1.0})
        elif isinstance(m, CutMember) and m.force is not None:
            m = m.model_copy(update={"force": m.force * 1.37 + 1.0})
        out.append(m)
    return out


def wrong_answer(level_id: str) -> list:
    level = level_of(level_id)
    kind = KINDS[level.kind]
    if kind.hides_sums_until_passed and kind.answer is not None and kind.answer(level.drawn(0 if level.load_choices() else None)):
        return bigger(kind.answer(level.drawn(0 if level.load_choices() else None)))
    if level.player.mode == "remove":  # a member the truss needs taken out
        needed = {m.member for m in kind.answer(level) or []}
        return [RemoveMember(type="remove_member", member=next(m.id for m in level.members if m.id not in needed))]
    return wrong_moves(level_id, kind)


def run_command(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue() + err.getvalue()


def test_the_wheel_ships_no_reference_solutions():
    config = tomllib.loads((TOP / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert not any("solutions" in p for p in config["packages"])
    assert not any("solutions" in k for k in config.get("package-data", {}))
    assert "solutions/*" in config["exclude-package-data"]["equilibria.levels"]
    assert "graft levels" in (TOP / "MANIFEST.in").read_text(encoding="utf-8")  # the sdist keeps them, for the tests and the teacher
    ci = (TOP / ".ci" / "installed").read_text(encoding="utf-8")
    assert "equilibria/levels/solutions/" in ci and "r['solution']" not in ci


def test_levels_json_names_no_reference_solution():
    code, said = run_command("levels", "--json")
    rows = json.loads(said)
    assert code == 0 and rows and all("solution" not in row for row in rows)
    assert "solutions" not in said


@pytest.mark.parametrize("level_id", graded())
def test_a_wrong_answer_prints_no_asked_for_quantity(level_id, tmp_path):
    level = level_of(level_id)
    kind = KINDS[level.kind]
    draw = 0 if level.load_choices() else None
    moves = wrong_answer(level_id)
    solution = Solution(format=1, level=level_id, draw=draw, moves=moves)
    assert not check(level, solution).passed, "the wrong answer passed: it tests nothing"
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(solution.model_dump(mode="json", exclude_none=True)), encoding="utf-8")
    code, said = run_command("check", level_id, "--solution", str(path), "--json")
    assert code == 1
    out = json.loads(said)
    if kind.figures_before_pass is not None:
        assert set(out) - {"passed", "reason", "judged_by", "hints"} <= kind.figures_before_pass
        assert set(out.get("tolerance", {})) <= {"fraction", "floor", "unknown_floor"}  # constants of the rule, no size
        assert "net_force" not in out and "net_moment" not in out
    yours = [r.pop("yours") for r in out.get("unknowns", [])]  # the student's own numbers, as typed
    out.pop("hints", None), out.pop("hint", None)  # the level's own words, given one by one after failures
    figures = [f"{v} N" for v in _numbers_in(out) if not any(abs(v - abs(y)) <= 1e-9 for y in yours)]
    texts = [out["reason"], *figures, run_command("check", level_id, "--solution", str(path))[1].split("Hint")[0]]  # before the level's own hints
    assert not found_in(texts, level)
    for student in ((), ("--student", "s1001")):  # show: the student's version (its brief and hints), never its answer or explanation
        code, shown = run_command("show", level_id, *student)
        drawn = level if not student else version(level, "s1001")
        assert code == 0 and "Answer:" not in shown and "Explanation" not in shown
        assert not drawn.explanation or drawn.explanation not in shown
        code, shown = run_command("show", level_id, *student, "--json")
        assert code == 0 and not {"answer", "explanation"} & set(json.loads(shown))
        code, shown = run_command("show", level_id, *student, "--answers")  # the answer only with the course's key (test_course_key.py)
        assert code == 2 and shown.startswith("--answers: ") and "Answer:" not in shown and not found_in([shown], drawn)


def _numbers_in(value) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [abs(float(value))]
    if isinstance(value, dict):
        return [v for x in value.values() for v in _numbers_in(x)]
    if isinstance(value, list):
        return [v for x in value for v in _numbers_in(x)]
    return []


@pytest.mark.parametrize("level_id", [i for i in graded() if KINDS[read_json(shipped_level(i))["kind"]].hides_sums_until_passed])
def test_the_play_screen_draws_no_asked_for_quantity_before_a_pass(level_id, drawn):
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.stage import load_stage
    from equilibria.work.workbench import LevelBench
    from tests.drawing import texts

    stage = load_stage(shipped_level(level_id))
    bench = LevelBench(stage.level, Attempt(stage.level, wrong_answer(level_id), draw=0 if stage.level.load_choices() else None))
    app, said = recording_app()
    scene = PlayScene(app, stage, bench=bench)
    app.push(scene)
    app.run(2)
    scene.picture.resultants = True  # W: asked for
    look_everywhere(app, scene)
    scene.check()
    app.run(3)
    assert not scene.session.passed
    shown = [t for t, _colour in said] + texts(drawn)
    assert not found_in(shown, stage.level)
    app.close()


def test_the_screen_test_sees_a_resultant_and_a_scale_that_is_the_total_load(drawn, monkeypatch):
    """What the test above looks for is what the screen drew before: W's resultant on
    beam-05 and beam-01's "= 16 kN: one scale", when the kind allows them."""
    import dataclasses

    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.stage import load_stage
    from equilibria.work.workbench import LevelBench

    free_body = KINDS["free_body"]
    monkeypatch.setitem(KINDS, "free_body", dataclasses.replace(free_body, resultants_before_pass=True))
    for level_id in ("beam-01", "beam-05"):
        stage = load_stage(shipped_level(level_id))
        bench = LevelBench(stage.level, Attempt(stage.level, wrong_answer(level_id)))
        app, said = recording_app()
        scene = PlayScene(app, stage, bench=bench)
        app.push(scene)
        scene.picture.resultants = True
        app.run(3)
        assert found_in([t for t, _colour in said], stage.level), level_id
        app.close()


@pytest.mark.parametrize("level_id", [i for i in graded() if KINDS[read_json(shipped_level(i))["kind"]].answer is not None])
def test_show_the_answer_comes_from_the_judge_and_passes(level_id, monkeypatch):
    import equilibria.course.syllabus as syllabus

    monkeypatch.setattr(syllabus, "reference_solution", lambda *_a: pytest.fail("show the answer read a reference file"))
    level = level_of(level_id)
    attempt = Attempt(level, draw=0 if level.load_choices() else None)
    moves = attempt.show_answer()
    if moves is None:  # a kind with an answer may find none for a level (friction takes a share): the explanation stands
        assert level.kind == "balance"
        return
    assert attempt.marks == 0 and attempt.shown
    assert check(level, attempt.solution(moves)).passed


HIDING = [i for i in graded() if (lambda k: k.hides_forces_until_checked or k.hides_sums_until_passed)(KINDS[read_json(shipped_level(i))["kind"]])]


@pytest.mark.parametrize("level_id", HIDING)
def test_simulate_runs_a_level_whose_forces_are_its_answer_only_after_a_pass(level_id, tmp_path, monkeypatch):
    """`simulate LEVEL` printed every member force and reaction: a zero-force puzzle's
    zero members and a section's cut forces, one command away. Before a pass (or a shown
    answer) it is refused in one line, as `method` is; after one it runs."""
    from equilibria.course.progress import Progress

    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    for how in ((), ("--integrator", "linear", "--json"), ("--integrator", "relax", "--load-factors", "0.5,1")):
        code, said = run_command("simulate", level_id, *how)
        assert code == 2 and said.count("\n") == 1 and "after a pass" in said, said
        assert "N = " not in said and "fy = " not in said  # no member force, no reaction
    progress = Progress.load()
    progress.record_check(level_id, True, 100, 1, hints=0, passed_at=1)
    progress.save()
    code, said = run_command("simulate", level_id, "--seconds", "0.02")
    assert code in (0, 1) and " N = " in said, said  # it ran (1: a free body alone is a mechanism, it falls)


@pytest.mark.parametrize("level_id", HIDING)
def test_a_sandbox_made_of_a_level_whose_forces_are_its_answer_opens_only_after_a_pass(level_id, tmp_path, monkeypatch):
    """`sandbox LEVEL` drew every member force of the level with no goal: a zero-force
    puzzle's answer at a glance, its supports and reactions for a free body. Before a pass
    (or a shown answer) it is refused in one line, as `simulate` is; a copy of the file
    under another id is refused too (that id has no pass either)."""
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    code, said = run_command("sandbox", level_id, "--frames", "1")
    assert code == 2 and said.count("\n") == 1 and "after a pass" in said and said.startswith(level_id), said
    copy = tmp_path / "mine.json"
    copy.write_text(json.dumps(read_json(shipped_level(level_id)) | {"id": "mine-01"}), encoding="utf-8")
    code, said = run_command("sandbox", str(copy), "--frames", "1")
    assert code == 2 and said.startswith("mine-01:"), said


def test_after_a_pass_the_sandbox_of_the_level_opens(tmp_path, monkeypatch):
    from equilibria.course.progress import Progress

    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    progress = Progress.load()
    progress.record_check("zero-force-02", True, 100, 1, hints=0, passed_at=1)
    progress.save()
    assert run_command("sandbox", "zero-force-02", "--frames", "2") == (0, "")
    assert run_command("sandbox", "bridge-01", "--frames", "2") == (0, "")  # a build level hides nothing: always
