"""Roll20's ``/roll`` notation (https://wiki.roll20.net/Dice_Reference).

What it reads: ``NdX``, ``dF`` (Fate), ``!`` explode (again and again) with an optional
compare point ``!>4`` / ``!<2`` / ``!5``, ``!!`` compounding (the extra faces add to the die
that exploded), ``!p`` penetrating (each extra die counts one less), ``kh``/``kl``/``dh``/
``dl`` and ``k`` (keep highest) / ``d`` (drop lowest), ``r`` (reroll until it does not match;
``r1r3`` rerolls 1s and 3s) and ``ro`` (once), a target ``>N`` / ``<N`` / ``=N``
counting successes, ``f`` after it counting failures that take successes off (``3d6>3f1``),
groups ``{4d6+2d8, 3d10}kh1``, ``%`` modulo, inline labels ``[fire]`` and trailing words as
the roll's comment. Every compare point includes its number: ``>4`` is 4 or more, ``<2`` is 2
or less (``r<2`` rerolls 1s and 2s). ``cs``/``cf`` (critical highlighting), ``sa``/``sd``
(sorting) and ``m`` (matches) only change how Roll20 shows a roll: read and ignored. Not
read: ``/`` (Roll20 divides exactly and shows fractions; fightlog totals are whole numbers:
write ``//``), ``**``, ``mt``, ``floor()`` and the other functions, targets on groups.
"""

from __future__ import annotations

from functools import partial

from fightlog.dice.dialects.syntax_parser import read
from fightlog.dice.dialects.registry import Dialect, register
from fightlog.dice.dialects.syntax import OpSpec, Syntax

SYNTAX = Syntax(
    ops={
        "kh": OpSpec("kh", "optional"), "kl": OpSpec("kl", "optional"), "k": OpSpec("kh"),
        "dh": OpSpec("dh", "optional"), "dl": OpSpec("dl", "optional"), "d": OpSpec("dl"),
        "!!": OpSpec("!!", "optional"), "!p": OpSpec("!p", "optional"), "!": OpSpec("!", "optional"),
        "ro": OpSpec("ro"), "r": OpSpec("rr"),
    },
    successes="inclusive",
    failures="f",
    sets="{",
    modulo=True,
    no_division="roll20's / divides exactly (1d6/2 can be 3.5) and rounds only inside floor() or "
    "ceil(), which this dialect does not read; fightlog's totals are whole numbers",
    fudge=True,
    upper_d=False,
    annotations=True,
    comment="trailing",
    words_only=True,
    merge_runs=True,
    mark_ops=frozenset({"cs", "cf", "sa", "sd", "m"}),
)


DIALECT = register(
    Dialect(
        name="roll20",
        description="Roll20 /roll: inclusive > and <, !! compounding, !p penetrating, {groups}, dF, f failures",
        source="https://wiki.roll20.net/Dice_Reference",
        example="{4d6!!, 3d10}kh1 Fire",
        read=partial(read, syntax=SYNTAX),
    )
)
