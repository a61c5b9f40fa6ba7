"""Dice engine throughput against avrae's d20, as same-run ratios (run by hand).

    python bench/bench_dice.py [--rolls N] [--repeats R]

For each expression it times N rolls of ours (the verifiable generator: HMAC-SHA256 per roll,
rejection sampling, full result) and N ``d20.roll()`` calls, alternating the two R times and
keeping the best run of each, so both see the same machine load. Targets: ours >= 5x d20 on
``1d100+15``, ``3d20kh1+5`` and ``2d6+2``; ``5d6>=5`` within 2x of our ``2d6+2``.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

import d20

from fightlog.rules.dice import FairGenerator, roll

VERSUS_D20 = ("1d100+15", "3d20kh1+5", "2d6+2")
OWN_PAIR = ("5d6>=5", "2d6+2")
TARGET_VS_D20 = 5.0
TARGET_OWN = 2.0


def time_ours(expr: str, rolls: int, start: int) -> float:
    gen = FairGenerator(bytes(range(32)), "bench")
    t0 = time.perf_counter()
    for i in range(start, start + rolls):
        roll(expr, gen, i)
    return time.perf_counter() - t0


def time_d20(expr: str, rolls: int, start: int) -> float:
    d20_roll = d20.roll
    t0 = time.perf_counter()
    for _ in range(rolls):
        d20_roll(expr)
    return time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--rolls", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    rolls, repeats = args.rolls, args.repeats
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{rolls} rolls x best of {repeats}")
    exprs = list(dict.fromkeys(VERSUS_D20 + OWN_PAIR))
    ours: dict[str, float] = {e: float("inf") for e in exprs}
    theirs: dict[str, float] = {e: float("inf") for e in VERSUS_D20}
    for e in exprs:  # warm caches
        time_ours(e, 1000, 0)
        if e in theirs:
            time_d20(e, 1000, 0)
    for run in range(repeats):
        for e in exprs:
            start = (run + 1) * rolls  # fresh roll indexes every run
            ours[e] = min(ours[e], time_ours(e, rolls, start))
            if e in theirs:
                theirs[e] = min(theirs[e], time_d20(e, rolls, start))
    ok = True
    print(f"{'expression':<12} {'ours rolls/s':>14} {'d20 rolls/s':>13} {'ratio':>7}")
    for e in VERSUS_D20:
        ratio = theirs[e] / ours[e]
        ok &= ratio >= TARGET_VS_D20
        print(f"{e:<12} {rolls / ours[e]:>14,.0f} {rolls / theirs[e]:>13,.0f} {ratio:>6.2f}x"
              f"  (target >= {TARGET_VS_D20:g}x)")
    slow, fast = OWN_PAIR
    own = ours[slow] / ours[fast]
    ok &= own <= TARGET_OWN
    print(f"{slow} takes {own:.2f}x the time of {fast} (ours; target <= {TARGET_OWN:g}x); "
          f"{slow}: {rolls / ours[slow]:,.0f} rolls/s")
    print("all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
