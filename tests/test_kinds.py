"""Level kinds are one registry (game/rules/kinds.py): each kind describes itself in its
rules module, and the loader, the schema, the workbench, the judges and the play scene
read the table instead of naming kinds."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from equilibria.app.scenes.parts import kind_name
from equilibria.course.level import Level, schema_text
from equilibria.format.solution import Solution
from equilibria.rules.judge import check
from equilibria.rules.kind import TOOL_KEYS, Kind
from equilibria.rules.kinds import KINDS
from equilibria.words import catalogs, i18n
from equilibria.words.i18n import LANGUAGES, SOURCE
from equilibria.work.workbench import tools_for

ROOT = Path(__file__).resolve().parents[1]
NAMES = "|".join(KINDS)
NAMED = re.compile(r"""kind\s*(==|!=|\bin\b|\bnot in\b)\s*\(?\s*["'](""" + NAMES + r""")["']""")


def test_the_schema_and_the_level_format_list_the_registry_s_kinds():
    assert json.loads(schema_text())["properties"]["kind"]["enum"] == list(KINDS)
    assert Level.model_fields["kind"].annotation.__args__ == tuple(KINDS)
    doc = (ROOT / "docs" / "level-format.md").read_text(encoding="utf-8")
    for name in KINDS:
        assert f"| `{name}` |" in doc, name


def test_each_kind_is_whole():
    for name, kind in KINDS.items():
        assert isinstance(kind, Kind) and kind.name == name
        assert kind.tools[0] == "inspect" and "drag" in kind.tools
        assert kind.judged == bool(kind.moves), name  # a goal and moves to reach it come together
        for mode, tools in kind.mode_tools.items():
            assert tools_for(name, mode) == tools


def test_every_kind_has_a_title_word_translated_in_every_language():
    """The play screen's title line names a level's kind by its `Kind.title_word`. The words
    were a table of the play scene's own, which a new kind was missing from: it showed its
    file name, untranslated, in German."""
    for code in LANGUAGES:
        if code == SOURCE:
            continue
        said = {m.id: m.string for domain in i18n.DOMAINS for m in catalogs.read(code, domain) if m.id}
        for name, kind in KINDS.items():
            assert kind.title_word, name
            assert said.get(kind.title_word), f"{code}: the {name} kind's word {kind.title_word!r} has no translation"
            i18n.set_language(code)
            assert kind_name(name) == said[kind.title_word]
            i18n.set_language(SOURCE)
    i18n.set_language(i18n.PSEUDO)  # the word is looked up where it is shown, not kept in English
    assert all(kind_name(name) == f"⟦{kind.title_word}⟧" for name, kind in KINDS.items())


def test_outside_the_rules_no_code_asks_which_kind_a_level_is_by_name():
    """`stage.kind == "zero_force"` and the like were the kind spread over the game; the
    registry's flags say it now. (Opening a level as a sandbox still names the sandbox.)"""
    found = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        if path.parent.name == "rules":
            continue
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if NAMED.search(line) and 'level.kind != "sandbox"' not in line:
                found.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()}")
    assert found == []


def test_a_kind_without_a_goal_is_not_checked():
    level = Level.model_validate({"format": 1, "id": "d", "title": "d", "kind": "demo", "nodes": [{"id": "A", "x": 0, "y": 0}]})
    with pytest.raises(ValueError, match="a demo level has no goal to check"):
        check(level, Solution(format=1, level="d"))


def test_a_kind_with_more_tools_than_keys_is_refused():
    """Tools are chosen by 1 … 9, 0: an 11th sandbox tool was labelled "1" beside
    Inspect's and had no key. A kind refuses a toolbar (or a mode's) past the keys."""
    eleven = ("inspect", *(f"tool{k}" for k in range(9)), "drag")
    assert len(eleven) == len(TOOL_KEYS) + 1
    with pytest.raises(ValueError, match="the many kind has 11 tools, more than the 10 keys"):
        Kind(name="many", summary="", title_word="many", tools=eleven)
    with pytest.raises(ValueError, match="11 tools in mode 'remove'"):
        Kind(name="many", summary="", title_word="many", mode_tools={"remove": eleven})
    assert Kind(name="ten", summary="", title_word="ten", tools=eleven[:-1]).tools == eleven[:-1]
