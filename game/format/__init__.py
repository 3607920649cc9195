"""The formats: a level file's classes, version 1 (schema), and a player's work kept apart
from its level (solution). Imports only words/, files/ and the engine's vocabulary."""
