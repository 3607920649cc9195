"""Starting the game from the command line: `equilibria`, `play LEVEL`, `sandbox [DESIGN]`.

With `frames` the app runs that many frames of a fixed 1/60 s each and returns (a
headless run repeats exactly); `screenshot` saves the last frame as PNG. A bad level
file raises BadInput (one line: file: field: problem) before any window opens.

Without `frames` (a player at the window) the engine is warmed up beside the window
(game/app/session/warmup.py), so the first frame comes at once and answers input; a level
asked for before the engine is ready opens behind a loading screen. With `frames`
each scene compiles what it needs as it is made: the frames repeat exactly.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pygame

from equilibria.app.scenes.loading import when_ready
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.session.warmup import EngineWarmup
from equilibria.app.window import scale
from equilibria.app.window.app import WINDOW_SIZE, App, Scene
from equilibria.app.window.display import why_no_window
from equilibria.course.cleanup import prune_engines
from equilibria.course.progress import Progress
from equilibria.files.outputs import check_screenshot
from equilibria.files.store import BadInput
from equilibria.format.solution import read_solution
from equilibria.rules.judge import fitted
from equilibria.rules.kinds import kind_of
from equilibria.words.i18n import _, set_language, supported
from equilibria.work.attempt import Attempt
from equilibria.work.workbench import LevelBench


def play(
    path: str,
    frames: int | None = None,
    screenshot: str | None = None,
    *,
    solution: str | None = None,
    check: bool = False,
    dt: float | None = None,
    size: tuple[int, int] | None = None,
    lang: str | None = None,
) -> int:
    """Play a level; with `solution`, a demonstration of its moves (a teacher showing an
    answer: nothing is saved, no check is recorded, the player's own work is left as it
    was); with `check`, judged at once; with `dt`, runs at that step, not the stable one."""
    players_language(lang)  # before the stage: a level's texts are read in it
    stage = load_stage(path)
    stage = stage.drawn_for_solution(solution) if solution else stage  # a level that varies: the numbers of the student it is stamped with
    bench = bench_of_solution(stage, solution) if solution else None
    progress = None if solution else Progress.load()
    if progress is not None:  # the student's own numbers, drawn here: numbers that make no level are one line and exit 2, before any window
        stage = stage.drawn_for(progress.student, progress.course_code)

    def make(app: App) -> PlayScene:
        scene = PlayScene(app, stage, progress=progress, bench=bench, dt=dt)
        scene.checking = check and isinstance(scene.session.bench, LevelBench)
        if solution:
            scene.session.notice = _("Showing {file}: a demonstration, saved nowhere and never counted as your own work.").format(file=Path(solution).name)
        return scene

    return run(lambda app: when_ready(app, make), frames, screenshot, size, lang)


def bench_of_solution(stage: Stage, path: str) -> LevelBench:
    """A level's workbench holding a solution file's moves; BadInput (one line naming
    the file and the field) when the file is broken or does not fit the level."""
    if stage.level is None or not kind_of(stage.kind).judged:
        raise BadInput(_("{path}: a {kind} level takes no solution").format(path=path, kind=stage.kind))
    try:
        moves = read_solution(path)  # within the judge's budget
        fitted(stage.level, moves)
        bench = LevelBench(stage.level, Attempt(stage.level, moves.moves, draw=moves.draw))
        bench.structure()
    except ValueError as exc:
        raise BadInput(f"{path}: {str(exc).splitlines()[0]}") from None
    return bench


def sandbox(
    path: str | None = None,
    frames: int | None = None,
    screenshot: str | None = None,
    *,
    dt: float | None = None,
    size: tuple[int, int] | None = None,
    lang: str | None = None,
) -> int:
    players_language(lang)  # before the stage: the empty sandbox's title and brief are in it
    stage = load_stage(path, sandbox=True) if path else Stage.empty_sandbox()
    return run(lambda app: when_ready(app, lambda app: PlayScene(app, stage, progress=Progress.load(), dt=dt)), frames, screenshot, size, lang)


def menu(frames: int | None = None, screenshot: str | None = None, *, size: tuple[int, int] | None = None, lang: str | None = None) -> int:
    """The level select (it needs no engine: that warms up while the player chooses)."""
    return run(MenuScene, frames, screenshot, size, lang)


def players_language(lang: str | None) -> None:
    """The language the player chose in the game (kept in the progress), unless `--lang`
    gave one (`lang`): that one holds for this run, and the choice stays for the next."""
    if lang is None:
        chosen = Progress.load().language
        if chosen is not None and supported(chosen):
            set_language(chosen)


def players_scale() -> tuple[int, int | None]:
    """The size of text and lines [%] the player chose (kept in the progress), else the
    one their display starts at (game/app/window/scale.py `starting`), and the desktop's
    size [px] (None where the display cannot say)."""
    pygame.display.init()
    try:
        desktop = tuple(pygame.display.get_desktop_sizes()[0])
    except (pygame.error, IndexError):
        desktop = None
    chosen = Progress.load().scale
    return (chosen if chosen is not None else scale.starting(desktop)), desktop


def engine_folder() -> Path | None:
    """This engine's compiled-code folder (engine/compiled/cache.py), imported by the warm-up anyway."""
    from equilibria.engine.compiled import cache as kernel_cache

    return kernel_cache.FOLDER


def run(first: Callable[[App], Scene], frames: int | None, screenshot: str | None, size: tuple[int, int] | None = None, lang: str | None = None) -> int:
    """Open the window (of `size`, default WINDOW_SIZE; never under the minimum), run the
    first scene, save the screenshot. 0 done, 1 no window.
    Ctrl+C closes the scenes as closing the window does (they keep what they hold).
    Where the screenshot goes is checked first; a window no one would see is refused
    (game/app/window/display.py) unless the run ends by itself."""
    check_screenshot(screenshot)
    players_language(lang)
    if frames is None:
        problem = why_no_window()
        if problem:
            print(f"equilibria: {problem}", file=sys.stderr)
            return 1
        prune_engines(engine_folder())
    warmup = EngineWarmup.start() if frames is None else None  # first: it compiles while the window opens
    try:
        percent, desktop = players_scale()
        app = App(size or scale.window_for(WINDOW_SIZE, percent, desktop), fixed_frame=FRAME if frames is not None else None)
        app.set_scale(percent)
    except pygame.error as exc:
        if warmup is not None:
            warmup.stop()
        print("equilibria: " + _("cannot open a window ({problem}); to run headless set SDL_VIDEODRIVER=dummy").format(problem=exc), file=sys.stderr)
        return 1
    with app:
        app.warmup = warmup
        try:
            app.push(first(app))
            app.run(frames)
        except KeyboardInterrupt:
            app.quit()
            raise
        finally:
            if warmup is not None:
                warmup.stop()
        if screenshot:
            try:
                app.screenshot(screenshot)
            except BadInput:
                raise
            except (pygame.error, OSError) as exc:
                raise BadInput(_("{path}: cannot save the screenshot ({problem})").format(path=Path(screenshot), problem=exc)) from None
    return 0
