"""The two jobs, on a ``Runner`` (a Dask client, or this process): ``batch_audit`` (logs in
chunks to ``audit_chunk``, rows streamed into the output, unchanged logs carried over) and
``simulate`` (fights in chunks to ``play_chunk``, tallies merged as they come). Results do
not depend on how many workers there are or in which order tasks finish."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from fightlog.scale.batch import Chunk, audit_chunk
from fightlog.scale.runs import Indexed, chunks, play_chunk
from fightlog.scale.setup import Setup
from fightlog.scale.tally import Tally

LOGS_PER_TASK = 64
"""At most this many logs per task."""

Progress = Callable[[int, int], None]
T = TypeVar("T")


class Runner(Protocol):
    """Where tasks run: ``fightlog.scale.cluster.OnDask`` (a Dask client), or ``Serial``
    (this process, one task after the other: tests, and the baseline of the bench)."""

    @property
    def workers(self) -> int: ...

    def map(self, function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
            done: Progress | None = None, shared: tuple[Any, ...] = ()) -> Iterator[T]:
        """``function(*shared, *args)`` for each argument tuple; results as they finish, in
        any order. ``shared`` is the same for every task (a run's setup): sent once."""
        ...


class Serial:
    """Every task in this process, in order (``Runner``)."""

    workers = 1

    def map(self, function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
            done: Progress | None = None, shared: tuple[Any, ...] = ()) -> Iterator[T]:
        for finished, args in enumerate(arguments, 1):
            yield function(*shared, *args)
            if done is not None:
                done(finished, len(arguments))


def batch_audit(runner: Runner, logs: list[str], out: str, *, full: bool = False,
                done: Progress | None = None) -> dict[str, Any]:
    """Audit ``logs`` into the output directory ``out`` (``fightlog.scale.dataset``): the
    tasks audit only the logs whose key changed since the manifest (all, with ``full``), and
    the rows of the others are carried over. The summary, as data."""
    from fightlog.scale.dataset import Writer, read_manifest

    before = {} if full else read_manifest(out)
    writer = Writer(out)
    unchanged: dict[str, str] = {}
    try:
        size = max(1, min(LOGS_PER_TASK, -(-len(logs) // max(1, runner.workers * 8))))
        parts = [(part, {p: before[p] for p in part if p in before})
                 for part in (logs[i:i + size] for i in range(0, len(logs), size))]
        # written in the parts' order, whatever order the tasks finish in: the same archive gives
        # the same files, byte for byte, on one worker or many (a part waits for those before it)
        first = {part[0]: index for index, (part, _) in enumerate(parts) if part}
        waiting: dict[int, Chunk] = {}
        written = 0
        for chunk in runner.map(audit_chunk, parts, done):
            waiting[next(first[p] for p in (*chunk.keys, *chunk.unchanged) if p in first)] = chunk
            while written in waiting:
                ready = waiting.pop(written)
                writer.add(ready.logs, ready.findings, ready.keys)
                unchanged.update((p, before[p]) for p in ready.unchanged)
                written += 1
        writer.carry(unchanged)
        writer.commit()
    except BaseException:
        writer.abandon()
        raise
    return writer.summary.as_data()


def simulate(runner: Runner, setup: Setup, master: str, fights: int, *, audit_every: int,
             done: Progress | None = None) -> Tally:
    """Fights ``0..fights - 1`` of ``setup`` under ``master``, tallied."""
    ranges = chunks(fights, runner.workers)
    parts = Indexed(len(ranges), lambda i: (master, *ranges[i], audit_every))
    total = Tally()
    for tally in runner.map(play_chunk, parts, done, shared=(setup,)):
        total = total.merge(tally)
    return total
