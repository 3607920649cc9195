"""The shipped course: level files, course.json, level.schema.json and solutions/.

Data, not code: this file only makes the folder a package, installed as `game.levels`
(pyproject.toml maps it), so that `importlib.resources` finds the levels wherever the
game is installed (game/course/syllabus.py)."""
