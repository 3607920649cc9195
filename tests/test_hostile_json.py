"""Valid JSON that once went past every reader (issue 36): a whole number of 5,001 digits
(Python's int() refuses past 4,300: a ValueError, not a decoding error) and half of a
character (a lone surrogate, `"\\ud83d"`, what a tool that cuts a title inside an emoji
writes). Each is one line naming the file and the field, exit 2 from a command, its own
row in `grade`, a progress file moved aside; a name echoed is cut to its first 60
characters; and whatever reaches the screen is drawn, never a UnicodeEncodeError."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pygame
import pytest
from hostile import streams

from equilibria.app.draw import primitives as draw
from equilibria.app.draw.palette import Fonts
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.session.pacing import FRAME
from equilibria.app.window.app import App
from equilibria.cli.main import main
from equilibria.course.progress import Progress
from equilibria.course.teacher import teacher_folder, teacher_levels
from equilibria.files.store import BadInput, parse_json
from equilibria.words.text import CUT, cut

ROOT = Path(__file__).resolve().parents[1]
LONG = "7" * 5001  # digits: past Python's int() limit of 4,300


def level_text(source: str = "tutorial-01", **changes) -> str:
    data = json.loads((ROOT / "levels" / f"{source}.json").read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data)


def test_a_long_number_is_named_by_its_field_wherever_it_is(tmp_path):
    cases = {
        LONG: "(top level)",
        '{"nodes": [{"id": "A", "x": -' + LONG + "}]}": "nodes[0].x",
        '{"ground": [[0, 0], [1, ' + LONG + "]]}": "ground[1][1]",
    }
    for text, field in cases.items():
        with pytest.raises(BadInput) as exc:
            parse_json(text, "f.json")
        assert str(exc.value) == f"f.json: {field}: a number of 5,001 digits; no number in a file may have more than 4,300"


def test_half_a_character_is_named_by_its_field_in_a_value_or_a_key():
    for text, field in {'{"title": "Bridge \\ud83c"}': "title", '{"nodes": [{"id\\udc00": 1}]}': "nodes[0].id\ufffd"}.items():
        with pytest.raises(BadInput, match="half of a character") as exc:
            parse_json(text, "f.json")
        assert str(exc.value).startswith(f"f.json: {field}: ")
    assert parse_json('{"t": "\\ud83d\\ude00"}', "f.json") == {"t": "😀"}  # a whole pair is one character
    assert parse_json('{"t": "\\\\ud83d"}', "f.json") == {"t": "\\ud83d"}  # a backslash, written as one


def test_json_errors_read_as_sentences():
    for text, said in {"": "the file is empty", " \n": "the file is empty", '{"a": "b': "Unterminated string starting at line 1, column 7"}.items():
        with pytest.raises(BadInput) as exc:
            parse_json(text, "f.json")
        assert str(exc.value).startswith(f"f.json: {said}") or said in str(exc.value)
        assert " at at " not in str(exc.value)


@pytest.mark.parametrize("command", [["validate", "F"], ["check", "F"], ["sandbox", "F", "--frames", "1"], ["play", "F", "--frames", "1"]])
def test_a_level_with_a_long_number_or_half_a_character_is_exit_2(tmp_path, capsys, command):
    for name, text, said in (
        ("long", level_text().replace('"x": 2', f'"x": {LONG}', 1), "nodes[1].x: a number of 5,001 digits"),
        ("half", level_text(title="Cut \ud83d"), "title: half of a character"),
        ("id", level_text().replace('"id": "B"', '"id": "B\\udc80"'), "half of a character"),
    ):
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        assert main([str(path) if a == "F" else a for a in command]) == 2, name
        out, err = streams(capsys)
        assert out == "" and err.count("\n") == 1 and err.startswith(f"{path}: ") and said in err, err


def test_one_students_long_number_is_their_row_and_the_class_is_graded(tmp_path, capsys):
    cls = tmp_path / "class"
    reference = (ROOT / "levels" / "solutions" / "tutorial-01.json").read_text(encoding="utf-8")
    for student, text in {"alice": reference, "bob": reference.replace("-3000", "-" + LONG), "carol": reference.replace('"B"', '"B\\ud800"')}.items():
        (cls / student).mkdir(parents=True)
        (cls / student / "tutorial-01.json").write_text(text, encoding="utf-8")
    assert main(["grade", "tutorial-01", str(cls), "--csv", "-", "--workers", "1"]) == 0
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out.lstrip("\ufeff")))}
    assert rows["alice"]["passed"] == "true"
    assert rows["bob"]["passed"] == "false"
    assert rows["bob"]["reason"] == "bob/tutorial-01.json: moves[0].fx: a number of 5,001 digits; no number in a file may have more than 4,300"
    assert rows["carol"]["reason"].startswith("carol/tutorial-01.json: moves[0].node: half of a character")


def test_a_teachers_file_with_a_long_number_is_listed_with_its_line_and_the_menu_draws(tmp_path, capsys):
    folder = teacher_folder()
    folder.mkdir(parents=True)
    (folder / "long.json").write_text(level_text(id="long-01").replace('"x": 2', f'"x": {LONG}', 1), encoding="utf-8")
    (folder / "half.json").write_text(level_text(id="half-01", title="Cut \ud83d"), encoding="utf-8")
    (folder / "good.json").write_text(level_text(id="good-01", title="Good"), encoding="utf-8")
    found = {t.path.name: t for t in teacher_levels()}
    assert "nodes[1].x: a number of 5,001 digits" in found["long.json"].problem and not found["good.json"].problem
    assert "title: half of a character" in found["half.json"].problem
    assert main(["levels"]) == 0
    assert "good-01" in capsys.readouterr().out
    app = App(fixed_frame=FRAME)
    app.push(MenuScene(app, progress=Progress.load()))
    with app:
        for _ in range(3):
            app.frame()
        assert app.running


def test_a_refused_name_is_echoed_cut_to_its_first_characters(tmp_path, capsys):
    key = "k" * 9_000
    for text in ('{"' + key + '": 1, "' + key + '": 2}', '{"id": "' + key + '", "a": 1, "a": 2}'):
        with pytest.raises(BadInput) as exc:
            parse_json(text, "f.json")
        assert len(str(exc.value)) < 200 and ("k" * CUT + "…") in str(exc.value)
    path = tmp_path / "level.json"
    path.write_text(level_text(**{key: 1}), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = streams(capsys)[1]
    assert err == f"{path}: {'k' * CUT}…: unknown field\n"
    (tmp_path / "id.json").write_text(level_text(id=key), encoding="utf-8")
    assert main(["validate", str(tmp_path / "id.json")]) == 2
    err = streams(capsys)[1]
    assert err.count("\n") == 1 and len(err) < 400, err
    assert cut("a" * 61) == "a" * 60 + "…" and cut("a" * 60) == "a" * 60 and cut("x\x1b[2J\ud800") == "x\ufffd[2J\ufffd"


# ---------------------------------------------------------------------- drawing
@pytest.fixture(scope="module")
def fonts() -> Fonts:
    pygame.font.init()
    return Fonts()


class Counting:
    """A font that counts the characters it is asked to measure: the work of a layout."""

    def __init__(self, font):
        self.font, self.measured = font, 0

    def size(self, text: str) -> tuple[int, int]:
        self.measured += len(text)
        return self.font.size(text)


def test_half_a_character_is_measured_and_drawn(fonts):
    surface = pygame.Surface((400, 200))
    text = "A title cut \ud83d inside an emoji, and a file caf\udce9.json"
    assert draw.wrap(fonts.body, text, 120) and draw.elided(fonts.body, text, 80).endswith("…")
    draw.label(surface, fonts.body, text, (10, 10), (0, 0, 0), "topleft")
    draw.text_block(surface, fonts.small, draw.wrap(fonts.small, text, 200), (0, 0), (0, 0, 0))
    assert fonts.bold.size("\udce9")[0] > 0 and fonts.title.render("\ud800", True, (0, 0, 0)).get_width() > 0


@pytest.mark.parametrize("words", [False, True])
def test_a_layout_measures_in_proportion_to_its_text(fonts, words):
    """A name of n characters once took n² (40,000: 2.65 s a frame): each line now costs
    what fits on it, so twice the text is twice the work."""
    work = []
    for n in (20_000, 40_000):
        font = Counting(fonts.body)
        text = ("abcdefghi " * n)[:n] if words else "x" * n
        lines = draw.wrap(font, text, 300)
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")
        work.append(font.measured)
    assert work[1] <= 2.2 * work[0] and work[1] <= 40 * 40_000, work
    for n in (20_000, 9_000_000):
        font = Counting(fonts.body)
        assert len(draw.elided(font, "x" * n, 300)) < 100
        assert font.measured < 10_000  # what fits on a line, however long the text


def test_a_number_written_as_text_is_no_number(tmp_path, capsys):
    """Issue 36: the text "0" was taken as the number 0 (pydantic's lax mode)."""
    level = tmp_path / "level.json"
    level.write_text(level_text().replace('"x": 2', '"x": "2"', 1), encoding="utf-8")
    assert main(["validate", str(level)]) == 2
    assert streams(capsys)[1] == f"{level}: nodes[1].x: must be a number\n"
    solution = tmp_path / "tutorial-01.json"
    solution.write_text((ROOT / "levels" / "solutions" / "tutorial-01.json").read_text(encoding="utf-8").replace("-3000", '"-3000"'), encoding="utf-8")
    assert main(["check", "tutorial-01", "--solution", str(solution)]) == 2
    assert "moves[0].add_force.fx: must be a number" in streams(capsys)[1]
