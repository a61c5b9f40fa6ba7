"""Dask, and only Dask: a client on an embedded local cluster (processes, nothing to start)
or on a scheduler at ``tcp://HOST:PORT``, and ``gather`` that maps a pure function over
argument tuples, yielding results as tasks finish (failed tasks are retried on another
worker). Imported only by ``batch`` and ``sim``: a missing extra is one line naming it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from fightlog.errors import InputError

EXTRA = "fightlog[scale]"
CONNECT_SECONDS = 10
RETRIES = 3
"""Times a task is run again after its worker died."""

T = TypeVar("T")


def require() -> None:
    """``InputError`` naming the extra when Dask or pyarrow is not installed."""
    try:
        import distributed  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError as exc:
        raise InputError(f"needs the scale extra ({exc.name} is not installed): pip install '{EXTRA}'") from None


def default_workers() -> int:
    """Local workers by default: one per core this process may use."""
    return max(1, len(os.sched_getaffinity(0)))


@contextmanager
def client(scheduler: str | None, workers: int | None) -> Iterator[Any]:
    """A Dask client: on ``scheduler`` (``tcp://HOST:PORT``; ``InputError`` if it does not
    answer within ``CONNECT_SECONDS``) or on a local cluster of ``workers`` processes (one
    thread each), closed after."""
    require()
    import logging

    from distributed import Client, LocalCluster

    logging.getLogger("distributed").setLevel(logging.ERROR)
    if scheduler is not None:
        try:
            remote = Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as exc:
            raise InputError(f"scheduler {scheduler} does not answer: {type(exc).__name__}: {exc}".rstrip(": "))\
                from None
        try:
            yield remote
        finally:
            remote.close()
        return
    cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                           host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
    local = Client(cluster)
    try:
        yield local
    finally:
        local.close()
        cluster.close()


def workers_of(dask: Any) -> int:
    """The workers the client's scheduler has now (at least 1)."""
    return max(1, len(dask.scheduler_info().get("workers", {})))


def gather(dask: Any, function: Callable[..., T], arguments: Sequence[tuple[Any, ...]],
           done: Callable[[int, int], None] | None = None) -> Iterator[T]:
    """``function(*args)`` for each argument tuple, on the cluster; results as they finish
    (in no set order: callers merge them so order does not matter), ``done(finished,
    total)`` after each."""
    from distributed import as_completed

    futures = [dask.submit(function, *args, retries=RETRIES, pure=False) for args in arguments]
    finished = 0
    for future in as_completed(futures):
        result: T = future.result()
        future.release()
        finished += 1
        if done is not None:
            done(finished, len(futures))
        yield result
