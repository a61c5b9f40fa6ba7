"""The round (Initiative; Reaction; Defer Action; Healing: regain consciousness).

``begin`` rolls initiative and opens round 1 (the ambush DM in its order). ``end_turn``
rolls the attacks of the turn nobody answered, ends what the turn ends (the DM-1 of
reactions made before it, an aim not kept up) and opens the next turn: the first in order
who has not acted, a deferred turn after the one it waits for (or last), a new round when
everyone has acted. A combatant who dived for cover loses their next turn. At each new round
the unconscious try to wake, once per ten rounds, with DM+1 per earlier failure.
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from fightlog.errors import RefusedError
from fightlog.events.model import (EffectApplied, EffectExpired, InitiativeSet, RoundEnded, RoundStarted,
                                   StatusChanged, TurnEnded, TurnStarted)
from fightlog.kit.table import Scribe
from fightlog.kit.turn_keeping import open_turn, starting, takers
from fightlog.rules.traveller import grapple, harm, initiative, reactions
from fightlog.rules.traveller.checks import effect
from fightlog.rules.traveller.fighters import AIM, DEFERRED, KNOCKED_OUT, LEADERSHIP, REACTED, Fighter, options_of
from fightlog.rules.traveller.ruleset import OUT

_LIMIT: Final = 8


def begin(scribe: Scribe) -> None:
    actors = starting(scribe.state, OUT)
    options = options_of(scribe.state)
    _ambushers(scribe, options.ambush)
    initiative.roll_all(scribe, actors, options)
    first = initiative.order(scribe.state, actors, first_round=True)
    reason = f"initiative; ambush by {options.ambush} (first round)" if options.ambush else "initiative"
    scribe.emit(InitiativeSet(order=first, reason=reason))
    scribe.emit(RoundStarted(round=1))
    open_next(scribe)


def _ambushers(scribe: Scribe, side: str) -> None:
    """Refuse an ``ambush`` naming a side nobody in the fight is on (the sides are first
    known here)."""
    sides = sorted({c.side or c.actor for c in scribe.state.combatants.values()})
    if side and side not in sides:
        raise RefusedError(f"option ambush = {side!r}: nobody in the fight is on that side "
                           f"(sides: {', '.join(sides) or 'none'})")


def open_next(scribe: Scribe) -> None:
    """Open the next turn (see the module docstring)."""
    for _ in range(_LIMIT * (len(scribe.state.combatants) + 2)):
        state = scribe.state
        acted = state.turn.acted
        eligible = takers(state, OUT)
        waiting = [a for a in eligible if a not in acted]
        if not waiting:
            if not eligible:
                return
            new_round(scribe)
            continue
        actor = _next(scribe, waiting)
        scribe.emit(TurnStarted(actor=actor, round=scribe.state.turn.round))
        who = Fighter(scribe.state, actor)
        if who.has("delaying"):
            scribe.emit(StatusChanged(actor=actor, status="delaying", on=False, note="takes the deferred turn"))
        if who.has("dived"):
            scribe.emit(StatusChanged(actor=actor, status="dived", on=False, note="the turn lost to the dive"))
            close(scribe, actor, lost=True)
            continue
        return


def _next(scribe: Scribe, waiting: list[str]) -> str:
    """The first not deferring; a deferred turn once the one it waits for has acted, or
    when only deferred turns are left."""
    state = scribe.state
    for actor in waiting:
        who = Fighter(state, actor)
        if not who.has("delaying"):
            return actor
        after = next((str(e.params.get("after", "")) for e in who.effects(DEFERRED)), "")
        if after and after in state.turn.acted:
            return actor
    for actor in waiting:
        after = next((str(e.params.get("after", "")) for e in Fighter(state, actor).effects(DEFERRED)), "")
        if not after or after not in state.turn.order or after not in waiting:
            return actor
    return waiting[0]


def new_round(scribe: Scribe) -> None:
    round_ = scribe.state.turn.round
    for actor in sorted(scribe.state.combatants):
        who = Fighter(scribe.state, actor)
        if who.has("delaying"):
            scribe.emit(StatusChanged(actor=actor, status="delaying", on=False, note="the deferred turn was not taken"))
        for found in who.effects(DEFERRED):
            scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="the round is over"))
    for actor in sorted(scribe.state.combatants):
        harm.fall(scribe, actor)
    for found in sorted(scribe.state.effects.values(), key=lambda e: e.effect):
        if found.name == LEADERSHIP and int(str(found.params.get("round", round_))) < round_:
            scribe.emit(EffectExpired(effect=found.effect, target=found.target, reason="not handed out in time"))
    scribe.emit(RoundEnded(round=round_))
    scribe.emit(RoundStarted(round=round_ + 1))
    _wake(scribe)
    actors = [a for a in scribe.state.turn.order if a in scribe.state.combatants]
    arrived = [a for a in actors if a not in scribe.state.turn.initiative]
    if arrived:  # arrivals roll when they take their place (no Tactics: the fight is on)
        initiative.roll_all(scribe, arrived, replace(options_of(scribe.state), tactics=False))
    wanted = initiative.order(scribe.state, actors, first_round=False)
    if wanted != list(scribe.state.turn.order):
        reason = "initiative, with arrivals" if arrived else "initiative (after the first round)"
        scribe.emit(InitiativeSet(order=wanted, reason=reason))


def _wake(scribe: Scribe) -> None:
    """The unconscious (not dead) try to wake once per ``wake_rounds`` rounds: 2D + END DM +
    DM+1 per earlier failure, 8+."""
    state = scribe.state
    round_ = state.turn.round
    for actor in sorted(state.combatants):
        who = Fighter(state, actor)
        mark = who.effect(KNOCKED_OUT)
        if not who.has("unconscious") or who.has("dead") or mark is None:
            continue
        since = int(str(mark.params.get("round", round_)))
        if round_ - since < who.options.wake_rounds:
            continue
        failures = mark.magnitude or 0
        mods = [m for m in ((who.dm("END"), "END DM"), (failures, "earlier failures")) if m[0]]
        rolled, seq = scribe.roll("2d6", roller=actor, purpose="consciousness", modifiers=mods)
        if effect(rolled.total, who.options) >= 0:
            harm.wake(scribe, actor, seq, "regained consciousness")
        else:
            harm.mark(scribe, actor, KNOCKED_OUT, seq, magnitude=failures + 1)


def end_turn(scribe: Scribe) -> None:
    actor = open_turn(scribe.state)
    for found in reactions.unanswered(scribe.state, actor):
        reactions.roll(scribe, found, None)
    grapple.unpicked(scribe, actor)
    close(scribe, actor)
    open_next(scribe)


def close(scribe: Scribe, actor: str, *, lost: bool = False) -> None:
    """End ``actor``'s turn: reactions made before it stop costing DM-1 (not at a turn
    ``lost`` to a dive, under ``reaction_dm_on = "next_actions"``: no actions were made in
    it), an aim not renewed in it is lost."""
    who = Fighter(scribe.state, actor)
    paid = not lost or who.options.reaction_dm_on == "next_turn"
    for found in who.effects(REACTED) if paid else ():
        if who.at_turn_start(found):
            scribe.emit(EffectExpired(effect=found.effect, target=actor, reason="the next actions are over"))
    aim = who.effect(AIM)
    if aim is not None and who.at_turn_start(aim):
        scribe.emit(EffectExpired(effect=aim.effect, target=actor, reason="not kept up"))
    harm.fall(scribe, actor)
    scribe.emit(TurnEnded(actor=actor, round=scribe.state.turn.round))


def defer(scribe: Scribe, actor: str, after: str | None, declaration: int) -> None:
    """Defer the turn: the actor waits (``delaying``) until ``after`` has acted, or the end
    of the round; the next turn opens now."""
    scribe.emit(StatusChanged(actor=actor, status="delaying", cause=declaration,
                              note=f"after {after}" if after else "later in the round"))
    scribe.emit(EffectApplied(effect=f"{DEFERRED}-{declaration}", name=DEFERRED, target=actor, cause=declaration,
                              params={"after": after or ""}))
    open_next(scribe)
