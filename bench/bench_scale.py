"""Benchmark of ``fightlog batch audit`` and ``fightlog sim`` on Dask (issue 28), as same-run
ratios.

    python bench/bench_scale.py [--logs 10000] [--fights 4000] [--memory 10000,1000000] [--rounds 3]

1. batch audit of ``--logs`` fixture-sized logs (the bundled engine and hand-run fights of
   the four rulesets, copied round-robin into ``bench/out/batch-logs/``) on a local cluster
   of 2 workers, Parquet written, against one process auditing the same logs in a loop
   (``audit_one`` each, in-process: no interpreter start-up per log); target >= 1.6x.
2. sim: fights per second of ``--fights`` fights (``alley-duel.toml``, no sampled audit) on a
   local cluster of 1 worker against a bare in-process loop that plays the same fights
   through the table API (``fights.play``) without Dask; target >= 0.8x. And 2 workers
   against 1; target >= 1.6x.
3. peak memory of the ``fightlog sim`` client (read by the launcher of ``memory.py``: the
   command's process; its Dask workers, started by nanny processes, are not in that reading)
   on the larger ``--memory`` count of fights against the smaller; target <= 1.2x. And each
   worker's own peak (``VmHWM`` asked of the workers
   of a fresh cluster after each run; its load reading may count those workers as others).
4. fights per second on one core for each ruleset (in-process, no Dask), and the projected
   wall time of 10 million fights on 64 cores (printed, no target).

The clusters are started before the rounds and kept (their start-up, about 2 s, is not in
the figures). The load beside each figure leaves out the CPU time of the bench's own Dask
workers, which are alive during the rounds (read with psutil, which distributed depends on).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import figure, mib  # noqa: E402
from load import Load, LoadWatch  # noqa: E402
from measure import Rounds, Spread, build_measured, command, fightlog_script, interleaved  # noqa: E402

import psutil  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

from fightlog.scale.batch import audit_one, find_logs  # noqa: E402
from fightlog.scale.cluster import OnDask  # noqa: E402
from fightlog.scale.fights import play  # noqa: E402
from fightlog.scale.jobs import batch_audit, simulate  # noqa: E402
from fightlog.scale.runs import play_chunk  # noqa: E402
from fightlog.scale.seeds import fight_seed, master_seed  # noqa: E402
from fightlog.scale.setup import load_setup  # noqa: E402

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "out"
FIXTURES = ROOT / "fixtures"
SCENARIO = FIXTURES / "roe7" / "scenarios" / "alley-duel.toml"
PER_RULESET = {
    "roe7": FIXTURES / "roe7" / "scenarios" / "alley-duel.toml",
    "d20-evasion": FIXTURES / "d20-evasion" / "scenarios" / "ashfall-duel.toml",
    "traveller": FIXTURES / "traveller" / "scenarios" / "knives-in-the-galley.toml",
    "en51": FIXTURES / "en51" / "scenarios" / "tavern-melee.toml",
}
MASTER = master_seed(7)


def archive(count: int) -> list[str]:
    """``count`` logs copied round-robin from the bundled ones (made once, reused)."""
    folder = OUT / f"batch-logs-{count}"
    sources = [p for p in find_logs([str(FIXTURES)]) if "/import/" not in p]
    if not folder.is_dir() or len(list(folder.iterdir())) != count:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for n in range(count):
            shutil.copy(sources[n % len(sources)], folder / f"{n:06d}-{Path(sources[n % len(sources)]).name}")
    return find_logs([str(folder)])


@contextmanager
def cluster(workers: int) -> Iterator[OnDask]:
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as local, Client(local) as client:
        client.wait_for_workers(workers)
        yield OnDask(client)


def _maxrss() -> int:
    """This process's peak resident set (KiB) since its ``exec``: ``VmHWM``, not
    ``ru_maxrss``, which a worker inherits from the bench process that forked it (Linux keeps
    it across ``exec``; ``memory.py``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise RuntimeError("no VmHWM in /proc/self/status")


def worker_peaks(setup: object, fights: int) -> list[int]:
    """The peak RSS (KiB) of each worker of a fresh 2-worker cluster after ``fights`` fights
    (sorted, so the ratio pairs the smaller with the smaller)."""
    with cluster(2) as runner:
        simulate(runner, setup, MASTER, fights, audit_every=1000)  # type: ignore[arg-type]
        return sorted(runner.dask.run(_maxrss).values())


def rounds_without_workers(runs: dict[str, Callable[[], object]], count: int) -> Rounds:
    """``interleaved``, with the CPU time of this process's live descendants (the Dask
    workers) taken out of the load's 'others' (they are the bench's own)."""
    me = psutil.Process()

    def descendants() -> float:
        total = 0.0
        for child in me.children(recursive=True):
            try:
                times = child.cpu_times()
                total += times.user + times.system
            except psutil.Error:
                pass
        return total

    before, start = descendants(), time.monotonic()
    measured = interleaved(runs, count)
    wall = time.monotonic() - start
    ours = (descendants() - before) / (wall * (os.cpu_count() or 1))
    return Rounds(measured.seconds, measured.results, Load(measured.load.loadavg, max(0.0, measured.load.others - ours)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--logs", type=int, default=10_000)
    parser.add_argument("--fights", type=int, default=4000)
    parser.add_argument("--memory", default="10000,1000000", help="small,big: fights of the peak-memory figure")
    parser.add_argument("--per-ruleset", type=int, default=200, help="fights per ruleset for the per-core rates")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    OUT.mkdir(exist_ok=True)

    logs = archive(args.logs)
    setup = load_setup(str(SCENARIO))
    n = args.fights
    with cluster(1) as one, cluster(2) as two:
        batch = rounds_without_workers({
            "loop": lambda: [audit_one(p) for p in logs],
            "dask2": lambda: batch_audit(two, logs, str(OUT / "batch-findings"), full=True),
        }, args.rounds)
        figure(f"batch audit: {len(logs):,} fixture-sized logs on 2 local workers (Parquet written) vs one process in a loop",
               f"`audit_one` in a loop, {len(logs) / batch.median('loop'):.0f} logs/s",
               f"{len(logs) / batch.median('dask2'):.0f} logs/s", batch.ratio("loop", "dask2"), ">= 1.6", batch.load,
               args.rounds)
        sim = rounds_without_workers({
            "bare": lambda: [play(setup, fight_seed(MASTER, i)) for i in range(n)],
            "dask1": lambda: simulate(one, setup, MASTER, n, audit_every=0),
            "dask2": lambda: simulate(two, setup, MASTER, n, audit_every=0),
        }, args.rounds)
        figure(f"sim: fights/s of {n:,} fights on 1 local worker vs a bare in-process loop (table API, no Dask)",
               f"bare loop, {n / sim.median('bare'):.0f} fights/s", f"{n / sim.median('dask1'):.0f} fights/s",
               sim.ratio("bare", "dask1"), ">= 0.8", sim.load, args.rounds)
        figure(f"sim: fights/s of {n:,} fights on 2 local workers vs 1", f"1 worker, {n / sim.median('dask1'):.0f} fights/s",
               f"{n / sim.median('dask2'):.0f} fights/s", sim.ratio("dask1", "dask2"), ">= 1.6", sim.load, args.rounds)

    small, big = (int(x) for x in args.memory.split(","))
    base = [fightlog_script(), "sim", str(SCENARIO), "--seed", "7", "--workers", "2", "--audit-every", "1000",
            "--format", "json"]
    run_big, run_small = command([*base, "--fights", str(big)]), command([*base, "--fights", str(small)])
    run_small()
    memory = interleaved({"big": run_big, "small": run_small}, 1)
    figure(f"peak memory of the `fightlog sim` client process, {big:,} vs {small:,} fights",
           f"{small:,} fights, {mib(memory.peak('small'))}", mib(memory.peak("big")),
           memory.peak_ratio("big", "small"), "<= 1.2", memory.load, 1)

    watch = LoadWatch()
    peaks = {count: worker_peaks(setup, count) for count in (small, big)}
    during = watch.load()
    ratio = Spread.of([b / a for a, b in zip(peaks[small], peaks[big])])
    figure(f"peak memory of each of 2 Dask workers, {big:,} vs {small:,} fights",
           f"{small:,} fights, {' and '.join(mib(k) for k in peaks[small])}",
           " and ".join(mib(k) for k in peaks[big]), ratio, "<= 1.2", during, 1)

    for ruleset, source in PER_RULESET.items():
        each = load_setup(str(source))
        count = args.per_ruleset
        timing = interleaved({"play": lambda: play_chunk(each, MASTER, 0, count, 0)}, args.rounds)
        per_second = [count / s for s in timing.seconds["play"]]
        spread = Spread.of(per_second)
        figure(f"sim: {ruleset} fights per second on one core ({source.name}, in-process)",
               "none (a rate)", f"{spread.median:.0f} fights/s", spread, "", timing.load, args.rounds, unit="")
        hours = 10_000_000 / (spread.median * 64) / 3600
        print(f"PROJECTION {ruleset}: 10M fights on 64 cores at {spread.median:.0f} fights/s/core: {hours:.2f} h "
              f"(perfect scaling; the 2-worker figure above measures how far from it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
