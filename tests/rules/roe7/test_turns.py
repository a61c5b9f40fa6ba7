"""The turn and the fight around it (Parts of a Turn; Movement Range; Sprint; Falling; Fleeing;
Calling for Aid; Entering a Combat in Progress; Explosives; Changing Weapons; Wounded; Mortal
Wound; Size Classes; Racials) and the refusals."""

from __future__ import annotations

import pytest

from fightlog.events.model import (
    AttackResolved,
    DamageApplied,
    DiceRolled,
    EffectApplied,
    EffectExpired,
    HealingApplied,
    InitiativeSet,
    Modifier,
    ResourceSpent,
    StatusChanged,
    TurnStarted,
)
from tests.rules.roe7.rigged import CLUB_M, MG, PISTOL, RIFLE, SWORD_M, Fight, act, duel, of


def mod(value: int, applies_to: str) -> dict[str, object]:
    return {"value": value, "source": "stats", "applies_to": applies_to}


def rolls(events: list[object], purpose: str) -> list[DiceRolled]:
    return [e for e in of(events, DiceRolled) if e.purpose == purpose]


def pass_turn(fight: Fight, nxt: str) -> None:
    """End the open turn (``nxt``'s opens), then ``nxt``'s."""
    fight.end_turn()
    assert fight.current == nxt
    fight.end_turn()


# --------------------------------------------------------------------------- a turn


def test_one_action_per_turn() -> None:
    fight = duel()
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE), act("aim", "bob")) == (
        "alice has no action left this turn (one action per turn)"
    )
    fight.post("alice", act("aim", "bob"))
    assert fight.refused("alice", act("reload", weapon=RIFLE)) == "alice has no action left this turn (one action per turn)"


def test_one_movement_phase_per_turn_besides_the_action() -> None:
    fight = duel()
    fight.post("alice", act("move", m=3), act("attack", "bob", weapon=RIFLE), faces=[99, 2])
    assert fight.refused("alice", act("move", m=1)) == "alice has used this turn's movement phase"
    assert fight.refused("alice", act("kneel")) == "alice has used this turn's movement phase"


def test_speech_is_free() -> None:
    fight = duel()
    fight.post("alice", act("say"), act("aim", "bob"), act("say"))
    fight.post("alice", act("say"))
    assert fight.refused("bob", act("say")) == "out of turn: it is alice's turn to post"


def test_an_interrupt_is_a_post_of_its_own() -> None:
    fight = duel()
    assert fight.refused("alice", act("aim", "bob"), act("interrupt", weapon=RIFLE)) == (
        "an interrupt is a post of its own (interrupt, and say if wanted)"
    )


def test_out_of_turn_posts_are_refused() -> None:
    fight = duel()
    assert fight.refused("bob", act("attack", "alice", weapon=RIFLE)) == "out of turn: it is alice's turn to post"


def test_turns_follow_the_order_joined_and_rounds_repeat() -> None:
    fight = duel()
    assert of(fight.scribe.events, InitiativeSet)[0].order == ["alice", "bob"]
    events = fight.end_turn() + fight.end_turn()
    assert [(t.actor, t.round) for t in of(events, TurnStarted)] == [("bob", 1), ("alice", 2)]


def test_a_d100_initiative_orders_by_the_rolls() -> None:
    fight = Fight({"initiative": "d100"})
    fight.join("alice").join("bob", (5, 0)).faces(20, 80)
    fight.begin()
    assert of(fight.scribe.events, InitiativeSet)[0].order == ["bob", "alice"]


# --------------------------------------------------------------------------- movement


def test_a_movement_phase_covers_8_m() -> None:
    fight = duel()
    assert fight.refused("alice", act("move", m=9)) == "alice can move 8 m more this turn, not 9 m"
    fight.post("alice", act("move", toward="bob", m=8))
    assert fight.state.combatants["alice"].position == (8, 0)


def test_a_move_toward_someone_reads_distance_as_its_metres() -> None:
    """roe7.md: a move's ``distance=METRES`` is its ``m=METRES``; toward= asked for m= alone."""
    fight = duel()
    fight.post("alice", act("move", toward="bob", distance=5))
    assert fight.state.combatants["alice"].position == (5, 0)


def test_a_move_to_a_point_is_measured_straight_and_rounded_up() -> None:
    fight = duel()
    assert fight.refused("alice", act("move", x=6, y=6)) == "alice can move 8 m more this turn, not 9 m"
    fight.post("alice", act("move", x=5, y=6))  # 7.8 m: 8
    assert fight.state.combatants["alice"].moved == 8


def test_a_move_toward_someone_stops_short_of_their_spot() -> None:
    """A tester's `move toward=alice m=12` 12 m away put Bob on Alice's point (0, 0)."""
    fight = duel(distance=8)
    fight.post("alice", act("move", toward="bob", m=8))
    alice = fight.state.combatants["alice"]
    assert (alice.position, alice.moved) == ((7, 0), 7)  # a metre short of bob at (8, 0)
    fight = duel(distance=20)
    fight.post("alice", act("move", toward="bob", m=8))
    alice = fight.state.combatants["alice"]
    assert (alice.position, alice.moved) == ((8, 0), 8)  # far: the whole 8


def test_a_move_toward_someone_too_far_says_why_its_metres_are_not_those_asked() -> None:
    """`move toward=bob m=100` said "not 14 m", a figure the player never wrote."""
    fight = duel(distance=15)
    assert fight.refused("alice", act("move", toward="bob", m=100)) == (
        "alice can move 8 m more this turn, not 14 m (m=100 toward bob: 14 m takes alice to a metre short of them)")


def test_a_move_of_a_billion_metres_away_is_refused_at_once() -> None:
    """`move away=rook m=1000000000` searched a billion columns for its spot (a review): a
    move past the allowance is refused before a spot is sought."""
    fight = duel(distance=15)
    assert fight.refused("alice", act("move", away="bob", m=10**9)) == "alice can move 8 m more this turn, not 1000000000 m"
    fight.post("alice", act("move", away="bob", m=8))
    assert fight.state.combatants["alice"].position == (-8, 0)


def test_a_move_given_two_ways_or_a_negative_fall_is_refused() -> None:
    """`move away=bob m=3 toward=bob` went toward Bob, `fall=-1` was ignored (a fuzzer)."""
    fight = duel(distance=15)
    assert fight.refused("alice", act("move", away="bob", toward="bob", m=3)) == (
        "a move goes one way: toward=bob and away=bob both given (give one)")
    assert fight.refused("alice", act("move", x=1, y=0, toward="bob")) == (
        "a move goes one way: x= y= and toward=bob both given (give one)")
    assert fight.refused("alice", act("move", x=1, y=0, fall=-1)) == "fall=-1: the metres fallen, a whole number 0 or more"


def test_a_move_refused_says_what_was_wrong_with_the_value_given() -> None:
    fight = duel()
    negative = "m=-3 is negative: a move covers 0 m or more (to go back, move away=ID or to x= y=)"
    assert fight.refused("alice", act("move", m=-3)) == negative
    assert fight.refused("alice", act("move", toward="bob", m=-3)) == negative
    assert fight.refused("alice", act("move", m="far")) == (
        "a move needs x= and y=, toward=ID or away=ID with m=METRES, or m=METRES (m=far is not a whole number of metres)")
    assert fight.refused("alice", act("move", m=True)) == (  # not 1 m
        "a move needs x= and y=, toward=ID or away=ID with m=METRES, or m=METRES (m=true is not a whole number of metres)")
    assert fight.refused("alice", act("move", x="1e3", y=0)) == "move: x=1e3: a position is whole metres (x=12 y=-3)"


def test_difficult_ground_costs_extra_metres() -> None:
    fight = duel()
    assert fight.refused("alice", act("move", m=7, difficult=2)) == "alice can move 8 m more this turn, not 9 m"


def test_a_sprint_costs_the_action_for_4_more_metres() -> None:
    fight = duel()
    fight.post("alice", act("sprint"), act("move", m=12))
    assert fight.refused("alice", act("attack", "bob", weapon=RIFLE)).endswith("has no action left this turn (one action per turn)")
    fight.end_turn()
    assert fight.refused("bob", act("move", m=12)) == "bob can move 8 m more this turn, not 12 m"


@pytest.mark.parametrize(("racial", "race", "metres"), [("simply-speedy", "feral", 10), ("warrior-caste", "caste", 6),
                                                          ("powerfully-built", "brute", 7)])
def test_racial_movement(racial: str, race: str, metres: int) -> None:
    fight = duel(a={"race": race, "racial": racial})
    assert fight.refused("alice", act("move", m=metres + 1)) == f"alice can move {metres} m more this turn, not {metres + 1} m"


@pytest.mark.parametrize(("metres", "dodge", "damage"), [(5, 74, 10), (8, 74, 13), (8, 75, 0), (12, 20, 17)])
def test_a_fall_of_5_m_or_more_deals_10_plus_1_a_metre_over_5_unless_dodged_at_75(
    metres: int, dodge: int, damage: int
) -> None:
    fight = duel(a={"dr": {"all": 10}})
    events = fight.post("alice", act("move", m=1, fall=metres), faces=[dodge])
    assert rolls(events, "dodge")[0].label == f"fall of {metres} m"
    assert [(d.raw, d.reduced_by) for d in of(events, DamageApplied)] == ([(damage, 0)] if damage else [])


def test_a_fall_below_5_m_needs_no_roll() -> None:
    fight = duel()
    assert of(fight.post("alice", act("move", m=1, fall=4)), DiceRolled) == []


def test_the_fall_dodge_counts_dodge_modifiers() -> None:
    fight = duel(a={"modifiers": [mod(10, "dodge")]})
    assert of(fight.post("alice", act("move", m=1, fall=6), faces=[65]), DamageApplied) == []


# --------------------------------------------------------------------------- fleeing


def test_fleeing_takes_the_whole_turn() -> None:
    fight = duel()
    reason = "alice: fleeing and extinguishing take the whole turn (movement and action)"
    assert fight.refused("alice", act("flee"), act("move", m=1)) == reason
    fight.post("alice", act("move", m=1))
    assert fight.refused("alice", act("flee")) == reason


def test_an_uninterrupted_flee_leaves_the_fight() -> None:
    fight = duel()
    fight.post("alice", act("flee"))
    events = fight.end_turn(faces=[30])
    assert rolls(events, "flee")[0].total == 30
    assert "fled" in fight.statuses("alice") and fight.spent("alice")["flee_attempts"] == 1
    fight.end_turn()
    assert fight.current == "bob"  # alice is skipped from now on
    assert fight.refused("bob", act("attack", "alice", weapon=RIFLE)) == "alice is not in the fight any more"


def test_an_interrupter_declares_before_the_rolls_and_one_hit_stops_the_flee() -> None:
    fight = duel(a={"modifiers": [mod(5, "dodge")]}, b={"modifiers": [mod(5, "ballistic_damage")]})
    declared = fight.post("alice", act("flee"))
    flee_seq = declared[0].seq
    events = fight.post("bob", act("interrupt", weapon=RIFLE), responds_to=flee_seq)
    assert of(events, DiceRolled) == []  # nothing is rolled until the turn ends
    assert [e.name for e in of(events, EffectApplied)] == ["lost_action"]  # bob's next action
    events = fight.end_turn(faces=[40, 46, 7])
    flee_roll = rolls(events, "flee")[0]
    assert flee_roll.total == 45 and Modifier(value=5, source="stats") in flee_roll.modifiers
    [strike] = of(events, AttackResolved)
    assert strike.hit and (strike.score, strike.against) == (46, 45)
    assert [r.notation for r in rolls(events, "damage")] == ["1d20"]  # one hit, even from an automatic rifle
    assert fight.hp("alice") == 88 and "fled" not in fight.statuses("alice")
    assert fight.spent("alice")["flee_attempts"] == 1
    assert fight.refused("bob", act("attack", "alice", weapon=RIFLE)) == "bob lost this turn's action"


def test_a_missed_interrupt_lets_the_flee_through() -> None:
    fight = duel()
    flee_seq = fight.post("alice", act("flee"))[0].seq
    fight.post("bob", act("interrupt", weapon=RIFLE), responds_to=flee_seq)
    fight.end_turn(faces=[45, 45])  # a tie goes to the one fleeing
    assert "fled" in fight.statuses("alice")


def test_interrupts_need_a_pending_flee() -> None:
    fight = duel()
    assert fight.refused("bob", act("interrupt", weapon=RIFLE)) == "nothing to interrupt: no flee or com call pending (this turn)"
    fight.post("alice", act("flee"))
    fight.end_turn(faces=[30])
    assert fight.state.turn.current == "bob"


def test_an_interrupter_whose_next_action_is_spent_cannot_interrupt_again() -> None:
    fight = Fight()
    fight.join("alice").join("bob", (5, 0), weapons=[RIFLE]).join("carl", (0, 5)).begin()
    flee_seq = fight.post("alice", act("flee"))[0].seq
    fight.post("bob", act("interrupt", weapon=RIFLE), responds_to=flee_seq)
    assert fight.refused("bob", act("interrupt", weapon=RIFLE), responds_to=flee_seq) == (
        "bob's next action is already lost (an earlier interrupt or a critical failure)"
    )


def test_a_stunned_fighter_cannot_interrupt_before_the_turn_the_stun_takes() -> None:
    """Interrupting spends one's next action (Fleeing); a stun already takes it (Stun): Bob,
    stunned in Alice's turn, has no action to spend on Carl's flee before his own turn."""
    fight = Fight()
    fight.join("alice", (0, 0), weapons=[CLUB_M]).join("carl", (0, 3)).join("bob", (2, 0), weapons=[RIFLE]).begin()
    fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 75, 1])
    fight.end_turn()
    assert fight.current == "carl" and "stun" in fight.effects("bob")
    flee_seq = fight.post("carl", act("flee"))[0].seq
    assert fight.refused("bob", act("interrupt", weapon=RIFLE), responds_to=flee_seq) == (
        "bob is stunned: the next action is lost to the stun, so there is none to spend on an interrupt"
    )


def test_an_interrupter_weapon_must_be_ready_and_in_reach() -> None:
    fight = duel(b={"weapons": [CLUB_M, RIFLE]})
    flee_seq = fight.post("alice", act("flee"))[0].seq
    assert "beyond melee reach" in fight.refused("bob", act("interrupt", weapon=CLUB_M), responds_to=flee_seq)


def test_two_flee_attempts_per_combat() -> None:
    fight = duel()
    for _ in range(2):
        flee_seq = fight.post("alice", act("flee"))[0].seq
        fight.post("bob", act("interrupt", weapon=RIFLE), responds_to=flee_seq)
        fight.end_turn(faces=[10, 50, 1])
        fight.end_turn()
    assert fight.refused("alice", act("flee")) == "alice has used both flee attempts of this combat"


def test_the_flee_option_changes_the_attempts() -> None:
    fight = duel({"flee_attempts": 1})
    flee_seq = fight.post("alice", act("flee"))[0].seq
    fight.post("bob", act("interrupt", weapon=RIFLE), responds_to=flee_seq)
    fight.end_turn(faces=[10, 50, 1])
    fight.end_turn()
    assert fight.refused("alice", act("flee")) == "alice has used both flee attempts of this combat"


# --------------------------------------------------------------------------- calling for aid


def called(near: bool = False) -> Fight:
    fight = Fight()
    fight.join("alice", side="colony", weapons=[RIFLE]).join("bob", (10, 0), side="raiders", weapons=[RIFLE])
    fight.join("kestrel", (40, 0), side="colony", reserve=True, weapons=[RIFLE])
    fight.begin()
    fight.post("alice", act("com_call", calls="kestrel", near_base=near))
    fight.end_turn(faces=[30])
    return fight


def test_called_allies_enter_after_the_callers_next_two_turns() -> None:
    fight = called()
    assert fight.effects("alice") == {"reinforcements": 2}
    fight.end_turn()  # round 2, alice's turn: the first of the two
    assert fight.effects("alice") == {"reinforcements": 2} and fight.current == "alice"
    fight.end_turn()
    assert fight.effects("alice") == {"reinforcements": 1}
    fight.end_turn()
    events = fight.end_turn()  # round 3: alice's second turn ends, kestrel's slot follows hers
    assert of(events, InitiativeSet)[0].order == ["alice", "kestrel", "bob"]
    assert fight.current == "kestrel" and "arriving" in fight.statuses("kestrel")
    assert fight.refused("kestrel", act("attack", "bob", weapon=RIFLE)) == (
        "kestrel is arriving: the first post is the arrival only (say, draw), not attack"
    )
    fight.post("kestrel", act("say"), act("draw", weapon=RIFLE))
    fight.end_turn()
    fight.end_turn()
    fight.end_turn()
    assert fight.current == "kestrel"
    fight.post("kestrel", act("attack", "bob", weapon=RIFLE), faces=[99, 2])


def test_a_call_within_70_m_of_base_waits_one_turn() -> None:
    fight = called(near=True)
    assert fight.effects("alice") == {"reinforcements": 1}
    events = fight.end_turn() + fight.end_turn()
    assert fight.current == "kestrel" and of(events, InitiativeSet)[0].order == ["alice", "kestrel", "bob"]


def test_an_interrupted_com_call_destroys_the_com_without_damage() -> None:
    fight = Fight()
    fight.join("alice", weapons=[RIFLE]).join("bob", (10, 0), weapons=[RIFLE]).join("kestrel", reserve=True).begin()
    call = fight.post("alice", act("com_call", calls="kestrel"))[0].seq
    fight.post("bob", act("interrupt", weapon=RIFLE), responds_to=call)
    events = fight.end_turn(faces=[30, 31])
    assert of(events, DamageApplied) == [] and "com_disabled" in fight.statuses("alice")
    assert fight.effects("alice") == {}
    fight.end_turn()
    assert fight.refused("alice", act("com_call", calls="kestrel")) == "alice's com was destroyed earlier in this combat"


def test_a_reserve_is_not_in_the_fight_yet() -> None:
    """It was "not in the fight any more", said of one who had never been in it."""
    fight = Fight()
    fight.join("alice", weapons=[RIFLE]).join("bob", (10, 0), weapons=[RIFLE]).join("kestrel", reserve=True).begin()
    assert fight.refused("alice", act("attack", "kestrel", weapon=RIFLE)) == (
        "kestrel is in reserve, not in the fight yet (a com call brings them in)")


def test_a_com_call_needs_a_reserve() -> None:
    fight = duel()
    assert fight.refused("alice", act("com_call", calls="bob")) == "bob is not a reserve waiting for a call"


def test_allies_still_come_when_the_caller_is_downed() -> None:
    fight = Fight()
    fight.join("alice", weapons=[RIFLE], hp=5).join("bob", (10, 0), weapons=[RIFLE])
    fight.join("kestrel", reserve=True).begin()
    fight.post("alice", act("com_call", calls="kestrel"))
    fight.end_turn(faces=[30])
    fight.post("bob", act("attack", "alice", weapon=RIFLE), faces=[10, 50, 20, 90])
    assert "defeated" in fight.statuses("alice")
    fight.end_turn()  # round 2: alice's slot passes (1 left)
    fight.end_turn()  # round 3: alice's slot passes again: kestrel arrives after her
    assert fight.current == "kestrel" and "arriving" in fight.statuses("kestrel")


# --------------------------------------------------------------------------- arrivals


def test_an_arrival_takes_the_claimed_slot_next_round_and_acts_from_the_turn_after() -> None:
    fight = duel()
    fight.join("carl", (15, 0), after="alice", weapons=[RIFLE])
    assert "arriving" in fight.statuses("carl") and "carl" not in fight.state.turn.order
    fight.end_turn()
    fight.end_turn()
    assert fight.state.turn.order == ("alice", "carl", "bob") and fight.current == "alice"
    fight.end_turn()
    assert fight.current == "carl"
    assert fight.refused("carl", act("move", m=1)) == "carl is arriving: the first post is the arrival only (say, draw), not move"
    fight.post("carl", act("say"), act("draw", weapon=RIFLE))
    fight.end_turn()
    fight.end_turn()
    fight.end_turn()
    fight.post("carl", act("move", m=2), act("attack", "bob", weapon=RIFLE), faces=[99, 2])


def test_an_arrival_cannot_interrupt_until_their_next_turn() -> None:
    fight = duel()
    fight.join("carl", (15, 0), after="bob", weapons=[RIFLE])
    pass_turn(fight, "bob")
    flee_seq = fight.post("alice", act("flee"))[0].seq
    assert fight.refused("carl", act("interrupt", weapon=RIFLE), responds_to=flee_seq) == (
        "carl has just arrived: no actions, interrupts included, until their next turn"
    )


def test_an_arrival_cannot_interrupt_between_the_arrival_post_and_their_next_turn() -> None:
    """Entering a Combat in Progress: actions, interrupts included, only from the turn after
    the arrival post, even when someone flees in between."""
    fight = duel()
    fight.join("carl", (15, 0), after="bob", weapons=[RIFLE])
    pass_turn(fight, "bob")  # round 1 over
    pass_turn(fight, "bob")  # alice's and bob's turns of round 2; carl's arrival post opens
    assert fight.current == "carl"
    fight.post("carl", act("say"))
    fight.end_turn()  # round 3: alice
    flee_seq = fight.post("alice", act("flee"))[0].seq
    assert fight.refused("carl", act("interrupt", weapon=RIFLE), responds_to=flee_seq) == (
        "carl has just arrived: no actions, interrupts included, until their next turn"
    )


# --------------------------------------------------------------------------- changing weapons


def test_drawing_is_free_on_the_first_turn_only() -> None:
    fight = duel(a={"weapons": [RIFLE, PISTOL]})
    events = fight.post("alice", act("draw", weapon=PISTOL), act("attack", "bob", weapon=PISTOL), faces=[99, 2])
    assert events[0].actions[0].cost == "free"  # type: ignore[union-attr]
    events = fight.end_turn()
    assert [(r.actor, r.resource) for r in of(events, ResourceSpent)] == [("alice", "first-turn free draw")]
    fight.end_turn()
    assert fight.refused("alice", act("draw", weapon=RIFLE), act("attack", "bob", weapon=RIFLE)) == (
        "alice has no action left this turn (one action per turn)"
    )
    fight.post("alice", act("draw", weapon=RIFLE))


def test_the_free_draw_waits_for_the_first_turn_not_stunned() -> None:
    fight = Fight()
    fight.join("alice", (0, 0), weapons=[CLUB_M]).join("bob", (2, 0), weapons=[RIFLE, PISTOL]).begin()
    fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 80, 1])
    assert fight.refused("bob", act("draw", weapon=PISTOL)) == "out of turn: it is alice's turn to post"
    fight.end_turn()
    assert fight.refused("bob", act("draw", weapon=PISTOL)) == "bob is stunned: no action this turn"
    fight.end_turn()
    assert "first-turn free draw" not in fight.spent("bob")
    fight.end_turn()
    fight.post("bob", act("draw", weapon=PISTOL), act("attack", "alice", weapon=PISTOL), faces=[99, 2])


def test_drawing_needs_a_carried_weapon() -> None:
    fight = duel()
    assert fight.refused("alice", act("draw", weapon="Sword")) == (
        f"alice carries no weapon 'Sword' (carries {RIFLE})"
    )


# --------------------------------------------------------------------------- grenades


def grenadier(**fields: object) -> Fight:
    fight = Fight()
    fight.join("alice", (0, 0), grenades=[{"name": "Frag", "count": 2}], weapons=[RIFLE], **fields)
    fight.join("bob", (10, 0), weapons=[RIFLE], dr={"explosive": 3})
    fight.join("carl", (10, 4), weapons=[RIFLE])
    fight.begin()
    return fight


def test_a_grenade_explodes_at_the_end_of_the_throwers_second_turn() -> None:
    fight = grenadier()
    events = fight.post("alice", act("throw", "bob", item="Frag"))
    assert [(r.resource, r.amount) for r in of(events, ResourceSpent)] == [("Frag", 1)]
    assert of(fight.end_turn(), DiceRolled) == []  # the first turn ends: nothing yet
    fight.end_turn()
    fight.end_turn()
    # the second turn ends: alice's 1d100 is what bob (at the spot) and carl (4 m away) must beat
    events = fight.end_turn(faces=[60, 61, 59, 30])
    assert [(r.roller, r.purpose) for r in of(events, DiceRolled)] == [
        ("alice", "explosive"), ("bob", "dodge"), ("carl", "dodge"), ("alice", "damage"),
    ]
    assert [(r.target, r.hit) for r in of(events, AttackResolved)] == [("bob", False), ("carl", True)]
    assert [(d.target, d.raw, d.reduced_by) for d in of(events, DamageApplied)] == [("carl", 30, 0)]
    assert of(events, EffectExpired)[0].reason == "exploded"


def test_a_tie_with_the_throwers_roll_is_a_dodge() -> None:
    fight = grenadier()
    fight.post("alice", act("throw", "bob", item="Frag"))
    fight.end_turn()
    fight.end_turn()
    fight.end_turn()
    events = fight.end_turn(faces=[60, 60, 61])
    assert [r.hit for r in of(events, AttackResolved)] == [False, False]


def test_a_cooked_grenade_is_thrown_next_turn_and_explodes_at_its_end() -> None:
    fight = grenadier()
    fight.post("alice", act("cook", item="Frag"))
    for _ in range(3):
        fight.end_turn()
    fight.post("alice", act("throw", "carl"))
    events = fight.end_turn(faces=[60, 10, 10, 5, 5])
    assert [d.target for d in of(events, DamageApplied)] == ["bob", "carl"]


def test_a_stunned_cook_explodes_in_hand() -> None:
    fight = Fight()
    fight.join("alice", (0, 0), grenades=[{"name": "Frag"}], weapons=[RIFLE])
    fight.join("bob", (2, 0), weapons=[CLUB_M])
    fight.begin()
    fight.post("alice", act("cook", item="Frag"))
    fight.end_turn()
    fight.post("bob", act("attack", "alice", weapon=CLUB_M, shots=1), faces=[10, 80, 1])
    fight.end_turn()
    assert fight.refused("alice", act("throw", "bob")) == "alice is stunned: no action this turn"
    events = fight.end_turn(faces=[60, 10, 10, 5, 5])
    assert of(events, EffectExpired)[0].reason == "exploded in hand"
    assert [d.target for d in of(events, DamageApplied)] == ["alice", "bob"]


def test_a_downed_throwers_grenade_still_explodes_when_their_slot_passes() -> None:
    fight = grenadier(hp=5)
    fight.post("alice", act("throw", "bob", item="Frag"))
    fight.end_turn()
    fight.post("bob", act("attack", "alice", weapon=RIFLE), faces=[10, 50, 20, 90])
    assert "defeated" in fight.statuses("alice")
    fight.end_turn()
    events = fight.end_turn(faces=[60, 10, 10, 5, 5])  # carl's turn ends; round 2 passes alice's slot
    assert [d.target for d in of(events, DamageApplied)] == ["bob", "carl"]
    assert fight.current == "bob"


def test_grenades_are_thrown_at_most_20_m_and_run_out() -> None:
    fight = Fight()
    fight.join("alice", (0, 0), grenades=[{"name": "Frag"}]).join("bob", (21, 0)).begin()
    assert fight.refused("alice", act("throw", "bob", item="Frag")) == "out of range: a grenade is thrown at most 20 m"
    fight.post("alice", act("throw", x=20, y=0, item="Frag"))
    pass_turn(fight, "bob")
    assert fight.refused("alice", act("throw", x=20, y=0, item="Frag"), faces=[1] * 5) == "alice has no Frag left"


# --------------------------------------------------------------------------- defeat


def test_defeat_is_wounded_and_out_of_the_fight() -> None:
    fight = duel(b={"hp": 10})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 10])
    assert [(s.status, s.note) for s in of(events, StatusChanged)][:2] == [
        ("defeated", None), ("wounded", "out of combat for 4 real hours"),
    ]
    assert fight.hp("bob") == 0
    events = fight.end_turn()
    assert fight.current == "alice" and [t.actor for t in of(events, TurnStarted)] == ["alice"]
    assert fight.refused("bob", act("say")) == "bob is out of the fight (defeated, wounded)"


def test_attacking_a_wounded_character_downs_them_again() -> None:
    fight = duel(b={"hp": 10})
    fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 10])
    fight.end_turn()
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE))
    assert of(events, DiceRolled) == []
    [again] = of(events, StatusChanged)
    assert (again.actor, again.status, again.note) == ("bob", "wounded", "attacked while wounded: downed again, 4 more real hours")


def test_an_amorphous_form_is_wounded_for_two_hours() -> None:
    fight = duel(b={"hp": 10, "race": "amorph", "racial": "amorphous-form"})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 10])
    assert of(events, StatusChanged)[1].note == "out of combat for 2 real hours"


@pytest.mark.parametrize(("save", "mortal"), [(25, True), (26, False), (1, True)])
def test_struck_for_double_the_remaining_hp_saves_on_1d100_over_25(save: int, mortal: bool) -> None:
    fight = duel(b={"hp": 10})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 20, save])
    assert rolls(events, "save")[0].label == "mortal wound save"
    assert ("mortally_wounded" in fight.statuses("bob")) is mortal


def test_less_than_double_the_remaining_hp_needs_no_save() -> None:
    fight = duel(b={"hp": 10})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 19])
    assert rolls(events, "save") == [] and "defeated" in fight.statuses("bob")


def test_unarmed_blows_never_mortally_wound() -> None:
    fight = duel(b={"hp": 2}, distance=1)
    events = fight.post("alice", act("attack", "bob", weapon="unarmed"), faces=[10, 50, 50, 50, 6, 6, 6])
    assert rolls(events, "save") == [] and "defeated" in fight.statuses("bob")


# --------------------------------------------------------------------------- size classes and racials


def test_size_class_modifiers_count_in_the_rolls() -> None:
    fight = duel(a={"size_class": "large", "weapons": [CLUB_M]}, b={"size_class": "small"}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 50, 5])
    assert rolls(events, "dodge")[0].modifiers == [Modifier(value=3, source="small (size class)")]
    assert rolls(events, "damage")[0].modifiers == [Modifier(value=3, source="large (size class)")]


@pytest.mark.parametrize(
    ("race", "racial", "roll", "modifier"),
    [
        ("human", "violent-upbringing", "damage", 5),
        ("human", "earth-adapted", "melee", -5),
        ("android", "advanced-prosthetics", "attack", 5),
        ("brute", "powerfully-built", "melee", 5),
    ],
)
def test_racial_numbers_count_in_the_rolls(race: str, racial: str, roll: str, modifier: int) -> None:
    weapon = CLUB_M if roll == "melee" else RIFLE
    fight = duel(a={"race": race, "racial": racial, "weapons": [weapon]}, distance=2)
    events = fight.post("alice", act("attack", "bob", weapon=weapon, shots=1), faces=[10, 50, 5])
    purpose = "attack" if roll == "attack" else "damage"
    assert sum(m.value for m in rolls(events, purpose)[0].modifiers) == modifier


@pytest.mark.parametrize(
    ("race", "racial", "dr"),
    [("android", "fully-artificial", 5), ("undead", "zombie-like-durability", 5), ("brute", "tough-hide", 5),
     ("drevii", "magika-mage", 0)],
)
def test_racial_dr(race: str, racial: str, dr: int) -> None:
    fight = duel(b={"race": race, "racial": racial})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 12])
    assert of(events, DamageApplied)[0].reduced_by == dr


def test_hyperactivity_lengthens_debuffs_by_a_turn() -> None:
    fight = duel(a={"weapons": [SWORD_M]}, b={"race": "feral", "racial": "hyperactivity"}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=SWORD_M, shots=1), faces=[10, 75, 1])
    assert fight.effects("bob") == {"bleed": 6}


def test_healing_factor_heals_2_at_the_start_of_each_turn_up_to_the_maximum() -> None:
    fight = duel(b={"race": "splicer", "racial": "healing-factor"})
    fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 3])
    events = fight.end_turn()
    assert [h.amount for h in of(events, HealingApplied)] == [2] and fight.hp("bob") == 99
    fight.end_turn()
    events = fight.end_turn()
    assert [h.amount for h in of(events, HealingApplied)] == [1] and fight.hp("bob") == 100


def test_advanced_prosthetics_lose_the_whole_turn_to_a_crit() -> None:
    fight = duel(b={"race": "android", "racial": "advanced-prosthetics"})
    fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 100, 3])
    assert fight.effects("bob") == {"lost_turn": 1}
    fight.end_turn()
    assert fight.refused("bob", act("move", m=1)) == "bob loses this whole turn (critical)"


@pytest.mark.parametrize(("time", "roll", "modifier"), [("night", "attack", 5), ("day", "dodge", -5)])
def test_nocturnal_predator_by_the_time_of_day(time: str, roll: str, modifier: int) -> None:
    racial = {"race": "feral", "racial": "nocturnal-predator"}
    fight = duel({"time_of_day": time}, a=racial, b=racial)
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 50])
    assert [m.value for m in rolls(events, roll)[0].modifiers] == [modifier]


def test_adaptability_costs_5_with_guns() -> None:
    fight = duel(a={"race": "brute", "racial": "adaptability"})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[99, 50])
    assert rolls(events, "attack")[0].modifiers == [Modifier(value=-5, source="Adaptability (racial)")]


def test_royal_caste_flees_at_minus_20() -> None:
    fight = duel(a={"race": "caste", "racial": "royal-caste"})
    fight.post("alice", act("flee"))
    events = fight.end_turn(faces=[50])
    assert rolls(events, "flee")[0].total == 30


def test_artificial_strength_cannot_flee_while_non_splicer_allies_fight() -> None:
    fight = Fight()
    fight.join("alice", side="blue", race="splicer", racial="artificial-strength").join("carl", (1, 0), side="blue")
    fight.join("bob", (10, 0), side="red").begin()
    assert fight.refused("alice", act("flee")) == (
        "Artificial Strength: alice cannot flee while allied non-splicers fight (carl)"
    )


def test_environmental_suit_takes_1d10_more_from_ballistic_weapons() -> None:
    fight = duel(b={"race": "amorph", "racial": "environmental-suit"})
    events = fight.post("alice", act("attack", "bob", weapon=RIFLE), faces=[10, 50, 3, 4])
    assert rolls(events, "damage")[0].notation == "1d20 + 1d10" and fight.hp("bob") == 93


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (act("attack", "zed", weapon=RIFLE), "'zed' is not in the fight (combatants: alice, bob)"),
        (act("attack", "bob", weapon="Sword"), f"alice carries no weapon 'Sword' (carries {RIFLE})"),
        (act("attack", "alice", weapon=RIFLE), "a combatant cannot attack themselves"),
        (act("attack", weapon=RIFLE), "an attack needs a target (target=ID)"),
        (act("attack", "bob", weapon=RIFLE, mode="wild"),
         "unknown attack mode 'wild' (modes: aimed, auto, multi, single, sneak, suppressive)"),
        (act("dance"), "unknown action 'dance' (actions: aim, attack, com_call, cook, draw, extinguish, flee, hide, "
                       "interrupt, kneel, move, prone, reload, say, skill, sprint, stand, throw)"),
        (act("reload", weapon=RIFLE), f"{RIFLE} does not need a reload"),
        (act("aim"), "aim needs a target (target=ID)"),
        (act("skill", roll="chess"), "skill needs roll=TYPE, one of accuracy, melee_accuracy, ranged_accuracy, "
         "magika_accuracy, dodge, stealth, perception, strength, flee, melee_damage, ballistic_damage, explosive_damage, "
         "magika_damage, healing, healing_received, looting, pickpocket, hacking, lockpicking, medical, surgery, "
         "resist_magika, tech_items, tech_disposables, tech_effect"),
    ],
)
def test_refusals_name_the_reason_and_change_nothing(action: object, reason: str) -> None:
    fight = duel()
    assert fight.refused("alice", action, faces=[50, 50, 50]) == reason  # type: ignore[arg-type]


def test_a_post_before_the_fight_begins_is_refused() -> None:
    fight = Fight()
    fight.join("alice").join("bob", (5, 0))
    assert fight.refused("alice", act("say")) == "the fight has not begun (begin it first)"


def test_a_refusal_part_way_through_a_post_undoes_the_whole_post() -> None:
    fight = duel(a={"weapons": [RIFLE, MG]})
    # the first attack would roll; the second action is refused: nothing of the post is kept
    assert fight.refused("alice", act("move", m=2), act("attack", "bob", weapon=RIFLE), act("attack", "bob", weapon=MG),
                         faces=[50, 50, 5]) == "alice has no action left this turn (one action per turn)"
    fight.post("alice", act("move", m=2))


def test_hyperactivity_lengthens_a_stun_but_not_the_immunity_after_it() -> None:
    fight = duel(a={"weapons": [CLUB_M]}, b={"race": "feral", "racial": "hyperactivity"}, distance=2)
    fight.post("alice", act("attack", "bob", weapon=CLUB_M, shots=1), faces=[10, 75, 1])
    assert fight.effects("bob") == {"stun": 2}
    pass_turn(fight, "bob")
    fight.end_turn()
    assert fight.effects("bob") == {"stun": 1}
    fight.end_turn()
    assert fight.effects("bob") == {"stun_immunity": 1}


def test_a_natural_1_on_a_blast_dodge_is_hit_and_loses_the_next_action() -> None:
    fight = grenadier()
    fight.post("alice", act("throw", "bob", item="Frag"))
    for _ in range(3):
        fight.end_turn()
    events = fight.end_turn(faces=[10, 1, 30, 99])
    assert [r.hit for r in of(events, AttackResolved)] == [True, False]
    assert fight.effects("bob") == {"lost_action": 1}
