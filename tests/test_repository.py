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
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*(import|from)\s+(pygame|pymunk)", text, re.M), path.name


def test_readme_counts_the_course_as_it_is():
    from equilibria.course.syllabus import load_course

    counts = [int(n) for n in re.findall(r"course of (\d+) levels", (ROOT / "README.md").read_text())]
    assert counts and all(n == len(load_course().level_ids()) for n in counts)


def test_every_command_the_readme_and_docs_name_exists():
    from equilibria.cli.main import build_parser

    commands = set(next(a for a in build_parser()._actions if a.dest == "command").choices)
    for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        named = set(re.findall(r"\bequilibria ([a-z][a-z-]*)\b", doc.read_text()))
        assert named <= commands, f"{doc.name} names {sorted(named - commands)}"


def test_the_readme_and_docs_stand_alone():
    """A user has the README and docs/, nothing beside the checkout: every link resolves
    inside it, and the wheel the README installs is this version's."""
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for doc in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        text = doc.read_text()
        assert "../shared" not in text and "DESIGN.md" not in text and not re.search(r"seed 00\d", text), doc.name
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if not target.startswith("http"):
                assert (doc.parent / target).exists(), f"{doc.name} links to {target}"
    wheels = set(re.findall(r"equilibria-([\d.]+)-py3-none-any\.whl", (ROOT / "README.md").read_text()))
    assert wheels == {version}


def test_everything_imports_the_one_name():
    """Installed, game/ is `equilibria` and engine/ is `equilibria.engine` (pyproject.toml):
    nothing named `game` or `engine` exists outside a checkout, so no source, test,
    benchmark or script imports either name, nor names it in a string the way
    monkeypatch or `python -m` take a module."""
    import ast

    found = []
    for folder in ("game", "engine", "tests", "benchmarks", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                    names = re.findall(r"(?:^|[\s\"'])((?:game|engine)\.[a-z_]+)\b(?!\.(?:py|md|json)\b)", node.value)
                    names = [n for n in names if f"{n}.py" not in node.value and "/" not in n and not n.endswith((".py", ".md", ".json"))]
                    names += re.findall(r"\b(?:from|import) ((?:game|engine))\b(?= import|\.)", node.value)
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {n}" for n in names if n.split(".")[0] in ("game", "engine")]
    assert found == [], "import equilibria (game/) or equilibria.engine (engine/) instead:\n" + "\n".join(found)


def test_the_one_name_is_what_pyproject_installs():
    """pyproject.toml maps game/ to `equilibria` and engine/ to `equilibria.engine`, and every
    package it lists is under that name; the console script and `python -m equilibria` both
    reach equilibria.cli.main:main."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setup = project["tool"]["setuptools"]
    assert setup["package-dir"]["equilibria"] == "game" and setup["package-dir"]["equilibria.engine"] == "engine"
    assert all(name == "equilibria" or name.startswith("equilibria.") for name in setup["packages"])
    assert project["project"]["scripts"]["equilibria"] == "equilibria.cli.main:main"
    assert "from equilibria.cli.main import main" in (ROOT / "game" / "__main__.py").read_text(encoding="utf-8")


def test_readme_counts_the_level_select_as_it_is():
    """The README's example of where the level select is ("levels 21–40 of N") counts
    what the level select counts: its choosable rows."""
    from equilibria.app.scenes.menu import level_rows

    said = re.findall(r"levels\s+21–40 of (\d+)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert said and all(int(n) == sum(r.choosable for r in level_rows()) for n in said)
