"""Every limit on dice expressions, and the checks that enforce them.

All limits live here so they can be read, documented and changed in one place. The checks
that can be made before rolling (length, digits, sides, dice, nesting, totals) run while the
expression is parsed, so an abusive expression is refused before a single die is drawn and
without ever converting a long digit string to an integer. The two limits that depend on the
dice themselves (explosion and reroll chains, draws per roll) are not errors: they stop the
chain, so a roll that compiled always completes and always fits in one log line.
"""

from __future__ import annotations

from fightlog.errors import DiceLimitError

MAX_EXPRESSION_CHARS = 256
"""Longest expression accepted, label included (characters)."""

MAX_NUMBER_DIGITS = 7
"""Longest number accepted (digits). Checked on the digit run before ``int()`` sees it."""

MAX_SIDES = 1_000_000
"""Most sides a die may have."""

MAX_DICE = 1000
"""Most dice an expression may roll, counted as written: the sum of the dice counts of its
terms (``10d6+2d8`` is 12). Dice added by explosions and faces drawn by rerolls are bounded
separately by ``MAX_CHAIN`` and ``MAX_DRAWS``."""

MAX_CHAIN = 100
"""Most rerolls of one die (``rr``) and most dice one die's explosion chain may add (``!``).
When a chain reaches it the last face stands."""

MAX_DRAWS = 10_000
"""Most faces drawn by one roll: every die, reroll and explosion. Once reached, further
rerolls and explosions do not happen (the faces stand), so a roll's event stays far below the
1 MiB line limit of the log."""

MAX_DEPTH = 32
"""Deepest nesting of parentheses and unary minus."""

MAX_TOTAL = 10**15
"""Largest magnitude an expression's value may reach (from its bounds), so totals stay exact
for JSON readers that use doubles (2**53 is about 9.007e15)."""

MAX_MODIFIER = 9_999_999
"""Largest magnitude of one modifier passed with a roll."""


def _refuse(message: str, *, limit: str, value: int, maximum: int) -> DiceLimitError:
    return DiceLimitError(message, limit=limit, value=value, maximum=maximum)


def check_length(text: str) -> None:
    """Refuse an expression longer than ``MAX_EXPRESSION_CHARS`` (checked first of all)."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise _refuse(
            f"dice expression is {len(text)} characters long; "
            f"at most {MAX_EXPRESSION_CHARS} are allowed",
            limit="characters",
            value=len(text),
            maximum=MAX_EXPRESSION_CHARS,
        )


def check_digits(expr: str, digits: int, column: int) -> None:
    """Refuse a number of more than ``MAX_NUMBER_DIGITS`` digits (``digits`` is the run length)."""
    if digits > MAX_NUMBER_DIGITS:
        raise _refuse(
            f"{_short(expr)} : a number of {digits} digits at column {column}; "
            f"numbers have at most {MAX_NUMBER_DIGITS} digits",
            limit="digits",
            value=digits,
            maximum=MAX_NUMBER_DIGITS,
        )


def check_sides(expr: str, sides: int, column: int) -> None:
    """Refuse a die with more than ``MAX_SIDES`` sides."""
    if sides > MAX_SIDES:
        raise _refuse(
            f"{expr} : a die of {sides} sides at column {column}; "
            f"dice have at most {MAX_SIDES} sides",
            limit="sides",
            value=sides,
            maximum=MAX_SIDES,
        )


def check_dice(expr: str, dice: int) -> None:
    """Refuse an expression rolling more than ``MAX_DICE`` dice (counted as written)."""
    if dice > MAX_DICE:
        raise _refuse(
            f"{expr} : {dice} dice; at most {MAX_DICE} dice per expression",
            limit="dice",
            value=dice,
            maximum=MAX_DICE,
        )


def check_repeats(expr: str, dice: int, repeat: int) -> None:
    """Refuse repeats (RPG Sage ``6#3d6``, Dice Maiden ``6 3d6``) rolling more than
    ``MAX_DICE`` dice in all."""
    if dice * repeat > MAX_DICE:
        raise _refuse(
            f"{expr} : {repeat} repeats of {dice} dice roll {dice * repeat}; at most {MAX_DICE} dice per expression",
            limit="dice",
            value=dice * repeat,
            maximum=MAX_DICE,
        )


def check_depth(expr: str, depth: int, column: int) -> None:
    """Refuse nesting (parentheses, unary minus) deeper than ``MAX_DEPTH``."""
    if depth > MAX_DEPTH:
        raise _refuse(
            f"{expr} : nesting deeper than {MAX_DEPTH} levels at column {column}",
            limit="depth",
            value=depth,
            maximum=MAX_DEPTH,
        )


def check_total(expr: str, low: int, high: int) -> None:
    """Refuse an expression whose value could exceed ``MAX_TOTAL`` in magnitude."""
    worst = max(abs(low), abs(high))
    if worst > MAX_TOTAL:
        raise _refuse(
            f"{expr} : the value could reach {'-' if abs(low) > abs(high) else ''}{worst}; "
            f"values are limited to +/-{MAX_TOTAL}",
            limit="total",
            value=worst,
            maximum=MAX_TOTAL,
        )


def check_modifier(value: int, source: str) -> None:
    """Refuse a modifier larger than ``MAX_MODIFIER`` in magnitude."""
    if abs(value) > MAX_MODIFIER:
        raise _refuse(
            f"modifier {value} ({source}) is too large; modifiers are limited to "
            f"+/-{MAX_MODIFIER}",
            limit="modifier",
            value=abs(value),
            maximum=MAX_MODIFIER,
        )


def _short(expr: str) -> str:
    """An expression cut for messages (a refused number may be long)."""
    return expr if len(expr) <= 40 else expr[:37] + "..."
