"""The named options of the ``roe7`` ruleset: every choice made where the rulebook is silent
or ambiguous, and every number a house rule may want to change.

``Roe7Options`` is what ``scene_started.options`` records (all fields, defaults included), so
a log always replays under the rules it was played with. Each option's docstring names the
rulebook section it comes from; ``docs/rulesets/roe7.md`` lists them with the reason for the
default. msgspec only: the fold reads these, and the fold must not import pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from msgspec import Struct

from fightlog.kit.options import Bonus, DieSize, NonNegative, Positive, read_options as read_ruleset_options
from fightlog.rules.roe7.tokens import DamageList, TokenOptions


class Roe7Options(Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every named option of ``roe7`` with its default."""

    # Weapon Token Details, Weapon Special Rules (see ``tokens.TokenOptions``)
    ranged_damage_list: DamageList = "heavy-1d70"
    large_semi_rifle_is_sniper: bool = True
    acannon_is_chainfed: bool = True
    # Modifiers; Armor
    modifier_cap: NonNegative = 30
    dr_cap: NonNegative = 30
    # Skill Rolls
    unopposed_target: NonNegative = 50
    gm_modifier_limit: NonNegative = 5
    # Basic Contested Roll; Multiple/Automatic Shots: one defence roll per action (false) or
    # one per shot (true). The rulebook gives the attacker "three rolls on one attack".
    dodge_per_shot: bool = False
    # Critical Success or Failure: when the attacker and the defender both roll a natural 1,
    # the attacker's "fail to hit" wins ("miss") or the defender's "are hit" does ("hit").
    both_natural_ones: Literal["miss", "hit"] = "miss"
    # Initiative: the rulebook has none; posts follow the order combatants joined
    # ("joined") unless a 1d100 is rolled ("d100").
    initiative: Literal["joined", "d100"] = "joined"
    # Weapon Special Rules (melee effects at 70/75/80)
    effect_threshold_heavy: Positive = 70
    effect_threshold_large: Positive = 70
    effect_threshold_medium: Positive = 75
    effect_threshold_small: Positive = 80
    # Bleed
    bleed_damage: NonNegative = 5
    bleed_turns: Positive = 5
    # Stun
    stun_turns: Positive = 1
    # Chemical Burn; flamer ("a 60+ on your attack roll": the natural die by default)
    burn_die: DieSize = 10
    burn_turns: Positive = 3
    burn_max_stacks: Positive = 3
    burn_threshold: Positive = 60
    burn_threshold_natural: bool = True
    burn_ignores_dr: bool = False
    # Weapon Special Rules (magika): the +10 a magika effect grants counts for the damage of
    # the action whose roll triggered it (true), or only from the next action (false).
    magika_surge_same_action: bool = True
    # Weapon Special Rules (pierce negates "armor"); Aimed Shots (ignore "armor"; double
    # against the "unarmoured"): whether racial DR counts as armour (true) or only worn DR
    # does (false).
    racial_dr_is_armour: bool = True
    # Flamer explosion when its user is downed: 1d100 <= 25, 1d50 in a 5 m diameter
    flamer_explosion_chance: NonNegative = 25
    flamer_explosion_die: DieSize = 50
    flamer_explosion_diameter_m: Positive = 5
    # What those around a downed flamer dodge against: a 1d100 rolled for the blast, as for
    # every explosive ("d100"), or the 1d50 damage roll itself ("damage").
    flamer_blast_difficulty: Literal["d100", "damage"] = "d100"
    # Suppressive Fire
    suppression_penalty: Bonus = 15
    # Dual Wielding penalties by the larger weapon's size
    dual_penalty_small: Bonus = 15
    dual_penalty_medium: Bonus = 20
    dual_penalty_large: Bonus = 25
    dual_penalty_heavy: Bonus = 35
    # Cover; Firing into Melee
    cover_bonus: Bonus = 15
    # Cover: "+15 to all dodge attempts" (true), or not against melee attacks (false).
    cover_against_melee: bool = True
    melee_bystander_range_m: Positive = 3
    # Changing Stance
    kneel_bonus: Bonus = 5
    prone_accuracy_bonus: Bonus = 10
    prone_dodge_bonus: Bonus = 5
    prone_stealth_bonus: Bonus = 5
    prone_movement_m: Positive = 3
    # Movement Range; Sprint; Falling
    movement_m: Positive = 8
    sprint_m: NonNegative = 4
    fall_threshold_m: Positive = 5
    fall_base_damage: NonNegative = 10
    fall_dodge: Positive = 75
    # Fleeing
    flee_attempts: NonNegative = 2
    # Calling for Aid: rounds of the caller's turns before allies enter
    reinforcement_turns: NonNegative = 2
    reinforcement_turns_near_base: NonNegative = 1
    # Explosives: grenades explode at the end of the thrower's second turn of use
    grenade_fuse_turns: Positive = 2
    grenade_die: DieSize = 50
    grenade_radius_m: Positive = 5
    # Explosives: targets must "beat" the thrower's 1d100; Basic Contested Roll: a tie
    # "always" goes to the defender. True: a tie is a successful dodge.
    explosive_tie_to_dodger: bool = True
    # Wounded; Mortal Wound
    wound_hours: Positive = 4
    mortal_wound_save: NonNegative = 25
    # Weather and Time of Day: as at the start of the fight, for the whole fight. The time of
    # day drives Nocturnal Predator; weather penalties have no numbers in the rulebook (the
    # HUD shows them), so the weather is recorded only.
    weather: str = "clear"
    time_of_day: Literal["day", "night"] = "day"

    @property
    def tokens(self) -> TokenOptions:
        """The options weapon tokens are read under."""
        return TokenOptions(
            ranged_damage_list=self.ranged_damage_list,
            large_semi_rifle_is_sniper=self.large_semi_rifle_is_sniper,
            acannon_is_chainfed=self.acannon_is_chainfed,
        )

    def effect_threshold(self, size: str) -> int:
        """The natural accuracy roll at or above which a melee or magika effect triggers."""
        return {
            "H": self.effect_threshold_heavy,
            "L": self.effect_threshold_large,
            "M": self.effect_threshold_medium,
            "S": self.effect_threshold_small,
        }[size]

    def dual_penalty(self, size: str) -> int:
        """The accuracy penalty for using two weapons, by the larger one's size."""
        return {
            "H": self.dual_penalty_heavy,
            "L": self.dual_penalty_large,
            "M": self.dual_penalty_medium,
            "S": self.dual_penalty_small,
        }[size]


DEFAULTS: Final = Roe7Options()

OPTION_NAMES: Final[tuple[str, ...]] = Roe7Options.__struct_fields__


def read_options(data: Mapping[str, Any], *, where: str | None = None) -> Roe7Options:
    """Options from ``scene_started.options`` or a house-rule file. An unknown name (with the
    closest known one) or a value of the wrong kind (with what is allowed) is refused."""
    return read_ruleset_options(Roe7Options, data, ruleset="roe7", where=where)
