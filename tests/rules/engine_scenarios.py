"""The tests every engine-played scenario set runs (``fixtures/<ruleset>/scenarios``): each
scenario plays to its committed log byte for byte, audits clean, shows the rules it is there to
show (its fixture module's ``EVIDENCE``), its events and final state match the snapshots, and
the table re-derives every request of its log.

A ruleset's ``test_scenarios.py`` takes them with ``globals().update(scenario_tests(...))``,
so the tests (and their snapshots) keep their names in that module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import decode_line
from fightlog.events.model import AnyEvent
from fightlog.events.store import FileStore
from fightlog.reducers.fold import fold


def committed(path: Path) -> list[AnyEvent]:
    return [decode_line(line) for line in path.with_suffix(".jsonl").read_bytes().splitlines()]


def scenario_tests(fixture_module: str, table_module: str, at_least: int) -> dict[str, Callable[..., Any]]:
    """The tests of the scenarios of ``fightlog.fixtures.<fixture_module>`` (``SCENARIOS``,
    ``EVIDENCE``, ``missing``, ``play``), played through ``<table_module>.TABLE``."""
    scenarios = importlib.import_module(f"fightlog.fixtures.{fixture_module}")
    paths = sorted(scenarios.SCENARIOS.glob("*.toml"))
    each = pytest.mark.parametrize("path", paths, ids=lambda p: p.stem)

    @pytest.fixture
    def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
        return snapshot.use_extension(JSONSnapshotExtension)

    def test_every_scenario_has_its_evidence_listed() -> None:
        assert len(paths) >= at_least
        assert sorted(scenarios.EVIDENCE) == [p.stem for p in paths]

    @each
    def test_the_scenario_plays_to_the_committed_log(path: Path, tmp_path: Path) -> None:
        out = tmp_path / "played.jsonl"
        FileStore(out).append(scenarios.play(path))
        assert out.read_bytes() == path.with_suffix(".jsonl").read_bytes(), (
            f"{path.name} no longer plays to its log: regenerate with python -m fightlog.fixtures.{fixture_module}")

    @each
    def test_the_engine_fight_audits_clean(path: Path) -> None:
        report = audit_events(committed(path))
        assert [(f.code, f.seq, f.message) for f in report.findings] == []

    @each
    def test_the_scenario_shows_its_rules(path: Path) -> None:
        assert scenarios.missing(path.stem, committed(path)) == []

    @each
    def test_the_events(path: Path, snapshot_json: SnapshotAssertion) -> None:
        assert [msgspec.to_builtins(e) for e in committed(path)] == snapshot_json

    @each
    def test_the_final_state(path: Path, snapshot_json: SnapshotAssertion) -> None:
        assert msgspec.to_builtins(fold(committed(path))) == snapshot_json

    @each
    def test_the_table_re_derives_every_request_of_the_log(path: Path) -> None:
        """What ``fightlog dispute`` rests on: the log splits back into the table's requests, each
        giving back exactly the events recorded (no departure from the rules)."""
        from fightlog.audit.requests import split
        from fightlog.events.model import SceneEnded

        table = importlib.import_module(table_module).TABLE
        events = committed(path)
        ended = events[-1]
        assert isinstance(ended, SceneEnded)
        found = split(events, ended.seed, table=table, name=path.name)
        assert found.departures == ()
        assert found.requests[-1].kind == "end"

    return {name: value for name, value in locals().items() if name.startswith(("test_", "snapshot_json"))}
