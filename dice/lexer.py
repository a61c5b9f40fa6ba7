"""Dice notation -> tokens, each with its 1-based column.

The lexer is where raw text is policed: the length limit is checked before anything else,
only ASCII digits make numbers (``str.isdigit`` also accepts Arabic-Indic or fullwidth
digits, which are refused by name), a digit run longer than the limit is refused before
``int()`` sees it, and unprintable characters (controls, zero-width and bidi marks) are
refused everywhere, label included, so a rendered roll is always one honest line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from fightlog.errors import DiceSyntaxError
from fightlog.dice import hints, limits

TokenKind: TypeAlias = Literal[
    "num", "die", "pct", "op", "bang", "cmp", "+", "-", "*", "//", "(", ")", "bw", "label", "end"
]


@dataclass(frozen=True, slots=True)
class Token:
    kind: TokenKind
    text: str
    column: int
    value: int = 0


_OPS = {"kh", "kl", "dh", "dl", "ro", "rr", "mi", "ma"}
_SINGLE: dict[str, TokenKind] = {"+": "+", "-": "-", "*": "*", "(": "(", ")": ")", "%": "pct"}
_ASCII_DIGITS = "0123456789"


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens ending with one ``end`` token. Raises ``DiceSyntaxError``
    or ``DiceLimitError``."""
    check_text(text)
    tokens: list[Token] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        col = i + 1
        if ch == " " or ch == "\t":
            i += 1
            continue
        if ch in _ASCII_DIGITS:
            j = i + 1
            while j < n and text[j] in _ASCII_DIGITS:
                j += 1
            limits.check_digits(text, j - i, col)
            tokens.append(Token("num", text[i:j], col, int(text[i:j])))
            i = j
            continue
        if ch.isdigit() or ch.isdecimal() or ch.isnumeric():
            raise DiceSyntaxError(
                f"non-ASCII digit {ch!r} (use 0-9)", expr=text, column=col, expected="number"
            )
        if ch == "#":
            if i and text[i - 1] in _ASCII_DIGITS and text[:i].strip(" \t").isdigit():
                raise hints.repeat_or_comment(text, col)
            tokens.append(Token("label", text[i + 1 :].strip(" \t"), col))
            break
        token = _symbol(text, i)
        tokens.append(token)
        i += len(token.text)
    tokens.append(Token("end", "", n + 1))
    return tokens


def _symbol(text: str, i: int) -> Token:
    """The operator, die, comparison or bracket at ``text[i]`` (its ``text`` is what it
    spans); ``DiceSyntaxError`` for anything else."""
    ch = text[i]
    col = i + 1
    pair = text[i : i + 2]
    if pair in _OPS:
        return Token("op", pair, col)
    if ch in "dD":
        return Token("die", ch, col)
    if pair in ("BW", "bw"):
        return Token("bw", pair, col)
    if pair in ("<=", ">="):
        return Token("cmp", pair, col)
    if ch in "<>=":
        return Token("cmp", ch, col)
    if pair == "!!":
        raise DiceSyntaxError(
            "compounding explosions (!!) are roll20's: --dialect roll20 (fightlog's ! adds "
            "a die for each explosion)", expr=text, column=col
        )
    if ch == "!":
        return Token("bang", ch, col)
    if pair == "//":
        return Token("//", pair, col)
    if ch == "/":
        raise DiceSyntaxError(
            f"use // for division (it rounds down): {text[:i].rstrip()} //{text[i + 1 :].lstrip()} "
            "(avrae and roll20 divide exactly: --dialect avrae)",
            expr=text, column=col, expected="//",
        )
    if ch in _SINGLE:
        return Token(_SINGLE[ch], ch, col)
    raise hints.unexpected(text, i)


def check_text(text: str) -> None:
    """The checks every dialect's reader makes first: the length limit, then no unprintable
    character anywhere."""
    limits.check_length(text)
    for i, ch in enumerate(text):
        if not ch.isprintable() and ch != "\t":
            raise DiceSyntaxError(
                f"unprintable character U+{ord(ch):04X}", expr=_visible(text), column=i + 1
            )


def _visible(text: str) -> str:
    """``text`` with unprintable characters escaped, so an error message stays one line."""
    return "".join(c if c.isprintable() or c == "\t" else f"\\u{ord(c):04x}" for c in text)
