"""File-store specifics: locking across processes, refusing damaged tails, rollback."""

from __future__ import annotations

import errno
import multiprocessing
import os
from pathlib import Path

import pytest

from fightlog.errors import StoreError
from fightlog.events import store as store_module
from fightlog.events.model import FORMAT_VERSION, RoundStarted, SceneStarted
from fightlog.events.reader import read_log
from fightlog.events.store import FileStore

WRITERS = 8
APPENDS = 500


def _writer(path: str, writer: int) -> None:
    store = FileStore(path, fsync=False)
    for i in range(APPENDS):
        store.append([RoundStarted(round=writer * APPENDS + i + 1)])


def test_eight_processes_appending_never_interleave_or_lose_events(tmp_path: Path) -> None:
    path = tmp_path / "shared.jsonl"
    FileStore(path).append([SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION)])
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_writer, args=(str(path), w)) for w in range(WRITERS)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    events = [e for _, e in read_log(path)]  # checks seq and the whole chain
    assert len(events) == 1 + WRITERS * APPENDS
    assert [e.seq for e in events] == list(range(1, 2 + WRITERS * APPENDS))
    rounds = sorted(e.round for e in events[1:] if isinstance(e, RoundStarted))
    assert rounds == list(range(1, WRITERS * APPENDS + 1))  # every append landed exactly once


def test_append_refuses_a_torn_tail_and_leaves_the_file_alone(sample_log: Path) -> None:
    data = sample_log.read_bytes()
    sample_log.write_bytes(data + b'{"kind":"round_sta')
    before = sample_log.read_bytes()
    with pytest.raises(StoreError, match="last line is incomplete.*verify --repair"):
        FileStore(sample_log).append([RoundStarted(round=9)])
    assert sample_log.read_bytes() == before


def test_append_refuses_a_last_line_that_is_not_an_event(sample_log: Path) -> None:
    sample_log.write_bytes(sample_log.read_bytes() + b"garbage\n")
    with pytest.raises(StoreError, match="not a valid event"):
        FileStore(sample_log).append([RoundStarted(round=9)])


def test_append_continues_the_chain_after_a_long_last_line(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    store = FileStore(path, fsync=False)
    store.append([SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION, title="x" * 200_000)])
    store.append([RoundStarted(round=1)])
    assert [e.seq for _, e in read_log(path)] == [1, 2]


def test_a_failed_write_is_rolled_back(sample_log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = sample_log.read_bytes()

    def half_then_disk_full(fd: int, data: bytes) -> None:
        os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store_module, "_write_all", half_then_disk_full)
    with pytest.raises(StoreError, match="append failed, log unchanged: No space left"):
        FileStore(sample_log).append([RoundStarted(round=9), RoundStarted(round=10)])
    assert sample_log.read_bytes() == before


def test_appending_to_a_directory_is_a_clean_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        FileStore(tmp_path).append([SceneStarted(scene="s", ruleset="roe7", format=FORMAT_VERSION)])


def test_head_of_a_missing_file_is_genesis(tmp_path: Path) -> None:
    assert FileStore(tmp_path / "none.jsonl").head()[0] == 0
