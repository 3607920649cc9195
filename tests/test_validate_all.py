"""`equilibria validate` says every problem of a file in one run (issue 34 point 2): the
cause before what follows from it, one line each naming the field, and `--json` with one
object per problem, for an editor or a course's CI."""

import json

from equilibria.cli.main import main
from equilibria.files.shipped import LEVELS_DIR
from equilibria.files.store import read_json


def three_mistakes(tmp_path):
    """balance-01 as a teacher might get it wrong three times at once: a misspelt field,
    a placeholder naming no number (in English only: its translations then differ from it,
    a consequence), and a number the file holds that its defaults do not give."""
    data = read_json(LEVELS_DIR / "balance-01.json")
    data["hint"] = data.pop("hints")  # misspelt
    data["brief"]["en"] = data["brief"]["en"].replace("{P}", "{Z}", 1)
    data["loads"][0]["fx"] += 1  # vary.set says loads[0].fx = P (its default 10 kN)
    path = tmp_path / "three.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_three_mistakes_are_said_in_one_run_and_no_consequence(tmp_path, capsys):
    path = three_mistakes(tmp_path)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3, err
    assert err[0] == f"{path}: hint: unknown field (did you mean 'hints'?)"
    assert err[1].startswith(f"{path}: brief.en: {{Z}}: no number named 'Z' in vary"), err
    assert err[2].startswith(f"{path}: vary.set.loads[0].fx: the file holds 10001, the default numbers give 10000"), err
    assert not any("differ from the English" in line for line in err)  # the translations are right: the English is wrong


def test_a_translation_that_differs_is_said_for_each_language_where_the_english_is_right(tmp_path, capsys):
    data = read_json(LEVELS_DIR / "balance-01.json")
    for code in ("de", "fr"):
        data["brief"][code] = data["brief"][code].replace("{h}", "h")
    path = tmp_path / "two.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert [line.split(": ")[1] for line in err] == ["brief.de", "brief.fr"], err


def test_json_has_one_object_per_problem_with_file_field_and_words(tmp_path, capsys):
    path = three_mistakes(tmp_path)
    good = LEVELS_DIR / "tutorial-01.json"
    assert main(["validate", str(path), str(good), "--json"]) == 2
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert [(p["file"], p["field"], p["severity"]) for p in report["problems"]] == [
        (str(path), "hint", "error"),
        (str(path), "brief.en", "error"),
        (str(path), "vary.set.loads[0].fx", "error"),
    ]
    assert report["problems"][1]["problem"].startswith("{Z}: no number named 'Z' in vary")
    assert [(f["file"], f["ok"]) for f in report["files"]] == [(str(path), False), (str(good), True)]
    assert report["files"][1]["kind"] == "balance" and report["files"][1]["members"] == 5
    assert "Traceback" not in err


def test_json_of_a_good_course_has_no_problem_and_exit_0(capsys):
    assert main(["validate", str(LEVELS_DIR / "tutorial-01.json"), str(LEVELS_DIR / "tutorial-02.json"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [p for p in report["problems"] if p["severity"] == "error"] == [] and all(f["ok"] for f in report["files"])


def test_a_file_that_does_not_read_is_one_problem_and_the_next_file_is_still_checked(tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert main(["validate", str(broken), str(LEVELS_DIR / "tutorial-01.json"), "--json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert [(p["file"], p["field"]) for p in report["problems"]] == [(str(broken), "")]
    assert "not valid JSON" in report["problems"][0]["problem"]
    assert [f["ok"] for f in report["files"]] == [False, True]
    assert main(["validate", str(broken)]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [report["problems"][0]["problem"]]  # the file named once


def test_a_level_of_many_versions_is_said_to_be_shared_by_no_one_not_by_about_0(capsys):
    assert main(["validate", "tutorial-01"]) == 0  # 2,736 versions: 0.3 of a class of 30 expected to share
    out = capsys.readouterr().out
    assert "in a class of 30, most likely no one would share theirs" in out and "about 0 " not in out, out
