"""The checkpoint cache never hides damage (issue 19, item 4).

For every kind of damage ``verify`` detects, made after a checkpoint was written, by
rewriting the file (a new file renamed over it, as editors and ``sed -i`` do) or in place on
the same inode, with or without fightlog appending after it, ``fightlog state`` with the
checkpoint gives exactly what ``fightlog state --no-cache`` gives: exit code, output and
error line. A sidecar that is not a regular file of sane size is ignored with a one-line
warning, and the answer is the log's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fightlog.history import checkpoints
from fightlog.history import states as history
from fightlog.cli.main import cli
from fightlog.errors import StoreError
from fightlog.events.model import AnyEvent, DamageApplied
from fightlog.events.store import FileStore, MemoryStore
from tests.reducers.logs import random_log

SEED, LENGTH = 11, 200
MORE = [DamageApplied(target="bob", raw=1, taken=1)] * 3


@pytest.fixture(autouse=True)
def write_often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "WRITE_AFTER", 5)


def sealed(events: list[AnyEvent]) -> bytes:
    store = MemoryStore()
    store.append(events)
    return store.to_bytes()


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """A log of about 200 events whose checkpoint (after its last event) is written."""
    path = tmp_path / "fight.jsonl"
    path.write_bytes(sealed(random_log(SEED, LENGTH)))
    assert state(path).exit_code == 0
    assert checkpoints.load(str(path), checkpoints.cache_key() or b"").entries
    return path


def state(path: Path, *options: str) -> Result:
    return CliRunner().invoke(cli, ["state", *options, str(path)])


def lines_of(blob: bytes) -> list[bytes]:
    return blob.splitlines(keepends=True)


def edit(blob: bytes) -> bytes:
    """Line 120 edited, its length kept: the last hex digit of its ``prev`` changed."""
    lines = lines_of(blob)
    at = lines[119].index(b'"prev":"') + len(b'"prev":"') + 63
    digit = lines[119][at : at + 1]
    lines[119] = lines[119][:at] + (b"0" if digit != b"0" else b"1") + lines[119][at + 1 :]
    return b"".join(lines)


def swap(blob: bytes) -> bytes:
    lines = lines_of(blob)
    lines[119], lines[120] = lines[120], lines[119]
    return b"".join(lines)


def delete(blob: bytes) -> bytes:
    lines = lines_of(blob)
    del lines[119]
    return b"".join(lines)


def insert(blob: bytes) -> bytes:
    lines = lines_of(blob)
    lines.insert(120, lines[119])
    return b"".join(lines)


def truncate_mid_line(blob: bytes) -> bytes:
    lines = lines_of(blob)
    return b"".join(lines[:149]) + lines[149][:40]


def truncate_at_a_line(blob: bytes) -> bytes:
    return b"".join(lines_of(blob)[:150])


def forge(blob: bytes) -> bytes:
    """Line 120 replaced by another event and every line after it re-chained."""
    events = random_log(SEED, LENGTH)
    events[119] = DamageApplied(seq=120, target="alice", raw=9, taken=9)
    return sealed(events)


DAMAGES: dict[str, Callable[[bytes], bytes]] = {
    "edit line 120": edit,
    "swap lines 120 and 121": swap,
    "delete line 120": delete,
    "insert a copy of line 120": insert,
    "truncate mid-line": truncate_mid_line,
    "truncate at a line end": truncate_at_a_line,
    "re-chained forgery of line 120": forge,
}


def rewrite(path: Path, blob: bytes) -> None:
    """As editors and ``sed -i`` do: a new file renamed over the log (a new inode)."""
    tmp = path.with_name(path.name + ".new")
    tmp.write_bytes(blob)
    os.replace(tmp, path)


def in_place(path: Path, blob: bytes) -> None:
    """Written over the same inode (``dd conv=notrunc``, an ``r+`` write), then cut."""
    with open(path, "r+b") as f:
        f.write(blob)
        f.truncate()


WAYS: dict[str, Callable[[Path, bytes], None]] = {"rewritten": rewrite, "in place": in_place}


@pytest.mark.parametrize("then_append", [False, True], ids=["", "then fightlog appends"])
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("damage", DAMAGES)
def test_the_cached_answer_is_the_uncached_one(log: Path, damage: str, way: str, then_append: bool) -> None:
    WAYS[way](log, DAMAGES[damage](log.read_bytes()))
    if then_append:
        try:
            FileStore(log, fsync=False).append(MORE)
        except StoreError:
            pass  # a torn tail: the store refuses, as it should
    uncached = state(log, "--no-cache")
    cached = state(log)
    assert (cached.exit_code, cached.stdout, cached.stderr) == (uncached.exit_code, uncached.stdout, uncached.stderr)
    assert "Traceback" not in cached.output
    verified = CliRunner().invoke(cli, ["verify", str(log)])
    if verified.exit_code != 0:  # every damage verify sees, state sees too
        assert cached.exit_code == 2 and cached.stderr.startswith("fightlog: ") and cached.stderr.count("\n") == 1


def test_restoring_the_modification_time_does_not_hide_an_edit(log: Path) -> None:
    """``touch -d`` puts the old mtime back, but the change time moves on any write."""
    before = log.stat()
    in_place(log, swap(log.read_bytes()))
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert log.stat().st_mtime_ns == before.st_mtime_ns
    assert state(log).exit_code == state(log, "--no-cache").exit_code == 2


def no_full_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> Iterator[object]:
        raise AssertionError("the log was read from line 1")

    monkeypatch.setattr(checkpoints, "read_log", refuse)


def test_fightlog_s_own_appends_keep_the_checkpoint_usable(log: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(3):
        FileStore(log, fsync=False).append(MORE)
    expected = state(log, "--no-cache")
    no_full_reads(monkeypatch)
    assert state(log).stdout == expected.stdout


def test_an_outside_append_makes_the_next_state_read_from_line_1(log: Path) -> None:
    blob = log.read_bytes()
    extra = sealed([*random_log(SEED, LENGTH), *MORE])[len(blob) :]
    with open(log, "ab") as f:  # valid events, but not appended by fightlog
        f.write(extra)
    assert checkpoints.load(str(log), checkpoints.cache_key() or b"").entries == []
    assert state(log).stdout == state(log, "--no-cache").stdout


def huge(path: Path) -> None:
    with open(path, "wb") as f:
        f.truncate(checkpoints.MAX_SIDECAR_BYTES + 1)


SIDECARS: dict[str, Callable[[Path], None]] = {
    "a link to /dev/zero": lambda path: path.symlink_to("/dev/zero"),
    "a FIFO": lambda path: os.mkfifo(path),
    "a directory": lambda path: path.mkdir(),
    "a huge file": huge,
    "garbage": lambda path: path.write_bytes(b"garbage"),
}


@pytest.mark.parametrize("kind", SIDECARS)
def test_a_sidecar_that_is_not_a_sane_file_is_ignored_with_a_warning(log: Path, kind: str) -> None:
    side = Path(checkpoints.sidecar_path(str(log)))
    side.unlink()
    SIDECARS[kind](side)
    cached = state(log)
    assert cached.exit_code == 0
    assert cached.stdout == state(log, "--no-cache").stdout
    assert cached.stderr.count("\n") == 1 and cached.stderr.startswith(f"fightlog: warning: {side} ")
    assert "ignored" in cached.stderr


@pytest.mark.parametrize("kind", SIDECARS)
def test_an_append_beside_such_a_sidecar_neither_fails_nor_hangs(log: Path, kind: str) -> None:
    side = Path(checkpoints.sidecar_path(str(log)))
    side.unlink()
    SIDECARS[kind](side)
    FileStore(log, fsync=False).append(MORE)
    assert state(log).stdout == state(log, "--no-cache").stdout
