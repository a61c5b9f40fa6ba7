"""The races of RoE 7th Edition and their racials (three per race; a character has one).

The rulebook's shorthand list of racials (Racials) groups them in threes but the race names
above each group are lost, so the race ids here are ours, taken from the racials' flavour
(``drevii`` and ``splicer`` are named elsewhere in the rulebook; the others are descriptive).
A racial's plain numbers are data (``modifiers``, ``dr``, slots, movement...); everything
conditional or procedural is a named note for the rules and the GM.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from msgspec import Struct

from fightlog.errors import InputError
from fightlog.rules.roe7.terms import DrType, RollType


class RacialBonus(Struct, frozen=True):
    """A plain-number modifier a racial grants to one roll type."""

    applies_to: RollType
    value: int


class RacialDr(Struct, frozen=True):
    """Damage reduction a racial grants (negative: takes away)."""

    damage_type: DrType
    value: int


class Racial(Struct, frozen=True, kw_only=True):
    """One racial ability.

    ``item_bonus`` is added to every bonus a cybernetic or implant grants (Scholar Caste +5,
    Healing Factor -2). ``extra_slots`` adds slots of one kind; ``flexible_slots`` adds slots
    that hold a cybernetic or an implant (Neural Net). ``weapon_size_step`` is how many sizes
    larger (+) or smaller (-) the character's weapons count for handling (dual wielding).
    ``hp_per_round`` is regeneration. ``notes`` are the rest, in words.
    """

    id: str
    name: str
    race: str
    modifiers: tuple[RacialBonus, ...] = ()
    dr: tuple[RacialDr, ...] = ()
    movement_m: int = 0
    cybernetic_slots: int = 0
    implant_slots: int = 0
    magika_slots: int = 0
    flexible_slots: int = 0
    item_bonus: int = 0
    weapon_size_step: int = 0
    hp_per_round: int = 0
    notes: tuple[str, ...] = ()


class Race(Struct, frozen=True, kw_only=True):
    """A race: our id and name, and its three racials in the rulebook's order."""

    id: str
    name: str
    racials: tuple[Racial, ...]


def _b(applies_to: RollType, value: int) -> RacialBonus:
    return RacialBonus(applies_to, value)


def _race(race_id: str, name: str, *racials: Racial) -> Race:
    return Race(id=race_id, name=name, racials=racials)


_ALL: Final[tuple[Race, ...]] = (
    _race(
        "human", "Human",
        Racial(id="earth-adapted", name="Earth Adapted", race="human",
               modifiers=(_b("melee_damage", -5),), notes=("ignores weather penalties",)),
        Racial(id="violent-upbringing", name="Violent Upbringing", race="human",
               modifiers=(_b("ballistic_damage", 5), _b("stealth", -5))),
        Racial(id="compassionate", name="Compassionate", race="human",
               modifiers=(_b("healing", 5), _b("looting", -5), _b("pickpocket", -5))),
    ),
    _race(
        "android", "Android",
        Racial(id="fully-artificial", name="Fully Artificial", race="android",
               dr=(RacialDr("all", 5),), notes=("cybernetic-specific debuffs last 1 turn longer",)),
        Racial(id="advanced-prosthetics", name="Advanced Prosthetics", race="android",
               modifiers=(_b("accuracy", 5),),
               notes=("a critical hit against them, or a critical fail on their defence, "
                      "costs their whole next turn",)),
        Racial(id="neural-net", name="Neural Net", race="android", flexible_slots=1,
               modifiers=(_b("magika_accuracy", -5), _b("magika_damage", -5))),
    ),
    _race(
        "splicer", "Splicer",
        Racial(id="artificial-strength", name="Artificial Strength", race="splicer",
               modifiers=(_b("strength", 5),),
               notes=("cannot flee while allied non-splicers are in the combat",)),
        Racial(id="spliced-genes", name="Spliced Genes", race="splicer",
               modifiers=(_b("stealth", 5), _b("dodge", 5)), notes=("may not have a pet",)),
        Racial(id="healing-factor", name="Healing Factor", race="splicer", hp_per_round=2, item_bonus=-2,
               notes=("regains 2 HP per round",)),
    ),
    _race(
        "feral", "Feral",
        Racial(id="hyperactivity", name="Hyperactivity", race="feral",
               modifiers=(_b("dodge", 5),), notes=("every debuff on them lasts 1 turn longer",)),
        Racial(id="nocturnal-predator", name="Nocturnal Predator", race="feral",
               notes=("+5 accuracy and stealth at night, and no night penalty",
                      "-5 dodge during the day")),
        Racial(id="simply-speedy", name="Simply Speedy", race="feral", movement_m=2,
               modifiers=(_b("tech_disposables", -5),)),
    ),
    _race(
        "drevii", "Drevii",
        Racial(id="venus-born", name="Venus Born", race="drevii", magika_slots=1,
               notes=("weather penalties are doubled",)),
        Racial(id="magika-mage", name="Magika Mage", race="drevii", dr=(RacialDr("all", -5),),
               notes=("magika stone cooldowns are halved, rounded up",)),
        Racial(id="drevii-technology", name="Drevii Technology", race="drevii",
               modifiers=(_b("magika_damage", 5),),
               notes=("every tech item takes 1 extra action to prepare before use",)),
    ),
    _race(
        "undead", "Undead",
        Racial(id="zombie-like-durability", name="Zombie Like Durability", race="undead",
               dr=(RacialDr("all", 5),), modifiers=(_b("healing_received", -5),)),
        Racial(id="old-mind", name="Old Mind", race="undead",
               modifiers=(_b("hacking", 10), _b("lockpicking", 10), _b("medical", 10)),
               notes=("1 in 10 chance that a combat action goes to a random target",)),
        Racial(id="fortified-organs", name="Fortified Organs", race="undead",
               notes=("no debuffs from drugs", "drugs, stims and medical items last half as long")),
    ),
    _race(
        "caste", "Caste-born",
        Racial(id="scholar-caste", name="Scholar Caste", race="caste", item_bonus=5, weapon_size_step=1,
               notes=("every weapon counts as one size larger",)),
        Racial(id="warrior-caste", name="Warrior Caste", race="caste", weapon_size_step=-1,
               movement_m=-2,
               notes=("every weapon counts as one size smaller",)),
        Racial(id="royal-caste", name="Royal Caste", race="caste",
               modifiers=(_b("resist_magika", 10), _b("flee", -20))),
    ),
    _race(
        "brute", "Brute",
        Racial(id="powerfully-built", name="Powerfully Built", race="brute",
               modifiers=(_b("melee_damage", 5),), movement_m=-1),
        Racial(id="tough-hide", name="Tough Hide", race="brute",
               dr=(RacialDr("melee", 5), RacialDr("ballistic", 5)), modifiers=(_b("dodge", -5),)),
        Racial(id="adaptability", name="Adaptability", race="brute", modifiers=(_b("tech_items", -5),),
               notes=("weather penalties become bonuses", "tech items include explosives and guns")),
    ),
    _race(
        "amorph", "Amorph",
        Racial(id="amorphous-form", name="Amorphous Form", race="amorph",
               notes=("wound timer is 2 hours", "medical items have half effect")),
        Racial(id="environmental-suit", name="Environmental Suit", race="amorph",
               notes=("cybernetics cannot be installed by surgery", "EMP debuffs last 1 turn less",
                      "piercing and ballistic weapons deal +1d10 damage to them")),
        Racial(id="curious-mind", name="Curious Mind", race="amorph", modifiers=(_b("tech_effect", 5),),
               notes=("-5 to dodge usable tech items",)),
    ),
)

RACES: Final[Mapping[str, Race]] = MappingProxyType({race.id: race for race in _ALL})
"""Every race by id."""

RACIALS: Final[Mapping[str, Racial]] = MappingProxyType({r.id: r for race in _ALL for r in race.racials})
"""Every racial by id."""


def normalize(name: str) -> str:
    """An id from a name as people write it: ``Neural Net`` and ``neural_net`` are ``neural-net``."""
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def race(race_id: str) -> Race:
    """The race with this id (or name); ``InputError`` lists the races otherwise."""
    found = RACES.get(normalize(race_id))
    if found is None:
        raise InputError(f"unknown race {race_id!r} (races: {', '.join(RACES)})")
    return found


def racial(race_id: str, racial_id: str) -> Racial:
    """The racial ``racial_id`` of race ``race_id``; refused if it belongs to another race."""
    of_race = race(race_id)
    found = RACIALS.get(normalize(racial_id))
    choices = ", ".join(r.id for r in of_race.racials)
    if found is None:
        raise InputError(f"unknown racial {racial_id!r} ({of_race.id} racials: {choices})")
    if found.race != of_race.id:
        raise InputError(
            f"{found.id!r} is a racial of {found.race}, not of {of_race.id} ({of_race.id} racials: {choices})"
        )
    return found
