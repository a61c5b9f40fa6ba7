"""Numbers as bots print them: ASCII digits only.

A reply whose faces or totals are written in other digits (``١٤``, ``1٠0``) was not printed
by a bot: the readers leave such text unread rather than convert it.
"""

from __future__ import annotations

import re

_INT = re.compile(r"-?[0-9]+", re.ASCII)


def integer(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (an optional ``-``), else None."""
    return int(text) if _INT.fullmatch(text) is not None else None
