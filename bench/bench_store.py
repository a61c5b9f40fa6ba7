"""Benchmarks and long reliability runs of the file store (issue 19), as same-run ratios.

    python bench/bench_store.py [--appends 2000] [--repeat 3] [--trials 100] [--long-appends 1000]

1. appends/s with fsync, one writer (baseline) vs 16 writers on the same log (target: the 16
   writers together >= 0.8x the one writer; the lock must not collapse throughput). The runs
   are interleaved round by round (``--repeat`` rounds), the median of the rounds' ratios
   reported with its range; writers are forked and start together, so process start-up is
   not timed;
2. kill -9 at random moments of a child appending (single events and batches, half of the
   trials with writes spread out so the kill lands inside them): trials, acknowledged events,
   losses (target 0), and how each log ended (intact, a newline added, an unfinished append
   moved aside);
3. 16 processes x ``--long-appends`` appends (mixed batches, with fsync): every acknowledged
   event present once, the chain intact.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import figure  # noqa: E402
from load import LoadWatch  # noqa: E402
from measure import Spread, interleaved  # noqa: E402

from fightlog.errors import TornTailError  # noqa: E402
from fightlog.events.integrity import verify_log  # noqa: E402
from fightlog.events.model import DeclarationPosted  # noqa: E402
from fightlog.events.repair import repair_torn_tail  # noqa: E402
from fightlog.events.store import FileStore  # noqa: E402
from tests.reliability.common import acknowledged, appender, ids_in, start_log  # noqa: E402


def _writer(path: str, count: int, go: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    store = FileStore(path, fsync=True)
    event = DeclarationPosted(actor="alice", text="an ordinary post of a few words")
    go.wait()
    for _ in range(count):
        store.append([event])


def appends_per_second(folder: str, writers: int, total: int) -> float:
    path = os.path.join(folder, f"w{writers}.jsonl")
    if os.path.exists(path):
        os.unlink(path)
    start_log(Path(path))
    context = multiprocessing.get_context("fork")
    go = context.Event()
    procs = [context.Process(target=_writer, args=(path, total // writers, go)) for _ in range(writers)]
    for proc in procs:
        proc.start()
    time.sleep(0.2)
    start = time.perf_counter()
    go.set()
    for proc in procs:
        proc.join()
    elapsed = time.perf_counter() - start
    assert verify_log(path).events == 1 + total // writers * writers
    return total // writers * writers / elapsed


def throughput(folder: str, total: int, repeat: int) -> None:
    one: list[float] = []
    many: list[float] = []
    rounds = interleaved({"one": lambda: one.append(appends_per_second(folder, 1, total)),
                          "many": lambda: many.append(appends_per_second(folder, 16, total))}, repeat)
    figure(
        "appends/s with fsync, 16 writers on one log (forked, started together, single-event appends)",
        f"one writer, the same number of appends, {statistics.median(one):,.0f} appends/s",
        f"{statistics.median(many):,.0f} appends/s", Spread.of([b / a for a, b in zip(one, many)]), ">= 0.8",
        rounds.load, repeat,
    )


def kill_trials(folder: str, trials: int) -> None:
    watch = LoadWatch()
    rng = random.Random(19)
    acked_total = lost = 0
    endings: Counter[str] = Counter()
    for trial in range(trials):
        work = Path(folder) / f"trial-{trial}"
        work.mkdir()
        log, acks = work / "log.jsonl", work / "acks"
        if trial % 4:
            start_log(log)
        child = appender(log, acks, f"t{trial}", 100_000, trial, *(("slow",) if trial % 2 else ()))
        while not acks.exists() or not acks.stat().st_size:
            if child.poll() is not None:
                raise SystemExit(f"trial {trial}: the appender failed: {child.stderr.read() if child.stderr else ''}")
            time.sleep(0.005)
        time.sleep(rng.uniform(0, 0.15))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        acked = acknowledged(acks)
        acked_total += len(acked)
        if not log.exists():
            endings["no log yet"] += 1
            lost += len(acked)
            continue
        before = log.read_bytes()
        problem = verify_log(log).problem
        if problem is not None and not isinstance(problem, TornTailError):
            endings["damaged (not a torn tail)"] += 1
        repaired = repair_torn_tail(str(log))
        after = log.read_bytes()
        side = Path(repaired.side_file).read_bytes() if repaired and repaired.side_file else b""
        if repaired is None:
            endings["intact"] += 1
        elif repaired.action == "added_newline":
            endings["newline added"] += 1
        else:
            whole = "an unfinished append" if b'"batch"' in side and side.count(b"\n") else "a torn line"
            endings[f"moved aside: {whole}"] += 1
            if after + side != before:
                endings["BYTES DELETED"] += 1
        if not verify_log(log).ok:
            endings["NOT INTACT AFTER REPAIR"] += 1
        in_log = ids_in(after)
        lost += sum(1 for seq, ident in acked.items() if in_log.get(seq) != ident)
        shutil.rmtree(work)
    print(f"kill -9: {trials} trials, {acked_total:,} acknowledged events, {lost} lost (target 0)")
    print(f"  endings: {dict(sorted(endings.items()))}")
    figure(
        "kill -9 at a random moment of an appending child: acknowledged events lost",
        f"{trials} trials, {acked_total:,} acknowledged events", f"{lost} lost",
        Spread(lost, lost, lost), "<= 0", watch.load(), trials, unit="",
    )


def long_appenders(folder: str, appends: int) -> None:
    watch = LoadWatch()
    work = Path(folder) / "long"
    work.mkdir()
    log = work / "shared.jsonl"
    start_log(log)
    start = time.perf_counter()
    children = [appender(log, work / f"acks-{n}", f"w{n}", appends, n) for n in range(16)]
    failed = sum(1 for child in children if child.wait() != 0)
    elapsed = time.perf_counter() - start
    result = verify_log(log)
    in_log = ids_in(log.read_bytes())
    acked: dict[int, str] = {}
    for n in range(16):
        acked.update(acknowledged(work / f"acks-{n}"))
    lost = sum(1 for seq, ident in acked.items() if in_log.get(seq) != ident)
    twice = sum(1 for ident, k in Counter(in_log.values()).items() if ident and k > 1)
    print(
        f"16 x {appends} appenders (fsync, mixed batches): {len(acked):,} events acknowledged, {lost} lost, "
        f"{twice} twice, {failed} writers failed, chain {'intact' if result.ok else result.problem}; {elapsed:.1f} s"
    )
    wrong = lost + twice + failed + (not result.ok)
    figure(
        f"16 processes x {appends} appends (fsync, mixed batches): events lost or twice, writers failed, chain broken",
        f"{len(acked):,} events acknowledged", f"{lost} lost, {twice} twice, chain {'intact' if result.ok else 'BROKEN'}",
        Spread(wrong, wrong, wrong), "<= 0", watch.load(), 1, unit="",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--appends", type=int, default=2000, help="appends per throughput run (all writers together)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--long-appends", type=int, default=1000)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-store-")
    try:
        throughput(folder, args.appends, args.repeat)
        kill_trials(folder, args.trials)
        long_appenders(folder, args.long_appends)
    finally:
        shutil.rmtree(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
