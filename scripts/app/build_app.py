"""Builds Equilibria as a one-folder app that runs without Python, for the system it runs on.

    python3 scripts/app/build_app.py                 # into dist/app/
    python3 scripts/app/build_app.py --out DIR --work DIR

What it does, with the standard library only:
1. a build venv (WORK/venv, WORK by default build/app; made once, then reused), holding
   Equilibria installed from its own wheel, built from this checkout, so that the app
   holds what a student's copy holds (no reference solutions), with the `app` extra
   (PyInstaller);
2. PyInstaller, in that venv, on scripts/app/app.spec: a folder `Equilibria/`
   with the program, Python, numba, llvmlite, pygame-ce, scipy, pymunk and the rest
   inside, the levels, schema, fonts, manual and catalogs as data;
3. the download, in `--out`:
   - Linux: `Equilibria-VERSION-linux-ARCH.tar.gz`, the folder with `equilibria` (the
     program), `icon.png`, `Equilibria.desktop` (the desktop entry) and `add-to-menu`
     (puts that entry, with this folder's paths, in the applications menu);
   - Windows: `Equilibria-VERSION-windows-ARCH.zip`, the folder with `Equilibria.exe`;
   - macOS: `Equilibria-VERSION-macos-ARCH.zip` holding `Equilibria.app`;
   and `built.json`, what was built: system, archive, its size and the unpacked size.

The compiled engine is not in the app: numba compiles the kernels on the first start
into the user's cache folder, as with the wheel (engine/compiled/cache.py).
Windows and macOS are built by the same script on those systems (.github/workflows/app.yml).
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ICON = ROOT / "assets" / "icon.png"
LINUX_EXTRAS = ("add-to-menu", "Equilibria.desktop")


def system() -> str:
    return {"win32": "windows", "darwin": "macos"}.get(sys.platform, "linux")


def machine() -> str:
    arch = platform.machine().lower()
    return {"amd64": "x86_64", "aarch64": "arm64"}.get(arch, arch)


def run(*command: str | Path, log: Path | None = None) -> None:
    """Run a command; on failure print its last lines (or all of it) and stop."""
    print("$", " ".join(str(c) for c in command), flush=True)
    if log is None:
        subprocess.run([str(c) for c in command], check=True)
        return
    with log.open("w") as out:
        done = subprocess.run([str(c) for c in command], stdout=out, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        sys.stdout.write("".join(log.read_text(errors="replace").splitlines(keepends=True)[-40:]))
        raise SystemExit(f"build_app: {command[0]} failed (exit {done.returncode}); the whole log: {log}")


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def build_venv(venv: Path, work: Path, logs: Path) -> tuple[Path, str]:
    """The build venv with this checkout's wheel and the `app` extra; its python and the version."""
    python = venv_python(venv)
    if not python.exists():
        run(sys.executable, "-m", "venv", venv)
        run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    wheels = work / "wheel"
    shutil.rmtree(wheels, ignore_errors=True)
    run(python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", wheels, ROOT, log=logs / "wheel.log")
    (wheel,) = wheels.glob("equilibria-*.whl")
    run(python, "-m", "pip", "install", "--quiet", f"{wheel}[app]", log=logs / "install.log")
    # this checkout's wheel, even over an install of the same version
    run(python, "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", wheel, log=logs / "reinstall.log")
    return python, wheel.name.split("-")[1]


def icons(work: Path) -> dict[str, Path]:
    """assets/icon.png, and the Windows .ico and macOS .icns made from it: both formats
    may hold a PNG as it is (ICO since Windows Vista; ICNS type ic08, 256 × 256)."""
    png = ICON.read_bytes()
    width, height = struct.unpack(">II", png[16:24])
    ico = work / "icon.ico"
    ico.write_bytes(struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", width % 256, height % 256, 0, 0, 1, 32, len(png), 22) + png)
    icns = work / "icon.icns"
    icns.write_bytes(b"icns" + struct.pack(">I", 16 + len(png)) + b"ic08" + struct.pack(">I", 8 + len(png)) + png)
    return {"linux": ICON, "windows": ico, "macos": icns}


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def pack(dist: Path, out: Path, version: str) -> Path:
    """The download for this system, from PyInstaller's output in `dist`."""
    name = f"Equilibria-{version}-{system()}-{machine()}"
    if system() == "linux":
        app = dist / "Equilibria"
        shutil.copy2(ICON, app / "icon.png")
        for extra in LINUX_EXTRAS:
            shutil.copy2(HERE / extra, app / extra)
        (app / "add-to-menu").chmod(0o755)
        archive = out / f"{name}.tar.gz"
        with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
            tar.add(app, arcname="Equilibria")
        return archive
    archive = out / f"{name}.zip"
    if system() == "macos":  # ditto keeps the bundle's symbolic links and signature
        run("ditto", "-c", "-k", "--keepParent", dist / "Equilibria.app", archive)
        return archive
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted((dist / "Equilibria").rglob("*")):
            zipped.write(path, path.relative_to(dist).as_posix())
    return archive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build Equilibria as a one-folder app without Python, for this system.")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "app", help="where the download goes (default dist/app)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "app", help="the build venv (kept) and the build's logs (default build/app)")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    logs = args.work.resolve() / "logs"  # the last build's, kept for a failure's reader
    shutil.rmtree(logs, ignore_errors=True)
    logs.mkdir(parents=True)
    work = Path(tempfile.mkdtemp(prefix="equilibria-app-"))
    try:
        python, version = build_venv(args.work.resolve() / "venv", work, logs)
        icon = icons(work)[system()]
        dist = work / "dist"
        spec = HERE / "app.spec"
        command = [python, "-m", "PyInstaller", "--noconfirm", "--distpath", dist, "--workpath", work / "pyinstaller", spec, "--", "--icon", icon]
        run(*command, log=logs / "pyinstaller.log")
        shutil.rmtree(out / "Equilibria", ignore_errors=True)
        archive = pack(dist, out, version)
        unpacked = dist / ("Equilibria.app" if system() == "macos" else "Equilibria")
        built = {
            "system": system(),
            "machine": machine(),
            "version": version,
            "archive": archive.name,
            "archive_bytes": archive.stat().st_size,
            "unpacked_bytes": folder_size(unpacked),
            "python": platform.python_version(),
        }
        (out / "built.json").write_text(json.dumps(built, indent=2) + "\n")
        print(f"built {archive} ({built['archive_bytes'] / 1e6:.0f} MB; {built['unpacked_bytes'] / 1e6:.0f} MB unpacked)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
