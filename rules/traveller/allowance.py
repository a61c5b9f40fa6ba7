"""What a turn allows (Combat): one significant action and minor actions; the significant
action may be traded for one more minor action. Aiming is lost by doing anything else."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller.options import TravellerOptions
from fightlog.rules.traveller.ruleset import ACTION_TYPES

KEEPS_AIM: Final = frozenset({"aim", "attack", "say", "encourage", "defer"})
"""Actions that do not spoil an aim: aiming again, the attack it is for, talking."""


def turn_actions(state: SceneState, actor: str) -> list[Action]:
    """The actions ``actor`` declared earlier in the open turn."""
    return [a for p in state.pending if p.actor == actor and p.responds_to is None for a in p.actions]


def check_allowance(earlier: Sequence[Action], actions: Sequence[Action], options: TravellerOptions) -> None:
    """Refuse a turn beyond a significant and ``minor_actions`` minor actions (one more
    minor for a significant one not taken), or aiming beside anything else."""
    every = [*earlier, *actions]
    significant = sum(1 for a in every if ACTION_TYPES.get(a.type) == "significant")
    minor = sum(1 for a in every if ACTION_TYPES.get(a.type) == "minor")
    allowed = options.minor_actions + (1 if significant == 0 else 0)
    if significant > 1 or minor > allowed:
        raise RefusedError(f"a turn is one significant action and {options.minor_actions} minor action(s), or "
                           f"{options.minor_actions + 1} minor actions: this one has {significant} significant and "
                           f"{minor} minor", code="rules.allowance")
    if any(a.type == "aim" for a in every):
        other = sorted({a.type for a in every if a.type not in KEEPS_AIM})
        if other:
            raise RefusedError(f"aiming is lost by doing anything else: this turn also has {', '.join(other)}",
                               code="rules.aim")


def check_not_dived(statuses: Sequence[str], actor: str) -> None:
    """Refuse a post in a turn a dive for cover lost (Reaction: Dive for cover, "the next turn
    lost"): the table skips that turn, so only a hand-kept log posts in it."""
    if "dived" in statuses:
        raise RefusedError(f"{actor} dived for cover: this turn is lost to the dive", code="rules.allowance")
