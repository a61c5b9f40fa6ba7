"""The checkpoint cache: snapshots of a log's state in a sidecar file, so that asking for the
state of a long log after a few appends costs time in proportion to the new events.

The sidecar ``LOG.checkpoints`` holds a few entries, each the state after event ``seq``,
keyed by that line's chain hash and byte span in the log, and the log's ``Witness`` (device,
inode, size, modification and change times) as last vouched for. It is only a cache: an
entry is used only when

- the sidecar is a regular file of at most ``MAX_SIDECAR_BYTES`` (a symbolic link, a FIFO, a
  directory or a larger file is not read, and ``load`` says why, for a warning);
- the file's HMAC-SHA256 tag verifies under this user's cache key (a cache edited by hand,
  or written under another key, is ignored whole);
- it was made for this log (the hash of line 1 matches) and this cache format;
- the log's witness now equals the recorded one: the same file, and nothing wrote to it since
  the checkpoint was made except fightlog's own appends (``FileStore.append`` calls
  ``appended``, which moves the witness on only when it matched before the append). A log
  rewritten (a new file renamed over it, as editors and ``sed -i`` do), truncated, or written
  in place by anything else is folded from line 1, as with ``--no-cache``;
- the log still holds, at the recorded span, a line with the recorded hash. Every event after
  it is read and chain-checked as usual.

What remains possible: a change to the log's earlier bytes that leaves its size, modification
and change times as they were (setting the clock back, writing the disk device, or a change
within the same clock tick as fightlog's last write on a file system with coarse timestamps)
is not seen by a cached ``state``; ``verify`` reads every line and always sees it.

Anything else makes the entry, or the whole file, be ignored and rewritten; a cache is never
trusted over the log. The key is 32 random bytes in ``$XDG_CACHE_HOME/fightlog/checkpoint.key``
(``~/.cache`` by default), created on first use; where it cannot be read or written, no cache
is used.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import tempfile
from collections.abc import Iterator
from typing import NamedTuple

import msgspec

from fightlog.events.sidecar import (
    appended,
    cache_key,
    sidecar_path,
    HEADER,
    MAGIC,
    TAG,
    TAG_AT,
    Witness,
    mac,
    move_witness,
    read_regular,
    sealed,
    witness_in,
    witness_of,
)
from fightlog.events.codec import MAX_LINE_BYTES, decode_line
from fightlog.events.model import AnyEvent
from fightlog.events.piped import is_registered, is_regular
from fightlog.events.reader import ChainHead, check_lines, open_log, raw_lines, read_log
from fightlog.reducers.state import SceneState

VERSION = 6
MAX_SIDECAR_BYTES = 64 << 20
"""A larger sidecar is not read (a few states take kilobytes)."""
KEEP = 3
"""Entries kept in a sidecar (the latest by ``seq``)."""

WRITE_AFTER = 1000
"""A new entry is written when a fold read at least this many events past its start."""


class Entry(msgspec.Struct, frozen=True):
    """The state after event ``seq``, whose line hashed to ``digest`` and lay at
    ``[start, end)`` in the log."""

    seq: int
    digest: str
    start: int
    end: int
    state: bytes


class Sidecar(msgspec.Struct, frozen=True):
    version: int
    log: str
    entries: list[Entry]


class Loaded(NamedTuple):
    """The usable entries of a sidecar with their states, oldest first, and why the sidecar
    was not read at all when that deserves a warning (``None`` otherwise)."""

    entries: list[tuple[Entry, SceneState]]
    warning: str | None = None


_SIDECAR = msgspec.msgpack.Decoder(Sidecar)
_STATE = msgspec.msgpack.Decoder(SceneState)
_ENCODER = msgspec.msgpack.Encoder()


def cacheable(log: str) -> bool:
    """Whether ``log`` may have a sidecar: a regular file named by its path. Never ``-``, a
    pipe or FIFO, ``/dev/stdin`` or ``/proc/...`` (even redirected from a file), nor a log a
    command copied from one (``fightlog.events.piped``)."""
    if is_registered(log) or not is_regular(log):
        return False
    return not os.path.abspath(log).startswith(("/dev/", "/proc/"))


def log_identity(log: str) -> str | None:
    """The hash of the log's first line (what a sidecar was made for)."""
    try:
        with open_log(log) as stream:
            first = stream.readline(MAX_LINE_BYTES + 2)
    except Exception:
        return None
    if not first.endswith(b"\n"):
        return None
    return hashlib.sha256(first.rstrip(b"\r\n")).hexdigest()


def load(log: str, key: bytes) -> Loaded:
    """The usable entries of ``log``'s sidecar with their states, oldest first."""
    if not cacheable(log):
        return Loaded([])
    sidecar, witness, warning = _read(log, key)
    if sidecar is None:
        return Loaded([], warning)
    usable: list[tuple[Entry, SceneState]] = []
    try:
        with open(log, "rb") as stream:
            now = os.fstat(stream.fileno())
            if witness_of(now) != witness:
                return Loaded([])  # rewritten, truncated or written by another hand: fold from line 1
            for entry in sidecar.entries:
                if entry.end > now.st_size or entry.end - entry.start > MAX_LINE_BYTES + 2:
                    continue
                stream.seek(entry.start)
                line = stream.read(entry.end - entry.start)
                if not line.endswith(b"\n"):
                    continue
                if hashlib.sha256(line.rstrip(b"\r\n")).hexdigest() != entry.digest:
                    continue
                try:
                    state = _STATE.decode(entry.state)
                except msgspec.DecodeError:
                    continue
                if state.seq == entry.seq:
                    usable.append((entry, state))
    except OSError:
        return Loaded([])
    return Loaded(sorted(usable, key=lambda pair: pair[0].seq))


def _read(log: str, key: bytes) -> tuple[Sidecar | None, Witness | None, str | None]:
    """The sidecar of ``log`` and the witness it records (``None`` when its block does not
    verify), or why it is not usable when that deserves a warning."""
    target = sidecar_path(log)
    blob, why = read_regular(target, MAX_SIDECAR_BYTES)
    if blob is None:
        return None, None, None if why is None else f"{target} {why}; ignored, the state is read from the log alone"
    payload = blob[HEADER:]
    sidecar: Sidecar | None = None
    if blob.startswith(MAGIC) and hmac.compare_digest(blob[TAG_AT:HEADER], mac(key, payload)):
        try:
            sidecar = _SIDECAR.decode(payload)
        except msgspec.DecodeError:
            pass
    if sidecar is None:
        if hmac.compare_digest(blob[:TAG], mac(key, blob[TAG:])):
            return None, None, None  # an older format, ours: rewritten after this fold
        why = "is damaged or was not written by this user's fightlog"
        return None, None, f"{target} {why}; ignored, the state is read from the log alone"
    if sidecar.version != VERSION or sidecar.log != log_identity(log):
        return None, None, None
    return sidecar, witness_in(key, blob[:HEADER]), None


def log_witness(log: str) -> Witness | None:
    """The log's witness now (taken before a fold, for ``save``)."""
    try:
        return witness_of(os.stat(log))
    except OSError:
        return None


def save(
    log: str, key: bytes, head: ChainHead, state: SceneState, kept: list[Entry], before: Witness | None
) -> None:
    """Add the state after ``head.seq`` to the sidecar (keeping the latest ``KEEP``), with
    the log's witness. Only when the log is as it was (``before``) when the fold began and ends
    at ``head`` (nothing wrote to it while it was read), and is ``cacheable``."""
    if not cacheable(log):
        return
    identity = log_identity(log)
    if identity is None or head.seq != state.seq:
        return
    now = log_witness(log)
    if now is None or now != before or now.size != head.end:
        return
    entry = Entry(seq=head.seq, digest=head.digest, start=head.start, end=head.end, state=_ENCODER.encode(state))
    entries = sorted({e.seq: e for e in (*kept, entry)}.values(), key=lambda e: e.seq)[-KEEP:]
    payload = _ENCODER.encode(Sidecar(version=VERSION, log=identity, entries=entries))
    _write(log, sealed(key, payload, now))


def _write(log: str, blob: bytes) -> None:
    """Written to a temporary file and renamed, so a reader never sees half a cache."""
    target = sidecar_path(log)
    try:
        fd, tmp = tempfile.mkstemp(prefix=os.path.basename(target) + ".", dir=os.path.dirname(os.path.abspath(target)))
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, target)
    except OSError:
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass


class CheckpointSource:
    """``seq -> events from seq on`` for a log, starting right after a checkpoint when one
    matches (seek to its end, check the chain from its hash) and from line 1 otherwise.
    ``head`` and ``read`` describe the last complete pass that reached the end of the log."""

    def __init__(self, log: str, entries: list[Entry]) -> None:
        self.log = log
        self.by_next = {e.seq + 1: e for e in entries}
        self.head: ChainHead | None = None
        self.read = 0

    def recorded(self, seq: int) -> AnyEvent | None:
        """The event at ``seq`` when a checkpoint records its line (already hash-checked)."""
        entry = self.by_next.get(seq + 1)
        if entry is None:
            return None
        with open_log(self.log) as stream:
            stream.seek(entry.start)
            line = stream.read(entry.end - entry.start)
        try:
            return decode_line(line.rstrip(b"\r\n"))
        except msgspec.DecodeError:
            return None

    def __call__(self, seq: int) -> Iterator[AnyEvent]:
        head = ChainHead()
        count = 0
        entry = self.by_next.get(seq)
        if entry is None:
            for _, event in read_log(self.log, from_seq=seq, head=head):
                count += 1
                yield event
        else:
            with open_log(self.log) as stream:
                stream.seek(entry.end)
                after = ChainHead(seq=entry.seq, digest=entry.digest)
                for _, event in check_lines(raw_lines(stream), self.log, head=head, after=after, offset=entry.end):
                    count += 1
                    yield event
        if head.seq:  # the pass reached the end of the log
            self.head = head
            self.read = count
