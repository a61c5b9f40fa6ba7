"""Benchmarks of the log foundation (issue 2), as same-run ratios.

    python bench/bench_log.py [--events 1000000] [--repeat 3]

1. verify throughput on a 1M-event log vs bare msgspec decoding of the same lines
   (target >= 0.5x; the baseline is the faster of typed and untyped decoding, no hashing,
   no checks);
2. peak memory of verify on 1M events vs on 1k events (target <= 1.1x: it streams);
3. start-up: ``fightlog verify`` on a 10-event log vs ``python -c "import msgspec, click"``
   (target <= 1.3x).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

import msgspec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from measure import best_time, command_time, peak_rss_kib  # noqa: E402
from synth import write_log  # noqa: E402

from fightlog.events.codec import DECODER  # noqa: E402
from fightlog.events.integrity import verify_log  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")


def bare_decode(path: str, decode: Callable[[bytes], object]) -> int:
    """The baseline: read the lines and decode each, nothing else (no hash, no check)."""
    n = 0
    with open(path, "rb", buffering=1 << 20) as f:
        for line in f:
            decode(line)
            n += 1
    return n


def verify(path: str) -> int:
    result = verify_log(path)
    assert result.ok, result.problem
    return result.head.seq


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.makedirs(OUT, exist_ok=True)
    big = write_log(os.path.join(OUT, f"log-{args.events}.jsonl"), args.events)
    small = write_log(os.path.join(OUT, "log-1000.jsonl"), 1000)
    tiny = write_log(os.path.join(OUT, "log-10.jsonl"), 10)
    size_mb = os.path.getsize(big) / 1e6
    print(f"log: {args.events} events, {size_mb:.0f} MB")

    typed = best_time(lambda: bare_decode(big, DECODER.decode), args.repeat)
    untyped = best_time(lambda: bare_decode(big, msgspec.json.decode), args.repeat)
    baseline = min(typed, untyped)
    checked = best_time(lambda: verify(big), args.repeat)
    print(f"bare decode: typed {args.events / typed:,.0f}/s, untyped {args.events / untyped:,.0f}/s")
    print(f"verify:      {args.events / checked:,.0f} events/s")
    print(f"RATIO verify throughput / bare decode = {baseline / checked:.2f}x (target >= 0.5x)")

    # The console script installed beside this interpreter (not a pyenv shim on PATH).
    fightlog = os.path.join(os.path.dirname(sys.executable), "fightlog")
    rss_big = peak_rss_kib([fightlog, "verify", big])
    rss_small = peak_rss_kib([fightlog, "verify", small])
    print(f"peak RSS: verify 1k events {rss_small} KiB, {args.events} events {rss_big} KiB")
    print(f"RATIO verify peak memory big / 1k = {rss_big / rss_small:.2f}x (target <= 1.1x)")

    startup_repeat = max(10, args.repeat * 5)
    base = command_time([sys.executable, "-c", "import msgspec, click"], startup_repeat)
    ours = command_time([fightlog, "verify", tiny], startup_repeat)
    print(f"start-up: python -c 'import msgspec, click' {base * 1000:.1f} ms, fightlog verify (10 events) {ours * 1000:.1f} ms")
    print(f"RATIO verify start-up / import msgspec+click = {ours / base:.2f}x (target <= 1.3x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
