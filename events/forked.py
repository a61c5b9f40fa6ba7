"""One function run in a forked child, its result handed back through a pipe.

For the commands that check a large log on two cores (``events/ranges.py``, ``verify
--dice``): a bare ``os.fork`` and a pipe, rather than ``multiprocessing`` and a process pool,
which would cost a command about 8 ms and 2 MB of imports (a jump in its peak memory at the
size where it starts to fork). The child runs the function, pickles what it returns (or the
exception it raised) into the pipe and leaves with ``os._exit``, so it never runs the
parent's exit handlers or flushes the parent's buffers twice.
"""

from __future__ import annotations

import os
import pickle
import signal
import time
from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def can_fork() -> bool:
    return hasattr(os, "fork")


def worth_forking(path: str, min_bytes: int, workers: int | None = None) -> bool:
    """Whether reading the log at ``path`` on two processes can pay: this process may fork
    and use two cores (``workers``, when given, says how many), and the log is a regular
    file of ``min_bytes`` or more (a pipe's copy, or a small log, is read in one)."""
    cores = workers if workers is not None else len(os.sched_getaffinity(0))
    if cores < 2 or not can_fork():
        return False
    try:
        return os.path.isfile(path) and os.path.getsize(path) >= max(min_bytes, 1)
    except OSError:
        return False


def idle_cores(window: float = 0.05) -> float:
    """How many of this machine's cores sat idle over the next ``window`` seconds (from
    ``/proc/stat``; the cores this process may use when that cannot be read). A command
    that would fork a helper does so only when a core is free for it: on a busy machine a
    second process only adds the work of splitting."""
    def busy_and_total() -> tuple[int, int]:
        with open("/proc/stat", "rb") as stat:
            fields = [int(f) for f in stat.readline().split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return sum(fields) - idle, sum(fields)

    try:
        busy0, total0 = busy_and_total()
        time.sleep(window)
        busy1, total1 = busy_and_total()
    except (OSError, ValueError, IndexError):
        return float(len(os.sched_getaffinity(0)))
    ticks = total1 - total0
    if ticks <= 0:
        return float(len(os.sched_getaffinity(0)))
    cores = os.cpu_count() or 1
    return cores * (1 - (busy1 - busy0) / ticks)


class ChildLost(RuntimeError):
    """The child ended without handing back a result (killed, out of memory)."""


class Forked(Generic[T]):
    """``func(*args)`` running in a forked child; ``result()`` waits for it."""

    def __init__(self, func: Callable[..., T], *args: Any) -> None:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child
            os.close(read)
            _run_child(write, func, args)
        os.close(write)
        self._pid: int | None = pid
        self._read = read

    def result(self) -> T:
        """What the function returned; what it raised is raised here."""
        with os.fdopen(self._read, "rb") as pipe:
            data = pipe.read()
        self._reap()
        if not data:
            raise ChildLost("a forked checker ended without a result")
        ok, value = pickle.loads(data)
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def kill(self) -> None:
        """Stop the child, if it still runs (its result is no longer wanted)."""
        if self._pid is None:
            return
        try:
            os.kill(self._pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.close(self._read)
        except OSError:
            pass
        self._reap()

    def _reap(self) -> None:
        if self._pid is not None:
            os.waitpid(self._pid, 0)
            self._pid = None


def _run_child(write: int, func: Callable[..., Any], args: tuple[Any, ...]) -> None:
    code = 0
    try:
        try:
            data = pickle.dumps((True, func(*args)))
        except BaseException as exc:  # handed to the parent, which raises it
            try:
                data = pickle.dumps((False, exc))
            except Exception:
                data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")))
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
    except BaseException:
        code = 1
    finally:
        os._exit(code)
