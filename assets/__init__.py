"""Fonts, icons and sounds, installed as `game.assets` (pyproject.toml maps the folder)."""
