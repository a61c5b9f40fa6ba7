"""What a post's params may say (Combat actions; Ranged attack; Roll with it): each param an
action reads has one kind of value, and a post writing another is refused naming it, before
anything is written, rather than played as if it were not there (``rules.incomplete``, as a
post the table cannot read). Flags (``roll``, ``unaware``, ``turn``) are ``true`` or
``false``; numbers (``gm``, ``cover``, ``metres``, ``bonus``) whole (Cover's ``value`` is
refused by ``tactics.cover``, naming it); an attack's
``mode`` is ``auto`` or ``single``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.kit.actions import value_written

FLAGS: Final = frozenset({"roll", "unaware", "turn"})
"""Params that are ``true`` or ``false``."""

NUMBERS: Final[Mapping[str, str]] = {
    "gm": "a GM circumstance modifier is a whole number (gm=-3, gm=2)",
    "cover": "a Cover penalty is a whole number (cover=3)",
    "metres": "the metres sneaked are a whole number (metres=5)",
    "bonus": "a Medicine bonus is a whole number (bonus=2)",
}
"""Params that are whole numbers, and what to say when one is not."""

MODES: Final = ("auto", "single")
"""An attack's fire modes: automatic fire (two attacks) or a single shot (the default)."""


def check(actions: Sequence[Action]) -> None:
    """Refuse a post any of whose params (or an attack's mode) the rules cannot read."""
    for action in actions:
        if action.type == "attack" and action.mode is not None and action.mode not in MODES:
            raise RefusedError(f"mode={action.mode}: an attack's mode is {' or '.join(MODES)} "
                               "(auto: automatic fire, two attacks)", code="rules.incomplete")
        for name, value in action.params.items():
            if name in FLAGS and not isinstance(value, bool):
                raise RefusedError(f"{name}={value_written(value)}: {name} is true or false ({name}=true)",
                                   code="rules.incomplete")
            if name in NUMBERS and (not isinstance(value, int) or isinstance(value, bool)):
                raise RefusedError(f"{name}={value_written(value)}: {NUMBERS[name]}", code="rules.incomplete")
