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

from typing import Final

from fightlog.events.model import (
    InitiativeRolled,
    InitiativeSet,
    ResourceSpent,
    RoundEnded,
    RoundStarted,
    StatusChanged,
    TurnEnded,
    TurnStarted,
)
from fightlog.reducers.state import ActiveEffect
from fightlog.rules.roe7 import conditions, escape, explosives, harm
from fightlog.rules.roe7.fighters import Fighter, options_of
from fightlog.rules.roe7.ruleset import OUT, WAITING
from fightlog.kit.table import Scribe
from fightlog.kit.turn_keeping import open_turn, starting, takers

FREE_DRAW: Final = "first-turn free draw"
"""Spent (``resource_spent``) when one's first turn not stunned ends: drawing costs an action
from then on."""


def begin(scribe: Scribe) -> None:
    state = scribe.state
    fighters = starting(state, OUT)
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


_PASSED: Final = OUT | WAITING
"""Who takes no turn now: out of the fight, or holding one."""


def open_next(scribe: Scribe) -> None:
    """Open the next turn: the first combatant in order who has not posted this round and
    can; a new round when everyone has."""
    for _ in range(4 * len(scribe.state.combatants) + 4):
        turn = scribe.state.turn
        eligible = takers(scribe.state, _PASSED)
        if not eligible:
            return
        waiting = [a for a in eligible if a not in turn.acted]
        if not waiting:
            _pass_slots(scribe, None)
            scribe.emit(RoundEnded(round=turn.round))
            scribe.emit(RoundStarted(round=turn.round + 1))
            continue
        _pass_slots(scribe, waiting[0])
        actor = _first_waiting(scribe)
        scribe.emit(TurnStarted(actor=actor, round=scribe.state.turn.round))
        if Fighter(scribe.state, actor).has("arrived"):
            scribe.emit(StatusChanged(actor=actor, status="arrived", on=False, note="in the fight"))
        harm.start_of_turn(scribe, actor)
        if Fighter(scribe.state, actor).out:
            _slot_passed(scribe, actor)
            scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
            continue
        return


def _first_waiting(scribe: Scribe) -> str:
    """Who posts next this round (called allies who just took their slot included)."""
    turn = scribe.state.turn
    return next(a for a in takers(scribe.state, _PASSED) if a not in turn.acted)


def end_turn(scribe: Scribe) -> None:
    """Close the open turn: pending flees and calls are rolled, fused explosives go off, the
    first-turn free draw is spent (if not stunned), effects count down; open the next."""
    actor = open_turn(scribe.state)
    escape.resolve(scribe, actor)
    explosives.fuses(scribe, actor)
    _spend_free_draw(scribe, actor)
    for effect in conditions.end_of_turn(scribe, actor):
        if effect.name == "reinforcements":
            _reinforce(scribe, actor, effect)
    if Fighter(scribe.state, actor).has("arriving"):
        scribe.emit(StatusChanged(actor=actor, status="arriving", on=False, note="arrival posted"))
        scribe.emit(StatusChanged(actor=actor, status="arrived", note="acts from their next turn, interrupts included"))
    scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
    open_next(scribe)


def free_draw(who: Fighter) -> bool:
    """Changing Weapons: drawing is free on one's first turn of combat that one is not
    stunned in (the arrival post, for an arrival)."""
    return who.who.spent.get(FREE_DRAW, 0) == 0 and not stunned(who)


def stunned(who: Fighter) -> bool:
    """Stunned, or losing the whole turn to a critical, in the open turn."""
    return who.effect("stun") is not None or any(who.at_turn_start(e) for e in who.effects("lost_turn"))


def _spend_free_draw(scribe: Scribe, actor: str) -> None:
    """The first turn not stunned is over: the free draw is gone, used or not."""
    who = Fighter(scribe.state, actor)
    if free_draw(who):
        scribe.emit(ResourceSpent(actor=actor, resource=FREE_DRAW))


def _pass_slots(scribe: Scribe, upto: str | None) -> None:
    """The posting order moves past the slots of combatants out of the fight, from the last
    turn taken this round to ``upto`` (or to the round's end): each passed slot ends like a
    turn for what counts on them (see ``_slot_passed``)."""
    turn = scribe.state.turn
    order = turn.order
    last = turn.acted[-1] if turn.acted else None
    start = order.index(last) + 1 if last in order else 0
    end = order.index(upto) if upto is not None and upto in order else len(order)
    for actor in order[start:end]:
        who = scribe.state.combatants.get(actor)
        if who is not None and OUT.intersection(who.statuses) and actor not in turn.acted:
            _slot_passed(scribe, actor)


def _slot_passed(scribe: Scribe, actor: str) -> None:
    """A combatant out of the fight (downed, fled) still has things timed by their turns: a
    grenade they threw or cooked explodes when their second turn would have ended, and
    allies they called still come after the wait."""
    explosives.fuses(scribe, actor)
    for effect in conditions.end_of_turn(scribe, actor, only=frozenset({"reinforcements"})):
        _reinforce(scribe, actor, effect)


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
