"""What a bench reports: each figure printed, and appended as one JSON line to the file named
by ``BENCH_FIGURES`` when it is set (``bench/run_all.py`` sets it, then writes the tables of
``bench/README.md`` from those lines).

A figure is a ratio against a baseline measured in the same rounds (``measure.interleaved``),
with its median and range, its target, the machine's load and the build measured. A cost is
microseconds per event of one command on one log size (the cost table).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
import datetime
from dataclasses import asdict, dataclass, field

from load import Load
from measure import Spread, build_kind, build_measured, command, interleaved


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")


@dataclass(frozen=True)
class Figure:
    bench: str
    name: str
    """What is measured, e.g. ``verify throughput, 1M events``."""
    baseline: str
    """The baseline and its value in the same rounds, e.g. ``bare decoding, 2.21M lines/s``."""
    measured: str
    """The measured side's own value, e.g. ``1.43M lines/s``."""
    median: float
    low: float
    high: float
    op: str
    """``>=``, ``<=``, or empty for a figure without a target."""
    target: float
    loadavg: float
    others: float
    build: str
    where: str
    rounds: int
    unit: str = "x"
    """``x`` for a ratio; empty for a count (``0`` lost events)."""
    when: str = field(default_factory=_now)
    """When it was measured (UTC, to the minute)."""
    kind: str = "figure"

    @property
    def met(self) -> bool | None:
        if not self.op:
            return None
        return self.median >= self.target if self.op == ">=" else self.median <= self.target


@dataclass(frozen=True)
class Cost:
    bench: str
    command: str
    events: int
    median: float
    """Microseconds per event (median of the rounds)."""
    low: float
    high: float
    loadavg: float
    others: float
    build: str
    where: str
    rounds: int
    when: str = field(default_factory=_now)
    kind: str = "cost"


def _bench() -> str:
    return os.path.splitext(os.path.basename(sys.argv[0]))[0]


def _save(record: Figure | Cost) -> None:
    out = os.environ.get("BENCH_FIGURES")
    if out:
        with open(out, "a") as f:
            f.write(json.dumps(asdict(record)) + "\n")


def figure(
    name: str, baseline: str, measured: str, ratio: Spread, target: str, load: Load, rounds: int, unit: str = "x"
) -> Figure:
    """Print and record one figure; ``target`` is like ``>= 0.5`` (or empty); ``unit`` is
    ``x`` for a ratio, empty for a count."""
    op, _, value = target.partition(" ")
    fig = Figure(
        _bench(), name, baseline, measured, ratio.median, ratio.low, ratio.high,
        op, float(value) if value else 0.0, load.loadavg, load.others,
        build_kind(), build_measured(), rounds, unit,
    )
    verdict = {True: "met", False: "MISSED", None: "no target"}[fig.met]
    aim = f"target {op} {value}{unit}, {verdict}" if op else verdict
    spread = f"{ratio.median:g}{unit} ({ratio.low:g}-{ratio.high:g})" if unit != "x" else str(ratio)
    print(f"FIGURE {name}: {spread} over {rounds} rounds ({aim}); {measured} vs {baseline}; {load}")
    _save(fig)
    return fig


def cost(command: str, events: int, us: Spread, load: Load, rounds: int) -> Cost:
    """Print and record one entry of the cost table: ``us`` in microseconds per event."""
    record = Cost(_bench(), command, events, us.median, us.low, us.high, load.loadavg, load.others,
                  build_kind(), build_measured(), rounds)
    print(f"COST {command} at {events:,} events: {us.median:.2f} us/event ({us.low:.2f}-{us.high:.2f}); {load}")
    _save(record)
    return record


def rate(count: int, seconds: float, unit: str = "lines/s") -> str:
    """``count`` items in ``seconds`` as a short rate: ``1.43M lines/s``, ``982k rolls/s``."""
    per = count / seconds
    return f"{per / 1e6:.2f}M {unit}" if per >= 1e6 else f"{per / 1e3:.0f}k {unit}"


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


def events_label(count: int) -> str:
    """``1M``, ``200k``, ``10``: a log's size for a figure's name."""
    if count >= 1_000_000 and count % 100_000 == 0:
        return f"{count / 1e6:g}M"
    return f"{count // 1000}k" if count >= 1000 and count % 1000 == 0 else str(count)


def peak_figure(name: str, baseline: str, big: Sequence[str], small: Sequence[str], target: str, rounds: int = 3) -> Figure:
    """Print and record the peak memory of the command ``big`` against that of ``small``, each
    read from the command alone, interleaved; ``baseline`` says what ``small`` is."""
    run_big, run_small = command(big), command(small)
    run_small()
    memory = interleaved({"big": run_big, "small": run_small}, rounds)
    return figure(name, f"{baseline}, {mib(memory.peak('small'))}", mib(memory.peak("big")),
                  memory.peak_ratio("big", "small"), target, memory.load, rounds)
