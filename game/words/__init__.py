"""Words: every text a student or teacher reads, in their language (i18n, the catalogs),
text made safe to print and draw, figures in words (figures), "did you mean" (suggest)
and where the project lives (project). The lowest room of the game: it imports only
the engine's results for a member's words, never another room of the game."""
