"""Figures in words, for students: three significant figures in plain digits with their
unit (1,490 kN, 12.5 kN, 0.0125 m; never 1.49e+03), in the language's marks (German:
1.490 kN, 12,5 kN: game/words/i18n.py `decimal`), and a member's results in words (what it can
carry, how much of it it uses, why it broke), read from the engine's one home for them
(engine/results.py). The one home, too, of reading a number the student typed in the
language's marks (`typed_force`, `typed_moment`). No pygame: the rules and the app share
these.
"""

from __future__ import annotations

import math
import re

from equilibria.engine.results import BUCKLING, CABLE, MemberResults
from equilibria.words.i18n import _, decimal, decimal_mark

GIVEN_FIGURES = 4  # significant figures of a given load's label: as its brief states it (14.05 kN, not 14.1 kN)


def figure(x: float, significant: int = 3) -> str:
    """`x` to three (`significant`) significant figures in plain digits, trailing zeros
    dropped: 1,490, 20, 12.5, 0.0125, -3.38."""
    if x == 0.0 or not math.isfinite(x):
        return "0" if x == 0.0 else str(x)
    digits = max(0, significant - 1 - math.floor(math.log10(abs(x))))
    text = decimal(x, digits)
    point = decimal_mark()
    return text.rstrip("0").rstrip(point) if digits else text


def fixed(x: float, digits: int) -> str:
    """`x` with `digits` decimals in the language's marks (a time: 1.25 s, German 1,25 s)."""
    return decimal(x, digits)


def percent(share: float) -> str:
    """A share (0.02) as a whole per cent in the language's way: "2%", German "2 %"; one
    under 1 % to one decimal ("0.1%", German "0,1 %"), not as 0."""
    n = share * 100
    return _("{n}%").format(n=decimal(n, 1 if 0 < abs(n) < 0.95 else 0))


def money(x: float) -> str:
    """An amount of money [$] in whole dollars: "$1,200" (German "1.200 $", as the
    level texts write it)."""
    # TRANSLATORS: an amount of money in dollars; where the symbol goes in your language
    return _("${amount}").format(amount=decimal(x, 0))


def kn(force: float, significant: int = 3) -> str:
    """A force [N] in kN, its sign kept: "12.5 kN", "-20 kN"; to four `significant`
    figures for a given load, which the brief may state as 14.05 kN."""
    return f"{figure(force / 1e3, significant)} kN"


MINUS = "−"  # the minus sign a student reads on the screen (not the keyboard's hyphen)


def signed(x: float, unit: str) -> str:
    """`x` with its unit and its sign always written, "−" for minus (figure's three
    significant figures, trailing zeros dropped): "+10 kN", "−3 kN", "0 kN"."""
    text = figure(x)
    return f"{'+' if x > 0 else ''}{text.replace('-', MINUS)} {unit}"


def num(x: float, unit: str, *, sign: bool = True, floor: float = 0.0) -> str:
    """`x` to three significant figures with its unit, in plain digits (1490 kN, 0.0125
    m, never 1.49e+03), its sign written (+ too, and "−" for minus) unless `sign` is
    False; below `floor` it is 0. Trailing zeros are kept: +1.00 kN reads as a measured
    value."""
    if abs(x) <= floor or x == 0.0:
        return f"0 {unit}"
    digits = max(0, 2 - math.floor(math.log10(abs(x))))
    return f"{decimal(x, digits, plus=sign).replace('-', MINUS)} {unit}"


# ------------------------------------------------------------- a number typed in

NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"  # in English; a decimal comma where the language writes one (_number)


def _number() -> str:
    """A typed number: the point always, and the language's decimal mark where it is a
    comma (German "12,5" and "12.5" both read 12.5)."""
    return NUMBER if decimal_mark() == "." else r"[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)"


def read_number(text: str) -> float:
    """A number as the student typed it, in the language's decimal mark or a point."""
    return float(text.replace(",", "."))


def _components() -> re.Pattern:
    """Fx, Fy: in English a comma, semicolon or space between them; where the comma is the
    decimal mark, a semicolon, a space, or a comma followed by a space or a sign."""
    n = _number()
    between = r"[,;\s]" if decimal_mark() == "." else r"(?:;|\s|,(?=\s|[-+]))"
    return re.compile(rf"\s*({n})\s*{between}\s*({n})\s*(?:kN)?\s*")


def thousands_typed(text: str) -> bool:
    """Whether `text` is one number written with a thousands separator where the
    language's decimal mark is the point, as in 1,000 or 12,500 kN: the boxes say so
    rather than read it as two components (Fx 1, Fy 0) or refuse it in other words."""
    if decimal_mark() != ".":
        return False  # there the comma is the decimal mark and 1,000 is one (game/words/i18n.py)
    return re.fullmatch(r"\s*[-+]?\d{1,3}(?:,\d{3})+(?:\.\d*)?\s*(?:kN(?:·?m)?)?\s*", text) is not None


POINT_THOUSANDS = re.compile(r"(?<![\d.,])[-+]?\d{1,3}(?:\.\d{3})+(?![\d.,])")  # 1.000, 12.500, 1.000.000


def point_thousands_typed(text: str) -> str | None:
    """Where the decimal mark is the comma (German, Spanish, French), a number written as
    1.000 or 12.500: a thousand, as a German writes it, or one and a point, as a calculator
    does? Ambiguous, so the boxes ask rather than guess (issue 32: "1.000" read as 1.0).
    The number, or None. 1.5, 1.25 and 1.0000 are no thousands: they read as decimals."""
    if decimal_mark() == ".":
        return None  # there the point is the decimal mark and nothing else
    found = POINT_THOUSANDS.search(text)
    return found[0] if found else None


def _no_thousands(text: str) -> None:
    if thousands_typed(text):
        raise ValueError(_("Type a number without a thousands comma, in kN (1 kN = 1000 N): 1000 for one thousand."))
    if (typed := point_thousands_typed(text)) is not None:
        raise ValueError(
            _("{typed} could be a thousand or a decimal: type 1000 for one thousand, or the decimal with a comma ({comma}), in kN.").format(
                typed=typed, comma=typed.replace(".", ",", 1)
            )
        )


def typed_force(text: str, *, zero: bool = False) -> tuple[float, float]:
    """(fx, fy) [N] of a force typed as components in kN, `0, -10` (German `0; -10`,
    `1,5 -10`), or size @ angle, `10 @ 270`; ValueError with a sentence when it is not a
    force. `zero`: a force of nothing is an answer here (a cut that carries none), typed
    `0` (or `0, 0`). The answer box's one grammar for forces (game/app/widgets/entry.py)."""
    _no_thousands(text)
    polar = re.fullmatch(rf"\s*({_number()})\s*(?:kN)?\s*@\s*({_number()})\s*°?\s*", text)
    single = re.fullmatch(rf"\s*({_number()})\s*(?:kN)?\s*", text)
    if polar:
        size, angle = read_number(polar[1]), math.radians(read_number(polar[2]))
        if size < 0:
            raise ValueError(_("A size is not negative: turn the angle by 180° instead."))
        fx, fy = size * math.cos(angle), size * math.sin(angle)
    elif single and read_number(single[1]) == 0:
        fx, fy = 0.0, 0.0  # no force: an answer where `zero` says so, refused below elsewhere
    else:
        parts = _components().fullmatch(text)
        if not parts:
            raise ValueError(_("Type Fx, Fy (like 0, -10) or size @ angle (like 10 @ 270), in kN."))
        fx, fy = read_number(parts[1]), read_number(parts[2])
    fx, fy = round(fx * 1e3, 6) + 0.0, round(fy * 1e3, 6) + 0.0  # kN → N; no −0, no 1e-13 from cos 90°
    if not (math.isfinite(fx) and math.isfinite(fy)):
        raise ValueError(_("That is no force."))
    if fx == 0 and fy == 0 and not zero:
        raise ValueError(_("That is no force: at least one part must be other than 0."))
    return fx, fy


def typed_moment(text: str, *, zero: bool = False) -> float:
    """m [N m] of a moment typed in kN·m (counter-clockwise positive), in the language's
    decimal mark; ValueError with a sentence when it is not a moment. `zero`: a moment of
    nothing is an answer here (a cut that carries none), typed 0."""
    _no_thousands(text)
    found = re.fullmatch(rf"\s*({_number()})\s*(?:kN·?m|kNm)?\s*", text)
    if not found:
        raise ValueError(_("Type the moment in kN·m, counter-clockwise positive (like 12 or -4.5)."))
    m = round(read_number(found[1]) * 1e3, 6) + 0.0
    if not math.isfinite(m):
        raise ValueError(_("That is no moment."))
    if m == 0 and not zero:
        raise ValueError(_("That is no moment: it must be other than 0."))
    return m


def typed_member_force(text: str) -> float | None:
    """N [N] of a member force typed in kN (tension positive), in the language's decimal
    mark, or None for nothing typed (the member cut, its force given later); ValueError
    with a sentence otherwise."""
    if not text.strip():
        return None
    _no_thousands(text)
    found = re.fullmatch(rf"\s*({_number()})\s*(?:kN)?\s*", text)
    if not found:
        raise ValueError(_("Type the force in kN, tension positive (like 12.5 or -40), or nothing to give it later."))
    n = round(read_number(found[1]) * 1e3, 6) + 0.0
    if not math.isfinite(n):
        raise ValueError(_("That is no force."))
    return n


# ------------------------------------------------------------- a member in words


def capacity_words(r: MemberResults, k: int) -> tuple[str, str]:
    """Member k's capacities in words: (tension, compression), "no limit" where it has
    none, "none (a cable)" for a cable's compression."""
    cap_t, cap_c = float(r.cap_t[k]), float(r.cap_c[k])
    t = num(cap_t / 1e3, "kN", sign=False) if math.isfinite(cap_t) else _("no limit")
    if r.compression_by[k] == CABLE:
        return t, _("none (a cable)")
    return t, num(cap_c / 1e3, "kN", sign=False) if math.isfinite(cap_c) else _("no limit")


def capacity_lines(r: MemberResults, k: int) -> list[str]:
    """Member k's capacities (yield in tension, the lesser of yield and Euler's π²EI/L²
    in compression) and how much of it its force uses now; nothing where it has no
    limit."""
    if not (math.isfinite(r.cap_t[k]) or (math.isfinite(r.cap_c[k]) and r.compression_by[k] != CABLE)):
        return []
    t, c = capacity_words(r, k)
    lines = [_("carries {tension} in tension, {compression} in compression").format(tension=t, compression=c)]
    n = float(r.axial[k])
    cap = r.capacity(k, n)
    if n and math.isfinite(cap) and cap > 0:
        lines.append(_("uses {share} of it now").format(share=percent(abs(n) / cap)))
    return lines


def broke_words(r: MemberResults, k: int) -> str:
    """When and why member k broke, in short ("" when it did not): its capacities, and
    which limit buckling sets."""
    when = float(r.break_time[k])
    if math.isnan(when):
        return ""
    t, c = (num(float(cap) / 1e3, "kN", sign=False) for cap in (r.cap_t[k], r.cap_c[k]))
    if r.compression_by[k] != BUCKLING:
        return _("broke at t = {time} s: its force passed what it can carry ({tension} in tension, {compression} in compression)").format(
            time=fixed(when, 2), tension=t, compression=c
        )
    return _("broke at t = {time} s: it yields at {tension} in tension and buckles at {compression} (π²EI/L²) in compression").format(
        time=fixed(when, 2), tension=t, compression=c
    )


def broke_notice(r: MemberResults, k: int, static: MemberResults | None, *, hand: float | None = None, nails: bool = False) -> str:
    """The notice when member k breaks in a run: when, and how its force in the static
    answer (`static`, None: none) compares with what it can carry (the shock of a sudden
    load can break a member that statics says holds); hand: the hand's pull [N] if the
    player's hand was on the structure."""
    said = {"member": r.ids[k], "time": fixed(float(r.break_time[k]), 2)}
    if hand is not None:
        return _("Member {member} broke at t = {time} s: your hand pulled with {force}.").format(**said, force=kn(hand))
    if nails:
        words = _("Member {member} broke at t = {time} s (nails hold the structure where no support does)").format(**said)
    else:
        words = _("Member {member} broke at t = {time} s").format(**said)
    cap_t, cap_c = float(r.cap_t[k]), float(r.cap_c[k])
    if static is None:
        return _("{broke}: its force passed what it can carry ({tension} in tension, {compression} in compression).").format(
            broke=words, tension=kn(cap_t), compression=kn(cap_c)
        )
    n = float(static.axial[k])
    cap = cap_t if n >= 0 else cap_c
    buckles = r.compression_by[k] == BUCKLING
    how = _("in tension (its yield load)") if n >= 0 else _("in compression (its buckling load π²EI/L²)") if buckles else _("in compression (its yield load)")
    if cap <= 0 or not math.isfinite(cap):
        return f"{words}."
    share = abs(n) / cap
    if share >= 1:
        return _("{broke}: statics asks it to carry {force} {how}, {share} of the {capacity} it can. Make it stronger.").format(
            broke=words, force=kn(abs(n)), how=how, share=percent(share), capacity=kn(cap)
        )
    return _("{broke}: statics asks only {share} of the {capacity} it can carry {how}; the motion overshot that.").format(
        broke=words, share=percent(share), capacity=kn(cap), how=how
    )
