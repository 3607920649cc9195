"""The player's work on a level: a go at it with its checks and marks (attempt) and the
edits of a play scene with undo and redo (workbench). No pygame."""
