"""avrae's d20 library as an oracle for the notation both understand.

Expressions are generated in both dialects (ours: ``dh``/``dl``, ``!``; d20: ``ph``/``pl``,
``eN``). Two comparisons:

* acceptance and bounds: both parse, and our analytic ``bounds()`` equal d20's extremes. d20
  has no min/max API, so each of its dice terms is rolled in a "lowest world" (every die
  shows 1) or a "highest world" (every die shows its top face) by patching ``randrange``, for
  every combination of worlds; the value is monotone in each term and each term occurs once,
  so the extremes are at those corners. Rerolls until and explosions are left out here (in
  such worlds d20 would loop until its roll cap).
* totals on the same faces, rerolls and explosions included: both engines draw from the same
  list of raw numbers (a d``s`` shows ``raw % s + 1``). d20 and we visit dice in different
  orders inside one operation, but every operation consumes the same raw numbers and leaves
  the same multiset of faces, so totals must agree.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any
from unittest import mock

import d20
import d20.expression
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.dice import compile_expression
from tests.dice.conftest import ModuloStream

SIDES = [2, 3, 4, 6, 8, 10, 12, 20, 100]
Pair = tuple[str, str, int]  # (ours, d20's, number of dice terms)


@st.composite
def dice_term(draw: st.DrawFn, loops: bool) -> Pair:
    n = draw(st.integers(1, 4))
    m = draw(st.sampled_from(SIDES))
    ours = theirs = f"{n}d{m}"
    kept: int | None = n
    kinds = ["kh", "kl", "dh", "dl", "ro", "mi", "ma"] + (["rr", "!"] if loops else [])
    family = {"kh": "k", "kl": "k", "dh": "p", "dl": "p"}
    previous = ""
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(kinds))
        if family.get(kind, kind) == family.get(previous, previous) and kind not in ("mi", "ma"):
            continue  # d20 merges such runs; fightlog refuses them (see parser._FAMILY)
        previous = kind
        if kind in ("kh", "kl", "dh", "dl"):
            limit = n if kept is None else kept
            if limit < 1:
                continue
            k = draw(st.integers(1, limit))
            ours += f"{kind}{k}"
            theirs += {"kh": "kh", "kl": "kl", "dh": "ph", "dl": "pl"}[kind] + str(k)
            if kept is not None:
                kept = k if kind in ("kh", "kl") else kept - k
        elif kind == "ro":
            cmp, v = draw(st.sampled_from(["", "<", ">"])), draw(st.integers(1, m))
            ours += "ro" + {"": f"{v}", "<": f"<={v - 1}", ">": f">={v + 1}"}[cmp]  # fightlog refuses bare < and > there
            theirs += f"ro{cmp}{v}"
        elif kind == "rr":  # matching at most half the faces, so chains stay short
            sel = draw(
                st.sampled_from([f"<{m // 2 + 1}", f">{m - m // 2}", f"{m}", "1", "<2"])
            )
            ours += "rr" + sel
            theirs += "rr" + sel
        elif kind == "!":
            v = draw(st.integers(max(1, m // 2), m))
            ours += "!" if v == m else f"!>={v + 1}"
            theirs += f"e{m}" if v == m else f"e>{v}"
            kept = None
        else:
            v = draw(st.integers(1, m))
            ours += f"{kind}{v}"
            theirs += f"{kind}{v}"
    return ours, theirs, 1


def expressions(loops: bool) -> st.SearchStrategy[Pair]:
    leaf = st.one_of(
        dice_term(loops),
        st.integers(0, 20).map(lambda v: (str(v), str(v), 0)),
    )

    def combine(children: st.SearchStrategy[Pair]) -> st.SearchStrategy[Pair]:
        def binary(op: str) -> st.SearchStrategy[Pair]:
            return st.tuples(children, children).map(
                lambda ab: (
                    f"({ab[0][0]}){op}({ab[1][0]})",
                    f"({ab[0][1]}){op}({ab[1][1]})",
                    ab[0][2] + ab[1][2],
                )
            )

        return st.one_of(
            binary("+"),
            binary("-"),
            binary("*"),
            st.tuples(children, st.integers(1, 6)).map(
                lambda ak: (f"({ak[0][0]})//{ak[1]}", f"({ak[0][1]})//{ak[1]}", ak[0][2])
            ),
            children.map(lambda a: (f"-({a[0]})", f"-({a[1]})", a[2])),
        )

    return st.recursive(leaf, combine, max_leaves=4)


def d20_with(draws: Iterator[int] | None, worlds: tuple[int, ...] = ()) -> Any:
    """Patch d20 so each die shows ``next(draws) % size`` (raw list) or, per dice term,
    its lowest/highest face (``worlds``)."""
    term = [-1]
    original_new = d20.expression.Dice.new.__func__

    def new(cls: type, num: int, size: int, context: Any = None) -> Any:
        term[0] += 1
        return original_new(cls, num, size, context=context)

    def randrange(size: int, *rest: int) -> int:
        assert not rest
        if draws is not None:
            return next(draws) % size
        return size - 1 if worlds[term[0]] else 0

    return mock.patch.multiple(
        d20.expression.Dice, new=classmethod(new)
    ), mock.patch.object(d20.expression.random, "randrange", randrange)


def d20_total(expr: str, draws: Iterator[int] | None, worlds: tuple[int, ...] = ()) -> int:
    first, second = d20_with(draws, worlds)
    with first, second:
        return int(d20.roll(expr).total)


@settings(max_examples=300, database=None, deadline=None, derandomize=True)
@given(expressions(loops=False))
def test_acceptance_and_bounds_agree_with_d20(pair: Pair) -> None:
    ours, theirs, terms = pair
    compiled = compile_expression(ours)
    assert len(compiled.terms) == terms
    values = [d20_total(theirs, None, w) for w in itertools.product((0, 1), repeat=terms)]
    assert compiled.bounds() == (min(values), max(values)), (ours, theirs)


@settings(max_examples=300, database=None, deadline=None, derandomize=True)
@given(expressions(loops=True), st.integers(0, 2**32))
def test_totals_agree_with_d20_on_the_same_faces(pair: Pair, seed: int) -> None:
    ours, theirs, _ = pair
    rng = random.Random(seed)
    raws = [rng.getrandbits(32) for _ in range(3000)]
    stream = ModuloStream(raws)
    value = compile_expression(ours).roll(stream).value
    assert value == d20_total(theirs, iter(raws)), (ours, theirs)
    low, high = compile_expression(ours).bounds()
    assert low <= value <= high


def test_the_oracle_sees_the_classic_cases() -> None:
    assert compile_expression("4d6kh3").bounds() == (3, 18)
    assert d20_total("4d6kh3", None, (0,)) == 3 and d20_total("4d6kh3", None, (1,)) == 18
    raws = [5, 0, 3, 5, 2]  # d6 faces 6, 1, 4, 6, 3
    assert compile_expression("3d6!").roll(ModuloStream(raws)).value == d20_total("3d6e6", iter(raws))
