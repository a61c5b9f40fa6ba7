"""The en51 audit on the flawed hand-run fights of ``fixtures/en51/audit``: exactly the flaws
each was given (code and seq, errors only), the reports as snapshots, and the bytes the
script writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import decode_line
from tests.conftest import FIXTURES
from tests.rules.audit_fight_checks import audit_fight_tests

globals().update(audit_fight_tests("en51_audit_fights", FIXTURES / "en51" / "audit", {"rules.damage", "rules.armour", "rules.ammo", "rules.condition"}))


def test_an_outcome_and_a_wound_the_dice_do_not_give() -> None:
    from fightlog.events.model import AttackResolved, DamageApplied
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("tavern-melee")
    cut = log.find(AttackResolved, attacker="mira", score=13)
    log.change(cut, hit=False)
    dealt = log.after(log.find(AttackResolved, attacker="tobin", hit=True), DamageApplied)
    log.change(dealt, pool="w2")
    built = log.done()
    errors = sorted((f.code, f.seq) for f in audit_events(built.events).findings if f.severity == "error")
    # the Wound marked at circle 2 leaves the status it gave without the Wound that gives it
    assert [code for code, _ in errors] == ["rules.condition", "rules.outcome", "rules.wound"]


def test_an_attack_recorded_against_the_wrong_defense() -> None:
    from fightlog.events.model import AttackResolved
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("tavern-melee")
    back = log.find(AttackResolved, attacker="rask")  # Rask's counterattack: against Mira's Sabre, Defense 7
    assert back.against == 7 and not back.hit
    log.change(back, against=8)
    built = log.done()
    found = [(f.code, f.message) for f in audit_events(built.events).findings if f.severity == "error"]
    assert found == [("rules.outcome", "rask's attack on mira is recorded against 8; the rules give 7")]


def test_a_success_taken_from_a_die_that_failed() -> None:
    from fightlog.events.model import AttackResolved
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("tavern-melee")
    swing = log.find(AttackResolved, attacker="tobin", score=3)  # black 19 fails Attack 13; white 3 misses 5
    log.change(swing, score=19, hit=True)
    built = log.done()
    found = [(f.code, f.message) for f in audit_events(built.events).findings if f.severity == "error"]
    assert found == [("rules.outcome", "tobin's Success is recorded as 19; black 19, white 3 under skill 13 give 3")]


def test_the_damage_from_the_wrong_die_after_a_failed_die_called_the_success() -> None:
    from fightlog.events.model import AttackResolved, DamageApplied
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("tavern-melee")
    cut = log.find(AttackResolved, attacker="mira", score=13)  # black 13 hits, white 17 fails Attack 14
    log.change(cut, score=17)
    dealt = log.after(cut, DamageApplied)
    log.change(dealt, raw=8, pool="w8")  # the black die's 3 + 5, as if both had hit
    built = log.done()
    codes = sorted(f.code for f in audit_events(built.events).findings if f.severity == "error")
    assert codes == ["rules.condition", "rules.damage", "rules.outcome"]  # incapacitated, at Wound 8


def test_the_skill_is_the_sheets_base_with_the_recorded_modifiers() -> None:
    from fightlog.events.model import AttackResolved
    from fightlog.rules.en51.audit import skill_of
    from fightlog.rules.en51.card import WeaponCard

    weapon = WeaponCard(name="Rifle", kind="ranged", attack=13, defense=9, damage=5, range=3)
    event = AttackResolved(attacker="a", target="b", hit=True, score=5, against=2,
                           notes=["skill 9 (Defense (moved) 9, beyond Range -2, aimed +2)"])
    assert skill_of(event, weapon) == 9


def test_a_hand_edited_skill_note_is_read_in_linear_time() -> None:
    """The note of a hand-run log is anyone's text: one that does not parse is skipped at
    once, whatever its length (a nested pattern once backtracked exponentially on it)."""
    from fightlog.events.model import AttackResolved
    from fightlog.rules.en51.audit import skill_of
    from fightlog.rules.en51.card import WeaponCard

    weapon = WeaponCard(name="Rifle", kind="ranged", attack=13, defense=9, damage=5, range=3)
    broken = "skill 13 (Attack 13" + ", cover -2" * 400 + " and the rest"
    assert skill_of(AttackResolved(attacker="a", target="b", hit=True, score=5, against=2, notes=[broken]), weapon) is None
    long = "skill 13 (Attack 13" + ", cover -2, aimed +2" * 200 + ")"
    assert skill_of(AttackResolved(attacker="a", target="b", hit=True, score=5, against=2, notes=[long]), weapon) == 13


@pytest.mark.parametrize(("status", "found"), [("moving", True), ("incapacitated", False)], ids=["standing", "as-played"])
def test_a_wound_above_toughness_and_still_in_the_fight(status: str, found: bool) -> None:
    """The Immediate Effects: a Wound above Toughness incapacitates; a log that leaves the
    fighter standing is a finding when the turn ends, besides what follows from it."""
    from fightlog.events.model import StatusChanged
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("rolling-brawl")
    down = log.find(StatusChanged, status="incapacitated", on=True)
    log.change(down, status=status)
    found_here = [f for f in audit_events(log.done().events).findings if f.code == "rules.condition"]
    assert bool(found_here) is found
    if found:
        assert "is still in the fight when the turn ends: a Wound above Toughness incapacitates" in found_here[0].message


def test_a_killing_blow_on_a_full_track_is_judged_by_its_damage(tmp_path: Path) -> None:
    """With no circle free the rules judge the Damage left (Wound 49 against Toughness 20:
    dead), not the highest circle (20): the review found the engine's own fight flagged."""
    from tests.rules.refusals import run

    (tmp_path / "roster.toml").write_text(
        'ruleset = "en51"\n[[combatants]]\nid = "mira"\nname = "Mira"\nside = "guards"\n[combatants.sheet]\n'
        'toughness = 9\nagility = 30\nperception = 12\nstealth = 7\nunarmed_defense = 5\n'
        'weapons = [{ name = "Sabre", kind = "melee", attack = 40, defense = 7, damage = 40 }]\n'
        '[[combatants]]\nid = "rask"\nname = "Rask"\nside = "smugglers"\nrole = "npc"\n[combatants.sheet]\n'
        'toughness = 20\nagility = 1\nperception = 11\nstealth = 9\nunarmed_defense = 0\nwounds = [20]\n'
        'weapons = [{ name = "Cutlass", kind = "melee", attack = 1, defense = 0, damage = 5 }]\n', encoding="utf-8")
    (tmp_path / "t.toml").write_text('ruleset = "en51"\nseed = 3\nroster = "roster.toml"\n[[steps]]\nactor = "mira"\n'
                                     'do = ["attack target=rask weapon=Sabre"]\n', encoding="utf-8")
    log = tmp_path / "t.jsonl"
    assert run("run", str(tmp_path / "t.toml"), "-o", str(log))[0] == 0
    events = [decode_line(line) for line in log.read_bytes().splitlines()]
    assert any(getattr(e, "status", None) == "dead" for e in events)
    assert [f.code for f in audit_events(events).findings if f.severity == "error"] == []
    # the same death after a damage that marked a circle (circle 20): judged by that Wound
    from fightlog.events.model import DamageApplied
    from fightlog.fixtures.tampering import Tamper

    tampered = Tamper(events)
    tampered.change(tampered.find(DamageApplied, target="rask"), taken=1)
    assert [f.message for f in audit_events(tampered.done().events).findings if f.code == "rules.condition"] == [
        "rask recorded dead with Wound 20 against Toughness 20: death takes a Wound more than 5 above Toughness "
        "(irreversible_death)"]
    # short of it: the killing blow recorded as incapacitated (a tester's hand-run log audited clean)
    from fightlog.events.model import StatusChanged

    spared = Tamper(events)
    spared.change(spared.find(StatusChanged, actor="rask", status="dead"), status="incapacitated")
    assert [f.message for f in audit_events(spared.done().events).findings if f.code == "rules.condition"] == [
        "rask recorded incapacitated with Wound 41 against Toughness 20: a Wound more than 5 above Toughness is death "
        "(irreversible_death)"]


def test_a_wound_above_toughness_on_the_sheet_at_join_and_still_in_the_fight() -> None:
    """The second review: checking only after a damage let a sheet's Wound 15 (Toughness 9)
    fight on, clean."""
    from fightlog.events.model import CombatantJoined
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "tavern-melee.jsonl")])
    joined = log.find(CombatantJoined, actor="mira")
    log.change(joined, pools={**joined.pools, "w15": 0})
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.condition"]
    assert found == ["mira has Wound 15 against Toughness 9 and is still in the fight when the turn ends: a Wound "
                     "above Toughness incapacitates"]
