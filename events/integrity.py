"""Checking a whole log: structure, sequence, chain, and optionally a published head.

``verify_log`` streams the log once. The first problem found is returned (not raised) as a
``LogDamagedError`` so that callers can report it as a finding; unusable input still raises
``InputError``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from fightlog.errors import LogDamagedError
from fightlog.events.model import AnyEvent
from fightlog.events.reader import ChainHead, read_log

EventCheck = Callable[[int, AnyEvent], None]
"""A per-event check run during verification; raises ``LogDamagedError`` on a problem."""


@dataclass(frozen=True)
class PublishedHead:
    """A ``seq`` and the hash of its line, as published earlier (``57:ab12...``)."""

    seq: int
    digest: str

    @classmethod
    def parse(cls, text: str) -> PublishedHead:
        seq_text, sep, digest = text.partition(":")
        digest = digest.lower()
        if (
            not sep
            or not seq_text.isdecimal()
            or len(seq_text) > 12
            or len(digest) != 64
            or any(c not in "0123456789abcdef" for c in digest)
        ):
            raise ValueError("expected SEQ:SHA256, e.g. 57:<64 hex digits>")
        return cls(int(seq_text), digest)


@dataclass
class VerifyResult:
    path: str
    events: int = 0
    head: ChainHead = field(default_factory=ChainHead)
    problem: LogDamagedError | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None


def verify_log(
    path: str | os.PathLike[str],
    *,
    published: PublishedHead | None = None,
    checks: tuple[EventCheck, ...] = (),
) -> VerifyResult:
    """Read the whole log and report its first problem, if any."""
    name = os.fspath(path)
    result = VerifyResult(path=name)
    head = result.head
    successor_prev: str | None = None
    try:
        for line, event in read_log(name, head=head):
            result.events = line
            if published is not None and event.seq == published.seq + 1:
                successor_prev = event.prev
            for check in checks:
                check(line, event)
    except LogDamagedError as exc:
        result.problem = exc
        return result
    if published is not None:
        result.problem = _check_published(name, head, published, successor_prev)
    return result


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
