"""The audit of one log: one pass that folds it and checks every event
(``fightlog.audit.one_pass``), run on one process (``fightlog.audit.one_process``) or, for a
large log, on two (``fightlog.audit.two_process``): ``audit_log`` chooses. The report, or the
error, is the same either way. ``audit_events`` audits a log held in memory.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager

from fightlog.audit.one_pass import Report
from fightlog.audit.one_process import audit_events, audit_sequential
from fightlog.audit.two_process import audit_parallel
from fightlog.events.forked import worth_forking
from fightlog.events.seeds import seed_hex

__all__ = ["PARALLEL_MIN_BYTES", "Report", "audit_events", "audit_log"]

PARALLEL_MIN_BYTES = 16 << 20
"""Logs smaller than this are audited in one process (forking would cost more than it saves)."""


def audit_log(
    path: str | os.PathLike[str],
    *,
    seed: int | str | None = None,
    workers: int | None = None,
    parallel_min_bytes: int | None = None,
) -> Report:
    """Audit the log at ``path`` (its chain checked as it is read: a damaged log raises
    ``LogDamagedError``, a log the fold cannot honour ``FoldError``).

    A log of ``parallel_min_bytes`` (default ``PARALLEL_MIN_BYTES``) or more is audited on
    two processes when ``workers`` (default: the cores this process may use) allows; the
    report, or the error, is the same. ``seed``: the scene's dice seed before it is revealed,
    as ``--seed`` takes it (``seed_hex``: an integer or 64 hex digits; ``DiceSeedError``).
    """
    name = os.fspath(path)
    hexed = None if seed is None else seed_hex(seed)
    with _collector_eased():
        if _parallel(name, workers, parallel_min_bytes):
            report = audit_parallel(name, hexed)
            if report is not None:
                return report
        return audit_sequential(name, hexed)


def _parallel(path: str, workers: int | None, parallel_min_bytes: int | None) -> bool:
    threshold = PARALLEL_MIN_BYTES if parallel_min_bytes is None else parallel_min_bytes
    return worth_forking(path, threshold, workers)


_YOUNG = 50_000
"""Allocations between two collections of the youngest generation during an audit."""


@contextmanager
def _collector_eased() -> Iterator[None]:
    """The cyclic garbage collector runs less often during an audit (and in its child, forked
    inside): the fold allocates and drops a few objects per event, none of them in a cycle,
    and at the default threshold (700) each collection walks the live state again. The
    previous thresholds are restored after."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], _YOUNG), before[1], before[2])
    try:
        yield
    finally:
        gc.set_threshold(*before)
