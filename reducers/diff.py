"""What changed between two states, as structured facts (replay narrates them).

Only what a player follows is reported: pools, statuses, effects and their turns left, the
weapons' readiness, things spent, the round and the posting order, the scene's end and
rulings. The result is sorted by subject, then field, so equal changes render identically.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec import Struct

from fightlog.reducers.state import ActiveEffect, Combatant, SceneState, pool_order


class Change(Struct, frozen=True):
    """``subject`` had ``field`` go from ``before`` to ``after`` (``None``: absent).
    ``part`` says which part of the state the subject belongs to (``combatant``, ``effect``,
    ``turn``, ``scene``, ``rulings``), so a subject's name never has to be guessed from."""

    subject: str
    field: str
    before: Any = None
    after: Any = None
    part: str = "combatant"


def changes(before: SceneState, after: SceneState) -> list[Change]:
    found: list[Change] = []
    old_c, new_c = before.combatants, after.combatants
    if old_c is not new_c:
        for actor in _touched(old_c, new_c):
            found.extend(_combatant(actor, old_c.get(actor), new_c.get(actor)))
    old_e, new_e = before.effects, after.effects
    if old_e is not new_e:
        for effect in _touched(old_e, new_e):
            found.extend(_effect(effect, old_e.get(effect), new_e.get(effect)))
    bt, at = before.turn, after.turn
    if bt is not at:
        if bt.round != at.round:
            found.append(Change("turn", "round", bt.round, at.round, part="turn"))
        if bt.order != at.order:
            found.append(Change("turn", "order", list(bt.order), list(at.order), part="turn"))
    bs, as_ = before.scene, after.scene
    if bs is not as_ and bs is not None and as_ is not None and bs.ended != as_.ended:
        found.append(Change("scene", "ended", bs.ended, as_.ended, part="scene"))
    if before.rulings is not after.rulings:
        old = {r.seq for r in before.rulings}
        new = {r.seq for r in after.rulings}
        for seq in sorted(old - new):
            found.append(Change("rulings", "withdrawn", seq, None, part="rulings"))
        for seq in sorted(new - old):
            found.append(Change("rulings", "in force", None, seq, part="rulings"))
    return found


def _touched(old: Mapping[str, object], new: Mapping[str, object]) -> list[str]:
    """The keys whose values are not the same objects in both, sorted (a slice shares what
    an event left alone, so this is what the event touched)."""
    if old.keys() == new.keys():
        touched = [key for key, value in new.items() if old[key] is not value]
        touched.sort()
        return touched
    return sorted(old.keys() | new.keys())


def _combatant(actor: str, old: Combatant | None, new: Combatant | None) -> list[Change]:
    if old is new:
        return []
    if old is None or new is None:
        return [Change(actor, "present", old is not None, new is not None)]
    out: list[Change] = []
    if old.pools is not new.pools:
        for pool in sorted(old.pools.keys() | new.pools.keys(), key=pool_order):
            a, b = old.pools.get(pool), new.pools.get(pool)
            if a != b:
                out.append(Change(actor, pool, a, b))
    if old.pool_max is not new.pool_max:
        for pool in sorted(old.pool_max.keys() | new.pool_max.keys(), key=pool_order):
            a, b = old.pool_max.get(pool), new.pool_max.get(pool)
            if a != b:
                out.append(Change(actor, f"{pool} max", a, b))
    if old.statuses != new.statuses:
        for status in sorted(set(old.statuses) ^ set(new.statuses)):
            out.append(Change(actor, "status", status if status in old.statuses else None, status if status in new.statuses else None))
    if old.weapons is not new.weapons:
        for weapon in sorted(old.weapons.keys() | new.weapons.keys()):
            a_w, b_w = old.weapons.get(weapon), new.weapons.get(weapon)
            if a_w is None or b_w is None:
                continue
            if a_w.needs_reload != b_w.needs_reload:
                out.append(Change(actor, f"{weapon} reload", a_w.needs_reload, b_w.needs_reload))
            if a_w.cooldown != b_w.cooldown:
                out.append(Change(actor, f"{weapon} cooldown", a_w.cooldown, b_w.cooldown))
    if old.spent is not new.spent:
        for thing in sorted(old.spent.keys() | new.spent.keys()):
            a, b = old.spent.get(thing, 0), new.spent.get(thing, 0)
            if a != b:
                out.append(Change(actor, f"{thing} spent", a, b))
    if old.band != new.band:
        out.append(Change(actor, "band", old.band, new.band))
    return out


def _effect(effect: str, old: ActiveEffect | None, new: ActiveEffect | None) -> list[Change]:
    if old is new:
        return []
    if old is None or new is None:
        return [Change(effect, "effect", _describe(old), _describe(new), part="effect")]
    out: list[Change] = []
    if old.remaining != new.remaining:
        out.append(Change(effect, "remaining", old.remaining, new.remaining, part="effect"))
    if old.stacks != new.stacks:
        out.append(Change(effect, "stacks", old.stacks, new.stacks, part="effect"))
    return out


def _describe(effect: ActiveEffect | None) -> dict[str, Any] | None:
    if effect is None:
        return None
    return {
        "name": effect.name,
        "target": effect.target,
        "source": effect.source,
        "remaining": effect.remaining,
        "stacks": effect.stacks,
    }
