"""``fightlog report`` on a long engine fight (issue 27): its time against ``fightlog
replay`` on the same log (target under 2x), the page's size (target under 5 MB), and its
peak memory beside replay's.

    python bench/bench_report.py [--events 10000] [--rounds 5]

Both commands run as child processes on ``bench/long_fight.py``'s fight (its seed revealed
at the end), through the memory launcher (``memory.py``: wall time and the command's own
peak memory in one run), interleaved a round at a time (``measure.interleaved``); replay's
output goes to /dev/null, the page to ``bench/out/``.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import events_label, figure, mib  # noqa: E402
from long_fight import OUT, fight_path, write_fight  # noqa: E402
from measure import Spread, build_measured, command, fightlog_script, interleaved  # noqa: E402

TARGET_MB = 5.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    n = args.events
    log = write_fight(fight_path(n), n)
    page = os.path.join(OUT, f"report-{n}.html")
    fightlog = fightlog_script()
    runs = {
        "replay": command([fightlog, "replay", log]),
        "report": command([fightlog, "report", log, "-o", page, "--force"]),
    }
    for run in runs.values():  # once first: every module from its cached bytecode
        run()
    rounds = interleaved(runs, args.rounds)
    size = events_label(n)
    figure(
        f"`fightlog report` time, {size}-event engine fight",
        f"`fightlog replay` on the same log, {rounds.median('replay'):.2f} s",
        f"{rounds.median('report'):.2f} s", rounds.ratio("report", "replay"), "<= 2", rounds.load, args.rounds,
    )
    megabytes = os.path.getsize(page) / 1e6
    figure(
        f"size of the page of a {size}-event engine fight (MB)", f"the target, {TARGET_MB:g} MB",
        f"{megabytes:.2f} MB", Spread.of([megabytes]), f"<= {TARGET_MB:g}", rounds.load, 1, unit="",
    )
    figure(
        f"peak RSS of `fightlog report`, {size}-event engine fight",
        f"`fightlog replay` on the same log, {mib(rounds.peak('replay'))}",
        mib(rounds.peak("report")), rounds.peak_ratio("report", "replay"), "", rounds.load, args.rounds,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
