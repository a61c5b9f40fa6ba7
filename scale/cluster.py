"""Dask, and only Dask: a client on an embedded local cluster (processes, nothing to start)
or on a scheduler at ``tcp://HOST:PORT``, and ``OnDask`` that maps a pure function over
argument tuples, yielding results as tasks finish (failed tasks are retried on another
worker). Imported only by ``batch`` and ``sim``: a missing extra is one line naming it."""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from fightlog.errors import InputError, MissingExtra

CONNECT_SECONDS = 5
RETRIES = 3
"""Times a task is run again after its worker died."""
IN_FLIGHT = 4
"""Tasks submitted ahead per worker."""
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}
"""What the local cluster's workers are started with. Dask's statistical profiler keeps a
second-by-second history of what each worker ran, for an hour: a worker's memory then grows
with the length of the run (measured: 79 MiB after 2,000 fights, 86 MiB after 20,000), which
a long ``sim`` cannot afford; without it the peak is flat (77 MiB after either).
docs/scale.md starts the workers of a cluster of one's own the same way."""

T = TypeVar("T")


def require(command: str = "this command") -> None:
    """``MissingExtra`` naming the extra when Dask or pyarrow is not installed. (distributed's
    ``Client``, ``LocalCluster`` and ``as_completed`` are unannotated and pyarrow ships no
    type information: the ``type: ignore`` comments here and in ``dataset`` say so.)"""
    try:
        import distributed  # noqa: F401
        import pyarrow  # type: ignore[import-untyped]  # noqa: F401
    except ImportError as exc:
        raise MissingExtra(f"{command} runs on Dask, which needs fightlog's scale extra ({exc.name} is not "
                           "installed): python -m pip install '.[scale]' in its checkout") from None


def default_workers() -> int:
    """Local workers by default: one per core this process may use."""
    return max(1, len(os.sched_getaffinity(0)))


@contextmanager
def client(scheduler: str | None, workers: int | None) -> Iterator[OnDask]:
    """A Dask client: on ``scheduler`` (``tcp://HOST:PORT``; ``InputError`` if it does not
    answer within ``CONNECT_SECONDS``) or on a local cluster of ``workers`` processes (one
    thread each), closed after."""
    require()
    from distributed import Client

    # CRITICAL: a scheduler lost mid-run is logged at ERROR with its traceback before the run
    # fails; it reaches the user as one line (below), a failed task as its own error
    for name in ["distributed", *(n for n in logging.root.manager.loggerDict if n.startswith("distributed."))]:
        logging.getLogger(name).setLevel(logging.CRITICAL)  # Dask's config sets some children's levels itself
    if scheduler is not None:
        try:
            remote = Client(scheduler, timeout=CONNECT_SECONDS)  # type: ignore[no-untyped-call]
        except ValueError as exc:
            raise InputError(f"not a scheduler address (tcp://HOST:PORT): {exc}", path=scheduler) from None
        except (OSError, TimeoutError) as exc:
            raise InputError(f"the scheduler does not answer: {type(exc).__name__}: {exc}", path=scheduler) from None
        try:
            yield OnDask(remote)
        except _lost() as exc:
            raise InputError(f"the scheduler stopped answering during the run ({type(exc).__name__}): nothing was "
                             "written; run it again once it is back", path=scheduler) from None
        finally:
            remote.close()  # type: ignore[no-untyped-call]
        return
    with local_cluster(workers or default_workers()) as cluster:
        local = Client(cluster)  # type: ignore[no-untyped-call]
        try:
            yield OnDask(local)
        finally:
            local.close()  # type: ignore[no-untyped-call]


def _lost() -> tuple[type[BaseException], ...]:
    """What a run on a scheduler raises when the scheduler goes away: its tasks cancelled, the
    connection closed, the client closed after failing to reconnect."""
    from concurrent.futures import CancelledError

    from distributed.client import ClosedClientError
    from distributed.comm.core import CommClosedError

    return (CancelledError, ClosedClientError, CommClosedError)


@contextmanager
def local_cluster(workers: int) -> Iterator[Any]:
    """An embedded cluster of ``workers`` single-threaded worker processes on 127.0.0.1
    (``WORKER_CONFIG``), closed after."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(WORKER_CONFIG):  # a worker's nanny takes the configuration when made
        cluster = LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            # CRITICAL: a worker's heartbeat racing the scheduler's close logs an ERROR with its
            # traceback on the user's terminal (seen once in CI, 2026-11-28); a task that fails
            # reaches the client as its error, and a worker lost as ``KilledWorker``, either way
            dashboard_address=":0", silence_logs=logging.CRITICAL,
        )
    try:
        yield cluster
    finally:
        cluster.close()


class OnDask:
    """Tasks on a Dask client (``fightlog.scale.jobs.Runner``): each submitted with
    ``RETRIES`` retries (a worker that dies mid-run: its tasks run again elsewhere, and
    being pure give the same result), results as they finish."""

    def __init__(self, dask: Any) -> None:
        self.dask = dask

    @property
    def workers(self) -> int:
        """The workers the scheduler has now (at least 1)."""
        return max(1, len(self.dask.scheduler_info().get("workers", {})))

    def map(self, function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
            done: Callable[[int, int], None] | None = None, shared: tuple[Any, ...] = ()) -> Iterator[T]:
        """Submitted a few at a time (``IN_FLIGHT`` per worker): the client holds that many
        tasks, however many there are. ``shared`` goes to the cluster once, as the results
        of tasks that return them (``_given``: a worker that loses one makes it again), and
        each task names those results: a task's message is then its own arguments only.
        (Sent with every task, a run's setup of about 15 KB was held by the scheduler in
        its log of the last 1,000 messages to each worker: the client's memory grew by
        31 MiB from 10,000 fights to 1,000,000.)"""
        held = [self.dask.submit(_given, value, pure=False) for value in shared]
        try:
            yield from self._map(function, arguments, done, tuple(held))
        finally:
            for future in held:
                future.release()

    def _map(self, function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
             done: Callable[[int, int], None] | None, held: tuple[Any, ...]) -> Iterator[T]:
        from distributed import as_completed

        pending = iter(arguments)
        running: Any = as_completed()  # type: ignore[no-untyped-call]
        for args in itertools.islice(pending, IN_FLIGHT * self.workers):
            running.add(self._submit(function, (*held, *args)))
        finished = 0
        for future in running:
            result: T = future.result()
            future.release()
            following = next(pending, None)
            if following is not None:
                running.add(self._submit(function, (*held, *following)))
            finished += 1
            if done is not None:
                done(finished, len(arguments))
            yield result

    def _submit(self, function: Callable[..., T], args: tuple[Any, ...]) -> Any:
        return self.dask.submit(function, *args, retries=RETRIES, pure=False)


def _given(value: T) -> T:
    """``value``: the task that puts a shared argument on the cluster."""
    return value
