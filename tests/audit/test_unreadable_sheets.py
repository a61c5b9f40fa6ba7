"""A sheet the rules cannot read leaves the checks that need it undone, never the audit of
the whole log (docs/audit.md): every bundled fight, with any one combatant's sheet made
unreadable after the fact, audits to a report (no ``InputError`` out of a check), on every
ruleset, and says so once, at that combatant's ``combatant_joined`` (``scene.bad-sheet``).
Found missing in ``traveller``, where a side's Tactics roll read its roller's card to get at
the scene's options (2026-11-28); the finding, missing everywhere: a sheet edited into what
the rules cannot read silenced the checks that read it, and the audit said nothing
(2026-11-28, later)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import decode_line
from fightlog.events.model import AnyEvent, CombatantJoined
from fightlog.fixtures.tampering import Tamper
from tests.conftest import FIXTURES

LOGS = sorted(
    [*FIXTURES.glob("*/scenarios/*.jsonl"), *FIXTURES.glob("*/audit/*.jsonl"), *FIXTURES.glob("roe7/*.jsonl")]
)
UNREADABLE = ({}, {"characteristics": "not a table", "attributes": 3, "stats": "none"})
"""An empty sheet, and one whose every ruleset's main table is the wrong type."""


def _events(path: Path) -> list[AnyEvent]:
    return [decode_line(line) for line in path.read_bytes().splitlines()]


def test_the_sweep_covers_every_ruleset() -> None:
    assert {path.relative_to(FIXTURES).parts[0] for path in LOGS} >= {
        "roe7", "d20-evasion", "traveller", "en51", "bleeding-sun"}


@pytest.mark.parametrize("path", LOGS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_a_fight_with_one_unreadable_sheet_audits_to_a_report(path: Path) -> None:
    events = _events(path)
    actors = [e.actor for e in events if isinstance(e, CombatantJoined)]
    assert actors
    checked = audit_events(events).summary.events  # every event folded (a voided one is not)
    for actor in actors:
        for sheet in UNREADABLE:
            log = Tamper(events)
            joined = log.change(log.find(CombatantJoined, actor=actor), sheet=sheet)
            report = audit_events(log.done().events)  # raises if a check lets the sheet's error out
            assert report.summary.events == checked, (actor, sheet)
            said = [(f.seq, f.actor, f.severity) for f in report.findings if f.code == "scene.bad-sheet"]
            # said at its joining, so a clean audit is never read as that sheet checked; no sheet
            # at all (an imported fight's combatants) claims nothing
            assert said == ([(joined.seq, actor, "error")] if sheet else []), (actor, sheet, said)
