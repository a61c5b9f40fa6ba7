"""The Traveller audit on the flawed hand-run fights of ``fixtures/traveller/audit``: it
finds exactly the flaws ``fixtures/traveller_fights.py`` made (their code and ``seq``), its
reports are snapshots, and the script still writes the committed bytes."""

from __future__ import annotations

import msgspec
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from collections.abc import Callable

from fightlog.audit.one_process import audit_events
from fightlog.events.model import AnyEvent
from fightlog.fixtures.tampering import Tamper
from fightlog.events.codec import decode_line
from fightlog.fixtures.traveller_fights import FIGHTS, ROOT, hand_run, to_bytes

NAMES = sorted(FIGHTS)


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


def test_the_three_flaws_the_issue_names_are_there() -> None:
    named = {"the-dodge-that-cost-nothing.jsonl", "the-seventh-aim.jsonl", "the-shot-from-the-ground.jsonl"}
    assert named <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_the_script_writes_the_committed_bytes(name: str) -> None:
    assert to_bytes(FIGHTS[name]().events) == (ROOT / "audit" / name).read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_the_audit_finds_exactly_the_flaws(name: str, snapshot_json: SnapshotAssertion) -> None:
    built = FIGHTS[name]()
    events = [decode_line(line) for line in (ROOT / "audit" / name).read_bytes().splitlines()]
    report = audit_events(events)
    found = sorted((f.seq, f.code) for f in report.findings if f.severity != "info")
    assert found == [(flaw.seq, flaw.code) for flaw in built.flaws]
    assert [msgspec.to_builtins(f) for f in report.findings if f.severity != "info"] == snapshot_json


def test_a_hand_run_reaction_answers_the_attack_it_responds_to_without_the_tables_marks() -> None:
    """A log the table did not play has no ``incoming`` effect: a reaction answers the attack
    declared in the post it responds to (a parry against a shot is still refused)."""
    from msgspec.structs import replace

    from fightlog.events.model import DeclarationPosted, EffectApplied, EffectExpired
    from fightlog.fixtures.traveller_fights import hand_run

    log = hand_run("dive-behind-the-wall")
    marks = [e for e in log.events if isinstance(e, (EffectApplied, EffectExpired)) and e.effect.startswith("incoming")]
    log.drop(*marks)
    events = log.done().events
    assert not [f for f in audit_events(events).findings if f.severity != "info"]
    dive = next(e for e in events if isinstance(e, DeclarationPosted) and e.actions and e.actions[0].type == "dive")
    parried = [replace(dive, actions=[replace(dive.actions[0], type="parry", params={})]) if e is dive else e
               for e in events]
    found = [(f.code, f.seq) for f in audit_events(parried).findings if f.severity != "info"]
    assert ("rules.reaction", dive.seq) in found


def _flawed(name: str, change: Callable[[Tamper], AnyEvent]) -> list[tuple[str, int]]:
    """The findings of a scenario's hand-run log after ``change``."""
    from fightlog.fixtures.traveller_fights import hand_run

    log = hand_run(name)
    change(log)
    return [(f.code, f.seq) for f in audit_events(log.done().events).findings if f.severity != "info"]


def test_a_grapple_given_to_the_lower_total_is_an_outcome_finding() -> None:
    from fightlog.events.model import AttackResolved

    def flip(log: Tamper) -> AnyEvent:
        grapple = next(e for e in log.all(AttackResolved) if len(e.rolls) == 2 and not e.hit)
        return log.change(grapple, hit=True)

    assert [code for code, _ in _flawed("knives-in-the-galley", flip)] == ["rules.outcome"]


def test_a_reaction_that_cost_nothing_is_a_reaction_finding() -> None:
    from fightlog.events.model import EffectApplied

    def free(log: Tamper) -> AnyEvent:
        return log.change(log.all(EffectApplied, name="reacted")[0], magnitude=0)

    codes = [code for code, _ in _flawed("knives-in-the-galley", free)]
    assert codes[0] == "rules.reaction"  # and the attacks it should have cost DM-1 on
    assert set(codes) <= {"rules.reaction", "rules.attack-dm"}


def test_a_reaction_is_judged_from_the_scene_s_options_even_when_its_maker_s_sheet_cannot_be_read() -> None:
    """The reaction's cost is a scene option: a sheet the rules cannot read leaves the checks
    that need it undone (docs/audit.md), never the audit of the whole log."""
    from fightlog.events.model import CombatantJoined, EffectApplied

    def unreadable_and_free(log: Tamper) -> AnyEvent:
        reacted = log.all(EffectApplied, name="reacted")[0]
        joined = log.find(CombatantJoined, actor=reacted.target)
        log.change(joined, sheet={"characteristics": "not a table"})
        return log.change(reacted, magnitude=0)

    codes = [code for code, _ in _flawed("knives-in-the-galley", unreadable_and_free)]
    assert codes[:2] == ["scene.bad-sheet", "rules.reaction"]  # the sheet said at its joining


def test_first_aid_healing_too_much_is_a_healing_finding() -> None:
    from fightlog.events.model import HealingApplied

    def more(log: Tamper) -> AnyEvent:
        return log.change(log.find(HealingApplied), amount=3)

    assert [code for code, _ in _flawed("first-aid-on-the-ramp", more)] == ["rules.healing"]


def test_an_initiative_score_the_roll_does_not_give_is_an_initiative_finding() -> None:
    from fightlog.events.model import InitiativeRolled

    def raised(log: Tamper) -> AnyEvent:
        first = log.all(InitiativeRolled)[0]
        return log.change(first, score=first.score + 3)

    codes = [code for code, _ in _flawed("dive-behind-the-wall", raised)]
    assert codes and set(codes) == {"rules.initiative"}  # the score, and the order that no longer follows it


def test_an_ambush_order_kept_past_the_first_round_or_ignored_in_it_is_an_initiative_finding() -> None:
    from fightlog.events.model import InitiativeSet

    def ignored(log: Tamper) -> AnyEvent:
        first = log.all(InitiativeSet)[0]
        return log.change(first, order=list(reversed(first.order)))

    found = _flawed("ambush-at-the-landing-pad", ignored)
    assert found and found[0][0] == "rules.initiative"


def test_a_logged_move_away_from_a_grapple_is_a_grappled_finding() -> None:
    """The audit plays a logged post by the table's checks: moving away while held (or
    shooting past the partner) is refused there, so it is a ``rules.grappled`` finding."""
    from fightlog.events.model import Action, DeclarationPosted, Origin
    from fightlog.rules.traveller.declared import check_declaration
    from tests.rules.traveller.test_rules import _held

    state = _held().state
    moved = DeclarationPosted(actor="bob", text="Bob walks off.",
                              actions=[Action(type="move", params={"x": 5, "y": 0})], origin=Origin(medium="manual", author="Gemma"))
    found = check_declaration(state, moved)
    assert found is not None and found.code == "rules.grappled"
    shot = DeclarationPosted(actor="bob", actions=[Action(type="attack", target="carl")],
                             origin=Origin(medium="manual", author="Gemma"))
    found = check_declaration(state, shot)
    assert found is not None and found.code == "rules.grappled"


def test_a_dive_into_cover_whose_armour_was_left_off_the_shot_is_a_damage_finding() -> None:
    """The ambush: Vance dives into vegetation from Kesh's shotgun, which hits; the damage
    logged without the vegetation's 2 is a ``rules.damage`` finding."""
    from fightlog.events.model import DamageApplied

    def bare(log: Tamper) -> AnyEvent:
        hit = log.all(DamageApplied, target="vance")[0]
        return log.change(hit, reduced_by=hit.reduced_by - 2)

    assert "rules.damage" in [code for code, _ in _flawed("ambush-at-the-landing-pad", bare)]


def test_a_logged_defenders_pick_that_is_no_choice_is_refused_by_the_audit() -> None:
    from fightlog.events.model import Action, DeclarationPosted, Origin
    from fightlog.rules.traveller.declared import check_declaration
    from tests.rules.traveller.test_rules import _held

    state = _held().state
    picked = DeclarationPosted(actor="alice", responds_to=17, origin=Origin(medium="manual", author="Gemma"),
                               actions=[Action(type="grapple", target="bob", params={"choice": "fly"})])
    found = check_declaration(state, picked)
    assert found is not None and "the winner picks one of" in found.message
    fine = DeclarationPosted(actor="alice", responds_to=17, origin=Origin(medium="manual", author="Gemma"),
                             actions=[Action(type="grapple", target="bob", params={"choice": "damage"})])
    assert check_declaration(state, fine) is None


def test_an_ambush_by_a_side_nobody_is_on_is_an_initiative_finding() -> None:
    from fightlog.events.model import SceneStarted

    def pirates(log: Tamper) -> AnyEvent:
        started = log.find(SceneStarted)
        return log.change(started, options={**started.options, "ambush": "pirates"})

    from fightlog.fixtures.traveller_fights import hand_run

    log = hand_run("ambush-at-the-landing-pad")
    pirates(log)
    found = [f for f in audit_events(log.done().events).findings if f.code == "rules.initiative"]
    assert any("ambush = 'pirates'" in f.message and "sides: crew, raiders" in f.message for f in found)


def test_a_target_whose_sheet_does_not_read_leaves_the_attack_s_dms_judged() -> None:
    """A combatant's card is read when a check needs it (``Fighter.card``): an unreadable
    sheet on the target of a shot whose DMs read only the attacker's card leaves the shot
    judged; on the attacker's own, nothing about the shot can be told."""
    from fightlog.events.model import AttackResolved, CombatantJoined, Modifier
    from fightlog.fixtures.traveller_fights import _rewritten, _roll_of

    def bogus_dm_without(sheet_of: str | None) -> Callable[[Tamper], AnyEvent]:
        def change(log: Tamper) -> AnyEvent:
            shot = log.find(AttackResolved, attacker="kesh")
            rolled = _rewritten(log, shot, [*_roll_of(log, shot).modifiers, Modifier(value=2, source="bogus")])
            if sheet_of is not None:
                log.change(log.find(CombatantJoined, actor=sheet_of), sheet={})
            return rolled
        return change

    assert [code for code, _ in _flawed("dive-behind-the-wall", bogus_dm_without(None))] == ["rules.attack-dm"]
    assert [code for code, _ in _flawed("dive-behind-the-wall", bogus_dm_without("ilsa"))] == ["rules.attack-dm"]
    assert _flawed("dive-behind-the-wall", bogus_dm_without("kesh")) == []


def test_a_target_whose_sheet_does_not_read_leaves_the_damage_roll_s_dms_judged() -> None:
    """The damage roll's DMs (STR DM in melee, the Effect) read the attacker only: judged
    when the target's armour cannot be read, and only the armour's part left undone."""
    from fightlog.events.model import CombatantJoined, DamageApplied, DiceRolled, Modifier

    def bogus_dm_without(sheet_of: str | None) -> Callable[[Tamper], AnyEvent]:
        def change(log: Tamper) -> AnyEvent:
            damage = log.find(DamageApplied, target="ilsa")
            roll = log.get(damage.seq - 1)
            assert isinstance(roll, DiceRolled) and roll.purpose == "damage"
            log.change(roll, modifiers=[*roll.modifiers, Modifier(value=1, source="bogus")], total=roll.total + 1)
            if sheet_of is not None:
                log.change(log.find(CombatantJoined, actor=sheet_of), sheet={})
            return damage
        return change

    def messages(sheet_of: str | None) -> list[str]:
        log = hand_run("dive-behind-the-wall")
        bogus_dm_without(sheet_of)(log)
        return [f.message for f in audit_events(log.done().events).findings if f.code == "rules.damage"]

    whole = messages(None)
    assert len(whole) == 1 and "DMs are +2, the rules give +1" in whole[0] and "protection" in whole[0]
    assert messages("ilsa") == [whole[0].split("; ")[0]]  # the DMs judged, the armour not
    assert messages("kesh") == []  # the attacker's weapon does not read: nothing to judge


@pytest.mark.parametrize("metres", [11, False, "far", 12.5, None])
def test_an_incoming_attack_s_distance_that_is_no_whole_number_is_read_from_the_declaration(metres: object) -> None:
    """The ``incoming`` effect keeps the distance the table measured when the attack was
    declared; edited into something that is no whole number (``false`` made the audit stop
    with an internal error), the audit measures it from the declaration, as the table did."""
    from fightlog.events.model import AttackResolved, EffectApplied, Modifier
    from fightlog.fixtures.traveller_fights import _rewritten, _roll_of

    def edited(log: Tamper) -> AnyEvent:
        incoming = log.all(EffectApplied, name="incoming")[0]
        log.change(incoming, params={**incoming.params, "metres": metres})
        shot = log.find(AttackResolved, declaration=incoming.cause)
        return _rewritten(log, shot, [*_roll_of(log, shot).modifiers, Modifier(value=1, source="bogus")])

    assert [code for code, _ in _flawed("ambush-at-the-landing-pad", edited)] == ["rules.attack-dm"]


def test_what_needs_no_card_is_judged_when_a_sheet_does_not_read() -> None:
    """An attack's outcome (8+ hits, Effect) and an initiative's score read the roll and the
    scene's options, not the cards: judged whatever the sheets say."""
    from fightlog.events.model import AttackResolved, CombatantJoined, InitiativeRolled

    def flipped(log: Tamper) -> AnyEvent:
        shot = log.find(AttackResolved, attacker="kesh")
        log.change(log.find(CombatantJoined, actor="kesh"), sheet={})
        return log.change(shot, hit=not shot.hit)

    assert [code for code, _ in _flawed("dive-behind-the-wall", flipped)] == ["rules.outcome"]

    def raised(log: Tamper) -> AnyEvent:
        first = log.all(InitiativeRolled)[0]
        log.change(log.find(CombatantJoined, actor=first.actor), sheet={})
        return log.change(first, score=first.score + 3)

    assert "rules.initiative" in {code for code, _ in _flawed("dive-behind-the-wall", raised)}


@pytest.mark.parametrize(
    ("status", "found"),
    [("dead", ["rules.condition"]), ("crouched", ["rules.condition"]), ("unconscious", [])],
    ids=["dead-at-two", "standing-at-two", "as-played"],
)
def test_a_condition_the_characteristics_do_not_give(status: str, found: list[str]) -> None:
    """Unconsciousness: two characteristics at zero is unconscious, all three dead; a log
    that says otherwise is a finding at the status (or at the turn's end, for one left
    standing), besides what follows from it."""
    from fightlog.events.model import StatusChanged

    seqs: list[int] = []

    def change(log: Tamper) -> AnyEvent:
        fallen = log.find(StatusChanged, status="unconscious", on=True)
        seqs.append(fallen.seq)
        return log.change(fallen, status=status)

    codes = _flawed("firefight-in-the-refinery", change)
    assert [code for code, _ in codes if code == "rules.condition"] == found
    if status == "dead":
        assert ("rules.condition", seqs[0]) in codes


def test_damage_after_a_miss() -> None:
    """Attack (A5): a miss does nothing (a tester's damage after Kesh's miss audited clean
    unless it disturbed a later split)."""
    from fightlog.events.model import AttackResolved, DamageApplied
    from fightlog.fixtures.traveller_fights import hand_run

    log = hand_run("dive-behind-the-wall")
    miss = log.find(AttackResolved, attacker="kesh", hit=False)
    log.insert_after(miss, DamageApplied(seq=0, target="ilsa", raw=1, taken=1, pool="END", source="kesh",
                                         cause=miss.seq))
    built = log.done()
    [miss] = [e for e in built.events if isinstance(e, AttackResolved) and e.attacker == "kesh" and not e.hit]
    found = [(f.code, f.message) for f in audit_events(built.events).findings if f.severity == "error"]
    assert ("rules.damage", f"ilsa takes damage from kesh's attack at seq {miss.seq}, which missed: a miss does "
            "nothing") in found


def test_a_hit_left_without_damage() -> None:
    """A hit deals its damage (a tester deleted Ilsa's damage to Kesh: clean)."""
    from fightlog.events.model import AttackResolved, DamageApplied
    from fightlog.fixtures.traveller_fights import hand_run

    log = hand_run("dive-behind-the-wall")
    hit = log.find(AttackResolved, attacker="ilsa", hit=True)
    log.drop(*log.all(DamageApplied, cause=hit.seq))
    found = [(f.code, f.message) for f in audit_events(log.done().events).findings if f.code == "rules.damage"]
    assert found == [("rules.damage", "ilsa's hit on kesh has no damage applied by the end of the turn: a hit's damage "
                      "is its dice and its Effect, less armour")]


def test_a_post_in_the_turn_a_dive_lost() -> None:
    """Reaction, Dive for cover: the next turn is lost (a tester's post in Ilsa's lost turn,
    before or after its dived status ended, audited clean)."""
    from msgspec.structs import replace

    from fightlog.events.model import Action, DeclarationPosted, StatusChanged
    from fightlog.fixtures.traveller_fights import hand_run

    for after_the_end in (False, True):
        log = hand_run("dive-behind-the-wall")
        ended = log.find(StatusChanged, actor="ilsa", status="dived", on=False)
        anchor = ended if after_the_end else log.get(ended.seq - 1)
        template = log.all(DeclarationPosted, actor="ilsa")[0]
        post = replace(template, seq=0, text="Ilsa rises to a crouch.", responds_to=None,
                       actions=[Action(type="stance", params={"to": "crouch"})])
        log.insert_after(anchor, post)
        found = [(f.code, f.message) for f in audit_events(log.done().events).findings if f.severity == "error"]
        said = ("ilsa posts in the turn lost to the dive for cover" if after_the_end else
                "the rules refuse ilsa's post: ilsa dived for cover: this turn is lost to the dive")
        assert found == [("rules.allowance", said)], found


def test_cover_of_another_value_than_the_chart() -> None:
    """Weapon Range and Cover (W4): a stone wall is +8 (a tester recorded 20, and the damage
    soaked by it: clean)."""
    from fightlog.events.model import EffectApplied
    from fightlog.fixtures.traveller_fights import hand_run

    log = hand_run("dive-behind-the-wall")
    cover = log.find(EffectApplied, name="cover", target="ilsa")
    assert (cover.params["kind"], cover.magnitude) == ("stone_wall", 8)
    log.change(cover, magnitude=20)
    found = [(f.code, f.message) for f in audit_events(log.done().events).findings if f.severity == "error"]
    assert ("rules.damage", "ilsa's cover (stone_wall) is recorded as 20; the chart gives 8") in found


def test_a_grapples_damage_is_two_and_the_winners_effect() -> None:
    """Unarmed Combat or Grappling (G5): damage 2 + the Effect, less armour (a tester's 12 for
    Dorn's Effect 5: clean)."""
    from fightlog.events.model import DamageApplied
    from fightlog.fixtures.traveller_fights import scenario

    log = Tamper(scenario("knives-in-the-galley"))
    dealt = log.find(DamageApplied, source="grapple")
    log.change(dealt, raw=dealt.raw + 5, taken=dealt.taken + 5)
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.damage"]
    assert len(found) == 1 and found[0].startswith(f"{dealt.target}'s grapple damage is recorded as {dealt.raw + 5} less ")


def test_first_aid_healing_that_cites_its_post() -> None:
    """Healing: First Aid heals max(Effect, 1): a healing citing the first aid's post, not its
    roll, was not judged (a tester's 6 points for Effect 1: clean)."""
    from fightlog.events.model import DiceRolled, HealingApplied
    from fightlog.fixtures.traveller_fights import scenario

    log = Tamper(scenario("first-aid-on-the-ramp"))
    roll = log.find(DiceRolled, purpose="first_aid")
    healing = log.after(roll, HealingApplied)
    log.change(healing, cause=roll.for_seq, amount=6)
    found = [f.message for f in audit_events(log.done().events).findings if f.code == "rules.healing"]
    assert len(found) == 1 and "heals 6 points" in found[0]


def test_the_attack_a_reaction_answers_is_read_with_the_weapon_its_post_draws() -> None:
    """A hand-kept log without the table's `incoming` marks: Bob's post draws his Rifle and
    attacks without naming it; Alice's dive answered a "melee attack" (the sheet's first
    weapon, a Blade) and was a false `rules.reaction`."""
    from msgspec.structs import replace

    from fightlog.kit.actions import parse_actions
    from fightlog.reducers.state import PendingDeclaration
    from fightlog.rules.traveller.reactions import _kind
    from tests.rules.traveller.rigged import BLADE, RIFLE, duel

    fight = duel(a={"weapons": [BLADE, RIFLE]})
    state = fight.state
    post = PendingDeclaration(seq=state.seq + 1, actor="alice",
                              actions=tuple(parse_actions(["draw weapon=Rifle", "attack target=bob"])))
    bare = replace(state, pending=(*state.pending, post))
    assert _kind(bare, "bob", post.seq) == "ranged"
    named = replace(post, actions=tuple(parse_actions(["attack target=bob weapon=Blade"])))
    assert _kind(replace(state, pending=(*state.pending, named)), "bob", post.seq) == "melee"


def test_reactions_a_hand_kept_log_does_not_mark_still_cost_their_dm() -> None:
    """The attack DMs read the table's `reacted` marks. A hand-kept log writes the reaction
    and not the mark: the reactor's next shot with its DM-1 was a false rules.attack-dm, and
    one without it passed (a rules tester). Voiding every mark of sim fights changes no
    finding; and then a reactor's shot without its DM-1 is found."""
    from datetime import datetime, timezone

    from msgspec.structs import replace

    from fightlog.events.model import AttackResolved, DiceRolled, EffectApplied, RulingMade
    from fightlog.fixtures.roe7_playing import by_hand
    from fightlog.scale.fights import fight_events
    from fightlog.scale.seeds import master_seed
    from fightlog.scale.setup import load_setup
    from tests.conftest import FIXTURES

    setup = load_setup(str(FIXTURES / "traveller" / "scenarios" / "dive-behind-the-wall.toml"))
    marks = unpaid_found = 0
    for index in range(6):
        events = by_hand(fight_events(setup, master_seed(3), index), "t.txt", datetime(2025, 1, 1, tzinfo=timezone.utc))
        marked = [e.seq for e in events if isinstance(e, EffectApplied) and e.name == "reacted"]
        marks += len(marked)
        unmarked = [*events, *(RulingMade(seq=len(events) + i, by="GM", action="void", target=seq, reason="kept by hand")
                               for i, seq in enumerate(marked, 1))]
        found = [(f.code, f.seq) for f in audit_events(unmarked).findings
                 if f.severity != "info" and f.code != "outcome.voided-cause"]  # the expiries citing the marks voided
        assert found == [(f.code, f.seq) for f in audit_events(events).findings if f.severity != "info"]
        paid = next((e for e in unmarked if isinstance(e, DiceRolled) and e.purpose == "attack"
                     and any(m.source.startswith("reaction at") for m in e.modifiers)), None)
        if paid is not None:  # the same shot without its DM-1
            unpaid = [replace(e, modifiers=[m for m in e.modifiers if not m.source.startswith("reaction at")])
                      if e is paid else e for e in unmarked]
            shot = next(e for e in unpaid if isinstance(e, AttackResolved) and paid.seq in e.rolls)
            assert ("rules.attack-dm", shot.seq) in [(f.code, f.seq) for f in audit_events(unpaid).findings]
            unpaid_found += 1
    assert marks and unpaid_found


def test_a_move_recorded_past_what_its_post_asked_and_the_limit() -> None:
    """Movement: 6 m a minor action. A tester's ruling moved Ann 12 m on a post asking 5 m:
    clean (the post was judged, the move it caused was not)."""
    from fightlog.events.model import Moved
    from msgspec.structs import replace
    from tests.rules.traveller.test_rules import Fight

    fight = Fight()
    fight.join("alice", (0, 0), side="a").join("bob", (30, 0), side="b")
    fight.begin([6, 6, 1, 1])
    fight.post("alice", "move x=5 y=0")
    events = list(fight.scribe.events)
    assert [f for f in audit_events(events).findings if f.severity == "error"] == []
    moved = [e for e in events if isinstance(e, Moved) and e.actor == "alice"][-1]  # the post's (the first: joining)
    far = [replace(e, x=12, metres=12) if e is moved else e for e in events]
    found = [(f.code, f.message) for f in audit_events(far).findings if f.severity == "error"]
    assert found == [("rules.allowance", f"alice moves 12 m; the post (seq {moved.cause}) asked 5 m; a minor action "
                                         "moves at most 6 m (stand)")]
