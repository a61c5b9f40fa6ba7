"""Checking a whole log: structure, sequence, chain, and optionally a published head.

``verify_log`` streams the log once. The first problem found is returned (not raised) as a
``LogDamagedError`` so that callers can report it as a finding; unusable input still raises
``InputError``.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import msgspec

from fightlog.errors import LogDamagedError
from fightlog.events.model import AnyEvent
from fightlog.events.reader import ChainHead, read_log

PARALLEL_MIN_BYTES = 16 << 20
"""Logs smaller than this are checked in one process (forking would cost more than it saves)."""

EventCheck = Callable[[int, AnyEvent], None]
"""A per-event check run during verification; raises ``LogDamagedError`` on a problem."""


class PublishedHead(msgspec.Struct, frozen=True):
    """A ``seq`` and the hash of its line, as published earlier (``57:ab12...``)."""

    seq: int
    digest: str

    @classmethod
    def parse(cls, text: str) -> PublishedHead:
        """``SEQ:SHA256`` as published (spaces around it, as pasted, ignored); ``ValueError``
        for anything else, a ``seq`` of 0 included (no line is 0: it vouches for nothing)."""
        seq_text, sep, digest = text.strip().partition(":")
        digest = digest.strip().lower()
        seq_text = seq_text.strip()
        if (
            not sep
            or not seq_text.isdecimal()
            or len(seq_text) > 12
            or len(digest) != 64
            or any(c not in "0123456789abcdef" for c in digest)
        ):
            raise ValueError("expected SEQ:SHA256, e.g. 57:<64 hex digits>")
        if int(seq_text) < 1:
            raise ValueError(f"SEQ is a line's seq, 1 or more: got {seq_text}")
        return cls(int(seq_text), digest)


class VerifyResult(msgspec.Struct):
    path: str
    events: int = 0
    head: ChainHead = msgspec.field(default_factory=ChainHead)
    problem: LogDamagedError | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify_log(
    path: str | os.PathLike[str],
    *,
    published: PublishedHead | None = None,
    checks: tuple[EventCheck, ...] = (),
    workers: int | None = None,
    parallel_min_bytes: int | None = None,
) -> VerifyResult:
    """Read the whole log and report its first problem, if any.

    A large log with no per-event ``checks`` and no ``published`` head is checked on
    ``workers`` cores (default: the cores this process may use); the verdict is the same.
    """
    name = os.fspath(path)
    result = VerifyResult(path=name)
    try:
        if _parallel(name, published, checks, workers, parallel_min_bytes):
            from fightlog.events.ranges import check_in_ranges  # large logs only

            result.head = check_in_ranges(name, os.path.getsize(name), _workers(workers))
        else:
            _verify_sequential(name, result, published, checks)
    except LogDamagedError as exc:
        result.problem = exc
        result.events = result.head.seq or (exc.line or 1) - 1
        return result
    result.events = result.head.seq
    return result


def _workers(workers: int | None) -> int:
    return workers if workers is not None else len(os.sched_getaffinity(0))


def _parallel(
    path: str,
    published: PublishedHead | None,
    checks: tuple[EventCheck, ...],
    workers: int | None,
    parallel_min_bytes: int | None,
) -> bool:
    if published is not None or checks:
        return False
    from fightlog.events.forked import worth_forking

    threshold = PARALLEL_MIN_BYTES if parallel_min_bytes is None else parallel_min_bytes
    return worth_forking(path, threshold, _workers(workers))


def _verify_sequential(
    path: str,
    result: VerifyResult,
    published: PublishedHead | None,
    checks: tuple[EventCheck, ...],
) -> None:
    head = result.head
    successor_prev: str | None = None
    for _, event in read_log(path, head=head):
        if published is not None and event.seq == published.seq + 1:
            successor_prev = event.prev
        for check in checks:
            check(event.seq, event)
    if published is not None:
        problem = _check_published(path, head, published, successor_prev)
        if problem is not None:
            raise problem


def _check_published(
    path: str, head: ChainHead, published: PublishedHead, successor_prev: str | None
) -> LogDamagedError | None:
    if published.seq > head.seq:
        return LogDamagedError(
            f"the log ends at seq {head.seq} but seq {published.seq} was published "
            "(lines removed from the end?)",
            path=path,
            line=head.seq,
        )
    actual = head.digest if published.seq == head.seq else successor_prev
    if actual != published.digest:
        return LogDamagedError(
            f"line {published.seq} does not match the published hash (edited since?)",
            path=path,
            line=published.seq,
        )
    return None
