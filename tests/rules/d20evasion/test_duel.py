"""A duel's defensive turns: dodge, counterattack, parry, each with its critical failure, and
attacks nobody answered."""

from __future__ import annotations

import pytest

from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled
from fightlog.rules.d20evasion.policy import reply
from fightlog.rules.d20evasion.table import TABLE
from tests.rules.d20evasion.rigged import PISTOL, SWORD, Fight, of

DUEL = {"mode": "duel"}


def duel(distance: int = 10, *, a: dict[str, object] | None = None, b: dict[str, object] | None = None,
         options: dict[str, object] | None = None) -> Fight:
    """Alice and Bob (20 in every stat: +1 to hit, Evasion 12, 40 pistol damage), Alice first."""
    f = Fight({**DUEL, **(options or {})})
    f.join("alice", (0, 0), **(a or {})).join("bob", (distance, 0), **(b or {}))
    f.begin([20, 1])
    return f


def outcomes(events: list[object]) -> list[tuple[str, str, bool, int, int]]:
    return [(r.attacker, r.target, r.hit, r.score, r.against) for r in of(events, AttackResolved)]  # type: ignore[arg-type]


def test_an_attack_in_a_duel_waits_for_the_defensive_turn() -> None:
    f = duel()
    events = f.post("alice", "attack target=bob", "attack target=bob")
    assert not of(events, DiceRolled)
    assert all(a.params.get("defensive_turn") is True for a in f.declarations(events)[0].actions)


def test_a_dodge_higher_than_the_attack_roll_takes_no_damage() -> None:
    f = duel()
    f.post("alice", "attack target=bob")
    events = f.respond("bob", "dodge", faces=[14, 15])  # attack 15, dodge 15 + 2 = 17
    rolls = of(events, DiceRolled)
    assert [(r.purpose, r.total) for r in rolls] == [("attack", 15), ("dodge", 17)]
    assert [m.source for m in rolls[1].modifiers] == ["Dexterity", "level"]
    assert outcomes(events) == [("alice", "bob", False, 15, 17)]
    assert f.hp("bob") == 100


def test_a_dodge_lower_than_the_attack_roll_and_a_hit_on_evasion_take_full_damage() -> None:
    f = duel()
    f.post("alice", "attack target=bob")
    events = f.respond("bob", "dodge", faces=[14, 10])  # 15 against a dodge of 12 and Evasion 12
    assert outcomes(events) == [("alice", "bob", True, 15, 12)]
    assert f.hp("bob") == 60


def test_a_tie_with_the_dodge_goes_to_the_attacker_by_default() -> None:
    f = duel()
    f.post("alice", "attack target=bob")
    assert outcomes(f.respond("bob", "dodge", faces=[14, 13])) == [("alice", "bob", True, 15, 15)]
    g = duel(options={"defence_tie": "defender"})
    g.post("alice", "attack target=bob")
    assert outcomes(g.respond("bob", "dodge", faces=[14, 13])) == [("alice", "bob", False, 15, 16)]


def test_a_fumbled_dodge_loses_the_movement_of_the_next_turn() -> None:
    f = duel()
    f.post("alice", "attack target=bob")
    f.respond("bob", "dodge", faces=[14, 1])
    assert f.hp("bob") == 60 and "lost_move" in f.effects("bob")
    f.end_turn()
    assert f.current == "bob"
    assert "no movement this turn" in f.refused("bob", "move target=alice range=close").message
    f.post("bob", "attack target=alice", "attack target=alice")  # the actions remain
    f.respond("alice", "take", "take", faces=[5, 5])
    f.end_turn()
    assert "lost_move" not in f.effects("bob")


def test_the_defender_may_dodge_one_attack_and_counter_the_second() -> None:
    f = duel()
    f.post("alice", "attack target=bob", "attack target=bob")
    events = f.respond("bob", "dodge", "counter", faces=[11, 18, 12, 13])
    # attack 1: 12 against a dodge of 20: dodged; attack 2: 13 against Evasion 11 (12 - 1 for countering): a hit
    # the counter: 14 against Alice's 12: a hit, though Bob is hit too
    assert outcomes(events) == [("alice", "bob", False, 12, 20), ("alice", "bob", True, 13, 11),
                                ("bob", "alice", True, 14, 12)]
    assert (f.hp("alice"), f.hp("bob")) == (60, 60)


def test_countering_lowers_evasion_by_1_for_the_defensive_turn() -> None:
    f = duel()
    f.post("alice", "attack target=bob", "attack target=bob")
    events = f.respond("bob", "take", "counter", faces=[10, 10, 3])
    assert outcomes(events)[:2] == [("alice", "bob", True, 11, 11), ("alice", "bob", True, 11, 11)]
    g = duel(options={"counter_penalty_scope": "attack"})
    g.post("alice", "attack target=bob", "attack target=bob")
    events = g.respond("bob", "take", "counter", faces=[10, 10, 3])
    assert outcomes(events)[:2] == [("alice", "bob", False, 11, 12), ("alice", "bob", True, 11, 11)]


def test_a_fumbled_counter_gives_the_attacker_50_percent_more_damage() -> None:
    f = duel()
    f.post("alice", "attack target=bob")
    events = f.respond("bob", "counter", faces=[14, 1])
    assert [(d.target, d.taken) for d in of(events, DamageApplied)] == [("bob", 60)]
    assert outcomes(events) == [("alice", "bob", True, 15, 11), ("bob", "alice", False, 2, 12)]


def test_a_counter_needs_the_attacker_within_the_defenders_range() -> None:
    f = duel(2, a={"weapons": [PISTOL, SWORD]}, b={"weapons": [SWORD]})
    f.post("alice", "attack target=bob weapon=Pistol", "move target=bob range=medium-close")
    f.respond("bob", "counter", faces=[5, 15])  # the attack was made at close range
    g = duel(10, b={"weapons": [SWORD]})
    g.post("alice", "attack target=bob")
    assert "reaches touch, close" in g.refused("bob", "counter", responds_to=g.last_post()).message


def test_a_parry_stops_a_melee_attack_and_the_attacker_cannot_counter_next() -> None:
    f = duel(1, a={"weapons": [SWORD]}, b={"weapons": [SWORD]})
    f.post("alice", "attack target=bob")
    events = f.respond("bob", "parry", faces=[10, 12])  # 11 against a parry of 14
    assert outcomes(events) == [("alice", "bob", False, 11, 14)]
    assert "no_counter" in f.effects("alice")
    f.end_turn()
    f.post("bob", "attack target=alice")
    assert "parried" in f.refused("alice", "counter", responds_to=f.last_post()).message
    f.respond("alice", "dodge", faces=[10, 5])
    assert "no_counter" not in f.effects("alice")


def test_a_parry_needs_melee_on_both_sides_at_close_range() -> None:
    f = duel(10)
    f.post("alice", "attack target=bob")
    assert "needs a melee attack" in f.refused("bob", "parry", responds_to=f.last_post()).message
    g = duel(1, a={"weapons": [SWORD]}, b={"weapons": [PISTOL]})
    g.post("alice", "attack target=bob")
    assert "melee weapon at hand" in g.refused("bob", "parry weapon=Pistol", responds_to=g.last_post()).message
    g.respond("bob", "parry", faces=[10, 12])  # bare hands


def test_a_fumbled_parry_costs_1_on_the_next_attack_roll() -> None:
    f = duel(1, a={"weapons": [SWORD]}, b={"weapons": [SWORD]})
    f.post("alice", "attack target=bob")
    f.respond("bob", "parry", faces=[10, 1])
    assert f.effect("bob", "parry_fumble").params == {"penalty": 1}
    f.end_turn()
    f.post("bob", "attack target=alice")
    events = f.respond("alice", "take", faces=[10])
    (roll,) = of(events, DiceRolled)
    assert [(m.value, m.source) for m in roll.modifiers] == [(1, "Strength"), (-1, "fumbled parry")]
    assert "parry_fumble" not in f.effects("bob")


def test_attacks_nobody_answered_are_rolled_when_the_turn_ends() -> None:
    f = duel()
    f.post("alice", "attack target=bob")
    events = f.end_turn(faces=[14])
    assert outcomes(events) == [("alice", "bob", True, 15, 12)]
    assert f.current == "bob"


def test_the_policy_dodges_each_attack_with_one_action_object_given_twice() -> None:
    """A sim's policy answers two attacks with ``(Action(type="dodge"),) * 2``: one object
    twice, each answering its own attack (they were both numbered attack 2 and refused)."""
    f = duel()
    f.post("alice", "attack target=bob", "attack target=bob")
    dodge, _take = reply(f.scribe.state, "bob")
    assert dodge.actions[0] is dodge.actions[1]
    events = f.play(dodge, faces=[14, 3, 10, 3])
    (answer,) = f.declarations(events)
    assert [a.params.get("attack") for a in answer.actions] == [1, 2]
    assert [r.purpose for r in of(events, DiceRolled)] == ["attack", "dodge", "attack", "dodge"]


def test_the_attacks_of_one_a_counter_took_out_lapse_and_wait_for_no_answer() -> None:
    """Counterattack: Bob's counter to Alice's first post took her to 0 HP; her second post's
    attack was still offered as waiting (``play post``'s ``waiting:`` line), an answer to it
    was recorded and nothing followed, and the turn's end dropped it without a word (a new
    user). It lapses: not waiting, an answer refused, nothing rolled."""
    f = duel(a={"hp": 30})
    f.post("alice", "attack target=bob")
    first = f.last_post()
    f.post("alice", "attack target=bob")
    second = f.last_post()
    assert TABLE.awaiting(f.scribe.state) == [(first, "bob"), (second, "bob")]
    f.respond("bob", "counter", to=first, faces=[14, 15, 10])
    assert "mortally_wounded" in f.statuses("alice")
    assert TABLE.awaiting(f.scribe.state) == []
    refused = f.refused("bob", "dodge", responds_to=second)
    assert refused.code == "order.out-of-turn" and refused.message == (
        f"responds_to {second}: nothing to answer: alice is out of the fight (mortally_wounded): their attacks of "
        f"seq {second} lapse")
    assert not of(f.end_turn(), DiceRolled)


def test_one_response_per_attack_and_only_to_the_attack_post() -> None:
    f = duel()
    f.post("alice", "attack target=bob")
    post = f.last_post()
    assert "one response per attack" in f.refused("bob", "dodge attack=1", "counter attack=1", responds_to=post).message
    assert "no attack 2" in f.refused("bob", "dodge", "dodge", responds_to=post).message
    assert f.refused("bob", "dodge", responds_to=999).code == "order.out-of-turn"
    f.respond("bob", "dodge", faces=[10, 10])
    assert f.refused("bob", "dodge", responds_to=post).code == "order.double-post"
    g = duel(options={"one_defence_per_attack": False})
    g.post("alice", "attack target=bob")
    events = g.respond("bob", "dodge attack=1", "counter attack=1", faces=[14, 18, 10])
    assert [r.purpose for r in of(events, DiceRolled)] == ["attack", "dodge", "counter"]


def test_defensive_turns_are_for_duels() -> None:
    f = Fight().join("alice", (0, 0)).join("bob", (10, 0))
    f.begin([20, 1])
    events = f.post("alice", "attack target=bob", faces=[14])
    assert outcomes(events) == [("alice", "bob", True, 15, 12)]
    g = Fight({"quest_defensive_turns": True}).join("alice", (0, 0)).join("bob", (10, 0))
    g.begin([20, 1])
    assert not of(g.post("alice", "attack target=bob"), DiceRolled)


def test_one_mortally_wounded_by_an_attack_does_not_answer_the_next_attack_of_the_post() -> None:
    """The mortally wounded take no actions (Mortally Wounded): Bob's counter to the second
    attack was still rolled after the first attack had mortally wounded him, with the new
    injury's penalty on it, and landed. A counter to the attack that wounds him still lands
    (it is rolled before that attack lands)."""
    f = duel(b={"hp": 40})
    f.post("alice", "attack target=bob", "attack target=bob")
    events = f.respond("bob", "take", "counter", faces=[15, 20, 5])  # attack 1 hits, the injury roll, attack 2
    assert outcomes(events) == [("alice", "bob", True, 16, 11), ("alice", "bob", False, 6, 11)]
    second = of(events, AttackResolved)[1]
    assert "Bob cannot answer it (mortally_wounded)" in second.notes
    assert not [r for r in of(events, DiceRolled) if r.purpose == "counter"]
    g = duel(b={"hp": 40})
    g.post("alice", "attack target=bob")
    events = g.respond("bob", "counter", faces=[15, 14, 20])  # the counter, rolled first, lands after the wound
    assert outcomes(events) == [("alice", "bob", True, 16, 11), ("bob", "alice", True, 15, 12)]


@pytest.mark.parametrize(("answer", "faces"), [(("counter attack=1", "parry attack=1"), [10, 10, 1]),
                                               (("parry attack=1", "counter attack=1"), [10, 1, 10])])
def test_a_parry_fumbled_beside_a_counter_audits_clean(answer: tuple[str, str], faces: list[int]) -> None:
    """One answer parrying (a natural 1) and countering one attack (``one_defence_per_attack``
    off): the audit charged the penalty to the counter rolled before the parry, and owed the
    fumble's effect a counter after it had spent (a review): an engine fight is clean."""
    from fightlog.audit.one_process import audit_events

    f = duel(1, a={"weapons": [SWORD]}, b={"weapons": [SWORD]}, options={"one_defence_per_attack": False})
    f.post("alice", "attack target=bob")
    f.respond("bob", *answer, faces=faces)
    f.end_turn()
    f.post("bob", "attack target=alice")
    f.respond("alice", "take", faces=[10])
    found = [x for x in audit_events(f.scribe.events).findings if x.code.startswith("rules.")]
    assert found == []


def test_a_counter_rolled_before_the_attack_that_injures_its_roller_audits_clean() -> None:
    """Counterattack: rolled before the attack it answers lands. That attack mortally wounded
    Bob (a muscle tear, -3): the audit charged the tear to his counter's roll (a property test,
    seed of a random engine fight)."""
    from fightlog.audit.one_process import audit_events

    f = duel(b={"hp": 30})
    f.post("alice", "attack target=bob")
    f.respond("bob", "counter", faces=[14, 15, 14])  # the hit, the counter, the injury: a muscle tear
    assert "mortally_wounded" in f.statuses("bob")
    assert [x.code for x in audit_events(f.scribe.events).findings if x.code.startswith("rules.")] == []
