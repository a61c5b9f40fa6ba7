"""avrae's notation: the d20 library (https://github.com/avrae/d20), as its ``!r`` reads it.

From ``d20/grammar.lark``, ``d20/diceast.py``, ``d20/expression.py`` and its README: sets
``(1d6, 1d6)kh1`` (a trailing comma makes one item a set; one item without it is
parentheses, and operations after parentheses act on the dice inside), operations ``k``,
``p`` (drop), ``rr``, ``ro``, ``ra``, ``e``, ``mi``, ``ma`` with selectors ``N`` (equals),
``<N``, ``>N``, ``lN``, ``hN`` (runs of one operation merge: ``k1k2`` keeps 1s and 2s),
``d%`` a tens die (0, 10, ..., 90), ``0d6`` is 0, annotations ``[fire]``, ``+ - * / // %``
with ``/`` exact and the total truncated toward zero, decimals, comparisons giving 1 or 0,
and everything after a complete expression is its comment (``1d20+5 attack``). Its limit
(``limits.AVRAE``): one roll rolls at most 1000 dice, rerolls and explosions counted, as
d20's ``RollContext`` counts them.
"""

from __future__ import annotations

from functools import partial

from fightlog.dice import limits
from fightlog.dice.dialects.syntax_parser import read
from fightlog.dice.dialects.registry import Dialect, register
from fightlog.dice.dialects.syntax import OpSpec, Syntax

SYNTAX = Syntax(
    ops={
        name: OpSpec(kind, selector="d20")  # type: ignore[arg-type]
        for name, kind in (
            ("k", "k"), ("p", "p"), ("rr", "rr"), ("ro", "ro"), ("ra", "ra"), ("e", "!"),
            ("mi", "mi"), ("ma", "ma"),
        )
    },
    successes="none",
    sets="(",
    comparisons=True,
    division="exact",
    modulo=True,
    decimals=True,
    zero_dice=True,
    percent="tens",
    unary_plus=True,
    annotations=True,
    comment="trailing",
    merge_runs=True,
    limits=limits.AVRAE,
)


DIALECT = register(
    Dialect(
        name="avrae",
        description="avrae's d20 (Discord !r): sets, selectors, e/ra/ro/rr, d% tens die, comments",
        source="https://github.com/avrae/d20",
        example="(1d20, 1d20)kh1+5 attack",
        read=partial(read, syntax=SYNTAX),
    )
)
