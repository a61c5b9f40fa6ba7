"""Damage through the table: no damage rolls, armour first, piercing, altered damage rounded,
damage over time at the start of the target's turn, mortal wounds and death."""

from __future__ import annotations

from fightlog.events.model import (
    DamageApplied,
    DiceRolled,
    EffectCountedDown,
    EffectExpired,
    EffectTicked,
    HealingApplied,
    StatusChanged,
    TurnStarted,
)
from tests.rules.d20evasion.rigged import PISTOL, SWORD, Fight, kinds, of

VEST = {"name": "Vest", "armour": 25}


def fight(**bob: object) -> Fight:
    """Alice (a pistol: 40 damage) shoots Bob at medium-close; Alice first."""
    f = Fight().join("alice", (0, 0)).join("bob", (10, 0), **bob)
    f.begin([20, 1])
    return f


def test_there_are_no_damage_rolls_a_hit_deals_full_damage() -> None:
    f = fight()
    events = f.post("alice", "attack target=bob", faces=[15])
    assert [r.purpose for r in of(events, DiceRolled)] == ["attack"]
    assert [(d.raw, d.taken) for d in of(events, DamageApplied)] == [(40, 40)]


def test_armour_takes_damage_before_base_hp() -> None:
    f = fight(armour=[VEST])
    events = f.post("alice", "attack target=bob", faces=[15])
    assert [(d.pool, d.raw, d.taken) for d in of(events, DamageApplied)] == [("armour", 40, 25), ("hp", 15, 15)]
    assert (f.pool("bob", "armour"), f.hp("bob")) == (0, 85)
    events = f.post("alice", "attack target=bob", faces=[15])
    assert [(d.pool, d.taken) for d in of(events, DamageApplied)] == [("hp", 40)]


def test_armour_that_holds_keeps_hp_whole() -> None:
    f = fight(armour=[{"name": "Plate", "armour": 60}])
    f.post("alice", "attack target=bob", faces=[15])
    assert (f.pool("bob", "armour"), f.hp("bob")) == (20, 100)


def test_piercing_attacks_bypass_armour() -> None:
    f = Fight().join("alice", (0, 0), weapons=[{**PISTOL, "name": "AP pistol", "piercing": True}])
    f.join("bob", (10, 0), armour=[VEST]).begin([20, 1])
    (damage,) = of(f.post("alice", "attack target=bob", faces=[15]), DamageApplied)
    assert (damage.pool, damage.taken, damage.damage_type) == ("hp", 40, "piercing")
    assert (f.pool("bob", "armour"), f.hp("bob")) == (25, 60)


def test_protect_halves_the_damage_rounded_to_the_nearest_5() -> None:
    protect = {"name": "Protect", "target": "ally", "mp": 5, "damage_taken_percent": 50, "rounds": 2}
    f = Fight().join("alice", (0, 0), weapons=[{**PISTOL, "damage": 25}])  # 20 + 25 = 45
    f.join("bob", (10, 0), mp=10, spells=[protect]).begin([1, 20])
    f.post("bob", "cast spell=Protect")
    f.end_turn()
    assert f.effect("bob", "Protect").params == {"damage_percent": 50}
    events = f.post("alice", "attack target=bob", faces=[15])
    assert [(d.raw, d.taken) for d in of(events, DamageApplied)] == [(25, 25)]  # 22.5 rounds up
    assert any("45 damage altered by 50%: 25" in n for n in events[2].notes)  # type: ignore[union-attr]


def test_damage_over_time_is_taken_at_the_start_of_the_targets_turn() -> None:
    torch = {**SWORD, "name": "Torch", "effect": {"name": "burning", "damage": 10, "rounds": 2}}
    f = Fight().join("alice", (0, 0), weapons=[torch]).join("bob", (1, 0)).started([20, 1])
    f.post("alice", "attack target=bob", faces=[15])  # 35 damage and burning
    assert f.hp("bob") == 65 and f.effects("bob") == {"burning": 2}
    opened = f.end_turn()
    assert kinds(opened)[-3:] == ["turn_started", "effect_ticked", "damage_applied"]
    assert of(opened, TurnStarted)[0].actor == "bob"
    assert f.hp("bob") == 55
    ended = f.end_turn()
    assert of(ended, EffectCountedDown)[0].remaining == 1
    f.post("alice", "say")
    ticked = f.end_turn()
    assert len(of(ticked, EffectTicked)) == 1 and f.hp("bob") == 45
    last = f.end_turn()
    assert [e.reason for e in of(last, EffectExpired)] == ["duration"]
    assert f.effects("bob") == {}


def test_damage_over_time_goes_through_armour_unless_the_option_says_otherwise() -> None:
    poison = {**SWORD, "name": "Dagger", "damage": 0, "effect": {"name": "poison", "damage": 10, "rounds": 1}}
    for option, pools in ((False, ("armour", "hp")), (True, ("hp",))):
        f = Fight({"dot_bypasses_armour": option}).join("alice", (0, 0), weapons=[poison], stats={"strength": 10})
        f.join("bob", (1, 0), armour=[{"name": "Vest", "armour": 15}]).begin([20, 1])
        f.post("alice", "attack target=bob", faces=[15])  # 10 into the armour, and the poison
        damage = of(f.end_turn(), DamageApplied)
        assert tuple(d.pool for d in damage) == pools[: len(damage)]
        assert f.pool("bob", "armour") + f.hp("bob") == 95


def test_at_0_hp_a_combatant_is_mortally_wounded_and_rolls_an_injury() -> None:
    f = fight(hp=40)
    events = f.post("alice", "attack target=bob", faces=[15, 10])
    assert f.hp("bob") == 0
    assert "mortally_wounded" in f.statuses("bob")
    (injury,) = [r for r in of(events, DiceRolled) if r.purpose == "injury"]
    assert injury.notation == "1d20" and injury.roller == "bob"
    assert f.effect("bob", "injury").params["kind"] == "concussion"
    assert f.effect("bob", "injury").params["penalty"] == 5
    assert f.effects("bob")["bleeding_out"] == 2


def test_the_mortally_wounded_cannot_act_and_bleed_out_after_two_full_rounds() -> None:
    f = fight(hp=40)
    f.post("alice", "attack target=bob", faces=[15, 18])  # round 1
    assert f.end_turn() and f.current == "alice"  # bob is skipped: round 2 opens
    assert f.state.turn.round == 2
    assert f.refused("bob", "attack target=alice").code == "order.cannot-act"
    f.end_turn()  # round 2 ends: one round left
    assert f.effects("bob")["bleeding_out"] == 1 and "dead" not in f.statuses("bob")
    events = f.end_turn()  # round 3 ends
    assert "dead" in f.statuses("bob") and "mortally_wounded" not in f.statuses("bob")
    assert [s.status for s in of(events, StatusChanged) if s.on] == ["dead"]


def test_healing_treats_a_mortal_wound_and_the_injury_stays() -> None:
    kit = {"name": "Med kit", "heal": 30}
    f = Fight().join("alice", (0, 0), side="a", items=[kit]).join("carl", (0, 0), side="a")
    f.join("bob", (10, 0), side="b", hp=40).started([20, 1])
    f.post("alice", "attack target=bob", faces=[15, 13])
    assert "mortally_wounded" in f.statuses("bob")
    f.end_turn()
    assert f.current == "carl"
    f.end_turn()  # round 2: alice again
    assert f.refused("alice", "use_item item='Med kit' target=bob").message.startswith("bob is at medium-close")
    f.post("alice", "move target=bob range=close", "use_item item='Med kit' target=bob")
    assert f.hp("bob") == 30 and "mortally_wounded" not in f.statuses("bob")
    assert "bleeding_out" not in f.effects("bob")
    assert f.effect("bob", "injury").params["kind"] == "muscle tear"
    heal = of(f.scribe.events, HealingApplied)[-1]
    assert heal.amount == 30


def test_reduced_to_minus_75_a_combatant_is_killed_outright() -> None:
    cannon = {**PISTOL, "name": "Cannon", "damage": 95}  # 20 + 95 = 115
    f = Fight().join("alice", (0, 0), weapons=[cannon]).join("bob", (10, 0), hp=40).started([20, 1])
    events = f.post("alice", "attack target=bob", faces=[15])
    assert f.hp("bob") == -75
    assert "dead" in f.statuses("bob") and "mortally_wounded" not in f.statuses("bob")
    assert not [r for r in of(events, DiceRolled) if r.purpose == "injury"]


def test_a_mortally_wounded_combatant_finished_off_dies() -> None:
    f = fight(hp=40)
    f.post("alice", "attack target=bob", faces=[15, 18])
    f.post("alice", "attack target=bob", faces=[15])  # -40
    assert "dead" not in f.statuses("bob")
    f.end_turn()
    f.post("alice", "attack target=bob", faces=[15])  # -80
    assert "dead" in f.statuses("bob") and "bleeding_out" not in f.effects("bob")
    assert f.refused("alice", "attack target=bob").message == "bob is dead"


def test_a_second_attack_of_a_post_on_one_it_killed_is_not_rolled() -> None:
    """A tester's ogre posted two attacks on Pip; the first killed him outright, and the second
    still rolled (and 'missed' the dead)."""
    cannon = {**PISTOL, "name": "Cannon", "damage": 95}
    f = Fight().join("alice", (0, 0), weapons=[cannon]).join("bob", (10, 0), hp=40).started([20, 1])
    events = f.post("alice", "attack target=bob", "attack target=bob", faces=[15])  # one face: one roll
    assert "dead" in f.statuses("bob")
    assert [r.purpose for r in of(events, DiceRolled)] == ["attack"]
