"""Did you mean...: the known names closest to a misspelt one, for every refusal that names
an unknown field, option, ruleset or action.

Closeness is ``difflib``'s ratio (0.6 or more); among names equally close, those sharing the
longest start with the word come first (``acter``: ``actor`` before ``after``), and a name
equal to the word is never offered (a field unknown in one table but known in another must
not be "did you mean" itself).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable

CUTOFF = 0.6


def closest(word: str, names: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The known name closest to ``word``, or ``None`` when none is close (``cutoff``); one
    differing only in case first (``ROE7``: ``roe7``)."""
    names = sorted(set(names) - {word})
    folded = word.casefold()
    for name in names:
        if name.casefold() == folded:
            return name
    best: tuple[float, int, str] | None = None
    matcher = difflib.SequenceMatcher(b=word)
    for name in names:
        matcher.set_seq1(name)
        ratio = matcher.ratio()
        if ratio < cutoff:
            continue
        rank = (ratio, len(os.path.commonprefix([word, name])), name)
        if best is None or rank[:2] > best[:2]:
            best = rank
    return None if best is None else best[2]
