"""The method of joints' free body made in the level editor (issue 34: "the free body and
its cuts and unknowns"): a click on a joint of a free-body draft leaves that joint alone,
each member meeting it cut halfway, two of them asked, every other member's force and
the joint's reaction given as loads where they act, worked out from the whole truss.

The truss of tests/test_level_editor.py: A (0, 0) pin, C (4, 0) roller, B (2, 0) loaded
10 kN down, D (2, 1.5). By hand, the reactions are 5 kN up at A and at C; joint B:
ΣFy: BD − 10 = 0, BD = 10 kN (tension); ΣFx: BC − AB = 0, and joint A: ΣFy: 5 + AD·1.5/2.5
= 0, AD = −8.33 kN (compression), ΣFx: AB + AD·2/2.5 = 0, AB = 6.67 kN (tension) = BC."""

from __future__ import annotations

import math

import pygame
import pytest
from test_level_editor import click, frame, key, member_px, node_px, sandbox_design, type_into

from equilibria.app.scenes.editor import EditorScene
from equilibria.cli.main import main
from equilibria.course import authoring as a
from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check as judge
from equilibria.rules.variants import answer_solution


def kn(newtons: float) -> float:
    return round(newtons / 1000, 2)


def test_a_click_on_joint_b_makes_the_method_of_joints_free_body_and_its_answer_is_the_hand_one(app, home, capsys):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    click(scene, node_px(scene, "B"))
    doc = scene.doc
    assert doc["kind"] == "free_body" and {n["id"] for n in doc["nodes"]} == {"B", "A1", "C1", "D1"}
    # Two members asked, not on one line (AB and BC are): AB and BD; BC's force given, found from the whole truss.
    assert [(c["member"], c["what"]) for c in doc["cut"]] == [("AB", "bar"), ("BD", "bar")]
    given = {ld["node"]: (kn(ld.get("fx", 0.0)), kn(ld.get("fy", 0.0))) for ld in doc["loads"]}
    assert given == {"B": (0.0, -10.0), "C1": (6.67, 0.0)}  # the load at B, and BC's 6.67 kN of tension pulling B toward C
    found = scene.findings()
    assert found.problems == [] and found.answer == ["force at A1: Fx = −6.67 kN, Fy = 0 kN", "force at D1: Fx = 0 kN, Fy = 10 kN"]
    type_into(scene, "id", "joint-b")
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    path = home / "joint-b.json"
    assert path.is_file(), scene.authoring.said
    assert main(["validate", str(path)]) == 0
    level = load_level(read_json(path))
    assert judge(level, load_solution(answer_solution(level))).passed  # the reference answer passes the check
    wrong = answer_solution(level)
    wrong["moves"][1]["fy"] = -wrong["moves"][1]["fy"]  # BD in compression: the joint is not in equilibrium
    assert not judge(level, load_solution(wrong)).passed


def test_a_support_joint_gets_its_reaction_given_and_a_click_on_a_member_asks_or_gives_it(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    click(scene, node_px(scene, "D"))  # away from the supports, to leave them be
    type_into(scene, "part", "A")  # the keyboard's way, to a support's joint
    doc = scene.doc
    assert [c["member"] for c in doc["cut"]] == ["AB", "AD"]
    assert [(ld["node"], kn(ld.get("fx", 0.0)), kn(ld.get("fy", 0.0))) for ld in doc["loads"]] == [("A", 0.0, 5.0)]  # the reaction, up
    forces = {
        c: (float(f.split("Fx = ")[1].split(" kN")[0].replace("−", "-")), float(f.split("Fy = ")[1].split(" kN")[0].replace("−", "-")))
        for c, f in zip(("AB", "AD"), scene.findings().answer, strict=True)
    }
    assert forces["AB"] == (6.67, 0.0)  # AB pulls A toward B: 6.67 kN of tension
    assert math.isclose(math.hypot(*forces["AD"]), 8.33, abs_tol=0.01) and forces["AD"][1] < 0  # AD pushes A away from D: compression
    frame(app)
    click(scene, member_px(scene, "AD"))  # AD given now: one member asked, its force found by the other equation
    assert [c["member"] for c in scene.doc["cut"]] == ["AB"] and scene.findings().problems == []
    click(scene, member_px(scene, "AD"))
    click(scene, member_px(scene, "AB"))
    click(scene, member_px(scene, "AB"))  # AD and AB asked again, in that order
    assert sorted(c["member"] for c in scene.doc["cut"]) == ["AB", "AD"]


def test_three_members_asked_at_a_joint_is_said_and_k_or_ctrl_z_bring_the_whole_truss_back(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    whole = len(scene.doc["members"])
    click(scene, node_px(scene, "B"))
    frame(app)
    click(scene, member_px(scene, "BC"))  # all three of B's members asked: two equations, three unknowns
    assert scene.findings().said == [
        "The cuts: a joint gives two equations, so statics finds the forces of two of its members: a click on a member asked gives it"
    ]
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    assert len(scene.doc["members"]) == whole and "_joint" not in scene.doc  # undone: the whole truss
    click(scene, node_px(scene, "B"))
    key(scene, pygame.K_k)  # another kind: the structure the joint was cut from
    assert scene.doc["kind"] != "free_body" and len(scene.doc["members"]) == whole
    assert {s["node"] for s in scene.doc.get("supports", [])} == {"A", "C"}


def test_a_node_with_no_member_is_no_joint_and_a_mechanism_has_no_joint_forces():
    design = sandbox_design()
    design["nodes"].append({"id": "E", "x": 6, "y": 0})
    doc = a.start(design)
    with pytest.raises(a.Refused, match="No member meets E"):
        a.isolate_joint(doc, "E")
    design = sandbox_design()
    design["members"] = [m for m in design["members"] if m["id"] != "BD"]  # B hangs on two collinear bars: a mechanism
    with pytest.raises(a.Refused, match="mechanism"):
        a.isolate_joint(a.start(design), "A")
