"""The en51 audit on the flawed hand-run fights of ``fixtures/en51/audit``: exactly the flaws
each was given (code and seq, errors only), the reports as snapshots, and the bytes the
script writes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec
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
    # the same death after a damage that marked circle 20: a Damage above the track's last
    # circle is still that Wound (harm.wound); a Damage of 20 left is not death
    from fightlog.events.model import DamageApplied
    from fightlog.fixtures.tampering import Tamper

    tampered = Tamper(events)
    tampered.change(tampered.find(DamageApplied, target="rask"), taken=1)
    assert [f for f in audit_events(tampered.done().events).findings if f.code == "rules.condition"] == []
    tampered = Tamper(events)
    damage = tampered.find(DamageApplied, target="rask")
    tampered.change(damage, raw=20 + damage.reduced_by)
    assert [f.message for f in audit_events(tampered.done().events).findings if f.code == "rules.condition"] == [
        "rask recorded dead with Wound 20 against Toughness 20: death takes a Wound more than 5 above Toughness "
        "(irreversible_death)"]
    # short of it: the killing blow recorded as incapacitated (a tester's hand-run log audited clean)
    from fightlog.events.model import StatusChanged

    spared = Tamper(events)
    spared.change(spared.find(StatusChanged, actor="rask", status="dead"), status="incapacitated")
    assert [f.message for f in audit_events(spared.done().events).findings if f.code == "rules.condition"] == [
        "rask recorded incapacitated with Wound 41 against Toughness 20: a Wound more than 5 above Toughness is death "
        "(irreversible_death)",
        "rask has Wounds 20 against Toughness 20 and is not recorded bleeding slowly when the turn ends (equal to "
        "Toughness: slowly; above it: badly)"]  # spared, and the bleeding ended as if dead


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
                     "above Toughness incapacitates",
                     "mira has Wounds 15 against Toughness 9 and is not recorded bleeding badly when the turn ends "
                     "(equal to Toughness: slowly; above it: badly)"]


def test_one_left_standing_after_a_damage_above_the_last_circle() -> None:
    """A Damage above 20 marks circle 20 and is a Wound of that Damage (Marking Wounds): the
    audit judges the Damage, as the rules do (a tester: Wound 28 against Toughness 20,
    recorded with no status, audited clean)."""
    from fightlog.events.model import StatusChanged
    from fightlog.fixtures.tampering import Tamper
    from tests.rules.en51.rigged import Fight

    maul = {"name": "Maul", "kind": "melee", "attack": 20, "defense": 0, "damage": 20}
    fight = Fight({"irreversible_death": False}).join("ogre", weapons=[maul]).join("knight", toughness=20).begin()
    fight.turn("ogre", "attack target=knight weapon=Maul", faces=[4, 20])  # Wound 24 on circle 20
    events = fight.scribe.events
    assert [f for f in audit_events(events).findings if f.severity == "error"] == []
    spared = Tamper(events)
    spared.drop(spared.find(StatusChanged, actor="knight", status="incapacitated"))
    assert [f.message for f in audit_events(spared.done().events).findings if f.code == "rules.condition"] == [
        "knight has Wound 24 against Toughness 20 and is still in the fight when the turn ends: a Wound above "
        "Toughness incapacitates"]


def test_a_hit_left_without_damage_and_damage_from_a_miss() -> None:
    """Damage; Marking Wounds: a hit deals Damage, a miss none (a tester: a hit whose damage was
    deleted, and a Wound added after a miss, audited clean)."""
    from fightlog.events.model import AttackResolved, DamageApplied
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("tavern-melee")
    hit = log.find(AttackResolved, attacker="tobin", hit=True)
    log.drop(log.after(hit, DamageApplied))
    built = log.done()
    [hit] = [e for e in built.events if isinstance(e, AttackResolved) and e.attacker == "tobin" and e.hit]
    found = [(f.code, f.seq, f.message) for f in audit_events(built.events).findings if f.severity == "error"]
    assert [(code, message) for code, _, message in found] == [
        ("rules.damage", "tobin's hit on vell has no damage applied by the end of the turn: a hit deals the die's last "
         "digit and the weapon's Damage"),
        ("rules.condition", "vell recorded dead with no Wound against Toughness 7: death takes a Wound more than 5 "
         "above Toughness (irreversible_death)")]  # the death the deleted damage gave
    assert found[0][1] == hit.seq
    log = hand_run("tavern-melee")
    miss = log.find(AttackResolved, attacker="tobin", hit=False)
    log.insert_after(miss, DamageApplied(seq=0, target="vell", raw=9, taken=1, pool="w9", source="tobin", cause=miss.seq))
    built = log.done()
    [miss] = [e for e in built.events if isinstance(e, AttackResolved) and e.attacker == "tobin" and not e.hit]
    found = [(f.code, f.message) for f in audit_events(built.events).findings if f.severity == "error"]
    assert found[0] == ("rules.damage", f"vell takes Damage from tobin's attack at seq {miss.seq}, which missed: a "
                        "miss deals none")


def test_a_wound_marked_when_the_armour_took_all_the_damage() -> None:
    """Armor; Marking Wounds: Damage the armour takes whole marks no Wound (a tester's edit: the
    Axe's Damage 3, raw 4 all taken by Protection 5, recorded as a Wound 1, audited clean)."""
    import copy

    from fightlog.events.model import AttackResolved, CombatantJoined, DamageApplied
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("plated-duel")
    joined = log.find(CombatantJoined, actor="brun")
    sheet = copy.deepcopy(joined.sheet)
    sheet["weapons"][0]["damage"] = 3
    log.change(joined, sheet=sheet)
    dealt = log.after(log.find(AttackResolved, attacker="brun", hit=True), DamageApplied)
    log.change(dealt, raw=4, reduced_by=4, taken=1, pool="w1")
    built = log.done()
    [dealt] = [e for e in built.events if isinstance(e, DamageApplied) and e.target == "hale" and e.raw == 4]
    found = [(f.code, f.seq, f.message) for f in audit_events(built.events).findings if f.code == "rules.wound"]
    assert found == [("rules.wound", dealt.seq, "hale's Damage 4 is all taken off (by 4): no Wound is "
                      "marked, not w1")]


def test_a_shot_after_a_move_is_held_to_its_distance_step() -> None:
    """Ranged attack: a hit needs a Success above the distance step, a move first or not (a
    tester: Sela's move-and-shoot at 60 m recorded against 0 audited clean)."""
    from fightlog.events.model import AttackResolved
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("ridge-firefight")
    shot = log.find(AttackResolved, attacker="sela")
    assert shot.against == 6
    log.change(shot, against=0)
    built = log.done()
    found = [(f.code, f.message) for f in audit_events(built.events).findings if f.severity == "error"]
    assert found == [("rules.outcome", "sela's attack on ines is recorded against 0; the rules give 6")]


@pytest.mark.parametrize(("note", "says"), [
    ("skill 3 (Attack 13, beyond Range -6, cover -4)",
     "sela's shot at ines is rolled under Pistol's Attack 13; after moving, a shot uses its Defense 9"),
    ("skill 3 (Defense (moved) 9, beyond Range -2, cover -4)",
     "sela's shot at ines at 60 m (step 6) against Pistol's Range 4 is rolled with -2 beyond Range; the rules give -4 "
     "(-2 a step)"),
])
def test_a_shots_skill_the_declaration_decides(note: str, says: str) -> None:
    """Ranged attack; Movement: a shot after a move uses the weapon's Defense, and each step
    beyond Range costs 2 (a tester rewrote the note, Attack for Defense, the -6 beyond Range
    left out, and the audit, reading the skill from the note, was clean)."""
    from fightlog.events.model import AttackResolved
    from fightlog.fixtures.en51_audit_fights import hand_run

    log = hand_run("ridge-firefight")
    shot = log.find(AttackResolved, attacker="sela")
    assert shot.notes[0] == "skill 1 (Defense (moved) 9, beyond Range -4, cover -4)"
    log.change(shot, notes=[note, *shot.notes[1:]])
    built = log.done()
    found = [(f.code, f.message) for f in audit_events(built.events).findings if f.severity == "error"]
    assert found == [("rules.outcome", says)]


@pytest.mark.parametrize("answer", ["counter weapon=Cutlass", "ignore"])
def test_a_charge_answered_by_a_counter_or_an_ignore_audits_clean(tmp_path: Path, answer: str) -> None:
    """A melee attack combined with a move waits on the mover for its answer, which ends before
    the attack resolves: the audit, which looked for it among the turn's posts, judged the
    charge against Unarmed Defense (a tester: the engine's own fight had an error)."""
    from tests.rules.refusals import run

    log = str(tmp_path / "charge.jsonl")
    roster = str(FIXTURES / "en51" / "rosters" / "tavern.toml")
    for args in (("play", "start", log, "--ruleset", "en51", "--seed", "1", "--open"),
                 ("play", "join", log, "--roster", roster, "mira", "rask"), ("play", "begin", log),
                 ("play", "post", log, "mira", "Mira charges Rask.", "--do", "move distance=4", "--do",
                  "attack target=rask weapon=Sabre distance=5"),
                 ("play", "post", log, "rask", "Rask answers.", "--do", answer, "--responds-to", "7"),
                 ("play", "end-turn", log), ("play", "end-turn", log)):
        assert run(*args)[0] == 0, args
    assert run("audit", log)[0] == 0


def test_hand_kept_damage_citing_nothing_pays_the_hit() -> None:
    """A hand-kept log's damage may cite nothing: one on the hit's target pays it (as roe7,
    Traveller and d20 take it; a tester's en5.1 and Bleeding Sun logs had 'no damage')."""
    from fightlog.events.model import DamageApplied
    from fightlog.fixtures.bleedingsun_audit_fights import hand_run as bs_hand_run
    from fightlog.fixtures.en51_audit_fights import hand_run

    for log in (hand_run("tavern-melee"), bs_hand_run("melee-gang-up")):
        for dealt in log.all(DamageApplied):
            log.change(dealt, cause=None)
        found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.damage"]
        assert not [m for m in found if "no damage applied" in m], found


@pytest.mark.parametrize("cites", ["nothing", "the post"])
def test_an_attack_citing_no_attack_roll(cites: str) -> None:
    """A tester's hand-kept attack citing no roll (or a post for one), its Success and the
    Damage made up: every en5.1 check of the attack was skipped, clean."""
    from fightlog.events.model import AttackResolved
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "tavern-melee.jsonl")])
    hit = log.find(AttackResolved, hit=True)
    assert hit.weapon is not None and hit.declaration is not None
    log.change(hit, rolls=[] if cites == "nothing" else [hit.declaration], score=20)
    found = [(f.seq, f.message) for f in audit_events(log.done().events).findings if f.code == "rules.outcome"]
    assert found == [(hit.seq, f"{hit.attacker}'s attack on {hit.target} cites no black-and-white attack roll (BW, for "
                               "the attack): its Success, the armour and the Damage, which that one roll gives, cannot "
                               "be checked")]


@pytest.mark.parametrize("spent", ["recorded and lifted", "never recorded"])
def test_an_attack_in_the_turn_a_counterattack_took(spent: str) -> None:
    """Melee attack: the counterattack is the counterattacker's action. A tester's Rask
    countered in Mira's turn, then attacked in his own: clean when the log lifted `spent` as
    his turn opened (as the engine does) or never recorded it (as a GM would)."""
    from fightlog.events.model import Action, DeclarationPosted, Origin, StatusChanged, TurnStarted
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "tavern-melee.jsonl")])
    counter = log.find(DeclarationPosted, actor="rask")
    assert [a.type for a in counter.actions] == ["counter"]
    if spent == "never recorded":
        for status in log.all(StatusChanged, actor="rask", status="spent"):
            log.drop(status)
    opened = log.find(TurnStarted, actor="rask")
    post = DeclarationPosted(actor="rask", text="Rask lunges at Tobin.", origin=Origin(medium="manual"),
                             actions=[Action(type="attack", target="tobin", weapon="Cutlass")])  # the GM's hand
    lifted = log.all(StatusChanged, actor="rask", status="spent", on=False)
    log.insert_after(lifted[0] if lifted else opened, post)
    events = log.done().events
    attack = next(e for e in events if isinstance(e, DeclarationPosted) and e.text == "Rask lunges at Tobin.")
    found = [(f.seq, f.message) for f in audit_events(events).findings if f.severity != "info"]
    assert [(seq, message.split(" (seq ")[0]) for seq, message in found] == [
        (attack.seq, "the rules refuse rask's post: rask's action this turn went on a counterattack")]


def test_an_attack_in_the_turn_rolling_with_a_hit_took() -> None:
    """Roll with it: the next action is lost. The log lifted Hale's `rolling` as his turn
    opened (the action lost), and a tester had him attack in that turn: clean."""
    from fightlog.events.model import Action, DeclarationPosted, Origin, StatusChanged
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "rolling-brawl.jsonl")])
    [lifted] = log.all(StatusChanged, actor="hale", status="rolling", on=False)
    post = DeclarationPosted(actor="hale", text="Hale swings back.", origin=Origin(medium="manual"),
                             actions=[Action(type="attack", target="brun", weapon="Longsword")])
    log.insert_after(lifted, post)
    events = log.done().events
    attack = next(e for e in events if isinstance(e, DeclarationPosted) and e.text == "Hale swings back.")
    moved = next(e for e in events if isinstance(e, StatusChanged) and e.actor == "hale" and e.status == "rolling"
                 and not e.on)
    found = [(f.seq, f.message) for f in audit_events(events).findings if f.code == "rules.allowance"]
    assert found == [(attack.seq, f"the rules refuse hale's post: hale's action this turn was sacrificed rolling with "
                                  f"a hit (seq {moved.seq})")]


def test_a_move_made_or_kept_farther_than_declared() -> None:
    """Movement: a tester's hand-kept move went 25 m on a post declaring 10 (Agility 10): clean."""
    from fightlog.events.model import EffectApplied, Moved
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    events = [e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "ridge-firefight.jsonl")]
    moved = next(e for e in events if isinstance(e, Moved) and e.relative_to is None)
    kept = next(e for e in events if isinstance(e, EffectApplied) and e.name == "move" and e.target == moved.actor)
    declared = kept.params["metres"]
    assert isinstance(declared, int) and [f for f in audit_events(events).findings if f.code == "rules.combined"] == []
    log = Tamper(events)
    log.change(log.find(Moved, actor=moved.actor), metres=declared + 15)
    found = [(f.seq, f.message) for f in audit_events(log.done().events).findings if f.code == "rules.combined"]
    assert found == [(moved.seq, f"{moved.actor} moves {declared + 15} m; the post (seq {moved.cause}) declared "
                                 f"{declared} m" + (f", half of it rolling with a hit ({declared // 2} m)"
                                                   if moved.metres != declared else ""))]
    log = Tamper(events)
    log.change(log.find(EffectApplied, name="move", target=moved.actor), params={**kept.params, "metres": declared + 1})
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.combined"]
    assert f"{moved.actor}'s move is kept as {declared + 1} m; the post (seq {moved.cause}) declared {declared} m" in found


def test_rolling_with_a_hit_is_read_from_the_answer_not_the_status() -> None:
    """A hand-kept log whose answer said `take roll=true` but recorded no `rolling` status had
    its reduction (armour and the roll) flagged as armour alone (a tester)."""
    from fightlog.events.model import DamageApplied, StatusChanged
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    events = [e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "rolling-brawl.jsonl")]
    log = Tamper(events)
    log.drop(*log.all(StatusChanged, status="rolling"))
    found = [(f.code, f.message) for f in audit_events(log.done().events).findings if f.code == "rules.armour"]
    assert found == []
    rolled = [e for e in events if isinstance(e, DamageApplied) and e.reduced_by]
    assert rolled  # the fight has a reduction the roll is part of
    log = Tamper(events)
    log.drop(*log.all(StatusChanged, status="rolling"))
    hurt = log.find(DamageApplied, target=rolled[0].target)
    log.change(hurt, reduced_by=hurt.reduced_by - 2)
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.armour"]
    assert len(found) == 1 and "rolling with it takes 2" in found[0], found


def test_an_aim_or_a_gm_modifier_the_log_does_not_give() -> None:
    """Ranged attack: +2 after an aim action. A tester's shot recorded "aimed +2" with no aim,
    and another a GM circumstance +5 its post did not give: both clean."""
    from fightlog.events.model import Action, AttackResolved, DeclarationPosted, EffectApplied, EffectExpired
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    events = [e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "ridge-firefight.jsonl")]
    shot = next(e for e in events if isinstance(e, AttackResolved) and any("aimed" in n for n in e.notes))
    aim = next(e for e in events if isinstance(e, EffectApplied) and e.name == "aim" and e.target == shot.attacker)
    log = Tamper(events)
    log.drop(log.find(EffectApplied, effect=aim.effect), *log.all(EffectExpired, effect=aim.effect))
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.outcome"]
    assert found == [f"{shot.attacker}'s shot at {shot.target} is rolled aimed (+2); {shot.attacker} had no aim in "
                     "force (an aim action in an earlier turn)"]
    log = Tamper(events)
    post = log.find(DeclarationPosted, seq=shot.declaration)
    actions = [Action(type=a.type, target=a.target, weapon=a.weapon, distance=a.distance,
                      params={**a.params, "gm": 3}) if a.type == "attack" else a for a in post.actions]
    log.change(post, actions=actions)
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.outcome"]
    assert found == [f"{shot.attacker}'s attack on {shot.target} is rolled with a GM circumstance of +0; its "
                     f"declaration (seq {shot.declaration}) gives gm=3"]


def test_a_held_attack_cutting_in_is_no_counterattack_to_roll_with() -> None:
    """A held attack cutting in is posted answering the post it cuts in on, by its attacker:
    the audit took it for a counterattack and read that post's `roll=true` as its target
    rolling with the hit (a review: a false rules.armour on an engine fight)."""
    from tests.rules.en51.rigged import Fight

    fight = Fight().join("ana").join("bo").join("cy").begin()
    fight.turn("ana", "wait then=attack")
    fight.post("bo", "attack target=cy weapon=Sword roll=true")
    fight.post("ana", "attack target=bo weapon=Sword")  # cuts in on bo's post
    fight.post("cy", "take", faces=[3, 11, 3, 11])
    assert [f.message for f in audit_events(list(fight.scribe.events)).findings if f.code.startswith("rules.")] == []


def test_an_attack_rolled_again() -> None:
    """One roll decides an attack. A tester's hand-run fight rolled Ann's sword attack twice and
    resolved it on the second roll (the first, a miss, left standing), and resolved another a
    second time with a new roll and a second Wound: both clean."""
    from fightlog.events.model import AttackResolved, DiceRolled, Die as Dice
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    events = [e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "tavern-melee.jsonl")]
    log = Tamper(events)
    resolved = log.find(AttackResolved, attacker="mira")
    roll = log.get(resolved.rolls[0])
    assert isinstance(roll, DiceRolled)
    first = DiceRolled(roller="mira", notation="BW", purpose="attack", for_seq=roll.for_seq, total=37,
                       generator="external", tool="BW dice bot",
                       dice=[Dice(sides=20, face=19, label="black"), Dice(sides=20, face=18, label="white")])
    log.insert_after(log.get(roll.seq - 1), first)
    found = [(f.code, f.seq, f.severity, f.message) for f in audit_events(log.done().events).findings
             if f.code.startswith("rules.")]
    assert found == [("rules.unused-roll", roll.seq, "warning", "mira's attack roll (black 19, white 18) decides no "
                      "attack by the round's end: rolled again, or for nothing?")]
    log = Tamper(events)
    rolled_again = msgspec.structs.replace(roll, generator="external", tool="BW dice bot", index=None)
    new_roll = log.new(rolled_again)
    log.insert_after(resolved, new_roll, msgspec.structs.replace(resolved, rolls=[new_roll.seq]))
    done = log.done().events
    seqs = [e.seq for e in done if isinstance(e, AttackResolved) and e.attacker == "mira"]
    found = [(f.code, f.seq, f.message) for f in audit_events(done).findings if f.code == "rules.outcome"]
    assert found == [("rules.outcome", seqs[1], f"mira's attack on rask declared at seq {resolved.declaration} is "
                      f"resolved again (first at seq {seqs[0]}): one roll decides an attack")]


@pytest.mark.parametrize(("weapon", "code", "said"), [
    ("Nope", "rules.not-carried", "mira's attack on rask is resolved with Nope, which they do not carry (carried: Sabre, "
                                  "Dagger)"),
    ("Dagger", "rules.outcome", "mira's attack on rask is resolved with Dagger; the post at seq 9 declared Sabre"),
])
def test_an_attack_resolved_with_a_weapon_not_carried_or_not_declared(weapon: str, code: str, said: str) -> None:
    """A tester's attack resolved with a weapon Mira does not carry: clean (its damage unchecked
    too); one resolved with her other weapon than the post's: clean."""
    from fightlog.events.model import AttackResolved
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "tavern-melee.jsonl")])
    log.change(log.find(AttackResolved, attacker="mira"), weapon=weapon)
    found = [(f.code, f.message) for f in audit_events(log.done().events).findings if f.code == code]
    assert found == [(code, said)]


def test_a_bleeding_milder_than_the_wounds_give() -> None:
    """The aftermath: a Wound above Toughness bleeds badly. A tester recorded Drago's Wound 12
    (Toughness 9) as bleeding slowly: clean."""
    from fightlog.events.model import StatusChanged
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "ridge-firefight.jsonl")])
    badly = log.find(StatusChanged, actor="drago", status="bleeding_badly", on=True)
    log.change(badly, status="bleeding_slowly")
    found = [(f.seq, f.message) for f in audit_events(log.done().events).findings if f.code == "rules.condition"]
    assert found == [(badly.seq, "drago recorded bleeding slowly with Wounds 12 against Toughness 9: the Wounds give "
                                 "bleeding badly (equal to Toughness: slowly; above it: badly)")]


def test_wounds_that_bleed_with_no_bleeding_recorded() -> None:
    """A tester deleted Drago's bleeding badly (Wound 12, Toughness 9): clean, while a milder
    bleeding was a finding."""
    from fightlog.events.model import StatusChanged, TurnEnded
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "ridge-firefight.jsonl")])
    badly = log.find(StatusChanged, actor="drago", status="bleeding_badly", on=True)
    ended = log.after(badly, TurnEnded)
    log.drop(badly)
    found = [(f.seq, f.message) for f in audit_events(log.done().events).findings if f.code == "rules.condition"]
    assert found == [(ended.seq - 1, "drago has Wounds 12 against Toughness 9 and is not recorded bleeding badly when "
                                     "the turn ends (equal to Toughness: slowly; above it: badly)")]


def test_medicine_and_recovery_the_faces_do_not_give() -> None:
    """Using Medicine; Recovery: a tester's failed Medicine roll (17 and 19 against Medicine 14)
    recorded as a success with its bonus, a bonus inflated past the Success, and a Recovery's
    Success not the faces': all clean (only attacks were audited)."""
    from msgspec.structs import replace

    from fightlog.events.model import AttackResolved, EffectApplied
    from fightlog.fixtures.tampering import Tamper
    from tests.rules.en51.rigged import Fight

    fight = Fight().join("ana").join("bo", side="ana", wounds=[8]).begin()  # after the fight
    fight.turn("ana", "medicine target=bo", faces=[5, 20])
    fight.turn("bo", "recover", faces=[13, 20])
    events = list(fight.scribe.events)

    def care(edit: Callable[[Tamper], None]) -> list[str]:
        log = Tamper([replace(e, origin=None) for e in events])
        edit(log)
        return [f.message for f in audit_events(log.done().events).findings if f.code == "rules.care"]

    assert care(lambda log: None) == []
    assert care(lambda log: log.change(log.find(AttackResolved, attacker="ana"), score=9)) == [
        "ana's medicine roll (black 5, white 20) under Medicine 12 gives a Success of 5; recorded: a Success of 9"]
    assert care(lambda log: log.change(log.find(EffectApplied, name="medicine"), magnitude=14)) == [
        "ana's Medicine on bo gives a bonus of 5 (its Success), recorded as 14"]
    assert care(lambda log: log.change(log.find(AttackResolved, attacker="bo"), score=7)) == [
        "bo's recovery roll (black 13, white 20) under Toughness 13 gives a Success of 13; recorded: a Success of 7"]


def test_a_counterattack_never_resolved() -> None:
    """Melee attack: when a counterattack is declared, both attacks are resolved. A tester
    dropped Rask's counter roll, its resolution and his guard: clean."""
    from fightlog.events.model import AttackResolved, DeclarationPosted, EffectApplied
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "tavern-melee.jsonl")])
    counter = log.find(DeclarationPosted, actor="rask")
    resolved = log.find(AttackResolved, attacker="rask")
    assert resolved.declaration == counter.seq
    log.drop(resolved, *[log.get(seq) for seq in resolved.rolls],
             *[e for e in log.all(EffectApplied, name="guard", target="rask") if e.cause == resolved.seq])
    found = [(f.seq, f.message) for f in audit_events(log.done().events).findings if f.code == "rules.outcome"]
    assert found == [(counter.seq, f"rask's counterattack (seq {counter.seq}) is never resolved by the turn's end: when "
                                   "a counterattack is declared, both attacks are resolved")]


def test_automatic_fire_after_a_dry_magazine_with_no_empty_recorded() -> None:
    """Ammunition: an ammo check failed (black 16 over A13) empties the magazine until a
    reload. A tester's log recorded no `empty` and dropped the reload: the next burst was
    clean (only an `empty` the log kept was read)."""
    from fightlog.events.model import EffectApplied, EffectExpired, WeaponReloaded, DeclarationPosted
    from fightlog.events.reader import read_log
    from fightlog.fixtures.tampering import Tamper

    log = Tamper([e for _, e in read_log(FIXTURES / "en51" / "scenarios" / "dry-magazine.jsonl")])
    reload = log.find(DeclarationPosted, actor="oskar", nth=2)
    assert [a.type for a in reload.actions] == ["reload"]
    log.drop(log.find(EffectApplied, name="empty"), reload, log.find(WeaponReloaded), log.find(EffectExpired))
    events = log.done().events
    found = [(f.code, f.message) for f in audit_events(events).findings if f.code == "rules.ammo"]
    assert len(found) == 1 and found[0][1].startswith("oskar fires SMG after its magazine ran dry at seq 22, with no "
                                                      "reload since"), found
