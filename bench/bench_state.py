"""Benchmarks of the fold and of `fightlog state` (issue 4), as same-run ratios.

    python bench/bench_state.py [--events 1000000] [--rounds 5]

1. decode + fold into the full SceneState of a 1M-event log vs bare msgspec decoding of the
   same lines, interleaved round by round (target >= 0.33x);
2. peak memory of that fold (a child process, read alone) on 1M events vs on 1k events
   (target <= 1.1x);
3. `fightlog state` on the 1M-event log with a current checkpoint plus 10 newer events vs
   `fightlog state --no-cache` on a 1k-event log (target <= 1.5x).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from baselines import bare_decode, decode_and_fold  # noqa: E402
from figures import events_label, figure, peak_figure, rate  # noqa: E402
from measure import bench_env, build_measured, command, fightlog_script, interleaved  # noqa: E402
from synth import write_log  # noqa: E402

from fightlog.events.model import DamageApplied  # noqa: E402
from fightlog.events.store import FileStore  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child-fold", metavar="PATH", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_fold:
        decode_and_fold(args.child_fold)
        return 0
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    n, size = args.events, events_label(args.events)
    big = write_log(os.path.join(OUT, f"log-{n}.jsonl"), n)
    small = write_log(os.path.join(OUT, "log-1000.jsonl"), 1000)

    rounds = interleaved({"decode": lambda: bare_decode(big), "fold": lambda: decode_and_fold(big)}, args.rounds)
    figure(
        f"decode + fold into `SceneState`, {size} events", f"bare decoding, {rate(n, rounds.median('decode'))}",
        rate(n, rounds.median("fold")), rounds.ratio("decode", "fold"), ">= 0.33", rounds.load, args.rounds,
    )

    me = [sys.executable, os.path.abspath(__file__), "--child-fold"]
    peak_figure(f"peak RSS of that fold, {size} vs 1k events", "the same fold of 1k events", [*me, big], [*me, small], "<= 1.1")

    fightlog = fightlog_script()
    with tempfile.TemporaryDirectory(dir=OUT) as tmp:
        env = bench_env(XDG_CACHE_HOME=os.path.join(tmp, "cache"))  # a private checkpoint key for this run
        work = os.path.join(tmp, "big.jsonl")
        shutil.copyfile(big, work)
        subprocess.run([fightlog, "state", work], check=True, capture_output=True, env=env)  # writes the checkpoint
        FileStore(work, fsync=False).append([DamageApplied(target="bob", raw=1, taken=1)] * 10)
        cached, uncached = command([fightlog, "state", work], env), command([fightlog, "state", "--no-cache", small], env)
        cached(), uncached()
        repeat = max(10, args.rounds * 3)
        states = interleaved({"cached": cached, "small": uncached}, repeat)
        figure(
            f"`fightlog state`, {size} events with a checkpoint + 10 newer", "`fightlog state --no-cache` on 1k events, "
            f"{states.median('small') * 1000:.1f} ms", f"{states.median('cached') * 1000:.1f} ms",
            states.ratio("cached", "small"), "<= 1.5", states.load, repeat,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
