"""The turn structure (Initiative; Actions; Status Effects; Minions; Holding a Turn;
Mortally Wounded).

``begin`` decides the posting order and opens round 1. ``end_turn`` rolls the attacks still
waiting for a defensive turn, counts down the effects on the actor that were in place when
the turn started, and opens the next turn; a new turn starts with the actor's damage over
time. A new round first ends the old one: held turns not taken are lost, mortal wounds count
down (and kill), and minions summoned last round take the slot after their summoner.
"""

from __future__ import annotations

from typing import Final

from fightlog.events.model import InitiativeSet, RoundEnded, RoundStarted, StatusChanged, TurnEnded, TurnStarted
from fightlog.rules.d20evasion import conditions, defence, harm, initiative
from fightlog.rules.d20evasion.fighters import Fighter, options_of
from fightlog.rules.d20evasion.ruleset import OUT, WAITING
from fightlog.kit.table import Scribe
from fightlog.kit.turn_keeping import open_turn, starting, takers


def begin(scribe: Scribe) -> None:
    state = scribe.state
    fighters = [Fighter(state, actor) for actor in starting(state, OUT)]
    order, reason = initiative.decide(scribe, [initiative.member(f) for f in fighters], options_of(state))
    scribe.emit(InitiativeSet(order=order, reason=reason))
    scribe.emit(RoundStarted(round=1))
    open_next(scribe)


_PASSED: Final = OUT | WAITING
"""Who takes no turn now: out of the fight, or holding one."""


def open_next(scribe: Scribe) -> None:
    """Open the next turn: the first combatant in order who has not acted this round and
    can; a new round when everyone has."""
    for _ in range(4 * len(scribe.state.combatants) + 4):
        turn = scribe.state.turn
        eligible = takers(scribe.state, _PASSED)
        waiting = [a for a in eligible if a not in turn.acted]
        if not waiting:
            if not eligible and not _summoned(scribe):
                return
            new_round(scribe)
            continue
        actor = waiting[0]
        scribe.emit(TurnStarted(actor=actor, round=scribe.state.turn.round))
        harm.start_of_turn(scribe, actor)
        if Fighter(scribe.state, actor).out:
            scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
            continue
        return


def new_round(scribe: Scribe) -> None:
    """End the round (held turns lost, mortal wounds counted) and start the next (minions
    summoned last round in their slots)."""
    round_ = scribe.state.turn.round
    for actor in sorted(scribe.state.combatants):
        if Fighter(scribe.state, actor).has("holding"):
            scribe.emit(StatusChanged(actor=actor, status="holding", on=False, note="the held turn was not taken"))
    harm.end_of_round(scribe)
    scribe.emit(RoundEnded(round=round_))
    summoned = _summoned(scribe)
    if summoned:
        order = list(scribe.state.turn.order)
        for minion, owner in summoned:
            order = [a for a in order if a != minion]
            at = order.index(owner) + 1 if owner in order else len(order)
            while at < len(order) and scribe.state.combatants[order[at]].owner == owner:
                at += 1
            order.insert(at, minion)
            name = scribe.state.combatants[owner].name if owner in scribe.state.combatants else owner
            scribe.emit(StatusChanged(actor=minion, status="summoned", on=False, note=f"acts after {name}"))
        scribe.emit(InitiativeSet(order=order, reason="minions after their summoner"))
    scribe.emit(RoundStarted(round=round_ + 1))


def _summoned(scribe: Scribe) -> list[tuple[str, str]]:
    """Minions summoned and waiting for their first round, with their summoner."""
    return [
        (c.actor, c.owner or "")
        for c in sorted(scribe.state.combatants.values(), key=lambda c: c.joined)
        if "summoned" in c.statuses
    ]


def end_turn(scribe: Scribe) -> None:
    """Close the open turn: attacks nobody answered are rolled, effects count down; open the
    next."""
    actor = open_turn(scribe.state)
    for post, defender in defence.unanswered(scribe.state):
        defence.resolve(scribe, post, defender, None)
    conditions.end_of_turn(scribe, actor)
    scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
    open_next(scribe)
