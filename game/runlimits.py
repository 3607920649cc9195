"""What `equilibria simulate` refuses before it runs and says after it ran (issue 26 point 3).

Before: a model's numbers within the bounds a level's are held to (game/format.py, the
same constants), and a run whose steps or recorded values would pass a budget refused in
one line (exit 2), counted before anything runs; a step longer than the run refused, one
longer than the stable step said. After: a result that is not a finite number is never
written as one (null in the JSON, exit 1 with the reason), and a run that was asked to
come to rest (`--until-rest`, `relax`) and did not exits 1 and says so.

No pygame here; the engine is imported only where a step is estimated.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from equilibria.files import BadInput
from equilibria.format import (
    MAX_AREA,
    MAX_COORD,
    MAX_DAMPING,
    MAX_DENSITY,
    MAX_E,
    MAX_ELEMENT_DAMPING,
    MAX_FACTOR,
    MAX_FORCE,
    MAX_GRAVITY,
    MAX_I,
    MAX_MASS,
    MAX_MOMENT,
    MAX_SPEED,
    MAX_STRENGTH,
    MAX_THICKNESS,
    MAX_TIME,
    MIN_E,
)

# Steps one run may take: 20,000,000, about 27 times the default 60 s of --until-rest at
# the smallest stable step of the course's levels (0.08 ms, 750,000 steps).
MAX_SIM_STEPS = 20_000_000
# Recorded values over all --record specs: 1,000,000, 160 times the default (60 s every
# 0.01 s for one spec); each costs about 120 bytes while the run lasts.
MAX_SAMPLES = 1_000_000
DEFAULT_EVERY = 0.01  # [s] --every's default
MAX_FACTORS = 1_000  # --load-factors: a load–deflection curve of a thousand points is smooth

# (list or object in the model, its fields, least, greatest, unit): a value outside is refused
_NODE = [(("x", "y"), -MAX_COORD, MAX_COORD, "m"), (("mass",), 0.0, MAX_MASS, "kg"), (("inertia",), 0.0, MAX_MASS, "kg m²")]
_NODE += [(("vx", "vy", "vrot"), -MAX_SPEED, MAX_SPEED, "m/s")]
_MATERIAL = [(("E",), MIN_E, MAX_E, "Pa"), (("density",), 0.0, MAX_DENSITY, "kg/m³"), (("strength",), 0.0, MAX_STRENGTH, "Pa")]
_LISTS = {
    "nodes": _NODE,
    "members": [(("A",), 0.0, MAX_AREA, "m²"), (("I",), 0.0, MAX_I, "m⁴")],
    "triangles": [(("t",), 0.0, MAX_THICKNESS, "m")],
    "loads": [(("fx", "fy"), -MAX_FORCE, MAX_FORCE, "N"), (("m",), -MAX_MOMENT, MAX_MOMENT, "N m")],
    "member_loads": [(("w", "wi", "wj"), -MAX_FORCE, MAX_FORCE, "N/m")],
}
_WORLD = [(("gravity",), -MAX_GRAVITY, MAX_GRAVITY, "m/s²"), (("damping", "mass_damping"), 0.0, MAX_DAMPING, "")]
_WORLD += [(("element_damping",), 0.0, MAX_ELEMENT_DAMPING, "s")]


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _out_of_bounds(value: Any, low: float, high: float) -> bool:
    """Past the bound on the far side only: a value of the wrong sign (a negative
    modulus) or type is the engine's to name, in its own words."""
    x = _number(value)
    if x is None or not math.isfinite(x):
        return False
    return abs(x) > max(abs(low), abs(high)) or (0.0 < low and 0.0 < x < low)


def _bound_words(field: str, value: float, low: float, high: float, unit: str) -> str:
    unit = f" {unit}" if unit else ""
    span = f"±{_figure(high)}{unit}" if low == -high else f"{_figure(low)} to {_figure(high)}{unit}"
    return f"{field}: {value:g}{unit} is outside what a model may hold ({span}; docs/level-format.md, Bounds)"


def _figure(x: float) -> str:
    """A bound as a reader takes it in: 10,000 or 1,000,000,000; 1e+13 past a million million."""
    return f"{x:,.0f}" if x == int(x) and abs(x) < 1e12 else f"{x:g}"


def model_bounds(path: str, data: dict) -> None:
    """BadInput naming `path` and the first field of the model `data` whose number lies
    past the bounds a level's does (game/format.py)."""
    checks: list[tuple[str, dict, list]] = []
    for name, table in _LISTS.items():
        items = data.get(name)
        for k, item in enumerate(items if isinstance(items, list) else []):
            checks.append((f"{name}[{k}]", item, table))
    materials = data.get("materials")
    for mid, material in (materials if isinstance(materials, dict) else {}).items():
        checks.append((f"materials.{mid}", material, _MATERIAL))
    if isinstance(data.get("world"), dict):
        checks.append(("world", data["world"], _WORLD))
    for where, item, table in checks:
        if not isinstance(item, dict):
            continue
        for fields, low, high, unit in table:
            for name in fields:
                if _out_of_bounds(item.get(name), low, high):
                    raise BadInput(f"{path}: {_bound_words(f'{where}.{name}', item[name], low, high, unit)}")
    for where, history in _histories(data):
        for k, point in enumerate(history if isinstance(history, list) else []):
            if not (isinstance(point, list | tuple) and len(point) == 2):
                continue
            for value, low, high, unit, what in ((point[0], -MAX_TIME, MAX_TIME, "s", "time"), (point[1], -MAX_FACTOR, MAX_FACTOR, "", "value")):
                if _out_of_bounds(value, low, high):
                    raise BadInput(f"{path}: {_bound_words(f'{where}[{k}] ({what})', value, low, high, unit)}")


def _histories(data: dict) -> list[tuple[str, Any]]:
    """Every history of the model, with its field."""
    out = []
    for name in ("loads", "member_loads"):
        items = data.get(name)
        for k, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict) and "history" in item:
                out.append((f"{name}[{k}].history", item["history"]))
    supports = data.get("supports")
    for k, support in enumerate(supports if isinstance(supports, list) else []):
        motion = support.get("motion") if isinstance(support, dict) else None
        for dof, history in (motion if isinstance(motion, dict) else {}).items():
            out.append((f"supports[{k}].motion.{dof}", history))
    world = data.get("world")
    ground = world.get("ground_motion") if isinstance(world, dict) else None
    for axis, history in (ground if isinstance(ground, dict) else {}).items():
        out.append((f"world.ground_motion.{axis}", history))
    return out


def check_factors(args: argparse.Namespace) -> None:
    """--load-factors: at most MAX_FACTORS of them (each is a solve of its own), each
    within the bounds of a history's scale factor."""
    if len(args.load_factors or []) > MAX_FACTORS:
        raise BadInput(f"--load-factors: {len(args.load_factors):,} factors; at most {MAX_FACTORS:,} (each is a static answer of its own)")
    for factor in args.load_factors or []:
        if abs(factor) > MAX_FACTOR:
            raise BadInput(f"--load-factors: a load factor of {factor:g} is past ±{MAX_FACTOR:g}, the most a model's loads may be scaled by")


def before_run(args: argparse.Namespace, sim) -> list[str]:
    """Refuse (BadInput, one line) a time run whose steps or recorded values pass the
    budget, or whose step is longer than the run; the warnings to add (a step longer
    than the stable one). relax and linear take no time steps: nothing to count."""
    if args.integrator in ("relax", "linear"):
        return []
    span = args.max_seconds if args.seconds is None else args.seconds
    what = "--max-seconds" if args.seconds is None else "--seconds"
    if sim.dt > span:
        if args.dt is None:
            raise BadInput(f"{what}: {span:g} s is shorter than one step of this model ({sim.dt:.3g} s): not one step would be taken")
        raise BadInput(f"--dt: a step of {sim.dt:g} s is longer than the run ({what} {span:g} s): not one step would be taken")
    steps = span / sim.dt
    if steps > MAX_SIM_STEPS:
        field, cause = ("--dt", f"--dt {sim.dt:g} s") if args.dt is not None else (what, f"this model's stable step, {sim.dt:.3g} s,")
        most = f"a run takes at most {MAX_SIM_STEPS:,} (a shorter run, or a larger --dt)"
        raise BadInput(f"{field}: {span:g} s in steps of {cause} is {_count(steps)} steps; {most}")
    every = args.every or DEFAULT_EVERY
    samples = len(args.record) * (span / every + 2)
    if samples > MAX_SAMPLES:
        raise BadInput(
            f"--every: {len(args.record)} record{'s' * (len(args.record) != 1)} every {every:g} s over {span:g} s is {_count(samples)} values;"
            f" at most {MAX_SAMPLES:,} (a larger --every, or a shorter run)"
        )
    if args.dt is not None and args.integrator in ("rk4", "symplectic"):
        from equilibria.engine.simulation import stable_dt_for

        stable = stable_dt_for(sim.model, args.integrator)
        if args.dt > stable:
            return [f"--dt {args.dt:g} s is larger than this model's stable step ({stable:.3g} s): the run may blow up"]
    return []


def _count(n: float) -> str:
    """A count in words a reader takes in: 60,000,000,000, or 6e+301 past a thousand million million."""
    return f"{n:,.0f}" if n < 1e15 else f"{n:.2g}"


def not_finite(value: Any, where: str = "") -> str | None:
    """The first place in `value` (the results) that is not a finite number, as
    'nodes.B.x', or None; non-finite numbers are replaced by None in place."""
    found = None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        here = f"{where}.{key}" if where else str(key)
        if isinstance(item, float) and not math.isfinite(item):
            value[key] = None
            found = found or here
        elif isinstance(item, dict | list):
            inner = not_finite(item, here)  # always: every non-finite number is replaced
            found = found or inner
    return found


def after_run(args: argparse.Namespace, out: dict, model=None) -> str | None:
    """Why the run ends in exit 1 besides what the engine said: a result that is not a
    finite number (written as null), or no rest where rest was asked; None if neither."""
    bad = not_finite(out)
    if bad:
        return f"the result {bad} is not a finite number (written as null): the loads or stiffnesses are beyond what the numbers can hold"
    runs = out.get("runs") or [out]
    asked = args.integrator == "relax" or (args.seconds is None and args.integrator != "linear")
    for run in runs:
        if asked and not run.get("at_rest") and "unstable" not in run and "mechanism" not in run:
            return _no_rest(args, run, model)
    return None


def _no_rest(args: argparse.Namespace, run: dict, model) -> str:
    """The line for a run that was asked to come to rest and did not."""
    where = f"load factor {run['load_factor']:g}: " if "load_factor" in run else ""
    if args.integrator == "relax":
        if model is not None and _is_mechanism(model):
            return f"{where}relax found no rest after {run['steps']:,} steps: {MECHANISM}"
        return f"{where}relax found no rest after {run['steps']:,} steps"
    return f"{where}not at rest after {run['time']:g} s (--max-seconds {args.max_seconds:g})"


MECHANISM = "the structure is a mechanism (it can move without stretching a member)"


def no_equilibrium(args: argparse.Namespace, said: str, model) -> str:
    """The engine's line for a static solve that found no equilibrium (relax: the force
    still out of balance, the node that went furthest), with why, where the structure is
    a mechanism."""
    return f"{said}: {MECHANISM}" if args.integrator == "relax" and model is not None and _is_mechanism(model) else said


def _is_mechanism(model) -> bool:
    from equilibria.engine.linear import mechanism

    return mechanism(model) is not None
