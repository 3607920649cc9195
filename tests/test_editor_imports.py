"""Imports every tool can follow. The README's install is editable as a tree of links
(setuptools' strict editable mode): an editor's static analysis (jedi here, the engine of
several editors; Pylance reads the same .pth paths) finds `equilibria.engine` imported
from a game module without running an import hook, and lands on the checkout's own file.
The default editable install of a package-dir mapping is an import hook that no static
analyser runs (jedi found no definition there)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from structure import modules

ROOT = Path(__file__).resolve().parents[1]
REINSTALL = "install the checkout again with the README's first command (a strict editable install: a tree of links)"


def definition(path: Path, line_start: str, word: str):
    import jedi

    text = path.read_text(encoding="utf-8")
    number, line = next((k, line) for k, line in enumerate(text.splitlines(), 1) if line.startswith(line_start))
    script = jedi.Script(text, path=str(path), project=jedi.Project(ROOT), environment=jedi.create_environment(sys.executable, safe=False))
    return script.goto(number, line.index(word), follow_imports=True)


def installed_as_link_tree() -> bool:
    spec = importlib.util.find_spec("equilibria")
    origin = Path(spec.origin)
    return origin.is_symlink() and origin.resolve() == (ROOT / "game" / "__init__.py").resolve()


def test_the_checkout_is_installed_as_a_tree_of_links():
    """Where the tests run from a checkout, its install is the README's: every module's
    installed file is a link to the checkout's own. A module added since the install is
    missing from the tree, and said so here rather than as an ImportError elsewhere."""
    if not (ROOT / "pyproject.toml").is_file() or "site-packages" in str(Path(importlib.util.find_spec("equilibria").origin)):
        pytest.skip("the tests run against an installed wheel, not a checkout")
    assert installed_as_link_tree(), REINSTALL
    missing = []
    for name, path in modules().items():
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None or Path(spec.origin).resolve() != path.resolve():
            missing.append(str(path.relative_to(ROOT)))
    assert missing == [], f"{missing}: {REINSTALL}"


@pytest.mark.parametrize(
    ("module", "line_start", "word", "lands_in"),
    [
        ("game/app/draw/render.py", "from equilibria.engine.results import", "member_results", "engine/results.py"),
        ("game/rules/common.py", "from equilibria.engine.linear import", "mechanism", "engine/linear.py"),
        ("game/cli/main.py", "from equilibria.files.store import", "read_json", "game/files/store.py"),
        ("engine/simulation.py", "from equilibria.engine.elements.kernels import", "strain_energy", "engine/elements/kernels.py"),
    ],
)
def test_an_editor_follows_an_import_to_its_file(module, line_start, word, lands_in):
    """jedi's go-to-definition, as an editor asks it, from a game module's import to the
    file that defines the name (through the link tree: the link resolves to the checkout)."""
    if not installed_as_link_tree():
        pytest.skip(REINSTALL)
    found = definition(ROOT / module, line_start, word)
    assert found, f"jedi found no definition of {word} from {module}"
    assert {Path(d.module_path).resolve() for d in found} == {(ROOT / lands_in).resolve()}
