"""The turn structure (Parts of a Turn; Steps of a Combat Turn; Buffs; Debuffs; Calling for
Aid; Entering a Combat in Progress).

``begin`` sets the posting order and opens round 1. ``end_turn`` closes the open turn in the
rulebook's order: pending flees and com calls are rolled, fused explosives go off, the
effects counting on the actor count down (only those in place at the turn's start), then the
next combatant's turn opens with their debuffs' damage. Combatants out of the fight are
skipped; an arrival enters their claimed slot the round after they join; called allies enter
right after their caller once the wait is over.
"""

from __future__ import annotations

from fightlog.errors import RefusedError
from fightlog.events.model import (
    InitiativeRolled,
    InitiativeSet,
    RoundEnded,
    RoundStarted,
    StatusChanged,
    TurnEnded,
    TurnStarted,
)
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.roe7 import conditions, escape, explosives
from fightlog.rules.roe7.fighters import Fighter, options_of
from fightlog.rules.roe7.ruleset import OUT, WAITING
from fightlog.rules.table import Scribe


def begin(scribe: Scribe) -> None:
    state = scribe.state
    if state.turn.round > 0:
        raise RefusedError("the fight has begun already")
    waiting = {a.actor for a in state.turn.arrivals}
    fighters = [
        c.actor
        for c in sorted(state.combatants.values(), key=lambda c: c.joined)
        if c.actor not in waiting and not OUT.intersection(c.statuses)
    ]
    if len(fighters) < 2:
        raise RefusedError("a fight needs at least two combatants in it")
    if options_of(state).initiative == "d100":
        scores: list[tuple[int, int, str]] = []
        for place, actor in enumerate(fighters):
            rolled, seq = scribe.roll("1d100", roller=actor, purpose="initiative")
            scribe.emit(InitiativeRolled(actor=actor, score=rolled.total, roll=seq, tiebreak=[-place]))
            scores.append((-rolled.total, place, actor))
        order = [actor for _, _, actor in sorted(scores)]
        reason = "initiative"
    else:
        order, reason = fighters, "order joined"
    scribe.emit(InitiativeSet(order=order, reason=reason))
    scribe.emit(RoundStarted(round=1))
    open_next(scribe)


def _eligible(scribe: Scribe, actor: str) -> bool:
    who = scribe.state.combatants.get(actor)
    return who is not None and not (OUT | WAITING).intersection(who.statuses)


def open_next(scribe: Scribe) -> None:
    """Open the next turn: the first combatant in order who has not posted this round and
    can; a new round when everyone has."""
    for _ in range(4 * len(scribe.state.combatants) + 4):
        turn = scribe.state.turn
        eligible = [a for a in turn.order if _eligible(scribe, a)]
        if not eligible:
            return
        waiting = [a for a in eligible if a not in turn.acted]
        if not waiting:
            scribe.emit(RoundEnded(round=turn.round))
            scribe.emit(RoundStarted(round=turn.round + 1))
            continue
        actor = waiting[0]
        scribe.emit(TurnStarted(actor=actor, round=scribe.state.turn.round))
        conditions.start_of_turn(scribe, actor)
        if Fighter(scribe.state, actor).out:
            scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
            continue
        return


def end_turn(scribe: Scribe) -> None:
    actor = scribe.state.turn.current
    if actor is None:
        raise RefusedError("no turn is open (begin the fight first)")
    escape.resolve(scribe, actor)
    explosives.fuses(scribe, actor)
    for effect in conditions.end_of_turn(scribe, actor):
        if effect.name == "reinforcements":
            _reinforce(scribe, actor, effect)
    if Fighter(scribe.state, actor).has("arriving"):
        scribe.emit(StatusChanged(actor=actor, status="arriving", on=False, note="arrival posted"))
    scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
    open_next(scribe)


def _reinforce(scribe: Scribe, caller: str, effect: ActiveEffect) -> None:
    """The wait after a com call is over: the ally takes the slot after the caller."""
    called = str(effect.params.get("calls"))
    if called not in scribe.state.combatants:
        return
    scribe.emit(StatusChanged(actor=called, status="reserve", on=False, note=f"answering {caller}'s com call"))
    scribe.emit(StatusChanged(actor=called, status="arriving", note="first post is the arrival only"))
    order = [a for a in scribe.state.turn.order if a != called]
    at = order.index(caller) + 1 if caller in order else len(order)
    order.insert(at, called)
    scribe.emit(InitiativeSet(order=order, reason=f"reinforcements called by {caller}", by=caller))
