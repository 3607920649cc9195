"""Everything a player touches: levels, rules, the app (pygame-ce) and the CLI."""
