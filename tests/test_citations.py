"""Texts that point somewhere: every file, page, module, name and section that a
docstring, a comment, the README or a page of docs/ cites exists in the project (the
reader has no other: the README and docs/ stand alone). tests/citations.py finds them."""

from __future__ import annotations

from citations import project_texts, stale


def test_every_citation_points_somewhere():
    assert stale(project_texts()) == []


def test_the_guard_finds_each_kind_of_citation_that_points_nowhere(tmp_path):
    old_name = "game" + ".assets"  # written apart: tests/test_repository.py refuses the old import names in strings
    module = tmp_path / "planted.py"
    module.write_text(
        '"""Cites game/nowhere.py, a bare nowhere.py, DESIGN.md, equilibria.rules.judge.nothing,\n'
        "equilibria.no_room.module, game/work/workbench.py `no_such_tool`, `no_such_name` and\n"
        f'{old_name}; and these, which are there: game/work/workbench.py `tools_for`, `tools_for`."""\n'
        "\n"
        'X = "game/not_words.py"  # a string of the code is no citation; this comment cites docs/no-page.md\n',
        encoding="utf-8",
    )
    page = tmp_path / "planted.md"
    page.write_text('# A page\n\nSee [below](#no-such-heading), [above](#a-page) and docs/cli.md "No such section".\n', encoding="utf-8")
    found = sorted(line.split(": ", 1)[1] for line in stale([module, page]))
    assert found == sorted(
        [
            "no file game/nowhere.py",
            "no file named nowhere.py",
            "no page DESIGN.md in the project",
            "no nothing in equilibria.rules.judge",
            "no no_room in equilibria",
            "no no_such_tool in game/work/workbench.py",
            f"{old_name} is no import name (equilibria is)",
            "no name no_such_tool in the project",
            "no name no_such_name in the project",
            "no file docs/no-page.md",
            "no section #no-such-heading in planted.md",
            'no section "No such section" in docs/cli.md',
        ]
    )
