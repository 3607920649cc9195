"""Small level-format models shared by the tests (dicts, as a level file holds them)."""

from __future__ import annotations

import math

STEEL = {"E": 200e9, "density": 7850.0, "nu": 0.3}


def english(data: dict) -> dict:
    """A level file's data with its texts in English: a text may be given per language,
    {"en": …, "de": …} (docs/level-format.md, "Languages"); the figures tests check are
    quoted in the English, and tests/test_level_languages.py keeps the others in step."""
    from equilibria.words.i18n import localized

    for key in ("title", "brief", "explanation"):
        if key in data:
            data[key] = localized(data[key], "en")
    if "hints" in data:
        data["hints"] = [localized(h, "en") for h in data["hints"]]
    return data


def model(nodes, members=(), supports=(), loads=(), triangles=(), *, gravity=0.0, damping=0.0, materials=None, **world):
    return {
        "world": {"gravity": gravity, "damping": damping, **world},
        "materials": materials or {"steel": STEEL},
        "nodes": [{"id": n, "x": x, "y": y} if not extra else {"id": n, "x": x, "y": y, **extra[0]} for n, x, y, *extra in nodes],
        "members": list(members),
        "supports": list(supports),
        "loads": list(loads),
        "triangles": list(triangles),
    }


def member(mid, i, j, kind="bar", A=1e-3, I=None, material="steel"):
    d = {"id": mid, "i": i, "j": j, "kind": kind, "material": material, "A": A}
    if I is not None:
        d["I"] = I
    return d


def three_rod_triangle(f_ext: float, K: float = 1e5) -> dict:
    """Seed 004 Fig. 9.6: A fixed, C on a vertical roller, B free and pulled down by
    f_ext. AB and AC have length 1 and stiffness K = EA/L; BC is the diagonal √2 with
    EA/L = K/√2 (same rod section), which gives the matrix of eq. (9.49)."""
    E = K  # with A = 1 m² and L = 1 m, EA/L = K
    return model(
        [("A", 0.0, 0.0), ("B", 1.0, 0.0), ("C", 0.0, 1.0)],
        [member("AB", "A", "B", A=1.0, material="rod"), member("AC", "A", "C", A=1.0, material="rod"), member("BC", "B", "C", A=1.0, material="rod")],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["x"]}],
        [{"node": "B", "fy": -f_ext}],
        materials={"rod": {"E": E, "density": 1.0}},
    )


def cantilever(n: int, L: float, P: float, *, E=200e9, A=1e-3, I=1e-6, density=7850.0, **world) -> dict:
    """n beam elements along x from a fixed root N0; tip load P (positive up) at Nn."""
    return model(
        [(f"N{k}", L * k / n, 0.0) for k in range(n + 1)],
        [member(f"M{k}", f"N{k}", f"N{k + 1}", "beam", A=A, I=I) for k in range(n)],
        [{"node": "N0", "fix": ["x", "y", "rot"]}],
        [{"node": f"N{n}", "fy": P}],
        materials={"steel": {"E": E, "density": density}},
        **world,
    )


def bridge_truss(P: float) -> dict:
    """Two-panel truss: bottom A(0,0) B(2,0) C(4,0), top D(1,1) E(3,1); pin A, roller C,
    load P down at B. Method of joints (45° diagonals):
    AB = BC = +P/2, AD = EC = −P/√2, DB = BE = +P/√2, DE = −P (tension positive)."""
    return model(
        [("A", 0, 0), ("B", 2, 0), ("C", 4, 0), ("D", 1, 1), ("E", 3, 1)],
        [member(m, m[0], m[1]) for m in ("AB", "BC", "AD", "DB", "BE", "EC", "DE")],
        [{"node": "A", "fix": ["x", "y"]}, {"node": "C", "fix": ["y"]}],
        [{"node": "B", "fy": -P}],
    )


BRIDGE_FORCES = {"AB": 0.5, "BC": 0.5, "AD": -1 / math.sqrt(2), "EC": -1 / math.sqrt(2), "DB": 1 / math.sqrt(2), "BE": 1 / math.sqrt(2), "DE": -1.0}


def rhombus_plate(P: float, model_kind: str = "linear", damping: float = 0.05) -> dict:
    """Seed 000 Fig. 7: two triangles, n1–n3 = 6.10 m long, n2–n4 = 3.03 m wide,
    t = 0.152 m, E = 20.7 GPa, ν = 0.3, 23.5 kN/m³; pinned at n1, load P down at n3,
    no gravity. It swings 90° clockwise and hangs from the pin."""
    tri = {"material": "concrete", "t": 0.152, "model": model_kind}
    return model(
        [("n1", 0.0, 0.0), ("n2", 3.05, 1.515), ("n3", 6.10, 0.0), ("n4", 3.05, -1.515)],
        supports=[{"node": "n1", "fix": ["x", "y"]}],
        loads=[{"node": "n3", "fy": -P}],
        triangles=[{"id": "T1", "nodes": ["n1", "n2", "n4"], **tri}, {"id": "T2", "nodes": ["n3", "n4", "n2"], **tri}],
        materials={"concrete": {"E": 20.7e9, "nu": 0.3, "density": 23.5e3 / 9.81}},
        damping=damping,
    )


# A free (unsupported) frame with every element kind: beams (the seed's and one with
# stability functions), a bar, a cable, a linear and a Neo-Hookean triangle.
FREE_FRAME = model(
    [("A", 0.0, 0.0), ("B", 2.0, 0.3), ("C", 1.2, 1.7), ("D", -0.6, 1.1)],
    [
        member("AB", "A", "B", "beam", I=2e-6),
        dict(member("BC", "B", "C", "beam", I=2e-6), formulation="stability"),
        member("CD", "C", "D", "bar"),
        member("DA", "D", "A", "cable"),
    ],
    triangles=[
        {"id": "T1", "nodes": ["A", "B", "C"], "material": "steel", "t": 0.002},
        {"id": "T2", "nodes": ["A", "C", "D"], "material": "steel", "t": 0.002, "model": "neo_hookean"},
    ],
)


def own_numbers(data: dict) -> dict:
    """A shipped level file's data as a level that does not vary: its own numbers (the file
    holds them already), each {placeholder} of its texts filled with them in every language
    (the explanation with its answer), and no `vary`. For tests that take a varied level
    apart (other cuts, another kind): its texts would otherwise name numbers and answers the
    changed level no longer has (docs/level-format.md, "Numbers of their own")."""
    from equilibria.course.level import load_level
    from equilibria.format.schema import each_language
    from equilibria.rules.variants import answer_values, draw, fill, with_derived

    if "vary" not in data:
        return data
    level = load_level(data)
    env = with_derived(level, draw(level, None))
    answer = answer_values(level)
    out = {k: v for k, v in data.items() if k != "vary"}
    out["brief"] = each_language(data["brief"], lambda t: fill(t, env, level, "brief"))
    out["hints"] = [each_language(h, lambda t, k=k: fill(t, env, level, f"hints[{k}]")) for k, h in enumerate(data.get("hints", []))]
    if "explanation" in data:
        out["explanation"] = each_language(data["explanation"], lambda t: fill(t, env, level, "explanation", answer))
    return out
