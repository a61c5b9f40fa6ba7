"""How deep JSON nests, for the ``MAX_DEPTH`` limit (``fightlog.events.limits``).

The reader never scans an ordinary line for depth (that would cost as much as decoding it):

* a line nested so deep that the decoder runs out of stack raises ``RecursionError``, which
  the reader reports as too deep (the 100,000-bracket line);
* a line that decodes can hold a deep value only where the event keeps free-form JSON (a
  sheet, ruleset options, a ruling's changes: the kinds in ``NESTED_KINDS``); those lines,
  rare in a log, are measured (``too_deep``). Fields of other kinds have fixed shapes, and
  fields a newer writer added are skipped, never held.
"""

from __future__ import annotations

import re
from typing import Any, Final

from fightlog.events.limits import MAX_DEPTH
from fightlog.events.model import CombatantJoined, RulingMade, SceneStarted

NESTED_KINDS: Final[frozenset[type]] = frozenset({SceneStarted, CombatantJoined, RulingMade})
"""The kinds with a field of any JSON value (``Json`` in the model): the only lines that can
decode with a value nested deeper than the limit."""

_STRING: Final = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS: Final = bytes(b for b in range(256) if b not in b"[]{}")


def too_deep(line: bytes, limit: int = MAX_DEPTH) -> bool:
    """True when the JSON of ``line`` nests deeper than ``limit`` levels (the line's own
    object is level 1). Cheap for a line with few brackets; brackets in strings do not count."""
    if line.count(b"{") + line.count(b"[") <= limit:
        return False
    depth = 0
    for byte in _STRING.sub(b"", line).translate(None, _NOT_BRACKETS):
        if byte == 0x5B or byte == 0x7B:  # [ {
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def value_depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deep a decoded JSON value nests (a scalar 0, ``[]`` 1), counted up to ``limit + 1``
    (so a value deeper than the limit costs no more than one at it)."""
    depth = 0
    level: list[Any] = [value]
    while depth <= limit:
        containers = [item for item in level if isinstance(item, (dict, list))]
        if not containers:
            break
        depth += 1
        level = [inner for c in containers for inner in (c.values() if isinstance(c, dict) else c)]
    return depth
