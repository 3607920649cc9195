"""A balance level made in the level editor (issue 34's "the editor makes a level of the kind
you choose"): K makes the structure on the screen float free, its supports gone, and asks
the student for two forces where it was held that keep it still; the largest force
allowed is half as much again as the answer's largest (rounded up to a kilonewton), and a
click on a node makes it a place for the forces (again: not).

The truss of tests/test_level_editor.py: A (0, 0) and C (4, 0) held, B (2, 0) loaded 10 kN
down. By hand: ΣM about A: 4·Cy = 2·10, Cy = 5 kN; ΣFy: Ay = 5 kN; ΣFx: the least forces
push no sideways. The largest allowed: 1.5 × 5 = 7.5, 8 kN. The shipped balance-01 to -03
made again from their structures, the places their files name clicked: the same places and
number of forces, and each file's reference answer balances the other."""

from __future__ import annotations

import pygame
import pytest
from test_level_editor import click, frame, key, node_px, sandbox_design, type_into

from equilibria.app.scenes.editor import EditorScene
from equilibria.cli.main import main
from equilibria.course import authoring as a
from equilibria.course.level import load_level
from equilibria.course.syllabus import reference_solution
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check as judge


def balance_kind(scene: EditorScene) -> None:
    while scene.doc["kind"] != "balance":
        key(scene, pygame.K_k)


def test_k_makes_a_balance_of_the_structure_with_forces_where_it_was_held_and_it_saves_validates_and_passes(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    balance_kind(scene)
    doc = scene.doc
    assert "supports" not in doc and doc["world"]["gravity"] == 0.0
    assert doc["player"] == {"forces": 2, "nodes": ["A", "C"], "max_force": 8000.0}
    found = scene.findings()
    assert found.problems == []
    assert found.answer[:2] == ["force at A: Fx = 0 kN, Fy = 5 kN", "force at C: Fx = 0 kN, Fy = 5 kN"]
    type_into(scene, "id", "hooks")
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    path = home / "hooks.json"
    assert path.is_file(), scene.authoring.said
    assert main(["validate", str(path)]) == 0
    level = load_level(read_json(path))
    answer = {"format": 1, "level": level.id, "moves": [m.model_dump() for m in level_answer(level)]}
    assert judge(level, load_solution(answer)).passed
    answer["moves"][0]["fy"] += 1000  # 6 kN at A: it turns
    assert not judge(level, load_solution(answer)).passed
    key(scene, pygame.K_k)  # the next kind: the structure's own supports back
    assert scene.doc["kind"] != "balance" and sorted(s["node"] for s in scene.doc.get("supports") or []) == ["A", "C"]


def level_answer(level):
    from equilibria.rules.kinds import KINDS

    return KINDS[level.kind].answer(level)


def test_a_click_on_a_node_places_the_forces_there_or_not_and_the_rows_set_how_many_and_how_large(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    balance_kind(scene)
    frame(app)
    click(scene, node_px(scene, "D"))
    assert scene.doc["player"]["nodes"] == ["A", "C", "D"]
    click(scene, node_px(scene, "C"))
    click(scene, node_px(scene, "A"))
    assert scene.doc["player"]["nodes"] == ["D"]
    assert scene.findings().problems == ["player.nodes: 2 forces act at 2 nodes, one each: give them as many (a click on a node)"]
    type_into(scene, "player:forces", "1")  # one force at D, above B: 10 kN up, more than the 8 kN allowed
    assert scene.findings().problems == ["player.max_force: a student's loads need a force of 10 kN at least: allow that much"]
    type_into(scene, "player:max_force", "10")
    found = scene.findings()
    assert found.problems == [] and found.answer[0] == "force at D: Fx = 0 kN, Fy = 10 kN"
    type_into(scene, "player:forces", "7")
    assert scene.authoring.said == "Type a whole number of forces from 1 to 4." and scene.doc["player"]["forces"] == 1


def test_a_student_s_own_load_is_balanced_within_the_largest_force_at_every_end_of_its_range(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    balance_kind(scene)
    doc = a.vary_load(scene.doc, 0, a.Range(5, 30, 1))  # up to 30 kN at B: 15 kN at each hook, more than 8 allows
    assert a.checked(doc)[0] == ["player.max_force: a student's loads need a force of 15 kN at least: allow that much"]
    assert a.checked(a.set_player(doc, "max_force", 15))[0] == []


@pytest.mark.parametrize("level_id", ["balance-01", "balance-02", "balance-03"])
def test_a_shipped_balance_level_made_again_from_its_structure_takes_the_same_forces_and_each_answer_passes_the_other(level_id):
    data = read_json(LEVELS_DIR / f"{level_id}.json")
    doc = a.set_kind(a._as_structure(data) | {"kind": "sandbox"}, "balance")
    for node in data["player"]["nodes"]:
        if node not in doc["player"]["nodes"]:
            doc = a.toggle_place(doc, node)
    for node in list(doc["player"]["nodes"]):
        if node not in data["player"]["nodes"]:
            doc = a.toggle_place(doc, node)
    doc = a.set_player(doc, "max_force", data["player"]["max_force"] / 1000)
    found, remade = a.checked(doc)
    assert found == [] and remade is not None, found
    shipped = load_level(data)
    assert sorted(remade.player.nodes) == sorted(shipped.player.nodes) and remade.player.forces == shipped.player.forces
    theirs = load_solution(read_json(reference_solution(level_id)))
    assert judge(remade, theirs).passed, judge(remade, theirs).message
    ours = {"format": 1, "level": level_id, "moves": [m.model_dump() for m in level_answer(remade)]}
    assert judge(shipped, load_solution(ours)).passed
