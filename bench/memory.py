"""Peak memory of a command, read from that command alone.

Linux reports a forked child's peak as at least its parent's size at the fork (the child's
copy of the parent's pages counts until ``exec``, and ``exec`` keeps that peak), so a child
forked from the bench process, once the bench has grown to 200 MB, "uses" 200 MB even for
``/bin/true``. So the command is started by a small launcher instead: ``/usr/bin/time -f %M``
when it is there, else a bare ``python -S`` that forks, ``exec``s the command and reports
its child's ``ru_maxrss``. The launcher forks while it is small (1-2 MB for ``time``, about
9 MB for the Python one), so that is the floor of a reading.

What is counted: the peak resident set of the command's process, or of any child it forked
and waited for (``verify`` and ``audit`` fork a checker), whichever is the highest. The
kernel reports the largest of them, not their sum: two processes of 30 MB at once read as
30 MB.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TIME = "/usr/bin/time"

_LAUNCHER = """
import os, sys
out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write(str(usage.ru_maxrss))
sys.exit(os.waitstatus_to_exitcode(status) & 255)
"""


@dataclass(frozen=True)
class Run:
    """One run of a command: its wall time (seconds, launcher included) and peak memory."""

    seconds: float
    peak_kib: int


def launcher(out: str) -> list[str]:
    """The argv prefix that runs a command and writes its peak RSS (KiB) to ``out``."""
    if os.access(TIME, os.X_OK):
        return [TIME, "-f", "%M", "-o", out]
    return [sys.executable, "-S", "-c", _LAUNCHER, out]


def run_command(
    argv: Sequence[str], *, env: Mapping[str, str] | None = None, ok: Sequence[int] = (0,)
) -> Run:
    """Run ``argv`` through the launcher, output to /dev/null; its wall time and peak memory.

    Exits the bench (with the command's stderr) if its exit status is not in ``ok``."""
    with tempfile.NamedTemporaryFile("r", prefix="peak-", suffix=".txt") as out:
        start = time.perf_counter()
        done = subprocess.run(
            [*launcher(out.name), *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
        )
        elapsed = time.perf_counter() - start
        lines = out.read().split()
    if done.returncode not in ok:
        message = done.stderr.decode(errors="replace").strip()[-2000:]
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}: {message}")
    if not lines or not lines[-1].isdigit():
        raise SystemExit(f"{' '.join(argv)}: the launcher reported no peak memory")
    return Run(elapsed, int(lines[-1]))


def peak_rss_kib(argv: Sequence[str], *, env: Mapping[str, str] | None = None) -> int:
    """Peak resident memory (KiB) of one run of ``argv`` (and the children it waits for)."""
    return run_command(argv, env=env).peak_kib
