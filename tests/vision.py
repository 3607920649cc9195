"""How a colour looks to an eye without one kind of cone, and how far apart two colours
look: for tests/test_colours.py, which holds the palette (game/app/draw/palette.py) to
what it promises. numpy only; every formula from its source.

- sRGB to linear RGB and back, and linear RGB to CIE XYZ (D65): IEC 61966-2-1:1999 (the
  sRGB standard), the matrix as W3C's "CSS Color 4" writes it.
- Dichromacy: Machado, Oliveira & Fernandes, "A Physiologically-based Model for
  Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009, the matrices of its
  table for severity 1.0 (protanopia, deuteranopia, tritanopia), applied to linear RGB
  and clipped to the display's gamut.
- CIELAB: CIE 15:2004, D65 white.
- ΔE00: Sharma, Wu & Dalal, "The CIEDE2000 Color-Difference Formula: Implementation
  Notes, Supplementary Test Data, and Mathematical Observations", Color Research and
  Application 30(1), 2005, eqs. (1)–(22) with kL = kC = kH = 1 (their Table 1 gives
  the test pairs tests/test_colours.py checks this against).
- Contrast: WCAG 2.1, "relative luminance" and "contrast ratio" (success criterion
  1.4.11 asks 3:1 of graphics against what is beside them).
"""

from __future__ import annotations

import numpy as np

MACHADO = {  # severity 1.0, rows produce linear R, G, B from linear R, G, B
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]),
}
EYES = ("normal", *MACHADO)
RGB_TO_XYZ = np.array([[0.41239080, 0.35758434, 0.18048079], [0.21263901, 0.71516868, 0.07219232], [0.01933082, 0.11919478, 0.95053215]])
WHITE = RGB_TO_XYZ @ np.ones(3)  # D65, Y = 1


def linear(rgb) -> np.ndarray:
    """sRGB 0–255 → linear 0–1 (the standard's piecewise curve)."""
    c = np.asarray(rgb, dtype=float)[..., :3] / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def encoded(lin) -> np.ndarray:
    """Linear 0–1 → sRGB 0–255 (unrounded), clipped to the gamut first."""
    c = np.clip(np.asarray(lin, dtype=float), 0.0, 1.0)
    return 255.0 * np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1 / 2.4) - 0.055)


def seen(rgb, eye: str) -> np.ndarray:
    """The sRGB colour (0–255) that shows a dichromat's view of `rgb` to a normal eye."""
    if eye == "normal":
        return np.asarray(rgb, dtype=float)[..., :3]
    return encoded(linear(rgb) @ MACHADO[eye].T)


def lab(rgb) -> np.ndarray:
    """sRGB 0–255 → CIELAB (L*, a*, b*) under D65."""
    t = (linear(rgb) @ RGB_TO_XYZ.T) / WHITE
    d = 6 / 29
    f = np.where(t > d**3, np.cbrt(t), t / (3 * d * d) + 4 / 29)
    return np.stack((116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])), axis=-1)


def ciede2000(lab1, lab2) -> np.ndarray:
    """ΔE00 between CIELAB colours (…, 3), Sharma, Wu & Dalal eqs. (1)–(22)."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, dtype=float), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, dtype=float), -1, 0)
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)  # (2)
    Cbar7 = ((C1 + C2) / 2) ** 7  # (3)
    G = 0.5 * (1 - np.sqrt(Cbar7 / (Cbar7 + 25.0**7)))  # (4)
    a1p, a2p = (1 + G) * a1, (1 + G) * a2  # (5)
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)  # (6)
    h1p = np.where((a1p == 0) & (b1 == 0), 0.0, np.degrees(np.arctan2(b1, a1p)) % 360)  # (7)
    h2p = np.where((a2p == 0) & (b2 == 0), 0.0, np.degrees(np.arctan2(b2, a2p)) % 360)
    dLp = L2 - L1  # (8)
    dCp = C2p - C1p  # (9)
    dh = h2p - h1p  # (10)
    dh = np.where(C1p * C2p == 0, 0.0, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh)))
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh / 2))  # (11)
    Lbp = (L1 + L2) / 2  # (12)
    Cbp = (C1p + C2p) / 2  # (13)
    hsum = h1p + h2p  # (14)
    hbp = np.where(C1p * C2p == 0, hsum, np.where(np.abs(h1p - h2p) <= 180, hsum / 2, np.where(hsum < 360, (hsum + 360) / 2, (hsum - 360) / 2)))
    T = (
        1
        - 0.17 * np.cos(np.radians(hbp - 30))
        + 0.24 * np.cos(np.radians(2 * hbp))
        + 0.32 * np.cos(np.radians(3 * hbp + 6))
        - 0.20 * np.cos(np.radians(4 * hbp - 63))
    )  # (15)
    dtheta = 30 * np.exp(-(((hbp - 275) / 25) ** 2))  # (16)
    Cbp7 = Cbp**7
    RC = 2 * np.sqrt(Cbp7 / (Cbp7 + 25.0**7))  # (17)
    SL = 1 + 0.015 * (Lbp - 50) ** 2 / np.sqrt(20 + (Lbp - 50) ** 2)  # (18)
    SC = 1 + 0.045 * Cbp  # (19)
    SH = 1 + 0.015 * Cbp * T  # (20)
    RT = -np.sin(np.radians(2 * dtheta)) * RC  # (21)
    return np.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH))  # (22)


def distance(c1, c2, eye: str = "normal") -> float:
    """ΔE00 between two sRGB colours as `eye` sees them."""
    return float(ciede2000(lab(seen(c1, eye)), lab(seen(c2, eye))))


def luminance(rgb) -> float:
    """WCAG relative luminance of an sRGB colour (0–255)."""
    return float(linear(rgb) @ np.array([0.2126, 0.7152, 0.0722]))


def contrast(c1, c2) -> float:
    """WCAG contrast ratio (L1 + 0.05) / (L2 + 0.05), the lighter over the darker."""
    a, b = sorted((luminance(c1), luminance(c2)))
    return (b + 0.05) / (a + 0.05)
