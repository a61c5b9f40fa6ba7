"""The Bleeding Sun character sheet as a player writes it (pydantic): attributes, HP, pace
and sprint, fortitude and armour, size, weapons (accuracy, DV, AP, fire types, rate of fire,
spread setting, reach, range bands, recoil compensation, blast, fuse delay, knockdown and other kickers),
perks as named modifiers, grenades carried. ``Sheet.card()`` is what the log keeps.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import Field, StringConstraints, model_validator

from fightlog.kit.actions import a_or_an
from fightlog.kit.inputs import FieldProblem, Seq, Strict, distinct_weapons
from fightlog.rules.bleedingsun.card import FIRE_TYPES, SIZES, SPREADS, Card, Kicker, Perk, WeaponCard

Name = Annotated[str, StringConstraints(min_length=1, max_length=100)]
Rating = Annotated[int, Field(ge=0, le=30)]
Mod = Annotated[int, Field(ge=-20, le=20)]

STATUSES: Final = ("knockdown", "nausea", "confusion", "stagger", "frozen", "burning", "poison", "stunned",
                   "irradiated", "fatigue", "fear", "terror")
"""The statuses a kicker may give (Status Affect Saves)."""


class KickerIn(Strict):
    status: Literal["knockdown", "nausea", "confusion", "stagger", "frozen", "burning", "poison", "stunned",
                    "irradiated", "fatigue", "fear", "terror"]
    rating: Annotated[int, Field(ge=1, le=20)]


_ONLY: Final = {"fire": ("ranged",), "spread": ("ranged",), "recoil_comp": ("ranged",), "reach": ("melee",),
                "blast": ("explosive",), "ranges": ("ranged", "thrown", "explosive")}
"""Weapon fields only some kinds read (a melee weapon's reach, a firearm's spread...)."""


class Weapon(Strict):
    name: Name
    kind: Literal["melee", "ranged", "thrown", "explosive"] = "melee"
    accuracy: Mod = 0
    dv: Rating = 0
    ap: Mod = 0
    fire: Seq[Literal["SS", "SA", "2RB", "3RB", "FA"]] = ()
    rof: Annotated[int, Field(ge=1, le=10)] = 1
    spread: Literal["", "narrow", "medium", "wide"] = ""
    reach: Annotated[int, Field(ge=1, le=5)] = 1
    ranges: Seq[Annotated[int, Field(ge=1, le=1000)]] = ()
    recoil_comp: Rating = 0
    blast: Rating = 0
    fuse: Annotated[int, Field(ge=0, le=10)] = 0
    knockdown: Annotated[int, Field(ge=0, le=20)] = 0
    kickers: Seq[KickerIn] = ()
    small: bool = False

    @model_validator(mode="after")
    def _shape(self) -> Weapon:
        if self.kind in ("ranged",) and not self.fire:
            raise FieldProblem(("fire",), f"a ranged weapon has fire types (one or more of {', '.join(FIRE_TYPES)})")
        if self.kind == "melee" and self.fire:
            raise FieldProblem(("fire",), "a melee weapon has no fire types")
        twice = sorted({f for f in self.fire if self.fire.count(f) > 1})
        if twice:
            raise FieldProblem(("fire",), f"{', '.join(twice)} listed twice: each fire type once")
        statuses = [k.status for k in self.kickers]
        for index, status in enumerate(statuses):
            if status in statuses[:index]:
                raise FieldProblem(("kickers", index, "status"), f"{status!r} is already a kicker of this weapon "
                                   "(each status once, with its rating)")
        if self.ranges and (len(self.ranges) != 4 or list(self.ranges) != sorted(set(self.ranges))):
            raise FieldProblem(("ranges",), "four increasing range limits in hexes: short, medium, long, extreme")
        if self.spread and self.spread not in SPREADS:
            raise FieldProblem(("spread",), f"one of {', '.join(SPREADS)}")
        if self.kind == "explosive" and not self.blast:
            raise FieldProblem(("blast",), "an explosive has a blast DV")
        if self.fuse and self.kind != "explosive":
            raise FieldProblem(("fuse",), "only an explosive has a fuse delay")
        for field, kinds in _ONLY.items():  # written for a kind that never reads it: a slip, refused
            if self.kind not in kinds and getattr(self, field) != type(self).model_fields[field].default:
                which = " or ".join(a_or_an(k) for k in kinds)
                raise FieldProblem((field,), f"only {which} weapon has {field} (this one is {self.kind})")
        return self

    def card(self) -> WeaponCard:
        return WeaponCard(name=self.name, kind=self.kind, accuracy=self.accuracy, dv=self.dv, ap=self.ap,
                          fire=tuple(self.fire), rof=self.rof, spread=self.spread, reach=self.reach,
                          ranges=tuple(self.ranges), recoil_comp=self.recoil_comp, blast=self.blast, fuse=self.fuse,
                          knockdown=self.knockdown, small=self.small,
                          kickers=tuple(Kicker(status=k.status, rating=k.rating) for k in self.kickers))


class PerkIn(Strict):
    name: Name
    attack: Mod = 0
    melee: Mod = 0
    ranged: Mod = 0
    dv: Mod = 0
    soak: Mod = 0
    threshold: Mod = 0
    sequence: Mod = 0


Attr = Annotated[int, Field(ge=0, le=20)]


class Sheet(Strict):
    agility: Attr
    body: Attr
    savvy: Attr
    perception: Attr
    vigor: Attr
    grit: Attr
    willpower: Attr
    strength: Attr
    intelligence: Attr = 0
    endurance: Attr = 0
    charisma: Attr = 0
    legerdemain: Attr = 0
    medic: Attr = 0
    hp: Annotated[int, Field(ge=1, le=999)]
    pace: Annotated[int, Field(ge=1, le=20)]
    sprint: Annotated[int, Field(ge=0, le=20)] = 0
    fortitude: Attr = 0
    armour: Attr = 0
    size: Literal["tiny", "small", "medium", "large", "huge"] = "medium"
    weapons: Seq[Weapon] = ()
    perks: Seq[PerkIn] = ()
    grenades: Annotated[int, Field(ge=0, le=20)] = 0

    @model_validator(mode="after")
    def _distinct(self) -> Sheet:
        for _ in distinct_weapons(self.weapons):  # refused at the first name given twice
            pass
        names = [p.name for p in self.perks]
        for index, name in enumerate(names):
            if name in names[:index]:
                raise FieldProblem(("perks", index, "name"), f"{name!r} is already a perk of this sheet (a perk "
                                   "counts once: give one entry its whole bonus)")
        assert self.size in SIZES
        return self

    def card(self) -> Card:
        attributes = {name: getattr(self, name) for name in ("agility", "body", "savvy", "perception", "vigor", "grit",
                                                             "willpower", "strength", "intelligence", "endurance",
                                                             "charisma", "legerdemain", "medic")}
        return Card(attributes=attributes, hp=self.hp, pace=self.pace, sprint=self.sprint, fortitude=self.fortitude,
                    armour=self.armour, size=self.size, weapons=tuple(w.card() for w in self.weapons),
                    perks=tuple(Perk(**p.model_dump()) for p in self.perks), grenades=self.grenades)
