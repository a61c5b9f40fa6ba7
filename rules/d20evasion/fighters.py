"""A combatant as the d20 evasion rules see them: folded state (pools, statuses, effects,
position) plus their sheet card, read under the scene's options.

``Fighter`` is built per decision. Modifier lists are ``(value, source)`` pairs ready for a
``dice_rolled`` event (zeros left out); the numbers come from ``stats``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Final

from fightlog.errors import RefusedError
from fightlog.kit.fighters import Breach, FighterBase, Mods, absent, sum_mods
from fightlog.kit.options import SceneOptions
from fightlog.reducers.state import ActiveEffect, SceneState
from fightlog.rules.d20evasion import stats
from fightlog.rules.d20evasion.bands import Band, band_between
from fightlog.rules.d20evasion.card import UNARMED, UNARMED_CARD, Card, ItemCard, Kind, SpellCard, WeaponCard, read_card
from fightlog.rules.d20evasion.options import DEFAULTS, D20Options, read_options
from fightlog.rules.d20evasion.ruleset import OUT

__all__ = ["STAT_OF", "Breach", "Fighter", "Mods", "absent", "options_of", "sum_mods"]

STAT_OF: Final[dict[Kind, str]] = {"ranged": "perception", "melee": "strength", "magic": "willpower"}
"""The stat a weapon's damage and to-hit come from (Damage; Bonuses)."""


options_of: Final = SceneOptions(read_options, fallback=DEFAULTS)
"""The options the scene was started with (the defaults for a log whose options do not
read: it still folds and audits)."""


def _nonzero(mods: Mods) -> Mods:
    return [(v, s) for v, s in mods if v]


class Fighter(FighterBase):
    """One combatant's rules view."""

    out_statuses = OUT

    def __init__(self, state: SceneState, actor: str, options: D20Options | None = None) -> None:
        super().__init__(state, actor)
        if options is not None:
            self.__dict__["options"] = options

    @cached_property
    def card(self) -> Card:
        return read_card(self.who.sheet)

    @cached_property
    def options(self) -> D20Options:
        return options_of(self.state)

    # ------------------------------------------------------------------ standing

    @property
    def armour(self) -> int:
        return self.who.pools.get("armour", 0)

    @property
    def mp(self) -> int:
        return self.who.pools.get("mp", 0)

    @property
    def side(self) -> str:
        return self.who.side or self.actor

    def injuries(self) -> list[ActiveEffect]:
        return self.effects("injury")

    # ------------------------------------------------------------------ equipment

    def weapon(self, ref: str | None) -> WeaponCard:
        """The weapon ``ref`` names (case-insensitive), ``unarmed``, or the one weapon
        carried when ``ref`` is omitted."""
        carried = self.card.weapons
        if ref is not None and ref.lower() == UNARMED:
            return UNARMED_CARD
        names = ", ".join(w.name for w in carried) or "no weapons"
        if ref is None:
            if len(carried) == 1:
                return carried[0]
            if not carried:
                return UNARMED_CARD
            raise RefusedError(f"{self.actor} carries {names}: name the weapon (weapon=NAME, or weapon=unarmed)",
                                   code="rules.incomplete")
        for weapon in carried:
            if weapon.name.lower() == ref.lower():
                return weapon
        raise RefusedError(f"{self.actor} carries no weapon {ref!r} (carries {names})", code="rules.not-carried")

    def spell(self, ref: str | None) -> SpellCard:
        known = ", ".join(s.name for s in self.card.spells) or "no spells"
        if ref is None:
            raise RefusedError(f"name the spell: spell=NAME ({self.actor} knows {known})", code="rules.incomplete")
        for spell in self.card.spells:
            if spell.name.lower() == ref.lower():
                return spell
        raise RefusedError(f"{self.actor} knows no spell {ref!r} (knows {known})", code="rules.not-carried")

    def item(self, ref: str | None) -> ItemCard:
        known = ", ".join(i.name for i in self.card.items) or "no items"
        if ref is None:
            raise RefusedError(f"name the item: item=NAME ({self.actor} carries {known})", code="rules.incomplete")
        for item in self.card.items:
            if item.name.lower() == ref.lower():
                return item
        raise RefusedError(f"{self.actor} carries no item {ref!r} (carries {known})", code="rules.not-carried")

    def items_left(self, item: ItemCard) -> int:
        return item.count - self.who.spent.get(item.name, 0)

    def dropped(self) -> ActiveEffect | None:
        """The disarm that knocked a weapon away, until it is picked up or another drawn."""
        return self.effect("disarmed")

    def wields(self, weapon: WeaponCard) -> bool:
        """Whether ``weapon`` is at hand: not knocked away, and nothing else to draw first
        (a disarmed combatant picks up or draws before attacking with a weapon; a hand
        weapon or bare hands need no drawing)."""
        return self.dropped() is None or weapon.hand

    # ------------------------------------------------------------------ numbers

    def stat(self, name: str) -> int:
        value: int = getattr(self.card.stats, name)
        return value

    def stat_bonus(self, name: str) -> int:
        return stats.stat_bonus(self.stat(name), self.options)

    @property
    def level_bonus(self) -> int:
        return stats.level_bonus(self.card.level, self.options)

    @property
    def initiative_bonus(self) -> int:
        return stats.initiative_bonus(self.stat("dexterity"), self.card.level, self.options)

    def evasion(self, *, lowered: int = 0) -> int:
        """Evasion now: the race's base, the Dexterity step, armour's Evasion (unless the
        armour points are gone and ``broken_armour_keeps_evasion`` is off), less what a
        counterattack lowers it by."""
        armour = self.card.armour_evasion if self.armour > 0 or self.options.broken_armour_keeps_evasion else 0
        return stats.evasion(self.card.race_evasion, self.stat("dexterity"), (armour,), self.options) - lowered

    def damage(self, gear: WeaponCard | SpellCard) -> int:
        """Damage per hit: the base damage of the weapon's stat plus the weapon's own."""
        kind: Kind = gear.kind if isinstance(gear, WeaponCard) else "magic"
        return stats.damage(self.stat(STAT_OF[kind]), gear.damage, self.options)

    def penalties(self, *, attack: bool) -> Mods:
        """What injuries take off every roll (concussion, a torn muscle), and on an attack
        roll the penalty of a fumbled parry."""
        mods: Mods = []
        for injury in self.injuries():
            found = injury.params.get("penalty")
            penalty = found if isinstance(found, int) else 0
            if penalty:
                mods.append((-penalty, f"{injury.params.get('kind', 'injury')}"))
        if attack:
            fumble = self.effect("parry_fumble")
            fumbled = None if fumble is None else fumble.params.get("penalty")
            if isinstance(fumbled, int) and fumbled:
                mods.append((-fumbled, "fumbled parry"))
        return mods

    def to_hit_mods(self, gear: WeaponCard | SpellCard) -> Mods:
        """Stat bonus + class bonus + skill bonus + gear bonus (Bonuses), then penalties."""
        kind: Kind = gear.kind if isinstance(gear, WeaponCard) else "magic"
        stat = STAT_OF[kind]
        card = self.card
        mods: Mods = [
            (self.stat_bonus(stat), stat.title()),
            (card.class_bonus(gear.category), f"class {card.class_name or ''}".strip()),
            (card.skill(gear.skill), f"skill {gear.skill}"),
            (gear.gear, "gear"),
        ]
        return _nonzero(mods + self.penalties(attack=True))

    def dex_level_mods(self, skill: str) -> Mods:
        """A DEX/LVL roll (a dodge, a parry): Dexterity bonus, level bonus, the skill."""
        mods: Mods = [
            (self.stat_bonus("dexterity"), "Dexterity"),
            (self.level_bonus, "level"),
            (self.card.skill(skill), f"skill {skill}"),
        ]
        return _nonzero(mods + self.penalties(attack=False))

    def parry_mods(self, weapon: WeaponCard) -> Mods:
        """A parry: DEX/LVL plus the bonuses of using that melee weapon (class, skill, gear)."""
        card = self.card
        mods = self.dex_level_mods("parry")
        extra: Mods = [
            (card.class_bonus(weapon.category), f"class {card.class_name or ''}".strip()),
            (card.skill(weapon.skill), f"skill {weapon.skill}"),
            (weapon.gear, "gear"),
        ]
        return _nonzero(mods + extra)

    def disarm_mods(self) -> Mods:
        """A disarm: STR/LVL (Strength bonus, level bonus, a disarm skill)."""
        mods: Mods = [
            (self.stat_bonus("strength"), "Strength"),
            (self.level_bonus, "level"),
            (self.card.skill("disarm"), "skill disarm"),
        ]
        return _nonzero(mods + self.penalties(attack=False))

    def movement_points(self) -> int:
        """Movement points this turn: one per 10 Dexterity; none after a fumbled dodge (the
        movement of the turn after it) or with a mangled limb."""
        if any(i.params.get("kind") == "mangled" for i in self.injuries()):
            return 0
        lost = self.effect("lost_move")
        if lost is not None and self.at_turn_start(lost):
            return 0
        return stats.movement_points(self.stat("dexterity"), self.options)

    def speed_ft(self) -> int:
        """Movement speed in feet (a sheet's ``speed_ft``, else per movement point)."""
        speed = self.card.speed_ft
        if speed is not None:
            return speed
        return stats.movement_points(self.stat("dexterity"), self.options) * self.options.feet_per_movement_point

    def band_to(self, other: Fighter) -> Band | None:
        """The band between the two, when both have a position."""
        here, there = self.position, other.position
        if here is None or there is None:
            return None
        return band_between(here, there, self.options)
