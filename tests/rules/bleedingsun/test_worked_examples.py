"""The rulebook's worked cases, exact, as pure functions and played through the table: the
recoil example (three 3RB bursts: -8; three full-auto bursts: -29; a 3RB and two single
shots: -4), the spread soak ratios, the explosive fall-off, an immediate action's drop in
the sequence, a split pool (a crouching shooter's +1 goes to the whole pool once)."""

from __future__ import annotations

from fightlog.events.model import AttackResolved, DamageApplied, DiceRolled, InitiativeSet
from fightlog.rules.bleedingsun.arithmetic import burst_recoil, drop, falloff, soaked, spread_ratio
from tests.rules.bleedingsun.rigged import of, ready_duel, trio


def test_the_recoil_example() -> None:
    assert burst_recoil(["3rb", "3rb", "3rb"], stance=None, comp=0) == 8
    assert burst_recoil(["full", "full", "full"], stance=None, comp=0) == 29
    assert burst_recoil(["3rb", "single", "single"], stance=None, comp=0) == 4
    assert burst_recoil(["single"], stance=None, comp=0) == 0
    assert burst_recoil(["3rb"], stance=None, comp=0) == 2


def test_crouching_and_prone_add_to_recoil_and_never_past_zero() -> None:
    assert burst_recoil(["3rb", "3rb", "3rb"], stance="crouched", comp=0) == 7
    assert burst_recoil(["3rb", "3rb", "3rb"], stance="prone", comp=0) == 6
    assert burst_recoil(["3rb"], stance="prone", comp=1) == 0


def test_three_3rb_bursts_played_take_8_off_the_pool() -> None:
    fight = ready_duel(a={"perception": 10})
    fight.post("ana", *["attack target=bo weapon=Rifle mode=3rb range=short"] * 3)
    events = fight.end_turn([1, 1, 1, 1])
    rolls = [e for e in of(events, DiceRolled) if e.purpose == "attack"]
    assert [e.notation for e in rolls] == ["2d6>=5", "1d6>=5", "1d6>=5"]
    first = of(events, AttackResolved)[0]
    assert "-8 recoil (whole pool)" in first.notes and "share 2 of 4" in first.notes


def test_the_spread_soak_ratios() -> None:
    assert [spread_ratio(hits, 2) for hits in (1, 2, 3)] == [3, 2, 1]
    assert [soaked(6, 2, ratio) for ratio in (3, 2, 1)] == [6, 4, 2]


def test_a_spread_played_soaks_2_where_met_and_1_where_exceeded() -> None:
    fight = trio(armour=0)
    events = fight.post("ana", "attack weapon=Shotgun target=bo targets=bo,cy distance=2 d_cy=5",
                        faces=[5, 6, 1, 1] + [5, 5, 5, 1, 1, 1, 1] + [5, 1] + [5, 5, 5, 5, 1, 1] + [5, 5])
    bo, cy = of(events, AttackResolved)
    assert (bo.hit, bo.score, bo.against, cy.hit, cy.score, cy.against) == (True, 2, 1, True, 2, 2)
    assert "spread (medium, short range): soak x1" in bo.notes
    assert "spread (medium, medium range): soak x2" in cy.notes
    assert [(d.target, d.raw, d.reduced_by, d.taken) for d in of(events, DamageApplied)] == [
        ("bo", 3, 1, 2), ("cy", 4, 4, 0)]
    assert [len(e.dice) for e in of(events, DiceRolled)] == [4, 7, 2, 6, 2]  # DV 6 + 1 net hit for bo


def test_a_spread_that_misses_its_threshold_lands_and_soaks_3_a_hit() -> None:
    fight = trio(armour=0)
    events = fight.post("ana", "attack weapon=Shotgun target=bo distance=2",
                        faces=[1, 1, 1, 1] + [5, 5, 5, 5, 1, 1] + [5, 1])
    (hit,) = of(events, AttackResolved)
    assert (hit.hit, hit.score, hit.against) == (True, 0, 1)
    assert [(d.raw, d.reduced_by, d.taken) for d in of(events, DamageApplied)] == [(4, 3, 1)]


def test_a_targeted_spread_raises_the_first_targets_threshold_alone() -> None:
    """Shotguns and Flamers: a targeted shot with a spread is on the first opponent it hits;
    the others it catches keep the chart's threshold (cy at medium range: 2, met and
    exceeded by 3 hits: soak x1, DV 6 + 1 net hit), in the table and in the audit."""
    from fightlog.audit.one_process import audit_events

    fight = trio(armour=0)
    events = fight.post("ana", "attack weapon=Shotgun target=bo targets=bo,cy distance=2 d_cy=5 targeted=small",
                        faces=[5, 5, 5, 1] + [1] * 6 + [1, 1] + [1] * 7 + [1, 1])
    bo, cy = of(events, AttackResolved)
    assert (bo.score, bo.against, cy.score, cy.against) == (3, 4, 3, 2)
    assert "+3 targeted shot (small)" in bo.notes[-2] and "soak x3" in bo.notes[-1]
    assert not any("targeted" in n for n in cy.notes) and "spread (medium, medium range): soak x1" in cy.notes
    assert [len(e.dice) for e in of(events, DiceRolled)] == [4, 6, 2, 7, 2]
    assert [f.code for f in audit_events(fight.scribe.events).findings if f.severity == "error"] == []


def test_the_explosive_fall_off() -> None:
    assert [falloff(6, hexes) for hexes in (0, 1, 2, 3, 4, 9)] == [6, 6, 5, 4, 3, 0]


def test_a_grenade_played_with_a_dodge_and_the_fall_off() -> None:
    fight = trio()
    fight.post("ana", "throw weapon=Frag target=bo caught=cy:3")
    fight.post("bo", "dodge")
    assert fight.order == ["ana", "cy", "bo"]
    events = fight.post("cy", "take", faces=[5, 1, 1] + [5, 5, 1] + [5, 5, 5, 5, 1, 1] + [1, 1]
                        + [5, 5, 5, 5, 1, 1] + [1, 1])
    assert [(d.target, d.raw, d.reduced_by, d.taken) for d in of(events, DamageApplied)] == [
        ("bo", 4, 2, 2),  # full damage in the blast hex; one dodge hit soaks 2
        ("cy", 2, 0, 2),  # 4 less 2 three hexes out
    ]


def test_an_immediate_action_drops_one_place() -> None:
    assert drop(["ana", "bo", "cy"], "bo", 1) == ["ana", "cy", "bo"]
    assert drop(["ana", "bo", "cy"], "ana", 1) == ["bo", "ana", "cy"]
    assert drop(["ana", "bo", "cy"], "cy", 1) == ["ana", "bo", "cy"]
    assert drop(["ana", "bo", "cy"], "ana", 2) == ["bo", "cy", "ana"]


def test_a_drop_passes_over_those_down() -> None:
    """A place is someone who still acts: dropping behind an unconscious fighter (still
    listed) would change nothing; one drops behind the next who acts."""
    assert drop(["ana", "bo", "cy"], "ana", 1, {"bo"}) == ["bo", "cy", "ana"]
    assert drop(["ana", "bo", "cy", "di"], "ana", 1, {"bo"}) == ["bo", "cy", "ana", "di"]
    assert drop(["ana", "bo", "cy"], "ana", 1, {"bo", "cy"}) == ["ana", "bo", "cy"]  # nobody left to act after
    assert drop(["ana", "bo", "cy", "di"], "bo", 2, {"cy"}) == ["ana", "cy", "di", "bo"]


def test_an_immediate_action_played_drops_its_maker_and_the_order_follows() -> None:
    fight = trio()
    fight.post("ana", "attack target=bo weapon=Rifle range=short")
    events = fight.post("bo", "dodge", faces=[1, 1, 1] + [1, 1, 1, 1, 1])
    assert [e.order for e in of(events, InitiativeSet)] == [["ana", "cy", "bo"]]
    fight.end_turn()
    assert fight.current == "cy"


def test_a_split_pool_takes_the_crouching_bonus_once() -> None:
    fight = ready_duel()
    fight.turn("ana", "stance to=crouched")
    fight.turn("bo", "say")
    fight.post("ana", "attack target=bo weapon=Rifle range=short dice=4", "attack target=bo weapon=Rifle range=short")
    events = fight.end_turn([1] * 6)
    first, second = of(events, AttackResolved)
    # accuracy 2 + perception 3 + 1 crouching, once; the second shot's recoil 1 is taken up by
    # crouching (+1 to recoil): 6, split 4 and 2
    assert [len(e.dice) for e in of(events, DiceRolled)] == [4, 2]
    assert "+1 crouching (whole pool)" in first.notes and "share 4 of 6" in first.notes
    assert "share 2 of 6" in second.notes and not any("recoil" in n for n in first.notes)


def test_a_stance_changed_earlier_in_the_post_counts_for_its_split_pool_and_a_later_one_does_not() -> None:
    """A post's actions happen in the order given: prone, then two 3RB bursts, fires prone
    (accuracy 2 + perception 3 + 2 prone, less recoil 5 - 2 = 3: a pool of 4, split 3 and
    1); the table's check and the resolution read the same stance (the check once read the
    stance before the post, a pool of 0, and refused the split). Fire, then stand up, fires
    prone (the resolution once read the stance after the post)."""
    from fightlog.audit.one_process import audit_events

    fight = ready_duel()
    fight.post("ana", "stance to=prone", "attack target=bo weapon=Rifle mode=3rb range=short dice=3",
               "attack target=bo weapon=Rifle mode=3rb range=short")
    events = fight.end_turn([1] * 4)
    first, second = of(events, AttackResolved)
    assert [len(e.dice) for e in of(events, DiceRolled)] == [3, 1]
    assert "+2 prone (whole pool)" in first.notes and "-3 recoil (whole pool)" in first.notes
    assert "share 3 of 4" in first.notes and "share 1 of 4" in second.notes
    fight.turn("bo", "say")
    fight.post("ana", "attack target=bo weapon=Rifle range=short", "stance to=standing")
    events = fight.end_turn([1] * 7)
    shot, = of(events, AttackResolved)
    assert len(of(events, DiceRolled)[0].dice) == 7 and "+2 prone" in shot.notes
    assert [f.code for f in audit_events(fight.scribe.events).findings if f.severity == "error"] == []


def test_a_split_share_is_a_whole_number_of_dice_at_least_one() -> None:
    """A share is some of the pool: a negative one would hand the other attacks more dice than
    the pool holds (``dice=-10`` of 6 left 16 for the second shot), so it is refused under
    every ``low_pool`` option."""
    for options in ({}, {"low_pool": "minimum"}):
        fight = ready_duel(options)
        for share in ("-10", "0", "true", "x"):
            refused = fight.refused("ana", f"attack target=bo weapon=Rifle range=short dice={share}",
                                    "attack target=bo weapon=Rifle range=short")
            assert refused.code == "rules.split" and "at least 1" in str(refused), (options, share)


def test_a_split_pool_standing_pays_the_second_shots_recoil() -> None:
    fight = ready_duel()
    fight.post("ana", "attack target=bo weapon=Rifle range=short", "attack target=bo weapon=Rifle range=short")
    events = fight.end_turn([1] * 4)
    assert [len(e.dice) for e in of(events, DiceRolled)] == [2, 2]  # 5 less 1 recoil, evenly
    assert "-1 recoil (whole pool)" in of(events, AttackResolved)[0].notes


def test_a_drop_played_behind_a_fighter_down_puts_its_maker_after_the_next_who_acts() -> None:
    from fightlog.events.model import TurnStarted
    from tests.rules.bleedingsun.rigged import Fight

    fight = Fight().join("ana", side="a").join("bo", side="a", hp=1, fortitude=0).join("cy", side="b")
    fight.begin([6] * 6 + [6] * 5 + [1] + [6] * 4 + [1] * 2)
    assert fight.order == ["ana", "bo", "cy"]
    for actor in ("ana", "bo", "cy", "ana", "bo"):
        fight.turn(actor, "say")
    fight.post("cy", "attack target=bo weapon=Knife")
    fight.post("bo", "take", faces=[5, 1, 1, 1] + [5, 5, 5])
    fight.end_turn()
    assert "unconscious" in fight.statuses("bo")
    fight.end_turn()  # ana opens round 3
    fight.post("cy", "attack target=ana weapon=Knife")
    events = fight.post("ana", "dodge", faces=[1, 1, 1] + [1, 1, 1, 1])
    assert [e.order for e in of(events, InitiativeSet)] == [["bo", "cy", "ana"]]
    events = fight.end_turn()
    assert [(e.actor, e.round) for e in of(events, TurnStarted)] == [("cy", 4)]  # then ana: her drop cost her
