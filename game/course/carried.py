"""The numbers of each student's own carried from a whole structure into a part the level
editor cuts out of it (a joint, a section, a body of a frame: game/course/authoring.py
`_cut_free`), so that each student's part is cut from their own whole.

A part's loads are the whole's loads at its nodes and the forces given at its cuts (the
other members' forces, the reactions, a pin's force), each worked out from the whole's
linear statics, so each is linear in the whole's loads, and so in the numbers the
whole's loads are made of (`vary.set` on `loads[…]`): each part load's components are
written as c₀ + Σ cₖ·Nₖ over those numbers Nₖ, the coefficients found by cutting the part
once more with each number far up (BUMP). A third cut, with every number at its greatest,
checks the expressions (a load written as P·Q, not linear, fails it: then the part keeps
the whole's numbers as it stands, none). A number of a dimension (`nodes.…`) moves the
geometry, which the given forces do not follow linearly: such numbers stay with the
whole (K brings them back). No pygame.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from equilibria.format.schema import Number
from equilibria.rules.variants import default_value, evaluate, names_in, parse, put

AGREE = 1e-5  # [N] the check's third cut agrees with the expressions within this (the given forces are kept to the micronewton)
BUMP = 1e6  # the step each number is bumped by to find its coefficients: the micronewton round-off of a given force is 1e-12 of it
FIGURES = 12  # a coefficient's significant figures in the expressions written
CONSTANT_FLOOR = 1e-3  # [N] a constant term below this is round-off, left out


def carried(structure: dict, cut: Callable[[dict], dict], part: dict) -> dict:
    """`part` (cut by `cut` from `structure`, the whole at its own numbers) with the numbers
    of the whole's loads carried as the module says; `part` itself where there are none."""
    vary = structure.get("vary") or {}
    numbers = vary.get("numbers") or {}
    loads = {field: parse(text) for field, text in (vary.get("set") or {}).items() if field.startswith("loads[")}
    derived = {name: parse(d["value"]) for name, d in (vary.get("derived") or {}).items()}
    reached = set().union(*(_reached(tree, derived) for tree in loads.values()))
    names = sorted(n for n in numbers if n in reached)
    derived = {name: tree for name, tree in derived.items() if name in reached}  # in the order written: each may use those before
    if not names:
        return part
    try:
        base = {n: default_value(Number.model_validate(numbers[n])) for n in numbers}  # the level's own values (absent: the middle)
    except ValueError:  # a number the format refuses: validate says so; the part keeps none
        return part

    def cut_at(values: dict[str, float]) -> dict[tuple, float]:
        env = dict(values)
        for name, tree in derived.items():
            env[name] = evaluate(tree, env, f"vary.derived.{name}")
        whole = copy.deepcopy(structure)
        for field, tree in loads.items():
            put(whole, field, evaluate(tree, env, f"vary.set.{field}"))
        return _components(cut(whole))

    slopes = {}
    top = {**base, **{n: float(numbers[n]["max"]) for n in names}}
    try:
        at_base = cut_at(base)  # not the part as cut: the file's loads may not be at its numbers' own values
        for n in names:
            bumped = cut_at({**base, n: base[n] + BUMP})
            slopes[n] = {key: (bumped.get(key, 0.0) - at_base.get(key, 0.0)) / BUMP for key in set(bumped) | set(at_base)}
        checked = cut_at(top)
    except ValueError:  # a number that cannot go so far (a square root's, say): not a load's size alone
        return part
    keys = sorted(set(at_base) | {key for s in slopes.values() for key in s})
    for key in keys:
        guess = at_base.get(key, 0.0) + sum(slopes[n].get(key, 0.0) * (top[n] - base[n]) for n in names)
        if abs(guess - checked.get(key, 0.0)) > AGREE * max(1.0, abs(guess)):
            return part  # not linear in them: the part keeps no numbers of the whole's
    return _written(part, keys, at_base, slopes, base, names, numbers, vary)


def _reached(tree, derived: dict) -> set[str]:
    """The names an expression uses, through the derived numbers it uses."""
    seen, todo = set(), list(names_in(tree))
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(names_in(derived[name]) if name in derived else ())
    return seen


def _components(part: dict) -> dict[tuple, float]:
    """Each load's components of the part, keyed by (its node, its place among the node's loads, the component)."""
    out: dict[tuple, float] = {}
    seen: dict[str, int] = {}
    for ld in part.get("loads") or []:
        k = seen.get(ld["node"], 0)
        seen[ld["node"]] = k + 1
        for c in ("fx", "fy", "m"):
            if ld.get(c):
                out[(ld["node"], k, c)] = float(ld[c])
    return out


def _written(part: dict, keys: list[tuple], at_base: dict, slopes: dict, base: dict, names: list[str], numbers: dict, vary: dict) -> dict:
    """The part with a load for each key (its value the base one) and `vary.set` writing each as its expression."""
    part = copy.deepcopy(part)
    loads: list[dict] = []
    index: dict[tuple[str, int], int] = {}
    sets = {}
    for node, k, c in keys:
        if (node, k) not in index:
            index[(node, k)] = len(loads)
            loads.append({"node": node})
        slope = {n: slopes[n].get((node, k, c), 0.0) for n in names}
        constant = at_base.get((node, k, c), 0.0) - sum(slope[n] * base[n] for n in names)
        loads[index[(node, k)]][c] = at_base.get((node, k, c), 0.0)
        sets[f"loads[{index[(node, k)]}].{c}"] = _expression(constant, slope)
    part["loads"] = loads
    used = {n for text in sets.values() for n in names_in(parse(text))}
    carried_numbers = {n: numbers[n] for n in numbers if n in used}
    part["vary"] = {k: v for k, v in vary.items() if k not in ("numbers", "set", "derived")} | {"numbers": carried_numbers, "set": sets}
    derived = {n: d for n, d in (vary.get("derived") or {}).items() if names_in(parse(d["value"])) <= set(carried_numbers) | set(vary.get("derived") or {})}
    if derived:
        part["vary"]["derived"] = derived
    return part


def _expression(constant: float, slope: dict[str, float]) -> str:
    """c₀ + Σ cₖ·Nₖ written plainly: `P`, `-P`, `0.75 * P + 2000`, round-off left out."""
    terms = []
    for name, c in slope.items():
        c = float(f"{c:.{FIGURES}g}")
        if abs(c) < 1e-12:
            continue
        terms.append(name if c == 1 else f"-{name}" if c == -1 else f"{c!r} * {name}")
    constant = round(constant, 6)
    if abs(constant) >= CONSTANT_FLOOR or not terms:
        terms.append(repr(constant))
    return " + ".join(terms).replace("+ -", "- ")
