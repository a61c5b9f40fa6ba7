"""Dice Maiden's ``/roll`` notation (https://github.com/Humblemonk/DiceMaiden: README.md and
src/dice_maiden_logic.rb).

What it reads: ``XdY`` followed by options, with or without a space: ``e``/``eN`` explode
once (each die showing N or more, default the highest face, adds one die: dicebag's
``RollPart#handle_explode`` tests ``r >= explode``; ``e0`` is off), ``ie``/``ieN`` explode
again and again (one that would never stop, ``ie1``, is refused), ``kN`` keep the N
highest, ``klN`` keep the N lowest, ``dN`` drop the N lowest (drops happen before keeps,
whatever the order written), ``rN`` reroll once a die showing N or less, ``irN`` reroll
until it shows more than N, ``tN`` count dice of N or more as successes, ``fN`` take one off
for each die of N or less; ``+ - * /`` (``/`` rounds down, as Ruby's integer division does);
``! comment``; ``N XdY ...`` rolls it N times (2 to 20). Its aliases read here, substituted
as the bot does: ``+dN`` (advantage: ``2dN d1``), ``-dN`` (disadvantage: ``2dN kl1``),
``NdF`` (Fate: ``Nd3 t3 f1``), ``Nd%`` (``Nd100``). Its limits (``limits.DICE_MAIDEN``, from
``check_roll``): 2 to 1000 sides, at most 500 dice in one ``XdY``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from fightlog.errors import DiceValueError
from fightlog.dice import limits
from fightlog.dice.dialects.syntax_parser import read
from fightlog.dice.dialects.registry import Dialect, register
from fightlog.dice.dialects.syntax import OpSpec, Syntax
from fightlog.dice.parser import Parsed

SYNTAX = Syntax(
    ops={
        "ie": OpSpec("!", "optional", selector="ge"), "e": OpSpec("!1", "optional", selector="ge"),
        "kl": OpSpec("kl"), "k": OpSpec("kh"), "d": OpSpec("dl"),
        "ir": OpSpec("rr", selector="le"), "r": OpSpec("ro", selector="le"),
    },
    space_before_ops=True,
    successes="none",
    division="floor",
    upper_d=True,
    comment="!",
    letters={"t": "success", "f": "failure"},
    drop_before_keep=True,
    limits=limits.DICE_MAIDEN,
)

_ALIASES = [
    (re.compile(r"(?<![\w)])\+d(\d+)\b", re.I), r"2d\1 d1"),
    (re.compile(r"(?<![\w)])-d(\d+)\b", re.I), r"2d\1 kl1"),
    (re.compile(r"\b(\d+)dF\b", re.I), r"\1d3 t3 f1"),
    (re.compile(r"\b(\d+)d%", re.I), r"\1d100"),
]
_REPEAT = re.compile(r"^\s*(\d+)\s+(?=\d*[dD])")


def read_dice_maiden(text: str) -> Parsed:
    body = text
    repeat = 1
    match = _REPEAT.match(body)
    if match:
        repeat = int(match.group(1))
        if not 2 <= repeat <= 20:
            raise DiceValueError(f"{text} : Dice Maiden repeats a roll 2 to 20 times, not {repeat}")
        body = body[match.end() :]
    head, bang, comment = body.partition("!")
    for pattern, replacement in _ALIASES:
        head = pattern.sub(replacement, head)
    parsed = read(head + bang + comment, SYNTAX)
    if repeat == 1:
        return parsed
    return replace(parsed, repeat=repeat)


DIALECT = register(
    Dialect(
        name="dice-maiden",
        description="Dice Maiden /roll: k, kl, d, e (once), ie, r, ir, t/f successes, +d20/-d20, N repeats, ! comments",
        source="https://github.com/Humblemonk/DiceMaiden",
        example="6 4d6 k3 ! stats",
        read=read_dice_maiden,
    )
)
