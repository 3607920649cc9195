"""Languages (issue 25 point 5): the catalogs in step with the code, every text of the
second language translated with its placeholders intact, numbers and plurals as each
language writes them, the language from --lang or the system, and level texts in
several languages (game/words/i18n.py, game/words/catalogs.py)."""

from __future__ import annotations

import re
import string

import pytest

from equilibria.words import catalogs, i18n
from equilibria.words.i18n import LANGUAGES, SOURCE


def all_messages():
    for code in LANGUAGES:
        if code == SOURCE:
            continue
        for domain in i18n.DOMAINS:
            for message in catalogs.read(code, domain):
                if message.id:
                    yield code, domain, message


def test_the_catalogs_are_in_step_with_the_code():
    """Every text the code marks is in every language's catalog, and no catalog holds a
    text the code no longer has (`python -m equilibria.words.catalogs` puts them in step)."""
    assert catalogs.out_of_step() == []


def test_every_text_of_every_language_is_translated():
    strings = ((code, domain, message, message.string if isinstance(message.string, tuple) else [message.string]) for code, domain, message in all_messages())
    missing = [f"{code}/{domain}.po: {message.id!r}" for code, domain, message, translated in strings if not all(translated)]
    assert missing == [], "untranslated:\n" + "\n".join(missing[:40])


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_translations_keep_their_placeholders():
    """A translation names the same {fields} as its English text (a missing one would
    raise where the text is formatted; an extra one would never be filled)."""
    wrong = []
    for code, domain, message in all_messages():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for translated in strings:
            if translated and fields(translated) != fields(ids[-1]) | fields(ids[0]) and fields(translated) != fields(ids[0]):
                wrong.append(f"{code}/{domain}.po: {ids[0]!r} → {translated!r}")
    assert wrong == []


def test_a_text_in_two_catalogs_reads_the_same_in_both():
    """Two areas may use the same short text ("level", "{n} nodes"); the game looks a text
    up in one catalog after another (game/words/i18n.py), so both must translate it alike."""
    seen: dict[tuple[str, str], tuple[str, object]] = {}
    differ = []
    for code, domain, message in all_messages():
        key = (code, str(message.id))
        if key in seen and seen[key][1] != message.string:
            differ.append(f"{message.id!r}: {seen[key][0]} says {seen[key][1]!r}, {domain} says {message.string!r}")
        seen.setdefault(key, (domain, message.string))
    assert differ == []


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT.UTF-8"}, "de"),
        ({"LANGUAGE": "it:de", "LANG": "it_IT.UTF-8"}, "de"),
        ({"LANG": "it_IT.UTF-8"}, "en"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es_MX.UTF-8"}, "es"),
        ({"LANGUAGE": "fr_CA:en", "LANG": "fr_CA.UTF-8"}, "fr"),
        ({"LC_MESSAGES": "fr_BE.UTF-8"}, "fr"),
        ({"EQUILIBRIA_LANG": "es", "LANG": "de_DE.UTF-8"}, "es"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
        ({"EQUILIBRIA_LANG": "de", "LANG": "en_US.UTF-8"}, "de"),
        ({}, "en"),
    ],
)
def test_the_language_follows_the_system(environ, expected):
    assert i18n.system_language(environ) == expected


def test_windows_ui_languages_map_to_the_games():
    """On Windows the language is the user interface's LCID through locale.windows_locale:
    Spanish (Spain, Mexico) and French (France, Canada) as German is."""
    import locale

    for lcid, code in ((0x0407, "de"), (0x0C0A, "es"), (0x080A, "es"), (0x040C, "fr"), (0x0C0C, "fr"), (0x0410, None)):
        assert i18n.supported(locale.windows_locale.get(lcid, "")) == code, hex(lcid)


def test_numbers_as_each_language_writes_them():
    """CLDR's marks through Babel: 1,490.5 in English, 1.490,5 in German and Spanish,
    1 490,5 in French (a narrow no-break space between the thousands)."""
    assert i18n.decimal(1490.5, 1) == "1,490.5"
    assert i18n.decimal(-12.5, 2, plus=True) == "-12.50"
    i18n.set_language("de")
    assert i18n.decimal(1490.5, 1) == "1.490,5"
    assert i18n.decimal(12.5, 1, plus=True) == "+12,5"
    assert i18n.decimal_mark() == ","
    i18n.set_language("es")
    assert i18n.decimal(1490.5, 1) == "1.490,5"
    assert i18n.decimal(-12.5, 2, plus=True) == "-12,50"
    assert i18n.decimal_mark() == ","
    i18n.set_language("fr")
    assert i18n.decimal(1490.5, 1) == "1\u202f490,5"
    assert i18n.decimal(12.5, 1, plus=True) == "+12,5"
    assert i18n.decimal_mark() == ","


def test_the_pseudo_language_marks_every_translated_text():
    """The tests' language: what comes back without ⟦ ⟧ bypassed the catalogs."""
    i18n.set_language(i18n.PSEUDO)
    assert i18n._("Check") == "⟦Check⟧"
    assert i18n.ngettext("{n} member", "{n} members", 2) == "⟦{n} members⟧"


def test_level_texts_in_several_languages():
    text = {"en": "Find the reaction at A.", "de": "Bestimme die Auflagerkraft in A.", "es": "Halla la reacción en A.", "fr": "Trouvez la réaction en A."}
    assert i18n.localized(text) == "Find the reaction at A."
    i18n.set_language("de")
    assert i18n.localized(text) == "Bestimme die Auflagerkraft in A."
    i18n.set_language("fr")
    assert i18n.localized(text) == "Trouvez la réaction en A."
    assert i18n.localized({"en": "Only English.", "de": "Nur Deutsch."}) == "Only English."  # no French: English, not German
    i18n.set_language("es")
    assert i18n.localized(text) == "Halla la reacción en A."
    assert i18n.localized({"en": "Only English."}) == "Only English."
    assert i18n.localized("A plain string is English.") == "A plain string is English."
    assert i18n.languages_missing("plain") == [code for code in i18n.LANGUAGES if code != "en"] == ["de", "es", "fr"]
    assert i18n.languages_missing(text) == []


def test_lang_sets_the_language_before_the_help_is_built(capsys):
    from equilibria.cli import main as cli

    with pytest.raises(SystemExit):
        cli.main(["--lang", "de", "--help"])
    assert i18n.language() == "de"
    assert re.search(r"--lang \{de,en,es,fr\}", capsys.readouterr().out)
