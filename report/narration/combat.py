"""Combat in words: attacks resolved, damage, healing, shots, reloads, moves and statuses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fightlog.events.model import (
    AttackResolved,
    DamageApplied,
    HealingApplied,
    Moved,
    ResourceSpent,
    StatusChanged,
    WeaponReloaded,
)
from fightlog.report.narration.lines import Scene
from fightlog.report.narration.phrases import distance_text, pool_name, unit_of
from fightlog.report.wording import plural, spoken


def _resolved(event: AttackResolved, scene: Scene) -> str:
    # an outcome that lands without beating what it had to (a blast on those caught, a
    # spread below the threshold: they "automatically hit") catches, rather than hits
    caught = event.hit and event.margin is not None and event.margin < 0 and event.critical is None
    if event.target == event.attacker and not event.weapon:  # an unopposed roll (a skill): against a number
        text = f"{scene.who(event.attacker)} {'succeeds' if event.hit else 'fails'}"
    else:
        verb = "catches" if caught else "hits" if event.hit else "misses"
        text = f"{scene.who(event.attacker)} {verb} {scene.who(event.target)}"
    if event.weapon:
        text += f" with {event.weapon}"
    parts = [f"{event.score} vs {event.against}"]
    if event.margin is not None:
        parts.append(f"margin {event.margin}")
    if event.critical:
        parts.append(f"critical {event.critical}")
    parts.extend(event.notes)
    return text + ": " + "; ".join(parts)


def _damaged(event: DamageApplied, scene: Scene) -> str:
    kind = f"{event.damage_type} damage" if event.damage_type else "damage"
    text = f"{scene.who(event.target)} takes {event.taken} {kind}"
    if event.pool != "hp":
        text += f" to {event.pool}"
    if event.source:
        text += f" from {scene.who(event.source)}"
    if event.reduced_by or event.raw != event.taken:
        text += f" ({event.raw} raw, {event.reduced_by} reduced)"
    return text


def _healed(event: HealingApplied, scene: Scene) -> str:
    text = f"{scene.who(event.target)} recovers {event.amount} {pool_name(event.pool)}"
    if event.source and event.source != event.target:
        text += f" from {scene.who(event.source)}"
    return text


def _spent(event: ResourceSpent, scene: Scene) -> str:
    who = scene.before.combatants.get(event.actor)
    if who is not None and event.resource in who.weapons:
        times = "" if event.amount == 1 else f" ({event.amount} rounds)"
        return f"{scene.who(event.actor)} fires {event.resource}{times}"
    resource = spoken(event.resource)
    if event.amount == 1 and "_" in event.resource and event.resource.endswith("s"):
        resource = resource[:-1]  # a plural id, flee_attempts: "spends 1 flee attempt" (never a sheet's "Sleeping Gas")
    return f"{scene.who(event.actor)} spends {event.amount} {resource}"


def _reloaded(event: WeaponReloaded, scene: Scene) -> str:
    return f"{scene.who(event.actor)} reloads {event.weapon}"


def _moved(event: Moved, scene: Scene) -> str:
    if event.metres is None and event.x is not None and event.y is not None:
        return f"{scene.who(event.actor)} stands at ({event.x}, {event.y})"
    text = f"{scene.who(event.actor)} moves"
    if event.metres is not None:
        text += " " + distance_text(event.metres, unit_of(scene.before))
    if event.x is not None and event.y is not None:
        text += f" to ({event.x}, {event.y})"
    if event.band is not None:
        text += f", to {event.band} range"
        if event.relative_to is not None:
            text += f" of {scene.who(event.relative_to)}"
    elif event.relative_to is not None:
        text += f", relative to {scene.who(event.relative_to)}"
    if event.points is not None:
        text += f" ({plural(event.points, 'movement point')})"
    return text


def _status(event: StatusChanged, scene: Scene) -> str:
    verb = "gains" if event.on else "loses"
    text = f"{scene.who(event.actor)} {verb} status {spoken(event.status)}"
    return text + (f" ({event.note})" if event.note else "")


DESCRIBE: dict[type, Callable[[Any, Scene], str]] = {
    AttackResolved: _resolved,
    DamageApplied: _damaged,
    HealingApplied: _healed,
    ResourceSpent: _spent,
    WeaponReloaded: _reloaded,
    Moved: _moved,
    StatusChanged: _status,
}
"""Event type -> its line."""
