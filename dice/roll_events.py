"""Rolls <-> ``dice_rolled`` events.

``dice_rolled`` turns a result into the event the log stores; ``read_roll`` turns an event
back into a ``RollResult`` (the notation recompiled, the recorded dice regrouped by term, the
value recomputed from the recorded kept faces) so checks and renderings work the same way on a
roll just made and on one read from a log.
"""

from __future__ import annotations

from fightlog.errors import DiceValueError
from fightlog.events.model import DiceRolled, Die
from fightlog.dice.ast import DiceTerm
from fightlog.dice.expression import Expression, compile_expression
from fightlog.dice.operations import term_value
from fightlog.dice.result import RollResult, TermRoll
from fightlog.dice.walk import value_of


def dice_rolled(
    result: RollResult,
    *,
    roller: str,
    purpose: str = "other",
    for_seq: int | None = None,
    label: str | None = None,
) -> DiceRolled:
    """The ``dice_rolled`` event for an engine roll (``seq``/``prev`` are left for the store).

    ``label`` defaults to the expression's ``# label``.
    """
    if result.index is None:
        raise DiceValueError("an engine roll needs its roll index")
    return DiceRolled(
        roller=roller,
        purpose=purpose,
        notation=result.notation,
        dice=result.dice,
        modifiers=list(result.modifiers),
        total=result.total,
        generator="engine",
        index=result.index,
        for_seq=for_seq,
        label=label if label is not None else result.label,
        dialect=None if result.expression.dialect == "fightlog" else result.expression.dialect,
    )


def read_roll(event: DiceRolled, expression: Expression | None = None) -> RollResult:
    """Rebuild a result from a recorded roll, trusting its dice but not its total.

    ``expression`` is the notation already compiled (an external roll's, under its dialect).

    Dice are matched to the notation's terms in order: each term takes its ``count`` dice of
    its ``sides``, then the exploded dice that follow (only if the term explodes). Raises
    ``DiceError`` when the notation does not compile or the dice do not fit it; the returned
    ``total`` is recomputed (value plus modifiers), so comparing it with ``event.total`` checks
    the arithmetic.
    """
    expr = compile_expression(event.notation) if expression is None else expression
    groups = group_dice(expr, event.dice, event.notation)
    rolls = [_term_roll(term, group) for term, group in zip(expr.terms, groups)]
    value = value_of(expr.root, iter(r.value for r in rolls))
    total = value + sum(m.value for m in event.modifiers)
    return RollResult(
        expr,
        tuple(rolls),
        value,
        total,
        tuple(event.modifiers),
        event.index,
        event.label,
        event.generator,
    )


def group_dice(expr: Expression, dice: list[Die], notation: str) -> list[list[Die]]:
    """Recorded dice cut per dice term: each term takes its ``count`` dice of its ``sides``,
    then the exploded dice that follow (only if the term explodes). Raises
    ``DiceValueError`` naming the first die that does not fit."""
    pos = 0
    groups: list[list[Die]] = []
    for term in expr.terms:
        group = dice[pos : pos + term.count]
        if len(group) < term.count:
            raise DiceValueError(
                f"{notation} : {term.text} needs {term.count} {'die' if term.count == 1 else 'dice'}, "
                f"{len(dice) - pos} recorded"
            )
        for offset, d in enumerate(group):
            if d.sides != term.sides or d.exploded:
                what = "an exploded die" if d.exploded else f"a d{d.sides}"
                raise DiceValueError(
                    f"{notation} : die {pos + offset + 1} is {what}, "
                    f"{term.text} rolls d{term.sides}"
                )
        end = pos + term.count
        if term.explodes:
            while end < len(dice) and dice[end].exploded and dice[end].sides == term.sides:
                end += 1
        groups.append(dice[pos:end])
        pos = end
    if pos != len(dice):
        raise DiceValueError(
            f"{notation} : {len(dice) - pos} recorded dice beyond what the notation rolls"
        )
    return groups


def _term_roll(term: DiceTerm, dice: list[Die]) -> TermRoll:
    faces = tuple(d.face for d in dice)
    kept = tuple(d.kept for d in dice)
    value = term_value(term, faces, kept)
    rerolled = tuple(tuple(d.rerolled) for d in dice)
    return TermRoll(
        faces,
        value,
        None if all(kept) else kept,
        rerolled if any(rerolled) else None,
    )
