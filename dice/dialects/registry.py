"""The dialects by name, and compiling an expression in one of them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from fightlog.errors import DiceValueError
from fightlog.dice.expression import CACHE_SIZE, Expression, ModifierLike, build_expression, compile_expression
from fightlog.dice.expression import roll
from fightlog.dice.fair import INDEXES, FairGenerator
from fightlog.dice.parser import Parsed
from fightlog.dice.result import RollResult

DEFAULT = "fightlog"


@dataclass(frozen=True)
class Dialect:
    """A bot's dice notation: its name, one line on what it is, where its rules come from,
    an example, and the function that reads its text into the shared syntax tree."""

    name: str
    description: str
    source: str
    example: str
    read: Callable[[str], Parsed]


DIALECTS: dict[str, Dialect] = {}
"""Every dialect by name (``fightlog`` first); filled by ``fightlog.dice.dialects``."""


def register(dialect: Dialect) -> Dialect:
    DIALECTS[dialect.name] = dialect
    return dialect


def dialect_named(name: str) -> Dialect:
    """The dialect called ``name``; an unknown one is refused naming the known ones."""
    found = DIALECTS.get(name.replace("_", "-"))
    if found is None:
        raise DiceValueError(f"unknown dice dialect {name!r}; known: {', '.join(DIALECTS)}")
    return found


@lru_cache(maxsize=CACHE_SIZE)
def compile_in(text: str, dialect: str = DEFAULT) -> Expression:
    """Read ``text`` in ``dialect`` and compile it (cached like ``compile_expression``;
    ``fightlog`` goes through ``compile_expression`` itself). Raises a ``DiceError``."""
    found = dialect_named(dialect)
    if found.name == DEFAULT:
        return compile_expression(text)
    return build_expression(text, found.read(text), found.name)


def roll_all(
    expr: str | Expression,
    generator: FairGenerator,
    index: int,
    modifiers: Iterable[ModifierLike] = (),
    *,
    dialect: str = DEFAULT,
) -> list[RollResult]:
    """Every roll an expression asks for: ``repeat`` rolls (RPG Sage ``6#3d6``, Dice Maiden
    ``6 4d6``), engine rolls ``index``, ``index + 1``, ...; each is its own result and its own
    ``dice_rolled`` event."""
    compiled = compile_in(expr, dialect) if isinstance(expr, str) else expr
    if index + compiled.repeat > INDEXES:  # the last would not fit the generator's eight bytes
        raise DiceValueError(f"{compiled.repeat} rolls from index {index} run past the last roll index, "
                             f"{INDEXES - 1} (2**64 - 1): give a lower --index")
    mods = list(modifiers)
    return [roll(compiled, generator, index + i, mods) for i in range(compiled.repeat)]
