"""The tutor: the textbook method worked on a structure, step by step."""
