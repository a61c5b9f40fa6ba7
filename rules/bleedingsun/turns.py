"""The round (Sequence; Actions; Health and Dying; Status Affect Saves; Holding an Aim;
Total Defense; The way of the shadow warrior: flat-footed).

``begin`` rolls the sequence, makes everyone flat-footed until their first turn and opens
round 1. A turn opening resets the immediate action, ends total defense and the flat-footed
state, and fires burning and confusion (a stunned fighter, or a confused one rolling 3-4,
loses the turn). ``end_turn`` resolves the turn's attacks nobody answered, expires aims not
held, staggers and stuns that have run their course, counts fleeing down, and opens the next
turn: the first in the order who has not acted; a new round when all have. A new round
fires what the turn start of those out of the fight would (``statuses.round_started``:
burning, the end of staggers and stuns) and ticks every bleed begun in an earlier round
(and its stabilize check).
"""

from __future__ import annotations

from typing import Final

from fightlog.events.model import EffectExpired, RoundEnded, RoundStarted, StatusChanged, TurnEnded, TurnStarted
from fightlog.kit.table import Scribe
from fightlog.kit.turn_keeping import open_turn, starting, takers
from fightlog.rules.bleedingsun import fuses, harm, readying, resolve, sequence, statuses
from fightlog.rules.bleedingsun.fighters import AIM, DEFENSE, IMMEDIATE, INCOMING, STUNNED, Fighter
from fightlog.rules.bleedingsun.ruleset import OUT, WAITING

_LIMIT: Final = 8


def begin(scribe: Scribe) -> None:
    actors = starting(scribe.state, OUT)
    sequence.begin(scribe, actors)
    for actor in actors:
        scribe.emit(StatusChanged(actor=actor, status="flat_footed", note="has not acted in the fight yet"))
    scribe.emit(RoundStarted(round=1))
    open_next(scribe)


def open_next(scribe: Scribe) -> None:
    for _ in range(_LIMIT * (len(scribe.state.combatants) + 2)):
        state = scribe.state
        eligible = takers(state, OUT | WAITING)
        waiting = [a for a in eligible if a not in state.turn.acted]
        if not waiting:
            if not eligible:
                return
            new_round(scribe)
            continue
        actor = waiting[0]
        seq = scribe.emit(TurnStarted(actor=actor, round=scribe.state.turn.round))
        if _started(scribe, actor, seq):
            return
        close(scribe, actor)  # a turn lost, or out at its start (burning): its end still ends what it ends


def _started(scribe: Scribe, actor: str, seq: int) -> bool:
    """What a turn's start resets and fires; whether the turn goes on (not lost)."""
    who = Fighter(scribe.state, actor)
    if who.flat_footed():
        scribe.emit(StatusChanged(actor=actor, status="flat_footed", on=False, cause=seq))
    for found in who.effects(IMMEDIATE):
        scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="a new round of actions"))
    for found in who.effects(DEFENSE):
        scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="the next turn began"))
    readying.end(scribe, actor, "unused: the next turn came round")
    fuses.turn_started(scribe, actor)
    if Fighter(scribe.state, actor).out:
        return False
    lost = statuses.turn_started(scribe, actor, seq)
    now = Fighter(scribe.state, actor)
    if now.out:
        return False
    return not (lost or now.effects(STUNNED))


def new_round(scribe: Scribe) -> None:
    round_ = scribe.state.turn.round
    for actor in sorted(scribe.state.combatants):
        if Fighter(scribe.state, actor).has("delaying"):
            scribe.emit(StatusChanged(actor=actor, status="delaying", on=False, note="the delayed turn was not taken"))
    scribe.emit(RoundEnded(round=round_))
    scribe.emit(RoundStarted(round=round_ + 1))
    fuses.round_started(scribe)
    statuses.round_started(scribe)
    harm.bleed_all(scribe)


def end_turn(scribe: Scribe) -> None:
    actor = open_turn(scribe.state)
    waiting = sorted({(int(e.params.get("declaration", 0)), int(e.params.get("index", 0)))
                      for e in scribe.state.effects.values() if e.name == INCOMING and e.source == actor})
    for declaration, index in waiting:
        resolve.resolve(scribe, declaration, index)
    if not Fighter(scribe.state, actor).has("delaying"):
        close(scribe, actor)
    open_next(scribe)  # a delayer's turn is left open: it is taken when they come out of the delay


def close(scribe: Scribe, actor: str) -> None:
    who = Fighter(scribe.state, actor)
    round_ = scribe.state.turn.round
    for found in who.effects(AIM):
        held = found.params.get("held") is True and int(found.params.get("round", 0)) >= round_
        if not held:
            scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="not held"))
    if who.effects():
        statuses.turn_ended(scribe, actor)
    scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))
