"""Nothing grows faster than the structure (issue 23, point 5), counted, never timed:
the names the words on the screen mention are found in one scan of the words, whatever
the number of ids; one edit of a level makes its design once and searches its stiffness
for a mechanism once."""

import json
import re

import pytest

import equilibria.app.session.stage as stage_module
import equilibria.engine.linear
import equilibria.work.workbench
from benchmarks.frames import lattice_design
from equilibria.app.launch import bench_of_solution
from equilibria.app.session.play import PlaySession
from equilibria.app.session.stage import load_stage, named_in
from equilibria.course.syllabus import level_path, reference_solution
from equilibria.format.solution import AddMember


class CountingRe:
    """The `re` module, counting the calls that compile or use a pattern."""

    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        thing = getattr(re, name)
        if name in ("compile", "finditer", "search", "match", "fullmatch", "findall", "sub"):

            def counted(*args, **kwargs):
                self.calls += 1
                return thing(*args, **kwargs)

            return counted
        return thing


def _ids(n: int) -> list[str]:
    return [f"N{k}" for k in range(1, n + 1)] + [f"M{k}" for k in range(1, 2 * n + 1)]


def test_the_words_are_scanned_once_whatever_the_number_of_ids(monkeypatch):
    """The old code compiled a pattern for every id, once per id (n² patterns): the count
    of pattern calls now stays the same from 100 to 2,000 nodes."""
    words = "Member M5 is the most loaded; node N7 moves. A truss holds."
    counts = []
    for n in (100, 2000):
        counting = CountingRe()
        monkeypatch.setattr(stage_module, "re", counting)
        assert named_in(words, _ids(n)) == {"M5", "N7"}
        counts.append(counting.calls)
    assert counts[0] == counts[1] <= 2  # the article check of "A" at most, beside the one compiled scan


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("A truss is a structure.", set()),  # the article starting a sentence
        ("The load at A is 3 kN. A acts down.", {"A"}),  # A before no lower-case word: the node
        ("node A carries it", {"A"}),
        ("Members AB-1 and AB are named; ABC is not an id.", {"AB"}),  # AB-1 is one word, not AB
        ("a beam and a node", set()),  # "a" is always the article
        ("see N 1 and N1.", {"N1", "N 1"}),  # an id with a space is looked for on its own
    ],
)
def test_what_the_words_name(text, named):
    assert named_in(text, ["A", "AB", "a", "N1", "N 1"]) == named


def test_a_picture_of_a_large_design_finds_its_names_in_one_scan(monkeypatch, tmp_path):
    """Picture.names at 2,000 members: named_in once per text, not once per id."""
    pytest.importorskip("pygame")
    import equilibria.app.widgets.picture as picture_module
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.window.app import App

    path = tmp_path / "lattice.json"
    path.write_text(json.dumps(lattice_design(2000)))
    calls = []
    monkeypatch.setattr(picture_module, "named_in", lambda text, ids: calls.append(len(ids)) or named_in(text, ids))
    with App() as app:
        scene = PlayScene(app, load_stage(path, sandbox=True))
        scene.session.notice = "Member M5 and node N7 are named here."
        names = scene.picture.names()
        assert scene.picture.names() == names  # the second look reads what the first found
    assert len(calls) == 1 and calls[0] > 2000
    assert {"M5", "N7"} <= set(names)


def _bridge_one_member_short():
    stage = load_stage(level_path("bridge-01"))
    bench = bench_of_solution(stage, str(reference_solution("bridge-01")))
    last = [m for m in bench.moves if isinstance(m, AddMember)][-1]
    bench.attempt.moves = [m for m in bench.moves if m is not last]
    return stage, bench, last


def test_one_edit_makes_its_design_once_and_searches_for_a_mechanism_once(monkeypatch):
    """An edit of a build level, then the frame that builds the model again and shows the
    cost and the rules: the design is made once (it was 10 times) and the stiffness
    searched for a free motion once (the session's own search and the static solve's
    were two)."""
    stage, bench, last = _bridge_one_member_short()
    session = PlaySession(stage, bench=bench, fixed=True)
    designs, searches = [], []
    real_design, real_find = equilibria.work.workbench.design, equilibria.engine.linear.find_mechanism
    monkeypatch.setattr(equilibria.work.workbench, "design", lambda *a: designs.append(1) or real_design(*a))
    monkeypatch.setattr(equilibria.engine.linear, "find_mechanism", lambda *a: searches.append(1) or real_find(*a))
    session.edit(bench.add_member, last.i, last.j, last.section)
    session.tick(1 / 60)
    for _ in range(3):  # what a frame asks: the cost, the rules, the model, a click's node
        bench.cost(), bench.rule_broken(), bench.structure(), bench.node_near(0.0, 0.0, 1.0), bench.position(last.i)
        session.tick(1 / 60)
    assert session.notice == "" and not session.stale
    assert len(designs) == 1
    assert len(searches) == 1
    assert bench.cost() == pytest.approx(real_design(bench.level, bench.attempt.solution()).cost)  # the kept design is the work's


def test_undo_makes_the_design_again():
    """The design kept is the one of the moves as they are: after an undo it is made anew."""
    _, bench, last = _bridge_one_member_short()
    before = bench.cost()
    bench.add_member(last.i, last.j, last.section)
    assert bench.cost() > before
    assert bench.undo()
    assert bench.cost() == pytest.approx(before)
    assert len(bench.structure()["members"]) == len(equilibria.work.workbench.design(bench.level, bench.attempt.solution()).data["members"])


def test_where_the_nodes_are_is_worked_out_once_per_edit(monkeypatch):
    """A frame asks where many nodes are (the marks of a zero-force level, the rubber
    band): the positions are read from one table made per edit, not a search per node."""
    _, bench, last = _bridge_one_member_short()
    tables = []
    real = equilibria.work.workbench.Bench._positions

    def counted(self):
        before = self._where[0]
        out = real(self)
        tables.append(self._where[0] is not before)
        return out

    monkeypatch.setattr(equilibria.work.workbench.Bench, "_positions", counted)
    ids = [n["id"] for n in bench.structure()["nodes"]]
    for nid in ids * 3:
        bench.position(nid)
    assert sum(tables) == 1
    bench.add_member(last.i, last.j, last.section)
    assert bench.position(last.i) == next((n["x"], n["y"]) for n in bench.structure()["nodes"] if n["id"] == last.i)
    assert sum(tables) == 2  # the edit's new nodes list: one new table


def test_a_sandbox_edit_dumps_its_model_once_for_the_game(monkeypatch, tmp_path):
    """One edit of a sandbox design, then the frame that builds it: the design is dumped
    to a model once (the edit's check builds the engine's model from it, and the build,
    the supports and the picture share it), not once for each of them."""
    from equilibria.format.schema import BaseLevel

    path = tmp_path / "lattice.json"
    path.write_text(json.dumps(lattice_design(100)))
    session = PlaySession(load_stage(path, sandbox=True), fixed=True)
    dumps = []
    real = BaseLevel.model_data
    monkeypatch.setattr(BaseLevel, "model_data", lambda self: dumps.append(1) or real(self))
    ids = [n["id"] for n in session.bench.doc["nodes"]]
    session.edit(session.bench.add_member, ids[0], ids[-1], "steel bar")
    session.tick(1 / 60)
    session.supports(), session.data(), session.bench.structure()
    assert session.notice == "" and not session.stale
    assert len(dumps) == 1
