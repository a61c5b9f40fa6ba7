"""The characters a reader does not see but that change how text reads, as regular
expression classes: one list for the report and the terminal (``fightlog.report.visible``,
which shows them as marks) and for a suggested cast file (``fightlog.importing.suggest``,
which writes them as escapes)."""

from __future__ import annotations

import re
from typing import Final

BIDI: Final = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""Bidirectional controls (a class's contents): they can reorder the text around them."""

ZERO_WIDTH: Final = "\u180e\u200b\u2060\ufeff"
"""Characters of no width (a class's contents) that join nothing: ``v\u200bex`` reads as ``vex``
and is not. (The zero-width joiners, U+200C and U+200D, are left: emoji and scripts need them.)"""

C1: Final = "\x7f-\x9f"
"""DEL and the C1 controls (a class's contents), which JSON leaves as they are."""


_UNSEEN: Final = re.compile(f"[\\s\x00-\x1f{C1}{BIDI}{ZERO_WIDTH}\u200c\u200d]+")


def says_nothing(text: str) -> bool:
    """Whether ``text`` shows nothing: white space, controls and characters of no width only
    (a reason written ``$'\\u202e'`` is as blank as one written ``' '``)."""
    return not _UNSEEN.sub("", text)
