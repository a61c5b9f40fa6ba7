"""Damage and healing of characteristics (Combat: damage; Unconsciousness; Healing).

Damage past armour comes off END first; once END is 0, the rest from STR or DEX (the higher
by default, ``after_end``), then the other. Two characteristics at zero: unconscious; all
three: dead (``dead_at_three_zero``). Each wound is marked with its round (``injured``), for
first aid within ten rounds; each knock-out with its round, for regaining consciousness.
"""

from __future__ import annotations

from collections.abc import Mapping

from fightlog.events.model import DamageApplied, EffectApplied, EffectExpired, HealingApplied, StatusChanged
from fightlog.kit.table import Scribe
from fightlog.reducers.state import SceneState
from fightlog.rules.traveller import extended
from fightlog.rules.traveller.card import PHYSICAL
from fightlog.rules.traveller.fighters import FALLING, INJURED, KNOCKED_OUT, Fighter
from fightlog.rules.traveller.holds import release
from fightlog.rules.traveller.initiative import together
from fightlog.rules.traveller.options import TravellerOptions


def split(pools: Mapping[str, int], amount: int, options: TravellerOptions) -> list[tuple[str, int]]:
    """Where ``amount`` of damage goes, pool by pool: END, then STR or DEX per ``after_end``
    (``higher``: the higher now, STR on a tie), then the other. Damage beyond all three is
    lost. Always at least one entry (END, possibly 0)."""
    end = min(amount, max(pools.get("END", 0), 0))
    out = [("END", end)]
    rest = amount - end
    if options.after_end == "higher":
        first = "STR" if pools.get("STR", 0) >= pools.get("DEX", 0) else "DEX"
    else:
        first = options.after_end
    for name in (first, "DEX" if first == "STR" else "STR"):
        taken = min(rest, max(pools.get(name, 0), 0))
        if taken:
            out.append((name, taken))
            rest -= taken
    return out


def damage(scribe: Scribe, target: str, total: int, protection: int, cause: int, source: str) -> None:
    """``total`` damage less ``protection`` on ``target``, then what it leaves them as."""
    who = Fighter(scribe.state, target)
    amount = max(0, total - protection)
    raw, reduced = total, min(protection, total)
    for pool, taken in split(who.who.pools, amount, who.options):
        scribe.emit(DamageApplied(target=target, raw=max(raw, 0), reduced_by=reduced, taken=taken, pool=pool,
                                  source=source, cause=cause))
        raw, reduced = raw - reduced - taken, 0
    if amount > 0:
        mark(scribe, target, INJURED, cause)
    condition(scribe, target, cause)
    if amount > 0 and not Fighter(scribe.state, target).out:
        extended.damaged(scribe, target, amount, cause)


def mark(scribe: Scribe, target: str, name: str, cause: int, magnitude: int = 0) -> None:
    """Mark ``target`` with ``name`` at this round (replacing an earlier mark)."""
    ident = f"{name}-{target}"
    refreshes = ident if ident in scribe.state.effects else None
    scribe.emit(EffectApplied(effect=ident, name=name, target=target, refreshes=refreshes, cause=cause,
                              magnitude=magnitude or None, params={"round": scribe.state.turn.round}))


def condition(scribe: Scribe, target: str, cause: int | None) -> None:
    """Unconscious at two characteristics at zero, dead at three (or unconscious); awake
    again below two. One taken out by someone of their own initiative slot who has not yet
    acted this round falls when their own turn ends (``simultaneous``: ``together``)."""
    who = Fighter(scribe.state, target)
    zero = who.zeroed()
    if zero >= 2 and _held_back(scribe.state, who):
        if f"{FALLING}-{target}" not in scribe.state.effects:
            scribe.emit(EffectApplied(effect=f"{FALLING}-{target}", name=FALLING, target=target, cause=cause,
                                      source=scribe.state.turn.current, params={"round": scribe.state.turn.round}))
        return
    if zero >= 3 and who.options.dead_at_three_zero:
        if not who.has("dead"):
            scribe.emit(StatusChanged(actor=target, status="dead", cause=cause, note="STR, DEX and END at zero"))
            release(scribe, target, "taken out")
        return
    if zero >= 2 and not who.has("unconscious"):
        scribe.emit(StatusChanged(actor=target, status="unconscious", cause=cause,
                                  note="two characteristics at zero"))
        release(scribe, target, "taken out")
        if cause is not None:
            mark(scribe, target, KNOCKED_OUT, cause)
    elif zero < 2 and who.has("unconscious"):
        wake(scribe, target, cause, "fewer than two characteristics at zero")


def _held_back(state: SceneState, who: Fighter) -> bool:
    current = state.turn.current
    if who.options.simultaneous != "together" or current is None or current == who.actor:
        return False
    if who.actor in state.turn.acted or who.out or who.actor not in state.turn.order:
        return False
    return together(state, current, who.actor)


def fall(scribe: Scribe, target: str) -> None:
    """A combatant held back by simultaneous action falls now (their turn is over)."""
    ident = f"{FALLING}-{target}"
    held = scribe.state.effects.get(ident)
    if held is None:
        return
    scribe.emit(EffectExpired(effect=ident, target=target, reason="the slot is over"))
    condition(scribe, target, held.applied)


def wake(scribe: Scribe, target: str, cause: int | None, note: str) -> None:
    scribe.emit(StatusChanged(actor=target, status="unconscious", on=False, cause=cause, note=note))
    ident = f"{KNOCKED_OUT}-{target}"
    if ident in scribe.state.effects:
        scribe.emit(EffectExpired(cause=cause, effect=ident, target=target, reason="awake"))


def heal_split(state: SceneState, target: str, amount: int, chosen: Mapping[str, int]) -> list[tuple[str, int]]:
    """Where ``amount`` points of healing go: as ``chosen`` first (in STR, DEX, END order),
    the rest a point at a time to the most damaged characteristic; none beyond the maximum."""
    who = state.combatants[target]
    lost = {n: who.pool_max.get(n, 0) - who.pools.get(n, 0) for n in PHYSICAL}
    out: dict[str, int] = {}
    for name in PHYSICAL:
        give = min(chosen.get(name, 0), lost[name], amount)
        if give > 0:
            out[name] = give
            lost[name] -= give
            amount -= give
    while amount > 0 and any(lost.values()):
        name = max(PHYSICAL, key=lambda n: lost[n])
        out[name] = out.get(name, 0) + 1
        lost[name] -= 1
        amount -= 1
    return [(n, out[n]) for n in PHYSICAL if n in out]


def heal(scribe: Scribe, target: str, amount: int, chosen: Mapping[str, int], cause: int, source: str) -> None:
    for pool, points in heal_split(scribe.state, target, amount, chosen):
        scribe.emit(HealingApplied(target=target, amount=points, pool=pool, source=source, cause=cause))
    condition(scribe, target, cause)
