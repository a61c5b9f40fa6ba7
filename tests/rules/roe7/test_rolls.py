"""Rolls, modifiers and criticals (Skill Rolls; Modifiers; Basic Contested Roll; Critical
Success or Failure; Close, Medium and Long Range), each with the faces stated."""

from __future__ import annotations

import pytest

from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled, Modifier
from fightlog.kit.table import Post
from fightlog.rules.roe7.table import TABLE
from tests.rules.roe7.rigged import AMR, CLUB_M, MAGIKA, PISTOL, RIFLE, SHOTGUN, SPEAR, Fight, act, duel, of

SWORD_L = "L_s_Sword_Class_(Permanent)"


def mod(value: int, applies_to: str, source: str = "stats") -> dict[str, object]:
    return {"value": value, "source": source, "applies_to": applies_to}


def rolls(events: list[object], purpose: str) -> list[DiceRolled]:
    return [e for e in of(events, DiceRolled) if e.purpose == purpose]


# --------------------------------------------------------------------------- opposed rolls


def test_the_higher_roll_wins_an_attack() -> None:
    fight = duel()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[40, 41, 7])
    [dodge], [hit] = rolls(events, "dodge"), rolls(events, "attack")
    assert (dodge.roller, dodge.total, hit.roller, hit.total) == ("bob", 40, "alice", 41)
    [resolved] = of(events, AttackResolved)
    assert resolved.hit and (resolved.score, resolved.against, resolved.margin) == (41, 40, 1)
    assert fight.hp("bob") == 93


def test_a_tie_goes_to_the_defender() -> None:
    fight = duel()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[40, 40])
    [resolved] = of(events, AttackResolved)
    assert not resolved.hit and "tie: the defender wins" in resolved.notes
    assert of(events, DamageApplied) == [] and fight.hp("bob") == 100


def test_a_lower_roll_misses() -> None:
    fight = duel()
    [resolved] = of(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[60, 59]), AttackResolved)
    assert not resolved.hit and fight.hp("bob") == 100


def test_an_opposed_skill_roll_ties_to_the_defender() -> None:
    fight = duel()
    [won] = of(fight.post("alice", act("skill", "bob", roll="strength"), faces=[60, 60]), AttackResolved)
    assert not won.hit and (won.score, won.against, won.target) == (60, 60, "bob")


def test_an_opposed_skill_roll_may_oppose_another_skill() -> None:
    fight = duel(a={"modifiers": [mod(5, "stealth")]}, b={"modifiers": [mod(10, "perception")]})
    events = fight.post("alice", act("skill", "bob", roll="stealth", against="perception"), faces=[60, 54])
    [won] = of(events, AttackResolved)
    assert won.hit and (won.score, won.against) == (65, 64)


@pytest.mark.parametrize(("face", "won"), [(50, True), (49, False), (100, True)])
def test_an_unopposed_roll_needs_50(face: int, won: bool) -> None:
    fight = duel()
    [result] = of(fight.post("alice", act("skill", roll="strength"), faces=[face]), AttackResolved)
    assert result.hit is won and result.against == 50


def test_a_natural_1_on_a_skill_roll_fails_whatever_the_modifiers_and_costs_the_next_action() -> None:
    fight = duel(a={"modifiers": [mod(30, "strength")]})
    [result] = of(fight.post("alice", act("skill", roll="strength"), faces=[1]), AttackResolved)
    assert not result.hit and result.score == 31
    assert fight.effects("alice") == {"lost_action": 1}


def test_a_natural_100_wins_an_opposed_skill_roll_unless_the_other_rolls_100_too() -> None:
    fight = duel(b={"modifiers": [mod(30, "strength")]})
    [won] = of(fight.post("alice", act("skill", "bob", roll="strength"), faces=[100, 99]), AttackResolved)
    assert won.hit and won.against == 129
    fight.end_turn()
    [lost] = of(fight.post("bob", act("skill", "alice", roll="strength"), faces=[100, 100]), AttackResolved)
    assert not lost.hit


# --------------------------------------------------------------------------- GM modifiers


@pytest.mark.parametrize("gm", [5, -5, 3])
def test_a_gm_circumstance_modifier_within_5_is_added(gm: int) -> None:
    fight = duel()
    [attack] = rolls(fight.post("alice", act("attack", "bob", weapon=RIFLE, gm=gm), faces=[1, 50, 1]), "attack")
    assert attack.modifiers == [Modifier(value=gm, source="GM circumstance")] and attack.total == 50 + gm


@pytest.mark.parametrize("gm", [6, -6, 10])
def test_a_gm_circumstance_modifier_beyond_5_is_refused(gm: int) -> None:
    fight = duel()
    reason = fight.refused("alice", act("attack", "bob", weapon=RIFLE, gm=gm), faces=[50, 50])
    assert reason == f"a GM circumstance modifier is within +/-5, not {gm}"
    reason = fight.refused("alice", act("skill", roll="strength", gm=gm), faces=[50])
    assert reason == f"a GM circumstance modifier is within +/-5, not {gm}"


@pytest.mark.parametrize(("gm", "shown"), [("abc", "abc"), ("5.5", "5.5"), (True, "true"), ("+3", "+3")])
def test_a_gm_circumstance_modifier_that_is_not_a_whole_number_is_refused_naming_it(gm: str | bool, shown: str) -> None:
    fight = duel()  # no faces queued: the refusal comes before any die
    reason = f"gm={shown}: a GM circumstance modifier is a whole number within +/-5 (gm=-3, gm=2)"
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, gm=gm)) == reason
    assert fight.refused("alice", act("skill", roll="hacking", gm=gm)) == reason
    flee = fight.post("alice", act("flee"))[0].seq
    assert fight.refused("bob", act("interrupt", weapon=RIFLE, gm=gm), responds_to=flee) == reason


def test_a_gm_circumstance_modifier_is_checked_before_any_die() -> None:
    fight = duel()  # no faces queued: a die rolled before the refusal fails the test
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, gm=9)) == "a GM circumstance modifier is within +/-5, not 9"
    flee = fight.post("alice", act("flee"))[0].seq
    # an interrupt is rolled when the turn ends: its modifier is refused when it is declared, not then
    assert fight.refused("bob", act("interrupt", weapon=RIFLE, gm=9), responds_to=flee) == (
        "a GM circumstance modifier is within +/-5, not 9"
    )
    fight.post("bob", act("interrupt", weapon=RIFLE, gm=-2), responds_to=flee)
    events = fight.end_turn(faces=[45, 46])
    [strike] = rolls(events, "attack")
    assert strike.modifiers == [Modifier(value=-2, source="GM circumstance")] and strike.total == 44
    assert "fled" in fight.statuses("alice")


# --------------------------------------------------------------------------- the +30 cap


def test_modifiers_above_30_are_capped_at_30() -> None:
    fight = duel(a={"modifiers": [mod(25, "accuracy"), mod(15, "ranged_accuracy", "skills")]})
    [attack] = rolls(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 50]), "attack")
    assert attack.modifiers[-1] == Modifier(value=-10, source="cap +30")
    assert attack.total == 80


def test_all_modifiers_are_summed_before_the_cap() -> None:
    """+40 from the sheet and -15 for dual wielding is +25, not +30 - 15."""
    fight = duel(a={"modifiers": [mod(40, "accuracy")], "weapons": [PISTOL, "S_b_Club_Class_(Permanent)"]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=PISTOL, offhand="S_b_Club"),
                        faces=[99, 50, 50, 50, 50])
    attacks = rolls(events, "attack")
    assert {a.total - a.dice[0].face for a in attacks} == {25}
    assert all(not any(m.source.startswith("cap") for m in a.modifiers) for a in attacks)


def test_a_dodge_roll_is_capped_too() -> None:
    fight = duel(b={"modifiers": [mod(35, "dodge")]})
    [dodge] = rolls(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[50, 1]), "dodge")
    assert dodge.total == 80


def test_damage_modifiers_are_capped() -> None:
    fight = duel(a={"modifiers": [mod(45, "ballistic_damage")]})
    [damage] = rolls(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[1, 50, 10]), "damage")
    assert damage.total == 40


def test_there_is_no_floor_on_modifiers() -> None:
    fight = duel(a={"modifiers": [mod(-45, "accuracy")]})
    [attack] = rolls(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[60, 50]), "attack")
    assert attack.total == 5


# --------------------------------------------------------------------------- criticals


def test_a_natural_1_misses_whatever_the_modifiers_and_loses_the_next_action() -> None:
    fight = duel(a={"modifiers": [mod(30, "accuracy")]})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[2, 1])
    [resolved] = of(events, AttackResolved)
    assert not resolved.hit and resolved.critical == "failure" and resolved.score == 31
    assert fight.effects("alice") == {"lost_action": 1}
    fight.end_turn()
    fight.post("bob", act("move", m=1))
    fight.end_turn()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE)) == "alice lost this turn's action"
    fight.post("alice", act("move", m=2))  # moving and speaking are still allowed
    fight.end_turn()
    assert fight.effects("alice") == {}
    fight.post("bob", act("move", m=1))
    fight.end_turn()
    fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[2, 50, 5])


def test_a_defender_rolling_a_natural_1_is_hit_and_loses_the_next_action() -> None:
    fight = duel(b={"modifiers": [mod(30, "dodge")]})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[1, 20, 5])
    [resolved] = of(events, AttackResolved)
    assert resolved.hit and (resolved.score, resolved.against) == (20, 31)
    assert "defender's natural 1: hit" in resolved.notes
    assert fight.effects("bob") == {"lost_action": 1}
    fight.end_turn()
    assert fight.refused("bob", act("attack", "alice", weapon=RIFLE)) == "bob lost this turn's action"


def test_a_natural_100_hits_and_doubles_the_dice_before_the_modifiers() -> None:
    fight = duel(a={"modifiers": [mod(5, "ballistic_damage")]}, b={"modifiers": [mod(30, "dodge")]})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 100, 7])
    [resolved] = of(events, AttackResolved)
    assert resolved.hit and resolved.critical == "success" and (resolved.score, resolved.against) == (100, 129)
    [damage] = rolls(events, "damage")
    assert damage.notation == "1d20*2" and damage.total == 7 * 2 + 5
    assert fight.hp("bob") == 100 - 19


def test_a_critical_attack_is_stopped_only_by_a_critical_dodge() -> None:
    fight = duel()
    [resolved] = of(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[100, 100]), AttackResolved)
    assert not resolved.hit and resolved.critical is None and "critical dodge: natural 100" in resolved.notes


def test_a_natural_100_on_defence_succeeds_whatever_the_modifiers() -> None:
    fight = duel(a={"modifiers": [mod(30, "accuracy")]})
    [resolved] = of(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[100, 99]), AttackResolved)
    assert not resolved.hit and (resolved.score, resolved.against) == (129, 100)


def test_a_critical_melee_hit_doubles_the_damage_die() -> None:
    fight = duel(a={"weapons": [CLUB_M]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[50, 100, 9])
    [damage] = rolls(events, "damage")
    assert damage.notation == "1d20*2" and damage.total == 18


# --------------------------------------------------------------------------- range bands


@pytest.mark.parametrize(
    ("metres", "weapon", "die"),
    [
        (1, RIFLE, 100), (20, RIFLE, 100), (21, RIFLE, 20), (49, RIFLE, 20), (50, RIFLE, 10), (200, RIFLE, 10),
        (20, AMR, 100), (21, AMR, 70), (49, AMR, 70), (50, AMR, 60), (90, AMR, 60),
    ],
)
def test_the_attack_die_by_range_band(metres: int, weapon: str, die: int) -> None:
    fight = duel(a={"weapons": [weapon]}, distance=metres)
    events = fight.post("alice", act("attack", "bob", weapon=weapon), faces=[die, 1])
    [attack] = rolls(events, "attack")
    assert attack.notation == f"1d{die}"


@pytest.mark.parametrize(("metres", "die"), [(30, 20), (60, 10)])
def test_non_sniper_weapons_do_not_crit_at_medium_or_long_range(metres: int, die: int) -> None:
    fight = duel(distance=metres)
    [resolved] = of(fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[die + 1, die]), AttackResolved)
    assert not resolved.hit and resolved.critical is None
    assert f"natural {die} is no critical at this range without a sniper weapon" in resolved.notes


@pytest.mark.parametrize(("metres", "die"), [(30, 70), (60, 60), (10, 100)])
def test_sniper_weapons_crit_at_every_range(metres: int, die: int) -> None:
    fight = duel(a={"weapons": [AMR]}, distance=metres)
    events = fight.post("alice", act("attack", "bob", weapon=AMR), faces=[99, die, 10])
    [resolved] = of(events, AttackResolved)
    assert resolved.hit and resolved.critical == "success"
    assert rolls(events, "damage")[0].notation == "1d50*2"


@pytest.mark.parametrize(("given", "die"), [({"distance": 30}, 20), ({"range": "long"}, 10), ({"range": "close"}, 100)])
def test_without_positions_the_action_gives_the_distance_or_band(given: dict[str, object], die: int) -> None:
    fight = Fight()
    fight.join("alice", None, weapons=[RIFLE]).join("bob", None, weapons=[RIFLE]).begin()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, **given), faces=[die, 1])  # type: ignore[arg-type]
    assert rolls(events, "attack")[0].notation == f"1d{die}"
    fight.end_turn()
    reason = fight.refused("bob", act("attack", "alice", weapon=RIFLE))
    assert reason.startswith("how far is alice from bob?")


@pytest.mark.parametrize(
    ("weapon", "metres", "given", "reason"),
    [
        (SWORD_L, 2, {"range": "long"}, "range=long: bob is 2 m away on the map, at close range"),
        (PISTOL, 2, {"range": "long"}, "range=long: bob is 2 m away on the map, at close range"),
        (PISTOL, 30, {"range": "close"}, "range=close: bob is 30 m away on the map, at medium range"),
        (RIFLE, 60, {"range": "medium"}, "range=medium: bob is 60 m away on the map, at long range"),
        (PISTOL, 5, {"range": "melee"}, "range=melee: bob is 5 m away on the map, beyond melee reach of 3 m"),
        (SPEAR, 7, {"range": "melee"}, "range=melee: bob is 7 m away on the map, beyond melee reach of 6 m"),
    ],
)
def test_a_range_band_the_map_contradicts_is_refused(weapon: str, metres: int, given: dict[str, str], reason: str) -> None:
    fight = duel(a={"weapons": [weapon]}, distance=metres)
    refused = fight.refused("alice", act("attack", "bob", weapon=weapon, **given))  # type: ignore[arg-type]
    assert refused == f"{reason} (the rules measure it there: leave range= out)"


def test_a_range_band_the_map_gives_is_played_at_the_map_distance() -> None:
    fight = duel(a={"weapons": [SPEAR, PISTOL]}, distance=5)
    fight.post("alice", act("attack", "bob", weapon=SPEAR, range="melee", shots=1), faces=[50, 40])
    fight.end_turn()
    fight.end_turn()
    # measured from where the post's move leaves alice: 13 m, beyond the spear's 6
    assert fight.refused("alice", act("move", x=-8, y=0), act("attack", "bob", weapon=SPEAR, range="melee")) == (
        "range=melee: bob is 13 m away on the map, beyond melee reach of 6 m (the rules measure it there: leave range= out)"
    )
    events = fight.post("alice", act("move", x=-8, y=0), act("attack", "bob", weapon=PISTOL, range="close"),
                        faces=[50, 20])
    assert rolls(events, "attack")[0].notation == "1d100"
    fight.end_turn()
    flee = fight.post("bob", act("flee"))[0].seq
    assert fight.refused("alice", act("interrupt", weapon=PISTOL, range="medium"), responds_to=flee) == (
        "range=medium: bob is 13 m away on the map, at close range (the rules measure it there: leave range= out)"
    )


def test_a_recorded_post_is_not_refused_for_a_band_the_map_contradicts() -> None:
    fight = duel(distance=2)  # re-derived from a log (a dispute, a replay): played as it was, at the map's distance
    fight.faces(50, 20)
    TABLE.post(fight.scribe, Post(actor="alice", actions=(act("attack", "bob", weapon=RIFLE, range="long"),), recorded=True))
    fight.used_up()
    assert [r.notation for r in of(fight.scribe.events, DiceRolled) if r.purpose == "attack"] == ["1d100"]


def test_a_range_band_must_be_one_and_hold_the_distance_given() -> None:
    fight = duel()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, range="far")) == (
        "range=far: not a range band (close, medium, long or melee)"
    )
    fight = Fight()
    fight.join("alice", None, weapons=[RIFLE]).join("bob", None, weapons=[RIFLE]).begin()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE, distance=2, range="long")) == (
        "range=long: distance=2 is at close range (give one or the other)"
    )
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE, distance=60, range="long"), faces=[10, 1])
    assert rolls(events, "attack")[0].notation == "1d10"


@pytest.mark.parametrize(
    ("weapon", "metres", "reason"),
    [
        (CLUB_M, 4, "target out of range: bob is 4 m away, beyond melee reach of 3 m (M_b_Club_Class_(Permanent))"),
        (SPEAR, 7, "target out of range: bob is 7 m away, beyond melee reach of 6 m (L_p_Shafted_Class_(Permanent))"),
        (MAGIKA, 21, "target out of range: bob is 21 m away, beyond magika's close range of 20 m (M_m_Magika_Class_(Permanent))"),
        ("L_a_ChemThrower_Class_(Permanent)", 9,
         "target out of range: bob is 9 m away, beyond a flamer's reach of 8 m (L_a_ChemThrower_Class_(Permanent))"),
    ],
)
def test_close_only_weapons_do_not_work_beyond_their_reach(weapon: str, metres: int, reason: str) -> None:
    fight = duel(a={"weapons": [weapon]}, distance=metres)
    assert fight.refused("alice", act("attack", "bob", weapon=weapon), faces=[50, 50, 50]) == reason


def test_reach_is_measured_in_whole_metres_rounded_up() -> None:
    fight = duel(a={"weapons": [CLUB_M]}, distance=0)
    fight.end_turn()
    fight.post("bob", act("move", x=2, y=2))  # 2.83 m away: 3 m
    fight.end_turn()
    fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[50, 40])
    fight.end_turn()
    fight.post("bob", act("move", x=3, y=1))  # 3.16 m away: 4 m
    fight.end_turn()
    assert "beyond melee reach of 3 m" in fight.refused("alice", act("attack", "bob", weapon=CLUB_M), faces=[1, 1])


def test_a_shotgun_works_at_medium_range() -> None:
    fight = duel(a={"weapons": [SHOTGUN]}, distance=30)
    events = fight.post("alice", act("attack", "bob", weapon=SHOTGUN), faces=[20, 2, 2, 2])
    assert [r.notation for r in rolls(events, "attack")] == ["1d20"] * 3
