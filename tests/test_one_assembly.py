"""One edit builds the engine's model once and works out the element stiffness blocks
once (issue 23 point 5): counted calls, not times. The counts are exact: a second block
computation or a second model per edit fails."""

from __future__ import annotations

import json
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from equilibria.app.scenes.play import PlayScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage, load_stage
from equilibria.app.window.app import App


class Counter:
    """Wraps a function, counting its calls."""

    def __init__(self, fn):
        self.fn, self.calls = fn, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)


def counting(monkeypatch) -> tuple[Counter, Counter]:
    """(element_blocks, build_model) counters, wherever the game and engine call them."""
    import equilibria.app.session.play
    import equilibria.course.level
    import equilibria.engine
    import equilibria.engine.model
    import equilibria.engine.stiffness
    import equilibria.work.workbench

    blocks = Counter(equilibria.engine.stiffness.element_blocks)
    monkeypatch.setattr(equilibria.engine.stiffness, "element_blocks", blocks)
    built = Counter(equilibria.engine.model.build_model)
    for module in (equilibria.engine.model, equilibria.app.session.play, equilibria.work.workbench):
        monkeypatch.setattr(module, "build_model", built)  # game/course/level.py imports it from engine/model.py at each call
    return blocks, built


def start(stage: Stage) -> tuple[App, PlayScene]:
    app = App(fixed_frame=FRAME)
    scene = PlayScene(app, stage)
    app.push(scene)
    app.frame()
    return app, scene


def edit_counts(monkeypatch, app: App, edit) -> tuple[int, int]:
    blocks, built = counting(monkeypatch)
    edit()
    app.frame()  # the rebuild
    app.frame()
    return blocks.calls, built.calls


def test_a_sandbox_edit_builds_the_model_once_and_its_blocks_once(monkeypatch):
    app, scene = start(Stage.empty_sandbox())
    bench = scene.session.bench
    a, b, c = bench.add_node(0, 1), bench.add_node(4, 1), bench.add_node(2, 3)
    for i, j in ((a, b), (b, c)):
        bench.add_member(i, j, "steel bar")
    bench.set_support(a, ("x", "y"))
    bench.set_support(b, ("y",))
    app.frame()
    assert edit_counts(monkeypatch, app, lambda: bench.add_member(c, a, "steel bar")) == (1, 1)
    assert scene.session.static is not None  # the edit's solve ran on it: a truss that stands
    app.close()


@pytest.mark.parametrize("path", ["levels/bridge-01.json"])
def test_a_build_level_edit_builds_the_model_once_and_its_blocks_once(monkeypatch, path):
    app, scene = start(load_stage(path))
    bench = scene.session.bench
    node = bench.add_node(*next(iter(zone_point(bench))))
    app.frame()
    first = bench.structure()["nodes"][0]["id"]
    assert edit_counts(monkeypatch, app, lambda: bench.add_member(first, node, next(iter(bench.sections())))) == (1, 1)
    app.close()


def zone_point(bench):
    """A point inside the build zone, away from the nodes there."""
    zone = bench.zone()
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    yield (0.5 * (min(xs) + max(xs)) + 0.37, 0.5 * (min(ys) + max(ys)) + 0.41)


def test_a_model_built_for_statics_and_then_damped_is_the_model_built_to_run():
    """equilibria.engine.model.damped tunes a statics_only model's damping as build_model does (bridge-01
    asks for a damping ratio, not a mass damping): the same mass damping to the bit, the
    same warnings, and nothing left to tune; a model built to run is left as it is."""
    from equilibria.course.level import load_level
    from equilibria.engine.model import build_model, damped

    data = load_level(json.loads(Path("levels/bridge-01.json").read_text())).model_data()
    run, statics = build_model(data), build_model(data, statics_only=True)
    assert statics.untuned and not run.untuned
    ready = damped(statics)
    assert ready.arrays.mass_damping == run.arrays.mass_damping > 0.0
    assert ready.warnings == run.warnings and not ready.untuned
    assert damped(run) is run
