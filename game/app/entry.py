"""A force typed in, for the force tool: click a node (without dragging) and type its
components, `0, -10` (Fx, Fy in kN; + right and up), or its size and direction,
`10 @ 270` (kN at degrees anticlockwise from +x). Enter places it, Esc drops it.

`parse_force` is the whole grammar (no pygame); `ForceEntry` is the box that collects
the keys and shows the force it would make as it is typed.
"""

from __future__ import annotations

import math
import re

import pygame

from game.app import draw, overlay
from game.app.palette import ALERT, INK, MUTED, TENSION

NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
COMPONENTS = re.compile(rf"\s*({NUMBER})\s*[,;\s]\s*({NUMBER})\s*(?:kN)?\s*")
POLAR = re.compile(rf"\s*({NUMBER})\s*(?:kN)?\s*@\s*({NUMBER})\s*°?\s*")
MAX_CHARS = 32


def parse_force(text: str) -> tuple[float, float]:
    """(fx, fy) [N] of what was typed; ValueError with a sentence when it is not a force."""
    polar = POLAR.fullmatch(text)
    if polar:
        size, angle = float(polar[1]), math.radians(float(polar[2]))
        if size < 0:
            raise ValueError("A size is not negative: turn the angle by 180° instead.")
        fx, fy = size * math.cos(angle), size * math.sin(angle)
    else:
        parts = COMPONENTS.fullmatch(text)
        if not parts:
            raise ValueError("Type Fx, Fy (like 0, -10) or size @ angle (like 10 @ 270), in kN.")
        fx, fy = float(parts[1]), float(parts[2])
    fx, fy = round(fx * 1e3, 6) + 0.0, round(fy * 1e3, 6) + 0.0  # kN → N; no −0, no 1e-13 from cos 90°
    if not (math.isfinite(fx) and math.isfinite(fy)) or (fx == 0 and fy == 0):
        raise ValueError("That is no force: at least one part must be other than 0.")
    return fx, fy


def parse_moment(text: str) -> float:
    """m [N m] of what was typed (kN·m, counter-clockwise positive); ValueError with a
    sentence when it is not a moment."""
    found = re.fullmatch(rf"\s*({NUMBER})\s*(?:kN·?m|kNm)?\s*", text)
    if not found:
        raise ValueError("Type the moment in kN·m, counter-clockwise positive (like 12 or -4.5).")
    m = round(float(found[1]) * 1e3, 6) + 0.0
    if not math.isfinite(m) or m == 0:
        raise ValueError("That is no moment: it must be other than 0.")
    return m


class ForceEntry:
    """The box a force (or, `moment`, a moment) is typed into, for node `node`."""

    def __init__(self, node: str, now: tuple[float, float] | None = None, *, moment: bool = False):
        """now: the player's force at the node already (fx, fy) [N], which the typed one replaces."""
        self.node = node
        self.text = ""
        self.problem = ""
        self.now = now
        self.moment = moment
        self.parse = parse_moment if moment else parse_force

    def key(self, event: pygame.event.Event) -> str | None:
        """Take a key: "place" (Enter, with a force that parses), "cancel" (Esc), or None."""
        if event.key == pygame.K_ESCAPE:
            return "cancel"
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            try:
                self.parse(self.text)
            except ValueError as exc:
                self.problem = str(exc)
                return None
            return "place"
        if event.key == pygame.K_BACKSPACE:
            self.text = self.text[:-1]
        elif event.unicode and event.unicode.isprintable() and len(self.text) < MAX_CHARS:
            self.text += event.unicode
        self.problem = ""
        return None

    def force(self):
        """(fx, fy) [N], or m [N m] for a moment."""
        return self.parse(self.text)

    def draw(self, surface: pygame.Surface, fonts, area: pygame.Rect, anchor: tuple[float, float]) -> pygame.Rect:
        """The box beside `anchor` (the node on the screen), kept inside `area`."""
        try:
            if self.moment:
                m = parse_moment(self.text)
                reads = f"= {abs(m) / 1e3:.3g} kN·m {'counter-clockwise' if m > 0 else 'clockwise'}"
            else:
                fx, fy = parse_force(self.text)
                reads = f"= Fx {fx / 1e3:+.3g} kN, Fy {fy / 1e3:+.3g} kN: {math.hypot(fx, fy) / 1e3:.3g} kN at {math.degrees(math.atan2(fy, fx)) % 360:.0f}°"
        except ValueError:
            reads = ""
        prompt = "counter-clockwise positive, like 12 or -4.5"
        if not self.moment:
            prompt = "Fx, Fy (0, -10) or size @ angle (10 @ 270); + is right and up, angles anticlockwise from →"
        lines = [
            (fonts.bold, f"{'Moment' if self.moment else 'Force'} at {self.node} ({'kN·m' if self.moment else 'kN'}):  {self.text}▏", INK),
            *([(fonts.small, f"replaces your Fx {self.now[0] / 1e3:+.3g} kN, Fy {self.now[1] / 1e3:+.3g} kN here", MUTED)] if self.now else []),
            (fonts.small, reads or prompt, MUTED),
            (fonts.small, self.problem or "Enter: place it   ·   Esc: drop it", ALERT if self.problem else MUTED),
        ]
        width = max(font.size(text)[0] for font, text, _ in lines) + 2 * overlay.PAD
        height = sum(font.get_linesize() + 4 for font, _, _ in lines) + 2 * overlay.PAD - 4
        box = pygame.Rect(round(anchor[0]) + 18, round(anchor[1]) + 18, width, height).clamp(area)
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=6)
        pygame.draw.rect(surface, TENSION, box, 2, border_radius=6)
        y = box.top + overlay.PAD
        for font, text, colour in lines:
            y = draw.label(surface, font, text, (box.left + overlay.PAD, y), colour, "topleft", None).bottom + 4
        return box
