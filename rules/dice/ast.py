"""The syntax tree of a dice expression: what the parser builds and everything else reads.

Nodes are frozen and carry the 1-based column where they start, so later checks (division by
zero, keep counts) can point at the source. ``DiceTerm`` is the only node that rolls; it keeps
the slice of the source it came from (``text``) so renderings show the notation as typed.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias, Union

Comparison: TypeAlias = Literal["=", "<", "<=", ">", ">="]

_TESTS: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


@dataclass(frozen=True, slots=True)
class Selector:
    """Which faces an operation or a success count applies to: ``face <cmp> value``."""

    cmp: Comparison
    value: int

    def matches(self, face: int) -> bool:
        return _TESTS[self.cmp](face, self.value)

    def predicate(self) -> Callable[[int], bool]:
        """A fast one-argument test, built from the bound comparison of ``value``."""
        value = self.value
        reflected: dict[str, Callable[[int], bool]] = {
            "=": value.__eq__,
            "<": value.__gt__,  # face < v  <=>  v > face
            "<=": value.__ge__,
            ">": value.__lt__,
            ">=": value.__le__,
        }
        return reflected[self.cmp]

    def count_in(self, low: int, high: int) -> int:
        """How many faces in ``low..high`` match."""
        v = self.value
        if self.cmp == "=":
            lo, hi = v, v
        elif self.cmp == "<":
            lo, hi = low, v - 1
        elif self.cmp == "<=":
            lo, hi = low, v
        elif self.cmp == ">":
            lo, hi = v + 1, high
        else:
            lo, hi = v, high
        return max(0, min(hi, high) - max(lo, low) + 1)

    def __str__(self) -> str:
        return f"{self.cmp}{self.value}"


OpKind: TypeAlias = Literal["kh", "kl", "dh", "dl", "ro", "rr", "!", "mi", "ma"]


@dataclass(frozen=True, slots=True)
class Op:
    """One dice operation, applied in written order.

    ``kh``/``kl``/``dh``/``dl``: ``amount`` dice kept or dropped. ``ro``/``rr``/``!``:
    ``selector`` says which faces reroll or explode. ``mi``/``ma``: ``amount`` is the bound.
    """

    kind: OpKind
    column: int
    amount: int = 0
    selector: Selector | None = None


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, then ``ops`` in order, then an optional success
    ``target`` (the term's value is then the number of kept dice meeting it).

    ``labels`` names the dice one by one (en5.1's ``BW`` pair); ``index`` is the term's
    position among the expression's dice terms, left to right.
    """

    count: int
    sides: int
    ops: tuple[Op, ...]
    target: Selector | None
    labels: tuple[str, ...] | None
    text: str
    column: int
    index: int

    @property
    def explodes(self) -> bool:
        return any(op.kind == "!" for op in self.ops)


@dataclass(frozen=True, slots=True)
class Number:
    value: int
    column: int


@dataclass(frozen=True, slots=True)
class Negate:
    operand: Node
    column: int


BinaryKind: TypeAlias = Literal["+", "-", "*", "//"]


@dataclass(frozen=True, slots=True)
class BinaryOp:
    op: BinaryKind
    left: Node
    right: Node
    column: int


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses as typed (kept so renderings match the notation)."""

    inner: Node
    column: int


Node: TypeAlias = Union[DiceTerm, Number, Negate, BinaryOp, Group]


def dice_terms(node: Node) -> list[DiceTerm]:
    """The dice terms of a tree, left to right (the order they roll in)."""
    if isinstance(node, DiceTerm):
        return [node]
    if isinstance(node, Number):
        return []
    if isinstance(node, BinaryOp):
        return dice_terms(node.left) + dice_terms(node.right)
    if isinstance(node, Negate):
        return dice_terms(node.operand)
    return dice_terms(node.inner)
