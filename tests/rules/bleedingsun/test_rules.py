"""Each rule of the chapter with rigged dice (``rigged.py``): the action economy and movement
costs, the sequence and its tie-breaks, immediate actions, the threshold chart, the attack
pool's modifiers, net hits and critical hits, soak and armour piercing, status saves and
their expiry, bleeding out, attacks of opportunity, trips, holding an aim, coups de grace."""

from __future__ import annotations

import pytest

from fightlog.events.model import (AttackResolved, DamageApplied, DeclarationPosted, DiceRolled, EffectApplied, EffectExpired,
                                   EffectTicked, InitiativeSet, StatusChanged, TurnEnded)
from fightlog.rules.bleedingsun.arithmetic import critical, move_cost, pierce, soak_pool, threshold
from fightlog.rules.bleedingsun.economy import spent
from fightlog.kit.actions import parse_actions
from tests.rules.bleedingsun.rigged import Fight, duel, of, ready_duel, trio


# ---------------------------------------------------------------- the action economy

def test_a_round_is_a_standard_two_move_a_free_and_an_immediate_action() -> None:
    fight = ready_duel()
    fight.post("ana", "aim weapon=Rifle", "stance to=crouched", "say")
    refused = fight.refused("ana", "reload weapon=Rifle", "attack target=bo weapon=Rifle range=short")
    assert refused.code == "rules.allowance" and "3 move actions" in str(refused)  # a third needs the standard
    assert fight.refused("ana", "drop").code == "rules.allowance"  # the free action is spent
    fight.post("ana", "attack target=bo weapon=Rifle range=short")


def test_the_standard_action_traded_for_a_third_move_action() -> None:
    fight = ready_duel()
    fight.post("ana", "aim weapon=Rifle", "stance to=crouched", "reload weapon=Rifle")
    refused = fight.refused("ana", "attack target=bo weapon=Rifle range=short")
    assert refused.code == "rules.allowance" and "3 move actions" in str(refused)


def test_each_kind_of_move_action_once_a_round_but_movement() -> None:
    fight = ready_duel()
    assert "aim twice" in str(fight.refused("ana", "aim weapon=Rifle", "aim weapon=Rifle"))
    fight.post("ana", "move hexes=4", "move hexes=3")  # 7 MP: two move actions at pace 4
    fight.post("ana", "move hexes=1")  # 8 MP: still two
    assert fight.refused("ana", "move hexes=5").code == "rules.allowance"  # 13 MP is four


def test_each_stance_change_is_its_own_kind_of_move_action() -> None:
    """Move Action; the movement table: crouching to standing and crouching to prone are two
    rows, two kinds, each once a round (a tester: crouching then going prone was refused as
    'stance twice')."""
    fight = ready_duel()
    refused = fight.refused("ana", "stance to=crouched", "stance to=standing")  # it cost 1 MA, each 'from standing'
    assert "stance (crouched and standing) twice" in str(refused)
    [posted] = of(fight.post("ana", "stance to=crouched", "stance to=prone"), DeclarationPosted)  # two kinds, 2 MA
    assert [a.params["from"] for a in posted.actions] == ["standing", "crouched"]
    assert "prone" in fight.statuses("ana")
    fight.post("ana", "aim weapon=Rifle")  # the third, the standard action traded for it
    assert "4 move actions" in str(fight.refused("ana", "reload weapon=Rifle"))


def test_a_full_round_action_takes_everything_but_the_immediate() -> None:
    fight = ready_duel()
    assert fight.refused("ana", "total_defense", "say").code == "rules.allowance"
    assert fight.refused("ana", "total_defense", "move hexes=1").code == "rules.allowance"


def test_several_attacks_take_the_free_action_too() -> None:
    fight = ready_duel()
    refused = fight.refused("ana", "attack target=bo weapon=Rifle range=short",
                            "attack target=bo weapon=Rifle range=short", "say")
    assert "free actions" in str(refused)


def test_the_movement_table() -> None:
    assert move_cost(3, stance=None, terrain="open", cautious=False) == 3
    assert move_cost(3, stance="crouched", terrain="open", cautious=False) == 6
    assert move_cost(2, stance="prone", terrain="open", cautious=False) == 8
    assert move_cost(2, stance=None, terrain="difficult", cautious=True) == 8
    assert move_cost(2, stance=None, terrain="swim", cautious=False) == 6
    assert move_cost(2, stance=None, terrain="climb", cautious=False) == 8
    used = spent(parse_actions(["move hexes=5"]), pace=4, stance=None, maneuver_cost="standard")
    assert used.move_actions == 2 and used.mp == 5


def test_a_sprint_gives_pace_and_sprint() -> None:
    fight = ready_duel()
    assert fight.refused("ana", "sprint hexes=7").code == "rules.allowance"  # pace 4 + sprint 2
    fight.post("ana", "sprint hexes=6")


# ---------------------------------------------------------------- sequence

def test_the_sequence_is_savvy_and_agility_hits() -> None:
    fight = Fight().join("ana", savvy=2, agility=1).join("bo", savvy=1, agility=1)
    events = fight.begin([5, 6, 1] + [6, 1])
    assert [(e.roller, e.notation, e.total) for e in of(events, DiceRolled)] == [("ana", "3d6>=5", 2),
                                                                                ("bo", "2d6>=5", 1)]
    assert fight.order == ["ana", "bo"]


def test_ties_go_to_the_bigger_pool_then_savvy_then_agility_then_a_roll_off() -> None:
    fight = Fight().join("ana", savvy=2, agility=2).join("bo", savvy=3, agility=2).join("cy", savvy=3, agility=2)
    # every score 1; bo and cy tie on the pool (5), Savvy and Agility: they roll off
    fight.begin([5, 1, 1, 1] + [5, 1, 1, 1, 1] + [5, 1, 1, 1, 1] + [2, 4])
    assert fight.order == ["cy", "bo", "ana"]


def test_the_initiative_tie_break_is_perception_then_agility() -> None:
    fight = Fight({"tiebreak": "initiative"}).join("ana", perception=4).join("bo", perception=5)
    fight.begin([5] + [1] * 5 + [5] + [1] * 5)
    assert fight.order == ["bo", "ana"]


# ---------------------------------------------------------------- immediate actions

def test_the_immediate_action_is_once_a_round_and_back_at_ones_turn() -> None:
    fight = trio()
    fight.post("ana", "attack target=bo weapon=Rifle range=short")
    fight.post("bo", "dodge", faces=[1] * 3 + [1] * 5)
    fight.end_turn()
    assert fight.current == "cy"
    fight.post("cy", "attack target=bo weapon=Rifle range=short", faces=[1] * 5)  # bo cannot defend: resolved
    assert fight.refused("bo", "dodge").code == "rules.immediate"
    fight.end_turn()
    assert fight.current == "bo" and "immediate" not in fight.effects("bo")


def test_a_flat_footed_fighter_has_no_immediate_action() -> None:
    fight = Fight().join("ana").join("bo")
    fight.begin([6] * 6 + [1] * 6)
    events = fight.post("ana", "attack target=bo weapon=Knife", faces=[1] * 4)  # resolved at once: bo cannot dodge
    assert of(events, AttackResolved)[0].hit is False
    assert fight.refused("bo", "dodge").code == "rules.immediate"


def test_one_arriving_in_a_fight_under_way_is_flat_footed_until_their_first_turn() -> None:
    """Flat-footed: anyone yet to act in combat. A fighter joined with --arrival dodged before
    ever acting, and attacks on them took no sneak attack damage (a tester)."""
    fight = ready_duel()
    fight.join("cy", side="ana", arrival=True)
    assert "flat_footed" in fight.statuses("cy")


def test_total_defense_adds_its_hits_and_makes_defending_free() -> None:
    fight = ready_duel()
    fight.turn("ana", "say")
    fight.post("bo", "total_defense", faces=[5, 5, 1])  # agility 3: 2 hits
    fight.end_turn()
    fight.post("ana", "attack target=bo weapon=Knife")
    events = fight.post("bo", "dodge", faces=[5, 1, 1] + [5, 5, 5, 1])
    assert not of(events, InitiativeSet)  # free: no drop
    (hit,) = of(events, AttackResolved)
    assert (hit.score, hit.against, hit.hit) == (3, 4, False)  # short 1 + total defense 2 + dodge 1


def test_one_answer_answers_one_attack_of_a_post_and_they_resolve_in_its_order() -> None:
    """Physical Defense: one immediate action, one Vigor check, "vs that attack": a dodge
    answers the post's first attack on the dodger; the second is resolved at the end of the
    turn with no defense (the burst keeps its mode and the single shot its own)."""
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Rifle mode=3rb distance=2",
               "attack target=bo weapon=Rifle mode=single distance=2")
    events = fight.post("bo", "dodge", faces=[1, 1, 1] + [1])  # the dodge's vigor 3, the burst's share of 1
    events += fight.end_turn(faces=[1])  # the single shot's share
    assert [r.purpose for r in of(events, DiceRolled)] == ["defense", "attack", "attack"]
    first, second = of(events, AttackResolved)
    assert ("mode 3rb" in first.notes, "mode single" in second.notes) == (True, True)
    assert (len(first.rolls), len(second.rolls)) == (2, 1)  # only the first cites the defense roll


def test_the_turn_spent_is_the_posters_own_as_the_economy_counts_it() -> None:
    """``state`` showed "spent immediate 1, standard 2" for a split pool answered by a dodge:
    the dodge is the dodger's, and the split's attacks are one standard and the free action."""
    from fightlog.report.state_text import state_lines
    from fightlog.rules.bleedingsun.ruleset import RULES

    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Rifle mode=3rb distance=2",
               "attack target=bo weapon=Rifle mode=single distance=2")
    fight.post("bo", "dodge", faces=[1, 1, 1, 1])
    assert dict(RULES.turn_spent(fight.state, "ana")) == {"standard": 1, "free": 1}
    assert dict(fight.state.turn.spent) != {"standard": 1, "free": 1}  # the fold's count of every post
    assert any("posting (spent 1 free action, 1 standard action)" in line for line in state_lines(fight.state))


@pytest.mark.parametrize("answered", [False, True])
def test_a_spread_is_answered_only_under_spread_answers(answered: bool) -> None:
    """Shotguns and Flamers: spreads "automatically hit"; under ``spread_answers`` a dodge's
    hits still raise the threshold the spread's soak ratio reads (Physical Defense)."""
    fight = ready_duel({"spread_answers": answered})
    shot = "attack target=bo weapon=Shotgun distance=2"
    if not answered:
        events = fight.post("ana", shot, faces=[5] * 4 + [5] * 9 + [5] * 2)  # attack, DV (6 + 3 net hits), soak
        assert "rules.answer" == fight.refused("bo", "dodge").code
    else:
        assert not of(fight.post("ana", shot), AttackResolved)  # it waits for Bo
        events = fight.post("bo", "dodge", faces=[5] * 3 + [5] * 4 + [5] * 6 + [5] * 2)
    (spread,) = of(events, AttackResolved)
    assert (spread.against, spread.hit) == ((4, True) if answered else (1, True))
    assert of(events, DamageApplied)[0].reduced_by == (4 if answered else 2)  # soak x2 at the threshold, x1 above


# ---------------------------------------------------------------- the threshold chart

def test_the_threshold_chart() -> None:
    def th(band: str = "short", **kw: object) -> int:
        args: dict[str, object] = {"melee": False, "stance": None, "aim_held": False, "size": "medium",
                                   "targeted": None, "defense": 0}
        args.update(kw)
        return threshold(band, **args)[0]  # type: ignore[arg-type]
    assert [th(b) for b in ("short", "medium", "long", "extreme")] == [1, 2, 3, 4]
    assert th(stance="crouched") == 2 and th(stance="crouched", melee=True) == 1  # at least 1
    assert th("long", stance="prone") == 5 and th("long", stance="prone", melee=True) == 1
    assert th("medium", aim_held=True) == 1
    assert [th(size=s) for s in ("tiny", "small", "large", "huge")] == [3, 2, 1, 1]
    assert th("medium", size="tiny", targeted="small") == 5  # targeted shots ignore size
    assert th(defense=3) == 4


def test_net_hits_add_to_the_dv() -> None:
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Knife")
    events = fight.post("bo", "take", faces=[5, 5, 5, 1] + [1] * 5 + [1] * 2)
    assert [len(e.dice) for e in of(events, DiceRolled)] == [4, 5, 2]  # Knife DV 3 + 2 net hits; soak 2


@pytest.mark.parametrize(("counted_from", "net"), [("chart", 3), ("one", 2)])
def test_net_hits_below_a_threshold_of_one_count_from_the_chart(counted_from: str, net: int) -> None:
    """Defenders Threshold: below 1 a hit still takes 1 hit, and "all net hits" count as bonus
    damage: a knife on one crouched (the chart's 1 - 1 = 0) with 3 hits has 3 net hits, not the
    2 over the 1 a hit takes (a tester's reading; option ``net_hits_from``)."""
    fight = duel({"net_hits_from": counted_from})
    fight.turn("ana", "say")
    fight.turn("bo", "stance to=crouched")
    fight.post("ana", "attack target=bo weapon=Knife")
    events = fight.post("bo", "take", faces=[5, 5, 5, 1] + [1] * (3 + net) + [1] * 2)
    (hit,) = of(events, AttackResolved)
    assert (hit.against, hit.margin) == (1, net)
    assert ("net hits from the chart's 0" in hit.notes) is (counted_from == "chart")
    assert [len(e.dice) for e in of(events, DiceRolled)] == [4, 3 + net, 2]  # Knife DV 3 + the net hits
    fight.end_turn()
    fight.turn("bo", "say")
    fight.post("ana", "attack target=bo weapon=Knife")
    (miss,) = of(fight.post("bo", "take", faces=[1, 1, 1, 1]), AttackResolved)
    assert (miss.hit, miss.margin) == (False, -1)  # a miss counts no net hits, from the chart or not (a reviewer: +0)


def test_critical_hits() -> None:
    assert critical(2, 2, 4, 1, margin=5, min_sixes=2, threshold_crit=True)  # half the dice 6s
    assert not critical(1, 1, 2, 1, margin=5, min_sixes=2, threshold_crit=True)  # at least two 6s
    assert critical(6, 0, 8, 1, margin=5, min_sixes=2, threshold_crit=True)  # the threshold beaten by 5
    assert not critical(6, 0, 8, 1, margin=5, min_sixes=2, threshold_crit=False)  # not for spreads
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Knife")
    events = fight.post("bo", "take", faces=[6, 6, 1, 1] + [1] * 8 + [1] * 2)
    (hit,) = of(events, AttackResolved)
    assert hit.critical == "success" and "critical +4 DV" in hit.notes
    assert len(of(events, DiceRolled)[1].dice) == 3 + 1 + 4


def test_attack_pool_modifiers() -> None:
    do = "attack target=bo weapon=Rifle range=short cover=medium light=dark high=true threatened=true"
    fight = ready_duel()
    refused = fight.refused("ana", do)  # 2 + 3 - 2 dark + 2 high - 3 threatened - 4 cover = -2
    assert refused.code == "rules.pool" and "a pool of -2" in str(refused)
    fight = ready_duel({"low_pool": "minimum"})
    fight.post("ana", do)
    events = fight.post("bo", "take", faces=[1])
    notes = of(events, AttackResolved)[0].notes
    assert notes[:1] == ["pool -2"] and "at least 1 (low_pool)" in notes
    assert {"-2 dark darkness", "+2 better positioning", "-3 a melee attacker in reach", "-4 medium cover"} <= set(notes)


def test_a_sprint_in_the_post_of_the_shot_costs_its_2_dice() -> None:
    """Attacker Modifier: sprinting -2 (a charge's melee attack apart). A sprint posted with the
    shot, before it, was not counted (only a sprint in an earlier post of the turn was)."""
    for posts in (["sprint hexes=3", "attack target=bo weapon=Rifle range=short"],
                  ["sprint hexes=3"], ):
        fight = ready_duel()
        fight.post("ana", *posts)
        if len(posts) == 1:
            fight.post("ana", "attack target=bo weapon=Rifle range=short")
        resolved = of(fight.post("bo", "take", faces=[1] * 3), AttackResolved)[0]
        assert resolved.notes[0] == "pool 3" and "-2 sprinting" in resolved.notes, resolved.notes  # 2 + 3 - 2
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Rifle range=short", "sprint hexes=3")  # the shot first: standing still
    assert of(fight.post("bo", "take", faces=[1] * 5), AttackResolved)[0].notes[0] == "pool 5"


def test_a_grenade_thrown_beside_a_shot_is_a_pool_of_its_own() -> None:
    """Throwing a grenade is a move action of its own; only a lob shares the round's accuracy
    (Lobbing a Grenade). Thrown and fired in one post, the two split one pool, on the grenade's
    accuracy: 'share 3 of 5' each, where posted apart they roll 3 and 5."""
    fight = trio(perception=3)
    fight.post("ana", "throw weapon=Frag range=short target=bo", "attack target=bo weapon=Rifle range=short")
    events = fight.post("bo", "take", faces=[1] * 12)  # the grenade: misses, lands, its blast
    pools = [e.notes for e in of([*events, *fight.end_turn(faces=[1] * 5)], AttackResolved)]  # then the shot
    assert [notes[0] for notes in pools] == ["pool 3", "pool 5"], pools  # Frag 0 + 3, Rifle 2 + 3
    assert not any(note.startswith("share") for notes in pools for note in notes)


def test_gang_up_adds_one_a_threatening_ally_to_four() -> None:
    fight = Fight().join("ana", side="a").join("bo", side="b")
    for ally in ("a1", "a2", "a3", "a4", "a5"):
        fight.join(ally, side="a")
    fight.begin([6] * 6 + [1] * 6 + [5] * 5 + [1] + [5] * 4 + [1] * 2 + [5] * 3 + [1] * 3 + [5] * 2 + [1] * 4
                + [5] + [1] * 5)
    assert fight.current == "ana"
    events = fight.post("ana", "attack target=bo weapon=Knife gang=a1,a2,a3,a4,a5", faces=[1] * 8)
    assert "+4 gang up (5 allies)" in of(events, AttackResolved)[0].notes
    assert fight.refused("a1", "attack target=bo weapon=Knife gang=bo").code in ("order.out-of-turn", "rules.gang-up")


def test_gang_up_counts_each_ally_once() -> None:
    """Each other ally threatening the foe adds 1: an ally named twice is refused, not counted twice."""
    fight = Fight().join("ana", side="a").join("bo", side="b").join("a1", side="a")
    fight.begin([6] * 6 + [1] * 6 + [1] * 6 + [5, 3])
    refused = fight.refused("ana", "attack target=bo weapon=Knife gang=a1,a1,a1")
    assert refused.code == "rules.gang-up" and "a1 named twice" in str(refused)


def test_soak_is_fortitude_with_armour_less_ap_up_to_the_armour() -> None:
    assert pierce(-3, 2) == 2 and pierce(-1, 2) == 1 and pierce(2, 2) == 0
    assert soak_pool(3, 2, -3) == 3 and soak_pool(3, 2, 0) == 5
    assert soak_pool(3, 2, 3, positive_ap_soaks=True) == 8


def test_each_soak_hit_takes_one_off() -> None:
    fight = ready_duel(b={"fortitude": 3, "armour": 2})
    fight.post("ana", "attack target=bo weapon=Rifle range=short")  # AP -1: soak 3 + 2 - 1 = 4
    events = fight.post("bo", "take", faces=[5] + [1] * 4 + [5] * 5 + [5, 5, 1, 1])
    assert [len(e.dice) for e in of(events, DiceRolled)] == [5, 5, 4]
    assert [(d.raw, d.reduced_by, d.taken) for d in of(events, DamageApplied)] == [(5, 2, 3)]


# ---------------------------------------------------------------- fire modes

def test_a_fire_mode_the_weapon_lacks_and_the_rate_of_fire() -> None:
    fight = ready_duel()
    assert fight.refused("ana", "attack target=bo weapon=Rifle mode=auto").code == "rules.fire-mode"
    assert fight.refused("ana", "attack target=bo weapon=Shotgun mode=3rb").code == "rules.fire-mode"
    refused = fight.refused("ana", *["attack target=bo weapon=Rifle range=short"] * 4)
    assert refused.code == "rules.rof"


def test_an_sa_weapons_burst_takes_an_attack_a_bullet() -> None:
    fight = ready_duel(a={"weapons": [{"name": "Pistol", "kind": "ranged", "accuracy": 5, "dv": 3, "fire": ["SA"],
                                       "rof": 3}]})
    assert fight.refused("ana", "attack target=bo weapon=Pistol mode=3rb",
                         "attack target=bo weapon=Pistol").code == "rules.rof"


# ---------------------------------------------------------------- health and dying

def _floored(body: int = 3) -> Fight:
    """Bo at 2 HP, no fortitude: Ana's knife (1 net hit: DV 4, 4 hits) puts him at -2."""
    fight = ready_duel(b={"hp": 2, "fortitude": 0, "body": body})
    fight.post("ana", "attack target=bo weapon=Knife")
    fight.post("bo", "take", faces=[5, 5, 1, 1] + [5, 5, 5, 5])
    return fight


def test_below_zero_unconscious_with_fatigue_and_bleeding_out() -> None:
    fight = _floored()
    assert fight.hp("bo") == -2
    assert "unconscious" in fight.statuses("bo")
    assert fight.effects("bo") == ["bleeding", "fatigue"]


def test_bleeding_out_ticks_each_round_and_a_body_check_stabilizes() -> None:
    fight = _floored(body=5)
    events = fight.end_turn([5, 1])  # bo is out: round 3 opens, the bleed ticks (-3), Body 5 - 3 = 2 dice vs 1
    assert of(events, EffectTicked) and fight.hp("bo") == -3
    assert [e.label for e in of(events, DiceRolled)] == ["stabilize: body 5 - |-3| vs 1"]
    assert "stable" in fight.statuses("bo") and "bleeding" not in fight.effects("bo")
    fight.turn("ana", "say")
    assert fight.hp("bo") == -3  # stable: no more bleeding


def test_the_stabilize_threshold_is_the_rounds_bled() -> None:
    fight = _floored(body=6)
    fight.end_turn([1, 1, 1])  # round 3: -3, 3 dice vs 1: failed
    events = fight.turn("ana", "say", faces=[5, 1])  # round 4: -4, 2 dice vs 2: one hit, failed
    assert [e.label for e in of(events, DiceRolled)] == ["stabilize: body 6 - |-4| vs 2"]
    assert "stable" not in fight.statuses("bo")


def test_death_when_the_negative_hp_exceeds_body() -> None:
    fight = _floored()
    fight.end_turn()  # round 3: -3, Body 3 - 3: nothing to roll
    assert "dead" not in fight.statuses("bo")
    fight.turn("ana", "say")  # round 4: -4, beyond Body 3
    assert "dead" in fight.statuses("bo") and "bleeding" not in fight.effects("bo")


def test_a_medic_stabilizes_one_bleeding_out() -> None:
    fight = trio(medic=5, hp=2, fortitude=0)
    fight.post("ana", "attack target=cy weapon=Knife")
    fight.post("cy", "take", faces=[5, 5, 1, 1] + [5, 5, 5, 1])  # 1 net hit: DV 4; 3 hits: -1 HP
    fight.end_turn()
    assert fight.current == "bo" and fight.hp("cy") == -1
    events = fight.post("bo", "stabilize target=cy", faces=[5, 1, 1, 1])  # medic 5 - |-1| = 4 dice vs 1
    assert [e.status for e in of(events, StatusChanged)] == ["stable"]
    assert "bleeding" not in fight.effects("cy")
    assert fight.refused("bo", "stabilize target=cy").code in ("rules.stabilize", "rules.allowance")


# ---------------------------------------------------------------- statuses

def test_knockdown_save_columns() -> None:
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Club")  # knockdown 2
    fight.post("bo", "take", faces=[5, 1, 1, 1] + [1] * 4 + [1, 1] + [5, 1, 1])  # vigor 1 hit: fails
    assert "prone" in fight.statuses("bo")
    fight.end_turn()
    fight.post("bo", "stance to=standing")
    assert "prone" not in fight.statuses("bo")


def test_a_knockdown_save_that_equals_staggers_until_the_end_of_the_next_turn() -> None:
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Club")
    fight.post("bo", "take", faces=[5, 1, 1, 1] + [1] * 4 + [1, 1] + [5, 5, 1])
    assert fight.effects("bo") == ["staggered"]
    fight.end_turn()
    fight.post("bo", "attack target=ana weapon=Knife")  # 1 + 3 - 1 staggered = 3 dice
    events = fight.post("ana", "take", faces=[1, 1, 1])
    assert len(of(events, DiceRolled)[0].dice) == 3
    events = fight.end_turn()
    assert [e.reason for e in of(events, EffectExpired)] == ["the end of the next turn"]


def test_a_stunned_fighter_loses_the_next_turn() -> None:
    baton = {"name": "Baton", "kind": "melee", "accuracy": 1, "dv": 1, "kickers": [{"status": "stunned", "rating": 2}]}
    fight = ready_duel(a={"weapons": [baton]})
    fight.post("ana", "attack target=bo weapon=Baton")
    fight.post("bo", "take", faces=[5, 1, 1, 1] + [1] + [1, 1] + [1, 1, 1])  # willpower 0 hits: stunned
    events = fight.end_turn()
    assert [e.actor for e in of(events, TurnEnded)] == ["ana", "bo"] and fight.current == "ana"
    assert "stunned" not in fight.effects("bo")


def test_burning_ticks_at_the_start_of_the_turn_and_is_put_out() -> None:
    torch = {"name": "Torch", "kind": "melee", "accuracy": 1, "dv": 1, "kickers": [{"status": "burning", "rating": 2}]}
    fight = ready_duel(a={"weapons": [torch]})
    fight.post("ana", "attack target=bo weapon=Torch")
    fight.post("bo", "take", faces=[5, 1, 1, 1] + [1] + [1, 1] + [1, 1, 1])  # grit 0 hits: on fire
    assert "burning" in fight.effects("bo")
    events = fight.end_turn([5] * 7 + [1, 1])  # 7 DV, no armour: 2 fortitude dice
    assert of(events, EffectTicked) and fight.hp("bo") == 3
    events = fight.post("bo", "extinguish", faces=[5, 5, 5])  # the higher of intelligence and savvy vs 3
    assert [e.reason for e in of(events, EffectExpired)] == ["intelligence check made"]


# ---------------------------------------------------------------- attacks of opportunity, trips, aims, coups

def test_reloading_in_reach_provokes_one_attack_of_opportunity() -> None:
    fight = ready_duel()
    assert fight.refused("bo", "aoo target=ana weapon=Knife").code == "rules.aoo"
    fight.post("ana", "reload weapon=Rifle")
    events = fight.post("bo", "aoo target=ana weapon=Knife", faces=[1])  # the knife's base accuracy: 1 die
    assert of(events, InitiativeSet) and of(events, AttackResolved)[0].hit is False
    assert fight.refused("bo", "aoo target=ana weapon=Knife").code in ("rules.immediate", "rules.aoo")


def test_a_grenade_thrown_in_reach_provokes_an_attack_of_opportunity() -> None:
    """Attacks of Opportunity: making a ranged attack in reach provokes one; a thrown grenade is
    an attack roll at range (a tester's knife-armed Bob was refused: "has done nothing that
    provokes")."""
    fight = ready_duel()
    fight.post("ana", "throw weapon=Frag range=short target=bo")
    events = fight.post("bo", "aoo target=ana weapon=Knife", faces=[1])
    assert of(events, AttackResolved)[0].attacker == "bo"


def test_a_trip_stagger_or_prone_and_a_resist() -> None:
    fight = ready_duel(a={"perception": 4})
    fight.post("ana", "trip target=bo weapon=Club")  # 1 + 4 - 4 = 1 die
    events = fight.post("bo", "resist", faces=[1, 1, 1] + [5])
    (hit,) = of(events, AttackResolved)
    assert (hit.score, hit.against, hit.hit) == (1, 1, True) and fight.effects("bo") == ["immediate", "staggered"]


def test_holding_an_aim_keeps_it_and_lowers_the_holders_threshold() -> None:
    fight = ready_duel()
    fight.turn("ana", "aim weapon=Rifle", "hold_aim")
    fight.post("bo", "attack target=ana weapon=Rifle range=medium")
    events = fight.post("ana", "take", faces=[1] * 5)
    (shot,) = of(events, AttackResolved)
    assert shot.against == 1 and "threshold 1: +2 medium range, -1 holding an aim" in shot.notes
    fight.end_turn()
    assert fight.refused("ana", "aim weapon=Rifle").code == "rules.incomplete"  # held: no move action needed
    fight.post("ana", "attack target=bo weapon=Rifle range=short")
    events = fight.post("bo", "take", faces=[1] * 6)
    assert "+1 aiming" in of(events, AttackResolved)[0].notes


def test_a_coup_de_grace_needs_a_helpless_target() -> None:
    fight = ready_duel()
    assert fight.refused("ana", "coup_de_grace target=bo weapon=Knife").code == "rules.coup"


def test_a_coup_de_grace_on_one_helpless_hits_crits_ignores_armour_and_a_failed_grit_save_kills() -> None:
    fight = ready_duel(b={"hp": 1, "fortitude": 0, "armour": 3, "body": 5})
    fight.post("ana", "attack target=bo weapon=Knife")
    fight.post("bo", "take", faces=[5, 5, 1, 1] + [5, 1, 1, 1] + [1, 1, 1])  # DV 4, 1 hit: 0 HP, unconscious
    assert "unconscious" in fight.statuses("bo")
    fight.end_turn()  # bo is out: round 3 opens on ana
    events = fight.post("ana", "coup_de_grace target=bo weapon=Knife",
                        faces=[5, 5] + [1] * 11 + [1] * 0 + [1, 1, 1])  # DV 3 + 4 + 6 = 13; no armour: 0 soak dice
    (hit,) = of(events, AttackResolved)
    assert hit.hit and hit.critical == "success"
    assert [len(e.dice) for e in of(events, DiceRolled)] == [13, 3]  # the damage, then Grit 3 against 2 taken
    assert "dead" in fight.statuses("bo") and "bleeding" not in fight.effects("bo")
    fight.end_turn()  # round 4 on ana
    refused = fight.refused("ana", "coup_de_grace target=bo weapon=Knife")  # a tester: "bo is not [helpless]"
    assert (refused.code, refused.message) == ("rules.coup", "bo is dead already: a coup de grace is for the helpless "
                                                             "living")


def test_a_missed_grenade_lands_its_net_misses_plus_one_off() -> None:
    fight = trio()
    fight.post("ana", "throw weapon=Frag target=bo range=medium")  # threshold 2
    events = fight.post("bo", "take", faces=[1, 1, 1] + [4] + [5] * 6 + [1, 1])
    (missed,) = of(events, AttackResolved)
    assert not missed.hit and "blast: 3 hexes from the centre" in missed.notes  # 2 net misses + 1
    assert [e.purpose for e in of(events, DiceRolled)] == ["attack", "scatter", "damage", "soak"]
    assert [(d.raw, d.taken) for d in of(events, DamageApplied)] == [(4, 4)]  # 6 less 2 three hexes out


def test_fear_makes_one_flee_for_net_hits_plus_one_rounds_counted_down() -> None:
    from fightlog.rules.bleedingsun import statuses

    fight = ready_duel()
    statuses.save(fight.faces(1, 1, 1).scribe, "bo", "fear", 2, fight.state.seq)  # grit 0 hits: 2 net, 3 rounds
    (fleeing,) = [e for e in fight.state.effects.values() if e.name == "fleeing"]
    assert fleeing.remaining == 3 and fleeing.counts_on == "bo"
    fight.turn("ana", "say")
    events = fight.turn("bo", "say")
    assert [e.remaining for e in events if type(e).__name__ == "EffectCountedDown"] == [2]


def test_the_status_chart_columns() -> None:
    from fightlog.rules.bleedingsun.statuses import SAVES, column

    assert [column(h, 2) for h in (3, 2, 1)] == ["exceeds", "equals", "fails"]
    assert SAVES["nausea"] == ("grit", "immune", "staggered", "stunned")
    assert SAVES["frozen"].fails == "frozen" and SAVES["burning"].fails == "burning"
    assert SAVES["terror"].exceeds == "immune" and SAVES["fatigue"].equals == "fatigue_temp"
    assert set(SAVES) >= {"nausea", "knockdown", "confusion", "stagger", "frozen", "burning", "poison", "stunned",
                          "irradiated", "fatigue", "fear", "terror"}


def test_the_drop_is_an_option() -> None:
    fight = trio({"immediate_drop": 2})
    fight.post("ana", "attack target=bo weapon=Rifle range=short")
    fight.post("bo", "dodge", faces=[1] * 3 + [1] * 5)
    assert fight.order == ["ana", "cy", "bo"]  # two places down, as far as the bottom
    fight = trio({"immediate_drop": 2})
    fight.post("ana", "say")
    fight.end_turn()
    fight.post("bo", "attack target=ana weapon=Rifle range=short")
    fight.post("ana", "dodge", faces=[1] * 3 + [1] * 5)
    assert fight.order == ["bo", "cy", "ana"]


def test_grenades_carried_run_out() -> None:
    fight = ready_duel(a={"grenades": 1})
    fight.post("ana", "throw weapon=Frag target=bo")
    fight.post("bo", "take", faces=[1, 1, 1] + [4] + [1] * 6 + [1, 1])  # a miss: 3 hexes off
    assert fight.state.combatants["ana"].spent == {"grenade": 1}
    fight.end_turn()
    fight.turn("bo", "say")
    refused = fight.refused("ana", "throw weapon=Frag target=bo")
    assert refused.code == "rules.allowance" and "thrown all 1 grenades" in str(refused)


def test_delaying_takes_the_turn_where_one_comes_out_of_the_delay() -> None:
    fight = trio()
    assert fight.refused("ana", "delay", "say").code == "rules.allowance"
    fight.post("ana", "delay")
    events = fight.end_turn()
    assert fight.current == "bo" and "delaying" in fight.statuses("ana")
    assert not [e for e in events if isinstance(e, TurnEnded)]  # ana's turn is taken later
    fight.post("ana", "undelay")
    assert fight.order == ["bo", "ana", "cy"]
    fight.end_turn()
    assert fight.current == "ana"
    fight.turn("ana", "say")
    assert fight.current == "cy"


def test_a_delay_never_come_out_of_is_lost_at_the_round_end() -> None:
    fight = trio()
    fight.post("ana", "delay")
    fight.end_turn()
    fight.turn("bo", "say")
    events = fight.turn("cy", "say")
    assert [e.note for e in of(events, StatusChanged)] == ["the delayed turn was not taken"]
    assert fight.current == "ana" and fight.state.turn.round == 3


def test_a_lobbed_grenade_uses_agility_alone_at_a_hex() -> None:
    fight = trio(perception=5)
    fight.post("ana", "throw weapon=Frag lob=true range=short caught=bo:1,cy:2")
    fight.post("bo", "take")
    events = fight.post("cy", "take", faces=[5, 1, 1] + [5, 5, 5, 1, 1, 1] + [1, 1] + [5, 5, 5, 1, 1, 1] + [1, 1])
    assert [len(e.dice) for e in of(events, DiceRolled)][:1] == [3]  # agility 3: not accuracy + perception 5
    bo, cy = of(events, AttackResolved)
    assert bo.hit and cy.hit and "lobbed: agility only, at a hex" in bo.notes
    assert [(d.target, d.raw) for d in of(events, DamageApplied)] == [("bo", 3), ("cy", 2)]


def test_a_grenade_lobbed_this_round_lowers_the_rate_of_fire_by_1() -> None:
    """Lobbing a Grenade: the rate of fire decreases by 1 that round, to a minimum of 1."""
    fight = trio(perception=5)
    fight.post("ana", "throw weapon=Frag lob=true range=short caught=cy:1")
    fight.post("cy", "take", faces=[5, 5, 5] + [1] * 6 + [1, 1])  # the lob hits; no damage
    refused = fight.refused("ana", *["attack target=bo weapon=Rifle range=short"] * 3)
    assert refused.code == "rules.rof"
    assert "makes 2 attacks a round (a grenade lobbed this round: 1 fewer): this post takes 3" in refused.message
    fight.post("ana", *["attack target=bo weapon=Rifle range=short"] * 2)


def test_frozen_slows_and_a_stagger_that_fails_takes_pace() -> None:
    from fightlog.rules.bleedingsun import statuses

    fight = ready_duel()
    statuses.apply(fight.scribe, "ana", "frozen", "frozen", fight.state.seq)
    statuses.apply(fight.scribe, "ana", "staggered_mp", "stagger", fight.state.seq)
    assert fight.refused("ana", *["attack target=bo weapon=Rifle range=short"] * 3).code == "rules.rof"  # 3 less 1
    assert fight.refused("ana", "move hexes=5").code == "rules.allowance"  # 2 MP a hex, pace 3: four move actions
    fight.post("ana", "move hexes=2", "aim weapon=Rifle")  # 4 MP is two move actions at pace 3; aim the third


def test_a_move_made_before_one_is_frozen_costs_what_it_cost_then() -> None:
    """Frozen: moving costs +1 MP. Ana walked 4 hexes (one move action at pace 4), was frozen
    by a readied shot, then aimed and attacked: refused as 3 move actions, her walk priced
    again at 8 MP (a tester). Moves after the freeze cost the more."""
    from fightlog.rules.bleedingsun import statuses

    fight = ready_duel(a={"pace": 4})
    fight.post("ana", "move hexes=4")
    statuses.apply(fight.scribe, "ana", "frozen", "frozen", fight.state.seq)
    assert fight.refused("ana", "move hexes=3", "attack target=bo weapon=Rifle range=short").code == \
        "rules.allowance"  # 6 MP frozen: two move actions more, with the standard used
    fight.post("ana", "aim weapon=Rifle", "attack target=bo weapon=Rifle range=short")  # walk 1, aim 1, attack
    from fightlog.rules.bleedingsun.ruleset import RULES

    assert dict(RULES.turn_spent(fight.state, "ana")) == {"standard": 1, "move": 2}  # as state shows it


def test_a_move_made_frozen_still_costs_the_more_once_broken_free() -> None:
    """Frozen, Ana walked 4 hexes (8 MP: two move actions) and broke free: her walk was priced
    again unfrozen and another move let through (a review). The table records a move made
    frozen (frozen=true), and it keeps its price."""
    from fightlog.events.model import DeclarationPosted
    from fightlog.rules.bleedingsun import statuses

    fight = ready_duel(a={"pace": 4})
    statuses.apply(fight.scribe, "ana", "frozen", "frozen", fight.state.seq)
    (walked,) = of(fight.post("ana", "move hexes=4"), DeclarationPosted)
    assert walked.actions[0].params == {"hexes": 4, "frozen": True}
    fight.post("ana", "break_free", faces=[6, 6, 6])
    assert "frozen" not in [e.name for e in fight.state.effects.values()]
    assert fight.refused("ana", "move hexes=1").code == "rules.allowance"  # 9 MP: three move actions


def test_innocent_bystanders_when_the_gm_calls_for_them() -> None:
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Rifle mode=3rb range=short bystanders=true")
    events = fight.post("bo", "take", faces=[1, 1, 4] + [5, 1, 1])  # 2 ones + 1 for 3 bullets: savvy vs 3
    (missed,) = of(events, AttackResolved)
    assert "stray shot: a bystander is hit for full damage (savvy 1 against 3)" in missed.notes
    assert [e.purpose for e in of(events, DiceRolled)] == ["attack", "bystander"]


def test_a_grapple_taken_control_of_pins_and_is_escaped() -> None:
    fight = ready_duel(a={"strength": 4}, b={"strength": 3, "legerdemain": 1})
    events = fight.post("ana", "grapple target=bo", faces=[5, 5, 1, 1] + [5, 1, 1])  # 2 against 1: ana controls
    assert [n for e in of(events, AttackResolved) for n in e.notes] == ["grapple: ana takes control"]
    assert {"grappled", "controlling"} <= set(fight.statuses("ana")) and {"grappled", "pinned"} <= set(fight.statuses("bo"))
    assert fight.refused("ana", "attack target=bo weapon=Club").code == "rules.grappled"  # only a small weapon
    refused = fight.refused("ana", "attack target=bo weapon=Knife")  # 1 + 3 - 4 in a grapple = 0
    assert refused.code == "rules.pool" and "a pool of 0" in str(refused)
    del events


def test_a_pinned_fighter_cannot_attack_and_escapes_with_the_better_attribute() -> None:
    fight = ready_duel(a={"strength": 4}, b={"strength": 2, "legerdemain": 4})
    fight.post("ana", "grapple target=bo", faces=[5, 5, 1, 1] + [5, 1, 1, 1])  # bo defends with legerdemain 4
    fight.end_turn()
    assert fight.refused("bo", "attack target=ana weapon=Knife").code == "rules.grappled"
    assert fight.refused("bo", "move hexes=1").code == "rules.grappled"
    events = fight.post("bo", "escape", faces=[5, 5, 5, 1] + [5, 1, 1, 1])  # legerdemain 3 hits against strength 1
    assert [e.reason for e in of(events, EffectExpired)] == ["bo broke free"]
    assert not {"grappled", "pinned"} & set(fight.statuses("bo"))


def test_a_grapple_resisted_with_legerdemain_and_a_draw_with_no_one_in_control() -> None:
    fight = ready_duel(a={"strength": 2}, b={"legerdemain": 4})
    events = fight.post("ana", "grapple target=bo", faces=[1, 1] + [5, 1, 1, 1])
    assert [n for e in of(events, AttackResolved) for n in e.notes] == ["grapple: bo resists (legerdemain)"]
    assert "grappled" not in fight.statuses("bo")
    fight = ready_duel(a={"strength": 2}, b={"strength": 2, "legerdemain": 0})
    fight.post("ana", "grapple target=bo", faces=[5, 1] + [5, 1])
    assert "grappled" in fight.statuses("ana") and "pinned" not in fight.statuses("bo")


def test_a_blasts_kicker_save_adds_a_die_a_hex_a_point_of_cover_and_a_dodge_hit() -> None:
    """Taking damage from explosives: the save pool gains the steps from the blast's centre,
    the points of cover (medium: 4) and the dodge hits (a review: the cover was left out)."""
    from tests.rules.bleedingsun.rigged import FRAG, KNIFE, RIFLE

    fight = trio(weapons=[RIFLE, KNIFE, dict(FRAG, knockdown=2)])
    fight.post("ana", "throw weapon=Frag target=bo caught=cy:3 cover_cy=medium")
    fight.post("bo", "take")
    saves = {e.roller: e for e in of(fight.post("cy", "take", faces=[1] * 41), DiceRolled) if e.purpose == "save"}
    # the throw missed by 1 and landed 2 hexes off: bo is 2 from the centre, cy 5, behind medium cover
    assert saves["bo"].label == "knockdown save: vigor 3 vs 2, +2 blast distance and dodge"
    assert len(saves["bo"].dice) == 3 + 2
    assert saves["cy"].label == "knockdown save: vigor 3 vs 2, +9 blast distance, cover and dodge"
    assert len(saves["cy"].dice) == 3 + 5 + 4


def test_a_coup_de_grace_with_a_gun_needs_no_distance() -> None:
    """It is made within reach: the refusal of a ranged attack that says neither distance=
    nor range= must not catch it (every other test's coup de grace used the Knife)."""
    fight = ready_duel(b={"hp": 1, "fortitude": 0, "armour": 3, "body": 5})
    fight.post("ana", "attack target=bo weapon=Knife")
    fight.post("bo", "take", faces=[5, 5, 1, 1] + [5, 1, 1, 1] + [1, 1, 1])
    assert "unconscious" in fight.statuses("bo")
    fight.end_turn()
    from fightlog.rules.bleedingsun.planning import plan
    from fightlog.kit.actions import parse_actions

    planned = plan(fight.state, "ana", parse_actions(["coup_de_grace target=bo weapon=Rifle"]))
    assert [p.bands for p in planned.plans] == [("short",)]


def test_the_audit_counts_net_hits_as_the_scene_says_and_an_older_log_from_one() -> None:
    """A scene started with ``net_hits_from = "chart"`` whose hit records the net hits over 1 is
    ``rules.outcome``; a log written before the option (its options do not name it) counted
    from one, as fightlog did then: clean."""
    from msgspec.structs import replace

    from fightlog.audit.one_process import audit_events
    from fightlog.events.model import SceneStarted
    from fightlog.fixtures.tampering import Tamper

    fight = duel({"net_hits_from": "one"})
    fight.turn("ana", "say")
    fight.turn("bo", "stance to=crouched")
    fight.post("ana", "attack target=bo weapon=Knife")
    fight.post("bo", "take", faces=[5, 5, 5, 1] + [1] * 5 + [1] * 2)
    events = list(fight.scribe.events)
    started = events[0]
    assert isinstance(started, SceneStarted)

    def outcome(options: dict[str, object]) -> list[str]:
        log = Tamper([replace(started, options=options), *events[1:]])
        return [f.message for f in audit_events(log.done().events).findings if f.code.startswith("rules.")]

    assert outcome(dict(started.options)) == []
    older = {k: v for k, v in started.options.items() if k != "net_hits_from"}
    assert outcome(older) == []
    said = outcome({**started.options, "net_hits_from": "chart"})
    assert said[:1] == ["ana's attack on bo: net hits 2, the rules give 3"], said
