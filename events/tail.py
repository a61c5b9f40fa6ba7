"""Hints read from the end of a log, before reading it from the start.

A finished fight keeps what a streaming reader wants to know up front in its last lines: the
last ``seq`` (how wide to print seq numbers, whether ``--to`` lies past the end) and the dice
seed ``scene_ended`` reveals (recompute each roll as it passes instead of holding them all).
These are **hints**: nothing here checks the chain, so a caller uses them only where a wrong
hint costs time or a second pass, never a wrong verdict.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import msgspec

from fightlog.errors import InputError
from fightlog.events.codec import DECODER
from fightlog.events.model import AnyEvent, SceneEnded
from fightlog.events.reader import open_log

TAIL_BYTES = 1 << 16
"""How much of the end of a log is read for hints."""


def tail_lines(path: str, limit: int = TAIL_BYTES) -> list[bytes]:
    """The complete lines among the log's last ``limit`` bytes, last first (empty when the
    log cannot be opened: the read that follows names the problem)."""
    try:
        with open_log(path) as stream:  # a log read from a pipe: its copy (events/piped.py)
            size = os.fstat(stream.fileno()).st_size
            stream.seek(max(0, size - limit))
            tail = stream.read(limit)
    except (OSError, InputError):
        return []
    lines = tail.split(b"\n")
    if size > limit:
        lines = lines[1:]  # the first may be cut
    return [line for line in reversed(lines) if line]


def _decoded(lines: list[bytes], needle: bytes | None = None) -> Iterator[AnyEvent]:
    for raw in lines:
        if needle is not None and needle not in raw:
            continue
        try:
            yield DECODER.decode(raw)
        except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            continue


def last_seq(path: str) -> int | None:
    """The ``seq`` of the log's last decodable line, or ``None``."""
    for event in _decoded(tail_lines(path)):
        return event.seq
    return None


def revealed_seed(path: str) -> str | None:
    """The seed the log's last ``scene_ended`` reveals, if it lies in the last 64 KiB."""
    return revealed_in(_decoded(tail_lines(path), b'"scene_ended"'))


def revealed_in(events: Iterator[AnyEvent] | list[AnyEvent]) -> str | None:
    """The seed of the first ``scene_ended`` revealing one in ``events``."""
    for event in events:
        if type(event) is SceneEnded and event.seed is not None:
            return event.seed
    return None
