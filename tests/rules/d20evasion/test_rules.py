"""The pure rules, one by one: the hit, armour and piercing, rounding altered damage, the
stat chart, range bands and their costs, the turn's allowance, disarming, the injury roll,
initiative ranking."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from fightlog.events.model import Action
from fightlog.rules.d20evasion import bands, stats
from fightlog.rules.d20evasion.allowance import breach
from fightlog.rules.d20evasion.attack import Defence, disarm_outcome, outcome
from fightlog.rules.d20evasion.fighters import Fighter
from fightlog.rules.d20evasion.harm import absorb, alter, injury_for
from fightlog.rules.d20evasion.initiative import Group, Member, groups, rank, within
from fightlog.rules.d20evasion.options import DEFAULTS, D20Options
from tests.rules.d20evasion.rigged import Fight

# --------------------------------------------------------------------------- the hit


@pytest.mark.parametrize(("total", "evasion", "hit"), [(13, 13, True), (14, 13, True), (12, 13, False), (1, 0, True)])
def test_an_attack_roll_at_or_above_evasion_hits(total: int, evasion: int, hit: bool) -> None:
    judged = outcome(10, total, evasion, (), DEFAULTS)
    assert (judged.hit, judged.against, judged.critical) == (hit, evasion, None)


def test_natural_rolls_mean_nothing_on_an_attack_unless_an_option_says_so() -> None:
    assert not outcome(20, 15, 16, (), DEFAULTS).hit
    assert outcome(1, 16, 16, (), DEFAULTS).hit
    houserules = D20Options(natural_20_hits=True, natural_1_misses=True)
    assert outcome(20, 15, 16, (), houserules) == (True, 16, "success", ("Evasion 16",))
    assert outcome(1, 16, 16, (), houserules).hit is False
    assert outcome(1, 16, 16, (), houserules).critical == "failure"


def test_a_dodge_must_be_higher_than_the_attack_roll() -> None:
    assert outcome(10, 15, 13, [Defence("dodge", 10, 14)], DEFAULTS).hit
    assert outcome(10, 15, 13, [Defence("dodge", 10, 15)], DEFAULTS).hit  # a tie is not higher
    dodged = outcome(10, 15, 13, [Defence("dodge", 12, 16)], DEFAULTS)
    assert (dodged.hit, dodged.against) == (False, 16)
    assert not outcome(10, 15, 13, [Defence("dodge", 10, 15)], D20Options(defence_tie="defender")).hit


def test_a_dodge_that_holds_still_needs_the_attack_to_beat_evasion() -> None:
    judged = outcome(10, 12, 13, [Defence("dodge", 5, 8)], DEFAULTS)
    assert (judged.hit, judged.against) == (False, 13)


def test_a_fumbled_defence_does_not_count() -> None:
    judged = outcome(10, 14, 13, [Defence("parry", 1, 25)], DEFAULTS)
    assert judged.hit and judged.against == 13
    assert "parry 25: critical failure" in judged.notes
    assert not outcome(10, 14, 13, [Defence("parry", 1, 25)], D20Options(critical_failure_fails=False)).hit


# --------------------------------------------------------------------------- damage


def test_armour_absorbs_damage_before_base_hp() -> None:
    assert absorb(40, 45, piercing=False) == (40, 0)
    assert absorb(40, 25, piercing=False) == (25, 15)
    assert absorb(40, 0, piercing=False) == (0, 40)


def test_piercing_damage_bypasses_armour() -> None:
    assert absorb(40, 45, piercing=True) == (0, 40)


@pytest.mark.parametrize(
    ("damage", "percents", "halves", "expected"),
    [
        (45, [50], "up", 25),  # 22.5: a half, rounded up
        (45, [50], "down", 20),
        (33, [50], "up", 15),  # 16.5: nearer 15
        (40, [150], "up", 60),
        (35, [150], "up", 55),  # 52.5
        (35, [150], "down", 50),
        (40, [50, 150], "up", 30),  # 30 exactly: both applied, rounded once
        (37, [], "up", 37),  # unaltered damage is not rounded
        (3, [50], "up", 0),
    ],
)
def test_altered_damage_is_rounded_to_the_nearest_5(damage: int, percents: list[int], halves: str,
                                                    expected: int) -> None:
    assert alter(damage, percents, D20Options(round_halves=halves)) == expected  # type: ignore[arg-type]


def test_the_rounding_step_is_an_option() -> None:
    assert alter(45, [50], D20Options(round_to=1)) == 23
    assert alter(45, [50], D20Options(round_to=10)) == 20


# --------------------------------------------------------------------------- the stat chart


@pytest.mark.parametrize(("stat", "bonus", "base"), [(9, -1, 0), (10, 0, 10), (19, 0, 10), (20, 1, 20), (21, 1, 20),
                                                     (30, 2, 30), (45, 3, 40)])
def test_the_stat_chart(stat: int, bonus: int, base: int) -> None:
    assert stats.stat_bonus(stat, DEFAULTS) == bonus
    assert stats.base_damage(stat, DEFAULTS) == base


@pytest.mark.parametrize(("level", "bonus"), [(1, 1), (5, 1), (6, 2), (10, 2), (11, 3)])
def test_the_level_bonus(level: int, bonus: int) -> None:
    assert stats.level_bonus(level, DEFAULTS) == bonus


@pytest.mark.parametrize(("dexterity", "points"), [(9, 0), (10, 1), (20, 2), (29, 2), (30, 3)])
def test_one_movement_point_per_10_dexterity(dexterity: int, points: int) -> None:
    assert stats.movement_points(dexterity, DEFAULTS) == points


# --------------------------------------------------------------------------- range bands


def test_the_movement_cost_chart() -> None:
    assert [bands.move_cost(a, b) for a, b in zip(bands.BANDS, bands.BANDS[1:])] == [0, 1, 2, 4, 8]
    assert [bands.move_cost(b, a) for a, b in zip(bands.BANDS, bands.BANDS[1:])] == [0, 1, 2, 4, 8]
    assert bands.move_cost("touch", "extreme") == 15
    assert bands.move_cost("far", "close") == 7


@pytest.mark.parametrize(("metres", "band"), [(0, "touch"), (1, "touch"), (2, "close"), (5, "close"),
                                              (6, "medium-close"), (15, "medium-close"), (40, "medium"),
                                              (100, "far"), (101, "extreme")])
def test_bands_by_distance(metres: int, band: str) -> None:
    assert bands.band_of(metres, DEFAULTS) == band


def test_a_move_stops_just_inside_the_band() -> None:
    assert bands.approach((30, 0), (0, 0), "medium-close", DEFAULTS) == (15, 0)
    assert bands.approach((3, 0), (0, 0), "medium", DEFAULTS) == (16, 0)
    assert bands.approach((0, 0), (0, 0), "close", DEFAULTS) == (2, 0)
    diagonal = bands.approach((30, 40), (0, 0), "close", DEFAULTS)
    assert bands.band_between(diagonal, (0, 0), DEFAULTS) == "close"


# --------------------------------------------------------------------------- the turn


def _who(**fields: object) -> Fighter:
    fight = Fight().join("alice", (0, 0), **fields).join("bob", (10, 0))
    fight.begin([20, 1])
    return Fighter(fight.state, "alice")


def act(kind: str, cost: str | None = None, **params: int | bool | str) -> Action:
    return Action(type=kind, cost=cost, params=dict(params))


def test_a_move_and_two_actions() -> None:
    who = _who()
    assert breach(who, [], [act("move", points=2), act("attack"), act("attack")]) is None
    assert breach(who, [act("attack"), act("move", points=1)], [act("attack"), act("move", points=1)]) is None
    found = breach(who, [act("attack"), act("attack")], [act("cast")])
    assert found is not None and found.code == "rules.allowance" and "2 actions a turn" in found.message
    assert breach(who, [], [act("move", points=3)]) is not None


def test_sprinting_doubles_the_movement_and_twice_triples_it() -> None:
    who = _who()  # 2 points
    assert breach(who, [], [act("sprint"), act("move", points=4), act("attack")]) is None
    assert breach(who, [], [act("sprint"), act("move", points=5)]) is not None
    assert breach(who, [], [act("sprint"), act("sprint"), act("move", points=6)]) is None
    assert breach(who, [], [act("sprint"), act("sprint"), act("attack")]) is not None


def test_an_item_takes_two_actions_and_a_long_cast_both() -> None:
    who = _who()
    assert breach(who, [], [act("use_item")]) is None
    assert breach(who, [], [act("use_item"), act("attack")]) is not None
    assert breach(who, [], [act("cast", cost="both"), act("move", points=2)]) is None
    assert breach(who, [act("attack")], [act("cast", cost="both")]) is not None


def test_holding_takes_the_whole_turn() -> None:
    who = _who()
    assert breach(who, [], [act("hold")]) is None
    assert breach(who, [act("move", points=1)], [act("hold")]) is not None
    assert breach(who, [], [act("skill", cost="full"), act("attack")]) is not None


def test_the_number_of_actions_is_an_option() -> None:
    fight = Fight({"actions_per_turn": 3}).join("alice", (0, 0)).join("bob", (10, 0))
    fight.begin([20, 1])
    assert breach(Fighter(fight.state, "alice"), [], [act("attack")] * 3) is None


# --------------------------------------------------------------------------- disarm, injuries


def test_a_disarm_needs_evasion_plus_3_and_a_natural_20_throws() -> None:
    assert disarm_outcome(5, 16, 13, DEFAULTS) == (True, 16, False)
    assert disarm_outcome(20, 20, 30, DEFAULTS) == (True, 33, True)
    assert disarm_outcome(19, 20, 30, DEFAULTS) == (False, 33, False)
    assert disarm_outcome(5, 17, 13, D20Options(disarm_difficulty_bonus=5)) == (False, 18, False)


@pytest.mark.parametrize(("face", "kind", "penalty"), [(1, "mangled", 0), (4, "mangled", 0), (5, "disabled", 0),
                                                       (9, "concussion", 5), (13, "muscle tear", 3),
                                                       (16, "muscle tear", 3), (17, "scars", 0), (20, "scars", 0)])
def test_the_injury_roll(face: int, kind: str, penalty: int) -> None:
    injury = injury_for(face, DEFAULTS)
    assert (injury.kind, injury.penalty) == (kind, penalty)


# --------------------------------------------------------------------------- initiative


def _member(actor: str, side: str, bonus: int, first: bool = False) -> Member:
    return Member(actor, side, bonus, first)


def test_a_party_rolls_on_its_best_bonus() -> None:
    members = [_member("a", "p", 1), _member("b", "p", 3), _member("c", "e", 2), _member("d", "p", 3)]
    party, enemies = groups(members, DEFAULTS)
    assert party.roller.actor == "b" and enemies.roller.actor == "c"
    assert within(party, DEFAULTS) == ["b", "d", "a"]
    assert within(party, D20Options(side_order="joined")) == ["a", "b", "d"]
    assert [g.name for g in groups(members, D20Options(initiative="individual"))] == ["a", "b", "c", "d"]


def test_initiative_ranks_the_higher_first_and_ties_by_bonus_then_joined() -> None:
    one, two, three = (Group(n, (_member(n, n, 0),)) for n in "xyz")
    assert rank([(one, (12, 1)), (two, (15, 0)), (three, (12, 3))]) == [two, three, one]
    assert rank([(one, (12, 1)), (two, (12, 1))]) == [one, two]


def test_options_are_all_recorded_and_checked() -> None:
    from fightlog.errors import InputError
    from fightlog.rules.d20evasion.options import read_options

    assert read_options({}) == DEFAULTS
    with pytest.raises(InputError, match="did you mean 'round_halves'"):
        read_options({"round_halfs": "up"})
    with pytest.raises(InputError, match="expected one of 'down', 'up'"):
        read_options({"round_halves": "sideways"})
    with pytest.raises(InputError, match="band limits grow outwards"):
        read_options({"close_max_m": 50})
    assert replace(DEFAULTS, mode="duel").mode == "duel"
