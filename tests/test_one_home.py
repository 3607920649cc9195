"""One home for each concept (docs/engine.md, "What a new element kind touches"): the game reads a
member's results from engine/results.py and never branches on the element kind, nor
reads the engine's per-kind arrays; load histories are read through engine/histories.py;
forces are put in words by game/words/figures.py alone.

The check walks the syntax tree of every module under game/. The few comparisons with
"bar", "beam" or "cable" left are the level format's own words for the student (a
section's kind, a member entry's kind, what a free body's cut cuts), named below.
"""

import ast
import re
from pathlib import Path

GAME = Path(__file__).resolve().parent.parent / "game"
KIND_WORDS = {"bar", "beam", "cable"}
# The engine's arrays per element kind (arrays.bar_ij, arrays.beam_EI, ...), the member
# record's (state.member_out, arrays.member_cap_t, ...: whose row is which member is the
# engine's business), which kind a member is (member_slot, members_by_kind), and a
# history's raw rows.
PER_KIND = re.compile(r"^(bar|beam|cable)_")
RECORD = {"member_on", "member_out", "member_broke", "member_start", "member_cap_t", "member_cap_c", "record_row", "kind_rows"}
ENGINE_INSIDES = {"member_slot", "members_by_kind", "hist_start", "hist_t", "hist_v", *RECORD}
# (file, the compared expression): the level format naming kinds for the student.
LEVEL_FORMAT = {
    ("format/schema.py", "self.kind"),  # a section's kind, in the level file
    ("course/level.py", "section.kind"),
    ("rules/free_body.py", "member.kind"),  # a level member that is a cable pulls only along itself
    ("rules/answer.py", "member.kind"),  # a cut level member that is a cable is named a cable to the student
    ("rules/section.py", "member.kind"),  # a section level's file is a truss of bars (its sense check)
    ("app/widgets/panels.py", "member.get('kind', 'bar')"),  # a member entry's I is shown for a beam
    ("rules/answer.py", "a dict keyed by element kind"),  # CARRIES: what a free body's cut carries, by what it cuts
    ("rules/part_body.py", "m.get('kind')"),  # a member cut at a joint or a section is a bar's cut or a beam's, as the level format names cuts
    ("rules/frame_body.py", "m.get('kind')"),  # a frame's member holds its node from turning as a beam not released there (the format's names)
}
CUT_WHAT = re.compile(r"^c(ut)?(\.what|\.get\('what'\))$")  # a free body's cut: a support, a pin, a bar or a beam (the level format's cut kinds)
FORMATTERS = {"kn", "num", "figure"}


def modules():
    for path in sorted(GAME.rglob("*.py")):
        yield path.relative_to(GAME).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def kind_comparisons(tree) -> list[tuple[int, str]]:
    """(line, compared expression) of every comparison with a kind word."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            words = [s for s in sides if isinstance(s, ast.Constant) and s.value in KIND_WORDS]
            for s in words:
                others = [o for o in sides if o is not s]
                out.append((node.lineno, ast.unparse(others[0]) if others else ""))
        keys = {k.value for k in node.keys if isinstance(k, ast.Constant)} if isinstance(node, ast.Dict) else set()
        if keys & {"bar", "beam"} and not keys & {"id", "i", "j"}:  # {"bar": ..., "beam": ...}: a table by kind, not a member entry
            out.append((node.lineno, "a dict keyed by element kind"))
    return out


def test_the_game_never_branches_on_the_element_kind():
    found = []
    for name, tree in modules():
        for line, expr in kind_comparisons(tree):
            if (name, expr) in LEVEL_FORMAT or CUT_WHAT.match(expr):
                continue
            found.append(f"game/{name}:{line}: {expr}")
    assert not found, "read member results from engine/results.py instead:\n" + "\n".join(found)


def test_the_game_never_reads_the_engines_per_kind_arrays():
    found = []
    for name, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and (PER_KIND.match(node.attr) or node.attr in ENGINE_INSIDES):
                found.append(f"game/{name}:{node.lineno}: .{node.attr}")
    assert not found, "use engine/results.py (members) or engine/histories.py (histories):\n" + "\n".join(found)


def test_forces_are_put_in_words_in_one_place():
    defined = [(name, node.name) for name, tree in modules() for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name in FORMATTERS]
    assert sorted(defined) == [("words/figures.py", "figure"), ("words/figures.py", "kn"), ("words/figures.py", "num")]


def test_the_check_finds_what_it_forbids():
    """The walkers above see a branch and a per-kind read (else they pass for nothing)."""
    tree = ast.parse('n = s.bar_N[row] if kind == "bar" else s.beam_out[row, 0]\nw = {"bar": 1, "beam": 2}')
    assert [e for _, e in kind_comparisons(tree)] == ["a dict keyed by element kind", "kind"]
    assert sorted(n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and PER_KIND.match(n.attr)) == ["bar_N", "beam_out"]
    record = ast.parse("n = sim.state.member_out[sim.model.record_row[k], 0]")
    assert sorted(n.attr for n in ast.walk(record) if isinstance(n, ast.Attribute) and n.attr in ENGINE_INSIDES) == ["member_out", "record_row"]


def test_kn_gives_three_figures_in_plain_digits_with_the_sign():
    from equilibria.words.figures import kn

    assert [kn(f) for f in (1.49e6, -20e3, 12.5e3, 1e3, 12.5, 0.0)] == ["1,490 kN", "-20 kN", "12.5 kN", "1 kN", "0.0125 kN", "0 kN"]
