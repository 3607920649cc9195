"""The player's work in a play scene: edits through the workbench, refusals, undo and
redo, and work built with the game's edits passing the level's own check."""

import gc
import itertools
import json
import tracemalloc

import pytest

from equilibria.course.level import load_level
from equilibria.engine.model import build_model
from equilibria.work.workbench import SANDBOX_SECTIONS, SUPPORTS, UNDO_DEPTH, LevelBench, Refused, SandboxBench, tools_for

HISTORY_BYTES_PER_MEMBER = 40  # [B] traced heap the undo history may hold per member per edit (see the test)


def level(name: str):
    return load_level(json.loads(open(f"levels/{name}.json").read()))


def triangle_frame() -> SandboxBench:
    b = SandboxBench()
    a, c, d = b.add_node(0, 0), b.add_node(2, 0), b.add_node(1, 1)
    b.add_member(a, c, "steel bar")
    b.add_member(c, d, "steel bar")
    b.add_member(a, d, "steel beam")
    b.set_support(a, SUPPORTS["pin"])
    b.set_support(c, SUPPORTS["roller"])
    b.add_force(d, 0.0, -5e3)
    return b


def lattice_bench(nx: int, ny: int) -> SandboxBench:
    """A sandbox holding an X-braced lattice of nx × ny cells of 1 m in steel bars,
    pinned at its foot's ends (4 nx ny + nx + ny members), made from a document at once
    rather than edit by edit."""
    bar = SANDBOX_SECTIONS["steel bar"].member_fields()
    ids = {(i, j): f"N{j * (nx + 1) + i + 1}" for j in range(ny + 1) for i in range(nx + 1)}
    pairs = [(ids[i, j], ids[i + 1, j]) for j in range(ny + 1) for i in range(nx)]
    pairs += [(ids[i, j], ids[i, j + 1]) for j in range(ny) for i in range(nx + 1)]
    pairs += [p for j in range(ny) for i in range(nx) for p in ((ids[i, j], ids[i + 1, j + 1]), (ids[i + 1, j], ids[i, j + 1]))]
    doc = {
        "format": 1,
        "id": "sandbox",
        "title": "Lattice",
        "kind": "sandbox",
        "world": {"breakable": True, "ground": [[-10.0, 0.0], [nx + 10.0, 0.0]]},
        "materials": {"steel": {"E": 210e9, "density": 7850.0, "nu": 0.3, "strength": 235e6}},
        "nodes": [{"id": nid, "x": float(i), "y": 1.0 + j} for (i, j), nid in ids.items()],
        "members": [{"id": f"M{k + 1}", "i": a, "j": b, **bar} for k, (a, b) in enumerate(pairs)],
        "supports": [{"node": ids[0, 0], "fix": ["x", "y"]}, {"node": ids[nx, 0], "fix": ["x", "y"]}],
    }
    return SandboxBench(load_level(doc))


def every_kind_of_edit(b: SandboxBench, k: int) -> None:
    """Edit number k of a run that makes every kind of sandbox edit over and over, on a
    design whose nodes N1, N2 and N4 (not in one line) are never erased, with a support at N1."""
    match k % 8:
        case 0:
            b.add_node(10.0 + k, 0.5 * k)
        case 1:
            b.add_member("N1", f"N{len(b.design()['nodes'])}", "steel beam" if k % 3 else "steel cable")
        case 2:
            b.move_node(b.design()["nodes"][-1]["id"], 10.5 + k, 0.5 * k + 0.25)
        case 3:
            b.add_force(b.design()["nodes"][-1]["id"], 1e3 * k, -2e3)
        case 4:
            b.set_support(*((b.design()["nodes"][-1]["id"], SUPPORTS["roller"]) if k % 3 else ("N1", None)))
        case 5:
            b.add_triangle("N1", "N2", "N4")
        case 6:
            b.erase("triangle", b.design()["triangles"][-1]["id"])
        case 7:
            b.erase("node" if k % 3 else "member", b.design()["nodes" if k % 3 else "members"][-1]["id"])


def test_undo_and_redo_give_back_exactly_the_designs_of_a_long_run_of_edits():
    """repr tells 1 from 1.0 and a tuple from a list, so the designs are the very same data."""
    b = lattice_bench(2, 1)
    designs = [repr(b.design())]
    for k in range(3 * 8):
        every_kind_of_edit(b, k)
        designs.append(repr(b.design()))
    assert all(a != b for a, b in itertools.pairwise(designs))  # every edit changed the design
    for design in reversed(designs[:-1]):
        assert b.undo() and repr(b.design()) == design
    assert not b.undo()
    for design in designs[1:]:
        assert b.redo() and repr(b.design()) == design
    assert not b.redo()
    build_model(b.structure())


def test_undo_reaches_exactly_the_depth_of_the_history_back():
    b = lattice_bench(2, 1)
    b.history.depth = 5
    designs = [repr(b.design())]
    for k in range(12):
        b.move_node("N1", 0.1 * (k + 1), 0.0)
        designs.append(repr(b.design()))
    assert len(b.history.done) == 5
    for design in reversed(designs[-6:-1]):
        assert b.undo() and repr(b.design()) == design
    assert not b.undo() and b.design()["nodes"][0]["x"] == pytest.approx(0.7)


def test_a_level_s_moves_undo_and_redo():
    b = LevelBench(level("bridge-01"))
    e, f = b.add_node(2, 2), b.add_node(4, 2)
    b.add_member(e, f, "light")
    b.erase("node", f)
    done = list(b.moves)
    while b.undo():
        pass
    assert b.moves == []
    while b.redo():
        pass
    assert b.moves == done


def test_the_undo_history_of_a_large_design_stays_small():
    """The traced heap that a full history holds, measured as what clearing it frees.

    A snapshot kept as the design's own dicts takes about 350 B per member (the history
    once held 70 MB after 200 edits of 1000 members); packed, about 16 B per member of
    this lattice (10 B at 1000 members). HISTORY_BYTES_PER_MEMBER allows some room above
    that and stays far below the dicts."""
    b = lattice_bench(10, 2)  # 92 members
    members, edits = len(b.design()["members"]), 20
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        for k in range(edits):
            b.move_node("N1", 0.01 * (k + 1), 0.0)
        gc.collect()
        full = tracemalloc.get_traced_memory()[0]
        b.history.done.clear()
        gc.collect()
        held = full - tracemalloc.get_traced_memory()[0]
    finally:
        if started:
            tracemalloc.stop()
    assert held <= HISTORY_BYTES_PER_MEMBER * members * edits, f"the history holds {held / edits:.0f} B per edit of {members} members"


def test_a_sandbox_design_builds_and_every_edit_undoes_and_redoes():
    b = triangle_frame()
    model = build_model(b.structure())
    assert model.node_ids == ("N1", "N2", "N3") and model.member_ids == ("M1", "M2", "M3")
    history = [json.dumps(b.design())]
    while b.undo():
        history.append(json.dumps(b.design()))
    assert b.structure() is None and len(history) == 10  # nine edits back to nothing
    for snapshot in reversed(history[:-1]):
        assert b.redo()
        assert json.dumps(b.design()) == snapshot
    assert not b.redo()


def test_a_new_edit_drops_the_redo_and_the_history_stays_bounded():
    b = triangle_frame()
    b.undo()
    b.add_node(5, 5)
    assert not b.can_redo
    for k in range(UNDO_DEPTH + 20):
        b.move_node("N4", 5 + 0.01 * (k + 1), 5)
    assert len(b.history.done) == UNDO_DEPTH


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda b: b.add_member("N1", "N1", "steel bar"), "two different nodes"),
        (lambda b: b.add_member("N1", "N2", "steel bar"), "joined already"),
        (lambda b: b.add_member("N1", "N9", "steel bar"), "no node N9"),
        (lambda b: b.add_member("N1", "N2", "gold bar"), "no section"),
        (lambda b: b.add_triangle("N1", "N2", "N4"), "not in one line"),
        (lambda b: b.move_node("N2", 0, 0), "zero length"),
        (lambda b: b.erase("member", "M9"), "no member M9"),
    ],
)
def test_a_bad_sandbox_edit_is_refused_in_words_and_changes_nothing(edit, words):
    b = triangle_frame()
    b.add_node(4, 0)  # N4, in line with N1 and N2
    before, revision = json.dumps(b.design()), b.revision
    with pytest.raises(Refused, match=words):
        edit(b)
    assert json.dumps(b.design()) == before and b.revision == revision


def test_erasing_a_node_takes_its_members_plates_support_and_loads_with_it():
    b = triangle_frame()
    b.add_triangle("N1", "N2", "N3")
    b.erase("node", "N3")
    d = b.design()
    assert [m["id"] for m in d["members"]] == ["M1"] and d["triangles"] == [] and d["loads"] == []
    b.erase("node", "N1")
    assert b.design()["supports"] == [{"node": "N2", "fix": ["y"]}]


def test_a_plate_is_stored_counter_clockwise():
    b = triangle_frame()
    b.add_triangle("N1", "N3", "N2")  # clockwise as clicked
    assert b.design()["triangles"][0]["nodes"] == ["N1", "N2", "N3"]
    build_model(b.structure())


def test_tools_follow_the_level_kind():
    assert tools_for("zero_force", "remove") == ("inspect", "remove", "drag")
    assert "force" not in tools_for("build") and "node" not in tools_for("stability")
    assert {"drag", "nail", "bomb", "triangle"} <= set(tools_for("sandbox"))


def test_balance_forces_made_with_the_tool_pass_the_check():
    b = LevelBench(level("balance-01"))
    b.add_force("C", 0.0, 10e3)
    b.add_force("B", 0.0, -10e3)
    with pytest.raises(Refused, match="all 2 forces"):
        b.add_force("E", 0.0, 1e3)
    assert b.check().passed


def test_a_balance_force_is_taken_back_by_erasing_it_at_its_node():
    b = LevelBench(level("balance-01"))
    b.add_force("B", 0.0, 10e3)
    b.erase("node", "B")
    assert b.moves == []
    with pytest.raises(Refused, match="part of the level"):
        b.erase("member", b.level.members[0].id)


def test_zero_force_marks_toggle_and_pass_the_check():
    b = LevelBench(level("zero-force-01"))
    for member in ("BF", "DH", "CG", "AB"):
        assert b.toggle_member(member)
    assert not b.toggle_member("AB")  # unmarked again
    assert b.marked() == {"BF", "DH", "CG"}
    assert b.check().passed


def test_a_bridge_built_with_the_tools_passes_and_one_outside_the_zone_is_refused():
    b = LevelBench(level("bridge-01"))
    e, f = b.add_node(2, 2), b.add_node(4, 2)
    for i, j in (("A", e), (e, f), (f, "D"), ("B", e), ("C", f), (e, "C")):
        b.add_member(i, j, "light")
    with pytest.raises(Refused, match="outside the build zone"):
        b.add_node(30, 2)
    assert b.rule_broken() is None and b.cost() > 0
    verdict = b.check()
    assert verdict.passed, verdict.reason
    b.erase("node", e)  # its four members go with it
    assert sum(m.type == "add_member" for m in b.moves) == 2


def test_a_stability_support_cycles_through_what_the_level_offers():
    lv = level("supports-01")
    assert lv.kind == "stability"
    b = LevelBench(lv)
    offered = [tuple(t) for t in lv.player.supports]
    node = lv.nodes[-1].id
    b.set_support(node, offered[0])
    b.set_support(node, None)
    assert b.moves == []
    with pytest.raises(Refused, match="no such support"):
        b.set_support(node, ("rot",))


def test_beams_the_player_builds_buckle_at_euler_s_load():
    """A beam built in the sandbox or on a level has stability functions (one element per
    member buckles where Euler says, tests/test_beam_stability.py); a level's own beams
    keep the formulation their file gives (Arcade's by default); a section may name its own."""
    b = triangle_frame()
    model = build_model(b.structure())
    assert list(model.arrays.beam_stability) == [True]
    assert b.design()["members"][2]["formulation"] == "stability"
    assert "formulation" not in b.design()["members"][0]  # a bar has none
    frames = level("frames-03")
    bench = LevelBench(frames)
    bench.add_member("A", "B", "IPE 100")
    assert list(build_model(bench.structure()).arrays.beam_stability) == [True]
    own = frames.player.sections["IPE 100"].model_copy(update={"formulation": "arcade"})
    assert own.member_fields()["formulation"] == "arcade"
    assert not build_model(level("frames-02").model_data()).arrays.beam_stability.any()
