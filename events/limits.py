"""The limits every log line keeps, in one place: the reader refuses a line past them and the
writer never writes one (constants only)."""

from __future__ import annotations

from typing import Final

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line a log may hold (1 MiB). Longer lines are refused, not read whole."""

MAX_DEPTH: Final = 64
"""The deepest a log line's JSON may nest: the line's object is level 1, a sheet in it level
2, and so on. A deeper line is refused (a value nested 100,000 deep would otherwise exhaust the
decoder's stack); ``--set`` values are held to it too."""
