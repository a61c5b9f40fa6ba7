"""Measuring helpers for the bench scripts: best-of-N timing, a child's peak memory, and
which build of fightlog is measured."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Sequence


def best_time(run: Callable[[], object], repeat: int) -> float:
    """The fastest of ``repeat`` runs, in seconds (the least disturbed by a noisy machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def command_time(argv: Sequence[str], repeat: int) -> float:
    """Best wall time of running ``argv`` as a child process.

    Runs once first with bytecode writing on, so that every module is timed loading from
    its cached bytecode, as on any real install (``PYTHONDONTWRITEBYTECODE`` would otherwise
    make our modules compile from source on every start while site-packages have .pyc files).
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(argv, check=False, capture_output=True, env=env)
    return best_time(lambda: subprocess.run(argv, check=False, capture_output=True, env=env), repeat)


def peak_rss_kib(argv: Sequence[str]) -> int:
    """Peak resident memory (KiB) of one child process running ``argv``."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return int(usage.ru_maxrss)


def build_measured() -> str:
    """Which build of fightlog is imported: compiled by mypyc (a wheel, ``setup.py``) or pure
    Python (an editable install, or ``FIGHTLOG_PURE=1``), and from where."""
    import fightlog.reducers.fold as fold_module

    where = fold_module.__file__ or "?"
    kind = "compiled (mypyc)" if where.endswith((".so", ".pyd")) else "pure Python"
    return f"{kind}, from {os.path.dirname(os.path.dirname(where))}"
