"""Every text the app draws comes from the catalogs (issue 25 point 5): each scene runs in
the pseudo language (game/words/i18n.py: every translated text comes back in ⟦ ⟧) with every
box open, and every text drawn is caught where it is rendered (the fonts are those of
`palette.Fonts`; each is made a `Caught` font, whose `render` notes the text). A word
drawn outside ⟦ ⟧ fails the test unless it is

- a number, a unit or a symbol (kN, mm, ΣFx, σx), a member's or node's name (AB, T1);
- a text of another area: the level's words (its title, brief, sections, materials),
  what the judge, the figures, the engine or the course said. Those are every string
  that a function of another area returned to the app while it ran (each such function
  the app's modules import is wrapped, and what it returns is walked for its strings),
  and what the scene holds of them (the verdict, the level, the truss count): their
  helpers mark them (i18n-rules, i18n-levels).

The last tests show that the check catches a text left unmarked, and that the scenes
read German where the language is German (tests/test_layout.py runs them in German at
every window size).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re
import sys
from types import SimpleNamespace

import pygame
import pytest
from test_layout import checked, level
from test_play_session import key, start

from equilibria.app.draw import palette
from equilibria.app.draw.typeface import font_file
from equilibria.app.scenes.loading import LoadingScene
from equilibria.app.scenes.menu import MenuScene
from equilibria.app.scenes.menuparts import language_line
from equilibria.app.session.pacing import FRAME
from equilibria.app.session.stage import Stage
from equilibria.app.window.app import App
from equilibria.course.progress import Progress
from equilibria.engine import warm
from equilibria.words import i18n

UNITS = {"kN", "mm", "cm", "MPa", "Pa", "Hz", "kg", "px", "Fx", "Fy", "xy", "rad", "Equilibria"}  # units, symbols and the game's name
NAME = re.compile(r"^[A-Z0-9_]{1,4}$")  # a node or member name the level gives (A, AB, T1)
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]{2,}")  # a word: two Latin letters or more (ΣFx reads as Fx, σx as none)


ECHOES = ("equilibria.words.i18n", "equilibria.words.text")  # their functions give back the app's own texts (translated, made safe to draw)


class Caught(pygame.font.Font):
    """A font that notes every text it renders (`seen`, shared by the fonts of a run)."""

    seen: list[str]

    def render(self, text, *args, **kwargs):
        self.seen.append(str(text))
        return super().render(text, *args, **kwargs)


def strings(thing, out: set[str], depth: int = 0, visited: set[int] | None = None) -> None:
    """Every string in `thing`: itself, its items, its fields (a model's, a dataclass's, an
    object's), a few levels deep."""
    visited = set() if visited is None else visited
    if isinstance(thing, str):
        out.add(thing)
        return
    if depth > 6 or id(thing) in visited or thing is None or isinstance(thing, (int, float, bytes, type)):
        return
    visited.add(id(thing))
    if isinstance(thing, dict):
        items = [*thing.keys(), *thing.values()]
    elif isinstance(thing, (list, tuple, set, frozenset)):
        items = list(thing)
    elif hasattr(thing, "model_dump"):
        items = [thing.model_dump()]
    elif dataclasses.is_dataclass(thing) and not isinstance(thing, type):
        items = [getattr(thing, f.name) for f in dataclasses.fields(thing)]
    elif type(thing).__module__.startswith("equilibria.") and hasattr(thing, "__dict__"):
        items = list(vars(thing).values())
    else:
        return
    for item in items:
        strings(item, out, depth + 1, visited)


class Foreign:
    """The texts other areas gave the app: what their functions returned, their constants
    the app imported, and what the scenes hold of them."""

    def __init__(self) -> None:
        self.texts: set[str] = set()

    def wrap(self, function):
        @functools.wraps(function)
        def wrapped(*args, **kwargs):
            result = function(*args, **kwargs)
            strings(result, self.texts)
            return result

        return wrapped

    def install(self, monkeypatch) -> None:
        """Wrap each function of another area that an app module imported, and note the
        texts it imported as constants."""
        for name, module in list(sys.modules.items()):
            if not name.startswith("equilibria.app") or module is None:
                continue
            for attr, value in list(vars(module).items()):
                home = getattr(value, "__module__", "") or ""
                if isinstance(value, str) and not attr.startswith("__"):
                    continue  # the app's own constants: marked with N_ where they are defined
                if inspect.isfunction(value) and home.startswith("equilibria.") and not home.startswith("equilibria.app") and home not in ECHOES:
                    monkeypatch.setattr(module, attr, self.wrap(value))
        from equilibria.course.teacher import HEADING
        from equilibria.files import manual

        self.texts.add(HEADING)
        monkeypatch.setattr(manual, "help_row", self.wrap(manual.help_row))  # F1's row on the manual (the command line's texts)

    def scene(self, scene) -> None:
        """What a scene holds of other areas' texts: the level, the verdict, the count,
        the bill, the motion and static words, the tool tips' section names."""
        s = getattr(scene, "session", None)
        if s is None:
            return
        for thing in (scene.stage.level, s.verdict, s.free_words if s.free is not None else None, getattr(s.static, "words", None)):
            strings(thing, self.texts)
        if s.count is not None:
            self.texts |= {s.count.equation(), s.count.short}
        bill = getattr(s.bench, "bill", None)
        if bill is not None:
            strings(bill(), self.texts)
        if s.free is not None:
            strings(s.free, self.texts)

    def words(self) -> set[str]:
        return {w for text in self.texts for w in WORD.findall(text)}


def outside(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Each drawn line (in the order drawn) with its parts outside ⟦ ⟧. The lines of a
    wrapped text are drawn one after another: a line may begin inside the brackets (an
    unmatched ⟧ closes them), lie wholly inside (between the first line, with an
    unmatched ⟦, and the last), or end inside them; a text cut short ends with "…"."""
    out, depth = [], 0
    for text in lines:
        excess = text.count("⟧") - text.count("⟦")
        if text.startswith("⟦"):
            depth = 0  # a text of its own begins
        elif excess > depth:
            depth = excess  # the rest of a text wrapped from a line not seen before it
        parts, part = [], ""
        for ch in text:
            if ch == "⟦":
                if depth == 0:
                    parts.append(part)
                    part = ""
                depth += 1
            elif ch == "⟧":
                depth = max(0, depth - 1)
            elif depth == 0:
                part += ch
        parts.append(part)
        if text.rstrip().endswith("…"):
            depth = 0  # cut short: its closing bracket was never drawn
        out.append((text, [p for p in parts if p.strip()]))
    return out


def named(word: str, names: set[str]) -> bool:
    """A name the level gives (AB), or an unknown a cut names after one (Ax, By, MA)."""
    return bool(NAME.match(word)) or word in names or (word[:-1] in names and word[-1] in "xy") or (word[0] == "M" and word[1:] in names)


def stray_words(seen: list[str], foreign: set[str], names: set[str]) -> list[str]:
    """The drawn lines with a word outside ⟦ ⟧ that no other area gave, each with it."""
    found: dict[str, None] = {}
    for text, parts in outside(seen):
        bad = [w for part in parts for w in WORD.findall(part) if w not in UNITS and w not in foreign and not named(w, names)]
        if bad:
            found[f"{text!r} ({', '.join(bad)})"] = None
    return list(found)


@pytest.fixture
def caught(monkeypatch):
    """The pseudo language, every text drawn caught, other areas' texts noted."""
    seen: list[str] = []
    monkeypatch.setattr(Caught, "seen", seen, raising=False)

    def load(name, size):
        return Caught(str(font_file(name)), size)  # the shipped file, as a font that notes what it renders

    monkeypatch.setattr(palette, "load", load)
    foreign = Foreign()
    import equilibria.app.launch  # every app module imported before the wrapping
    import equilibria.app.scenes.menu  # noqa: F401

    foreign.install(monkeypatch)
    i18n.set_language(i18n.PSEUDO)
    return SimpleNamespace(seen=seen, foreign=foreign)


def names_of(scene) -> set[str]:
    s = getattr(scene, "session", None)
    model = getattr(s, "model", None)
    if model is None:
        return set()
    return {*model.node_ids, *model.member_ids, *model.triangle_ids}


def every_box(app, scene, caught) -> None:
    """The scene drawn as it is, then with the brief, the help, the graph, the HUD, the
    member table and the question before leaving open, a frame each."""
    app.frame()
    for box in (scene.brief, scene.help, scene.leaving):
        box.open()
        app.frame()
        box.close()
    key(app, pygame.K_g)
    scene.hud.open()
    scene.session.paused = False
    app.run(frames=3)
    scene.hud.close()
    scene.graphs.shown = False
    scene.table.shown = True
    app.frame()
    scene.table.shown = False
    caught.foreign.scene(scene)


def assert_marked(caught, names: set[str], what: str) -> None:
    stray = stray_words(caught.seen, caught.foreign.words(), names)
    assert not stray, f"{what}: drawn outside the catalogs: " + "; ".join(stray[:8])


def play_through(level_id: str, tmp_path, caught) -> set[str]:
    """A level as it opens with every box, after a failed check, and after a pass with
    every box; the names of its members and nodes."""
    names: set[str] = set()
    for solved in (False, True):
        app, scene = level(level_id, tmp_path, solved=solved)
        with app:
            every_box(app, scene, caught)
            checked(app, scene, passed=solved)
            every_box(app, scene, caught)
            scene.verdict_box.fold()
            app.frame()
            names |= names_of(scene)
    return names


@pytest.mark.parametrize("level_id", ["free-body-01", "bridge-01", "zero-force-01"])
def test_a_level_draws_only_catalog_texts(level_id, tmp_path, caught):
    names = play_through(level_id, tmp_path, caught)
    assert len(caught.seen) > 50  # the scenes drew: the check had texts to look at
    assert_marked(caught, names, level_id)


def test_the_force_box_the_sandbox_and_the_menu_draw_only_catalog_texts(tmp_path, caught):
    app, scene = level("free-body-01", tmp_path)
    with app:
        node = scene.session.model.node_ids[0]
        scene.type_force(node)
        app.frame()
        for ch in "12, -3":
            scene.entry_box.entry.line.insert(ch)
        app.frame()
        names = names_of(scene)
    app, scene = start(Stage.empty_sandbox(), progress=Progress.load(tmp_path))
    with app:
        every_box(app, scene, caught)
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, progress=Progress.load(tmp_path))
        app.push(menu)
        app.frame()
        menu.leaving.open()
        app.frame()
        menu.leaving.close()
        menu.student.open()
        app.frame()
        warming = SimpleNamespace(progress=lambda steps: (0.4, warm.STEPS[0][0]), seconds=lambda: 3.0, ready=lambda: False)
        app.replace(LoadingScene(app, warming, lambda app: None))
        app.frame()  # the warm-up's words (engine/warm.py) are translated too
    assert_marked(caught, names, "the force box, the sandbox, the menu and the loading screen")


@pytest.mark.parametrize(("module", "said"), [("widgets.panels", "paused (Space runs)"), ("widgets.tools", "Inspect")])
def test_the_check_catches_a_text_left_unmarked(module, said, tmp_path, caught, monkeypatch):
    """The status line's words (game/app/widgets/panels.py), or the tools' names (game/app/widgets/tools.py),
    drawn as if never marked: the check names them."""
    import importlib

    monkeypatch.setattr(importlib.import_module(f"equilibria.app.{module}"), "_", lambda text: text)
    app, scene = level("bridge-01", tmp_path)
    with app:
        app.frame()
        caught.foreign.scene(scene)
        stray = stray_words(caught.seen, caught.foreign.words(), names_of(scene))
    assert any(said in line for line in stray), stray


def test_the_check_catches_one_unmarked_word(caught):
    """One word outside the brackets, among marked texts, numbers, names and units."""
    foreign = {"Bridge", "Carry"}
    fine = ["⟦Members⟧", "⟦Force at {node} (kN):⟧", "ΣFx = +1.20 kN", "AB", "Bridge", "⟦long text", "wrapped over", "three lines⟧ 3.2 m", "⟦cut short …"]
    assert stray_words(fine, foreign, {"AB"}) == []
    assert stray_words([*fine, "⟦Members⟧ Total"], foreign, {"AB"}) == ["'⟦Members⟧ Total' (Total)"]


def test_the_scenes_read_german(tmp_path):
    """In German the menu, the status line and the help say German words."""
    i18n.set_language("de")
    app, scene = level("bridge-01", tmp_path)
    with app:
        from equilibria.app.widgets.panels import status_text

        assert "läuft" in status_text(scene) or "angehalten" in status_text(scene)
        scene.help.open()
        title = scene.parts.by_name("help").content(900)[0]
        assert title == "Tasten und Werkzeuge"
        assert scene.toolbar.tool.tip_for(scene.session).startswith(("von Knoten", "Knoten anklicken", "klicken setzt"))
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, progress=Progress.load(tmp_path))
        assert language_line() == "Sprache: Deutsch   (L: ändern)"
        assert "Freies Spiel" in [row.text for row in menu.levels.rows]


def test_the_language_chosen_on_the_menu_changes_at_once_and_is_kept(tmp_path, monkeypatch):
    """L on the menu: German at once (the rows' own words too), kept in the progress, and
    used at the next start unless --lang gives another."""
    from equilibria.app import launch

    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path))
    with App(fixed_frame=FRAME) as app:
        menu = MenuScene(app, progress=Progress.load())
        app.push(menu)
        app.frame()
        assert "Free play" in [row.text for row in menu.levels.rows]
        key(app, pygame.K_l)
        assert i18n.language() == "de"
        assert "Freies Spiel" in [row.text for row in menu.levels.rows]
        assert language_line().startswith("Sprache: Deutsch")
        key(app, pygame.K_l)  # L goes on through every language, then back to English
        assert i18n.language() == "es" and language_line() == "Idioma: Español   (L: cambiarlo)"
        assert "Juego libre" in [row.text for row in menu.levels.rows]
        key(app, pygame.K_l)
        assert i18n.language() == "fr" and language_line() == "Langue\u00a0: Français   (L\u00a0: la changer)"
        assert "Jeu libre" in [row.text for row in menu.levels.rows]
        key(app, pygame.K_l)
        assert i18n.language() == "en" and language_line().startswith("Language: English")
        key(app, pygame.K_l)
        assert i18n.language() == "de"
    assert Progress.load().language == "de"
    i18n.set_language("en")
    launch.players_language(None)  # a start without --lang: the player's choice
    assert i18n.language() == "de"
    i18n.set_language("en")
    launch.players_language("en")  # --lang en: it holds
    assert i18n.language() == "en"


@pytest.mark.parametrize(
    ("code", "status", "help_title", "free_play", "language"),
    [
        ("es", ("en marcha", "en pausa"), "Teclas y herramientas", "Juego libre", "Idioma: Español   (L: cambiarlo)"),
        ("fr", ("en marche", "en pause"), "Touches et outils", "Jeu libre", "Langue\u00a0: Français   (L\u00a0: la changer)"),
    ],
)
def test_the_scenes_read_spanish_and_french(code, status, help_title, free_play, language, tmp_path):
    """As in German: the status line, the help, the tool tip and the menu in the language."""
    i18n.set_language(code)
    app, scene = level("bridge-01", tmp_path)
    with app:
        from equilibria.app.widgets.panels import status_text

        assert any(word in status_text(scene) for word in status), status_text(scene)
        scene.help.open()
        assert scene.parts.by_name("help").content(900)[0] == help_title
        assert "⟦" not in scene.toolbar.tool.tip_for(scene.session) and scene.toolbar.tool.tip_for(scene.session).startswith(("haz clic", "cliquez"))
    with App(fixed_frame=FRAME) as app:
        MenuScene(app, progress=Progress.load(tmp_path))
        assert language_line() == language
        assert free_play in [row.text for row in MenuScene(app, progress=Progress.load(tmp_path)).levels.rows]


@pytest.mark.parametrize("code", ["de", "es", "fr"])
def test_the_force_box_reads_a_decimal_comma_where_the_language_writes_one(code):
    """Spanish and French write 12,5 as German does: the force box reads it the same way."""
    from equilibria.words.figures import typed_force as parse_force
    from equilibria.words.figures import typed_moment as parse_moment

    i18n.set_language(code)
    assert parse_force("12,5; -3") == (12500.0, -3000.0)
    assert parse_force("12,5, -3") == (12500.0, -3000.0)
    assert parse_force("0, -10") == (0.0, -10000.0)
    assert parse_moment("-4,5") == -4500.0
    with pytest.raises(ValueError, match=r"Fx\u00a0?; Fy"):
        parse_force("1,5")  # one number: no force, in the language's words


def test_the_force_box_reads_a_decimal_comma_in_german():
    """German writes 12,5: the force box reads it, and a comma with a space or a sign
    after it still parts Fx from Fy (English reads 12,5 as Fx 12, Fy 5, as before).
    Tolerance: exact, but for the polar form's cosine of 90° (rounded to 1e-6 N)."""
    from equilibria.words.figures import typed_force as parse_force
    from equilibria.words.figures import typed_moment as parse_moment

    assert parse_force("12,5") == (12000.0, 5000.0)  # English: Fx 12, Fy 5
    i18n.set_language("de")
    assert parse_force("12,5; -3") == (12500.0, -3000.0)
    assert parse_force("12,5, -3") == (12500.0, -3000.0)
    assert parse_force("0, -10") == (0.0, -10000.0)
    assert parse_force("0,-10") == (0.0, -10000.0)
    assert parse_force("12,5 @ 90") == pytest.approx((0.0, 12500.0))
    assert parse_moment("-4,5") == -4500.0
    with pytest.raises(ValueError, match="Fx; Fy"):
        parse_force("1,5")  # one number: no force
