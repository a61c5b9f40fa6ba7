"""The limits every log line keeps, in one place: the reader refuses a line past them and the
writer never writes one (constants only)."""

from __future__ import annotations

from typing import Final

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line a log may hold (1 MiB). Longer lines are refused, not read whole."""

INT_LIMIT: Final = 2**63
"""Numbers in a log are JSON integers within 64 bits: signed (``-INT_LIMIT`` up to, not
including, ``INT_LIMIT``), or unsigned below ``2 * INT_LIMIT`` (a roll's ``index``). Other
readers of the log (a bot in JavaScript, a database column) hold no more; ``--do`` params
and ``--set`` values are held to it."""

MAX_DEPTH: Final = 64
"""The deepest a log line's JSON may nest: the line's object is level 1, a sheet in it level
2, and so on. A deeper line is refused (a value nested 100,000 deep would otherwise exhaust the
decoder's stack); ``--set`` values are held to it too."""
