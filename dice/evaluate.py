"""Syntax tree -> roll plan -> values: where dice are actually rolled.

A tree is turned once into a *plan*, a tree of small closures, so rolling a cached
expression does no dispatch on node types and builds no per-die objects. Faces come from a
``FaceStream``; the order in which dice draw from it is part of the provably fair scheme
(``docs/dice.md``): terms left to right; in a term, its dice in order, then each operation in
written order, visiting dice by position (a reroll draws the die's new face, an explosion
draws an appended die, which later positions of the same pass visit in turn).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from fightlog.errors import DiceValueError
from fightlog.dice import limits
from fightlog.dice.ast import BinaryOp, DiceTerm, Group, Negate, Node, Number, is_classic
from fightlog.dice.result import TermRoll


class FaceStream(Protocol):
    """A source of faces for one roll: uniform faces in ``1..sides``, in draw order."""

    drawn: int
    """Faces drawn so far (used to enforce ``limits.MAX_DRAWS``)."""

    def draw(self, sides: int) -> int: ...

    def draw_many(self, sides: int, count: int) -> list[int]: ...


Plan = Callable[[FaceStream, list[TermRoll]], int]
"""Rolls an expression: draws from the stream, appends one ``TermRoll`` per dice term (left
to right) to the list, and returns the expression's value."""


def build_plan(node: Node) -> Plan:
    """Turn a tree into a plan (done once per expression, then cached with it). A tree read
    from another dialect (sets, exact division, ...) is rolled by ``walk``."""
    if not is_classic(node):
        from fightlog.dice.walk import walk_plan

        return walk_plan(node)
    if isinstance(node, DiceTerm):
        return _term_plan(node)
    if isinstance(node, Number):
        value = node.value

        def number(stream: FaceStream, out: list[TermRoll]) -> int:
            return value

        return number
    if isinstance(node, Group):
        return build_plan(node.inner)
    if isinstance(node, Negate):
        inner = build_plan(node.operand)

        def negate(stream: FaceStream, out: list[TermRoll]) -> int:
            return -inner(stream, out)

        return negate
    assert isinstance(node, BinaryOp)
    return _binary_plan(node)


def _binary_plan(node: BinaryOp) -> Plan:
    left = build_plan(node.left)
    op = node.op
    if isinstance(node.right, Number) and op != "//":
        c = node.right.value
        if op == "+":
            return lambda stream, out: left(stream, out) + c
        if op == "-":
            return lambda stream, out: left(stream, out) - c
        return lambda stream, out: left(stream, out) * c
    right = build_plan(node.right)
    if op == "+":
        return lambda stream, out: left(stream, out) + right(stream, out)
    if op == "-":
        return lambda stream, out: left(stream, out) - right(stream, out)
    if op == "*":
        return lambda stream, out: left(stream, out) * right(stream, out)
    column = node.column

    def floor_divide(stream: FaceStream, out: list[TermRoll]) -> int:
        a = left(stream, out)
        b = right(stream, out)
        if b == 0:  # refused at compile time by bounds(); kept as a guard
            raise DiceValueError(f"division by zero at column {column}")
        return a // b

    return floor_divide


def _term_plan(term: DiceTerm) -> Plan:
    sides, count = term.sides, term.count
    if not term.ops and term.target is None:
        if count == 1:

            def one_die(stream: FaceStream, out: list[TermRoll]) -> int:
                face = stream.draw(sides)
                out.append(TermRoll((face,), face))
                return face

            return one_die

        def plain(stream: FaceStream, out: list[TermRoll]) -> int:
            faces = tuple(stream.draw_many(sides, count))
            value = sum(faces)
            out.append(TermRoll(faces, value))
            return value

        return plain

    def general(stream: FaceStream, out: list[TermRoll]) -> int:
        roll = roll_term(term, stream)
        out.append(roll)
        return roll.value

    return general


def roll_term(term: DiceTerm, stream: FaceStream) -> TermRoll:
    """Roll one dice term with its operations and success target."""
    if not term.classic:
        from fightlog.dice.operations import roll_extended

        return roll_extended(term, stream)
    sides = term.sides
    faces = stream.draw_many(sides, term.count)
    kept = [True] * len(faces)
    history: list[list[int]] | None = None
    depth: list[int] | None = None  # explosion chain length per die
    for op in term.ops:
        kind = op.kind
        if kind in ("kh", "kl", "dh", "dl"):
            keep_or_drop(kind, op.amount, faces, kept)
            continue
        if kind == "mi" or kind == "ma":
            _clamp(kind, op.amount, faces, kept)
            continue
        assert op.selector is not None
        test = op.selector.predicate()
        if kind == "!":
            if depth is None:
                depth = [0] * len(faces)
            _explode(faces, kept, depth, history, test, sides, stream)
            continue
        chain = 1 if kind == "ro" else limits.MAX_CHAIN
        history = _reroll(faces, kept, history, test, chain, sides, stream)
    target = term.target
    if target is None:
        value = sum(f for f, k in zip(faces, kept) if k)
    else:
        test = target.predicate()
        value = sum(1 for f, k in zip(faces, kept) if k and test(f))
    return TermRoll(
        tuple(faces),
        value,
        None if all(kept) else tuple(kept),
        None if history is None else tuple(tuple(h) for h in history),
    )


def _clamp(kind: str, bound: int, faces: list[int], kept: list[bool]) -> None:
    """``mi`` raises each kept face below ``bound`` to it; ``ma`` lowers each above it."""
    for i, face in enumerate(faces):
        if kept[i] and (face < bound if kind == "mi" else face > bound):
            faces[i] = bound


def _explode(
    faces: list[int],
    kept: list[bool],
    depth: list[int],
    history: list[list[int]] | None,
    test: Callable[[int], bool],
    sides: int,
    stream: FaceStream,
) -> None:
    """``!``: a die for each kept die (new ones included) whose face passes ``test``, up to
    ``MAX_CHAIN`` per chain and ``MAX_DRAWS`` in all."""
    draw = stream.draw
    i = 0
    while i < len(faces):
        if kept[i] and test(faces[i]) and depth[i] < limits.MAX_CHAIN and stream.drawn < limits.MAX_DRAWS:
            faces.append(draw(sides))
            kept.append(True)
            depth.append(depth[i] + 1)
            if history is not None:
                history.append([])
        i += 1


def _reroll(
    faces: list[int],
    kept: list[bool],
    history: list[list[int]] | None,
    test: Callable[[int], bool],
    chain: int,
    sides: int,
    stream: FaceStream,
) -> list[list[int]] | None:
    """``ro``/``rr``: each kept die whose face passes ``test`` rerolled, up to ``chain``
    times; the replaced faces (per die, oldest first), started on the first reroll."""
    draw = stream.draw
    for i in range(len(faces)):
        rerolls = 0
        while kept[i] and rerolls < chain and test(faces[i]) and stream.drawn < limits.MAX_DRAWS:
            if history is None:
                history = [[] for _ in faces]
            history[i].append(faces[i])
            faces[i] = draw(sides)
            rerolls += 1
    return history


def keep_or_drop(kind: str, amount: int, faces: list[int], kept: list[bool]) -> None:
    """Keep or drop ``amount`` of the kept dice, highest (``kh``/``dh``) or lowest
    (``kl``/``dl``) first; among equal faces the earlier die is chosen first."""
    candidates = [i for i, k in enumerate(kept) if k]
    if kind in ("kh", "dh"):
        candidates.sort(key=lambda i: (-faces[i], i))
    else:
        candidates.sort(key=lambda i: (faces[i], i))
    if kind in ("kh", "kl"):
        for i in candidates[amount:]:
            kept[i] = False
    else:
        for i in candidates[:amount]:
            kept[i] = False
