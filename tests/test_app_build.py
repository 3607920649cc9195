"""The one-folder app without Python (scripts/app/): what can be held without building it.

Building takes minutes of both cores, so the build itself and the app it makes are run
by CI (.ci/app: built from the checkout, unpacked, run with `env -i`); here, the parts
it is made of: the entry's `-m` (the warm-up child in an app whose `sys.executable` is
the app), the icons, the Linux download's layout, the menu entry and its words in
every language the game speaks, and the files that name the build (pyproject's extra,
CI, the workflow, the README) kept in step with it.
"""

from __future__ import annotations

import configparser
import importlib.util
import os
import struct
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "scripts" / "app"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"app_{name}", APP / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_app_runs_its_own_modules_as_python_would(monkeypatch):
    """The game starts its warm-up as `sys.executable -m equilibria.engine.warm` (engine/warm.py):
    in the app, that is the app, which runs the module with the arguments after it."""
    entry = load("entry")
    ran = []
    monkeypatch.setattr(entry.runpy, "run_module", lambda name, **how: ran.append((name, list(sys.argv), how)))
    monkeypatch.setattr(sys, "argv", ["/opt/Equilibria/equilibria", "-m", "equilibria.engine.warm", "--side"])
    assert entry.main() == 0
    assert ran == [("equilibria.engine.warm", ["/opt/Equilibria/equilibria", "--side"], {"run_name": "__main__", "alter_sys": True})]


def test_the_app_runs_no_module_but_its_own(tmp_path):
    """`-m` of any other module is no way into a Python: the command line refuses it (exit 2),
    in one line, without running it."""
    env = {**os.environ, "EQUILIBRIA_HOME": str(tmp_path), "SDL_VIDEODRIVER": "dummy"}
    done = subprocess.run([sys.executable, APP / "entry.py", "-m", "this"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr and done.stdout == ""
    version = subprocess.run([sys.executable, APP / "entry.py", "--version"], capture_output=True, text=True, env=env, timeout=120)
    assert version.returncode == 0 and version.stdout.startswith("equilibria ")


def test_the_icons_hold_the_picture(tmp_path):
    """The .ico (Windows) and .icns (macOS) are made from assets/icon.png, which each holds as it is."""
    build = load("build_app")
    png = build.ICON.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (256, 256)
    made = build.icons(tmp_path)
    ico = made["windows"].read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    width, height, _, _, planes, bits, size, offset = struct.unpack("<BBBBHHII", ico[6:22])
    assert (reserved, kind, count, width, height, planes, bits) == (0, 1, 1, 0, 0, 1, 32)  # 0 means 256
    assert ico[offset : offset + size] == png and offset + size == len(ico)
    icns = made["macos"].read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    assert icns[8:12] == b"ic08" and struct.unpack(">I", icns[12:16])[0] == 8 + len(png) and icns[16:] == png


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux download")
def test_the_linux_download_is_the_folder_with_its_launcher_entry_and_icon(tmp_path, monkeypatch):
    build = load("build_app")
    program = tmp_path / "dist" / "Equilibria" / "equilibria"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    archive = build.pack(tmp_path / "dist", tmp_path, "9.8.7")
    assert archive.name == f"Equilibria-9.8.7-linux-{build.machine()}.tar.gz"
    with tarfile.open(archive) as tar:
        members = {m.name: m for m in tar.getmembers()}
    for name in ("equilibria", "icon.png", "Equilibria.desktop", "add-to-menu"):
        assert f"Equilibria/{name}" in members, name
    for runnable in ("equilibria", "add-to-menu"):
        assert members[f"Equilibria/{runnable}"].mode & 0o111, runnable


def desktop_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_the_desktop_entry_speaks_every_language_of_the_game():
    from equilibria.words.i18n import LANGUAGES

    entry = desktop_entry(APP / "Equilibria.desktop")
    assert entry["Type"] == "Application" and entry["Name"] == "Equilibria" and entry["Terminal"] == "false"
    assert entry["Exec"] == "@FOLDER@/equilibria" and entry["Icon"] == "@FOLDER@/icon.png"
    assert entry["Categories"].endswith(";") and "Education" in entry["Categories"].split(";")
    for key in ("GenericName", "Comment"):
        for code in LANGUAGES:
            if code != "en":
                assert entry.get(f"{key}[{code}]", "").strip(), f"{key}[{code}]"


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script")
def test_add_to_menu_writes_the_entry_with_the_folder_where_it_is(tmp_path):
    """Unpacked anywhere, even in a folder whose name has a space and an &: the menu entry
    runs that folder's program and shows its icon; `--remove` takes it away again."""
    folder = tmp_path / "my apps & games" / "Equilibria"
    folder.mkdir(parents=True)
    for name in ("add-to-menu", "Equilibria.desktop"):
        (folder / name).write_bytes((APP / name).read_bytes())
    (folder / "add-to-menu").chmod(0o755)
    env = {"HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "data"), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    said = subprocess.run([folder / "add-to-menu"], capture_output=True, text=True, env=env, check=True).stdout.strip()
    written = tmp_path / "data" / "applications" / "equilibria.desktop"
    assert said == str(written)
    entry = desktop_entry(written)
    assert entry["Exec"] == f'"{folder}/equilibria"' and entry["Icon"] == f"{folder}/icon.png"
    assert entry["Comment[de]"] == desktop_entry(APP / "Equilibria.desktop")["Comment[de]"]
    subprocess.run([folder / "add-to-menu", "--remove"], capture_output=True, env=env, check=True)
    assert not written.exists()


def test_the_app_extra_brings_pyinstaller_6():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(r.replace(" ", "").startswith("pyinstaller>=6,<7") for r in extras["app"])


def test_ci_builds_and_runs_the_app_and_the_workflow_builds_it_on_each_system():
    assert "bash .ci/app" in (ROOT / ".ci" / "run").read_text().splitlines()
    ci = (ROOT / ".ci" / "app").read_text()
    assert "scripts/app/build_app.py" in ci and "env -i" in ci and "--screenshot" in ci and "check bridge-01" in ci
    workflow = (ROOT / ".github" / "workflows" / "app.yml").read_text()
    assert "python scripts/app/build_app.py" in workflow and "GITHUB_STEP_SUMMARY" in workflow
    for system in ("ubuntu-", "windows-", "macos-"):
        assert system in workflow, system


def test_the_readme_tells_a_student_download_unpack_run():
    """The README's first words, before the two commands for a developer, are a student's:
    download, unpack, run, with the download's name as the build script makes it."""
    build = load("build_app")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("```sh", 1)[0].split("\n", 1)[1].strip()
    assert first.lower().startswith("**download, unpack, run"), first[:80]
    assert f"Equilibria-{version}-linux-{build.machine()}.tar.gz" in first or f"Equilibria-{version}-linux-x86_64.tar.gz" in first
    for name in ("windows", "macos"):
        assert f"Equilibria-{version}-{name}-" in first, name
