"""The winner a scene's end names (``outcome.winner``, ``fightlog.audit.ending``): the
last line is the one edit ``verify`` cannot see without a head, and a forged winner changed
the fight's result with the audit clean."""

from __future__ import annotations

import msgspec

from fightlog.audit.auditor import audit_events
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, SceneEnded
from tests.conftest import FIXTURES

ALLEY = FIXTURES / "roe7" / "scenarios" / "alley-duel.jsonl"


def alley(**end: object) -> list[AnyEvent]:
    events = [DECODER.decode(line) for line in ALLEY.read_bytes().splitlines()]
    assert isinstance(events[-1], SceneEnded) and events[-1].winner == "dockhands"
    return [*events[:-1], msgspec.structs.replace(events[-1], **end)]


def winner_findings(events: list[AnyEvent]) -> list[tuple[int, str, str]]:
    return [(f.seq, f.severity, f.message) for f in audit_events(events).findings if f.code == "outcome.winner"]


def test_the_winner_the_table_wrote_is_clean_and_no_winner_claims_nothing() -> None:
    assert winner_findings(alley()) == []
    assert winner_findings(alley(winner=None)) == []


def test_a_forged_winner_is_named() -> None:
    assert winner_findings(alley(winner="syndicate")) == [
        (88, "error", "the scene's end names syndicate the winner, but by the fighters' statuses dockhands alone stands"),
    ]
    assert winner_findings(alley(winner="nobody-here")) == [
        (88, "error", "the scene's end names nobody-here the winner (nobody-here is no side in the fight), but by the "
                      "fighters' statuses dockhands alone stands"),
    ]
