"""A progress line for ``batch`` and ``sim`` on standard error: tasks done of all, the rate
and the time left, redrawn in place; on a terminal only (nothing on a pipe or a file)."""

from __future__ import annotations

import sys
import time
from typing import IO, Any


class Progress:
    """Call it with ``(done, total)`` after each task; ``close()`` ends the line."""

    def __init__(self, what: str, stream: IO[Any] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.shown = self.stream.isatty()
        self.what = what
        self.started = time.monotonic()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.shown:
            return
        spent = max(time.monotonic() - self.started, 1e-9)
        rate = done / spent
        left = (total - done) / rate if rate > 0 else 0.0
        width = 30
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.what} [{bar}] {done}/{total} tasks, {rate:.1f}/s, {left:.0f}s left ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
