"""Each rule of en5.1 combat, played through the table on rigged dice (faces black first)."""

from __future__ import annotations

from fightlog.events.model import (AttackResolved, DamageApplied, DeclarationPosted, DiceRolled, EffectApplied,
                                   InitiativeRolled, Moved, StatusChanged, TurnStarted)
from fightlog.rules.en51.bw import Faces, last_digit, success
from fightlog.rules.en51.harm import harm, wound_circle
from fightlog.rules.en51.card import ArmourCard
from fightlog.rules.en51.ranges import range_penalty, step
from fightlog.rules.en51.options import RANGE_SCALE
from tests.rules.en51.rigged import Fight, duel, of


def resolved(events: list) -> list[AttackResolved]:  # type: ignore[type-arg]
    return of(events, AttackResolved)


# ---------------------------------------------------------------- the roll


def test_the_bw_roll_is_a_labelled_black_and_white_pair() -> None:
    events = duel().turn("ana", "attack target=bo weapon=Sword", faces=[4, 9])
    [rolled] = of(events, DiceRolled)
    assert rolled.notation == "BW" and [d.label for d in rolled.dice] == ["black", "white"]


def test_a_die_succeeds_at_most_the_skill_and_the_success_is_the_best() -> None:
    assert success(Faces(12, 3), 12, "at_most") == 12
    assert success(Faces(12, 3), 12, "below") == 3
    assert success(Faces(13, 15), 12, "at_most") is None


# ---------------------------------------------------------------- surprise and turns


def test_the_surprising_side_acts_first_and_the_surprised_are_unaware() -> None:
    fight = Fight({"surprise": "side", "surprising_side": "bo"}).join("ana").join("bo").begin()
    assert fight.current == "bo" and "surprised" in fight.statuses("ana")
    fight.post("bo", "attack target=ana weapon=Sword")
    assert fight.refused("ana", "counter weapon=Knife").code == "rules.refused"
    [hit] = resolved(fight.end_turn([1, 2]))
    assert hit.against == 0 and hit.hit
    assert "surprised" not in fight.statuses("ana")


def test_the_surprise_roll_adds_traits_and_a_draw_goes_to_the_players() -> None:
    fight = Fight({"surprise": "roll"}).join("ana").join("bo", role="npc").begin([10, 10])
    assert fight.current == "ana"
    fight = Fight({"surprise": "roll"}).join("ana").join("bo", role="npc", surprise=3).begin([10, 10])
    assert fight.current == "bo"
    assert [e.score for e in of(fight.scribe.events, InitiativeRolled)] == [10, 13]


def test_one_combat_action_a_turn() -> None:
    fight = duel()
    assert fight.refused("ana", "attack target=bo weapon=Sword", "aim").code == "rules.allowance"
    fight.post("ana", "aim")
    assert fight.refused("ana", "attack target=bo weapon=Sword").code == "rules.allowance"
    assert fight.refused("bo", "aim").code == "order.out-of-turn"


# ---------------------------------------------------------------- melee


def test_melee_beats_unarmed_defense_or_the_defense_of_this_turns_melee_attack() -> None:
    fight = duel()
    [first] = resolved(fight.turn("ana", "attack target=bo weapon=Sword", faces=[5, 5]))
    assert first.against == 5 and not first.hit
    [second] = resolved(fight.turn("bo", "attack target=ana weapon=Sword", faces=[6, 1]))
    assert second.against == 6 and not second.hit  # ana's Sword: Defense 6


def test_an_unaware_defender_has_defense_0() -> None:
    [hit] = resolved(duel().turn("ana", "attack target=bo weapon=Sword unaware=true", faces=[1, 20]))
    assert hit.against == 0 and hit.hit


def test_the_counterattack_is_simultaneous_and_resolved_even_when_it_kills() -> None:
    fight = duel(b={"toughness": 1})
    fight.post("ana", "attack target=bo weapon=Sword")
    events = fight.post("bo", "counter weapon=Knife", faces=[3, 11, 9, 1])
    first, back = resolved(events)
    assert (first.against, back.against) == (4, 6)  # the Knife's Defense; the Sword's
    assert first.hit and back.hit
    assert "dead" in fight.statuses("bo")
    assert fight.wounds("ana") == [3]  # white 1 missed: 1 + the Knife's 2
    fight.end_turn()
    assert fight.state.turn.round == 2 and fight.current == "ana"


def test_a_counterattack_spends_the_turns_action() -> None:
    fight = duel()
    fight.post("ana", "attack target=bo weapon=Sword")
    fight.post("bo", "counter weapon=Knife", faces=[20, 20, 20, 20])
    events = fight.end_turn()
    assert [e.actor for e in of(events, TurnStarted)] == ["bo", "ana"]
    assert any(e.status == "spent" and not e.on for e in of(events, StatusChanged))


def test_no_counterattack_by_one_who_has_acted() -> None:
    fight = duel()
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[20, 20])
    fight.post("bo", "attack target=ana weapon=Sword")
    assert fight.refused("ana", "counter weapon=Knife").code == "rules.counter"


# ---------------------------------------------------------------- ranged


def test_the_distance_step() -> None:
    assert step(4, RANGE_SCALE) == 0 and step(5, RANGE_SCALE) == 1 and step(100, RANGE_SCALE) == 7
    assert range_penalty(9, 7) == -4 and range_penalty(20, 7) == -10 and range_penalty(5, 7) == 0


def test_under_5_m_every_success_hits() -> None:
    [hit] = resolved(duel().turn("ana", "attack target=bo weapon=Rifle distance=4", faces=[1, 20]))
    assert hit.against == 0 and hit.hit


def test_a_ranged_hit_beats_the_step_less_2_a_step_beyond_range() -> None:
    [shot] = resolved(duel().turn("ana", "attack target=bo weapon=Shotgun distance=40", faces=[7, 6]))
    assert shot.against == 5 and "beyond Range -6" in shot.notes[0]  # step 5, Range 2
    assert shot.hit and shot.score == 6  # skill 12 - 6: black 7 fails, white 6 succeeds above step 5
    [short] = resolved(duel().turn("ana", "attack target=bo weapon=Shotgun distance=40", faces=[5, 8]))
    assert not short.hit and short.score == 5  # 5 succeeds, not above step 5; 8 fails


def test_nothing_beyond_five_steps_above_range() -> None:
    fight = duel()
    fight.turn("ana", "attack target=bo weapon=Shotgun distance=100", faces=[20, 20])  # step 7: five above
    fight.turn("bo", "say")
    assert fight.refused("ana", "attack target=bo weapon=Shotgun distance=150").code == "rules.range"


def test_defense_in_place_of_attack_after_moving_turning_or_readying() -> None:
    fight = duel()
    fight.post("ana", "move distance=5", "attack target=bo weapon=Rifle distance=20")
    fight.end_turn()
    [moved] = resolved(fight.turn("bo", "say", faces=[20, 20]))
    assert moved.notes[0].startswith("skill 8 (Defense (moved) 8")
    [turned] = resolved(fight.turn("ana", "attack target=bo weapon=Rifle distance=20 turn=true", faces=[20, 20]))
    assert turned.notes[0].startswith("skill 8 (Defense (turned)")
    fight.turn("bo", "say")
    fight.turn("ana", "ready weapon=Rifle")
    fight.turn("bo", "say")
    [readied] = resolved(fight.turn("ana", "attack target=bo weapon=Rifle distance=20", faces=[20, 20]))
    assert readied.notes[0].startswith("skill 8 (Defense (readied)")


def test_aiming_gives_2_next_turn() -> None:
    fight = duel()
    fight.turn("ana", "aim")
    fight.turn("bo", "say")
    [aimed] = resolved(fight.turn("ana", "attack target=bo weapon=Rifle distance=20", faces=[20, 20]))
    assert aimed.notes[0] == "skill 16 (Attack 14, aimed +2)"


def test_type_c_capacity_and_reload() -> None:
    fight = duel()
    for _ in range(2):
        fight.turn("ana", "attack target=bo weapon=Shotgun distance=4", faces=[20, 20])
        fight.turn("bo", "say")
    assert fight.refused("ana", "attack target=bo weapon=Shotgun distance=4").code == "rules.ammo"
    fight.turn("ana", "reload weapon=Shotgun")
    fight.turn("bo", "say")
    fight.turn("ana", "attack target=bo weapon=Shotgun distance=4", faces=[20, 20])


def test_a_reload_makes_the_magazine_fresh_again() -> None:
    fight = duel()
    fight.turn("ana", "attack target=bo weapon=SMG mode=auto distance=4", faces=[20, 20, 20, 20])
    fight.turn("bo", "say")
    fight.turn("ana", "reload weapon=SMG")
    fight.turn("bo", "say")
    assert len(resolved(fight.turn("ana", "attack target=bo weapon=SMG mode=auto distance=4",
                                   faces=[20, 20, 20, 20]))) == 2


def test_no_ranged_attack_on_one_hiding_and_cover_does_not_stack() -> None:
    fight = duel()
    fight.turn("ana", "say")
    fight.turn("bo", "hide")
    assert fight.refused("ana", "attack target=bo weapon=Rifle distance=20").code == "rules.target"
    fight.turn("ana", "say")
    fight.turn("bo", "cover value=3")
    [shot] = resolved(fight.turn("ana", "attack target=bo weapon=Rifle distance=20 cover=2", faces=[20, 20]))
    assert shot.notes[0] == "skill 11 (Attack 14, cover -3)"


# ---------------------------------------------------------------- movement, waiting, sneaking


def test_moves_resolve_together_at_the_end_of_the_turn_in_declaration_order() -> None:
    fight = duel()
    fight.turn("ana", "move distance=10")
    assert "moving" in fight.statuses("ana")
    events = fight.turn("bo", "move distance=4")
    assert [(m.actor, m.metres) for m in of(events, Moved)] == [("ana", 10), ("bo", 4)]
    assert "moving" not in fight.statuses("ana")


def test_a_move_combines_only_with_an_attack_cover_or_hide_within_agility() -> None:
    fight = duel()
    assert fight.refused("ana", "move distance=5", "aim").code == "rules.combined"
    assert fight.refused("ana", "move distance=11").code == "rules.combined"
    assert fight.refused("ana", "move distance=6", "attack target=bo weapon=Rifle distance=20").code == "rules.combined"
    fight.post("ana", "move distance=10", "attack target=bo weapon=Sword")


def test_waiting_holds_one_action_that_cuts_in() -> None:
    fight = duel()
    fight.turn("ana", "wait then=attack")
    assert fight.current == "bo"
    assert fight.refused("ana", "aim").code == "order.out-of-turn"
    fight.post("ana", "attack target=bo weapon=Sword")
    fight.post("bo", "attack target=ana weapon=Sword")
    first, second = resolved(fight.end_turn([20, 20, 20, 20]))
    assert (first.attacker, second.attacker) == ("ana", "bo")


def test_sneaking() -> None:
    fight = duel()
    fight.turn("ana", "say")
    events = fight.turn("bo", "sneak target=ana distance=20 metres=5", faces=[5, 2, 4, 4])
    [seen] = resolved(events)
    assert seen.hit and seen.notes[0] == "Perception 12 - Stealth 6 against step 3"
    assert [m.metres for m in of(events, Moved)] == [5]
    assert fight.refused("ana", "sneak target=bo distance=5 metres=6").code == "rules.combined"


# ---------------------------------------------------------------- damage, armour, wounds


def test_the_last_digit_10_and_20_count_as_10() -> None:
    assert [last_digit(f) for f in (4, 14, 10, 20)] == [4, 4, 10, 10]


def test_armour_coverage_against_the_white_die() -> None:
    sealed, vest = ArmourCard(name="suit", coverage=20, protection=3), ArmourCard(name="vest", coverage=10, protection=4)
    assert harm(10, 20, [sealed, vest], 0).struck == ("suit",)
    assert harm(10, 10, [sealed, vest], 0).left == 3
    assert harm(10, 11, [vest], 2).left == 8


def test_armour_played() -> None:
    fight = duel(b={"armour": [{"name": "Vest", "coverage": 10, "protection": 4}]})
    [dealt] = of(fight.turn("ana", "attack target=bo weapon=Sword", faces=[3, 10]), DamageApplied)
    assert (dealt.raw, dealt.reduced_by, dealt.pool) == (7, 4, "w3")


def test_a_wound_marks_the_nearest_empty_circle_to_the_right() -> None:
    assert wound_circle([7, 8], 7) == 9 and wound_circle([], 25) == 20 and wound_circle([20], 20) is None
    fight = duel(b={"wounds": [7]})
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[3, 11])
    assert fight.wounds("bo") == [7, 8]


def test_a_wound_above_toughness_incapacitates_and_more_than_5_above_kills() -> None:
    fight = duel(b={"toughness": 6})
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[3, 11])
    assert "incapacitated" in fight.statuses("bo")
    fight = duel(b={"toughness": 1})
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[3, 11])
    assert "dead" in fight.statuses("bo")
    fight = duel({"irreversible_death": False}, b={"toughness": 1})
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[3, 11])
    assert fight.statuses("bo") == ("bleeding_badly", "incapacitated")


def test_rolling_with_it_takes_2_and_the_next_action() -> None:
    fight = duel()
    fight.post("ana", "attack target=bo weapon=Sword")
    [dealt] = of(fight.post("bo", "take roll=true", faces=[3, 11]), DamageApplied)
    assert (dealt.raw, dealt.reduced_by) == (7, 2) and fight.wounds("bo") == [5]
    events = fight.end_turn()
    assert fight.current == "ana" and fight.state.turn.round == 2
    assert any(e.status == "rolling" and not e.on for e in of(events, StatusChanged))


def test_the_aftermath_bleeding() -> None:
    # Sword against Unarmed Defense 5: black 4 missed, white 11 hit: 4 + 4 = Wound 8.
    fight = Fight({"irreversible_death": False}).join("ana").join("bo").join("cy", toughness=9).begin()
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[4, 11])
    assert fight.wounds("bo") == [8] and "bleeding_slowly" in fight.statuses("bo")  # equal to Toughness 8
    fight.turn("bo", "attack target=cy weapon=Sword", faces=[3, 11])
    assert fight.statuses("cy") == ()  # Wound 7, below Toughness 9
    fight.turn("cy", "attack target=bo weapon=Sword", faces=[4, 11])
    assert fight.wounds("bo") == [8, 9]
    assert fight.statuses("bo") == ("bleeding_badly", "incapacitated")  # 9 is above Toughness
    fight.end()
    assert fight.statuses("bo") == ("bleeding_badly", "incapacitated")


def test_recovery_updates_the_bleeding() -> None:
    fight = Fight({"recovery_in_fight": True}).join("ana").join("bo").begin()
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[4, 11])
    assert "bleeding_slowly" in fight.statuses("bo")
    fight.turn("bo", "recover", faces=[20, 3])  # a Success of 3: Wound 8 lowered to 5
    assert fight.wounds("bo") == [5] and "bleeding_slowly" not in fight.statuses("bo")


def test_medicine_stops_bleeding_and_adds_to_the_next_recovery() -> None:
    fight = Fight().join("ana").join("bo", side="ana", wounds=[8]).begin()  # after the fight
    fight.turn("ana", "medicine target=bo", faces=[5, 20])
    assert [e.magnitude for e in of(fight.scribe.events, EffectApplied) if e.name == "medicine"] == [5]
    [roll] = resolved(fight.turn("bo", "recover", faces=[13, 20]))
    assert roll.notes[0] == "Toughness 13" and roll.score == 13 and fight.wounds("bo") == []
    fight.end()
    assert "bleeding_slowly" not in fight.statuses("bo")


def test_single_shots_of_an_a_type_do_not_count() -> None:
    from fightlog.events.model import ResourceSpent

    fight = duel()
    events = fight.turn("ana", "attack target=bo weapon=SMG distance=4", faces=[20, 20])
    assert not of(events, ResourceSpent)
    assert fight.state.combatants["ana"].weapons["SMG"].fired == 0


def test_ignoring_an_attack_is_defense_0() -> None:
    fight = duel()
    fight.post("ana", "attack target=bo weapon=Sword")
    [hit] = resolved(fight.post("bo", "ignore", faces=[1, 20]))
    assert hit.against == 0 and hit.hit


def test_rolling_with_it_while_moving_stops_after_half_the_distance() -> None:
    fight = duel()
    fight.turn("ana", "move distance=10", "attack target=bo weapon=Sword")
    fight.post("bo", "attack target=ana weapon=Sword")
    fight.post("ana", "take roll=true", faces=[3, 11])
    events = fight.end_turn()
    assert [(m.actor, m.metres) for m in of(events, Moved)] == [("ana", 5)]
    assert not resolved(events)  # the attack combined with the move is replaced


def test_a_move_with_a_melee_attack_is_answered_and_resolved_with_the_answer_when_it_arrives() -> None:
    fight = duel()
    declared = fight.post("ana", "move distance=5", "attack target=bo weapon=Sword")
    move_post = next(e.seq for e in declared if isinstance(e, DeclarationPosted))
    assert not resolved(fight.post("bo", "counter weapon=Knife"))  # waits for the move
    assert fight.refused("bo", "take", responds_to=move_post).code == "order.double-post"
    events = fight.end_turn(faces=[3, 11, 9, 1])  # bo's action went on the counterattack: the turn ends
    assert fight.state.turn.round == 2
    first, back = resolved(events)
    assert (first.attacker, back.attacker) == ("ana", "bo")
    assert (first.against, back.against) == (4, 6)  # the Knife's Defense; the Sword's
    assert first.declaration == move_post


def test_a_move_with_a_melee_attack_may_be_taken_rolling_with_it() -> None:
    fight = duel()
    fight.post("ana", "move distance=5", "attack target=bo weapon=Sword")
    fight.post("bo", "take roll=true")
    fight.end_turn()
    events = fight.turn("bo", "say", faces=[3, 11])
    [hit] = resolved(events)
    assert hit.declaration is not None
    assert hit.hit and any(isinstance(e, StatusChanged) and e.status == "rolling" for e in events)


def test_a_melee_attack_beyond_melee_reach_is_refused() -> None:
    fight = duel()
    refused = fight.refused("ana", "attack target=bo weapon=Sword distance=5")
    assert refused.code == "rules.range" and "melee_reach" in str(refused)
    assert fight.refused("ana", "move distance=2", "attack target=bo weapon=Sword distance=5").code == "rules.range"
    fight.post("ana", "move distance=3", "attack target=bo weapon=Sword distance=5")  # the move closes to 2 m


def test_melee_reach_is_an_option() -> None:
    fight = duel({"melee_reach": 5})
    fight.post("ana", "attack target=bo weapon=Sword distance=5")


def test_recovery_is_refused_while_the_fight_is_on() -> None:
    fight = Fight().join("ana", wounds=[6]).join("bo").begin()
    refused = fight.refused("ana", "recover")
    assert refused.code == "rules.refused" and "recovery_in_fight" in str(refused)
    fight = Fight().join("ana", wounds=[6]).join("bo", toughness=1).begin()
    fight.turn("ana", "attack target=bo weapon=Sword", faces=[4, 11])  # bo is down: the fight is over
    assert fight.current == "ana"
    fight.turn("ana", "recover", faces=[20, 20])
    fight = Fight({"recovery_in_fight": True}).join("ana", wounds=[6]).join("bo").begin()
    fight.turn("ana", "recover", faces=[20, 20])


def test_wounds_marked_on_the_sheet_give_their_statuses_at_join() -> None:
    fight = Fight().join("ana", wounds=[15], toughness=9).join("bo", wounds=[9], toughness=9)
    assert fight.statuses("ana") == ("dead",)  # the dead do not bleed (harm.update_bleeding)
    assert fight.statuses("bo") == ("bleeding_slowly",)
    fight = Fight({"irreversible_death": False}).join("ana", wounds=[15], toughness=9)
    assert fight.statuses("ana") == ("bleeding_badly", "incapacitated")


def test_an_attacker_rolls_with_a_counterattack_declared_on_the_attack() -> None:
    fight = duel()
    fight.post("ana", "attack target=bo weapon=Sword roll=true")
    events = fight.post("bo", "counter weapon=Knife", faces=[20, 20, 9, 1])
    first, back = resolved(events)
    assert not first.hit and back.hit
    rolling = [e for e in of(events, StatusChanged) if e.status == "rolling"]
    assert [(e.actor, e.cause) for e in rolling] == [("ana", back.seq)]
    [dealt] = of(events, DamageApplied)
    assert (dealt.target, dealt.raw, dealt.reduced_by) == ("ana", 3, 2)  # 1 + the Knife's 2, less 2 rolling with it
