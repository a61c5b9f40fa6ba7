"""Dice dialects: the notations of popular dice bots, read into fightlog's one dice engine.

Each dialect is a module holding data (a ``Syntax`` for ``syntax_parser.py``) and small functions
(prefixes such as repeats); every dialect's expression is compiled by
``expression.build_expression``, so the fair generator, the limits and verification are the
same for all. See docs/dice.md, "Dialects".

    compile_in("(1d20, 1d20)kh1+5 attack", "avrae")   # an Expression
    roll("4d6 k3", gen, 0, dialect="dice-maiden")      # a RollResult
"""

from fightlog.dice.dialects.registry import (
    DEFAULT,
    DIALECTS,
    Dialect,
    compile_in,
    dialect_named,
    roll_all,
)
from fightlog.dice.expression import roll
from fightlog.dice.dialects import fightlog as _fightlog  # noqa: F401  (registers, first)
from fightlog.dice.dialects import avrae as _avrae  # noqa: F401
from fightlog.dice.dialects import dice_maiden as _dice_maiden  # noqa: F401
from fightlog.dice.dialects import roll20 as _roll20  # noqa: F401
from fightlog.dice.dialects import rpg_sage as _rpg_sage  # noqa: F401

__all__ = ["DEFAULT", "DIALECTS", "Dialect", "compile_in", "dialect_named", "roll", "roll_all"]
