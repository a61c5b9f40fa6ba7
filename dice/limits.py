"""Every limit on dice expressions, and the checks that enforce them.

All limits live here so they can be read, documented and changed in one place. The checks
that can be made before rolling (length, digits, sides, dice, nesting, totals) run while the
expression is parsed, so an abusive expression is refused before a single die is drawn and
without ever converting a long digit string to an integer. The two limits that depend on the
dice themselves (explosion and reroll chains, draws per roll) are not errors: they stop the
chain, so a roll that compiled always completes and always fits in one log line.

A dice bot's own limits, stricter than these, are here too (``BotLimits``: Dice Maiden's,
avrae's d20's), each with the line of the bot's source that sets it; the dialect that reads
the bot's notation names them (``Syntax.limits``) and they hold in that dialect only. Its
sides and pool are checked as the text is read; d20's count of dice rolled depends on the
dice and, as in d20, is an error: ``expression.roll`` refuses a new roll past it.
"""

from __future__ import annotations

from dataclasses import dataclass

from fightlog.errors import DiceLimitError, DiceValueError

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


@dataclass(frozen=True, slots=True)
class BotLimits:
    """What a dice bot refuses that fightlog's limits allow, enforced in the bot's dialect:
    ``pool`` most dice in one term as written, ``min_sides``/``max_sides`` the sides a die
    may have (checked as the text is read), ``rolls`` most dice one roll may roll with every
    reroll and explosion counted (checked as it rolls, as the bot does)."""

    bot: str
    source: str
    pool: int | None = None
    min_sides: int = 1
    max_sides: int | None = None
    rolls: int | None = None


DICE_MAIDEN = BotLimits(
    "Dice Maiden",
    "Humblemonk/DiceMaiden src/dice_maiden_logic.rb, check_roll",
    pool=500,
    min_sides=2,
    max_sides=1000,
)
"""``check_roll`` refuses, per ``XdY`` of the roll: ``Y < 2`` ("Please roll a dice value 2 or
greater"), ``Y > 1000`` ("Please roll dice up to d1000"), ``X > 500`` ("Please keep the dice
pool below 500": 500 itself is rolled)."""

AVRAE = BotLimits("avrae's d20", "avrae/d20 d20/dice.py, RollContext(max_rolls=1000)", rolls=1000)
"""d20 counts every die it rolls, rerolls and explosions included (``Die._add_roll`` calls
``RollContext.count_roll``), and raises ``TooManyRolls`` when the count passes 1000."""


def check_bot_term(expr: str, bot: BotLimits, count: int, sides: int, column: int) -> None:
    """Refuse a dice term the bot refuses: sides outside ``min_sides..max_sides``, more dice
    than its ``pool``."""
    if sides < bot.min_sides:
        raise DiceValueError(
            f"{_short(expr)} : a die of {sides} side{'s' if sides != 1 else ''} at column {column}; "
            f"{bot.bot} rolls dice of {bot.min_sides} sides or more"
        )
    if bot.max_sides is not None and sides > bot.max_sides:
        raise _refuse(
            f"{_short(expr)} : a die of {sides} sides at column {column}; "
            f"{bot.bot} rolls dice of at most {bot.max_sides} sides",
            limit="sides",
            value=sides,
            maximum=bot.max_sides,
        )
    if bot.pool is not None and count > bot.pool:
        raise _refuse(
            f"{_short(expr)} : {count} dice in one pool at column {column}; "
            f"{bot.bot} rolls at most {bot.pool} dice per pool",
            limit="pool",
            value=count,
            maximum=bot.pool,
        )


def check_rolls(expr: str, rolls: int, bot: BotLimits | None) -> None:
    """Refuse a roll that rolls more dice than the bot's ``rolls`` (dice, rerolls and
    explosions, counted as the bot counts them)."""
    if bot is None or bot.rolls is None or rolls <= bot.rolls:
        return
    raise _refuse(
        f"{_short(expr)} : {rolls} dice rolled, rerolls and explosions included; "
        f"{bot.bot} rolls at most {bot.rolls} dice per roll",
        limit="rolls",
        value=rolls,
        maximum=bot.rolls,
    )


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
