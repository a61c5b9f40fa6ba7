"""The benchmark's long Traveller fight (``bench/bench_traveller.py``), short: it plays to
exactly the events asked for, the same bytes twice, and audits with no finding but its
fighters' joins with a billion points a characteristic (``scene.joined-pools``)."""

from __future__ import annotations

import sys
from pathlib import Path

import msgspec

from fightlog.audit.one_process import audit_events
from fightlog.events.model import AnyEvent

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

import bench_traveller  # noqa: E402


def played(count: int) -> list[AnyEvent]:
    return [e for batch in bench_traveller.events(count) for e in batch]


def test_the_bench_fight_plays_to_its_count_and_audits_clean() -> None:
    events = played(3000)
    assert len(events) == 3000 and events[-1].seq == 3000
    assert msgspec.json.encode(played(3000)) == msgspec.json.encode(events)
    findings = audit_events(events).findings
    assert not bench_traveller.unexpected(findings)
    assert [f.seq for f in findings] == [e.seq for e in events if type(e).__name__ == "CombatantJoined"]
