"""The level editor's checks per edit: `python -m benchmarks.editor [--quick] [--sizes 13,101,501,2001] [--repeats 3]`.

A script, not a test: it prints figures side by side and never fails. The editor
(game/course/authoring.py, drawn by game/app/scenes/editor.py) works out, once for each
draft an edit makes, what `equilibria validate` says of it (`authoring.checked`: the
schema, the sense checks, the model built, the ends of each range tried) and the answer
the judge computes (`authoring.reference`); the panel waits for both, so their sum is
the time from a click to the panel's answer.

The structure: a Pratt truss of n panels 2 m wide and 2 m high (4·n + 1 steel bars: the
bottom and the top chords, a post at every bottom node, one diagonal a panel falling
towards mid-span), a pin at its left foot, a roller at its right one, 10 kN down at
every other bottom node, the middle one a number of each student's own (a click on
its load: the range the editor suggests), all built here as the sandbox saves a design.
For each size it is drafted two ways:

- free body: the sandbox design opened in the editor (`authoring.start`), which makes a
  structure on supports a free-body level (both supports cut: the reactions asked);
- section: the same draft made a section level (K: `set_kind(..., "section")`) asking
  the force in the bottom chord of the middle panel (`set_asked`: the same member at
  every size, where the kind's own first choice, the nearest the middle a section finds,
  may be a diagonal or a chord).

Sizes: up to 2,001 members by default (about 15 s; --quick, 3 s). A --sizes of 2,801 members or more
(700 panels, 1.4 km long and 2 m deep) times a section draft that validate refuses: so
slender a truss is a mechanism to the engine's check (engine/linear.py, the smallest
eigenvalue of the scaled stiffness under MECHANISM_TOL), and there is no answer to time.

Figures, each the best of --repeats calls after one call to warm up (other work on
the machine only ever slows a call down): `checked` and `reference` [s], their sum per
edit, and beside it, in the same run on the same document, the reference figure
`level_problems` [s] (equilibria.course.level: what `validate` itself runs, without
the editor's own checks on top), and the growth of the time per edit against linear
from the smallest size, (t / t₀) / (n / n₀), n counting members (1 is linear, as in
benchmarks/growth.py). Times are wall times from time.perf_counter().
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
from collections.abc import Callable
from dataclasses import dataclass
from time import perf_counter

from equilibria.course import authoring
from equilibria.course.level import level_problems

FULL_SIZES = (13, 101, 501, 2001)  # members (4·panels + 1)
QUICK_SIZES = (13, 101, 501)
PANEL = 2.0  # [m] the panels' width and height
LOAD = 10e3  # [N] at every other bottom node
STEEL = {"E": 200e9, "density": 7850, "nu": 0.3, "strength": 250e6}  # [Pa], [kg/m³], the sandbox's steel
BAR = {"kind": "bar", "material": "steel", "A": 0.000453, "I": 1.16e-07}  # the sandbox's steel bar [m², m⁴]
KINDS = ("free body", "section")


# --------------------------------------------------------------------------- the drafts


def pratt_design(members: int) -> dict:
    """A sandbox design of the Pratt truss of the module doc with about `members` bars."""
    n = max(2, round((members - 1) / 4))
    nodes = [{"id": f"B{k}", "x": k * PANEL, "y": 0.0} for k in range(n + 1)]
    nodes += [{"id": f"T{k}", "x": k * PANEL, "y": PANEL} for k in range(n + 1)]
    pairs = [(f"B{k}", f"B{k + 1}") for k in range(n)] + [(f"T{k}", f"T{k + 1}") for k in range(n)]
    pairs += [(f"B{k}", f"T{k}") for k in range(n + 1)]
    pairs += [(f"T{k}", f"B{k + 1}") if 2 * k < n else (f"B{k}", f"T{k + 1}") for k in range(n)]  # falling towards mid-span
    return {
        "format": 1,
        "id": "sandbox",
        "title": "Sandbox",
        "kind": "sandbox",
        "world": {"mass_damping": 0.2},
        "materials": {"steel": dict(STEEL)},
        "nodes": nodes,
        "members": [{"id": f"M{k + 1}", "i": i, "j": j, **BAR} for k, (i, j) in enumerate(pairs)],
        "supports": [{"node": "B0", "fix": ["x", "y"]}, {"node": f"B{n}", "fix": ["y"]}],
        "loads": [{"node": f"B{k}", "fx": 0.0, "fy": -LOAD} for k in range(1, n, 2)],
    }


def drafts(members: int) -> dict[str, dict]:
    """The free-body draft and the section draft of the truss of about `members` bars."""
    design = pratt_design(members)
    free_body = authoring.start(design)  # on supports: a free-body level, both supports cut
    loads = free_body["loads"]
    free_body = authoring.vary_load(free_body, len(loads) // 2, authoring.suggested_range(LOAD, authoring.FORCE_UNIT))
    n = (len(design["nodes"]) - 2) // 2
    chord = next(m["id"] for m in design["members"] if (m["i"], m["j"]) == (f"B{n // 2}", f"B{n // 2 + 1}"))
    section = authoring.set_asked(authoring.set_kind(free_body, "section"), chord)
    return {"free body": free_body, "section": section}


# --------------------------------------------------------------------------- timing


def best_of(call: Callable[[], object], repeats: int) -> tuple[float, object]:
    """The shortest wall time of `repeats` calls after one to warm up, and what it returned."""
    result = call()
    times = []
    for _ in range(repeats):
        start = perf_counter()
        result = call()
        times.append(perf_counter() - start)
    return min(times), result


@dataclass(frozen=True)
class Row:
    kind: str
    members: int
    checked: float  # [s] authoring.checked
    reference: float  # [s] authoring.reference, given checked's level
    validate: float  # [s] level_problems alone on the same document: the reference figure
    problems: tuple[str, ...]
    answer: str  # the answer's first line, to show it is one

    @property
    def per_edit(self) -> float:
        return self.checked + self.reference


def measure(kind: str, doc: dict, repeats: int) -> Row:
    checked, (problems, level) = best_of(lambda: authoring.checked(doc), repeats)
    reference, answer = best_of(lambda: authoring.reference(doc, level), repeats)
    validate, _found = best_of(lambda: level_problems(authoring.level_document(doc)), repeats)
    return Row(kind, len(doc["members"]), checked, reference, validate, tuple(problems), (answer or ["(no answer)"])[0])


# --------------------------------------------------------------------------- report


def table(rows: list[Row]) -> str:
    base = rows[0]
    head = f"{'members':>8}  {'checked [s]':>11}  {'reference [s]':>13}  {'per edit [s]':>12}  {'growth':>6}  {'level_problems [s]':>18}  {'checked / l_p':>13}"
    lines = [head, "-" * len(head)]
    for r in rows:
        growth = (r.per_edit / base.per_edit) / (r.members / base.members)
        lines.append(
            f"{r.members:8,d}  {r.checked:11.4f}  {r.reference:13.4f}  {r.per_edit:12.4f}  {growth:6.2f}  {r.validate:18.4f}  {r.checked / r.validate:12.2f}×"
        )
    return "\n".join(lines)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.editor", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"sizes {','.join(map(str, QUICK_SIZES))} only, one timed call each (a few seconds)")
    parser.add_argument("--sizes", help="comma-separated member counts to aim at (4·panels + 1), e.g. 101,2001")
    parser.add_argument("--repeats", type=int, help="timed calls per figure, the best shown (default 3, 1 with --quick)")
    args = parser.parse_args(argv)
    args.sizes = tuple(int(s) for s in args.sizes.split(",")) if args.sizes else (QUICK_SIZES if args.quick else FULL_SIZES)
    args.repeats = max(1, args.repeats or (1 if args.quick else 3))
    return args


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    start = perf_counter()
    print(f"$ python -m benchmarks.editor {' '.join(argv)}".rstrip())
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average before {os.getloadavg()[0]:.1f}")
    print(f"Pratt truss, {PANEL:g} m panels, pin and roller, {LOAD / 1e3:g} kN at every other bottom node (the middle one varied); best of {args.repeats}\n")
    rows: dict[str, list[Row]] = {kind: [] for kind in KINDS}
    for size in args.sizes:
        for kind, doc in drafts(size).items():
            rows[kind].append(measure(kind, doc, args.repeats))
            r = rows[kind][-1]
            print(f"  {kind}, {r.members:,} members: {'; '.join(r.problems) or 'no problems'}; the answer's first line: {r.answer}", flush=True)
    print()
    for kind in KINDS:
        print(f"{kind}: checked then reference, per edit; level_problems (what validate runs) on the same document for reference")
        print(table(rows[kind]))
        print()
    print("growth: (t / t₀) / (n / n₀) of the time per edit from the first size; 1 is linear")
    print("checked / l_p: checked's time over level_problems' alone (the editor's own checks on top of validate's)")
    print(f"\nbenchmark took {perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
