"""The computers a class has (issue 25, points 1, 2 and 4): no display, a cp1252
console, files with a byte-order mark, the shipped font, the manual that travels with
the program, the project's addresses, removing what the game keeps, and the command line
a person expects ("did you mean", level ids everywhere, `$schema`, image formats,
output paths checked first). What this machine cannot be (Windows, macOS) is emulated:
PYTHONIOENCODING=cp1252 for the console, system fonts hidden for the font."""

from __future__ import annotations

import ast
import fnmatch
import json
import os
import re
import subprocess
import sys
import time
import tomllib
import unicodedata
from pathlib import Path

import pygame
import pytest

from equilibria.cli.main import main
from equilibria.course import cleanup
from equilibria.files import manual
from equilibria.words import project

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ROOT / "levels"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def env(**changes: str | None) -> dict:
    """This process's environment with `changes` (None: removed)."""
    out = dict(os.environ, PYTHONPATH=str(ROOT))
    for name, value in changes.items():
        if value is None:
            out.pop(name, None)
        else:
            out[name] = value
    return out


def equilibria(*args: str, timeout: float = 300, **changes: str | None) -> subprocess.CompletedProcess:
    """`python -m equilibria ARGS` in a subprocess (generous timeout: a guard, not a timing)."""
    return subprocess.run([sys.executable, "-m", "equilibria", *args], env=env(**changes), capture_output=True, timeout=timeout, cwd=ROOT)


def with_bom(source: Path, into: Path) -> Path:
    into.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    return into


# ---------------------------------------------------------------------- byte-order marks
def test_a_solution_and_a_level_saved_with_a_byte_order_mark_are_read(tmp_path, capsys):
    """Notepad saves UTF-8 with a BOM; json.loads refuses one ("Unexpected UTF-8 BOM")."""
    level = with_bom(LEVELS / "tutorial-01.json", tmp_path / "tutorial-01.json")
    solution = with_bom(LEVELS / "solutions" / "tutorial-01.json", tmp_path / "answer.json")
    assert main(["check", str(level), "--solution", str(solution)]) == 0, capsys.readouterr().err
    assert main(["validate", str(level)]) == 0


def test_a_model_with_a_byte_order_mark_is_simulated(tmp_path, capsys):
    model = tmp_path / "model.json"
    text = '{"nodes": [{"id": "A", "x": 0, "y": 0}, {"id": "B", "x": 1, "y": 0}], "materials": {"s": {"E": 2e11}},'
    text += '"supports": [{"node": "A", "fix": ["x", "y"]}, {"node": "B", "fix": ["y"]}],'
    text += '"members": [{"id": "AB", "i": "A", "j": "B", "material": "s", "A": 1e-3}]}'
    model.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert main(["simulate", str(model), "--integrator", "linear", "--json"]) == 0
    assert "AB" in json.loads(capsys.readouterr().out)["members"]


# ---------------------------------------------------------------------- a cp1252 console
@pytest.mark.parametrize(
    ("args", "code", "printed"),
    [
        (["check", "tutorial-01", "--solution", str(LEVELS / "solutions" / "tutorial-01.json")], 0, "stdout"),  # ΣFx = 0 …
        (["docs", "level-format"], 0, "stdout"),  # the manual has Σ, ≤, →
        (["validate", "Σ-level.json"], 2, "stderr"),  # its one line names the file, Σ and all
        (["grade", "tutorial-01", "class", "--csv", "marks.csv", "--workers", "1"], 0, "stdout"),  # "1 rows (1 student × 1 level)"
    ],
)
def test_every_command_prints_on_a_cp1252_console(tmp_path, args, code, printed):
    """A Windows console (or output redirected there) encodes cp1252, which has no Σ:
    what it cannot encode is printed as ?, and the command does its work."""
    if args[0] == "validate":
        bad = json.loads((LEVELS / "tutorial-01.json").read_text(encoding="utf-8"))
        del bad["nodes"]
        (tmp_path / args[1]).write_text(json.dumps(bad), encoding="utf-8")
        args = ["validate", str(tmp_path / args[1])]
    if args[0] == "grade":
        (tmp_path / "class").mkdir()
        (tmp_path / "class" / "alice.json").write_bytes((LEVELS / "solutions" / "tutorial-01.json").read_bytes())
        args = ["grade", "tutorial-01", str(tmp_path / "class"), "--csv", str(tmp_path / "marks.csv"), "--workers", "1"]
    out = equilibria(*args, PYTHONIOENCODING="cp1252", EQUILIBRIA_HOME=str(tmp_path / "home"))
    assert out.returncode == code, out.stderr.decode("cp1252")
    assert b"Traceback" not in out.stderr and b"UnicodeEncodeError" not in out.stderr
    text = getattr(out, printed).decode("cp1252")
    assert text.strip() and ("?" in text or args[0] == "grade")  # grade's × is in cp1252: it shows as itself


def test_help_prints_on_a_cp1252_console():
    out = equilibria("--help", PYTHONIOENCODING="cp1252")
    assert out.returncode == 0 and project.ISSUES.encode() in out.stdout


# ---------------------------------------------------------------------- no display
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY and WAYLAND_DISPLAY are Linux's")
def test_no_display_is_one_line_and_exit_1_not_an_invisible_game(tmp_path):
    """With no DISPLAY SDL falls back to its offscreen driver and the game would run,
    unseen, until killed: it must say so and stop (this would time out instead)."""
    out = equilibria("play", "tutorial-01", timeout=120, DISPLAY=None, WAYLAND_DISPLAY=None, SDL_VIDEODRIVER=None, EQUILIBRIA_HOME=str(tmp_path))
    assert out.returncode == 1
    lines = out.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "--frames" in lines[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY and WAYLAND_DISPLAY are Linux's")
def test_a_headless_run_of_set_frames_still_works_without_a_display(tmp_path):
    shot = tmp_path / "shot.png"
    out = equilibria("play", "tutorial-01", "--frames", "2", "--screenshot", str(shot), DISPLAY=None, WAYLAND_DISPLAY=None, SDL_VIDEODRIVER=None)
    assert out.returncode == 0, out.stderr.decode()
    assert shot.read_bytes()[:4] == b"\x89PNG"


def test_an_invisible_driver_is_refused_unless_asked_for(monkeypatch):
    """SDL may pick `offscreen` or `dummy` by itself (no display on any system): refused;
    chosen with SDL_VIDEODRIVER (the tests, a screenshot run): accepted."""
    from equilibria.app.window import display

    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")
    monkeypatch.delenv("SDL_VIDEODRIVER")
    assert "DISPLAY=:99 could not be reached" in display.why_no_window()
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert display.why_no_window() is None
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "x11")
    monkeypatch.delenv("SDL_VIDEODRIVER")
    assert display.why_no_window() is None


# ---------------------------------------------------------------------- the font
def texts_drawn() -> set[str]:
    """Every non-ASCII character in the game's strings (not its docstrings) and in the
    texts of the shipped levels: what the game may draw."""
    chars: set[str] = set()
    for path in (ROOT / "game").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                chars.update(ch for ch in node.value if ord(ch) > 127)

    def strings(value) -> None:
        if isinstance(value, str):
            chars.update(ch for ch in value if ord(ch) > 127)
        elif isinstance(value, list | dict):
            for v in value.values() if isinstance(value, dict) else value:
                strings(v)

    for path in LEVELS.rglob("*.json"):
        strings(json.loads(path.read_text(encoding="utf-8")))
    never = {ch for ch in chars if unicodedata.category(ch) in ("Cc", "Cs")}  # controls (drawn as the text module replaces them), half characters (U+FFFD)
    return (chars - never) | ({"\ufffd"} if never else set())


def test_the_shipped_font_has_every_glyph_the_game_draws():
    """pygame.freetype gives None for a glyph the font lacks (drawn as a box)."""
    import pygame.freetype

    from equilibria.app.draw.typeface import BOLD, REGULAR, font_file

    chars = texts_drawn()
    assert {"Σ", "→", "▸", "≤", "·", "°"} <= chars  # the scan finds what the game draws
    chars |= set("→▸▏⁴↔ẑm̄")  # and what the issue saw drawn as boxes
    pygame.freetype.init()
    for name in (REGULAR, BOLD):
        font = pygame.freetype.Font(str(font_file(name)), 15)
        missing = [f"{ch} U+{ord(ch):04X}" for ch in sorted(chars) if font.get_metrics(ch)[0] is None]
        assert not missing, f"{name} lacks {missing}"
        assert font.get_metrics("中")[0] is None  # the check can fail: DejaVu has no CJK


def test_the_fonts_come_from_the_package_never_the_system(monkeypatch):
    """Windows and macOS have no DejaVu Sans: the game must not look for it there."""
    from importlib import resources

    from equilibria.app.draw.palette import Fonts
    from equilibria.app.draw.typeface import BOLD, REGULAR, font_file

    def refused(*args, **kwargs):
        raise AssertionError("a system font was looked up")

    monkeypatch.setattr(pygame.font, "SysFont", refused)
    monkeypatch.setattr(pygame.font, "match_font", refused)
    pygame.font.init()
    fonts = Fonts()
    sample = "ΣFx → ẑ ▸ m̄ ⁴"
    for font, name, size in ((fonts.body, REGULAR, 15), (fonts.small, REGULAR, 13), (fonts.bold, BOLD, 15), (fonts.title, BOLD, 21)):
        shipped = pygame.font.Font(str(font_file(name)), size)
        assert font.metrics(sample) == shipped.metrics(sample) and font.size(sample) == shipped.size(sample)  # drawn in it
    for name in (REGULAR, BOLD):
        assert Path(str(font_file(name))).parent == Path(str(resources.files("equilibria.assets")))
        assert any(fnmatch.fnmatch(name, pattern) for pattern in PYPROJECT["tool"]["setuptools"]["package-data"]["equilibria.assets"])
    assert (ROOT / "assets" / "DejaVu-LICENSE.txt").is_file()
    assert "*.txt" in PYPROJECT["tool"]["setuptools"]["package-data"]["equilibria.assets"]  # the licence travels with the font


# ---------------------------------------------------------------------- the manual
def test_equilibria_docs_lists_the_installed_pages_and_prints_one(capsys):
    assert main(["docs"]) == 0
    out = capsys.readouterr().out
    assert manual.docs_folder() in out
    for page in (ROOT / "docs").glob("*.md"):
        assert f"  {page.stem} " in out
    assert main(["docs", "cli"]) == 0
    assert capsys.readouterr().out.startswith((ROOT / "docs" / "cli.md").read_text(encoding="utf-8").splitlines()[0])
    assert main(["docs", "level-formt"]) == 2
    assert "did you mean 'level-format'?" in capsys.readouterr().err


def test_the_manual_and_its_pictures_are_package_data():
    """Every page, and every picture a page or the README shows, matches pyproject's
    package-data for equilibria.docs (docs/ installed as it): the wheel holds them."""
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["equilibria.docs"]
    assert PYPROJECT["tool"]["setuptools"]["package-dir"]["equilibria.docs"] == "docs"
    docs = ROOT / "docs"
    shown = set(docs.glob("*.md"))
    for page in [*docs.glob("*.md"), ROOT / "README.md"]:
        for link in re.findall(r"\]\(([^)#\s]+)", page.read_text(encoding="utf-8")):
            if not link.startswith("http"):
                target = (page.parent / link).resolve()
                assert target.exists(), f"{page.name}: dead link {link}"
                if docs in target.parents:
                    shown.add(target)
    for path in shown:
        relative = path.relative_to(docs).as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), f"docs/{relative} is not package data"


def test_f1_names_where_the_manual_is():
    from equilibria.app.scenes.play import PlayScene
    from equilibria.app.session.pacing import FRAME
    from equilibria.app.session.stage import load_stage
    from equilibria.app.window.app import App
    from equilibria.course.syllabus import shipped_level

    app = App(fixed_frame=FRAME)
    try:
        scene = PlayScene(app, load_stage(shipped_level("tutorial-01")))
        app.push(scene)
        scene.help.open()
        app.frame()
        help_part = scene.parts.top_modal()
        assert help_part.name == "help"
        _, _, rows, _, _ = help_part.content(1000)
        first = " ".join(piece.text for piece in rows[0][1])  # the first row: shown whatever the window's height
    finally:
        app.close()
    assert "equilibria docs" in first and str(manual.docs_folder())[-(manual.PATH_SHOWN - 1) :] in first


# ---------------------------------------------------------------------- the addresses
def test_the_project_addresses_are_in_the_metadata_help_and_crash_message(capsys, monkeypatch):
    urls = PYPROJECT["project"]["urls"]
    assert (urls["Homepage"], urls["Documentation"], urls["Issues"]) == (project.HOME, project.DOCUMENTATION, project.ISSUES)
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert project.ISSUES in out and project.DOCUMENTATION in out and "equilibria docs" in out
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert project.ISSUES in capsys.readouterr().out  # every command's help too
    import equilibria.cli.main

    def broken(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(equilibria.cli.main, "levels", broken)
    assert main(["levels"]) == 3
    assert f"please report it at {project.ISSUES}" in capsys.readouterr().err


# ---------------------------------------------------------------------- what the game keeps
def test_clean_removes_the_cache_and_with_data_only_what_the_game_wrote(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    home = tmp_path / "home"
    monkeypatch.setenv("EQUILIBRIA_HOME", str(home))
    engine = cleanup.cache_root() / "numba" / "0.1.0-0123456789ab"
    engine.mkdir(parents=True)
    (engine / "kernel.nbc").write_bytes(b"x" * 1000)
    (home / "designs").mkdir(parents=True)
    (home / "designs" / "arch.json").write_text("{}")
    (home / "progress.json").write_text("{}")
    (home / "my-notes.txt").write_text("not the game's")
    assert main(["clean"]) == 0
    assert not cleanup.cache_root().exists() and (home / "progress.json").exists()
    assert "--data" in capsys.readouterr().out
    (home / "levels").mkdir()
    (home / "levels" / "week-3.json").write_text("{}")  # a teacher's own level: theirs, not the game's
    assert main(["clean", "--data"]) == 0
    assert sorted(p.name for p in home.iterdir()) == ["levels", "my-notes.txt"]  # only what the game wrote went
    out = capsys.readouterr().out
    assert "kept, a teacher's own levels (1 file;" in out and "--data --levels" in out, out
    assert main(["clean", "--levels"]) == 2 and (home / "levels" / "week-3.json").exists()
    assert main(["clean", "--data", "--levels"]) == 0
    assert sorted(p.name for p in home.iterdir()) == ["my-notes.txt"]


def test_old_compiled_engines_are_pruned_and_others_in_use_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    numba_dir = cleanup.cache_root() / "numba"
    now = time.time()
    month = cleanup.STALE_DAYS * 86400

    def folder(name: str, age: float) -> Path:
        path = numba_dir / name
        path.mkdir(parents=True)
        (path / "k.nbi").write_text("x")
        for p in (path / "k.nbi", path):
            os.utime(p, (now - age, now - age))
        return path

    current = folder("0.2.0-aaaaaaaaaaaa", 2 * month)  # this engine, not used for long: kept, and stamped
    old = folder("0.1.0-bbbbbbbbbbbb", 2 * month)
    recent = folder("0.1.1-cccccccccccc", 0.5 * month)  # another version, run this month
    foreign = folder("notes", 2 * month)  # not an engine's name: never touched
    assert cleanup.prune_engines(current, now=now) == [old]
    assert current.exists() and recent.exists() and foreign.exists() and not old.exists()
    assert now - current.stat().st_mtime < 3600  # stamped: a copy of this version elsewhere keeps it
    elsewhere = tmp_path / "chosen" / "0.2.0-aaaaaaaaaaaa"  # NUMBA_CACHE_DIR's folder: its neighbours are not ours
    elsewhere.mkdir(parents=True)
    stale = folder("../../chosen/0.0.1-dddddddddddd", 2 * month)
    assert cleanup.prune_engines(elsewhere, now=now) == [] and stale.exists()


def test_the_game_prunes_at_its_start(monkeypatch):
    """launch.run, for a player at the window (no --frames), prunes before it opens one."""
    from equilibria.app import launch

    pruned = []
    monkeypatch.setattr(launch, "why_no_window", lambda: None)
    monkeypatch.setattr(launch, "prune_engines", pruned.append)

    def stop():
        raise KeyboardInterrupt

    monkeypatch.setattr(launch.EngineWarmup, "start", stop)
    with pytest.raises(KeyboardInterrupt):
        launch.menu()
    assert pruned == [launch.engine_folder()]


# ---------------------------------------------------------------------- the command line
def test_did_you_mean_for_commands_level_ids_and_fields(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["chek", "tutorial-01"])
    assert stop.value.code == 2 and "did you mean 'check'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "tutorial-01", "--scrrenshot", "a.png"])
    assert "did you mean '--screenshot'" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # an option of the command typed, never another command's (simulate's --dt)
        main(["check", "tutorial-01", "--studnt", "ann"])
    assert capsys.readouterr().err.strip().endswith("did you mean '--student'?")
    assert main(["check", "tutorial-1"]) == 2
    assert "did you mean 'tutorial-01'" in capsys.readouterr().err
    level = json.loads((LEVELS / "tutorial-01.json").read_text(encoding="utf-8"))
    level["titel"] = level.pop("title")
    level["nodes"][0]["mas"] = 3
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(level), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "titel: unknown field (did you mean 'title'?)" in err and "nodes[0].mas: unknown field (did you mean 'mass'?)" in err


def test_level_ids_are_taken_by_validate_and_simulate(capsys):
    assert main(["validate", "tutorial-01", "beam-01"]) == 0
    out = capsys.readouterr().out
    assert "tutorial-01.json: ok" in out and "beam-01.json: ok" in out
    main(["simulate", "bridge-01", "--integrator", "linear", "--json"])
    assert "nodes" in json.loads(capsys.readouterr().out)


def test_a_level_with_a_schema_key_is_accepted(tmp_path, capsys):
    level = json.loads((LEVELS / "tutorial-01.json").read_text(encoding="utf-8"))
    path = tmp_path / "with-schema.json"
    path.write_text(json.dumps({"$schema": "./level.schema.json", **level}), encoding="utf-8")
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err
    schema = json.loads((LEVELS / "level.schema.json").read_text(encoding="utf-8"))
    assert "$schema" in schema["properties"]  # editors that complete fields offer it


@pytest.mark.parametrize(("name", "magic"), [("shot.jpg", b"\xff\xd8\xff"), ("shot.JPEG", b"\xff\xd8\xff"), ("shot.bmp", b"BM"), ("shot.png", b"\x89PNG")])
def test_a_screenshot_is_in_the_format_its_name_says(tmp_path, name, magic):
    from equilibria.app import launch

    path = tmp_path / name
    assert launch.menu(1, str(path)) == 0
    assert path.read_bytes()[: len(magic)] == magic


@pytest.mark.parametrize(
    ("name", "words"), [("shot.gif", "end the name with one of them"), ("nowhere/shot.png", "does not exist"), ("a-folder.png", "is a folder")]
)
def test_a_screenshot_that_cannot_be_written_is_refused_before_the_run(tmp_path, monkeypatch, capsys, name, words):
    from equilibria.app import launch

    def no_window(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(launch, "App", no_window)
    (tmp_path / "a-folder.png").mkdir()
    assert main(["play", "tutorial-01", "--frames", "100", "--screenshot", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def test_levels_shows_the_teachers_folder_before_it_holds_a_level(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path / "home"))
    assert main(["levels"]) == 0
    out = capsys.readouterr().out
    assert f"none yet; level files put in {tmp_path / 'home' / 'levels'}" in out.splitlines()[-1]
    assert not (tmp_path / "home").exists()  # said, not made
