"""The numbers a sheet gives in combat: the stat chart, HP, Evasion, damage, bonuses,
initiative and movement (HP; MP; Evasion; Damage; Bonuses; Initiative; Movement).

The rulebook refers to a stat chart it does not print; its worked examples pin it down
where they speak (a stat of 21 gives +1 to hit, +1 Evasion and 20 base damage; 20 and 30
Dexterity give 2 and 3 movement points), and the options give the rest (``stat_step``,
``stat_bonus_offset``, ``base_damage_per_step``, ``dexterity_per_movement_point``,
``level_bonus_step``). Pure integer functions.
"""

from __future__ import annotations

from collections.abc import Iterable

from fightlog.rules.d20evasion.options import D20Options


def stat_bonus(stat: int, options: D20Options) -> int:
    """A stat's bonus on the chart: one per full ``stat_step`` points, less the offset (21
    gives +1 by default). Also the Dexterity step added to Evasion."""
    return stat // options.stat_step - options.stat_bonus_offset


def base_damage(stat: int, options: D20Options) -> int:
    """Base damage from the weapon's stat (Perception for ranged weapons, Strength for
    melee, Willpower for magic): 21 gives 20 by default."""
    return stat // options.stat_step * options.base_damage_per_step


def level_bonus(level: int, options: D20Options) -> int:
    """The level bonus: one per ``level_bonus_step`` levels begun (levels 1-5 give +1)."""
    return -(-level // options.level_bonus_step)


def movement_points(dexterity: int, options: D20Options) -> int:
    """One movement point for every ``dexterity_per_movement_point`` (10) Dexterity."""
    return dexterity // options.dexterity_per_movement_point


def initiative_bonus(dexterity: int, level: int, options: D20Options) -> int:
    """Dex + level bonus: what a combatant (or their party) adds to the initiative d20."""
    return stat_bonus(dexterity, options) + level_bonus(level, options)


def max_hp(base_hp: int, armour: Iterable[int]) -> int:
    """Max HP: base HP plus every armour bonus worn."""
    return base_hp + sum(armour)


def evasion(race_base: int, dexterity: int, armour_evasion: Iterable[int], options: D20Options) -> int:
    """Evasion: the race's base, the Dexterity step and what armour adds."""
    return race_base + stat_bonus(dexterity, options) + sum(armour_evasion)


def damage(stat: int, weapon_damage: int, options: D20Options) -> int:
    """Damage per hit: the stat's base damage plus the weapon's or spell's own."""
    return base_damage(stat, options) + weapon_damage


def to_hit(stat: int, class_bonus: int, skill_bonus: int, gear_bonus: int, options: D20Options) -> int:
    """The bonus to hit: stat bonus + class bonus + skill bonus + gear bonus."""
    return stat_bonus(stat, options) + class_bonus + skill_bonus + gear_bonus
