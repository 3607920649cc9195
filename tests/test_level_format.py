"""The level format: one definition, a schema that stays current, `equilibria validate`."""

import json

import pytest
from builders import bridge_truss
from hostile import quiet

from equilibria.cli.main import main
from equilibria.course.level import Level, schema_text
from equilibria.course.syllabus import SCHEMA_PATH


def level(**changes) -> dict:
    data = bridge_truss(1000.0)
    title = {  # every language: validate adds no note
        "en": "Which members carry nothing?",
        "de": "Welche Stäbe tragen nichts?",
        "es": "¿Qué barras no llevan nada?",
        "fr": "Quelles barres ne portent rien ?",
    }
    brief = {"en": "Find them.", "de": "Finde sie.", "es": "Encuéntralas.", "fr": "Trouvez-les."}
    data.update(format=1, id="zf-test", title=title, kind="zero_force", brief=brief, goal={"hold": 2.0})
    data.update(changes)
    return data


def validate(tmp_path, capsys, files: dict[str, object]) -> tuple[int, list[str], list[str]]:
    for name, content in files.items():
        (tmp_path / name).write_text(content if isinstance(content, str) else json.dumps(content))
    code = main(["validate", str(tmp_path)])
    out, err = capsys.readouterr()
    said = quiet(err).splitlines()  # without a cold cache's one notice
    return code, out.splitlines(), said


def test_committed_schema_is_generated_from_the_definition():
    """Regenerate with `python -m equilibria.course.level --write-schema` after changing game/course/level.py."""
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text()


def test_a_good_level_validates(tmp_path, capsys):
    code, out, err = validate(tmp_path, capsys, {"good.json": level()})
    assert code == 0 and err == []
    assert out == [f"{tmp_path / 'good.json'}: ok (zero_force, 5 nodes, 7 members)"]
    assert Level.model_validate(level()).model_data()["members"][0]["id"] == "AB"


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        ({"format": 2}, "format: format 2 is newer than this version of Equilibria reads (format 1)"),
        ({"kind": "puzzle"}, "kind: must be one of"),
        ({"members": [{"id": "AB", "i": "A", "j": "B", "material": "steel", "A": -1}]}, "members[0].A: must be more than 0"),
        ({"colour": "red"}, "colour: unknown field"),
        ({"members": [{"id": "AB", "i": "A", "j": "Q", "material": "steel", "A": 1}]}, "members[0].j: unknown node 'Q'"),
        ({"loads": [{"node": "Z", "fy": -1}]}, "loads[0].node: unknown node 'Z'"),
        ({"loads": [{"node": "B", "fy": -1, "history": [[0, 0], [0, 1]]}]}, "loads[0].history: times must increase"),
        ({"supports": [{"node": "A", "fix": ["x", "y"]}]}, "supports: the truss is a mechanism; nodes B, C, D, E can move"),
    ],
    ids=["format version", "kind", "negative area", "unknown field", "unknown node", "load on a missing node", "history", "mechanism"],
)
def test_a_bad_level_gets_one_line_per_problem_naming_file_and_field(tmp_path, capsys, changes, line):
    code, out, err = validate(tmp_path, capsys, {"bad.json": level(**changes)})
    assert code == 2 and out == []
    assert err and all(e.startswith(f"{tmp_path / 'bad.json'}: ") for e in err)
    assert any(line in e for e in err), err


def test_validate_reports_every_bad_file_and_skips_the_schema(tmp_path, capsys):
    (tmp_path / "solutions").mkdir()
    files = {"a.json": level(), "b.json": "{oops", "level.schema.json": "{}", "solutions/s.json": "{}"}
    code, out, err = validate(tmp_path, capsys, files)
    assert code == 2
    assert len(out) == 1 and out[0].startswith(str(tmp_path / "a.json"))
    assert len(err) == 1 and err[0].startswith(str(tmp_path / "b.json")) and "not valid JSON" in err[0]


def test_the_shipped_levels_folder_validates(capsys):
    assert main(["validate", str(SCHEMA_PATH.parent)]) == 0


def test_load_choices_are_checked_like_loads(tmp_path, capsys):
    choices = [[{"node": "B", "fy": -1}], [{"node": "Q", "fy": -1}], [{"node": "B", "fz": 1}]]
    code, _, err = validate(tmp_path, capsys, {"draws.json": level(player={"load_choices": choices})})
    assert code == 2
    assert any("player.load_choices[2][0].fz: unknown field (did you mean 'fx' or 'fy'?)" in e for e in err), err
    code, _, err = validate(tmp_path, capsys, {"draws.json": level(player={"load_choices": choices[:2]})})
    assert code == 2 and any("player.load_choices[1]: loads[0].node: unknown node 'Q'" in e for e in err), err
