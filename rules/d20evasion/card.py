"""The sheet as the rules read it: msgspec Structs over the snapshot a combatant joined with
(``combatant_joined.sheet``).

The sheet a player writes is validated with pydantic (``sheet``, ``roster``); what the log
keeps is its plain snapshot, which the table and the audit read back here, with msgspec only
(the fold must not load pydantic, and the audit reads sheets often). The race is resolved
when the roster is read: the snapshot carries the race's base Evasion (``race_evasion``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta, Struct, field

from fightlog.errors import InputError
from fightlog.kit.cards import as_snapshot as as_snapshot, described
from fightlog.rules.d20evasion.bands import Band

Kind = Literal["ranged", "melee", "magic"]
"""What a weapon's damage and to-hit stat is: Perception, Strength or Willpower."""

SpellTarget = Literal["enemy", "ally", "self"]

UNARMED: Final = "unarmed"

# The roster's bounds (``sheet.py``, ``roster.py``), so a snapshot edited past them reads as
# no sheet, as a roster would refuse it, rather than as damage and Evasion past any fight's.
Stat = Annotated[int, Meta(ge=1, le=1000)]
Bonus = Annotated[int, Meta(ge=-100, le=100)]
Amount = Annotated[int, Meta(ge=0, le=100_000)]
Rounds = Annotated[int, Meta(ge=0, le=100)]


class Stats(Struct, frozen=True, kw_only=True, omit_defaults=True):
    strength: Stat
    dexterity: Stat
    perception: Stat
    willpower: Stat


class OverTime(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Damage over time a hit leaves (burning, bleeding, poison): per round, for ``rounds``
    of the target's turns."""

    name: str
    damage: Annotated[int, Meta(ge=1, le=100_000)]
    rounds: Annotated[int, Meta(ge=1, le=100)]


class WeaponCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A carried weapon. ``category`` is what class bonuses name (``firearms``); ``skill``
    names the sheet skill that adds to it; ``gear`` is the to-hit its attachments give;
    ``hand`` marks a hand or unarmed weapon (brass knuckles), which counts as an item."""

    name: str
    kind: Kind
    damage: Amount
    ranges: tuple[Band, ...]
    category: str = ""
    skill: str | None = None
    gear: Bonus = 0
    piercing: bool = False
    hand: bool = False
    effect: OverTime | None = None


class SpellCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A spell: MP cost, cooldown in rounds, ``long`` (both actions), and what it does: to
    an enemy, an attack roll and damage (and damage over time); to an ally or oneself,
    healing, a change to the damage taken (``damage_taken_percent`` for ``rounds``), or a
    minion (``summons``: the roster id of one held in reserve)."""

    name: str
    mp: Amount = 0
    target: SpellTarget = "enemy"
    damage: Amount = 0
    ranges: tuple[Band, ...] = ()
    cooldown: Rounds = 0
    long: bool = False
    category: str = "magic"
    skill: str | None = None
    gear: Bonus = 0
    piercing: bool = False
    heal: Amount = 0
    damage_taken_percent: Annotated[int, Meta(ge=0, le=1000)] | None = None
    rounds: Rounds = 0
    summons: str | None = None
    effect: OverTime | None = None


class ItemCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Items carried into combat (each one of ``count`` counts towards the limit)."""

    name: str
    count: Annotated[int, Meta(ge=1, le=100)] = 1
    heal: Amount = 0
    mp: Amount = 0


class ArmourCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Worn armour: armour points (absorbing damage), Evasion, bonus MP."""

    name: str
    armour: Amount = 0
    evasion: Bonus = 0
    mp: Amount = 0


class Card(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One combatant's sheet snapshot."""

    race: str
    race_evasion: Annotated[int, Meta(ge=0, le=100)]
    class_name: str = field(name="class", default="")
    level: Annotated[int, Meta(ge=1, le=1000)] = 1
    hp: Annotated[int, Meta(ge=1, le=100_000)]
    mp: Amount = 0
    stats: Stats
    class_bonuses: dict[str, Bonus] = {}
    skills: dict[str, Bonus] = {}
    armour: tuple[ArmourCard, ...] = ()
    weapons: tuple[WeaponCard, ...] = ()
    spells: tuple[SpellCard, ...] = ()
    items: tuple[ItemCard, ...] = ()
    lbe: Annotated[int, Meta(ge=0, le=20)] = 0
    backpack: Annotated[int, Meta(ge=0, le=100)] = 0
    first_strike: bool = False
    speed_ft: Annotated[int, Meta(ge=0, le=10_000)] | None = None

    @property
    def armour_points(self) -> int:
        return sum(a.armour for a in self.armour)

    @property
    def armour_evasion(self) -> int:
        return sum(a.evasion for a in self.armour)

    @property
    def max_mp(self) -> int:
        return self.mp + sum(a.mp for a in self.armour)

    def skill(self, name: str | None) -> int:
        return 0 if name is None else self.skills.get(name, 0)

    def class_bonus(self, category: str) -> int:
        return self.class_bonuses.get(category, 0) if category else 0


UNARMED_CARD: Final = WeaponCard(name=UNARMED, kind="melee", damage=0, ranges=("touch",), category="unarmed", hand=True)
"""Fighting with bare hands: melee, Strength damage alone, at touch range."""


def read_card(snapshot: Mapping[str, Any]) -> Card:
    """The card of a sheet snapshot (cached by its bytes); ``InputError`` naming the field
    when the snapshot is not a card (a hand-kept sheet, another ruleset's)."""
    try:
        return _card(msgspec.json.encode(snapshot))
    except msgspec.ValidationError as exc:
        raise InputError(described(exc, snapshot, Card)) from None


@lru_cache(maxsize=256)
def _card(encoded: bytes) -> Card:
    return msgspec.json.decode(encoded, type=Card)


def card_pools(card: Card) -> dict[str, int]:
    """The pools a combatant with ``card`` joins with: HP (base), armour and MP."""
    return {"hp": card.hp, "armour": card.armour_points, "mp": card.max_mp}
