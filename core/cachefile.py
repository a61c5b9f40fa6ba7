"""Reading a cache file that anyone may have put in its place, and naming the file a cache
was made for.

A cache file (``LOG.checkpoints``) is read only if it is a regular file of at most a given
size, opened without following a symbolic link and without blocking: a link to ``/dev/zero``,
a FIFO, a directory or a huge file is never read, and the caller learns why in one phrase
(to warn and go on without the cache).

``Witness`` is what ``os.stat`` says of a log: its device, inode, size and change times. Two
witnesses are equal only if the file is the same file (not a new one renamed over it, as
editors and ``sed -i`` do) and nothing has written to it in between.
"""

from __future__ import annotations

import errno
import os
import stat

import msgspec


class Witness(msgspec.Struct, frozen=True, array_like=True):
    """A log's identity and last change, as ``os.stat`` gives them."""

    dev: int
    ino: int
    size: int
    mtime_ns: int
    ctime_ns: int


def witness_of(info: os.stat_result) -> Witness:
    return Witness(
        dev=info.st_dev, ino=info.st_ino, size=info.st_size, mtime_ns=info.st_mtime_ns, ctime_ns=info.st_ctime_ns
    )


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
