"""The syntax tree of a dice expression: what the parser builds and everything else reads.

Nodes are frozen and carry the 1-based column where they start, so later checks (division by
zero, keep counts) can point at the source. ``DiceTerm`` is the only node that rolls; it keeps
the slice of the source it came from (``text``) so renderings show the notation as typed.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
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


@dataclass(frozen=True, slots=True)
class Pick:
    """avrae/d20's ``hN``/``lN`` selector: the N highest (lowest) of the dice still kept."""

    which: Literal["h", "l"]
    count: int

    def __str__(self) -> str:
        return f"{self.which}{self.count}"


Sel: TypeAlias = Union[Selector, Pick]
"""One selector of a set-style operation (see ``Op.sels``)."""

OpKind: TypeAlias = Literal[
    "kh", "kl", "dh", "dl", "ro", "rr", "!", "mi", "ma",
    # dialect operations (docs/dice.md, "Dialects"):
    "k", "p", "ra", "!1", "!!", "!p",
]
CLASSIC_OPS = frozenset({"kh", "kl", "dh", "dl", "ro", "rr", "!", "mi", "ma"})
"""The operations of fightlog's own notation (the only ones ``fastpath`` ever sees)."""


@dataclass(frozen=True, slots=True)
class Op:
    """One dice operation, applied in written order.

    ``kh``/``kl``/``dh``/``dl``: ``amount`` dice kept or dropped. ``ro``/``rr``/``!``:
    ``selector`` says which faces reroll or explode. ``mi``/``ma``: ``amount`` is the bound.

    Dialects add: ``sels`` (avrae/d20's selection: the union of its selectors, ``h``/``l``
    picks included; set on ``k``/``p``/``ro``/``rr``/``ra``/``!``), ``k``/``p`` keep/drop
    the selected dice, ``ra`` adds one die for the first selected die, ``!1`` explodes each
    selected die once, ``!!`` compounds (the extra faces add to the die), ``!p`` penetrates
    (each extra die counts one less). An ``rr`` with ``sels`` rerolls until nothing is selected
    (d20), and a ``!`` with ``sels`` (d20's ``e``) explodes with no chain limit, both bounded only
    by ``limits.MAX_DRAWS`` (a new avrae roll: ``limits.AVRAE``'s 1000).
    """

    kind: OpKind
    column: int
    amount: int = 0
    selector: Selector | None = None
    sels: tuple[Sel, ...] | None = None


def op_text(op: Op) -> str:
    """An operation as written in fightlog's form (``kh3``, ``ro<=2``, ``k>3h1``)."""
    if op.sels is not None:
        return op.kind + "".join(str(s) for s in op.sels)
    if op.selector is not None:
        return f"{op.kind}{op.selector}"
    return f"{op.kind}{op.amount}"


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, then ``ops`` in order, then an optional success
    ``target`` (the term's value is then the number of kept dice meeting it).

    ``labels`` names the dice one by one (en5.1's ``BW`` pair); ``index`` is the term's
    position among the expression's dice terms, left to right.

    Dialects add: ``faces`` says what a drawn face ``1..sides`` shows (``plain``: itself;
    ``fudge``: ``face - 2``, so a dF shows -1, 0 or +1; ``tens``: ``(face - 1) * 10``,
    avrae's ``d%`` showing 0..90); ``failure`` counts dice meeting it against the successes
    (the term's value is then successes minus failures).
    """

    count: int
    sides: int
    ops: tuple[Op, ...]
    target: Selector | None
    labels: tuple[str, ...] | None
    text: str
    column: int
    index: int
    faces: FaceKind = "plain"
    failure: Selector | None = None

    @property
    def explodes(self) -> bool:
        return any(op.kind in ("!", "!1", "!p", "ra") for op in self.ops)

    @property
    def classic(self) -> bool:
        """True for a term fightlog's own notation can write (the fast path's shapes)."""
        return (
            self.faces == "plain"
            and self.failure is None
            and self.count >= 1
            and all(op.kind in CLASSIC_OPS and op.sels is None for op in self.ops)
        )

    def show(self, raw: int) -> int:
        """The face a die shows for the raw draw ``raw`` (``1..sides``)."""
        if self.faces == "plain":
            return raw
        return raw - 2 if self.faces == "fudge" else (raw - 1) * 10

    def raw(self, shown: int) -> int:
        """The raw draw behind a shown face (inverse of ``show``; for replaying recorded faces)."""
        if self.faces == "plain":
            return shown
        return shown + 2 if self.faces == "fudge" else shown // 10 + 1

    @property
    def face_range(self) -> tuple[int, int]:
        """Lowest and highest face a die of this term shows."""
        return self.show(1), self.show(self.sides)


FaceKind: TypeAlias = Literal["plain", "fudge", "tens"]


@dataclass(frozen=True, slots=True)
class Number:
    value: int
    column: int


@dataclass(frozen=True, slots=True)
class Decimal:
    """A decimal literal (avrae: ``1.5``), kept exact."""

    value: Fraction
    text: str
    column: int


@dataclass(frozen=True, slots=True)
class Negate:
    operand: Node
    column: int


BinaryKind: TypeAlias = Literal[
    "+", "-", "*", "//",
    # dialects (avrae): exact division, modulo, comparisons giving 1 or 0
    "/", "%", "==", "!=", "<", "<=", ">", ">=",
]


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


@dataclass(frozen=True, slots=True)
class SetOf:
    """A set of expressions with keep/drop operations (avrae ``(1d6, 1d6)kh1``, roll20
    ``{4d6, 3d8}kh1``): its value is the sum of the kept items' values. ``brace`` says which
    brackets it was written with."""

    items: tuple[Node, ...]
    ops: tuple[Op, ...]
    column: int
    brace: str = "("


@dataclass(frozen=True, slots=True)
class Tagged:
    """A value followed by avrae annotations (``9[fire]``): the tags change nothing."""

    inner: Node
    tags: str
    column: int


Node: TypeAlias = Union[DiceTerm, Number, Negate, BinaryOp, Group, Decimal, SetOf, Tagged]

def is_classic(node: Node) -> bool:
    """True when the tree uses only what fightlog's own notation writes."""
    if isinstance(node, DiceTerm):
        return node.classic
    if isinstance(node, Number):
        return True
    if isinstance(node, BinaryOp):
        return node.op in ("+", "-", "*", "//") and is_classic(node.left) and is_classic(node.right)
    if isinstance(node, Negate):
        return is_classic(node.operand)
    if isinstance(node, Group):
        return is_classic(node.inner)
    return False


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-expressions of a node, left to right."""
    if isinstance(node, BinaryOp):
        return (node.left, node.right)
    if isinstance(node, Negate):
        return (node.operand,)
    if isinstance(node, (Group, Tagged)):
        return (node.inner,)
    if isinstance(node, SetOf):
        return node.items
    return ()


def dice_terms(node: Node) -> list[DiceTerm]:
    """The dice terms of a tree, left to right (the order they roll in)."""
    if isinstance(node, DiceTerm):
        return [node]
    out: list[DiceTerm] = []
    for child in children(node):
        out.extend(dice_terms(child))
    return out
