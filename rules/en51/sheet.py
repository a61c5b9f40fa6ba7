"""The en5.1 character sheet as a player writes it (pydantic): skills, Attack and Defense per
weapon, Unarmed Defense, Damage, Range and type (C, Cn, A5-A19), Agility, Perception,
Stealth, Toughness, armour layers with Coverage and Protection, and the Wounds track
(circles 1-20). ``Sheet.card()`` is what the log keeps (``card``).
"""

from __future__ import annotations

import difflib
import re
from typing import Annotated, Final

from pydantic import Field, StringConstraints, field_validator, model_validator

from fightlog.kit.inputs import FieldProblem, Seq, Strict, distinct_weapons
from fightlog.rules.en51.card import CAPACITY_MAX, TRACK, ArmourCard, Card, Kind, WeaponCard

Name = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Skill = Annotated[int, Field(ge=0, le=40)]
Step = Annotated[int, Field(ge=0, le=30)]

ROLLED_SKILLS: Final = ("medicine",)
"""The skills the rules roll from ``skills``; a name that is nearly one of them (a typo, another
case) is refused with a "did you mean", any other name kept as one of the sheet's skills."""

_TYPE: Final = re.compile(r"^(?:C([0-9]+)?|A([0-9]+))$")


def weapon_type(text: str) -> tuple[int, int]:
    """``(capacity, auto)`` of a weapon type: ``C`` (1), ``C2`` (2), ``A13`` (auto 13), ``""``
    (none); ``ValueError`` otherwise (an A-type outside 5-19 among them)."""
    if not text:
        return 0, 0
    shown = repr(text) if len(text) <= 12 else f"{text[:12]!r}... ({len(text)} characters)"
    found = _TYPE.match(text) if len(text) <= 12 else None
    if found is None:
        raise ValueError(f"expected C, Cn or A5-A19, got {shown}")
    capacity, auto = found.groups()
    if auto is not None:
        if not 5 <= int(auto) <= 19:
            raise ValueError(f"an A-type is A5 to A19, got {shown}")
        return 0, int(auto)
    if capacity and not 1 <= int(capacity) <= CAPACITY_MAX:
        raise ValueError(f"a C-type holds 1 to {CAPACITY_MAX} rounds, got {shown}")
    return int(capacity or 1), 0


class Weapon(Strict):
    name: Name
    kind: Kind = "melee"
    attack: Skill
    defense: Skill
    damage: Annotated[int, Field(ge=0, le=40)]
    range: Step = 0
    type: str = ""

    @field_validator("type")
    @classmethod
    def _type(cls, value: str) -> str:
        weapon_type(value)
        return value

    def card(self) -> WeaponCard:
        capacity, auto = weapon_type(self.type)
        return WeaponCard(name=self.name, kind=self.kind, attack=self.attack, defense=self.defense,
                          damage=self.damage, range=self.range, capacity=capacity, auto=auto)


class Armour(Strict):
    name: Name
    coverage: Annotated[int, Field(ge=1, le=20)]
    protection: Annotated[int, Field(ge=0, le=20)]


class Sheet(Strict):
    toughness: Annotated[int, Field(ge=1, le=TRACK)]
    agility: Annotated[int, Field(ge=0, le=40)]
    perception: Skill
    stealth: Skill
    unarmed_defense: Skill
    skills: dict[str, Skill] = {}
    surprise: Annotated[int, Field(ge=0, le=20)] = 0
    weapons: Seq[Weapon] = ()
    armour: Seq[Armour] = ()
    wounds: Seq[Annotated[int, Field(ge=1, le=TRACK)]] = ()

    @model_validator(mode="after")
    def _distinct(self) -> Sheet:
        for index, weapon in distinct_weapons(self.weapons):
            if weapon.kind == "melee" and (weapon.type or weapon.range):
                raise FieldProblem(("weapons", index, "type" if weapon.type else "range"),
                                   "a melee weapon has no Range or type")
        for name in self.skills:
            close = difflib.get_close_matches(name.lower(), ROLLED_SKILLS, n=1, cutoff=0.75)
            if name not in ROLLED_SKILLS and close:
                raise FieldProblem(("skills", name), f"unknown skill {name!r} (did you mean {close[0]!r}? the rules "
                                   f"roll {', '.join(ROLLED_SKILLS)})")
        if len(set(self.wounds)) != len(self.wounds):
            raise FieldProblem(("wounds",), "a circle is marked twice")
        return self

    def card(self) -> Card:
        return Card(
            toughness=self.toughness, agility=self.agility, perception=self.perception, stealth=self.stealth,
            unarmed_defense=self.unarmed_defense, skills=dict(self.skills), surprise=self.surprise,
            weapons=tuple(w.card() for w in self.weapons),
            armour=tuple(ArmourCard(name=a.name, coverage=a.coverage, protection=a.protection) for a in self.armour),
            wounds=tuple(sorted(self.wounds)),
        )
