"""The bad-input corpus (issue 5): every broken model, level, design and solution file in
tests/corpus/, and a few made here that are too big or too deep to keep, gets exit 2
from every command that reads it and one line on stderr naming the file and the field.
Nothing is printed on stdout, and no traceback. Each folder's good.json is the file the
broken ones were made from, with one thing broken each: it passes, so what is refused
is what was broken."""

from __future__ import annotations

from pathlib import Path

import pytest

from equilibria.cli.main import main
from equilibria.files.store import MAX_FILE_BYTES, MAX_OBJECTS

CORPUS = Path(__file__).resolve().parent / "corpus"
LEVEL = str(Path(__file__).resolve().parents[1] / "levels" / "tutorial-01.json")  # what the solutions are for

# file name: what its one line must say after the file's name (the field, then the problem)
BROKEN_MODEL = {
    "not-json": "not valid JSON: Expecting property name enclosed in double quotes at line 21",
    "empty": "the file is empty (a JSON object was expected)",
    "top-level-list": "(top level): expected an object",
    "duplicate-key": "x: given twice in the object with id 'B'",
    "wrong-type": "nodes[1].x: expected a number, got 'four'",
    "unknown-id": "members[0].j: unknown node 'Q'",
    "duplicate-id": "nodes[3].id: duplicate node id 'B'",
    "zero-length": "members[3]: member 'CD' has zero length",
    "coincident-nodes": "nodes[3]: node 'D' is at the same place as node 'C' (2, 2)",
    "zero-area-triangle": "triangles[1].nodes: triangle 'U' has zero area",
    "negative-modulus": "materials.steel.E: must be positive",
    "nan-modulus": "materials.steel.E: must be a finite number",
    "format-newer": "format: format 2 is newer than this version of Equilibria reads (format 1)",
}
BROKEN_LEVEL = {
    **BROKEN_MODEL,
    "not-json": "not valid JSON: Expecting value at line 15, column 10",
    "top-level-list": "(top level): must be an object {…}",
    "wrong-type": "nodes[1].x: must be a number",
    "negative-modulus": "materials.steel.E: must be at least 1000",  # the least modulus a level takes (game/format/schema.py MIN_E)
    "nan-modulus": "materials.steel.E: must be a finite number",
    "negative-area": "members[0].A: must be more than 0",
    "unknown-field": "colour: unknown field",
    "format-missing": 'format: missing: the file must say which format it is in ("format": 1)',
    "format-older": "format: format 0 is older than any Equilibria wrote",
    "format-text": "format: expected the whole number 1, got '1'",
}
BROKEN_SOLUTION = {
    "not-json": "not valid JSON: Expecting value at line 2, column 1",
    "format-newer": "format: format 3 is newer than this version of Equilibria reads (format 1)",
    "format-missing": "format: missing",
    "another-level": "level: this solution is for level 'bridge-01', not 'tutorial-01'",
    "unknown-move": "moves[0]: Input tag 'teleport' found using 'type' does not match",
    "unknown-node": "moves[0].node: unknown node 'Z'",
    "nan-force": "moves[0].add_force.fx: must be a finite number",
    "wrong-type": "moves[0].add_force.fx: must be a number",
    "moves-not-a-list": "moves: must be a list […]",
}

# every command that reads such a file (F), headless
MODEL_COMMANDS = [["simulate", "F", "--json"]]
LEVEL_COMMANDS = [["validate", "F"], ["check", "F", "--json"], ["play", "F", "--frames", "1"], ["sandbox", "F", "--frames", "1"]]
SOLUTION_COMMANDS = [["check", LEVEL, "--solution", "F", "--json"], ["play", LEVEL, "--solution", "F", "--frames", "1"]]


def run(command: list[str], path: Path, capsys) -> tuple[int, str, str]:
    code = main([str(path) if a == "F" else a for a in command])
    out, err = capsys.readouterr()
    return code, out, err


def refused(command: list[str], path: Path, words: str, capsys) -> None:
    code, out, err = run(command, path, capsys)
    assert (code, out) == (2, ""), (command, code, out, err)
    assert err.count("\n") == 1 and err.startswith(f"{path}: {words}"), (command, err)


def cases(folder: str, table: dict[str, str], commands: list[list[str]]) -> list:
    return [
        pytest.param(CORPUS / folder / f"{name}.json", words, command, id=f"{folder}/{name}-{command[0]}")
        for name, words in table.items()
        for command in commands
    ]


def test_the_corpus_holds_exactly_the_cases_listed_here():
    for folder, table in (("models", BROKEN_MODEL), ("levels", BROKEN_LEVEL), ("solutions", BROKEN_SOLUTION)):
        assert {p.stem for p in (CORPUS / folder).glob("*.json")} == {*table, "good"}, folder


@pytest.mark.parametrize(
    ("path", "command"),
    [(CORPUS / "models" / "good.json", c) for c in MODEL_COMMANDS]
    + [(CORPUS / "levels" / "good.json", c) for c in LEVEL_COMMANDS]
    + [(CORPUS / "solutions" / "good.json", c) for c in SOLUTION_COMMANDS],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_the_file_each_case_was_broken_from_is_good(path, command, capsys):
    code, _, err = run(command, path, capsys)
    assert code == 0 and err == ""


@pytest.mark.parametrize(
    ("path", "words", "command"),
    cases("models", BROKEN_MODEL, MODEL_COMMANDS) + cases("levels", BROKEN_LEVEL, LEVEL_COMMANDS) + cases("solutions", BROKEN_SOLUTION, SOLUTION_COMMANDS),
)
def test_a_broken_file_gets_exit_2_and_one_line_naming_it_and_the_field(path, words, command, capsys):
    refused(command, path, words, capsys)


def made(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """The cases too big or too odd to keep in the repository: name: (file, words)."""
    files = {
        "deeply nested": ("[" * 200_000, "not valid JSON: nested too deeply"),
        "too many objects": (
            '{"format": 1, "nodes": [' + ", ".join(['{"id": "N", "x": 0, "y": 0}'] * (MAX_OBJECTS + 1)) + "]}",
            f"more than {MAX_OBJECTS:,} objects",
        ),
        "not UTF-8": (b'{"format": 1, "title": "caf\xe9"}', "cannot read the file as UTF-8 text"),
        # valid JSON that Python's int() will not convert (issue 36): the field named, never a ValueError
        "a long number": ('{"format": 1, "nodes": [{"id": "A", "x": -' + "7" * 5001 + "}]}", "nodes[0].x: a number of 5,001 digits"),
        # valid JSON holding half of an emoji (a title cut inside it): no font draws it, no terminal prints it
        "half a character": ('{"format": 1, "title": "Bridge \\ud83c"}', "title: half of a character (a lone surrogate)"),
        "a cut string": ('{"format": 1, "title": "Bridge', "not valid JSON: Unterminated string starting at line 1, column 24"),  # never "at at"
    }
    out = {}
    for name, (content, words) in files.items():
        path = tmp_path / f"{name.replace(' ', '-')}.json"
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        out[name] = (path, words)
    huge = tmp_path / "too-big.json"
    with huge.open("wb") as file:  # sparse: the size is there, the disk and the memory are not used
        file.truncate(MAX_FILE_BYTES + 1)
    out["too big"] = (huge, "the file is 10 MB; files over 10 MB are refused")
    return out


@pytest.mark.parametrize("name", ["deeply nested", "too many objects", "not UTF-8", "too big", "a long number", "half a character", "a cut string"])
@pytest.mark.parametrize("command", [MODEL_COMMANDS[0], *LEVEL_COMMANDS, SOLUTION_COMMANDS[0]], ids=lambda c: "-".join(a for a in c if a != "F" and a != LEVEL))
def test_files_too_big_too_many_or_too_deep_are_refused_the_same_way(tmp_path, capsys, name, command):
    path, words = made(tmp_path)[name]
    if command == SOLUTION_COMMANDS[0] and name in ("too big", "too many objects"):
        words = "(file): "  # a solution over the judge's budget of 500 kB is refused by it, unread (game/format/solution.py)
    refused(command, path, words, capsys)


def test_a_file_of_too_many_objects_is_refused_before_it_is_parsed(tmp_path):
    """Parsed, 100,001 node objects would take some 30 times the file's size in memory;
    refused on a count of braces, the peak is the text read and little more."""
    import tracemalloc

    from equilibria.files.store import BadInput, read_json

    path, _ = made(tmp_path)["too many objects"]
    tracemalloc.start()
    try:
        with pytest.raises(BadInput):
            read_json(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * path.stat().st_size
