"""Figures in words, for students: three significant figures in plain digits with their
unit (1,490 kN, 12.5 kN, 0.0125 m; never 1.49e+03), and a member's results in words
(what it can carry, how much of it it uses, why it broke), read from the engine's one
home for them (engine/results.py). No pygame: the rules and the app share these.
"""

from __future__ import annotations

import math

from equilibria.engine.results import BUCKLING, CABLE, MemberResults


def figure(x: float) -> str:
    """`x` to three significant figures in plain digits, trailing zeros dropped:
    1,490, 20, 12.5, 0.0125, -3.38."""
    if x == 0.0 or not math.isfinite(x):
        return "0" if x == 0.0 else str(x)
    digits = max(0, 2 - math.floor(math.log10(abs(x))))
    text = f"{x:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def kn(force: float) -> str:
    """A force [N] in kN, its sign kept: "12.5 kN", "-20 kN"."""
    return f"{figure(force / 1e3)} kN"


MINUS = "−"  # the minus sign a student reads on the screen (not the keyboard's hyphen)


def signed(x: float, unit: str) -> str:
    """`x` with its unit and its sign always written, "−" for minus (figure's three
    significant figures, trailing zeros dropped): "+10 kN", "−3 kN", "0 kN"."""
    text = figure(x)
    return f"{'+' if x > 0 else ''}{text.replace('-', MINUS)} {unit}"


def num(x: float, unit: str, *, sign: bool = True, floor: float = 0.0) -> str:
    """`x` to three significant figures with its unit, in plain digits (1490 kN, 0.0125
    m, never 1.49e+03), its sign written (+ too) unless `sign` is False; below `floor`
    it is 0. Trailing zeros are kept: +1.00 kN reads as a measured value."""
    if abs(x) <= floor or x == 0.0:
        return f"0 {unit}"
    digits = max(0, 2 - math.floor(math.log10(abs(x))))
    text = f"{x:+,.{digits}f}" if sign else f"{x:,.{digits}f}"
    return f"{text} {unit}"


# ------------------------------------------------------------- a member in words


def capacity_words(r: MemberResults, k: int) -> tuple[str, str]:
    """Member k's capacities in words: (tension, compression), "no limit" where it has
    none, "none (a cable)" for a cable's compression."""
    cap_t, cap_c = float(r.cap_t[k]), float(r.cap_c[k])
    t = num(cap_t / 1e3, "kN", sign=False) if math.isfinite(cap_t) else "no limit"
    if r.compression_by[k] == CABLE:
        return t, "none (a cable)"
    return t, num(cap_c / 1e3, "kN", sign=False) if math.isfinite(cap_c) else "no limit"


def capacity_lines(r: MemberResults, k: int) -> list[str]:
    """Member k's capacities (yield in tension, the lesser of yield and Euler's π²EI/L²
    in compression) and how much of it its force uses now; nothing where it has no
    limit."""
    if not (math.isfinite(r.cap_t[k]) or (math.isfinite(r.cap_c[k]) and r.compression_by[k] != CABLE)):
        return []
    t, c = capacity_words(r, k)
    lines = [f"carries {t} in tension, {c} in compression"]
    n = float(r.axial[k])
    cap = r.capacity(k, n)
    if n and math.isfinite(cap) and cap > 0:
        lines.append(f"uses {abs(n) / cap:.0%} of it now")
    return lines


def broke_words(r: MemberResults, k: int) -> str:
    """When and why member k broke, in short ("" when it did not): its capacities, and
    which limit buckling sets."""
    when = float(r.break_time[k])
    if math.isnan(when):
        return ""
    t, c = (num(float(cap) / 1e3, "kN", sign=False) for cap in (r.cap_t[k], r.cap_c[k]))
    if r.compression_by[k] != BUCKLING:
        return f"broke at t = {when:.2f} s: its force passed what it can carry ({t} in tension, {c} in compression)"
    return f"broke at t = {when:.2f} s: it yields at {t} in tension and buckles at {c} (π²EI/L²) in compression"


def broke_notice(r: MemberResults, k: int, static: MemberResults | None, *, hand: float | None = None, nails: bool = False) -> str:
    """The notice when member k breaks in a run: when, and how its force in the static
    answer (`static`, None: none) compares with what it can carry (the shock of a sudden
    load can break a member that statics says holds); hand: the hand's pull [N] if the
    player's hand was on the structure."""
    words = f"Member {r.ids[k]} broke at t = {float(r.break_time[k]):.2f} s"
    if hand is not None:
        return f"{words}: your hand pulled with {kn(hand)}."
    if nails:
        words += " (nails hold the structure where no support does)"
    cap_t, cap_c = float(r.cap_t[k]), float(r.cap_c[k])
    if static is None:
        return f"{words}: its force passed what it can carry ({kn(cap_t)} in tension, {kn(cap_c)} in compression)."
    n = float(static.axial[k])
    cap = cap_t if n >= 0 else cap_c
    buckles = r.compression_by[k] == BUCKLING
    how = "in tension (its yield load)" if n >= 0 else "in compression (its buckling load π²EI/L²)" if buckles else "in compression (its yield load)"
    if cap <= 0 or not math.isfinite(cap):
        return f"{words}."
    share = abs(n) / cap
    if share >= 1:
        return f"{words}: statics asks it to carry {kn(abs(n))} {how}, {share:.0%} of the {kn(cap)} it can. Make it stronger."
    return f"{words}: statics asks only {share:.0%} of the {kn(cap)} it can carry {how}; the motion overshot that."
