"""``fightlog.api``, the public API: every name it exports is there and documented in
docs/api.md, and its views are the ones the CLI prints."""

from __future__ import annotations

import re
from pathlib import Path

import fightlog.api as api
from tests.cli import run
from tests.conftest import FIXTURES

REPO = Path(__file__).resolve().parents[2]
SCENARIO = FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"


def test_every_exported_name_exists_and_is_documented() -> None:
    documented = set(re.findall(r"`([A-Za-z_]+)[(`]", (REPO / "docs" / "api.md").read_text(encoding="utf-8")))
    assert [name for name in api.__all__ if not hasattr(api, name)] == []
    assert sorted(set(api.__all__) - documented) == []


def test_the_views_are_what_the_commands_print(tmp_path: Path) -> None:
    store = api.run_scenario(SCENARIO, seed=7)
    log = tmp_path / "fight.jsonl"
    log.write_bytes(store.to_bytes())
    events = [event for _, event in store.read()]
    assert api.replay_text(events) + "\n" == run("replay", str(log)).stdout
    state = api.fold_events(events)
    assert "\n".join(api.state_lines(state, {state.seq: events[-1]})) + "\n" == run("state", str(log)).stdout
    assert "\n".join(api.audit_lines(api.audit_events(events))) + "\n" == run("audit", str(log)).stdout
