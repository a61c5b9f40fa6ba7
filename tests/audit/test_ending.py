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


def test_a_ruleset_not_installed_has_its_winner_unchecked() -> None:
    """Under a ruleset fightlog does not have, who is out is that ruleset's own: the generic
    out statuses gave false errors (the audit checks only the order and the dice then)."""
    events = alley(winner="syndicate")
    events[0] = msgspec.structs.replace(events[0], ruleset="roe8")
    assert winner_findings(events) == []


def test_only_a_ruling_may_follow_the_end() -> None:
    """``scene.after-end``: none for a GM's ruling after the end; one finding, at the first
    other event, counting the rest."""
    from fightlog.events.model import DeclarationPosted, RulingMade

    events = alley()
    ruling = RulingMade(seq=89, by="Gemma", action="accept", target=40, reason="fine")
    assert [f.code for f in audit_events([*events, ruling]).findings if f.code == "scene.after-end"] == []
    late = [*events, ruling, DeclarationPosted(seq=90, actor="vex", text="one more"),
            DeclarationPosted(seq=91, actor="vex", text="and another")]
    assert [(f.seq, f.message) for f in audit_events(late).findings if f.code == "scene.after-end"] == [
        (90, "this declaration_posted was written after the scene ended at seq 88 (and 1 more event after it): the "
             "fight was over, and only a GM's ruling may follow its end")]
