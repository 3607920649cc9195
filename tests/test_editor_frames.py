"""A frame taken apart at its pins in the level editor (issue 34: "the free body and its
cuts and unknowns"; issue 35's "a frame or machine taken apart at its pins, the two-force
members recognised, each pin force equal and opposite on its two bodies"): a click on a
member of a free-body draft leaves its body alone (the beams joined rigidly to it), cut
wherever another body or a support held it, the cuts statics finds asked and the others'
forces given from the whole frame; the shipped machines-01, frame-01 and frame-02 made
again so from the whole frames their briefs draw.

By hand: the A-frame (machines-01: legs AC and BC pinned at C (3, 4) and to the ground at
A (0, 0) and B (6, 0), 16 kN at D (1.5, 2) on AC). BC is a two-force member, so the pin
force on AC at C lies along BC: F·(−3, 4)/5. ΣM about A: 16·1.5 = F·(4·3 + 3·4)/5, F = 5 kN,
C = (−3, 4) kN; ΣF: A = (3, 12) kN. The gantry (frame-01 and -02: post AC fixed at A (0, 0),
M (0, 2), C (0, 4); beam CB pinned to it at C, on a roller at B (6, 4); the wind 2 kN at
M, the cable 3 kN right and 12 kN down at D (2, 4)): the beam, ΣM about C: 6·By = 2·12,
By = 4 kN; ΣFy: Cy = 8 kN up on the beam; ΣFx: Cx = −3 kN. So the beam pushes the post
at C 3 kN to the right and 8 kN down, as frame-02 gives it; the post's foot holds
(−5, 8) kN and 3·4 + 2·2 = 16 kN m. The given forces are kept to the micronewton, so what
is compared agrees within a millinewton."""

from __future__ import annotations

import math

import pygame
import pytest
from test_level_editor import click, frame, node_px, type_into

from equilibria.app.draw.draft import where
from equilibria.app.scenes.editor import EditorScene
from equilibria.course import authoring as a
from equilibria.course.level import load_level
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.frame_body import bodies, two_force
from equilibria.rules.judge import check as judge
from equilibria.rules.variants import answer_solution

BEAM = {"kind": "beam", "material": "steel", "A": 0.004, "I": 2e-5}


def design(nodes, members, supports, loads) -> dict:
    return {
        "format": 1,
        "id": "frame",
        "title": "Frame",
        "kind": "sandbox",
        "world": {"mass_damping": 0.2},
        "materials": {"steel": {"E": 2e11, "density": 7850, "nu": 0.3}},
        "nodes": [{"id": k, "x": x, "y": y} for k, x, y in nodes],
        "members": [{"id": i + j, "i": i, "j": j, **BEAM, **more} for i, j, more in members],
        "supports": supports,
        "loads": loads,
    }


def a_frame(load_on_bc: float = 0.0) -> dict:
    """machines-01's A-frame: leg BC a beam pinned at C (its end released) and at B."""
    nodes = [("A", 0, 0), ("D", 1.5, 2), ("C", 3, 4), ("B", 6, 0), ("E", 4.5, 2)]
    members = [("A", "D", {}), ("D", "C", {}), ("B", "E", {}), ("E", "C", {"release": ["j"]})]
    loads = [{"node": "D", "fy": -16000}] + ([{"node": "E", "fy": -load_on_bc}] if load_on_bc else [])
    return design(nodes, members, [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["x", "y"]}], loads)


def gantry() -> dict:
    nodes = [("A", 0, 0), ("M", 0, 2), ("C", 0, 4), ("D", 2, 4), ("B", 6, 4)]
    members = [("A", "M", {}), ("M", "C", {}), ("C", "D", {"release": ["i"]}), ("D", "B", {})]
    supports = [{"node": "A", "fix": ["x", "y", "rot"]}, {"node": "B", "fix": ["y"]}]
    return design(nodes, members, supports, [{"node": "M", "fx": 2000}, {"node": "D", "fx": 3000, "fy": -12000}])


def forces(level) -> dict[str, tuple]:
    """The reference answer: each cut's node → its force and moment [kN, kN m], to the newton."""
    return {mv["node"]: tuple(round(mv.get(k, 0.0) / 1000, 3) for k in ("fx", "fy")) for mv in answer_solution(level)["moves"] if mv["type"] == "add_force"}


def remade(doc: dict):
    found, level = a.checked(doc)
    assert found == [] and level is not None, found
    assert judge(level, load_solution(answer_solution(level))).passed
    return level


def strip(level_id: str):
    return load_level(read_json(LEVELS_DIR / f"{level_id}.json"))


def test_the_a_frame_s_bodies_are_its_legs_and_a_leg_pinned_at_both_ends_is_a_two_force_member():
    doc = a_frame()
    assert bodies(doc) == [["AD", "DC"], ["BE", "EC"]]  # each leg two beams joined rigidly at its middle
    assert not two_force(doc, ["AD", "DC"]) and not two_force(doc, ["BE", "EC"])  # two members: a body, whatever it carries
    straight = a_frame()
    straight["nodes"] = [n for n in straight["nodes"] if n["id"] != "E"]
    straight["members"] = [m for m in straight["members"] if m["id"] not in ("BE", "EC")] + [{"id": "BC", "i": "B", "j": "C", **BEAM, "release": ["j"]}]
    assert two_force(straight, ["BC"])
    with pytest.raises(a.Refused, match="BC is a two-force member"):
        a.take_apart(a.start(straight), "BC")


@pytest.mark.parametrize("with_e", [False, True])
def test_machines_01_made_from_the_whole_a_frame_has_its_cuts_and_answer(with_e):
    """Leg AC alone: the pin A (two unknowns) and the pin C along the two-force leg BC (one);
    the same whether BC is one member or two in line (then no two-force member: a pin of
    two components at C, and its force is given, found from the whole frame)."""
    doc = a_frame()
    if not with_e:
        doc["nodes"] = [n for n in doc["nodes"] if n["id"] != "E"]
        doc["members"] = [*doc["members"][:2], {"id": "BC", "i": "B", "j": "C", **BEAM, "release": ["j"]}]
    level = remade(a.take_apart(a.start(doc), "AD"))
    shipped = strip("machines-01")
    if not with_e:
        assert [(c.node, c.what, c.along and tuple(c.along), c.member) for c in level.cut] == [
            (c.node, c.what, c.along and tuple(c.along), c.member) for c in shipped.cut
        ]
        assert forces(level) == forces(shipped) == {"A": (3.0, 12.0), "C": (-3.0, 4.0)}
        assert level.goal.moment_about == shipped.goal.moment_about == "A"
    else:  # leg BC of two beams: a body of its own, so C is a pin of two components, given (A's two and C's two: four unknowns)
        assert [(c.node, c.what) for c in level.cut] == [("A", "support")]
        assert {(ld.node, round(ld.fx / 1000, 3), round(ld.fy / 1000, 3)) for ld in level.loads} >= {("C", -3.0, 4.0)}


def test_frame_01_and_frame_02_made_from_the_whole_gantry_have_their_cuts_given_forces_and_answers():
    whole = a.start(gantry())
    beam = remade(a.take_apart(whole, "DB"))
    frame_01 = strip("frame-01")
    assert sorted((c.node, c.what, tuple(c.carries or ())) for c in beam.cut) == sorted((c.node, c.what, tuple(c.carries or ())) for c in frame_01.cut)
    assert forces(beam) == forces(frame_01) == {"C": (-3.0, 8.0), "B": (0.0, 4.0)}
    assert beam.goal.moment_about == frame_01.goal.moment_about == "C"
    post = remade(a.take_apart(whole, "AM"))
    frame_02 = strip("frame-02")
    assert [(c.node, tuple(c.carries)) for c in post.cut] == [(c.node, tuple(c.carries)) for c in frame_02.cut] == [("A", ("x", "y", "rot"))]
    given = {ld.node: (round(ld.fx, 3), round(ld.fy, 3)) for ld in post.loads}
    assert given == {ld.node: (round(ld.fx, 3), round(ld.fy, 3)) for ld in frame_02.loads} == {"M": (2000.0, 0.0), "C": (3000.0, -8000.0)}
    moves = {mv["type"]: mv for mv in answer_solution(post)["moves"]}
    assert math.isclose(moves["add_force"]["fx"], -5000, abs_tol=1e-3) and math.isclose(moves["add_force"]["fy"], 8000, abs_tol=1e-3)
    assert math.isclose(moves["add_moment"]["m"], 16000, abs_tol=1e-3)  # 3·4 + 2·2 kN m, counter-clockwise
    assert post.goal.moment_about == "A"


def test_each_pin_force_is_equal_and_opposite_on_its_two_bodies():
    """Both legs of the A-frame loaded (6 kN on BC too): neither is a two-force member. Each
    leg alone, its pin C asked instead of its foot: the two answers at C are equal and opposite."""
    whole = a.start(a_frame(load_on_bc=6000))
    left = a.take_apart(whole, "AD")
    assert [c["node"] for c in left["cut"]] == ["A"] and "C" in left["_cuts"]  # A's two unknowns and C's two: C given by default
    at_c = {}
    for leg in ("AD", "EC"):
        body = a.take_apart(whole, leg)
        body = a.toggle_body_cut(a.toggle_body_cut(body, "C"), body["cut"][0]["node"])  # C asked, the foot given
        assert [c["node"] for c in body["cut"]] == ["C"]
        at_c[leg] = forces(remade(body))["C"]
    assert at_c["AD"] == tuple(-f for f in at_c["EC"]) and at_c["AD"] != (0.0, 0.0)
    both = a.toggle_body_cut(left, "C")  # four unknowns asked: said, three equations
    assert a.checked(both)[0][-1].startswith("cut: a body gives three equations")


def test_a_click_on_a_member_takes_the_frame_apart_and_a_click_on_a_cut_asks_or_gives_it(app, home):
    scene = EditorScene(app, a.start(gantry()))
    app.push(scene)
    frame(app)
    at = where(scene.doc)
    click(scene, scene._px(((at["D"][0] + at["B"][0]) / 2, at["D"][1])))  # on the beam DB: the beam's body, CD with it
    assert scene.doc.get("_body") == "DB", scene.authoring.said
    assert sorted(c["node"] for c in scene.doc["cut"]) == ["B", "C"] and scene.findings().problems == []
    click(scene, node_px(scene, "B"))  # B given now: its reaction a load, C's two asked
    assert [c["node"] for c in scene.doc["cut"]] == ["C"] and [ld["node"] for ld in scene.doc["loads"]][-1] == "B"
    frame(app)
    click(scene, next(rect for rect, f in scene.rects if f.name == "cut:B").center)  # its row: asked again
    assert sorted(c["node"] for c in scene.doc["cut"]) == ["B", "C"]
    key_z = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL, unicode="")
    scene.handle_event(key_z)
    scene.handle_event(key_z)
    scene.handle_event(key_z)
    assert "_body" not in scene.doc and len(scene.doc["members"]) == 4  # undone: the whole gantry


def test_the_keyboard_alone_cuts_out_a_body_a_joint_or_a_section_and_the_whole_frame_again(app, home):
    scene = EditorScene(app, a.start(gantry()))
    app.push(scene)
    type_into(scene, "part", "DB")  # a member: its body
    assert scene.doc.get("_body") == "DB" and sorted(c["node"] for c in scene.doc["cut"]) == ["B", "C"]
    type_into(scene, "part", "D")  # a joint's name: it alone
    assert scene.doc.get("_joint") == "D" and "_body" not in scene.doc
    type_into(scene, "part", "Q")  # neither: said, with the names there are
    assert scene.doc.get("_joint") == "D" and "the joints are A, B, C, D, M" in scene.authoring.said
    type_into(scene, "part", "")  # nothing: the whole frame, its supports cut away
    assert a.cut_part(scene.doc) is None and len(scene.doc["members"]) == 4
    assert sorted(c["node"] for c in scene.doc["cut"]) == ["A", "B"]


def test_machines_03_made_from_the_whole_toggle_press_has_its_cuts_and_answer():
    """The toggle press of machines-03: A (0, 0) pinned to the frame, the link AB (a bar: a
    two-force member) to the knee B (0.24, 0.07), the link BC and the head CK (beams joined
    rigidly at C (0.48, 0)), the guide holding C up and down, the work holding K (0.54, 0)
    sideways, 280 N down at B. The body of BC: the pin at B along AB (from A toward B), the
    guide at C and the work at K, one unknown each; the same cuts and the same answer as the
    shipped file, and the moment point C, where two of the three lines of force meet."""
    nodes = [("A", 0, 0), ("B", 0.24, 0.07), ("C", 0.48, 0), ("K", 0.54, 0)]
    members = [("B", "C", {"A": 0.0002, "I": 5e-09}), ("C", "K", {"A": 0.0004, "I": 2e-08})]  # the shipped sections: a check runs in time
    supports = [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["y"]}, {"node": "K", "fix": ["x"]}]
    doc = design(nodes, members, supports, [{"node": "B", "fy": -280}])
    doc["members"].insert(0, {"id": "AB", "i": "A", "j": "B", "kind": "bar", "material": "steel", "A": 0.0002})
    for node in doc["nodes"]:  # the shipped file's masses: without them a check of a press this small takes too many steps (said, not saved)
        node.update(mass=2, inertia=0.01)
    level = remade(a.take_apart(a.start(doc), "BC"))
    shipped = strip("machines-03")
    mine = sorted((c.node, c.what, tuple(c.carries or ()), c.along and tuple(round(v / math.hypot(*c.along), 9) for v in c.along)) for c in level.cut)
    theirs = sorted((c.node, c.what, tuple(c.carries or ()), c.along and tuple(round(v / math.hypot(*c.along), 9) for v in c.along)) for c in shipped.cut)
    assert mine == theirs
    assert forces(level) == forces(shipped)
    assert level.goal.moment_about == shipped.goal.moment_about == "C"
