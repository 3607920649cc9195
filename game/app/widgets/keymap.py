"""The play scene's keys, as one table: which key does what, and the help that says so.

Each binding names the scene method it calls (`PlayScene.<action>()`, a part's: `help.toggle`
asks the help box to open or shut, or a flag it flips),
so the scene dispatches a key with one lookup and F1 lists exactly what the keys do. An
open box (game/app/scenes/boxes.py) takes the keys before this table: its own Esc, its
scrolling keys.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from equilibria.app.window.scale import KEYS as SIZE_KEYS
from equilibria.rules.kind import TOOL_KEYS
from equilibria.words.i18n import N_, _


@dataclass(frozen=True)
class Binding:
    keys: tuple[int, ...]
    action: str  # a scene method, or one of what it holds ("session.undo", "help.toggle"); "toggle:NAME" flips a flag ("picture.values")
    shown: str  # the key(s) as F1 shows them ("" for a row shown by another binding)
    does: str
    ctrl: bool = False  # Ctrl must be held (and otherwise must not)
    shift: bool | None = None  # Shift must be held (True), must not (False), either (None)


K = pygame
ARROW_KEYS = (K.K_LEFT, K.K_RIGHT, K.K_UP, K.K_DOWN)
TOOL_KEY_CODES = tuple(getattr(pygame, f"K_{key}") for key in TOOL_KEYS)  # K_1 … K_9, K_0: the toolbar's keys, in its order
BINDINGS = (
    Binding((K.K_SPACE,), "run_pause", N_("Space, ."), N_("run or pause; . one frame forward")),
    Binding((K.K_PERIOD,), "session.step", "", ""),
    Binding((K.K_r,), "reset", "R", N_("back to the start of the run (undoes drags, nails and bombs)")),
    Binding((K.K_r,), "session.reset_level", N_("Ctrl+R"), N_("reset the level: take back all your moves (Ctrl+Z brings them back)"), ctrl=True),
    Binding((K.K_d,), "stable_reset", "D", N_("after a blow-up at a step of your choosing (--dt): back to the start with the stable step")),
    Binding(
        (K.K_LEFTBRACKET, K.K_MINUS, K.K_KP_MINUS),
        "session.pacer.slower",
        N_("[ ], Ctrl+= Ctrl+−"),
        N_("slower, faster (to ×1/16); with Ctrl, larger, smaller text"),
    ),
    Binding((K.K_RIGHTBRACKET, K.K_EQUALS, K.K_PLUS, K.K_KP_PLUS), "session.pacer.faster", "", ""),
    Binding(TOOL_KEY_CODES, "tool_key", "1 … 9, 0", N_("choose a tool (the bar at the top)")),
    Binding(
        (K.K_TAB,),
        "keys.next",
        N_("Tab, Shift+Tab"),
        N_("choose by keys, in reading order; arrows: the nearest that way"),
        shift=False,
    ),
    Binding((K.K_TAB,), "keys.previous", "", "", shift=True),
    Binding(ARROW_KEYS, "keys.arrow", N_("Shift+arrows"), N_("a free point a grid step on (Ctrl too: ten steps; Alt: a tenth)")),
    Binding(ARROW_KEYS, "keys.arrow", "", "", ctrl=True, shift=True),  # ten steps: one row with Shift+arrows
    Binding((K.K_RETURN, K.K_KP_ENTER), "keys.click", N_("Enter, Delete"), N_("click with the tool on what is chosen, or erase it")),
    Binding((K.K_DELETE, K.K_BACKSPACE), "keys.erase", "", ""),
    Binding((K.K_s,), "session.next_section", N_("S, P"), N_("next section for new members; P pins a beam's end (a hinge)")),
    Binding((K.K_p,), "pin_end", "", ""),  # one row with S
    Binding((K.K_z,), "session.undo", N_("Ctrl+Z, Ctrl+Y"), N_("undo, redo"), ctrl=True, shift=False),
    Binding((K.K_z,), "session.redo", "", "", ctrl=True, shift=True),
    Binding((K.K_y,), "session.redo", "", "", ctrl=True),
    Binding((K.K_c,), "check", "C, T, N", N_("check; T: try again; N: the next level after a pass")),
    Binding((K.K_t,), "try_again", "", ""),
    Binding((K.K_a,), "show_answer", N_("Ctrl+A"), N_("show the answer (gives the level up: 0 marks)"), ctrl=True),
    Binding((K.K_n,), "next_level", "", ""),
    Binding((K.K_f,), "fit_view", N_("Wheel, middle drag"), N_("zoom, pan (also Ctrl+arrows); F fits the view")),
    Binding(ARROW_KEYS, "keys.pan", "", "", ctrl=True, shift=False),
    Binding((K.K_m,), "picture.magnify_next", "M", N_("magnify the deflections ×10, ×100, ×1000")),
    Binding((K.K_v,), "toggle:picture.values", "V, L", N_("force values on members; L: every name")),
    Binding((K.K_i,), "picture.next_diagram", "I", N_("shear and bending-moment diagrams on the beams: V, then M, then none")),
    Binding((K.K_w,), "toggle:picture.resultants", "W", N_("the resultant of each distributed load, dashed, at its centroid")),
    Binding((K.K_l,), "toggle:picture.labels", "", ""),
    Binding((K.K_g,), "toggle_graphs", "G", N_("graph panel; A graphs what you inspect (or the energies); X plots against the first; E exports CSV and PNG")),
    Binding((K.K_a,), "follow", "", ""),
    Binding((K.K_x,), "graphs.toggle_against", "", ""),
    Binding((K.K_e,), "export_graph", "", ""),
    Binding((K.K_b,), "brief.toggle", "B, K", N_("the whole brief; K: the method, step by step (after a pass)")),
    Binding((K.K_k,), "method.toggle", "", ""),  # one row with B
    Binding((K.K_u,), "table.toggle", "U", N_("the member table: sections, lengths, costs (forces after a check)")),
    Binding(
        (K.K_s,),
        "session.save_design",
        N_("Ctrl+S, Ctrl+E"),
        N_("save the sandbox design; hand your work in; Ctrl+L: make a level of it (teachers)"),
        ctrl=True,
    ),
    Binding((K.K_e,), "session.hand_in", "", "", ctrl=True),  # one row with Ctrl+S
    Binding((K.K_l,), "make_level", "", "", ctrl=True),  # one row with Ctrl+S
    Binding(tuple(SIZE_KEYS), "text_size", "", "", ctrl=True),  # one row with [ ]; without Ctrl, = and − run faster and slower
    Binding((K.K_F12,), "screenshot", "F12, H", N_("screenshot; H: frame rate and timing (HUD)")),
    Binding((K.K_h,), "hud.toggle", "", ""),
    Binding((K.K_F1,), "help.toggle", "F1", N_("this help (a long box scrolls: wheel, Page Up/Down)")),
    Binding((K.K_SLASH,), "help.toggle", "", "", shift=True),
    Binding((K.K_ESCAPE,), "escape", N_("Esc"), N_("close a box, cancel a tool, or leave (it asks first)")),
)


def help_rows() -> list[tuple[str, str]]:
    """F1's rows, (keys, what they do), in the player's language."""
    return [(_(b.shown), _(b.does)) for b in BINDINGS if b.shown]


def binding_for(key: int, mod: int) -> Binding | None:
    """The binding of a key pressed with modifiers `mod` (None: the key does nothing)."""
    ctrl, shift = bool(mod & pygame.KMOD_CTRL), bool(mod & pygame.KMOD_SHIFT)
    for b in BINDINGS:
        if key in b.keys and b.ctrl == ctrl and (b.shift is None or b.shift == shift):
            return b
    return None
