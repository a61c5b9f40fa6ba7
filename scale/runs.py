"""A simulated run cut into chunks: ``play_chunk`` plays fights ``start``..``stop - 1`` and
tallies them (what one Dask task does: a task per fight would be far too fine), auditing
every ``audit_every``-th fight; ``chunks`` cuts ``0..fights`` into ranges."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar, overload

from fightlog.scale.fights import fight_summary, policy_of
from fightlog.scale.setup import Setup
from fightlog.scale.tally import Tally

CHUNK_MAX = 500
"""At most this many fights per task (a task's result is small; the client merges as they
come, so memory stays flat in the number of fights)."""


T = TypeVar("T")


class Indexed(Sequence[T]):
    """A sequence computed item by item (``item(i)``), never held whole: the tasks of a run
    of a billion fights cost no memory until they are submitted."""

    def __init__(self, length: int, item: Callable[[int], T]) -> None:
        self._length = length
        self._item = item

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...

    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._length))]
        if not -self._length <= index < self._length:
            raise IndexError(index)
        return self._item(index % self._length)

    def __iter__(self) -> Iterator[T]:
        return (self._item(i) for i in range(self._length))


def chunks(fights: int, workers: int, largest: int = CHUNK_MAX) -> Indexed[tuple[int, int]]:
    """``0..fights`` cut into ranges, about eight per worker, none over ``largest``."""
    size = max(1, min(largest, -(-fights // max(1, workers * 8))))
    return Indexed(-(-fights // size), lambda i: (i * size, min((i + 1) * size, fights)))


def audited(index: int, audit_every: int) -> bool:
    """Whether fight ``index`` is one the run audits (every ``audit_every``-th, from 0; never
    for 0)."""
    return audit_every > 0 and index % audit_every == 0


def play_chunk(setup: Setup, master: str, start: int, stop: int, audit_every: int) -> Tally:
    """Fights ``start``..``stop - 1`` of the run, tallied."""
    policy = policy_of(setup)
    tally = Tally()
    for index in range(start, stop):
        tally.add(fight_summary(setup, master, index, audit=audited(index, audit_every), policy=policy))
    return tally
