"""The crash report: what an unexpected exception leaves behind for a bug report.

The user sees one line (``fightlog: internal error: ...; details in FILE``); FILE holds the
fightlog and Python versions, the command line and the traceback. It goes to
``$XDG_CACHE_HOME/fightlog/`` (``~/.cache/fightlog/`` by default), else the temporary
directory.
"""

from __future__ import annotations

import os
import platform
import shlex
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence

from fightlog import __version__


def crash_dirs() -> list[str]:
    """Where a crash report may go, in order of preference."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [os.path.join(cache, "fightlog"), tempfile.gettempdir()]


def report_text(exc: BaseException, argv: Sequence[str]) -> str:
    """The report: versions, the command line, the traceback."""
    lines = [
        f"fightlog {__version__}",
        f"python {platform.python_version()} ({sys.executable}) on {platform.platform()}",
        f"command: {shlex.join(['fightlog', *argv])}",
        f"time: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}",
        "",
        *traceback.format_exception(exc),
    ]
    return "\n".join(line.rstrip("\n") for line in lines) + "\n"


def write_crash_report(exc: BaseException, argv: Sequence[str]) -> str | None:
    """Write the report of ``exc`` to a new file; its path, or ``None`` if nowhere would take it."""
    text = report_text(exc, argv)
    prefix = f"crash-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{os.getpid()}-"
    for directory in crash_dirs():
        try:
            os.makedirs(directory, mode=0o700, exist_ok=True)
            fd, path = tempfile.mkstemp(prefix=prefix, suffix=".txt", dir=directory)  # mode 0600
            with os.fdopen(fd, "w", encoding="utf-8", errors="replace") as handle:
                handle.write(text)
            return path
        except OSError:
            continue
    return None
