"""Every command as a user meets it: level ids as well as paths, the course listed,
the version, and never a traceback: bad input is one line (2), Ctrl+C ends quietly
(130), an unexpected error is one line and a log file (3)."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

import equilibria.cli.main
from equilibria.cli.main import main
from equilibria.course.progress import Progress, data_folder
from equilibria.course.syllabus import SCHEMA_PATH, load_course, reference_solution, shipped_level
from equilibria.files.store import read_json
from equilibria.rules.kinds import KINDS

COURSE = load_course().level_ids()


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"equilibria {equilibria.cli.main.version()}"
    assert equilibria.cli.main.version()[0].isdigit()


def test_levels_lists_the_course_in_order_with_what_is_won(capsys):
    progress = Progress.load()
    progress.record_check("tutorial-02", True, 80, 2)
    progress.save()
    assert main(["levels"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = lines[1:-1]
    assert [r.split()[0] for r in rows] == COURSE
    assert lines[-1].startswith(f"{len(COURSE)} levels")
    won = {r.split()[0]: r.split()[2] for r in rows}
    assert won["tutorial-02"] == "80/100" and won["tutorial-01"] not in ("won", "80/100")
    assert main(["levels", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in listed] == COURSE
    first = listed[0]
    assert first["title"] and first["kind"] == "balance" and first["won"] is False
    assert first["path"] == str(shipped_level(first["id"])) and "solution" not in first  # the student's copy names no answer (issue 32)


def test_play_check_and_sandbox_take_a_level_id(capsys):
    solution = str(reference_solution("bridge-01"))
    assert main(["check", "bridge-01", "--solution", solution]) == 0
    assert capsys.readouterr().out.startswith("PASSED")
    assert main(["play", "tutorial-01", "--frames", "2"]) == 0
    assert main(["sandbox", "bridge-01", "--frames", "2"]) == 0


@pytest.mark.parametrize("command", ["check", "play", "sandbox"])
def test_an_unknown_id_is_one_line(command, capsys):
    assert main([command, "no-such-level"]) == 2
    err = capsys.readouterr().err
    assert err == "no-such-level: no such file, and no level of the course has that id (`equilibria levels` lists them)\n"


def _no_traceback(capsys) -> None:
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert len(err.splitlines()) <= 1, err


@pytest.mark.parametrize("level", COURSE)
def test_every_command_on_every_shipped_level_ends_without_a_traceback(level, tmp_path, capsys):
    path = str(shipped_level(level))
    assert main(["validate", path]) == 0
    _no_traceback(capsys)
    # The empty solution: judged, passed or not; refused in one line where the level
    # draws its loads at random (a solution names its draw).
    assert main(["check", level, "--json"]) in ((2,) if read_json(path).get("player", {}).get("load_choices") else (0, 1))
    _no_traceback(capsys)
    if reference_solution(level):
        assert main(["check", level, "--solution", str(reference_solution(level))]) == 0
        _no_traceback(capsys)
    # A level whose forces are its answer (a free body, a section, a zero-force puzzle…) is
    # refused in one line before a pass; the others run.
    kind = KINDS[read_json(path)["kind"]]
    hidden = kind.hides_forces_until_checked or kind.hides_sums_until_passed
    assert main(["simulate", path, "--seconds", "0.01", "--json"]) in ((2,) if hidden else (0, 1))
    _no_traceback(capsys)
    for command in ("play", "sandbox"):  # a sandbox of a hiding level, like simulate: refused in one line before a pass
        expected = 2 if hidden and command == "sandbox" else 0
        assert main([command, level, "--frames", "2", "--screenshot", str(tmp_path / f"{command}.png")]) == expected
        _no_traceback(capsys)
        assert expected or (tmp_path / f"{command}.png").stat().st_size > 0


def test_an_unexpected_error_is_one_line_naming_a_log_of_it(monkeypatch, capsys):
    def broken(args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(equilibria.cli.main, "validate", broken)
    assert main(["validate", "x.json"]) == 3
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "ZeroDivisionError: a bug" in err
    logs = list((data_folder() / "logs").glob("crash-*.log"))
    assert len(logs) == 1 and str(logs[0]) in err
    assert ("Traceback" in logs[0].read_text() and "def broken" in logs[0].read_text()) or "broken" in logs[0].read_text()


def test_ctrl_c_ends_a_command_quietly(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(equilibria.cli.main, "check", interrupted)
    assert main(["check", "tutorial-01"]) == 130
    _no_traceback(capsys)


def test_ctrl_c_ends_the_game_quietly_and_its_warm_up_too(tmp_path):
    """The real thing: the game in its real-time loop, then SIGINT, as a terminal sends it."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    game_process = subprocess.Popen([sys.executable, "-m", "equilibria", "play", "tutorial-01"], env=env, cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    assert game_process.poll() is None, game_process.stderr.read()
    game_process.send_signal(signal.SIGINT)
    _, err = game_process.communicate(timeout=60)
    assert game_process.returncode == 130
    assert "Traceback" not in err


def test_the_schema_is_written_only_into_a_checkout(monkeypatch, capsys):
    from equilibria.course import level

    before = SCHEMA_PATH.read_bytes()
    monkeypatch.setattr(level, "in_checkout", lambda: False)
    assert level.main(["--write-schema"]) == 2
    assert "source checkout" in capsys.readouterr().err
    assert SCHEMA_PATH.read_bytes() == before
    assert level.main(["--print-schema"]) == 0
    assert capsys.readouterr().out == level.schema_text()
