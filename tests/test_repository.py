"""The repository keeps its promises to a new user: README's commands are what CI runs."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block, "README.md starts with a sh block holding the two commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_starts_with_install_and_test_commands():
    install, tests = readme_commands()[:2]
    assert "pip install" in install and "equilibria" in install
    assert "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command():
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert readme_commands()[1] in ci_lines


def test_engine_never_imports_pygame_or_pymunk():
    for path in (ROOT / "engine").glob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import|from)\s+(pygame|pymunk)", text, re.M), path.name
