"""Load histories read from Python: a history's value at a time, its value of largest
size, and when it ends. One rule for all of them: piecewise linear between its points,
held at its first and last values; its compiled form, `history_value` in
engine/elements/kernels.py, is what the kernels step with, and `scale` below asks it, so the
drawing, the rules and the engine can never read one history two ways.

A history h is rows hist_start[h] to hist_start[h + 1] of ModelArrays' hist_t [s] and
hist_v [-]; h = −1 means no history (a constant scale of 1).
"""

from __future__ import annotations

import numpy as np

from equilibria.engine.elements.kernels import history_value


def scale(m, h: int, t: float) -> float:
    """The scale factor of history h (−1: none, 1) at time t [s]; m: ModelArrays."""
    return 1.0 if h < 0 else float(history_value(m.hist_start, m.hist_t, m.hist_v, int(h), float(t)))


def scales(m, hs: np.ndarray, t: float) -> np.ndarray:
    """The scale factors (K,) of the histories hs (K,) at time t."""
    return np.array([scale(m, h, t) for h in np.asarray(hs).tolist()], dtype=float)


def peak(m, h: int) -> float:
    """The value of largest size history h takes (its sign kept; 1 with none)."""
    if h < 0:
        return 1.0
    values = m.hist_v[m.hist_start[h] : m.hist_start[h + 1]]
    return float(values[np.argmax(np.abs(values))])


def end(m, h: int) -> float:
    """The time [s] of history h's last point (0 with none): from then on it holds."""
    return 0.0 if h < 0 else float(m.hist_t[m.hist_start[h + 1] - 1])
