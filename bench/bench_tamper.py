"""The long tampering run: detection rates of ``verify`` on mutated bundled logs.

    python bench/bench_tamper.py [--count 1000] [--seed 19]

Applies ``--count`` seeded mutations (``tests/reliability/mutations.py``: byte and digit
edits, deletions, insertions, swaps, truncations at and inside a line, re-chained forgeries
and deletions) to the four logs of ``tests/reliability/test_tampering.py`` and prints, per
kind: how many ``verify`` caught with the original head (the target: all), how many without
it, and how many of those the docs (docs/events.md, "What verify can and cannot detect")
say it catches. Exits 1 if a mutation escapes the head or a verdict differs from the docs.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import figure  # noqa: E402
from load import LoadWatch  # noqa: E402
from measure import Spread  # noqa: E402

from tests.reliability.mutations import MUTATIONS  # noqa: E402
from tests.reliability.test_tampering import cases, detected, head_of  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=19)
    args = parser.parse_args()
    watch = LoadWatch()
    total, with_head, without, documented, agree = Counter(), Counter(), Counter(), Counter(), Counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.jsonl"
        for kind, log, seed in cases(args.count, args.seed):
            data, seen = MUTATIONS[kind](log.read_bytes().splitlines(), random.Random(seed))
            path.write_bytes(data)
            total[kind] += 1
            with_head[kind] += detected(path, head_of(log))
            found = detected(path, None)
            without[kind] += found
            documented[kind] += seen
            agree[kind] += found == seen
            os.unlink(path)
    print(f"{'mutation':18} {'n':>5} {'with head':>10} {'no head':>8} {'docs say':>9} {'as docs':>8}")
    for kind in sorted(total):
        print(f"{kind:18} {total[kind]:5} {with_head[kind]:10} {without[kind]:8} {documented[kind]:9} {agree[kind]:8}")
    n = sum(total.values())
    print(f"{'all':18} {n:5} {sum(with_head.values()):10} {sum(without.values()):8} "
          f"{sum(documented.values()):9} {sum(agree.values()):8}")
    print(f"detection with the head: {sum(with_head.values()) / n:.1%}; without: {sum(without.values()) / n:.1%} "
          f"({sum(agree.values())} of {n} verdicts as documented)")
    load = watch.load()
    caught = 100 * sum(with_head.values()) / n
    figure(f"caught by `verify --head SEQ:SHA256` (the original head), {n} mutations, seed {args.seed}", "-",
           f"{sum(with_head.values())} of {n}", Spread(caught, caught, caught), ">= 100", load, n, unit="%")
    right = 100 * sum(agree.values()) / n
    figure(f"verdicts of `verify` without a head as docs/events.md documents them, {n} mutations", "-",
           f"{sum(agree.values())} of {n}; {sum(without.values())} caught", Spread(right, right, right), ">= 100",
           load, n, unit="%")
    return 0 if sum(with_head.values()) == n and sum(agree.values()) == n else 1


if __name__ == "__main__":
    sys.exit(main())
