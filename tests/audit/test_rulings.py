"""The audit honours GM rulings: void, amend, accept (by code or all at an event), withdraw."""

from __future__ import annotations

import msgspec

from fightlog.audit.auditor import audit_events
from fightlog.events.model import AnyEvent, RulingMade
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


def test_a_voided_post_is_not_audited() -> None:
    events = ruled(OUT_OF_TURN, action="void", target=39, reason="posted by mistake")
    assert codes(events) == []
    assert audit_events(events).summary.events == len(events) - 1


def test_an_amended_post_is_audited_as_amended() -> None:
    events = ruled(OUT_OF_TURN, action="amend", target=39, changes={"actor": "vex"}, reason="the post was vex's")
    assert codes(events) == []
    # ...and an amendment can make a clean event wrong, which the audit then names.
    events = ruled(duel(), action="amend", target=39, changes={"actor": "rook"}, reason="?")
    assert codes(events) == [(39, "order.out-of-turn", False)]


def test_dice_are_checked_as_recorded_not_as_amended() -> None:
    events = duel()
    roll = events[15]
    die = roll.dice[0]  # type: ignore[union-attr]
    forged = msgspec.structs.replace(die, face=die.face % 100 + 1)
    events = ruled(events, action="amend", target=16, changes={"dice": [msgspec.to_builtins(forged)]}, reason="x")
    assert [f.code for f in audit_events(events).findings if f.code.startswith("dice.")] == []
