"""The console the command line prints to, as any computer has it.

A Windows console, or any output redirected there, may encode in cp1252 (or another
code page) where Equilibria prints Σ, →, ≤ or a student's name in any script: Python
would stop the command with UnicodeEncodeError. `tolerant_output()` makes standard
output and standard error replace what they cannot encode (a `?`) instead: the line is
printed, the command does its work.
"""

from __future__ import annotations

import contextlib
import sys


def tolerant_output() -> None:
    """Standard output and error replace the characters their encoding lacks."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)  # a test's StringIO has none, and needs none
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a closed or detached stream: nothing to print to anyway
                reconfigure(errors="replace")
