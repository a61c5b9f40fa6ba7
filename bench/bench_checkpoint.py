"""The cost of the checkpoint's safety check (issue 19, item 4), as same-run ratios.

    python bench/bench_checkpoint.py [--events 1000000] [--rounds 15] [--appends 200]

1. `fightlog state` on the 1M-event log with a checkpoint plus 10 newer events appended by
   fightlog (the sidecar's witness vouched for by each append) vs `fightlog state --no-cache`
   on a 1k-event log (target <= 1.5x), interleaved round by round; the peak memory of each
   read from that command alone (``memory.py``).
2. What the check costs an append: ``FileStore.append`` of one event (fsynced) to a log with a
   sidecar, which moves the witness on, vs the same append to a log without one; a round is
   ten appends to each, interleaved.
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
from collections.abc import Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from figures import events_label, figure, mib  # noqa: E402
from measure import bench_env, build_measured, command, fightlog_script, interleaved  # noqa: E402
from synth import write_log  # noqa: E402

from fightlog.events.model import DamageApplied  # noqa: E402
from fightlog.events.store import FileStore  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
APPENDS_A_ROUND = 10


def appender(path: str) -> Callable[[], None]:
    """Ten fsynced one-event appends to ``path`` (one round of the append figure)."""
    store = FileStore(path)
    event = [DamageApplied(target="bob", raw=1, taken=1)]

    def run() -> None:
        for _ in range(APPENDS_A_ROUND):
            store.append(event)

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--appends", type=int, default=200)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    size = events_label(args.events)
    big = write_log(os.path.join(OUT, f"log-{args.events}.jsonl"), args.events)
    small = write_log(os.path.join(OUT, "log-1000.jsonl"), 1000)
    fightlog = fightlog_script()
    with tempfile.TemporaryDirectory(dir=OUT) as tmp:
        env = bench_env(XDG_CACHE_HOME=os.path.join(tmp, "cache"))  # a private checkpoint key
        os.environ["XDG_CACHE_HOME"] = env["XDG_CACHE_HOME"]
        work = os.path.join(tmp, "big.jsonl")
        shutil.copyfile(big, work)
        subprocess.run([fightlog, "state", work], check=True, capture_output=True, env=env)  # writes the checkpoint
        FileStore(work, fsync=False).append([DamageApplied(target="bob", raw=1, taken=1)] * 10)
        cached, baseline = command([fightlog, "state", work], env), command([fightlog, "state", "--no-cache", small], env)
        cached(), baseline()
        states = interleaved({"cached": cached, "small": baseline}, args.rounds)
        figure(
            f"`fightlog state`, {size} events with a checkpoint + 10 events appended by `FileStore`",
            f"`fightlog state --no-cache` on 1k events, {states.median('small') * 1000:.1f} ms, {mib(states.peak('small'))}",
            f"{states.median('cached') * 1000:.1f} ms, {mib(states.peak('cached'))}",
            states.ratio("cached", "small"), "<= 1.5", states.load, args.rounds,
        )

        side, bare = os.path.join(tmp, "side.jsonl"), os.path.join(tmp, "bare.jsonl")
        shutil.copyfile(small, side), shutil.copyfile(small, bare)
        FileStore(side, fsync=False).append([DamageApplied(target="bob", raw=1, taken=1)] * 1000)
        subprocess.run([fightlog, "state", side], check=True, capture_output=True, env=env)  # 2,000 events: a checkpoint
        assert os.path.exists(side + ".checkpoints")
        append_rounds = max(2, args.appends // APPENDS_A_ROUND)
        appends = interleaved({"side": appender(side), "bare": appender(bare)}, append_rounds)
        done = subprocess.run([fightlog, "state", side], capture_output=True, env=env)  # still vouched: no error
        assert done.returncode == 0 and not done.stderr, done.stderr
        per = 1000 / APPENDS_A_ROUND
        figure(
            "fsynced one-event `FileStore.append` to a log with a sidecar (the witness moved on)",
            f"the same append to a log without one, {appends.median('bare') * per:.2f} ms",
            f"{appends.median('side') * per:.2f} ms", appends.ratio("side", "bare"), "", appends.load,
            append_rounds,
        )

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
