"""The one place a reply's notation is compiled: under its bot's dialect, cached.

Every reader and the audit's re-evaluation (``fightlog.dice.external``) compile through
``compile_in`` so that a dialect read the way its bot reads it is one change here.
"""

from __future__ import annotations

from fightlog.dice.dialects import DEFAULT, compile_in as _compile_in
from fightlog.dice.expression import Expression


def compile_in(notation: str, dialect: str | None) -> Expression:
    """``notation`` read the way ``dialect`` reads it (``None``/``fightlog``: fightlog's own).

    Raises ``DiceError`` (syntax, limits, values, an unknown dialect); cached there.
    """
    return _compile_in(notation, dialect or DEFAULT)
