"""Weapons (Weapon Token Details; Weapon Special Rules; Multiple/Automatic Shots; Dual
Wielding; Unarmed; Armor), each with the faces stated."""

from __future__ import annotations

import pytest

from fightlog.events.model import (
    AttackResolved,
    DamageApplied,
    DiceRolled,
    EffectApplied,
    Modifier,
    ResourceSpent,
    StatusChanged,
    WeaponReloaded,
)
from tests.rules.roe7.rigged import (
    AMR,
    AXE_H,
    BLADE,
    CLUB_H,
    CLUB_L,
    CLUB_M,
    CLUB_S,
    FLAMER,
    HPISTOL,
    MAGIKA,
    MG,
    PIERCE_M,
    PISTOL,
    RIFLE,
    SHOTGUN,
    SMG,
    SWORD_M,
    WHIP,
    Fight,
    act,
    duel,
    of,
)


def mod(value: int, applies_to: str) -> dict[str, object]:
    return {"value": value, "source": "stats", "applies_to": applies_to}


def rolls(events: list[object], purpose: str) -> list[DiceRolled]:
    return [e for e in of(events, DiceRolled) if e.purpose == purpose]


def pass_turn(fight: Fight, actor: str) -> None:
    """``actor`` ends their turn doing nothing; then the other's turn ends too."""
    fight.end_turn()
    assert fight.current == actor
    fight.end_turn()


# --------------------------------------------------------------------------- damage dice


@pytest.mark.parametrize(
    ("token", "die"),
    [
        (PISTOL, 10), ("M_s_Rifle_Class_(Permanent)", 20), ("L_s_Rifle_Class_(Permanent)", 50),
        ("H_s_Launcher_Class_(Permanent)", 70), (MG, 50), ("H_a_ACannon_Class_(Permanent)", 70),
        (HPISTOL, 40), (SHOTGUN, 70),
        (CLUB_S, 10), (CLUB_M, 20), (CLUB_L, 50), (CLUB_H, 100),
        ("S_m_Magika_Class_(Permanent)", 10), (MAGIKA, 20), ("L_m_Magika_Class_(Permanent)", 50),
    ],
)
def test_the_damage_die_by_size_and_class(token: str, die: int) -> None:
    fight = duel(a={"weapons": [token]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=token, shots=1) if "_b_" in token
                        else act("attack", "bob", weapon=token), faces=[10, 50, 1])
    assert rolls(events, "damage")[0].notation == f"1d{die}"


@pytest.mark.parametrize(("token", "die"), [("H_s_Launcher_Class_(Permanent)", 100), (CLUB_H, 70)])
def test_the_other_damage_list_swaps_the_heavy_dice(token: str, die: int) -> None:
    fight = duel({"ranged_damage_list": "heavy-1d100"}, a={"weapons": [token]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=token), faces=[10, 50, 1])
    assert rolls(events, "damage")[0].notation == f"1d{die}"


# --------------------------------------------------------------------------- automatic fire


def test_automatic_fire_rolls_three_times_and_tallies_before_modifiers_and_dr() -> None:
    fight = duel(a={"modifiers": [mod(5, "ballistic_damage")]}, b={"dr": {"ballistic": 6}})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="auto"), faces=[40, 50, 30, 60, 5, 7])
    assert [r.label for r in rolls(events, "attack")] == ["shot 1", "shot 2", "shot 3"]
    assert len(rolls(events, "dodge")) == 1  # one dodge per action (dodge_per_shot is off)
    assert [r.hit for r in of(events, AttackResolved)] == [True, False, True]
    [damage] = rolls(events, "damage")
    assert damage.notation == "1d20 + 1d20" and damage.total == 5 + 7 + 5
    [taken] = of(events, DamageApplied)
    assert (taken.raw, taken.reduced_by, taken.taken) == (17, 6, 11)
    assert fight.weapon("alice", RIFLE) == (3, True, 0)


def test_automatic_fire_needs_a_reload_and_a_single_shot_does_not() -> None:
    fight = duel()
    fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 50])
    assert fight.weapon("alice", RIFLE) == (1, False, 0)
    pass_turn(fight, "bob")
    fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="auto"), faces=[99, 50, 50, 50])
    pass_turn(fight, "bob")
    reason = fight.refused("alice", act("attack", "bob", weapon=RIFLE))
    assert reason == f"{RIFLE} needs a reload first (reload: one action)"
    reloaded = fight.post("alice", act("reload", weapon=RIFLE))
    assert of(reloaded, WeaponReloaded)[0].weapon == RIFLE and fight.weapon("alice", RIFLE) == (0, False, 0)
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE)) == "alice has no action left this turn (one action per turn)"


def test_a_semi_automatic_weapon_has_no_automatic_fire() -> None:
    fight = duel(a={"weapons": [PISTOL]})
    assert fight.refused("alice", act("attack", "bob", weapon=PISTOL, mode="auto")) == f"{PISTOL} is not automatic: no auto fire"


@pytest.mark.parametrize(("weapon", "swings"), [(CLUB_S, 3), (CLUB_M, 2), ("unarmed", 3)])
def test_melee_that_swings_more_than_once_takes_mode_multi(weapon: str, swings: int) -> None:
    fight = duel(a={"weapons": [CLUB_S, CLUB_M]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=weapon, mode="multi"), faces=[99] + [2] * swings)
    assert len(rolls(events, "attack")) == swings


@pytest.mark.parametrize("weapon", [CLUB_L, CLUB_H, MAGIKA])
def test_a_weapon_that_attacks_once_has_no_mode_multi(weapon: str) -> None:
    fight = duel(a={"weapons": [weapon]}, distance=2)
    kind = "magika" if weapon == MAGIKA else "a melee weapon"
    assert fight.refused("alice", act("attack", "bob", weapon=weapon, mode="multi")) == (
        f"{weapon} attacks once per action ({kind}): no multi attack"
    )


def test_one_shot_per_action_for_other_firearms() -> None:
    fight = duel()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, shots=2)) == (
        f"{RIFLE} fires one shot per action (automatic weapons: mode=auto)"
    )


# --------------------------------------------------------------------------- special classes


def test_a_small_semi_automatic_fires_twice_with_no_cooldown() -> None:
    fight = duel(a={"weapons": [PISTOL]})
    events = fight.post("alice", act("attack", "bob", weapon=PISTOL, shots=2), faces=[10, 50, 60, 3, 4])
    assert len(rolls(events, "attack")) == 2 and rolls(events, "damage")[0].notation == "1d10 + 1d10"
    assert fight.hp("bob") == 93 and fight.weapon("alice", PISTOL) == (2, False, 0)
    pass_turn(fight, "bob")
    fight.post("alice", act("attack", "bob", weapon=PISTOL, mode="multi"), faces=[99, 50, 50])
    pass_turn(fight, "bob")
    assert fight.refused("alice", act("attack", "bob", weapon=PISTOL, shots=3)) == (
        f"{PISTOL} fires once or twice per turn, not 3 times"
    )


def test_a_heavy_pistol_fires_once_per_turn_for_1d40() -> None:
    fight = duel(a={"weapons": [HPISTOL]})
    assert fight.refused("alice", act("attack", "bob", weapon=HPISTOL, shots=2)).startswith(f"{HPISTOL} fires one shot")
    events = fight.post("alice", act("attack", "bob", weapon=HPISTOL), faces=[10, 50, 33])
    assert rolls(events, "damage")[0].notation == "1d40" and fight.hp("bob") == 67
    assert fight.weapon("alice", HPISTOL) == (1, False, 1)  # no second shot this turn
    fight.end_turn()
    assert fight.weapon("alice", HPISTOL) == (1, False, 0)  # and none owed next turn


def test_a_heavy_pistol_is_a_small_firearm_that_can_be_dual_wielded() -> None:
    fight = duel(a={"weapons": [HPISTOL, PISTOL]})
    events = fight.post("alice", act("attack", "bob", weapon=HPISTOL, offhand=PISTOL), faces=[99, 50, 50])
    assert {m.value for r in rolls(events, "attack") for m in r.modifiers} == {-15}


def test_a_shotgun_fires_once_for_1d70_at_close_range() -> None:
    fight = duel(a={"weapons": [SHOTGUN]})
    events = fight.post("alice", act("attack", "bob", weapon=SHOTGUN), faces=[10, 50, 33])
    assert len(rolls(events, "attack")) == 1 and rolls(events, "damage")[0].notation == "1d70"


def test_a_shotgun_fires_multiple_shots_at_medium_range_then_racks_a_turn() -> None:
    fight = duel(a={"weapons": [SHOTGUN]}, distance=30)
    events = fight.post("alice", act("attack", "bob", weapon=SHOTGUN), faces=[5, 10, 10, 3, 4, 6])
    assert [r.notation for r in rolls(events, "attack")] == ["1d20"] * 3
    assert rolls(events, "damage")[0].notation == "1d20 + 1d20" and fight.hp("bob") == 90
    assert fight.weapon("alice", SHOTGUN) == (3, False, 2)
    pass_turn(fight, "bob")
    reason = fight.refused("alice", act("attack", "bob", weapon=SHOTGUN))
    assert reason == f"{SHOTGUN} cannot fire yet: the shotgun is racking the next shell"
    pass_turn(fight, "bob")
    fight.post("alice", act("attack", "bob", weapon=SHOTGUN), faces=[99, 2, 2, 2])


def test_a_chainfed_gun_fires_three_turns_then_reloads_for_two_actions() -> None:
    fight = duel(a={"weapons": [MG]})
    for _ in range(3):
        fight.post("alice", act("attack", "bob", weapon=MG, mode="auto"), faces=[99, 2, 2, 2])
        pass_turn(fight, "bob")
    assert fight.weapon("alice", MG) == (3, True, 0)
    assert fight.refused("alice", act("attack", "bob", weapon=MG, mode="auto")) == (
        f"{MG} needs a reload first (reload: one action, two for chainfed)"
    )
    events = fight.post("alice", act("reload", weapon=MG))
    assert of(events, WeaponReloaded) == [] and "reloading" in fight.effects("alice")
    pass_turn(fight, "bob")
    events = fight.post("alice", act("reload", weapon=MG))
    assert of(events, WeaponReloaded)[0].weapon == MG and fight.weapon("alice", MG) == (0, False, 0)


def test_moving_interrupts_a_chainfed_reload() -> None:
    fight = duel(a={"weapons": [MG]})
    for _ in range(3):
        fight.post("alice", act("attack", "bob", weapon=MG, mode="auto"), faces=[99, 2, 2, 2])
        pass_turn(fight, "bob")
    fight.post("alice", act("reload", weapon=MG))
    pass_turn(fight, "bob")
    fight.post("alice", act("move", m=1), act("reload", weapon=MG))  # the move restarts the reload
    assert fight.weapon("alice", MG) == (3, True, 0) and "reloading" in fight.effects("alice")
    pass_turn(fight, "bob")
    fight.post("alice", act("reload", weapon=MG))
    assert fight.weapon("alice", MG) == (0, False, 0)


def test_a_sniper_works_the_bolt_after_every_shot_and_never_fires_automatically() -> None:
    fight = duel(a={"weapons": [AMR]}, distance=60)
    assert fight.refused("alice", act("attack", "bob", weapon=AMR, mode="auto")) == f"{AMR} is not automatic: no auto fire"
    fight.post("alice", act("attack", "bob", weapon=AMR), faces=[5, 30, 10])
    assert fight.weapon("alice", AMR) == (1, True, 0)
    pass_turn(fight, "bob")
    assert fight.refused("alice", act("attack", "bob", weapon=AMR)) == f"{AMR} needs a reload first (work the bolt: one action)"
    fight.post("alice", act("reload", weapon=AMR))
    assert fight.weapon("alice", AMR) == (0, False, 0)


def test_melee_weapons_never_reload() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=SWORD_M), faces=[99, 50, 50])
    assert of(events, ResourceSpent) == []
    pass_turn(fight, "bob")
    assert fight.refused("alice", act("reload", weapon=SWORD_M)) == f"{SWORD_M} is not a firearm: melee and magika never reload"


# --------------------------------------------------------------------------- flamers


def test_a_flamer_burns_on_a_60_that_hits_once_per_action() -> None:
    fight = duel(a={"weapons": [FLAMER]}, distance=8)
    events = fight.post("alice", act("attack", "bob", weapon=FLAMER, mode="auto"), faces=[50, 60, 90, 59, 1, 1, 1])
    [burn] = of(events, EffectApplied)
    assert (burn.name, burn.target, burn.stacks, burn.duration, burn.dice) == ("chemical_burn", "bob", 1, 3, "1d10")
    assert of(events, DamageApplied)[0].damage_type == "explosive"


@pytest.mark.parametrize(("faces", "why"), [([50, 59, 1], "59 is below 60"), ([70, 65], "a 65 that misses")])
def test_a_flamer_does_not_burn_below_60_or_on_a_miss(faces: list[int], why: str) -> None:
    fight = duel(a={"weapons": [FLAMER]}, distance=8)
    events = fight.post("alice", act("attack", "bob", weapon=FLAMER), faces=faces)
    assert of(events, EffectApplied) == [], why


def flamer_fight() -> Fight:
    fight = Fight()
    fight.join("alice", (0, 0), weapons=[RIFLE])
    fight.join("bob", (2, 0), hp=5, weapons=[FLAMER], dr={"explosive": 4})
    fight.join("carl", (2, 2), weapons=[RIFLE])
    fight.join("dave", (2, 3), weapons=[RIFLE])
    fight.begin()
    return fight


def test_a_downed_flamer_user_explodes_on_25_or_lower() -> None:
    fight = flamer_fight()
    # dodge, attack, damage; mortal save 90; tank 25; blast 30; difficulty 60; alice and carl dodge
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 20, 90, 25, 30, 60, 61, 59])
    assert [(d.target, d.raw, d.reduced_by) for d in of(events, DamageApplied)] == [
        ("bob", 20, 0), ("bob", 30, 4), ("carl", 30, 0),
    ]
    assert [(r.roller, r.label) for r in rolls(events, "dodge")] == [("bob", None), ("alice", None), ("carl", None)]
    assert fight.hp("dave") == 100 and fight.hp("alice") == 100 and fight.hp("carl") == 70


def test_a_downed_flamer_user_does_not_explode_on_26() -> None:
    fight = flamer_fight()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 20, 90, 26])
    assert [d.target for d in of(events, DamageApplied)] == ["bob"]


# --------------------------------------------------------------------------- melee


@pytest.mark.parametrize(("token", "swings"), [(BLADE, 3), (SWORD_M, 2), (CLUB_L, 1), (CLUB_H, 1)])
def test_melee_swings_by_size(token: str, swings: int) -> None:
    fight = duel(a={"weapons": [token]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=token), faces=[99] + [2] * swings)
    assert len(rolls(events, "attack")) == swings


def test_fewer_swings_may_be_declared_but_not_more() -> None:
    fight = duel(a={"weapons": [BLADE]}, distance=2)
    assert fight.refused("alice", act("attack", "bob", weapon=BLADE, shots=4)) == f"{BLADE} swings 1 to 3 times per action, not 4"
    events = fight.post("alice", act("attack", "bob", weapon=BLADE, shots=2), faces=[99, 2, 2])
    assert len(rolls(events, "attack")) == 2


def test_unarmed_is_three_strikes_of_1d6_without_a_blunt_effect() -> None:
    fight = duel(a={"modifiers": [mod(3, "melee_damage")]}, distance=1)
    events = fight.post("alice", act("attack", "bob", weapon="unarmed"), faces=[10, 95, 95, 95, 6, 6, 6])
    assert rolls(events, "damage")[0].notation == "1d6 + 1d6 + 1d6" and fight.hp("bob") == 100 - 21
    assert of(events, EffectApplied) == []


def test_unarmed_attacks_cannot_be_dual_wielded() -> None:
    fight = duel(a={"weapons": [BLADE]}, distance=1)
    assert fight.refused("alice", act("attack", "bob", weapon="unarmed", offhand=BLADE)) == "unarmed attacks cannot be dual wielded"


@pytest.mark.parametrize(("token", "threshold"), [(CLUB_S, 80), (CLUB_M, 75), (CLUB_L, 70), (CLUB_H, 70)])
def test_blunt_stuns_on_the_threshold_by_size(token: str, threshold: int) -> None:
    fight = duel(a={"weapons": [token]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=token, shots=1), faces=[10, threshold - 1, 1])
    assert of(events, EffectApplied) == []
    pass_turn(fight, "bob")
    events = fight.post("alice", act("attack", "bob", weapon=token, shots=1), faces=[10, threshold, 1])
    [stun] = of(events, EffectApplied)
    assert (stun.name, stun.target, stun.duration, stun.counts_on) == ("stun", "bob", 1, "bob")


def test_slash_bleeds_on_the_threshold() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 1])
    [bleed] = of(events, EffectApplied)
    assert (bleed.name, bleed.magnitude, bleed.duration) == ("bleed", 5, 5)


def test_pierce_ignores_armour_for_that_action_on_the_threshold() -> None:
    fight = duel(a={"weapons": [PIERCE_M]}, b={"dr": {"melee": 10, "all": 5}}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=PIERCE_M), faces=[10, 74, 50, 8, 9])
    assert of(events, DamageApplied)[0].reduced_by == 15
    pass_turn(fight, "bob")
    events = fight.post("alice", act("attack", "bob", weapon=PIERCE_M), faces=[10, 74, 75, 8, 9])
    [damage] = of(events, DamageApplied)
    assert (damage.raw, damage.reduced_by, damage.taken) == (17, 0, 17)


def test_magika_adds_10_to_damage_and_accuracy_until_the_end_of_the_next_turn() -> None:
    fight = duel(a={"weapons": [MAGIKA]}, distance=10)
    events = fight.post("alice", act("attack", "bob", weapon=MAGIKA), faces=[10, 75, 4])
    [surge] = of(events, EffectApplied)
    assert (surge.name, surge.target, surge.counts_on, surge.duration) == ("magika_surge", "alice", "alice", 1)
    assert rolls(events, "damage")[0].total == 14  # this action's damage too (magika_surge_same_action)
    pass_turn(fight, "bob")
    events = fight.post("alice", act("attack", "bob", weapon=MAGIKA), faces=[99, 50])
    assert Modifier(value=10, source="magika surge") in rolls(events, "attack")[0].modifiers
    fight.end_turn()
    assert "magika_surge" not in fight.effects("alice")


def test_whip_knocks_prone_on_the_threshold() -> None:
    fight = duel(a={"weapons": [WHIP]}, distance=5)  # whips reach 6 m
    events = fight.post("alice", act("attack", "bob", weapon=WHIP, shots=1), faces=[10, 75, 1])
    assert [(s.actor, s.status) for s in of(events, StatusChanged)][0] == ("bob", "prone")


def test_melee_effects_do_not_stack_across_hits() -> None:
    fight = duel(a={"weapons": [BLADE]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=BLADE), faces=[10, 80, 90, 100, 1, 1, 1])
    assert [e.name for e in of(events, EffectApplied)] == ["bleed"]


def test_melee_effects_read_the_unmodified_die() -> None:
    fight = duel(a={"weapons": [BLADE], "modifiers": [mod(30, "melee_accuracy")]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=BLADE, shots=1), faces=[10, 79, 1])
    assert of(events, EffectApplied) == []


def test_melee_effects_need_a_successful_roll() -> None:
    fight = duel(a={"weapons": [BLADE]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=BLADE, shots=1), faces=[95, 90])
    assert of(events, EffectApplied) == []


def test_an_effect_does_not_land_on_a_target_the_damage_took_out() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, b={"hp": 5}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 90, 20, 99])
    assert of(events, EffectApplied) == [] and "defeated" in fight.statuses("bob")


# --------------------------------------------------------------------------- damage reduction


def test_dr_is_capped_at_30_and_applied_once_to_the_tally() -> None:
    fight = duel(b={"dr": {"all": 20, "ballistic": 20}})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="auto"), faces=[10, 50, 50, 50, 15, 18, 20])
    [damage] = of(events, DamageApplied)
    assert (damage.raw, damage.reduced_by, damage.taken) == (53, 30, 23)


def test_dr_never_takes_more_than_the_damage() -> None:
    fight = duel(b={"dr": {"ballistic": 10}})
    [damage] = of(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 4]), DamageApplied)
    assert (damage.raw, damage.reduced_by, damage.taken) == (4, 4, 0)


def test_several_damage_types_in_one_action() -> None:
    """Largest damage modifier plus half the other; largest DR plus half the other."""
    fight = duel(
        a={"weapons": [SWORD_M, PISTOL], "modifiers": [mod(10, "melee_damage"), mod(4, "ballistic_damage")]},
        b={"dr": {"melee": 10, "ballistic": 6}},
        distance=2,
    )
    events = fight.post("alice", act("attack", "bob", weapon=SWORD_M, offhand=PISTOL), faces=[10, 50, 50, 50, 10, 10, 5])
    [damage_roll] = rolls(events, "damage")
    assert damage_roll.notation == "1d20 + 1d20 + 1d10"
    assert [m.value for m in damage_roll.modifiers] == [10, 2] and damage_roll.total == 37
    [damage] = of(events, DamageApplied)
    assert (damage.raw, damage.reduced_by, damage.taken, damage.damage_type) == (37, 13, 24, "ballistic+melee")


def test_several_damage_types_are_capped_at_30_too() -> None:
    fight = duel(
        a={"weapons": [SWORD_M, PISTOL], "modifiers": [mod(30, "melee_damage"), mod(24, "ballistic_damage")]},
        b={"dr": {"melee": 25, "ballistic": 20}},
        distance=2,
    )
    events = fight.post("alice", act("attack", "bob", weapon=SWORD_M, offhand=PISTOL), faces=[10, 50, 50, 50, 10, 10, 5])
    assert rolls(events, "damage")[0].total == 25 + 30
    assert of(events, DamageApplied)[0].reduced_by == 30


# --------------------------------------------------------------------------- dual wielding


@pytest.mark.parametrize(
    ("size", "first", "second", "penalty"),
    [
        ("medium", PISTOL, BLADE, 15), ("medium", PISTOL, SWORD_M, 20), ("small", PISTOL, BLADE, 15),
        ("large", CLUB_L, PISTOL, 25), ("large", AXE_H, PISTOL, 35),
    ],
)
def test_dual_wielding_costs_accuracy_by_the_larger_weapon(size: str, first: str, second: str, penalty: int) -> None:
    fight = duel(a={"weapons": [first, second], "size_class": size}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=first, offhand=second, shots=1), faces=[99, 50, 50])
    attacks = rolls(events, "attack")
    assert len(attacks) == 2
    assert all(Modifier(value=-penalty, source="dual wielding") in a.modifiers for a in attacks)


@pytest.mark.parametrize(("size", "first", "second"), [("medium", CLUB_L, PISTOL), ("small", SWORD_M, BLADE)])
def test_the_size_class_limits_dual_wielding(size: str, first: str, second: str) -> None:
    fight = duel(a={"weapons": [first, second], "size_class": size}, distance=2)
    assert fight.refused("alice", act("attack", "bob", weapon=first, offhand=second)) == (
        f"a {size} character cannot dual wield {first} and {second}"
    )


def test_holding_two_weapons_but_using_one_costs_nothing() -> None:
    fight = duel(a={"weapons": [PISTOL, BLADE]})
    [attack] = rolls(fight.post("alice", act("attack", "bob", weapon=PISTOL), faces=[99, 50]), "attack")
    assert attack.modifiers == []


def test_two_weapons_of_one_token_fire_as_one_and_are_not_dual_wielded() -> None:
    """Two alike were refused ("matches more than one of alice's weapons: give the token",
    the token given): an attack fires the first; the fold keys a weapon by its token, so the
    two cannot be dual wielded apart (docs/rulesets/roe7.md W16)."""
    fight = duel(a={"weapons": [PISTOL, PISTOL]})
    assert fight.refused("alice", act("attack", "bob", weapon=PISTOL, offhand=PISTOL)) == (
        "dual wielding needs two different weapons")
    assert len(rolls(fight.post("alice", act("attack", "bob", weapon=PISTOL), faces=[99, 50]), "attack")) == 1


@pytest.mark.parametrize("mode", ["aimed", "sneak"])
def test_aimed_and_sneak_attacks_are_not_dual(mode: str) -> None:
    fight = duel(a={"weapons": [PISTOL, BLADE]}, distance=2)
    assert fight.refused("alice", act("attack", "bob", weapon=PISTOL, offhand=BLADE, mode=mode)) == (
        f"{mode} attacks give no bonus when dual wielding: declare a plain dual attack"
    )


def test_two_automatic_weapons_fire_automatically_and_reload_separately() -> None:
    pistol_a = "S_a_Pistol_Class_(Permanent)"
    fight = duel(a={"weapons": [SMG, pistol_a]})
    events = fight.post("alice", act("attack", "bob", weapon=SMG, offhand=pistol_a, mode="auto"), faces=[99] + [2] * 6)
    assert len(rolls(events, "attack")) == 6
    assert fight.weapon("alice", SMG) == (3, True, 0) and fight.weapon("alice", pistol_a) == (3, True, 0)
    pass_turn(fight, "bob")
    fight.post("alice", act("reload", weapon=SMG))
    assert fight.weapon("alice", SMG) == (0, False, 0) and fight.weapon("alice", pistol_a) == (3, True, 0)


def test_each_weapon_may_target_someone_else() -> None:
    fight = Fight()
    fight.join("alice", (0, 0), weapons=[PISTOL, BLADE]).join("bob", (2, 0)).join("carl", (0, 2)).begin()
    events = fight.post("alice", act("attack", "bob", weapon=PISTOL, offhand=BLADE, offhand_target="carl", shots=1),
                        faces=[10, 50, 20, 50, 1, 1])
    assert [(r.target, r.hit) for r in of(events, AttackResolved)] == [("bob", True), ("carl", True)]
    assert (fight.hp("bob"), fight.hp("carl")) == (99, 99)


def test_an_offhand_target_without_an_offhand_weapon_is_refused() -> None:
    """It would change nothing (both swings at the first target): refused, not ignored."""
    fight = Fight()
    fight.join("alice", (0, 0), weapons=[PISTOL, BLADE]).join("bob", (2, 0)).join("carl", (0, 2)).begin()
    assert fight.refused("alice", act("attack", "bob", weapon=PISTOL, offhand_target="carl", shots=1)) == (
        "offhand_target names the second weapon's target: declare the weapon with offhand=")
