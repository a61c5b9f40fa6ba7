"""Turns through the table: initiative (party, individual, ambush, first strike), a move and
two actions, sprinting, items, spells (MP, cooldowns, long casts), minions, holding a turn
and interrupting, disarming and getting the weapon back, range bands."""

from __future__ import annotations

import pytest

from fightlog.errors import RefusedError
from fightlog.events.model import (
    AttackResolved,
    DiceRolled,
    HealingApplied,
    InitiativeRolled,
    InitiativeSet,
    Moved,
    ResourceSpent,
    StatusChanged,
    TurnStarted,
)
from tests.rules.d20evasion.rigged import PISTOL, SWORD, Fight, of

# --------------------------------------------------------------------------- initiative


def party(options: dict[str, object] | None = None, **extra: dict[str, object]) -> Fight:
    f = Fight(options)
    f.join("ann", (0, 0), side="party", **extra.get("ann", {}))
    f.join("ben", (0, 0), side="party", stats={"dexterity": 30}, **extra.get("ben", {}))
    f.join("orc", (20, 0), side="horde", **extra.get("orc", {}))
    f.join("gob", (20, 0), side="horde", stats={"dexterity": 40}, **extra.get("gob", {}))
    return f


def test_the_party_rolls_once_on_its_best_bonus_and_posts_by_bonus() -> None:
    f = party()
    events = f.begin([10, 9])
    assert [(r.roller, r.total) for r in of(events, DiceRolled)] == [("ben", 13), ("gob", 13)]
    # a tie of totals: the higher bonus (the horde's +4) goes first
    assert of(events, InitiativeSet)[0].order == ["gob", "orc", "ben", "ann"]
    assert f.current == "gob"


def test_a_tie_may_be_rerolled() -> None:
    f = party({"initiative_tie": "reroll"})
    events = f.begin([10, 9, 3, 7])
    assert of(events, InitiativeSet)[0].order == ["gob", "orc", "ben", "ann"]
    assert [r.label for r in of(events, DiceRolled)] == [None, None, "tie reroll", "tie reroll"]
    assert of(events, InitiativeRolled)[-1].tiebreak == [7]


def test_individual_initiative_at_the_gms_discretion() -> None:
    f = party({"initiative": "individual"})
    events = f.begin([5, 10, 10, 2])  # ann 6, ben 13, orc 11, gob 6
    assert of(events, InitiativeSet)[0].order == ["ben", "orc", "ann", "gob"]
    assert all(not r.group for r in of(events, InitiativeRolled))


def test_ambushers_win_initiative_without_a_roll() -> None:
    f = party({"ambush": "party"})
    events = f.begin()
    assert not of(events, DiceRolled)
    assert of(events, InitiativeSet)[0].order == ["ben", "ann", "gob", "orc"]
    assert of(events, InitiativeSet)[0].reason == "ambush"


def test_an_ambush_by_a_side_nobody_is_on_is_refused() -> None:
    """`ambush = "nobody"` did nothing, silently (Traveller refuses it)."""
    f = party({"ambush": "nobody"})
    with pytest.raises(RefusedError, match="option ambush = 'nobody': nobody in the fight is on that side"):
        f.begin()


def test_a_first_strike_skill_wins_initiative_for_the_party() -> None:
    f = party(ann={"first_strike": True})
    events = f.begin()
    assert of(events, InitiativeSet)[0].order == ["ben", "ann", "gob", "orc"]
    assert of(events, InitiativeSet)[0].reason == "first strike"


def test_first_strike_on_both_sides_rolls_as_normal() -> None:
    f = Fight({"mode": "duel"}).join("ann", (0, 0), first_strike=True).join("orc", (5, 0), first_strike=True)
    events = f.begin([3, 12])
    assert of(events, InitiativeSet)[0].order == ["orc", "ann"]
    assert of(events, InitiativeSet)[0].reason == "initiative"


# --------------------------------------------------------------------------- the turn


def two(options: dict[str, object] | None = None, **alice: object) -> Fight:
    f = Fight(options).join("alice", (0, 0), **alice).join("bob", (30, 0))
    f.begin([20, 1])
    return f


def test_a_move_and_two_actions_in_either_order_split_as_wanted() -> None:
    f = two()  # 2 points
    f.post("alice", "attack target=bob", faces=[15])
    f.post("alice", "move target=bob range=medium-close", "attack target=bob", faces=[15])
    assert f.refused("alice", "attack target=bob").code == "rules.allowance"
    f.end_turn()
    assert f.current == "bob"


def test_movement_can_be_split_around_an_attack() -> None:
    f = Fight().join("alice", (0, 0), stats={"dexterity": 20}).join("bob", (10, 0))
    f.begin([20, 1])
    events = f.post("alice", "move target=bob range=close", "attack target=bob", "move target=bob range=medium-close",
                    faces=[15])
    assert [(m.band, m.points) for m in of(events, Moved)] == [("close", 1), ("medium-close", 1)]
    assert of(events, AttackResolved)[0].hit


def test_a_move_within_a_band_costs_1_point() -> None:
    f = two()
    (moved,) = of(f.post("alice", "move lateral=true"), Moved)
    assert moved.points == 1 and (moved.x, moved.y) == (0, 0)


def test_sprinting_with_one_action_doubles_and_with_both_triples_the_movement() -> None:
    f = Fight().join("alice", (0, 0), stats={"dexterity": 20}).join("bob", (40, 0)).started([20, 1])
    assert f.refused("alice", "move target=bob range=close").message == \
        "alice would spend 3 movement points this turn; alice has 2 a turn"  # 2 + 1
    f.post("alice", "sprint", "move target=bob range=close", "attack target=bob", faces=[15])  # 2 x 2
    g = Fight().join("alice", (0, 0), stats={"dexterity": 30}).join("bob", (120, 0)).started([20, 1])
    assert g.refused("alice", "sprint", "move target=bob range=far").code == "rules.allowance"  # 8 for 3 x 2
    (moved,) = of(g.post("alice", "sprint", "sprint", "move target=bob range=far"), Moved)  # 8 for 3 x 3
    assert moved.points == 8 and g.refused("alice", "skill name=tracking").code == "rules.allowance"
    h = Fight().join("alice", (0, 0), stats={"dexterity": 20}).join("bob", (40, 0)).started([20, 1])
    h.post("alice", "move lateral=true")
    assert h.refused("alice", "move lateral=true", "move lateral=true").message == \
        "alice would spend 3 movement points this turn (1 spent already); alice has 2 a turn"


def test_using_an_item_costs_two_actions() -> None:
    f = two(items=[{"name": "Potion", "heal": 20, "count": 1}])
    f.post("alice", "use_item item=Potion")
    assert of(f.scribe.events, HealingApplied)[-1].amount == 0  # at full HP
    assert f.refused("alice", "attack target=bob").code == "rules.allowance"
    f.end_turn()
    f.end_turn()
    assert "no Potion left" in f.refused("alice", "use_item item=Potion").message


def test_an_item_may_cost_one_action_by_option() -> None:
    f = two({"item_use_actions": 1}, items=[{"name": "Potion", "heal": 20, "count": 2}])
    f.post("alice", "use_item item=Potion", "use_item item=Potion")


# --------------------------------------------------------------------------- spells

BOLT = {"name": "Bolt", "mp": 10, "damage": 25, "ranges": ["close", "medium-close", "medium"], "cooldown": 1}
NOVA = {"name": "Nova", "mp": 20, "damage": 50, "ranges": ["medium"], "long": True}


def caster(mp: int = 30) -> Fight:
    f = Fight().join("mage", (0, 0), mp=mp, spells=[BOLT, NOVA], class_bonuses={"magic": 2})
    f.join("bob", (30, 0)).begin([20, 1])
    return f


def test_a_spell_costs_mp_whether_it_hits_or_not() -> None:
    f = caster()
    events = f.post("mage", "cast spell=Bolt target=bob", faces=[2])
    (spent,) = of(events, ResourceSpent)
    assert (spent.resource, spent.amount) == ("mp", 10)
    (roll,) = of(events, DiceRolled)
    assert [(m.value, m.source) for m in roll.modifiers] == [(1, "Willpower"), (2, "class")]
    assert not of(events, AttackResolved)[0].hit
    assert f.pool("mage", "mp") == 20


def test_a_spell_hits_for_willpower_base_plus_its_damage() -> None:
    f = caster()
    f.post("mage", "cast spell=Bolt target=bob", faces=[12])
    assert f.hp("bob") == 55  # 20 + 25


def test_a_cooldown_of_one_round_waits_a_full_round() -> None:
    f = caster(60)
    f.post("mage", "cast spell=Bolt target=bob", faces=[12])
    assert "cooling down" in f.refused("mage", "cast spell=Bolt target=bob").message
    f.end_turn()
    f.end_turn()  # round 2
    assert "cooling down" in f.refused("mage", "cast spell=Bolt target=bob").message
    f.end_turn()
    f.end_turn()  # round 3
    f.post("mage", "cast spell=Bolt target=bob", faces=[12])


def test_a_long_cast_uses_both_actions() -> None:
    f = caster()
    events = f.post("mage", "cast spell=Nova target=bob", faces=[12])
    assert f.declarations(events)[0].actions[0].cost == "both"
    assert f.refused("mage", "attack target=bob").code == "rules.allowance"


def test_too_little_mp_is_refused() -> None:
    f = caster(15)
    f.post("mage", "cast spell=Bolt target=bob", faces=[12])
    assert "has 5 MP" in f.refused("mage", "cast spell=Nova target=bob").message


# --------------------------------------------------------------------------- minions

SUMMON = {"name": "Summon Wolf", "mp": 10, "target": "self", "summons": "wolf"}


def test_a_minion_acts_after_its_summoner_from_the_turn_after_summoning() -> None:
    f = Fight().join("shaman", (0, 0), side="p", mp=10, spells=[SUMMON]).join("orc", (10, 0), side="h")
    f.join("wolf", (0, 0), side="p", owner="shaman", reserve=True, weapons=[SWORD])
    f.begin([20, 1])
    assert f.state.turn.order == ("shaman", "orc")
    f.post("shaman", "cast spell=Summon Wolf".replace("Summon Wolf", "'Summon Wolf'"))
    assert "summoned" in f.statuses("wolf")
    f.end_turn()
    assert f.current == "orc"
    events = f.end_turn()  # round 2
    assert of(events, InitiativeSet)[0].order == ["shaman", "wolf", "orc"]
    assert [t.actor for t in of(events, TurnStarted)] == ["shaman"]
    assert [t.actor for t in of(f.end_turn(), TurnStarted)] == ["wolf"]


# --------------------------------------------------------------------------- holding


def holders() -> Fight:
    f = Fight().join("ann", (0, 0), side="p").join("orc", (30, 0), side="h", stats={"dexterity": 20})
    f.begin([20, 1])
    return f


def test_a_held_turn_interrupts_an_enemy_after_the_move_before_the_attack() -> None:
    f = holders()
    f.post("ann", "hold")
    assert "holding" in f.statuses("ann")
    f.end_turn()
    moved = f.post("orc", "move target=ann range=medium-close")
    events = f.post("ann", "attack target=orc", "attack target=orc", faces=[15, 15], responds_to=moved[0].seq)
    assert f.declarations(events)[0].responds_to == moved[0].seq
    assert "holding" not in f.statuses("ann") and f.hp("orc") == 20
    f.post("orc", "attack target=ann", faces=[2])


def test_a_held_turn_cannot_interrupt_after_the_enemy_attacked() -> None:
    f = holders()
    f.post("ann", "hold")
    f.end_turn()
    attacked = f.post("orc", "move target=ann range=medium-close", "attack target=ann", faces=[2])
    assert f.refused("ann", "attack target=orc", responds_to=attacked[0].seq).code == "order.out-of-turn"


def test_a_held_turn_not_taken_by_the_round_end_is_lost() -> None:
    f = holders()
    f.post("ann", "hold")
    f.end_turn()
    events = f.end_turn()
    assert [(s.actor, s.status, s.on) for s in of(events, StatusChanged)] == [("ann", "holding", False)]
    assert f.current == "ann"


def test_only_a_holder_posts_outside_their_turn() -> None:
    f = holders()
    assert f.refused("orc", "attack target=ann").code == "order.out-of-turn"


# --------------------------------------------------------------------------- disarming


def disarmed() -> Fight:
    f = Fight().join("frank", (0, 0)).join("joe", (2, 0), weapons=[SWORD, PISTOL]).started([20, 1])
    f.post("frank", "disarm target=joe", faces=[15])
    assert f.effect("joe", "disarmed").params["weapon"] == "Sword"
    f.end_turn()
    return f


def test_a_disarmed_combatant_picks_up_their_weapon_with_an_action() -> None:
    f = disarmed()
    assert "disarmed" in f.refused("joe", "attack target=frank weapon=Sword").message
    wrong = f.refused("joe", "pick_up weapon=Pistol")  # what is on the ground is the Sword
    assert wrong.code == "rules.target" and "what is on the ground is joe's Sword, not Pistol" in wrong.message
    f.post("joe", "pick_up weapon=sword", "attack target=frank weapon=Sword", faces=[2])
    assert "disarmed" not in f.effects("joe")


def test_or_draws_another() -> None:
    f = disarmed()
    assert "on the ground" in f.refused("joe", "draw weapon=Sword").message
    f.post("joe", "draw weapon=Pistol", "attack target=frank weapon=Pistol", faces=[2])
    assert "disarmed" not in f.effects("joe")


def test_bare_hands_need_no_drawing() -> None:
    f = disarmed()
    f.post("joe", "move target=frank range=touch", "attack target=frank weapon=unarmed", faces=[20])
    assert f.hp("frank") == 80  # Strength 20: 20 damage


def test_a_weapon_thrown_away_is_picked_up_after_moving_to_it() -> None:
    f = Fight().join("frank", (0, 0), speed_ft=25).join("joe", (2, 0), weapons=[SWORD]).started([20, 1])
    f.post("frank", "disarm target=joe", faces=[20])
    f.end_turn()
    assert "move to it first" in f.refused("joe", "pick_up").message
    f.post("joe", "move lateral=true", "pick_up")


def test_a_disarm_needs_melee_range() -> None:
    f = Fight().join("frank", (0, 0)).join("joe", (10, 0)).started([20, 1])
    assert "melee range" in f.refused("frank", "disarm target=joe").message


def test_drawing_with_load_bearing_equipment_is_free() -> None:
    f = Fight().join("alice", (0, 0), lbe=1, weapons=[PISTOL, SWORD, {**SWORD, "name": "Axe"}]).join("bob", (10, 0))
    f.begin([20, 1])
    events = f.post("alice", "draw weapon=Axe", "attack target=bob weapon=Pistol", "attack target=bob weapon=Pistol", faces=[2, 2])
    assert f.declarations(events)[0].actions[0].cost == "free"


# --------------------------------------------------------------------------- range


def test_an_attack_needs_the_target_within_the_weapons_ranges() -> None:
    f = Fight().join("alice", (0, 0), weapons=[SWORD]).join("bob", (10, 0)).started([20, 1])
    assert "bob is at medium-close range: Sword reaches touch, close" in f.refused("alice", "attack target=bob").message


def test_without_positions_the_attack_states_its_band() -> None:
    f = Fight().join("alice", None).join("bob", None).started([20, 1])
    assert "give the band" in f.refused("alice", "attack target=bob").message
    events = f.post("alice", "attack target=bob range=medium", faces=[15])
    assert of(events, AttackResolved)[0].hit


def test_a_healing_spell_on_an_ally_in_range() -> None:
    mend = {"name": "Mend", "mp": 5, "target": "ally", "heal": 25, "ranges": ["touch", "close"]}
    f = Fight().join("medic", (0, 0), side="a", mp=10, spells=[mend]).join("ann", (3, 0), side="a", hp=100)
    f.join("orc", (10, 0), side="b", weapons=[{**PISTOL, "damage": 40}]).started([20, 1])
    f.end_turn()
    f.end_turn()
    f.post("orc", "attack target=ann", faces=[15])  # 60
    f.end_turn()
    f.post("medic", "cast spell=Mend target=ann")
    assert f.hp("ann") == 65
    assert "orc is at medium-close range" in f.refused("medic", "cast spell=Mend target=orc").message


def test_assisting_takes_the_turn() -> None:
    f = Fight().join("ann", (0, 0), side="a").join("ben", (2, 0), side="a").join("orc", (10, 0), side="b")
    f.begin([20, 1])
    f.post("ann", "assist target=ben")
    assert f.refused("ann", "attack target=orc").code == "rules.allowance"


def test_a_skill_whose_cost_params_do_not_read_is_refused() -> None:
    """`skill full=yes` was charged as one action (only true counted), `actions=3` too (a
    fuzzer): the gunman then attacked in the same turn."""
    f = Fight().join("alice", (0, 0)).join("bob", (10, 0))
    f.begin([20, 1])
    assert f.refused("alice", "skill full=yes").message == "full=yes: write full=true (the whole turn) or leave it out"
    for written in ("actions=3", "actions=-1", "actions=bob", "actions=true"):
        assert f.refused("alice", f"skill {written}").message == f"{written}: a skill takes actions=1 or actions=2"
    f.post("alice", "skill actions=2")
