"""Where logs live: an append-only file store and its in-memory twin.

Both implement ``EventStore``: ``append`` seals events (assigns ``seq`` and ``prev``) and adds
them atomically; ``read`` streams ``(line, event)`` from a ``seq`` on, with every check of
``fightlog.events.reader``; ``head`` gives the last ``seq`` and its line hash. One shared test
suite (``tests/events/test_store_contract.py``) runs against both.

The file store holds an exclusive ``flock`` on the log while it reads the tail, seals and
writes, so several processes appending to one log never interleave, never lose an event and
never break the chain. Appends are fsynced unless ``fsync=False`` (bulk generation).
A failed write is rolled back to the previous end of file: nothing already in the log is lost.

An append is all or nothing, even through a crash: the events of a multi-event append to a log
that has events carry ``batch: [i, n]`` (the reader treats an unfinished one at the end as a
torn tail, ``fightlog.events.batches``), and the batch that starts a log is written to a new
file renamed into place, so a log appears whole or not at all. Nothing is written that the
reader would refuse (``fightlog.events.writable``).
"""

from __future__ import annotations

import fcntl
import os
import secrets
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

import msgspec

from fightlog.errors import StoreError, SystemRefusedError
from fightlog.events.codec import line_digest
from fightlog.events.model import GENESIS, AnyEvent, SceneStarted
from fightlog.events.reader import check_lines, read_log
from fightlog.events.writable import encode_checked


class EventStore(Protocol):
    """What the engine needs from a log."""

    def append(self, events: Sequence[AnyEvent], *, expect: int | None = None) -> list[AnyEvent]:
        """Seal and append ``events`` in order, atomically; return them as sealed. With
        ``expect``, refuse (``StoreError``, nothing written) unless the log ends at that seq:
        events decided from a state must not land after events that state never saw."""
        ...

    def read(self, from_seq: int = 1) -> Iterator[tuple[int, AnyEvent]]:
        """Yield ``(line, event)`` for events with ``seq >= from_seq``."""
        ...

    def head(self) -> tuple[int, str]:
        """The last ``seq`` (0 when empty) and the hash the next event's ``prev`` must carry."""
        ...


class _SeqOnly(msgspec.Struct):
    seq: int
    batch: tuple[int, int] | None = None


_SEQ_DECODER = msgspec.json.Decoder(_SeqOnly)


def seal(
    events: Iterable[AnyEvent], last_seq: int, last_digest: str, name: str = "<log>"
) -> tuple[list[AnyEvent], bytes, str]:
    """Assign ``seq`` and ``prev`` after ``(last_seq, last_digest)``, and ``batch`` marks to
    the events of a multi-event append to a log that has events.

    Returns the sealed events, the bytes to append (each line ``\\n``-terminated) and the new
    head digest. Refuses (``StoreError``) a log that does not start with ``scene_started`` or
    that would get a second one, and an event whose line the reader would refuse.
    """
    events = list(events)
    sealed: list[AnyEvent] = []
    chunks: list[bytes] = []
    seq, digest = last_seq, last_digest
    replace = msgspec.structs.replace
    count = len(events)
    marked = count > 1 and last_seq > 0
    for index, event in enumerate(events, 1):
        seq += 1
        is_start = type(event) is SceneStarted
        if seq == 1 and not is_start:
            raise StoreError("a log must start with a 'scene_started' event")
        if seq > 1 and is_start:
            raise StoreError("a log has only one 'scene_started' event (start a new log)")
        event = replace(event, seq=seq, prev=digest, batch=(index, count) if marked else None)
        line = encode_checked(event, name, index, count)
        digest = line_digest(line)
        sealed.append(event)
        chunks.append(line)
        chunks.append(b"\n")
    return sealed, b"".join(chunks), digest


def _check_expected(name: str, last_seq: int, expect: int | None) -> None:
    if expect is not None and last_seq != expect:
        raise StoreError(
            f"{name}: the log moved on (it ends at seq {last_seq}, this was decided at seq "
            f"{expect}); nothing written, try again"
        )


class MemoryStore:
    """An ``EventStore`` in memory, for tests and for forks computed without touching disk."""

    def __init__(self, name: str = "<memory>") -> None:
        self.name = name
        self._lines: list[bytes] = []
        self._digest = GENESIS
        self._lock = threading.Lock()

    def append(self, events: Sequence[AnyEvent], *, expect: int | None = None) -> list[AnyEvent]:
        with self._lock:
            _check_expected(self.name, len(self._lines), expect)
            sealed, data, digest = seal(events, len(self._lines), self._digest, self.name)
            self._lines.extend(data.splitlines(keepends=True))
            self._digest = digest
            return sealed

    def read(self, from_seq: int = 1) -> Iterator[tuple[int, AnyEvent]]:
        return check_lines(list(self._lines), self.name, from_seq=from_seq)

    def head(self) -> tuple[int, str]:
        return len(self._lines), self._digest

    def to_bytes(self) -> bytes:
        """The log as it would be on disk."""
        return b"".join(self._lines)


class FileStore:
    """An ``EventStore`` on a JSONL file, safe for several appending processes."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = True) -> None:
        self.path = os.fspath(path)
        self.fsync = fsync

    def append(self, events: Sequence[AnyEvent], *, expect: int | None = None) -> list[AnyEvent]:
        if not events:
            return []
        while True:
            fd = self._open(os.O_RDWR | os.O_APPEND)
            if fd < 0 and os.path.lexists(self.path):  # a dangling symlink: create its target
                fd = self._open(os.O_RDWR | os.O_APPEND | os.O_CREAT)
                if fd < 0:
                    raise StoreError(f"{self.path}: cannot open for append: its link points nowhere")
            if fd < 0:
                created = self._create(events, expect)
                if created is not None:
                    return created
                continue  # another process created the log meanwhile: append to it
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                if not _still_at(fd, self.path):
                    continue  # the file was replaced (a first batch renamed in) while we waited
                return self._append_locked(fd, events, expect)
            finally:
                os.close(fd)  # closing releases the lock

    def _open(self, flags: int) -> int:
        """The log opened with ``flags``; -1 if it does not exist."""
        try:
            return os.open(self.path, flags, 0o644)
        except FileNotFoundError:
            return -1
        except IsADirectoryError:
            raise StoreError(f"{self.path}: is a directory, not a log file") from None
        except OSError as exc:
            raise SystemRefusedError(f"cannot open for append: {exc.strerror}", path=self.path) from None

    def _append_locked(
        self, fd: int, events: Sequence[AnyEvent], expect: int | None
    ) -> list[AnyEvent]:
        before = os.fstat(fd)
        size = before.st_size
        last_seq, last_digest = tail_of(fd, size, self.path)
        _check_expected(self.path, last_seq, expect)
        sealed, data, _ = seal(events, last_seq, last_digest, self.path)
        if size == 0 and len(sealed) > 1:
            self._write_new(data, os.path.realpath(self.path), replace=True)
            return sealed
        try:
            _write_all(fd, data)
            if self.fsync:
                os.fsync(fd)
        except OSError as exc:
            os.ftruncate(fd, size)  # take back our partial bytes only
            raise SystemRefusedError(f"append failed, log unchanged: {exc.strerror}", path=self.path) from None
        from fightlog.events.sidecar import appended  # the cache vouches for our own append

        appended(self.path, before, os.fstat(fd))
        return sealed

    def _create(self, events: Sequence[AnyEvent], expect: int | None) -> list[AnyEvent] | None:
        """Create the log whole with ``events``; ``None`` if it appeared meanwhile."""
        _check_expected(self.path, 0, expect)
        sealed, data, _ = seal(events, 0, GENESIS, self.path)
        return sealed if self._write_new(data, self.path, replace=False) else None

    def _write_new(self, data: bytes, target: str, *, replace: bool) -> bool:
        """Write ``data`` to a new file beside ``target`` and move it into place: renamed over
        ``target`` (``replace``), else linked to it unless it exists (then ``False``)."""
        folder, base = os.path.split(os.path.abspath(target))
        temp = os.path.join(folder, f".{base}.{os.getpid()}-{secrets.token_hex(4)}.new")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except OSError as exc:
            raise SystemRefusedError(f"cannot create the log: {exc.strerror}", path=self.path) from None
        try:
            try:
                _write_all(fd, data)
                if self.fsync:
                    os.fsync(fd)
            finally:
                os.close(fd)
            if replace:
                os.rename(temp, target)
            else:
                try:
                    os.link(temp, target)
                except FileExistsError:
                    return False
            if self.fsync:
                _fsync_dir(folder)
            return True
        except OSError as exc:
            raise SystemRefusedError(f"cannot create the log, nothing written: {exc.strerror}", path=self.path) from None
        finally:
            if os.path.lexists(temp):
                os.unlink(temp)

    def read(self, from_seq: int = 1) -> Iterator[tuple[int, AnyEvent]]:
        return read_log(self.path, from_seq=from_seq)

    def head(self) -> tuple[int, str]:
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return 0, GENESIS
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            return tail_of(fd, os.fstat(fd).st_size, self.path)
        finally:
            os.close(fd)


def _still_at(fd: int, path: str) -> bool:
    """Whether the open ``fd`` is still the file at ``path``."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (mine.st_ino, mine.st_dev) == (now.st_ino, now.st_dev)


def _fsync_dir(folder: str) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def tail_of(fd: int, size: int, path: str) -> tuple[int, str]:
    """``(seq, digest)`` of the last line of an open log, reading backwards from the end.

    Refuses a log whose last line is torn or does not decode, or ends an append that never
    finished (a ``batch`` mark short of its last event): appending after it would chain new
    events to damage (``fightlog verify`` says what is wrong and how to repair it).
    """
    if size == 0:
        return 0, GENESIS
    if os.pread(fd, 1, size - 1) != b"\n":
        raise StoreError(
            f"{path}: the last line is incomplete; run `fightlog verify --repair {path}` first"
        )
    end = size - 1
    pos = end
    tail = b""
    while True:
        start = max(0, pos - 65536)
        tail = os.pread(fd, pos - start, start) + tail
        cut = tail.rfind(b"\n")
        if cut >= 0:
            line = tail[cut + 1 :]
            break
        if start == 0:
            line = tail
            break
        pos = start
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        last = _SEQ_DECODER.decode(line)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        raise StoreError(
            f"{path}: the last line is not a valid event; run `fightlog verify {path}`"
        ) from None
    if last.batch is not None and last.batch[0] != last.batch[1]:
        raise StoreError(
            f"{path}: the last append did not finish (it ends at event {last.batch[0]} of "
            f"{last.batch[1]}); run `fightlog verify --repair {path}` first"
        )
    return last.seq, line_digest(line)
