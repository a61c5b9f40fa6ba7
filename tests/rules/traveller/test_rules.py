"""The Traveller combat sheet's rules, each on a rigged fight (``rigged``), and its worked
cases exact: the characteristic DM table, aim capped at DM+6, every range band, every cover
value, the reaction DM-1 carried over, Effect-based damage."""

from __future__ import annotations

import pytest

from fightlog.events.model import (AttackResolved, DamageApplied, DeclarationPosted, EffectExpired, HealingApplied,
                                   InitiativeSet, StatusChanged)
from fightlog.kit.actions import parse_actions
from fightlog.kit.table import Post
from fightlog.rules.traveller.checks import BANDS, COVER, band, characteristic_dm
from fightlog.rules.traveller.options import DEFAULTS
from tests.rules.traveller.rigged import Fight, duel, mods, of, rolls


@pytest.mark.parametrize(("value", "dm"), [(0, -3), (1, -2), (2, -2), (3, -1), (5, -1), (6, 0), (8, 0), (9, 1),
                                           (11, 1), (12, 2), (14, 2), (15, 3), (20, 3)])
def test_the_characteristic_dm_table(value: int, dm: int) -> None:
    assert characteristic_dm(value) == dm


# --------------------------------------------------------------------------- range bands


@pytest.mark.parametrize(("metres", "expected"), [(1, "short"), (24, "short"), (25, "normal"), (99, "normal"),
                                                  (100, "long"), (199, "long"), (200, "extreme"), (399, "extreme"),
                                                  (400, None)])
def test_every_range_band_of_a_100_m_weapon(metres: int, expected: str | None) -> None:
    assert band(metres, 100, True, DEFAULTS) == expected


def test_the_band_dms() -> None:
    assert BANDS == {"short": 1, "normal": 0, "long": -2, "extreme": -4}


def test_an_unscoped_weapon_beyond_100_m_is_at_extreme_range() -> None:
    assert band(120, 600, False, DEFAULTS) == "extreme"
    assert band(120, 600, True, DEFAULTS) == "short"


@pytest.mark.parametrize(("metres", "dm"), [(10, 1), (50, 0), (150, -2), (300, -4)])
def test_the_band_dm_is_on_the_attack_roll(metres: int, dm: int) -> None:
    fight = duel(a={"weapons": [{"name": "Rifle", "kind": "ranged", "damage": "3D", "range_m": 100, "scoped": True}]},
                 distance=metres)
    fight.post("alice", "attack target=bob")
    roll = rolls(fight.end_turn(faces=[1, 1]), "attack")[0]
    assert mods(roll) == {"gun_combat 1": 1, **({} if dm == 0 else {
        {1: "short range", -2: "long range", -4: "extreme range"}[dm]: dm})}


def test_an_attack_beyond_four_times_the_range_is_refused() -> None:
    fight = duel(distance=400)
    refused = fight.refused("alice", "attack target=bob")
    assert refused.code == "rules.range"
    assert "four times" in refused.message


# --------------------------------------------------------------------------- aiming


def test_aiming_adds_dm_1_a_turn_up_to_dm_6() -> None:
    fight = duel()
    for _ in range(7):
        fight.post("alice", "aim", "aim")  # two minor actions: the significant one traded
        fight.end_turn()
        fight.post("bob", "say")
        fight.end_turn()
    assert fight.effects("alice", "aim")[0].magnitude == 6
    fight.post("alice", "attack target=bob")
    roll = rolls(fight.end_turn(faces=[1, 1, 1, 1, 1]), "attack")[0]  # 2 + 1 + 6: a hit
    assert mods(roll)["aim"] == 6
    assert fight.effects("alice", "aim") == []  # used


def test_aiming_while_doing_something_else_is_refused() -> None:
    fight = duel()
    assert fight.refused("alice", "aim", "move x=3 y=0").code == "rules.aim"
    fight.post("alice", "move x=3 y=0")
    assert fight.refused("alice", "aim").code == "rules.aim"


def test_an_aim_is_lost_by_doing_anything_else_the_next_turn() -> None:
    fight = duel()
    fight.post("alice", "aim")
    fight.end_turn()
    fight.post("bob", "say")
    fight.end_turn()
    fight.post("alice", "move x=2 y=0")
    assert fight.effects("alice", "aim") == []


# --------------------------------------------------------------------------- cover


@pytest.mark.parametrize(("kind", "armour"), list(COVER.items()))
def test_every_cover_value_is_armour_and_dm_2_to_shoot_into(kind: str, armour: int) -> None:
    assert {"vegetation": 2, "tree_trunk": 6, "stone_wall": 8, "civilian_vehicle": 10, "armoured_vehicle": 15,
            "fortifications": 20}[kind] == armour
    fight = duel(b={"characteristics": {"END": 15, "STR": 15, "DEX": 15}})
    fight.post("alice", "say")
    fight.end_turn()
    fight.post("bob", f"cover behind={kind}")
    fight.end_turn()
    fight.post("alice", "attack target=bob")
    events = fight.end_turn(faces=[6, 6, 6, 6, 6])  # 12 + 1 - 2 = 11: Effect 3; damage 18 + 3
    roll = rolls(events, "attack")[0]
    assert mods(roll) == {"gun_combat 1": 1, "shooting into cover": -2}
    damage = of(events, DamageApplied)[0]
    assert (damage.raw, damage.reduced_by, damage.taken) == (21, armour, min(21 - armour, 15))


# --------------------------------------------------------------------------- reactions


def test_a_reaction_costs_dm_1_on_the_next_set_of_actions_cumulative_then_cleared() -> None:
    fight = duel(b={"skills": {"gun_combat": 1, "athletics": 2}})
    fight.post("alice", "attack target=bob")
    fight.react("bob", "dodge", faces=[1, 1])  # a miss: 2 + 1 - 2
    fight.end_turn()
    fight.post("bob", "attack target=alice")
    fight.react("alice", "take", faces=[1, 1])
    fight.end_turn()
    fight.post("alice", "attack target=bob")
    fight.react("bob", "dodge", faces=[1, 1])
    fight.end_turn()
    # two reactions: one made before bob's last turn (cleared at its end), one after
    assert [e.magnitude for e in fight.effects("bob", "reacted")] == [-1]
    fight.post("bob", "attack target=alice")
    roll = rolls(fight.react("alice", "take", faces=[1, 1]), "attack")[0]
    assert sum(v for s, v in mods(roll).items() if s.startswith("reaction")) == -1
    fight.end_turn()
    assert fight.effects("bob", "reacted") == []


def test_reactions_in_one_round_add_up() -> None:
    fight = Fight()
    fight.join("alice", (0, 0), side="a").join("carl", (0, 5), side="a").join("bob", (30, 0), side="b")
    fight.begin([6, 6, 6, 5, 1, 1])
    assert fight.current == "alice"
    fight.post("alice", "attack target=bob")
    fight.react("bob", "dodge", faces=[1, 1])
    fight.end_turn()
    fight.post("carl", "attack target=bob")
    fight.react("bob", "dodge", faces=[1, 1])
    fight.end_turn()
    assert fight.current == "bob"
    fight.post("bob", "attack target=alice")
    roll = rolls(fight.react("alice", "take", faces=[1, 1]), "attack")[0]
    assert sum(v for s, v in mods(roll).items() if s.startswith("reaction")) == -2


def test_dodge_is_minus_the_better_of_dex_dm_and_athletics() -> None:
    fight = duel(b={"characteristics": {"DEX": 12}, "skills": {"athletics": 1}})
    fight.post("alice", "attack target=bob")
    roll = rolls(fight.react("bob", "dodge", faces=[1, 1]), "attack")[0]
    assert mods(roll)["dodge"] == -2


def test_parry_is_minus_the_melee_skill_against_melee_only() -> None:
    fight = duel(b={"skills": {"melee": 3}}, distance=1)
    fight.post("alice", "draw weapon=Blade", "attack target=bob weapon=Blade")
    roll = rolls(fight.react("bob", "parry", faces=[1, 1]), "attack")[0]
    assert mods(roll)["parry"] == -3
    fight.end_turn()
    fight.post("bob", "attack target=alice")
    assert fight.refused("alice", "parry").code == "rules.reaction"


def test_a_dive_for_cover_dm_2_with_cover_dm_1_without_prone_and_the_next_turn_lost() -> None:
    fight = duel()
    fight.post("alice", "attack target=bob")
    events = fight.react("bob", "dive cover=stone_wall x=30 y=1", faces=[1, 1])
    assert mods(rolls(events, "attack")[0])["dived for cover"] == -2
    assert {"prone", "dived"} <= set(fight.statuses("bob"))
    assert fight.effects("bob", "cover")[0].magnitude == 8
    events = fight.end_turn()
    assert fight.current == "alice"  # bob's turn was lost
    assert [s.note for s in of(events, StatusChanged) if s.status == "dived"] == ["the turn lost to the dive"]
    fight2 = duel()
    fight2.post("alice", "attack target=bob")
    assert mods(rolls(fight2.react("bob", "dive x=30 y=1", faces=[1, 1]), "attack")[0])["dived prone"] == -1


def test_a_dive_from_cover_already_taken_is_dm_2_as_into_cover() -> None:
    """Behind a stone wall, Bob dived without naming cover: DM-1 "dived prone" (a hit where
    a dive for cover missed), while the wall still counted as his armour."""
    fight = duel(b={"skills": {"gun_combat": 1}})
    fight.post("alice", "say")
    fight.end_turn()
    fight.post("bob", "cover behind=stone_wall")
    fight.end_turn()
    fight.post("alice", "attack target=bob")
    found = mods(rolls(fight.react("bob", "dive x=30 y=1", faces=[1, 1]), "attack")[0])
    assert found.get("dived for cover") == -2 and "dived prone" not in found and "shooting into cover" not in found


def test_a_sheet_with_two_characteristics_at_zero_joins_unconscious() -> None:
    """Unconsciousness holds from the start: a sheet with STR and DEX 0 stood, and the audit
    then found them standing with two at zero (the review)."""
    from tests.rules.traveller.rigged import Fight

    fight = Fight()
    fight.join("alice", (0, 0))
    fight.join("bob", (30, 0), characteristics={"STR": 0, "DEX": 0, "END": 5})
    assert "unconscious" in fight.statuses("bob")
    fight.join("cy", (10, 0), characteristics={"STR": 0, "DEX": 0, "END": 0})
    assert "dead" in fight.statuses("cy")


@pytest.mark.parametrize(("on", "carried"), [("next_actions", -1), ("next_turn", None)])
def test_the_dm_1_of_a_dive_waits_out_the_turn_it_loses(on: str, carried: int | None) -> None:
    """Reaction: DM-1 "to next set of actions": a turn lost to the dive is none, so the DM
    is paid in the turn after it (``reaction_dm_on``, or in the lost turn under "next_turn")."""
    fight = duel({"reaction_dm_on": on})
    fight.post("alice", "attack target=bob")
    fight.react("bob", "dive cover=stone_wall x=30 y=1", faces=[1, 1])
    fight.end_turn()  # bob's turn is lost: alice again
    fight.turn("alice", "say")
    assert fight.current == "bob"
    fight.post("bob", "attack target=alice")
    shot = mods(rolls(fight.react("alice", "take", faces=[1, 1]), "attack")[0])
    assert next((v for s, v in shot.items() if s.startswith("reaction at")), None) == carried


@pytest.mark.parametrize(("stacks", "prone"), [(False, None), (True, -1)])
def test_a_prone_target_in_cover_is_dm_2_as_on_the_shot_it_dived_from(stacks: bool, prone: int | None) -> None:
    fight = duel({"prone_in_cover_stacks": stacks})
    fight.post("alice", "attack target=bob")
    fight.react("bob", "dive cover=stone_wall x=30 y=1", faces=[1, 1])
    fight.end_turn()
    fight.post("alice", "attack target=bob")
    shot = mods(rolls(fight.react("bob", "take", faces=[1, 1]), "attack")[0])
    assert "prone" in fight.statuses("bob")
    assert (shot["shooting into cover"], shot.get("target prone")) == (-2, prone)


@pytest.mark.parametrize(("armour", "reduced"), [(True, 8), (False, 0)])
def test_the_cover_dived_into_protects_against_the_shot_dived_from(armour: bool, reduced: int) -> None:
    fight = duel({"dive_cover_armour": armour}, b={"characteristics": {"END": 15, "STR": 15, "DEX": 15}})
    fight.post("alice", "attack target=bob")
    events = fight.react("bob", "dive cover=stone_wall x=30 y=1", faces=[6, 6, 6, 6, 6])  # 12 + 1 - 2 = 11: Effect 3
    damage = of(events, DamageApplied)[0]
    assert (damage.raw, damage.reduced_by) == (21, reduced)
    assert fight.effects("bob", "cover")[0].magnitude == 8  # and the wall stays for the next shots


def test_a_reaction_without_an_incoming_attack_is_refused() -> None:
    fight = duel()
    refused = fight.refused("bob", "dodge")
    assert refused.code == "rules.reaction"


# --------------------------------------------------------------------------- damage


def test_damage_is_the_dice_plus_effect_less_armour_end_first_then_the_higher() -> None:
    fight = duel(b={"armour": 2, "characteristics": {"STR": 6, "DEX": 9, "END": 4}})
    fight.post("alice", "attack target=bob")
    events = fight.end_turn(faces=[6, 5, 4, 4, 4])  # 11 + 1 = 12: Effect 4; damage 12 + 4 = 16, less 2 = 14
    hit = of(events, AttackResolved)[0]
    assert (hit.hit, hit.score, hit.margin) == (True, 12, 4)
    assert mods(rolls(events, "damage")[0]) == {"Effect": 4}
    assert [(d.pool, d.taken) for d in of(events, DamageApplied)] == [("END", 4), ("DEX", 9), ("STR", 1)]
    assert "unconscious" in fight.statuses("bob")


def test_melee_damage_adds_the_str_dm() -> None:
    fight = duel(a={"characteristics": {"STR": 12}}, distance=1)
    fight.post("alice", "draw weapon=Blade", "attack target=bob weapon=Blade")
    events = fight.end_turn(faces=[4, 4, 3])  # 8 + melee 1 + STR 2 = 11: Effect 3; 3 + 2 + 2 + 3
    assert mods(rolls(events, "attack")[0]) == {"melee 1": 1, "STR DM": 2}
    assert rolls(events, "damage")[0].total == 10


def test_all_three_at_zero_is_death() -> None:
    fight = duel(b={"characteristics": {"STR": 1, "DEX": 1, "END": 1}})
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 6, 6, 6])
    assert "dead" in fight.statuses("bob")


def test_unconscious_when_dead_at_three_zero_is_off() -> None:
    fight = duel({"dead_at_three_zero": False}, b={"characteristics": {"STR": 1, "DEX": 1, "END": 1}})
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 6, 6, 6])
    assert "unconscious" in fight.statuses("bob") and "dead" not in fight.statuses("bob")


# --------------------------------------------------------------------------- initiative


def test_initiative_is_the_effect_of_2d_plus_the_better_of_dex_and_int() -> None:
    fight = Fight()
    fight.join("alice", characteristics={"DEX": 9, "INT": 12}).join("bob", (5, 0))
    events = fight.begin([4, 4, 5, 5])
    assert fight.state.turn.initiative == {"alice": (2, 9), "bob": (2, 7)}  # 8 + 2 - 8; 10 - 8
    assert of(events, InitiativeSet)[0].order == ["alice", "bob"]  # tied: the higher DEX


def test_an_ambush_is_dm_6_and_dm_minus_6_in_the_first_round_only_and_no_tactics_for_the_ambushed() -> None:
    fight = Fight({"ambush": "b"})
    fight.join("alice", side="a", skills={"tactics": 2}).join("bob", (5, 0), side="b")
    fight.begin([6, 6, 1, 2])  # alice 12 (Effect 4), bob 3 (-5): ambush: 4 - 6 < -5 + 6
    assert fight.state.turn.order == ("bob", "alice")
    fight.post("bob", "say")
    fight.end_turn()
    fight.post("alice", "say")
    fight.end_turn()
    assert fight.state.turn.order == ("alice", "bob")
    assert fight.current == "alice"


def test_tactics_adds_its_effect_to_the_whole_side() -> None:
    fight = Fight()
    fight.join("alice", side="a", skills={"tactics": 2}).join("carl", (0, 3), side="a").join("bob", (5, 0), side="b")
    fight.begin([5, 5, 3, 3, 3, 3, 3, 3])  # tactics 10 + 2: Effect 4
    assert fight.state.turn.initiative["carl"][0] == 6 - 8 + 4


# --------------------------------------------------------------------------- actions of a turn


def test_a_significant_action_may_be_traded_for_a_minor_one_but_no_more() -> None:
    fight = duel()
    assert fight.refused("alice", "move x=3 y=0", "move x=3 y=0", "move x=3 y=0").code == "rules.allowance"
    assert fight.refused("alice", "move x=3 y=0", "stance to=crouch", "attack target=bob").code == "rules.allowance"
    fight.post("alice", "move x=6 y=0", "stance to=prone")


def test_movement_is_6_m_half_in_difficult_terrain_a_quarter_prone() -> None:
    fight = duel()
    assert fight.refused("alice", "move x=7 y=0").code == "rules.allowance"
    assert fight.refused("alice", "move x=4 y=0 terrain=difficult").code == "rules.allowance"
    fight.post("alice", "stance to=prone")
    assert fight.refused("alice", "move x=2 y=0").code == "rules.allowance"


def _unplaced(options: dict[str, object] | None = None) -> Fight:
    """Alice and Bob with no positions kept (``distance=`` moves), Alice first."""
    fight = Fight(options)
    fight.join("alice", None).join("bob", None)
    fight.begin([6, 6, 1, 1])
    return fight


@pytest.mark.parametrize(("least", "allowed"), [(None, 1), (0, 0), (2, 2)])
def test_prone_in_difficult_terrain_still_moves_at_least_1_m(least: int | None, allowed: int) -> None:
    fight = _unplaced(None if least is None else {"movement_min_m": least})
    fight.post("alice", "stance to=prone")
    refused = fight.refused("alice", f"move distance={allowed + 1} terrain=difficult")
    assert refused.code == "rules.allowance" and f"at most {allowed} m" in refused.message
    if allowed:
        fight.post("alice", f"move distance={allowed} terrain=difficult")
        assert fight.state.combatants["alice"].moved == allowed


def test_melee_from_prone_and_at_a_prone_target() -> None:
    fight = duel(distance=1)
    fight.post("alice", "draw weapon=Blade")
    fight.end_turn()
    fight.post("bob", "draw weapon=Blade")
    fight.end_turn()
    fight.post("alice", "stance to=prone", "attack target=bob weapon=Blade")
    roll = rolls(fight.react("bob", "take", faces=[1, 1]), "attack")[0]
    assert mods(roll)["attacking from prone"] == -2
    fight.end_turn()
    fight.post("bob", "attack target=alice weapon=Blade")
    assert mods(rolls(fight.react("alice", "take", faces=[1, 1]), "attack")[0])["target prone"] == 1


def test_an_unknown_weapon_is_refused() -> None:
    assert duel().refused("alice", "attack target=bob weapon=Laser").code == "rules.not-carried"


def test_draw_then_reload() -> None:
    fight = duel(a={"weapons": [{"name": "Pistol", "kind": "ranged", "damage": "3D-3", "range_m": 10, "magazine": 1},
                                {"name": "Knife", "kind": "melee", "damage": "1D"}]}, distance=5)
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[1, 1])
    fight.post("bob", "say")
    fight.end_turn()
    assert "reload first" in fight.refused("alice", "attack target=bob").message
    assert "draw it first" in fight.refused("alice", "attack target=bob weapon=Knife").message
    fight.post("alice", "reload weapon=Pistol", "draw weapon=Knife")


# --------------------------------------------------------------------------- healing


def test_first_aid_heals_max_effect_1_once_within_ten_rounds() -> None:
    fight = duel(a={"gear": ["medikit"], "skills": {"gun_combat": 1, "medic": 1}}, distance=2)
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 2, 2, 2])  # 13: Effect 5; damage 6 + 5 = 11: END 7, STR 4
    fight.post("bob", "say")
    fight.end_turn()
    events = fight.post("alice", "first_aid target=bob STR=1", faces=[4, 3])  # 7 + medic 1 = 8: Effect 0 -> 1
    assert [(h.pool, h.amount) for h in of(events, HealingApplied)] == [("STR", 1)]
    fight.end_turn()
    fight.post("bob", "say")
    fight.end_turn()
    assert "once" in fight.refused("alice", "first_aid target=bob").message


@pytest.mark.parametrize("written", ["STR=two", "END=-1", "DEX=true"])
def test_first_aid_refuses_points_that_are_not_a_whole_number(written: str) -> None:
    fight = duel(a={"gear": ["medikit"], "skills": {"medic": 1}}, distance=2)
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 2, 2, 2])
    fight.post("bob", "say")
    fight.end_turn()
    refused = fight.refused("alice", f"first_aid target=bob {written}")
    assert refused.code == "rules.incomplete"
    assert refused.message.startswith(f"{written}: the points of {written[:3]} first aid is to restore must be a whole")
    again = Post(actor="alice", actions=parse_actions([f"first_aid target=bob {written}"]), recorded=True)
    fight.faces(4, 3)  # played again from a log (a dispute): let through, as it changed nothing then
    fight.TABLE.post(fight.scribe, again)
    assert of(fight.scribe.events, HealingApplied)


def test_first_aid_on_the_dead_is_refused() -> None:
    """A tester's first aid on Bob, dead at three characteristics zero, "recovered 1 END"."""
    fight = duel(a={"gear": ["medikit"], "skills": {"medic": 1}}, b={"characteristics": {"END": 1, "STR": 1, "DEX": 1}},
                 distance=2)
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 6, 6, 6])
    assert "dead" in fight.state.combatants["bob"].statuses
    refused = fight.refused("alice", "first_aid target=bob")
    assert (refused.code, refused.message) == ("rules.target", "bob is dead: first aid cannot help")


def test_first_aid_after_ten_rounds_is_refused() -> None:
    fight = duel(a={"gear": ["medikit"]}, distance=2)
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 2, 2, 2])
    for _ in range(11):
        fight.post("bob", "say")
        fight.end_turn()
        fight.post("alice", "say")
        fight.end_turn()
    fight.post("bob", "say")
    fight.end_turn()
    assert "within 10 rounds" in fight.refused("alice", "first_aid target=bob").message


def test_regaining_consciousness_once_per_ten_rounds_dm_1_per_failure() -> None:
    fight = Fight()
    fight.join("alice", side="a").join("bob", (30, 0), side="b", characteristics={"END": 1, "STR": 3, "DEX": 8})
    fight.join("carl", (0, 2), side="a")
    fight.begin([6, 6, 1, 1, 5, 5])
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[4, 4, 1, 1, 1])  # Effect 1: damage 4: END 1, then the higher (DEX 8) 3
    fight.post("carl", "attack target=bob")
    fight.end_turn(faces=[4, 4, 2, 2, 2])  # 6 + 1: DEX 5 -> 0, STR 3 -> 1
    assert "unconscious" in fight.statuses("bob")
    faces = {10: [1, 1], 20: [6, 6]}
    for round_ in range(2, 21):  # each loop's last turn opens round round_ + 1
        wake = faces.get(round_, [])
        fight.post("alice", "say")
        fight.end_turn()
        events = fight.post("carl", "say")
        events = fight.end_turn(faces=wake)
        tried = rolls(events, "consciousness")
        if round_ == 20:
            assert mods(tried[0]) == {"END DM": -3, "earlier failures": 1}
    assert "unconscious" not in fight.statuses("bob")


# --------------------------------------------------------------------------- leadership, grappling, defer


def test_leadership_effect_gives_dm_1s_handed_out_one_per_check() -> None:
    fight = Fight()
    fight.join("alice", side="a", skills={"leadership": 2}).join("carl", (0, 2), side="a")
    fight.join("bob", (30, 0), side="b")
    fight.begin([6, 6, 5, 5, 1, 1])
    fight.post("alice", "leadership", "encourage target=carl", faces=[5, 4])  # 9 + 2 = 11: Effect 3
    assert fight.effects("alice", "leadership")[0].remaining == 2
    fight.end_turn()
    fight.post("carl", "attack target=bob")
    roll = rolls(fight.end_turn(faces=[1, 1]), "attack")[0]
    assert mods(roll)["leadership"] == 1
    assert fight.effects("carl", "encouraged") == []


def test_a_failed_leadership_check_gives_the_other_side_its_effect() -> None:
    fight = duel(a={"skills": {"leadership": 0}})
    fight.post("alice", "leadership", faces=[1, 2])
    assert fight.effects("bob", "leadership")[0].remaining == 5


def test_grappling_an_opposed_melee_check_and_the_winners_choice() -> None:
    fight = duel(distance=1)
    events = fight.post("alice", "grapple target=bob choice=prone", faces=[5, 5, 2, 2])
    assert of(events, AttackResolved)[0].hit
    assert fight.effects("bob", "grapple") and "prone" in fight.statuses("bob")
    fight.end_turn()
    fight.post("bob", "grapple target=alice choice=damage", faces=[1, 1, 6, 6])
    assert fight.effects("alice", "grapple_won")  # alice won as defender: she picks
    fight.post("alice", "grapple target=bob choice=escape x=0 y=5")
    assert fight.effects("bob", "grapple") == [] and fight.state.combatants["alice"].position == (0, 5)


def test_one_out_of_the_fight_makes_no_check_to_resist_a_grapple() -> None:
    """Grappling: both make an opposed check; an unconscious Bob rolled his and could win it
    (a tester)."""
    from msgspec.structs import replace

    fight = duel(distance=1)
    knocked = fight.state.combatants["bob"]  # knocked out, as a hit past END and a STR or DEX leaves one
    fight.scribe.state = replace(fight.scribe.state, combatants={**fight.scribe.state.combatants,
                                                                   "bob": replace(knocked, statuses=("unconscious",))})
    events = fight.post("alice", "grapple target=bob choice=prone", faces=[1, 1])
    (resolved,) = of(events, AttackResolved)
    assert resolved.hit and resolved.against == 0 and len(resolved.rolls) == 1
    assert [r.roller for r in rolls(events, "grapple")] == ["alice"]


def test_a_defenders_leadership_dm_is_spent_on_its_grapple_check() -> None:
    """One leader's DM+1 is one check: a defender's opposed grapple check took it and kept it
    for the next (a tester, with a reaction's DM the same way)."""
    fight = Fight()
    fight.join("bob", (0, 1), side="b", skills={"leadership": 2}).join("carl", (0, 2), side="b")
    fight.join("alice", (0, 0), side="a")
    fight.begin([6, 6, 5, 5, 1, 1])
    fight.post("bob", "leadership", "encourage target=carl", faces=[5, 4])
    fight.end_turn()
    fight.end_turn()
    assert fight.state.turn.current == "alice"
    events = fight.post("alice", "grapple target=carl choice=prone", faces=[6, 6, 1, 1])
    assert mods(rolls(events, "grapple")[1])["leadership"] == 1
    assert fight.effects("carl", "encouraged") == []


@pytest.mark.parametrize("choice", ["prone", "disarm", "throw", "damage", "escape", "drag", "continue"])
def test_a_defender_who_wins_picks_any_of_the_seven(choice: str) -> None:
    fight = _held()
    faces = [3, 2] if choice == "throw" else []
    spot = {"escape": " x=1 y=5", "drag": " x=0 y=3"}.get(choice, "")
    # alice 12 + Melee 1 as the defender: Effect 5
    fight.post("bob", "grapple target=alice choice=continue", faces=[1, 1, 6, 6])
    assert fight.refused("bob", "say").message.startswith("alice won bob's grapple and picks first")
    events = fight.post("alice", f"grapple target=bob choice={choice}{spot}", faces=faces)
    assert of(events, DeclarationPosted)[0].responds_to is not None
    assert fight.effects("alice", "grapple_won") == []
    held = bool(fight.effects("bob", "grapple"))
    assert held == (choice not in ("throw", "escape"))
    if choice == "damage":
        assert of(events, DamageApplied)[0].raw == 2 + 5
    if choice == "drag":
        assert fight.state.combatants["alice"].position == (0, 3) and fight.state.combatants["bob"].position == (1, 3)


def test_a_defender_who_posts_no_pick_continues_the_grapple() -> None:
    fight = _held()
    fight.post("bob", "grapple target=alice choice=continue", faces=[1, 1, 6, 6])
    events = fight.end_turn()
    assert [e.reason for e in of(events, EffectExpired) if e.effect.startswith("grapple_won")] == [
        "no choice posted: the grapple continues"]
    assert fight.effects("bob", "grapple")


def test_a_fixed_defender_choice_is_a_house_rule() -> None:
    fight = _held(grapple_defender_choice="escape")
    fight.post("bob", "grapple target=alice choice=continue", faces=[1, 1, 6, 6])
    assert fight.effects("bob", "grapple") == [] and fight.effects("alice", "grapple_won") == []


def test_a_defender_who_wins_a_grapple_may_hurt_its_attacker_and_the_audit_agrees() -> None:
    """The grapple's outcome is the attacker's, lost: its damage lands on the attacker (the
    shared check lets an attack that did not land hurt its attacker; A5's 'a miss does
    nothing' is not a grapple the defender won)."""
    from fightlog.audit.one_process import audit_events
    from fightlog.events.model import DamageApplied

    fight = _held(grapple_defender_choice="damage")
    fight.post("bob", "grapple target=alice choice=continue", faces=[1, 1, 6, 6])  # 2 against 12: alice wins
    [hurt] = [e for e in fight.scribe.events if isinstance(e, DamageApplied)]
    assert hurt.target == "bob"
    assert [f.code for f in audit_events(fight.scribe.events).findings if f.severity == "error"] == []


@pytest.mark.parametrize(("choice", "faces", "check"), [
    ("disarm", [6, 6, 1, 1], "dropped"),
    ("throw", [6, 6, 1, 1, 3, 2], "thrown"),
    ("drag", [6, 6, 1, 1], "dragged"),
    ("escape", [6, 6, 1, 1], "none"),
])
def test_the_grapple_winners_other_choices(choice: str, faces: list[int], check: str) -> None:
    fight = duel(distance=1)
    fight.post("alice", f"grapple target=bob choice={choice}{' x=0 y=3' if choice == 'drag' else ''}", faces=faces)
    if check == "dropped":
        assert fight.effects("bob", "dropped")[0].params == {"weapon": "Rifle", "taken": False}  # Effect 5: kept
        fight.end_turn()
        assert "knocked away" in fight.refused("bob", "draw weapon=Rifle").message
    elif check == "thrown":
        assert fight.effects("bob", "grapple") == [] and fight.pool("bob", "END") == 7 - 2
    elif check == "dragged":
        assert fight.state.combatants["bob"].moved == 3 and fight.effects("bob", "grapple")
    else:
        assert fight.effects("bob", "grapple") == []


def test_defer_waits_until_after_the_named_combatant() -> None:
    fight = Fight()
    fight.join("alice", side="a").join("carl", (0, 2), side="a").join("bob", (30, 0), side="b")
    fight.begin([6, 6, 5, 5, 1, 1])
    assert fight.state.turn.order == ("alice", "carl", "bob")
    fight.post("alice", "defer target=bob")
    assert fight.current == "carl" and "delaying" in fight.statuses("alice")
    fight.post("carl", "say")
    fight.end_turn()
    assert fight.current == "bob"
    fight.post("bob", "say")
    fight.end_turn()
    assert fight.current == "alice" and "delaying" not in fight.statuses("alice")
    assert "once a round" in fight.refused("alice", "defer").message
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[1, 1])
    assert fight.state.turn.round == 2


def test_healing_over_days_is_recorded_by_hand_and_folds() -> None:
    from fightlog.audit.one_process import audit_events
    from fightlog.events.model import Origin

    fight = duel()
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 2, 2, 2])
    fight.scribe.emit(HealingApplied(target="bob", amount=3, pool="END", source="natural healing, two days",
                                     origin=Origin(medium="manual", author="GM")))
    assert fight.pool("bob", "END") == 3
    assert not [f for f in audit_events(fight.scribe.events).findings if not f.code.startswith("dice.")]


def test_simultaneous_slot_mates_both_act_before_either_falls() -> None:
    fight = Fight()
    fight.join("alice", side="a").join("bob", (30, 0), side="b", characteristics={"STR": 1, "END": 1})
    fight.begin([3, 3, 3, 3])  # both -2, DEX 7: one slot
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 1, 1, 1])  # Effect 5: 3 + 5 = 8: END 1, DEX 7
    assert fight.pool("bob", "DEX") == 0 and "unconscious" not in fight.statuses("bob")
    assert fight.current == "bob"
    roll = rolls(fight.post("bob", "attack target=alice"), "attack")
    assert roll == []  # waits for alice's reaction
    events = fight.end_turn(faces=[1, 1])
    assert mods(rolls(events, "attack")[0])["DEX DM"] == -3
    assert "unconscious" in fight.statuses("bob")


def test_simultaneous_joined_takes_the_slot_mate_out_at_once() -> None:
    fight = Fight({"simultaneous": "joined"})
    fight.join("alice", side="a").join("bob", (30, 0), side="b", characteristics={"STR": 1, "END": 1})
    fight.begin([3, 3, 3, 3])
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[6, 6, 1, 1, 1])
    assert "unconscious" in fight.statuses("bob")
    assert fight.current == "alice" and fight.state.turn.round == 2


def test_an_extended_task_interrupted_by_damage_rechecks_with_the_damage_as_dm() -> None:
    fight = duel(b={"skills": {"electronics": 2}, "characteristics": {"END": 15, "STR": 15, "DEX": 15}})
    fight.post("alice", "say")
    fight.end_turn()
    fight.post("bob", "task skill=electronics characteristic=INT rounds=3", faces=[4, 3])  # 7 + 2: started
    assert fight.effects("bob", "task")[0].remaining == 3
    fight.end_turn()
    fight.post("alice", "say")
    fight.end_turn()
    fight.post("bob", "task")  # a round of progress
    assert fight.effects("bob", "task")[0].remaining == 2
    fight.end_turn()
    fight.post("alice", "attack target=bob")  # round 3: bob's progress was in round 2, none lost
    events = fight.end_turn(faces=[4, 4, 1, 1, 1, 6, 5])  # 9: Effect 1; 3 + 1 = 4 damage; recheck 11 + 2 - 4
    task = rolls(events, "task")[0]
    assert mods(task) == {"electronics 2": 2, "damage": -4}
    assert fight.effects("bob", "task")[0].remaining == 2
    fight.post("bob", "task")
    fight.end_turn()
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[4, 4, 1, 1, 1, 2, 2])  # recheck 4 + 2 - 4 = 2: Effect -6: the task is spoiled
    assert fight.effects("bob", "task") == []


def test_a_failed_recheck_loses_this_rounds_progress() -> None:
    fight = Fight()
    fight.join("alice", (0, 0))
    fight.join("bob", (30, 0), skills={"electronics": 2}, characteristics={"END": 15, "STR": 15, "DEX": 15})
    fight.begin([1, 1, 6, 6])
    assert fight.current == "bob"
    fight.post("bob", "task skill=electronics characteristic=INT rounds=3", faces=[4, 3])
    fight.end_turn()
    fight.post("alice", "say")
    fight.end_turn()
    fight.post("bob", "task")  # round 2's progress
    fight.end_turn()
    assert fight.effects("bob", "task")[0].remaining == 2
    fight.post("alice", "attack target=bob")
    fight.end_turn(faces=[4, 4, 1, 1, 1, 2, 3])  # 4 damage; recheck 5 + 2 - 4 = 3: Effect -5
    assert fight.effects("bob", "task")[0].remaining == 3


def test_a_task_with_an_unknown_skill_is_refused() -> None:
    assert "no such Traveller skill" in duel().refused("alice", "task skill=hacking characteristic=INT").message


def test_leadership_dm_1s_not_handed_out_lapse_when_the_next_round_ends() -> None:
    fight = duel(a={"skills": {"leadership": 2}})
    fight.post("alice", "leadership", faces=[5, 4])
    fight.end_turn()
    fight.post("bob", "say")
    fight.end_turn()
    assert fight.effects("alice", "leadership")  # round 2: still held
    fight.post("alice", "say")
    fight.end_turn()
    fight.post("bob", "say")
    fight.end_turn()
    assert fight.effects("alice", "leadership") == []


def test_an_arrival_rolls_initiative_when_it_takes_its_place() -> None:
    from fightlog.rules.traveller.table import TABLE
    from tests.rules.traveller.rigged import entrant_of

    fight = duel()
    TABLE.join(fight.scribe, entrant_of("carl", (0, 3), side="alice"), arrival=True, after="alice")
    fight.post("alice", "say")
    fight.end_turn()
    fight.post("bob", "say")
    events = fight.end_turn(faces=[5, 5])  # round 2: Carl rolls 10, initiative 2
    assert [r.roller for r in rolls(events, "initiative")] == ["carl"]
    assert fight.state.turn.initiative["carl"] == (2, 7)
    assert fight.state.turn.order == ("alice", "carl", "bob")
    from fightlog.audit.one_process import audit_events

    fight.post("alice", "say")
    fight.end_turn()
    fight.post("carl", "attack target=bob")
    fight.end_turn(faces=[1, 1])
    assert not [f for f in audit_events(fight.scribe.events).findings if not f.code.startswith("dice.")]


# --------------------------------------------------------------------------- a grapple holds


def _held(**options: object) -> Fight:
    """Alice holds Bob (won with 12 against 4), Carl 20 m off; Bob's turn."""
    fight = Fight(dict(options))
    fight.join("alice", (0, 0), side="a").join("bob", (1, 0), side="b").join("carl", (20, 0), side="c")
    fight.begin([6, 6, 5, 5, 1, 1])
    fight.post("alice", "grapple target=bob choice=continue", faces=[6, 6, 2, 2])
    fight.end_turn()
    assert fight.current == "bob" and fight.effects("bob", "grapple")
    return fight


def _to(fight: Fight, actor: str) -> None:
    """Pass the turns (``say``) until ``actor``'s."""
    while fight.current != actor:
        fight.post(fight.current or "", "say")
        fight.end_turn()


def test_a_grappled_combatant_may_not_move_away() -> None:
    fight = _held()
    refused = fight.refused("bob", "move x=5 y=0")
    assert refused.code == "rules.grappled" and "escape" in refused.message


def test_the_holder_may_not_move_away_either() -> None:
    fight = _held()
    _to(fight, "alice")
    assert fight.refused("alice", "move x=0 y=5").code == "rules.grappled"


def test_a_grappled_combatant_attacks_only_the_partner_by_default() -> None:
    fight = _held()
    assert fight.refused("bob", "attack target=carl").code == "rules.grappled"
    fight.post("bob", "attack target=alice")
    fight.end_turn(faces=[1, 1])


def test_grappled_attacks_any_allows_shooting_someone_else() -> None:
    fight = _held(grappled_attacks="any")
    fight.post("bob", "attack target=carl")


def test_a_grappled_combatant_may_not_dive_away() -> None:
    fight = _held()
    _to(fight, "carl")
    fight.post("carl", "attack target=bob")
    assert fight.refused("bob", "dive").code == "rules.grappled"


def test_the_escape_choice_moves_the_escaper_and_ends_the_grapple() -> None:
    fight = _held()
    _to(fight, "alice")
    fight.post("alice", "grapple target=bob choice=escape x=0 y=6", faces=[6, 6, 1, 1])
    assert fight.effects("bob", "grapple") == [] and fight.state.combatants["alice"].position == (0, 6)


def test_an_escape_beyond_a_movement_is_refused() -> None:
    fight = _held()
    _to(fight, "alice")
    assert fight.refused("alice", "grapple target=bob choice=escape x=0 y=7").code == "rules.allowance"


@pytest.mark.parametrize(("spot", "says"), [
    ("x=a y=6", "grapple choice=escape: x=a: a position is whole metres"),
    ("x=0", "grapple choice=escape: a position gives both x= and y= (y= is missing)"),
])
def test_an_escape_to_a_spot_not_given_in_whole_metres_is_refused_naming_it(spot: str, says: str) -> None:
    fight = _held()
    _to(fight, "alice")
    refused = fight.refused("alice", f"grapple target=bob choice=escape {spot}")
    assert refused.code == "rules.incomplete" and says in refused.message


def test_a_drag_goes_up_to_3_m_and_takes_both_along() -> None:
    fight = _held()
    _to(fight, "alice")
    assert fight.refused("alice", "grapple target=bob choice=drag x=0 y=4").code == "rules.allowance"
    fight.post("alice", "grapple target=bob choice=drag x=0 y=2", faces=[6, 6, 1, 1])
    assert fight.state.combatants["alice"].position == (0, 2)
    assert fight.state.combatants["bob"].position == (1, 2) and fight.effects("bob", "grapple")


def test_a_shorter_drag() -> None:
    fight = Fight()
    fight.join("alice", None).join("bob", None)
    fight.begin([6, 6, 1, 1])
    fight.post("alice", "grapple target=bob choice=drag metres=2 distance=1", faces=[6, 6, 1, 1])
    assert fight.state.combatants["bob"].moved == 2


def test_a_grapple_ends_when_one_is_taken_out() -> None:
    fight = _held()
    _to(fight, "alice")
    fight.post("alice", "grapple target=bob choice=damage", faces=[6, 6, 1, 1])  # Effect 5: 7 damage
    fight.end_turn()
    _to(fight, "alice")
    fight.post("alice", "grapple target=bob choice=damage", faces=[6, 6, 1, 1])
    assert "unconscious" in fight.statuses("bob") or "dead" in fight.statuses("bob")
    assert fight.effects("bob", "grapple") == []


# --------------------------------------------------------------------------- positions kept


def test_where_positions_are_kept_a_move_names_the_spot_not_a_distance() -> None:
    fight = duel()
    refused = fight.refused("alice", "move distance=3")
    assert refused.code == "rules.incomplete" and "x= y=" in refused.message and "move" in refused.message
    assert fight.refused("alice", "move x=a y=0").message == "move: x=a: a position is whole metres (x=12 y=-3)"
    assert fight.refused("alice", "move x=3").message == "move: a position gives both x= and y= (y= is missing)"
    fight.post("alice", "move x=3 y=4")
    assert fight.state.combatants["alice"].position == (3, 4)


def test_where_positions_are_kept_a_dive_names_its_spot_up_to_dive_m() -> None:
    fight = duel()
    fight.post("alice", "attack target=bob")
    assert fight.refused("bob", "dive cover=stone_wall").code == "rules.incomplete"
    assert fight.refused("bob", "dive cover=stone_wall x=32 y=0").code == "rules.allowance"
    assert fight.refused("bob", "dive cover=stone_wall x=32 y=1").message.startswith("a dive goes up to 1 m (1 tile")
    fight.react("bob", "dive cover=stone_wall x=31 y=1", faces=[1, 1])  # "1.5m (1 tile)": a diagonal tile, 1.41 m
    assert fight.state.combatants["bob"].position == (31, 1)


def test_a_dive_without_positions_moves_its_metres() -> None:
    fight = _unplaced()
    fight.post("alice", "attack target=bob distance=30")
    fight.react("bob", "dive", faces=[1, 1])
    assert fight.state.combatants["bob"].moved == 1


def test_a_throw_lands_the_loser_straight_away_from_the_thrower() -> None:
    fight = duel(distance=1)
    fight.post("alice", "grapple target=bob choice=throw", faces=[6, 6, 1, 1, 3, 2])  # thrown 3 m
    assert fight.state.combatants["bob"].position == (4, 0) and fight.effects("bob", "grapple") == []


def test_where_positions_are_kept_an_escape_or_drag_names_the_spot() -> None:
    fight = _held()
    _to(fight, "alice")
    assert fight.refused("alice", "grapple target=bob choice=escape metres=3").code == "rules.incomplete"
    assert fight.refused("alice", "grapple target=bob choice=drag").code == "rules.incomplete"


def test_a_scene_recorded_before_an_option_existed_reads_as_the_rules_were_then() -> None:
    """prone_in_cover_stacks and reaction_dm_on changed what the rules do by default: a log
    whose scene_started records every option but them was played the old way (the review:
    the earlier dive fixture then audited with an error)."""
    import msgspec

    from fightlog.rules.traveller.options import DEFAULTS, scene_options

    recorded = msgspec.to_builtins(DEFAULTS)
    old = {k: v for k, v in recorded.items() if k not in ("prone_in_cover_stacks", "reaction_dm_on")}
    read = scene_options(old)
    assert (read.prone_in_cover_stacks, read.reaction_dm_on) == (True, "next_turn")
    assert scene_options(recorded) == DEFAULTS and scene_options({}) == DEFAULTS
