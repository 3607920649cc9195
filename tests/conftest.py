"""Tests run headless: no display, no audio device."""

import os
import tempfile

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Progress, autosaves and screenshots go to a throw-away folder, never the user's own:
# one for the session (imports, subprocesses), and one of its own for every test, so that
# what one test saves (a sandbox autosave, progress) is never what another one finds.
os.environ["EQUILIBRIA_HOME"] = tempfile.mkdtemp(prefix="equilibria-tests-")
# The tests read English whatever the machine's language (a test of another language asks
# for it); subprocesses inherit it.
os.environ["EQUILIBRIA_LANG"] = "en"


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture(autouse=True)
def in_english():
    """Each test starts in English and leaves English behind (the language is the
    process's: game/words/i18n.py)."""
    from equilibria.words.i18n import set_language

    set_language("en")
    yield
    set_language("en")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home of the test's own; returned: the teacher's levels folder in it (the level editor saves there)."""
    monkeypatch.setenv("EQUILIBRIA_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "levels"


@pytest.fixture
def app():
    """The game's window, headless, each frame 1/60 s (the editor's and the play screen's tests drive it)."""
    from equilibria.app.window.app import App

    with App(fixed_frame=1 / 60) as app:
        yield app


@pytest.fixture
def drawn(monkeypatch):
    """The drawing records every frame hands the pygame backend from now on (tests/drawing.py):
    clear it before a frame to read that frame's."""
    from drawing import record

    return record(monkeypatch)


@pytest.fixture(autouse=True)
def no_check_outlives_its_test():
    """No thread a check is judged in (game/app/session/checking.py) is left running when
    a test ends: one would go on judging beside the next test's own runs."""
    import threading

    yield
    left = [t.name for t in threading.enumerate() if t.name == CHECK_THREAD and t.is_alive()]
    assert left == [], "a check's thread outlived its test"


CHECK_THREAD = "equilibria check"  # the name game/app/session/checking.py gives its threads
