"""Level texts in several languages (issue 25 point 5): the format, `validate`'s note on
missing languages, every shipped level in every language, and the level format's own
refusals through the catalogs (the pseudo language)."""

import copy
import itertools
import json
import re

import pytest
from builders import bridge_truss

from equilibria.cli.main import main
from equilibria.course.level import Level, languages_note, load_level, schema_errors
from equilibria.course.syllabus import LEVELS_DIR, NOT_LEVELS, load_course
from equilibria.files.store import read_json
from equilibria.rules.variants import PLACEHOLDER, version
from equilibria.words import i18n


@pytest.fixture
def lang():
    """Set the language for one test; English again after it."""
    yield i18n.set_language
    i18n.set_language("en")


def level(**changes) -> dict:
    data = bridge_truss(1000.0)
    data.update(format=1, id="zf-lang", title="Which members carry nothing?", kind="zero_force", brief="Find them.", goal={"hold": 2.0})
    data.update(changes)
    return data


def shipped() -> list:
    return sorted(p for p in LEVELS_DIR.glob("*.json") if p.name not in NOT_LEVELS)


# ------------------------------------------------------------------ the format


def test_a_text_per_language_is_read_in_the_language_of_the_moment(lang):
    data = level(
        title={"en": "Which members carry nothing?", "de": "Welche Stäbe tragen nichts?"},
        hints=["Look at node E.", {"en": "Two bars meet at D.", "de": "In D treffen sich zwei Stäbe."}],
        explanation={"en": "Done.", "de": "Fertig."},
    )
    built = load_level(data)
    assert (built.title, built.hints, built.explanation) == ("Which members carry nothing?", ["Look at node E.", "Two bars meet at D."], "Done.")
    lang("de")
    assert built.title == "Welche Stäbe tragen nichts?"
    assert built.hints == ["Look at node E.", "In D treffen sich zwei Stäbe."]  # a plain text is English, in every language
    assert built.brief == "Find them." and built.explanation == "Fertig."
    assert built.as_sandbox().title == "Welche Stäbe tragen nichts?"  # a dumped level reads back with its languages
    assert Level.model_validate(built.model_dump(mode="json", exclude_none=True)).model_dump(mode="json")["title"] == data["title"]


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        ({"title": {"de": "Nur Deutsch"}}, 'title: the English text ("en") is required'),
        ({"brief": 5}, 'brief: a text, or a text per language such as {"en": "…", "de": "…"}'),
        ({"hints": [{"en": "a", "xx": "b"}]}, "hints[0].xx: must be one of: 'en', 'de'"),
        ({"title": {"en": "ok", "de": "x" * 121}}, "title.de: at most 120 characters"),
        ({"brief": {"en": "ok", "de": "x" * 20_001}}, "brief.de: at most 20,000 characters"),
        ({"title": {"en": "ok", "de": ""}}, "title.de: at least 1 character"),
    ],
    ids=["English required", "not a text", "unknown language", "title bound per language", "brief bound per language", "empty title"],
)
def test_a_bad_text_gets_one_line_naming_the_field_and_language(changes, line):
    assert any(line in p for p in schema_errors(level(**changes))), schema_errors(level(**changes))


def test_a_translation_must_show_the_english_numbers():
    data = read_json(LEVELS_DIR / "reactions-02.json")
    with_de = [h for h in data["hints"] if isinstance(h, dict) and PLACEHOLDER.search(h["en"])]
    assert with_de, "reactions-02 shows numbers in its hints"
    hint = with_de[0]
    hint["de"] = PLACEHOLDER.sub("", hint["de"])  # the numbers dropped from the German text
    with pytest.raises(ValueError, match=r"hints\[\d+\]\.de: its placeholders differ from the English text's \(\{"):
        load_level(data)


def test_a_version_fills_every_language(lang):
    """A student's numbers fill the German text too, so a version drawn in English reads
    in German when the language is changed afterwards."""
    drawn = version(load_level(read_json(LEVELS_DIR / "reactions-02.json")), "ada")
    english = drawn.brief
    lang("de")
    german = drawn.brief
    assert german != english and not PLACEHOLDER.search(german) and not PLACEHOLDER.search(" ".join(drawn.hints))
    numbers = re.findall(r"\d+(?:[.,]\d+)?", english.split("\n", 1)[1])
    assert numbers and all(n in german or n.replace(".", ",") in german for n in numbers), (numbers, german)


# ------------------------------------------------------------------ validate's note


def note_lines(tmp_path, capsys, data) -> tuple[int, list[str], list[str]]:
    path = tmp_path / "lvl.json"
    path.write_text(json.dumps(data))
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_validate_notes_the_missing_languages_and_passes(tmp_path, capsys):
    data = level(hints=["a", {"en": "b", "de": "B"}], explanation={"en": "c", "de": "C"})
    code, out, err = note_lines(tmp_path, capsys, data)
    assert code == 0 and err == []
    others = "no Español (es) text for title, brief, hints[0], hints[1], explanation; no Français (fr) text for title, brief, hints[0], hints[1], explanation"
    assert out[1:] == [f"{tmp_path / 'lvl.json'}: note: no Deutsch (de) text for title, brief, hints[0]; {others}"]  # one line, each field named
    every = {"es": "x", "fr": "x"}
    data.update(
        title={"en": "t", "de": "T", **every},
        brief={"en": "b", "de": "B", **every},
        hints=[{"en": "a", "de": "A", **every}],
        explanation={"en": "c", "de": "C", **every},
    )
    code, out, err = note_lines(tmp_path, capsys, data)
    assert code == 0 and len(out) == 1 and out[0].endswith("ok (zero_force, 5 nodes, 7 members)")


def test_the_note_names_every_language_missing(monkeypatch):
    monkeypatch.setitem(i18n.LANGUAGES, "pl", "Polski")
    note = languages_note(Level.model_validate(level(title={"en": "t", "de": "T"})))
    others = "no Español (es) text for title, brief; no Français (fr) text for title, brief; no Polski (pl) text for title, brief"
    assert note == f"note: no Deutsch (de) text for brief; {others}"


# ------------------------------------------------------------------ the shipped levels


def test_every_shipped_text_is_in_every_language_with_the_english_placeholders():
    """Every text field of every shipped level and of the course, in every language of
    LANGUAGES, showing the same {numbers} as the English (game/rules/variants.py fills them)."""
    missing, differ = [], []
    for path in shipped():
        built = Level.model_validate(read_json(path))
        for field, text in built.texts():
            given = {"en": text} if isinstance(text, str) else text
            missing += [f"{path.name}: {field}.{code}" for code in i18n.LANGUAGES if not given.get(code)]
            english = sorted(PLACEHOLDER.findall(given["en"]))
            differ += [f"{path.name}: {field}.{code}" for code, t in given.items() if sorted(PLACEHOLDER.findall(t)) != english]
        assert languages_note(built) == "", path.name
    for topic in load_course().topics:
        given = {"en": topic.title_} if isinstance(topic.title_, str) else topic.title_
        missing += [f"course.json: {topic.title_!r}.{code}" for code in i18n.LANGUAGES if not given.get(code)]
    assert missing == [] and differ == [], (missing[:20], differ[:20])


def test_the_tutorials_read_in_german(lang):
    lang("de")
    first = load_level(read_json(LEVELS_DIR / "tutorial-01.json"))
    assert "Kraft" in first.brief and "Gleichgewicht" in first.explanation
    assert load_course().topics[0].title == "Erste Schritte"


# ------------------------------------------------------------------ the format's own words


BROKEN = {
    "title": {"de": "x"},
    "brief": 5,
    "hints": [{"en": "a", "xx": "b"}, "x" * 20_001],
    "world": {"gravity": 1e9},
    "player": {"nodes": ["A"], "mode": "mark"},
}


def broken_files() -> list[dict]:
    """Level files the format refuses in many ways: pydantic's errors, our validators', the
    sense checks (level.py)."""
    base = level()
    a = {**base, **BROKEN}
    a["nodes"] = [dict(base["nodes"][0], x="a"), {k: v for k, v in base["nodes"][1].items() if k != "y"}, *base["nodes"][2:]]
    a["members"] = [dict(base["members"][0], A=-1), *base["members"][1:]]
    a["loads"] = [{"node": "B", "fy": -1, "history": [[0, 0], [0, 1]]}]
    b = {**base, "kind": "balance", "cut": [{"node": "A", "what": "pin"}], "id": "-bad"}
    c = {**base, "supports": [{"node": "A"}, {"node": "B", "fix": ["x"], "contact": {"normal": [0, 0], "mu": 0.1}}]}
    d = {**base, "kind": "build", "player": {"zone": [[0, 0], [1, 1], [2, 2]], "nodes": ["Q"]}}
    e = {**base, "goal": {"hold": 2.0, "moving_load": {"path": ["A", "A"], "speed": 1}}}
    f = {**base, "vary": {"numbers": {"P": {"min": 2, "max": 1, "step": 0.5}}}}
    return [a, b, c, d, e, f]


ALLOWED = re.compile(r"""^[\s\d.,:;()\[\]{}'"_\-−+…/=⟦⟧]*$""")  # numbers and punctuation only


def words_outside(line: str, names: set[str]) -> list[str]:
    """The words of a line of `validate` outside ⟦ ⟧ that are neither the file's path, a
    field's path, nor a name the level file gave."""
    rest = re.sub(r"⟦[^⟧]*⟧", " ", line)
    words = re.findall(r"[A-Za-z][A-Za-z_]*", rest)
    return [w for w in words if w not in names]


def names_in(path, data) -> set[str]:
    fields = set(re.findall(r"[A-Za-z][A-Za-z_]*", json.dumps(list(walk_keys(data)))))
    return fields | set(re.findall(r"[A-Za-z][A-Za-z_]*", str(path))) | {n["id"] for n in data["nodes"]}


def walk_keys(data):
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from walk_keys(v)
    elif isinstance(data, list):
        for v in data:
            yield from walk_keys(v)


def pseudo_validate(tmp_path, capsys, monkeypatch) -> list[tuple[str, set[str]]]:
    monkeypatch.setenv("EQUILIBRIA_LANG", i18n.PSEUDO)
    lines = []
    for k, data in enumerate(broken_files()):
        path = tmp_path / f"broken{k}.json"
        path.write_text(json.dumps(data))
        assert main(["validate", str(path)]) == 2
        _out, err = capsys.readouterr()
        lines += [(line, names_in(path, data)) for line in err.splitlines()]
    return lines


def test_validate_says_the_format_s_refusals_through_the_catalogs(tmp_path, capsys, monkeypatch, lang):
    """In the pseudo language every word of the level format's refusals is inside ⟦ ⟧:
    outside are only the file's path, the fields' paths, names the file gave and numbers."""
    lines = pseudo_validate(tmp_path, capsys, monkeypatch)
    assert len(lines) >= 14, lines  # each broken file's problems, one line each
    unmarked = [(line, words_outside(line, names)) for line, names in lines if words_outside(line, names)]
    assert unmarked == [], unmarked


def test_the_pseudo_language_test_catches_an_unmarked_refusal(tmp_path, capsys, monkeypatch, lang):
    """The test above fails when one refusal bypasses the catalogs."""
    import equilibria.format.schema as fmt

    def unmarked(points):
        if points is not None and any(b[0] <= a[0] for a, b in itertools.pairwise(points)):
            raise ValueError("times must increase")  # not through _()
        return points

    monkeypatch.setattr(fmt, "_increasing", unmarked)  # what the history validators call
    lines = pseudo_validate(tmp_path, capsys, monkeypatch)
    caught = [words_outside(line, names) for line, names in lines if words_outside(line, names)]
    assert ["times", "must", "increase"] in caught, lines


def test_validate_speaks_german(tmp_path, capsys, lang):
    """`--lang de`: the format's refusals and the note in German, numbers with a decimal
    comma, field names as the file has them."""
    bad = copy.deepcopy(level(members=[{"id": "AB", "i": "A", "j": "B", "material": "steel", "A": -1}]))  # the builder shares its materials
    bad["nodes"][0]["x"] = 1e6
    bad["materials"]["steel"]["nu"] = 0.7
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main(["--lang", "de", "validate", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert f"{path}: members[0].A: muss größer als 0 sein" in err
    assert f"{path}: nodes[0].x: muss höchstens 10.000 sein" in err  # German digit grouping (English: 10,000)
    assert f"{path}: materials.steel.nu: muss kleiner als 0,5 sein" in err  # and decimal comma
    path.write_text(json.dumps(level()))
    assert main(["--lang", "de", "validate", str(path)]) == 0
    others = "kein Text auf Español (es) für title, brief; kein Text auf Français (fr) für title, brief"
    assert capsys.readouterr().out.splitlines()[1] == f"{path}: Hinweis: kein Text auf Deutsch (de) für title, brief; {others}"


def test_a_section_reads_in_the_students_language_and_its_key_stays_the_files():
    """bridge-01's sections are keys ("light", "heavy") that solution files name; the
    student reads their names in their language, on the toolbar, in notices, the member
    table and the bill (Bench.section_name, Section.shown)."""
    from equilibria.course.level import load_level
    from equilibria.course.syllabus import shipped_level
    from equilibria.files.store import read_json
    from equilibria.words import i18n
    from equilibria.work.workbench import SANDBOX_SECTIONS, LevelBench

    bench = LevelBench(load_level(read_json(shipped_level("bridge-01"))))
    assert bench.section_name("light") == "light"
    i18n.set_language("de")
    assert bench.section_name("light") == "leicht" and bench.section_name("heavy") == "schwer"
    assert SANDBOX_SECTIONS["timber beam"].shown("timber beam") == "Holzbalken"
    assert "name" not in SANDBOX_SECTIONS["steel bar"].member_fields()  # a member built of it carries no name
    assert bench.section_name("IPE 999") == "IPE 999"  # no such section: its key, as given
