"""An expression as a linear form of its dice terms (``const + sum(coef * term)``): what
lets the fast path (``fightlog.dice.fastpath``) add a roll's total straight from its faces."""

from __future__ import annotations

from fightlog.dice.ast import BinaryOp, DiceTerm, Group, Negate, Node, Number


def linear_form(node: Node) -> tuple[int, dict[int, int]] | None:
    """``node`` as ``const + sum(coef[i] * term_i)``, or None if it is not linear
    (floor division, or a product of two expressions that both hold dice)."""
    if isinstance(node, Number):
        return node.value, {}
    if isinstance(node, DiceTerm):
        return 0, {node.index: 1}
    if isinstance(node, Group):
        return linear_form(node.inner)
    if isinstance(node, Negate):
        inner = linear_form(node.operand)
        return None if inner is None else _scale(inner, -1)
    assert isinstance(node, BinaryOp)
    if node.op == "//":
        return None
    left, right = linear_form(node.left), linear_form(node.right)
    if left is None or right is None:
        return None
    if node.op == "*":
        if not left[1]:
            return _scale(right, left[0])
        if not right[1]:
            return _scale(left, right[0])
        return None
    if node.op == "-":
        right = _scale(right, -1)
    coefs = dict(left[1])
    for i, c in right[1].items():
        coefs[i] = coefs.get(i, 0) + c
    return left[0] + right[0], coefs


def _scale(form: tuple[int, dict[int, int]], k: int) -> tuple[int, dict[int, int]]:
    return form[0] * k, {i: c * k for i, c in form[1].items()}
