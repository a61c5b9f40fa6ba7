"""The checkpoint sidecar as a file: reading one that anyone may have put in its place, and
the witness block that fightlog's appends update in place.

A cache file (``LOG.checkpoints``) is read only if it is a regular file of at most a given
size, opened without following a symbolic link and without blocking: a link to ``/dev/zero``,
a FIFO, a directory or a huge file is never read, and the caller learns why in one phrase
(to warn and go on without the cache).

``Witness`` is what ``os.stat`` says of a log: its device, inode, size and change times. Two
witnesses are equal only if the file is the same file (not a new one renamed over it, as
editors and ``sed -i`` do) and nothing has written to it in between.

Layout: ``MAGIC``, the witness block (the witness, packed, and its HMAC bound to the payload's
tag), the payload's HMAC tag, the payload. The witness block has a fixed size, so an append
moves it on with one ``pwrite`` (no new file and rename, which cost a millisecond an append
on ext4); a torn or stale block only makes the next query fold from line 1.
"""

from __future__ import annotations

import errno
import hmac
import os
import secrets
import stat
import struct
from typing import NamedTuple

MAGIC = b"FLCKPT3\n"
TAG = 32
_PACKED = struct.Struct("<QQqqq")
WITNESS_AT = len(MAGIC)
TAG_AT = WITNESS_AT + _PACKED.size + TAG
HEADER = TAG_AT + TAG
"""Bytes before the payload."""


class Witness(NamedTuple):
    """A log's identity and last change, as ``os.stat`` gives them."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    ctime_ns: int


def witness_of(info: os.stat_result) -> Witness:
    return Witness(info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def mac(key: bytes, payload: bytes) -> bytes:
    return hmac.digest(key, payload, "sha256")


def witness_block(key: bytes, tag: bytes, witness: Witness) -> bytes:
    """The packed witness and its HMAC, bound to the payload whose tag is ``tag``."""
    packed = _PACKED.pack(*witness)
    return packed + mac(key, b"witness" + tag + packed)


def witness_in(key: bytes, header: bytes) -> Witness | None:
    """The witness a file's first ``HEADER`` bytes record, if its HMAC verifies."""
    if len(header) < HEADER or not header.startswith(MAGIC):
        return None
    packed = header[WITNESS_AT : WITNESS_AT + _PACKED.size]
    tag = header[TAG_AT:HEADER]
    if not hmac.compare_digest(header[WITNESS_AT + _PACKED.size : TAG_AT], mac(key, b"witness" + tag + packed)):
        return None
    return Witness(*_PACKED.unpack(packed))


def sealed(key: bytes, payload: bytes, witness: Witness) -> bytes:
    """A whole sidecar file: header, then ``payload``."""
    tag = mac(key, payload)
    return MAGIC + witness_block(key, tag, witness) + tag + payload


def move_witness(path: str, key: bytes, before: Witness, after: Witness) -> None:
    """In the sidecar at ``path``, replace the witness ``before`` by ``after`` in place;
    nothing when it records another (or is not a regular file, or cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        header = os.pread(fd, HEADER, 0)
        if witness_in(key, header) != before:
            return
        os.pwrite(fd, witness_block(key, header[TAG_AT:HEADER], after), WITNESS_AT)
    finally:
        os.close(fd)


def read_regular(path: str, limit: int) -> tuple[bytes | None, str | None]:
    """``(content, None)`` for a regular file of at most ``limit`` bytes at ``path``;
    ``(None, None)`` when there is none; ``(None, why)`` when something else is there (a
    symbolic link, a FIFO, a device, a directory, a larger file) or it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, "is a symbolic link"
        return None, f"cannot be read ({exc.strerror})"
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            return None, "is a directory"
        if not stat.S_ISREG(info.st_mode):
            return None, "is not a regular file"
        if info.st_size > limit:
            return None, f"is larger than {limit // (1 << 20)} MiB"
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, limit + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            return None, f"is larger than {limit // (1 << 20)} MiB"
        return b"".join(chunks), None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    finally:
        os.close(fd)


def sidecar_path(log: str) -> str:
    return f"{log}.checkpoints"


def cache_key() -> bytes | None:
    """This user's checkpoint key, created on first use; ``None`` when it cannot be had."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(root, "fightlog", "checkpoint.key")
    try:
        with open(path, "rb") as f:
            key = f.read()
        if len(key) == 32:
            return key
    except OSError:
        pass
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        key = secrets.token_bytes(32)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
        return key
    except OSError:
        return None


def appended(log: str, before: os.stat_result, after: os.stat_result) -> None:
    """Vouch for an append fightlog just made to ``log`` (``FileStore.append``, under its
    lock): when the sidecar's witness matched the log just before the append, it now records
    the log just after it. Otherwise it is left as it is, and the next query folds from line
    1. Never raises: the append has been made, a cache must not undo it."""
    target = sidecar_path(log)
    try:
        if not os.path.lexists(target):
            return
        key = cache_key()
        if key is not None:
            move_witness(target, key, witness_of(before), witness_of(after))
    except Exception:  # noqa: BLE001 - a cache update never fails an append already written
        return
