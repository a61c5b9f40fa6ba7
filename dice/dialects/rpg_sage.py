"""RPG Sage's dice (https://github.com/rpg-sage-creative/dice-utils: src/token/
getDiceTokenParsers.ts, src/DiceTest.ts, src/manipulate/*.ts; docs at https://rpgsage.io).

What it reads: ``NdS``; ``kh``/``kl``/``dh``/``dl`` with an optional count (default 1);
``x`` explode (again and again) with an optional comparison, as written (``x>5`` is 6 or
more; bare ``x`` the highest face); ``bt``/``lt N`` (a die below N shows N: fightlog's
``mi``) and ``tt``/``ht N`` (above N shows N: ``ma``); ``+ - *``; a test of the total after
the expression, ``>= 15`` or ``gte 15`` (also ``gt``, ``lte``, ``lt``, ``eq``, ``=``), read as
written (``>`` strict): the total stands and the roll passes or fails; words anywhere are
descriptions (``1d4 piercing + 2 strength + 1d6 sneak``), joined as the roll's label; ``N#expr`` rolls it N times (each its own roll, as RPG Sage and Rollem
show them). Not read: ``/`` (RPG Sage's JavaScript division gives fractions), several rolls
separated by ``;``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from fightlog.errors import DiceValueError
from fightlog.dice.dialects.syntax_parser import read
from fightlog.dice.dialects.registry import Dialect, register
from fightlog.dice.dialects.syntax import OpSpec, Syntax
from fightlog.dice.parser import Parsed

SYNTAX = Syntax(
    ops={
        "kh": OpSpec("kh", "optional"), "kl": OpSpec("kl", "optional"),
        "dh": OpSpec("dh", "optional"), "dl": OpSpec("dl", "optional"),
        "x": OpSpec("!", "optional"),
        "bt": OpSpec("mi"), "lt": OpSpec("mi"), "tt": OpSpec("ma"), "ht": OpSpec("ma"),
    },
    space_before_ops=True,
    successes="none",
    upper_d=True,
    comment="trailing",
    words_only=True,
    no_division="RPG Sage does not read / (this dialect follows it)",
    total_test=True,
)

_REPEAT = re.compile(r"^\s*(\d+)#")
MAX_REPEAT = 100
"""Most repeats one expression may ask for (each is an engine roll)."""


_WORD = re.compile(r"(?<![\w])[A-Za-z][A-Za-z'-]*(?![\w])|\"[^\"]*\"")
_KEYWORDS = {"kh", "kl", "dh", "dl", "x", "bt", "lt", "tt", "ht", "gteq", "gte", "gt", "lteq", "lte", "eq"}


def read_rpg_sage(text: str) -> Parsed:
    """Words anywhere are descriptions (``1d4 piercing + 2 strength``): they are blanked out
    of the expression, keeping every column, and joined as the roll's label."""
    words = [m for m in _WORD.finditer(text) if m.group().lower() not in _KEYWORDS]
    body = list(text)
    for m in words:
        body[m.start() : m.end()] = " " * (m.end() - m.start())
    label = " ".join(m.group().strip('"') for m in words) or None
    expr = "".join(body)
    repeat = 1
    match = _REPEAT.match(expr)
    if match:
        repeat = int(match.group(1)) if len(match.group(1)) <= 3 else MAX_REPEAT + 1
        if not 1 <= repeat <= MAX_REPEAT:
            raise DiceValueError(f"{text[:40]} : repeat 1 to {MAX_REPEAT} times")
        expr = " " * match.end() + expr[match.end() :]
    parsed = read(expr, SYNTAX)
    notation = " ".join(parsed.notation.split())
    return replace(parsed, notation=notation, repeat=repeat, label=label if words else parsed.label)


DIALECT = register(
    Dialect(
        name="rpg-sage",
        description="RPG Sage: N#expr repeats, tests of the total with pass/fail, x explode, bt/tt",
        source="https://github.com/rpg-sage-creative/dice-utils",
        example="6#3d6",
        read=read_rpg_sage,
    )
)
