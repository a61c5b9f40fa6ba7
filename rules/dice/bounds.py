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

from fightlog.errors import DiceValueError
from fightlog.rules.dice import limits
from fightlog.rules.dice.ast import DiceTerm, Group, Negate, Node, Number


def bounds(node: Node, text: str) -> tuple[int, int]:
    """``(low, high)`` of ``node``'s value; ``text`` is the expression, for error messages."""
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, DiceTerm):
        return term_bounds(node)
    if isinstance(node, Group):
        return bounds(node.inner, text)
    if isinstance(node, Negate):
        low, high = bounds(node.operand, text)
        return -high, -low
    a_lo, a_hi = bounds(node.left, text)
    b_lo, b_hi = bounds(node.right, text)
    if node.op == "+":
        return a_lo + b_lo, a_hi + b_hi
    if node.op == "-":
        return a_lo - b_hi, a_hi - b_lo
    if node.op == "//" and b_lo <= 0 <= b_hi:
        what = "division by zero" if b_lo == b_hi == 0 else "the divisor can be 0"
        raise DiceValueError(f"{text} : {what} at column {node.column}")
    corners = [a * b for a in (a_lo, a_hi) for b in (b_lo, b_hi)] if node.op == "*" else [
        a // b for a in (a_lo, a_hi) for b in (b_lo, b_hi)
    ]
    return min(corners), max(corners)


def term_bounds(term: DiceTerm) -> tuple[int, int]:
    """The range of one dice term's value (a sum of kept faces, or a count of successes)."""
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
