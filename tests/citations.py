"""What the code's texts and the docs cite, and whether it is there: files by path or by
name, the project's own pages (README.md, docs/*.md), a module or a name in one
(`equilibria.rules.judge.check`, `game/work/workbench.py tools_for`), a page's section (by
link anchor or by its quoted title) and a name written as code (`tools_for`). For
tests/test_citations.py; a function of the files read, so that a test can plant stale
citations and see each found."""

from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CODE = ("game", "engine", "tests", "benchmarks", "scripts")
TOPS = (*CODE, "docs", "levels", "assets", ".ci")
# A cited path with one of these in it stands for many (a placeholder, a pattern).
PLACEHOLDERS = ("LANG", "DOMAIN", "<", "*", "VERSION", "NAME", "LEVEL", "{", "…", "__pycache__")  # __pycache__: made by Python as it runs
# Names written as code that are other programs' or the platform's, not the project's.
OUTSIDE = {
    "b2Joint_GetConstraintForce",  # Box2D, the model of member_results
    "b2JointSim",
    "put_text",  # pygame.scrap
    "get_text",
}
EXAMPLE_FILES = {"game.py"}  # a student's own file beside the game, which shadows nothing (README)

TOP_ALTERNATIVES = "|".join(re.escape(t) for t in TOPS)
PATH = re.compile(rf"(?<![\w/.-])((?:{TOP_ALTERNATIVES})/[\w./-]*[\w/])")
BARE = re.compile(r"(?<![\w/.-])([a-z_][a-z0-9_]*\.py)\b")
PAGE = re.compile(r"(?<![\w/.-])([A-Z][A-Z_]+\.md)\b")
DOTTED = re.compile(r"(?<![\w.])(equilibria(?:\.[A-Za-z_]\w*)+)")
CODE_ALTERNATIVES = "|".join(CODE)
NAME_AFTER_PATH = re.compile(rf"(?<![\w/.-])((?:{CODE_ALTERNATIVES})/[\w/]+\.py)(?::\d+)?,? (`?)([A-Za-z_][A-Za-z0-9_]*)\2(?=[\s,;:)(.]|$)")
ANCHOR = re.compile(r"\]\(([^)\s]*?)#([^)\s]+)\)")
SECTION = re.compile(r"((?:docs/)?[\w-]+\.md|README)(?:'s)? [\"“]([^\"”]{3,80})[\"”]")
OLD_NAME = re.compile(r"(?<![\w./-])((?:game|engine)\.[a-z_]+)\b(?!\.)")  # what game/ and engine/ were imported as before `equilibria`
CODE_NAME = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?`")


def project_texts(root: Path = ROOT) -> list[Path]:
    """The files whose words cite: every source, test, benchmark and script, the README
    and the manual's pages."""
    found = [p for top in CODE for p in sorted((root / top).rglob("*.py")) if "__pycache__" not in p.parts]
    return [*found, root / "README.md", *sorted((root / "docs").glob("*.md")), root / "assets" / "README.md"]


@cache
def _tree(path: Path) -> ast.AST | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return None


@cache
def defined(path: Path) -> frozenset[str]:
    """Every name a Python file defines or binds: functions, classes, assignments
    (attributes too), arguments and imports."""
    tree = _tree(path)
    names = set()
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        names.add(n.id)
                    elif isinstance(n, ast.Attribute):
                        names.add(n.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[-1])
    return frozenset(names)


@cache
def _strings(path: Path) -> frozenset[str]:
    tree = _tree(path)
    return frozenset(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)) if tree else frozenset()


def modules(root: Path) -> dict[str, Path | None]:
    """The installed names of the game's and the engine's modules, and the data packages."""
    found: dict[str, Path | None] = {}
    for top, base in (("game", "equilibria"), ("engine", "equilibria.engine")):
        for path in (root / top).rglob("*.py"):
            parts = list(path.relative_to(root / top).with_suffix("").parts)
            found[".".join([base, *(parts[:-1] if parts[-1] == "__init__" else parts)])] = path
    for data in ("levels", "levels.solutions", "assets", "docs", "words.locale"):
        found[f"equilibria.{data}"] = None
    return found


def headings(page: Path) -> tuple[set[str], set[str]]:
    """A markdown page's headings: their link anchors and their titles."""
    titles = {line.lstrip("#").strip() for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("#")}
    return {re.sub(r"[^\w\- ]", "", t.lower()).replace(" ", "-") for t in titles}, titles


def words(path: Path) -> list[tuple[int, str]]:
    """The lines a reader reads as words: a page's every line; in Python, the docstrings
    and the comments (not the code's own strings, where a test may name a file it makes)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return list(enumerate(text.splitlines(), 1))
    lines = []
    tree = _tree(path)
    for node in ast.walk(tree) if tree else ():
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                lines += [(first.lineno + k, line) for k, line in enumerate(first.value.value.splitlines())]
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            lines.append((token.start[0], token.string))
    return sorted(lines)


def stale(texts: list[Path], root: Path = ROOT) -> list[str]:
    """Each citation in `texts` that points nowhere, as 'file:line: what'."""
    code = [p for top in CODE for p in (root / top).rglob("*.py") if "__pycache__" not in p.parts]
    file_names = {p.name for p in code} | EXAMPLE_FILES
    known_names = set(OUTSIDE).union(dir(builtins), *(defined(p) for p in code), *(_strings(p) for p in code))
    mods = modules(root)
    out = []
    for text in texts:
        where = text.relative_to(root).as_posix() if text.is_relative_to(root) else str(text)
        for number, line in words(text):
            out += [f"{where}:{number}: {problem}" for problem in _line(line, text, root, file_names, known_names, mods)]
    return out


def _line(line: str, text: Path, root: Path, file_names: set[str], known_names: set[str], mods: dict) -> list[str]:
    problems = []
    for m in PATH.finditer(line):
        path = m.group(1).rstrip(".")
        placeholder = any(p in path for p in PLACEHOLDERS) or line[m.end() : m.end() + 1] in ("<", "{", "*")
        if not placeholder and not (root / path).exists():
            problems.append(f"no file {path}")
    for m in BARE.finditer(line):
        if m.group(1) not in file_names:
            problems.append(f"no file named {m.group(1)}")
    for m in PAGE.finditer(line):
        if not any((folder / m.group(1)).exists() for folder in (root, root / "docs", text.parent)):
            problems.append(f"no page {m.group(1)} in the project")
    for m in DOTTED.finditer(line):
        parts = m.group(1).rstrip(".").split(".")
        module = next((".".join(parts[:k]) for k in range(len(parts), 0, -1) if ".".join(parts[:k]) in mods), None)
        rest = parts[len(module.split(".")) :] if module else []
        if module is None:
            problems.append(f"no module {m.group(1)}")
        elif rest and mods[module] is not None and rest[0] not in ("py", "json", "md") and rest[0] not in defined(mods[module]):
            problems.append(f"no {rest[0]} in {module}")
    for m in NAME_AFTER_PATH.finditer(line):
        path, quoted, name = root / m.group(1), m.group(2), m.group(3)
        looks_like_code = quoted or "_" in name.strip("_") or name[0].isupper()
        if path.is_file() and looks_like_code and name not in defined(path) and name not in path.read_text(encoding="utf-8"):
            problems.append(f"no {name} in {m.group(1)}")
    for m in ANCHOR.finditer(line):
        page = (text.parent / m.group(1)) if m.group(1) else text
        if page.suffix == ".md" and page.is_file() and m.group(2) not in headings(page)[0]:
            problems.append(f"no section #{m.group(2)} in {m.group(1) or text.name}")
    for m in SECTION.finditer(line):
        page = root / ("README.md" if m.group(1) == "README" else m.group(1))
        if page.is_file() and m.group(2) not in headings(page)[1]:
            problems.append(f'no section "{m.group(2)}" in {m.group(1)}')
    for m in OLD_NAME.finditer(line):
        if not m.group(1).endswith((".py", ".md", ".json")) and not (root / "docs" / m.group(1)).exists():
            problems.append(f"{m.group(1)} is no import name (equilibria is)")
    for m in CODE_NAME.finditer(line):
        name = m.group(1)
        if ("_" in name.strip("_") or re.match(r"[A-Z][a-z]+[A-Z]", name)) and name not in known_names:
            problems.append(f"no name {name} in the project")
    return problems
