"""The judge speaks the student's language (issue 25 point 5): every word of a verdict, a
refusal and a hint comes from the catalogs, and numbers are written in the language's
marks (game/words/figures.py).

The proof: every shipped level with a goal is checked, in the pseudo language (each
translated text comes back in ⟦ ⟧), with its reference solution and with wrong answers
(no moves at all, the reference less its last move, and the students' wrong answers of
tests/corpus/answers); no word of the verdict, the hint or a refusal may stand outside
⟦ ⟧ but numbers, unit symbols, the level's node, member and section names and the
level's own texts (its hints come from the level file, translated by another part).
A text left unmarked is caught (test_an_unmarked_text_is_caught). Then a German check of
a free-body level and of truss levels: German words and the decimal comma.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from equilibria.course.level import load_level
from equilibria.files.store import read_json
from equilibria.format.solution import read_solution
from equilibria.rules.judge import check
from equilibria.rules.variants import version_for
from equilibria.words import i18n
from equilibria.words.figures import kn, num, signed, typed_force, typed_moment

ROOT = Path(__file__).resolve().parent
LEVELS = ROOT.parent / "levels"
SOLUTIONS = LEVELS / "solutions"
CORPUS = ROOT / "corpus" / "answers"
UNITS = {"kN", "N", "m", "mm", "km", "s", "J", "Hz", "kg", "kB"}  # unit symbols stay as they are (I18N.md)
BRACKETED = re.compile(r"⟦[^⟦⟧]*⟧")  # innermost first: a translated text may hold another
CORPUS_PER_LEVEL = 3  # the students' wrong answers taken per level (enough for every branch the corpus reaches)


def shipped() -> list[str]:
    return sorted(p.stem for p in SOLUTIONS.glob("*.json") if (LEVELS / p.name).is_file())


def names_of(level) -> set[str]:
    """What a level names itself: node, member and section ids, its id."""
    names = {n.id for n in level.nodes} | {m.id for m in level.members} | {level.id}
    names |= set(level.player.sections or {})
    return names


def unmarked(text: str, level, own: list[str], solution=None) -> list[str]:
    """The words of `text` outside ⟦ ⟧ that are no number, unit symbol, name of the
    level's or of what the solution adds, nor part of the level's own texts `own`."""
    for said in sorted(own, key=len, reverse=True):
        if said:
            text = text.replace(said, " ")
    while BRACKETED.search(text):
        text = BRACKETED.sub(" ", text)
    allowed = names_of(level) | UNITS | {getattr(m, "id", "") for m in (solution.moves if solution else [])}
    return [w for w in re.findall(r"\w+", text) if not re.fullmatch(r"\d+", w) and w not in allowed]


def answers(level_id: str):
    """(name, solution) for the reference and the wrong answers of a level."""
    reference = read_solution(SOLUTIONS / f"{level_id}.json")
    yield "reference", reference
    yield "nothing", reference.model_copy(update={"moves": []})
    if len(reference.moves) > 1:
        yield "one less", reference.model_copy(update={"moves": reference.moves[:-1]})
    for path in sorted((CORPUS / level_id).glob("wrong-*.json"))[:CORPUS_PER_LEVEL]:
        yield path.stem, read_solution(path)


def judged_texts(level, solution) -> tuple[list[str], list[str]]:
    """The texts a student reads from checking `solution` (the verdict and its hint, or
    the refusal), and the level's own texts among them."""
    try:
        own = list(version_for(level, solution).hints) + list(level.hints)
    except ValueError as exc:
        return [str(exc).split(": ", 1)[-1]], []
    try:
        verdict = check(level, solution)
    except ValueError as exc:  # a solution that does not fit the level: refused in one line, "field: problem"
        return [str(exc).split(": ", 1)[-1]], own
    return [verdict.reason, verdict.figures.get("hint") or ""], own


@pytest.mark.parametrize("level_id", shipped())
def test_every_word_of_the_judge_comes_from_the_catalogs(level_id):
    i18n.set_language(i18n.PSEUDO)
    level = load_level(read_json(LEVELS / f"{level_id}.json"))
    bad = []
    for name, solution in answers(level_id):
        texts, own = judged_texts(level, solution)
        for text in texts:
            if words := unmarked(text, level, own, solution):
                bad.append(f"{name}: {words} in {text!r}")
    assert bad == [], "\n".join(bad)


def test_an_unmarked_text_is_caught(monkeypatch):
    """The proof fails on a text that bypasses the catalogs: the balance judge's words with
    `_` made the identity (as if unmarked) are caught; with it, they are not."""
    from equilibria.rules import balance

    i18n.set_language(i18n.PSEUDO)
    level = load_level(read_json(LEVELS / "balance-01.json"))
    wrong = read_solution(SOLUTIONS / "balance-01.json").model_copy(update={"moves": []})
    texts, own = judged_texts(level, wrong)
    assert texts[0].startswith("⟦") and unmarked(texts[0], level, own) == []
    monkeypatch.setattr(balance, "ngettext", lambda one, many, n: one if n == 1 else many)
    texts, own = judged_texts(level, wrong)
    assert "exactly" in unmarked(texts[0], level, own)


def test_a_level_text_is_not_taken_for_the_judges():
    """The level's own texts are set aside by their exact words only: the judge's words
    around them still count."""
    level = load_level(read_json(LEVELS / "balance-01.json"))
    assert unmarked("⟦Not balanced⟧: the hint of the level. Add 2 kN at A", level, ["the hint of the level."]) == ["Add", "at"]


# ------------------------------------------------------------------ German


def german(level_id: str, solution) -> str:
    i18n.set_language("de")
    level = load_level(read_json(LEVELS / f"{level_id}.json"))
    verdict = check(level, solution)
    return f"{verdict.reason} {verdict.figures.get('hint') or ''}"


def test_a_free_body_level_in_german():
    right = german("free-body-01", read_solution(SOLUTIONS / "free-body-01.json"))
    assert right.startswith("Richtig: deine Kräfte halten den freigeschnittenen Körper im Gleichgewicht")
    assert "2 %" in right and "ΣM um" in right
    wrong = german("free-body-01", read_solution(CORPUS / "free-body-01" / "wrong-sign.json"))
    assert "Nicht im Gleichgewicht" in wrong or "Nicht richtig" in wrong
    assert "Freikörperbild" in wrong


def test_truss_levels_in_german():
    """A zero-force truss marked wrongly names the method of joints in German; a bridge
    that holds says so with a decimal comma in its millimetres and German thousands in
    its cost."""
    nothing = read_solution(SOLUTIONS / "zero-force-01.json").model_copy(update={"moves": []})
    said = german("zero-force-01", nothing)
    assert said.startswith("Nicht ganz: ") and "Nullstäbe sind nicht markiert" in said
    assert "Knotenpunktverfahren: sieh dir Knoten" in said
    holds = german("bridge-01", read_solution(SOLUTIONS / "bridge-01.json"))
    assert holds.startswith("Es hält: nichts bricht")
    assert re.search(r"\d,\d+ mm", holds) and re.search(r"\d\.\d{3}\xa0\$", holds), holds  # "1.549 $", as the German briefs write it
    assert "ausgelastet" in holds


def test_numbers_in_the_languages_marks():
    """kn, num and signed in German: a decimal comma, a point between thousands, the minus
    sign kept; English unchanged."""
    assert (kn(12_500), kn(1_490_000), signed(-3.0, "kN"), num(1.0, "kN")) == ("12.5 kN", "1,490 kN", "−3 kN", "+1.00 kN")
    i18n.set_language("de")
    assert (kn(12_500), kn(1_490_000), signed(-3.25, "kN"), num(1.0, "kN")) == ("12,5 kN", "1.490 kN", "−3,25 kN", "+1,00 kN")


@pytest.mark.parametrize(
    ("text", "force"),
    [("1,5; -10", (1500.0, -10000.0)), ("1,5 -10", (1500.0, -10000.0)), ("0, -10", (0.0, -10000.0)), ("1.5 2", (1500.0, 2000.0)), ("2,5 @ 90", (0.0, 2500.0))],
)
def test_a_typed_force_reads_the_decimal_comma_in_german(text, force):
    i18n.set_language("de")
    fx, fy = typed_force(text)
    assert fx == pytest.approx(force[0], abs=1e-6) and fy == pytest.approx(force[1], abs=1e-6)


def test_a_typed_moment_reads_the_decimal_comma_in_german_and_english_keeps_the_point():
    assert typed_moment("-4.5") == -4500.0
    with pytest.raises(ValueError):
        typed_force("1,5,3")
    i18n.set_language("de")
    assert typed_moment("-4,5 kNm") == -4500.0
    with pytest.raises(ValueError, match="Dezimalkomma"):
        typed_force("1,5,3")


@pytest.mark.parametrize("language", [i18n.PSEUDO, "de"])
def test_the_engines_words_are_translated_where_the_judge_shows_them(language):
    """A design the engine refuses (a new joint where one already is): the engine's
    ModelError carries its template and fields (engine/words.py), and the verdict gives
    them in the student's language."""
    from equilibria.format.solution import AddNode

    i18n.set_language(language)
    level = load_level(read_json(LEVELS / "bridge-01.json"))
    reference = read_solution(SOLUTIONS / "bridge-01.json")
    twin = AddNode(type="add_node", id="Z", x=2.0, y=2.0)  # where the reference puts E
    twin_solution = reference.model_copy(update={"moves": [*reference.moves, twin]})
    verdict = check(level, twin_solution)
    assert not verdict.passed
    if language == i18n.PSEUDO:
        assert "⟦node {node} is at the same place" not in verdict.reason and "⟦node 'Z' is at the same place as node 'E'" in verdict.reason
        assert unmarked(verdict.reason, level, [], twin_solution) == []
    else:
        assert verdict.reason.startswith("Dieser Entwurf lässt sich nicht bauen: Knoten 'Z' liegt an derselben Stelle wie Knoten 'E' (2, 2)")
