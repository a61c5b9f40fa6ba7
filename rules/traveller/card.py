"""The sheet as the rules read it: msgspec Structs over the snapshot a combatant joined with
(``combatant_joined.sheet``).

The sheet a player writes is validated with pydantic (``sheet``); the log keeps its plain
snapshot, read back here with msgspec only (the fold must not load pydantic, and the audit
reads sheets often). Characteristics are the six of Traveller; the physical ones (STR, DEX,
END) are also the combatant's pools, which damage lowers.
"""

from __future__ import annotations

import re
from typing import Annotated, Final, Literal

from msgspec import Meta, Struct

from fightlog.errors import InputError
from fightlog.kit.cards import CardReader, as_snapshot as as_snapshot

Kind = Literal["melee", "ranged", "thrown"]

PHYSICAL: Final = ("STR", "DEX", "END")
"""The physical characteristics: the pools damage takes from (END first)."""

CHARACTERISTICS: Final = ("STR", "DEX", "END", "INT", "EDU", "SOC")

UNARMED: Final = "unarmed"

SKILLS: Final = frozenset({
    "admin", "advocate", "animals", "art", "astrogation", "athletics", "broker", "carouse", "deception",
    "diplomat", "drive", "electronics", "engineer", "explosives", "flyer", "gambler", "gunner", "gun_combat",
    "heavy_weapons", "investigate", "jack_of_all_trades", "language", "leadership", "mechanic", "medic",
    "melee", "navigation", "persuade", "pilot", "profession", "recon", "science", "seafarer", "stealth",
    "steward", "streetwise", "survival", "tactics", "vacc_suit",
})
"""The skills a sheet may list (Traveller's, specialities folded into their skill)."""

DAMAGE: Final = re.compile(r"^([1-9][0-9]?)D([+-][0-9]{1,2})?$")
"""Traveller damage: ``3D``, ``2D+2``, ``1D-1`` (D is a six-sided die)."""


CHARACTERISTIC_MAX: Final = 15
Characteristic = Annotated[int, Meta(ge=0, le=CHARACTERISTIC_MAX)]
"""The roster's bounds (``sheet.py``), here and below: a snapshot edited past them reads as no
sheet, as a roster would refuse it."""


class Characteristics(Struct, frozen=True, kw_only=True):
    STR: Characteristic
    DEX: Characteristic
    END: Characteristic
    INT: Characteristic
    EDU: Characteristic
    SOC: Characteristic


class WeaponCard(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A weapon: its damage dice (``3D``), its range in metres (ranged and thrown), the skill
    a ranged attack adds, whether it is scoped, and its magazine (0: it never reloads)."""

    name: str
    kind: Kind
    damage: str
    range_m: Annotated[int, Meta(ge=0, le=100_000)] = 0
    skill: str = "melee"
    scoped: bool = False
    magazine: Annotated[int, Meta(ge=0, le=1000)] = 0


class Card(Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One combatant's sheet snapshot."""

    characteristics: Characteristics
    skills: dict[str, Annotated[int, Meta(ge=0, le=6)]] = {}
    weapons: tuple[WeaponCard, ...] = ()
    armour: Annotated[int, Meta(ge=0, le=100)] = 0
    armour_name: str = ""
    gear: tuple[str, ...] = ()

    def weapon(self, name: str | None) -> WeaponCard | None:
        """The weapon of that name (any case); bare hands for ``unarmed``; the first weapon
        for ``None`` (bare hands when there is none)."""
        if name is None:
            return self.weapons[0] if self.weapons else UNARMED_CARD
        known = _WEAPON_FOUND.get((id(self), name))
        if known is not None and known[0] is self:
            return known[1]
        wanted = name.casefold()
        found = UNARMED_CARD if wanted == UNARMED else next(
            (w for w in self.weapons if w.name.casefold() == wanted), None)
        if len(_WEAPON_FOUND) >= 1024:
            _WEAPON_FOUND.clear()
        _WEAPON_FOUND[(id(self), name)] = (self, found)
        return found


_WEAPON_FOUND: Final[dict[tuple[int, str], tuple[Card, WeaponCard | None]]] = {}
"""``Card.weapon`` by the card object (kept, so its id is not reused) and the name asked:
the audit asks a card for the same weapons at every attack (a state keeps one card per
sheet, ``read_card``)."""


UNARMED_CARD: Final = WeaponCard(name=UNARMED, kind="melee", damage="1D", skill="melee")
"""Bare hands: melee, 1D."""


def damage_notation(damage: str) -> str:
    """Traveller damage as fightlog dice: ``3D`` -> ``3d6``, ``2D+2`` -> ``2d6+2``."""
    found = DAMAGE.match(damage)
    if found is None:
        raise InputError(f"damage {damage!r}: expected dice such as 3D or 2D+2")
    return f"{found.group(1)}d6{found.group(2) or ''}"


read_card: Final = CardReader(Card)
"""The card of a sheet snapshot (cached by its bytes, and by the snapshot object itself:
a folded state keeps each combatant's one dict); ``InputError`` naming the field when
the snapshot is not a Traveller card."""


def card_pools(card: Card) -> dict[str, int]:
    """The pools a combatant with ``card`` joins with: the physical characteristics."""
    chars = card.characteristics
    return {name: getattr(chars, name) for name in PHYSICAL}
