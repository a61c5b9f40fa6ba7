"""The commands as a user runs them, on engine fights of growing length (issue 20): the cost
table, and the streaming figures of ``replay`` and ``verify --dice``.

    python bench/bench_commands.py [--sizes 10000,100000,1000000] [--rounds 3]

Every command runs as a child process on the fights of ``bench/long_fight.py`` (its seed is
revealed at the end), output to /dev/null, through the memory launcher (``memory.py``: wall
time and the command's own peak memory in one run). At each size, all the commands run once
a round, interleaved (``measure.interleaved``), ``--rounds`` rounds at 1M events and at least
seven below; a 1k-event fight is measured the same way.

1. The cost table: microseconds per event of ``verify``, ``verify --dice``, ``state
   --no-cache``, ``audit`` and ``replay`` at each size, counted past the fixed cost (start-up
   and the first events: the same command's median time on the 1k-event fight), so a
   command that grows linearly shows the same figure at every size.
2. ``replay`` throughput against ``state --no-cache`` on the same log (target >= 0.5x), for
   the text and for ``--format json`` (against ``state --no-cache --format json``), at the
   largest size; its peak memory at the largest size against the 1k fight (target <= 1.1x).
3. ``verify --dice`` throughput against ``verify`` (target >= 0.5x), and its peak memory at
   the largest size against the 1k fight (target <= 1.1x).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import cost, events_label, figure, mib, rate  # noqa: E402
from long_fight import OUT, fight_path, write_fight  # noqa: E402
from measure import Rounds, Spread, build_measured, command, fightlog_script, interleaved  # noqa: E402
from memory import Run  # noqa: E402

SMALL = 1000

COMMANDS: dict[str, list[str]] = {
    "verify": ["verify"],
    "verify --dice": ["verify", "--dice"],
    "state --no-cache": ["state", "--no-cache"],
    "state --no-cache --format json": ["state", "--no-cache", "--format", "json"],
    "audit": ["audit"],
    "replay": ["replay"],
    "replay --format json": ["replay", "--format", "json"],
}
"""What each size runs: label -> arguments before the log."""

COSTED = ("verify", "verify --dice", "state --no-cache", "audit", "replay")
"""The commands of the cost table."""


def measure(path: str, rounds: int, warm: bool = False) -> Rounds:
    """Every command on ``path``, interleaved; ``warm``: each run once first (cached bytecode)."""
    fightlog = fightlog_script()
    runs: dict[str, Callable[[], Run]] = {
        label: command([fightlog, *args, path]) for label, args in COMMANDS.items()
    }
    if warm:
        for run in runs.values():
            run()
    return interleaved(runs, rounds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10000,100000,1000000", help="fight lengths, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    small = measure(write_fight(fight_path(SMALL), SMALL), max(args.rounds, 5), warm=True)
    fixed = {label: small.median(label) for label in COMMANDS}
    print("fixed cost (1k events): " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in fixed.items()))
    measured: dict[int, Rounds] = {}
    for n in sizes:
        count = args.rounds if n >= 1_000_000 else max(args.rounds, 7)  # start-up's noise weighs on few events
        rounds = measured[n] = measure(write_fight(fight_path(n), n), count)
        for label in COSTED:
            per_event = [(t - fixed[label]) / (n - SMALL) * 1e6 for t in rounds.seconds[label]]
            cost(label, n, Spread.of(per_event), rounds.load, count)

    n = sizes[-1]
    big, size, count = measured[n], events_label(n), len(measured[n].seconds["verify"])
    pairs = (("replay", "state --no-cache"), ("replay --format json", "state --no-cache --format json"),
             ("verify --dice", "verify"))
    for ours, base in pairs:
        figure(
            f"`fightlog {ours}` throughput, {size}-event engine fight",
            f"`fightlog {base}` on the same log, {rate(n, big.median(base), 'events/s')}",
            rate(n, big.median(ours), "events/s"), big.ratio(base, ours), ">= 0.5", big.load, count,
        )
    for label in ("replay", "replay --format json", "verify --dice"):
        ratio = Spread.of([peak / statistics.median(small.peaks(label)) for peak in big.peaks(label)])
        figure(
            f"peak RSS of `fightlog {label}`, {size} vs 1k events", f"the same on 1k events, {mib(small.peak(label))}",
            mib(big.peak(label)), ratio, "<= 1.1", big.load, count,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
