"""How busy the machine was while a figure was measured, so that a figure taken under load
is visibly so.

Two readings: the 1-minute load average just before the measurement (``/proc/loadavg``; it
counts the bench's own earlier work too), and the share of the machine's CPU time that other
processes used during it: all busy CPU time (``/proc/stat``, steal included) minus the bench
process's own and that of the children it waited for (``getrusage``), over wall time x CPUs.
A deliberate load the bench starts and reaps itself (the busy loop of ``bench_audit.py``)
counts as the bench's own.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass


def _busy_seconds() -> float:
    """CPU time the whole machine spent busy since boot (user, nice, system, irq, steal)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _own_seconds() -> float:
    self_, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return self_.ru_utime + self_.ru_stime + children.ru_utime + children.ru_stime


def loadavg() -> float:
    """The 1-minute load average (0.0 where ``/proc/loadavg`` is missing)."""
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except OSError:
        return 0.0


@dataclass(frozen=True)
class Load:
    loadavg: float
    """1-minute load average just before the measurement."""
    others: float
    """Share (0..1) of all CPUs' time that other processes used during the measurement."""

    def __str__(self) -> str:
        return f"load {self.loadavg:.2f}, others {self.others:.0%}"


class LoadWatch:
    """Started before a measurement, read after it: ``watch = LoadWatch(); ...; watch.load()``."""

    def __init__(self) -> None:
        self._avg = loadavg()
        self._busy, self._own, self._wall = _busy_seconds(), _own_seconds(), time.monotonic()

    def load(self) -> Load:
        wall = time.monotonic() - self._wall
        others = (_busy_seconds() - self._busy) - (_own_seconds() - self._own)
        share = max(0.0, others) / (wall * (os.cpu_count() or 1)) if wall > 0 else 0.0
        return Load(self._avg, min(1.0, share))


@contextmanager
def busy_core() -> Iterator[int | None]:
    """A busy loop pinned (``os.sched_setaffinity``) to the last CPU this process may run on,
    for the duration; yields that CPU, or None (and no loop) on a machine of one CPU."""
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) < 2:
        yield None
        return
    cpu = allowed[-1]
    loop = f"import os\nos.sched_setaffinity(0, {{{cpu}}})\nwhile True:\n    pass\n"
    proc = subprocess.Popen([sys.executable, "-S", "-c", loop])
    time.sleep(0.2)  # started and pinned
    try:
        yield cpu
    finally:
        proc.kill()
        proc.wait()
