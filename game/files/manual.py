"""The manual that travels with the program: docs/ (its pages and the screenshots they
show) is installed as the package `equilibria.docs` (pyproject.toml maps the folder) and found
through importlib.resources, so `equilibria docs` and the game's F1 help name the
installed copy, wherever it is: no network, no browser needed. No pygame.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from equilibria.files.shipped import real_folder
from equilibria.files.store import BadInput
from equilibria.words.i18n import _
from equilibria.words.project import DOCUMENTATION
from equilibria.words.suggest import did_you_mean


def docs_root() -> Traversable:
    """The manual's folder: the installed `equilibria.docs`, or the checkout's docs/ when the
    tree runs without being installed."""
    try:
        root = resources.files("equilibria.docs")
        return real_folder(root) if isinstance(root, Path) else root
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "docs"


def docs_folder() -> str:
    """Where the manual is, as a person would look for it (a folder on disk, or the
    installed package's name when it is zipped)."""
    root = docs_root()
    return str(root) if isinstance(root, Path) else _("the installed package equilibria.docs")


def pages() -> dict[str, Traversable]:
    """The pages by name (`cli` for cli.md), in order of name."""
    return {p.name.removesuffix(".md"): p for p in sorted(docs_root().iterdir(), key=lambda p: p.name) if p.name.endswith(".md") and p.is_file()}


def title(page: Traversable) -> str:
    """A page's first heading, without its #."""
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            return line.lstrip("# ").strip()
    return ""


def page_text(name: str) -> str:
    """The text of the page `name` (`cli`, `cli.md`, `CLI`); BadInput naming the pages
    there are when there is none of that name."""
    found = pages()
    key = name.strip().removesuffix(".md").lower()
    by_key = {k.lower(): k for k in found}
    if key not in by_key:
        hint = did_you_mean(key, by_key)
        said = _("{name}: no such page in the manual; {hint} the pages: {pages}") if hint else _("{name}: no such page in the manual; the pages: {pages}")
        raise BadInput(said.format(name=name, hint=hint, pages=", ".join(found)))
    return found[by_key[key]].read_text(encoding="utf-8")


def listing() -> str:
    """What `equilibria docs` prints: where the manual is and its pages."""
    found = pages()
    width = max((len(k) for k in found), default=0)
    lines = [_("The manual, installed with Equilibria, in {folder}:").format(folder=docs_folder())]
    lines += [f"  {name:<{width}}  {title(page)}" for name, page in found.items()]
    lines.append(_("`equilibria docs PAGE` prints a page (`equilibria docs cli`); on the web: {url}").format(url=DOCUMENTATION))
    return "\n".join(lines)


PATH_SHOWN = 40  # [characters] of the manual's folder the F1 help shows: its end, so the row never wraps past two lines


def help_row() -> tuple[str, str]:
    """The F1 help's first row: where the manual is (its key column, its words). A long
    install path (a venv deep in a home folder, Windows' site-packages) is shown by its
    end, so that the keys below keep their room; `equilibria docs` prints it whole."""
    folder = str(docs_folder())
    shown = folder if len(folder) <= PATH_SHOWN else "…" + folder[-(PATH_SHOWN - 1) :]
    return _("The manual"), _("in {folder} (equilibria docs prints where, and lists its pages)").format(folder=shown)
