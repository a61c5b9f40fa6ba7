"""Measuring helpers for the bench scripts: a baseline and what it is compared with run
interleaved, round by round, and their ratio reported as the median of the rounds' ratios
with its range; and which build of fightlog is measured.

Never best-of-N of one side and then of the other: a change of load between the two would
move the ratio either way. Each round runs every entry once, in the given order on even
rounds and in reverse on odd ones, so both sides see the same machine, and neither always
runs first (warm caches, a frequency step). The machine's load during the rounds is read
alongside (``load.py``); a command's peak memory is read from the command alone
(``memory.py``).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from load import Load, LoadWatch
from memory import Run, run_command


@dataclass(frozen=True)
class Spread:
    """The median of some per-round values, and their range."""

    median: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        return cls(statistics.median(values), min(values), max(values))

    def __str__(self) -> str:
        return f"{self.median:.2f}x ({self.low:.2f}-{self.high:.2f})"


@dataclass(frozen=True)
class Rounds:
    """What ``interleaved`` measured: seconds (and results) of each entry, round by round."""

    seconds: dict[str, list[float]]
    results: dict[str, list[object]]
    load: Load

    def median(self, name: str) -> float:
        return statistics.median(self.seconds[name])

    def ratio(self, numerator: str, denominator: str) -> Spread:
        """Per round, ``numerator``'s seconds / ``denominator``'s: the throughput of
        ``denominator`` against ``numerator`` (or a time ratio, read the other way)."""
        pairs = zip(self.seconds[numerator], self.seconds[denominator])
        return Spread.of([a / b for a, b in pairs])

    def peaks(self, name: str) -> list[int]:
        """Peak memory (KiB) of each round's run of a command entry."""
        return [r.peak_kib for r in self.results[name] if isinstance(r, Run)]

    def peak(self, name: str) -> float:
        """Median peak memory (KiB) of a command entry."""
        return statistics.median(self.peaks(name))

    def peak_ratio(self, numerator: str, denominator: str) -> Spread:
        return Spread.of([a / b for a, b in zip(self.peaks(numerator), self.peaks(denominator))])


def interleaved(
    runs: Mapping[str, Callable[[], object]], rounds: int, during: AbstractContextManager[object] | None = None
) -> Rounds:
    """Run every entry once a round for ``rounds`` rounds, alternating the order.

    An entry returning a ``memory.Run`` (a command) is timed by that run's own clock.
    ``during`` is entered before the first round and left after the last (a deliberate load,
    counted as the bench's own in the load reading once it is reaped)."""
    names = list(runs)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    results: dict[str, list[object]] = {name: [] for name in names}
    watch = LoadWatch()
    with during if during is not None else nullcontext():
        for n in range(max(1, rounds)):
            for name in names if n % 2 == 0 else reversed(names):
                start = time.perf_counter()
                result = runs[name]()
                took = time.perf_counter() - start
                seconds[name].append(result.seconds if isinstance(result, Run) else took)
                results[name].append(result)
    return Rounds(seconds, results, watch.load())


def bench_env(**extra: str) -> dict[str, str]:
    """The environment for timed commands: this one, with bytecode writing on.

    This session's environment may set ``PYTHONDONTWRITEBYTECODE``, which would make our
    modules compile from source on every start while site-packages have .pyc files."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def command(argv: Sequence[str], env: Mapping[str, str] | None = None, ok: Sequence[int] = (0,)) -> Callable[[], Run]:
    """An entry for ``interleaved``: one run of ``argv`` (wall time and peak memory). Run it
    once before the rounds, so every module loads from its cached bytecode."""
    chosen = bench_env() if env is None else env
    return lambda: run_command(argv, env=chosen, ok=ok)


def fightlog_script() -> str:
    """The console script installed beside this interpreter (not a pyenv shim on PATH)."""
    return os.path.join(os.path.dirname(sys.executable), "fightlog")


def build_measured() -> str:
    """Which build of fightlog is imported: compiled by mypyc (a wheel, ``setup.py``) or pure
    Python (an editable install, or ``FIGHTLOG_PURE=1``), and from where."""
    import fightlog.reducers.fold as fold_module

    where = fold_module.__file__ or "?"
    kind = "compiled (mypyc)" if where.endswith((".so", ".pyd")) else "pure Python"
    return f"{kind}, from {os.path.dirname(os.path.dirname(where))}"


def build_kind() -> str:
    """``compiled`` or ``pure``: the short name of ``build_measured()``."""
    return "compiled" if build_measured().startswith("compiled") else "pure"
