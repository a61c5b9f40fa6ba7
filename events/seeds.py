"""A scene seed as people write it: an integer or 64 hex digits, one meaning everywhere.

``--seed`` (run, play start, roll, audit, dispute, verify), a scenario's ``seed`` key and the
pytest plugin's ``fight(..., seed=)`` all go through ``seed_hex``:

* an integer ``n`` with ``0 <= n < 2**256`` is the 32 bytes of ``n``, big-endian
  (``7`` is 31 zero bytes and then ``07``); on the command line, and in text, an integer is
  written in decimal digits, fewer than 64 of them;
* 64 hex digits (either case) are the 32 bytes they spell, as ``scene_started`` commits to.

A string of exactly 64 digits is read as hex: write an integer that long in hex. Kept light
(no dice engine): ``verify`` imports it.
"""

from __future__ import annotations

from typing import Final

from fightlog.errors import DiceSeedError

SEED_BYTES: Final = 32
"""Bytes of a scene seed (``fightlog.dice.SEED_BYTES``; a test holds them equal)."""

HEX_DIGITS: Final = 2 * SEED_BYTES

DEFAULT_SCENE: Final = "scene"
"""The scene id when none is given (a scenario without a ``scene`` key, ``play start``
without ``--scene``). The scene id feeds the dice, so it never comes from a file's path: a
renamed or copied scenario or log plays the same fight from the same seed."""

ACCEPTED: Final = f"an integer (0 to 2**{8 * SEED_BYTES}-1) or {HEX_DIGITS} hex digits"
"""What a seed may be, as every seed error says it."""

_HEX: Final = frozenset("0123456789abcdefABCDEF")


def seed_hex(seed: object, *, what: str | None = "seed") -> str:
    """``seed`` as the 64 lower-case hex digits a scene commits to; anything else is a
    ``DiceSeedError`` saying what is accepted, prefixed with ``what`` (``--seed: ...``)
    unless ``what`` is None."""
    prefix = f"{what}: " if what else ""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise DiceSeedError(f"{prefix}expected {ACCEPTED}, got {_shown(repr(seed), quote=False)} "
                            f"({type(seed).__name__})")
    if isinstance(seed, str):
        text = seed.strip()
        if len(text) == HEX_DIGITS and set(text) <= _HEX:
            return text.lower()
        if text.isascii() and text.isdigit() and len(text) > HEX_DIGITS:
            raise DiceSeedError(f"{prefix}an integer written in decimal has at most {HEX_DIGITS - 1} digits (this "
                                f"one has {len(text)}): write it as {HEX_DIGITS} hex digits")
        if not (text.isascii() and text.isdigit() and len(text) < HEX_DIGITS):
            raise DiceSeedError(f"{prefix}expected {ACCEPTED}, got {_shown(seed)}")
        seed = int(text)
    if not 0 <= seed < 1 << (8 * SEED_BYTES):
        raise DiceSeedError(f"{prefix}expected {ACCEPTED}, got {seed}")
    return seed.to_bytes(SEED_BYTES, "big").hex()


def _shown(text: str, *, quote: bool = True) -> str:
    if len(text) > 80:
        return f"{text[:40]!r}... ({len(text)} characters)"
    return repr(text) if quote else text
