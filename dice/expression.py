"""Compiled dice expressions: parse once, roll many.

``compile_expression`` parses, checks (limits, keep counts, division by zero) and builds the
roll plan, and caches the result in an LRU keyed by the exact expression string. A compiled
``Expression`` is immutable and can be rolled any number of times against any face stream.
"""

from __future__ import annotations

import copy

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from fightlog.errors import DiceSyntaxError, DiceValueError
from fightlog.events.model import Modifier
from fightlog.dice import limits
from fightlog.dice.ast import DiceTerm, Node, Selector, is_classic
from fightlog.dice.bounds import bounds
from fightlog.dice.evaluate import FaceStream, Plan, build_plan
from fightlog.dice.fair import FairGenerator
from fightlog.dice.fastpath import FastPlan, build_fast_plan
from fightlog.dice.limits import BotLimits
from fightlog.dice.parser import Parsed, parse
from fightlog.dice.result import RollResult, TermRoll

CACHE_SIZE = 1024
"""Compiled expressions kept by ``compile_expression`` (least recently used are evicted)."""

ModifierLike = tuple[int, str] | Modifier
"""A modifier passed to a roll: ``(value, source)`` or a ``Modifier``."""


@dataclass(frozen=True, slots=True, eq=False)
class Expression:
    """A checked dice expression ready to roll.

    ``text`` is the expression as given; ``notation`` the part before any ``# label``,
    stripped; ``terms`` its dice terms left to right; ``low``/``high`` the range of its value
    (see ``bounds.py``); ``dice`` the number of dice as written. ``plan`` rolls it from any
    face stream; ``fast``, for common shapes, rolls it from the first block of an engine roll
    (``fastpath.py``).
    """

    text: str
    notation: str
    label: str | None
    root: Node
    terms: tuple[DiceTerm, ...]
    low: int
    high: int
    plan: Plan
    fast: FastPlan | None
    dialect: str = "fightlog"
    repeat: int = 1
    test: Selector | None = None
    ambiguous: DiceSyntaxError | None = None
    """Raised by ``roll`` (a new roll); recorded rolls of it still verify."""
    limits: BotLimits | None = None
    """The bot's own limits (its dialect's): ``roll`` refuses a new roll past its ``rolls``."""

    @property
    def dice(self) -> int:
        return sum(t.count for t in self.terms)

    def bounds(self) -> tuple[int, int]:
        """``(lowest, highest)`` value (exact without explosions; see ``bounds.py``)."""
        return self.low, self.high

    def roll(
        self,
        stream: FaceStream,
        modifiers: Iterable[ModifierLike] = (),
        *,
        index: int | None = None,
    ) -> RollResult:
        """Roll once, drawing faces from ``stream``; ``modifiers`` are added to the total.

        ``index`` is recorded on the result (the roll number, for engine rolls).
        """
        terms: list[TermRoll] = []
        value = self.plan(stream, terms)
        if modifiers:
            mods = as_modifiers(modifiers)
            total = value + sum(m.value for m in mods)
            return RollResult(self, tuple(terms), value, total, mods, index, self.label)
        return RollResult(self, tuple(terms), value, value, (), index, self.label)


def roll(
    expr: str | Expression,
    generator: FairGenerator,
    index: int,
    modifiers: Iterable[ModifierLike] = (),
    *,
    dialect: str = "fightlog",
) -> RollResult:
    """Roll ``expr`` as engine roll number ``index`` of the generator's scene; a string is
    read in ``dialect`` (``fightlog.dice.dialects``). One roll, even when the
    expression asks for repeats (``dialects.roll_all`` makes them all)."""
    if isinstance(expr, str):
        if dialect == "fightlog":
            compiled = compile_expression(expr)
        else:
            from fightlog.dice.dialects import compile_in

            compiled = compile_in(expr, dialect)
    else:
        compiled = expr
    if compiled.ambiguous is not None:
        raise copy.copy(compiled.ambiguous).with_traceback(None)  # a fresh one each roll
    fast = compiled.fast
    if fast is not None and index >= 0:
        if modifiers:
            mods = as_modifiers(modifiers)
            done = fast(compiled, generator, index, mods, sum(m.value for m in mods))
        else:
            done = fast(compiled, generator, index, (), 0)
        if done is not None:
            return done  # each die drawn once: no more than the dice as written, checked when read
    stream = generator.stream(index)
    result = compiled.roll(stream, modifiers, index=index)
    if compiled.limits is not None:  # the bot's count of dice rolled (avrae's d20: 1000)
        limits.check_rolls(compiled.text, stream.drawn, compiled.limits)
    return result


def as_modifiers(modifiers: Iterable[ModifierLike]) -> tuple[Modifier, ...]:
    """Check and convert modifiers: integers (never bool or float) with a non-empty source."""
    out: list[Modifier] = []
    for item in modifiers:
        if isinstance(item, Modifier):
            value, source = item.value, item.source
        else:
            value, source = item
        if type(value) is not int:
            raise DiceValueError(f"modifier {value!r} ({source}) is not an integer")
        if not isinstance(source, str) or not source.strip():
            raise DiceValueError(f"modifier {value} has no source")
        limits.check_modifier(value, source)
        out.append(item if isinstance(item, Modifier) else Modifier(value=value, source=source))
    return tuple(out)


@lru_cache(maxsize=CACHE_SIZE)
def compile_expression(text: str) -> Expression:
    """Parse and check ``text`` (cached). Raises ``DiceSyntaxError``, ``DiceLimitError`` or
    ``DiceValueError``; never rolls."""
    return build_expression(text, parse(text))


def build_expression(text: str, parsed: Parsed, dialect: str = "fightlog") -> Expression:
    """Check a parsed tree (bounds, division by zero, the total limit) and build its plan:
    the one place every dialect's expression goes through."""
    low, high = bounds(parsed.root, text)
    limits.check_total(text, low, high)
    if parsed.repeat > 1:
        limits.check_repeats(text, sum(t.count for t in parsed.terms), parsed.repeat)
    classic = is_classic(parsed.root)
    return Expression(
        text=text,
        notation=parsed.notation,
        label=parsed.label,
        root=parsed.root,
        terms=parsed.terms,
        low=low,
        high=high,
        plan=build_plan(parsed.root),
        fast=build_fast_plan(parsed.root, parsed.terms) if classic else None,
        dialect=dialect,
        repeat=parsed.repeat,
        test=parsed.test,
        ambiguous=parsed.ambiguous,
        limits=parsed.limits,
    )
