"""The audit honours GM rulings: void, amend, accept (by code or all at an event), withdraw."""

from __future__ import annotations

import msgspec

from fightlog.audit.auditor import audit_events
from fightlog.events.model import AnyEvent, DiceRolled, RulingMade
from tests.audit.test_order import changed, duel


def ruled(events: list[AnyEvent], **fields: object) -> list[AnyEvent]:
    seq = len(events) + 1
    return [*events, RulingMade(seq=seq, by="Gemma", **fields)]  # type: ignore[arg-type]


def codes(events: list[AnyEvent]) -> list[tuple[int, str, bool]]:
    return [(f.seq, f.code, f.accepted is not None) for f in audit_events(events).findings]


OUT_OF_TURN = changed(duel(), 39, actor="rook")


def test_an_accepted_finding_stays_listed_and_does_not_fail() -> None:
    events = ruled(OUT_OF_TURN, action="accept", target=39, finding="order.out-of-turn", reason="agreed")
    report = audit_events(events)
    assert [(f.seq, f.code) for f in report.findings] == [(39, "order.out-of-turn")]
    accepted = report.findings[0].accepted
    assert accepted is not None and (accepted.by, accepted.ruling, accepted.reason) == ("Gemma", len(events), "agreed")
    assert report.summary.accepted == 1 and not report.summary.failed


def test_accepting_another_code_leaves_the_finding_standing() -> None:
    events = ruled(OUT_OF_TURN, action="accept", target=39, finding="rules.tie-to-attacker", reason="?")
    assert codes(events) == [(39, "order.out-of-turn", False)]
    assert audit_events(events).summary.failed


def test_accept_without_a_code_covers_every_finding_at_the_event() -> None:
    events = ruled(OUT_OF_TURN, action="accept", target=39, reason="the table agreed")
    assert codes(events) == [(39, "order.out-of-turn", True)]


def test_a_withdrawn_acceptance_no_longer_applies() -> None:
    events = ruled(OUT_OF_TURN, action="accept", target=39, reason="agreed")
    events = ruled(events, action="withdraw", target=len(events), reason="the table changed its mind")
    assert codes(events) == [(39, "order.out-of-turn", False)]


def test_a_voided_post_is_not_audited_and_what_stands_on_it_is_named() -> None:
    """The post is voided, not its rolls, its attack and the damage: they still count, and
    each is named (they passed as clean: the GM's void seemed to undo the attack)."""
    events = ruled(OUT_OF_TURN, action="void", target=39, reason="posted by mistake")
    report = audit_events(events)
    assert [(f.seq, f.code) for f in report.findings] == [(s, "outcome.voided-cause") for s in range(40, 46)]
    assert report.findings[2].message == ("this attack_resolved follows from the declaration_posted at seq 39, voided "
                                          f"by the ruling at seq {len(events)}, and still stands (void or amend it too)")
    assert report.findings[4].message.startswith("this damage_applied follows from the dice_rolled at seq 43, which "
                                                 "follows from seq 39, voided by")
    assert report.summary.events == len(events) - 1
    amended = ruled(events, action="amend", target=44, changes={"taken": 0}, reason="no damage after all")
    assert (44, "outcome.voided-cause", False) not in codes(amended)  # ruled on: the GM's to have settled
    for seq in range(40, 46):  # everything voided with it: nothing stands on it
        events = ruled(events, action="void", target=seq, reason="with it")
    # but the damage voided was part of what took Rook down: the defeat a later hit recorded
    # no longer follows from his HP (``rules.condition``)
    assert codes(events) == [(80, "rules.condition", False)]


def test_an_amended_post_is_audited_as_amended() -> None:
    events = ruled(OUT_OF_TURN, action="amend", target=39, changes={"actor": "vex"}, reason="the post was vex's")
    assert codes(events) == []
    # ...and an amendment can make a clean event wrong, which the audit then names.
    events = ruled(duel(), action="amend", target=39, changes={"actor": "rook"}, reason="?")
    # out of turn, and an attack on himself (the amended post is the ruling's, not the
    # table's, so the table's checks of it run too)
    assert codes(events) == [(39, "order.out-of-turn", False), (39, "rules.target", False)]


def test_a_post_amended_into_one_the_table_refuses_is_a_finding() -> None:
    events = ruled(duel(), action="amend", target=39,
                   changes={"actions": [{"type": "attack", "target": "rook", "weapon": "Bazooka"}]}, reason="?")
    assert codes(events) == [(39, "rules.not-carried", False)]


def forged_roll(events: list[AnyEvent], seq: int) -> dict[str, object]:
    """The changes of an amendment forging the engine roll at ``seq``: another face, the
    total adjusted to still add up (what ``fightlog rule`` lets through)."""
    roll = events[seq - 1]
    assert isinstance(roll, DiceRolled) and roll.generator == "engine"
    die = roll.dice[0]
    face = die.face % die.sides + 1
    dice = [msgspec.to_builtins(msgspec.structs.replace(die, face=face)), *map(msgspec.to_builtins, roll.dice[1:])]
    return {"dice": dice, "total": roll.total - die.face + face}


def dice_findings(events: list[AnyEvent]) -> list[tuple[int, str, str]]:
    return [(f.seq, f.code, f.message) for f in audit_events(events).findings if f.code.startswith("dice.")]


def test_a_roll_forged_through_a_ruling_is_a_finding() -> None:
    events = duel()
    assert dice_findings(events) == []
    events = ruled(events, action="amend", target=16, changes=forged_roll(events, 16), reason="x")
    [(seq, code, message)] = dice_findings(events)
    assert (seq, code) == (16, "dice.ruled")
    assert message.startswith(f"as amended by the ruling at seq {len(events)}: roll #")
    assert "ruled, seed gives" in message
    finding = audit_events(events).findings[0]
    assert finding.severity == "error" and finding.actor == events[15].roller  # type: ignore[union-attr]


def test_a_ruled_roll_is_judged_beside_the_recorded_one() -> None:
    """The recorded roll is still checked as recorded (what verify --dice says); the ruled
    one only adds what it gets wrong itself."""
    events = duel()
    roll = events[15]
    assert isinstance(roll, DiceRolled)
    tampered = msgspec.structs.replace(roll, total=roll.total + 1)
    events = [*events[:15], tampered, *events[16:]]
    assert [(s, c) for s, c, _ in dice_findings(events)] == [(16, "dice.arithmetic")]
    # the GM puts the total right: the recorded finding stays listed, as settled by the
    # amendment (it failed the audit the GM had just mended), and nothing is added
    fixed = ruled(events, action="amend", target=16, changes={"total": roll.total}, reason="typo")
    assert [(s, c) for s, c, _ in dice_findings(fixed)] == [(16, "dice.arithmetic")]
    report = audit_events(fixed)
    found = next(f for f in report.findings if f.code == "dice.arithmetic")
    assert found.accepted is not None and (found.accepted.ruling, found.accepted.reason) == (len(fixed), "amended the roll: typo")
    assert not report.summary.failed and report.summary.dice.endswith("; 1 problem (1 mended by a ruling)")
    # a face off its die, written by hand as a ruling, is named as ruled
    die = msgspec.to_builtins(msgspec.structs.replace(roll.dice[0], face=101))
    broken = ruled(duel(), action="amend", target=16, changes={"dice": [die]}, reason="?")
    assert [(s, c) for s, c, _ in dice_findings(broken)] == [(16, "dice.ruled")]


def test_an_external_roll_amended_to_a_face_on_its_die_is_mended_not_forged() -> None:
    """The HUD printed a d100's 100 as 0; the GM amends the face: the face finding is settled,
    and the external rolls' count (info) changing is no ``dice.ruled`` error (it was, at the
    roller's first roll, with the info line's text)."""
    from fightlog.events.reader import read_log
    from tests.conftest import FIXTURES

    events = [e for _, e in read_log(str(FIXTURES / "roe7/audit/tampered-hud-dice.jsonl"))]
    assert (80, "dice.face") in [(s, c) for s, c, _ in dice_findings(events)]
    die = {"sides": 100, "face": 100}
    fixed = ruled(events, action="amend", target=80, changes={"dice": [die], "total": 100}, reason="100 shown as 0")
    report = audit_events(fixed)
    assert not [f for f in report.findings if f.code == "dice.ruled"]
    face = next(f for f in report.findings if f.code == "dice.face")
    assert face.seq == 80 and face.accepted is not None and face.accepted.ruling == len(fixed)
    # a ruling that changes only what the roll was for mends nothing: the face still stands
    # wrong, once, not accepted, and not again as dice.ruled (its message names the purpose)
    worded = ruled(events, action="amend", target=80, changes={"purpose": "skill"}, reason="it was a skill roll")
    report = audit_events(worded)
    assert [(f.code, f.accepted) for f in report.findings if f.seq == 80] == [("dice.face", None)]
    assert "mended" not in report.summary.dice


def test_a_roll_read_in_part_is_judged_whole_once_a_ruling_gives_its_dice() -> None:
    """An imported roll read in part (``unread``) is not judged on what the reader missed; a
    ruling that gives its dice is the GM's word on them, checked like any roll (a face of 0
    on a d100 amended in was no finding). Its notation is judged either way."""
    events = duel()
    roll = events[15]
    assert isinstance(roll, DiceRolled)
    partial = msgspec.structs.replace(roll, generator="external", index=None, unread="a face that is not a number: '?'",
                                      dice=[msgspec.structs.replace(roll.dice[0], face=0)])
    events = [*events[:15], partial, *events[16:]]
    assert [(s, c) for s, c, _ in dice_findings(events) if s == 16] == [(16, "dice.partial")]
    forged = ruled(events, action="amend", target=16, changes={"dice": [{"sides": 100, "face": 0}], "total": 999},
                   reason="?")
    assert (16, "dice.ruled") in [(s, c) for s, c, _ in dice_findings(forged)]
    banana = [*events[:15], msgspec.structs.replace(partial, notation="1d100+banana"), *events[16:]]
    assert (16, "dice.notation") in [(s, c) for s, c, _ in dice_findings(banana)]


def test_amending_modifiers_or_voiding_a_roll_forges_nothing() -> None:
    events = duel()
    roll = events[15]
    assert isinstance(roll, DiceRolled)
    modifiers = [*map(msgspec.to_builtins, roll.modifiers), {"value": 3, "source": "cover"}]
    amended = ruled(events, action="amend", target=16, changes={"modifiers": modifiers, "total": roll.total + 3},
                    reason="cover")
    assert not [c for _, c, _ in dice_findings(amended) if c == "dice.ruled"]
    voided = ruled(events, action="void", target=16, reason="entered twice")
    assert not [c for _, c, _ in dice_findings(voided) if c == "dice.ruled"]


def test_a_log_ruled_under_another_ruleset_still_audits() -> None:
    """A ruling ``fightlog rule`` refuses, written by hand: the audit reads the log under the
    ruled ruleset, whose rules cannot read the other ruleset's sheets, and says what it finds
    (no crash: an unreadable sheet is one the checks skip)."""
    from fightlog.events.reader import read_log
    from tests.conftest import FIXTURES

    events = [event for _, event in read_log(FIXTURES / "roe7" / "disputed-duel.jsonl")]
    events = ruled(events, action="amend", target=1, changes={"ruleset": "d20-evasion"}, reason="by hand")
    report = audit_events(events)
    assert report.summary.ruleset == "d20-evasion"
    assert any(f.code.startswith("rules.") for f in report.findings)  # its checks ran, and judged


def test_an_initiative_from_a_voided_roll_still_stands_and_is_named() -> None:
    """Vex's initiative (seq 7) came from the roll at seq 6: voiding the roll leaves it
    counting, as the audit says (``roll`` is a reference it follows, as an effect's cause is)."""
    events = ruled(duel(), action="void", target=6, reason="rolled twice")
    report = audit_events(events)
    assert [(f.seq, f.code) for f in report.findings if f.code == "outcome.voided-cause"] == [(7, "outcome.voided-cause")]
    assert report.findings[0].message == ("this initiative_rolled follows from the dice_rolled at seq 6, voided by the "
                                          f"ruling at seq {len(events)}, and still stands (void or amend it too)")
