"""Posting-order checks (fightlog.audit.order) on an engine fight with one event changed.

The alley duel (vex then rook, three rounds) audits clean as played; each test changes what
one line says and expects exactly one finding, pinned to that line and actor.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fightlog.audit.auditor import audit_events
from fightlog.audit.findings import Finding
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, DeclarationPosted, StatusChanged, TurnStarted

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "fixtures/roe7/scenarios/alley-duel.jsonl"


def duel() -> list[AnyEvent]:
    return [DECODER.decode(line) for line in DUEL.read_bytes().splitlines()]


def changed(events: list[AnyEvent], seq: int, **fields: object) -> list[AnyEvent]:
    out = list(events)
    out[seq - 1] = msgspec.structs.replace(out[seq - 1], **fields)
    return out


def errors(events: list[AnyEvent]) -> list[Finding]:
    return [f for f in audit_events(events).findings if f.severity != "info"]


def only(events: list[AnyEvent]) -> Finding:
    found = errors(events)
    assert len(found) == 1, [(f.seq, f.code, f.message) for f in found]
    return found[0]


def test_the_duel_as_played_is_clean() -> None:
    report = audit_events(duel())
    assert report.findings == []
    assert report.summary.events == len(duel())
    assert not report.summary.failed


def test_a_post_out_of_turn() -> None:
    # seq 48 is rook's attack in rook's turn; say vex made it.
    found = only(changed(duel(), 48, actor="vex"))
    assert (found.code, found.seq, found.actor) == ("order.double-post", 48, "vex")
    assert "vex posted again in round 2" in found.message and "rook's turn" in found.message


def test_a_post_before_ones_turn() -> None:
    # seq 39 is vex's attack in round 2 (vex first); say rook posted it.
    found = only(changed(duel(), 39, actor="rook"))
    assert (found.code, found.seq, found.actor) == ("order.out-of-turn", 39, "rook")
    assert found.message == "rook posted out of turn in round 2: it was vex's turn"


@pytest.mark.parametrize(("order", "code", "says"), [
    (["vex", "rook", "mallory"], "order.not-in-fight", "the posting order names mallory, who has not joined the fight"),
    (["vex", "rook", "vex"], "order.listed-twice", "the posting order names vex twice"),
])
def test_a_posting_order_naming_someone_not_in_the_fight_or_twice(order: list[str], code: str, says: str) -> None:
    """It audited clean: the state listed mallory as waiting, or vex in two places."""
    found = only(changed(duel(), 10, order=order))
    assert (found.code, found.seq, found.message) == (code, 10, says)


def test_a_post_by_someone_not_in_the_fight() -> None:
    found = only(changed(duel(), 39, actor="mallory"))
    assert (found.code, found.seq, found.actor) == ("order.not-in-fight", 39, "mallory")


def test_a_second_turn_in_a_round_is_reported_once() -> None:
    # seq 47 opens rook's turn in round 2; say it opened vex's again. Rook's post in that
    # turn is the rightful one: only the wrongly opened turn is named.
    found = only(changed(duel(), 47, actor="vex"))
    assert (found.code, found.seq, found.actor) == ("order.double-post", 47, "vex")
    assert "second turn in round 2" in found.message and "rook was next" in found.message


def test_a_skipped_combatant() -> None:
    # Round 3 opens with rook instead of vex (vex first in the order).
    found = [f for f in errors(changed(duel(), 56, actor="rook")) if f.code == "order.skipped"]
    assert [(f.seq, f.actor) for f in found] == [(56, "vex")]
    assert "vex was skipped" in found[0].message


def test_a_post_by_a_defeated_combatant() -> None:
    events = duel()
    # Mark vex defeated just before their round-2 post (a status the log records).
    defeated = StatusChanged(seq=38, prev=events[37].prev, actor="vex", status="defeated")
    events = [*events[:37], defeated, *[msgspec.structs.replace(e, seq=e.seq + 1) for e in events[37:]]]
    found = [f for f in errors(events) if f.seq in (39, 40)]
    # Reported where it went wrong: the defeated combatant's turn being opened at all.
    assert [(f.seq, f.code, f.actor) for f in found] == [(39, "order.cannot-act", "vex")]
    assert found[0].message == "vex's turn was opened in round 2 although vex is defeated"


def test_out_of_character_posts_are_not_turns() -> None:
    events = changed(duel(), 39, actor="rook", ooc=True, actions=[])
    assert errors(events) == []


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_any_post_moved_to_the_other_fighter_is_named_at_its_line(data: st.DataObject) -> None:
    events = duel()
    posts = [e for e in events if isinstance(e, DeclarationPosted)]
    post = data.draw(st.sampled_from(posts))
    other = "rook" if post.actor == "vex" else "vex"
    found = [f for f in errors(changed(events, post.seq, actor=other)) if f.code.startswith("order.")]
    assert [(f.seq, f.actor) for f in found] == [(post.seq, other)]
    assert found[0].code in ("order.out-of-turn", "order.double-post")


@pytest.mark.parametrize("seq", [12, 26, 38, 47])
def test_turns_opened_as_the_order_says_are_clean(seq: int) -> None:
    event = duel()[seq - 1]
    assert isinstance(event, TurnStarted)
    assert errors(changed(duel(), seq, actor=event.actor)) == []
