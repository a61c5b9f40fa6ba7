"""Rolls <-> ``dice_rolled`` events.

``dice_rolled`` turns a result into the event the log stores; ``read_roll`` turns an event
back into a ``RollResult`` (the notation recompiled, the recorded dice regrouped by term, the
value recomputed from the recorded kept faces) so checks and renderings work the same way on a
roll just made and on one read from a log.
"""

from __future__ import annotations

from collections.abc import Iterator

from fightlog.errors import DiceValueError
from fightlog.events.model import DiceRolled, Die
from fightlog.rules.dice.ast import BinaryOp, DiceTerm, Group, Negate, Node, Number
from fightlog.rules.dice.expression import Expression, compile_expression
from fightlog.rules.dice.result import RollResult, TermRoll


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
    dice = event.dice
    pos = 0
    rolls: list[TermRoll] = []
    for term in expr.terms:
        group = dice[pos : pos + term.count]
        if len(group) < term.count:
            raise DiceValueError(
                f"{event.notation} : {term.text} needs {term.count} {'die' if term.count == 1 else 'dice'}, "
                f"{len(dice) - pos} recorded"
            )
        for offset, d in enumerate(group):
            if d.sides != term.sides or d.exploded:
                what = "an exploded die" if d.exploded else f"a d{d.sides}"
                raise DiceValueError(
                    f"{event.notation} : die {pos + offset + 1} is {what}, "
                    f"{term.text} rolls d{term.sides}"
                )
        end = pos + term.count
        if term.explodes:
            while end < len(dice) and dice[end].exploded and dice[end].sides == term.sides:
                end += 1
        rolls.append(_term_roll(term, dice[pos:end]))
        pos = end
    if pos != len(dice):
        raise DiceValueError(
            f"{event.notation} : {len(dice) - pos} recorded dice beyond what the notation rolls"
        )
    value = _value(expr.root, iter(r.value for r in rolls))
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


def _term_roll(term: DiceTerm, dice: list[Die]) -> TermRoll:
    faces = tuple(d.face for d in dice)
    kept = tuple(d.kept for d in dice)
    if term.target is None:
        value = sum(f for f, k in zip(faces, kept) if k)
    else:
        test = term.target.predicate()
        value = sum(1 for f, k in zip(faces, kept) if k and test(f))
    rerolled = tuple(tuple(d.rerolled) for d in dice)
    return TermRoll(
        faces,
        value,
        None if all(kept) else kept,
        rerolled if any(rerolled) else None,
    )


def _value(node: Node, values: Iterator[int]) -> int:
    """Evaluate the arithmetic of a tree with its dice terms' values given in order."""
    if isinstance(node, DiceTerm):
        return next(values)
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Group):
        return _value(node.inner, values)
    if isinstance(node, Negate):
        return -_value(node.operand, values)
    assert isinstance(node, BinaryOp)
    a = _value(node.left, values)
    b = _value(node.right, values)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    if b == 0:
        raise DiceValueError(f"division by zero at column {node.column}")
    return a // b
