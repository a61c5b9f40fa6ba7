"""What a roll produced: every die, the value, the modifiers and the total.

Results are frozen msgspec Structs built on the hot path, so they hold compact tuples per
dice term (``TermRoll``) and build the per-die records (``fightlog.events.Die``, the same
records a ``dice_rolled`` event stores) only when asked. Rendering lives in ``render.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from msgspec import Struct

from fightlog.events.model import Die, Modifier

if TYPE_CHECKING:
    from fightlog.dice.ast import DiceTerm
    from fightlog.dice.expression import Expression

TRAVELLER_AVERAGE = 8
"""Traveller's Average difficulty: Effect is the total minus this."""


class TermRoll(Struct, frozen=True, gc=False):
    """The dice of one term, in roll order: the ``count`` dice as written, then any dice
    added by explosions (so a die is exploded iff its position is ``>= term.count``).

    ``faces`` are final faces (after rerolls, ``mi`` and ``ma``); ``kept`` is None when every
    die is kept; ``rerolled`` is None when no die was rerolled, else per die the faces it
    replaced, oldest first; ``value`` is the sum of kept faces, or the number of kept dice
    meeting the term's success target.
    """

    faces: tuple[int, ...]
    value: int
    kept: tuple[bool, ...] | None = None
    rerolled: tuple[tuple[int, ...], ...] | None = None

    def dice(self, term: DiceTerm) -> list[Die]:
        """This term's dice as event records."""
        sides, count, labels = term.sides, term.count, term.labels
        kept, rerolled = self.kept, self.rerolled
        return [
            Die(
                sides=sides,
                face=face,
                kept=True if kept is None else kept[i],
                rerolled=[] if rerolled is None else list(rerolled[i]),
                exploded=i >= count,
                label=None if labels is None or i >= len(labels) else labels[i],
            )
            for i, face in enumerate(self.faces)
        ]

    def hits(self, term: DiceTerm) -> tuple[bool, ...]:
        """Per die: kept and meeting the term's success target (all false without one)."""
        target = term.target
        kept = self.kept
        if target is None:
            return (False,) * len(self.faces)
        test = target.predicate()
        return tuple((kept is None or kept[i]) and test(f) for i, f in enumerate(self.faces))


    def misses(self, term: DiceTerm) -> tuple[bool, ...]:
        """Per die: kept and meeting the term's failure target (all false without one)."""
        failure = term.failure
        kept = self.kept
        if failure is None:
            return (False,) * len(self.faces)
        return tuple((kept is None or kept[i]) and failure.matches(f) for i, f in enumerate(self.faces))


class RollResult(Struct, frozen=True, gc=False):
    """One roll of a compiled expression.

    ``value`` is the expression's value; ``total`` is ``value`` plus every modifier.
    ``index`` is the roll number in its scene for an engine roll (None otherwise);
    ``label`` is the expression's ``# label`` (or the label a logged roll was recorded with);
    ``generator`` says where the faces came from (``engine``: the scene's seeded generator,
    ``external``: read back from a roll made elsewhere).
    """

    expression: Expression
    terms: tuple[TermRoll, ...]
    value: int
    total: int
    modifiers: tuple[Modifier, ...] = ()
    index: int | None = None
    label: str | None = None
    generator: Literal["engine", "external"] = "engine"

    @property
    def notation(self) -> str:
        return self.expression.notation

    @property
    def dice(self) -> list[Die]:
        """Every die of the roll, terms left to right, as event records."""
        out: list[Die] = []
        for term, roll in zip(self.expression.terms, self.terms):
            out.extend(roll.dice(term))
        return out

    def kept_faces(self) -> list[int]:
        """The faces of every kept die, terms left to right."""
        out: list[int] = []
        for roll in self.terms:
            kept = roll.kept
            out.extend(f for i, f in enumerate(roll.faces) if kept is None or kept[i])
        return out

    @property
    def ones(self) -> int:
        """Kept dice showing 1 (bleeding-sun counts these for glitches and stray shots)."""
        return self.kept_faces().count(1)

    @property
    def max_faces(self) -> int:
        """Kept dice showing their highest face (bleeding-sun's 6s, RoE's natural 100)."""
        count = 0
        for term, roll in zip(self.expression.terms, self.terms):
            kept = roll.kept
            sides = term.sides
            count += sum(
                1 for i, f in enumerate(roll.faces) if f == sides and (kept is None or kept[i])
            )
        return count

    @property
    def successes(self) -> int:
        """Kept dice meeting their term's success target (``5d6>=5``), over all terms."""
        return sum(
            sum(roll.hits(term)) if term.failure is not None else roll.value
            for term, roll in zip(self.expression.terms, self.terms)
            if term.target
        )

    @property
    def failures(self) -> int:
        """Kept dice meeting their term's failure target (World of Darkness ``t7f1``, roll20
        ``>7f1``): each takes one success off the term's value."""
        return sum(
            sum(roll.misses(term))
            for term, roll in zip(self.expression.terms, self.terms)
            if term.failure is not None
        )

    @property
    def passed(self) -> bool | None:
        """Pass or fail of the total against the expression's test (RPG Sage's
        ``1d20+5 >= 15``); None when it has none."""
        test = self.expression.test
        return None if test is None else test.matches(self.total)

    @property
    def effect(self) -> int:
        """Traveller's Effect: the total minus 8 (Average difficulty). For another
        difficulty subtract it from ``total`` directly."""
        return self.total - TRAVELLER_AVERAGE

    def die(self, label: str) -> Die:
        """The die labelled ``label`` (en5.1: ``die("black")``, ``die("white")``)."""
        for d in self.dice:
            if d.label == label:
                return d
        raise KeyError(label)
