"""The ``d20-evasion`` character sheet as a player writes it: validated with pydantic.

What the sheet holds (HP; MP; Evasion; Damage; Bonuses; Carrying Weapons and Items): base HP
and MP, race, class and level, the four stats combat reads (Strength, Dexterity, Perception,
Willpower), class bonuses by weapon category, skill bonuses, worn armour (armour points,
Evasion, bonus MP), weapons, spells and items. Validation refuses what the rulebook forbids
outright: more than two weapons without load-bearing equipment (hand weapons do not count),
more than five items without a backpack (hand weapons and every consumable count), a range
that is no band; and names posts could not tell apart (they match names in any case): two
weapons, spells or items of one name in any case (armour: exactly), a weapon named
``unarmed`` (bare hands), an item named like a pool or like one of the sheet's weapons.

``Sheet.card(race_evasion)`` gives the snapshot the log keeps (``card.Card``). Pydantic is
imported here: never import this module from the light paths (events, reducers, verify).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import ConfigDict, Field, StringConstraints, field_validator, model_validator

from fightlog.rules.d20evasion.bands import Band
from fightlog.rules.d20evasion.card import UNARMED, Card
from fightlog.kit.inputs import FieldProblem, Seq, Strict

Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Stat = Annotated[int, Field(ge=1, le=1000)]
Bonus = Annotated[int, Field(ge=-100, le=100)]
Amount = Annotated[int, Field(ge=0, le=100_000)]

WEAPON_LIMIT: Final = 2
"""Standard weapons carried without load-bearing equipment (Carrying Weapons and Items)."""

ITEM_LIMIT: Final = 5
"""Items carried without a backpack."""

POOLS: Final = ("hp", "armour", "mp")
"""The pools a combatant joins with (``Roster.joined``): an item spent under one of these
names would drain the pool instead."""


class Stats(Strict):
    strength: Stat
    dexterity: Stat
    perception: Stat
    willpower: Stat


class OverTime(Strict):
    """Damage over time a hit leaves: its name (burning, bleeding, poison), damage at the
    start of each of the target's turns, and for how many."""

    name: Name
    damage: Annotated[int, Field(ge=1, le=100_000)]
    rounds: Annotated[int, Field(ge=1, le=100)]


class Weapon(Strict):
    name: Name
    kind: Literal["ranged", "melee", "magic"]
    damage: Amount
    ranges: Annotated[Seq[Band], Field(min_length=1)]
    category: str = ""
    skill: str | None = None
    gear: Bonus = 0
    piercing: bool = False
    hand: bool = False
    effect: OverTime | None = None

    @model_validator(mode="after")
    def _not_bare_hands(self) -> Weapon:
        if self.name.lower() == UNARMED:
            raise FieldProblem(("name",), f"{self.name!r} means bare hands (weapon=unarmed): give the weapon another name")
        return self


class Spell(Strict):
    name: Name
    mp: Amount = 0
    target: Literal["enemy", "ally", "self"] = "enemy"
    damage: Amount = 0
    ranges: Seq[Band] = ()
    cooldown: Annotated[int, Field(ge=0, le=100)] = 0
    long: bool = False
    category: str = "magic"
    skill: str | None = None
    gear: Bonus = 0
    piercing: bool = False
    heal: Amount = 0
    damage_taken_percent: Annotated[int, Field(ge=0, le=1000)] | None = None
    rounds: Annotated[int, Field(ge=0, le=100)] = 0
    summons: Name | None = None
    effect: OverTime | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Spell:
        if self.target == "enemy" and not self.ranges:
            raise FieldProblem(("ranges",), "a spell cast at an enemy needs its ranges (bands)")
        if self.damage_taken_percent is not None and self.rounds == 0:
            raise FieldProblem(("rounds",), "a spell that changes the damage taken lasts at least 1 round")
        if self.summons is not None and self.target == "enemy":
            raise FieldProblem(("target",), "a summoning spell is not cast at an enemy: target = \"self\" or \"ally\"")
        return self


class Item(Strict):
    name: Name
    count: Annotated[int, Field(ge=1, le=100)] = 1
    heal: Amount = 0
    mp: Amount = 0


class Armour(Strict):
    name: Name
    armour: Amount = 0
    evasion: Bonus = 0
    mp: Amount = 0


class Sheet(Strict):
    """One character sheet (see the module docstring)."""

    race: Name
    class_name: str = Field(default="", alias="class")
    level: Annotated[int, Field(ge=1, le=1000)] = 1
    hp: Annotated[int, Field(ge=1, le=100_000)]
    mp: Amount = 0
    stats: Stats
    class_bonuses: dict[str, Bonus] = {}
    skills: dict[str, Bonus] = {}
    armour: Seq[Armour] = ()
    weapons: Seq[Weapon] = ()
    spells: Seq[Spell] = ()
    items: Seq[Item] = ()
    lbe: Annotated[int, Field(ge=0, le=20)] = 0
    backpack: Annotated[int, Field(ge=0, le=100)] = 0
    first_strike: bool = False
    speed_ft: Annotated[int, Field(ge=0, le=10_000)] | None = None

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)

    @field_validator("weapons", "spells", "items")
    @classmethod
    def _distinct_in_any_case(cls, entries: tuple[Any, ...]) -> tuple[Any, ...]:
        """Posts name weapons, spells and items in any case (``fighters.Fighter``)."""
        seen: dict[str, int] = {}
        for index, entry in enumerate(entries):
            key = entry.name.lower()
            if key in seen:
                raise FieldProblem((index, "name"), _taken(entry.name, f"entry [{seen[key]}]", entries[seen[key]].name))
            seen[key] = index
        return entries

    @field_validator("armour")
    @classmethod
    def _distinct(cls, entries: tuple[Armour, ...]) -> tuple[Armour, ...]:
        seen: dict[str, int] = {}
        for index, entry in enumerate(entries):
            if entry.name in seen:
                raise FieldProblem((index, "name"), f"{entry.name!r} is already the name of entry [{seen[entry.name]}]")
            seen[entry.name] = index
        return entries

    @model_validator(mode="after")
    def _item_names(self) -> Sheet:
        """Using an item spends it under its name: a pool's name or a weapon's would drain
        the pool or fire the weapon instead."""
        weapons = {weapon.name.lower(): index for index, weapon in enumerate(self.weapons)}
        for index, item in enumerate(self.items):
            key = item.name.lower()
            where = ("items", index, "name")
            if key in POOLS:
                pools = f"{', '.join(POOLS[:-1])} or {POOLS[-1]}"
                raise FieldProblem(where, f"{item.name!r} is the name of a pool ({pools}): give the item another name")
            if key in weapons:
                found = weapons[key]
                raise FieldProblem(where, _taken(item.name, f"weapons[{found}]", self.weapons[found].name))
        return self

    @model_validator(mode="after")
    def _carried(self) -> Sheet:
        weapons = [w for w in self.weapons if not w.hand]
        limit = WEAPON_LIMIT + self.lbe
        if len(weapons) > limit:
            extra = "" if self.lbe else " (load-bearing equipment carries more: lbe = N extra)"
            raise FieldProblem(("weapons",), f"at most {limit} weapons carried, got {len(weapons)}{extra}")
        hand = sum(1 for w in self.weapons if w.hand)
        items = sum(i.count for i in self.items) + hand
        limit = ITEM_LIMIT + self.backpack
        if items > limit:
            counted = f"{items - hand} items" + (f" and {hand} hand weapon{'s' if hand > 1 else ''}" if hand else "")
            extra = "" if self.backpack else " (a backpack carries more: backpack = N extra)"
            raise FieldProblem(("items",), f"at most {limit} items carried, got {counted}{extra}")
        return self

    def card(self, race_evasion: int) -> Card:
        """The snapshot the log keeps, with the race's base Evasion resolved."""
        import msgspec

        data = self.model_dump(by_alias=True, exclude_none=True)
        data["race_evasion"] = race_evasion
        return msgspec.convert(data, Card)


def _taken(name: str, where: str, other: str) -> str:
    """``name`` is already taken at ``where`` (by ``other``, which may differ in case)."""
    case = "" if other == name else f" ({other!r}: posts match names in any case)"
    return f"{name!r} is already the name of {where}{case}"
