"""Defects found playing en51 fights, each held to the rule it broke: a held action cutting
in (Waiting), a voided post (GM rulings), the Defense of a melee attack about to be made
(Melee attack), counterattacks (Melee attack), rolling with it (Roll with it), hiding
(Hiding and Cover), Medicine and Recovery (Using Medicine; Recovery)."""

from __future__ import annotations

from pathlib import Path

from fightlog.events.model import AttackResolved, DamageApplied, EffectExpired, Moved, StatusChanged
from fightlog.events.reader import read_log
from fightlog.rules.en51.ruleset import OUT
from tests.conftest import FIXTURES
from tests.rules.en51.rigged import Fight, duel, of
from tests.rules.refusals import run

TAVERN = FIXTURES / "en51" / "rosters" / "tavern.toml"


def resolved(events: list) -> list[AttackResolved]:  # type: ignore[type-arg]
    return of(events, AttackResolved)


def played(tmp_path: Path, seed: str, *ids: str) -> Path:
    log = tmp_path / "fight.jsonl"
    assert run("play", "start", str(log), "--ruleset", "en51", "--open", "--seed", seed, "--gm", "GM")[0] == 0
    assert run("play", "join", str(log), "--roster", str(TAVERN), *ids)[0] == 0
    assert run("play", "begin", str(log))[0] == 0
    return log


def events_of(log: Path) -> list:  # type: ignore[type-arg]
    return [event for _, event in read_log(log)]


# ---------------------------------------------------------------- Waiting


def test_a_held_attack_cutting_in_on_an_attack_resolves_before_it() -> None:
    """Waiting: the held action cuts the other's action off. Bo's attack, posted first, is
    cut in on by Ana's held attack, which kills him: his attack is never rolled."""
    fight = duel(b={"toughness": 1})
    fight.turn("ana", "wait then=attack")
    fight.post("bo", "attack target=ana weapon=Sword")
    fight.post("ana", "attack target=bo weapon=Sword")  # cuts in on bo's post
    [first] = resolved(fight.end_turn([3, 11]))
    assert (first.attacker, first.hit) == ("ana", True)
    assert OUT & set(fight.statuses("bo"))


def test_a_held_attack_cutting_in_goes_before_an_answered_attack() -> None:
    """The attack cut in on is answered at once (cy counters): the held attack still goes first."""
    fight = Fight().join("ana").join("bo").join("cy").begin()
    fight.turn("ana", "wait then=attack")
    fight.post("bo", "attack target=cy weapon=Sword")
    fight.post("ana", "attack target=bo weapon=Sword")
    events = fight.post("cy", "counter weapon=Knife", faces=[20, 20, 20, 20, 20, 20])
    assert [r.attacker for r in resolved(events)] == ["ana", "bo", "cy"]


def test_another_action_than_the_held_one_comes_after_what_it_reacts_to() -> None:
    fight = duel()
    fight.turn("ana", "wait then=hide")
    fight.post("bo", "attack target=ana weapon=Sword")
    fight.post("ana", "attack target=bo weapon=Sword")
    assert [r.attacker for r in resolved(fight.end_turn([20, 20, 20, 20]))] == ["bo", "ana"]


# ---------------------------------------------------------------- GM rulings


def test_a_voided_move_with_an_attack_is_not_played(tmp_path: Path) -> None:
    """(Issue: Mira still moved, rolled and wounded Rask after her post was voided.)"""
    log = played(tmp_path, "1", "mira", "rask")
    assert run("play", "post", str(log), "mira", "--do", "move distance=5", "--do", "attack target=rask weapon=Sabre")[0] == 0
    assert run("rule", str(log), "void", "7", "--by", "GM", "--reason", "never happened")[0] == 0
    assert run("play", "end-turn", str(log))[0] == 0
    assert run("play", "end-turn", str(log))[0] == 0
    events = events_of(log)
    assert not of(events, Moved) and not of(events, AttackResolved)
    [ended] = [e for e in of(events, EffectExpired) if e.effect.startswith("move-")]
    assert ended.reason == "the post was voided: not played" and ended.cause is None
    code, out = run("audit", str(log))
    assert "rules." not in out  # only the two events standing on the voided post (the GM's to void)


# ---------------------------------------------------------------- the Defense of a melee attack about to be made


def test_a_melee_attack_about_to_be_made_gives_its_defense_in_play_and_in_the_audit() -> None:
    """Melee attack: one about to make a melee attack this turn (here: with a move, waiting
    for the end of the turn) defends with that attack's Defense, not Unarmed Defense; the
    audit recomputes the same number. (Issue: Rask's attack was against Unarmed Defense 5.)"""
    from msgspec.structs import replace

    from fightlog.audit.one_process import audit_events

    fight = duel()
    fight.turn("ana", "move distance=5", "attack target=bo weapon=Sword")
    [swing, _] = resolved(fight.turn("bo", "attack target=ana weapon=Knife", faces=[6, 20, 20, 20]))
    assert (swing.against, swing.hit) == (6, False)  # ana's Sword, Defense 6 (Unarmed Defense 5: a hit)
    assert "against Defense of Sword (about to attack this turn)" in swing.notes

    def errors(events: list) -> list[str]:  # type: ignore[type-arg]
        return [f.message for f in audit_events(events).findings if f.severity == "error"]

    assert errors(fight.scribe.events) == []
    wrong = [replace(e, against=5, hit=True) if e is swing else e for e in fight.scribe.events]
    assert errors(wrong) == ["bo's attack on ana is recorded against 5; the rules give 6"]


def test_a_held_attack_meets_the_defense_of_the_melee_attack_its_target_declared() -> None:
    fight = duel()
    fight.turn("ana", "wait then=attack")
    fight.post("bo", "attack target=ana weapon=Sword")
    fight.post("ana", "attack target=bo weapon=Knife")
    first, _ = resolved(fight.end_turn([6, 20, 20, 20]))
    assert (first.attacker, first.against, first.hit) == ("ana", 6, False)


# ---------------------------------------------------------------- counterattacks


def test_a_held_attack_cutting_in_before_the_defender_posts_may_be_countered() -> None:
    """(Issue: "bo has already acted this turn": an open turn with no post yet counted as acting.)
    The counterattack is bo's action this turn: nothing else in it, and his next turn is his."""
    fight = duel()
    fight.turn("ana", "wait then=attack")
    assert fight.current == "bo"
    fight.post("ana", "attack target=bo weapon=Sword")
    assert len(resolved(fight.post("bo", "counter weapon=Knife", faces=[20, 20, 20, 20]))) == 2
    assert fight.refused("bo", "aim").code == "rules.allowance"
    fight.end_turn()
    fight.turn("ana", "say")
    assert fight.current == "bo" and fight.state.turn.round == 2


# ---------------------------------------------------------------- rolling with it


def test_rolling_with_it_while_moving_replaces_the_move_not_the_next_turn() -> None:
    """Roll with it: in the middle of a move, rolling with it replaces that action (after half
    the distance). (Issue: the mover's next turn was lost as well.)"""
    fight = duel()
    fight.turn("ana", "move distance=6", "attack target=bo weapon=Sword")
    fight.post("bo", "attack target=ana weapon=Sword")
    fight.post("ana", "take roll=true", faces=[3, 11])
    events = fight.end_turn()
    assert [m.metres for m in of(events, Moved)] == [3] and not resolved(events)
    assert "rolling" not in fight.statuses("ana")
    assert fight.current == "ana" and fight.state.turn.round == 2


def test_one_who_rolled_with_a_hit_before_acting_cannot_counterattack() -> None:
    """(Issue: bo rolled with ana's hit, his action this turn, then counterattacked cy.)"""
    fight = Fight().join("ana").join("cy").join("bo").begin()
    fight.post("ana", "attack target=bo weapon=Sword")
    fight.post("bo", "take roll=true", faces=[3, 11])
    fight.end_turn()
    fight.post("cy", "attack target=bo weapon=Sword")
    refused = fight.refused("bo", "counter weapon=Knife")
    assert refused.code == "rules.counter" and "rolling with a hit" in str(refused)


def test_each_roll_with_it_sacrifices_an_action() -> None:
    """Two rolls in a turn: the next action and the one after it (not one status written twice)."""
    fight = Fight().join("ana").join("cy").join("bo").begin()
    fight.post("ana", "attack target=bo weapon=Sword")
    fight.post("bo", "take roll=true", faces=[3, 11])
    fight.end_turn()
    fight.post("cy", "attack target=bo weapon=Sword")
    events = fight.post("bo", "take roll=true", faces=[3, 11])
    assert not [e for e in events if getattr(e, "status", None) == "rolling"]  # already on: a second action owed
    fight.end_turn()  # bo's turn: lost
    assert fight.state.turn.round == 2 and "rolling" in fight.statuses("bo")
    fight.turn("ana", "say")
    fight.turn("cy", "say")  # bo's turn of round 2: lost too
    assert fight.state.turn.round == 3 and "rolling" not in fight.statuses("bo")


def test_rolling_with_a_hit_in_ones_own_turn_before_posting_is_that_turns_action() -> None:
    fight = duel()
    fight.turn("ana", "wait then=attack")
    fight.post("ana", "attack target=bo weapon=Sword")  # cuts in before bo posts
    fight.post("bo", "take roll=true", faces=[3, 11])
    assert fight.refused("bo", "aim").code == "rules.allowance"
    fight.end_turn()
    fight.turn("ana", "say")
    assert fight.current == "bo" and "rolling" not in fight.statuses("bo")


# ---------------------------------------------------------------- hiding


def test_a_melee_attack_from_hiding_gives_hiding_up() -> None:
    """Hiding and Cover: hiding is having no line of sight; one who strikes in melee has it.
    (Issue: Ines knifed Drago from hiding and Drago still could not shoot her.)"""
    fight = duel()
    fight.turn("ana", "hide")
    fight.turn("bo", "say")
    fight.post("ana", "attack target=bo weapon=Knife distance=1")
    assert "hidden" not in fight.statuses("ana")
    fight.end_turn([20, 20])
    fight.post("bo", "attack target=ana weapon=Rifle distance=1")  # a line of sight: not refused
    assert len(resolved(fight.end_turn([20, 20]))) == 1


# ---------------------------------------------------------------- Medicine and Recovery


def test_a_recovery_complication_is_a_new_wound_and_bleeds_again() -> None:
    """Using Medicine: Medicine stops the bleeding until a new Wound; a complication marks one
    (rebleeding). A complication on a Success is narrated as a success. (Issue: ``treated``
    stayed and Pat did not bleed; "Pat fails: 5 vs 0".)"""
    fight = Fight({"recovery_in_fight": True}).join("doc").join("pat", wounds=[3, 5, 8]).begin()
    assert "bleeding_slowly" in fight.statuses("pat")
    fight.turn("doc", "medicine target=pat", faces=[7, 7])
    assert "bleeding_slowly" not in fight.statuses("pat")
    [roll] = resolved(fight.turn("pat", "recover", faces=[16, 5]))  # Toughness 8 + 7: white 5, a marked Wound
    assert roll.hit and roll.score == 5 and roll.notes[-1] == "complication: Wound 6"
    assert fight.wounds("pat") == [3, 5, 6, 8]
    assert "bleeding_slowly" in fight.statuses("pat")
    assert not [e for e in fight.state.effects.values() if e.name == "treated"]


def test_no_medicine_on_the_dead_nor_without_the_skill() -> None:
    fight = Fight().join("ana").join("bo", wounds=[15]).join("cy").begin()  # Wound 15, Toughness 8: dead
    assert "dead" in fight.statuses("bo")
    assert fight.refused("ana", "medicine target=bo").code == "rules.target"
    fight = Fight().join("ana", skills={}).join("bo", wounds=[8]).begin()
    refused = fight.refused("ana", "medicine target=bo")
    assert refused.code == "rules.refused" and "Medicine 0" in str(refused)


def test_no_second_auto_attack_at_a_target_the_first_put_out() -> None:
    fight = duel(b={"toughness": 1})
    [first] = resolved(fight.turn("ana", "attack target=bo weapon=SMG mode=auto distance=3", faces=[3, 11]))
    assert first.hit and "incapacitated" in fight.statuses("bo")


MAUL = {"name": "Maul", "kind": "melee", "attack": 20, "defense": 0, "damage": 20}


def test_a_damage_above_the_last_circle_is_a_wound_of_that_damage() -> None:
    """Marking Wounds: the Damage is the Wound; the track ends at 20, so a Damage 28 marks
    circle 20 and counts as Wound 28 (a tester: Wound 28 against Toughness 20 left the Knight
    standing, merely bleeding slowly, because w20 was empty; with w20 already marked he died)."""
    for marked in ([], [20]):
        fight = Fight().join("ogre", weapons=[MAUL]).join("knight", toughness=20, wounds=marked).begin()
        assert fight.current == "ogre"
        events = fight.turn("ogre", "attack target=knight weapon=Maul", faces=[8, 20])  # 8 + 20 = 28
        [dealt] = of(events, DamageApplied)
        assert (dealt.raw - dealt.reduced_by, dealt.pool) == (28, "w20")
        assert "dead" in fight.statuses("knight")
        assert [e.note for e in of(events, StatusChanged) if e.status == "dead"] == ["Wound 28 against Toughness 20"]
    fight = Fight({"irreversible_death": False}).join("ogre", weapons=[MAUL]).join("knight", toughness=20).begin()
    fight.turn("ogre", "attack target=knight weapon=Maul", faces=[4, 20])  # Wound 24: above Toughness
    assert "incapacitated" in fight.statuses("knight") and fight.wounds("knight") == [20]
