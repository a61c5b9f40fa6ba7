"""The cost of the checkpoint's safety check (issue 19, item 4), as same-run ratios.

    python bench/bench_checkpoint.py [--events 1000000] [--repeat 15] [--appends 200]

1. `fightlog state` on the 1M-event log with a checkpoint plus 10 newer events appended by
   fightlog (the sidecar's witness vouched for by each append) vs `fightlog state --no-cache`
   on a 1k-event log (target <= 1.5x). The two commands alternate, best of ``--repeat`` each;
   peak RSS of each read with ``wait4`` on that command alone.
2. What the check costs an append: ``FileStore.append`` of one event (fsynced) to a log with a
   sidecar, which moves the witness on, vs the same append to a log without one, alternating.
3. For the record, once: the fold from line 1 that an outside write costs the next `state`
   (`state` after a byte was appended by another hand, which leaves a fresh checkpoint).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from measure import build_measured, peak_rss_kib  # noqa: E402
from synth import write_log  # noqa: E402

from fightlog.events.model import DamageApplied  # noqa: E402
from fightlog.events.store import FileStore  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")


def once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0 or done.stderr:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr.decode()}")
    return elapsed


def alternate(a: list[str], b: list[str], repeat: int, env: dict[str, str]) -> tuple[float, float]:
    """Best wall time of each command, run in turn (a, b, a, b, ...) after one warm-up each
    with bytecode writing on (as `measure.command_time` does)."""
    once(a, env), once(b, env)
    best_a = best_b = float("inf")
    for _ in range(repeat):
        best_a = min(best_a, once(a, env))
        best_b = min(best_b, once(b, env))
    return best_a, best_b


def append_times(with_sidecar: str, without: str, count: int) -> tuple[float, float]:
    """Mean seconds per fsynced one-event append, alternating between the two logs."""
    stores = (FileStore(with_sidecar), FileStore(without))
    spent = [0.0, 0.0]
    event = [DamageApplied(target="bob", raw=1, taken=1)]
    for _ in range(count):
        for i, store in enumerate(stores):
            start = time.perf_counter()
            store.append(event)
            spent[i] += time.perf_counter() - start
    return spent[0] / count, spent[1] / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--appends", type=int, default=200)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    big = write_log(os.path.join(OUT, f"log-{args.events}.jsonl"), args.events)
    small = write_log(os.path.join(OUT, "log-1000.jsonl"), 1000)
    fightlog = os.path.join(os.path.dirname(sys.executable), "fightlog")
    with tempfile.TemporaryDirectory(dir=OUT) as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["XDG_CACHE_HOME"] = os.environ["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")  # a private key
        work = os.path.join(tmp, "big.jsonl")
        shutil.copyfile(big, work)
        once([fightlog, "state", work], env)  # the full fold, which writes the checkpoint
        FileStore(work, fsync=False).append([DamageApplied(target="bob", raw=1, taken=1)] * 10)
        cached = [fightlog, "state", work]
        baseline = [fightlog, "state", "--no-cache", small]
        t_big, t_small = alternate(cached, baseline, args.repeat, env)
        rss_big, rss_small = peak_rss_kib(cached), peak_rss_kib(baseline)
        print(
            f"fightlog state: {args.events} events + checkpoint + 10 newer {t_big * 1000:.1f} ms, "
            f"{rss_big / 1024:.1f} MB; 1k events, --no-cache {t_small * 1000:.1f} ms, {rss_small / 1024:.1f} MB"
        )
        print(f"RATIO state (1M, checkpoint + 10) / state (1k) = {t_big / t_small:.2f}x (target <= 1.5x)")

        side, bare = os.path.join(tmp, "side.jsonl"), os.path.join(tmp, "bare.jsonl")
        shutil.copyfile(small, side), shutil.copyfile(small, bare)
        FileStore(side, fsync=False).append([DamageApplied(target="bob", raw=1, taken=1)] * 1000)
        once([fightlog, "state", side], env)  # 2,000 events: leaves a checkpoint
        assert os.path.exists(side + ".checkpoints")
        a_side, a_bare = append_times(side, bare, args.appends)
        once([fightlog, "state", side], env)  # still vouched: no full fold, no error
        print(
            f"fsynced one-event append: {a_side * 1000:.2f} ms with a sidecar, "
            f"{a_bare * 1000:.2f} ms without ({args.appends} each, alternating)"
        )
        print(f"RATIO append with sidecar / without = {a_side / a_bare:.2f}x")

        with open(work, "r+b") as f:  # another hand writes its first byte again: same bytes, new times
            first = f.read(1)
            f.seek(0)
            f.write(first)
        start = time.perf_counter()
        subprocess.run([fightlog, "state", work], capture_output=True, env=env)
        print(f"state after an outside write (a full fold, then a fresh checkpoint): {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
