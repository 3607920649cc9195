"""Files: reading and writing the player's and the author's files, data only and
atomically (store), where the shipped levels and the manual are (shipped, manual) and
where a command may write (outputs). Imports only words/."""
