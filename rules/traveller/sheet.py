"""The Traveller character sheet as a player writes it, and rosters of them, validated with
pydantic (``fightlog.kit.rosters``: one-line errors at the line of the field at fault).

A sheet holds the six characteristics (0-15), skills with levels (names from ``SKILLS``),
weapons (damage dice such as ``3D``, range in metres, the skill they use), armour
(protection) and gear (a ``medikit`` for first aid). ``Roster.joined`` gives the
``combatant_joined`` event: the card snapshot and the physical characteristics as pools.
Pydantic is imported here: never import this module from the light paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final, Literal

from pydantic import Field, StringConstraints, field_validator, model_validator

from fightlog.events.model import CombatantJoined
from fightlog.kit import rosters
from fightlog.kit.inputs import FieldProblem, Seq, Strict
from fightlog.kit.rosters import RosterFormat
from fightlog.rules.traveller.card import (CHARACTERISTIC_MAX, DAMAGE, PHYSICAL, SKILLS, UNARMED, Card,
                                           Characteristics, WeaponCard, as_snapshot, card_pools)

Name = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Characteristic = Annotated[int, Field(ge=0, le=CHARACTERISTIC_MAX)]
Level = Annotated[int, Field(ge=0, le=6)]




class Chars(Strict):
    STR: Characteristic
    DEX: Characteristic
    END: Characteristic
    INT: Characteristic
    EDU: Characteristic
    SOC: Characteristic


class Weapon(Strict):
    """A weapon: ``damage`` dice (``3D``, ``2D+2``), ``range_m`` (ranged and thrown), the
    ``skill`` a ranged attack adds (``gun_combat`` by default), ``scoped``, ``magazine``."""

    name: Name
    kind: Literal["melee", "ranged", "thrown"]
    damage: str
    range_m: Annotated[int, Field(ge=1, le=100_000)] | None = None
    skill: str | None = None
    scoped: bool = False
    magazine: Annotated[int, Field(ge=0, le=1000)] = 0

    @field_validator("damage")
    @classmethod
    def _dice(cls, damage: str) -> str:
        if DAMAGE.match(damage) is None:
            raise ValueError(f"expected Traveller dice such as 3D, 2D+2 or 1D-1, got {damage!r}")
        return damage

    @model_validator(mode="after")
    def _ranged_has_range(self) -> Weapon:
        if self.kind != "melee" and self.range_m is None:
            raise FieldProblem(("range_m",), f"required for a {self.kind} weapon (its range in metres)")
        if self.skill is not None and self.skill not in SKILLS:
            raise FieldProblem(("skill",), f"unknown skill {self.skill!r}")
        if self.name.casefold() == UNARMED:
            raise FieldProblem(("name",), "unarmed is bare hands, not a weapon to list")
        return self

    def card(self) -> WeaponCard:
        default = {"melee": "melee", "ranged": "gun_combat", "thrown": "athletics"}[self.kind]
        return WeaponCard(name=self.name, kind=self.kind, damage=self.damage, range_m=self.range_m or 0,
                          skill=self.skill or default, scoped=self.scoped, magazine=self.magazine)


class Sheet(Strict):
    characteristics: Chars
    skills: dict[str, Level] = {}
    weapons: Seq[Weapon] = ()
    armour: Annotated[int, Field(ge=0, le=100)] = 0
    armour_name: str = ""
    gear: Seq[Name] = ()

    @field_validator("skills")
    @classmethod
    def _known_skills(cls, skills: dict[str, int]) -> dict[str, int]:
        for name in skills:
            if name not in SKILLS:
                raise ValueError(f"unknown skill {name!r}")
        return skills

    @field_validator("weapons")
    @classmethod
    def _distinct_weapons(cls, weapons: Sequence[Weapon]) -> Sequence[Weapon]:
        seen: set[str] = set()
        for weapon in weapons:
            if weapon.name.casefold() in seen:
                raise ValueError(f"two weapons named {weapon.name!r}")
            seen.add(weapon.name.casefold())
        return weapons

    def card(self) -> Card:
        c = self.characteristics
        return Card(characteristics=Characteristics(STR=c.STR, DEX=c.DEX, END=c.END, INT=c.INT, EDU=c.EDU, SOC=c.SOC),
                    skills=dict(sorted(self.skills.items())), weapons=tuple(w.card() for w in self.weapons),
                    armour=self.armour, armour_name=self.armour_name, gear=self.gear)


class Combatant(rosters.Combatant[Sheet]):
    pass


class Roster(rosters.Roster[Combatant]):
    ruleset: Literal["traveller"] = "traveller"


ROSTERS: Final = RosterFormat(Roster, Sheet, (Roster, Combatant, Sheet, Chars, Weapon))


def joined(combatant: Combatant) -> CombatantJoined:
    """The ``combatant_joined`` event of a roster entry: the card, the physical pools."""
    card = combatant.sheet.card()
    pools = card_pools(card)
    return CombatantJoined(actor=combatant.id, name=combatant.name, side=combatant.side,
                           controller=combatant.controller, role=combatant.role, pools=pools,
                           sheet=as_snapshot(card))


def joins(path: str) -> list[CombatantJoined]:
    """The ``combatant_joined`` events of the roster file at ``path``."""
    return [joined(c) for c in ROSTERS.load_roster(path).combatants]
