"""Rounds in the posting-order checks (fightlog.audit.order): a round opens only once the one
before has ended, and rounds count 1, 2, 3... (``order.round-not-ended``,
``order.round-number``); a round that ends before everyone due had a turn skipped them
(``order.skipped``).

The alley duel (five rounds, the fight stopped early in round 5) audits clean as played;
each test changes one or two lines and expects exactly the findings named.
"""

from __future__ import annotations

import msgspec

from fightlog.audit.auditor import audit_events
from fightlog.events.model import AnyEvent, DeclarationPosted, RoundEnded, RoundStarted, StatusChanged

from tests.audit.test_order import changed, duel, errors


def found(events: list[AnyEvent]) -> list[tuple[str, int, str]]:
    return [(f.code, f.seq, f.message) for f in errors(events)]


def ignored(events: list[AnyEvent], seq: int) -> list[AnyEvent]:
    """The line at ``seq`` replaced by an out-of-character remark (the seqs stay as they are)."""
    out = list(events)
    out[seq - 1] = DeclarationPosted(seq=seq, actor="vex", text="brb", ooc=True)
    return out


def test_the_duel_ends_mid_round_and_is_clean() -> None:
    events = duel()
    assert isinstance(events[85], RoundStarted) and not isinstance(events[86], RoundEnded)
    assert errors(events) == []


def test_a_round_that_never_ended() -> None:
    # seq 36 ends round 1; without it round 2 opens (seq 37) on a round still open.
    assert found(ignored(duel(), 36)) == [
        ("order.round-not-ended", 37, "round 2 started while round 1 had not ended (no round_ended before it)"),
    ]


def test_a_round_number_repeated() -> None:
    # seq 55 opens round 3; say it opened round 2 again.
    assert found(changed(duel(), 55, round=2)) == [
        ("order.round-number", 55, "round 2 started again: rounds count up by one, round 3 was next"),
    ]


def test_a_round_number_counted_back() -> None:
    assert found(changed(duel(), 71, round=2))[0] == (
        "order.round-number", 71, "round 2 started after round 3 (back): rounds count up by one, round 4 was next",
    )


def test_a_round_number_skipped() -> None:
    # Round 5 (the last, never ended) numbered 7.
    assert found(changed(duel(), 86, round=7)) == [
        ("order.round-number", 86, "round 7 started after round 4 (skipping ahead): rounds count up by one, "
                                   "round 5 was next"),
    ]


def test_the_first_round_is_round_one() -> None:
    codes = found(changed(duel(), 11, round=2))
    assert codes[0] == ("order.round-number", 11,
                        "the fight's first round is numbered 2, not 1: rounds count up by one, round 1 was next")


def test_a_round_ended_twice_or_not_the_open_one() -> None:
    twice = list(duel())
    twice[36] = msgspec.structs.replace(twice[35], seq=37)  # seq 37: round 1 ends again (round 2 never opens)
    assert found(twice)[0] == (
        "order.round-number", 37, "round 1 ended, but no round was open (round 1 had ended already)",
    )
    assert found(changed(duel(), 54, round=3)) == [
        ("order.round-number", 54, "round 3 ended, but the round open was round 2"),
    ]


def test_the_findings_rest_on_the_posting_order() -> None:
    report = audit_events(ignored(duel(), 36))
    assert report.findings[0].rule == "Parts of a Turn (rounds)"
    assert report.findings[0].severity == "error" and report.summary.failed


def _order_findings(events: list[AnyEvent]) -> list[tuple[str, int, str]]:
    return [found_ for found_ in found(events) if found_[0].startswith("order.")]


def _without_rooks_round_2(events: list[AnyEvent]) -> list[AnyEvent]:
    """Rook's whole round-2 turn (seq 47-53) gone: each line an out-of-character remark."""
    for seq in range(47, 54):
        events = ignored(events, seq)
    return events


def test_a_round_ended_before_everyone_had_a_turn() -> None:
    """A GM closing a round on a fighter who never posted in it (``Round 3: Rook, you missed
    your post``) skipped them: named at the round's end, as ``order.skipped``."""
    assert _order_findings(_without_rooks_round_2(duel())) == [
        ("order.skipped", 54, "rook was skipped: round 2 ended before rook had posted in it"),
    ]
    finding = next(f for f in audit_events(_without_rooks_round_2(duel())).findings if f.code == "order.skipped")
    assert finding.actor == "rook" and finding.rule == "Parts of a Turn (posting order)"


def test_who_posted_out_of_turn_or_waits_is_not_skipped_at_the_round_end() -> None:
    """Rook's post with no turn open is out of turn, and only that; one holding (a waiting
    status) or out of the fight is not due at the round's end either."""
    no_turn = ignored(ignored(duel(), 47), 53)
    assert _order_findings(no_turn) == [
        ("order.out-of-turn", 48, "rook posted out of turn in round 2: the next turn was rook's and had not been opened"),
    ]
    for status in ("holding", "defeated"):
        waits = _without_rooks_round_2(duel())
        waits[46] = StatusChanged(seq=47, actor="rook", status=status, on=True)
        assert not [f for f in _order_findings(waits) if f[0] == "order.skipped"], status


def test_one_skipped_is_named_once_a_round() -> None:
    """Vex's round-2 turn gone (seq 38-46): Rook's turn opening named Vex skipped; the
    round's end does not name Vex again."""
    events = duel()
    for seq in range(38, 47):
        events = ignored(events, seq)
    assert [f for f in _order_findings(events) if f[0] == "order.skipped"] == [
        ("order.skipped", 47, "vex was skipped: rook's turn was opened in round 2 before vex had posted"),
    ]
