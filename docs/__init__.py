"""The manual (these pages and the screenshots they show), installed as `game.docs`
(pyproject.toml maps the folder) so that `equilibria docs` finds it (game/files/manual.py)."""
