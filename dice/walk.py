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
from fightlog.dice.ast import (
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
from fightlog.dice.evaluate import FaceStream, Plan, keep_or_drop, roll_term
from fightlog.dice.operations import term_value as dice_value
from fightlog.dice.result import TermRoll

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

        def pool(node: SetOf, terms: tuple[DiceTerm, ...]) -> int:
            start = len(out)
            for term in terms:
                term_value(term)
            out[start:] = keep_among(node, terms, out[start:])
            return sum(r.value for r in out[start:])

        return int(fold(root, term_value, pool))

    return plan


def value_of(root: Node, values: Iterator[int]) -> int:
    """The expression's value from its dice terms' values, in order (a recorded roll)."""
    return int(fold(root, lambda term: next(values)))


def dice_pool(node: SetOf) -> tuple[DiceTerm, ...] | None:
    """The dice terms of a roll20 single-roll group (``{4d6+3d8}k4``): its keeps and drops
    choose among all the group's dice. None for any other set."""
    if node.brace != "{" or len(node.items) != 1 or not node.ops:
        return None
    terms: list[DiceTerm] = []
    todo = [node.items[0]]
    while todo:
        item = todo.pop()
        if isinstance(item, (Group, Tagged)):
            todo.append(item.inner)
        elif isinstance(item, BinaryOp) and item.op == "+":
            todo += [item.right, item.left]
        elif isinstance(item, DiceTerm) and item.target is None:
            terms.append(item)
        else:
            return None
    return tuple(terms)


def keep_among(node: SetOf, terms: tuple[DiceTerm, ...], rolls: list[TermRoll]) -> list[TermRoll]:
    """A single-roll group's keeps and drops applied across all its dice."""
    faces = [f for r in rolls for f in r.faces]
    kept = [k for r in rolls for k in (r.kept or (True,) * len(r.faces))]
    for op in node.ops:
        keep_or_drop(op.kind, op.amount, faces, kept)
    out: list[TermRoll] = []
    at = 0
    for term, r in zip(terms, rolls):
        mine = kept[at : at + len(r.faces)]
        at += len(r.faces)
        value = dice_value(term, r.faces, mine)
        out.append(TermRoll(r.faces, value, None if all(mine) else tuple(mine), r.rerolled))
    return out


def fold(
    node: Node,
    term_value: Callable[[DiceTerm], int],
    pool: Callable[[SetOf, tuple[DiceTerm, ...]], int] | None = None,
) -> Value:
    """The exact value of ``node``; ``term_value`` gives each dice term's value, in order;
    ``pool`` rolls a single-roll group (recorded rolls carry its kept dice already)."""
    if isinstance(node, DiceTerm):
        return term_value(node)
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Decimal):
        return node.value
    if isinstance(node, (Group, Tagged)):
        return fold(node.inner, term_value, pool)
    if isinstance(node, Negate):
        return -fold(node.operand, term_value, pool)
    if isinstance(node, SetOf):
        terms = dice_pool(node)
        if terms is not None:
            return pool(node, terms) if pool is not None else fold(node.items[0], term_value)
        items = [fold(item, term_value, pool) for item in node.items]
        kept = set_kept(node, items)
        return sum((v for v, k in zip(items, kept) if k), start=0)
    return _binary(node, fold(node.left, term_value, pool), fold(node.right, term_value, pool))


def set_kept(node: SetOf, items: list[Value]) -> list[bool]:
    """Which items of a set its operations keep (by the items' values)."""
    from fightlog.dice.operations import select

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
