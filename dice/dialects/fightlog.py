"""fightlog's own notation (docs/dice.md, "Notation"): the lexer and parser of
``dice``, unchanged. Forms another popular dialect reads differently are refused there
with both readings named (docs/dice.md, "Ambiguous forms")."""

from __future__ import annotations

from fightlog.dice.dialects.registry import Dialect, register
from fightlog.dice.parser import parse

DIALECT = register(
    Dialect(
        name="fightlog",
        description="fightlog's own notation (the default)",
        source="docs/dice.md",
        example="4d6dl1+2 # stats",
        read=parse,
    )
)
