"""Benchmark of ``fightlog batch audit`` and ``fightlog sim`` on Dask (issue 28), as same-run
ratios.

    python bench/bench_scale.py [--logs 10000] [--fights 4000] [--memory 10000,1000000] [--rounds 3]
    python bench/bench_scale.py --only memory        # or: batch, sim, rates

1. batch audit of ``--logs`` fixture-sized logs (the bundled engine and hand-run fights of
   the four rulesets, copied round-robin into ``bench/out/batch-logs/``) on a local cluster
   of 2 workers, Parquet written, against one process auditing the same logs in a loop
   (``audit_one`` each, in-process: no interpreter start-up per log); target >= 1.6x.
2. sim: fights per second of ``--fights`` fights (``alley-duel.toml``, no sampled audit) on a
   local cluster of 1 worker against a bare in-process loop that plays the same fights
   through the table API (``fights.play``) without Dask; target >= 0.8x. And 2 workers
   against 1; target >= 1.6x.
3. peak memory, 1M simulated fights against 10k (``--memory``; ``--memory-scenario``, by
   default en51's ``tavern-melee.toml``, the fastest of the bundled rulesets, so the 1M run
   takes about 12 minutes): each run in a fresh process (``sim_memory.py``: the calls
   ``fightlog sim`` makes, on the embedded 2-worker cluster, a fight in 1,000 audited),
   each process reading its own ``VmHWM``: the client (the embedded scheduler lives in it)
   and each worker; target <= 1.2x for both.
4. fights per second on one core for each ruleset (in-process, no Dask), and the projected
   wall time of 10 million fights on 64 cores (printed, no target).

The clusters are ``fightlog.scale.cluster.local_cluster``'s, as the commands start them,
started before the rounds and kept (their start-up, about 2 s, is not in
the figures). The load beside each figure leaves out the CPU time of the bench's own Dask
workers, which are alive during the rounds (read with psutil, which distributed depends on).
"""

from __future__ import annotations

import argparse
import os
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import figure, mib  # noqa: E402
from load import Load, LoadWatch  # noqa: E402
from measure import Rounds, Spread, bench_env, build_measured, interleaved  # noqa: E402

import psutil  # noqa: E402
from distributed import Client  # noqa: E402

from fightlog.scale.batch import audit_one, find_logs  # noqa: E402
from fightlog.scale.cluster import OnDask, local_cluster  # noqa: E402
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
    "bleeding-sun": FIXTURES / "bleeding-sun" / "rosters" / "ash-market.toml",
}
MEMORY_SCENARIO = PER_RULESET["en51"]
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
    with local_cluster(workers) as local, Client(local) as client:
        client.wait_for_workers(workers)
        yield OnDask(client)


def sim_peaks(scenario: Path, fights: int) -> dict[str, object]:
    """``sim_memory.py``'s reading of one run of ``fights`` fights, in a fresh process."""
    done = subprocess.run([sys.executable, str(BENCH / "sim_memory.py"), str(scenario), str(fights)],
                          capture_output=True, text=True, env=bench_env())
    if done.returncode != 0:
        raise SystemExit(f"sim_memory.py {fights}: exit {done.returncode}: {done.stderr.strip()[-2000:]}")
    reading: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return reading


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
    parser.add_argument("--memory", default="10000,1000000", help="small,big: fights of the peak-memory figures")
    parser.add_argument("--memory-scenario", default=str(MEMORY_SCENARIO), help="the roster or scenario of those runs")
    parser.add_argument("--per-ruleset", type=int, default=200, help="fights per ruleset for the per-core rates")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="batch,sim,memory,rates", help="which figures, comma-separated")
    args = parser.parse_args()
    parts = set(args.only.split(","))
    print(f"build: {build_measured()}")
    OUT.mkdir(exist_ok=True)

    if parts & {"batch", "sim"}:
        throughput(args.logs if "batch" in parts else 0, args.fights if "sim" in parts else 0, args.rounds)
    if "memory" in parts:
        memory(args.memory, Path(args.memory_scenario))
    if "rates" in parts:
        rates(args.per_ruleset, args.rounds)
    return 0


def throughput(count: int, n: int, rounds: int) -> None:
    """The batch audit figure (``count`` logs; none if 0) and the sim figures (``n`` fights;
    none if 0), on clusters of 1 and 2 workers kept across the rounds."""
    setup = load_setup(str(SCENARIO))
    with cluster(1) as one, cluster(2) as two:
        if count:
            logs = archive(count)
            batch = rounds_without_workers({
                "loop": lambda: [audit_one(p) for p in logs],
                "dask2": lambda: batch_audit(two, logs, str(OUT / "batch-findings"), full=True),
            }, rounds)
            figure(f"batch audit: {len(logs):,} fixture-sized logs on 2 local workers (Parquet written) vs one "
                   f"process in a loop", f"`audit_one` in a loop, {len(logs) / batch.median('loop'):.0f} logs/s",
                   f"{len(logs) / batch.median('dask2'):.0f} logs/s", batch.ratio("loop", "dask2"), ">= 1.6",
                   batch.load, rounds)
        if n:
            sim = rounds_without_workers({
                "bare": lambda: [play(setup, fight_seed(MASTER, i)) for i in range(n)],
                "dask1": lambda: simulate(one, setup, MASTER, n, audit_every=0),
                "dask2": lambda: simulate(two, setup, MASTER, n, audit_every=0),
            }, rounds)
            figure(f"sim: fights/s of {n:,} fights on 1 local worker vs a bare in-process loop (table API, no Dask)",
                   f"bare loop, {n / sim.median('bare'):.0f} fights/s", f"{n / sim.median('dask1'):.0f} fights/s",
                   sim.ratio("bare", "dask1"), ">= 0.8", sim.load, rounds)
            figure(f"sim: fights/s of {n:,} fights on 2 local workers vs 1",
                   f"1 worker, {n / sim.median('dask1'):.0f} fights/s", f"{n / sim.median('dask2'):.0f} fights/s",
                   sim.ratio("dask1", "dask2"), ">= 1.6", sim.load, rounds)


def memory(counts: str, scenario: Path) -> None:
    """The peak-memory figures: a run of each count, the smaller first."""
    small, big = sorted(int(x) for x in counts.split(","))
    watch = LoadWatch()
    runs = {count: sim_peaks(scenario, count) for count in (small, big)}
    load = watch.load()
    client = {count: int(runs[count]["client_kib"]) for count in runs}  # type: ignore[call-overload]
    workers: dict[int, list[int]] = {count: list(runs[count]["worker_kib"]) for count in runs}  # type: ignore[call-overload]
    print(f"runs ({scenario.name}): " + "; ".join(f"{c:,} fights in {runs[c]['seconds']} s" for c in runs))
    figure(f"peak memory of the `fightlog sim` client process (the embedded scheduler in it), {big:,} vs {small:,} "
           f"fights ({scenario.name})", f"{small:,} fights, {mib(client[small])}", mib(client[big]),
           Spread.of([client[big] / client[small]]), "<= 1.2", load, 1)
    figure(f"peak memory of each of 2 Dask workers, {big:,} vs {small:,} fights ({scenario.name})",
           f"{small:,} fights, {' and '.join(mib(k) for k in workers[small])}",
           " and ".join(mib(k) for k in workers[big]),
           Spread.of([b / a for a, b in zip(workers[small], workers[big])]), "<= 1.2", load, 1)


def rates(count: int, rounds: int) -> None:
    """Fights per second on one core, each ruleset, and the projection to 64 cores."""
    for ruleset, source in PER_RULESET.items():
        each = load_setup(str(source))
        timing = interleaved({"play": lambda: play_chunk(each, MASTER, 0, count, 0)}, rounds)
        per_second = [count / s for s in timing.seconds["play"]]
        spread = Spread.of(per_second)
        figure(f"sim: {ruleset} fights per second on one core ({source.name}, in-process)",
               "none (a rate)", f"{spread.median:.0f} fights/s", spread, "", timing.load, rounds, unit="")
        hours = 10_000_000 / (spread.median * 64) / 3600
        print(f"PROJECTION {ruleset}: 10M fights on 64 cores at {spread.median:.0f} fights/s/core: {hours:.2f} h "
              f"(perfect scaling; the 2-worker figure above measures how far from it)")


if __name__ == "__main__":
    raise SystemExit(main())
