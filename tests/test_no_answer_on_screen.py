"""Nothing on the screen gives the answer before a pass (issue 22, point 1).

Every graded level of the course is opened with a wrong answer in place (per kind: a
force with a wrong sign, no marks, an incomplete design), paused, run, hovered node by
node and member by member, and every text the frames draw is recorded through the
fonts (a recording wrapper round each font's `render`). None of the figures the level's
kind hides may be among them: where the student gives the forces on a body, no ΣF or ΣM
value, no reaction, no member force; where member forces are the answer, no member
force; and in every level no name that only the explanation or the hints use (the
answer, as zero-force-01's BF, CG and DH).
"""

from __future__ import annotations

import re

import pygame
import pytest

from equilibria.app.draw.beamdraw import MOMENT, SHEAR
from equilibria.app.draw.palette import COMPRESSION, REACTION, SIGN_TEXT, TENSION, ZERO
from equilibria.app.draw.render import NAME
from equilibria.app.launch import bench_of_solution
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import load_stage, named_in
from equilibria.app.window.app import App
from equilibria.course.syllabus import load_course, reference_solution, shipped_level
from equilibria.files.store import read_json
from equilibria.format.solution import AddForce, AddMoment, CutMember, load_solution
from equilibria.rules.kinds import kind_of
from equilibria.work.attempt import Attempt
from equilibria.work.workbench import LevelBench

FIGURE = re.compile(r"\d")
SUM_VALUE = re.compile(r"Σ[^,]*=\s*[−+-]?\d")
MEMBER_COLOURS = {TENSION, COMPRESSION, ZERO, *SIGN_TEXT.values()}  # a member's value is drawn in its sign's darker shade (palette.SIGN_TEXT)


class RecordingFont:
    """A font that notes (text, colour) of everything it renders."""

    def __init__(self, font: pygame.font.Font, said: list[tuple[str, tuple]]):
        self._font, self._said = font, said

    def render(self, text, antialias, colour, *rest):
        self._said.append((str(text), tuple(colour)[:3]))
        return self._font.render(text, antialias, colour, *rest)

    def __getattr__(self, name):
        return getattr(self._font, name)


def recording_app() -> tuple[App, list[tuple[str, tuple]]]:
    app, said = App(fixed_frame=FRAME), []
    for name in ("small", "body", "bold", "title", "big"):
        setattr(app.fonts, name, RecordingFont(getattr(app.fonts, name), said))
    return app, said


def wrong_moves(level_id: str, kind) -> list:
    """A wrong answer as a student makes one: the first force with its sign turned
    (a body held by forces), nothing marked or removed, or half a design."""
    path = reference_solution(level_id)
    moves = list(load_solution(read_json(path)).moves) if path is not None else []
    if kind.hides_sums_until_passed:
        for k, move in enumerate(moves):
            if isinstance(move, AddForce) and (move.fx or move.fy):
                moves[k] = move.model_copy(update={"fx": -move.fx, "fy": -move.fy})
                return moves
            if isinstance(move, AddMoment):
                moves[k] = move.model_copy(update={"m": -move.m})
                return moves
            if isinstance(move, CutMember) and move.force:  # a section's member force with its sign turned
                moves[k] = move.model_copy(update={"force": -move.force})
                return moves
        return moves[:-1]
    if kind.builds:
        return moves[: len(moves) // 2]
    return []


def graded() -> list[str]:
    ids = load_course().level_ids()
    return [i for i in ids if kind_of(read_json(shipped_level(i))["kind"]).judged]


def open_with(level_id: str):
    stage = load_stage(shipped_level(level_id))
    kind = kind_of(stage.kind)
    bench = LevelBench(stage.level, Attempt(stage.level, wrong_moves(level_id, kind)))
    app, said = recording_app()
    scene = PlayScene(app, stage, bench=bench)
    app.push(scene)
    app.run(3)
    return app, scene, said, kind


def look_everywhere(app: App, scene: PlayScene, frames: int = 3) -> None:
    """Hover every node (and select it) and a few members; then run a while."""
    model = scene.session.model
    for q in range(model.n_nodes):
        at = scene.picture.point_of(q)
        scene.mouse = (round(at[0]), round(at[1]))
        scene.selected = scene.picture.pick(scene.mouse)
        app.frame()
    pos = model.arrays.pos0
    for mid in model.member_ids[:12]:
        kind, row = model.member_slot[model.member_index(mid)]
        i, j = (model.arrays.bar_ij if kind == "bar" else model.arrays.beam_ij)[row]
        a, b = scene.view.point(*pos[i, :2]), scene.view.point(*pos[j, :2])
        scene.mouse = (round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2))
        app.frame()
    for mode in ("shear", "moment"):  # I: the beams' diagrams, asked for
        scene.picture.chosen["diagram"] = mode
        app.frame()
    scene.session.run()
    app.run(frames)


def leaks(scene: PlayScene, said: list[tuple[str, tuple]], kind, *, sums: bool = True) -> list[str]:
    """The texts drawn that the kind hides before a pass."""
    level = scene.stage.level
    ids = [n.id for n in level.nodes] + [m.id for m in level.members]
    ids += [n for n in scene.session.model.node_ids if n not in ids]
    s = scene.session
    words = named_in(" ".join([scene.stage.brief, s.notice, s.free_words]), ids)  # the brief and the words on the screen (a mechanism's box)
    shown = scene.picture.acted_at() | scene.picture.summed_about()  # where forces go; the side panel's ΣM point
    answer = named_in(" ".join([level.explanation or "", *(level.hints or [])]), ids) - words - shown
    out = [f"answer label {text}" for text, colour in said if colour == NAME and text in answer]
    if kind.hides_sums_until_passed or kind.hides_forces_until_checked:
        out += [f"member force {text}" for text, colour in said if colour in MEMBER_COLOURS and FIGURE.search(text)]
        out += [f"diagram {text}" for text, colour in said if colour in (SHEAR, MOMENT) and FIGURE.search(text)]
        out += [f"hover {text}" for text, _ in said if re.match(r"(axial|uses) [−+-]?\d", text)]
    if kind.hides_sums_until_passed:
        out += [f"reaction {text}" for text, colour in said if colour == REACTION and FIGURE.search(text)]
        out += [f"hover {text}" for text, _ in said if text.startswith(("reaction (", "  out of balance"))]
        if sums:
            out += [f"sum {text}" for text, _ in said if SUM_VALUE.search(text)]
    return out


@pytest.mark.parametrize("level_id", graded())
def test_a_wrong_answer_shows_none_of_the_hidden_figures(level_id):
    app, scene, said, kind = open_with(level_id)
    look_everywhere(app, scene)
    assert not leaks(scene, said, kind)
    app.close()


@pytest.mark.parametrize("level_id", ["particle-01", "free-body-01", "sections-01", "balance-01", "sections-02"])
def test_after_a_failed_check_the_hidden_figures_stay_hidden(level_id):
    """The judged run puts the cuts back as supports: their reactions would be the
    difference between the student's answer and the right one."""
    app, scene, said, kind = open_with(level_id)
    scene.check()
    app.run(3)
    assert scene.session.verdict is not None and not scene.session.verdict.passed
    look_everywhere(app, scene, frames=20)
    assert not leaks(scene, said, kind, sums=False)  # the verdict's words are the judge's (issue 22, point 3)
    app.close()


def test_after_a_pass_the_sums_and_reactions_show():
    """The same screen after a pass shows the figures again: what the test above looks
    for is what a pass draws (so it would see a leak)."""
    stage = load_stage(shipped_level("free-body-01"))
    bench = bench_of_solution(stage, str(reference_solution("free-body-01")))
    app, said = recording_app()
    scene = PlayScene(app, stage, bench=bench)
    app.push(scene)
    app.run(2)
    scene.check()
    app.run(3)
    assert scene.session.passed
    look_everywhere(app, scene, frames=20)
    found = leaks(scene, said, kind_of(stage.kind))
    assert any(f.startswith("sum ") for f in found) and any(f.startswith("reaction ") for f in found)
    assert any(f.startswith("diagram ") for f in found)
    app.close()


def test_a_section_of_the_students_choice_shows_the_member_forces_only_after_a_pass():
    """sections-02: its run stands the truss under its loads; before the pass none of its
    member forces or reactions is drawn, after it they are (so the test above sees them)."""
    stage = load_stage(shipped_level("sections-02"))
    bench = bench_of_solution(stage, str(reference_solution("sections-02")))
    app, said = recording_app()
    scene = PlayScene(app, stage, bench=bench)
    app.push(scene)
    app.run(3)
    look_everywhere(app, scene, frames=20)
    assert not leaks(scene, said, kind_of(stage.kind))
    scene.picture.chosen["diagram"] = None  # look_everywhere left the moment diagram on, in place of the axial forces
    scene.check()
    app.run(3)
    assert scene.session.passed
    look_everywhere(app, scene, frames=60)
    scene.picture.chosen["diagram"] = None
    app.run(3)
    found = leaks(scene, said, kind_of(stage.kind))
    assert any(f.startswith("member force ") for f in found) and any(f.startswith("reaction ") for f in found), found
    app.close()


def test_zero_force_01_labels_only_what_its_brief_names_before_the_check():
    app, _, said, _ = open_with("zero-force-01")
    drawn = {text for text, colour in said if colour == NAME}
    assert not drawn & {"BF", "CG", "DH"}
    app.close()
