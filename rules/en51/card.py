"""The sheet as the rules read it: msgspec Structs over the snapshot a combatant joined with
(``combatant_joined.sheet``).

The sheet a player writes is validated with pydantic (``sheet``, ``roster``); the log keeps
its plain snapshot, read back here with msgspec only (the fold must not load pydantic, and the
table and the audit read cards often: ``read_card`` is cached on the snapshot's bytes).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from msgspec import Meta, Struct

from fightlog.kit.cards import CardReader, as_snapshot as as_snapshot

TRACK: Final = 20
"""The Wounds track: circles 1 to 20 (Marking Wounds)."""

Kind = Literal["melee", "ranged"]

# The roster's bounds (``sheet.py``), here and below: a snapshot edited past them reads as no
# sheet, as a roster would refuse it.
Skill = Annotated[int, Meta(ge=0, le=40)]
Circle = Annotated[int, Meta(ge=1, le=TRACK)]

CAPACITY_MAX: Final = 1000
"""The most rounds a type C weapon holds (the rulebook gives C and C2; a roster may write more)."""


class WeaponCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A weapon: Attack and Defense (the skill rolled with it), Damage, Range (in steps of the
    range scale, ranged weapons), and its type: ``capacity`` rounds before a reload (type C:
    C is 1, C2 is 2; 0 for none), ``auto`` the ammo check of automatic fire (A5-A19; 0 for
    none)."""

    name: str
    kind: Kind
    attack: Skill
    defense: Skill
    damage: Skill
    range: Annotated[int, Meta(ge=0, le=30)] = 0
    capacity: Annotated[int, Meta(ge=0, le=CAPACITY_MAX)] = 0
    auto: Annotated[int, Meta(ge=0, le=19)] = 0


class ArmourCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One layer of armour: Coverage 1-20 (20: sealed) and Protection."""

    name: str
    coverage: Annotated[int, Meta(ge=1, le=20)]
    protection: Annotated[int, Meta(ge=0, le=20)]


class Card(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A sheet snapshot: the skills the rules roll (``skills`` by name, Medicine among them),
    Agility, Perception, Stealth, Toughness, Unarmed Defense, the surprise traits' bonus, the
    weapons, the armour layers (outermost first) and the wounds already marked."""

    toughness: Circle
    agility: Skill
    perception: Skill
    stealth: Skill
    unarmed_defense: Skill
    skills: dict[str, Skill] = {}
    surprise: Annotated[int, Meta(ge=0, le=20)] = 0
    weapons: tuple[WeaponCard, ...] = ()
    armour: tuple[ArmourCard, ...] = ()
    wounds: tuple[Circle, ...] = ()

    def weapon(self, name: str | None) -> WeaponCard | None:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        return None

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)


read_card: Final = CardReader(Card)
"""The card of a sheet snapshot; ``InputError`` naming the field when it does not read."""


def wound_pool(circle: int) -> str:
    """The pool of Wounds circle ``circle``: 1 while empty, 0 once marked."""
    return f"w{circle}"


WOUND_POOLS: Final = tuple(wound_pool(c) for c in range(1, TRACK + 1))


def track_pools(marked: tuple[int, ...]) -> dict[str, int]:
    """The Wounds track as pools, ``marked`` circles filled."""
    return {wound_pool(c): 0 if c in marked else 1 for c in range(1, TRACK + 1)}


def card_pools(card: Card) -> dict[str, int]:
    """The pools a combatant with ``card`` joins with: the Wounds track, the sheet's Wounds marked."""
    return track_pools(card.wounds)
