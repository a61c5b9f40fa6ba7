"""The sheet as the rules read it: msgspec Structs over the snapshot a combatant joined with
(``combatant_joined.sheet``), read back with msgspec only (the fold must not load pydantic)
and cached on the snapshot object.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from msgspec import Meta, Struct

from fightlog.kit.cards import CardReader, as_snapshot as as_snapshot

ATTRIBUTES: Final = ("agility", "body", "savvy", "perception", "vigor", "grit", "willpower", "strength",
                     "intelligence", "endurance", "charisma", "legerdemain", "medic")
"""The attributes (and the medic skill) the rules roll as pools."""

FIRE_TYPES: Final = ("SS", "SA", "2RB", "3RB", "FA")
SPREADS: Final = ("narrow", "medium", "wide")
SIZES: Final = {"tiny": 2, "small": 1, "medium": 0, "large": -1, "huge": -2}
"""Size -> what it adds to the threshold to hit (Defenders Threshold)."""

Kind = Literal["melee", "ranged", "thrown", "explosive"]
Fire = Literal["SS", "SA", "2RB", "3RB", "FA"]
Spread = Literal["", "narrow", "medium", "wide"]
Size = Literal["tiny", "small", "medium", "large", "huge"]
Status = Literal["knockdown", "nausea", "confusion", "stagger", "frozen", "burning", "poison", "stunned",
                 "irradiated", "fatigue", "fear", "terror"]
"""The choices the roster allows (``sheet.py``; ``tests/rules/test_card_bounds.py`` holds them
equal): a log's sheet holding another is one its rules cannot read (``scene.bad-sheet``)."""

# The roster's bounds (``sheet.py``), so a snapshot edited past them reads as no sheet, as a
# roster would refuse it, rather than as dice pools past the dice limits.
Attr = Annotated[int, Meta(ge=0, le=20)]
Rating = Annotated[int, Meta(ge=0, le=30)]
Mod = Annotated[int, Meta(ge=-20, le=20)]


class Kicker(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A weapon's kicker: a status the target saves against when hit, at ``rating``."""

    status: Status
    rating: Annotated[int, Meta(ge=1, le=20)]


class WeaponCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A weapon: accuracy, DV, AP (negative pierces armour), fire types and rate of fire,
    spread setting, reach in hexes, range band limits in hexes (short, medium, long,
    extreme), recoil compensation, blast DV of an explosive, its fuse delay in rounds (0:
    it goes off at once), kickers."""

    name: str
    kind: Kind = "melee"
    accuracy: Mod = 0
    dv: Rating = 0
    ap: Mod = 0
    fire: tuple[Fire, ...] = ()
    rof: Annotated[int, Meta(ge=1, le=10)] = 1
    spread: Spread = ""
    reach: Annotated[int, Meta(ge=1, le=5)] = 1
    ranges: tuple[Annotated[int, Meta(ge=1, le=1000)], ...] = ()
    recoil_comp: Rating = 0
    blast: Rating = 0
    fuse: Annotated[int, Meta(ge=0, le=10)] = 0
    knockdown: Annotated[int, Meta(ge=0, le=20)] = 0
    kickers: tuple[Kicker, ...] = ()
    small: bool = False


class Perk(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A perk as a named modifier: to attack pools (all, melee, ranged), DV, soak, the
    threshold to hit its owner, sequence."""

    name: str
    attack: Mod = 0
    melee: Mod = 0
    ranged: Mod = 0
    dv: Mod = 0
    soak: Mod = 0
    threshold: Mod = 0
    sequence: Mod = 0


class Card(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A sheet snapshot."""

    attributes: dict[str, Attr]
    hp: Annotated[int, Meta(ge=1, le=999)]
    pace: Annotated[int, Meta(ge=1, le=20)]
    sprint: Annotated[int, Meta(ge=0, le=20)] = 0
    fortitude: Attr = 0
    armour: Attr = 0
    size: Size = "medium"
    weapons: tuple[WeaponCard, ...] = ()
    perks: tuple[Perk, ...] = ()
    grenades: Annotated[int, Meta(ge=0, le=20)] = 0

    def weapon(self, name: str | None) -> WeaponCard | None:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        return None

    def attr(self, name: str) -> int:
        return self.attributes.get(name, 0)

    def perk_sum(self, field: str) -> int:
        if not self.perks:  # most sheets: asked for every pool, threshold and soak
            return 0
        return sum(int(getattr(p, field)) for p in self.perks)


read_card: Final = CardReader(Card)
"""The card of a sheet snapshot; ``InputError`` naming the field when it does not read."""


def card_pools(card: Card) -> dict[str, int]:
    """The pools a combatant with ``card`` joins with: HP."""
    return {"hp": card.hp}
