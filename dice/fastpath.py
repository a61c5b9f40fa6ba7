"""A shortcut for the common shapes of engine rolls, reading faces straight from block 0.

Most rolls at a table are a few dice with at most one keep or drop, or a success count,
combined linearly with numbers: ``1d100+15``, ``3d20kh1+5``, ``2d6+2``, ``5d6>=5``,
``1d20+1d4-2``. For those the general plan's stream machinery costs more than the HMAC, so
this module builds, once per expression, a function that computes block 0 of the roll (the
first eight candidates), reads the faces from it and returns the very ``RollResult`` the
general plan would, or ``None`` when it cannot: a candidate was rejected (probability below
2**-22 per die), and the caller then rolls through the general plan. A pool of more than
eight dice (``26d6>=5``, up to ``FAST_BLOCKS`` blocks) reads blocks 0, 1, ... in turn the same
way. Both paths draw the same candidates in the same order, so they always agree (the tests
compare them).

The HMAC of block 0 is written out in each plan (as ``FairGenerator.block`` computes it)
because on this path one more Python call costs as much as reading the dice.

The compiled build turns this module into C (mypyc, ``setup.py``), so the plans are written
for both: what a plan calls is bound in its closure (mypyc looks a module global up in a dict
at every use, where the interpreter caches it), and the candidates are typed ``int`` (mypyc
then compares and reduces them as machine integers, not through Python's number protocol).
Each costs nothing interpreted (``bench/README.md``, "Dice").
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from fightlog.events.model import Modifier
from fightlog.dice.ast import DiceTerm, Node
from fightlog.dice.fair import FairGenerator, accept_below, block_suffix
from fightlog.dice.linear import linear_form
from fightlog.dice.result import RollResult, TermRoll

if TYPE_CHECKING:
    from fightlog.dice.expression import Expression

FastPlan = Callable[
    ["Expression", FairGenerator, int, tuple[Modifier, ...], int], "RollResult | None"
]
"""``(expression, generator, index, modifiers, sum of modifiers)`` -> the result, or None
to fall back to the general plan."""

_TermReader = Callable[[tuple[int, ...]], "TermRoll | None"]
_Unpack = Callable[[bytes], tuple[int, ...]]
_UnpackOne = Callable[[bytes], tuple[int]]

BLOCK_CANDIDATES = 8

FAST_BLOCKS = 8
"""A roll of up to this many blocks' worth of dice (64) takes the fast path: a pool of more
than eight dice (``26d6>=5``) reads blocks 0, 1, ... in turn, as the general plan draws them
(no candidate rejected: then die ``i`` has candidate ``i``)."""


def _unpacker(count: int) -> _Unpack:
    """The first ``count`` big-endian u32 candidates of a block."""
    unpack: _Unpack = struct.Struct(f">{count}I").unpack_from
    return unpack


def _unpack_one() -> _UnpackOne:
    unpack: _UnpackOne = struct.Struct(">I").unpack_from
    return unpack


def build_fast_plan(root: Node, terms: tuple[DiceTerm, ...]) -> FastPlan | None:
    """A fast plan for the tree ``root`` if it has a supported shape, else None."""
    form = linear_form(root)
    dice = sum(t.count for t in terms)
    if form is None or not dice or dice > BLOCK_CANDIDATES * FAST_BLOCKS:
        return None
    const, coefs = form
    readers: list[tuple[_TermReader, int]] = []
    offset = 0
    for term in terms:
        reader = _term_reader(term, offset)
        if reader is None:
            return None
        readers.append((reader, coefs.get(term.index, 0)))
        offset += term.count
    if dice > BLOCK_CANDIDATES:
        return _blocks_composite(readers, const, dice)
    if len(terms) == 1 and not terms[0].ops and terms[0].target is None:
        return _single_plain(terms[0], const, readers[0][1])
    unpack = _unpacker(dice)
    suffix, result = block_suffix, RollResult

    def composite(
        expr: Expression, gen: FairGenerator, index: int, mods: tuple[Modifier, ...], shift: int
    ) -> RollResult | None:
        inner = gen.new_inner()
        inner.update(suffix(index, 0))
        outer = gen.new_outer()
        outer.update(inner.digest())
        cands = unpack(outer.digest())
        rolls: list[TermRoll] = []
        value = const
        for reader, coef in readers:
            roll = reader(cands)
            if roll is None:
                return None
            rolls.append(roll)
            value += coef * roll.value
        return result(expr, tuple(rolls), value, value + shift, mods, index, expr.label)

    return composite


def _blocks_composite(readers: list[tuple[_TermReader, int]], const: int, dice: int) -> FastPlan:
    """``build_fast_plan``'s composite for more than a block of dice: the candidates of as
    many blocks as the dice need, in order, read by the same term readers."""
    whole, rest = divmod(dice, BLOCK_CANDIDATES)
    unpack_block = _unpacker(BLOCK_CANDIDATES)
    unpack_rest = _unpacker(rest if rest else BLOCK_CANDIDATES)
    blocks = whole + (1 if rest else 0)
    suffix, result = block_suffix, RollResult

    def composite_blocks(
        expr: Expression, gen: FairGenerator, index: int, mods: tuple[Modifier, ...], shift: int
    ) -> RollResult | None:
        cands: tuple[int, ...] = ()
        for block in range(blocks):
            inner = gen.new_inner()
            inner.update(suffix(index, block))
            outer = gen.new_outer()
            outer.update(inner.digest())
            cands += (unpack_block if block < whole else unpack_rest)(outer.digest())
        rolls: list[TermRoll] = []
        value = const
        for reader, coef in readers:
            roll = reader(cands)
            if roll is None:
                return None
            rolls.append(roll)
            value += coef * roll.value
        return result(expr, tuple(rolls), value, value + shift, mods, index, expr.label)

    return composite_blocks


OUTCOME_TABLE = 216
"""A plain term with at most this many outcomes (``sides ** count``: ``1d100``, ``3d6``) reads
its ``TermRoll`` from a table built once per shape instead of building one for every roll."""

_Outcomes = tuple[tuple[TermRoll, ...], ...]
"""(Of any length, not ``tuple[TermRoll]``: mypyc holds a fixed-length tuple unboxed, and would
build a new one for every result.)"""


@lru_cache(maxsize=64)
def _outcomes(sides: int, count: int) -> _Outcomes:
    """Every outcome of ``count`` dice of ``sides`` sides as the one-term tuple a result holds,
    at the index the faces spell as base-``sides`` digits (``face - 1``, first die first).
    The structs are frozen, so results can share them."""
    table: list[tuple[TermRoll, ...]] = []
    for key in range(sides**count):
        faces: list[int] = []
        for _ in range(count):
            key, digit = divmod(key, sides)
            faces.append(digit + 1)
        faces.reverse()
        table.append((TermRoll(tuple(faces), sum(faces)),))
    return tuple(table)


def _single_plain(term: DiceTerm, const: int, coef: int) -> FastPlan:
    """The commonest rolls of all: one plain dice term and numbers (``1d100+15``, ``2d6+2``;
    a die of many sides, ``1d1000``, as a term of one die)."""
    sides, count = term.sides, term.count
    if sides**count <= OUTCOME_TABLE:
        return _single_tabled(sides, count, const, coef)
    accept = accept_below(sides)
    suffix, result, term_roll = block_suffix, RollResult, TermRoll
    unpack = _unpacker(count)

    def single_term(
        expr: Expression, gen: FairGenerator, index: int, mods: tuple[Modifier, ...], shift: int
    ) -> RollResult | None:
        inner = gen.new_inner()
        inner.update(suffix(index, 0))
        outer = gen.new_outer()
        outer.update(inner.digest())
        faces: list[int] = []
        dice = 0
        for c in unpack(outer.digest()):
            if c >= accept:
                return None
            face = c % sides + 1
            faces.append(face)
            dice += face
        value = const + coef * dice
        return result(
            expr, (term_roll(tuple(faces), dice),), value, value + shift, mods, index, expr.label
        )

    return single_term


def _single_tabled(sides: int, count: int, const: int, coef: int) -> FastPlan:
    """``_single_plain`` for a term of few outcomes: its ``TermRoll`` read from ``_outcomes``."""
    accept = accept_below(sides)
    suffix, result = block_suffix, RollResult
    outcomes = _outcomes(sides, count)

    if count == 1:
        unpack_one = _unpack_one()

        def one_die(
            expr: Expression, gen: FairGenerator, index: int, mods: tuple[Modifier, ...], shift: int
        ) -> RollResult | None:
            inner = gen.new_inner()
            inner.update(suffix(index, 0))
            outer = gen.new_outer()
            outer.update(inner.digest())
            c = unpack_one(outer.digest())[0]
            if c >= accept:
                return None
            digit = c % sides
            value = const + coef * (digit + 1)
            return result(expr, outcomes[digit], value, value + shift, mods, index, expr.label)

        return one_die

    unpack = _unpacker(count)

    def few_dice(
        expr: Expression, gen: FairGenerator, index: int, mods: tuple[Modifier, ...], shift: int
    ) -> RollResult | None:
        inner = gen.new_inner()
        inner.update(suffix(index, 0))
        outer = gen.new_outer()
        outer.update(inner.digest())
        key = 0
        for c in unpack(outer.digest()):
            if c >= accept:
                return None
            key = key * sides + c % sides
        rolled = outcomes[key]
        value = const + coef * rolled[0].value
        return result(expr, rolled, value, value + shift, mods, index, expr.label)

    return few_dice


BlockFaces = Callable[[bytes], "int | tuple[int, ...] | None"]
"""``faces(block)``: the faces block 0 gives the dice of an expression, in roll order (one
die: the face itself), or None when a candidate is rejected."""


def build_block_faces(terms: tuple[DiceTerm, ...]) -> BlockFaces | None:
    """For an expression with a fast plan (``build_fast_plan`` is not None for it): the faces
    of its dice as block 0 gives them, the same candidates mapped the same way as the plan's
    readers map them. The fast plan's result is a function of these faces alone, which is
    what lets a checker (``fightlog.audit.dice_checks.FastDice``) compute it once per expression and
    faces. None when the expression holds no dice or more than a block's worth."""
    sides = [term.sides for term in terms for _ in range(term.count)]
    if not sides or len(sides) > BLOCK_CANDIDATES:
        return None
    if len(sides) == 1:
        (only,) = sides
        accept = accept_below(only)
        unpack_one = _unpack_one()

        def one_face(block: bytes) -> int | None:
            c = unpack_one(block)[0]
            return None if c >= accept else c % only + 1

        return one_face
    dice = tuple((s, accept_below(s)) for s in sides)
    unpack = _unpacker(len(sides))

    def faces(block: bytes) -> tuple[int, ...] | None:
        out: list[int] = []
        for c, (s, accept) in zip(unpack(block), dice):
            if c >= accept:
                return None
            out.append(c % s + 1)
        return tuple(out)

    return faces


def _term_reader(term: DiceTerm, offset: int) -> _TermReader | None:
    """Reads one term from block 0's candidates: plain dice, or one keep/drop, and/or a
    success target; None for anything else (rerolls, explosions, mi/ma, several keeps)."""
    if len(term.ops) > 1 or (term.ops and term.ops[0].kind not in ("kh", "kl", "dh", "dl")):
        return None
    sides, count = term.sides, term.count
    accept = accept_below(sides)
    end = offset + count
    target = term.target
    # A success target over faces 1..sides is always an interval lo..hi.
    lo, hi = (0, -1) if target is None else _interval(target.cmp, target.value, sides)
    if term.ops:
        op = term.ops[0]
        return _keep_drop_reader(op.kind, op.amount, offset, end, count, sides, accept, target is not None, lo, hi)
    if target is None:
        return _plain_reader(offset, end, sides, accept)
    return _successes_reader(offset, end, sides, accept, lo, hi)


# The readers below: explicit loops, which on CPython 3.11 beat comprehensions and map() for a
# few dice; each is built once per plan and called once per roll.


def _plain_reader(offset: int, end: int, sides: int, accept: int) -> _TermReader:
    term_roll = TermRoll

    def plain(cands: tuple[int, ...]) -> TermRoll | None:
        faces: list[int] = []
        for c in cands[offset:end]:
            if c >= accept:
                return None
            faces.append(c % sides + 1)
        return term_roll(tuple(faces), sum(faces))

    return plain


def _successes_reader(offset: int, end: int, sides: int, accept: int, lo: int, hi: int) -> _TermReader:
    term_roll = TermRoll

    def successes(cands: tuple[int, ...]) -> TermRoll | None:
        faces: list[int] = []
        hits = 0
        for c in cands[offset:end]:
            if c >= accept:
                return None
            face = c % sides + 1
            faces.append(face)
            if lo <= face <= hi:
                hits += 1
        return term_roll(tuple(faces), hits)

    return successes


def _keep_drop_reader(
    kind: str, amount: int, offset: int, end: int, count: int, sides: int, accept: int, counted: bool, lo: int, hi: int
) -> _TermReader:
    """A keep or drop (``kind``), the kept faces summed, or counted within ``lo..hi`` when
    ``counted`` (a success target)."""
    term_roll = TermRoll
    highest = kind in ("kh", "dh")
    keeping = kind in ("kh", "kl")

    def keep_drop(cands: tuple[int, ...]) -> TermRoll | None:
        faces: list[int] = []
        for c in cands[offset:end]:
            if c >= accept:
                return None
            faces.append(c % sides + 1)
        kept = [not keeping] * count
        if amount == 1:
            # the first of the highest (lowest) faces, as the general plan's stable order
            kept[faces.index(max(faces) if highest else min(faces))] = keeping
        else:
            order = sorted(
                range(count),
                key=(lambda i: (-faces[i], i)) if highest else (lambda i: (faces[i], i)),
            )
            for i in order[:amount]:
                kept[i] = keeping
        value = 0
        for face, keep in zip(faces, kept):
            if keep and (not counted or lo <= face <= hi):
                value += 1 if counted else face
        return term_roll(tuple(faces), value, None if all(kept) else tuple(kept))

    return keep_drop


def _interval(cmp: str, value: int, sides: int) -> tuple[int, int]:
    """The faces ``1..sides`` meeting ``face <cmp> value``, as ``lo..hi`` (maybe empty)."""
    if cmp == "=":
        return value, value
    if cmp == "<":
        return 1, value - 1
    if cmp == "<=":
        return 1, value
    if cmp == ">":
        return value + 1, sides
    return value, sides
