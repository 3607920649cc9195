"""The command line in every language (issue 25 point 5, the `cli` catalog): every text
its commands print, from `--help` to the one-line refusals and argparse's own words,
comes from the catalogs, and in German reads German.

The proof runs each command in the pseudo language (game/words/i18n.py PSEUDO), where every
translated text comes back inside ⟦ ⟧, and fails on any word printed outside them.
What may stand outside, and why:

- what a person typed or a file named: paths, level ids, student names, option and
  command names (`--solution`, `check`), argparse's metavars (N, OUT.png: the option's
  placeholder, written in capitals) and choices (rk4, de);
- numbers and unit symbols (kN, s, MB);
- the texts of the other areas, excluded by where they come from, never by their words:
  a level's title (its file's own text: `levels` prints it as the file gives it) and a
  level's kind (a value of the level format, as `truss` is written in the file), each
  taken from the level files themselves; the manual's page titles (docs/*.md's first
  headings). A verdict, a hint, `validate`'s variants line or a refused level's field
  is another area's text *inside* a sentence of this one ("⟦NOT PASSED: {reason}⟧"),
  so it is within the brackets already; no command here prints another area's text on
  a line of its own (`show` prints game/rules/variants.py's page and is left to that area;
  its refusal of a mistyped level is run).

`test_an_unmarked_text_is_caught` takes the marks off game/cli/main.py's texts and shows the
check then fails: a text left unmarked cannot pass.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from pathlib import Path

import pytest
from judging import answer_for

import equilibria.cli.main
from equilibria.cli.main import build_parser, main
from equilibria.course import cleanup
from equilibria.course.progress import Progress, data_folder
from equilibria.course.syllabus import LEVELS_DIR
from equilibria.course.teacher import teacher_folder
from equilibria.files import manual
from equilibria.words import i18n

TOP = Path(__file__).resolve().parent.parent
UNITS = {"kN", "MB", "Hz", "kg", "s", "m", "N", "dt", "fx", "fy", "t", "x"}  # unit symbols and a formula's letters


def allowed_words() -> set[str]:
    """The words that may stand outside ⟦ ⟧: names of commands, options, choices and
    metavars, the level files' ids, titles and kinds, the manual's page names and
    titles, unit symbols (see the module's docstring)."""
    words: set[str] = set(UNITS) | {"equilibria", "json", "png", "csv", "bmp", "jpg", "py", "md"}
    parser = build_parser()

    def parts(text: str) -> set[str]:
        return set(re.findall(r"[^\W\d_]+", text))

    def walk(p) -> None:
        for action in p._actions:
            for name in action.option_strings:
                words.update(parts(name))
            for choice in action.choices or ():
                words.update(parts(str(choice)))
            if isinstance(action.metavar, str):
                words.update(parts(action.metavar))
            words.update(parts(action.dest.upper()) | (parts(action.dest) if not action.option_strings else set()))
            if hasattr(action, "_name_parser_map"):
                for sub in action._name_parser_map.values():
                    walk(sub)

    walk(parser)
    for path in [*LEVELS_DIR.glob("*.json"), *teacher_folder().glob("*.json")]:  # the course's and the teacher's
        words.update(parts(path.stem))  # a level file's name, listed where it cannot say its id
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            for key in ("id", "kind", "title"):
                words.update(parts(str(i18n.localized(data.get(key)) if key == "title" else data.get(key, ""))))
    for name, page in manual.pages().items():
        words.update(parts(name) | parts(manual.title(page)))
    return words


def bare_words(text: str, paths: list[str], allowed: set[str]) -> list[str]:
    """The words of `text` outside ⟦ ⟧ that are none of `allowed` (paths taken out first)."""
    for path in sorted(paths, key=len, reverse=True):
        text = text.replace(path, " ")
    text = re.sub(r"https?://[^\s⟦⟧]+", " ", text)
    while True:
        inner = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if inner == text:
            break
        text = inner
    assert "⟦" not in text and "⟧" not in text, text
    return [w for w in re.findall(r"[^\W\d_]+", text) if w not in allowed]


@pytest.fixture
def world(tmp_path, monkeypatch):
    """A class folder (one student with a reference solution, one with nothing), a file
    that is not JSON, an empty cache folder for `clean`."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    klass = tmp_path / "class"
    (klass / "ann").mkdir(parents=True)
    (klass / "ben").mkdir()
    (klass / "ann" / "tutorial-01.json").write_text(json.dumps(answer_for("tutorial-01", "ann", stamped=False)), encoding="utf-8")  # ann's own numbers
    (klass / "ben" / "notes.json").write_text('{"level": "no-such-level", "format": 1, "moves": []}', encoding="utf-8")
    (tmp_path / "broken.json").write_text("{ not json", encoding="utf-8")
    progress = Progress.load()  # saved work on tutorial-02, to export
    progress.save_work("tutorial-02", json.loads((LEVELS_DIR / "solutions" / "tutorial-02.json").read_text(encoding="utf-8")))
    progress.save()
    teacher = teacher_folder()  # a teacher's level, and one whose id is the course's
    teacher.mkdir(parents=True)
    mine = json.loads((LEVELS_DIR / "tutorial-02.json").read_text(encoding="utf-8")) | {"id": "my-level"}
    (teacher / "mine.json").write_text(json.dumps(mine), encoding="utf-8")
    shutil.copy(LEVELS_DIR / "tutorial-01.json", teacher / "clash.json")
    for name in ("tutorial-01", "tutorial-02"):
        write_model(name, tmp_path / f"model-{name}.json")
    return tmp_path


def write_model(level_id: str, path: Path) -> Path:
    """A shipped level's structure as a plain model file (no kind, no goal): `simulate`
    refuses a level whose forces are its answer before a pass, and runs a model."""
    data = json.loads((LEVELS_DIR / f"{level_id}.json").read_text(encoding="utf-8"))
    path.write_text(json.dumps({k: v for k, v in data.items() if k not in ("kind", "goal")}), encoding="utf-8")
    return path


def commands(w: Path) -> list[list[str]]:
    """Every command, its success and its typical refusals."""
    level = str(LEVELS_DIR / "tutorial-01.json")
    model1, model2 = str(w / "model-tutorial-01.json"), str(w / "model-tutorial-02.json")
    return [
        ["--help"],
        *([name, "--help"] for name in ("simulate", "validate", "check", "show", "grade", "export", "docs", "clean", "levels", "play", "sandbox")),
        ["chek", "tutorial-01"],  # a mistyped command: did you mean
        ["check", "tutorial-01", "--scrrenshot", "x.png"],  # a mistyped option: did you mean
        ["check", "tutorial-1"],  # a mistyped level id: did you mean
        ["check", str(w / "broken.json")],  # a file that is not JSON
        ["check", "tutorial-01", "--attempt", "zero"],  # an option's bad value
        ["check", "tutorial-01"],
        ["check", "tutorial-01", "--solution", str(LEVELS_DIR / "solutions" / "tutorial-01.json")],
        ["check", "sandbox-01"] if (LEVELS_DIR / "sandbox-01.json").exists() else ["check", "tutorial-01", "--attempt", "2"],
        ["check"],  # a required argument missing
        ["validate", level],
        ["validate", str(w / "broken.json"), "tutorial-1"],
        ["levels"],
        ["show", "tutorial-1"],
        ["export", "tutorial-01"],  # no saved work
        ["export", "tutorial-02", "-o", str(w / "handed-in" / "t2.json")],
        ["export", "tutorial-02", "-o", str(LEVELS_DIR / "t2.json")],  # refused before anything is written
        ["export", "tutorial-01", "-o", str(w / "nowhere" / "x.json")],
        ["docs"],
        ["docs", "clie"],  # did you mean a page
        ["clean"],
        ["grade", "tutorial-01", str(w / "class"), "--csv", str(w / "marks.csv"), "--workers", "1"],
        ["grade", "tutorial-01", str(w / "class"), "--csv", str(w / "class")],  # --csv a folder
        ["grade", "tutorial-01", str(w / "nothing"), "--csv", str(w / "m.csv")],
        ["simulate", model1, "--integrator", "linear"],  # a mechanism: the engine's words, excluded by where they come from
        ["simulate", model2, "--integrator", "linear"],
        ["simulate", model2, "--seconds", "0.00001", "--dt", "0.01"],
        ["simulate", model1, "--hht-alpha", "5"],
        ["simulate", model1, "--load-factors", "1,x"],
        ["simulate", "tutorial-02"],  # a puzzle's forces before a pass: refused
        ["play", "tutorial-01", "--screenshot", str(w / "shot.gif"), "--frames", "1"],
    ]


def run_all(w: Path, capsys) -> list[tuple[list[str], str, list[str]]]:
    """Each command, what it printed, and the engine's own texts in it (see engine_texts)."""
    out = []
    for argv in commands(w):
        with contextlib.suppress(SystemExit):  # --help, argparse's refusals
            main(argv)
        said = capsys.readouterr()
        out.append((argv, said.out + said.err, engine_texts(argv, capsys) if argv[0] == "simulate" and "--help" not in argv else []))
    return out


def engine_texts(argv: list[str], capsys) -> list[str]:
    """What the engine said in a `simulate` run (another area's texts: engine/, the
    `rules` catalog), taken from where they come from: the same run's --json fields
    mechanism.message, unstable and no_equilibrium."""
    with contextlib.suppress(SystemExit):  # refused by argparse: the engine never ran
        main([*argv, "--json"])
    printed = capsys.readouterr().out
    if not printed.strip():
        return []
    result = json.loads(printed)
    said = [(result.get("mechanism") or {}).get("message"), result.get("unstable"), result.get("no_equilibrium")]
    return [s for s in said if s]


def unmarked(w: Path, capsys, monkeypatch) -> list[str]:
    monkeypatch.setenv("EQUILIBRIA_LANG", i18n.PSEUDO)
    allowed = allowed_words()
    paths = [str(w), str(LEVELS_DIR), str(TOP), str(cleanup.cache_root()), manual.docs_folder(), str(data_folder())]
    found = []
    for argv, text, theirs in run_all(w, capsys):
        assert text.strip(), f"{argv}: printed nothing"
        bare = bare_words(text, paths + theirs, allowed)
        if bare:
            found.append(f"equilibria {' '.join(argv)}: {sorted(set(bare))}\n{text}")
    return found


def test_every_command_prints_only_texts_from_the_catalogs(world, capsys, monkeypatch):
    found = unmarked(world, capsys, monkeypatch)
    assert found == [], "printed outside the catalogs:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("module", "name", "command", "word"),
    [
        ("cli.main", "_", "equilibria check tutorial-01:", "PASSED"),  # game/cli/main.py's own texts
        ("files.store", "_", "broken.json:", "valid"),  # a refusal of a file (game/files/store.py)
        ("cli.argtexts", "_translated", "equilibria --help:", "usage"),  # argparse's texts
    ],
)
def test_an_unmarked_text_is_caught(world, capsys, monkeypatch, module, name, command, word):
    """A module's texts with their marks taken off (as if `_` were not there): the check
    above finds them, on the command that prints them."""
    import importlib

    monkeypatch.setattr(importlib.import_module(f"equilibria.{module}"), name, lambda text: text)
    found = unmarked(world, capsys, monkeypatch)
    assert any(command in f.splitlines()[0] and word in f.splitlines()[0] for f in found), "\n".join(found)


def test_the_crash_line_is_translated(monkeypatch, capsys):
    def broken(args):
        raise RuntimeError("boom")

    monkeypatch.setattr(equilibria.cli.main, "levels", broken)
    assert main(["--lang", "de", "levels"]) == 3
    err = capsys.readouterr().err
    assert "ein unerwarteter Fehler (RuntimeError: boom)" in err and "bitte melde ihn unter" in err


# ---------------------------------------------------------------------- German
def german(argv: list[str], capsys) -> tuple[int | None, str]:
    try:
        code = main(["--lang", "de", *argv])
    except SystemExit as exc:
        code = exc.code
    said = capsys.readouterr()
    return code, said.out + said.err


def test_help_in_german(capsys):
    code, text = german(["--help"], capsys)
    assert code == 0
    for words in ("Aufruf: equilibria", "Optionen:", "diese Hilfe zeigen und beenden", "ein Sandkastenspiel zur ebenen Baustatik", "Fehler melden:"):
        assert words in text, words
    code, text = german(["check", "--help"], capsys)
    assert code == 0
    flowed = " ".join(text.split())  # argparse wraps a help text where the widest option ends
    for words in ("Aufruf: equilibria check", "eine Leveldatei oder die ID eines mitgelieferten Levels", "die Sprache aller Texte"):
        assert words in flowed, words
    assert "usage" not in text and "show this help" not in text


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("es", ("uso: equilibria check", "opciones:", "muestra este mensaje de ayuda y sale", "un archivo de nivel, o el id de un nivel incluido")),
        ("fr", ("utilisation\u00a0: equilibria check", "arguments positionnels:", "affiche ce message d'aide et quitte", "la langue de tous les textes")),
    ],
)
def test_help_in_spanish_and_french(code, words, capsys):
    """argparse's own words and the commands' in each language, as in German."""
    try:
        main(["--lang", code, "check", "--help"])
    except SystemExit as exc:
        assert exc.code == 0
    flowed = " ".join(capsys.readouterr().out.split())
    for said in words:
        assert " ".join(said.split()) in flowed, said
    assert "usage" not in flowed and "show this help" not in flowed


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("es", "tutorial-1: no existe ese archivo, y ningún nivel del curso tiene ese id; ¿querías decir 'tutorial-01'"),
        # French spacing: a no-break space before : ; ? !
        ("fr", "tutorial-1\u00a0: aucun fichier de ce nom, et aucun niveau du cours n'a cet id\u00a0; vouliez-vous dire 'tutorial-01'"),
    ],
)
def test_a_refusal_in_spanish_and_french(code, said, capsys):
    assert main(["--lang", code, "check", "tutorial-1"]) == 2
    assert said in capsys.readouterr().err


def test_refusals_and_did_you_mean_in_german(tmp_path, capsys):
    code, text = german(["chek"], capsys)
    assert code == 2 and "ungültige Auswahl: 'chek'" in text and "meintest du 'check'?" in text
    code, text = german(["check", "tutorial-1"], capsys)
    assert code == 2 and "keine solche Datei, und kein Level des Kurses hat diese ID; meintest du 'tutorial-01'" in text
    code, text = german(["check", "tutorial-01", "--scrrenshot", "x"], capsys)
    assert code == 2 and "unbekannte Argumente: --scrrenshot x; meintest du '--screenshot'?" in text
    (tmp_path / "x.json").write_text("{ nope", encoding="utf-8")
    code, text = german(["check", str(tmp_path / "x.json")], capsys)
    assert code == 2 and text.startswith(f"{tmp_path / 'x.json'}: kein gültiges JSON:") and "in Zeile 1, Spalte 3" in text
    code, text = german(["check"], capsys)
    assert code == 2 and "diese Argumente fehlen: level" in text


def test_levels_and_simulate_in_german(capsys, tmp_path):
    code, text = german(["levels"], capsys)
    assert code == 0 and text.splitlines()[0].split() == ["Level", "Art", "gewonnen", "Titel"]
    assert "Level deiner Lehrkraft: noch keine" in text
    code, text = german(["simulate", str(write_model("tutorial-02", tmp_path / "m.json")), "--integrator", "linear"], capsys)
    assert code == 0 and "nach 1 Schritt (linear" in text and "; in Ruhe" in text, text
    assert re.search(r"Stab AB: N = \+5,000 kN", text) and re.search(r"Auflagerkraft \w+: fx = [+-]\d+,\d{3} kN", text), text


def test_a_cp1252_console_prints_german(tmp_path):
    """The system's language (LANG) on a Windows console: the umlauts are in cp1252 and
    print as they are; Σ (not in it) is replaced, never a crash."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("EQUILIBRIA_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env |= {"PYTHONIOENCODING": "cp1252", "LANG": "de_DE.UTF-8"}  # the language the system asks for
    done = subprocess.run([sys.executable, "-m", "equilibria", "check", "tutorial-1"], capture_output=True, env=env, cwd=tmp_path)
    assert done.returncode == 2
    assert "Level des Kurses hat diese ID; meintest du" in done.stderr.decode("cp1252")
    done = subprocess.run([sys.executable, "-m", "equilibria", "levels"], capture_output=True, env=env, cwd=tmp_path)
    assert done.returncode == 0 and "gewonnen" in done.stdout.decode("cp1252")
    done = subprocess.run(
        [sys.executable, "-m", "equilibria", "check", "tutorial-01", "--solution", str(LEVELS_DIR / "solutions" / "tutorial-01.json")],
        capture_output=True,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stdout.decode("cp1252").startswith("BESTANDEN: ") and "Σ" not in done.stdout.decode("cp1252")


def test_grade_writes_the_reasons_in_the_teachers_language(world, capsys):
    """The CSV keeps its columns and its true/false; the reason cells and the summary
    are German."""
    import csv

    out = world / "noten.csv"
    code, text = german(["grade", "tutorial-01", str(world / "class"), "--csv", str(out), "--workers", "1"], capsys)
    assert code == 0 and "2 Zeilen (2 Schüler × 1 Level): 1 bestanden; 1 Zeile markiert; geschrieben nach" in text, text
    assert "ben/notes.json: level: 'no-such-level' ist weder ein Level des Kurses" in text
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines()))
    from equilibria.classroom.gradebook import COLUMNS

    assert rows[0] == list(COLUMNS)
    ben = dict(zip(COLUMNS, next(r for r in rows if r[0] == "ben"), strict=True))
    assert ben["passed"] == "false" and ben["reason"].startswith("für dieses Level wurde keine Lösung abgegeben; ben/notes.json: level:")
    ann = dict(zip(COLUMNS, next(r for r in rows if r[0] == "ann"), strict=True))
    assert ann["flags"].startswith("kein Versuchsverlauf")  # a flag, in the teacher's language too


def test_grade_workers_started_afresh_speak_the_language(tmp_path, monkeypatch):
    """Windows and macOS start the workers as fresh Pythons (spawn), which are told the
    language: a solution file gone by the time it is judged is refused in German."""
    from equilibria.classroom import grade as grading

    monkeypatch.setattr(grading, "_start_method", lambda: "spawn")
    i18n.set_language("de")
    level = str(LEVELS_DIR / "tutorial-01.json")
    jobs = [grading.Job(s, "tutorial-01", level, str(tmp_path / f"{s}.json"), f"{s}.json") for s in ("ann", "ben")]
    rows = grading.run(jobs, 2, lambda n, total: None)
    assert [r.reason for r in rows] == [f"{s}.json: Die Datei lässt sich nicht lesen (No such file or directory)" for s in ("ann", "ben")]


def test_json_output_stays_english(world, capsys):
    """--json is for a machine: its keys, values and sentences are English in any
    language (a teacher's level whose id is the course's: its problem too)."""
    code, text = german(["levels", "--json"], capsys)
    rows = json.loads(text)
    clash = next(r for r in rows if r["id"] == "clash.json")
    assert code == 0 and clash["title"] == "(cannot be opened)" and "is the id of a level of the course" in clash["problem"]
    code, text = german(["check", "tutorial-1", "--json"], capsys)
    assert code == 2 and "no such file, and no level of the course has that id; did you mean 'tutorial-01'" in text
