"""Where the project lives on the web: its home, its manual and where to report a bug.
One home for the addresses the metadata (pyproject.toml's [project.urls]; a test keeps
the two in step), `--help` and the crash message give."""

from __future__ import annotations

HOME = "https://github.com/equilibria-game/equilibria"
DOCUMENTATION = f"{HOME}/tree/main/docs"
ISSUES = f"{HOME}/issues"
