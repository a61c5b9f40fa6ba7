"""What one post may hold (Combat; Combat actions; Movement): one combat action, or a move
alone or with an attack, Cover or Hide, besides free actions (speech, dropping something).
A move with a melee attack goes up to Agility in metres; with a ranged attack, Cover or Hide,
up to half of it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.rules.en51.fighters import Fighter
from fightlog.rules.en51.ruleset import ACTION_TYPES

WITH_MOVE: Final = frozenset({"attack", "cover", "hide"})
"""The actions a move combines with."""


def combat(actions: Sequence[Action]) -> list[Action]:
    """The actions that spend something (not free)."""
    return [a for a in actions if ACTION_TYPES.get(a.type) is not None]


def check(who: Fighter, actions: Sequence[Action]) -> tuple[Action | None, Action | None]:
    """The move and the combat action of a post (either may be ``None``); refused when the
    post holds more than one combat action or a move with what it cannot be combined with."""
    spent = combat(actions)
    moves = [a for a in spent if a.type == "move"]
    others = [a for a in spent if a.type != "move"]
    if len(moves) > 1:
        raise RefusedError("one move action a turn", code="rules.combined")
    if len(others) > 1:
        raise RefusedError(f"one combat action a turn, not {len(others)} ({', '.join(a.type for a in others)})",
                           code="rules.allowance")
    move = moves[0] if moves else None
    other = others[0] if others else None
    if move is None:
        return None, other
    if other is not None and other.type not in WITH_MOVE:
        raise RefusedError(f"a move cannot be combined with {other.type} (only an attack, Cover or Hide)",
                           code="rules.combined")
    metres = move.distance
    if metres is None or metres < 1:
        raise RefusedError("a move names its metres (distance=N)", code="rules.incomplete")
    limit = who.card.agility
    if other is not None and (other.type != "attack" or who.weapon(other.weapon).kind == "ranged"):
        limit //= 2
    if metres > limit:
        what = "alone or with a melee attack" if limit == who.card.agility else f"with {other.type if other else ''}"
        raise RefusedError(f"{who.actor} moves at most {limit} m {what} (Agility {who.card.agility}), not {metres}",
                           code="rules.combined")
    return move, other
