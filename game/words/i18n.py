"""Every text a student or teacher reads, in their language: the one home of translation.

Code marks a text with `_("…")` (or `ngettext` where a count decides the form, `N_` where
the text is a constant translated where it is shown) and formats numbers with `decimal`,
so a German student reads "Kraft 12,5 kN" where an English one reads "force 12.5 kN".
The catalogs are gettext `.po` files, one per area of the program (`DOMAINS`), in
game/words/locale/LANG/ (installed as equilibria.words.locale); they are read with Babel, whose
plural rules and number formats (CLDR) follow each language. English is the source
language and needs no catalog. A level file carries its own texts in several languages
(`localized`).

The language is, first to last: `--lang`, the one the player chose in the game, the
`EQUILIBRIA_LANG` environment variable, the system's (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG; Windows' user interface language), else English. `PSEUDO` is a language for tests
only: every translated text comes back in ⟦ ⟧, so a text drawn or printed without the
brackets bypassed the catalogs.

Imports only the standard library until a language other than English is used.
"""

from __future__ import annotations

import gettext as _gettext
import io
import math
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from importlib import resources

SOURCE = "en"
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "es": "Español", "fr": "Français"}  # code → the language's own name
PSEUDO = "qps"  # tests only: ⟦every translated text⟧
DOMAINS = ("app", "cli", "rules", "levels")  # one catalog per area: game/words/locale/LANG/DOMAIN.po (game/words/catalogs.py sorts)

_language = SOURCE
_spoken = threading.local()  # `speaking`'s language in this thread alone (`code`; none: the game's, _language)


def _now() -> str:
    """The language texts are given in, in this thread: `speaking`'s, else the game's."""
    return getattr(_spoken, "code", None) or _language


def language() -> str:
    """The language texts are given in now ("en", "de", …)."""
    return _now()


def set_language(code: str | None) -> str:
    """Use `code` (a language of `LANGUAGES`, "de_DE.UTF-8" and "de-AT" read as "de", or
    PSEUDO) from now on; None or an unknown code: English. The language set."""
    global _language
    _language = PSEUDO if code == PSEUDO else (supported(code) or SOURCE)
    return _language


@contextmanager
def speaking(code: str | None) -> Iterator[None]:
    """Texts and numbers in language `code` inside the block (a level's text filled in its
    own language: game/format/schema.py `each_language`), the language before it after. The
    tests' PSEUDO stays on for English texts, so that they still show as translated."""
    before = getattr(_spoken, "code", None)
    now = _now()
    _spoken.code = PSEUDO if now == PSEUDO and (supported(code) or SOURCE) == SOURCE else (supported(code) or SOURCE)
    try:
        yield
    finally:
        _spoken.code = before


def supported(code: str | None) -> str | None:
    """The supported language `code` names ("de_DE.UTF-8" → "de"), or None."""
    if not code:
        return None
    base = code.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system asks for: EQUILIBRIA_LANG (PSEUDO too, for tests), then LANGUAGE (a list, the first
    supported one), LC_ALL, LC_MESSAGES, LANG, then on Windows the user interface
    language; English where none is supported."""
    env = os.environ if environ is None else environ
    if env.get("EQUILIBRIA_LANG") == PSEUDO:
        return PSEUDO
    for name in ("EQUILIBRIA_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for code in env.get(name, "").split(":"):
            if found := supported(code):
                return found
        if name in ("LC_ALL", "LC_MESSAGES", "LANG") and env.get(name, "") not in ("", "C", "POSIX"):
            return SOURCE  # a locale set and not supported: English, not a later variable's
    if sys.platform == "win32" and environ is None:  # pragma: no cover - Windows only
        try:
            import ctypes
            import locale

            ui = ctypes.windll.kernel32.GetUserDefaultUILanguage()
            return supported(locale.windows_locale.get(ui, "")) or SOURCE
        except (AttributeError, OSError):
            return SOURCE
    return SOURCE


# ------------------------------------------------------------------ the catalogs


class _Merged(_gettext.NullTranslations):
    """The catalogs of every domain of one language as one translation (no message is in
    two domains: tests/test_i18n.py)."""

    def __init__(self, parts: list[_gettext.GNUTranslations]):
        super().__init__()
        self.parts = parts

    def gettext(self, message: str) -> str:
        for part in self.parts:
            if message in part._catalog:
                return part.gettext(message)
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        for part in self.parts:
            if (singular, 0) in part._catalog:
                return part.ngettext(singular, plural, n)
        return singular if n == 1 else plural


def catalog_path(code: str, domain: str):
    """The .po file of `domain` in language `code` (a Traversable; it may not exist)."""
    return resources.files("equilibria.words.locale").joinpath(code, f"{domain}.po")


@cache
def translations(code: str) -> _gettext.NullTranslations:
    """Language `code`'s catalogs, read from their .po files with Babel (compiled in
    memory: the .po files are the one source; no .mo is kept beside them)."""
    if code == SOURCE or code not in LANGUAGES:
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    parts = []
    for domain in DOMAINS:
        path = catalog_path(code, domain)
        if not path.is_file():
            continue
        with path.open("rb") as po:
            catalog = read_po(po, locale=code, domain=domain)
        mo = io.BytesIO()
        write_mo(mo, catalog)
        mo.seek(0)
        parts.append(_gettext.GNUTranslations(mo))
    return _Merged(parts)


def _(message: str) -> str:
    """`message` in the current language (itself in English or where no translation is)."""
    now = _now()
    if now == SOURCE:
        return message
    if now == PSEUDO:
        return f"⟦{message}⟧"
    return translations(now).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a text that a count `n` takes in the current language ("1 member",
    "2 members"; German and Polish have their own rules, from the catalog's header)."""
    now = _now()
    if now == SOURCE:
        return singular if n == 1 else plural
    if now == PSEUDO:
        return f"⟦{singular if n == 1 else plural}⟧"
    return translations(now).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a constant text for the catalogs; `_` translates it where it is shown."""
    return message


# ------------------------------------------------------------------ numbers


@cache
def _symbols(code: str) -> tuple[str, str]:
    """(decimal mark, group separator) of language `code`, from CLDR through Babel."""
    if code in (SOURCE, PSEUDO) or code not in LANGUAGES:
        return ".", ","
    from babel.numbers import get_decimal_symbol, get_group_symbol

    return get_decimal_symbol(code), get_group_symbol(code)


def decimal(x: float, digits: int, *, grouping: bool = True, plus: bool = False) -> str:
    """`x` with `digits` decimals in the current language's digits: 1,490.5 in English,
    1.490,5 in German; a leading + where `plus` and x > 0."""
    text = f"{x:{'+' if plus else ''}{',' if grouping else ''}.{digits}f}"
    point, group = _symbols(_now())
    if (point, group) == (".", ","):
        return text
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def plain(x: float) -> str:
    """`x` to six significant figures as short as it goes (3, 0.35, 9.81, 1000000000,
    0.00002), never with an exponent (not 1e+09), in the language's decimal mark."""
    if not math.isfinite(x):
        return str(x)
    text = f"{x:.6g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        decimals = max(0, len(mantissa.lstrip("-").replace(".", "")) - 1 - int(exponent))
        text = f"{float(text):.{decimals}f}"
    return text.replace(".", decimal_mark())


def decimal_mark() -> str:
    """The current language's decimal mark ("." or ","): a force box reads either."""
    return _symbols(_now())[0]


# ------------------------------------------------------------------ level texts


def localized(text: str | Mapping[str, str] | None, code: str | None = None) -> str:
    """A level's text in language `code` (default: the current one): a plain string is
    English; a mapping {"en": …, "de": …} gives its own language's text, else English's,
    else any."""
    if text is None or isinstance(text, str):
        return text or ""
    now = _now()
    want = code or (SOURCE if now == PSEUDO else now)
    return text.get(want) or text.get(SOURCE) or next(iter(text.values()), "")


def languages_missing(text: str | Mapping[str, str] | None) -> list[str]:
    """The languages of `LANGUAGES` a level's text is not given in (a plain string is
    English only)."""
    if not text:
        return []
    given = {SOURCE} if isinstance(text, str) else {supported(k) for k in text}
    return [code for code in LANGUAGES if code not in given]


Translate = Callable[[str], str]
__all__ = [
    "DOMAINS",
    "LANGUAGES",
    "N_",
    "PSEUDO",
    "SOURCE",
    "Translate",
    "_",
    "decimal",
    "decimal_mark",
    "language",
    "languages_missing",
    "localized",
    "ngettext",
    "set_language",
    "speaking",
    "supported",
    "system_language",
    "translations",
]
