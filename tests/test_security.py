"""Security (issue 5): level, design, solution and progress files are data only, and the
program opens no network connection.

- The source of the game and the engine loads no code from data (no eval, exec, compile,
  pickle, marshal, shelve) and imports nothing that talks to a network or starts
  processes, but for the one process the game starts: its own engine warm-up,
  `python -m equilibria.engine.warm`, a fixed command that nothing in a file can change
  (which on a first start starts one more, itself with `--side`, as fixed).
- A level's id names its file, so it cannot hold a path: a level, solution or course that
  names a level `../elsewhere` is refused, and every file the menu opens from the course
  lies in the levels folder.
- A whole session, run in a child process under an audit hook (PEP 578), raises no
  event of a network connection or of a process started (but pygame's font lookup):
  the hook would see them whichever library made them. Texts in a level that are lines
  of Python stay text.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from equilibria.course.level import load_level
from equilibria.course.syllabus import LEVELS_DIR, load_course
from equilibria.files.store import BadInput
from equilibria.format.solution import load_solution

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "game").rglob("*.py"), *(ROOT / "engine").rglob("*.py")])
NO_IMPORT = {"pickle", "marshal", "shelve", "dill", "socket", "ssl", "urllib", "http", "requests", "ftplib", "smtplib", "xmlrpc", "subprocess", "webbrowser"}
NO_CALL = {"eval", "exec", "compile", "__import__", "os.system", "os.popen", "importlib.import_module"}
ALLOWED = {("game/app/session/warmup.py", "subprocess"), ("engine/warm.py", "subprocess")}  # the engine warm-up and its second process, fixed commands (below)


def test_the_game_and_the_engine_load_no_code_from_data_and_import_no_network():
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            where = path.relative_to(ROOT).as_posix()
            found += [f"{where}:{node.lineno} imports {n}" for n in names if n.split(".")[0] in NO_IMPORT and (where, n) not in ALLOWED]
            if isinstance(node, ast.Call):
                name = ast.unparse(node.func)
                if name in NO_CALL:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} calls {name}")
    assert not found, "\n".join(found)
    assert len(SOURCES) > 30  # the scan saw the tree


def test_the_one_process_the_game_starts_is_its_own_engine_warm_up(monkeypatch):
    from equilibria.app.session import warmup

    started = []
    monkeypatch.setattr(warmup.subprocess, "Popen", lambda command, **options: started.append((command, options)) or None)
    warmup.EngineWarmup.start(cached=0).stop()
    [(command, options)] = started
    assert command == [sys.executable, "-m", "equilibria.engine.warm"] and "shell" not in options


@pytest.mark.parametrize("bad", ["../elsewhere", "levels/bridge-01", "/etc/passwd", "..", ".hidden", "a b", "x" * 65])
def test_a_level_id_cannot_be_a_path(bad):
    level = json.loads((LEVELS_DIR / "tutorial-01.json").read_text())
    with pytest.raises(ValueError, match="names the level's file"):
        load_level({**level, "id": bad})
    with pytest.raises(ValueError, match="names the level's file"):
        load_solution({"format": 1, "level": bad, "moves": []})


def test_a_course_naming_a_path_is_refused_and_the_shipped_one_stays_in_its_folder(tmp_path):
    course = tmp_path / "course.json"
    course.write_text(json.dumps({"format": 1, "topics": [{"title": "Escape", "levels": ["tutorial-01", "../../home/secret"]}]}))
    with pytest.raises(ValueError, match="names the level's file"):
        load_course(course)
    shipped = load_course()
    for level_id in shipped.level_ids():
        assert shipped.path(level_id).resolve().parent == LEVELS_DIR.resolve()


# Run in a child: every audit event of a network connection or a new process is written
# to stderr as FORBIDDEN. Two processes are allowed: pygame asks fontconfig (`fc-list`)
# which fonts the system has, and a cold start compiles part of the engine in a child of
# its own (engine/warm.py: `python -m equilibria.engine.warm --side`, exactly); both are
# local and take no data of ours.
SESSION = r"""
import sys

FORBIDDEN = ("socket.", "urllib.", "http.", "ftplib.", "smtplib.", "webbrowser.", "subprocess.", "os.system", "os.exec",
             "os.spawn", "os.posix_spawn", "os.fork")

def hook(event, args):
    ours = event == "subprocess.Popen" and (args[0] == "fc-list" or list(args[1]) == [sys.executable, "-m", "equilibria.engine.warm", "--side"])
    if event.startswith(FORBIDDEN) and not ours:
        sys.stderr.write(f"FORBIDDEN {event} {str(args)[:120]}\n")

sys.addaudithook(hook)
from equilibria.cli.main import main

level = sys.argv[1]
codes = [
    main(["check", "levels/bridge-01.json", "--solution", "levels/solutions/bridge-01.json", "--json"]),
    main(["simulate", "tests/corpus/models/good.json", "--seconds", "0.5", "--json"]),
    main(["validate", "levels", level]),
    main(["check", "tests/corpus/levels/not-json.json"]),
    main(["play", "levels/zero-force-01.json", "--frames", "90"]),
    main(["sandbox", level, "--frames", "90"]),
    main(["--frames", "30"]),
]
print(codes)
"""


def test_a_whole_session_opens_no_connection_and_runs_nothing_its_files_say(tmp_path):
    """The session also opens a level whose every text is a line of Python that would
    leave a file behind if anything ran it."""
    canary = tmp_path / "ran"
    payload = f"__import__('os').system('touch {canary}')"
    level = json.loads((ROOT / "tests" / "corpus" / "levels" / "good.json").read_text())
    level.update(title=payload, brief=payload, hints=[payload], explanation=payload)
    level_path = tmp_path / "payload.json"
    level_path.write_text(json.dumps(level))
    env = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "EQUILIBRIA_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", SESSION, str(level_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[0, 0, 0, 2, 0, 0, 0]"
    forbidden = sorted({line for line in done.stderr.splitlines() if line.startswith("FORBIDDEN")})
    assert not forbidden, forbidden
    assert not canary.exists()


def test_bad_input_is_reported_not_run(tmp_path):
    """A level whose text is Python is only ever text that is not JSON."""
    path = tmp_path / "code.json"
    path.write_text("__import__('os').system('touch " + str(tmp_path / "ran") + "')")
    from equilibria.files.store import read_json

    with pytest.raises(BadInput, match="not valid JSON"):
        read_json(path)
    assert not (tmp_path / "ran").exists()
