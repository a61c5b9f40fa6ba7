"""Synthesizing long, realistic logs for benchmarks.

A log is the sample duel's opening followed by its three rounds repeated with increasing
round numbers, so every kind of line a real fight has appears in realistic proportions.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import msgspec

from fightlog.events.model import AnyEvent, RoundEnded, RoundStarted, TurnEnded, TurnStarted
from fightlog.events.store import FileStore
from fightlog.fixtures import sample_duel


def _opening_and_rounds() -> tuple[list[AnyEvent], list[AnyEvent]]:
    events = sample_duel.events()
    first_round = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted))
    return events[:first_round], events[first_round:-1]


def events(count: int) -> Iterator[AnyEvent]:
    """``count`` events: the opening, then rounds renumbered 1, 2, 3, ... (unsealed)."""
    opening, rounds = _opening_and_rounds()
    emitted = 0
    for event in opening:
        if emitted == count:
            return
        yield event
        emitted += 1
    block = 0
    while True:
        for event in rounds:
            if emitted == count:
                return
            if isinstance(event, (RoundStarted, RoundEnded, TurnStarted, TurnEnded)):
                event = msgspec.structs.replace(event, round=event.round + 3 * block)
            yield event
            emitted += 1
        block += 1


def write_log(path: str, count: int, *, batch: int = 10_000) -> str:
    """Write a ``count``-event log at ``path`` (reused if it is already there and complete)."""
    if os.path.exists(path):
        store = FileStore(path, fsync=False)
        if store.head()[0] == count:
            return path
        os.remove(path)
    store = FileStore(path, fsync=False)
    pending: list[AnyEvent] = []
    for event in events(count):
        pending.append(event)
        if len(pending) == batch:
            store.append(pending)
            pending = []
    store.append(pending)
    return path
