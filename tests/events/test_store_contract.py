"""One contract, two stores: the file store and its in-memory twin must behave alike."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from fightlog.errors import StoreError
from fightlog.events.model import GENESIS, FORMAT_VERSION, AnyEvent, RoundStarted, SceneStarted
from fightlog.events.store import EventStore, FileStore, MemoryStore


@pytest.fixture(params=["file", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventStore]:
    if request.param == "file":
        yield FileStore(tmp_path / "log.jsonl", fsync=False)
    else:
        yield MemoryStore()


def start() -> SceneStarted:
    return SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION)


def test_empty_store_has_genesis_head(store: EventStore) -> None:
    assert store.head() == (0, GENESIS)


def test_append_assigns_consecutive_seq_and_chains_prev(store: EventStore, sample_events: list[AnyEvent]) -> None:
    sealed = store.append(sample_events[:10])
    sealed += store.append(sample_events[10:])
    assert [e.seq for e in sealed] == list(range(1, len(sample_events) + 1))
    assert sealed[0].prev == GENESIS
    read = list(store.read())
    assert [line for line, _ in read] == list(range(1, len(sample_events) + 1))
    assert [e for _, e in read] == sealed
    # each prev is the hash of the previous line's bytes
    lines = _bytes(store).splitlines()
    for previous, event in zip(lines, sealed[1:]):
        assert event.prev == hashlib.sha256(previous).hexdigest()
    assert store.head() == (len(sealed), hashlib.sha256(lines[-1]).hexdigest())


def test_append_ignores_seq_and_prev_given_by_the_caller(store: EventStore) -> None:
    sealed = store.append([start(), RoundStarted(seq=99, prev="a" * 64, round=1)])
    assert [(e.seq, e.prev == GENESIS) for e in sealed] == [(1, True), (2, False)]


def test_read_from_seq_skips_earlier_events(store: EventStore, sample_events: list[AnyEvent]) -> None:
    store.append(sample_events)
    assert [line for line, _ in store.read(from_seq=60)] == [60, 61, 62, 63, 64]
    assert list(store.read(from_seq=65)) == []


def test_a_log_must_start_with_scene_started(store: EventStore) -> None:
    with pytest.raises(StoreError, match="must start with a 'scene_started'"):
        store.append([RoundStarted(round=1)])
    assert store.head() == (0, GENESIS)


def test_a_second_scene_started_is_refused_and_nothing_is_written(store: EventStore) -> None:
    store.append([start()])
    with pytest.raises(StoreError, match="only one 'scene_started'"):
        store.append([RoundStarted(round=1), start()])
    assert store.head()[0] == 1  # the batch is all or nothing


def test_appending_nothing_changes_nothing(store: EventStore) -> None:
    store.append([start()])
    head = store.head()
    assert store.append([]) == []
    assert store.head() == head


def test_both_stores_write_identical_bytes(tmp_path: Path, sample_events: list[AnyEvent]) -> None:
    memory = MemoryStore()
    memory.append(sample_events)
    path = tmp_path / "log.jsonl"
    FileStore(path, fsync=True).append(sample_events)
    assert path.read_bytes() == memory.to_bytes()


def _bytes(store: EventStore) -> bytes:
    if isinstance(store, MemoryStore):
        return store.to_bytes()
    assert isinstance(store, FileStore)
    return Path(store.path).read_bytes()
