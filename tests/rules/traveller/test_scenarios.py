"""The bundled Traveller scenarios (``fixtures/traveller/scenarios``): each plays to its
committed log byte for byte, audits clean (its dice recomputed from the revealed seed), and
its events and final state match the snapshots; together they show each rule they are there
for. Regenerate with ``python -m fightlog.fixtures.traveller_fights`` and
``pytest tests/rules/traveller --snapshot-update``, and review the diffs like code.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from fightlog.audit.one_process import audit_events
from fightlog.events.codec import decode_line
from fightlog.events.model import (AnyEvent, AttackResolved, DeclarationPosted, DiceRolled, EffectApplied,
                                   HealingApplied, InitiativeSet, StatusChanged)
from fightlog.kit.scenario import run_scenario
from fightlog.reducers.fold import fold
from tests.conftest import FIXTURES

SCENARIOS = sorted((FIXTURES / "traveller" / "scenarios").glob("*.toml"))


@cache
def events_of(scenario: Path) -> list[AnyEvent]:
    return [decode_line(line) for line in scenario.with_suffix(".jsonl").read_bytes().splitlines()]


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


def test_there_are_five_scenarios_at_least() -> None:
    assert len(SCENARIOS) >= 5


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_the_scenario_plays_to_the_committed_log(scenario: Path) -> None:
    assert run_scenario(scenario).to_bytes() == scenario.with_suffix(".jsonl").read_bytes()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_the_engine_fight_audits_clean(scenario: Path) -> None:
    report = audit_events(events_of(scenario))
    assert [(f.code, f.seq) for f in report.findings] == []


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_the_events(scenario: Path, snapshot_json: SnapshotAssertion) -> None:
    assert [msgspec.to_builtins(e) for e in events_of(scenario)] == snapshot_json


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_the_final_state(scenario: Path, snapshot_json: SnapshotAssertion) -> None:
    assert msgspec.to_builtins(fold(events_of(scenario))) == snapshot_json


def _all() -> list[AnyEvent]:
    return [e for s in SCENARIOS for e in events_of(s)]


def test_the_scenarios_show_their_rules() -> None:
    events = _all()
    rolls = [e for e in events if isinstance(e, DiceRolled)]
    sources = {m.source for r in rolls for m in r.modifiers}
    assert any("ambush" in e.reason for e in events if isinstance(e, InitiativeSet))
    assert {"shooting into cover", "aim", "dodge", "parry", "dived for cover", "target prone", "long range",
            "short range", "Effect", "STR DM"} <= sources
    assert any(s.startswith("reaction at") for s in sources)  # the DM-1 carried over
    assert any(r.purpose == "tactics" for r in rolls)
    assert any(r.purpose == "grapple" for r in rolls)
    assert any(isinstance(e, EffectApplied) and e.name == "grapple" for e in events)
    assert any(isinstance(e, EffectApplied) and e.name == "aim" and e.magnitude == 6 for e in events)
    assert any(isinstance(e, HealingApplied) and e.source == "first aid" for e in events)
    assert any(isinstance(e, StatusChanged) and e.status == "dived" and not e.on for e in events)
    assert any(isinstance(e, StatusChanged) and e.status == "unconscious" for e in events)
    assert any(isinstance(e, AttackResolved) and e.hit for e in events)
    assert any(isinstance(e, DeclarationPosted) and e.responds_to is not None for e in events)


def test_the_ambush_dm_is_gone_in_round_2_and_the_order_changes() -> None:
    """The landing-pad ambush: round 1 in the ambush order (the raiders first), round 2 by
    initiative alone: Vance (tied with Dorn, the better DEX) first, and he acts first."""
    events = events_of(FIXTURES / "traveller" / "scenarios" / "ambush-at-the-landing-pad.toml")
    orders = [e for e in events if isinstance(e, InitiativeSet)]
    assert [o.reason for o in orders] == ["initiative; ambush by raiders (first round)",
                                          "initiative (after the first round)"]
    assert orders[0].order == ["dorn", "kesh", "vance", "ilsa"]
    assert orders[1].order == ["vance", "dorn", "ilsa", "kesh"]
    round_2 = [e for e in events if isinstance(e, DeclarationPosted) and e.seq > orders[1].seq]
    assert round_2[0].actor == "vance"
