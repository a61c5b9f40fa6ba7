"""Repairing a torn tail without deleting a byte.

A crash during an append can leave the last line without its newline, or only some of the
events of a multi-event append (``fightlog.events.batches``). If the torn bytes are a complete,
correctly chained event that ends its append, the repair adds the missing ``\\n``. Otherwise it
copies everything from the torn tail's start (the unfinished append's first line, or the cut
line) to a side file (``<log>.torn-<offset>``, fsynced) and only then truncates the log there,
so the log keeps whole appends only. Runs under the same exclusive lock as appends.
"""

from __future__ import annotations

import fcntl
import os

import msgspec

from fightlog.errors import StoreError, SystemRefusedError, TornTailError
from fightlog.events.reader import check_lines, raw_lines


class RepairResult(msgspec.Struct, frozen=True):
    """What the repair did: ``added_newline`` or ``moved`` bytes to ``side_file``."""

    line: int
    action: str
    side_file: str | None = None
    moved: int = 0


def repair_torn_tail(path: str) -> RepairResult | None:
    """Repair a torn last line of ``path``; return ``None`` when the tail is intact.

    Other damage raises as the reader reports it (it is not repairable automatically).
    """
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError as exc:
        raise SystemRefusedError(f"cannot open for repair: {exc.strerror}", path=path) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with os.fdopen(os.dup(fd), "rb", buffering=1 << 20) as stream:
            try:
                for _ in check_lines(raw_lines(stream), path):
                    pass
                return None
            except TornTailError as torn:
                return _repair(fd, path, torn)
    finally:
        os.close(fd)


def _repair(fd: int, path: str, torn: TornTailError) -> RepairResult:
    if torn.complete:
        os.lseek(fd, 0, os.SEEK_END)
        os.write(fd, b"\n")
        os.fsync(fd)
        return RepairResult(line=torn.line or 0, action="added_newline")
    if torn.offset <= 0:  # the reader refuses a cut first line: moving it aside would empty the log
        raise StoreError(f"{path}: the torn part is the whole log: not repaired")
    size = os.fstat(fd).st_size
    data = os.pread(fd, size - torn.offset, torn.offset)
    side = f"{path}.torn-{torn.offset}"
    try:
        side_fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        raise StoreError(f"{side}: exists already; move it away and repair again") from None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(side_fd, view) :]
        os.fsync(side_fd)
    finally:
        os.close(side_fd)
    dir_fd = os.open(os.path.dirname(os.path.abspath(side)), os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    os.ftruncate(fd, torn.offset)
    os.fsync(fd)
    return RepairResult(line=torn.line or 0, action="moved", side_file=side, moved=len(data))
