"""What the rules decided: ``attack_resolved``, ``damage_applied``, ``healing_applied``,
``resource_spent``, ``weapon_reloaded``, ``moved``."""

from typing import Annotated, Literal

from msgspec import Meta

from fightlog.events.base import Event, Id


class AttackResolved(Event, tag="attack_resolved", kw_only=True, frozen=True):
    """The outcome of an attack (or any opposed or target-number check against someone).

    ``score`` is the attacker's final result, ``against`` what it had to beat (the opposing
    roll, Evasion, a threshold, a target number); ``margin`` is the ruleset's measure of the
    difference (Traveller's Effect, net hits). ``rolls`` are the ``seq`` of the dice events used.
    ``critical`` is ``success`` or ``failure`` when one applies.
    """

    attacker: Id
    target: Id
    hit: bool
    score: int
    against: int
    margin: int | None = None
    critical: Literal["success", "failure"] | None = None
    rolls: list[int] = []
    weapon: str | None = None
    declaration: int | None = None
    notes: list[str] = []


class DamageApplied(Event, tag="damage_applied", kw_only=True, frozen=True):
    """Damage taken from one pool: ``raw`` before reduction, ``reduced_by`` (DR, armour, soak),
    ``taken`` what left the pool. ``cause`` is the ``seq`` of the attack, tick or explosion."""

    target: Id
    raw: Annotated[int, Meta(ge=0)]
    taken: Annotated[int, Meta(ge=0)]
    reduced_by: Annotated[int, Meta(ge=0)] = 0
    pool: str = "hp"
    damage_type: str | None = None
    source: str | None = None
    cause: int | None = None


class HealingApplied(Event, tag="healing_applied", kw_only=True, frozen=True):
    """A pool restored (HP healed, armour repaired, MP regained)."""

    target: Id
    amount: Annotated[int, Meta(ge=0)]
    pool: str = "hp"
    source: str | None = None
    cause: int | None = None


class ResourceSpent(Event, tag="resource_spent", kw_only=True, frozen=True):
    """Something used up: MP for a spell, a round of ammunition, a flee attempt, a grenade."""

    actor: Id
    resource: str
    amount: Annotated[int, Meta(ge=0)] = 1
    cause: int | None = None


class WeaponReloaded(Event, tag="weapon_reloaded", kw_only=True, frozen=True):
    """A weapon is ready to fire again (reload, bolt worked, shell racked)."""

    actor: Id
    weapon: str
    cause: int | None = None


class Moved(Event, tag="moved", kw_only=True, frozen=True):
    """A movement: metres covered and/or the range band reached relative to someone, and
    where it ended (``x``, ``y`` in whole metres on the scene's map) when positions are kept."""

    actor: Id
    metres: int | None = None
    band: str | None = None
    relative_to: str | None = None
    points: int | None = None
    cause: int | None = None
    x: int | None = None
    y: int | None = None
