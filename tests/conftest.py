"""Shared fixtures: a valid sample log as events and as bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from fightlog.events.model import AnyEvent
from fightlog.events.store import MemoryStore
from fightlog.fixtures import sample_duel

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"


def sample_log_bytes() -> bytes:
    store = MemoryStore()
    store.append(sample_duel.events())
    return store.to_bytes()


@pytest.fixture
def sample_events() -> list[AnyEvent]:
    return sample_duel.events()


@pytest.fixture
def sample_log(tmp_path: Path) -> Path:
    """A valid 64-event log on disk."""
    path = tmp_path / "fight.jsonl"
    path.write_bytes(sample_log_bytes())
    return path
