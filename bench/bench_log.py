"""Benchmarks of the log foundation (issue 2), as same-run ratios.

    python bench/bench_log.py [--events 1000000] [--rounds 5]

1. verify throughput on a 1M-event log vs bare msgspec decoding of the same lines
   (target >= 0.5x; the baseline is, each round, the faster of typed and untyped decoding,
   no hashing, no checks); all three interleaved round by round;
2. peak memory of ``fightlog verify`` on 1M events vs on 1k events (target <= 1.1x: it
   streams), each read from the command alone (``memory.py``);
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

from figures import events_label, figure, peak_figure, rate  # noqa: E402
from measure import build_measured, command, fightlog_script, interleaved  # noqa: E402
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
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"build: {build_measured()}")
    os.makedirs(OUT, exist_ok=True)
    n = args.events
    big = write_log(os.path.join(OUT, f"log-{n}.jsonl"), n)
    small = write_log(os.path.join(OUT, "log-1000.jsonl"), 1000)
    tiny = write_log(os.path.join(OUT, "log-10.jsonl"), 10)
    size = events_label(n)
    print(f"log: {n} events, {os.path.getsize(big) / 1e6:.0f} MB")

    rounds = interleaved(
        {
            "typed": lambda: bare_decode(big, DECODER.decode),
            "untyped": lambda: bare_decode(big, msgspec.json.decode),
            "verify": lambda: verify(big),
        },
        args.rounds,
    )
    base = [min(a, b) for a, b in zip(rounds.seconds["typed"], rounds.seconds["untyped"])]
    rounds.seconds["decode"] = base
    figure(
        f"`verify_log` throughput, {size} events", f"bare decoding (faster of typed, untyped), {rate(n, rounds.median('decode'))}",
        rate(n, rounds.median("verify")), rounds.ratio("decode", "verify"), ">= 0.5", rounds.load, args.rounds,
    )

    fightlog = fightlog_script()
    peak_figure(f"peak RSS of `fightlog verify`, {size} vs 1k events", "the same on 1k events",
                [fightlog, "verify", big], [fightlog, "verify", small], "<= 1.1")

    imports, ours = command([sys.executable, "-c", "import msgspec, click"]), command([fightlog, "verify", tiny])
    imports(), ours()
    startup_rounds = max(10, args.rounds * 5)
    startup = interleaved({"imports": imports, "verify": ours}, startup_rounds)
    figure(
        "start-up: `fightlog verify` on 10 events", f"`python -c \"import msgspec, click\"`, {startup.median('imports') * 1000:.1f} ms",
        f"{startup.median('verify') * 1000:.1f} ms", startup.ratio("verify", "imports"), "<= 1.3", startup.load, startup_rounds,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
