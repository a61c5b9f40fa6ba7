"""The reader's limits, shared by the reader and the writer (which never writes a line the
reader would refuse)."""

MAX_LINE_BYTES = 1 << 20
"""The longest line a log may hold (1 MiB), without its terminator. Longer lines are refused,
not read whole."""

MAX_DEPTH = 64
"""The deepest a line may nest JSON arrays and objects, the event's own object counting 1."""
