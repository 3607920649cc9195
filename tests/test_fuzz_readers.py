"""Every reader fed hostile JSON (issue 36 point 2): levels, solutions, hand-ins, sandbox
designs, models, progress, course files, keys, rosters and the teacher's folder, each
given a good file of its kind with one part made hostile by hypothesis: a value replaced,
a key added or a whole file written in place. The hostile parts are what broke readers
before: whole numbers past Python's 4,300 digits, numbers past a float (1e999, NaN),
half characters (lone surrogates), control characters, long strings and keys, deep
nesting, and every JSON type where another is expected ("0" for 0 among them).

What each must do, whatever it is given: a command ends in exit 0, 1 (a verdict) or 2
(bad input, with one line on standard error naming the file), never 3 (an unexpected
error) and never a traceback; `grade` gives the student a row with a one-line reason;
a library reader returns or raises BadInput in one line; no line echoes more than a
bounded part of what it was given; no control character reaches the terminal; and
nothing already saved is lost: the file read is as it was, and a progress file that
cannot be read is kept aside byte for byte.

The budget is bounded (`BUDGET` examples a reader, derandomised: the same examples on
every run), so the whole file runs in seconds with the engine warm."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hostile import quiet
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from judging import answer_for

from equilibria.classroom.roster import read_roster
from equilibria.cli.main import main
from equilibria.course.homework import read_course, read_key
from equilibria.course.progress import Progress
from equilibria.course.teacher import teacher_levels
from equilibria.files.store import BadInput

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ROOT / "levels"
CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")  # what must never reach a terminal
LONGEST_LINE = 2_000  # characters: a path, a field's name and what is wrong, each name cut to 60
BUDGET = 100  # examples a reader


def fuzzed(budget: int = BUDGET) -> settings:
    return settings(
        max_examples=budget,
        deadline=None,
        derandomize=True,
        database=None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# ---------------------------------------------------------------------- hostile JSON, as text
def _string(text: str) -> str:
    return json.dumps(text)


LEAVES = st.one_of(
    st.integers(4_301, 6_000).map(lambda n: "7" * n),  # past Python's int(): a ValueError once
    st.integers(4_301, 6_000).map(lambda n: "-" + "1" * n),
    st.integers(310, 4_300).map(lambda n: "9" * n),  # an int no float holds
    st.sampled_from(["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1e-999", "0", "-0", "-1", "1.5", "2e9", "1e308"]),
    st.sampled_from(['"\\ud83d"', '"Bridge \\udc00 x"', '"\\ud800\\ud800"', '"\\udfff"']),  # half characters
    st.sampled_from(['"\\u001b[2J\\u001b]0;owned\\u0007"', '"\\r\\n\\t\\u0000"', '"\\u0085\\u009b"', '"a\\u0000b"']),
    st.integers(61, 100_000).map(lambda n: _string("k" * n)),  # a long string
    st.sampled_from(['"0"', '"1"', '"1e3"', '""', '" "', "true", "false", "null", "[]", "{}", '{"a": 1}', "[1, 2]", "[[0, 0]]"]),
    st.integers(2, 120_000).map(lambda d: "[" * d + "]" * d),  # deep nesting, past the parser's depth too
    st.integers(2, 60_000).map(lambda d: '{"a": ' * d + "1" + "}" * d),
    st.text(max_size=40).map(_string),  # any text: surrogates, controls, emoji
)
KEYS = st.one_of(st.text(max_size=20), st.integers(61, 50_000).map(lambda n: "K" * n), st.sampled_from(["\ud83d", "\x1b[2J", "id", "format", ""]))
HOLE = "\u0000HOLE\u0000"  # a placeholder string no file of ours holds


def _paths(value, where=()) -> list[tuple]:
    """Every path to a value inside `value` (objects' values and lists' items), the root included."""
    out = [where]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*where, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            out += _paths(item, (*where, k))
    return out


def _with(value, where: tuple, new):
    if not where:
        return new
    head, rest = where[0], where[1:]
    if isinstance(value, dict):
        return {**value, head: _with(value[head], rest, new)}
    return [*value[:head], _with(value[head], rest, new), *value[head + 1 :]]


@st.composite
def hostile(draw, base):
    """The text of `base` (a JSON value) with one hostile part: a value at any path
    replaced, a key added to an object, or the whole file one hostile value."""
    how = draw(st.sampled_from(["replace", "replace", "replace", "add", "whole"]))
    leaf = draw(LEAVES)
    if how == "whole":
        return leaf
    paths = _paths(base)
    if how == "add":
        objects = [p for p in paths if isinstance(_at(base, p), dict)]
        where = draw(st.sampled_from(objects))
        key = draw(KEYS)
        changed = _with(base, where, {**_at(base, where), key: HOLE})
    else:
        where = draw(st.sampled_from(paths))
        changed = _with(base, where, HOLE)
    return json.dumps(changed).replace(json.dumps(HOLE), leaf, 1)


def _at(value, where: tuple):
    for part in where:
        value = value[part]
    return value


def _load(name: str) -> dict:
    return json.loads((LEVELS / name).read_text(encoding="utf-8"))


LEVEL = _load("tutorial-01.json")
BUILD = _load("tutorial-04.json")
SOLUTION = _load("solutions/tutorial-01.json")
HAND_IN = {**SOLUTION, "student": "ann", "record": {"tries": 1, "passed_at": 1, "marks": 100, "hints": 0}}
MODEL = json.loads((ROOT / "tests" / "corpus" / "models" / "good.json").read_text(encoding="utf-8"))
PROGRESS = {"format": 1, "student": "ann", "levels": {"tutorial-01": {"won": True, "marks": 100, "tries": 1}}, "last_level": "tutorial-01"}


# ---------------------------------------------------------------------- what every reader must do
def said_well(code: int, out: str, err: str, path: Path, allowed: tuple[int, ...], *, each: bool = False) -> None:
    """A command's ending: an allowed exit, never an unexpected error; bad input is one
    bounded line naming the file (`each`: one such line per problem, as `validate` says
    them); nothing a terminal would obey."""
    assert code in allowed and code != 3, (code, err[:500])
    assert "Traceback" not in err
    if code == 2:
        lines = err.splitlines()
        assert err.endswith("\n") and (len(lines) == 1 or each) and len(lines) <= 50, err[:500]
        assert all(line.startswith(f"{path}: ") and len(line) < LONGEST_LINE for line in lines), err[:500]
    assert not CONTROLS.search(out.replace("\n", "") + err.replace("\n", "")), (out[:300], err[:300])


def one_line(exc: BadInput) -> None:
    said = str(exc)
    assert "\n" not in said and len(said) < LONGEST_LINE and not CONTROLS.search(said), said[:500]


class Folder:
    """A throw-away folder of its own for each example (hypothesis runs many in one test)."""

    def __enter__(self) -> Path:
        self.path = Path(tempfile.mkdtemp(prefix="fuzz-"))
        return self.path

    def __exit__(self, *_) -> None:
        shutil.rmtree(self.path, ignore_errors=True)


def _run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    err = quiet(err)  # without a cold cache's one notice
    return code, out, err


# ---------------------------------------------------------------------- the readers
@fuzzed()
@given(text=hostile(LEVEL))
def test_a_hostile_level_is_refused_in_one_line_by_validate_check_and_the_teachers_folder(text, capsys, monkeypatch):
    with Folder() as home:
        monkeypatch.setenv("EQUILIBRIA_HOME", str(home))
        folder = home / "levels"
        folder.mkdir()
        path = folder / "level.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        before = path.read_bytes()
        said_well(*_run(capsys, "validate", path), path, (0, 2), each=True)
        said_well(*_run(capsys, "check", path), path, (0, 1, 2))
        for found in teacher_levels(folder):
            assert "\n" not in found.problem and len(found.problem) < LONGEST_LINE
        assert path.read_bytes() == before


@fuzzed(30)
@given(text=hostile(BUILD))
def test_a_hostile_design_is_refused_in_one_line_by_the_sandbox(text, capsys):
    with Folder() as folder:
        path = folder / "design.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        before = path.read_bytes()
        said_well(*_run(capsys, "sandbox", path, "--frames", "1"), path, (0, 2))
        assert path.read_bytes() == before


@fuzzed()
@given(text=hostile(SOLUTION))
def test_a_hostile_solution_is_refused_in_one_line_by_check(text, capsys):
    with Folder() as folder:
        path = folder / "tutorial-01.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        before = path.read_bytes()
        said_well(*_run(capsys, "check", "tutorial-01", "--solution", path), path, (0, 1, 2))
        assert path.read_bytes() == before


@fuzzed(30)
@given(text=hostile(HAND_IN))
def test_a_hostile_hand_in_is_its_students_row_and_the_class_is_graded(text, capsys):
    with Folder() as folder:
        cls = folder / "class"
        (cls / "ann").mkdir(parents=True)
        (cls / "bob").mkdir()
        path = cls / "ann" / "tutorial-01.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        (cls / "bob" / "tutorial-01.json").write_text(json.dumps(answer_for("tutorial-01", "bob", stamped=False)), encoding="utf-8")  # bob's own numbers
        before = path.read_bytes()
        code, out, err = _run(capsys, "grade", "tutorial-01", cls, "--csv", "-", "--workers", "1")
        assert code == 0, err[:500]
        rows = {r["student"]: r for r in csv.DictReader(io.StringIO(out.lstrip("\ufeff"))) if r.get("level") == "tutorial-01"}
        assert rows["bob"]["passed"] == "true" and "ann" in rows, out[:500]
        assert "\n" not in rows["ann"]["reason"] and len(rows["ann"]["reason"]) < LONGEST_LINE
        assert not CONTROLS.search(out.replace("\n", "").replace("\r", "")), out[:300]
        assert path.read_bytes() == before


@fuzzed()
@example(text=json.dumps(MODEL).replace('"y": 2', '"y": ' + "9" * 400, 1))  # past a float: an OverflowError once, found by this test
@example(text=json.dumps(MODEL).replace('"id": "A"', '"id": ' + "[" * 5_000 + "]" * 5_000, 1))  # a 10,000-character line once
@given(text=hostile(MODEL))
def test_a_hostile_model_is_refused_in_one_line_by_simulate(text, capsys):
    with Folder() as folder:
        path = folder / "model.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        said_well(*_run(capsys, "simulate", path, "--seconds", "0.01", "--json"), path, (0, 1, 2))


@fuzzed()
@given(text=hostile(PROGRESS))
def test_a_hostile_progress_file_is_read_or_kept_aside_whole_and_the_game_saves(text):
    with Folder() as folder:
        path = folder / "progress.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        before = path.read_bytes()
        progress = Progress.load(folder)
        if progress.problem:
            assert "\n" not in progress.problem and len(progress.problem) < LONGEST_LINE, progress.problem[:500]
        kept = [p for p in folder.iterdir() if p.name.startswith("progress.") and p.suffix == ".json"]
        assert any(p.read_bytes() == before for p in kept), "the file read is neither there nor kept aside"
        progress.record_check("tutorial-02", True, 90, 1)
        progress.save()
        assert any(p.read_bytes() == before for p in folder.iterdir() if p.name != "progress.json") or Progress.load(folder).marks("tutorial-02") == 90


@fuzzed()
@given(data=st.data())
def test_a_hostile_course_file_or_key_is_one_line(data):
    from equilibria.course.homework import make_course
    from equilibria.course.syllabus import known_level_ids

    with Folder() as folder:
        course_path, key_path, _ = make_course("Statics", ["tutorial-01"], folder, known_level_ids())
        which = data.draw(st.sampled_from([course_path, key_path]))
        text = data.draw(hostile(json.loads(which.read_text(encoding="utf-8"))))
        which.write_text(text, encoding="utf-8", errors="surrogatepass")
        for read in (lambda p: read_course(p, known_level_ids()), read_key):
            try:
                read(which)
            except BadInput as exc:
                one_line(exc)


@fuzzed()
@example(names=["K" * 140_000], suffix=".csv")  # past csv's field size limit: a csv.Error once, found by this test
@given(names=st.lists(st.one_of(st.text(max_size=30), KEYS, LEAVES), max_size=6), suffix=st.sampled_from([".txt", ".csv"]))
def test_a_hostile_roster_is_its_names_or_one_line(names, suffix):
    with Folder() as folder:
        path = folder / f"roster{suffix}"
        path.write_text("\n".join(names), encoding="utf-8", errors="surrogatepass")
        try:
            roster = read_roster(path)
        except BadInput as exc:
            one_line(exc)
            return
        assert roster.students and all(isinstance(s, str) and s == s.strip() for s in roster.students)


@pytest.mark.parametrize("reader", ["level", "solution"])
def test_the_fuzzer_makes_what_broke_the_readers(reader):
    """The strategies reach the cases of issue 36 (so a pass is no empty promise)."""
    base = LEVEL if reader == "level" else SOLUTION
    seen = set()

    @fuzzed(200)
    @given(text=hostile(base))
    def look(text):
        seen.add("long" if re.search(r"\d{4301}", text) else "half" if re.search(r"\\u[dD][89a-fA-F]", text) else "deep" if "[[[[[[" in text else "other")

    look()
    assert seen >= {"long", "half", "deep", "other"}
