"""Evaluating trees that use what the dialects add: sets, exact division, decimals, modulo
and comparisons (``docs/dice.md``, "Dialects").

fightlog's own trees are turned into closures by ``evaluate.build_plan``; a tree that is not
(``ast.is_classic``) is rolled by walking it here. Values are exact (``int`` or
``Fraction``); the expression's value is truncated toward zero at the end, as avrae's d20
does with ``int(total)``. ``fold`` is the one walk: given how to get each dice term's value
(roll it, or take a recorded one) it computes everything else, so a roll and its re-reading
from recorded faces always agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction

from fightlog.errors import DiceValueError
from fightlog.rules.dice.ast import (
    BinaryOp,
    Decimal,
    DiceTerm,
    Group,
    Negate,
    Node,
    Number,
    SetOf,
    Tagged,
)
from fightlog.rules.dice.evaluate import FaceStream, Plan, keep_or_drop, roll_term
from fightlog.rules.dice.result import TermRoll

Value = int | Fraction

_COMPARE: dict[str, Callable[[Value, Value], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def walk_plan(root: Node) -> Plan:
    """A plan that rolls ``root`` by walking it."""

    def plan(stream: FaceStream, out: list[TermRoll]) -> int:
        def term_value(term: DiceTerm) -> int:
            roll = roll_term(term, stream)
            out.append(roll)
            return roll.value

        return int(fold(root, term_value))

    return plan


def value_of(root: Node, values: Iterator[int]) -> int:
    """The expression's value from its dice terms' values, in order (a recorded roll)."""
    return int(fold(root, lambda term: next(values)))


def fold(node: Node, term_value: Callable[[DiceTerm], int]) -> Value:
    """The exact value of ``node``; ``term_value`` gives each dice term's value, in order."""
    if isinstance(node, DiceTerm):
        return term_value(node)
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Decimal):
        return node.value
    if isinstance(node, (Group, Tagged)):
        return fold(node.inner, term_value)
    if isinstance(node, Negate):
        return -fold(node.operand, term_value)
    if isinstance(node, SetOf):
        items = [fold(item, term_value) for item in node.items]
        kept = set_kept(node, items)
        return sum((v for v, k in zip(items, kept) if k), start=0)
    return _binary(node, fold(node.left, term_value), fold(node.right, term_value))


def set_kept(node: SetOf, items: list[Value]) -> list[bool]:
    """Which items of a set its operations keep (by the items' values)."""
    from fightlog.rules.dice.operations import select

    kept = [True] * len(items)
    for op in node.ops:
        if op.sels is None:
            keep_or_drop(op.kind, op.amount, items, kept)  # type: ignore[arg-type]
            continue
        chosen = set(select(op.sels, items, kept))  # type: ignore[arg-type]
        for i, k in enumerate(kept):
            if k and (i not in chosen) == (op.kind == "k"):
                kept[i] = False
    return kept


def _binary(node: BinaryOp, a: Value, b: Value) -> Value:
    op = node.op
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op in _COMPARE:
        return int(_COMPARE[op](a, b))
    if b == 0:  # refused at compile time by bounds(); kept as a guard
        raise DiceValueError(f"division by zero at column {node.column}")
    if op == "//":
        return a // b
    if op == "%":
        return a % b
    quotient = Fraction(a) / b
    return quotient.numerator if quotient.denominator == 1 else quotient
