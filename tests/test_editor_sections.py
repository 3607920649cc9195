"""The method of sections' free body made in the level editor (issue 34: "the free body and
its cuts and unknowns"): a line dragged across a truss in a free-body draft is a section,
the part on its side with fewer joints kept, each member it crosses cut where it crosses,
three of them asked, the kept supports' reactions given, worked out from the whole truss;
and the shipped levels cut out of truss-01 (two joints, two sections, joints-01) made
again so from truss-01 itself, the same free bodies with the same answers.

Truss-01 by hand (A (0, 0) pin, D (12, 0) roller, B (4, 0) and C (8, 0) loaded 12 and 9 kN
down, E (4, 3), F (8, 3) pushed 8 kN to the right): ΣM about A: 12·Dy = 12·4 + 9·8 + 8·3,
Dy = 12 kN; ΣFy: Ay = 21 − 12 = 9 kN; ΣFx: Ax = −8 kN. The section at x = 5.2 keeps A, B
and E (A's reaction and B's load on it) and cuts EF, BF (0.8, 0.6 along it) and BC: ΣM
about B, where BF and BC meet: −4·9 − 3·EF = 0, EF = −12 kN (compression); ΣFy:
9 − 12 + 0.6·BF = 0, BF = 5 kN (tension); ΣFx: −8 + EF + BC + 0.8·BF = 0, BC = 16 kN
(tension). Tolerances: the given forces are kept to the micronewton (part_body `_clean`),
so what is compared agrees within a millinewton."""

from __future__ import annotations

import math

import pygame
import pytest
from test_level_editor import click, frame, key, member_px, row, type_into

from equilibria.app.scenes.editor import EditorScene
from equilibria.cli.main import main
from equilibria.course import authoring as a
from equilibria.course.level import load_level
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check as judge
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import answer_solution, draw, with_numbers

TEXTS = ("title", "brief", "hints", "explanation", "vary")  # a shipped file's own words and numbers, which the part does not keep


def truss_01(numbers: bool = False) -> dict:
    """truss-01 as a teacher opens it in the editor, its words set aside, and its numbers
    of each student's own too unless `numbers`."""
    data = read_json(LEVELS_DIR / "truss-01.json")
    return {k: v for k, v in data.items() if k not in TEXTS or (numbers and k == "vary")}


def axial(level) -> dict[tuple, float]:
    """Each cut member's force in the level's reference answer [N], tension positive, keyed by
    the part's node it starts at and its direction from there (so files that name the cut
    ends or the members apart, or cut them at other places, compare)."""
    at = {n.id: (n.x, n.y) for n in level.nodes}
    members = {m.id: m for m in level.members}
    force = {(mv["node"]): (mv.get("fx", 0.0), mv.get("fy", 0.0)) for mv in answer_solution(level)["moves"]}
    out = {}
    for cut in level.cut:
        m = members[cut.member]
        near = m.i if m.j == cut.node else m.j
        ux, uy = at[cut.node][0] - at[near][0], at[cut.node][1] - at[near][1]
        length = math.hypot(ux, uy)
        u = (round(ux / length, 6), round(uy / length, 6))
        fx, fy = force[cut.node]
        out[(near, u)] = fx * u[0] + fy * u[1]
    return out


def given(level) -> tuple[float, float, float]:
    """The given loads' resultant: ΣFx, ΣFy [N] and ΣM about the origin [N m] (the same on
    lines of action the same, wherever along them a file puts a load)."""
    at = {n.id: (n.x, n.y) for n in level.nodes}
    fx = sum(ld.fx for ld in level.loads)
    fy = sum(ld.fy for ld in level.loads)
    m = sum(at[ld.node][0] * ld.fy - at[ld.node][1] * ld.fx + ld.m for ld in level.loads)
    return fx, fy, m


def close(a_: dict | tuple, b_: dict | tuple) -> bool:
    """Within a millinewton (the given forces are kept to the micronewton: part_body `_clean`)."""
    if isinstance(a_, dict):
        return a_.keys() == b_.keys() and all(math.isclose(a_[k], b_[k], abs_tol=1e-3) for k in a_)
    return all(math.isclose(x, y, abs_tol=1e-3) for x, y in zip(a_, b_, strict=True))


def remade(doc: dict):
    found, level = a.checked(doc)
    assert found == [] and level is not None, found
    return level


CUT_FROM_TRUSS_01 = {  # each shipped level cut out of truss-01, and how the editor cuts it
    "truss-02": lambda doc: a.isolate_joint(doc, "A"),
    "truss-03": lambda doc: a.isolate_joint(doc, "E", ["BE", "EF"]),
    "joints-01": lambda doc: a.isolate_joint(doc, "B", ["BF", "BC"]),
    "truss-04": lambda doc: a.cut_section(doc, (5.2, -1.0), (5.2, 4.0)),
    "truss-05": lambda doc: a.other_side(a.cut_section(doc, (6.8, 4.0), (6.8, -1.0))),
}


@pytest.mark.parametrize("level_id", list(CUT_FROM_TRUSS_01))
def test_a_shipped_level_cut_out_of_truss_01_made_again_from_truss_01_has_the_same_free_body_and_answer(level_id):
    """The same part (its nodes where they are), the same members asked, the same given
    forces (their resultant: a joint's given member forces act along the same lines), the
    same answer, the same moment point where the file names one the editor finds."""
    shipped = load_level(read_json(LEVELS_DIR / f"{level_id}.json"))
    doc = CUT_FROM_TRUSS_01[level_id](a.start(truss_01()))
    level = remade(doc)
    cut_ends = {c.node for c in shipped.cut}
    joints = {n["id"] for n in truss_01()["nodes"]}  # the part's own: a cut's end is named anew (A1, S1, …)
    assert {(n.id, n.x, n.y) for n in level.nodes if n.id in joints} == {(n.id, n.x, n.y) for n in shipped.nodes if n.id in joints}
    assert close(axial(level), axial(shipped)), (axial(level), axial(shipped))
    assert close(given(level), given(shipped)), (given(level), given(shipped))
    assert level.goal.moment_about == shipped.goal.moment_about
    if level_id.startswith("truss-0") and level_id >= "truss-04":  # a section: cut where the line crosses, as the shipped file cuts
        assert sorted((n.x, n.y) for n in level.nodes if n.id in {c.node for c in level.cut}) == sorted((n.x, n.y) for n in shipped.nodes if n.id in cut_ends)
    assert judge(level, load_solution(answer_solution(level))).passed


def pratt() -> dict:
    """The whole Pratt truss of sections-01's brief: four panels 3 m wide and 4 m high, a pin
    at A and a roller at E, 12 kN at B, C and D; its diagonals run down toward the middle."""
    xy = {"A": (0, 0), "B": (3, 0), "C": (6, 0), "D": (9, 0), "E": (12, 0), "F": (3, 4), "G": (6, 4), "H": (9, 4)}
    pairs = ("AB", "BC", "CD", "DE", "FG", "GH", "AF", "HE", "BF", "CG", "DH", "FC", "HC")
    bar = {"kind": "bar", "material": "steel", "A": 0.002}
    return {
        "format": 1,
        "id": "pratt",
        "title": "Pratt",
        "kind": "sandbox",
        "world": {"mass_damping": 0.2},
        "materials": {"steel": {"E": 2e11, "density": 7850, "nu": 0.3}},
        "nodes": [{"id": k, "x": x, "y": y} for k, (x, y) in xy.items()],
        "members": [{"id": p, "i": p[0], "j": p[1], **bar} for p in pairs],
        "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "E", "fix": ["y"]}],
        "loads": [{"node": n, "fy": -12000} for n in "BCD"],
    }


def test_sections_01_made_from_the_whole_pratt_truss_of_its_brief_has_its_answer_and_the_hand_one():
    """By hand (sections-01's explanation): each support holds 18 kN; moments about F give
    BC = 18·3/4 = 13.5 kN (tension), about C FG = (18·6 − 12·3)/4 = 18 kN (compression),
    and ΣFy FC·4/5 = 18 − 12, FC = 7.5 kN (tension)."""
    doc = a.cut_section(a.start(pratt()), (4.5, 5.0), (4.5, -1.0))
    level = remade(doc)
    shipped = load_level(read_json(LEVELS_DIR / "sections-01.json"))
    assert close(axial(level), axial(shipped)) and close(given(level), given(shipped))
    forces = {near + f"{u}": round(t / 1000, 6) for (near, u), t in axial(level).items()}
    assert forces == {"F(1.0, 0.0)": -18.0, "F(0.6, -0.8)": 7.5, "B(1.0, 0.0)": 13.5}
    assert level.goal.moment_about == "F"  # where FG and FC meet: ΣM about F leaves BC alone


def test_a_section_dragged_by_mouse_is_cut_where_it_crosses_and_its_side_and_members_change_by_click_and_keys(app, home):
    doc = a.start(truss_01())
    scene = EditorScene(app, doc)
    app.push(scene)
    frame(app)
    p, q = scene._px((5.2, -1.0)), scene._px((5.2, 4.0))
    drag(scene, p, q)
    assert scene.doc["_section"]["kept"] == ["A", "B", "E"] and scene.authoring.said == ""
    assert sorted(c["member"] for c in scene.doc["cut"]) == ["BC", "BF", "EF"]
    assert [(ld["node"], ld.get("fx"), ld.get("fy")) for ld in scene.doc["loads"]][-1] == ("A", -8000.0, 9000.0)  # A's reaction, given
    found = scene.findings()
    assert found.problems == [] and found.answer == [  # the hand answer: BC 16 kN pulls, EF 12 kN pushes, BF 5 kN pulls
        "force at S1: Fx = 16 kN, Fy = 0 kN",
        "force at S2: Fx = −12 kN, Fy = 0 kN",
        "force at S3: Fx = 4 kN, Fy = 3 kN",
    ]
    frame(app)
    click(scene, member_px(scene, "BF"))  # BF given now: its force a load at its cut, two asked
    assert sorted(c["member"] for c in scene.doc["cut"]) == ["BC", "EF"] and scene.findings().problems == []
    frame(app)
    click(scene, row(scene, "side").center)  # the other side: C, D, F kept, D's reaction given
    assert scene.doc["_section"]["kept"] == ["C", "D", "F"]
    assert sorted(c["member"] for c in scene.doc["cut"]) == ["BC", "BF", "EF"]  # a new part: three asked again
    type_into(scene, "part", "CD, FD")  # the keyboard's way: the members a section cuts, named (it cuts D out)
    assert scene.doc["_section"]["kept"] == ["D"] and scene.findings().problems == []
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.doc["_section"]["kept"] == ["C", "D", "F"]  # Ctrl+Z: the section before


def test_a_section_that_does_not_cut_the_truss_in_two_is_refused_said_why_and_changes_nothing(app, home):
    scene = EditorScene(app, a.start(truss_01()))
    app.push(scene)
    frame(app)
    before = scene.doc
    drag(scene, scene._px((5.2, -1.0)), scene._px((5.2, 1.0)))  # across BC and BF only: the top chord still holds the halves
    assert scene.doc == before and "does not cut the structure in two" in scene.authoring.said
    drag(scene, scene._px((4.0, -1.0)), scene._px((4.0, 4.0)))  # through B and E
    assert scene.doc == before and "passes through joint" in scene.authoring.said
    type_into(scene, "part", "EF BF")
    assert scene.doc == before and "do not cut the structure in two" in scene.authoring.said
    scene.authoring.said = ""
    click(scene, scene._px((10.5, 2.8)))  # a click in the picture off the truss, no drag: nothing drawn, nothing said
    assert scene.doc == before and scene.authoring.said == ""
    click(scene, scene._px((5.2, 0.9)))  # a click on the bar BF: no body to take apart, said why
    assert scene.doc == before and scene.authoring.said.startswith("BF is a two-force member")


def test_four_members_cut_ask_the_three_statics_finds_and_the_fourth_is_given():
    """A section across a truss with two diagonals in its panel (an X-braced panel: four
    members cut): three of them asked, in the order of the file, not all meeting at one point;
    the fourth's force given. Asking all four is said: three equations."""
    design = truss_01()
    design["members"].append({**design["members"][0], "id": "EC", "i": "E", "j": "C"})  # the other diagonal: once indeterminate
    doc = a.cut_section(a.start(design), (5.5, -1.0), (5.5, 4.0))  # not through where the diagonals cross
    assert len(doc["_section"]["shares"]) == 4 and len(doc["cut"]) == 3
    level = remade(doc)
    assert judge(level, load_solution(answer_solution(level))).passed
    four = a.toggle_part_member(doc, next(m for m in doc["_section"]["shares"] if m not in {c["member"] for c in doc["cut"]}))
    assert a.checked(four)[0][-1].startswith("cut: a part cut by a section gives three equations")


def test_a_section_level_saved_from_the_editor_validates_and_grades_its_reference_answer(app, home, capsys):
    scene = EditorScene(app, a.start(truss_01()))
    app.push(scene)
    frame(app)
    drag(scene, scene._px((5.2, -1.0)), scene._px((5.2, 4.0)))
    type_into(scene, "id", "section-b")
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    path = home / "section-b.json"
    assert path.is_file(), scene.authoring.said
    assert main(["validate", str(path)]) == 0
    level = load_level(read_json(path))
    assert "_section" not in read_json(path) and "_whole" not in read_json(path)  # the editor's own marks are not saved
    wrong = answer_solution(level)
    wrong["moves"][0]["fx"] = -wrong["moves"][0]["fx"]  # BC pushed instead of pulled
    assert judge(level, load_solution(answer_solution(level))).passed and not judge(level, load_solution(wrong)).passed
    assert KINDS[level.kind].cuts


def drag(scene: EditorScene, p, q) -> None:
    """A press at `p`, the mouse moved to `q` and let go there (pixels)."""
    p, q = (round(p[0]), round(p[1])), (round(q[0]), round(q[1]))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=p, button=1, mod=0))
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=q, rel=(q[0] - p[0], q[1] - p[1]), buttons=(1, 0, 0)))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=q, button=1))


@pytest.mark.parametrize("level_id", list(CUT_FROM_TRUSS_01))
def test_each_student_s_part_is_cut_from_their_own_whole_truss(level_id):
    """truss-01 with its numbers (the loads PB, PC and Q each student's own): the part cut out
    keeps them, each given force written from them (truss-02's A reaction: (8·PB + 4·PC −
    3·Q)/12 up, by ΣM about D), so each student's part is the one cut from their whole. The
    shipped level, which writes those forces by hand, gives the same answer at the same
    numbers, at two corners of the ranges and a student's draw."""
    whole = truss_01(numbers=True)
    level = remade(CUT_FROM_TRUSS_01[level_id](a.start(whole)))
    shipped = load_level(read_json(LEVELS_DIR / f"{level_id}.json"))
    assert set(level.vary.numbers) == {"PB", "PC", "Q"}
    for numbers in ({"PB": 10000, "PC": 4000, "Q": 12000}, {"PB": 18000, "PC": 10000, "Q": 4000}, draw(level, "s1001")):
        assert close(axial(with_numbers(level, numbers)), axial(with_numbers(shipped, numbers))), numbers
    if level_id == "truss-02":
        assert level.vary.set == {"loads[0].fx": "-Q", "loads[0].fy": "0.666666666667 * PB + 0.333333333333 * PC - 0.25 * Q"}


def test_a_part_s_numbers_are_the_whole_s_set_there_and_a_load_times_a_load_keeps_none():
    """In a part the loads follow the whole's numbers: a click on a load is refused, said why;
    a range typed or a number made the same for all goes to the whole and the part is cut
    again; a load written as a product of two numbers (not linear) leaves the part none."""
    whole = truss_01(numbers=True)
    part = a.cut_section(a.start(whole), (5.2, -1.0), (5.2, 4.0))
    with pytest.raises(a.Refused, match="A part cut out has the whole structure's numbers"):
        a.vary_load(part, 0, a.Range(1, 2, 1))
    narrower = a.set_range(part, "PB", "12 14 1")
    assert narrower["_whole"]["vary"]["numbers"]["PB"]["max"] == 14000 and narrower["vary"]["numbers"]["PB"]["max"] == 14000
    assert narrower["_section"] == part["_section"] and narrower["cut"] == part["cut"]
    fixed = a.unvary(part, "Q")
    assert "Q" not in fixed["_whole"]["vary"]["numbers"] and all("Q" not in e for e in fixed["vary"]["set"].values())
    assert remade(fixed).vary is not None
    whole["vary"]["set"]["loads[2].fx"] = "Q * PC / 9000"
    unlinear = a.cut_section(a.start(whole), (5.2, -1.0), (5.2, 4.0))
    assert "vary" not in unlinear and a.checked(unlinear)[0] == []


def test_a_member_with_a_load_spread_along_it_is_not_cut_and_a_whole_one_keeps_its_load():
    """A beam of two members on a pin and a roller, 2 kN/m along AB only: a section across
    AB is refused, said why (its stub would carry the load over the stub's length: a wrong
    answer); one across BC keeps AB whole with its spread load, and BC's cut force balances
    the part (ΣFy: RA − 2·2 + V = 0, the answer by the part's own statics)."""
    beam = {"kind": "beam", "material": "steel", "A": 0.004, "I": 2e-5}
    doc = {
        "format": 1,
        "id": "spread",
        "title": "Spread",
        "kind": "sandbox",
        "world": {"mass_damping": 0.2},
        "materials": {"steel": {"E": 2e11, "density": 7850, "nu": 0.3}},
        "nodes": [{"id": k, "x": x, "y": 0} for k, x in (("A", 0), ("B", 2), ("C", 4))],
        "members": [{"id": "AB", "i": "A", "j": "B", **beam}, {"id": "BC", "i": "B", "j": "C", **beam}],
        "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["y"]}],
        "loads": [],
        "member_loads": [{"member": "AB", "w": -2000}],
    }
    whole = a.start(doc)
    with pytest.raises(a.Refused, match="AB carries a load spread along it"):
        a.cut_section(whole, (1.0, -1.0), (1.0, 1.0))
    part = a.other_side(a.cut_section(whole, (3.0, -1.0), (3.0, 1.0)))  # C alone is the side with fewer joints: A and B instead
    assert part["_section"]["kept"] == ["A", "B"]
    level = remade(part)
    assert [ml.member for ml in level.member_loads] == ["AB"] and [c.what for c in level.cut] == ["beam"]
    assert judge(level, load_solution(answer_solution(level))).passed


def test_numbers_without_a_default_or_loads_not_at_their_numbers_are_carried_from_the_numbers_own_values():
    """A teacher's truss-01 whose numbers give no default (the middle of each range is the
    level's own value) and whose loads are written at other values: the part is cut at the
    numbers' own values, and its answer at any numbers is the shipped truss-04's."""
    whole = truss_01(numbers=True)
    for number in whole["vary"]["numbers"].values():
        number.pop("default")
    whole["loads"][0]["fy"] = -99000  # not what -PB gives
    level = remade(CUT_FROM_TRUSS_01["truss-04"](a.start(whole)))
    shipped = load_level(read_json(LEVELS_DIR / "truss-04.json"))
    for numbers in ({"PB": 10000, "PC": 4000, "Q": 12000}, draw(level, "s2002")):
        assert close(axial(with_numbers(level, numbers)), axial(with_numbers(shipped, numbers))), numbers


def test_a_section_through_two_beams_gives_the_second_its_axial_force_shear_and_moment_at_the_cut():
    """A portal frame, both feet fixed (A (0, 0) and D (4, 0)), its posts AB and DC 3 m high
    and the beam BC, pushed 10 kN to the right at B. A section across both posts at 1.5 m
    keeps the top (B and C: a tie, the left is kept): each post cut carries N, V and M, six
    unknowns for three equations, so the first post's are asked and the second's given, all
    three of them where the section cuts it (not its axial force alone, nor its end's moment).
    The asked cut's answer is then what the whole frame's statics gives at that cut (the
    same end forces carried to the cut), and the given moment is no end moment but the one at
    mid-height. Tolerance: the given forces are kept to the micronewton."""
    from equilibria.rules.part_body import at_cut, solved

    beam = {"kind": "beam", "material": "steel", "A": 0.004, "I": 2e-5}
    frame_doc = {
        "format": 1,
        "id": "portal",
        "title": "Portal",
        "kind": "sandbox",
        "world": {"mass_damping": 0.2, "gravity": 0.0},  # weight left out, as a drafted level leaves it
        "materials": {"steel": {"E": 2e11, "density": 7850, "nu": 0.3}},
        "nodes": [{"id": k, "x": x, "y": y} for k, x, y in (("A", 0, 0), ("B", 0, 3), ("C", 4, 3), ("D", 4, 0))],
        "members": [{"id": i + j, "i": i, "j": j, **beam} for i, j in (("A", "B"), ("B", "C"), ("D", "C"))],
        "supports": [{"node": "A", "fix": ["x", "y", "rot"]}, {"node": "D", "fix": ["x", "y", "rot"]}],
        "loads": [{"node": "B", "fx": 10000}],
    }
    part = a.cut_section(a.start(frame_doc), (-1.0, 1.5), (5.0, 1.5))
    assert part["_section"]["kept"] == ["B", "C"] and [(c["member"], c["what"]) for c in part["cut"]] == [("AB", "beam")]
    level = remade(part)
    results, _reactions = solved(frame_doc)
    at = {n["id"]: n for n in frame_doc["nodes"]}
    members = {m["id"]: m for m in frame_doc["members"]}
    given = next(ld for ld in level.loads if ld.node != "B")  # DC's, at its stub's end (4, 1.5)
    want = at_cut(at, members["DC"], "C", (4.0, 1.5), results["DC"])
    assert all(math.isclose(g, w, abs_tol=1e-3) for g, w in zip((given.fx, given.fy, given.m), want, strict=True))
    end_moment = float(results["DC"]["moment_j"])
    assert abs(given.m) > 100 and not math.isclose(abs(given.m), abs(end_moment), rel_tol=0.05)  # mid-height's, not the end's
    answer = {mv["type"]: mv for mv in answer_solution(level)["moves"]}  # AB's cut, solved from the part's statics
    fx, fy, m = at_cut(at, members["AB"], "B", (0.0, 1.5), results["AB"])
    assert math.isclose(answer["add_force"]["fx"], fx, abs_tol=1e-2) and math.isclose(answer["add_force"]["fy"], fy, abs_tol=1e-2)
    assert math.isclose(answer["add_moment"]["m"], m, abs_tol=1e-2)
    assert math.isclose(fx + given.fx + 10000, 0.0, abs_tol=1e-2)  # ΣFx of the part: the two posts' shears take the 10 kN
