"""The `equilibria` command (main), argparse's words in the player's language (argtexts),
the console it prints to (console) and what `simulate` refuses (runlimits). The top
room: it may import every other, and only it starts the app (lazily)."""
