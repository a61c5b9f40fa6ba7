"""The lowest and highest value an expression can take, computed from its tree.

Each dice term is summarised by the range of one die's face and the range of the number of
dice it keeps; the arithmetic above it is interval arithmetic (every term occurs once in the
tree and ``+ - * //`` reach their extremes at the corners of their operands' ranges, so the
intervals are exact). Without explosions the result is exact: the minimum and maximum are
values some roll actually produces. With explosions it is a safe over-approximation (explosion
chains are bounded by ``limits.MAX_CHAIN`` and ``limits.MAX_DRAWS``, so it is still finite).
Rerolls never narrow a range: a reroll chain that hits ``limits.MAX_CHAIN`` keeps its last
face, so every face stays possible.

The same walk refuses a floor division whose divisor's range includes 0, so no roll of a
compiled expression can divide by zero.
"""

from __future__ import annotations

from fractions import Fraction

from fightlog.errors import DiceValueError
from fightlog.dice import limits
from fightlog.dice.ast import Decimal, DiceTerm, Group, Negate, Node, Number, SetOf, Tagged

Value = int | Fraction


def bounds(node: Node, text: str) -> tuple[int, int]:
    """``(low, high)`` of ``node``'s value; ``text`` is the expression, for error messages.
    A dialect's exact division is bounded exactly and truncated toward zero at the end."""
    low, high = exact_bounds(node, text)
    return int(low), int(high)


def exact_bounds(node: Node, text: str) -> tuple[Value, Value]:
    """``bounds`` before the final truncation (dialect trees can hold fractions)."""
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Decimal):
        return node.value, node.value
    if isinstance(node, DiceTerm):
        return term_bounds(node)
    if isinstance(node, (Group, Tagged)):
        return exact_bounds(node.inner, text)
    if isinstance(node, Negate):
        low, high = exact_bounds(node.operand, text)
        return -high, -low
    if isinstance(node, SetOf):  # any subset of the items may be kept
        ranges = [exact_bounds(item, text) for item in node.items]
        return sum((min(lo, 0) for lo, _ in ranges), start=0), sum(
            (max(hi, 0) for _, hi in ranges), start=0
        )
    a_lo, a_hi = exact_bounds(node.left, text)
    b_lo, b_hi = exact_bounds(node.right, text)
    op = node.op
    if op == "+":
        return a_lo + b_lo, a_hi + b_hi
    if op == "-":
        return a_lo - b_hi, a_hi - b_lo
    if op in ("==", "!=", "<", "<=", ">", ">="):
        return 0, 1
    if op in ("//", "/", "%") and b_lo <= 0 <= b_hi:
        what = "division by zero" if b_lo == b_hi == 0 else "the divisor can be 0"
        raise DiceValueError(f"{text} : {what} at column {node.column}")
    if op == "%":  # the sign of the divisor; never above it in magnitude
        return (0, b_hi) if b_lo > 0 else (b_lo, 0)
    if op == "*":
        corners = [a * b for a in (a_lo, a_hi) for b in (b_lo, b_hi)]
    elif op == "/":
        corners = [Fraction(a) / b for a in (a_lo, a_hi) for b in (b_lo, b_hi)]
    else:
        corners = [a // b for a in (a_lo, a_hi) for b in (b_lo, b_hi)]
    return min(corners), max(corners)


def term_bounds(term: DiceTerm) -> tuple[int, int]:
    """The range of one dice term's value (a sum of kept faces, or a count of successes)."""
    if not term.classic:
        return _dialect_term_bounds(term)
    sides = term.sides
    low, high = 1, sides  # range of any one die's face
    kept_min = kept_max = term.count  # range of the number of kept dice
    for op in term.ops:
        kind = op.kind
        if kind in ("kh", "kl"):
            kept_min = min(kept_min, op.amount)
            kept_max = min(kept_max, op.amount)
        elif kind in ("dh", "dl"):
            kept_min = max(kept_min - op.amount, 0)
            kept_max = max(kept_max - op.amount, 0)
        elif kind == "mi":
            low, high = max(low, op.amount), max(high, op.amount)
        elif kind == "ma":
            low, high = min(low, op.amount), min(high, op.amount)
        else:  # ro, rr, !: a selected face may be replaced by, or joined by, any raw face
            assert op.selector is not None
            if kept_max and op.selector.count_in(low, high):
                low, high = 1, sides
                if kind == "!":
                    kept_max = min(kept_max * (1 + limits.MAX_CHAIN), limits.MAX_DRAWS)
    target = term.target
    if target is None:
        return kept_min * low, kept_max * high
    hits = target.count_in(low, high)
    if hits == 0:
        return 0, 0
    if hits == high - low + 1:
        return kept_min, kept_max
    return 0, kept_max


def _dialect_term_bounds(term: DiceTerm) -> tuple[int, int]:
    """A safe range for a dialect term (fudge and tens faces, set-style selections,
    compounding and penetrating explosions, successes minus failures)."""
    low, high = term.face_range
    kept_min = kept_max = term.count
    for op in term.ops:
        kind = op.kind
        if op.sels is not None and kind in ("k", "p"):
            kept_min = 0
        elif kind in ("kh", "kl"):
            kept_min, kept_max = min(kept_min, op.amount), min(kept_max, op.amount)
        elif kind in ("dh", "dl"):
            kept_min, kept_max = max(kept_min - op.amount, 0), max(kept_max - op.amount, 0)
        elif kind == "mi":
            low, high = max(low, op.amount), max(high, op.amount)
        elif kind == "ma":
            low, high = min(low, op.amount), min(high, op.amount)
        elif kind == "!!":
            low, high = min(low, term.show(1)), max(high, term.show(term.sides) * (1 + limits.MAX_CHAIN))
        elif kind in ("!", "!1", "!p", "ra"):
            low = min(low, term.show(1) - (1 if kind == "!p" else 0))
            high = max(high, term.show(term.sides))
            if kind == "!" and op.sels is not None and limits.AVRAE.rolls is not None:
                kept_max = limits.AVRAE.rolls  # d20's e: no chain limit, 1000 dice rolled in all
            else:
                kept_max = min(kept_max * (1 + limits.MAX_CHAIN), limits.MAX_DRAWS)
        else:  # ro, rr: any face may come up again
            low, high = min(low, term.show(1)), max(high, term.show(term.sides))
    if term.target is None:
        ends = [k * f for k in (kept_min, kept_max) for f in (low, high)]
        return min(ends), max(ends)
    return (-kept_max if term.failure is not None else 0), kept_max
