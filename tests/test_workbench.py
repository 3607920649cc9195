"""The player's work in a play scene: edits through the workbench, refusals, undo and
redo, and work built with the game's edits passing the level's own check."""

import json

import pytest

from engine import build_model
from game.level import load_level
from game.workbench import SUPPORTS, UNDO_DEPTH, LevelBench, Refused, SandboxBench, tools_for


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
    b.add_force("B", 0.0, 10e3)
    b.add_force("A", 0.0, -10e3)
    with pytest.raises(Refused, match="all 2 forces"):
        b.add_force("C", 0.0, 1e3)
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
