"""Every toolbar's tools have keys of their own (1 … 9, 0: TOOL_KEYS, game/rules/kind.py):
no two tools share a number, each key chooses the tool it labels, and a toolbar past the
keys is refused, by the kind that would list it and by the toolbar itself. An 11th sandbox
tool was labelled "1" beside Inspect's and had no key."""

from __future__ import annotations

import pygame
import pytest
from test_play_session import key, start

from equilibria.app.session.stage import Stage
from equilibria.app.widgets.keymap import TOOL_KEY_CODES, binding_for
from equilibria.app.widgets.tools import TOOLS, Toolbar
from equilibria.rules.kind import TOOL_KEYS
from equilibria.rules.kinds import KINDS


def every_toolbar():
    for name, kind in KINDS.items():
        yield name, kind.tools
        for mode, tools in kind.mode_tools.items():
            yield f"{name} ({mode})", tools


@pytest.mark.parametrize(("what", "tools"), list(every_toolbar()))
def test_every_toolbar_fits_the_keys_and_labels_each_tool_with_a_key_of_its_own(what, tools):
    assert len(tools) <= len(TOOL_KEYS), f"the {what} toolbar has {len(tools)} tools for {len(TOOL_KEYS)} keys"
    bar = Toolbar(tools)
    labels = [bar.number(k) for k in range(len(tools))]
    assert len(set(labels)) == len(labels), f"the {what} toolbar labels two tools alike: {labels}"
    for k, tool in enumerate(tools):
        assert binding_for(TOOL_KEY_CODES[k], 0).action == "tool_key"
        assert bar.keyed(k) == tool and pygame.key.name(TOOL_KEY_CODES[k]) == labels[k]


def test_each_key_of_the_sandbox_chooses_the_tool_it_labels():
    app, scene = start(Stage.empty_sandbox())
    with app:
        names = scene.toolbar.names
        assert names == KINDS["sandbox"].tools and len(names) == len(TOOL_KEYS)  # the fullest toolbar: every key in use
        for k in reversed(range(len(names))):
            key(app, TOOL_KEY_CODES[k])
            assert scene.toolbar.current == names[k]


def test_a_toolbar_past_the_keys_is_refused():
    eleven = tuple(TOOLS)[: len(TOOL_KEYS) + 1]
    assert len(eleven) == len(TOOL_KEYS) + 1
    with pytest.raises(ValueError, match="a toolbar of 11 tools has only 10 keys"):
        Toolbar(eleven)
