"""The combatants slice: pools, statuses, weapons, range band, things spent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from fightlog.events.model import (
    CombatantJoined,
    DamageApplied,
    HealingApplied,
    Moved,
    ResourceSpent,
    StatusChanged,
    TurnEnded,
    TurnStarted,
    WeaponReloaded,
)
from fightlog.reducers.fold_rules import FoldRules
from fightlog.reducers.state import Combatant, WeaponState

Combatants = dict[str, Combatant]


def _with(combatants: Combatants, actor: str, updated: Combatant) -> Combatants:
    out = dict(combatants)
    out[actor] = updated
    return out


def _joined(combatants: Combatants, event: CombatantJoined, rules: FoldRules) -> Combatants:
    weapons = {name: WeaponState() for name in rules.weapons(event.sheet)}
    pool_max = dict(event.pool_max)
    for pool, value in event.pools.items():
        pool_max.setdefault(pool, value)
    joined = Combatant(
        actor=event.actor,
        name=event.name,
        joined=event.seq,
        side=event.side,
        role=event.role,
        controller=event.controller,
        owner=event.owner,
        pools=dict(event.pools),
        pool_max=pool_max,
        weapons=weapons,
        sheet=event.sheet,
    )
    return _with(combatants, event.actor, joined)


def _damaged(combatants: Combatants, event: DamageApplied, rules: FoldRules) -> Combatants:
    who = combatants.get(event.target)
    if who is None:
        return combatants
    pools = dict(who.pools)
    pools[event.pool] = pools.get(event.pool, 0) - event.taken
    return _with(combatants, event.target, replace(who, pools=pools))


def _healed(combatants: Combatants, event: HealingApplied, rules: FoldRules) -> Combatants:
    who = combatants.get(event.target)
    if who is None:
        return combatants
    pools = dict(who.pools)
    value = pools.get(event.pool, 0) + event.amount
    ceiling = who.pool_max.get(event.pool)
    pools[event.pool] = value if ceiling is None else min(value, ceiling)
    return _with(combatants, event.target, replace(who, pools=pools))


def _spent(combatants: Combatants, event: ResourceSpent, rules: FoldRules) -> Combatants:
    who = combatants.get(event.actor)
    if who is None:
        return combatants
    resource = event.resource
    if resource in who.pools:
        pools = dict(who.pools)
        pools[resource] -= event.amount
        return _with(combatants, event.actor, replace(who, pools=pools))
    weapon = who.weapons.get(resource)
    if weapon is not None:
        fired, needs_reload, cooldown = rules.weapon_fired(resource, weapon.fired, event.amount)
        weapons = dict(who.weapons)
        weapons[resource] = WeaponState(fired=fired, needs_reload=needs_reload, cooldown=cooldown)
        return _with(combatants, event.actor, replace(who, weapons=weapons))
    spent = dict(who.spent)
    spent[resource] = spent.get(resource, 0) + event.amount
    return _with(combatants, event.actor, replace(who, spent=spent))


def _reloaded(combatants: Combatants, event: WeaponReloaded, rules: FoldRules) -> Combatants:
    who = combatants.get(event.actor)
    if who is None:
        return combatants
    weapons = dict(who.weapons)
    weapons[event.weapon] = WeaponState()
    return _with(combatants, event.actor, replace(who, weapons=weapons))


def _moved(combatants: Combatants, event: Moved, rules: FoldRules) -> Combatants:
    """The mover's metres, position and band. A band is between two: the one it is relative
    to is at that band of the mover too, and a band anyone else knew relative to the mover
    is no longer known (the mover is elsewhere). A move that names no band forgets the
    mover's, unless it covers no ground (d20-evasion's lateral move stays in the band)."""
    actor = event.actor
    who = combatants.get(actor)
    if who is None:
        return combatants
    position = (event.x, event.y) if event.x is not None and event.y is not None else who.position
    band, relative_to = who.band, who.relative_to
    stayed = not event.metres and position == who.position  # within the band (a lateral move)
    if event.band is not None:
        band, relative_to = event.band, event.relative_to
    elif not stayed or (event.relative_to not in (None, relative_to)):
        band, relative_to = None, event.relative_to
    out = dict(combatants)
    out[actor] = replace(who, moved=who.moved + (event.metres or 0), position=position, band=band,
                         relative_to=relative_to)
    kept = relative_to if band is not None else None
    if not (stayed and event.band is None):  # the mover is elsewhere: bands to them are not known
        for name, them in combatants.items():
            if them.band is not None and them.relative_to == actor and name != kept and name != actor:
                out[name] = replace(them, band=None, relative_to=None)
    if event.band is not None and kept is not None and kept != actor:
        partner = combatants.get(kept)
        if partner is not None:
            out[kept] = replace(partner, band=band, relative_to=actor)
    return out


def _status(combatants: Combatants, event: StatusChanged, rules: FoldRules) -> Combatants:
    who = combatants.get(event.actor)
    if who is None:
        return combatants
    present = event.status in who.statuses
    if present == event.on:
        return combatants
    if event.on:
        statuses = tuple(sorted((*who.statuses, event.status)))
    else:
        statuses = tuple(s for s in who.statuses if s != event.status)
    return _with(combatants, event.actor, replace(who, statuses=statuses))


def _turn_started(combatants: Combatants, event: TurnStarted, rules: FoldRules) -> Combatants:
    who = combatants.get(event.actor)
    if who is None or who.moved == 0:
        return combatants
    return _with(combatants, event.actor, replace(who, moved=0))


def _turn_ended(combatants: Combatants, event: TurnEnded, rules: FoldRules) -> Combatants:
    """Weapon cooldowns count down at the end of their owner's turn."""
    who = combatants.get(event.actor)
    if who is None:
        return combatants
    for weapon in who.weapons.values():
        if weapon.cooldown:
            break
    else:
        return combatants
    weapons = {
        name: replace(w, cooldown=w.cooldown - 1) if w.cooldown else w
        for name, w in who.weapons.items()
    }
    return _with(combatants, event.actor, replace(who, weapons=weapons))


REDUCERS: dict[type, Callable[[Any, Any, FoldRules], Any]] = {
    CombatantJoined: _joined,
    DamageApplied: _damaged,
    HealingApplied: _healed,
    ResourceSpent: _spent,
    WeaponReloaded: _reloaded,
    Moved: _moved,
    StatusChanged: _status,
    TurnStarted: _turn_started,
    TurnEnded: _turn_ended,
}
