"""Readying an action (Readying and Delaying Actions): in one's turn, ``ready actions=A[,B]``
sets aside up to two actions, paid from that turn's actions (``economy.spent`` counts them),
as effect ``readied`` on the readier. Until one's next turn they may be taken in another's
turn, interrupting it (the trigger is the poster's word: the log cannot check it), without
an immediate action and without a drop in the sequence; the readied attacks resolve at once
(the one interrupted answers nothing in their own turn). Unused when one's next turn comes
round, they are lost (``effect_expired``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fightlog.errors import RefusedError
from fightlog.events.model import Action, EffectApplied, EffectExpired
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.bleedingsun.fighters import Fighter
from fightlog.rules.bleedingsun.ruleset import ACTION_TYPES

READIED: Final = "readied"
MOST: Final = 2
NOT_READIED: Final = frozenset({"ready", "delay", "undelay", "dodge", "block", "resist", "take", "aoo", "stop_aim",
                                "jump", "say", "total_defense", "coup_de_grace", "escape", "hold_aim"})
"""What cannot be readied: answers and immediate actions, full round actions, readying itself."""


def readied_types(action: Action) -> list[str]:
    """The action types a ``ready`` action sets aside (``actions=A,B``)."""
    return [t.strip() for t in str(action.params.get("actions", "")).split(",") if t.strip()]


def expanded(actions: Sequence[Action]) -> list[Action]:
    """``actions`` with each ``ready`` as the actions it sets aside (what the turn pays)."""
    return [x for a in actions for x in ([Action(type=t) for t in readied_types(a)] if a.type == "ready" else [a])]


def check_ready(action: Action) -> list[str]:
    """Refuse a ``ready`` of none or more than two actions, or of one that cannot be readied."""
    types = readied_types(action)
    if not types:
        raise RefusedError("ready: name the actions readied (actions=attack or actions=attack,stance)",
                           code="rules.ready")
    if len(types) > MOST:
        raise RefusedError(f"ready: {len(types)} actions readied ({', '.join(types)}); at most {MOST}",
                           code="rules.ready")
    unknown = [t for t in types if t not in ACTION_TYPES]
    if unknown:
        raise RefusedError(f"ready: {', '.join(unknown)} is not an action of bleeding-sun", code="rules.ready")
    bad = [t for t in types if t in NOT_READIED]
    if bad:
        raise RefusedError(f"ready: {', '.join(bad)} cannot be readied", code="rules.ready")
    return types


def ready(scribe: Scribe, actor: str, action: Action, cause: int) -> None:
    types = check_ready(action)
    who = Fighter(scribe.state, actor)
    scribe.emit(EffectApplied(effect=f"{READIED}-{actor}", name=READIED, target=actor, source=actor, cause=cause,
                              refreshes=f"{READIED}-{actor}" if who.effects(READIED) else None,
                              params={"actions": ",".join(types), "round": scribe.state.turn.round}))


def check_taking(state: SceneState, actor: str, actions: Sequence[Action]) -> None:
    """Refuse an out-of-turn post taking readied actions when ``actor`` readied none, or not
    these."""
    found = Fighter(state, actor).effects(READIED)
    if not found:
        raise RefusedError(f"{actor} has readied no action to take out of turn", code="rules.ready")
    left = readied_types(Action(type="ready", params=dict(found[0].params)))
    for action in actions:
        if action.type not in left:
            raise RefusedError(f"{actor} readied {', '.join(left) or 'nothing'}, not {action.type}", code="rules.ready")
        left.remove(action.type)


def end(scribe: Scribe, actor: str, reason: str) -> None:
    """``actor``'s readied actions end: taken, or lost unused when their next turn comes round."""
    for found in Fighter(scribe.state, actor).effects(READIED):
        scribe.emit(EffectExpired(effect=found.effect, target=actor, reason=reason))
