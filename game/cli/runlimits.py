"""What `equilibria simulate` refuses before it runs and says after it ran.

Before: a model's numbers within the bounds a level's are held to (game/format/schema.py, the
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
import sys
from typing import Any

from equilibria.files.store import BadInput
from equilibria.format.schema import (
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
from equilibria.words.i18n import N_, _, decimal, decimal_mark, ngettext
from equilibria.words.text import cut

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
    """`value` as a float, None if it is no number; a whole number past a float's range
    (JSON allows 10**400) as the largest float of its sign, which every bound refuses."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:
        return -sys.float_info.max if value < 0 else sys.float_info.max


def _out_of_bounds(value: Any, low: float, high: float) -> bool:
    """Past the bound on the far side only: a value of the wrong sign (a negative
    modulus) or type is the engine's to name, in its own words."""
    x = _number(value)
    if x is None or not math.isfinite(x):
        return False
    return abs(x) > max(abs(low), abs(high)) or (0.0 < low and 0.0 < x < low)


def _bound_words(field: str, value: float, low: float, high: float, unit: str) -> str:
    unit = f" {unit}" if unit else ""
    span = f"±{_figure(high)}{unit}" if low == -high else _("{low} to {high}").format(low=_figure(low), high=f"{_figure(high)}{unit}")
    try:
        shown = _g(value)
    except OverflowError:  # a whole number past a float's range, written by its first digits
        shown = cut(str(value))
    return _("{field}: {value} is outside what a model may hold ({span}; docs/level-format.md, Bounds)").format(field=field, value=f"{shown}{unit}", span=span)


def _figure(x: float) -> str:
    """A bound as a reader takes it in: 10,000 or 1,000,000,000; 1e+13 past a million million."""
    return decimal(x, 0) if x == int(x) and abs(x) < 1e12 else _g(x)


def model_bounds(path: str, data: dict) -> None:
    """BadInput naming `path` and the first field of the model `data` whose number lies
    past the bounds a level's does (game/format/schema.py)."""
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
            # TRANSLATORS: a history's point [time, value] named in a refusal: "loads[0].history[3] (time)"
            said = (_("{point} (time)"), _("{point} (value)"))
            for value, low, high, unit, what in ((point[0], -MAX_TIME, MAX_TIME, "s", said[0]), (point[1], -MAX_FACTOR, MAX_FACTOR, "", said[1])):
                if _out_of_bounds(value, low, high):
                    raise BadInput(f"{path}: {_bound_words(what.format(point=f'{where}[{k}]'), value, low, high, unit)}")


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
        said = _("--load-factors: {n} factors; at most {most} (each is a static answer of its own)")
        raise BadInput(said.format(n=decimal(len(args.load_factors), 0), most=decimal(MAX_FACTORS, 0)))
    for factor in args.load_factors or []:
        if abs(factor) > MAX_FACTOR:
            said = _("--load-factors: a load factor of {factor} is past ±{most}, the most a model's loads may be scaled by")
            raise BadInput(said.format(factor=_g(factor), most=_g(MAX_FACTOR)))


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
            said = _("{option}: {span} s is shorter than one step of this model ({dt} s): not one step would be taken")
            raise BadInput(said.format(option=what, span=_g(span), dt=_g(sim.dt, 3)))
        said = _("--dt: a step of {dt} s is longer than the run ({option} {span} s): not one step would be taken")
        raise BadInput(said.format(option=what, span=_g(span), dt=_g(sim.dt)))
    steps = span / sim.dt
    if steps > MAX_SIM_STEPS:
        if args.dt is not None:
            said = _("--dt: {span} s in steps of --dt {dt} s is {steps} steps; a run takes at most {most} (a shorter run, or a larger --dt)")
        else:
            said = _(
                "{option}: {span} s in steps of this model's stable step, {dt} s, is {steps} steps;"
                " a run takes at most {most} (a shorter run, or a larger --dt)"
            )
        dt = _g(sim.dt) if args.dt is not None else _g(sim.dt, 3)
        raise BadInput(said.format(option=what, span=_g(span), dt=dt, steps=_count(steps), most=decimal(MAX_SIM_STEPS, 0)))
    every = args.every or DEFAULT_EVERY
    samples = len(args.record) * (span / every + 2)
    if samples > MAX_SAMPLES:
        said = ngettext(
            "--every: {n} record every {every} s over {span} s is {values} values; at most {most} (a larger --every, or a shorter run)",
            "--every: {n} records every {every} s over {span} s is {values} values; at most {most} (a larger --every, or a shorter run)",
            len(args.record),
        )
        raise BadInput(said.format(n=len(args.record), every=_g(every), span=_g(span), values=_count(samples), most=decimal(MAX_SAMPLES, 0)))
    if args.dt is not None and args.integrator in ("rk4", "symplectic"):
        from equilibria.engine.simulation import stable_dt_for

        stable = stable_dt_for(sim.model, args.integrator)
        if args.dt > stable:
            return [_("--dt {dt} s is larger than this model's stable step ({stable} s): the run may blow up").format(dt=_g(args.dt), stable=_g(stable, 3))]
    return []


def _count(n: float) -> str:
    """A count in words a reader takes in: 60,000,000,000, or 6e+301 past a thousand million million."""
    return decimal(n, 0) if n < 1e15 else _g(n, 2)


def _g(x: float, digits: int | None = None) -> str:
    """`x` as :g writes it (`digits` significant figures, else six), with the language's decimal mark."""
    return f"{x:.{digits or 6}g}".replace(".", decimal_mark())


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
        return _("the result {where} is not a finite number (written as null): the loads or stiffnesses are beyond what the numbers can hold").format(where=bad)
    runs = out.get("runs") or [out]
    asked = args.integrator == "relax" or (args.seconds is None and args.integrator != "linear")
    for run in runs:
        if asked and not run.get("at_rest") and "unstable" not in run and "mechanism" not in run:
            return _no_rest(args, run, model)
    return None


def _no_rest(args: argparse.Namespace, run: dict, model) -> str:
    """The line for a run that was asked to come to rest and did not."""
    if args.integrator == "relax":
        said = ngettext("relax found no rest after {steps} step", "relax found no rest after {steps} steps", run["steps"]).format(
            steps=decimal(run["steps"], 0)
        )
        if model is not None and _is_mechanism(model):
            said = f"{said}: {_(MECHANISM)}"
    else:
        said = _("not at rest after {time} s (--max-seconds {most})").format(time=_g(run["time"]), most=_g(args.max_seconds))
        if args.integrator == "newmark" and not getattr(args, "hht_alpha", 0.0):
            said += ": " + _("plain Newmark leaves a stiff member's highest modes undamped, and they keep it moving; --hht-alpha -0.1 damps them")
    return _("load factor {factor}: {failure}").format(factor=_g(run["load_factor"]), failure=said) if "load_factor" in run else said


MECHANISM = N_("the structure is a mechanism (it can move without stretching a member)")


def no_equilibrium(args: argparse.Namespace, said: str, model) -> str:
    """The engine's line for a static solve that found no equilibrium (relax: the force
    still out of balance, the node that went furthest), with why, where the structure is
    a mechanism."""
    return f"{said}: {_(MECHANISM)}" if args.integrator == "relax" and model is not None and _is_mechanism(model) else said


def _is_mechanism(model) -> bool:
    from equilibria.engine.linear import mechanism

    return mechanism(model) is not None
