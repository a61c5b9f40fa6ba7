"""The named options of ``d20-evasion``: every choice made where the rulebook is silent or
ambiguous, and every number a house rule may want to change.

``D20Options`` is what ``scene_started.options`` records (all fields, defaults included), so
a log always replays under the rules it was played with. The comment above each group names
the rulebook section it comes from; ``docs/rulesets/d20-evasion.md`` lists every option with
the reason for its default. Fields are int (with bounds), bool, str and ``Literal`` only (the
house-rules validator builds its model from them). msgspec only: the fold reads these, and
the fold must not import pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal

from msgspec import Meta, Struct

from fightlog.errors import InputError
from fightlog.kit.options import NUMBER_CAP, Bonus, NonNegative, Positive, read_options as read_ruleset_options

Face = Annotated[int, Meta(ge=1, le=20)]
Percent = Annotated[int, Meta(ge=0, le=1000)]
Metres = Annotated[int, Meta(ge=1, le=100_000)]

class D20Options(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every named option of ``d20-evasion`` with its default."""

    # Quests and duels: a duel has defensive turns; a quest has them only when the GM calls
    # for them (Defensive Turns).
    mode: Literal["quest", "duel"] = "quest"
    quest_defensive_turns: bool = False
    # Initiative: one roll per side on its best Dexterity + level bonus ("party"), or one
    # per combatant ("individual", at the GM's discretion); ties; who ambushes; the order
    # within a side (silent: by initiative bonus, then as joined).
    initiative: Literal["party", "individual"] = "party"
    initiative_tie: Literal["bonus", "reroll"] = "bonus"
    ambush: str = ""
    side_order: Literal["bonus", "joined"] = "bonus"
    # The stat chart (Evasion; Damage; Bonuses; Movement; not printed): bonus = stat //
    # step - offset; base damage = stat // step * per step; movement points = Dexterity //
    # points; level bonus = level / level step, rounded up.
    stat_step: Positive = 10
    stat_bonus_offset: Bonus = 1
    base_damage_per_step: NonNegative = 10
    dexterity_per_movement_point: Positive = 10
    level_bonus_step: Positive = 5
    # Attacking: a hit is 1d20 + bonus >= Evasion; the rulebook gives natural rolls no
    # special meaning on attacks.
    natural_20_hits: bool = False
    natural_1_misses: bool = False
    # Defensive Turns: a natural 1 is a critical failure; whether it also fails whatever the
    # bonus; who wins a tie of a dodge or parry against the attack ("higher" is needed to
    # avoid it); how much a counterattack lowers Evasion and for which attacks; the extra
    # damage after a fumbled counter; the parry fumble's penalty; one response per attack.
    critical_failure_face: Face = 1
    critical_failure_fails: bool = True
    defence_tie: Literal["attacker", "defender"] = "attacker"
    counter_evasion_penalty: Bonus = 1
    counter_penalty_scope: Literal["attack", "defensive-turn"] = "defensive-turn"
    counter_fumble_damage_percent: Percent = 150
    parry_fumble_penalty: Bonus = 1
    one_defence_per_attack: bool = True
    # Damage: altered damage rounded to the nearest 5 (a half rounds up by default); damage
    # over time goes through armour like any damage unless set to bypass it; Evasion from
    # armour after the armour points are gone.
    round_to: Positive = 5
    round_halves: Literal["up", "down"] = "up"
    dot_bypasses_armour: bool = False
    broken_armour_keeps_evasion: bool = True
    # Mortally Wounded: the countdown in full rounds; killed outright at this HP; the d20
    # injury table's bands (highest face of each, worst first; the rest: scars) and the
    # penalties it prints.
    bleed_out_rounds: Positive = 2
    killed_at_hp: Annotated[int, Meta(ge=-NUMBER_CAP, le=0)] = -75
    injury_mangled_max: NonNegative = 4
    injury_disabled_max: NonNegative = 8
    injury_concussion_max: NonNegative = 12
    injury_tear_max: NonNegative = 16
    concussion_penalty: Bonus = 5
    tear_penalty: Bonus = 3
    # Disarm: the difficulty above the target's Evasion; the face that throws the weapon;
    # feet per movement point when a sheet gives no speed.
    disarm_difficulty_bonus: Bonus = 3
    disarm_throw_face: Face = 20
    feet_per_movement_point: Positive = 10
    # Actions: two a turn; item use; lateral movement; drawing with load-bearing equipment.
    actions_per_turn: Positive = 2
    item_use_actions: Annotated[int, Meta(ge=1, le=2)] = 2
    lateral_move_cost: NonNegative = 1
    draw_free_with_lbe: bool = True
    # Range: the bands in metres (the rulebook ballparks them: the outer edge of each), which
    # bands count as melee range (disarm, parry), and how near one must be to use an item on
    # someone else.
    touch_max_m: Metres = 1
    close_max_m: Metres = 5
    medium_close_max_m: Metres = 15
    medium_max_m: Metres = 40
    far_max_m: Metres = 100
    melee_reach: Literal["touch", "close"] = "close"
    item_reach: Literal["touch", "close"] = "close"


DEFAULTS: Final = D20Options()

OPTION_NAMES: Final[tuple[str, ...]] = D20Options.__struct_fields__


def read_options(data: Mapping[str, Any], *, where: str | None = None) -> D20Options:
    """Options from ``scene_started.options`` or a house-rules file. An unknown name (with
    the closest known one) or a value of the wrong kind (with what is allowed) is refused;
    so are band limits out of order."""
    options = read_ruleset_options(D20Options, data, ruleset="d20-evasion", where=where)
    limits = band_limits(options)
    for (near_name, near), (far_name, far) in zip(zip(_BAND_LIMITS, limits), zip(_BAND_LIMITS[1:], limits[1:])):
        if near >= far:
            raise InputError(
                f"d20-evasion options: '{near_name}' ({near}) must be less than '{far_name}' ({far}): the band "
                "limits grow outwards (touch_max_m < close_max_m < medium_close_max_m < medium_max_m < far_max_m)",
                path=where,
            )
    names = ("injury_mangled_max", "injury_disabled_max", "injury_concussion_max", "injury_tear_max")
    bands = [getattr(options, name) for name in names]
    for at, (low, high) in enumerate(zip(bands, [*bands[1:], 20])):
        if low > high:
            above = f"'{names[at + 1]}' ({high})" if at + 1 < len(names) else "20"
            raise InputError(
                f"d20-evasion options: '{names[at]}' ({low}) must be at most {above}: the injury bands do not "
                "decrease and stay within 1-20 (injury_mangled_max <= injury_disabled_max <= "
                "injury_concussion_max <= injury_tear_max <= 20)",
                path=where,
            )
    return options


_BAND_LIMITS: Final = ("touch_max_m", "close_max_m", "medium_close_max_m", "medium_max_m", "far_max_m")
"""The options ``band_limits`` reads, in its order."""


def band_limits(options: D20Options) -> tuple[int, int, int, int, int]:
    """The outer edge of each band but the last, in metres, nearest first."""
    return (options.touch_max_m, options.close_max_m, options.medium_close_max_m, options.medium_max_m,
            options.far_max_m)
