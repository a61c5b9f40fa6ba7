"""The RoE 7th Edition vocabulary shared by tokens, races and sheets.

Weapon sizes, character size classes, roll types, damage types and the two caps, each as a
``Literal`` so a typo in a roster is refused by name. Section names in the comments are the
headings of the rulebook (``RoE 7th Edition Dice Operations``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, get_args

Size = Literal["S", "M", "L", "H"]
"""A weapon token's size letter: Small, Medium, Large, Heavy (Weapon Token Details)."""

SIZES: Final[tuple[Size, ...]] = get_args(Size)
"""The sizes, smallest first."""

SizeClass = Literal["small", "medium", "large"]
"""A character's size class (Size Classes)."""

Family = Literal["firearm", "melee", "magika"]
"""What kind of weapon a token is, decided by its class name."""

FireMode = Literal["automatic", "semi-automatic"]
"""A firearm token's second part: ``a`` or ``s``."""

DamageKind = Literal["blunt", "slash", "pierce", "whip", "magika"]
"""A melee or magika token's second part (``b``, ``s``, ``p``, ``w``, ``m``; ``s/b`` is two)."""

DamageType = Literal["ballistic", "explosive", "melee", "magika"]
"""What a hit deals, for damage reduction."""

DrType = Literal["all", "ballistic", "explosive", "melee", "magika"]
"""A damage reduction entry: one damage type, or ``all`` (universal DR, counted for each type)."""

DAMAGE_TYPES: Final[tuple[DamageType, ...]] = get_args(DamageType)

RollType = Literal[
    "accuracy",
    "melee_accuracy",
    "ranged_accuracy",
    "magika_accuracy",
    "dodge",
    "stealth",
    "perception",
    "strength",
    "flee",
    "melee_damage",
    "ballistic_damage",
    "explosive_damage",
    "magika_damage",
    "healing",
    "healing_received",
    "looting",
    "pickpocket",
    "hacking",
    "lockpicking",
    "medical",
    "surgery",
    "resist_magika",
    "tech_items",
    "tech_disposables",
    "tech_effect",
]
"""What a modifier applies to. ``accuracy`` counts for melee and ranged attacks alike
(Modifiers: accuracy bonuses count towards both unless stated otherwise), not for magika,
which has its own accuracy and damage modifiers (Weapon Special Rules, Magika).
``magika_damage`` is the rulebook's "Magika Damage/Effect"; ``healing`` is healing given,
``healing_received`` healing taken; ``tech_disposables`` are tech items too."""

ROLL_TYPES: Final[tuple[RollType, ...]] = get_args(RollType)

INCLUDES: Final[Mapping[RollType, tuple[RollType, ...]]] = MappingProxyType(
    {
        "melee_accuracy": ("accuracy",),
        "ranged_accuracy": ("accuracy",),
        "tech_disposables": ("tech_items",),
    }
)
"""Roll types whose total also counts the modifiers of broader types."""


def counted_for(roll: RollType) -> tuple[RollType, ...]:
    """The roll types whose modifiers add to a roll of type ``roll`` (itself first)."""
    return (roll, *INCLUDES.get(roll, ()))


MODIFIER_CAP: Final = 30
"""No roll gets more than +30 in total (Modifiers: the hard cap, applied after adding and
subtracting every relevant modifier). There is no floor."""

DR_CAP: Final = 30
"""Damage reduction caps at 30, like roll modifiers (Armor)."""

BASE_MOVEMENT_M: Final = 8
"""Metres per movement phase (Movement Range)."""

SLOTS_PER_KIND: Final = 3
"""Cybernetics, implants and magika each: 3 unless a racial says otherwise (Modifiers)."""
