"""The level editor as a teacher works it (issue 34): a free-body level and a build level
made from a sandbox structure by mouse and keys, saved to the teacher's levels folder,
validated, listed, played and passed with the answer the judge computes, and two
students graded, each with numbers of their own; every edit undone and redone; a level
whose answer a student has still to find does not open in it; and shipped levels made
again from their structure come out with the same question and the same answer.

The structure: a truss of 4 m span, A (0, 0) on a pin, C (4, 0) on a roller, B (2, 0)
loaded 10 kN down, D (2, 1.5) above it. By hand: the reactions are 5 kN up at A and
at C, none across (symmetric, one vertical load)."""

from __future__ import annotations

import csv
import io
import json
import math

import pygame
import pytest

from equilibria.app.draw.draft import LOAD_PX, where
from equilibria.app.scenes.editor import EditorScene
from equilibria.app.window.app import App
from equilibria.cli.main import main
from equilibria.course import authoring as a
from equilibria.course.level import load_level
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import read_json
from equilibria.format.solution import load_solution
from equilibria.rules.judge import check as judge
from equilibria.rules.kinds import KINDS
from equilibria.rules.variants import version

STEEL = {"E": 200e9, "density": 7850, "nu": 0.3, "strength": 250e6}
BAR = {"kind": "bar", "material": "steel", "A": 0.000453, "I": 1.16e-07}


def sandbox_design() -> dict:
    """What the sandbox saves of the truss of the module's docstring."""
    nodes = [{"id": k, "x": x, "y": y} for k, x, y in (("A", 0, 0), ("B", 2, 0), ("C", 4, 0), ("D", 2, 1.5))]
    members = [{"id": i + j, "i": i, "j": j, **BAR} for i, j in (("A", "B"), ("B", "C"), ("A", "D"), ("D", "C"), ("B", "D"))]
    return {
        "format": 1,
        "id": "sandbox",
        "title": "Sandbox",
        "kind": "sandbox",
        "world": {"mass_damping": 0.2},
        "materials": {"steel": STEEL},
        "nodes": nodes,
        "members": members,
        "supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["y"]}],
        "loads": [{"node": "B", "fy": -10000}],
    }


def frame(app: App) -> None:
    app.run(frames=1)


def click(scene: EditorScene, pos, mod: int = 0) -> None:
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(pos[0]), round(pos[1])), button=1, mod=mod))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(round(pos[0]), round(pos[1])), button=1))


def key(scene: EditorScene, k: int, mod: int = 0) -> None:
    scene.handle_event(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))


def row(scene: EditorScene, name: str):
    frame(scene.app)
    return next(rect for rect, field in scene.rects if field.name == name)


def type_into(scene: EditorScene, name: str, text: str) -> None:
    """Click the panel's field `name`, select what it holds, type `text`, Enter."""
    click(scene, row(scene, name).center)
    key(scene, pygame.K_a, pygame.KMOD_CTRL)
    scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=text))
    key(scene, pygame.K_RETURN)


def node_px(scene: EditorScene, node: str):
    frame(scene.app)
    return scene._px(where(scene.doc)[node])


def load_px(scene: EditorScene, k: int):
    """The middle of load k's arrow on the screen."""
    load = scene.doc["loads"][k]
    head = node_px(scene, load["node"])
    size = math.hypot(load.get("fx", 0.0), load.get("fy", 0.0))
    return (head[0] - LOAD_PX / 2 * load.get("fx", 0.0) / size, head[1] + LOAD_PX / 2 * load.get("fy", 0.0) / size)


def answer_file(path, level_id: str, student: str) -> dict:
    """The answer to `student`'s own numbers, stamped as the game writes a hand-in."""
    drawn = version(load_level(read_json(path)), student)
    moves = [m.model_dump(mode="json", exclude_none=True) for m in KINDS[drawn.kind].answer(drawn)]
    return {"format": 1, "level": level_id, "student": student, "numbers": drawn.numbers, "moves": moves}


def graded_class(saved, level_id: str, folder, capsys) -> dict:
    """Alice and Bob hand in the answers to their own numbers, Carol hands in Alice's: the
    grade CSV's rows by student (Alice's and Bob's numbers asserted to differ)."""
    alice, bob = answer_file(saved, level_id, "alice"), answer_file(saved, level_id, "bob")
    assert alice["numbers"] != bob["numbers"]  # numbers of their own
    for name, solution in (("alice", alice), ("bob", bob), ("carol", alice | {"student": "carol"})):
        (folder / name).mkdir(parents=True)
        (folder / name / f"{level_id}.json").write_text(json.dumps(solution), encoding="utf-8")
    capsys.readouterr()
    assert main(["grade", level_id, str(folder), "--csv", "-"]) == 0
    return {r["student"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff")))}


def test_a_free_body_level_made_by_mouse_and_keys_saves_validates_plays_and_grades_two_students(app, home, tmp_path, capsys):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    assert scene.doc["kind"] == "free_body"  # a structure on supports: the textbook's first question of it
    assert {c["node"] for c in scene.doc["cut"]} == {"A", "C"} and "supports" not in scene.doc
    click(scene, node_px(scene, "C"))  # the roller put back ...
    assert [c["node"] for c in scene.doc["cut"]] == ["A"] and scene.doc["supports"] == [{"node": "C", "fix": ["y"]}]
    click(scene, node_px(scene, "C"))  # ... and cut away again
    assert {c["node"]: c["carries"] for c in scene.doc["cut"]} == {"A": ["x", "y"], "C": ["y"]}
    click(scene, load_px(scene, 0))  # the load: a number of each student's own
    number = scene.doc["vary"]["numbers"]["P1"]
    assert (number["min"], number["max"], number["step"], number["default"]) == (5000, 15000, 10, 10000)  # 1,001 values: enough
    assert not any("versions" in said for said in scene.findings().said)  # the editor's own range passes its own check
    assert scene.doc["vary"]["set"] == {"loads[0].fy": "-P1"}
    type_into(scene, "number:P1", "6 20 0.5")
    assert scene.doc["vary"]["numbers"]["P1"] | {"words": None} == {"min": 6000, "max": 20000, "step": 500, "unit": "kN", "default": 10000, "words": None}
    type_into(scene, "id", "week-1-truss")
    type_into(scene, "text:title", "A truss on a pin and a roller")
    type_into(scene, "text:brief", "The truss carries {P1} down at B. Give the reactions at A and at C.")
    click(scene, row(scene, "lang").center)  # German next
    type_into(scene, "text:title", "Ein Fachwerk auf Fest- und Loslager")
    assert scene.doc["title"] == {"en": "A truss on a pin and a roller", "de": "Ein Fachwerk auf Fest- und Loslager"}
    found = scene.findings()
    problems, answer, preview = found.said, found.answer, found.preview
    assert problems == [  # what validate says, the warning too
        "Note: Numbers of each student's own: only 29 versions (P1 29): in a class of 200, about 200 would share theirs with another;"
        " give its numbers more values (at least 1,000 versions)"
    ]
    type_into(scene, "number:P1", "5 15 0.01")  # 1,001 versions
    found = scene.findings()
    problems, answer, preview = found.said, found.answer, found.preview
    assert problems == [], problems  # the texts in English (and a German title) only: a note for validate, not a problem
    assert answer == ["force at A: Fx = 0 kN, Fy = 5 kN", "force at C: Fx = 0 kN, Fy = 5 kN"]  # as `show --answers` prints it
    assert any("Answer:" in line for line in preview)  # the teacher's key's view of student s1001
    key(scene, pygame.K_z, pygame.KMOD_CTRL)  # the wider range undone ...
    assert scene.doc["vary"]["numbers"]["P1"]["step"] == 500
    key(scene, pygame.K_z, pygame.KMOD_CTRL)  # ... and the German title
    assert scene.doc["title"] == {"en": "A truss on a pin and a roller"}
    key(scene, pygame.K_y, pygame.KMOD_CTRL)  # both done again
    key(scene, pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert scene.doc["title"]["de"] == "Ein Fachwerk auf Fest- und Loslager" and scene.doc["vary"]["numbers"]["P1"]["step"] == 10
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    saved = home / "week-1-truss.json"
    assert saved.is_file(), scene.authoring.said
    assert "_world" not in saved.read_text() and "my-level" not in saved.read_text()
    capsys.readouterr()
    assert main(["validate", str(saved)]) == 0, capsys.readouterr()
    assert capsys.readouterr().out.startswith(f"{saved}: ok (free_body")
    assert main(["levels", "--json"]) == 0
    listed = {entry["id"]: entry for entry in json.loads(capsys.readouterr().out)}
    assert listed["week-1-truss"]["kind"] == "free_body"

    level = load_level(read_json(saved))
    assert judge(level, load_solution({"format": 1, "level": level.id, "moves": [m.model_dump() for m in KINDS["free_body"].answer(level)]})).passed
    by_hand = {
        "format": 1,
        "level": level.id,
        "moves": [{"type": "add_force", "node": "A", "fx": 0, "fy": 5000}, {"type": "add_force", "node": "C", "fx": 0, "fy": 5000}],
    }
    assert judge(level, load_solution(by_hand)).passed  # the statics of the module's docstring, for the level's own 10 kN

    rows = graded_class(saved, level.id, tmp_path / "class", capsys)
    assert (rows["alice"]["passed"], rows["bob"]["passed"], rows["carol"]["passed"]) == ("true", "true", "false"), rows


def test_a_build_level_made_by_mouse_keeps_the_design_as_its_reference_answer_and_grades_two_students(app, home, tmp_path, capsys):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    seen = [scene.doc["kind"]]
    while scene.doc["kind"] != "build":  # K goes through the kinds the editor makes
        key(scene, pygame.K_k)
        seen.append(scene.doc["kind"])
    assert seen == ["free_body", "section", "sandbox", "balance", "zero_force", "determinacy", "build"]
    assert sorted(n["id"] for n in scene.doc["nodes"]) == ["A", "B", "C"] and scene.doc["members"] == []  # D and the members: the student's to build
    a_px, c_px = node_px(scene, "A"), node_px(scene, "C")
    start, end = (a_px[0] - 30, a_px[1] + 10), (c_px[0] + 30, c_px[1] - 2.25 * (c_px[0] - a_px[0]) / 4)  # a zone 2.25 m high over the span
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, mod=0))
    scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
    scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    (x0, y0), _b, (x1, y1), _d = scene.doc["player"]["zone"]
    assert x0 < 0 < 4 < x1 and y0 < 0 and 2.0 < y1 < 2.5
    click(scene, load_px(scene, 0))  # the load at B: 5 to 15 kN, each student's own
    type_into(scene, "budget", "2000")
    type_into(scene, "id", "week-2-bridge")
    type_into(scene, "text:title", "Bridge the gap for 2000")
    type_into(scene, "text:brief", "Build a truss from A to C that holds the load at B.")
    found = scene.findings()
    problems, answer = found.said, found.answer
    assert problems == [], problems
    length = 2 + 2 + 2 * 2.5 + 1.5  # AB, BC, AD, DC, BD [m]
    assert answer == [f"Your design costs {length * 100 + 50:,.0f} of the budget 2,000."]
    type_into(scene, "price:light", "120")  # what the level asks and costs: each a field of the panel
    type_into(scene, "goal:max_displacement", "3")
    type_into(scene, "goal:hold", "0")  # refused: a hold of nothing
    assert "greater than zero" in scene.authoring.said
    assert (scene.doc["player"]["sections"]["light"]["cost"], scene.doc["goal"]) == (120, {"hold": 1.0, "max_displacement": 0.03})
    assert scene.findings().answer == [f"Your design costs {length * 120 + 50:,.0f} of the budget 2,000."]
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    saved, reference = home / "week-2-bridge.json", home / "solutions" / "week-2-bridge.json"
    assert saved.is_file() and reference.is_file(), scene.authoring.said
    capsys.readouterr()
    assert main(["validate", str(saved)]) == 0, capsys.readouterr()
    capsys.readouterr()
    assert main(["check", "week-2-bridge", "--solution", str(reference)]) == 0, capsys.readouterr()  # the reference design holds, within the budget
    capsys.readouterr()
    assert main(["levels"]) == 0 and "week-2-bridge" in capsys.readouterr().out
    assert "solutions" not in {p.name for p in home.iterdir() if p.suffix == ".json"}  # the reference is not one of the listed levels

    design = read_json(reference)
    level = load_level(read_json(saved))
    folder = tmp_path / "class"
    numbers = {}
    for student in ("alice", "bob"):  # each the teacher's design, for their own load
        numbers[student] = version(level, student).numbers
        (folder / student).mkdir(parents=True)
        (folder / student / "week-2-bridge.json").write_text(json.dumps(design | {"student": student, "numbers": numbers[student]}), encoding="utf-8")
    assert numbers["alice"] != numbers["bob"]
    capsys.readouterr()
    assert main(["grade", "week-2-bridge", str(folder), "--csv", "-"]) == 0
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff")))}
    assert (rows["alice"]["passed"], rows["bob"]["passed"]) == ("true", "true"), rows


def test_every_edit_is_undone_and_a_refused_one_changes_nothing(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    first = scene.doc
    click(scene, node_px(scene, "A"))
    click(scene, load_px(scene, 0))
    type_into(scene, "text:brief", "Give the reactions.")
    type_into(scene, "id", "truss-01")  # a course level's id: refused, said why
    assert scene.doc["id"].startswith("my-level-") and "truss-01 is the id of a level of the course" in scene.authoring.said
    type_into(scene, "number:P1", "20 6 1")  # a range that goes down: refused
    assert scene.doc["vary"]["numbers"]["P1"]["min"] == 5000 and "range" in scene.authoring.said
    for _k in range(3):
        key(scene, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.doc == first
    key(scene, pygame.K_z, pygame.KMOD_CTRL)
    assert scene.doc == first and scene.authoring.said == "Nothing to undo."


def test_nothing_is_saved_while_validate_has_a_problem_and_the_problem_is_shown(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    type_into(scene, "text:brief", "The load is {Q}.")  # no number Q
    problems = scene.findings().said
    assert problems and problems[0].startswith("Brief (English): {Q}")
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    assert not home.exists() or not list(home.glob("*.json"))
    assert scene.authoring.said.startswith("Not saved: Brief (English): {Q}")
    key(scene, pygame.K_ESCAPE)  # not saved: asked first
    assert app.scenes == [scene] and "Esc again" in scene.authoring.said
    key(scene, pygame.K_ESCAPE)
    assert app.scenes == []


def test_a_level_whose_answer_is_still_to_find_does_not_open_in_the_editor(tmp_path, monkeypatch):
    from equilibria.course.progress import Progress
    from equilibria.course.withheld import withheld, withheld_file

    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    progress = Progress.load()
    assert withheld("free_body", "truss-01", progress)  # a free body: its reactions are the answer
    assert withheld("zero_force", "zero-force-01", progress)
    assert withheld("free_body", "truss-01", None)
    assert not withheld("build", "bridge-01", progress)  # a build: the editor shows a design's cost, as the level does
    assert not withheld("sandbox", "sandbox", progress) and not withheld(None, None, progress)
    copied = read_json(LEVELS_DIR / "zero-force-02.json") | {"id": "my-copy"}
    assert withheld_file(copied, progress, "anything") == "my-copy"  # a copy under another id has no pass of its own
    assert withheld_file(copied | {"id": None}, progress, "anything") == "anything"
    assert withheld_file([copied], progress, "x") is None and withheld_file({"nodes": []}, progress, "x") is None  # not a level
    progress.record_check("truss-01", True, 100, 1)
    assert not withheld("free_body", "truss-01", progress)  # passed: the answer is the student's own


def support_cut_levels(kind: str) -> list[str]:
    out = []
    for path in sorted(LEVELS_DIR.glob("*.json")):
        data = read_json(path)
        if data.get("kind") == kind and all(c["what"] == "support" for c in data.get("cut") or []) and not data.get("player", {}).get("load_choices"):
            out.append(path.stem)
    return out


def moves_of(moves) -> list[tuple]:
    """Each move as (type, node or member, its numbers rounded to 1 mN)."""
    out = []
    for m in moves or []:
        d = m.model_dump()
        out.append((d["type"], d.get("node") or d.get("member"), tuple(round(d[k], 3) for k in ("fx", "fy", "m") if d.get(k) is not None)))
    return out


def direction(v) -> tuple | None:
    return None if v is None else (round(v[0] / math.hypot(*v), 6), round(v[1] / math.hypot(*v), 6))


def member_px(scene: EditorScene, member: str):
    """The middle of `member` on the screen, a little off its name's plate."""
    at = where(scene.doc)
    m = next(m for m in scene.doc["members"] if m["id"] == member)
    (xi, yi), (xj, yj) = node_px(scene, m["i"]), scene._px(at[m["j"]])
    return (0.7 * xi + 0.3 * xj, 0.7 * yi + 0.3 * yj)


def test_a_section_level_made_by_clicking_the_members_asked_saves_validates_passes_and_grades(app, home, tmp_path, capsys):
    """Method of sections: K to a section level, a click on each member it asks about (the
    panel names the force in each, the teacher's only), a number of each student's own, saved,
    validated, passed with the judge's answer and with the statics worked by hand, graded."""
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    while scene.doc["kind"] != "section":
        key(scene, pygame.K_k)
    assert scene.doc["supports"] == sandbox_design()["supports"] and "cut" not in scene.doc  # the whole truss on its supports
    assert len(scene.doc["player"]["asked"]) == 1  # one member to start from, the nearest the middle
    type_into(scene, "asked", "")
    assert scene.findings().said == ["Members asked: at least 1 item"]  # validate's player.asked, named as the panel's row
    click(scene, member_px(scene, "AB"))
    assert scene.doc["player"]["asked"] == ["AB"]
    click(scene, member_px(scene, "AD"))
    click(scene, member_px(scene, "AD"))  # again: not asked
    assert scene.doc["player"]["asked"] == ["AB"]
    type_into(scene, "asked", "AB, ZZ")  # refused, said why
    assert scene.doc["player"]["asked"] == ["AB"] and scene.authoring.said.startswith("No member is named ZZ")
    found = scene.findings()
    problems, answer = found.said, found.answer
    # A pin at A, a roller at C, 10 kN down at B, mid-span: 5 kN up at A. Joint A (the judge's
    # section cuts AB and AD): ΣFy: 5 + AD·1.5/2.5 = 0, AD = −8.33 kN (compression); ΣFx:
    # AB + AD·2/2.5 = 0, AB = 6.67 kN (tension).
    assert answer == ["AB: 6.67 kN in tension", "AD: 8.33 kN in compression"]
    assert problems == ["Note: Numbers of each student's own: none, so every student gets the same numbers and the class shares one answer"]
    click(scene, load_px(scene, 0))
    type_into(scene, "number:P1", "5 15 0.01")
    type_into(scene, "id", "week-2-section")
    type_into(scene, "text:title", "Cut the truss")
    type_into(scene, "text:brief", "The truss carries {P1} down at B. Give the force in AB by a section of your choice.")
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    saved = home / "week-2-section.json"
    assert saved.is_file(), scene.authoring.said
    capsys.readouterr()
    assert main(["validate", str(saved)]) == 0, capsys.readouterr()
    level = load_level(read_json(saved))
    assert level.kind == "section" and level.player.asked == ["AB"]
    assert judge(level, load_solution({"format": 1, "level": level.id, "moves": [m.model_dump() for m in KINDS["section"].answer(level)]})).passed
    by_hand = [{"type": "cut_member", "member": "AB", "force": 20000 / 3}, {"type": "cut_member", "member": "AD", "force": -25000 / 3}]
    assert judge(level, load_solution({"format": 1, "level": level.id, "moves": by_hand})).passed  # a section around joint A
    wrong = [{"type": "cut_member", "member": "AB", "force": -20000 / 3}, {"type": "cut_member", "member": "AD", "force": -25000 / 3}]
    assert not judge(level, load_solution({"format": 1, "level": level.id, "moves": wrong})).passed  # AB's sign wrong
    rows = graded_class(saved, level.id, tmp_path / "class", capsys)
    assert (rows["alice"]["passed"], rows["bob"]["passed"], rows["carol"]["passed"]) == ("true", "true", "false"), rows


def test_the_shipped_section_level_made_again_from_its_structure_has_the_same_answer():
    data = read_json(LEVELS_DIR / "sections-02.json")
    doc = a.set_asked(a.set_kind(a._as_structure(data) | {"kind": "sandbox"}, "section"), " ".join(data["player"]["asked"]))
    remade, original = load_level(a.level_document(doc)), load_level(data)
    assert remade.player.asked == original.player.asked
    assert moves_of(KINDS["section"].answer(remade)) == moves_of(KINDS["section"].answer(original))


@pytest.mark.parametrize("level_id", support_cut_levels("free_body") + support_cut_levels("zero_force"))
def test_a_shipped_level_made_again_from_its_structure_asks_the_same_and_has_the_same_answer(level_id):
    """The level's structure alone (its cuts back as supports, no goal, no player), made a
    level of its kind again in the editor (K, and the mode's row for a zero-force level):
    the same cuts, the same mode, the same answer."""
    data = read_json(LEVELS_DIR / f"{level_id}.json")
    doc = a.set_kind(a._as_structure(data) | {"kind": "sandbox"}, data["kind"])
    while (doc.get("player") or {}).get("mode") != (data.get("player") or {}).get("mode", doc.get("player", {}).get("mode")):
        doc = a.next_mode(doc)
    doc["world"] = data.get("world", {})  # the level's own world (a free body's self-weight, where it counts one)
    remade, original = load_level(a.level_document(doc)), load_level(data)
    assert sorted((c.node, tuple(c.carries or ()), direction(c.along)) for c in remade.cut or []) == sorted(
        (c.node, tuple(c.carries or ()), direction(c.along)) for c in original.cut or []
    )
    assert remade.player.mode == original.player.mode
    assert moves_of(KINDS[data["kind"]].answer(remade)) == moves_of(KINDS[data["kind"]].answer(original))


def test_ctrl_l_opens_the_editor_on_the_sandbox_s_design_and_p_plays_it_as_the_student(app, home):
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.stage import Stage
    from equilibria.course.progress import Progress

    sandbox = PlayScene(app, Stage.from_level(load_level(sandbox_design()), sandbox=True), progress=Progress.load())
    app.push(sandbox)
    frame(app)
    sandbox.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=pygame.KMOD_CTRL, unicode=""))
    editor = app.scenes[-1]
    assert isinstance(editor, EditorScene) and sorted(n["id"] for n in editor.doc["nodes"]) == ["A", "B", "C", "D"]
    click(editor, load_px(editor, 0))
    type_into(editor, "student", "alice")
    key(editor, pygame.K_p)
    played = app.scenes[-1]
    assert isinstance(played, PlayScene) and played is not sandbox
    assert played.stage.level.student == "alice" and played.session.progress is None  # alice's numbers; nothing recorded
    assert played.stage.level.numbers == version(a.built(editor.doc), "alice").numbers
    app.pop()  # back from the play screen (its Esc asks first, as for any level) ...
    assert app.scenes[-1] is editor  # ... to the editor, the draft as it was


def test_neither_ctrl_l_nor_the_menu_s_e_opens_a_level_whose_answer_is_still_to_find(app, home):
    from equilibria.app.scenes.editor import WITHHELD
    from equilibria.app.scenes.menu import MenuScene
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.stage import load_stage
    from equilibria.course.progress import Progress

    progress = Progress.load()
    level = PlayScene(app, load_stage(LEVELS_DIR / "truss-01.json"), progress=progress)
    app.push(level)
    frame(app)
    level.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=pygame.KMOD_CTRL, unicode=""))
    assert app.scenes == [level] and level.session.notice == WITHHELD
    app.pop()
    menu = MenuScene(app, progress=progress)
    app.push(menu)
    frame(app)
    rows = menu.levels.rows
    for level_id, opens in (("truss-01", False), ("bridge-01", True)):
        menu.levels.selected = next(k for k, r in enumerate(rows) if r.level_id == level_id)
        menu.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e"))
        assert isinstance(app.scenes[-1], EditorScene) == opens, level_id
        assert menu.cannot_open.shown != opens and (opens or menu.cannot_open.text == WITHHELD)
        if opens:
            assert app.scenes[-1].doc["kind"] == "build" and app.scenes[-1].doc["id"].startswith("my-level-")  # a variant of bridge-01
        menu.cannot_open.close()


def test_a_level_copied_among_the_designs_opens_neither_as_a_sandbox_nor_in_the_editor(app, home):
    """The menu lists the files in the designs folder as sandboxes: a zero-force level
    copied there (under another id) would draw every member force, and E on it would show
    the judge's answer. Both are refused, said in the box; a real design opens."""
    from equilibria.app.scenes.editor import WITHHELD
    from equilibria.app.scenes.menu import SANDBOX_WITHHELD, MenuScene
    from equilibria.course.progress import Progress

    designs = home.parent / "designs"
    designs.mkdir(parents=True)
    (designs / "copied.json").write_text(json.dumps(read_json(LEVELS_DIR / "zero-force-02.json") | {"id": "copied"}), encoding="utf-8")
    menu = MenuScene(app, progress=Progress.load())
    app.push(menu)
    frame(app)
    chosen = next(k for k, r in enumerate(menu.levels.rows) if r.sandbox and r.path is not None and r.path.stem == "copied")
    menu.levels.selected = chosen
    menu.open(menu.levels.rows[chosen])
    assert app.scenes == [menu] and menu.cannot_open.shown and menu.cannot_open.text == SANDBOX_WITHHELD
    menu.cannot_open.close()
    menu.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e"))
    assert app.scenes == [menu] and menu.cannot_open.text == WITHHELD
    menu.cannot_open.close()
    (designs / "copied.json").write_text(json.dumps(read_json(LEVELS_DIR / "zero-force-02.json") | {"kind": "sandbox", "player": {}}), encoding="utf-8")
    menu.open(menu.levels.rows[chosen])  # a sandbox design of the same truss: the student's own to play with
    assert not menu.cannot_open.shown and len(app.scenes) == 2


def test_a_thousand_random_clicks_and_keys_never_crash_the_editor_and_every_draft_says_its_problems(app, home):
    """What a teacher (or a cat on the keyboard) does, in any order: clicks anywhere, drags,
    every key the editor reads, text typed into any field; each frame drawn. Each draft is
    one validate would read or refuse in words, never a traceback."""
    import random

    rng = random.Random(7)
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    keys = [pygame.K_k, pygame.K_p, pygame.K_TAB, pygame.K_DOWN, pygame.K_UP, pygame.K_RETURN, pygame.K_DELETE, pygame.K_z, pygame.K_y, pygame.K_s, pygame.K_a]
    texts = ["", "0", "-3", "5 15 1", "1e400", "{P1}", "{", "nan", "truss-01", "x y z", "Ünïcødé ✓", "2500", "0.1 0.2 0.0"]
    for _step in range(1000):
        if scene not in app.scenes:  # P played it, or Esc left: back to the editor
            while app.scenes and app.scenes[-1] is not scene:
                app.pop()
            if not app.scenes:
                app.push(scene)
        w, h = app.screen.get_size()
        roll = rng.random()
        if roll < 0.35:
            click(scene, (rng.randrange(w), rng.randrange(h)), rng.choice([0, 0, pygame.KMOD_SHIFT, pygame.KMOD_CTRL]))
        elif roll < 0.45:
            start, end = (rng.randrange(w), rng.randrange(h)), (rng.randrange(w), rng.randrange(h))
            scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, mod=0))
            scene.handle_event(pygame.event.Event(pygame.MOUSEMOTION, pos=end, rel=(0, 0), buttons=(1, 0, 0)))
            scene.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
        elif roll < 0.6 and scene.line is not None:
            scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=rng.choice(texts)))
        else:
            key(scene, rng.choice(keys), rng.choice([0, 0, pygame.KMOD_CTRL, pygame.KMOD_SHIFT]))
        if scene in app.scenes and app.scenes[-1] is scene:
            frame(app)
    assert len(scene.authoring.history) > 20 and scene.authoring.at < len(scene.authoring.history)  # it edited, a lot
    problems = scene.findings().said
    assert all(isinstance(p, str) and p for p in problems)


def test_a_level_saved_from_the_menu_s_editor_is_listed_at_once_and_opens(app, home):
    from equilibria.app.scenes.menu import MenuScene
    from equilibria.course.progress import Progress

    menu = MenuScene(app, progress=Progress.load())
    app.push(menu)
    frame(app)
    menu.levels.selected = next(k for k, r in enumerate(menu.levels.rows) if r.level_id == "frames-01")  # its frame, a free body
    menu.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0, unicode="e"))
    editor = app.scenes[-1]
    type_into(editor, "id", "my-bridge")
    type_into(editor, "text:title", "My bridge")
    key(editor, pygame.K_s, pygame.KMOD_CTRL)  # three pins cut away: six unknowns, three equations
    assert not home.exists() and editor.authoring.said.startswith("Not saved: The cuts: statics alone does not give their forces")
    type_into(editor, "text:explanation", "Any three forces that hold the frame at rest pass.")  # as the problem says: what passes
    key(editor, pygame.K_s, pygame.KMOD_CTRL)
    assert (home / "my-bridge.json").is_file(), editor.authoring.said
    key(editor, pygame.K_ESCAPE)  # saved: leaves at once
    assert app.scenes[-1] is menu
    rows = [r for r in menu.levels.rows if r.level_id == "my-bridge"]
    assert len(rows) == 1 and rows[0].choosable and not rows[0].problem and "My bridge" in rows[0].text


def test_the_keyboard_alone_makes_and_saves_a_level(app, home):
    """Tab to a row, Enter on it (a button acts, a field opens), type, Enter: no mouse."""
    scene = EditorScene(app, sandbox_design())
    app.push(scene)

    def tab_to(name: str) -> None:
        for _k in range(60):
            frame(app)
            if scene.fields()[scene.focus].name == name:
                return
            key(scene, pygame.K_TAB)
        raise AssertionError(name)

    tab_to("cut:C")
    key(scene, pygame.K_RETURN)  # the roller at C put back: the student gives the pin's forces only
    assert [c["node"] for c in scene.doc["cut"]] == ["A"]
    key(scene, pygame.K_RETURN)  # and cut away again
    tab_to("load:0")
    key(scene, pygame.K_RETURN)
    assert scene.doc["vary"]["set"] == {"loads[0].fy": "-P1"}
    tab_to("number:P1")
    key(scene, pygame.K_RETURN)
    key(scene, pygame.K_a, pygame.KMOD_CTRL)
    scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text="5 15 0.01"))
    key(scene, pygame.K_RETURN)
    for name, text in (("id", "by-keys"), ("text:title", "Made by keys"), ("text:brief", "Give the reactions at A and C: {P1} acts at B.")):
        tab_to(name)
        key(scene, pygame.K_RETURN)
        key(scene, pygame.K_a, pygame.KMOD_CTRL)
        scene.handle_event(pygame.event.Event(pygame.TEXTINPUT, text=text))
        key(scene, pygame.K_RETURN)
    tab_to("save")
    key(scene, pygame.K_RETURN)
    assert scene.findings().said == [] and (home / "by-keys.json").is_file(), scene.authoring.said


def test_hints_come_one_more_row_at_a_time_and_an_emptied_one_goes(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    assert [f.name for f in scene.fields() if f.name.startswith("text:hint")] == ["text:hint:0"]  # a row to add the first
    type_into(scene, "text:hint:0", "Take moments about A.")
    type_into(scene, "text:hint:1", "Then ΣFy = 0.")
    assert scene.doc["hints"] == [{"en": "Take moments about A."}, {"en": "Then ΣFy = 0."}]
    assert [f.name for f in scene.fields() if f.name.startswith("text:hint")] == ["text:hint:0", "text:hint:1", "text:hint:2"]
    type_into(scene, "text:hint:0", "")  # emptied: the hint goes, the next moves up
    assert scene.doc["hints"] == [{"en": "Then ΣFy = 0."}]
    assert scene.findings().said == [] or all("hint" not in p for p in scene.findings().said)


def test_a_dimension_of_each_student_s_own_keeps_the_node_where_it_is_drawn_and_goes_with_the_node(app, home):
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    click(scene, node_px(scene, "B"), pygame.KMOD_SHIFT)  # B's height, 0 as drawn
    click(scene, node_px(scene, "D"), pygame.KMOD_SHIFT)  # D's, 1.5
    numbers = scene.doc["vary"]["numbers"]
    assert {k: (n["min"], n["max"], n["step"], n["default"]) for k, n in numbers.items()} == {
        "L1": (-0.3, 0.3, 0.1, 0),
        "L2": (1.1, 1.9, 0.1, 1.5),
    }  # a quarter either side (of 1 m at least), on steps of 0.1
    assert {n["id"]: n["y"] for n in scene.doc["nodes"]} == {"A": 0, "B": 0, "C": 0, "D": 1.5}  # nothing moved
    while scene.doc["kind"] != "build":  # D is the student's to build now: its number goes with it
        key(scene, pygame.K_k)
    assert list(scene.doc["vary"]["numbers"]) == ["L1"] and scene.findings().said == []


def test_a_load_s_range_stays_above_nothing_and_enter_on_its_row_keeps_the_focus_on_it(app, home):
    """From the play-test: Enter on a load's row made its number, the rows moved up and the
    focus stayed put, on a support's row (the next Enter put the support back); a range
    "-5 5 1" gave some students a load of 0 or one the other way."""
    scene = EditorScene(app, sandbox_design())
    app.push(scene)
    frame(app)
    scene.focus = next(k for k, f in enumerate(scene.fields()) if f.name == "load:0")
    key(scene, pygame.K_RETURN)
    assert scene.fields()[scene.focus].name == "number:P1"
    for typed in ("-5 5 1", "0 2 1"):
        type_into(scene, "number:P1", typed)
        assert scene.doc["vary"]["numbers"]["P1"]["min"] == 5000 and scene.authoring.said.startswith("A load's size is more than nothing")


def test_a_build_level_opened_bare_says_its_answer_is_still_to_build(app, home):
    """E on bridge-01 (its deck and supports, no members: the answer is not in the level):
    the editor said "No problems" and saved a build level with no reference answer."""
    scene = EditorScene(app, read_json(LEVELS_DIR / "bridge-01.json"))
    app.push(scene)
    assert scene.doc["kind"] == "build"
    problems = scene.findings().said
    assert problems[0].startswith("The answer: a structure that carries the loads, drawn in the sandbox")
    key(scene, pygame.K_s, pygame.KMOD_CTRL)
    assert not list(home.glob("*.json")) if home.exists() else True
    assert scene.authoring.said.startswith("Not saved: The answer:")


def test_ctrl_l_on_a_sandbox_of_a_design_with_numbers_opens_the_file_as_written_and_a_changed_one_without_the_line_of_numbers(app, home, tmp_path):
    """A design of the teacher's own with numbers of each student's own (P1, the load at B),
    opened in the sandbox: the sandbox shows its own numbers' version, whose brief opens with
    the line naming them. Ctrl+L on it as it opened gives the editor the file as written (its
    numbers and its brief, not the version's); once the structure is changed there, the
    sandbox's design, its brief without that line (found in a play-test: the line came into
    the level's brief, and the numbers were gone)."""
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.stage import load_stage
    from equilibria.course.progress import Progress
    from equilibria.files.store import write_json_atomic

    number = {"min": 5000, "max": 15000, "step": 1000, "unit": "kN", "default": 10000, "words": {"en": "the load at B"}}
    design = {**sandbox_design(), "brief": {"en": "Find the forces."}, "vary": {"numbers": {"P1": number}, "set": {"loads[0].fy": "-P1"}}}
    path = tmp_path / "mine.json"
    write_json_atomic(path, design)

    def ctrl_l(sandbox):
        sandbox.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l, mod=pygame.KMOD_CTRL, unicode=""))
        return app.scenes[-1]

    sandbox = PlayScene(app, load_stage(path, sandbox=True), progress=Progress.load())
    app.push(sandbox)
    frame(app)
    assert sandbox.stage.level.brief.startswith("The level's own numbers")  # the version the sandbox shows
    editor = ctrl_l(sandbox)
    assert isinstance(editor, EditorScene)
    assert "P1" in editor.doc["vary"]["numbers"] and editor.doc["brief"] == {"en": "Find the forces."}
    app.pop()
    sandbox.session.bench.add_node(3.0, 1.5)  # the structure changed: the sandbox's design
    frame(app)
    editor = ctrl_l(sandbox)
    assert len(editor.doc["nodes"]) == 5 and editor.doc["brief"] in ({"en": "Find the forces."}, "Find the forces.")
