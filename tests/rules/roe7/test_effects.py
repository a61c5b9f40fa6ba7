"""Effects and conditions (Bleed; Stun; Chemical Burn; Suppressive Fire; Aimed Shots; Sneak
Attacks; Changing Stance; Cover; Firing into Melee; Buffs; Debuffs; Steps of a Combat Turn)."""

from __future__ import annotations

import pytest

from fightlog.events.model import (
    AttackResolved,
    DamageApplied,
    DiceRolled,
    EffectApplied,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    Modifier,
    StatusChanged,
    TurnStarted,
)
from tests.rules.roe7.rigged import (
    CLUB_L,
    CLUB_M,
    FLAMER,
    MAGIKA,
    PISTOL,
    RIFLE,
    SHOTGUN,
    SWORD_M,
    Fight,
    act,
    duel,
    kinds,
    of,
)

SWORD_L = "L_s_Sword_Class_(Permanent)"


def mod(value: int, applies_to: str) -> dict[str, object]:
    return {"value": value, "source": "stats", "applies_to": applies_to}


def rolls(events: list[object], purpose: str) -> list[DiceRolled]:
    return [e for e in of(events, DiceRolled) if e.purpose == purpose]


def pass_turn(fight: Fight, actor: str) -> None:
    fight.end_turn()
    assert fight.current == actor
    fight.end_turn()


# --------------------------------------------------------------------------- bleed


def test_bleed_deals_5_a_turn_for_5_turns_at_the_start_of_the_victims_turns_ignoring_dr() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, b={"dr": {"all": 10}}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 12])
    assert fight.hp("bob") == 98 and fight.effects("bob") == {"bleed": 5}
    for left in (5, 4, 3, 2, 1):
        hp = fight.hp("bob")
        events = fight.end_turn()  # alice's turn ends, bob's starts: the bleed ticks first
        assert kinds(events)[-3:] == ["turn_started", "effect_ticked", "damage_applied"]
        assert of(events, EffectTicked)[0].remaining == left
        [damage] = of(events, DamageApplied)
        assert (damage.raw, damage.reduced_by, damage.taken, damage.source) == (5, 0, 5, "bleed")
        assert fight.hp("bob") == hp - 5
        events = fight.end_turn()  # bob's turn ends: the bleed counts down
        assert of(events, EffectCountedDown)[0].remaining == left - 1
    assert fight.effects("bob") == {} and fight.hp("bob") == 98 - 25
    assert of(events, EffectExpired)[0].reason == "duration"


def test_a_new_bleed_resets_the_timer_instead_of_stacking() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 1])
    first = fight.effect("bob", "bleed")
    pass_turn(fight, "bob")
    pass_turn(fight, "bob")
    assert fight.effects("bob") == {"bleed": 3}
    events = fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 1])
    [again] = of(events, EffectApplied)
    assert again.refreshes == first.effect and fight.effects("bob") == {"bleed": 5}
    events = fight.end_turn()
    assert [d.taken for d in of(events, DamageApplied)] == [5]  # one bleed, not two


def test_bleed_counts_on_the_victims_turns_not_the_sources() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 1])
    events = fight.end_turn()
    assert of(events, EffectCountedDown) == []  # alice's turn end does not count it
    assert fight.effect("bob", "bleed").counts_on == "bob"


# --------------------------------------------------------------------------- stun


def test_a_stun_costs_the_action_but_not_the_movement() -> None:
    fight = duel(a={"weapons": [CLUB_M]}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 75, 1])
    fight.end_turn()
    assert fight.refused("bob", act("attack", "alice", weapon=RIFLE)) == "bob is stunned: no action this turn"
    fight.post("bob", act("move", m=3), act("say"))
    events = fight.end_turn()
    assert [(e.name, e.duration) for e in of(events, EffectApplied)] == [("stun_immunity", 1)]
    assert fight.effects("bob") == {"stun_immunity": 1}


def test_after_a_stun_one_is_immune_until_the_end_of_ones_next_turn() -> None:
    fight = duel(a={"weapons": [CLUB_M]}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 75, 1])
    pass_turn(fight, "bob")  # bob's stunned turn; immunity follows
    events = fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 90, 1])
    assert of(events, EffectApplied) == []  # immune
    fight.end_turn()
    fight.post("bob", act("attack", "alice", weapon=RIFLE), faces=[99, 2])  # bob acts again
    events = fight.end_turn()
    assert "stun_immunity" not in fight.effects("bob")
    events = fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 90, 1])
    assert [e.name for e in of(events, EffectApplied)] == ["stun"]


# --------------------------------------------------------------------------- chemical burn


def burning(**options: object) -> Fight:
    fight = duel(dict(options), a={"weapons": [FLAMER]}, b={"dr": {"explosive": 2}}, distance=5)
    fight.post("alice", act("attack", "bob", weapon=FLAMER), faces=[10, 60, 3])
    return fight


def test_a_chemical_burn_deals_1d10_a_stack_at_the_start_of_each_turn_for_3_turns() -> None:
    fight = burning()
    assert fight.effects("bob") == {"chemical_burn": 3}
    for _ in range(3):
        events = fight.end_turn(faces=[6])
        [tick] = [r for r in rolls(events, "damage") if r.label == "chemical burn"]
        assert tick.notation == "1d10"
        assert [(d.raw, d.reduced_by, d.damage_type) for d in of(events, DamageApplied)] == [(6, 2, "explosive")]
        fight.end_turn()
    assert fight.effects("bob") == {}


def test_burns_stack_to_three_and_refresh_the_duration() -> None:
    fight = Fight()
    fight.join("alice", (0, 0), weapons=[FLAMER]).join("bob", (4, 0)).join("carl", (4, 4), weapons=[FLAMER]).begin()
    fight.post("alice", act("attack", "bob", weapon=FLAMER), faces=[10, 60, 3])
    fight.end_turn(faces=[4])
    fight.end_turn()
    fight.post("carl", act("attack", "bob", weapon=FLAMER), faces=[10, 60, 3])
    assert fight.effect("bob", "chemical_burn").stacks == 2 and fight.effects("bob") == {"chemical_burn": 3}
    fight.end_turn()
    fight.post("alice", act("attack", "bob", weapon=FLAMER), faces=[10, 60, 3])
    events = fight.end_turn(faces=[4, 5, 6])
    assert rolls(events, "damage")[0].notation == "3d10" and of(events, DamageApplied)[0].raw == 15
    fight.end_turn()
    fight.post("carl", act("attack", "bob", weapon=FLAMER), faces=[10, 60, 3])
    assert fight.effect("bob", "chemical_burn").stacks == 3 and fight.effects("bob") == {"chemical_burn": 3}


def test_extinguishing_takes_the_whole_turn() -> None:
    fight = burning()
    fight.end_turn(faces=[6])
    assert fight.refused("bob", act("extinguish"), act("move", m=2)) == (
        "bob: fleeing and extinguishing take the whole turn (movement and action)"
    )
    events = fight.post("bob", act("extinguish"))
    assert of(events, EffectExpired)[0].reason == "extinguished" and fight.effects("bob") == {}
    fight.end_turn()
    fight.end_turn()
    assert fight.refused("bob", act("extinguish")) == "bob is not burning"


def test_extinguishing_needs_the_action() -> None:
    fight = duel(a={"weapons": [FLAMER, CLUB_M]}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=FLAMER), faces=[10, 60, 3])
    fight.end_turn(faces=[1])
    fight.end_turn()
    fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 80, 1])
    fight.end_turn(faces=[2])
    assert fight.refused("bob", act("extinguish")) == "bob is stunned: no action this turn"


# --------------------------------------------------------------------------- suppressive fire


def test_suppressive_fire_halves_the_dice_and_costs_the_targets_15_until_the_end_of_their_next_turn() -> None:
    fight = duel()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="suppressive"), faces=[10, 50, 50, 2, 7, 3])
    assert rolls(events, "damage")[0].notation == "1d10 + 1d10"
    assert fight.effects("bob") == {"suppressed": 1} and fight.weapon("alice", RIFLE) == (3, True, 0)
    fight.end_turn()
    events = fight.post("bob", act("attack", "alice", weapon=RIFLE), faces=[99, 50])
    assert Modifier(value=-15, source="suppressed") in rolls(events, "attack")[0].modifiers
    fight.end_turn()
    assert fight.effects("bob") == {}


def test_suppressive_fire_needs_an_automatic_weapon() -> None:
    fight = duel(a={"weapons": [PISTOL]})
    assert fight.refused("alice", act("attack", "bob", weapon=PISTOL, mode="suppressive")) == (
        f"{PISTOL} is not automatic: no suppressive fire"
    )


@pytest.mark.parametrize("weapon", [SWORD_M, SWORD_L, CLUB_L, "unarmed", MAGIKA])
@pytest.mark.parametrize("mode", ["suppressive", "auto"])
def test_melee_and_magika_have_no_automatic_or_suppressive_fire(weapon: str, mode: str) -> None:
    fight = duel(a={"weapons": [weapon] if weapon != "unarmed" else []}, distance=2)  # no faces: refused before any die
    kind = "magika" if weapon == MAGIKA else "a melee weapon"
    assert fight.refused("alice", act("attack", "bob", weapon=weapon, mode=mode)) == (
        f"{weapon} is {kind}, not automatic: no {mode} fire"
    )
    assert fight.effects("bob") == {}


def test_suppressive_fire_costs_everyone_who_dodged_even_when_every_shot_misses() -> None:
    fight = duel()  # Suppressive Fire: "anyone who has to make a dodge roll", hit or miss
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="suppressive"), faces=[90, 10, 20, 30])
    assert not any(e.hit for e in of(events, AttackResolved)) and of(events, DamageApplied) == []
    assert fight.effects("bob") == {"suppressed": 1}


# --------------------------------------------------------------------------- aimed shots


def aimed(b: dict[str, object] | None = None) -> Fight:
    fight = duel(b=b)
    fight.post("alice", act("aim", "bob"))
    pass_turn(fight, "bob")
    return fight


def test_an_aimed_shot_ignores_armour() -> None:
    fight = aimed({"dr": {"ballistic": 10, "all": 5}})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="aimed"), faces=[10, 50, 12])
    [damage] = of(events, DamageApplied)
    assert rolls(events, "damage")[0].notation == "1d20" and (damage.raw, damage.reduced_by) == (12, 0)
    assert of(events, EffectExpired)[0].reason == "used"


def test_an_aimed_shot_doubles_against_the_unarmoured_and_triples_with_a_crit() -> None:
    fight = aimed()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="aimed"), faces=[10, 50, 12])
    assert rolls(events, "damage")[0].notation == "1d20*2" and fight.hp("bob") == 76
    fight.end_turn()
    fight.end_turn()
    fight.post("alice", act("aim", "bob"))
    pass_turn(fight, "bob")
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="aimed"), faces=[10, 100, 5])
    assert rolls(events, "damage")[0].notation == "1d20*3" and fight.hp("bob") == 61


def test_an_aimed_crit_on_an_armoured_target_doubles_and_ignores_armour() -> None:
    fight = aimed({"dr": {"ballistic": 10}})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="aimed"), faces=[10, 100, 5])
    assert rolls(events, "damage")[0].notation == "1d20*2" and of(events, DamageApplied)[0].reduced_by == 0


def test_an_aimed_shot_needs_an_aim_from_an_earlier_turn_at_that_target() -> None:
    fight = Fight()
    fight.join("alice", weapons=[RIFLE]).join("bob", (10, 0)).join("carl", (0, 10)).begin()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, mode="aimed")) == (
        "no aim on bob from a previous turn (aim target=bob first, fire next turn)"
    )
    fight.post("alice", act("aim", "carl"))
    fight.end_turn()
    fight.end_turn()
    fight.end_turn()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, mode="aimed")).startswith("no aim on bob")
    fight.post("alice", act("attack", "carl", weapon=RIFLE, mode="aimed"), faces=[99, 2])


def test_an_aim_lasts_one_turn_and_is_lost_on_another_attack() -> None:
    fight = aimed()
    fight.end_turn()  # alice does not fire in the turn after aiming
    assert fight.effects("alice") == {}
    fight.end_turn()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, mode="aimed")).startswith("no aim on bob")
    fight.post("alice", act("aim", "bob"))
    pass_turn(fight, "bob")
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 2])
    assert of(events, EffectExpired)[0].reason == "lost"


@pytest.mark.parametrize(
    ("weapons", "action", "reason"),
    [
        ([PISTOL], act("attack", "bob", weapon=PISTOL, mode="aimed", shots=2),
         "aimed attacks are single shots (not automatic, dual or multiple)"),
        ([MAGIKA], act("attack", "bob", weapon=MAGIKA, mode="aimed"), "aimed attacks are basic attacks: not with magika"),
    ],
)
def test_aimed_shots_are_single_basic_attacks(weapons: list[str], action: object, reason: str) -> None:
    fight = duel(a={"weapons": weapons})
    fight.post("alice", act("aim", "bob"))
    pass_turn(fight, "bob")
    assert fight.refused("alice", action) == reason  # type: ignore[arg-type]


# --------------------------------------------------------------------------- sneak attacks


def sneaking(a: dict[str, object] | None = None) -> Fight:
    fight = duel(a=a)
    fight.post("alice", act("hide"))
    pass_turn(fight, "bob")
    return fight


def test_an_unseen_sneak_attack_doubles_the_damage() -> None:
    fight = sneaking({"modifiers": [mod(5, "stealth")]})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="sneak"), faces=[60, 64, 10, 50, 9])
    assert [(r.purpose, r.roller) for r in of(events, DiceRolled)] == [
        ("stealth", "alice"), ("perception", "bob"), ("dodge", "bob"), ("attack", "alice"), ("damage", "alice"),
    ]
    assert of(events, AttackResolved)[0].notes == ["sneak: unseen"]
    assert rolls(events, "damage")[0].notation == "1d20*2" and fight.hp("bob") == 82
    assert "hidden" not in fight.statuses("alice")


def test_a_sneak_attack_with_a_crit_triples() -> None:
    fight = sneaking()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="sneak"), faces=[60, 10, 10, 100, 9])
    assert rolls(events, "damage")[0].notation == "1d20*3"


def test_a_spotted_sneak_attack_is_a_normal_attack() -> None:
    fight = sneaking()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="sneak"), faces=[60, 60, 10, 50, 9])
    assert of(events, AttackResolved)[0].notes == ["sneak: spotted, a normal attack"]
    assert rolls(events, "damage")[0].notation == "1d20"


def test_a_sneak_attack_does_not_stack_with_an_aim_nor_take_its_other_benefit() -> None:
    fight = duel(b={"dr": {"ballistic": 5}})
    fight.post("alice", act("hide"))
    pass_turn(fight, "bob")
    fight.post("alice", act("aim", "bob"))
    pass_turn(fight, "bob")
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, mode="sneak"), faces=[60, 10, 10, 50, 9])
    assert rolls(events, "damage")[0].notation == "1d20*2"  # doubled once, not four times
    assert of(events, DamageApplied)[0].reduced_by == 5  # armour still counts
    assert of(events, EffectExpired)[0].reason == "lost"


def test_a_sneak_attack_needs_hiding_first_and_must_be_the_first_attack() -> None:
    fight = duel()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, mode="sneak")) == (
        "alice is not hidden: a sneak attack needs an earlier hide action"
    )
    fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 2])
    pass_turn(fight, "bob")
    assert fight.refused("alice", act("hide")) == "alice has been seen fighting: hiding again needs cover first"
    fight.post("alice", act("move", m=1, cover=True))
    fight.post("alice", act("hide"))
    pass_turn(fight, "bob")
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, mode="sneak")) == (
        "a sneak attack must be the first attack of the combat"
    )


# --------------------------------------------------------------------------- stances and cover


def test_kneeling_gives_5_ranged_accuracy_until_one_moves_and_standing_up_is_free() -> None:
    fight = duel()
    events = fight.post("alice", act("kneel"), act("attack", "bob", weapon=RIFLE), faces=[99, 50])
    assert Modifier(value=5, source="kneeling") in rolls(events, "attack")[0].modifiers
    pass_turn(fight, "bob")
    fight.post("alice", act("stand"), act("move", m=2))  # standing from a knee costs no movement phase
    assert "kneeling" not in fight.statuses("alice")
    pass_turn(fight, "bob")
    fight.post("alice", act("kneel"))
    pass_turn(fight, "bob")
    fight.post("alice", act("move", m=1))
    assert "kneeling" not in fight.statuses("alice")


def test_kneeling_is_for_ranged_attacks() -> None:
    fight = duel(a={"weapons": [CLUB_M]}, distance=2)
    events = fight.post("alice", act("kneel"), act("attack", "bob", weapon=CLUB_M, shots=1), faces=[99, 50])
    assert rolls(events, "attack")[0].modifiers == []


def test_prone_gives_10_ranged_accuracy_and_5_dodge_reversed_against_melee() -> None:
    fight = Fight()
    fight.join("alice", weapons=[RIFLE]).join("bob", (10, 0), weapons=[RIFLE]).join("carl", (1, 0), weapons=[CLUB_M])
    fight.begin()
    events = fight.post("alice", act("prone"), act("attack", "bob", weapon=RIFLE), faces=[99, 50])
    assert Modifier(value=10, source="prone") in rolls(events, "attack")[0].modifiers
    fight.end_turn()
    events = fight.post("bob", act("attack", "alice", weapon=RIFLE), faces=[50, 2])
    assert rolls(events, "dodge")[0].modifiers == [Modifier(value=5, source="prone")]
    fight.end_turn()
    events = fight.post("carl", act("attack", "alice", weapon=CLUB_M, shots=1), faces=[50, 2])
    assert rolls(events, "dodge")[0].modifiers == [Modifier(value=-5, source="prone, against melee")]


def test_prone_moves_3_m_cannot_sprint_and_standing_costs_the_movement_phase() -> None:
    fight = duel()
    fight.post("alice", act("prone"))
    pass_turn(fight, "bob")
    assert fight.refused("alice", act("move", m=4)) == "alice can move 3 m more this turn, not 4 m"
    assert fight.refused("alice", act("sprint")) == "no sprinting while prone (stand up first)"
    fight.post("alice", act("move", m=3))
    pass_turn(fight, "bob")
    fight.post("alice", act("stand"))
    assert fight.refused("alice", act("move", m=1)) == "alice has used this turn's movement phase"


def test_prone_adds_5_to_stealth() -> None:
    fight = duel()
    fight.post("alice", act("prone"), act("skill", roll="stealth"), faces=[45])
    assert of(fight.scribe.events, AttackResolved)[-1].hit  # 45 + 5 reaches 50


@pytest.mark.parametrize("weapon", [RIFLE, CLUB_M])
def test_cover_within_1_m_gives_15_to_every_dodge(weapon: str) -> None:
    fight = duel(a={"weapons": [weapon]}, distance=2)
    fight.end_turn()
    fight.post("bob", act("move", m=0, cover=True))
    assert "in_cover" in fight.statuses("bob")
    fight.end_turn()
    events = fight.post("alice", act("attack", "bob", weapon=weapon, shots=1), faces=[50, 2])
    assert rolls(events, "dodge")[0].modifiers == [Modifier(value=15, source="cover")]
    fight.end_turn()
    fight.post("bob", act("move", m=1))
    assert "in_cover" not in fight.statuses("bob")


# --------------------------------------------------------------------------- firing into melee


def melee_knot() -> Fight:
    """Alice shoots at Bob, who is fighting Carl (Alice's ally) 1 m away."""
    fight = Fight()
    fight.join("alice", (0, 0), side="blue", weapons=[RIFLE, SHOTGUN])
    fight.join("bob", (15, 0), side="red")
    fight.join("carl", (14, 0), side="blue")
    fight.begin()
    return fight


def test_an_ally_in_the_line_of_fire_gives_cover_and_dodges_the_misses() -> None:
    fight = melee_knot()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, through="carl"), faces=[50, 60, 59, 11])
    [bob_dodge, carl_dodge] = rolls(events, "dodge")
    assert Modifier(value=15, source="carl in the line of fire") in bob_dodge.modifiers
    assert carl_dodge.roller == "carl" and carl_dodge.label == "in the line of fire"
    assert [(r.target, r.hit) for r in of(events, AttackResolved)] == [("bob", False), ("carl", True)]
    assert (fight.hp("bob"), fight.hp("carl")) == (100, 89)


def test_automatic_fire_into_a_melee_hits_others_for_half_the_dice_with_the_full_modifier() -> None:
    fight = melee_knot()
    # three shots at bob (40 to dodge): 50 and 60 hit; carl, 1 m from bob, dodges 10 + 15 = 25:
    # 50, 30 and 60 hit him; his dice are rolled for those shots and halved
    events = fight.post(
        "alice", act("attack", "bob", weapon=RIFLE, mode="auto", secondaries="carl"),
        faces=[40, 50, 30, 60, 10, 10, 20, 8, 6],
    )
    assert [r.hit for r in of(events, AttackResolved)] == [True, False, True, True]
    [carl_dodge] = [r for r in rolls(events, "dodge") if r.roller == "carl"]
    assert Modifier(value=15, source="caught in a melee") in carl_dodge.modifiers
    carl_roll = [r for r in rolls(events, "damage")][1]
    assert carl_roll.notation == "(1d20 + 1d20) // 2" and carl_roll.total == 7
    assert fight.hp("carl") == 93


def test_a_shotgun_beyond_10_m_counts_as_automatic_fire_into_a_melee() -> None:
    fight = melee_knot()
    events = fight.post("alice", act("attack", "bob", weapon=SHOTGUN, secondaries="carl"), faces=[99, 50, 99])
    assert [r.target for r in of(events, AttackResolved)] == ["bob", "carl"]
    fight2 = Fight()
    fight2.join("alice", (0, 0), weapons=[SHOTGUN]).join("bob", (8, 0)).join("carl", (8, 1)).begin()
    assert fight2.refused("alice", act("attack", "bob", weapon=SHOTGUN, secondaries="carl")) == (
        "secondaries are for automatic fire (or a shotgun beyond 10 m) into a melee"
    )


def test_secondaries_must_be_within_3_m_of_the_target() -> None:
    fight = Fight()
    fight.join("alice", (0, 0), weapons=[RIFLE]).join("bob", (15, 0)).join("carl", (15, 4)).begin()
    reason = fight.refused("alice", act("attack", "bob", weapon=RIFLE, mode="auto", secondaries="carl"),
                           faces=[99, 2, 2, 2])
    assert reason == "secondaries: carl is not within 3 m of bob"


# --------------------------------------------------------------------------- turn boundaries


def test_only_effects_in_place_at_the_start_of_a_turn_count_down_at_its_end() -> None:
    fight = duel()
    fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[50, 1])  # alice's own natural 1
    events = fight.end_turn()
    assert of(events, EffectCountedDown) == [] and fight.effects("alice") == {"lost_action": 1}
    fight.end_turn()
    events = fight.end_turn()
    assert [(e.effect.split("-")[0], e.remaining) for e in of(events, EffectCountedDown)] == [("lost_action", 0)]


def test_ones_own_effects_count_down_on_ones_own_turns() -> None:
    fight = duel()
    fight.post("alice", act("aim", "bob"))
    aim = fight.effect("alice", "aim")
    assert aim.counts_on == "alice"
    events = fight.end_turn()  # the aim was made during this turn: not counted yet
    assert of(events, EffectCountedDown) == []
    events = fight.end_turn()  # bob's turn ends: not alice's effect
    assert of(events, EffectCountedDown) == []
    events = fight.end_turn()
    assert of(events, EffectExpired)[0].effect == aim.effect


def test_debuff_damage_comes_before_the_victims_post() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, b={"hp": 5}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 1])
    events = fight.end_turn()  # the bleed downs bob at the start of his turn: his turn ends at once
    assert "defeated" in fight.statuses("bob") and fight.current == "alice"
    started = [e.actor for e in of(events, TurnStarted)]
    assert started == ["bob", "alice"]
    assert [s.status for s in of(events, StatusChanged)] == ["defeated", "wounded"]
