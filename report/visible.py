"""Text shown as it is: the characters in a player's text that would change how the text
around them reads are shown as visible marks (``⟦U+202E⟧``), never passed on.

Two sets: a page (``report``) marks the bidirectional controls (an RTL override in a name
turns the rest of the line around), the characters of no width (``v\u200bex`` is not ``vex``) and the control characters HTML does not take as white
space (a NUL is a parse error; a bell or an escape shows as nothing, or as junk); a terminal
(every command's human output, ``fightlog.cli.terminal``) also marks the carriage return (it
can write over the line), so every control character but tab and newline (an escape
sequence in a name can recolour, move the cursor or clear the screen). JSON output is data: it is left as it is (JSON escapes the
C0 controls).
"""

from __future__ import annotations

import re
from typing import Final

from fightlog.kit.unseen import BIDI, C1, ZERO_WIDTH

_ON_A_PAGE: Final = re.compile(f"[\x00-\x08\x0b\x0e-\x1f{C1}{BIDI}{ZERO_WIDTH}]")
_ON_A_TERMINAL: Final = re.compile(f"[\x00-\x08\x0b-\x1f{C1}{BIDI}{ZERO_WIDTH}\udc80-\udcff]")
"""... and a byte that was not UTF-8 (a file name's, kept by Python as a lone surrogate)."""


def _mark(found: re.Match[str]) -> str:
    point = ord(found.group())
    if 0xDC80 <= point <= 0xDCFF:  # ``surrogateescape``: the byte the name held
        return f"\u27e6byte 0x{point - 0xDC00:02X}\u27e7"
    return f"\u27e6U+{point:04X}\u27e7"


def reveal(text: str) -> str:
    """``text`` with each bidirectional control and each control character but white
    space shown as a visible mark (for a page)."""
    return _ON_A_PAGE.sub(_mark, text)


def reveal_for_terminal(text: str) -> str:
    """``text`` with each bidirectional control and each control character but tab and
    newline shown as a visible mark (for a terminal, or a file of human output)."""
    if _ON_A_TERMINAL.search(text) is None:  # the usual text: one scan, no copy
        return text
    return _ON_A_TERMINAL.sub(_mark, text)


def one_line(text: str) -> str:
    """``reveal_for_terminal`` of what must stay one line (an error, a warning, a file name in
    a list): a newline in it (a file's name may hold one) is a mark too."""
    return reveal_for_terminal(text).replace("\n", "\u27e6U+000A\u27e7")
