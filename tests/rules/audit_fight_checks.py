"""The tests every set of flawed hand-run fights (``fixtures/<ruleset>/audit``, written by a
``fightlog.fixtures.<ruleset>_audit_fights`` script) runs: the script writes the committed
bytes, the audit finds exactly the flaws each fight was given (code and seq, errors only),
the reports match the snapshots, and every flaw kind is there.

A ruleset's ``test_audit_checks.py`` takes them with
``globals().update(audit_fight_tests(...))``, so the tests (and their snapshots) keep their
names in that module.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Set
from pathlib import Path
from typing import Any

import msgspec
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import decode_line
from fightlog.events.model import AnyEvent


def read(path: Path) -> list[AnyEvent]:
    return [decode_line(line) for line in path.read_bytes().splitlines()]


def audit_fight_tests(fixture_module: str, audit: Path, codes: Set[str]) -> dict[str, Callable[..., Any]]:
    """The tests of the fights of ``fightlog.fixtures.<fixture_module>`` (``FIGHTS``,
    ``to_bytes``), committed under ``audit``, whose flaws are of the kinds ``codes``."""
    fights = importlib.import_module(f"fightlog.fixtures.{fixture_module}")
    each = pytest.mark.parametrize("name", sorted(fights.FIGHTS))

    @pytest.fixture
    def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
        return snapshot.use_extension(JSONSnapshotExtension)

    @each
    def test_the_script_writes_the_committed_fight(name: str) -> None:
        assert fights.to_bytes(fights.FIGHTS[name]().events) == (audit / name).read_bytes()

    @each
    def test_the_audit_finds_exactly_the_flaws(name: str) -> None:
        report = audit_events(read(audit / name))
        errors = sorted((f.seq, f.code) for f in report.findings if f.severity != "info")
        assert errors == [(f.seq, f.code) for f in fights.FIGHTS[name]().flaws]

    @each
    def test_the_findings(name: str, snapshot_json: SnapshotAssertion) -> None:
        assert [msgspec.to_builtins(f) for f in audit_events(read(audit / name)).findings] == snapshot_json

    def test_each_flaw_kind_is_there() -> None:
        assert {f.code for make in fights.FIGHTS.values() for f in make().flaws} == codes

    return {name: value for name, value in locals().items() if name.startswith(("test_", "snapshot_json"))}
