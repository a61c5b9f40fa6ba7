"""The checkpoint cache: used when it matches the log, ignored (never trusted) otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fightlog.events import sidecar as cachefile
from fightlog.history import checkpoints
from fightlog.history import states as history
from fightlog.events.model import AnyEvent, DamageApplied, RulingMade
from fightlog.events.store import FileStore, MemoryStore
from fightlog.history.states import state_at
from tests.reducers.logs import random_log


@pytest.fixture(autouse=True)
def write_often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "WRITE_AFTER", 5)


def write(path: Path, events: list[AnyEvent]) -> None:
    store = MemoryStore()
    store.append(events)
    path.write_bytes(store.to_bytes())


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "fight.jsonl"
    write(path, random_log(7, 60))
    return path


def sidecar(log: Path) -> Path:
    return Path(checkpoints.sidecar_path(str(log)))


def no_full_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> Iterator[tuple[int, AnyEvent]]:
        raise AssertionError("the log was read from line 1")

    monkeypatch.setattr(checkpoints, "read_log", refuse)


def test_a_long_fold_leaves_a_checkpoint_and_the_next_query_reads_only_new_events(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cold = state_at(log)
    assert sidecar(log).exists()
    FileStore(log, fsync=False).append([DamageApplied(target="bob", raw=3, taken=3)])
    expected = state_at(log, cache=False)
    no_full_reads(monkeypatch)
    warm = state_at(log)
    assert warm == expected and warm.seq == cold.seq + 1


def test_a_query_before_the_checkpoint_does_not_use_it(log: Path) -> None:
    state_at(log)
    assert state_at(log, at=20) == state_at(log, at=20, cache=False)


def test_a_ruling_after_the_checkpoint_rewrites_history_correctly(log: Path) -> None:
    state_at(log)
    damage = next(e for e in random_log(7, 60) if isinstance(e, DamageApplied))
    FileStore(log, fsync=False).append([RulingMade(by="gm", action="void", target=damage.seq)])
    assert state_at(log) == state_at(log, cache=False)


def test_a_ruling_on_a_ruling_after_the_checkpoint_reads_as_without_the_cache(tmp_path: Path) -> None:
    """A ruling aimed at a ruling after a checkpoint makes the fold read the rulings the
    checkpoint does not list (withdrawn before it): the state, and the event it is after,
    read as without the cache (a review: that read went through the source that remembers
    the last events, and the header lost `(ruling_made)`)."""
    from fightlog.history.states import seen_at

    path = tmp_path / "fight.jsonl"
    base = [e for e in random_log(5, 80) if type(e) is not RulingMade]
    write(path, base)
    store = FileStore(path, fsync=False)
    damage = next(e for e in base if isinstance(e, DamageApplied))
    store.append([RulingMade(by="gm", action="void", target=damage.seq, reason="x")])
    voided = len(base) + 1
    store.append([RulingMade(by="gm", action="withdraw", target=voided, reason="y")])
    state_at(path)  # the checkpoint: the void withdrawn, so not listed
    assert sidecar(path).exists()
    store.append([RulingMade(by="gm", action="accept", target=3, finding="order.skipped")])
    store.append([RulingMade(by="gm", action="withdraw", target=voided + 1, reason="z")])  # aimed at a ruling
    cached, fresh = seen_at(path), seen_at(path, cache=False)
    assert cached.state == fresh.state and cached.event == fresh.event
    from fightlog.events.reader import read_log
    from tests.reducers.test_fold_properties import as_if_applied

    events = [event for _, event in read_log(path)]
    assert cached.state == as_if_applied(events, len(events))


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda blob: blob[:40] + bytes([blob[40] ^ 1]) + blob[41:], id="a flipped byte"),
        pytest.param(lambda blob: blob[: cachefile.TAG_AT] + b"\x00" * 32 + blob[cachefile.HEADER :], id="a forged tag"),
        pytest.param(lambda blob: blob[: cachefile.WITNESS_AT] + b"\x00" * 8 + blob[cachefile.WITNESS_AT + 8 :], id="a forged witness"),
        pytest.param(lambda blob: blob[:100], id="cut short"),
        pytest.param(lambda blob: b"garbage", id="garbage"),
    ],
)
def test_a_tampered_cache_is_ignored(log: Path, damage: object) -> None:
    truth = state_at(log)
    blob = sidecar(log).read_bytes()
    sidecar(log).write_bytes(damage(blob))  # type: ignore[operator]
    assert checkpoints.load(str(log), checkpoints.cache_key() or b"").entries == []
    assert state_at(log) == truth


def test_a_cache_written_under_another_key_is_ignored(log: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    truth = state_at(log)
    key = checkpoints.cache_key()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-user"))
    assert checkpoints.cache_key() != key
    assert checkpoints.load(str(log), checkpoints.cache_key() or b"").entries == []
    assert state_at(log) == truth


def test_a_forged_state_with_a_valid_looking_file_is_ignored(log: Path) -> None:
    state_at(log)
    key = checkpoints.cache_key()
    assert key is not None
    blob = sidecar(log).read_bytes()
    payload = msgspec.msgpack.decode(blob[cachefile.HEADER :])
    payload["entries"][-1]["state"] = payload["entries"][-1]["state"].replace(b"bob", b"bib")
    forged = msgspec.msgpack.encode(payload)
    sidecar(log).write_bytes(blob[: cachefile.TAG_AT] + b"\x01" * 32 + forged)  # without the key, no valid tag
    assert checkpoints.load(str(log), key).entries == []


def test_a_cache_of_another_log_is_ignored(log: Path, tmp_path: Path) -> None:
    state_at(log)
    other = tmp_path / "other.jsonl"
    write(other, random_log(8, 60))
    sidecar(other).write_bytes(sidecar(log).read_bytes())
    assert checkpoints.load(str(other), checkpoints.cache_key() or b"").entries == []
    assert state_at(other) == state_at(other, cache=False)


def test_a_rewritten_log_makes_its_checkpoints_stale(log: Path) -> None:
    state_at(log)
    events = random_log(7, 60)
    events[40] = DamageApplied(seq=41, target="alice", raw=9, taken=9)
    write(log, events)  # same first line, different history from line 41 on
    assert checkpoints.load(str(log), checkpoints.cache_key() or b"").entries == []
    assert state_at(log) == state_at(log, cache=False)


def test_a_truncated_log_makes_its_checkpoints_stale(log: Path) -> None:
    state_at(log)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:30]))
    assert state_at(log) == state_at(log, cache=False)
    assert state_at(log).seq == 30


def test_no_cache_without_a_usable_key(log: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert checkpoints.cache_key() is None
    assert state_at(log) == state_at(log, cache=False)
    assert not sidecar(log).exists()


def test_at_most_a_few_entries_are_kept(log: Path) -> None:
    for _ in range(5):
        state_at(log)
        FileStore(log, fsync=False).append([DamageApplied(target="bob", raw=1, taken=1)] * 6)
        state_at(log)
    entries = checkpoints.load(str(log), checkpoints.cache_key() or b"").entries
    assert 1 <= len(entries) <= checkpoints.KEEP


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32), st.integers(1, 59))
def test_checkpoint_then_the_rest_equals_the_whole(tmp_path: Path, seed: int, cut: int) -> None:
    events = random_log(seed, 60)
    path = tmp_path / f"log-{seed}-{cut}.jsonl"
    checkpoints_file = sidecar(path)
    checkpoints_file.unlink(missing_ok=True)
    write(path, events[:cut])
    state_at(path)
    FileStore(path, fsync=False).append(events[cut:])
    assert state_at(path) == state_at(path, cache=False)


def test_a_sidecar_of_the_previous_format_is_ignored_quietly_and_rewritten(log: Path) -> None:
    key = checkpoints.cache_key()
    assert key is not None
    payload = msgspec.msgpack.encode({"version": 2, "log": "x", "entries": []})
    sidecar(log).write_bytes(cachefile.mac(key, payload) + payload)
    assert checkpoints.load(str(log), key) == checkpoints.Loaded([], None)
    truth = state_at(log)
    assert checkpoints.load(str(log), key).entries[-1][1] == truth
