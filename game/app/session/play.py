"""A play session: the player's work, its model, the run and its check. No pygame here.

The work lives in a workbench (game/work/workbench.py: the moves of an attempt at a level, or
a sandbox design), with undo and redo of every edit. Each edit builds the engine model
again and puts the run back to its start; what acts on a running structure (the hand's
spring, nails, the bomb) changes the simulation only, and a reset undoes it.

`tick` advances the run by a frame's share of simulated time in ONE call to
`Simulation.advance` (one compiled batch of many sub-steps); the `Pacer` decides how
many and slows the run down visibly when the model is too heavy for real time. Which
integrator runs is the game's choice (game/app/session/chooser.py), made anew at each edit:
RK4 at its stable step, or Newmark at frame-rate steps for a structure too stiff or
too large for that; an explicit run that still falls behind goes on implicitly from
where it is. Checks never depend on it (game/rules judge with their own). An
`Unstable` run is rolled back by the engine; the session pauses and keeps why.

A check (`check`) judges the work by the level's rules, in a thread beside the frame
(`begin_check`, game/app/session/checking.py; `end_check` records it, `cancel_check`
records nothing); the run shown afterwards is the very run that was judged, from its start (`Verdict.start`), without the ground contacts
the rules do not model.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from pathlib import Path

import numpy as np
from filelock import FileLock

from equilibria.app.session.checking import BackgroundCheck
from equilibria.app.session.chooser import KEEP_UP_FRAMES, RK4_COST, Choice, judged_choice, keep_up, simulation_for
from equilibria.app.session.pacing import FRAME, Pacer
from equilibria.app.session.shapes import Ground
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.session.statics import StaticAnswer, static_answer
from equilibria.app.session.terms import material_name, section_kind
from equilibria.classroom import handin
from equilibria.course.progress import LOCK_SECONDS, data_folder, lock_path
from equilibria.course.syllabus import load_course, shipped_level
from equilibria.engine.determinacy import TrussCount, truss_count
from equilibria.engine.linear import Mechanism, mechanism
from equilibria.engine.model import ModelError, build_model, damped
from equilibria.engine.results import member_results
from equilibria.engine.simulation import Simulation, Unstable
from equilibria.files.store import BadInput, write_json_atomic
from equilibria.format.schema import support_key
from equilibria.format.solution import load_solution
from equilibria.rules.common import Verdict, snapshot
from equilibria.rules.kinds import kind_of
from equilibria.rules.motion import describe_motion
from equilibria.words import i18n
from equilibria.words.figures import broke_notice, figure
from equilibria.words.i18n import N_, _, ngettext
from equilibria.work.workbench import RAMP_SECONDS, Bench, LevelBench, Refused, SandboxBench, ramped  # noqa: F401  (RAMP_SECONDS, ramped: read here by tests and callers)

MECHANISM_UP_TO = 400  # nodes; larger models are not searched for a mechanism while editing
HAND_HZ = 3.0  # [Hz] how quickly a structure follows the hand (see hand_spring)
CONTACT_MU = 0.6  # ground friction coefficient (soil on steel, roughly)
SAVE_EVERY = 3.0  # [s] of wall time between saves of work in progress
INDENT_UP_TO = 1000  # members; a larger design is saved on one line (indenting 10,000 members takes over a second)
PREVIEW_SECONDS = 3.0  # [s] of a demo run looked at to see whether its motion shows
TRY_FIRST = N_("Press T to try again before you change anything.")  # an edit, Ctrl+Z or Ctrl+Y after a check
ASK_ANSWER = N_("Ctrl+A again shows the answer and gives up this level: marks 0, recorded as shown, not won.")
AWAY_SIZES = 1.0  # a failed check's body this many times its size from where it was is clearly away: its run stops


def data_place(name: str) -> Path:
    """A folder in the user's data folder (designs, screenshots, graphs), made if need be."""
    folder = data_folder() / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def own_design_file(stage: Stage) -> Path | None:
    """The file a sandbox design is kept in: the one it was read from when that is one
    of the player's designs (in the data folder's designs/), else None (a new one is
    made at the first save: a file elsewhere is the player's, never written over)."""
    if not kind_of(stage.kind).designs or stage.source is None:
        return None
    folder = data_folder() / "designs"
    try:
        return stage.source if stage.source.resolve().parent == folder.resolve() else None
    except OSError:
        return None


def new_design_file(stage: Stage) -> Path:
    """A new file in designs/ for a design not kept anywhere yet, named after where it
    came from and when, and claimed at once (created empty, O_EXCL, for the save to
    write over): never one that another design, or another copy of the game saving in
    the same second, has."""
    stem = stage.level.id if stage.level is not None and stage.level.id != "sandbox" else "sandbox"
    return claim_new_file(data_place("designs"), f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}")


def fingerprint(path: Path) -> str | None:
    """SHA-256 of the file's bytes (None: no file, or none to read): what another copy's save would change."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def claim_new_file(folder: Path, base: str) -> Path:
    """`folder`/BASE.json, or BASE-2.json, BASE-3.json…: the first that this call creates
    (O_CREAT | O_EXCL: of two processes asking at once, one gets each name)."""
    n = 1
    while True:
        path = folder / (f"{base}.json" if n == 1 else f"{base}-{n}.json")
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            n += 1
            continue
        return path


def new_members_said(name: str, section) -> str:
    """The notice that new members are built of section `name` now."""
    said = _("New members: {section} ({kind}, {material}, A = {area} cm²)")
    return said.format(section=name, kind=section_kind(section.kind), material=material_name(section.material), area=figure(section.A * 1e4))


def bench_for(stage: Stage, progress=None) -> tuple[Bench | None, str]:
    """The workbench of a stage, with the player's saved work on its level restored
    (and a line saying what could not be restored, or "")."""
    if kind_of(stage.kind).designs:
        return SandboxBench(stage.level), ""
    if stage.level is None or not kind_of(stage.kind).judged:
        return None, ""
    bench = LevelBench(stage.level)
    if progress is not None:
        bench.attempt.tries = progress.tries(stage.level.id)  # the checks made so far count on, whenever they were made
        bench.attempt.failed_key = progress.checked(stage.level.id)  # and the answer last failed costs no try if checked again unchanged
        bench.attempt.hints = progress.hints(stage.level.id)  # and the hints seen, for the record a hand-in carries
        if progress.won(stage.level.id) and progress.passed_at(stage.level.id) is not None:  # passed before a restart: still passed, at that check
            bench.attempt.marks, bench.attempt.passed_at = progress.marks(stage.level.id), progress.passed_at(stage.level.id)
    saved = progress.work(stage.level.id) if progress is not None else None
    if progress is not None:
        progress.saw_work(stage.level.id)  # what is restored here is the file's: this copy's to save over again
    if not saved:
        return bench, ""
    try:
        solution = load_solution(saved)
    except ValueError as exc:
        return bench, _("Your saved work on this level could not be read ({problem}); you start afresh.").format(problem=str(exc).splitlines()[0])
    if solution.draw is not None and stage.level.load_choices():
        bench.attempt.draw = solution.draw
    kept = bench.restore(list(solution.moves))
    if kept < len(solution.moves):
        left = len(solution.moves) - kept
        words = ngettext(
            "Your first {kept} moves on this level are restored; the {left} after them could not be built and is left out.",
            "Your first {kept} moves on this level are restored; the {left} after them could not be built and are left out.",
            left,
        )
        return bench, words.format(kept=kept, left=left)
    mine = stage.level.numbers or {}
    if solution.numbers and any(abs(solution.numbers.get(n, math.nan) - v) > 1e-9 * max(1.0, abs(v)) for n, v in mine.items()):
        return bench, _("Your saved work here was done with other numbers (another student id): work it again with your numbers, in the brief.")
    return bench, ""


class PlaySession:
    """One level or sandbox being played. integrator and dt as for `Simulation` (dt
    None: the engine's stable step), or "auto": the game chooses (game/app/session/chooser.py,
    anew at each edit, and when an explicit run cannot keep up); progress: the student's progress
    (game/course/progress.py) or None (nothing is saved); fixed: headless frames that repeat
    exactly (the pacer never caps by measured cost)."""

    def __init__(self, stage: Stage, *, integrator: str = "auto", dt: float | None = None, progress=None, bench: Bench | None = None, fixed: bool = False):
        if bench is None and progress is not None:
            stage = stage.drawn_for(progress.student, progress.course_code)  # a level that varies: the student's own numbers in their course
        self.stage = stage
        self.progress = progress
        self.integrator = integrator
        self.dt = dt
        self.choice: Choice | None = None  # the integrator running, and why (the status bar says)
        self.rk4_cost = RK4_COST  # [s] per step and DOF: as measured here once a run has been slow
        self._behind = 0  # frames in a row an explicit run fell behind real time
        self.notice = ""  # a line for the player (a refused edit, a save), until the next action
        if bench is None:
            bench, self.notice = bench_for(stage, progress)
        self.bench = bench
        self.ground = Ground(stage.ground)
        self.pacer = Pacer(1.0, fixed=fixed)
        self.verdict: Verdict | None = None
        self.judging: BackgroundCheck | None = None  # a check being judged beside the frame
        self.problem: str | None = None  # why the run stopped (Unstable), shown until reset
        self.paused = True
        self.sim_ms = 0.0  # [ms] the last frame's simulation
        self.step_once = False  # '.': one frame forward, then stay paused
        self.hand: int | None = None  # node held by the hand's spring
        self.hand_at = (0.0, 0.0)  # [m] where the hand is
        self.clock = 0.0  # [s] wall time in this session, for saves and animations
        self.builds = 0  # how many times a model was set (the picture follows this count, not the object)
        self._model = None
        self.sim: Simulation | None = None
        self.free: Mechanism | None = None
        self.free_words = ""
        self.static: StaticAnswer | None = None  # the small-displacement answer, shown before a run
        self.count: TrussCount | None = None  # the truss count of the work as built (None: not a truss)
        self._built = -1
        self._saved = bench.revision if bench is not None else -1  # as found: nothing to save until an edit
        self._save_clock = -SAVE_EVERY
        self.unsaved_warned = False
        self.design_file = own_design_file(stage)  # a sandbox design's own file (made at its first save)
        self.design_seen = fingerprint(self.design_file) if self.design_file is not None else None  # its bytes as this copy read them
        names = list(bench.sections()) if bench is not None else []
        self.section: str | None = names[0] if names else None  # the section of new members
        self.build()

    # ------------------------------------------------------------------ model
    @property
    def passed(self) -> bool:
        return self.verdict is not None and self.verdict.passed

    @property
    def revealed(self) -> bool:
        """Whether member forces are shown: not where they give the answer away (Kind's
        hides_forces_until_checked, hides_sums_until_passed) until a pass."""
        kind = kind_of(self.stage.kind)
        return not (kind.hides_forces_until_checked or kind.hides_sums_until_passed) or self.passed

    @property
    def sums_shown(self) -> bool:
        """Whether ΣF, ΣM, reactions and the like are shown (Kind.hides_sums_until_passed)."""
        return not kind_of(self.stage.kind).hides_sums_until_passed or self.passed

    @property
    def level_bench(self) -> LevelBench | None:
        return self.bench if isinstance(self.bench, LevelBench) else None

    def data(self) -> dict | None:
        """The engine's model of the work (in the sandbox, with gravity and loads ramped
        in over RAMP_SECONDS)."""
        return self.stage.model_data() if self.bench is None else self.bench.running()

    def supports(self) -> list[tuple[str, frozenset[str]]]:
        """(node id, locked DOFs) of each support drawn (supports_drawn)."""
        return supports_drawn(self)

    @property
    def stale(self) -> bool:
        """The work changed since the model was built."""
        return self.bench is not None and self.bench.revision != self._built

    @property
    def model(self):  # the work's model (or the check's run's): each one set is counted, the same object again too
        return self._model

    @model.setter
    def model(self, model) -> None:
        self._model, self.builds = model, self.builds + 1

    def build(self) -> None:
        """Build the model of the work as it stands and put the run back to its start."""
        self._built = self.bench.revision if self.bench is not None else 0
        data = self.data()
        try:  # the bench's model is the one its edit's check built: one model per edit
            self.model = damped(self.bench.model() if self.bench is not None else build_model(data, statics_only=True)) if data is not None else None
        except ModelError as exc:
            self.model, self.notice = None, _("Cannot build this structure: {problem}").format(problem=exc.said(_))
        self.count = truss_count(data) if self.model is not None else None  # m + r against 2j, for the panel
        self.free, self.free_words = None, ""
        seeks = kind_of(self.stage.kind).seeks_mechanism  # a free body is free on purpose: no mechanism, no static answer to show
        linear = self.model is not None and seeks and not self.model.contacts  # the linear solve has no contacts
        self.static = static_answer(self.model) if linear else None  # its solve finds any mechanism: K assembled and searched once
        if self.model is not None and seeks and self.model.n_nodes <= MECHANISM_UP_TO:
            self.free = self.static.free if self.static is not None else mechanism(self.model)
            if self.free is not None:
                self.free_words = describe_motion(self.model, self.free)
                self.static = None
        self.reset()

    def reset(self) -> None:
        """Back to the structure as built: paused where the player has work to do (a
        run starts it), running in demos and after a check, where the run is the one
        that was judged. Drags, nails and bombs are undone."""
        self.sim = None
        if self.verdict is not None and self.verdict.start is not None:
            self.sim = snapshot(self.verdict.start)
            self.model = self.sim.model  # the judged model (a zero-force check keeps removed members, switched off)
            self.choice = judged_choice(self.sim)
        elif self.model is not None:
            self.sim, self.choice = simulation_for(self.model, self.integrator, self.dt, self.rk4_cost)
        if self.sim is not None:
            self.pacer.dt = self.sim.dt
        self.pacer.restart()
        self.paused = self.bench is not None and self.verdict is None  # the player's move first; a check's run plays at once
        self.problem = None
        self.hand = None
        self.broken_seen, self.bombed = set(), []  # members said to have broken; what the bomb blew up (R puts it back)

    @property
    def broke(self) -> bool:
        """Whether a member has broken in this run (the legend names broken members then)."""
        return bool(self.broken_seen)

    @property
    def started(self) -> bool:
        return self.sim is not None and self.sim.time > 0

    @property
    def judged(self) -> bool:
        """The run is the check's own: no ground contact, as the rules have none."""
        return self.verdict is not None and self.verdict.start is not None

    # ------------------------------------------------------------------ editing
    def edit(self, action, *args) -> object:
        """Make an edit of the work; a refusal goes to the notice line."""
        if self.verdict is not None:
            self.notice = _(TRY_FIRST)
            return None
        try:
            out = action(*args)
        except Refused as exc:
            self.notice = str(exc)
            return None
        self.notice = ""
        return out

    def undo(self) -> None:
        """Undo the last edit; after a bomb, say that R brings back what it blew up."""
        if self.bombed:
            self.notice = _("The bomb cannot be undone with Ctrl+Z: R puts back {what} (and the structure as built).").format(what=self.bombed[-1])
        elif self.bench is not None and self.verdict is not None:
            self.notice = _(TRY_FIRST)  # after a check Ctrl+Z said nothing and did nothing
        elif self.bench is not None:
            self.notice = "" if self.bench.undo() else _("Nothing to undo.")

    def redo(self) -> None:
        if self.bench is not None and self.verdict is not None:
            self.notice = _(TRY_FIRST)
        elif self.bench is not None:
            self.notice = "" if self.bench.redo() else _("Nothing to redo.")

    def reset_level(self) -> None:
        """Take back every move on a level (or everything built in the sandbox) in one
        edit, which Ctrl+Z undoes."""
        if self.bench is None:
            self.notice = _("There is nothing of yours to take back here.")
            return
        before = self.bench.revision
        self.edit(self.bench.clear)
        if self.bench.revision != before:
            self.notice = _("Back to the start: everything you did is taken away (Ctrl+Z brings it back).")

    def next_section(self) -> None:
        """The next of the sections on offer for new members, said on the notice line."""
        sections = self.bench.sections() if self.bench is not None else {}
        names = list(sections)
        if names:
            self.section = names[(names.index(self.section) + 1) % len(names)] if self.section in names else names[0]
            self.notice = new_members_said(sections[self.section].shown(self.section), sections[self.section])

    def cycle_support(self, node: str) -> None:
        """The next support on offer at `node`: the first click puts one on."""
        now = next((support_key(s) for s in (self.data() or {}).get("supports", []) if s["node"] == node), None)
        bench = self.level_bench
        if bench is not None:
            own = any(getattr(m, "node", None) == node and m.type == "add_support" for m in bench.moves)
            if now is not None and not own:
                self.notice = _("Node {node} has the level's own support.").format(node=node)
                return
        cycle = self.bench.support_cycle()
        at = next((k for k, c in enumerate(cycle) if c is not None and c == now), -1)
        self.edit(self.bench.set_support, node, cycle[(at + 1) % len(cycle)])

    def preview_motion(self, seconds: float = PREVIEW_SECONDS) -> float:
        """The largest node displacement [m] over the first `seconds` of the run, found
        on a copy (the run itself is untouched): how much there will be to see."""
        if self.sim is None:
            return 0.0
        sim, pos0, worst = snapshot(self.sim), self.model.arrays.pos0[:, :2], 0.0
        try:
            while sim.time < seconds:
                sim.advance(0.1)
                worst = max(worst, float(np.hypot(*(sim.state.pos[:, :2] - pos0).T).max()))
        except Unstable:
            return math.inf
        return worst

    # ------------------------------------------------------------------ acting on the run
    def step(self) -> None:
        """One frame forward, then paused."""
        self.paused = self.step_once = True

    def run(self) -> None:
        """Run (or go on running) the structure."""
        self.paused = False
        self.pacer.restart()

    def grab(self, q: int, at: tuple[float, float]) -> None:
        """Hold node q on the hand's spring, the hand at `at` [m]; the run goes on."""
        self.hand, self.hand_at = q, at
        self.run()

    def nail(self, q: int) -> None:
        if q in self.sim.nails:
            self.sim.unnail(q)
            self.notice = _("Pulled the nail out of node {node}.").format(node=self.model.node_ids[q])
            return
        try:
            self.sim.nail(q)
            self.notice = _("Nailed node {node} where it is; R pulls every nail.").format(node=self.model.node_ids[q])
        except ValueError as exc:  # the engine's refusal, in the player's language (engine/words.py)
            self.notice = exc.words.said(_) if hasattr(exc, "words") else str(exc)

    def bomb(self, kind: str, ident: str) -> None:
        (self.sim.remove_member if kind == "member" else self.sim.remove_triangle)(ident)
        self.sim.refresh()
        self.bombed.append((_("member {member}") if kind == "member" else _("plate {plate}")).format(member=ident, plate=ident))
        said = _("Blew up member {member}; R puts it back.") if kind == "member" else _("Blew up plate {plate}; R puts it back.")
        self.notice = said.format(member=ident, plate=ident)

    def hand_force(self) -> tuple[float, float]:
        forces = self.sim.tether_forces()
        return (float(forces[-1, 0]), float(forces[-1, 1])) if len(forces) and self.hand is not None else (0.0, 0.0)

    # ------------------------------------------------------------------ checking and saving
    def check(self) -> None:
        """Judge the work by the level's rules, to the end; show the verdict and run what it ran."""
        if self.begin_check() is not None:
            self.judging.wait()
            self.end_check()

    def begin_check(self, batches: int | None = None) -> BackgroundCheck | None:
        """Start judging the work beside the frame (`judging`, in lock step of `batches`:
        game/app/session/checking.py); None when there is nothing to judge (said why)."""
        if self.level_bench is None:
            self.notice = _("There is nothing to check here: this is free play.")
            return None
        if self.verdict is None and self.judging is None:
            question = self.level_bench.attempt.question()
            judge = question.judge if question.known is None else lambda: question.known  # unchanged since it failed: its verdict again
            self.judging = BackgroundCheck(judge, batches=batches, question=question).start()
        return self.judging

    def end_check(self) -> None:
        """The finished check's verdict recorded (a try, the marks, the progress saved) and
        its run shown; a check that could not be judged says why."""
        judging, self.judging = self.judging, None
        self.notice = judging.problem or self.notice
        bench = self.level_bench
        try:  # ValueError: the moves changed meanwhile (the scene takes no edit while judging)
            self.verdict = bench.attempt.record(judging.question, judging.verdict) if judging.verdict is not None else None
        except ValueError as exc:
            self.notice = str(exc)
        if self.verdict is None:
            return
        self.notice = ""  # what was said before the check ("Pass this level first") is stale now
        if self.progress is not None:
            a = bench.attempt
            kept = {"shown": a.shown, "checked": a.failed_key, "hints": a.hints, "passed_at": a.passed_at}
            self.progress.record_check(bench.level.id, self.verdict.passed and a.won, a.marks if a.won else None, a.tries, **kept)
            self.save(verdict=True)  # every verdict at once: a win survives an Esc or a kill straight after
        self.reset()

    def cancel_check(self) -> None:
        """Stop the check being judged, if one is, recording nothing."""
        judging, self.judging = self.judging, None
        if judging is not None:
            judging.cancel()
            self.notice = _("The check was stopped: nothing is counted, and your answer is as it was.")

    def show_answer(self) -> bool:
        """Ctrl+A, asked twice: give the level up and put the worked answer in as the work
        (give_up); whether it is there to be checked (the scene checks it beside the frames)."""
        return give_up(self)

    def try_again(self) -> None:
        if self.level_bench is not None and self.verdict is not None:
            self.bench.attempt.try_again()
            self.verdict = None
            self.notice = ""  # "The run is stopped here: it has gone…" spoke of the run now gone
            self.build()  # the work's own model again, not the judged one

    def save(self, *, force: bool = False, verdict: bool = False) -> bool:
        """Keep the work: a level's moves (and, after a `verdict`, the record of the check)
        in the progress file, a sandbox design in its own file (design_file). Written
        atomically when the work changed, at most every SAVE_EVERY seconds unless
        `force`d. Whether all is saved; a save that fails says so and is tried again."""
        bench = self.bench
        if bench is None or (self.progress is None and isinstance(bench, LevelBench)):
            return True
        if bench.revision == self._saved and not verdict:
            return True
        if not (force or verdict) and self.clock - self._save_clock < SAVE_EVERY:
            return False
        self._save_clock = self.clock
        try:
            if isinstance(bench, LevelBench) and not save_work(self.progress, bench):
                self.notice = _(OVERWRITTEN)
                return False
            if not isinstance(bench, LevelBench):
                write_design(self, bench)
        except (BadInput, OSError) as exc:
            self.notice = _("Your work is not saved: {problem}").format(problem=exc)
            return False
        self._saved = bench.revision
        return True

    def save_design(self) -> None:
        if not isinstance(self.bench, SandboxBench):
            self.notice = _("Ctrl+S saves sandbox designs; your work on a level is kept as you go.")
            return
        self._saved = -1  # write it now, changed or not
        if self.save(force=True):
            self.notice = _("Saved to {path} (equilibria sandbox {path} opens it).").format(path=self.design_file)

    # ------------------------------------------------------------------ time
    def hand_in(self) -> None:
        """Ctrl+E: the work in hand as a solution file to hand in (game/classroom/handin.py)."""
        bench = self.level_bench
        self.notice = handin.hand_in_from_game(bench.attempt.solution() if bench is not None else None, self.progress)

    def tick(self, frame_seconds: float) -> None:
        """A frame of wall time: save what is due, build what changed, run the frame's
        share of simulated time (unless paused)."""
        self.clock += frame_seconds
        if self.stale:
            self.build()
        self.save()
        if self.sim is None or (self.paused and not self.step_once):
            return
        if self.step_once:  # one frame's worth of simulated time, then stay paused
            frame_seconds, self.step_once = FRAME, False
        steps = self.pacer.steps_for(frame_seconds)
        start = time.perf_counter()
        if steps:
            self.sim.set_tethers(tethers(self, steps * self.sim.dt))  # ground contacts and the hand's spring
            try:  # one compiled batch: the batch is as long as the frame's share
                self.sim.advance(steps * self.sim.dt, batch_seconds=(steps + 1) * self.sim.dt)
            except Unstable as exc:
                self.paused, self.problem, steps = True, exc.words.said(i18n._), 0
        wall = time.perf_counter() - start
        self.sim_ms = 1e3 * wall
        self.pacer.record(steps, wall, frame_seconds)
        if steps and self.sim.breakable:
            say_breaks(self)
        failed = steps and self.verdict is not None and not self.passed
        away = (gone_away(self.sim) or came_down(self)) if failed else ""
        if away:  # a body thrown off by a wrong force would fly on for ever: stopped there
            self.paused, self.notice = True, away
        self._keep_up()

    def _keep_up(self) -> None:
        """Under the game's own choice, an explicit run cut short by the frame budget for
        KEEP_UP_FRAMES frames in a row goes on implicitly from where it is, if its measured
        cost says so (chooser.keep_up); the cost is kept for the next edit's choice."""
        if self.integrator != "auto" or self.dt is not None or self.judged or self.pacer.fixed or self.sim.integrator != "rk4":
            return
        self._behind = self._behind + 1 if self.pacer.limited else 0
        if self._behind >= KEEP_UP_FRAMES and self.pacer.step_cost > 0.0:
            self._behind = 0
            self.rk4_cost = self.pacer.step_cost / max(self.sim.level_dofs, 1)
            choice = keep_up(self.sim, self.pacer.step_cost)
            if choice is not None:
                self.choice, self.pacer.dt, self.pacer.step_cost = choice, choice.dt, 0.0  # a Newmark step's cost is measured afresh
                self.pacer.restart()


OVERWRITTEN = N_(
    "Another copy of Equilibria saved work on this level since this one opened it: yours is not saved over it. Open the level again to go on from that work."
)


def save_work(progress, bench: LevelBench) -> bool:
    """The work on the bench's level kept in the progress and the progress saved; False
    when another copy saved work on this level since this one read it (that work stays;
    this copy's is not written over it, nor said saved: game/course/progress.py `overwritten`)."""
    level_id = bench.level.id
    if level_id not in progress.overwritten:
        progress.save_work(level_id, bench.attempt.solution().model_dump(mode="json", exclude_none=True))
    progress.save()
    return level_id not in progress.overwritten


def write_design(session: PlaySession, bench: SandboxBench) -> None:
    """The session's design written to its file, under the file's lock; when another copy of the
    game saved that file since this one read or wrote it, to a new file instead (said
    in the notice): neither copy's design is lost, and none is said saved when it was not."""
    if session.design_file is None:
        session.design_file = new_design_file(session.stage)
    big = len(bench.doc["members"]) > INDENT_UP_TO  # a large design on one line: its save takes no visible time
    with FileLock(lock_path(session.design_file), timeout=LOCK_SECONDS):
        if session.design_seen is not None and fingerprint(session.design_file) not in (session.design_seen, None):
            other, session.design_file = session.design_file, new_design_file(session.stage)
            session.notice = _("Another copy of Equilibria saved {other} meanwhile; this design is saved as {path}, so neither is lost.").format(
                other=other.name, path=session.design_file.name
            )
        write_json_atomic(session.design_file, bench.doc, indent=None if big else 1)  # the design itself: nothing changes it while it is written
        session.design_seen = fingerprint(session.design_file)


def say_breaks(session: PlaySession) -> None:
    """The first member that broke since the last look, in words on the notice line."""
    r = member_results(session.sim.model, session.sim.state)
    new = sorted((float(r.break_time[k]), mid) for k in np.flatnonzero(r.broken).tolist() if (mid := r.ids[k]) not in session.broken_seen)
    if new:
        session.broken_seen.update(mid for _, mid in new)
        more = " " + ngettext("({n} more broke with it)", "({n} more broke with it)", len(new) - 1).format(n=len(new) - 1) if len(new) > 1 else ""
        session.notice = break_words(session, new[0][1]) + more


def next_stage(session: PlaySession) -> Stage | None:
    """After a pass, the next level of the course, with the work here saved and the
    next one marked as opened (None, with a notice saying why, when there is none)."""
    if session.verdict is None or not session.verdict.passed:
        session.notice = _("Pass this level first (C checks it); then N opens the next one.")
        return None
    try:
        following = load_course().next_after(session.level_bench.level.id)
        stage = load_stage(shipped_level(following)) if following else None
    except (BadInput, ValueError) as exc:
        session.notice = _("The next level cannot be opened: {problem}").format(problem=str(exc).splitlines()[0])
        return None
    if stage is None:
        session.notice = _("This is the last level of the course: Esc goes back to the levels.")
        return None
    session.save(force=True)
    if session.progress is not None:
        session.progress.opened(following)
    return stage


def supports_drawn(session: PlaySession) -> list[tuple[str, frozenset[str]]]:
    """(node id, locked DOFs) of each support drawn: the work's, or after a check the
    judged run's (a free body's check puts its cuts back as supports)."""
    if session.judged:
        model, dofs = session.sim.model, ("x", "y", "rot")
        r = member_results(model)
        turns = set(r.ends[r.bending[:, None] & ~r.pinned].tolist())  # joints of bars (or beams pinned there) alone: locked rotation, no support
        fixed = [frozenset(d for d, on in zip(dofs, row, strict=True) if on and (d != "rot" or q in turns)) for q, row in enumerate(model.arrays.fixed)]
        hidden = roller_anchors(session, model.node_ids)
        return [(nid, fix) for nid, fix in zip(model.node_ids, fixed, strict=True) if fix and nid not in hidden]
    return [(s["node"], frozenset(s["fix"])) for s in (session.data() or {}).get("supports", []) if s.get("fix")]  # a contact: its surface


def roller_anchors(session: PlaySession, ids) -> set[str]:
    """The pinned ends of the short links a check puts an inclined roller's cut back
    with (game/rules/free_body.py `held`: node "B-link" beside roller B): hidden in the
    roller drawn there, never a pin of their own beside it."""
    level = session.stage.level
    rollers = {c.node for c in (level.cut or []) if c.along is not None and c.what == "support"} if level is not None else set()
    work = {n["id"] for n in (session.data() or {}).get("nodes", [])}
    return {nid for nid in ids if nid not in work and nid.partition("-link")[0] in rollers}


def tethers(session: PlaySession, seconds: float) -> np.ndarray:
    """(K, 8) tether rows for the next `seconds` of a session's run: the ground contacts
    near enough to be met (none in a check's own run, as the rules model none) and the
    hand's spring."""
    sim = session.sim
    rows = []
    if not session.judged:
        pos, vel = sim.state.pos, sim.state.vel
        speed = float(np.hypot(vel[:, 0], vel[:, 1]).max(initial=0.0))
        margin = 2.0 * speed * seconds + 0.01 * sim.model.char_length
        skip = sim.model.arrays.fixed[:, :2].any(axis=1)
        skip[[q for q, *_ in sim.model.contacts]] = True  # a contact support has its own surface
        rows.append(session.ground.contacts(pos, margin, skip=skip))
        for row in rows[0]:
            row[5], row[6] = sim.tether_stiffness(int(row[0]))
            row[7] = CONTACT_MU
    if session.hand is not None:
        k, c = hand_spring(sim, session.hand)
        rows.append(np.array([[session.hand, *session.hand_at, 0.0, 0.0, k, c, 0.0]]))
    return np.concatenate(rows) if rows else np.zeros((0, 8))


def hand_spring(sim: Simulation, q: int) -> tuple[float, float]:
    """(k [N/m], c [N s/m]) of the hand's spring on node q: the structure's whole mass
    on it would swing at HAND_HZ, damped near critically; never stiffer than the step allows."""
    k_stable, c_stable = sim.tether_stiffness(q)
    mass = float(sim.model.arrays.mass[:, 0].sum())
    k = min(k_stable, mass * (2 * math.pi * HAND_HZ) ** 2)
    return k, min(c_stable, 2 * 0.7 * math.sqrt(k * mass))


def gone_away(sim: Simulation) -> str:
    """The line that stops a run after a failed check once its body has gone
    AWAY_SIZES times its own size from where it was built ("": not yet)."""
    model = sim.model
    shift = (sim.state.pos[:, :2] - model.arrays.pos0[:, :2]).mean(axis=0)
    if math.hypot(*shift) <= AWAY_SIZES * max(model.char_length, 1e-9):
        return ""
    return _("The run is stopped here: it has gone {way}, {distance} m from where it was built.").format(way=way(shift), distance=figure(math.hypot(*shift)))


def came_down(session: PlaySession) -> str:
    """The line that stops a failed check's own run once a node without a support of
    its own has come down on the level's ground ("": not yet). The judged run has no
    ground contact but the level's contact supports (the rules model no other), so a
    body that tips over would go on through the floor: it is stopped where it lands,
    with the corner it tipped over when statics found one (game/rules/contact.py)."""
    sim = session.sim
    if not session.judged or not sim.model.contacts:
        return ""
    skip = sim.model.arrays.fixed[:, :2].any(axis=1)
    skip[[q for q, *_ in sim.model.contacts]] = True
    rows = session.ground.contacts(sim.state.pos, 0.0, skip=skip)
    pos = sim.state.pos[rows[:, 0].astype(int), :2] if len(rows) else np.zeros((0, 2))
    if not len(rows) or float((((pos - rows[:, 1:3]) * rows[:, 3:5]).sum(axis=1)).min()) > 0.0:
        return ""
    over = next((c.get("tips_over") for c in session.verdict.figures.get("contacts", []) if c.get("tips_over")), None)
    if over:
        return _("The run is stopped here: the body has tipped over {node} and come down on the ground.").format(node=over)
    return _("The run is stopped here: the body has come down on the ground.")


WAYS = {  # (across, upright): -1, 0 or +1 each → the words
    (1, 0): N_("to the right"),
    (-1, 0): N_("to the left"),
    (0, 1): N_("up"),
    (0, -1): N_("down"),
    (1, 1): N_("to the right and up"),
    (1, -1): N_("to the right and down"),
    (-1, 1): N_("to the left and up"),
    (-1, -1): N_("to the left and down"),
    (0, 0): N_("nowhere"),
}


def way(d) -> str:
    """A displacement (dx, dy) [m] in words: "to the left and down", "up"."""
    dx, dy = float(d[0]), float(d[1])
    size = math.hypot(dx, dy)
    across = (1 if dx > 0 else -1) if abs(dx) > 0.38 * size else 0  # past 22.5° off upright
    upright = (1 if dy > 0 else -1) if abs(dy) > 0.38 * size else 0
    return _(WAYS[across, upright])


def give_up(session: PlaySession) -> bool:
    """Show the answer, asked twice (Ctrl+A): the level given up (marks 0, recorded as shown
    by the check, never won) and the worked solution shown: the reference answer as the
    work (game/work/attempt.py show_answer; Ctrl+Z after T brings the student's own back),
    to be checked, the verdict box then holding the level's explanation. Whether the
    answer is in as the work (False: refused, or asked once and waiting for the second)."""
    bench = session.level_bench
    attempt = bench.attempt if bench is not None else None
    if attempt is None or attempt.won:
        session.notice = _("There is no answer to show here.") if attempt is None else _("Passed: the explanation is in the verdict box.")
        return False
    if not attempt.answer_asked:
        attempt.answer_asked = True
        session.notice = _(ASK_ANSWER)
        return False
    session.try_again()
    session.edit(bench.replace, attempt.show_answer() or bench.moves)
    return True


def break_words(session: PlaySession, mid: str) -> str:
    """Why member `mid` broke: when, how, and how its static force compares with
    what it can carry (game/words/figures.py broke_notice)."""
    sim = session.sim
    static = session.static.sim if session.static is not None else None
    hand = math.hypot(*session.hand_force()) if session.hand is not None else None
    results = member_results(static.model, static.state) if static is not None else None
    return broke_notice(member_results(sim.model, sim.state), sim.model.member_index(mid), results, hand=hand, nails=bool(sim.nails))
