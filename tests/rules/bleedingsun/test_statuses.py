"""Status effects on a fighter out of the fight (Status Affect Saves; Health and Dying): no
turn of theirs opens, so the start of each round stands in for it, as for a bleed."""

from __future__ import annotations

from typing import Any

from fightlog.audit.one_process import audit_events
from fightlog.events.model import DamageApplied, DiceRolled, EffectExpired, EffectTicked, RoundStarted
from tests.rules.bleedingsun.rigged import of, ready_duel, trio

TORCH = {"name": "Torch", "kind": "melee", "accuracy": 1, "dv": 1, "kickers": [{"status": "burning", "rating": 2}]}


def _errors(fight: object) -> list[str]:
    return [f.code for f in audit_events(fight.scribe.events).findings  # type: ignore[attr-defined]
            if f.severity == "error"]


def _has(fight: object, actor: str, status: str) -> bool:
    return status in fight.state.combatants[actor].statuses  # type: ignore[attr-defined]


def test_burning_goes_on_ticking_on_the_unconscious_at_each_rounds_start_and_can_kill() -> None:
    """Bo, set on fire, burns at his turn's start to -4 HP and falls unconscious; no turn of
    his opens again, and he burned no more (the effect stayed for ever). Each round's start
    now burns him before his bleed ticks, until the negative HP exceed his Body."""
    fight = ready_duel(a={"weapons": [TORCH]}, b={"hp": 3, "body": 12})
    fight.post("ana", "attack target=bo weapon=Torch")
    fight.post("bo", "take", faces=[5, 1, 1, 1] + [1] + [1, 1] + [1, 1, 1])  # grit 0 hits: on fire
    events = fight.end_turn([5] * 7 + [1, 1] + [5] * 7 + [1, 1])  # at his turn's start, then at round 3's
    assert fight.hp("bo") == -12 and fight.state.turn.round == 3 and fight.current == "ana"
    started = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted))
    ticks = [e for e in events[started:] if isinstance(e, EffectTicked)]
    assert [t.effect.split("-")[0] for t in ticks] == ["burning", "bleeding"]  # burning first, then the bleed
    assert [(d.source, d.taken) for d in of(events[started:], DamageApplied)] == [("burning", 7), ("bleeding out", 1)]
    fight.end_turn([5] * 7 + [1, 1])
    assert _has(fight, "bo", "dead") and fight.hp("bo") == -19
    assert _errors(fight) == []


def test_a_stagger_ends_with_the_turn_its_bearer_goes_out_at_the_start_of() -> None:
    """Bo, staggered and set on fire by a burning club, burns out at his turn's start: that
    turn still ends (it once ended with nothing ended), so the stagger in place goes with it;
    round 3's burn soaks with both fortitude dice."""
    brand = {"name": "Brand", "kind": "melee", "accuracy": 1, "dv": 1, "knockdown": 2,
             "kickers": [{"status": "burning", "rating": 2}]}
    fight = ready_duel(a={"weapons": [brand]}, b={"hp": 3, "body": 12})
    fight.post("ana", "attack target=bo weapon=Brand")
    fight.post("bo", "take", faces=[5, 1, 1, 1] + [1] + [1, 1] + [5, 5, 1] + [1, 1])  # equals, then fails
    assert "staggered" in fight.effects("bo") and "burning" in fight.effects("bo")
    events = fight.end_turn([5] * 7 + [1] + [5] * 7 + [1, 1])  # soak 2 - 1 staggered, then 2
    assert [e.reason for e in of(events, EffectExpired) if e.target == "bo" and "staggered" in e.effect] == [
        "the end of the next turn"]
    assert [len(e.dice) for e in of(events, DiceRolled)] == [7, 1, 7, 2]
    assert fight.hp("bo") == -12 and "staggered" not in fight.effects("bo")
    assert _errors(fight) == []


def test_a_stagger_on_one_knocked_out_before_the_turn_it_lasts_to_ends_at_the_next_rounds_start() -> None:
    """Cy's club staggers Bo after Bo's turn in round 2 (until the end of his turn in round
    3); Ana knocks him out before it in round 3, so that turn never opens. The start of round
    4 stands in for it and ends the stagger: his Body check rolls Body - |HP| (9 dice), not a
    die fewer for ever."""
    fight = trio(hp=5, body=12)
    fight.turn("ana", "say")
    fight.turn("bo", "say")
    fight.post("cy", "attack target=bo weapon=Club")
    fight.end_turn([5, 1, 1, 1] + [1] * 4 + [1, 1] + [5, 5, 1])  # knockdown save equals: staggered
    assert fight.current == "ana" and "staggered" in fight.effects("bo")
    fight.post("ana", "attack target=bo weapon=Club")
    fight.end_turn([5, 5, 5, 5] + [5] * 7 + [1])  # 7 damage, a staggered soak of 1 die: -2 HP
    assert _has(fight, "bo", "unconscious") and fight.current == "cy"
    events = fight.end_turn([1] * 9)
    assert [e.reason for e in of(events, EffectExpired) if e.target == "bo"] == [
        "out of the fight: the round began in place of the next turn"]
    assert len(of(events, DiceRolled)[-1].dice) == 9 and "staggered" not in fight.effects("bo")
    assert _errors(fight) == []


# ---------------------------------------------------------------- the audit (rules.effect-wrong)

def _status_findings(change: object) -> list[str]:
    from fightlog.fixtures.bleedingsun_audit_fights import hand_run

    log = hand_run("status-effects")
    change(log)  # type: ignore[operator]
    return [f.message for f in audit_events(log.done().events).findings
            if f.severity == "error" and f.code == "rules.effect-wrong"]


def test_the_audit_finds_a_save_rolled_with_other_dice_than_its_attribute() -> None:
    from fightlog.events.model import Die

    def more_dice(log: Any) -> None:
        save = log.find(DiceRolled, purpose="save", roller="kade")  # willpower 3 vs 2, failed: stunned
        log.change(save, dice=[Die(sides=6, face=1)] * 5, total=0, notation="5d6>=5")

    assert _status_findings(more_dice) == ["kade's stunned save: rolled 5 dice; willpower 3 gives 3"]


def test_the_audit_finds_a_kicker_whose_save_was_never_rolled() -> None:
    """The Stun Baton's hit owes Kade a stunned save (its kicker); the GM forgot it: the save
    and the stun it gave struck from the hand-run fight."""
    from fightlog.events.model import EffectApplied, EffectExpired

    def forgotten(log: Any) -> None:
        stun = log.find(EffectApplied, name="stunned")
        log.drop(log.find(DiceRolled, purpose="save", roller="kade"), stun, log.find(EffectExpired, effect=stun.effect))

    assert _status_findings(forgotten) == [
        "kade took the hit of the Stun Baton (attack at seq 36) and rolled no stunned save (the weapon's kicker)"]


def test_a_kicker_save_with_no_die_to_roll_is_owed_no_roll() -> None:
    """Willpower 0: the stunned save has no die, the table rolls nothing and the stun lands;
    the audit said the save was never rolled (a review, on a sim fight)."""
    baton = {"name": "Baton", "kind": "melee", "accuracy": 2, "dv": 3, "kickers": [{"status": "stunned", "rating": 2}]}
    fight = ready_duel(a={"weapons": [baton]}, b={"willpower": 0})
    fight.post("ana", "attack target=bo weapon=Baton")
    fight.post("bo", "take", faces=[5, 5, 1, 1, 1] + [1, 1, 1, 1] + [1, 1])
    assert "stunned" in fight.effects("bo")
    events = list(fight.scribe.events)
    assert not any(isinstance(e, DiceRolled) and e.purpose == "save" for e in events)
    fight.end_turn()
    assert [f.message for f in audit_events(list(fight.scribe.events)).findings if f.severity == "error"] == []


def test_the_audit_finds_a_save_against_a_kicker_the_weapon_lacks() -> None:
    """Rook saves against knockdown for the Cryolator's spread, which has no knockdown (4
    vigor hits against 2: nothing follows, so only the save itself is wrong)."""
    from fightlog.events.model import Die, EffectApplied

    def invented(log: Any) -> None:
        frozen = log.find(DiceRolled, purpose="save", roller="rook")
        log.insert_after(log.find(EffectApplied, name="frozen"), log.new(DiceRolled(
            seq=0, roller="rook", notation="4d6>=5", dice=[Die(sides=6, face=6)] * 4, total=4, purpose="save",
            generator="external", for_seq=frozen.for_seq, label="knockdown save: vigor 4 vs 2")))

    assert _status_findings(invented) == [
        "rook saves against knockdown for sable's attack at seq 24; the Cryolator has no knockdown kicker"]


def test_the_audit_finds_an_outcome_other_than_the_saves_column() -> None:
    from fightlog.events.model import Die

    def exceeded(log: Any) -> None:
        save = log.find(DiceRolled, purpose="save", roller="kade")
        log.change(save, dice=[Die(sides=6, face=5)] * 3, total=3)  # 3 hits exceed 2: nothing, yet stunned

    assert _status_findings(exceeded) == [
        "kade's stunned save: 3 hits against 2 exceeds it: the chart gives nothing; it applied stunned"]

    def nothing(log: Any) -> None:
        from fightlog.events.model import EffectApplied, EffectExpired
        stun = log.find(EffectApplied, name="stunned")
        log.drop(stun, log.find(EffectExpired, effect=stun.effect))

    assert _status_findings(nothing) == [
        "kade's stunned save: 1 hits against 2 fails it: the chart gives stunned; nothing followed"]


def test_the_audit_finds_a_stun_that_outlasts_the_next_turn() -> None:
    from fightlog.events.model import EffectExpired

    assert _status_findings(lambda log: log.drop(log.find(EffectExpired, reason="the end of the next turn"))) == [
        "kade's stunned (stunned-kade-40) was in place at the start of their turn and did not end with it (it "
        "lasts until the end of one's next turn)"]
