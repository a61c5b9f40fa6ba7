"""The bundled bleeding-sun scenarios (``fixtures/bleeding-sun/scenarios``): each plays to its committed log
byte for byte, audits clean, shows the rules it is there to show
(``fightlog.fixtures.bleedingsun_scenarios.EVIDENCE``), and its events and final state match the
snapshots. Regenerate on purpose with ``python -m fightlog.fixtures.bleedingsun_scenarios`` and
``pytest tests/rules/bleedingsun/test_scenarios.py --snapshot-update``, then review the diffs.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import decode_line
from fightlog.events.model import AnyEvent
from fightlog.events.store import FileStore
from fightlog.fixtures.bleedingsun_scenarios import EVIDENCE, SCENARIOS, missing, play
from fightlog.reducers.fold import fold

PATHS = sorted(SCENARIOS.glob("*.toml"))


def committed(path: Path) -> list[AnyEvent]:
    return [decode_line(line) for line in path.with_suffix(".jsonl").read_bytes().splitlines()]


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


def test_every_scenario_has_its_evidence_listed() -> None:
    assert len(PATHS) >= 6
    assert sorted(EVIDENCE) == [p.stem for p in PATHS]


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_the_scenario_plays_to_the_committed_log(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "played.jsonl"
    FileStore(out).append(play(path))
    assert out.read_bytes() == path.with_suffix(".jsonl").read_bytes(), (
        f"{path.name} no longer plays to its log: regenerate with python -m fightlog.fixtures.bleedingsun_scenarios")


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_the_engine_fight_audits_clean(path: Path) -> None:
    report = audit_events(committed(path))
    assert [(f.code, f.seq, f.message) for f in report.findings] == []


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_the_scenario_shows_its_rules(path: Path) -> None:
    assert missing(path.stem, committed(path)) == []


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_the_events(path: Path, snapshot_json: SnapshotAssertion) -> None:
    assert [msgspec.to_builtins(e) for e in committed(path)] == snapshot_json


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_the_final_state(path: Path, snapshot_json: SnapshotAssertion) -> None:
    assert msgspec.to_builtins(fold(committed(path))) == snapshot_json


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_the_table_re_derives_every_request_of_the_log(path: Path) -> None:
    """What ``fightlog dispute`` rests on: the log splits back into the table's requests, each
    giving back exactly the events recorded (no departure from the rules)."""
    from fightlog.audit.requests import split
    from fightlog.events.model import SceneEnded
    from fightlog.rules.bleedingsun.table import TABLE

    events = committed(path)
    ended = events[-1]
    assert isinstance(ended, SceneEnded)
    found = split(events, ended.seed, table=TABLE, name=path.name)
    assert found.departures == ()
    assert found.requests[-1].kind == "end"
