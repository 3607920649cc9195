"""The hostile class folder (issue 26, point 1): every name, file and folder a class can
hand in that once broke `equilibria grade`, built afresh in a test's tmp_path. Each
student is one attack; EXPECTED says what their row on each graded level must say.

The levels graded are tutorial-01 (a balance level) and tutorial-04 (a build level
without a node cost, where a solution of thousands of loose nodes once ran for twenty
minutes and 4.8 GB).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEVELS = ROOT / "levels"
REFERENCE = LEVELS / "solutions"
GRADED = ("tutorial-01", "tutorial-04")
NOTICE = "Preparing the engine"  # game/cli/preparing.py: the one line a command says on a cold cache, before it compiles


def streams(capsys) -> tuple[str, str]:
    """(out, err) a command wrote, without a cold cache's one notice (CI's first compile
    after an engine change, or a checkout's first run, says it; a warm cache does not)."""
    out, err = capsys.readouterr()
    return out, quiet(err)


def quiet(err: str) -> str:
    """Standard error without the cold cache's notice."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith(NOTICE))


HUGE_NODES = 1_000  # five times the budget; unchecked, its mechanism search takes about a minute

# student (as the CSV names them, before neutralising) → {level: what the reason must contain}
# "" means the row passed; a level left out must say nothing was handed in and nothing more.
FORMULA = '=HYPERLINK("evil.example","click")'
EXPECTED: dict[str, dict[str, str]] = {
    FORMULA: {"tutorial-01": ""},
    "+cmd|' -C calc'!A0": {"tutorial-01": ""},
    "-2+3": {"tutorial-01": ""},
    "@SUM(1+1)": {"tutorial-01": ""},
    "\ttab": {"tutorial-01": ""},
    "cr\rname": {"tutorial-01": "is no student id (a student id holds printable characters only)"},
    "lf\nname": {"tutorial-01": "is no student id (a student id holds printable characters only)"},
    'comma, "quoted" name': {"tutorial-01": ""},
    "caf\udce9": {"tutorial-01": "is no student id (a student id holds printable characters only)"},  # a file name that is not UTF-8 (b"caf\xe9")
    "empty": {},
    "locked": {"tutorial-01": "locked: cannot read the folder", "tutorial-04": "locked: cannot read the folder"},
    "root-link": {"tutorial-01": "root-link: a link to a folder: not followed", "tutorial-04": "root-link: a link to a folder: not followed"},
    "outside": {"tutorial-01": "outside.json: a link to a file outside the class folder: not followed"},
    "inner": {
        "tutorial-01": "inner/tutorial-01.json: a link to a file outside the class folder: not followed",
        "tutorial-04": "inner/loop: a link to a folder: not followed",
    },
    "upper": {"tutorial-01": "", "tutorial-04": ""},
    "shout": {"tutorial-01": ""},
    "huge": {"tutorial-04": f"huge/tutorial-04.json: moves: {HUGE_NODES:,} new nodes; a solution may add at most 200"},
    "wrong-id": {"tutorial-01": "wrong-id/tutorial-01.json: level: 'tutorial-1' is no level", "tutorial-04": "'tutorial-1' is no level"},
    "formula-id": {"tutorial-01": "formula-id/answer.json: level: '=1+2' is no level"},
    "other-level": {"tutorial-01": ""},
    "broken-other": {},
    "broken-own": {"tutorial-01": "", "tutorial-04": "broken-own/tutorial-04.json: not valid JSON"},
    "pipe": {"tutorial-01": "pipe/tutorial-01.json: not a file (a device, a pipe or a socket)"},
    "copier": {"tutorial-01": "copier/tutorial-01.json: a link to a file in another place of the class folder"},
    "linked": {"tutorial-01": ""},
    "hidden-extension": {"tutorial-01": "hidden-extension/tutorial-01.json.txt: not read: a solution file's name ends in .json"},
    "backup": {"tutorial-01": ""},
}
ONLY_NO_ANSWER = ("empty", "broken-other")  # rows that must say exactly NOT_HANDED_IN


def write(path: Path, value) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return path


def own(student: str) -> str:
    """The answer to `student`'s own numbers of tutorial-01, as a student types it (unstamped):
    every numeric level draws each student's numbers, so a classmate's answer is no answer."""
    from judging import answer_for

    try:
        return json.dumps(answer_for("tutorial-01", student, stamped=False))
    except ValueError:  # no student id (a control character): no numbers, and grade says so
        return reference("tutorial-01")


def reference(level_id: str) -> str:
    return (REFERENCE / f"{level_id}.json").read_text(encoding="utf-8")


def build(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The levels folder (the two levels graded), the hostile class folder, and a file
    outside it; the students of EXPECTED, each made as its comment says."""
    import shutil

    levels = tmp_path / "levels"
    levels.mkdir()
    for level_id in GRADED:
        shutil.copy(LEVELS / f"{level_id}.json", levels)
    cls = tmp_path / "class"
    cls.mkdir()
    secret = write(tmp_path / "secret" / "tutorial-01.json", reference("tutorial-01"))  # a good answer, outside: never read
    for name in (FORMULA, "+cmd|' -C calc'!A0", "-2+3", "\ttab", "cr\rname", "lf\nname", 'comma, "quoted" name'):
        write(cls / name / "tutorial-01.json", own(name))
    write(cls / "@SUM(1+1).json", own("@SUM(1+1)"))  # one file per student
    os.makedirs(os.path.join(os.fsencode(cls), b"caf\xe9"))
    write(Path(os.fsdecode(os.path.join(os.fsencode(cls), b"caf\xe9"))) / "tutorial-01.json", own("caf\udce9"))
    (cls / "empty").mkdir()
    write(cls / "locked" / "tutorial-01.json", reference("tutorial-01"))  # made unreadable by the test
    (cls / "root-link").symlink_to("/")
    (cls / "outside.json").symlink_to(secret)
    (cls / "inner").mkdir()
    (cls / "inner" / "tutorial-01.json").symlink_to(secret)
    (cls / "inner" / "loop").symlink_to(cls / "inner")
    write(cls / "upper" / "ANSWER.JSON", own("upper"))
    write(cls / "upper" / "Build.Json", reference("tutorial-04"))
    write(cls / "shout.JSON", own("shout"))
    nodes = [{"type": "add_node", "id": f"N{k}", "x": 0.1 + 2.3 * (k % 50) / 50, "y": -0.9 + 2.8 * (k // 50) / 21} for k in range(HUGE_NODES)]
    write(cls / "huge" / "tutorial-04.json", {"format": 1, "level": "tutorial-04", "moves": nodes})
    write(cls / "wrong-id" / "tutorial-01.json", {**json.loads(reference("tutorial-01")), "level": "tutorial-1"})
    write(cls / "formula-id" / "answer.json", {"format": 1, "level": "=1+2", "moves": []})
    write(cls / "other-level" / "tutorial-01.json", own("other-level"))
    write(cls / "other-level" / "bridge-01.json", reference("bridge-01"))  # a level not graded: left out
    write(cls / "broken-other" / "bridge-01.json", '{"format": 1,')  # broken, named for a level not graded
    write(cls / "broken-own" / "tutorial-04.json", '{"format": 1,')
    write(cls / "broken-own" / "tutorial-01.json", own("broken-own"))
    (cls / "pipe").mkdir()
    os.mkfifo(cls / "pipe" / "tutorial-01.json")  # reading it would wait for ever
    (cls / "copier").mkdir()
    (cls / "copier" / "tutorial-01.json").symlink_to(cls / "upper" / "ANSWER.JSON")  # another student's answer
    write(cls / "linked" / "work" / "final.json", own("linked"))
    (cls / "linked" / "tutorial-01.json").symlink_to(Path("work") / "final.json")  # a link within one's own folder: read once
    write(cls / "hidden-extension" / "tutorial-01.json.txt", reference("tutorial-01"))  # as Notepad saves it with extensions hidden
    write(cls / "backup" / "tutorial-01.json", own("backup"))
    write(cls / "backup" / "tutorial-01.json.bak", "{")  # a backup beside the answer is no second answer
    return levels, cls, secret


def snapshot(folder: Path) -> dict[bytes, bytes | str]:
    """Every entry under `folder` (links not followed) and what it holds: nothing may be
    lost or changed by grading."""
    out: dict[bytes, bytes | str] = {}
    for top, dirs, files in os.walk(os.fsencode(folder)):
        for name in dirs + files:
            path = os.path.join(top, name)
            if os.path.islink(path):
                out[path] = "link to " + os.fsdecode(os.readlink(path))
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    out[path] = f.read()
            else:
                out[path] = "folder" if os.path.isdir(path) else "special"
    return out
