"""The translation catalogs kept in step with the code: `python -m equilibria.words.catalogs`
(in a source checkout) finds every text the code marks (`_`, `ngettext`, `N_`; game/words/i18n.py),
sorts it into its area's domain, and updates each language's game/words/locale/LANG/DOMAIN.po:
new texts are added untranslated, translations kept, texts the code no longer has
dropped. `--check` changes nothing and says what is out of step (tests/test_i18n.py runs
it). A translator then fills in the empty `msgstr`s of the .po files.
"""

from __future__ import annotations

import argparse
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from equilibria.words.i18n import DOMAINS, LANGUAGES, SOURCE

TOP = Path(__file__).resolve().parents[2]  # the checkout: game/ and engine/ side by side
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
FIXED = datetime(2026, 11, 26, tzinfo=UTC)  # the header's dates: a catalog changes only when its texts do
HEADER = (
    "# {language} texts of Equilibria (game/words/i18n.py); python -m equilibria.words.catalogs keeps them in step with the code.\n"
    "# Distributed under the same licence as Equilibria (MIT)."
)


def new_catalog(code: str | None, domain: str) -> Catalog:
    from equilibria.words.project import ISSUES

    language = LANGUAGES.get(code or SOURCE, code)
    return Catalog(
        locale=code,
        domain=domain,
        project="Equilibria",
        version="1",
        copyright_holder="The Equilibria developers",
        msgid_bugs_address=ISSUES,
        creation_date=FIXED,
        revision_date=FIXED,
        last_translator="The Equilibria developers",
        language_team=language,
        fuzzy=False,
        header_comment=HEADER.format(language=language),
    )


def domain_of(path: Path) -> str:
    """The catalog a source file's texts go to: the app's (game/app/); the level format's
    (what `validate` and a refused level file say); the judge's and the engine's (what a
    verdict or a refused structure says: game/rules/, the figures, the engine); else the
    command line's."""
    rel = path.resolve().relative_to(TOP).as_posix()
    if rel.startswith("game/app/"):
        return "app"
    if rel in ("game/course/level.py", "game/format/schema.py"):
        return "levels"
    judge = ("game/rules/", "engine/", "game/words/figures.py", "game/rules/variants.py", "game/format/solution.py", "game/work/workbench.py")
    if rel.startswith(judge):
        return "rules"
    return "cli"


def sources() -> list[Path]:
    return sorted(p for folder in ("game", "engine") for p in (TOP / folder).rglob("*.py") if "locale" not in p.parts)


def extracted() -> dict[str, Catalog]:
    """Every marked text of the code, a template catalog per domain."""
    templates = {domain: new_catalog(None, domain) for domain in DOMAINS}
    for path in sources():
        domain = domain_of(path)
        for lineno, message, comments, context in extract_from_file("python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)):
            where = (path.relative_to(TOP).as_posix(), lineno)
            templates[domain].add(message, locations=[where], auto_comments=comments, context=context)
    return templates


def catalog_file(code: str, domain: str) -> Path:
    return TOP / "game" / "words" / "locale" / code / f"{domain}.po"


def read(code: str, domain: str) -> Catalog:
    path = catalog_file(code, domain)
    if not path.is_file():
        return new_catalog(code, domain)
    with path.open("rb") as po:
        return read_po(po, locale=code, domain=domain)


def updated(code: str, domain: str, template: Catalog) -> Catalog:
    """Language `code`'s catalog of `domain` in step with `template`: translations kept,
    new texts added empty, texts no longer in the code dropped (no fuzzy guesses: a
    translator fills in what is new)."""
    catalog = read(code, domain)
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
    catalog.obsolete.clear()
    return catalog


def rendered(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    # where a text is used names its file, not its line: an edit elsewhere in the file leaves the catalog as it is
    write_po(out, catalog, width=100, omit_header=False, sort_output=False, ignore_obsolete=True, include_previous=False, include_lineno=False)
    return out.getvalue()


def out_of_step() -> list[str]:
    """What `--check` reports: each catalog file that updating would change."""
    templates = extracted()
    stale = []
    for code in LANGUAGES:
        if code == SOURCE:
            continue
        for domain, template in templates.items():
            path = catalog_file(code, domain)
            if not path.is_file() or path.read_bytes() != rendered(updated(code, domain, template)):
                stale.append(path.relative_to(TOP).as_posix())
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m equilibria.words.catalogs", description="Keep the translation catalogs in step with the code.")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 naming each catalog out of step")
    args = parser.parse_args(argv)
    if not (TOP / "pyproject.toml").is_file():
        print("python -m equilibria.words.catalogs: run it in a source checkout; this copy of Equilibria is installed", file=sys.stderr)
        return 2
    if args.check:
        stale = out_of_step()
        for path in stale:
            print(f"{path}: out of step with the code (python -m equilibria.words.catalogs updates it)")
        return 1 if stale else 0
    templates = extracted()
    for code in LANGUAGES:
        if code == SOURCE:
            continue
        for domain, template in templates.items():
            path = catalog_file(code, domain)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(rendered(updated(code, domain, template)))
            catalog = read(code, domain)
            missing = sum(1 for m in catalog if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string))
            print(f"{path.relative_to(TOP).as_posix()}: {len(catalog)} texts, {missing} untranslated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
