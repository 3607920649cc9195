"""argparse's own texts ("usage:", "positional arguments", "invalid choice: …") in the
language of the rest: argparse asks `gettext.gettext` for them (the standard library's
domain "argparse", for which no German catalog is installed anywhere), so its `_` and
`ngettext` are pointed at Equilibria's catalogs (the `cli` domain holds the messages
below). Only the standard library and equilibria.words.i18n.
"""

from __future__ import annotations

import argparse

from equilibria.words import i18n
from equilibria.words.i18n import N_

# The texts argparse shows a person (Python 3.11 to 3.13): the help's headings and its
# errors. Its errors for a programmer (a bad add_argument) stay as they are.
TEXTS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
)


def _plurals() -> None:  # never called: marks argparse's plural text for the catalog
    i18n.ngettext("expected %s argument", "expected %s arguments", 2)


def argparse_in_language() -> None:
    """argparse's texts through the catalogs from now on (in English: as they are)."""
    argparse._ = _translated
    argparse.ngettext = _translated_plural


def _translated(message: str) -> str:
    return i18n._(message) if message in TEXTS else message


def _translated_plural(singular: str, plural: str, n: int) -> str:
    return i18n.ngettext(singular, plural, n) if singular == "expected %s argument" else (singular if n == 1 else plural)
