"""Benchmarks of the fold and of `fightlog state` (issue 4), as same-run ratios.

    python bench/bench_state.py [--events 1000000] [--repeat 3]

1. decode + fold into the full SceneState of a 1M-event log vs bare msgspec decoding of the
   same lines (target >= 0.33x);
2. peak memory of that fold on 1M events vs on 1k events (target <= 1.1x);
3. `fightlog state` on the 1M-event log with a current checkpoint plus 10 newer events vs
   `fightlog state` on a 1k-event log (target <= 1.5x).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from measure import best_time, build_measured, command_time, peak_rss_kib  # noqa: E402
from synth import write_log  # noqa: E402

from fightlog.events.codec import DECODER  # noqa: E402
from fightlog.events.model import DamageApplied  # noqa: E402
from fightlog.events.store import FileStore  # noqa: E402
from fightlog.reducers.fold import fold  # noqa: E402
from fightlog.reducers.state import SceneState  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")


def bare_decode(path: str) -> None:
    decode = DECODER.decode
    with open(path, "rb", buffering=1 << 20) as f:
        for line in f:
            decode(line)


def decode_and_fold(path: str) -> SceneState:
    with open(path, "rb", buffering=1 << 20) as f:
        return fold(map(DECODER.decode, f))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child-fold", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_fold:
        decode_and_fold(args.child_fold)
        return 0
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    big = write_log(os.path.join(OUT, f"log-{args.events}.jsonl"), args.events)
    small = write_log(os.path.join(OUT, "log-1000.jsonl"), 1000)

    base = best_time(lambda: bare_decode(big), args.repeat)
    ours = best_time(lambda: decode_and_fold(big), args.repeat)
    print(f"bare decode {args.events / base:,.0f}/s; decode + fold {args.events / ours:,.0f}/s")
    print(f"RATIO decode+fold throughput / bare decode = {base / ours:.2f}x (target >= 0.33x)")

    me = [sys.executable, os.path.abspath(__file__), "--child-fold"]
    rss_big, rss_small = peak_rss_kib([*me, big]), peak_rss_kib([*me, small])
    print(f"peak RSS of the fold: 1k events {rss_small} KiB, {args.events} events {rss_big} KiB")
    print(f"RATIO fold peak memory big / 1k = {rss_big / rss_small:.2f}x (target <= 1.1x)")

    fightlog = os.path.join(os.path.dirname(sys.executable), "fightlog")
    with tempfile.TemporaryDirectory() as tmp:
        env_cache = os.path.join(tmp, "cache")
        os.environ["XDG_CACHE_HOME"] = env_cache  # a private checkpoint key for this run
        work = os.path.join(tmp, "big.jsonl")
        shutil.copyfile(big, work)
        subprocess.run([fightlog, "state", work], check=True, capture_output=True)  # writes the checkpoint
        FileStore(work, fsync=False).append([DamageApplied(target="bob", raw=1, taken=1)] * 10)
        repeat = max(10, args.repeat * 5)
        t_big = command_time([fightlog, "state", work], repeat)
        t_small = command_time([fightlog, "state", "--no-cache", small], repeat)
        t_small_cached = command_time([fightlog, "state", small], repeat)
        print(
            f"fightlog state: {args.events} events + checkpoint + 10 newer {t_big * 1000:.1f} ms; "
            f"1k events {t_small * 1000:.1f} ms (no cache), {t_small_cached * 1000:.1f} ms (cached)"
        )
        print(f"RATIO state (1M, checkpoint + 10) / state (1k) = {t_big / t_small:.2f}x (target <= 1.5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
