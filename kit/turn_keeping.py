"""Turn bookkeeping every ruleset's ``begin`` and ``end_turn`` share: who starts the fight,
who may take a turn, whose turn is open.

The posting order, the rounds and what a turn's end ticks are the ruleset's own (its
``turns`` module); these are the questions each asks the same way.
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.reducers.state import SceneState


def starting(state: SceneState, out: frozenset[str]) -> list[str]:
    """Who is in the fight when it begins, in the order they joined: not an arrival still
    waiting for their slot, no status in ``out``. Refused when the fight has begun already,
    or with fewer than two."""
    if state.turn.round > 0:
        raise RefusedError("the fight has begun already")
    waiting = {a.actor for a in state.turn.arrivals}
    fighters = [
        c.actor
        for c in sorted(state.combatants.values(), key=lambda c: c.joined)
        if c.actor not in waiting and out.isdisjoint(c.statuses)
    ]
    if len(fighters) < 2:
        raise RefusedError("a fight needs at least two combatants in it")
    return fighters


def takers(state: SceneState, passed: frozenset[str]) -> list[str]:
    """Who in the posting order may take a turn now, in order: in the fight, no status in
    ``passed`` (out of the fight, or waiting: holding a turn)."""
    combatants = state.combatants
    return [a for a in state.turn.order if a in combatants and passed.isdisjoint(combatants[a].statuses)]


def open_turn(state: SceneState) -> str:
    """Whose turn is open; refused when none is: before the fight begins, or (round 1 on)
    when nobody could take the next turn, or a ruling voided the open ``turn_started`` (a
    log ruled before ``fightlog rule`` refused that)."""
    actor = state.turn.current
    if actor is None:
        if state.turn.round > 0:
            raise RefusedError(f"no turn is open in round {state.turn.round}: nobody could take one, or a ruling "
                               "voided the open turn_started (withdraw that ruling, or end the scene)")
        raise RefusedError("no turn is open (begin the fight first)")
    return actor
