"""Checking a large log on several cores, with exactly the sequential reader's verdict.

SHA-256 of a short line costs about as much as decoding it, so one core cannot check a log
much faster than half its decoding speed. For large files ``check_in_ranges`` cuts the file at
line boundaries into one byte range per core. This process checks range 0 from line 1; a
forked child checks each later range, taking its first line's ``seq`` and ``prev`` on trust.
The parent then re-checks the first line of every later range against the end of the range
before it (``check_lines`` with ``after=``), which is precisely the check the sequential reader
would have made there. So the first problem reported, and its message, are the same as a
sequential read's; a property test holds the two paths to that.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from typing import BinaryIO

import msgspec

from fightlog.errors import FightlogError
from fightlog.events.batches import unfinished
from fightlog.events.codec import DECODER, MAX_LINE_BYTES
from fightlog.events.forked import Forked
from fightlog.events.model import AnyEvent
from fightlog.events.reader import ChainHead, check_lines, open_log, raw_lines

class RangeResult(msgspec.Struct):
    """What a child found in its range: the chain head at its end, or the first problem."""

    head: ChainHead
    error: FightlogError | None = None


def split_points(path: str, size: int, parts: int) -> list[int]:
    """Byte offsets where ranges 1..parts-1 start: just after a newline near size*k/parts."""
    starts: list[int] = []
    with open_log(path) as stream:
        for k in range(1, parts):
            start = boundary_after(stream, max(size * k // parts, starts[-1] if starts else 0), size)
            if start is None:
                return starts
            if not starts or start > starts[-1]:
                starts.append(start)
    return starts


def read_trusting(path: str, until: int, *, from_seq: int = 1) -> Iterator[tuple[int, AnyEvent]]:
    """``read_log``'s ``(line, event)`` when another process checks the lines before byte
    ``until`` (a line boundary, not inside an append): those are only decoded; the rest is
    checked from there, the seam included (the first line's ``prev`` against the hash of the
    line before it)."""
    decode = DECODER.decode
    line = 0
    last = b""
    with open_log(path) as stream:
        for raw in raw_lines(stream, until):
            line += 1
            last = raw
            if line >= from_seq:
                yield line, decode(raw)
        before = ChainHead(seq=line, digest=hashlib.sha256(_body(last)).hexdigest()) if line else None
        yield from check_lines(raw_lines(stream), path, from_seq=from_seq, after=before, offset=until)


def boundary_after(stream: BinaryIO, guess: int, size: int) -> int | None:
    """The start of the first line at or after byte ``guess`` that begins an append (not
    inside one), or ``None`` past the end."""
    stream.seek(guess)
    pos = guess
    while True:
        block = stream.read(1 << 16)
        if not block:
            return None
        cut = block.find(b"\n")
        if cut >= 0:
            start = pos + cut + 1
            break
        pos += len(block)
    start = _past_open_append(stream, start)
    return None if start >= size else start


class _Mark(msgspec.Struct):
    batch: tuple[int, int] | None = None


_MARK = msgspec.json.Decoder(_Mark)


def _past_open_append(stream: BinaryIO, start: int) -> int:
    """``start``, or the first line after it that does not continue an append (``batch``
    ``[i, n]`` with ``i > 1``), so that no range starts inside one."""
    stream.seek(start)
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 2)
        try:
            mark = _MARK.decode(_body(raw)).batch if raw.endswith(b"\n") else None
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            mark = None
        if mark is None or mark[0] <= 1:
            return start
        start += len(raw)


def _body(raw: bytes) -> bytes:
    return raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]


def check_range(path: str, start: int, end: int) -> RangeResult:
    """Check the lines in ``[start, end)``, trusting the first line's ``seq`` and ``prev``
    (the parent checks that seam). Runs in a child process."""
    with open_log(path) as stream:
        stream.seek(start)
        first = stream.readline(MAX_LINE_BYTES + 2)
        try:
            event = DECODER.decode(_body(first))
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            return RangeResult(head=ChainHead(seq=0))  # the parent's seam check reports it
        if event.seq < 2:
            return RangeResult(head=ChainHead(seq=0))
        base = ChainHead(seq=event.seq - 1, digest=event.prev)
        head = ChainHead()
        lines = itertools.chain([first], raw_lines(stream, end))
        try:
            for _ in check_lines(lines, path, head=head, after=base, offset=start, final=False):
                pass
        except FightlogError as exc:
            return RangeResult(head=head, error=exc)
        return RangeResult(head=head)


def check_in_ranges(path: str, size: int, workers: int) -> ChainHead:
    """Check the whole log at ``path`` on ``workers`` processes; raise its first problem.

    Returns the chain head (last ``seq`` and digest) of an intact log.
    """
    starts = split_points(path, size, workers)
    if not starts:
        return _check_sequential(path)
    ends = starts[1:] + [size]
    children = [Forked(check_range, path, start, end) for start, end in zip(starts, ends)]
    head = ChainHead()
    try:
        with open_log(path) as stream:
            for _ in check_lines(raw_lines(stream, starts[0]), path, head=head, final=False):
                pass
        for start, child in zip(starts, children):
            head = _join(path, start, head, child.result())
        if head.batch[0]:  # the log ends inside an append
            raise unfinished(head.batch, head.seq, path, torn=False)
    finally:
        for child in children:
            child.kill()
    return head


def _join(path: str, start: int, before: ChainHead, result: RangeResult) -> ChainHead:
    """Check the seam between a checked prefix ending at ``before`` and the range at
    ``start``, then take the range's own verdict (its line numbers are right once the seam's
    ``seq`` is)."""
    with open_log(path) as stream:
        stream.seek(start)
        first = stream.readline(MAX_LINE_BYTES + 2)
    seam = ChainHead()
    for _ in check_lines([first], path, head=seam, after=before, offset=start, final=False):
        pass
    if result.error is not None:
        raise result.error
    return result.head


def _check_sequential(path: str) -> ChainHead:
    head = ChainHead()
    with open_log(path) as stream:
        for _ in check_lines(raw_lines(stream), path, head=head):
            pass
    return head

