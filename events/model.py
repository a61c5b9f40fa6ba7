"""The event kinds: one tagged union of frozen msgspec Structs.

The Structs are defined one family per module (``base`` for ``Event`` and the shared field
types, then ``scene_kinds``, ``combatant_kinds``, ``turn_kinds``, ``declaration_kinds``,
``dice_kinds``, ``outcome_kinds``, ``effect_kinds``, ``ruling_kinds``); this module joins them
into the union and is where every other module imports them from.

A log is a sequence of these, one JSON object per line, tagged by ``kind``. The Struct
definitions *are* the format: ``fightlog schema`` prints the JSON Schema generated from them
and ``docs/events.md`` explains each kind with a real line.

Compatibility policy (``FORMAT_VERSION``): fields are only ever added, always with a default;
an existing field never changes type or meaning; a kind is never removed. Old logs therefore
keep loading. Unknown fields are ignored on read so a newer writer's extra fields do not stop
an older reader.

Fields whose meaning differs between rulesets (a roll's ``purpose``, an effect's ``name``,
a status) are open strings with documented common values; rulesets interpret them.
"""

from typing import TypeAlias, Union

from fightlog.events.base import FORMAT_VERSION, GENESIS, Event, Hex64, Id, Json, Origin, Scalar
from fightlog.events.scene_kinds import DiceCommitment, SceneEnded, SceneStarted, Transcript
from fightlog.events.combatant_kinds import CombatantJoined, InitiativeRolled, InitiativeSet
from fightlog.events.turn_kinds import RoundEnded, RoundStarted, TurnEnded, TurnStarted
from fightlog.events.declaration_kinds import Action, DeclarationPosted
from fightlog.events.dice_kinds import DiceRolled, Die, Modifier
from fightlog.events.outcome_kinds import AttackResolved, DamageApplied, HealingApplied, Moved, ResourceSpent, WeaponReloaded
from fightlog.events.effect_kinds import EffectApplied, EffectCountedDown, EffectExpired, EffectTicked, StatusChanged
from fightlog.events.ruling_kinds import RulingMade

__all__ = [
    "FORMAT_VERSION",
    "GENESIS",
    "Event",
    "Hex64",
    "Id",
    "Json",
    "Origin",
    "Scalar",
    "DiceCommitment",
    "Transcript",
    "SceneStarted",
    "SceneEnded",
    "CombatantJoined",
    "InitiativeRolled",
    "InitiativeSet",
    "RoundStarted",
    "RoundEnded",
    "TurnStarted",
    "TurnEnded",
    "Action",
    "DeclarationPosted",
    "Die",
    "Modifier",
    "DiceRolled",
    "AttackResolved",
    "DamageApplied",
    "HealingApplied",
    "ResourceSpent",
    "WeaponReloaded",
    "Moved",
    "EffectApplied",
    "EffectTicked",
    "EffectCountedDown",
    "EffectExpired",
    "StatusChanged",
    "RulingMade",
    "AnyEvent",
    "EVENT_TYPES",
    "KINDS",
    "FOLLOWS_FROM",
    "REFERENCES",
    "kind_of",
    "actor_of",
]

AnyEvent: TypeAlias = Union[
    SceneStarted,
    SceneEnded,
    CombatantJoined,
    InitiativeRolled,
    InitiativeSet,
    RoundStarted,
    RoundEnded,
    TurnStarted,
    TurnEnded,
    DeclarationPosted,
    DiceRolled,
    AttackResolved,
    DamageApplied,
    HealingApplied,
    ResourceSpent,
    WeaponReloaded,
    Moved,
    EffectApplied,
    EffectTicked,
    EffectCountedDown,
    EffectExpired,
    StatusChanged,
    RulingMade,
]
"""Every kind of event, as one tagged union."""

EVENT_TYPES: tuple[type[Event], ...] = AnyEvent.__args__  # type: ignore[attr-defined]

KINDS: dict[str, type[Event]] = {str(t.__struct_config__.tag): t for t in EVENT_TYPES}
"""Kind tag -> event class."""


FOLLOWS_FROM: tuple[str, ...] = ("cause", "for_seq", "declaration", "roll", "responds_to")
"""The fields (each a ``seq`` or ``None``) by which an event names the event it follows from:
an effect's or an outcome's ``cause``, the post a roll is ``for_seq``, the ``declaration`` an
attack answers, the ``roll`` an initiative came from, the post an answer ``responds_to`` (a
defensive turn is posted only because of the attack). Besides them, an attack's ``rolls``
lists the rolls it read (``fightlog.audit.voided``: what still stands on a voided event)."""

REFERENCES: tuple[str, ...] = FOLLOWS_FROM
"""Every single-``seq`` field naming another event. With ``rolls`` and a ruling's
``target``, what a copy of events at other ``seq``s moves (``fightlog.audit.fork``)."""


def kind_of(event: Event) -> str:
    """The kind tag of ``event`` (``damage_applied``), as its line writes it."""
    return str(type(event).__struct_config__.tag)


def actor_of(event: Event) -> str | None:
    """The event's ``actor``, for the kinds that have one."""
    actor = getattr(event, "actor", None)
    return actor if isinstance(actor, str) else None
