"""Reading a log into scene states: the fold fed from a file, and the checkpoint cache."""
